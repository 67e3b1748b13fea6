// SPDX-License-Identifier: MIT
/*
 * test_job_races.c - PEBS races counted as Linux's drain counts them below
 * record format 3 (decode/decode.h pebs_race_of; ds.c
 * intel_pmu_drain_pebs_nhm), as tables: a record's status against
 * PEBS_ENABLE; the simulator's sim-fault=cpuN:status-zero and collision on
 * raw MSRs (formats 1 and 2 only); and the app's samplings, whose verdict
 * and results.json count what was kept and dropped.
 */
#include "test_sim_util.h"

#include "app/app.h"
#include "decode/decode.h"
#include "lib/report.h"
#include "test_util.h"

struct status_case {
	const char *what;
	unsigned int fmt;
	uint64_t enabled, msr; /* the PEBS-enabled counters; PEBS_ENABLE as written */
	uint64_t status;       /* the record's 0x90 */
	enum pebs_race race;
};

/* clang-format off */
static const struct status_case status_cases[] = {
	{"one PEBS counter named",		1, 0x1, 0x1,			0x1, PEBS_RACE_NONE},
	{"zero, the sole PEBS event",		1, 0x1, 0x1,			0x0, PEBS_RACE_ZERO_SOLE},
	/* Linux's cpuc->pebs_enabled has LL_EN (ds.c intel_pmu_pebs_enable): not one bit */
	{"zero, load latency's LL_EN too",	1, 0x8, 0x8 | 1ull << 35,	0x0, PEBS_RACE_ZERO_DROP},
	{"zero, precise store's PS_EN too",	1, 0x8, 0x8 | 1ull << 63,	0x0, PEBS_RACE_ZERO_DROP},
	{"zero, two PEBS counters",		2, 0x3, 0x3,			0x0, PEBS_RACE_ZERO_DROP},
	{"two PEBS counters: collision",	2, 0x3, 0x3,			0x3, PEBS_RACE_COLLISION},
	{"PEBS and non-PEBS bits: kept",	2, 0x1, 0x1,			0x5, PEBS_RACE_NONE},
	{"fixed counter bits ignored",		2, 0x1, 0x1,	  0x1 | 1ull << 32, PEBS_RACE_NONE},
	/* Format 3: the applicable counters, exact: each set bit counts */
	{"format 3: two counters named",	3, 0x3, 0x3,			0x3, PEBS_RACE_NONE},
};
/* clang-format on */

static void test_status_rule(void **state)
{
	static uint8_t buf[0x100];
	unsigned int failed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(status_cases); i++) {
		const struct status_case *c = &status_cases[i];
		struct pebs_decode_cfg cfg = {.fmt = c->fmt,
					      .kind = KIND_OTHER,
					      .pebs_enabled = c->fmt == 3 ? 0 : c->enabled,
					      .pebs_enable_msr = c->msr};
		struct pebs_record rec;
		struct pebs_anomaly an;
		size_t off = 0;
		enum pebs_race got;

		memset(buf, 0, sizeof(buf));
		put64(buf, 0x90, c->status);
		assert_int_equal(pebs_decode_next(&cfg, buf, sizeof(buf), &off, &rec, &an),
				 PEBS_STEP_RECORD);
		cfg.pebs_enabled = c->enabled;
		got = pebs_race_of(&cfg, &rec);
		if (got != c->race) {
			print_error("%s: race %d, expected %d\n", c->what, got, c->race);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/*
 * Raw MSRs: PMC0 samples loads every 7th, PMC1 (PEBS-enabled too) counts
 * instructions and never overflows; every 4th record carries the fault,
 * on formats 1 and 2 only.
 */
struct fault_case {
	const char *model;
	enum sim_fault fault;
	uint64_t code;			  /* PMC0's event */
	uint64_t counts[PEBS_RACE_KINDS]; /* of the 14 records of 100 loads */
};

static const struct fault_case fault_cases[] = {
    {"nhm", SIM_FAULT_NONE, 0x010b, {14, 0, 0, 0}},
    {"nhm", SIM_FAULT_STATUS_ZERO, 0x010b, {11, 0, 3, 0}},
    {"hsw", SIM_FAULT_COLLISION, 0x81d0, {11, 0, 0, 3}},
    {"hsw", SIM_FAULT_STATUS_ZERO, 0x81d0, {11, 0, 3, 0}},
    {"skl", SIM_FAULT_COLLISION, 0x81d0, {14, 0, 0, 0}},
    {"skl", SIM_FAULT_STATUS_ZERO, 0x81d0, {14, 0, 0, 0}},
};

static uint8_t data[4096];

static void test_sim_faults(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(fault_cases); i++) {
		const struct fault_case *c = &fault_cases[i];
		uint64_t counts[PEBS_RACE_KINDS] = {0};
		struct pebs_decode_cfg cfg;
		struct pebs_record rec;
		struct pebs_anomaly an;
		size_t off = 0, used;
		struct ds d;

		use_model(c->model);
		assert_int_equal(sim_set_fault(0, c->fault, 0), 0);
		memset(&cfg, 0, sizeof(cfg));
		cfg.fmt = (unsigned int)(rd(PERF_CAPS) >> 8 & 0xf);
		cfg.kind = KIND_OTHER;
		cfg.pebs_enabled = cfg.pebs_enable_msr = 0x3;
		ds_make(&d, 64 * 1024, 64 * 1024, 64 * 1024);
		wr(GLOBAL_CTRL, 0);
		wr(EVTSEL(0), EVT(c->code));
		wr(EVTSEL(1), EVT(0x00c0));
		wr(PMC(0), (uint64_t)-7 & 0xffffffff);
		wr(PMC(1), (uint64_t)-1000000 & 0xffffffff);
		ds_reset_slot(&d, 0, (uint64_t)-7 & MASK48);
		ds_reset_slot(&d, 1, (uint64_t)-1000000 & MASK48);
		wr(DS_AREA, (uintptr_t)d.area);
		wr(PEBS_ENABLE, 0x3);
		wr(GLOBAL_CTRL, 0x3);
		run_loads(data, 100);
		wr(GLOBAL_CTRL, 0);
		wr(PEBS_ENABLE, 0);
		used = ds_used(&d);
		while (pebs_decode_next(&cfg, d.buf, used, &off, &rec, &an) == PEBS_STEP_RECORD)
			counts[pebs_race_of(&cfg, &rec)]++;
		for (unsigned int k = 0; k < PEBS_RACE_KINDS; k++)
			if (counts[k] != c->counts[k])
				fail_msg("%s %s: %u: %llu records, expected %llu", c->model,
					 sim_fault_name(c->fault), k, (unsigned long long)counts[k],
					 (unsigned long long)c->counts[k]);
		ds_free(&d);
		sim_set_fault(0, SIM_FAULT_NONE, 0);
	}
}

/*
 * The app: a sampling's verdict counts the records the rule kept and
 * dropped, and says so past 10% dropped; a format that has no race says
 * nothing.  Load latency sets LL_EN, so a zero status is dropped there.
 */
struct app_case {
	const char *opts;
	int status;
	const char *want;   /* in the chase-l1/load verdict line, or NULL */
	const char *refuse; /* not in that line, or NULL */
	const char *json;   /* in results.json, or NULL: no "status_race" there */
};

static const struct app_case app_cases[] = {
    {"pmu=sim model=nhm cpus=0 kernels=chase-l1 sim-fault=cpu0:status-zero", EXIT_PASS,
     "status race: 0 zero-status kept as the sole PEBS event's, 46 dropped, 0 collisions "
     "dropped as lost (over 10% of the records: expected, errata pebs-status-zero, "
     "pebs-collision)",
     NULL,
     "\"status_race\":{\"kept\":141,\"zero_attributed\":0,\"zero_dropped\":46,"
     "\"collisions\":0}"},
    /* One PEBS counter: the other counter's bit is a non-PEBS bit, the record kept. */
    {"pmu=sim model=nhm cpus=0 kernels=chase-l1 sim-fault=cpu0:collision", EXIT_PASS, NULL,
     "status race",
     "\"status_race\":{\"kept\":187,\"zero_attributed\":0,\"zero_dropped\":0,"
     "\"collisions\":0}"},
    {"pmu=sim model=skl cpus=0 kernels=chase-l1 sim-fault=cpu0:status-zero", EXIT_PASS, NULL,
     "status race", NULL},
};

static char outdir[] = "/tmp/pebsprobe-races-XXXXXX";

static void test_app(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(app_cases); i++) {
		const struct app_case *c = &app_cases[i];
		static char json[1 << 20];
		const char *line;
		struct options o;
		char err[256], path[300];
		int rc;

		test_lines_capture();
		test_lines_echo = getenv("RACES_VERBOSE") != NULL;
		report_reset();
		hw_install(NULL);
		options_defaults(&o);
		o.job.dump = JOB_DUMP_OFF;
		assert_int_equal(options_parse_line(&o, c->opts, false, err, sizeof(err)), 0);
		strcpy(o.job.results, "results.json");
		rc = app_finish(&o, "results.json", app_run(&o, NULL));
		line = test_line_find("PASS: chase-l1/load", NULL);
		if (rc != c->status || !line || (c->want && !strstr(line, c->want)) ||
		    (c->refuse && strstr(line, c->refuse)))
			fail_msg("%s: exit %d (expected %d): %s", c->opts, rc, c->status,
				 line ? line : "no chase-l1/load PASS line");
		snprintf(path, sizeof(path), "%s/results.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) >= 0);
		if (c->json ? !strstr(json, c->json) : !!strstr(json, "status_race"))
			fail_msg("%s: results.json %s %s", c->opts, c->json ? "lacks" : "has",
				 c->json ? c->json : "status_race");
		report_set_simulated(false);
	}
}

int main(void)
{
	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);

	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_status_rule),
	    cmocka_unit_test(test_sim_faults),
	    cmocka_unit_test(test_app),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
