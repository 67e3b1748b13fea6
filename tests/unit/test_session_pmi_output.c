// SPDX-License-Identifier: MIT
/*
 * test_session_pmi_output.c - nothing on the PMI path calls firmware.
 *
 * A PMI can land inside a ConOut, SerialIo or file Write call of a report
 * line; a handler that prints enters the same driver again.  With
 * trace=msr and drain=pmi the handler's MSR accesses make trace lines: they
 * must be held back (lib/report.h deferred output) and printed after the
 * session, by the normal path.  The simulator runs the PMI handler
 * synchronously and says when it does (sim_pmi_running), so the report
 * sink here fails the test if it is called while the handler runs.
 */
#include "test_session_util.h"
#include "lib/report.h"

static unsigned int lines, lines_in_pmi, trace_status_reads, held_back_info, dropped_info;
static char first_in_pmi[REPORT_LINE_MAX];

/* The report sink: stands for ConOut/SerialIo/the log file. */
static void watch_sink(const char *line, void *ctx)
{
	(void)ctx;
	lines++;
	if (sim_pmi_running() && !lines_in_pmi++)
		snprintf(first_in_pmi, sizeof(first_in_pmi), "%s", line);
	if (!strncmp(line, "MSR: rdmsr 0x38e ", 17))
		trace_status_reads++;
	if (!strncmp(line, "INFO: ", 6) && strstr(line, " held back by the PMI handler until now:"))
		held_back_info++;
	if (!strncmp(line, "INFO: ", 6) && strstr(line, " dropped: the "))
		dropped_info++;
}

static void watch_reset(void)
{
	lines = lines_in_pmi = trace_status_reads = held_back_info = dropped_info = 0;
	first_in_pmi[0] = 0;
	report_reset();
	report_init(watch_sink, NULL);
}

static void run_traced(struct session_cfg *c, struct ts_kargs *ka, struct session_result *res)
{
	char why[200];

	hw_set_msr_trace(true);
	assert_int_equal(session_run(c, ts_kernel, ka, res, why, sizeof(why)), 0);
	hw_set_msr_trace(false);
	report_init(NULL, NULL);
	if (lines_in_pmi)
		print_error("%u report lines while the PMI handler ran, the first: %s\n",
			    lines_in_pmi, first_in_pmi);
	assert_int_equal(lines_in_pmi, 0);
	assert_false(report_deferring());
	assert_int_equal(ts_violations, 0);
}

/* 3200 loads / period 32 = 100 records, a PMI every 4: the handler's lines come afterwards. */
static void test_pmi_lines_held_back(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 4;
	c.period = 32;
	watch_reset();
	run_traced(&c, &ka, &res);
	assert_true(res.pmis >= 20);
	/* Every PMI reads GLOBAL_STATUS at least twice (the loop ends on a read with nothing). */
	assert_true(trace_status_reads >= 2 * res.pmis);
	assert_int_equal(held_back_info, 1);
	assert_int_equal(dropped_info, 0);
	session_result_free(&res);
}

/* More lines than the buffer holds: the rest are counted and the count printed. */
static void test_pmi_lines_dropped_counted(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 20000, .kind = HW_LOAD};

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 1;
	c.period = 32;
	watch_reset();
	run_traced(&c, &ka, &res);
	/* 625 PMIs of several lines each: more than REPORT_DEFER_BYTES */
	assert_true(res.pmis >= 600);
	assert_int_equal(held_back_info, 1);
	assert_int_equal(dropped_info, 1);
	session_result_free(&res);
}

/* The whole-session form: nothing prints until the owner flushes, then everything in order. */
static void test_deferred_session(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 8;
	c.period = 32;
	watch_reset();
	hw_set_msr_trace(true);
	report_defer_begin();
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), 0);
	hw_set_msr_trace(false);
	assert_int_equal(lines, 0); /* the session's own flush waits for the owner */
	assert_int_equal(report_flush_deferred("the test"), 0); /* not while deferring */
	report_defer_end();
	assert_true(report_flush_deferred("the test") > 0);
	assert_true(lines > 0);
	assert_int_equal(lines_in_pmi, 0);
	assert_true(trace_status_reads >= 2 * res.pmis);
	report_init(NULL, NULL);
	session_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pmi_lines_held_back),
	    cmocka_unit_test(test_pmi_lines_dropped_counted),
	    cmocka_unit_test(test_deferred_session),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
