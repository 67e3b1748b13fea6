// SPDX-License-Identifier: MIT
/*
 * test_job_aggregate.c - the console of a job on many CPUs (job/aggregate.c,
 * job/cpus.c, app/summary_table.c), as the screen shows it (80 columns,
 * the console and the log file apart as efi/console.c routes them): each
 * FAIL line across CPUs leads with the failing CPUs' deciding clause, and
 * the console stays within 1.3 times the lines of the same run without
 * faults however many CPUs fail.  Host: a thread per CPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/app.h"
#include "lib/report.h"
#include "pmu/hw.h"
#include "test_util.h"

static unsigned int screen_lines;

static void count_piece(const char *piece, void *ctx)
{
	(void)piece;
	(void)ctx;
	screen_lines++;
}

static void console_sink(const char *line, void *ctx)
{
	test_lines_sink(line, ctx);
	report_wrap(line, REPORT_WIDTH, count_piece, NULL);
}

static void log_sink(const char *line, void *ctx)
{
	(void)line;
	(void)ctx;
}

/* The whole app on ncpus simulated CPUs with options; returns the screen's lines. */
static unsigned int run_app(const char *ncpus, const char *options, int *status)
{
	struct options o;
	char err[256];

	setenv("PEBSPROBE_HOST_CPUS", ncpus, 1);
	test_lines_clear();
	report_reset();
	report_init(console_sink, NULL); /* lines for both: efi/console.c con_line */
	report_init_routes(console_sink, log_sink, NULL);
	report_set_simulated(false);
	hw_install(NULL);
	screen_lines = 0;
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, options, false, err, sizeof(err)), 0);
	*status = app_run(&o, NULL);
	report_result(*status);
	report_init_routes(NULL, NULL, NULL);
	if (getenv("DUMP"))
		test_lines_dump(stdout);
	return screen_lines;
}

// clang-format off
static const struct {
	const char *ncpus, *faults;
	const char *fail_head; /* the FAIL line's start */
	const char *reason;    /* on it: the failing CPUs' deciding clause */
	const char *other;     /* the verdict table's other: line, naming the CPUs */
	unsigned int legends;  /* "FAIL@3+" explained: once where a list is cut */
} cases[] = {
    {"32", "sim-fault=cpu3:skid,cpu9:skid,cpu12:skid,cpu17:skid,cpu20:skid,cpu30:skid",
     "FAIL: chase-l1/load: 32 CPUs: FAIL 3,9,12,17,20,30: ", "exact IPs ",
     "other: cpu-compare FAIL@3,9,12+", 1},
    {"4", "sim-fault=cpu1:no-records", "FAIL: chase-l1/load: 4 CPUs: FAIL 1: ", "records",
     "other: cpu-compare FAIL", 0},
    {"4", "sim-fault=cpu2:skid", "FAIL: chase-l1/load: 4 CPUs: FAIL 2: ", "exact IPs ",
     "other: cpu-compare FAIL", 0},
};
// clang-format on

static void fail_lines_say_why(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char opts[256];
		unsigned int clean, faulty;
		const char *line;
		int status;

		clean = run_app(cases[i].ncpus, "pmu=sim kernels=chase-l1 dump=off", &status);
		assert_int_equal(status, EXIT_PASS);
		snprintf(opts, sizeof(opts), "pmu=sim kernels=chase-l1 dump=off %s",
			 cases[i].faults);
		faulty = run_app(cases[i].ncpus, opts, &status);
		assert_int_equal(status, EXIT_FAIL);
		print_message("%s CPUs, %s: %u lines, %u without faults\n", cases[i].ncpus,
			      cases[i].faults, faulty, clean);
		line = test_line_find(cases[i].fail_head, NULL);
		if (!line || !strstr(line + strlen(cases[i].fail_head), cases[i].reason)) {
			test_lines_dump(stdout);
			fail_msg("no '%s' line naming '%s'", cases[i].fail_head, cases[i].reason);
		}
		assert_non_null(test_line_find(cases[i].other, NULL));
		assert_int_equal(test_line_count("INFO: legend: FAIL@3+ "), cases[i].legends);
		if (faulty * 10 > clean * 13) {
			test_lines_dump(stdout);
			fail_msg("%u console lines with faults, %u without: over 1.3 times", faulty,
				 clean);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(fail_lines_say_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
