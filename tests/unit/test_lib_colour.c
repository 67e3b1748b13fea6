// SPDX-License-Identifier: MIT
/*
 * test_lib_colour.c - what a screen colours (lib/colour.h) and how a run
 * ends (report_result): the verdict words of a line and of the closing
 * table's cells, none in INFO or continuation lines; the RECAP lines name
 * every FAIL and ERROR within 80 columns, then RESULT with the status.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/colour.h"
#include "lib/report.h"
#include "test_util.h"

/* Each row: a line, then its coloured words as "WORD=kind" in order. */
static const struct {
	const char *line, *want;
} rows[] = {
    {"PASS: chase-l1/load: L1 hits 100%", "PASS=0"},
    {"FAIL: cpu-compare: cpu 2 differs: chase-l1/load PASS, 4 here", "FAIL=1"},
    {"SKIP: share-hitm/load: needs 2 CPUs", "SKIP=2"},
    {"ERROR: dump: not written", "ERROR=3"},
    {"RESULT: ERROR (exit 99) [sim]", "ERROR=3"},
    {"RESULT: PASS (exit 0)", "PASS=0"},
    {"RECAP: FAIL chase-l1/load, cpu-compare", "FAIL=1"},
    {"chase-l1       PASS     -        - [sim]", "PASS=0"},
    {"split-line     PASS     FAIL     SKIP", "PASS=0 FAIL=1 SKIP=2"},
    {"chase-l1  0-3  FAIL@3   PASS", "FAIL@3=1 PASS=0"},
    {"INFO: kernel chase-l1: PASS FAIL words inside", ""},
    {"    PASS, latency median 4 cycles [sim]", ""},
    {"VERDICTS: 17 tests: 15 PASS, 0 FAIL, 2 SKIP", ""},
    {"other: cpu-compare FAIL", ""},
    {"kernel         load     store    offcore", ""},
    {"PASSED: not a verdict word", ""},
};

static void colours_the_verdict_words(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct colour_span s[8];
		char got[128] = "";
		size_t n = colour_spans(rows[i].line, s, 8), len = 0;

		for (size_t k = 0; k < n; k++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%.*s=%d",
						k ? " " : "", (int)s[k].len,
						rows[i].line + s[k].start, (int)s[k].kind);
		if (strcmp(got, rows[i].want))
			fail_msg("'%s': coloured '%s', want '%s'", rows[i].line, got, rows[i].want);
	}
}

static void setup_lines(bool sim)
{
	test_lines_capture();
	report_reset();
	report_set_simulated(sim);
}

/* Every FAIL and ERROR named before RESULT, each line within 80 columns. */
static void result_recaps_failures(void **state)
{
	char name[32];

	(void)state;
	setup_lines(true);
	report_pass("chase-l1/load: fine");
	report_fail("chase-l2/load", "wrong");
	report_set_cpu(2, 2, "E-core");
	report_fail("cpu-compare", "cpu 2 differs");
	report_clear_cpu();
	report_env_error("dump", "chase-l1-load.pebs not written");
	report_env_error("results", "EFI_VOLUME_FULL");
	report_result(EXIT_FAIL);
	assert_string_equal(test_lines[test_n_lines - 3], "RECAP: FAIL chase-l2/load, cpu-compare");
	assert_string_equal(test_lines[test_n_lines - 2], "RECAP: ERROR dump, results");
	assert_string_equal(test_lines[test_n_lines - 1], "RESULT: FAIL (exit 1) [sim]");

	/* Several CPUs: name@cpuN; many failures: 80 columns, at most 16 lines, the rest counted.
	 */
	setup_lines(false);
	for (unsigned int i = 0; i < 300; i++) {
		report_set_cpu(i % 4, i % 4, "P-core");
		snprintf(name, sizeof(name), "kernel-%u/load", i);
		report_fail(name, "wrong");
	}
	report_result(EXIT_FAIL);
	assert_true(test_n_lines <= 300 + REPORT_RECAP_LINES + 1);
	for (unsigned int i = 300; i < test_n_lines; i++)
		if (strlen(test_lines[i]) > REPORT_WIDTH)
			fail_msg("over 80 columns: %s", test_lines[i]);
	assert_non_null(test_line_find("RECAP: FAIL kernel-0/load@cpu0, kernel-1/load@cpu1", NULL));
	if (!test_line_find("RECAP: FAIL ", " more (results.json)")) {
		for (unsigned int i = 300; i < test_n_lines; i++)
			printf("# %s\n", test_lines[i]);
		fail();
	}
	assert_string_equal(test_lines[test_n_lines - 1], "RESULT: FAIL (exit 1)");

	/* The words for each status. */
	setup_lines(false);
	report_result(EXIT_PASS);
	report_result(EXIT_ALL_SKIPPED);
	report_result(EXIT_ENVIRONMENT);
	report_result(EXIT_USAGE);
	assert_int_equal(test_n_lines, 4);
	assert_string_equal(test_lines[0], "RESULT: PASS (exit 0)");
	assert_string_equal(test_lines[1], "RESULT: SKIP (exit 77)");
	assert_string_equal(test_lines[2], "RESULT: ERROR (exit 99)");
	assert_string_equal(test_lines[3], "RESULT: ERROR (exit 2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(colours_the_verdict_words),
	    cmocka_unit_test(result_recaps_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
