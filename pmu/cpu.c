// SPDX-License-Identifier: MIT
/*
 * cpu.c - CPUID and the capability MSRs, through the hw seam, and the
 * capability report.  Every MSR is read only where CPUID says it exists:
 *   IA32_BIOS_SIGN_ID, IA32_MISC_ENABLE - Intel (SDM Vol. 4, Table 2-2);
 *   IA32_PERF_CAPABILITIES - CPUID.1:ECX[15] PDCM (SDM Vol. 4, MSR 345H).
 */
#include "cpu.h"
#include "cpu_quirk.h"
#include "guest.h"
#include "hw.h"
#include "perfmon.h"
#include "uarch.h"
#include "../decode/decode.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

static void cpuid(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	hw_cpuid(leaf, sub, r);
}

static void regs_to_str(char *dst, uint32_t a, uint32_t b, uint32_t c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = 0;
}

/* Vendor strings, CPUID.0:EBX,EDX,ECX (SDM Vol. 2A, CPUID leaf 0). */
static const struct {
	const char *str;
	enum cpu_vendor vendor;
} vendor_table[] = {
    {"GenuineIntel", VENDOR_INTEL},
    {"AuthenticAMD", VENDOR_AMD},
};

/* Hypervisor signatures, leaf 0x40000000 EBX:ECX:EDX (QEMU target/i386, Linux kvm_para.h). */
static const struct {
	const char sig[13];
	enum cpu_hypervisor hv;
} hv_table[] = {
    {"KVMKVMKVM\0\0\0", HV_KVM},
    {"TCGTCGTCGTCG", HV_TCG},
};

static void probe_ident(struct cpu_info *ci)
{
	struct cpuid_regs r;
	uint32_t base_family, base_model;

	cpuid(0, 0, &r);
	ci->max_leaf = r.eax;
	regs_to_str(ci->vendor_str, r.ebx, r.edx, r.ecx);
	ci->vendor = VENDOR_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(vendor_table); i++)
		if (!strcmp(ci->vendor_str, vendor_table[i].str))
			ci->vendor = vendor_table[i].vendor;

	cpuid(1, 0, &r);
	/* Display family/model: SDM Vol. 2A, CPUID.01H:EAX, "Version Information". */
	base_family = (r.eax >> 8) & 0xf;
	base_model = (r.eax >> 4) & 0xf;
	ci->family = base_family == 0xf ? base_family + ((r.eax >> 20) & 0xff) : base_family;
	ci->model = (base_family == 6 || base_family == 0xf)
			? (((r.eax >> 16) & 0xf) << 4) + base_model
			: base_model;
	ci->stepping = r.eax & 0xf;
	ci->ds = r.edx & BIT_ULL(21);
	ci->dtes64 = r.ecx & BIT_ULL(2);
	ci->pdcm = r.ecx & BIT_ULL(15);
	ci->pmu_msr_ok = r.edx & BIT_ULL(5); /* MSR: rdmsr/wrmsr exist */
	/*
	 * The running CPU's APIC ID: CPUID.0BH:EDX (x2APIC ID, all 32 bits)
	 * where leaf 0BH is valid (its EBX non-zero), else CPUID.1:EBX[31:24]
	 * (SDM Vol. 2A CPUID, "Initial APIC ID"; Vol. 3A 10.4.6).
	 */
	ci->apic_id = r.ebx >> 24;
	if (ci->max_leaf >= 0xb) {
		struct cpuid_regs t;

		cpuid(0xb, 0, &t);
		if (t.ebx & 0xffff)
			ci->apic_id = t.edx;
	}
	ci->hypervisor = HV_NONE;
	if (r.ecx & BIT_ULL(31)) {
		struct cpuid_regs h;

		cpuid(0x40000000, 0, &h);
		regs_to_str(ci->hv_signature, h.ebx, h.ecx, h.edx);
		ci->hypervisor = HV_OTHER;
		for (size_t i = 0; i < ARRAY_SIZE(hv_table); i++)
			if (!memcmp(ci->hv_signature, hv_table[i].sig, 12))
				ci->hypervisor = hv_table[i].hv;
	}

	cpuid(0x80000000, 0, &r);
	ci->max_ext_leaf = r.eax;
	ci->brand[0] = 0;
	if (ci->max_ext_leaf >= 0x80000004) {
		for (uint32_t i = 0; i < 3; i++) {
			cpuid(0x80000002 + i, 0, &r);
			memcpy(ci->brand + 16 * i, &r, 16);
		}
		ci->brand[48] = 0;
	}
}

static void probe_hybrid(struct cpu_info *ci)
{
	struct cpuid_regs r;

	if (ci->max_leaf >= 7) {
		cpuid(7, 0, &r);
		ci->hybrid = r.edx & BIT_ULL(15);
	}
	/* CPUID.1AH:EAX[31:24], valid on the core that runs this (SDM Vol. 2A). */
	if (ci->max_leaf >= 0x1a) {
		cpuid(0x1a, 0, &r);
		ci->core_type = (enum cpu_core_type)(r.eax >> 24);
		ci->native_model = r.eax & 0xffffff;
	}
}

/* CPUID.0AH (SDM Vol. 3B 20.2 "Architectural Performance Monitoring"). */
static void probe_arch_pmu(struct cpu_info *ci)
{
	struct cpuid_regs r;

	if (ci->max_leaf < 0xa)
		return;
	cpuid(0xa, 0, &r);
	ci->pmu_version = r.eax & 0xff;
	if (!ci->pmu_version)
		return;
	ci->n_gp = (r.eax >> 8) & 0xff;
	ci->gp_mask = ci->n_gp >= 32 ? 0xffffffffu : (uint32_t)((1ULL << ci->n_gp) - 1);
	ci->gp_width = (r.eax >> 16) & 0xff;
	ci->arch_events_len = (r.eax >> 24) & 0xff;
	ci->arch_events_unavail = r.ebx;
	if (ci->pmu_version >= 2) {
		ci->n_fixed = r.edx & 0x1f;
		ci->fixed_width = (r.edx >> 5) & 0xff;
		ci->fixed_mask = (uint32_t)((1ULL << ci->n_fixed) - 1);
	}
	/*
	 * v5: ECX is a bitmap of the fixed counters, which need not be
	 * contiguous.  SDM Vol. 3B 20.2.5 "Architectural Performance Monitoring
	 * Version 5": "Software is recommended to use the following logic to
	 * check if a Fixed Counter is supported ...: FxCtr[i]_is_supported :=
	 * ECX[i] || (EDX[4:0] > i)"; Linux KVM (vmx/pmu_intel.c) grants a guest
	 * exactly those counters.  Linux perf (core.c intel_pmu_init) takes ECX
	 * alone on v5+, which can only name fewer; the SDM's rule is followed
	 * here so a counter a hypervisor enumerates through EDX alone is not
	 * lost, and every loop over the fixed counters checks this mask.
	 */
	if (ci->pmu_version >= 5) {
		ci->fixed_mask |= r.ecx;
		ci->n_fixed = ci->fixed_mask ? 32 - __builtin_clz(ci->fixed_mask) : 0;
	}
}

/*
 * CPUID.23H, every sub-leaf sub-leaf 0 enumerates (SDM Vol. 2A CPUID leaf
 * 23H; Linux core.c update_pmu_cap).  The leaf exists where
 * CPUID.(7,1):EAX[8] (ArchPerfmonExt) is set.
 */
static void probe_perfmon_ext(struct cpu_info *ci)
{
	struct cpu_perfmon_ext *x = &ci->ext;
	struct cpuid_regs r;

	if (ci->max_leaf < 0x23)
		return;
	cpuid(7, 1, &r);
	if (!(r.eax & BIT_ULL(8)))
		return;
	cpuid(0x23, 0, &r);
	x->valid = true;
	x->subleaves = r.eax;
	x->evtsel_ext = r.ebx;
	if (x->subleaves & PMEXT_SUB_COUNTERS) {
		cpuid(0x23, 1, &r);
		x->gp = r.eax;
		x->fixed = r.ebx;
	}
	if (x->subleaves & PMEXT_SUB_ACR) {
		cpuid(0x23, 2, &r);
		x->acr_gp_reload = r.eax;
		x->acr_fixed_reload = r.ebx;
		x->acr_gp_cause = r.ecx;
		x->acr_fixed_cause = r.edx;
	}
	if (x->subleaves & PMEXT_SUB_EVENTS) {
		cpuid(0x23, 3, &r);
		x->events = r.eax;
	}
}

/*
 * What CPUID.23H changes: sub-leaf 1's bitmaps are the counters, which may
 * have holes (Linux core.c update_pmu_cap: cntr_mask64 = EAX,
 * fixed_cntr_mask64 = EBX); a zero bitmap is not taken (leaf 0AH's stay).
 * Arch-PEBS needs both PEBS sub-leaves (4 and 5; Linux arch-PEBS series,
 * d21954c8a0ff).
 */
static void probe_arch_pebs(struct cpu_info *ci)
{
	const struct cpu_perfmon_ext *x = &ci->ext;
	struct cpuid_regs r;

	if (!x->valid)
		return;
	if (ci->pmu_version && x->gp) {
		ci->gp_mask = x->gp;
		ci->n_gp = 32 - __builtin_clz(x->gp);
	}
	if (ci->pmu_version >= 2 && x->fixed) {
		ci->fixed_mask = x->fixed;
		ci->n_fixed = 32 - __builtin_clz(x->fixed);
	}
	if ((x->subleaves & (PMEXT_SUB_PEBS_CAPS | PMEXT_SUB_PEBS_CTRS)) !=
	    (PMEXT_SUB_PEBS_CAPS | PMEXT_SUB_PEBS_CTRS))
		return;
	ci->arch_pebs = true;
	cpuid(0x23, 4, &r);
	ci->arch_pebs_caps = r.ebx;
	cpuid(0x23, 5, &r);
	ci->arch_pebs_gp = r.eax;
	ci->arch_pebs_pdist_gp = r.ebx;
	ci->arch_pebs_fixed = r.ecx;
	ci->arch_pebs_pdist_fixed = r.edx;
}

/* TSC frequency: CPUID.15H (crystal x ratio), else CPUID.16H base MHz (SDM Vol. 3B 18.7.3). */
static void probe_tsc(struct cpu_info *ci)
{
	struct cpuid_regs r;

	ci->tsc_hz = 0;
	ci->tsc_source = "unknown";
	if (ci->max_leaf >= 0x15) {
		cpuid(0x15, 0, &r);
		if (r.eax && r.ebx && r.ecx) {
			ci->tsc_hz = (uint64_t)r.ecx * r.ebx / r.eax;
			ci->tsc_source = "CPUID.15H";
			return;
		}
	}
	if (ci->max_leaf >= 0x16) {
		cpuid(0x16, 0, &r);
		if (r.eax & 0xffff) {
			ci->tsc_hz = (uint64_t)(r.eax & 0xffff) * 1000000;
			ci->tsc_source = "CPUID.16H base frequency";
		}
	}
}

static void probe_msrs(struct cpu_info *ci)
{
	struct cpuid_regs r;
	uint64_t v;

	if (ci->vendor != VENDOR_INTEL || !ci->pmu_msr_ok)
		return;
	/*
	 * Microcode revision: write 0, execute CPUID.1, read [63:32]
	 * (SDM Vol. 3A 10.11.7.1 "Determining the Signature", Example 10-9;
	 * 9.11.7.1 in older editions).  The SDM gives no way without the
	 * write: Table "Microcode Update Signature" requires [63:32] to be
	 * pre-loaded with zero, and CPUID.1 leaves it unchanged when no update
	 * is loaded.  Linux does the same (intel_get_microcode_revision).  It
	 * is the only MSR the capability report writes, and the report says so.
	 */
	hw_wrmsr(MSR_IA32_BIOS_SIGN_ID, 0);
	cpuid(1, 0, &r);
	if (hw_rdmsr(MSR_IA32_BIOS_SIGN_ID, &v) == HW_OK) {
		ci->has_microcode = true;
		ci->microcode = (uint32_t)(v >> 32);
	}
	if (hw_rdmsr(MSR_IA32_MISC_ENABLE, &v) == HW_OK) {
		ci->has_misc_enable = true;
		ci->misc_enable = v;
	}
	if (ci->pdcm && hw_rdmsr(MSR_IA32_PERF_CAPABILITIES, &v) == HW_OK) {
		ci->has_perf_caps = true;
		ci->perf_caps = v;
	}
}

void cpu_probe(struct cpu_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	ci->cpu = plat_cpu_self();
	probe_ident(ci);
	probe_hybrid(ci);
	probe_arch_pmu(ci);
	cpu_quirk_counters(ci);
	probe_perfmon_ext(ci);
	probe_arch_pebs(ci);
	probe_tsc(ci);
	probe_msrs(ci);
}

const struct perfmon_table *cpu_perfmon_table(const struct cpu_info *ci)
{
	struct perfmon_cpu pc = {ci->family, ci->model, ci->stepping, ci->core_type,
				 ci->native_model};

	if (ci->vendor != VENDOR_INTEL)
		return NULL;
	return perfmon_table_for_cpu(&pc);
}

/* ---- the report ---- */

/* IA32_PERF_CAPABILITIES fields (SDM Vol. 4 Table 2-2, MSR 345H; Linux perf_capabilities). */
static const struct perf_cap_field {
	const char *name;
	uint8_t lo, hi;
} perf_cap_fields[] = {
    {"lbr-format", 0, 5},	  {"pebs-trap", 6, 6},	    {"pebs-arch-reg", 7, 7},
    {"pebs-format", 8, 11},	  {"smm-freeze", 12, 12},   {"fw-write", 13, 13},
    {"pebs-baseline", 14, 14},	  {"perf-metrics", 15, 15}, {"pebs-output-pt", 16, 16},
    {"pebs-timing-info", 17, 17},
};

unsigned int cpu_perf_cap_field_count(void)
{
	return ARRAY_SIZE(perf_cap_fields);
}

const char *cpu_perf_cap_field(uint64_t caps, unsigned int i, uint64_t *value)
{
	const struct perf_cap_field *f;

	if (i >= ARRAY_SIZE(perf_cap_fields))
		return NULL;
	f = &perf_cap_fields[i];
	*value = (caps & GENMASK_ULL(f->hi, f->lo)) >> f->lo;
	return f->name;
}

/* Architectural events by CPUID.0AH:EBX bit (SDM Vol. 3B Table 20-1 / 20.2.1.2). */
static const char *const arch_event_names[] = {
    "core-cycles",
    "instructions",
    "ref-cycles",
    "llc-references",
    "llc-misses",
    "branch-instructions",
    "branch-misses",
    "topdown-slots",
    "topdown-backend-bound",
    "topdown-bad-spec",
    "topdown-frontend-bound",
    "topdown-retiring",
    "lbr-inserts",
};

static const char *const hv_names[] = {
    [HV_NONE] = "none",
    [HV_KVM] = "KVM",
    [HV_TCG] = "QEMU TCG",
    [HV_OTHER] = "other",
};

const char *cpu_hypervisor_name(enum cpu_hypervisor hv)
{
	return hv < ARRAY_SIZE(hv_names) ? hv_names[hv] : "other";
}

static const char *core_type_name(enum cpu_core_type t)
{
	switch (t) {
	case CORE_TYPE_ATOM:
		return "Atom (E-core)";
	case CORE_TYPE_CORE:
		return "Core (P-core)";
	case CORE_TYPE_NONE:
		return "none";
	}
	return "unknown";
}

const char *cpu_core_type_short(enum cpu_core_type t)
{
	return t == CORE_TYPE_CORE ? "P-core" : t == CORE_TYPE_ATOM ? "E-core" : "none";
}

static void report_ident(const struct cpu_info *ci)
{
	report_detail("cpu: vendor %s, brand \"%s\"", ci->vendor_str, ci->brand);
	report_detail("cpu: family 0x%x model 0x%x stepping 0x%x (%02X_%02XH), max leaf 0x%x",
		      ci->family, ci->model, ci->stepping, ci->family, ci->model, ci->max_leaf);
	if (ci->has_microcode)
		report_detail(
		    "cpu: microcode 0x%x (IA32_BIOS_SIGN_ID[63:32] after writing 0 to it and "
		    "CPUID.1, SDM Vol. 3A 10.11.7.1; the report's only MSR write)",
		    ci->microcode);
	else
		report_detail("cpu: microcode unknown (IA32_BIOS_SIGN_ID is Intel only)");
	if (ci->hypervisor == HV_NONE)
		report_detail("cpu: hypervisor none (CPUID.1:ECX[31] clear)");
	else
		report_detail("cpu: hypervisor %s, signature \"%s\"", hv_names[ci->hypervisor],
			      ci->hv_signature);
	report_detail("cpu: hybrid %s, core type 0x%02x %s", ci->hybrid ? "yes" : "no",
		      ci->core_type, core_type_name(ci->core_type));
	report_detail("cpu: DS %d, DTES64 %d, PDCM %d", ci->ds, ci->dtes64, ci->pdcm);
	if (ci->tsc_hz)
		report_detail("cpu: TSC %llu Hz (%s)", (unsigned long long)ci->tsc_hz,
			      ci->tsc_source);
	else
		report_detail("cpu: TSC frequency unknown (CPUID.15H/16H give none)");
}

static void report_arch_pmu(const struct cpu_info *ci)
{
	char buf[REPORT_LINE_MAX];
	struct strbuf sb;

	if (!ci->pmu_version) {
		report_detail("pmu: no architectural PMU (CPUID.0AH:EAX version 0)");
		return;
	}
	report_detail("pmu: arch perfmon version %u, %u GP counters x %u bits, %u fixed counters x "
		      "%u bits (mask 0x%x)",
		      ci->pmu_version, ci->n_gp, ci->gp_width,
		      (unsigned int)__builtin_popcount(ci->fixed_mask), ci->fixed_width,
		      ci->fixed_mask);
	if (ci->count_quirk.what) {
		report_info("pmu: CPUID.0AH names GP 0x%x fixed 0x%x: short on a %s",
			    ci->count_quirk.cpuid_gp, ci->count_quirk.cpuid_fixed,
			    ci->count_quirk.what);
		report_info("pmu: taken as GP 0x%x fixed 0x%x (%s)", ci->gp_mask, ci->fixed_mask,
			    ci->count_quirk.source);
	}
	strbuf_init(&sb, buf, sizeof(buf));
	for (uint32_t i = 0; i < ci->arch_events_len && i < ARRAY_SIZE(arch_event_names); i++)
		if (!(ci->arch_events_unavail & (1u << i)))
			strbuf_printf(&sb, " %s", arch_event_names[i]);
	report_detail("pmu: arch events (%u enumerated):%s", ci->arch_events_len,
		      sb.len ? buf : " none");
}

static void report_misc_enable(const struct cpu_info *ci)
{
	if (!ci->has_misc_enable) {
		report_detail("misc_enable: not read (%s)",
			      ci->vendor == VENDOR_INTEL ? "rdmsr faulted" : "not an Intel CPU");
		return;
	}
	report_detail("misc_enable: 0x%llx: perfmon-available %d, bts-unavailable %d, "
		      "pebs-unavailable %d",
		      (unsigned long long)ci->misc_enable,
		      !!(ci->misc_enable & MISC_ENABLE_PERFMON),
		      !!(ci->misc_enable & MISC_ENABLE_BTS_UNAVAIL),
		      !!(ci->misc_enable & MISC_ENABLE_PEBS_UNAVAIL));
}

static void report_perf_caps(const struct cpu_info *ci)
{
	if (!ci->has_perf_caps) {
		report_detail("perf_capabilities: not read (%s)",
			      ci->pdcm ? "rdmsr faulted" : "CPUID.1:ECX[15] PDCM clear");
		return;
	}
	report_detail("perf_capabilities: 0x%llx", (unsigned long long)ci->perf_caps);
	for (unsigned int i = 0; i < ARRAY_SIZE(perf_cap_fields); i++) {
		const struct perf_cap_field *f = &perf_cap_fields[i];
		uint64_t v;

		cpu_perf_cap_field(ci->perf_caps, i, &v);
		if (f->lo == f->hi)
			report_detail("perf_capabilities: %s %llu (bit %u)", f->name,
				      (unsigned long long)v, f->lo);
		else
			report_detail("perf_capabilities: %s %llu (bits %u:%u)", f->name,
				      (unsigned long long)v, f->hi, f->lo);
	}
}

/*
 * CPUID.23H.4:EBX, the record groups arch-PEBS may write, as CFG_C[63:32]
 * (Linux msr-index.h ARCH_PEBS_CNTR_ALLOW 35, _CNTR_GP 36, _CNTR_FIXED 37,
 * _CNTR_METRICS 38, _LBR 41:40, _VECR_XMM 49, _GPR 61, _AUX 62).
 */
static const struct {
	const char *name;
	uint32_t mask;
} arch_pebs_groups[] = {
    {"cntr-allow", 1u << 3},   {"cntr-gp", 1u << 4}, {"cntr-fixed", 1u << 5},
    {"cntr-metrics", 1u << 6}, {"lbr", 3u << 8},     {"xmm", 1u << 17},
    {"gpr", 1u << 29},	       {"aux", 1u << 30},
};

static void report_arch_pebs(const struct cpu_info *ci)
{
	char buf[REPORT_LINE_MAX];
	struct strbuf sb;

	if (!ci->arch_pebs) {
		report_detail("arch-pebs: no (CPUID.23H PEBS sub-leaves not enumerated)");
		return;
	}
	report_detail("arch-pebs: yes, groups 0x%x, GP counters 0x%x (pdist 0x%x), fixed 0x%x "
		      "(pdist 0x%x)",
		      ci->arch_pebs_caps, ci->arch_pebs_gp, ci->arch_pebs_pdist_gp,
		      ci->arch_pebs_fixed, ci->arch_pebs_pdist_fixed);
	strbuf_init(&sb, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(arch_pebs_groups); i++)
		if (ci->arch_pebs_caps & arch_pebs_groups[i].mask)
			strbuf_printf(&sb, " %s", arch_pebs_groups[i].name);
	report_detail("arch-pebs: groups (CPUID.23H.4:EBX):%s", sb.len ? buf : " none");
}

/* A sub-leaf's line, or why there is none (CPUID.23H.0:EAX bit `sub` clear). */
static bool ext_has(const struct cpu_info *ci, unsigned int sub, const char *what)
{
	if (ci->ext.subleaves & (1u << sub))
		return true;
	report_detail("perfmon-ext: %s: not enumerated (CPUID.23H.0:EAX[%u] clear)", what, sub);
	return false;
}

/* CPUID.23H sub-leaves 0-3 (SDM Vol. 2A CPUID leaf 23H); 4 and 5 are arch-pebs's lines. */
static void report_perfmon_ext(const struct cpu_info *ci)
{
	const struct cpu_perfmon_ext *x = &ci->ext;
	char buf[REPORT_LINE_MAX];
	struct strbuf sb;

	if (!x->valid) {
		report_detail("perfmon-ext: no (CPUID.(7,1):EAX[8] clear or max leaf below 23H)");
		return;
	}
	report_detail("perfmon-ext: sub-leaves 0x%x, umask2 %s, eq %s (CPUID.23H.0:EAX, EBX 0x%x)",
		      x->subleaves, x->evtsel_ext & PMEXT_UMASK2 ? "yes" : "no",
		      x->evtsel_ext & PMEXT_EQ ? "yes" : "no", x->evtsel_ext);
	if (ext_has(ci, 1, "counters"))
		report_detail("perfmon-ext: counters GP 0x%x, fixed 0x%x (CPUID.23H.1)", x->gp,
			      x->fixed);
	if (ext_has(ci, 2, "acr"))
		report_detail(
		    "perfmon-ext: acr reloadable GP 0x%x fixed 0x%x, may cause a reload GP "
		    "0x%x fixed 0x%x (CPUID.23H.2)",
		    x->acr_gp_reload, x->acr_fixed_reload, x->acr_gp_cause, x->acr_fixed_cause);
	if (ext_has(ci, 3, "events")) {
		strbuf_init(&sb, buf, sizeof(buf));
		/* bits 0-11: the events of leaf 0AH:EBX's order (leaf_types.h leaf_0x23_3) */
		for (uint32_t i = 0; i < 12; i++)
			if (x->events & (1u << i))
				strbuf_printf(&sb, " %s", arch_event_names[i]);
		report_detail("perfmon-ext: events 0x%x (CPUID.23H.3):%s", x->events,
			      sb.len ? buf : " none");
	}
}

/*
 * The console's few lines: who the CPU is, its PMU and PEBS, the uarch.
 * Every field of the full report above is in the log file (report_detail;
 * the console too with verbose=1) and in results.json's "cpu".
 */
static void report_compact(const struct cpu_info *ci)
{
	uint64_t fmt = 0;
	char ucode[24] = "n/a";

	if (ci->has_microcode)
		pp_snprintf(ucode, sizeof(ucode), "0x%x", ci->microcode);
	report_info("cpu: \"%s\"", ci->brand);
	report_info("cpu: %02X_%02XH stepping %hhu, microcode %s%s%s", ci->family, ci->model,
		    (uint8_t)ci->stepping, ucode, ci->hybrid ? ", hybrid " : "",
		    ci->hybrid ? core_type_name(ci->core_type) : "");
	if (!ci->pmu_version) {
		report_info("pmu: none (CPUID.0AH:EAX version 0)");
		return;
	}
	if (ci->has_perf_caps)
		fmt = (ci->perf_caps >> 8) & 0xf; /* PEBS record format, bits 11:8 */
	/* CPUID.0AH:EAX[7:0] version, [15:8] GP counters: a byte each */
	report_info("pmu: v%hhu, %hhu GP + %hhu fixed counters; DS %s, PEBS format %hhu%s",
		    (uint8_t)ci->pmu_version, (uint8_t)ci->n_gp,
		    (uint8_t)__builtin_popcount(ci->fixed_mask), ci->ds ? "1" : "0", (uint8_t)fmt,
		    ci->arch_pebs ? ", arch-PEBS" : "");
	if (ci->has_misc_enable && (ci->misc_enable & MISC_ENABLE_PEBS_UNAVAIL))
		report_info("pmu: PEBS unavailable (IA32_MISC_ENABLE[12] set)");
}

void cpu_report(const struct cpu_info *ci)
{
	const char *what = uarch_models_description(ci);
	enum pebs_uarch u = uarch_models_uarch(ci);
	const struct perfmon_table *pm = cpu_perfmon_table(ci);

	report_compact(ci);
	report_ident(ci);
	report_arch_pmu(ci);
	report_misc_enable(ci);
	report_perf_caps(ci);
	report_perfmon_ext(ci);
	report_arch_pebs(ci);
	guest_report(ci);
	if (u != UARCH_NONE)
		report_info("uarch: %s (%s)", pebs_uarch_name(u), what);
	else if (what)
		report_info("uarch: architectural PEBS (%s: rules from CPUID.23H)", what);
	else
		report_info("uarch: unknown (family 0x%x model 0x%x: no row in the model table)",
			    ci->family, ci->model);
	report_detail("perfmon: %s", pm ? perfmon_table_name(pm)
					: "no event file for this CPU (perfmon mapfile.csv)");
}
