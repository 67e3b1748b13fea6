/* SPDX-License-Identifier: MIT */
/*
 * cpu.h - what CPUID and the capability MSRs say about the processor and its
 * PMU.  cpu_probe() fills it through the hw seam (so it works on the
 * simulator too); an MSR is read only where CPUID says it exists.
 */
#ifndef PP_CPU_H
#define PP_CPU_H

#include "../lib/compat.h"
#include "../lib/types.h"

struct perfmon_table;

enum cpu_vendor { VENDOR_OTHER, VENDOR_INTEL, VENDOR_AMD };

/* CPUID.1AH:EAX[31:24] core type (SDM Vol. 2A, CPUID leaf 1AH). */
enum cpu_core_type { CORE_TYPE_NONE = 0, CORE_TYPE_ATOM = 0x20, CORE_TYPE_CORE = 0x40 };

/* Hypervisor found through CPUID.1:ECX[31] and leaf 0x40000000. */
enum cpu_hypervisor { HV_NONE, HV_KVM, HV_TCG, HV_OTHER };

#define MSR_IA32_PLATFORM_ID	   0x17
#define MSR_IA32_BIOS_SIGN_ID	   0x8b
#define MSR_IA32_MISC_ENABLE	   0x1a0
#define MSR_IA32_PERF_CAPABILITIES 0x345

struct cpu_info {
	enum cpu_vendor vendor;
	char vendor_str[13];
	char brand[49];
	uint32_t family, model, stepping; /* display family/model (SDM Vol. 2A, CPUID.1) */
	uint32_t max_leaf, max_ext_leaf;

	bool has_microcode; /* Intel: IA32_BIOS_SIGN_ID readable */
	uint32_t microcode; /* IA32_BIOS_SIGN_ID[63:32] */

	enum cpu_hypervisor hypervisor;
	char hv_signature[13]; /* leaf 0x40000000 EBX:ECX:EDX */

	unsigned int cpu; /* the CPU that ran cpu_probe() (plat_cpu_self(), 0 = the BSP) */
	uint32_t apic_id; /* its APIC ID: CPUID.0BH:EDX or 1:EBX[31:24] */
	bool hybrid;	  /* CPUID.7.0:EDX[15] */
	enum cpu_core_type core_type;
	uint32_t native_model; /* CPUID.1AH:EAX[23:0], native model ID of the core type */

	/* CPUID.1 */
	bool ds, dtes64, pdcm, pmu_msr_ok;

	/* CPUID.0AH (architectural PMU) */
	uint32_t pmu_version;
	uint32_t n_gp, gp_width; /* n_gp: one past the highest GP counter */
	/*
	 * GP counters that exist: the low n_gp of CPUID.0AH:EAX[15:8], or the
	 * bitmap of CPUID.23H.1:EAX where CPUID.23H.0:EAX[1] enumerates it and it
	 * is non-zero (Linux core.c update_pmu_cap takes it as the counter mask).
	 */
	uint32_t gp_mask;
	uint32_t n_fixed, fixed_width; /* n_fixed: one past the highest fixed counter */
	uint32_t arch_events_len;      /* EAX[31:24] */
	uint32_t arch_events_unavail;  /* EBX: bit set = event NOT available */
	uint32_t fixed_mask;	       /* fixed counters that exist: ECX[i] || EDX[4:0] > i (v5+) */
	/*
	 * Where CPUID.0AH names fewer counters than the core has and a row of
	 * pmu/cpu_quirk.c added them: the row's words and source, and the
	 * masks CPUID gave.  what == NULL: CPUID.0AH was taken as it is.
	 */
	struct cpu_count_quirk_seen {
		const char *what, *source;
		uint32_t cpuid_gp, cpuid_fixed;
	} count_quirk;

	/* IA32_MISC_ENABLE (Intel only) */
	bool has_misc_enable;
	uint64_t misc_enable; /* bit 7 perfmon available, 11 BTS unavail, 12 PEBS unavail */

	/* IA32_PERF_CAPABILITIES (only if PDCM) */
	bool has_perf_caps;
	uint64_t perf_caps;

	/*
	 * CPUID.23H, the architectural performance monitoring extended leaf
	 * (SDM Vol. 2A, CPUID leaf 23H; Linux core.c update_pmu_cap; field names
	 * as Linux asm/cpuid/leaf_types.h leaf_0x23_*), read only where
	 * CPUID.(7,1):EAX[8] ArchPerfmonExt is set and max leaf >= 23H.  A
	 * sub-leaf is read only where sub-leaf 0 EAX enumerates it; the others
	 * stay 0.
	 */
	struct cpu_perfmon_ext {
		bool valid;	     /* the leaf was read */
		uint32_t subleaves;  /* 0:EAX bitmap: 1 counters, 2 ACR, 3 events, 4/5 PEBS */
		uint32_t evtsel_ext; /* 0:EBX: 0 UMASK2 (PERFEVTSEL[47:40]), 1 EQ (bit 36) */
		uint32_t gp, fixed;  /* 1:EAX / EBX: the counters, as bitmaps */
		uint32_t acr_gp_reload, acr_fixed_reload; /* 2:EAX / EBX: may be reloaded */
		uint32_t acr_gp_cause, acr_fixed_cause;	  /* 2:ECX / EDX: may cause a reload */
		uint32_t events; /* 3:EAX: architectural events supported */
	} ext;

	/* CPUID.23H (architectural PEBS), valid if arch_pebs */
	bool arch_pebs;
	uint32_t arch_pebs_caps;	/* subleaf 4 EBX: group bits, as CFG_C[63:32] */
	uint32_t arch_pebs_gp;		/* subleaf 5 EAX: PEBS-capable GP counters */
	uint32_t arch_pebs_fixed;	/* subleaf 5 ECX */
	uint32_t arch_pebs_pdist_gp;	/* subleaf 5 EBX */
	uint32_t arch_pebs_pdist_fixed; /* subleaf 5 EDX */

	uint64_t tsc_hz;	/* from CPUID 15H/16H, 0 if unknown */
	const char *tsc_source; /* which leaf gave tsc_hz */
};

/* IA32_PERF_CAPABILITIES fields (SDM Vol. 4, MSR 345H; Linux perf_capabilities). */
#define PERF_CAP_LBR_FMT(c)	((c)&0x3f)
#define PERF_CAP_PEBS_TRAP	BIT_ULL(6)
#define PERF_CAP_PEBS_ARCH_REG	BIT_ULL(7)
#define PERF_CAP_PEBS_FMT(c)	(((c) >> 8) & 0xf)
#define PERF_CAP_SMM_FREEZE	BIT_ULL(12)
#define PERF_CAP_FW_WRITE	BIT_ULL(13)
#define PERF_CAP_PEBS_BASELINE	BIT_ULL(14)
#define PERF_CAP_PERF_METRICS	BIT_ULL(15)
#define PERF_CAP_PEBS_OUTPUT_PT BIT_ULL(16)
#define PERF_CAP_PEBS_TIMING	BIT_ULL(17)

/* CPUID.23H sub-leaf 0 (SDM Vol. 2A CPUID leaf 23H; Linux perf_event.h union cpuid35_eax/ebx). */
#define PMEXT_SUB_COUNTERS  (1u << 1)
#define PMEXT_SUB_ACR	    (1u << 2)
#define PMEXT_SUB_EVENTS    (1u << 3)
#define PMEXT_SUB_PEBS_CAPS (1u << 4)
#define PMEXT_SUB_PEBS_CTRS (1u << 5)
#define PMEXT_UMASK2	    (1u << 0)
#define PMEXT_EQ	    (1u << 1)

#define MISC_ENABLE_PERFMON	 BIT_ULL(7)
#define MISC_ENABLE_BTS_UNAVAIL	 BIT_ULL(11)
#define MISC_ENABLE_PEBS_UNAVAIL BIT_ULL(12)

void cpu_probe(struct cpu_info *ci);
/* "none", "KVM", "QEMU TCG" or "other": the report's and results.json's words. */
const char *cpu_hypervisor_name(enum cpu_hypervisor hv);
/* "P-core", "E-core" or "none" (no core type): the per-CPU lines' and results.json's words. */
const char *cpu_core_type_short(enum cpu_core_type t);

/* uarch_models_uarch(), uarch_models_core_kind(): the model table, pmu/uarch.h. */

/*
 * Intel's perfmon event file for this CPU (pmu/perfmon.h: mapfile.csv by
 * display family, model, stepping, and on hybrid parts the core type and
 * native model ID of CPUID.1AH), or NULL when perfmon has none (Core 2, a
 * hybrid part asked without its core type, not Intel).
 */
const struct perfmon_table *cpu_perfmon_table(const struct cpu_info *ci);

/* PERF_CAPABILITIES field i (0..count-1): its name and value, NULL past the end. */
unsigned int cpu_perf_cap_field_count(void);
const char *cpu_perf_cap_field(uint64_t caps, unsigned int i, uint64_t *value);

/* INFO lines: the capability report (docs/OUTPUT.md). */
void cpu_report(const struct cpu_info *ci);

#endif
