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
#include "test_cpu_util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_skylake),	   cmocka_unit_test(test_tcg),
	    cmocka_unit_test(test_alder_lake),	   cmocka_unit_test(test_core2_no_pdcm),
	    cmocka_unit_test(test_arch_pebs),	   cmocka_unit_test(test_faulting_msr),
	    cmocka_unit_test(test_gp_bitmap_hole), cmocka_unit_test(test_perfmon_ext_leaf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
