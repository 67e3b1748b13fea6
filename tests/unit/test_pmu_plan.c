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

/*
 * The plan cases: a CPU as test_cpu_intel() makes it (a few fields changed
 * where the row says), a kind, an event and options, and what plan_build()
 * must give.  Only the wanted fields a row sets (W()) are compared.
 * PERFEVTSEL by hand as above; PEBS_ENABLE: bit n PMC n, 32+n LL_EN_PMCn
 * (SDM 18.9.4.2), 63 PS_EN (18.9.4.3), 32+n fixed counter n (Ice Lake+).
 */
struct want {
	bool set;
	uint64_t v;
};
#define W(x)                                                                                       \
	{                                                                                          \
		true, (uint64_t)(x)                                                                \
	}

struct plan_case {
	const char *what;
	uint32_t model;
	unsigned int fmt, n_gp, version;
	bool baseline;
	unsigned int n_fixed, stepping; /* 0: test_cpu_intel()'s */
	enum cpu_core_type core_type;	/* not CORE_TYPE_NONE: a hybrid part's core */
	uint32_t microcode;		/* 0: test_cpu_intel()'s */
	enum pebs_kind kind;
	const char *event;
	unsigned int ldlat; /* 0: cfg_for()'s 3 */
	uint64_t period;
	bool force_records;
	const char *count_event; /* counted n_count times */
	unsigned int n_count;
	int rc;
	const char *refusal; /* a word the refusal must hold */
	struct want ctr, kind_out, pebs_enable, evtsel, copy_evtsel, copy_idx, count0_ctr,
	    use_ldlat, ldlat_out, period_out, rec_size, global_ctrl, fixed_ctrl, data_cfg, adaptive,
	    precise, frontend, cmask;
};

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
    {.what = "nhm ldlat on PMC3", .model = 0x1e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_LDLAT, .event = "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD_32:ldlat=30",
     .ctr = W(3), .kind_out = W(KIND_LDLAT), .pebs_enable = W(0x0000000800000008),
     .evtsel = W(0x43100b), .use_ldlat = W(true), .ldlat_out = W(30), .period_out = W(32),
     .rec_size = W(176), .global_ctrl = W(0x8 | 0x7ull << 32), .fixed_ctrl = W(0x333)},
    /* SDM 18.9.4.3: precise store on PMC3 only, PS_EN bit 63; MEM_TRANS_RETIRED.PRECISE_STORE 0x02cd */
    {.what = "snb precise store", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3,
     .stepping = 7, .microcode = 0x28, .kind = KIND_STORE,
     .ctr = W(3), .pebs_enable = W(0x8000000000000008), .evtsel = W(0x4302cd),
     .use_ldlat = W(false)},
    /* SNB load latency goes to PMC3 (Linux constraint), LL_EN_PMC3 = bit 35; the session's threshold */
    {.what = "snb ldlat on PMC3", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_LDLAT, .event = "event=0xcd,umask=0x1", .ldlat = 50,
     .ctr = W(3), .pebs_enable = W(0x0000000800000008), .evtsel = W(0x4301cd), .ldlat_out = W(50)},
    {.what = "skl ldlat", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=3",
     .pebs_enable = W(0x0000000100000001), .evtsel = W(0x4301cd), .rec_size = W(200)},
    /* MEM_INST_RETIRED.ALL_STORES 0x82d0 on PMC0, no LL_EN or PS_EN; its counting copy on PMC1 */
    {.what = "skl datala-store", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_DATALA_STORE,
     .kind_out = W(KIND_DATALA_STORE), .pebs_enable = W(0x1), .evtsel = W(0x4382d0),
     .copy_idx = W(0), .count0_ctr = W(1), .copy_evtsel = W(0x4382d0)},
    /* Ice Lake: no LL_EN; adaptive bit 34 on the EVTSEL; DATA_CFG MEMINFO: basic 32 + meminfo 32 */
    {.what = "icl adaptive ldlat", .model = 0x7e, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .n_fixed = 4, .kind = KIND_LDLAT,
     .adaptive = W(true), .ctr = W(0), .pebs_enable = W(0x1), .evtsel = W(0x4004301cd),
     .data_cfg = W(0x1), .rec_size = W(64)},
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
     .rc = SESSION_REFUSED, .refusal = "CPUID.0AH fixed counters 0x7"},
    /* the same on Skylake (no baseline) is refused: INST_RETIRED.ANY has PEBS 0 there */
    {.what = "skl fixed-counter PEBS", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "event=0x00,umask=0x01",
     .rc = SESSION_REFUSED, .refusal = "not PEBS-capable"},
    /* Goldmont (SDM 18.7.1): PMC0 only; the non-precise CORE_P event may PEBS */
    {.what = "glm default", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4, .kind = KIND_OTHER,
     .ctr = W(0), .precise = W(false), .evtsel = W(0x43003c), .pebs_enable = W(0x1)},
    /* a precise event by its perfmon name is still PMC0 */
    {.what = "glm precise by name", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES",
     .ctr = W(0), .precise = W(true), .evtsel = W(0x4300c4)},
    /* forced records need IA32_PERF_GLOBAL_STATUS_SET: PMU version 4 */
    {.what = "glm forced records", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .force_records = true},
    {.what = "glm forced records, PMU v3", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .force_records = true, .rc = SESSION_REFUSED, .refusal = "STATUS_SET"},
    /*
     * Tremont (Jasper Lake 06_9C, fmt4 with baseline): its loads are sampled
     * by name, and as the perfmon row says the record carries the data linear
     * address (EHL/events/elkhartlake_core.json Data_LA 1), the plan asks for
     * the memory-info group (PEBS_DATA_CFG bit 0, Linux struct pebs_meminfo):
     * basic 32 + meminfo 32 bytes.  INST_RETIRED.ANY_P (Data_LA 0): basic only.
     */
    {.what = "tnt ALL_LOADS", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "MEM_UOPS_RETIRED.ALL_LOADS",
     .adaptive = W(true), .data_cfg = W(0x1), .rec_size = W(64)},
    {.what = "tnt ALL_STORES", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "MEM_UOPS_RETIRED.ALL_STORES",
     .adaptive = W(true), .data_cfg = W(0x1), .rec_size = W(64)},
    {.what = "tnt INST_RETIRED.ANY_P", .model = 0x9c, .fmt = 4, .baseline = true, .n_gp = 4,
     .version = 4, .kind = KIND_OTHER, .event = "INST_RETIRED.ANY_P",
     .adaptive = W(true), .data_cfg = W(0), .rec_size = W(32)},
    /*
     * Forced records (a PEBS record after an overflow set through
     * IA32_PERF_GLOBAL_STATUS_SET) are documented only for Goldmont's
     * non-precise events (SDM Vol. 3B 18.7.1); on other v4+ parts, and for a
     * precise event, the "forced" count would rest on undocumented behaviour.
     */
    {.what = "skl forced records", .model = 0x5e, .fmt = 3, .n_gp = 8, .version = 5,
     .kind = KIND_OTHER, .force_records = true, .rc = SESSION_REFUSED, .refusal = "18.7.1"},
    {.what = "icx forced records", .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_OTHER, .force_records = true,
     .rc = SESSION_REFUSED, .refusal = "18.7.1"},
    {.what = "spr forced records", .model = 0x8f, .fmt = 5, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_OTHER, .force_records = true,
     .rc = SESSION_REFUSED, .refusal = "18.7.1"},
    {.what = "glm forced records, precise event", .model = 0x5c, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES", .force_records = true,
     .rc = SESSION_REFUSED, .refusal = "non-precise"},
    /*
     * MSR_PEBS_FRONTEND: FRONTEND_RETIRED.DSB_MISS carries 0x11
     * (SKL/events/skylake_core.json MSRValue; Linux mask 0x7fff17); one
     * MSR_PEBS_FRONTEND: no counting copy.  Nehalem has no MSR_PEBS_FRONTEND.
     */
    {.what = "skl frontend", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "FRONTEND_RETIRED.DSB_MISS",
     .frontend = W(0x11), .evtsel = W(0x4301c6), .copy_idx = W(-1)},
    {.what = "nhm frontend", .model = 0x1e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .event = "event=0xc6,umask=0x1,frontend=0x11",
     .rc = SESSION_REFUSED, .refusal = "FRONTEND"},
    /*
     * AnyThread/Edge/Invert/CMask on a PEBS event, per generation (the row's
     * pebs_flags_src): refused on Skylake with its SDM note (Vol. 3B
     * 18.13.1); on Ice Lake-SP, with PEBS on every event (Linux ds.c
     * intel_pebs_constraints, PMU_FL_PEBS_ALL), a counter-mask event is a
     * PEBS event of kind "other", but a load-latency event with one is
     * refused (SDM 18.9.4.2: CMASK and INV 0).
     */
    {.what = "skl cmask", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES:c=1",
     .rc = SESSION_REFUSED, .refusal = "CMask zero on Skylake (SDM Vol. 3B 18.13.1 NOTES;"},
    {.what = "icx cmask", .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8, .version = 5,
     .kind = KIND_OTHER, .event = "BR_INST_RETIRED.ALL_BRANCHES:c=1", .cmask = W(1)},
    {.what = "icx ldlat cmask", .model = 0x6a, .fmt = 4, .baseline = true, .n_gp = 8,
     .version = 5, .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:c=1",
     .rc = SESSION_REFUSED,
     .refusal = "a ldlat event needs AnyThread, Edge, Invert and CMask zero"},
    /* Refusals on Skylake */
    {.what = "ldlat=2 in the name", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_LDLAT, .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=2",
     .rc = SESSION_REFUSED, .refusal = "3..65535"},
    {.what = "ldlat=2 in the session", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_LDLAT, .ldlat = 2, .rc = SESSION_REFUSED},
    {.what = "PREC_DIST with cmask", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST:c=1",
     .rc = SESSION_REFUSED, .refusal = "CMask"},
    /* HSW11: a PREC_DIST period >= 128 with the low 6 bits clear */
    {.what = "PREC_DIST period 100", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST", .period = 100,
     .rc = SESSION_REFUSED},
    {.what = "PREC_DIST period 192", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "INST_RETIRED.PREC_DIST", .period = 192},
    {.what = "period 31", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .period = 31, .rc = SESSION_REFUSED},
    {.what = "period 2^31", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .period = 0x80000000ULL, .rc = SESSION_REFUSED},
    /* the default events' refusals name the facility (plan.c default_sample, uarch.c kinds) */
    {.what = "skl precise store", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_STORE, .rc = SESSION_REFUSED,
     .refusal = "precise store (Sandy/Ivy Bridge only; later: datala-store): no such facility on"},
    {.what = "skl store latency", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_STLAT, .rc = SESSION_REFUSED,
     .refusal = "store latency (Sapphire Rapids and later): no such facility on"},
    {.what = "snb datala-load", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_DATALA_LOAD, .rc = SESSION_REFUSED,
     .refusal = "DataLA loads (Haswell and later): no such facility on"},
    {.what = "snb datala-store", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_DATALA_STORE, .rc = SESSION_REFUSED,
     .refusal = "DataLA stores (Haswell and later): no such facility on"},
    {.what = "unknown event", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "NO_SUCH_EVENT", .rc = SESSION_REFUSED, .refusal = "NO_SUCH_EVENT"},
    {.what = "event code over 8 bits", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "event=0x1cd,umask=1", .rc = SESSION_REFUSED},
    /* L2_RQSTS is not PEBS-capable on Skylake (SKL/events/skylake_core.json: PEBS 0) */
    {.what = "skl L2_RQSTS", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .event = "L2_RQSTS.ALL_DEMAND_DATA_RD",
     .rc = SESSION_REFUSED, .refusal = "not PEBS-capable"},
    /* The default instructions sample is a PEBS event of the generation:
     * SNB/IVB/HSW/SKL PREC_DIST 0x01c0 on PMC1 */
    {.what = "snb default", .model = 0x2a, .fmt = 1, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    {.what = "ivb default", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    /* HSW11: the PREC_DIST period at least 128, low 6 bits clear */
    {.what = "hsw default", .model = 0x3c, .fmt = 2, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2), .period_out = W(128)},
    {.what = "skl default", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4, .kind = KIND_OTHER,
     .ctr = W(1), .evtsel = W(0x4301c0), .pebs_enable = W(0x2)},
    /* Nehalem: INST_RETIRED.ANY_P 0x00c0 is precise (NHM-EP file PEBS 1), PMC0 */
    {.what = "nhm default", .model = 0x1e, .fmt = 1, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(0), .evtsel = W(0x4300c0), .pebs_enable = W(0x1)},
    /* Westmere: INST_RETIRED.ANY_P is umask 0x01 (WSM-EP-SP file, PEBS 1), PMC0 */
    {.what = "wsm default", .model = 0x2c, .fmt = 1, .n_gp = 4, .version = 3, .kind = KIND_OTHER,
     .ctr = W(0), .evtsel = W(0x4301c0), .pebs_enable = W(0x1)},
    /* Lion Cove load latency on PMC2-9 (ds.c lnc 0x3fc), not PMC1; 0x1cd | 0x430000 | ADAPTIVE */
    {.what = "lnc ldlat", .model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 8, .version = 6,
     .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .ctr = W(2), .pebs_enable = W(0x4), .evtsel = W(0x4004301cd)},
    {.what = "4 counted events on 4 counters", .model = 0x5e, .fmt = 3, .n_gp = 4, .version = 4,
     .kind = KIND_OTHER, .count_event = "L2_RQSTS.ALL_DEMAND_DATA_RD", .n_count = 4,
     .rc = SESSION_REFUSED, .refusal = "no free counter"},
};
// clang-format on

#define CHECK(field, got)                                                                          \
	do {                                                                                       \
		if (t->field.set && (uint64_t)(got) != t->field.v)                                 \
			print_error("case '%s': %s\n", t->what, #field);                           \
		if (t->field.set)                                                                  \
			assert_int_equal((uint64_t)(got), t->field.v);                             \
	} while (0)

static void run_plan_case(const struct plan_case *t)
{
	struct cpu_info ci = test_cpu_intel(t->model, t->fmt, t->baseline, t->n_gp, t->version);
	struct session_cfg c;
	struct pmu_plan p;
	char why[256] = "";
	int rc;

	if (t->n_fixed)
		ci.n_fixed = t->n_fixed;
	if (t->stepping)
		ci.stepping = t->stepping;
	if (t->microcode)
		ci.microcode = t->microcode;
	if (t->core_type != CORE_TYPE_NONE) {
		ci.hybrid = true;
		ci.core_type = t->core_type;
	}
	c = cfg_for(&ci, t->kind, t->event);
	if (t->ldlat)
		c.ldlat = t->ldlat;
	c.period = t->period;
	c.force_records = t->force_records;
	for (unsigned int i = 0; i < t->n_count; i++)
		c.count_events[i] = t->count_event;
	c.n_count_events = t->n_count;
	rc = build(&c, &p, why);
	if (rc != t->rc)
		print_error("case '%s': plan_build() %d (%s)\n", t->what, rc, why);
	assert_int_equal(rc, t->rc);
	if (t->refusal && !strstr(why, t->refusal))
		fail_msg("case '%s': refusal '%s' lacks '%s'", t->what, why, t->refusal);
	if (rc)
		return;
	if (t->cmask.set)
		assert_in_range(p.sample_ctr, 0, 31);
	CHECK(ctr, p.sample_ctr);
	CHECK(kind_out, p.kind);
	CHECK(pebs_enable, p.pebs_enable);
	CHECK(evtsel, p.evtsel[p.sample_ctr]);
	CHECK(copy_idx, p.copy_idx);
	CHECK(count0_ctr, p.count[0].ctr);
	CHECK(copy_evtsel, p.evtsel[p.count[0].ctr]);
	CHECK(use_ldlat, p.use_ldlat);
	CHECK(ldlat_out, p.ldlat);
	CHECK(period_out, p.period);
	CHECK(rec_size, p.rec_size);
	CHECK(global_ctrl, p.global_ctrl);
	CHECK(fixed_ctrl, p.fixed_ctrl);
	CHECK(data_cfg, p.data_cfg);
	CHECK(adaptive, p.adaptive);
	CHECK(precise, p.sample_precise);
	CHECK(frontend, p.use_frontend ? p.frontend : 0);
	CHECK(cmask, (p.evtsel[p.sample_ctr] >> 24) & 0xff);
}

static void test_plan_cases(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(plan_cases); i++)
		run_plan_case(&plan_cases[i]);
}

/* Sapphire Rapids: ld-lat on 0xfe (not PMC0), aux 0x8203 counted; store latency on PMC0. */
static void test_spr(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 5, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);
	struct pmu_plan p;
	char why[256];
	unsigned int i;
	bool aux = false;

	ci.n_fixed = 4;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 1);
	assert_int_equal(p.pebs_enable, 0x2ULL);
	for (i = 0; i < p.n_count; i++)
		if (pmu_event_code(&p.count[i].ev) == 0x8203) {
			aux = true;
			assert_int_equal(p.count[i].ctr, 0);
			assert_int_equal(p.evtsel[0], 0x438203ULL);
		}
	assert_true(aux);

	c = cfg_for(&ci, KIND_STLAT, NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 0);
	assert_int_equal(p.evtsel[0], 0x4004302cdULL);
	assert_int_equal(p.kind, KIND_STLAT);
	assert_int_equal(ds_fixed_reset_index(p.fmt, 0), 32);
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
	/* A PMU the vCPU does not show: the reason says why that may be. */
	{"QEMU TCG, not Intel", 0x5e, 3, 4, 4, .amd = true, .hv = HV_TCG,
	 .why = "no PEBS (QEMU TCG emulates no PMU)"},
	{"KVM, no Debug Store", 0x5e, 3, 4, 4, .no_ds = true, .hv = HV_KVM,
	 .why = "DS clear) (hypervisor: is the PMU passed through?)"},
	{"KVM, PEBS usable", 0x5e, 3, 4, 4, .hv = HV_KVM, .usable = true},
	/* Sandy Bridge: PEBS broken below the microcode Linux's pebs_ucodes lists. */
	{"06_2A stepping 7, microcode 0x27", 0x2a, 1, 4, 3, .stepping = 7, .microcode = 0x27,
	 .why = "0x28"},
	{"06_2A stepping 7, microcode 0x28", 0x2a, 1, 4, 3, .stepping = 7, .microcode = 0x28,
	 .usable = true},
	{"06_2D stepping 6, microcode 0x617", 0x2d, 1, 4, 3, .stepping = 6, .microcode = 0x617,
	 .why = "below 0x618"},
	{"06_2D stepping 7, microcode 0x70b", 0x2d, 1, 4, 3, .stepping = 7, .microcode = 0x70b,
	 .why = "below 0x70c"},
	{"06_2D stepping 7, microcode 0x70c", 0x2d, 1, 4, 3, .stepping = 7, .microcode = 0x70c,
	 .usable = true},
	/* Steppings Linux does not list: 06_2A needs 0x28; 06_2D is broken whatever the microcode. */
	{"06_2A stepping 3, microcode 0x27", 0x2a, 1, 4, 3, .stepping = 3, .microcode = 0x27,
	 .why = "0x28"},
	{"06_2A stepping 3, microcode 0x28", 0x2a, 1, 4, 3, .stepping = 3, .microcode = 0x28,
	 .usable = true},
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

/* ---- values by hand from the SDM and Linux core.c/ds.c facts ---- */

static struct session_cfg count_cfg(const struct cpu_info *ci, const char *e0, const char *e1)
{
	struct session_cfg c = cfg_for(ci, KIND_OTHER, NULL);

	c.count_only = true;
	c.count_events[0] = e0;
	c.count_events[1] = e1;
	c.n_count_events = e1 ? 2 : 1;
	return c;
}

/*
 * PMU version 1 has no IA32_PERF_GLOBAL_CTRL / _STATUS / _OVF_CTRL (SDM Vol.
 * 3B 18.2.2: version 2 adds them), which every session writes: SKIP before
 * any access, for sampling and counting-only runs alike, naming version 2.
 */
static void test_pmu_version_1(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x2a, 1, false, 4, 1);
	struct session_cfg c = cfg_for(&ci, KIND_OTHER, NULL);
	struct pmu_plan p;
	char why[256] = "";

	assert_false(pmu_pebs_usable(&ci, why, sizeof(why)));
	assert_non_null(strstr(why, "version 2"));
	assert_int_equal(build(&c, &p, why), SESSION_SKIP);
	assert_non_null(strstr(why, "version 2"));
	c = count_cfg(&ci, "event=0xc0,umask=0x0", NULL);
	why[0] = 0;
	assert_int_equal(build(&c, &p, why), SESSION_SKIP);
	assert_non_null(strstr(why, "version 2"));
}

/*
 * MSR_OFFCORE_RSPx writable bits differ between the client and server models
 * of Sandy Bridge and Ivy Bridge: Linux core.c intel_pmu_init takes
 * intel_snbep_extra_regs (0x3fffff8fff) for SANDYBRIDGE_X / IVYBRIDGE_X and
 * intel_snb_extra_regs (0x3f807f8fff) for the others.  Bits 23-30 pass on
 * the servers (perfmon JKT/IVT files use them) and are refused on clients.
 */
static void test_offcore_snb_ivb_models(void **state)
{
	static const struct {
		uint32_t model;
		const char *ev;
		int want;
	} rows[] = {
	    {0x2d, "OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM", 0}, /* 0x67f800004 */
	    {0x3e, "OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM", 0},
	    {0x2d, "event=0xb7,umask=0x1,offcore_rsp=0x800001", 0},
	    {0x3e, "event=0xb7,umask=0x1,offcore_rsp=0x800001", 0},
	    {0x2a, "event=0xb7,umask=0x1,offcore_rsp=0x800001", SESSION_REFUSED},
	    {0x3a, "event=0xb7,umask=0x1,offcore_rsp=0x800001", SESSION_REFUSED},
	    {0x3a, "event=0xb7,umask=0x1,offcore_rsp=0x10001", 0},
	};
	unsigned int i, failed = 0;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct cpu_info ci = test_cpu_intel(rows[i].model, 1, false, 4, 3);
		struct session_cfg c = count_cfg(&ci, rows[i].ev, NULL);
		struct pmu_plan p;
		char why[256] = "";
		int r = build(&c, &p, why);

		if (r != rows[i].want) {
			print_error("model 0x%x %s: %d, want %d (%s)\n", rows[i].model, rows[i].ev,
				    r, rows[i].want, why);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* A hybrid part's core as CPUID.1AH reports it (core type, native model ID). */
static struct cpu_info hybrid_core(uint32_t family, uint32_t model, enum cpu_core_type t,
				   uint32_t native, unsigned int fmt, unsigned int n_gp,
				   unsigned int version)
{
	struct cpu_info ci = test_cpu_intel(model, fmt, fmt >= 4, n_gp, version);

	ci.family = family;
	ci.hybrid = true;
	ci.core_type = t;
	ci.native_model = native;
	return ci;
}

/* The arch-PEBS part: CPUID.23H with GP counters gp, PEBS_FMT 0xF. */
static void make_arch_pebs(struct cpu_info *ci, uint32_t gp)
{
	ci->arch_pebs = true;
	ci->arch_pebs_gp = gp;
	ci->arch_pebs_fixed = 0x7;
	ci->perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
}

/* OFFCORE_RSPx values against each generation's writable bits. */
static void test_offcore_masks(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x1e, 1, false, 4, 3);
	struct session_cfg c;
	struct pmu_plan p;
	char why[256];

	/* NHM: perfmon's MSRValue, request DMND_DATA_RD bit 0 and every location [15:8] */
	c = count_cfg(&ci, "OFFCORE_RESPONSE_0.DEMAND_DATA.ANY_LOCATION", NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_true(p.use_rsp[0]);
	assert_int_equal(p.rsp[0], 0xff03);
	/* NHM: bit 16 is outside the valid 0xffff (core.c intel_nehalem_extra_regs) */
	c = count_cfg(&ci, "event=0xb7,umask=0x1,offcore_rsp=0x10001", NULL);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "MSR_OFFCORE_RSP0"));
	/* SKL: request [15:0], ANY_RESPONSE bit 16: perfmon's MSRValue 0x10001 */
	ci = test_cpu_intel(0x5e, 3, false, 4, 4);
	c = count_cfg(&ci, "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE", NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.rsp[0], 0x10001);
	/* Goldmont: SNP_NONE bit 31 and request bit 6 not writable (0x760005ffbf) */
	ci = test_cpu_intel(0x5c, 3, false, 4, 4);
	c = count_cfg(&ci, "event=0xb7,umask=0x1,offcore_rsp=0x80010001", NULL);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	c = count_cfg(&ci, "event=0xb7,umask=0x1,offcore_rsp=0x10040", NULL);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	c = count_cfg(&ci, "event=0xb7,umask=0x1,offcore_rsp=0x4000000001", NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.rsp[0], 0x4000000001ULL);
	/*
	 * Crestmont E-core (MTL 06_AA, core type 0x20, native model 2): bit 63
	 * exists in MSR_OFFCORE_RSP0 only (core.c intel_cmt_extra_regs: RSP_0
	 * 0x800ff3ffffffffff, RSP_1 0xff3ffffffffff); on RSP1 it raises #GP.
	 */
	{
		struct cpu_info cmt = hybrid_core(6, 0xaa, CORE_TYPE_ATOM, 2, 5, 8, 5);

		c = count_cfg(&cmt, "event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001", NULL);
		assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
		assert_non_null(strstr(why, "MSR_OFFCORE_RSP1"));
		c = count_cfg(&cmt, "event=0xb7,umask=0x1,offcore_rsp=0x8000000000010001", NULL);
		assert_int_equal(build(&c, &p, why), 0);
		assert_int_equal(p.rsp[0], 0x8000000000010001ULL);
	}
	/*
	 * Darkmont E-core (PTL 06_CC, core type 0x20, native model 4): the same
	 * masks (core.c intel_pmu_init_skt: intel_cmt_extra_regs); perfmon
	 * PTL/pantherlake_darkmont_core.json OCR.DEMAND_DATA_RD.L3_MISS is
	 * MSRValue 0x13FBFC00001.
	 */
	{
		struct cpu_info dkm = hybrid_core(6, 0xcc, CORE_TYPE_ATOM, 4, 0, 8, 6);

		c = count_cfg(&dkm, "OCR.DEMAND_DATA_RD.L3_MISS", NULL);
		assert_int_equal(build(&c, &p, why), 0);
		assert_true(p.use_rsp[0]);
		assert_int_equal(p.rsp[0], 0x13fbfc00001ULL);
		c = count_cfg(&dkm, "event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001", NULL);
		assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	}
	/* Goldmont RSP1 has no bit 38 (0x360005ffbf) */
	c = count_cfg(&ci, "event=0xb7,umask=0x2,offcore_rsp=0x4000000001", NULL);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "MSR_OFFCORE_RSP1"));
}

/* MSR_PEBS_FRONTEND within 0x7fff17 on SKL; FRONTEND_RETIRED needs a value. */
static void test_frontend_mask(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x5e, 3, false, 4, 4);
	struct session_cfg c = cfg_for(&ci, KIND_OTHER, "event=0xc6,umask=0x1,frontend=0x800011");
	struct pmu_plan p;
	char why[256];

	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "0x7fff17"));
	c = cfg_for(&ci, KIND_OTHER, "event=0xc6,umask=0x1,frontend=0x8");
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED); /* bit 3 reserved */
	c = cfg_for(&ci, KIND_OTHER, "event=0xc6,umask=0x1");
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "MSR_PEBS_FRONTEND"));
	c = cfg_for(&ci, KIND_OTHER, "event=0xc6,umask=0x1,frontend=0x7fff17");
	assert_int_equal(build(&c, &p, why), 0);
	assert_true(p.use_frontend);
	assert_int_equal(p.frontend, 0x7fff17);
}

/*
 * DATA_CFG counter-snapshot bits (4, 5, 47:32, 55:48) exist from fmt 6 only;
 * LBR, which needs more than DATA_CFG, is refused.  Counter snapshots where
 * enumerated: test_pmu_snapshot.
 */
static void test_data_cfg_by_format(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x6a, 4, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);
	struct pmu_plan p;
	char why[256];

	c.data_cfg = BIT_ULL(4);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	c.data_cfg = BIT_ULL(32);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	/* LBR, 4 entries: defined by fmt 4, but the session turns no LBRs on */
	c.data_cfg = BIT_ULL(3) | (3ULL << 24);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "does not set up"));
	c.data_cfg = BIT_ULL(1) | BIT_ULL(2); /* GP and XMM need nothing more */
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.data_cfg, 0x7ULL);
	ci = test_cpu_intel(0x8f, 5, true, 8, 5); /* SPR fmt 5: still reserved */
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	c.data_cfg = BIT_ULL(5);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	ci = test_cpu_intel(0xbd, 6, true, 8, 6); /* Lion Cove fmt 6 */
	ci.hybrid = true;
	ci.core_type = CORE_TYPE_CORE;
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	/* counter snapshots: defined by fmt 6, taken there (PMC0's value in each record) */
	c.data_cfg = BIT_ULL(4) | BIT_ULL(32);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal((p.data_cfg & (BIT_ULL(4) | BIT_ULL(32))), (BIT_ULL(4) | BIT_ULL(32)));
	/* arch-PEBS: MEMINFO and GP become CFG_C AUX/GPR; LBR is refused, not dropped */
	ci = test_cpu_intel(0xdd, 0, false, 8, 6);
	ci.arch_pebs = true;
	ci.arch_pebs_gp = 0xff;
	ci.arch_pebs_fixed = 0x7;
	ci.arch_pebs_caps = 0xffffffff;
	ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	c.data_cfg = BIT_ULL(1);
	assert_int_equal(build(&c, &p, why), 0);
	c.data_cfg = BIT_ULL(3);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "does not set up"));
}

/* a raw load-latency event gets the threshold; no counting copy; SNB 0xcd counts on PMC3. */
static void test_raw_ldlat(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x5e, 3, false, 4, 4);
	struct session_cfg c = cfg_for(&ci, KIND_OTHER, "event=0xcd,umask=0x1");
	struct pmu_plan p;
	char why[256];

	c.ldlat = 50;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.kind, KIND_LDLAT);
	assert_true(p.use_ldlat);
	assert_int_equal(p.ldlat, 50);
	assert_int_equal(p.pebs_enable, 0x100000001ULL); /* PEBS_EN_PMC0 | LL_EN_PMC0 */
	assert_int_equal(p.copy_idx, -1);
	c.ldlat = 0;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.ldlat, 3); /* SDM 18.9.4.2: the minimum */
	/* SNB: event 0xcd counts on PMC3 only (core.c intel_snb_event_constraints) */
	ci = test_cpu_intel(0x2a, 1, false, 4, 3);
	c = count_cfg(&ci, "event=0xcd,umask=0x1", NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.count[0].ctr, 3);
}

/* v5 fixed-counter bitmap with a hole: fixed 1 absent, never programmed. */
static void test_fixed_bitmap(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x6a, 4, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);
	struct pmu_plan p;
	char why[256];

	ci.n_fixed = 3;
	ci.fixed_mask = 0x5;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.fixed_used, 0x5);
	assert_int_equal((p.global_ctrl >> 32), 0x5);
	/* FIXED_CTR_CTRL: OS|USR (0x3) in nibbles 0 and 2, nibble 1 zero */
	assert_int_equal(p.fixed_ctrl, 0x303ULL);
	/* asking for fixed counter 1 (CPU_CLK_UNHALTED.CORE pseudo-encoding 0x0200) is refused */
	c.count_events[0] = "event=0x00,umask=0x02";
	c.n_count_events = 1;
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "0x5"));
}

/* arch-PEBS only with PEBS_FMT 0xF; latency events by CPUID.1AH core type. */
static void test_arch_pebs_gate(void **state)
{
	struct cpu_info ci =
	    test_cpu_intel(0xde, 4, true, 8, 6); /* a model the tables do not know */
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);
	struct pmu_plan p;
	char why[256];

	ci.arch_pebs = true;
	ci.arch_pebs_gp = 0xff;
	ci.arch_pebs_fixed = 0x7;
	/* CPUID.23H but a legacy format: not arch-PEBS (and this model is unknown) */
	assert_int_equal(plan_pebs_format(&ci), 4);
	assert_false(pmu_pebs_usable(&ci, why, sizeof(why)));
	ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	assert_int_equal(plan_pebs_format(&ci), PEBS_FMT_ARCH);
	ci.core_type = CORE_TYPE_ATOM;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(pmu_event_code(&p.sample), 0x05d0);
	ci.core_type = CORE_TYPE_CORE;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(pmu_event_code(&p.sample), 0x01cd);
	c = cfg_for(&ci, KIND_STLAT, NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(pmu_event_code(&p.sample), 0x02cd);
	ci.core_type = CORE_TYPE_NONE;
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	c = cfg_for(&ci, KIND_OTHER, NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(pmu_event_code(&p.sample), 0x00c0);
	/* 06_DD (Clearwater Forest, Linux INTEL_ATOM_DARKMONT_X) is an E-core by its model */
	ci.model = 0xdd;
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(pmu_event_code(&p.sample), 0x05d0);
}

/* counting constraints, the constrained event placed first. */
static void test_count_constraints(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x2c, 1, false, 4, 3); /* Westmere */
	struct session_cfg c = count_cfg(&ci, "event=0x3c,umask=0x0", "event=0x60,umask=0x1");
	struct pmu_plan p;
	char why[256];
	unsigned int i;

	assert_int_equal(build(&c, &p, why), 0);
	for (i = 0; i < p.n_count; i++)
		if (p.count[i].user_idx == 1)
			assert_int_equal(p.count[i].ctr, 0); /* 0x60 on PMC0 only */
		else
			assert_int_equal(p.count[i].ctr, 1);
	/* two PMC0-only events cannot both count */
	c = count_cfg(&ci, "event=0xb3,umask=0x1", "event=0x60,umask=0x1");
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	/* Ice Lake: MEM_INST_RETIRED (0xd0) counts on PMC0-3 only */
	ci = test_cpu_intel(0x6a, 4, true, 8, 5);
	c = cfg_for(&ci, KIND_LDLAT, NULL); /* samples on PMC0 */
	c.count_events[0] = "event=0x3c,umask=0x0";
	c.count_events[1] = "event=0x3c,umask=0x0";
	c.count_events[2] = "event=0x3c,umask=0x0";
	c.count_events[3] = "event=0xd0,umask=0x81";
	c.n_count_events = 4;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 0);
	for (i = 0; i < p.n_count; i++)
		if (p.count[i].user_idx == 3)
			assert_int_equal(p.count[i].ctr, 1);
}

/*
 * Arch-PEBS P-cores: load latency on PMC2 and up, never PMC0.
 * PTL/events/pantherlake_cougarcove_core.json (06_CC, 06_D5, 06_E5):
 * MEM_TRANS_RETIRED.LOAD_LATENCY_* Counter and PEBScounters 2-9;
 * NVL/events/novalake_coyotecove_core.json (family 0x12): 2-7; Linux ds.c
 * intel_lnc_pebs_event_constraints 0x01cd on 0x3fc.
 */
static void test_arch_pebs_pcore_ldlat(void **state)
{
	static const struct {
		uint32_t family, model, native, gp;
	} cores[] = {
	    {6, 0xcc, 4, 0x3ff},
	    {6, 0xd5, 4, 0x3ff},
	    {6, 0xe5, 4, 0x3ff},
	    {0x12, 0x01, 5, 0xff},
	};
	struct pmu_plan p;
	char why[256];

	for (size_t i = 0; i < ARRAY_SIZE(cores); i++) {
		struct cpu_info ci = hybrid_core(cores[i].family, cores[i].model, CORE_TYPE_CORE,
						 cores[i].native, 0, 10, 6);
		struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);

		make_arch_pebs(&ci, cores[i].gp);
		assert_int_equal(build(&c, &p, why), 0);
		assert_int_equal(pmu_event_code(&p.sample), 0x01cd);
		assert_int_equal(p.sample_ctr, 2);
		/* CPUID enumerating PEBS on PMC0-1 only: refused, naming the rule */
		ci.arch_pebs_gp = 0x3;
		assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
		assert_non_null(strstr(why, "PEBScounters (perfmon "));
		assert_non_null(strstr(why, ") PMC2-"));
		assert_non_null(strstr(why, "CPUID.23H"));
	}
}

/*
 * INST_RETIRED.PREC_DIST (0x01c0) counts on PMC1 only on Haswell and
 * Skylake (HSW/events/haswell_core.json, SKL/events/skylake_core.json:
 * Counter "1"; Linux core.c intel_hsw/skl_event_constraints 0x01c0 on 0x2):
 * no counting copy of it on another counter.
 */
static void test_prec_dist_copy(void **state)
{
	static const uint32_t models[] = {0x3c, 0x5e};
	struct pmu_plan p;
	char why[256];

	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		struct cpu_info ci =
		    test_cpu_intel(models[m], models[m] == 0x3c ? 2 : 3, false, 4, 4);
		struct session_cfg c = cfg_for(&ci, KIND_OTHER, NULL);

		assert_int_equal(build(&c, &p, why), 0);
		assert_int_equal(pmu_event_code(&p.sample), 0x01c0);
		assert_int_equal(p.sample_ctr, 1);
		for (unsigned int i = 0; i < p.n_count; i++)
			if (pmu_event_code(&p.count[i].ev) == 0x01c0)
				assert_int_equal(p.count[i].ctr, 1);
		assert_int_equal(p.copy_idx, -1);
		/* counted on its own: PMC1 */
		c = count_cfg(&ci, "event=0xc0,umask=0x1", NULL);
		assert_int_equal(build(&c, &p, why), 0);
		assert_int_equal(p.count[0].ctr, 1);
	}
}

/* The counter of count[] entry with user index u. */
static int ctr_of(const struct pmu_plan *p, int u)
{
	for (unsigned int i = 0; i < p->n_count; i++)
		if (p->count[i].user_idx == u)
			return p->count[i].ctr;
	return -1;
}

/*
 * Golden Cove / Lion Cove counting constraints.  ADL/events/
 * alderlake_goldencove_core.json: TOPDOWN.BAD_SPEC_SLOTS (0x04a4) Counter
 * "0", INST_DECODED.DECODERS (0x0175) "0,1,2,3"; LNL/events/
 * lunarlake_lioncove_core.json: INST_DECODED.DECODERS and L1D_PENDING.LOAD
 * (0x0148) "2".  Linux core.c intel_glc_event_constraints (0x01-0x8f
 * except 0x2e/0x3c on PMC0-3; 0x04a4, 0x08a4, 0xce on PMC0) and
 * intel_lnc_event_constraints (0x0148, 0x0175 on PMC2) agree.  0xce has
 * no row in the files: the Linux table applies.
 */
static void test_glc_lnc_count_constraints(void **state)
{
	struct cpu_info ci = hybrid_core(6, 0x97, CORE_TYPE_CORE, 1, 4, 8, 5);
	/* INST_RETIRED.ANY_P: PEBScounters 1-7, samples on PMC1 */
	struct session_cfg c = cfg_for(&ci, KIND_OTHER, NULL);
	struct pmu_plan p;
	char why[256];

	c.count_events[0] = c.count_events[1] = c.count_events[2] = "event=0x3c,umask=0x0";
	c.count_events[3] = "event=0xa4,umask=0x4";
	c.n_count_events = 4;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 1);
	assert_int_equal(ctr_of(&p, 3), 0);
	c.count_events[3] = "INST_DECODED.DECODERS";
	assert_int_equal(build(&c, &p, why), 0);
	assert_in_range(ctr_of(&p, 3), 0, 3);
	c.count_events[3] = "event=0xce,umask=0x1";
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(ctr_of(&p, 3), 0);
	/* two PMC0-only events: refused with the rule and its counters */
	c.count_events[2] = "TOPDOWN.BR_MISPREDICT_SLOTS";
	c.count_events[3] = "event=0xa4,umask=0x4";
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "Counter (perfmon ADL/alderlake_goldencove_core.json"));
	assert_non_null(strstr(why, ") PMC0;"));

	ci = hybrid_core(6, 0xbd, CORE_TYPE_CORE, 3, 6, 10, 6);
	c = cfg_for(&ci, KIND_OTHER, NULL); /* INST_RETIRED.ANY_P on PMC0 */
	c.count_events[0] = "event=0x75,umask=0x1";
	c.n_count_events = 1;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 0);
	assert_int_equal(ctr_of(&p, 0), 2);
	c.count_events[0] = "event=0x48,umask=0x1";
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(ctr_of(&p, 0), 2);
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

/*
 * UMASK2 (PERFEVTSEL[47:40]) and EQ (bit 36) only where CPUID.23H.0:EBX
 * enumerates them (bit 0, bit 1; Linux core.c update_pmu_cap, perf_event.h
 * ARCH_PERFMON_EVENTSEL_UMASK2 / _EQ): elsewhere the bits are reserved and
 * the write would #GP, so the plan refuses, naming the rule.
 * ITLB_MISSES.STLB_HIT of lunarlake_lioncove_core.json is EventCode 0x11,
 * UMask 0x20, UMaskExt 0x01.
 */
static void test_evtsel_ext(void **state)
{
	struct cpu_info ci = test_cpu_intel(0xbd, 6, true, 10, 6);
	struct session_cfg c;
	struct pmu_plan p;
	char why[256];
	int ctr;

	ci.hybrid = true;
	ci.core_type = CORE_TYPE_CORE;
	ci.native_model = 3;
	memset(&c, 0, sizeof(c));
	c.ci = &ci;
	c.count_only = true;
	c.count_events[0] = "ITLB_MISSES.STLB_HIT";
	c.n_count_events = 1;
	/* no leaf 23H: refused */
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "UMASK2 (PERFEVTSEL[47:40], perfmon UMaskExt)"));
	assert_non_null(strstr(why, "CPUID.23H.0:EBX[0] clear"));
	/* leaf 23H with EQ only: still refused */
	ci.ext.valid = true;
	ci.ext.evtsel_ext = PMEXT_EQ;
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "CPUID.23H.0:EBX[0] clear"));
	/* UMASK2 enumerated: programmed, 0x01 in bits 47:40 */
	ci.ext.evtsel_ext = PMEXT_UMASK2;
	assert_int_equal(build(&c, &p, why), 0);
	ctr = ctr_of(&p, 0);
	assert_in_range(ctr, 0, 9);
	assert_int_equal(p.evtsel[ctr], (0x0000010000432011ULL));
	/* the raw form gives the same bits */
	c.count_events[0] = "event=0x11,umask=0x20,umask2=0x1";
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.evtsel[ctr_of(&p, 0)], 0x0000010000432011ULL);
	/* EQ: refused without EBX[1], bit 36 with it */
	c.count_events[0] = "event=0x3c,umask=0x0,cmask=2,eq";
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "EQ (PERFEVTSEL[36], perfmon Equal)"));
	assert_non_null(strstr(why, "CPUID.23H.0:EBX[1] clear"));
	ci.ext.evtsel_ext = PMEXT_UMASK2 | PMEXT_EQ;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.evtsel[ctr_of(&p, 0)], (BIT_ULL(36) | 0x0243003cULL));
	/* a sampled event is checked too, before any counter is chosen */
	ci.ext.evtsel_ext = 0;
	c = cfg_for(&ci, KIND_OTHER, "event=0xc0,umask=0x0,umask2=0x2");
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "CPUID.23H.0:EBX[0] clear or leaf 23H absent"));
}

/*
 * Fixed counters past 3: pantherlake_darkmont_core.json puts
 * TOPDOWN_BAD_SPECULATION.ALL on fixed counter 4 and TOPDOWN_RETIRING.ALL
 * on 6 (CPUID.0AH ECX 0x77).  On PMU v6 they are programmed (their
 * FIXED_CTR_CTRL fields 19:16 and 27:24, GLOBAL_CTRL bits 36 and 38); below
 * v6 there is no address for them (pmu/msr.h), so they are refused.
 */
static void test_fixed_beyond_3(void **state)
{
	struct cpu_info ci = test_cpu_intel(0xcc, 0, false, 8, 6);
	struct session_cfg c;
	struct pmu_plan p;
	char why[256];

	ci.hybrid = true;
	ci.core_type = CORE_TYPE_ATOM;
	ci.native_model = 4;
	ci.n_fixed = 7;
	ci.fixed_mask = 0x77;
	memset(&c, 0, sizeof(c));
	c.ci = &ci;
	c.count_only = true;
	c.count_events[0] = "TOPDOWN_BAD_SPECULATION.ALL";
	c.count_events[1] = "TOPDOWN_RETIRING.ALL";
	c.n_count_events = 2;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(ctr_of(&p, 0), 32 + 4);
	assert_int_equal(ctr_of(&p, 1), 32 + 6);
	/* every enumerated fixed counter counts (0-2, 4-6), none at the hole 3 */
	assert_int_equal(p.fixed_ctrl, 0x03330333ULL);
	assert_int_equal((p.global_ctrl >> 32), 0x77);
	assert_int_equal(msr_fixed_ctr(4), 0x1990);
	assert_int_equal(msr_fixed_ctr(6), 0x1998);
	assert_int_equal(msr_fixed_ctr(3), 0x30c);
	/* a v5 PMU enumerating the same counters: 4 and 6 have no address */
	ci.pmu_version = 5;
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "needs fixed counter 4"));
	assert_non_null(strstr(why, "4 and up only with PMU version 6"));
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

/* GNR has no mem-loads-aux event (core.c sets PMU_FL_MEM_LOADS_AUX for SPR/EMR). */
static void test_gnr_no_aux(void **state)
{
	struct cpu_info ci = test_cpu_intel(0xad, 5, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, NULL);
	struct pmu_plan p;
	char why[256];
	unsigned int i;

	assert_int_equal(build(&c, &p, why), 0);
	for (i = 0; i < p.n_count; i++)
		assert_true(pmu_event_code(&p.count[i].ev) != 0x8203);
}

static void test_reset_slots(void **state)
{
	/* Linux asm/intel_ds.h: fixed i at 8+i for fmt <= 4 (offset 0x80+8i), 32+i for fmt >= 5 */
	assert_int_equal(ds_fixed_reset_index(1, 0), 8);
	assert_int_equal(ds_fixed_reset_index(4, 2), 10);
	assert_int_equal(ds_fixed_reset_index(5, 0), 32);
	assert_int_equal(ds_fixed_reset_index(6, 3), 35);
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
 * TakenAlone (perfmon README: "can only be sampled or counted by itself"):
 * SPR/events/sapphirerapids_core.json has it on MEM_TRANS_RETIRED.LOAD_LATENCY_*
 * and FRONTEND_RETIRED.*, not on MEM_INST_RETIRED.ALL_LOADS or on Linux's
 * mem-loads-aux 0x8203 (LD_BLOCKS.STORE_FORWARD's encoding), which the plan
 * still counts beside load latency.
 */
static void test_taken_alone(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 5, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
	struct pmu_plan p;
	char why[256];

	c.count_events[0] = "FRONTEND_RETIRED.DSB_MISS";
	c.n_count_events = 1;
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "'MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4' and "
				    "'FRONTEND_RETIRED.DSB_MISS' are both TakenAlone in perfmon "
				    "SPR/sapphirerapids_core.json"));
	/* two counted ones, no sampling */
	c = count_cfg(&ci, "FRONTEND_RETIRED.DSB_MISS", "FRONTEND_RETIRED.ITLB_MISS");
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "TakenAlone"));
	/* beside an ordinary event, and with the aux event: placed */
	c = cfg_for(&ci, KIND_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4");
	c.count_events[0] = "MEM_INST_RETIRED.ALL_LOADS";
	c.n_count_events = 1;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.n_count, 2); /* ALL_LOADS and 0x8203 */
}

/*
 * PDIST (perfmon PDISTCounter): SPR MEM_INST_RETIRED.ALL_LOADS "0",
 * INST_RETIRED.PREC_DIST "32" (fixed counter 0), load latency "NA".  With
 * arch-PEBS the counters must also be in CPUID.23H.5 EBX (GP) / EDX (fixed).
 */
static void test_pdist(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 5, true, 8, 5);
	struct session_cfg c = cfg_for(&ci, KIND_OTHER, "MEM_INST_RETIRED.ALL_LOADS");
	struct pmu_plan p;
	char why[256];

	ci.n_fixed = 4;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 0);
	assert_true(p.sample_pdist);
	/* a VMM's counter bitmap without PMC0: PEBS on PMC1, without PDIST */
	ci.gp_mask = 0xfe;
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 1);
	assert_false(p.sample_pdist);
	ci.gp_mask = 0;
	c = cfg_for(&ci, KIND_OTHER, "INST_RETIRED.PREC_DIST");
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 32);
	assert_true(p.sample_pdist);
	c = cfg_for(&ci, KIND_LDLAT, NULL);
	assert_int_equal(build(&c, &p, why), 0);
	assert_false(p.sample_pdist);

	/* Panther Lake P-core, arch-PEBS: PDIST only where CPUID.23H.5:EBX says */
	ci = hybrid_core(6, 0xcc, CORE_TYPE_CORE, 4, 0, 10, 6);
	make_arch_pebs(&ci, 0x3ff);
	c = cfg_for(&ci, KIND_OTHER, "MEM_INST_RETIRED.ALL_LOADS");
	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.sample_ctr, 0);
	assert_false(p.sample_pdist);
	ci.arch_pebs_pdist_gp = 0x3;
	assert_int_equal(build(&c, &p, why), 0);
	assert_true(p.sample_pdist);
}

/*
 * Core 2 has no perfmon file: its counted events are placed by core.c
 * intel_core2_event_constraints (MEM_LOAD_RETIRED 0xcb on PMC0, DIV 0x13
 * on PMC1); the PEBS event takes PMC0 (ds.c intel_core2_pebs_event_constraints).
 */
static void test_core2_count_constraints(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x17, 0, false, 2, 2);
	struct session_cfg c = count_cfg(&ci, "event=0xcb,umask=0x1", "event=0x13,umask=0x0");
	struct pmu_plan p;
	char why[256];

	assert_int_equal(build(&c, &p, why), 0);
	assert_int_equal(p.count[0].ctr, 0);
	assert_int_equal(p.count[1].ctr, 1);
	/* beside the PEBS event on PMC0, MEM_LOAD_RETIRED has no counter left */
	c = cfg_for(&ci, KIND_OTHER, NULL);
	c.count_events[0] = "event=0xcb,umask=0x1";
	c.n_count_events = 1;
	assert_int_equal(build(&c, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "no perfmon row; Linux core.c event constraints: PMC0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_cases),
	    cmocka_unit_test(test_spr),
	    cmocka_unit_test(test_offcore_snb_ivb_models),
	    cmocka_unit_test(test_pmu_version_1),
	    cmocka_unit_test(test_usable),
	    cmocka_unit_test(test_reset_slots),
	    cmocka_unit_test(test_every_uarch_has_a_row),
	    cmocka_unit_test(test_offcore_masks),
	    cmocka_unit_test(test_core2_count_constraints),
	    cmocka_unit_test(test_frontend_mask),
	    cmocka_unit_test(test_data_cfg_by_format),
	    cmocka_unit_test(test_raw_ldlat),
	    cmocka_unit_test(test_fixed_bitmap),
	    cmocka_unit_test(test_arch_pebs_gate),
	    cmocka_unit_test(test_count_constraints),
	    cmocka_unit_test(test_gnr_no_aux),
	    cmocka_unit_test(test_arch_pebs_pcore_ldlat),
	    cmocka_unit_test(test_prec_dist_copy),
	    cmocka_unit_test(test_glc_lnc_count_constraints),
	    cmocka_unit_test(test_lnc_count_constraints),
	    cmocka_unit_test(test_every_pebs_event_placed_or_refused),
	    cmocka_unit_test(test_evtsel_ext),
	    cmocka_unit_test(test_taken_alone),
	    cmocka_unit_test(test_pdist),
	    cmocka_unit_test(test_fixed_beyond_3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
