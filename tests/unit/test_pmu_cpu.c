// SPDX-License-Identifier: MIT
/*
 * test_pmu_cpu.c - cpu_probe()/cpu_report() fed recorded CPUID and MSR values of
 * real CPU generations through a fake hw_ops.  Register values are written
 * from the SDM's field definitions (Vol. 2A CPUID leaves 01H, 0AH, 15H, 16H,
 * 1AH, 23H; Vol. 4 MSRs 8BH, 1A0H, 345H); every expectation below is
 * worked out by hand from those definitions in the comments beside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/perfmon.h"
#include "pmu/plan.h"
#include "pmu/uarch.h"
#include "test_util.h"

struct leaf {
	uint32_t leaf, sub;
	struct cpuid_regs r;
};

struct msr {
	uint32_t msr;
	uint64_t val;
};

struct profile {
	const struct leaf *leaves;
	const struct msr *msrs; /* ends with msr == 0 */
};

static const struct profile *cur;
static unsigned int msr_reads[0x400], msr_writes[0x400], msr_gp;

/* Four ASCII characters as CPUID returns them in a register (little-endian). */
#define S4(a, b, c, d)                                                                             \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static void fake_cpuid(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (const struct leaf *l = cur->leaves; l->leaf || l->r.eax || l->r.ebx; l++)
		if (l->leaf == leaf && l->sub == sub) {
			*r = l->r;
			return;
		}
}

static enum hw_fault fake_rdmsr(uint32_t msr, uint64_t *val)
{
	if (msr < 0x400)
		msr_reads[msr]++;
	for (const struct msr *m = cur->msrs; m && m->msr; m++)
		if (m->msr == msr) {
			*val = m->val;
			return HW_OK;
		}
	msr_gp++;
	return HW_GP;
}

static enum hw_fault fake_wrmsr(uint32_t msr, uint64_t val)
{
	if (msr < 0x400)
		msr_writes[msr]++;
	/* Only the microcode-signature reset is expected, with 0. */
	if (msr == MSR_IA32_BIOS_SIGN_ID && val == 0)
		return HW_OK;
	msr_gp++;
	return HW_GP;
}

static uint64_t fake_rdtsc(void)
{
	return 0;
}

static const struct hw_ops fake_ops = {
    .name = "fake",
    .cpuid = fake_cpuid,
    .rdmsr = fake_rdmsr,
    .wrmsr = fake_wrmsr,
    .rdtsc = fake_rdtsc,
};

/* A report line, whole (test_util.h captures them). */
static bool has_line(const char *want)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (!strcmp(test_lines[i], want))
			return true;
	fprintf(stderr, "missing line: %s\ngot:\n", want);
	test_lines_dump(stderr);
	return false;
}

static void run_probe(const struct profile *p, struct cpu_info *ci)
{
	cur = p;
	memset(msr_reads, 0, sizeof(msr_reads));
	memset(msr_writes, 0, sizeof(msr_writes));
	msr_gp = 0;
	test_lines_capture();
	hw_install(&fake_ops);
	cpu_probe(ci);
	cpu_report(ci);
}

#define VENDOR_INTEL_REGS(max)                                                                     \
	{                                                                                          \
		max, 0x756e6547 /* Genu */, 0x6c65746e /* ntel */, 0x49656e69 /* ineI */           \
	}

/*
 * Skylake client, i7-6700 (06_5EH stepping 3).
 * CPUID.1: EAX 0x000506e3 = stepping 3, model 0xe, family 6, ext model 5
 *   -> display model 0x5e.  ECX bit 2 DTES64, bit 15 PDCM; EDX bit 5 MSR,
 *   bit 21 DS.
 * CPUID.0AH: EAX 0x07300404 = version 4, 4 GP, 48 bits, 7 events; EBX 0
 *   (all 7 available); EDX 0x603 = 3 fixed, (0x603 >> 5) & 0xff = 48 bits.
 * CPUID.15H: crystal ECX 0 (not enumerated on SKL client), so CPUID.16H EAX
 *   0xd48 = 3400 MHz base -> 3400000000 Hz.
 * IA32_PERF_CAPABILITIES 0x33c3 = 0b11_0011_1100_0011:
 *   [5:0] 3 LBR format, [6] 1 trap, [7] 1 arch-reg, [11:8] 3 PEBS format,
 *   [12] 1 SMM freeze, [13] 1 full-width write, [14..17] 0.
 * IA32_MISC_ENABLE 0x850089: bit 7 (0x80) perfmon 1, bits 11, 12 clear.
 * IA32_BIOS_SIGN_ID 0x000000f000000000: microcode [63:32] = 0xf0.
 */
static const struct leaf skl_leaves[] = {
    {0, 0, VENDOR_INTEL_REGS(0x16)},
    {1, 0, {0x000506e3, 0x00100800, 0x7ffafbbf & ~(1u << 31), 0xbfebfbff}},
    {7, 0, {0, 0x029c6fbf, 0, 0x9c000400}},
    {0xa, 0, {0x07300404, 0, 0, 0x603}},
    {0x15, 0, {2, 0x11c, 0, 0}},
    {0x16, 0, {0xd48, 0xfa0, 0x64, 0}},
    {0x80000000, 0, {0x80000008, 0, 0, 0}},
    {0x80000002,
     0,
     {S4('I', 'n', 't', 'e'), S4('l', '(', 'R', ')'), S4(' ', 'C', 'o', 'r'),
      S4('e', '(', 'T', 'M')}},
    {0x80000003,
     0,
     {S4(')', ' ', 'i', '7'), S4('-', '6', '7', '0'), S4('0', ' ', 'C', 'P'),
      S4('U', ' ', '@', ' ')}},
    {0x80000004, 0, {S4('3', '.', '4', '0'), S4('G', 'H', 'z', 0), 0, 0}},
    {0}};
static const struct msr skl_msrs[] = {{MSR_IA32_BIOS_SIGN_ID, 0x000000f000000000ull},
				      {MSR_IA32_MISC_ENABLE, 0x850089},
				      {MSR_IA32_PERF_CAPABILITIES, 0x33c3},
				      {0}};
static const struct profile skl = {skl_leaves, skl_msrs};

static void test_skylake(void **state)
{
	struct cpu_info ci;
	uint64_t v;

	run_probe(&skl, &ci);
	assert_int_equal(ci.vendor, VENDOR_INTEL);
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x5e);
	assert_int_equal(ci.stepping, 3);
	assert_true(ci.ds && ci.dtes64 && ci.pdcm);
	assert_int_equal(ci.hypervisor, HV_NONE);
	assert_false(ci.hybrid);
	assert_int_equal(ci.pmu_version, 4);
	assert_int_equal(ci.n_gp, 4);
	assert_int_equal(ci.gp_width, 48);
	assert_int_equal(ci.n_fixed, 3);
	assert_int_equal(ci.fixed_width, 48);
	assert_int_equal(ci.fixed_mask, 0x7);
	assert_int_equal(ci.arch_events_len, 7);
	assert_true(ci.has_microcode);
	assert_int_equal(ci.microcode, 0xf0);
	assert_true(ci.has_perf_caps);
	assert_int_equal(ci.perf_caps, 0x33c3);
	assert_int_equal(ci.tsc_hz, 3400000000ull);
	assert_false(ci.arch_pebs);
	assert_int_equal(uarch_models_uarch(&ci), UARCH_SKL);

	/* Field by field, from the table. */
	static const struct {
		const char *name;
		uint64_t v;
	} want[] = {
	    {"lbr-format", 3},	     {"pebs-trap", 1},	  {"pebs-arch-reg", 1},
	    {"pebs-format", 3},	     {"smm-freeze", 1},	  {"fw-write", 1},
	    {"pebs-baseline", 0},    {"perf-metrics", 0}, {"pebs-output-pt", 0},
	    {"pebs-timing-info", 0},
	};
	assert_int_equal(cpu_perf_cap_field_count(), 10);
	for (unsigned int i = 0; i < 10; i++) {
		assert_string_equal(cpu_perf_cap_field(0x33c3, i, &v), want[i].name);
		assert_int_equal(v, want[i].v);
	}
	assert_null(cpu_perf_cap_field(0x33c3, 10, &v));

	/* Each capability MSR read once; only Intel and PDCM made them legal. */
	assert_int_equal(msr_reads[MSR_IA32_BIOS_SIGN_ID], 1);
	assert_int_equal(msr_writes[MSR_IA32_BIOS_SIGN_ID], 1);
	assert_int_equal(msr_reads[MSR_IA32_MISC_ENABLE], 1);
	assert_int_equal(msr_reads[MSR_IA32_PERF_CAPABILITIES], 1);
	assert_int_equal(msr_gp, 0);

	assert_true(has_line(
	    "INFO: cpu: vendor GenuineIntel, brand \"Intel(R) Core(TM) i7-6700 CPU @ 3.40GHz\""));
	assert_true(
	    has_line("INFO: cpu: family 0x6 model 0x5e stepping 0x3 (06_5EH), max leaf 0x16"));
	assert_true(
	    has_line("INFO: cpu: microcode 0xf0 (IA32_BIOS_SIGN_ID[63:32] after writing 0 "
		     "to it and CPUID.1, SDM Vol. 3A 10.11.7.1; the report's only MSR write)"));
	assert_true(has_line("INFO: cpu: hypervisor none (CPUID.1:ECX[31] clear)"));
	assert_true(has_line("INFO: cpu: hybrid no, core type 0x00 none"));
	assert_true(has_line("INFO: cpu: DS 1, DTES64 1, PDCM 1"));
	assert_true(has_line("INFO: cpu: TSC 3400000000 Hz (CPUID.16H base frequency)"));
	assert_true(has_line("INFO: pmu: arch perfmon version 4, 4 GP counters x 48 bits, 3 fixed "
			     "counters x 48 bits (mask 0x7)"));
	assert_true(
	    has_line("INFO: pmu: arch events (7 enumerated): core-cycles instructions "
		     "ref-cycles llc-references llc-misses branch-instructions branch-misses"));
	assert_true(has_line("INFO: misc_enable: 0x850089: perfmon-available 1, bts-unavailable 0, "
			     "pebs-unavailable 0"));
	assert_true(has_line("INFO: perf_capabilities: 0x33c3"));
	assert_true(has_line("INFO: perf_capabilities: lbr-format 3 (bits 5:0)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-trap 1 (bit 6)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-format 3 (bits 11:8)"));
	assert_true(has_line("INFO: perf_capabilities: fw-write 1 (bit 13)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-baseline 0 (bit 14)"));
	assert_true(has_line("INFO: arch-pebs: no (CPUID.23H PEBS sub-leaves not enumerated)"));
	assert_true(has_line("INFO: uarch: skl (Skylake (desktop))"));
}

/*
 * QEMU 7.2 TCG, -cpu max (seen under run-qemu.sh): leaf 0 vendor
 * AuthenticAMD, CPUID.1:ECX[31] hypervisor, leaf 0x40000000 "TCGTCGTCGTCG";
 * no DS, no PDCM, leaf 0AH all zero.  An AMD vendor string means no Intel
 * MSR may be read at all.
 */
static const struct leaf tcg_leaves[] = {
    {0, 0, {0xd, 0x68747541 /* Auth */, 0x444d4163 /* cAMD */, 0x69746e65 /* enti */}},
    {1, 0, {0x000806f0, 0x00000800, 0x80000000 | (1u << 21), 0x078bfbff & ~(1u << 21)}},
    {0x40000000,
     0,
     {0x40000001, S4('T', 'C', 'G', 'T'), S4('C', 'G', 'T', 'C'), S4('G', 'T', 'C', 'G')}},
    {0x80000000, 0, {0x80000008, 0, 0, 0}},
    {0}};
static const struct profile tcg = {tcg_leaves, NULL};

static void test_tcg(void **state)
{
	struct cpu_info ci;

	run_probe(&tcg, &ci);
	assert_int_equal(ci.vendor, VENDOR_AMD);
	assert_int_equal(ci.hypervisor, HV_TCG);
	assert_string_equal(ci.hv_signature, "TCGTCGTCGTCG");
	/* 0x806f0: family 0xf? no: base family 6, ext model 8 -> model 0x8f. */
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x8f);
	assert_int_equal(ci.pmu_version, 0);
	assert_false(ci.ds);
	assert_false(ci.pdcm);
	assert_false(ci.has_misc_enable);
	assert_false(ci.has_perf_caps);
	assert_false(ci.has_microcode);
	for (unsigned int i = 0; i < 0x400; i++) {
		assert_int_equal(msr_reads[i], 0);
		assert_int_equal(msr_writes[i], 0);
	}
	/* A model number alone is not enough: not Intel, no uarch. */
	assert_int_equal(uarch_models_uarch(&ci), UARCH_NONE);
	assert_true(has_line("INFO: cpu: hypervisor QEMU TCG, signature \"TCGTCGTCGTCG\""));
	assert_true(has_line("INFO: pmu: no architectural PMU (CPUID.0AH:EAX version 0)"));
	assert_true(has_line("INFO: misc_enable: not read (not an Intel CPU)"));
	assert_true(has_line("INFO: perf_capabilities: not read (CPUID.1:ECX[15] PDCM clear)"));
	assert_true(has_line("INFO: cpu: microcode unknown (IA32_BIOS_SIGN_ID is Intel only)"));
	assert_true(
	    has_line("INFO: uarch: unknown (family 0x6 model 0x8f: no row in the model table)"));
}

/*
 * Alder Lake (06_97H) under KVM, P-core then E-core.
 * CPUID.1 EAX 0x00090672: stepping 2, model 7, ext model 9 -> 0x97.
 * CPUID.7.0:EDX bit 15 hybrid.  CPUID.1AH:EAX[31:24] 0x40 Core / 0x20 Atom.
 * CPUID.0AH v5: EAX 0x08300805 = version 5, 8 GP x 48 bits, 8 events;
 *   EBX 0x80 = event 7 (topdown slots) NOT available; ECX 0x0b = fixed
 *   counters 0, 1, 3; EDX 0x603 = 3 contiguous fixed, 48 bits
 *   -> mask 0x0b | 0x07 = 0xf, highest bit 3 -> 4 fixed counters.
 * CPUID.15H: EAX 2, EBX 188, ECX 38400000 -> 38.4 MHz * 94 = 3609600000 Hz.
 * PERF_CAPABILITIES 0x2f4c5 = 10 1111 0100 1100 0101:
 *   [5:0] 0x05 -> LBR format 5, [6] 1 trap, [7] 1 arch-reg,
 *   [11:8] 0x4 -> PEBS format 4, [12] 1 SMM freeze, [13] 1 full-width write,
 *   [14] 1 baseline, [15] 1 perf metrics, [16] 0 output to PT, [17] 1 timing.
 */
#define ADL_COMMON                                                                                 \
	{0, 0, VENDOR_INTEL_REGS(0x20)},                                                           \
	    {1, 0, {0x00090672, 0, (1u << 31) | (1u << 15) | (1u << 2), (1u << 21) | (1u << 5)}},  \
	    {7, 0, {0, 0, 0, 1u << 15}}, {0xa, 0, {0x08300805, 0x80, 0x0b, 0x603}},                \
	    {0x15, 0, {2, 188, 38400000, 0}},                                                      \
	    {0x40000000,                                                                           \
	     0,                                                                                    \
	     {0x40000001, S4('K', 'V', 'M', 'K'), S4('V', 'M', 'K', 'V'), S4('M', 0, 0, 0)}},      \
	{                                                                                          \
		0x80000000, 0,                                                                     \
		{                                                                                  \
			0x80000000, 0, 0, 0                                                        \
		}                                                                                  \
	}

static const struct leaf adl_p_leaves[] = {ADL_COMMON, {0x1a, 0, {0x40000001, 0, 0, 0}}, {0}};
static const struct leaf adl_e_leaves[] = {ADL_COMMON, {0x1a, 0, {0x20000001, 0, 0, 0}}, {0}};
static const struct msr adl_msrs[] = {{MSR_IA32_BIOS_SIGN_ID, 0x0000002c00000000ull},
				      {MSR_IA32_MISC_ENABLE, 0x80 | (1u << 11)},
				      {MSR_IA32_PERF_CAPABILITIES, 0x2f4c5},
				      {0}};
static const struct profile adl_p = {adl_p_leaves, adl_msrs};
static const struct profile adl_e = {adl_e_leaves, adl_msrs};

static void test_alder_lake(void **state)
{
	struct cpu_info ci;
	uint64_t v;

	run_probe(&adl_p, &ci);
	assert_int_equal(ci.model, 0x97);
	assert_int_equal(ci.stepping, 2);
	assert_int_equal(ci.hypervisor, HV_KVM);
	assert_true(ci.hybrid);
	assert_int_equal(ci.core_type, CORE_TYPE_CORE);
	assert_int_equal(ci.pmu_version, 5);
	assert_int_equal(ci.n_gp, 8);
	assert_int_equal(ci.fixed_mask, 0xf);
	assert_int_equal(ci.n_fixed, 4);
	assert_int_equal(ci.tsc_hz, 3609600000ull);
	assert_int_equal(ci.microcode, 0x2c);
	assert_int_equal(uarch_models_uarch(&ci), UARCH_GLC);
	assert_int_equal(PERF_CAP_PEBS_FMT(ci.perf_caps), 4);
	assert_true(has_line("INFO: cpu: hypervisor KVM, signature \"KVMKVMKVM\""));
	assert_true(has_line("INFO: cpu: hybrid yes, core type 0x40 Core (P-core)"));
	assert_true(has_line("INFO: cpu: TSC 3609600000 Hz (CPUID.15H)"));
	assert_true(has_line("INFO: pmu: arch perfmon version 5, 8 GP counters x 48 bits, 4 fixed "
			     "counters x 48 bits (mask 0xf)"));
	/* Event 7 unavailable (EBX bit 7): slots missing from the list. */
	assert_true(
	    has_line("INFO: pmu: arch events (8 enumerated): core-cycles instructions "
		     "ref-cycles llc-references llc-misses branch-instructions branch-misses"));
	assert_true(has_line("INFO: misc_enable: 0x880: perfmon-available 1, bts-unavailable 1, "
			     "pebs-unavailable 0"));
	assert_true(has_line("INFO: perf_capabilities: pebs-format 4 (bits 11:8)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-baseline 1 (bit 14)"));
	assert_true(has_line("INFO: perf_capabilities: perf-metrics 1 (bit 15)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-output-pt 0 (bit 16)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-timing-info 1 (bit 17)"));
	assert_true(has_line("INFO: perf_capabilities: lbr-format 5 (bits 5:0)"));
	assert_true(has_line("INFO: uarch: glc (Alder Lake P-core (Golden Cove))"));
	assert_string_equal(cpu_perf_cap_field(0x2f4c5, 4, &v), "smm-freeze");
	assert_int_equal(v, 1);

	run_probe(&adl_e, &ci);
	assert_int_equal(ci.core_type, CORE_TYPE_ATOM);
	assert_int_equal(uarch_models_uarch(&ci), UARCH_GRT);
	assert_true(has_line("INFO: cpu: hybrid yes, core type 0x20 Atom (E-core)"));
	assert_true(has_line("INFO: uarch: grt (Alder Lake E-core (Gracemont))"));
}

/*
 * No PDCM: IA32_PERF_CAPABILITIES must not be read even on Intel
 * (Core 2 Merom 06_0FH, CPUID.1 EAX 0x6f6: model 0xf, stepping 6;
 * arch perfmon v2: EAX 0x07280202 = v2, 2 GP x 40 bits, 7 events;
 * EDX 0x503 -> 3 fixed, (0x503 >> 5) & 0xff = 40 bits).
 */
static const struct leaf merom_leaves[] = {{0, 0, VENDOR_INTEL_REGS(0xa)},
					   {1, 0, {0x000006f6, 0, 1u << 2, (1u << 21) | (1u << 5)}},
					   {0xa, 0, {0x07280202, 0, 0, 0x503}},
					   {0}};
static const struct msr merom_msrs[] = {
    {MSR_IA32_BIOS_SIGN_ID, 0x000000c700000000ull}, {MSR_IA32_MISC_ENABLE, 0x80 | (1u << 12)}, {0}};
static const struct profile merom = {merom_leaves, merom_msrs};

static void test_core2_no_pdcm(void **state)
{
	struct cpu_info ci;

	run_probe(&merom, &ci);
	assert_int_equal(ci.model, 0x0f);
	assert_int_equal(uarch_models_uarch(&ci), UARCH_CORE2);
	assert_int_equal(ci.pmu_version, 2);
	assert_int_equal(ci.gp_width, 40);
	assert_int_equal(ci.n_fixed, 3);
	assert_int_equal(ci.fixed_width, 40);
	assert_int_equal(msr_reads[MSR_IA32_PERF_CAPABILITIES], 0);
	assert_false(ci.has_perf_caps);
	assert_true(ci.misc_enable & MISC_ENABLE_PEBS_UNAVAIL);
	assert_true(has_line("INFO: misc_enable: 0x1080: perfmon-available 1, bts-unavailable 0, "
			     "pebs-unavailable 1"));
	assert_true(has_line("INFO: perf_capabilities: not read (CPUID.1:ECX[15] PDCM clear)"));
	assert_true(has_line("INFO: cpu: TSC frequency unknown (CPUID.15H/16H give none)"));
	assert_true(has_line("INFO: uarch: core2 (Core 2 (Merom))"));
}

/*
 * Architectural PEBS: CPUID.(7,1):EAX[8], leaf 23H subleaf 0 EAX bits 4
 * and 5; subleaf 4 EBX group bits, subleaf 5 EAX/EBX/ECX/EDX masks.  A
 * future part: family 6 model 0xcc (not in our table), Intel.
 */
static const struct leaf apebs_leaves[] = {
    {0, 0, VENDOR_INTEL_REGS(0x23)},
    {1, 0, {0x000c06c0, 0, (1u << 15) | (1u << 2), (1u << 21) | (1u << 5)}},
    {7, 1, {1u << 8, 0, 0, 0}},
    {0xa, 0, {0x08300806, 0, 0x7, 0x603}},
    {0x23, 0, {0x3e, 0, 0, 0}},
    {0x23, 4, {0, 0x7f, 0, 0}},
    {0x23, 5, {0xff, 0x03, 0x07, 0x01}},
    {0}};
static const struct msr apebs_msrs[] = {{MSR_IA32_BIOS_SIGN_ID, 0},
					{MSR_IA32_MISC_ENABLE, 0x80},
					{MSR_IA32_PERF_CAPABILITIES, 0xf00 | (1u << 14)},
					{0}};
static const struct profile apebs = {apebs_leaves, apebs_msrs};

static void test_arch_pebs(void **state)
{
	struct cpu_info ci;

	run_probe(&apebs, &ci);
	assert_int_equal(ci.model, 0xcc);
	assert_true(ci.arch_pebs);
	assert_int_equal(ci.arch_pebs_caps, 0x7f);
	assert_int_equal(ci.arch_pebs_gp, 0xff);
	assert_int_equal(ci.arch_pebs_pdist_gp, 0x03);
	assert_int_equal(ci.arch_pebs_fixed, 0x07);
	assert_int_equal(ci.arch_pebs_pdist_fixed, 0x01);
	assert_int_equal(PERF_CAP_PEBS_FMT(ci.perf_caps), 0xf);
	assert_int_equal(uarch_models_uarch(&ci), UARCH_NONE);
	assert_true(has_line("INFO: arch-pebs: yes, groups 0x7f, GP counters 0xff (pdist 0x3), "
			     "fixed 0x7 (pdist 0x1)"));
	assert_true(has_line("INFO: perf_capabilities: pebs-format 15 (bits 11:8)"));

	/* Without CPUID.(7,1):EAX[8] leaf 23H is not looked at. */
	struct leaf l[ARRAY_SIZE(apebs_leaves)];
	memcpy(l, apebs_leaves, sizeof(l));
	l[2].r.eax = 0;
	struct profile p = {l, apebs_msrs};
	run_probe(&p, &ci);
	assert_false(ci.arch_pebs);
	/* Only one of the two sub-leaf bits: not usable. */
	memcpy(l, apebs_leaves, sizeof(l));
	l[4].r.eax = 0x1e;
	run_probe(&p, &ci);
	assert_false(ci.arch_pebs);
}

/*
 * CPUID.23H.1:EAX, the GP counters as a bitmap (Linux core.c update_pmu_cap
 * takes it as the counter mask): here PMC1 is missing from 8.  Nothing may
 * be placed on it (a write to its EVTSEL would #GP).
 */
static const struct leaf hole_leaves[] = {
    {0, 0, VENDOR_INTEL_REGS(0x23)},
    {1, 0, {0x000c06c0, 0, (1u << 15) | (1u << 2), (1u << 21) | (1u << 5)}},
    {7, 1, {1u << 8, 0, 0, 0}},
    {0xa, 0, {0x08300806, 0, 0x7, 0x603}},
    {0x23, 0, {0x3e, 0, 0, 0}},
    {0x23, 1, {0xfd, 0x7, 0, 0}},
    {0x23, 4, {0, 0x7f, 0, 0}},
    {0x23, 5, {0xfd, 0x01, 0x07, 0x01}},
    {0}};
static const struct profile hole = {hole_leaves, apebs_msrs};

static void test_gp_bitmap_hole(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct pmu_plan p;
	char why[256];

	run_probe(&hole, &ci);
	memset(&c, 0, sizeof(c));
	c.ci = &ci;
	c.count_only = true;
	c.count_events[0] = c.count_events[1] = "event=0x3c,umask=0x0";
	c.n_count_events = 2;
	assert_int_equal(plan_build(&c, &ci, &p, why, sizeof(why)), 0);
	assert_int_equal(p.count[0].ctr, 0);
	assert_int_equal(p.count[1].ctr, 2);
	assert_false(p.gp_used & 0x2);
	/* the apebs profile enumerates sub-leaf 1 but gives it no value: 0AH's 8 stay */
	run_probe(&apebs, &ci);
	assert_int_equal(ci.n_gp, 8);
}

/*
 * Every CPUID.23H sub-leaf (SDM Vol. 2A CPUID leaf 23H; Linux core.c
 * update_pmu_cap): 0 EAX 0x3f names sub-leaves 1-5, EBX 0x3 UMASK2 and EQ;
 * 1 GP 0xff, fixed 0x77 (no fixed 3, fixed 4-6: leaf 0AH says only 0-2);
 * 2 ACR reloadable GP 0xff / fixed 0x7, causes GP 0x0f / fixed 0x1; 3 events
 * 0xff (bits 0-7: core-cycles .. topdown-slots).
 */
static const struct leaf ext_leaves[] = {
    {0, 0, VENDOR_INTEL_REGS(0x23)},
    {1, 0, {0x000c06c0, 0, (1u << 15) | (1u << 2), (1u << 21) | (1u << 5)}},
    {7, 1, {1u << 8, 0, 0, 0}},
    {0xa, 0, {0x08300806, 0, 0x7, 0x603}},
    {0x23, 0, {0x3f, 0x3, 0, 0}},
    {0x23, 1, {0xff, 0x77, 0, 0}},
    {0x23, 2, {0xff, 0x7, 0x0f, 0x1}},
    {0x23, 3, {0xff, 0, 0, 0}},
    {0x23, 4, {0, 0x7f, 0, 0}},
    {0x23, 5, {0xff, 0x03, 0x07, 0x01}},
    {0}};
static const struct profile ext = {ext_leaves, apebs_msrs};

static void test_perfmon_ext_leaf(void **state)
{
	struct cpu_info ci;

	run_probe(&ext, &ci);
	assert_true(ci.ext.valid);
	assert_int_equal(ci.ext.subleaves, 0x3f);
	assert_int_equal(ci.ext.evtsel_ext, PMEXT_UMASK2 | PMEXT_EQ);
	assert_int_equal(ci.ext.gp, 0xff);
	assert_int_equal(ci.ext.fixed, 0x77);
	assert_int_equal(ci.ext.acr_gp_reload, 0xff);
	assert_int_equal(ci.ext.acr_fixed_reload, 0x7);
	assert_int_equal(ci.ext.acr_gp_cause, 0x0f);
	assert_int_equal(ci.ext.acr_fixed_cause, 0x1);
	assert_int_equal(ci.ext.events, 0xff);
	/* sub-leaf 1's fixed bitmap is the fixed counters (update_pmu_cap: fixed_cntr_mask64) */
	assert_int_equal(ci.fixed_mask, 0x77);
	assert_int_equal(ci.n_fixed, 7);
	assert_true(has_line("INFO: perfmon-ext: sub-leaves 0x3f, umask2 yes, eq yes "
			     "(CPUID.23H.0:EAX, EBX 0x3)"));
	assert_true(has_line("INFO: perfmon-ext: counters GP 0xff, fixed 0x77 (CPUID.23H.1)"));
	assert_true(has_line("INFO: perfmon-ext: acr reloadable GP 0xff fixed 0x7, may cause a "
			     "reload GP 0xf fixed 0x1 (CPUID.23H.2)"));
	assert_true(has_line("INFO: perfmon-ext: events 0xff (CPUID.23H.3): core-cycles "
			     "instructions ref-cycles llc-references llc-misses "
			     "branch-instructions branch-misses topdown-slots"));
	assert_true(has_line("INFO: arch-pebs: groups (CPUID.23H.4:EBX): cntr-allow cntr-gp "
			     "cntr-fixed cntr-metrics"));

	/* Sub-leaves 2 and 3 not enumerated: not read (their values stay 0), and said so. */
	struct leaf l[ARRAY_SIZE(ext_leaves)];
	memcpy(l, ext_leaves, sizeof(l));
	l[4].r.eax = 0x33;
	l[4].r.ebx = 0;
	struct profile p = {l, apebs_msrs};
	run_probe(&p, &ci);
	assert_int_equal(ci.ext.acr_gp_reload | ci.ext.acr_fixed_reload, 0);
	assert_int_equal(ci.ext.events, 0);
	assert_int_equal(ci.ext.evtsel_ext, 0);
	assert_true(has_line("INFO: perfmon-ext: acr: not enumerated (CPUID.23H.0:EAX[2] clear)"));
	assert_true(
	    has_line("INFO: perfmon-ext: events: not enumerated (CPUID.23H.0:EAX[3] clear)"));
	assert_true(has_line("INFO: perfmon-ext: sub-leaves 0x33, umask2 no, eq no "
			     "(CPUID.23H.0:EAX, EBX 0x0)"));

	/* Without ArchPerfmonExt (CPUID.(7,1):EAX[8]) the leaf is not read at all. */
	memcpy(l, ext_leaves, sizeof(l));
	l[2].r.eax = 0;
	run_probe(&p, &ci);
	assert_false(ci.ext.valid);
	assert_int_equal(ci.fixed_mask, 0x7);
	assert_true(has_line("INFO: perfmon-ext: no (CPUID.(7,1):EAX[8] clear or max leaf below "
			     "23H)"));
}

/* A faulting capability MSR (a hypervisor hiding it) is reported, not fatal. */
static void test_faulting_msr(void **state)
{
	static const struct msr none[] = {{0}};
	struct profile p = {skl_leaves, none};
	struct cpu_info ci;

	run_probe(&p, &ci);
	assert_false(ci.has_microcode);
	assert_false(ci.has_misc_enable);
	assert_false(ci.has_perf_caps);
	assert_true(has_line("INFO: misc_enable: not read (rdmsr faulted)"));
	assert_true(has_line("INFO: perf_capabilities: not read (rdmsr faulted)"));
}

/* The model table: one model per generation pmu/cpu.c knows. */
static void test_uarch_table(void **state)
{
	static const struct {
		uint32_t model;
		enum cpu_core_type core;
		enum pebs_uarch want;
	} cases[] = {
	    {0x17, 0, UARCH_CORE2},
	    {0x1e, 0, UARCH_NHM},
	    {0x2c, 0, UARCH_WSM},
	    {0x2a, 0, UARCH_SNB},
	    {0x3e, 0, UARCH_IVB},
	    {0x3f, 0, UARCH_HSW},
	    {0x4f, 0, UARCH_BDW},
	    {0x8e, 0, UARCH_SKL},
	    {0x9e, 0, UARCH_SKL},
	    {0x55, 0, UARCH_SKX},
	    {0x7e, 0, UARCH_ICL},
	    {0x8c, 0, UARCH_ICL},
	    {0x6a, 0, UARCH_ICX},
	    {0x8f, 0, UARCH_SPR},
	    {0xcf, 0, UARCH_EMR},
	    {0xad, 0, UARCH_GNR},
	    {0xb7, CORE_TYPE_CORE, UARCH_GLC},
	    {0xb7, CORE_TYPE_ATOM, UARCH_GRT},
	    {0xaa, CORE_TYPE_ATOM, UARCH_CMT},
	    {0xaa, CORE_TYPE_CORE, UARCH_GLC},
	    {0xbd, CORE_TYPE_CORE, UARCH_LNC},
	    {0xc6, CORE_TYPE_CORE, UARCH_LNC},
	    {0x5c, 0, UARCH_GLM},
	    {0x7a, 0, UARCH_GLM},
	    {0x37, 0, UARCH_SLM},
	    {0x4c, 0, UARCH_SLM},
	    /* Hybrid part with no core type: no guess. */
	    {0x97, 0, UARCH_NONE},
	    {0x01, 0, UARCH_NONE},
	};
	struct cpu_info ci;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&ci, 0, sizeof(ci));
		ci.vendor = VENDOR_INTEL;
		ci.family = 6;
		ci.model = cases[i].model;
		ci.core_type = cases[i].core;
		if (uarch_models_uarch(&ci) != cases[i].want)
			fail_msg("model 0x%x core 0x%x: got %d want %d", cases[i].model,
				 cases[i].core, uarch_models_uarch(&ci), cases[i].want);
	}
	memset(&ci, 0, sizeof(ci));
	ci.vendor = VENDOR_INTEL;
	ci.family = 0xf;
	ci.model = 0x5e;
	assert_int_equal(uarch_models_uarch(&ci), UARCH_NONE);
}

/*
 * Models the table lacked at 74353af (an audit's list), by display family:
 * CPUID.1 EAX[27:20] is added when EAX[11:8] is 0xF (SDM Vol. 2A, CPUID
 * leaf 01H), so Nova Lake is family 0x12 and Diamond Rapids 0x13 (Linux
 * intel-family.h IFM(18, ...), IFM(19, ...)).  Each gets its row, the kind
 * of core it is (CPUID.1AH, or the row for a non-hybrid part), and where
 * perfmon has a file for it (mapfile.csv) that file.
 */
static void test_model_gaps(void **state)
{
	static const struct {
		uint32_t family, model;
		enum cpu_core_type core;
		uint32_t native;
		enum pebs_uarch want;
		enum cpu_core_type kind;
		const char *word, *file; /* file NULL: perfmon has none */
	} cases[] = {
	    {6, 0x86, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "SNR/snowridgex_core.json"},
	    {6, 0x96, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "EHL/elkhartlake_core.json"},
	    {6, 0x9c, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "EHL/elkhartlake_core.json"},
	    {6, 0x8a, CORE_TYPE_CORE, 0, UARCH_ICL, CORE_TYPE_CORE, "Lakefield", NULL},
	    {6, 0x8a, CORE_TYPE_ATOM, 0, UARCH_TNT, CORE_TYPE_ATOM, "Lakefield", NULL},
	    {6, 0xb5, CORE_TYPE_CORE, 2, UARCH_GLC, CORE_TYPE_CORE, "Arrow Lake-U",
	     "MTL/meteorlake_redwoodcove_core.json"},
	    {6, 0xb5, CORE_TYPE_ATOM, 2, UARCH_CMT, CORE_TYPE_ATOM, "Arrow Lake-U",
	     "MTL/meteorlake_crestmont_core.json"},
	    {6, 0xcc, CORE_TYPE_CORE, 4, UARCH_CGC, CORE_TYPE_CORE, "Panther Lake",
	     "PTL/pantherlake_cougarcove_core.json"},
	    {6, 0xcc, CORE_TYPE_ATOM, 4, UARCH_DKM, CORE_TYPE_ATOM, "Panther Lake",
	     "PTL/pantherlake_darkmont_core.json"},
	    {6, 0xd5, CORE_TYPE_CORE, 4, UARCH_CGC, CORE_TYPE_CORE, "Wildcat Lake",
	     "PTL/pantherlake_cougarcove_core.json"},
	    {6, 0xe5, CORE_TYPE_ATOM, 4, UARCH_DKM, CORE_TYPE_ATOM, "Panther Lake",
	     "PTL/pantherlake_darkmont_core.json"},
	    {0x12, 0x01, CORE_TYPE_CORE, 5, UARCH_CYC, CORE_TYPE_CORE, "Nova Lake",
	     "NVL/novalake_coyotecove_core.json"},
	    {0x12, 0x03, CORE_TYPE_ATOM, 5, UARCH_ARW, CORE_TYPE_ATOM, "Nova Lake",
	     "NVL/novalake_arcticwolf_core.json"},
	    {0x13, 0x01, 0, 0, UARCH_PNC, CORE_TYPE_CORE, "Diamond Rapids", NULL},
	    {6, 0xdd, 0, 0, UARCH_DKM, CORE_TYPE_ATOM, "Clearwater Forest",
	     "CWF/clearwaterforest_core.json"},
	};
	struct cpu_info ci;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *what;
		const struct perfmon_table *t;

		memset(&ci, 0, sizeof(ci));
		ci.vendor = VENDOR_INTEL;
		ci.family = cases[i].family;
		ci.model = cases[i].model;
		ci.core_type = cases[i].core;
		ci.native_model = cases[i].native;
		what = uarch_models_description(&ci);
		if (!what || !strstr(what, cases[i].word))
			fail_msg("%02X_%02XH core 0x%x: description '%s', want '%s'",
				 cases[i].family, cases[i].model, cases[i].core,
				 what ? what : "(none)", cases[i].word);
		assert_int_equal(uarch_models_uarch(&ci), cases[i].want);
		assert_int_equal(uarch_models_core_kind(&ci), cases[i].kind);
		t = cpu_perfmon_table(&ci);
		if (cases[i].file ? !t || strcmp(perfmon_table_name(t), cases[i].file) : t != NULL)
			fail_msg("%02X_%02XH core 0x%x: perfmon %s, want %s", cases[i].family,
				 cases[i].model, cases[i].core, t ? perfmon_table_name(t) : "none",
				 cases[i].file ? cases[i].file : "none");
	}
}

/* CPUID.1 EAX 0x00300f10 (Nova Lake): family 0xF + EAX[27:20] 3 = 0x12, model 1. */
static const struct leaf nvl_leaves[] = {
    {0, 0, {0x23, S4('G', 'e', 'n', 'u'), S4('n', 't', 'e', 'l'), S4('i', 'n', 'e', 'I')}},
    {1, 0, {0x00300f10, 0, 0, 0}},
    {7, 0, {0, 0, 0, 1u << 15}},
    {0x1a, 0, {0x40000005, 0, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};
static const struct profile nvl = {nvl_leaves, NULL};

static void test_extended_family(void **state)
{
	struct cpu_info ci;

	run_probe(&nvl, &ci);
	assert_int_equal(ci.family, 0x12);
	assert_int_equal(ci.model, 0x01);
	assert_int_equal(ci.core_type, CORE_TYPE_CORE);
	assert_int_equal(ci.native_model, 5);
	assert_non_null(strstr(uarch_models_description(&ci), "Nova Lake"));
	assert_true(has_line("INFO: perfmon: NVL/novalake_coyotecove_core.json"));
}

/*
 * CPUID.0AH counts that pmu/cpu_quirk.c corrects, one case a row: the
 * signature, hybrid bit, hypervisor bit, CPUID.1AH and CPUID.0AH a part
 * gives, and the counters the probe must end with.  Alder Lake's P-core
 * names only the counters it shares with the E-core (Linux core.c
 * intel_pmu_init: 2 GP and 1 fixed more, f83d2f91d259; only with the
 * hybrid bit, ee72a94ea4a6; CPUID as it is past 8 GP or 4 fixed,
 * 7fa981cad216); PMU v2-v4 on bare metal has at least 3 fixed counters
 * (the "v2 perfmon" quirk there).
 */
struct quirk_case {
	const char *name;
	uint32_t sig;
	bool hybrid, guest;
	uint32_t c1a, a_eax, a_ecx, a_edx;
	uint32_t gp_mask, fixed_mask, fixed_width;
	const char *what; /* the quirk that applied, NULL: CPUID as it is */
};

#define ADL_SIG	 0x00090672 /* 06_97 */
#define RPLS_SIG 0x000b06f1 /* 06_BF */
#define MTL_SIG	 0x000a06a4 /* 06_AA */
#define PCORE	 0x40000001
#define ECORE	 0x20000001

static const struct quirk_case quirk_cases[] = {
    {"adl p-core, hybrid", ADL_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf, 48,
     "hybrid P-core"},
    {"rpl-s p-core, hybrid", RPLS_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf, 48,
     "hybrid P-core"},
    {"adl p-core under a hypervisor", ADL_SIG, true, true, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf,
     48, "hybrid P-core"},
    {"adl e-core", ADL_SIG, true, false, ECORE, 0x07300605, 0x7, 0x603, 0x3f, 0x7, 48, NULL},
    {"adl p-core, hybrid bit clear", ADL_SIG, false, false, PCORE, 0x07300605, 0x7, 0x603, 0x3f,
     0x7, 48, NULL},
    {"adl, every e-core off: 8 GP 4 fixed named", ADL_SIG, true, false, PCORE, 0x07300805, 0xf,
     0x604, 0xff, 0xf, 48, NULL},
    {"mtl p-core (not the adl platform)", MTL_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0x3f,
     0x7, 48, NULL},
    {"core 2 v2, no fixed counter named", 0x0001067a, false, false, 0, 0x07280202, 0, 0, 0x3, 0x7,
     40, "v2-v4 fixed counters"},
    {"core 2 v2 under a hypervisor", 0x0001067a, false, true, 0, 0x07280202, 0, 0, 0x3, 0, 0, NULL},
    {"skylake v4, 3 fixed named", 0x000506e3, false, false, 0, 0x07300404, 0, 0x603, 0xf, 0x7, 48,
     NULL},
};

static void test_counter_quirks(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(quirk_cases); i++) {
		const struct quirk_case *c = &quirk_cases[i];
		const struct leaf leaves[] = {
		    {0, 0, VENDOR_INTEL_REGS(0x1a)},
		    {1,
		     0,
		     {c->sig, 0, (c->guest ? 1u << 31 : 0) | (1u << 2), (1u << 21) | (1u << 5)}},
		    {7, 0, {0, 0, 0, c->hybrid ? 1u << 15 : 0}},
		    {0xa, 0, {c->a_eax, 0, c->a_ecx, c->a_edx}},
		    {0x1a, 0, {c->c1a, 0, 0, 0}},
		    {0}};
		const struct msr msrs[] = {{MSR_IA32_BIOS_SIGN_ID, 0}, {0}};
		const struct profile p = {leaves, msrs};
		struct cpu_info ci;
		char line[512];
		bool ok;

		run_probe(&p, &ci);
		ok = ci.gp_mask == c->gp_mask && ci.fixed_mask == c->fixed_mask &&
		     ci.fixed_width == c->fixed_width &&
		     (c->what ? ci.count_quirk.what && !strcmp(ci.count_quirk.what, c->what)
			      : !ci.count_quirk.what);
		if (!ok)
			fail_msg("%s: GP 0x%x fixed 0x%x x %u bits, quirk %s; want GP 0x%x fixed "
				 "0x%x x %u bits, quirk %s",
				 c->name, ci.gp_mask, ci.fixed_mask, ci.fixed_width,
				 ci.count_quirk.what ? ci.count_quirk.what : "none", c->gp_mask,
				 c->fixed_mask, c->fixed_width, c->what ? c->what : "none");
		/* The report says what CPUID named and what was taken, where a row applied. */
		snprintf(line, sizeof(line),
			 "INFO: pmu: CPUID.0AH names GP 0x%x fixed 0x%x: short on a %s",
			 c->a_eax >> 8 & 0xff ? (1u << (c->a_eax >> 8 & 0xff)) - 1 : 0,
			 c->a_ecx | ((1u << (c->a_edx & 0x1f)) - 1), c->what ? c->what : "");
		if (c->what && !has_line(line))
			fail_msg("%s: no line saying what CPUID.0AH named", c->name);
		snprintf(line, sizeof(line),
			 "INFO: pmu: taken as GP 0x%x fixed 0x%x (Linux core.c intel_pmu_init, ",
			 c->gp_mask, c->fixed_mask);
		if (c->what && !test_line_find(line, NULL))
			fail_msg("%s: no line saying what was taken", c->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_skylake),	     cmocka_unit_test(test_tcg),
	    cmocka_unit_test(test_alder_lake),	     cmocka_unit_test(test_core2_no_pdcm),
	    cmocka_unit_test(test_arch_pebs),	     cmocka_unit_test(test_faulting_msr),
	    cmocka_unit_test(test_uarch_table),	     cmocka_unit_test(test_model_gaps),
	    cmocka_unit_test(test_extended_family),  cmocka_unit_test(test_gp_bitmap_hole),
	    cmocka_unit_test(test_perfmon_ext_leaf), cmocka_unit_test(test_counter_quirks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
