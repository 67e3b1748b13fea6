// SPDX-License-Identifier: MIT
/*
 * test_app_result.c - what RESULT and the exit status count: the PEBS and
 * PMU tests.  The firmware hand-off checks PASS on every run, so a run
 * whose PEBS tests all SKIPped (ldlat= below what the kernel's loads take)
 * is a SKIP, exit 77, with one line saying why, not a PASS.  Each case is
 * one whole run on the host's simulated PMU.
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
#include "lib/cpurun.h"
#include "lib/report.h"
#include "pmu/hw.h"
#include "test_util.h"

// clang-format off
static const struct {
	const char *options;
	int status;
	const char *result; /* the RESULT line */
	bool why;	    /* the line that says the hand-off checks made no PASS */
} cases[] = {
    /* Every PEBS test a SKIP: only the hand-off checks passed. */
    {"pmu=sim kernels=chase-l2 ldlat=30 dump=off", EXIT_ALL_SKIPPED, "RESULT: SKIP (exit 77) [sim]", true},
    {"pmu=sim kernels=none", EXIT_ALL_SKIPPED, "RESULT: SKIP (exit 77) [sim]", false},
    {"pmu=sim kernels=chase-l1 dump=off", EXIT_PASS, "RESULT: PASS (exit 0) [sim]", false},
};
// clang-format on

static void result_counts_pebs(void **state)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char err[256];
		int status;

		test_lines_capture();
		report_reset();
		report_set_simulated(false);
		hw_install(NULL);
		options_defaults(&o);
		assert_int_equal(options_parse_line(&o, cases[i].options, false, err, sizeof(err)),
				 0);
		status = app_run(&o, NULL);
		report_result(status);
		print_message("case %s: exit %d\n", cases[i].options, status);
		if (getenv("DUMP"))
			test_lines_dump(stderr);
		assert_int_equal(status, cases[i].status);
		assert_string_equal(test_line_find("RESULT: ", NULL), cases[i].result);
		assert_int_equal(test_line_count("INFO: no PEBS or PMU verdict: ") != 0,
				 cases[i].why);
	}
}

static unsigned int pieces;

static void count_piece(const char *piece, void *ctx)
{
	(void)piece;
	(void)ctx;
	pieces++;
}

static void brief_sink(const char *line, void *ctx)
{
	test_lines_sink(line, ctx);
}

static void no_log(const char *line, void *ctx)
{
	(void)line;
	(void)ctx;
}

/*
 * The default run's PASS lines on the console, as efi/console.c routes
 * them: each fits one 80-column line with its " [sim]" (issue 31 item 8),
 * and none that wraps still holds parenthesized detail it could drop
 * ("(187 of 187)": the log file keeps it).
 */
static void passes_fit_one_line(void **state)
{
	struct options o;
	char err[256];
	unsigned int wrapped = 0, n = 0;

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "1", 1);
	test_lines_capture();
	report_reset();
	report_init_routes(brief_sink, no_log, NULL);
	hw_install(NULL);
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, "pmu=sim dump=off", false, err, sizeof(err)), 0);
	app_run(&o, NULL);
	report_init_routes(NULL, NULL, NULL);
	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (strncmp(test_lines[i], "PASS: ", 6) || !strchr(test_lines[i], '/'))
			continue;
		n++;
		pieces = 0;
		report_wrap(test_lines[i], REPORT_WIDTH, count_piece, NULL);
		if (pieces < 2)
			continue;
		wrapped++;
		print_message("wraps: %s\n", test_lines[i]);
		if (strchr(test_lines[i], '('))
			fail_msg("a PASS that wraps with detail to drop: %s", test_lines[i]);
	}
	print_message("%u of %u PASS lines wrap\n", wrapped, n);
	assert_true(n >= 15);
	assert_int_equal(wrapped, 0);
}

/* Words that match the screen: one of a thing is singular, a header is no cut word. */
// clang-format off
static const struct {
	const char *ncpus, *options, *line;
} words[] = {
    {"2", "pmu=sim kernels=chase-l1 dump=off", "INFO: APs 1: started 1, released 1, lost 0"},
    {"1", "pmu=sim kernels=none", "VERDICTS: 1 test: 0 PASS, 0 FAIL, 1 SKIP"},
    {"1", "pmu=sim kernels=chase-l1 dump=off", "INFO: main job: TSC 4000000000 Hz (CPUID 15H/16H), 1 CPU (cpus=all: 1 measured), instrumented kernels"},
    {"1", "pmu=sim kernels=chase-l1 dump=off", "kernel         load     calib"},
};
// clang-format on

static void words_match_the_screen(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct options o;
		char err[256];

		setenv("PEBSPROBE_HOST_CPUS", words[i].ncpus, 1);
		test_lines_capture();
		report_reset();
		hw_install(NULL);
		options_defaults(&o);
		assert_int_equal(options_parse_line(&o, words[i].options, false, err, sizeof(err)),
				 0);
		app_run(&o, NULL);
		cpurun_release_all();
		if (!test_line_find(words[i].line, NULL) ||
		    strcmp(test_line_find(words[i].line, NULL), words[i].line)) {
			test_lines_dump(stdout);
			fail_msg("no line '%s'", words[i].line);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    /* first: the dispatch line is said once a process (lib/cpurun.c) */
	    cmocka_unit_test(words_match_the_screen),
	    cmocka_unit_test(result_counts_pebs),
	    cmocka_unit_test(passes_fit_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
