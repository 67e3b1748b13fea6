// SPDX-License-Identifier: MIT
/*
 * test_pmu_constraints - where Linux's constraint tables decide, as cases:
 *   plan cases: a simulated part with no perfmon row for the event (Diamond
 *   Rapids has no file; Nova Lake's Arctic Wolf file has no 0xd4 row), the
 *   kind and event asked for -> the counter the plan samples on, which is
 *   what Linux's tables allow (d345b6bb8860 intel_pnc_pebs_event_constraints:
 *   0x1cd on 0xfc, 0x2cd on 0x3; c847a208f43b intel_arw_pebs_event_constraints:
 *   0x02d4 on 0x2, 0x08d4 on 0x8);
 *   simulator cases: the same events armed by hand on a counter -> whether
 *   the simulator reports "pebs-counter" (its own copy of the tables);
 *   counting cases: Ice Lake and Golden Cove encodings their perfmon files
 *   lack, the counters the plan may count them on (uarch_count_counters)
 *   and whether the simulator reports "count-counter" for one counted by
 *   hand: core.c intel_icl_event_constraints (0x48-0x56 on 0xf; 0x04a3,
 *   0x10a3, 0x14a3 on 0xff ahead of 0xa3 on 0xf) and
 *   intel_glc_event_constraints (0x2e, 0x3c on 0xff; 0x01a3, 0x02a3, 0x08a3
 *   on 0xf; 0x90-0xfe on 0xff).
 * Expected counters are read off the Linux rows above, not from pmu/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "lib/cpurun.h"
#include "pmu/cpu.h"
#include "pmu/plan.h"
#include "pmu/uarch.h"
#include "test_sim_util.h"

struct plan_case {
	const char *model;
	unsigned int cpu; /* the simulated CPU probed (hybrid: 1 is the E-core of 2) */
	enum pebs_kind kind;
	const char *event; /* NULL: the generation's event for kind */
	int want_ctr;	   /* GP counter */
};

/* clang-format off */
static const struct plan_case plan_cases[] = {
	/* model  cpu kind          event                    counter (Linux row) */
	{ "dmr",  0, KIND_LDLAT,  NULL,                    2 }, /* 0x1cd on 0xfc */
	{ "dmr",  0, KIND_STLAT,  NULL,                    0 }, /* 0x2cd on 0x3 */
	{ "dmr",  0, KIND_OTHER,  "event=0xcd,umask=0x1,ldlat=3", 2 }, /* same row, raw */
	{ "dmr",  0, KIND_OTHER,  "event=0xd1,umask=0x1",  0 }, /* 0xd1-0xd4 on 0xf */
	{ "nvl",  1, KIND_OTHER,  "event=0xd4,umask=0x2",  1 }, /* 0x02d4 on 0x2 */
	{ "nvl",  1, KIND_OTHER,  "event=0xd4,umask=0x8",  3 }, /* 0x08d4 on 0x8 */
};
/* clang-format on */

struct probe_arg {
	struct cpu_info *ci;
};

static void probe_on_cpu(void *p)
{
	cpu_probe(((struct probe_arg *)p)->ci);
}

static void test_plan_cases(void **state)
{
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plan_cases); i++) {
		const struct plan_case *t = &plan_cases[i];
		struct cpu_info ci;
		struct probe_arg a = {&ci};
		struct session_cfg cfg;
		struct pmu_plan p;
		char why[256] = "";
		int rc;

		use_model(t->model);
		memset(&ci, 0, sizeof(ci));
		assert_int_equal(cpurun_run(t->cpu, probe_on_cpu, &a, 0, NULL, NULL), 0);
		memset(&cfg, 0, sizeof(cfg));
		cfg.ci = &ci;
		cfg.kind = t->kind;
		cfg.sample_event = t->event;
		cfg.ldlat = 3;
		cfg.buffer_kib = 64;
		rc = plan_build(&cfg, &ci, &p, why, sizeof(why));
		if (rc && ++bad)
			print_error("case %zu (%s cpu%u %s): refused: %s\n", i, t->model, t->cpu,
				    t->event ? t->event : pebs_kind_name(t->kind), why);
		else if (p.sample_ctr != t->want_ctr && ++bad)
			print_error("case %zu (%s cpu%u %s): sampled on PMC%d; Linux's row makes "
				    "it PMC%d\n",
				    i, t->model, t->cpu,
				    t->event ? t->event : pebs_kind_name(t->kind), p.sample_ctr,
				    t->want_ctr);
	}
	if (bad)
		fail_msg("%u plan case(s) failed", bad);
}

struct sim_case {
	const char *model;
	unsigned int ctr;
	uint64_t evtsel; /* event and umask */
	bool rule;	 /* the simulator reports pebs-counter */
};

/* clang-format off */
static const struct sim_case sim_cases[] = {
	{ "dmr", 0, 0x01cd, true  }, /* load latency on PMC0: outside 0xfc */
	{ "dmr", 2, 0x01cd, false },
	{ "dmr", 2, 0x02cd, true  }, /* store latency on PMC2: outside 0x3 */
	{ "dmr", 1, 0x02cd, false },
	{ "dmr", 3, 0x81d0, false }, /* DataLA loads on 0xf */
	{ "dmr", 4, 0x81d0, true  },
};
/* clang-format on */

static uint8_t data[64 * 4096];

/* 1, printing the case and the rules seen, where rule `id` went against the case. */
static unsigned int sim_case_wrong(size_t i, const struct sim_case *t, const char *id)
{
	if (saw_rule(id) == t->rule)
		return 0;
	print_error("case %zu (%s 0x%04llx on PMC%u): %s %s, expected %s (rules: %s)\n", i,
		    t->model, (unsigned long long)t->evtsel, t->ctr, id,
		    saw_rule(id) ? "reported" : "not reported", t->rule ? "reported" : "none",
		    rules_seen);
	return 1;
}

/* Arch-PEBS armed on GP ctr by hand (SDM/Linux d21954c8a0ff layout), a few loads. */
static void test_sim_cases(void **state)
{
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sim_cases); i++) {
		const struct sim_case *t = &sim_cases[i];
		struct ds d;

		use_model(t->model);
		ds_make(&d, 8192, 8192, 8192);
		wr(GLOBAL_CTRL, 0);
		wr(LD_LAT, 3);
		wr(EVTSEL(t->ctr), EVT(t->evtsel));
		wr(PMC(t->ctr), 0xfffffffe);
		wr(CFG_C_GP(t->ctr), 1ull << 63 | 1ull << 62 | 0xfffffffe);
		wr(PEBS_BASE, (uintptr_t)d.buf | 1);
		wr(PEBS_INDEX, 1ull << 32 | (uint64_t)(8192 >> 4) << 36);
		wr(GLOBAL_CTRL, 1ull << t->ctr);
		run_loads(data, 4);
		wr(GLOBAL_CTRL, 0);
		wr(PEBS_INDEX, 0);
		wr(PEBS_BASE, 0);
		ds_free(&d);
		bad += sim_case_wrong(i, t, "pebs-counter");
	}
	if (bad)
		fail_msg("%u simulator case(s) failed", bad);
}

struct count_case {
	enum pebs_uarch uarch;
	uint16_t code; /* event | umask << 8 */
	uint32_t want; /* GP counters; 0xffffffff: no row, any */
};

/*
 * On the rows before this change: icx 0x04a3 on 0xf (the 0xff rows were
 * not carried); spr 0x2e on 0xffffffff and 0x01a3, 0x02a3, 0x08a3 and
 * 0x04a3 on any counter (no rows).
 */
/* clang-format off */
static const struct count_case count_cases[] = {
	{ UARCH_ICX, 0x0155, 0xf },  { UARCH_ICX, 0x0156, 0xf },  { UARCH_ICX, 0x0157, 0xffffffff },
	{ UARCH_ICX, 0x04a3, 0xff }, { UARCH_ICX, 0x10a3, 0xff }, { UARCH_ICX, 0x14a3, 0xff },
	{ UARCH_ICX, 0x02a3, 0xf },  { UARCH_ICX, 0x01ef, 0xf },
	{ UARCH_SPR, 0x002e, 0xff }, { UARCH_SPR, 0x003c, 0xff }, { UARCH_SPR, 0x0124, 0xf },
	{ UARCH_SPR, 0x01a3, 0xf },  { UARCH_SPR, 0x02a3, 0xf },  { UARCH_SPR, 0x08a3, 0xf },
	{ UARCH_SPR, 0x04a3, 0xff }, { UARCH_SPR, 0x01c6, 0xff }, { UARCH_SPR, 0x01d1, 0xf },
	{ UARCH_SPR, 0x01ce, 0x1 },  { UARCH_GNR, 0x02a3, 0xf },  { UARCH_GLC, 0x02a3, 0xf },
};
/* clang-format on */

static void test_count_cases(void **state)
{
	unsigned int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(count_cases); i++) {
		const struct count_case *t = &count_cases[i];
		const struct uarch_info *ua = uarch_get(t->uarch);
		uint32_t got = uarch_count_counters(ua, t->code);

		if (got != t->want && ++bad)
			print_error("%s 0x%04x: counters 0x%x; Linux's row makes them 0x%x\n",
				    ua->name, t->code, got, t->want);
	}
	if (bad)
		fail_msg("%u counting case(s) failed", bad);
}

/* An encoding each perfmon file lacks, counted by hand on one GP counter. */
/* clang-format off */
static const struct sim_case sim_count_cases[] = {
	{ "icx", 5, 0x02a3, true  }, /* 0xa3 on 0xf */
	{ "icx", 3, 0x02a3, false },
	{ "spr", 5, 0x02a3, true  }, /* 0x02a3 on 0xf */
	{ "spr", 2, 0x02a3, false },
	{ "spr", 6, 0x0124, true  }, /* 0x01-0x8f on 0xf */
	{ "adl", 4, 0x02a3, true  }, /* CPU 0: the Golden Cove P-core */
	{ "gnr", 7, 0x02a3, true  },
};
/* clang-format on */

static void test_sim_count_cases(void **state)
{
	unsigned int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sim_count_cases); i++) {
		const struct sim_case *t = &sim_count_cases[i];

		use_model(t->model);
		wr(GLOBAL_CTRL, 0);
		wr(PMC(t->ctr), 0);
		wr(EVTSEL(t->ctr), EVT(t->evtsel));
		wr(GLOBAL_CTRL, 1ull << t->ctr);
		run_loads(data, 4);
		wr(GLOBAL_CTRL, 0);
		wr(EVTSEL(t->ctr), 0);
		bad += sim_case_wrong(i, t, "count-counter");
	}
	if (bad)
		fail_msg("%u simulator counting case(s) failed", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_cases),
	    cmocka_unit_test(test_sim_cases),
	    cmocka_unit_test(test_count_cases),
	    cmocka_unit_test(test_sim_count_cases),
	};

	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
