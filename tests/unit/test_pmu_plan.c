// SPDX-License-Identifier: MIT
/*
 * test_pmu_plan.c - the MSR values pmu/plan.c computes, against values
 * worked out by hand from the SDM bit layouts (Vol. 3B 18.9.4, 18.11,
 * 18.7.1, 18.6.3; Linux msr-index.h and perf_event.h), and its refusals.  No MSR is touched.
 *
 * PERFEVTSEL by hand: USR = bit 16 (0x10000), OS = bit 17 (0x20000),
 * INT = bit 20, EN = bit 22 (0x400000), ADAPTIVE = bit 34 (0x400000000).
 * So a PEBS EVTSEL with both rings = event | umask<<8 | 0x430000.
 * The sampling cases are here; test_pmu_plan_counters.c has the counters
 * and the extra MSRs (struct plan_case: test_plan_util.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "ds/ds.h"
#include "pmu/perfmon.h"
#include "pmu/msr.h"
#include "pmu/plan.h"
#include "pmu/uarch.h"
#include "test_util.h"
#include "test_plan_util.h"

// clang-format off
static const struct plan_case plan_cases[] = {
    /*
     * SDM 18.9.4.2 enables load latency on PMC0 ("00000001.00000001H") and
     * Linux allows PMC0-3 (ds.c intel_nehalem_pebs_event_constraints), but
     * NHM-EP/events/NehalemEP_core.json lists Counter "3" for
     * MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_*: PMC3 is used.
     * MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD = 0x0b umask 0x10 (SDM 18.8.1.2);
     * GLOBAL_CTRL PMC3 and fixed 0-2, no counting copy for ldlat;
     * FIXED_CTR_CTRL OS|USR = 0x3 per counter, no PMI bit.
     */
    {.what = "nhm ldlat on PMC3", NHM,
     .kind = KIND_LDLAT, .event = "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_32:ldlat=30",
     .ctr = W(3), .kind_out = W(KIND_LDLAT), .pebs_enable = W(0x0000000800000008),
     .evtsel = W(0x43100b), .use_ldlat = W(true), .ldlat_out = W(30), .period_out = W(32),
     .rec_size = W(176), .global_ctrl = W(0x8 | 0x7ull << 32), .fixed_ctrl = W(0x333)},
    /* SDM 18.9.4.3: precise store on PMC3 only, PS_EN bit 63; MEM_TRANS_RETIRED.PRECISE_STORE 0x02cd */
    {.what = "snb precise store", SNB,
     .stepping = 7, .microcode = 0x28, .kind = KIND_STORE,
     .ctr = W(3), .pebs_enable = W(0x8000000000000008), .evtsel = W(0x4302cd),
     .use_ldlat = W(false)},
    /* SNB load latency goes to PMC3 (Linux constraint), LL_EN_PMC3 = bit 35; the session's threshold */
    {.what = "snb ldlat on PMC3", SNB,
     .kind = KIND_LDLAT, .event = "event=0xcd,umask=0x1", .ldlat = 50,
     .ctr = W(3), .pebs_enable = W(0x0000000800000008), .evtsel = W(0x4301cd), .ldlat_out = W(50)},
    {.what = "skl ldlat", SKL,
     .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=3",
     .pebs_enable = W(0x0000000100000001), .evtsel = W(0x4301cd), .rec_size = W(200)},
    /* MEM_INST_RETIRED.ALL_STORES 0x82d0 on PMC0, no LL_EN or PS_EN; its counting copy on PMC1 */
    {.what = "skl datala-store", SKL,
     .kind = KIND_DATALA_STORE,
     .kind_out = W(KIND_DATALA_STORE), .pebs_enable = W(0x1), .evtsel = W(0x4382d0),
     .copy_idx = W(0), .count0_ctr = W(1), .copy_evtsel = W(0x4382d0)},
    /* Ice Lake: no LL_EN; adaptive bit 34 on the EVTSEL; DATA_CFG MEMINFO: basic 32 + meminfo 32 */
    {.what = "icl adaptive ldlat", .model = 0x7e, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .n_fixed = 4, .kind = KIND_LDLAT,
     .adaptive = W(true), .ctr = W(0), .pebs_enable = W(0x1), .evtsel = W(0x4004301cd),
     .data_cfg_out = W(0x1), .rec_size = W(64)},
    /*
     * Fixed-counter PEBS (baseline only): fixed 0 is umask 0x01 of event 0x00
     * in Linux's pseudo space; FIXED_CTR_CTRL: fixed 0 OS|USR and adaptive
     * bit 32, fixed 1-3 counting 0x3 each.
     */
    {.what = "icl fixed-counter PEBS", .model = 0x7e, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .n_fixed = 4, .kind = KIND_OTHER, .event = "event=0x00,umask=0x01",
     .ctr = W(32), .pebs_enable = W(0x100000000), .fixed_ctrl = W(0x100000000 | 0x3333)},
    /* fixed counter 3 (TOPDOWN.SLOTS) where CPUID enumerates 0-2: that is the reason given */
    {.what = "icl TOPDOWN.SLOTS, 3 fixed", .model = 0x7e, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_OTHER, .event = "TOPDOWN.SLOTS",
     .rc = SESSION_REFUSED, .refusal = {"CPUID.0AH fixed counters 0x7"}},
    /* the same on Skylake (no baseline) is refused: INST_RETIRED.ANY has PEBS 0 there */
    {.what = "skl fixed-counter PEBS", SKL,
     .kind = KIND_OTHER, .event = "event=0x00,umask=0x01",
     .rc = SESSION_REFUSED, .refusal = {"not PEBS-capable"}},
    /* Goldmont (SDM 18.7.1): PMC0 only; the non-precise CORE_P event may PEBS */
    {.what = "glm default", GLM, .kind = KIND_OTHER,
     .ctr = W(0), .precise = W(false), .evtsel = W(0x43003c), .pebs_enable = W(0x1)},
    /* a precise event by its perfmon name is still PMC0 */
    {.what = "glm precise by name", GLM,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES",
     .ctr = W(0), .precise = W(true), .evtsel = W(0x4300c4)},
    /* forced records need IA32_PERF_GLOBAL_STATUS_SET: PMU version 4 */
    {.what = "glm forced records", GLM,
     .kind = KIND_OTHER, .force_records = true},
    {.what = "glm forced records, PMU v3", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .force_records = true, .rc = SESSION_REFUSED, .refusal = {"STATUS_SET"}},
    /*
     * Tremont (Jasper Lake 06_9C, fmt4 with baseline): its loads are sampled
     * by name, and as the perfmon row says the record carries the data linear
     * address (EHL/events/elkhartlake_core.json Data_LA 1), the plan asks for
     * the memory-info group (PEBS_DATA_CFG bit 0, Linux struct pebs_meminfo):
     * basic 32 + meminfo 32 bytes.  INST_RETIRED.ANY_P (Data_LA 0): basic only.
     */
    {.what = "tnt ALL_LOADS", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "MEM_UOPS_RETIRED.ALL_LOADS",
     .adaptive = W(true), .data_cfg_out = W(0x1), .rec_size = W(64)},
    {.what = "tnt ALL_STORES", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "MEM_UOPS_RETIRED.ALL_STORES",
     .adaptive = W(true), .data_cfg_out = W(0x1), .rec_size = W(64)},
    {.what = "tnt INST_RETIRED.ANY_P", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4,
     .version = 4, .kind = KIND_OTHER, .event = "INST_RETIRED.ANY_P",
     .adaptive = W(true), .data_cfg_out = W(0), .rec_size = W(32)},
    /*
     * Forced records (a PEBS record after an overflow set through
     * IA32_PERF_GLOBAL_STATUS_SET) are documented only for Goldmont's
     * non-precise events (SDM Vol. 3B 18.7.1); on other v4+ parts, and for a
     * precise event, the "forced" count would rest on undocumented behaviour.
     */
    {.what = "skl forced records", .model = 0x5e, .fmt = 3, .n_gp = 8, .version = 5,
     .kind = KIND_OTHER, .force_records = true, .rc = SESSION_REFUSED, .refusal = {"18.7.1"}},
    {.what = "icx forced records", .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_OTHER, .force_records = true,
     .rc = SESSION_REFUSED, .refusal = {"18.7.1"}},
    {.what = "spr forced records", .model = 0x8f, .fmt = 5, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_OTHER, .force_records = true,
     .rc = SESSION_REFUSED, .refusal = {"18.7.1"}},
    {.what = "glm forced records, precise event", GLM,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES", .force_records = true,
     .rc = SESSION_REFUSED, .refusal = {"non-precise"}},
    /*
     * MSR_PEBS_FRONTEND: FRONTEND_RETIRED.DSB_MISS carries 0x11
     * (SKL/events/skylake_core.json MSRValue; Linux mask 0x7fff17); one
     * MSR_PEBS_FRONTEND: no counting copy.  Nehalem has no MSR_PEBS_FRONTEND.
     */
    {.what = "skl frontend", SKL,
     .kind = KIND_OTHER, .event = "FRONTEND_RETIRED.DSB_MISS",
     .frontend = W(0x11), .evtsel = W(0x4301c6), .copy_idx = W(-1)},
    {.what = "nhm frontend", NHM,
     .kind = KIND_OTHER, .event = "event=0xc6,umask=0x1,frontend=0x11",
     .rc = SESSION_REFUSED, .refusal = {"FRONTEND"}},
    /*
     * AnyThread/Edge/Invert/CMask on a PEBS event, per generation (the row's
     * pebs_flags_src): refused on Skylake with its SDM note (Vol. 3B
     * 18.13.1); on Ice Lake-SP, with PEBS on every event (Linux ds.c
     * intel_pebs_constraints, PMU_FL_PEBS_ALL), a counter-mask event is a
     * PEBS event of kind "other", but a load-latency event with one is
     * refused (SDM 18.9.4.2: CMASK and INV 0).
     */
    {.what = "skl cmask", SKL,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES:c=1",
     .rc = SESSION_REFUSED, .refusal = {"CMask zero on Skylake (SDM Vol. 3B 18.13.1 NOTES;"}},
    {.what = "icx cmask", ICX,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES:c=1", .cmask = W(1)},
    {.what = "icx ldlat cmask", .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:c=1",
     .rc = SESSION_REFUSED,
     .refusal = {"a ldlat event needs AnyThread, Edge, Invert and CMask zero"}},
    /* Refusals on Skylake */
    {.what = "ldlat=2 in the name", SKL,
     .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=2",
     .rc = SESSION_REFUSED, .refusal = {"3..65535"}},
    {.what = "ldlat=2 in the session", SKL,
     .kind = KIND_LDLAT, .ldlat = 2, .rc = SESSION_REFUSED},
    {.what = "PREC_DIST with cmask", SKL,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST:c=1",
     .rc = SESSION_REFUSED, .refusal = {"CMask"}},
    /* HSW11: a PREC_DIST period >= 128 with the low 6 bits clear */
    {.what = "PREC_DIST period 100", SKL,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST", .period = 100,
     .rc = SESSION_REFUSED},
    {.what = "PREC_DIST period 192", SKL,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST", .period = 192},
    {.what = "period 31", SKL,
     .kind = KIND_OTHER, .period = 31, .rc = SESSION_REFUSED},
    {.what = "period 2^31", SKL,
     .kind = KIND_OTHER, .period = 0x80000000ULL, .rc = SESSION_REFUSED},
    /* the default events' refusals name the facility (plan.c default_sample, uarch.c kinds) */
    {.what = "skl precise store", SKL,
     .kind = KIND_STORE, .rc = SESSION_REFUSED,
     .refusal = {"precise store (Sandy/Ivy Bridge only; later: datala-store): no such facility on"}},
    {.what = "skl store latency", SKL,
     .kind = KIND_STLAT, .rc = SESSION_REFUSED,
     .refusal = {"store latency (Sapphire Rapids and later): no such facility on"}},
    {.what = "snb datala-load", SNB,
     .kind = KIND_DATALA_LOAD, .rc = SESSION_REFUSED,
     .refusal = {"DataLA loads (Haswell and later): no such facility on"}},
    {.what = "snb datala-store", SNB,
     .kind = KIND_DATALA_STORE, .rc = SESSION_REFUSED,
     .refusal = {"DataLA stores (Haswell and later): no such facility on"}},
    {.what = "unknown event", SKL,
     .kind = KIND_OTHER, .event = "NO_SUCH_EVENT",
     .rc = SESSION_REFUSED, .refusal = {"NO_SUCH_EVENT"}},
    {.what = "event code over 8 bits", SKL,
     .kind = KIND_OTHER, .event = "event=0x1cd,umask=1", .rc = SESSION_REFUSED},
    /* L2_RQSTS is not PEBS-capable on Skylake (SKL/events/skylake_core.json: PEBS 0) */
    {.what = "skl L2_RQSTS", SKL,
     .kind = KIND_OTHER, .event = "L2_RQSTS.ALL_DEMAND_DATA_RD",
     .rc = SESSION_REFUSED, .refusal = {"not PEBS-capable"}},
    /* The default instructions sample is a PEBS event of the generation:
     * SNB/IVB/HSW/SKL PREC_DIST 0x01c0 on PMC1 */
    {.what = "snb default", SNB, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    {.what = "ivb default", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    /* HSW11: the PREC_DIST period at least 128, low 6 bits clear */
    {.what = "hsw default", .model = 0x3c, .fmt = 2, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2), .period_out = W(128)},
    {.what = "skl default", SKL, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    /* Nehalem: INST_RETIRED.ANY_P 0x00c0 is precise (NHM-EP file PEBS 1), PMC0 */
    {.what = "nhm default", NHM, .kind = KIND_OTHER,
     .ctr = W(0), .evtsel = W(0x4300c0), .pebs_enable = W(0x1)},
    /* Westmere: INST_RETIRED.ANY_P is umask 0x01 (WSM-EP-SP file, PEBS 1), PMC0 */
    {.what = "wsm default", WSM, .kind = KIND_OTHER,
     .ctr = W(0), .evtsel = W(0x4301c0), .pebs_enable = W(0x1)},
    /* Lion Cove load latency on PMC2-9 (ds.c lnc 0x3fc), not PMC1; 0x1cd | 0x430000 | ADAPTIVE */
    {.what = "lnc ldlat", .model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 8, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .ctr = W(2), .pebs_enable = W(0x4), .evtsel = W(0x4004301cd)},
    {.what = "4 counted events on 4 counters", SKL,
     .kind = KIND_OTHER, .count = {"L2_RQSTS.ALL_DEMAND_DATA_RD", "L2_RQSTS.ALL_DEMAND_DATA_RD",
     "L2_RQSTS.ALL_DEMAND_DATA_RD", "L2_RQSTS.ALL_DEMAND_DATA_RD"},
     .rc = SESSION_REFUSED, .refusal = {"no free counter"}},
    /* SPR: ld-lat on 0xfe (not PMC0), aux 0x8203 counted on PMC0; store latency on PMC0 */
    {.what = "spr ldlat with aux", SPR, .n_fixed = 4, .kind = KIND_LDLAT,
     .ctr = W(1), .pebs_enable = W(0x2), .aux_ctr = W(0), .evtsel0 = W(0x438203)},
    {.what = "spr store latency", SPR, .n_fixed = 4, .kind = KIND_STLAT,
     .ctr = W(0), .evtsel = W(0x4004302cd), .kind_out = W(KIND_STLAT)},
    /* GNR has no mem-loads-aux event (core.c sets PMU_FL_MEM_LOADS_AUX for SPR/EMR only) */
    {.what = "gnr ldlat, no aux", .model = 0xad, .fmt = 5, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_LDLAT, .aux_ctr = W(-1)},
    /*
     * PMU version 1 has no IA32_PERF_GLOBAL_CTRL / _STATUS / _OVF_CTRL (SDM
     * Vol. 3B 18.2.2: version 2 adds them), which every session writes: SKIP
     * before any access, sampling and counting alike, naming version 2.
     */
    {.what = "PMU v1 sampling", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 1,
     .kind = KIND_OTHER,
     .rc = SESSION_SKIP, .refusal = {"version 2"}},
    {.what = "PMU v1 counting", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 1,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xc0,umask=0x0"}, .rc = SESSION_SKIP, .refusal = {"version 2"}},
};
// clang-format on

static void test_plan_cases(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(plan_cases); i++)
		run_plan_case(&plan_cases[i]);
}

/*
 * pmu_pebs_usable(), the one check, as a table: a cpu_info made by test_cpu_intel()
 * from the row's model and PMU, changed as the row says, and the answer
 * with a word of the reason it must give.
 */
struct usable_case {
	const char *what; /* the case, named in the failure message */
	uint32_t model;
	unsigned int fmt, n_gp, version;
	bool baseline;
	uint32_t stepping, microcode;  /* 0: test_cpu_intel()'s */
	bool amd, no_ds, pebs_unavail; /* not Intel, CPUID.1:EDX[21] clear, MISC_ENABLE[12] set */
	bool hybrid;		       /* with core_type */
	enum cpu_core_type core_type;
	enum cpu_hypervisor hv;
	bool usable;
	const char *why; /* a part of the reason when not usable */
};

/* clang-format off */
static const struct usable_case usable_cases[] = {
	{"Skylake, fmt 3", 0x5e, 3, 4, 4, .usable = true},
	{"not Intel", 0x5e, 3, 4, 4, .amd = true, .why = "not an Intel"},
	{"MISC_ENABLE says PEBS unavailable", 0x5e, 3, 4, 4, .pebs_unavail = true,
	 .why = "MISC_ENABLE[12]"},
	{"no Debug Store", 0x5e, 3, 4, 4, .no_ds = true, .why = "no Debug Store"},
	{"record format 7 unknown", 0x5e, 7, 4, 4, .why = "format 7"},
	/* PMU version 1: no IA32_PERF_GLOBAL_CTRL (SDM Vol. 3B 18.2.2) */
	{"PMU version 1", 0x2a, 1, 4, 1, .why = "version 2"},
	/* A PMU the vCPU does not show: the reason says why that may be. */
	{"QEMU TCG, not Intel", 0x5e, 3, 4, 4, .amd = true, .hv = HV_TCG,
	 .why = "no PEBS (QEMU TCG emulates no PMU)"},
	{"another hypervisor, no Debug Store", 0x5e, 3, 4, 4, .no_ds = true, .hv = HV_OTHER,
	 .why = "DS clear) (hypervisor: is the PMU passed through?)"},
	/* KVM: its guest rule names why (pmu/guest.c, docs/KVM.md) */
	{"KVM, no Debug Store", 0x5e, 3, 4, 4, .no_ds = true, .hv = HV_KVM,
	 .why = "KVM guest: no PEBS: KVM gives it only where the host's PEBS is EPT-friendly"},
	{"KVM, PEBS usable", 0x5e, 3, 4, 4, .hv = HV_KVM, .usable = true},
	/* Sandy Bridge: PEBS broken below the microcode Linux's pebs_ucodes lists (pmu/errata.c). */
	{"06_2A stepping 7, microcode 0x27", 0x2a, 1, 4, 3, .stepping = 7, .microcode = 0x27,
	 .why = "0x28"},
	{"06_2A stepping 7, microcode 0x28", 0x2a, 1, 4, 3, .stepping = 7, .microcode = 0x28,
	 .usable = true},
	{"06_2D stepping 6, microcode 0x617", 0x2d, 1, 4, 3, .stepping = 6, .microcode = 0x617,
	 .why = "below microcode 0x618"},
	{"06_2D stepping 7, microcode 0x70b", 0x2d, 1, 4, 3, .stepping = 7, .microcode = 0x70b,
	 .why = "below microcode 0x70c"},
	{"06_2D stepping 7, microcode 0x70c", 0x2d, 1, 4, 3, .stepping = 7, .microcode = 0x70c,
	 .usable = true},
	/*
	 * Steppings Linux does not list (pebs_ucodes, x86_match_min_microcode_rev
	 * finds no row): broken whatever the microcode (pmu/errata.c).
	 */
	{"06_2A stepping 3, microcode 0x28", 0x2a, 1, 4, 3, .stepping = 3, .microcode = 0x28,
	 .why = "erratum snb-stepping"},
	{"06_2D stepping 5", 0x2d, 1, 4, 3, .stepping = 5, .microcode = 0xffff,
	 .why = "stepping 5"},
	/* Core 2: Merom (06_0F) only is disabled, as Linux's intel_clovertown_quirk does. */
	{"Merom 06_0F", 0x0f, 0, 2, 2, .why = "AJ"},
	{"Merom-L 06_16", 0x16, 0, 2, 2, .usable = true},
	{"Penryn 06_17", 0x17, 0, 2, 2, .usable = true},
	{"Dunnington 06_1D", 0x1d, 0, 2, 2, .usable = true},
	/* A hybrid part: PEBS on the core type the CPU runs on, none without one. */
	{"hybrid, no core type", 0x97, 4, 8, 5, .baseline = true, .hybrid = true,
	 .core_type = CORE_TYPE_NONE, .why = "not in the microarchitecture table"},
	{"hybrid, P-core", 0x97, 4, 8, 5, .baseline = true, .hybrid = true,
	 .core_type = CORE_TYPE_CORE, .usable = true},
};
/* clang-format on */

static void test_usable(void **state)
{
	unsigned int failed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(usable_cases); i++) {
		const struct usable_case *c = &usable_cases[i];
		struct cpu_info ci =
		    test_cpu_intel(c->model, c->fmt, c->baseline, c->n_gp, c->version);
		char why[200] = "";
		bool got;

		if (c->stepping)
			ci.stepping = c->stepping;
		if (c->microcode)
			ci.microcode = c->microcode;
		if (c->amd) {
			ci.vendor = VENDOR_AMD;
			memcpy(ci.vendor_str, "AuthenticAMD", 13);
		}
		ci.ds = !c->no_ds;
		if (c->pebs_unavail)
			ci.misc_enable |= MISC_ENABLE_PEBS_UNAVAIL;
		ci.hybrid = c->hybrid;
		ci.core_type = c->core_type;
		ci.hypervisor = c->hv;
		got = pmu_pebs_usable(&ci, why, sizeof(why));
		if (got != c->usable || (!got && (!c->why || !strstr(why, c->why)))) {
			print_error("%s: usable %s, expected %s; reason \"%s\", expected \"%s\"\n",
				    c->what, got ? "yes" : "no", c->usable ? "yes" : "no",
				    got ? "" : why, c->why ? c->why : "");
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/*
 * CPUID.23H without PEBS_FMT 0xF is no arch-PEBS part (and 06_DE is a
 * model the tables do not know, so PEBS is not usable); with it, the
 * format is PEBS_FMT_ARCH.  These ask plan_pebs_format(), not plan_build().
 */
static void test_arch_pebs_format(void **state)
{
	struct cpu_info ci = test_cpu_intel(0xde, 4, true, 8, 6);
	char why[256];

	ci.arch_pebs = true;
	ci.arch_pebs_gp = 0xff;
	ci.arch_pebs_fixed = 0x7;
	assert_int_equal(plan_pebs_format(&ci), 4);
	assert_false(pmu_pebs_usable(&ci, why, sizeof(why)));
	ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	assert_int_equal(plan_pebs_format(&ci), PEBS_FMT_ARCH);
}

/*
 * Every PEBS-capable event of a model's perfmon file, given as events=, is
 * either placed on a counter its PEBScounters (Counter where the file has
 * none) and CPUID allow, or refused with one line naming why.  The lists
 * are read here with perfmon_event_get(), not through the plan.
 */
static void test_every_pebs_event_placed_or_refused(void **state)
{
	static const struct {
		const char *what;
		uint32_t model, core, native;
		unsigned int fmt, n_gp, version;
		uint32_t evtsel_ext; /* CPUID.23H.0:EBX */
	} cpus[] = {
	    {"skl", 0x5e, 0, 0, 3, 4, 4, 0},
	    {"icx", 0x6a, 0, 0, 4, 8, 5, 0},
	    {"spr", 0x8f, 0, 0, 5, 8, 5, 0},
	    {"adl-p", 0x97, CORE_TYPE_CORE, 1, 4, 8, 5, 0},
	    {"adl-e", 0x97, CORE_TYPE_ATOM, 1, 4, 6, 5, 0},
	    {"glm", 0x5c, 0, 0, 3, 4, 4, 0},
	    /* UMASK2: Linux core.c update_pmu_cap (the Lunar Lake series); its file uses UMaskExt
	     */
	    {"lnl-p", 0xbd, CORE_TYPE_CORE, 3, 6, 10, 6, PMEXT_UMASK2},
	};
	static const char *const rules[] = {
	    "PEBScounters",
	    "Counter (perfmon",
	    "not PEBS-capable",
	    "offcore-response",
	    "does not program",
	    "MSR_PEBS_FRONTEND",
	    "CMask",
	    "fixed counter",
	    "period",
	};
	struct pmu_plan p;
	char why[256];
	unsigned int placed = 0, refused = 0;

	for (size_t k = 0; k < ARRAY_SIZE(cpus); k++) {
		struct cpu_info ci = test_cpu_intel(cpus[k].model, cpus[k].fmt, cpus[k].fmt >= 4,
						    cpus[k].n_gp, cpus[k].version);
		const struct perfmon_table *t;

		ci.hybrid = cpus[k].core != 0;
		ci.core_type = cpus[k].core;
		ci.native_model = cpus[k].native;
		ci.ext.valid = cpus[k].evtsel_ext != 0;
		ci.ext.evtsel_ext = cpus[k].evtsel_ext;
		t = cpu_perfmon_table(&ci);
		assert_non_null(t);
		for (unsigned int e = 0; e < perfmon_n_events(t); e++) {
			struct perfmon_info in;
			struct session_cfg c;
			struct perfmon_counters pc;
			bool ok = false;

			perfmon_event_get(t, perfmon_event_at(t, e), &in);
			if (strlen(in.name) >= 64 || !(in.pebs > 0 || in.collect_pebs > 0))
				continue;
			c = cfg_for(&ci, KIND_OTHER, in.name);
			if (build(&c, &p, why)) {
				for (size_t r = 0; r < ARRAY_SIZE(rules); r++)
					ok |= strstr(why, rules[r]) != NULL;
				if (!ok)
					fail_msg("%s %s: refused without a rule: %s", cpus[k].what,
						 in.name, why);
				if (getenv("PLAN_VERBOSE"))
					print_message("# %s %s: %s\n", cpus[k].what, in.name, why);
				refused++;
				continue;
			}
			pc = (perfmon_table_fields(t) & PERFMON_HAS_PEBS_COUNTERS)
				 ? in.ctr[PERFMON_PEBS_COUNTERS]
				 : in.ctr[PERFMON_COUNTER];
			if (p.sample_ctr >= 32 ? !(pc.fixed & BIT_ULL(p.sample_ctr - 32))
					       : !(pc.gp & BIT_ULL(p.sample_ctr)) ||
						     p.sample_ctr >= (int)cpus[k].n_gp)
				fail_msg("%s %s: sampled on %d, its list is gp 0x%x fixed 0x%x",
					 cpus[k].what, in.name, p.sample_ctr, pc.gp, pc.fixed);
			placed++;
		}
	}
	print_message("# %u placed, %u refused with their rule\n", placed, refused);
	assert_true(placed > 1000);
}

static void test_reset_slots(void **state)
{
	/* Linux asm/intel_ds.h: fixed i at 8+i for fmt <= 4 (offset 0x80+8i), 32+i for fmt >= 5 */
	assert_int_equal(ds_fixed_reset_index(1, 0), 8);
	assert_int_equal(ds_fixed_reset_index(4, 2), 10);
	assert_int_equal(ds_fixed_reset_index(5, 0), 32);
	assert_int_equal(ds_fixed_reset_index(6, 3), 35);
	/*
	 * fixed 0-3 at 309H + n (SDM Vol. 4 Table 2-2), 4 and up at PMU v6's
	 * IA32_PMC_FXn_CTR 1980H + 4n (Linux x86_pmu_fixed_ctr_addr)
	 */
	assert_int_equal(msr_fixed_ctr(3), 0x30c);
	assert_int_equal(msr_fixed_ctr(4), 0x1990);
	assert_int_equal(msr_fixed_ctr(6), 0x1998);
}

static void test_every_uarch_has_a_row(void **state)
{
	int u;

	for (u = UARCH_NONE + 1; u < UARCH_COUNT; u++) {
		const struct uarch_info *ua = uarch_get((enum pebs_uarch)u);

		assert_non_null(ua);
		assert_non_null(ua->source);
		assert_true(ua->pebs_gp != 0);
	}
}

/*
 * Lion Cove's counting constraints where its perfmon file has no row: Linux
 * core.c intel_lnc_event_constraints as 782cffeec9ad left it, one case a
 * row (event | umask << 8, the counters it may use; 0xffffffff: any).
 * Before that commit the Golden Cove ranges applied (0x24 on PMC0-3,
 * 0xce on PMC0, 0x1cd anywhere).
 */
static void test_lnc_count_constraints(void **state)
{
	static const struct {
		uint16_t code;
		uint32_t want;
	} cases[] = {
	    {0x0120, 0xf},   {0x012a, 0xf},	   {0x0148, 0x4},	 {0x0175, 0x4},
	    {0x002e, 0x3ff}, {0x003c, 0x3ff},	   {0x08a3, 0x4},	 {0x04a4, 0x1},
	    {0x01b1, 0x8},   {0x01cd, 0x3fc},	   {0x02cd, 0x3},	 {0x81d0, 0xf},
	    {0x00e0, 0xf},   {0x0124, 0xffffffff}, {0x01ce, 0xffffffff}, {0x01c0, 0xffffffff},
	};
	const struct uarch_info *ua = uarch_get(UARCH_LNC);

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint32_t got = uarch_count_counters(ua, cases[i].code);

		if (got != cases[i].want)
			fail_msg("lnc 0x%04x: counters 0x%x, want 0x%x", cases[i].code, got,
				 cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_cases),
	    cmocka_unit_test(test_usable),
	    cmocka_unit_test(test_arch_pebs_format),
	    cmocka_unit_test(test_reset_slots),
	    cmocka_unit_test(test_every_uarch_has_a_row),
	    cmocka_unit_test(test_lnc_count_constraints),
	    cmocka_unit_test(test_every_pebs_event_placed_or_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
