// SPDX-License-Identifier: MIT
/*
 * test_job_results.c - exit codes with one meaning and results.json on every
 * ending: an environment error exits 99 (never 1, never counted as a
 * test), a FAIL still exits 1; the report keeps every verdict line, with
 * its CPU, for results.json; SMBIOS type 1 strings; app_finish() writes
 * version 2 with the exit status for a run that only skipped, and turns 0
 * into 99, with the platform's error text, when the file cannot land.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/app.h"
#include "job/job.h"
#include "lib/report.h"
#include "lib/platform.h"
#include "lib/smbios.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"

static char outdir[] = "/tmp/pebsprobe-results-XXXXXX";

static int setup(void **state)
{
	test_lines_capture();
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	setenv("PEBSPROBE_OUT", outdir, 1);
	return 0;
}

static void env_error_exits_99(void **state)
{
	struct report_counts c;

	report_pass("a: fine");
	report_env_error("results", "could not write results.json: disk full");
	assert_int_equal(report_exit_status(), EXIT_ENVIRONMENT);
	report_get_counts(&c);
	assert_int_equal(c.tests, 1);
	assert_int_equal(c.failures, 0);
	assert_int_equal(c.env_errors, 1);
	assert_non_null(test_line_find("ERROR: results: could not write results.json", NULL));
	assert_string_equal(report_exit_meaning(EXIT_ENVIRONMENT), "environment");
	/* A FAIL found is a finding whatever else went wrong. */
	report_fail("b", "wrong");
	assert_int_equal(report_exit_status(), EXIT_FAIL);
}

static void verdict_log_keeps_lines(void **state)
{
	const struct report_entry *e;

	report_set_simulated(true);
	report_pass("selftest-gp: real CPU: trapped");
	report_set_cpu(2, 16, "E-core");
	report_fail("chase-l1/load", "L1 hits %d%%", 3);
	report_clear_cpu();
	report_skip("pebs", "no PEBS");
	report_info("not a verdict: \x1b[31mred\ttab");
	/* Plain ASCII on every sink: a control byte never reaches a terminal raw. */
	assert_non_null(test_line_find("INFO: not a verdict: ?[31mred tab", NULL));
	report_defer_begin();
	report_pass("deferred: from the PMI");
	report_defer_end();
	assert_int_equal(report_log_count(), 3);
	report_flush_deferred("test");
	assert_int_equal(report_log_count(), 4);
	e = report_log_at(0);
	assert_int_equal(e->kind, REPORT_PASS);
	assert_string_equal(e->name, "selftest-gp");
	assert_string_equal(e->why, "real CPU: trapped");
	assert_false(e->has_cpu);
	e = report_log_at(1);
	assert_int_equal(e->kind, REPORT_FAIL);
	assert_string_equal(e->name, "chase-l1/load");
	assert_string_equal(e->why, "L1 hits 3%");
	assert_true(e->has_cpu);
	assert_int_equal(e->cpu, 2);
	assert_int_equal(e->apic_id, 16);
	assert_string_equal(e->core_type, "E-core");
	e = report_log_at(2);
	assert_int_equal(e->kind, REPORT_SKIP);
	assert_false(e->has_cpu);
	/* The [sim] mark is the console's, not part of the reason. */
	e = report_log_at(3);
	assert_string_equal(e->name, "deferred");
	assert_string_equal(e->why, "from the PMI");
	report_set_simulated(false);
}

static char pieces[8][128];
static unsigned int n_pieces;

static void piece(const char *p, void *ctx)
{
	(void)ctx;
	assert_true(n_pieces < 8);
	snprintf(pieces[n_pieces++], sizeof(pieces[0]), "%s", p);
}

/* 80 columns: broken at spaces, continuations indented, [sim] on the last, rejoined exactly. */
static void wrap_80_columns(void **state)
{
	const char *line = "PASS: chase-l1/load: L1 hits 100.0% >= 90.0% (187 of 187); 187 records "
			   "(need >= 10); data addresses in the buffer 100.0% >= 99.0% (187 of "
			   "187) [sim]";
	char joined[512] = "";

	n_pieces = 0;
	report_wrap(line, 80, piece, NULL);
	assert_int_equal(n_pieces, 2);
	for (unsigned int i = 0; i < n_pieces; i++) {
		size_t n = strlen(pieces[i]);

		assert_true(n <= 80);
		/* The mark once, on the last piece (docs/OUTPUT.md "80 columns"). */
		assert_int_equal(!strcmp(pieces[i] + n - 6, " [sim]"), i == n_pieces - 1);
		if (i) {
			assert_memory_equal(pieces[i], "    ", 4);
			assert_true(pieces[i][4] != ' ');
			strcat(joined, " ");
		}
		strcat(joined, pieces[i] + (i ? 4 : 0));
	}
	assert_string_equal(joined, line);
	assert_string_equal(
	    pieces[0],
	    "PASS: chase-l1/load: L1 hits 100.0% >= 90.0% (187 of 187); 187 records (need >=");
	/* A long word breaks at the space before it, not inside it. */
	n_pieces = 0;
	report_wrap("INFO: chase-dram/event1: sampled MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30 "
		    "(0x1cd) ldlat=30 on PMC0 [sim]",
		    80, piece, NULL);
	assert_int_equal(n_pieces, 2);
	assert_string_equal(
	    pieces[0],
	    "INFO: chase-dram/event1: sampled MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30");
	assert_string_equal(pieces[1], "    (0x1cd) ldlat=30 on PMC0 [sim]");
	/* A line that fits is one piece, untouched. */
	n_pieces = 0;
	report_wrap("INFO: short", 80, piece, NULL);
	assert_int_equal(n_pieces, 1);
	assert_string_equal(pieces[0], "INFO: short");
}

static void smbios_type1(void **state)
{
	/* type 0 (BIOS, one string), type 1 (manufacturer 1, product 2, serial 0), end */
	static const uint8_t t[] = {
	    0,	 5,   0,   0,	1,   'B', 'I', 'O', 'S', 0,   0, 1, 8,	 1, 0, 1, 2, 0, 0,
	    'A', 'c', 'm', 'e', ' ', ' ', 0,   'B', 'o', 'x', 0, 0, 127, 4, 2, 0, 0, 0,
	};
	struct smbios_system s;

	assert_true(smbios_system_info(t, sizeof(t), &s));
	assert_string_equal(s.manufacturer, "Acme");
	assert_string_equal(s.product, "Box");
	assert_string_equal(s.serial, "");
	/* Cut inside the type-1 strings: no answer rather than a wrong one. */
	assert_false(smbios_system_info(t, 24, &s));
}

static char *read_file(const char *name)
{
	static char buf[1 << 21]; /* a grown log: about 1 MB */
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	return test_read_file(path, buf, sizeof(buf)) < 0 ? NULL : buf;
}

static void finish_writes_v2_when_all_skipped(void **state)
{
	struct options o;
	const char *json;

	options_defaults(&o);
	o.pmu = OPT_PMU_HW;
	strcpy(o.job.results, "skipped.json");
	assert_int_equal(app_finish(&o, o.job.results, app_run(&o, NULL)), EXIT_ALL_SKIPPED);
	json = read_file("skipped.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"results_version\":3,"));
	assert_non_null(strstr(json, "\"exit_status\":77,\"exit_meaning\":\"skipped\""));
	assert_non_null(strstr(json, "\"verdicts\":[{\"name\":\"pmu\",\"verdict\":\"SKIP\""));
	assert_non_null(strstr(json, "\"options\":\"pmu=hw "));
	/* The host has no firmware: absent, not made up. */
	assert_null(strstr(json, "\"firmware\""));
	assert_null(strstr(json, "\"smbios\""));
	assert_non_null(test_line_find("INFO: results: ", NULL));
}

static void finish_not_landed_is_99(void **state)
{
	struct options o;
	const char *err;

	options_defaults(&o);
	o.report_only = true;
	setenv("PEBSPROBE_OUT", "/nonexistent/dir", 1);
	assert_int_equal(app_finish(&o, "results.json", app_run(&o, NULL)), EXIT_ENVIRONMENT);
	err = test_line_find("ERROR: results: could not write results.json: ", NULL);
	assert_non_null(err);
	assert_non_null(strstr(err, "(errno 2)"));
	/* A run that failed stays a failure: 1, not 99. */
	report_reset();
	assert_int_equal(app_finish(&o, "results.json", EXIT_FAIL), EXIT_FAIL);
}

/*
 * results.json takes every verdict the log kept, however many: 4,000
 * verdicts of 120 bytes (480 KB of text, past the log's fixed 64 KiB;
 * a 128-CPU boot of chase-l1,chase-dram gave 643 and "the results did
 * not fit in 845474 bytes").
 */
static void finish_takes_a_grown_log(void **state)
{
	struct options o;
	const char *json;
	char why[121];
	int status;

	options_defaults(&o);
	o.report_only = true;
	status = app_run(&o, NULL);
	memset(why, 'x', sizeof(why) - 1);
	why[sizeof(why) - 1] = 0;
	for (unsigned int i = 0; i < 4000; i++) {
		report_set_cpu(i / 4, i / 4, "none");
		report_pass("chase-l1/load: %u %s", i, why);
	}
	report_clear_cpu();
	assert_int_equal(report_log_dropped(), 0);
	assert_int_equal(app_finish(&o, "grown.json", status), status);
	assert_null(test_line_find("ERROR: ", NULL));
	json = read_file("grown.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"why\":\"3999 xxx"));
}

static volatile int hold_cpu1;

static void busy_cpu1(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&hold_cpu1, __ATOMIC_SEQ_CST))
		usleep(1000);
}

/*
 * A processor that cannot be started is the environment's failure, not
 * PEBS's: an ERROR line, the run SKIPped with the reason, exit 99 (not a
 * FAIL line and exit 1).
 */
static void ap_that_never_starts_is_99(void **state)
{
	struct options o;
	struct cpu_info ci;

	if (plat_cpu_count() < 2)
		skip();
	assert_int_equal(sim_select("skl"), 0);
	hw_install(sim_hw_ops());
	cpu_probe(&ci);
	options_defaults(&o);
	test_option(&o, "kernels=share-hitm");
	o.job.dump = false;
	strcpy(o.job.results, "none");
	hold_cpu1 = 1;
	assert_int_equal(plat_start_on_cpu(1, busy_cpu1, NULL), 0);
	job_main(&o.job, &ci);
	hold_cpu1 = 0;
	plat_wait_cpu(1, 1000000);
	assert_non_null(test_line_find(
	    "ERROR: share-hitm/load: partner CPU 1 could not be started (error -1)", NULL));
	assert_non_null(
	    test_line_find("SKIP: share-hitm/load@cpu", "environment: partner CPU 1 could not"));
	assert_int_equal(test_line_count("FAIL: "), 0);
	assert_int_equal(report_exit_status(), EXIT_ENVIRONMENT);
	hw_install(NULL);
}

/* A hsw job on chase-l1 (its default options), results in name; returns the JSON. */
static char *hsw_job(const struct hw_ops *ops, const char *name)
{
	struct options o;
	struct cpu_info ci;

	assert_int_equal(sim_select("hsw"), 0);
	hw_install(ops);
	cpu_probe(&ci);
	assert_int_equal(ci.tsc_hz, 0);
	options_defaults(&o);
	test_option(&o, "kernels=chase-l1");
	o.job.dump = false;
	strcpy(o.job.results, name);
	job_main(&o.job, &ci);
	app_finish(&o, o.job.results, report_exit_status());
	hw_install(NULL);
	return read_file(name);
}

/* Whether a console line ends in " ns". */
static bool ns_printed(void)
{
	for (unsigned int i = 0; i < test_n_lines; i++) {
		size_t n = strlen(test_lines[i]);

		if (n > 3 && !strcmp(test_lines[i] + n - 3, " ns"))
			return true;
	}
	return false;
}

/*
 * Haswell has no CPUID 15H/16H: the TSC is calibrated against the clock,
 * and the simulator's TSC runs at the part's nominal rate (i7-4770, 3.4
 * GHz), so latencies have ns (the old simulator's TSC counted modelled
 * cycles only: "a calibrated TSC of 1013 Hz", no ns).
 */
static void calibrated_tsc_gives_ns(void **state)
{
	const char *tsc = NULL, *json = hsw_job(sim_hw_ops(), "hsw-ns.json");
	unsigned long long hz = 0;

	assert_non_null(json);
	assert_non_null(tsc = test_line_find("INFO: main job: TSC ", NULL));
	assert_int_equal(sscanf(tsc, "INFO: main job: TSC %llu Hz (calibrated)", &hz), 1);
	assert_true(hz >= 3300000000ull && hz <= 3500000000ull);
	assert_null(test_line_find("INFO: main job: a calibrated TSC of ", NULL));
	assert_true(ns_printed());
	assert_null(strstr(json, "\"tsc_hz\":0,"));
	assert_null(strstr(json, "\"median_ns\":null"));
	assert_non_null(strstr(json, "\"median_ns\":"));
}

/* A TSC that counts only the simulator's cycles: a few ticks per 20 ms. */
static struct hw_ops cycles_only;
static uint64_t cycles_tsc;

static uint64_t cycles_only_rdtsc(void)
{
	return cycles_tsc += 20;
}

/*
 * A calibration no clock gives (here: 1 kHz) means cycles only: no ns, on
 * the console or in results.json (the old code printed "TSC 1013 Hz" and
 * DRAM accesses of 200,000,000 ns).
 */
static void implausible_tsc_no_ns(void **state)
{
	const char *json;

	cycles_only = *sim_hw_ops();
	cycles_only.rdtsc = cycles_only_rdtsc;
	json = hsw_job(&cycles_only, "hsw.json");
	assert_non_null(test_line_find("INFO: main job: a calibrated TSC of ", NULL));
	assert_non_null(strstr(test_line_find("INFO: main job: a calibrated TSC of ", NULL),
			       "is no clock this CPU has (accepted: 100 MHz..10 GHz): latencies in "
			       "cycles only (no ns)"));
	assert_false(ns_printed());
	assert_non_null(json);
	assert_non_null(strstr(json, "\"tsc_hz\":0,"));
	assert_non_null(strstr(json, "\"median_ns\":null"));
}

/*
 * A sampling the generation does not have is SKIPped with kind null, not
 * "other" (Nehalem has no store sampling: split-line/store).
 */
static void skipped_sampling_kind(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *json;

	assert_int_equal(sim_select("nhm"), 0);
	hw_install(sim_hw_ops());
	cpu_probe(&ci);
	options_defaults(&o);
	test_option(&o, "kernels=split-line");
	o.job.dump = false;
	strcpy(o.job.results, "nhm.json");
	job_main(&o.job, &ci);
	assert_non_null(test_line_find("SKIP: split-line/store", NULL));
	app_finish(&o, o.job.results, report_exit_status());
	json = read_file("nhm.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "{\"test\":\"split-line/store\",\"sampling\":\"store\","
				     "\"kind\":null,\"verdict\":\"SKIP\""));
	hw_install(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(env_error_exits_99, setup),
	    cmocka_unit_test_setup(verdict_log_keeps_lines, setup),
	    cmocka_unit_test_setup(smbios_type1, setup),
	    cmocka_unit_test_setup(wrap_80_columns, setup),
	    cmocka_unit_test_setup(finish_writes_v2_when_all_skipped, setup),
	    cmocka_unit_test_setup(finish_not_landed_is_99, setup),
	    cmocka_unit_test_setup(finish_takes_a_grown_log, setup),
	    cmocka_unit_test_setup(ap_that_never_starts_is_99, setup),
	    cmocka_unit_test_setup(calibrated_tsc_gives_ns, setup),
	    cmocka_unit_test_setup(implausible_tsc_no_ns, setup),
	    cmocka_unit_test_setup(skipped_sampling_kind, setup),
	};

	if (!mkdtemp(outdir))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
