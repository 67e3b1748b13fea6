// SPDX-License-Identifier: MIT
/*
 * test_report_defer.c - the lines report_flush_deferred() prints around the
 * held-back lines: counted right ("1 line", "2 lines") and within 80
 * columns (lib/report.h; tools/check-width.py checks the
 * format at its widest, this the lines as printed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <cmocka.h>

#include "lib/report.h"

static char seen[8][REPORT_LINE_MAX], last[REPORT_LINE_MAX];
static unsigned int n_seen;

static void sink(const char *line, void *ctx)
{
	(void)ctx;
	if (n_seen < 8)
		snprintf(seen[n_seen], sizeof(seen[0]), "%s", line);
	snprintf(last, sizeof(last), "%s", line);
	n_seen++;
}

static void setup_run(bool simulated)
{
	report_reset();
	report_init(sink, NULL);
	report_set_simulated(simulated);
	n_seen = 0;
}

/* lines held back, the line that announces them */
static const struct {
	unsigned int held;
	int cpu; /* the CPU measured now (report_set_cpu); -1: none */
	const char *first;
} cases[] = {
    {1, -1, "INFO: 1 line held back by the measured CPU until now:"},
    {2, -1, "INFO: 2 lines held back by the measured CPU until now:"},
    {1, 17, "INFO: 1 line held back by the measured CPU (cpu 17) until now:"},
};

static void test_held_back_counted(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		setup_run(true);
		if (cases[c].cpu >= 0)
			report_set_cpu((unsigned int)cases[c].cpu, 0, "none");
		report_defer_begin();
		for (unsigned int i = 0; i < cases[c].held; i++)
			report_line("MSR: wrmsr 0x38f 0x%x", i);
		report_defer_end();
		assert_int_equal(n_seen, 0);
		assert_int_equal(report_flush_deferred("the measured CPU"), cases[c].held);
		assert_string_equal(seen[0], cases[c].first);
		assert_int_equal(n_seen, 1 + cases[c].held);
		assert_true(strlen(seen[0]) <= REPORT_WIDTH);
	}
}

/*
 * A full buffer: one line more than fits (each is 200 bytes and its NUL:
 * no " [sim]" on a line that is no verdict), announced with the total, the
 * one dropped said last.
 */
static void test_dropped_counted(void **state)
{
	char line[201];
	unsigned int fit = REPORT_DEFER_BYTES / (200 + 1);

	(void)state;
	setup_run(true);
	memset(line, 'x', 200);
	line[200] = 0;
	report_defer_begin();
	for (unsigned int i = 0; i < fit + 1; i++)
		report_line("%s", line);
	report_defer_end();
	assert_int_equal(report_flush_deferred("the PMI handler"), fit + 1);
	assert_int_equal(n_seen, 1 + fit + 1);
	assert_string_equal(last, "INFO: 1 line dropped: the 32768-byte buffer was full");
	assert_true(strlen(seen[0]) <= REPORT_WIDTH && strlen(last) <= REPORT_WIDTH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_held_back_counted),
	    cmocka_unit_test(test_dropped_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
