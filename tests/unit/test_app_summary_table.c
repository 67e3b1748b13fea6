// SPDX-License-Identifier: MIT
/*
 * test_app_summary_table.c - the closing verdict table (app/summary_table.c) from a
 * verdict log built here by hand:
 *   - verdicts of one CPU: no cpus column, one cell per kernel and sampling;
 *   - verdicts of several CPUs: a cpus column with each row's CPUs, a cell
 *     the CPUs agree on is their word, one they disagree on names the CPUs
 *     of its worst verdict (FAIL@3), lists too long are cut ("0,2+"), and
 *     every line fits 80 columns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "app/app.h"
#include "lib/report.h"
#include "test_util.h"

static void verdict_on(unsigned int cpu, const char *name, enum report_kind kind)
{
	report_set_cpu(cpu, cpu, "P-core");
	if (kind == REPORT_PASS)
		report_pass("%s: ok", name);
	else if (kind == REPORT_FAIL)
		report_fail(name, "broken");
	else
		report_skip(name, "not here");
}

/* The table's line that starts with prefix, spaces squeezed, or fails. */
static const char *row(const char *prefix)
{
	static char sq[256];
	const char *l = test_line_find(prefix, NULL);
	size_t n = 0;

	if (!l) {
		test_lines_dump(stdout);
		fail_msg("no line starting '%s'", prefix);
	}
	for (const char *p = l; *p && n + 1 < sizeof(sq); p++)
		if (*p != ' ' || (n && sq[n - 1] != ' '))
			sq[n++] = *p;
	sq[n] = 0;
	return sq;
}

static void all_within_80(void)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (strlen(test_lines[i]) > 80)
			fail_msg("wider than 80: '%s'", test_lines[i]);
}

static void one_cpu(void **state)
{
	(void)state;
	report_reset();
	test_lines_capture();
	verdict_on(0, "chase-l1/load", REPORT_PASS);
	verdict_on(0, "seq-store/store", REPORT_FAIL);
	verdict_on(0, "seq-store/load", REPORT_SKIP);
	app_verdict_table();
	assert_string_equal(row("kernel "), "kernel load store");
	assert_string_equal(row("chase-l1 "), "chase-l1 PASS -");
	assert_string_equal(row("seq-store "), "seq-store SKIP FAIL");
	all_within_80();
}

static void several_cpus(void **state)
{
	static const char *const smp[] = {"load",    "store", "other", "nonprecise",
					  "offcore", "ev-a",  "ev-b"};

	(void)state;
	report_reset();
	test_lines_capture();
	for (unsigned int c = 0; c < 4; c++) {
		verdict_on(c, "chase-l1/load", REPORT_PASS);
		verdict_on(c, "chase-l1/store", c == 3 ? REPORT_FAIL : REPORT_PASS);
		/* CPU 1 skips, CPU 2 fails: the FAIL and its CPU win the cell */
		verdict_on(c, "seq-load/load",
			   c == 2   ? REPORT_FAIL
			   : c == 1 ? REPORT_SKIP
				    : REPORT_PASS);
		if (c != 1)
			verdict_on(c, "share-hitm/load", c == 0 ? REPORT_SKIP : REPORT_PASS);
	}
	/* a kernel only two CPUs ran, and every sampling name there is: at most 6 columns */
	for (unsigned int i = 0; i < ARRAY_SIZE(smp); i++) {
		char name[64];

		snprintf(name, sizeof(name), "wide-kernel-name/%s", smp[i]);
		verdict_on(1, name, REPORT_PASS);
		verdict_on(3, name, REPORT_PASS);
	}
	app_verdict_table();
	assert_string_equal(row("kernel "), "kernel cpus load store other nonpreci offcore ev-a");
	assert_string_equal(row("chase-l1 "), "chase-l1 0-3 PASS FAIL@3 - - - -");
	assert_string_equal(row("seq-load "), "seq-load 0-3 FAIL@2 - - - - -");
	assert_string_equal(row("share-hitm "), "share-hitm 0,2,3 SKIP@0 - - - - -");
	assert_string_equal(row("wide-kernel-na "),
			    "wide-kernel-na 1,3 PASS PASS PASS PASS PASS PASS");
	all_within_80();
}

static void cpu_lists_cut(void **state)
{
	(void)state;
	report_reset();
	test_lines_capture();
	/* CPUs 10, 12, 14 and 20 fail, the others pass: lists cut with "+" */
	for (unsigned int c = 0; c < 24; c++) {
		bool bad = c == 10 || c == 12 || c == 14 || c == 20;

		verdict_on(c, "chase-l1/load", bad ? REPORT_FAIL : REPORT_PASS);
		if (c % 2 == 0)
			verdict_on(c, "seq-load/load", REPORT_PASS);
	}
	app_verdict_table();
	assert_string_equal(row("chase-l1 "), "chase-l1 0-23 FAIL@10+");
	assert_string_equal(row("seq-load "), "seq-load 0,2+ PASS");
	all_within_80();
}

/*
 * Past 64 CPUs (the old sets held 64): a FAIL on CPU 70 names it, the row
 * holds 0-99.  The log grows with the run: 1,024 CPUs of 24 samplings
 * (24,576 verdicts, far past the fixed 512) keep every one, the last
 * CPU's FAIL included, and the table lacks none.
 */
static void past_64_cpus(void **state)
{
	static const char *const names[] = {"chase-l1/load", "chase-l1/store", "seq-load/load",
					    "seq-load/store"};

	(void)state;
	report_reset();
	test_lines_capture();
	for (unsigned int c = 0; c < 100; c++)
		verdict_on(c, "chase-l1/load", c == 70 ? REPORT_FAIL : REPORT_PASS);
	app_verdict_table();
	assert_string_equal(row("chase-l1 "), "chase-l1 0-99 FAIL@70");
	assert_null(test_line_find("INFO: verdict table: ", NULL));
	report_reset();
	test_lines_capture();
	for (unsigned int c = 0; c < 1024; c++)
		for (unsigned int i = 0; i < 24; i++)
			verdict_on(c, names[i % 4],
				   c == 1023 && i == 23 ? REPORT_FAIL : REPORT_PASS);
	assert_int_equal(report_log_count(), 1024 * 24);
	assert_int_equal(report_log_dropped(), 0);
	assert_string_equal(report_log_at(1024 * 24 - 1)->why, "broken");
	test_lines_clear(); /* the table's lines only: the capture holds fewer than 24,576 */
	app_verdict_table();
	/* The last CPU's FAIL is in its cell (CPU lists past the cell's width end in "+"). */
	assert_non_null(strstr(row("seq-load "), " PASS FAIL@"));
	assert_null(test_line_find("INFO: verdict table: ", NULL));
	all_within_80();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(one_cpu),
	    cmocka_unit_test(several_cpus),
	    cmocka_unit_test(cpu_lists_cut),
	    cmocka_unit_test(past_64_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
