// SPDX-License-Identifier: MIT
/*
 * test_pmu_plan.c - the MSR values pmu/plan.c computes, against values
 * worked out by hand from the SDM bit layouts (Vol. 3B 18.9.4, 18.11,
 * 18.7.1, 18.6.3; Linux msr-index.h and perf_event.h), and its refusals.  No MSR is touched.
 *
 * PERFEVTSEL by hand: USR = bit 16 (0x10000), OS = bit 17 (0x20000),
 * INT = bit 20, EN = bit 22 (0x400000), ADAPTIVE = bit 34 (0x400000000).
 * So a PEBS EVTSEL with both rings = event | umask<<8 | 0x430000.
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

static struct session_cfg cfg_for(const struct cpu_info *ci, enum pebs_kind kind, const char *ev)
{
	struct session_cfg c;

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.sample_event = ev;
	c.ldlat = 3;
	return c;
}

static int build(const struct session_cfg *c, struct pmu_plan *p, char *why)
{
	return plan_build(c, c->ci, p, why, 256); /* job/job.c's size */
}

struct want {
	bool set;
	uint64_t v;
};
#define W(x)                                                                                       \
	{                                                                                          \
		true, (uint64_t)(x)                                                                \
	}

/*
 * One plan case.  The CPU: test_cpu_intel() of model, fmt, baseline, n_gp
 * and version, then the fields the row sets (0 keeps test_cpu_intel()'s;
 * arch_gp not 0 makes it an arch-PEBS part, CPUID.23H with PEBS_FMT 0xF).
 * The session: cfg_for() of kind and event, count events in count[], then
 * the options the row sets.  The answer: rc, up to three words the refusal
 * must hold, and the wanted fields (W()); ctr_u[u] and ctr_u_in[u] are the
 * counter of count[u] (exact, or a mask of the allowed GP counters).
 * PERFEVTSEL by hand as above; PEBS_ENABLE: bit n PMC n, 32+n LL_EN_PMCn
 * (SDM 18.9.4.2), 63 PS_EN (18.9.4.3), 32+n fixed counter n (Ice Lake+).
 */
struct plan_case {
	const char *what;
	uint32_t family; /* 0: 6 */
	uint32_t model;
	unsigned int fmt, n_gp, version;
	bool baseline;
	unsigned int n_fixed, stepping; /* 0: test_cpu_intel()'s */
	uint32_t microcode;		/* 0: test_cpu_intel()'s */
	bool hybrid;			/* CPUID.07H:EDX[15], with core_type and native */
	enum cpu_core_type core_type;
	uint32_t native;
	uint32_t gp_mask, fixed_mask;		    /* a VMM's counter bitmaps; 0: all */
	uint32_t arch_gp, arch_pdist_gp, arch_caps; /* CPUID.23H */
	bool ext_valid;				    /* CPUID.23H.0 present */
	uint32_t ext;				    /* CPUID.23H.0:EBX */
	enum pebs_kind kind;
	const char *event;
	unsigned int ldlat; /* 0: cfg_for()'s 3 */
	bool ldlat_zero;    /* ldlat=0 given */
	uint64_t period, data_cfg;
	bool force_records, count_only;
	const char *count[4]; /* the counted events */
	int rc;
	const char *refusal[3]; /* words the refusal must hold */
	struct want ctr, kind_out, code, pebs_enable, evtsel, evtsel0, copy_evtsel, copy_idx,
	    count0_ctr, count0_evtsel, n_count, aux_ctr, use_ldlat, ldlat_out, period_out, rec_size,
	    global_ctrl, global_fixed, fixed_ctrl, fixed_used, data_cfg_out, adaptive, precise,
	    pdist, frontend, rsp0, cmask, ctr_u[4];
	uint64_t ctr_u_in[4];
};

/* The CPUs most rows use. */
#define NHM .model = 0x1e, .fmt = 1, .n_gp = 4, .version = 3
#define WSM .model = 0x2c, .fmt = 1, .n_gp = 4, .version = 3
#define SNB .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3
#define HSW .model = 0x3c, .fmt = 2, .n_gp = 4, .version = 4
#define SKL .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4
#define GLM .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4
#define ICX .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8, .version = 5
#define SPR .model = 0x8f, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5
#define ADL_P                                                                                      \
	.model = 0x97, .fmt = 4, .baseline = true, .n_gp = 8, .version = 5, .hybrid = true,        \
	.core_type = CORE_TYPE_CORE, .native = 1
#define LNL_P                                                                                      \
	.model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 10, .version = 6, .hybrid = true,       \
	.core_type = CORE_TYPE_CORE, .native = 3
/* an arch-PEBS part (PEBS_FMT 0xF) of a model the tables do not know */
#define ARCH_DE .model = 0xde, .fmt = 4, .baseline = true, .n_gp = 8, .version = 6, .arch_gp = 0xff

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
    /*
     * MSR_OFFCORE_RSPx writable bits differ between the client and server
     * Sandy/Ivy Bridge: core.c intel_pmu_init takes intel_snbep_extra_regs
     * (0x3fffff8fff) for SANDYBRIDGE_X / IVYBRIDGE_X, intel_snb_extra_regs
     * (0x3f807f8fff) for the others: bits 23-30 pass on the servers only.
     */
    {.what = "snb-ep OFFCORE REMOTE_DRAM", .model = 0x2d, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM"}},
    {.what = "ivb-ep OFFCORE REMOTE_DRAM", .model = 0x3e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM"}},
    {.what = "snb-ep rsp bit 23", .model = 0x2d, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rsp0 = W(0x800001)},
    {.what = "ivb-ep rsp bit 23", .model = 0x3e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rsp0 = W(0x800001)},
    {.what = "snb rsp bit 23", SNB, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rc = SESSION_REFUSED},
    {.what = "ivb rsp bit 23", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rc = SESSION_REFUSED},
    {.what = "ivb rsp bit 16", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10001"}, .rsp0 = W(0x10001)},
    /* NHM: perfmon's MSRValue, request DMND_DATA_RD bit 0 and every location [15:8] */
    {.what = "nhm OFFCORE ANY_LOCATION", NHM, .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE_0.DEMAND_DATA.ANY_LOCATION"}, .rsp0 = W(0xff03)},
    /* NHM: bit 16 is outside the valid 0xffff (core.c intel_nehalem_extra_regs) */
    {.what = "nhm rsp bit 16", NHM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP0"}},
    /* SKL: request [15:0], ANY_RESPONSE bit 16: perfmon's MSRValue 0x10001 */
    {.what = "skl OFFCORE ANY_RESPONSE", SKL, .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE"}, .rsp0 = W(0x10001)},
    /* Goldmont: SNP_NONE bit 31 and request bit 6 not writable (0x760005ffbf); RSP1 no bit 38 */
    {.what = "glm rsp bit 31", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x80010001"}, .rc = SESSION_REFUSED},
    {.what = "glm rsp bit 6", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10040"}, .rc = SESSION_REFUSED},
    {.what = "glm rsp0 bit 38", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x4000000001"}, .rsp0 = W(0x4000000001)},
    {.what = "glm rsp1 bit 38", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x2,offcore_rsp=0x4000000001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP1"}},
    /*
     * Crestmont E-core (MTL 06_AA, core type 0x20, native model 2): bit 63
     * is in MSR_OFFCORE_RSP0 only (core.c intel_cmt_extra_regs: RSP_0
     * 0x800ff3ffffffffff, RSP_1 0xff3ffffffffff).  Darkmont (PTL 06_CC,
     * native model 4) has the same masks (intel_pmu_init_skt); perfmon
     * PTL/pantherlake_darkmont_core.json OCR.DEMAND_DATA_RD.L3_MISS is 0x13FBFC00001.
     */
    {.what = "cmt rsp1 bit 63", .model = 0xaa, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5,
     .hybrid = true, .core_type = CORE_TYPE_ATOM, .native = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP1"}},
    {.what = "cmt rsp0 bit 63", .model = 0xaa, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5,
     .hybrid = true, .core_type = CORE_TYPE_ATOM, .native = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xb7,umask=0x1,offcore_rsp=0x8000000000010001"},
     .rsp0 = W(0x8000000000010001)},
    {.what = "dkm OCR L3_MISS", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .kind = KIND_OTHER, .count_only = true,
     .count = {"OCR.DEMAND_DATA_RD.L3_MISS"}, .rsp0 = W(0x13fbfc00001)},
    {.what = "dkm rsp1 bit 63", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001"}, .rc = SESSION_REFUSED},
    /* MSR_PEBS_FRONTEND within 0x7fff17 on SKL (bit 3 reserved); FRONTEND_RETIRED needs a value */
    {.what = "skl frontend bit 23", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x800011",
     .rc = SESSION_REFUSED, .refusal = {"0x7fff17"}},
    {.what = "skl frontend bit 3", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x8", .rc = SESSION_REFUSED},
    {.what = "skl frontend missing", SKL, .kind = KIND_OTHER, .event = "event=0xc6,umask=0x1",
     .rc = SESSION_REFUSED, .refusal = {"MSR_PEBS_FRONTEND"}},
    {.what = "skl frontend all bits", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x7fff17", .frontend = W(0x7fff17)},
    /*
     * DATA_CFG counter-snapshot bits (4, 5, 47:32, 55:48) exist from fmt 6
     * only; LBR, which needs more than DATA_CFG, is refused.  Load latency
     * adds MEMINFO (bit 0) itself.
     */
    {.what = "icx data_cfg bit 4", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(4),
     .rc = SESSION_REFUSED},
    {.what = "icx data_cfg bit 32", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(32),
     .rc = SESSION_REFUSED},
    {.what = "icx data_cfg LBR", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(3) | 3ULL << 24,
     .rc = SESSION_REFUSED, .refusal = {"does not set up"}},
    {.what = "icx data_cfg GP XMM", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(1) | BIT_ULL(2),
     .data_cfg_out = W(0x7)},
    {.what = "spr data_cfg bit 5", SPR, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(5),
     .rc = SESSION_REFUSED},
    {.what = "lnc data_cfg snapshots", .model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 8,
     .version = 6, .hybrid = true, .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .data_cfg = BIT_ULL(4) | BIT_ULL(32), .data_cfg_out = W(0x1 | BIT_ULL(4) | BIT_ULL(32))},
    /* arch-PEBS: MEMINFO and GP become CFG_C AUX/GPR; LBR is refused, not dropped */
    {.what = "arch data_cfg GP", .model = 0xdd, .n_gp = 8, .version = 6, .arch_gp = 0xff,
     .arch_caps = 0xffffffff, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(1)},
    {.what = "arch data_cfg LBR", .model = 0xdd, .n_gp = 8, .version = 6, .arch_gp = 0xff,
     .arch_caps = 0xffffffff, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(3),
     .rc = SESSION_REFUSED, .refusal = {"does not set up"}},
    /* a raw load-latency event gets the threshold, PEBS_EN_PMC0 | LL_EN_PMC0, no counting copy */
    {.what = "skl raw ldlat", SKL, .kind = KIND_OTHER, .event = "event=0xcd,umask=0x1", .ldlat = 50,
     .kind_out = W(KIND_LDLAT), .use_ldlat = W(true), .ldlat_out = W(50),
     .pebs_enable = W(0x100000001), .copy_idx = W(-1)},
    /* ldlat=0: SDM 18.9.4.2's minimum 3 */
    {.what = "skl raw ldlat=0", SKL, .kind = KIND_OTHER, .event = "event=0xcd,umask=0x1",
     .ldlat_zero = true, .ldlat_out = W(3)},
    /* SNB: event 0xcd counts on PMC3 only (core.c intel_snb_event_constraints) */
    {.what = "snb 0xcd counted", SNB, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xcd,umask=0x1"}, .count0_ctr = W(3)},
    /* a v5 fixed-counter bitmap with a hole: fixed 1 absent, never programmed */
    {.what = "icx fixed bitmap 0x5", ICX, .n_fixed = 3, .fixed_mask = 0x5, .kind = KIND_LDLAT,
     .fixed_used = W(0x5), .global_fixed = W(0x5), .fixed_ctrl = W(0x303)},
    /* asking for fixed counter 1 (CPU_CLK_UNHALTED.CORE pseudo-encoding 0x0200) there */
    {.what = "icx fixed 1 absent", ICX, .n_fixed = 3, .fixed_mask = 0x5, .kind = KIND_LDLAT,
     .count = {"event=0x00,umask=0x02"}, .rc = SESSION_REFUSED, .refusal = {"0x5"}},
    /* arch-PEBS latency events by CPUID.1AH core type; none without one */
    {.what = "arch E-core ldlat", ARCH_DE, .core_type = CORE_TYPE_ATOM, .kind = KIND_LDLAT,
     .code = W(0x05d0)},
    {.what = "arch P-core ldlat", ARCH_DE, .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .code = W(0x01cd)},
    {.what = "arch P-core stlat", ARCH_DE, .core_type = CORE_TYPE_CORE, .kind = KIND_STLAT,
     .code = W(0x02cd)},
    {.what = "arch no core type ldlat", ARCH_DE, .kind = KIND_LDLAT, .rc = SESSION_REFUSED},
    {.what = "arch no core type default", ARCH_DE, .kind = KIND_OTHER, .code = W(0x00c0)},
    /* 06_DD (Clearwater Forest, Linux INTEL_ATOM_DARKMONT_X) is an E-core by its model */
    {.what = "arch 06_DD ldlat", .model = 0xdd, .fmt = 4, .baseline = true, .n_gp = 8, .version = 6,
     .arch_gp = 0xff, .kind = KIND_LDLAT, .code = W(0x05d0)},
    /* counting constraints, the constrained event placed first: WSM 0x60 on PMC0 only */
    {.what = "wsm 0x60 on PMC0", WSM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0x3c,umask=0x0", "event=0x60,umask=0x1"}, .ctr_u = {W(1), W(0)}},
    {.what = "wsm two PMC0-only", WSM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb3,umask=0x1", "event=0x60,umask=0x1"}, .rc = SESSION_REFUSED},
    /* Ice Lake: MEM_INST_RETIRED (0xd0) counts on PMC0-3 only; ldlat samples on PMC0 */
    {.what = "icx 0xd0 on PMC0-3", ICX, .kind = KIND_LDLAT,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xd0,umask=0x81"}, .ctr = W(0), .ctr_u = {[3] = W(1)}},
    /*
     * Arch-PEBS P-cores: load latency on PMC2 and up, never PMC0.
     * PTL/events/pantherlake_cougarcove_core.json (06_CC, 06_D5, 06_E5):
     * MEM_TRANS_RETIRED.LOAD_LATENCY_* Counter and PEBScounters 2-9;
     * NVL/events/novalake_coyotecove_core.json (family 0x12): 2-7; Linux ds.c
     * intel_lnc_pebs_event_constraints 0x01cd on 0x3fc.  CPUID enumerating
     * PEBS on PMC0-1 only: refused, naming the rule.
     */
    {.what = "ptl 06_CC ldlat", .model = 0xcc, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_D5 ldlat", .model = 0xd5, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_E5 ldlat", .model = 0xe5, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "nvl 12_01 ldlat", .family = 0x12, .model = 0x01, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 5, .arch_gp = 0xff,
     .kind = KIND_LDLAT, .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_CC ldlat, PEBS on PMC0-1", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3, .kind = KIND_LDLAT,
     .rc = SESSION_REFUSED, .refusal = {"PEBScounters (perfmon ", ") PMC2-", "CPUID.23H"}},
    {.what = "nvl 12_01 ldlat, PEBS on PMC0-1", .family = 0x12, .model = 0x01, .n_gp = 10,
     .version = 6, .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 5, .arch_gp = 0x3,
     .kind = KIND_LDLAT,
     .rc = SESSION_REFUSED, .refusal = {"PEBScounters (perfmon ", ") PMC2-", "CPUID.23H"}},
    /*
     * INST_RETIRED.PREC_DIST (0x01c0) counts on PMC1 only on Haswell and
     * Skylake (HSW/events/haswell_core.json, SKL/events/skylake_core.json:
     * Counter "1"; core.c intel_hsw/skl_event_constraints 0x01c0 on 0x2):
     * no counting copy of it on another counter; counted alone, PMC1.
     */
    {.what = "hsw PREC_DIST, no copy", HSW, .kind = KIND_OTHER,
     .code = W(0x01c0), .ctr = W(1), .copy_idx = W(-1)},
    {.what = "hsw PREC_DIST counted", HSW, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xc0,umask=0x1"}, .count0_ctr = W(1)},
    {.what = "skl PREC_DIST, no copy", SKL, .kind = KIND_OTHER,
     .code = W(0x01c0), .ctr = W(1), .copy_idx = W(-1)},
    {.what = "skl PREC_DIST counted", SKL, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xc0,umask=0x1"}, .count0_ctr = W(1)},
    /*
     * Golden Cove / Lion Cove counting constraints.  ADL/events/
     * alderlake_goldencove_core.json: TOPDOWN.BAD_SPEC_SLOTS (0x04a4) Counter
     * "0", INST_DECODED.DECODERS (0x0175) "0,1,2,3"; LNL/events/
     * lunarlake_lioncove_core.json: INST_DECODED.DECODERS and L1D_PENDING.LOAD
     * (0x0148) "2".  Linux core.c intel_glc_event_constraints (0x04a4, 0x08a4,
     * 0xce on PMC0) and intel_lnc_event_constraints (0x0148, 0x0175 on PMC2)
     * agree.  0xce has no row in the files: the Linux table applies.
     * INST_RETIRED.ANY_P samples on PMC1 (PEBScounters 1-7) on ADL, PMC0 on LNL.
     */
    {.what = "adl 0x04a4 on PMC0", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xa4,umask=0x4"}, .ctr = W(1), .ctr_u = {[3] = W(0)}},
    {.what = "adl DECODERS on PMC0-3", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "INST_DECODED.DECODERS"}, .ctr_u_in = {[3] = 0xf}},
    {.what = "adl 0xce on PMC0", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xce,umask=0x1"}, .ctr_u = {[3] = W(0)}},
    {.what = "adl two PMC0-only", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "TOPDOWN.BR_MISPREDICT_SLOTS",
               "event=0xa4,umask=0x4"},
     .rc = SESSION_REFUSED,
     .refusal = {"Counter (perfmon ADL/alderlake_goldencove_core.json", ") PMC0;"}},
    {.what = "lnl 0x0175 on PMC2", LNL_P, .kind = KIND_OTHER, .count = {"event=0x75,umask=0x1"},
     .ctr = W(0), .ctr_u = {W(2)}},
    {.what = "lnl 0x0148 on PMC2", LNL_P, .kind = KIND_OTHER, .count = {"event=0x48,umask=0x1"},
     .ctr_u = {W(2)}},
    /*
     * UMASK2 (PERFEVTSEL[47:40]) and EQ (bit 36) only where CPUID.23H.0:EBX
     * enumerates them (bit 0, bit 1; core.c update_pmu_cap, perf_event.h
     * ARCH_PERFMON_EVENTSEL_UMASK2 / _EQ): elsewhere the write would #GP.
     * ITLB_MISSES.STLB_HIT of lunarlake_lioncove_core.json is EventCode
     * 0x11, UMask 0x20, UMaskExt 0x01.
     */
    {.what = "lnl UMASK2, no leaf 23H", LNL_P, .kind = KIND_OTHER, .count_only = true,
     .count = {"ITLB_MISSES.STLB_HIT"}, .rc = SESSION_REFUSED,
     .refusal = {"UMASK2 (PERFEVTSEL[47:40], perfmon UMaskExt)", "CPUID.23H.0:EBX[0] clear"}},
    {.what = "lnl UMASK2, EQ only", LNL_P, .ext_valid = true, .ext = PMEXT_EQ,
     .kind = KIND_OTHER, .count_only = true, .count = {"ITLB_MISSES.STLB_HIT"},
     .rc = SESSION_REFUSED, .refusal = {"CPUID.23H.0:EBX[0] clear"}},
    {.what = "lnl UMASK2 by name", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"ITLB_MISSES.STLB_HIT"},
     .count0_evtsel = W(0x0000010000432011)},
    {.what = "lnl UMASK2 raw", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x11,umask=0x20,umask2=0x1"},
     .count0_evtsel = W(0x0000010000432011)},
    {.what = "lnl EQ not enumerated", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x3c,umask=0x0,cmask=2,eq"},
     .rc = SESSION_REFUSED,
     .refusal = {"EQ (PERFEVTSEL[36], perfmon Equal)", "CPUID.23H.0:EBX[1] clear"}},
    {.what = "lnl EQ", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2 | PMEXT_EQ,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x3c,umask=0x0,cmask=2,eq"},
     .count0_evtsel = W(BIT_ULL(36) | 0x0243003c)},
    /* a sampled event is checked too, before any counter is chosen */
    {.what = "lnl sampled UMASK2", LNL_P, .ext_valid = true, .kind = KIND_OTHER,
     .event = "event=0xc0,umask=0x0,umask2=0x2", .rc = SESSION_REFUSED,
     .refusal = {"CPUID.23H.0:EBX[0] clear or leaf 23H absent"}},
    /*
     * Fixed counters past 3: pantherlake_darkmont_core.json puts
     * TOPDOWN_BAD_SPECULATION.ALL on fixed counter 4, TOPDOWN_RETIRING.ALL on
     * 6 (CPUID.0AH ECX 0x77).  PMU v6 programs them (FIXED_CTR_CTRL 19:16 and
     * 27:24, GLOBAL_CTRL bits 36 and 38; every enumerated one counts, none at
     * the hole 3); below v6 they have no address (pmu/msr.h): refused.
     */
    {.what = "dkm fixed 4 and 6", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .n_fixed = 7, .fixed_mask = 0x77,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_RETIRING.ALL"},
     .ctr_u = {W(32 + 4), W(32 + 6)}, .fixed_ctrl = W(0x03330333), .global_fixed = W(0x77)},
    {.what = "dkm fixed 4 and 6, PMU v5", .model = 0xcc, .n_gp = 8, .version = 5, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .n_fixed = 7, .fixed_mask = 0x77,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_RETIRING.ALL"}, .rc = SESSION_REFUSED,
     .refusal = {"needs fixed counter 4", "4 and up only with PMU version 6"}},
    /*
     * TakenAlone (perfmon README: "can only be sampled or counted by itself"):
     * SPR/events/sapphirerapids_core.json has it on MEM_TRANS_RETIRED.LOAD_LATENCY_*
     * and FRONTEND_RETIRED.*, not on MEM_INST_RETIRED.ALL_LOADS or on Linux's
     * mem-loads-aux 0x8203, which the plan still counts beside load latency.
     */
    {.what = "spr two TakenAlone", SPR, .kind = KIND_LDLAT,
     .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", .count = {"FRONTEND_RETIRED.DSB_MISS"},
     .rc = SESSION_REFUSED,
     .refusal = {"'MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4' and 'FRONTEND_RETIRED.DSB_MISS' are "
                 "both TakenAlone in perfmon SPR/sapphirerapids_core.json"}},
    {.what = "spr two TakenAlone counted", SPR, .kind = KIND_OTHER, .count_only = true,
     .count = {"FRONTEND_RETIRED.DSB_MISS", "FRONTEND_RETIRED.ITLB_MISS"},
     .rc = SESSION_REFUSED, .refusal = {"TakenAlone"}},
    {.what = "spr TakenAlone beside ALL_LOADS", SPR, .kind = KIND_LDLAT,
     .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", .count = {"MEM_INST_RETIRED.ALL_LOADS"},
     .n_count = W(2) /* ALL_LOADS and 0x8203 */},
    /*
     * PDIST (perfmon PDISTCounter): SPR MEM_INST_RETIRED.ALL_LOADS "0",
     * INST_RETIRED.PREC_DIST "32" (fixed counter 0), load latency "NA".  A
     * VMM's bitmap without PMC0 moves it to PMC1, without PDIST.  With
     * arch-PEBS the counter must also be in CPUID.23H.5 EBX (GP) / EDX (fixed).
     */
    {.what = "spr ALL_LOADS PDIST", SPR, .n_fixed = 4, .kind = KIND_OTHER,
     .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(0), .pdist = W(true)},
    {.what = "spr ALL_LOADS without PMC0", SPR, .n_fixed = 4, .gp_mask = 0xfe, .kind = KIND_OTHER,
     .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(1), .pdist = W(false)},
    {.what = "spr PREC_DIST PDIST", SPR, .n_fixed = 4, .kind = KIND_OTHER,
     .event = "INST_RETIRED.PREC_DIST", .ctr = W(32), .pdist = W(true)},
    {.what = "spr ldlat no PDIST", SPR, .n_fixed = 4, .kind = KIND_LDLAT, .pdist = W(false)},
    {.what = "ptl ALL_LOADS, no 23H.5 PDIST", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff,
     .kind = KIND_OTHER, .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(0), .pdist = W(false)},
    {.what = "ptl ALL_LOADS, 23H.5 PDIST", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff,
     .arch_pdist_gp = 0x3, .kind = KIND_OTHER, .event = "MEM_INST_RETIRED.ALL_LOADS",
     .pdist = W(true)},
    /*
     * Core 2 has no perfmon file: counted events placed by core.c
     * intel_core2_event_constraints (MEM_LOAD_RETIRED 0xcb on PMC0, DIV 0x13
     * on PMC1); the PEBS event takes PMC0 (ds.c intel_core2_pebs_event_constraints).
     */
    {.what = "core2 counted", .model = 0x17, .n_gp = 2, .version = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xcb,umask=0x1", "event=0x13,umask=0x0"},
     .ctr_u = {W(0), W(1)}},
    {.what = "core2 0xcb beside PEBS", .model = 0x17, .n_gp = 2, .version = 2,
     .kind = KIND_OTHER, .count = {"event=0xcb,umask=0x1"}, .rc = SESSION_REFUSED,
     .refusal = {"no perfmon row; Linux core.c event constraints: PMC0"}},
};
// clang-format on

/* The counter of the count[] entry with user index u; -1 if none. */
static int ctr_of(const struct pmu_plan *p, int u)
{
	for (unsigned int i = 0; i < p->n_count; i++)
		if (p->count[i].user_idx == u)
			return p->count[i].ctr;
	return -1;
}

/* The counter of Linux's mem-loads-aux event 0x8203 (ds.c); -1 if not counted. */
static int aux_ctr(const struct pmu_plan *p)
{
	for (unsigned int i = 0; i < p->n_count; i++)
		if (pmu_event_code(&p->count[i].ev) == 0x8203)
			return p->count[i].ctr;
	return -1;
}

/* The CPU of a row: test_cpu_intel() and the fields the row sets. */
static struct cpu_info case_cpu(const struct plan_case *t)
{
	struct cpu_info ci = test_cpu_intel(t->model, t->fmt, t->baseline, t->n_gp, t->version);

	if (t->family)
		ci.family = t->family;
	if (t->n_fixed)
		ci.n_fixed = t->n_fixed;
	if (t->stepping)
		ci.stepping = t->stepping;
	if (t->microcode)
		ci.microcode = t->microcode;
	ci.hybrid = t->hybrid;
	ci.core_type = t->core_type;
	ci.native_model = t->native;
	ci.gp_mask = t->gp_mask;
	ci.fixed_mask = t->fixed_mask;
	if (t->arch_gp) {
		ci.arch_pebs = true;
		ci.arch_pebs_gp = t->arch_gp;
		ci.arch_pebs_fixed = 0x7;
		ci.arch_pebs_pdist_gp = t->arch_pdist_gp;
		ci.arch_pebs_caps = t->arch_caps;
		ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	}
	ci.ext.valid = t->ext_valid;
	ci.ext.evtsel_ext = t->ext;
	return ci;
}

#define CHECK(field, got)                                                                          \
	do {                                                                                       \
		if (t->field.set && (uint64_t)(got) != t->field.v)                                 \
			print_error("case '%s': %s\n", t->what, #field);                           \
		if (t->field.set)                                                                  \
			assert_int_equal((uint64_t)(got), t->field.v);                             \
	} while (0)

static void run_plan_case(const struct plan_case *t)
{
	struct cpu_info ci = case_cpu(t);
	struct session_cfg c = cfg_for(&ci, t->kind, t->event);
	struct pmu_plan p;
	char why[256] = "";
	int rc;

	if (t->ldlat || t->ldlat_zero)
		c.ldlat = t->ldlat;
	c.period = t->period;
	c.data_cfg = t->data_cfg;
	c.force_records = t->force_records;
	c.count_only = t->count_only;
	for (unsigned int i = 0; i < ARRAY_SIZE(t->count) && t->count[i]; i++)
		c.count_events[c.n_count_events++] = t->count[i];
	rc = build(&c, &p, why);
	if (rc != t->rc)
		print_error("case '%s': plan_build() %d (%s)\n", t->what, rc, why);
	assert_int_equal(rc, t->rc);
	for (unsigned int i = 0; i < ARRAY_SIZE(t->refusal) && t->refusal[i]; i++)
		if (!strstr(why, t->refusal[i]))
			fail_msg("case '%s': refusal '%s' lacks '%s'", t->what, why, t->refusal[i]);
	if (rc)
		return;
	if (t->cmask.set)
		assert_in_range(p.sample_ctr, 0, 31);
	CHECK(ctr, p.sample_ctr);
	CHECK(kind_out, p.kind);
	CHECK(code, pmu_event_code(&p.sample));
	CHECK(pebs_enable, p.pebs_enable);
	CHECK(evtsel, p.evtsel[p.sample_ctr]);
	CHECK(evtsel0, p.evtsel[0]);
	CHECK(copy_idx, p.copy_idx);
	CHECK(count0_ctr, p.count[0].ctr);
	CHECK(copy_evtsel, p.evtsel[p.count[0].ctr]);
	CHECK(n_count, p.n_count);
	CHECK(aux_ctr, aux_ctr(&p));
	CHECK(use_ldlat, p.use_ldlat);
	CHECK(ldlat_out, p.ldlat);
	CHECK(period_out, p.period);
	CHECK(rec_size, p.rec_size);
	CHECK(global_ctrl, p.global_ctrl);
	CHECK(global_fixed, p.global_ctrl >> 32);
	CHECK(fixed_ctrl, p.fixed_ctrl);
	CHECK(fixed_used, p.fixed_used);
	CHECK(data_cfg_out, p.data_cfg);
	CHECK(adaptive, p.adaptive);
	CHECK(precise, p.sample_precise);
	CHECK(pdist, p.sample_pdist);
	CHECK(frontend, p.use_frontend ? p.frontend : 0);
	CHECK(rsp0, p.use_rsp[0] ? p.rsp[0] : 0);
	CHECK(cmask, (p.evtsel[p.sample_ctr] >> 24) & 0xff);
	for (int u = 0; u < (int)ARRAY_SIZE(t->ctr_u); u++) {
		int ctr = ctr_of(&p, u);

		CHECK(ctr_u[u], ctr);
		if (t->count0_evtsel.set && u == 0)
			assert_in_range(ctr, 0, 63);
		if (t->ctr_u_in[u] && (ctr < 0 || ctr >= 32 || !(t->ctr_u_in[u] & BIT_ULL(ctr))))
			fail_msg("case '%s': count[%d] on %d, not in 0x%llx", t->what, u, ctr,
				 (unsigned long long)t->ctr_u_in[u]);
	}
	CHECK(count0_evtsel, p.evtsel[ctr_of(&p, 0)]);
}

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
