// SPDX-License-Identifier: MIT
/*
 * test_lib_status.c - the screen's status header (lib/status.h): every row
 * exactly 80 printable columns whatever the names; the progress and ETA
 * text before the job, at its first, a middle and its last step and after
 * it; the durations; the redraw only when the progress moved or the
 * clock's interval passed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/report.h"
#include "lib/status.h"
#include "test_util.h"

#define S 1000000ULL /* one second in microseconds */

/* Each row: elapsed, steps done of total, the ETA text. */
// clang-format off
static const struct {
	uint64_t elapsed_us;
	uint64_t done, total;
	const char *want;
} etas[] = {
    {0, 0, 14, "ETA --:--"},				/* nothing done: nothing to go by */
    {30 * S, 0, 14, "ETA --:--"},			/* a slow first kernel: still unknown */
    {10 * S, 1, 14, "ETA 2:10"},			/* 13 steps of 10 s */
    {70 * S, 7, 14, "ETA 1:10"},			/* half way */
    {130 * S, 13, 14, "ETA 0:10"},			/* the last step left */
    {140 * S, 14, 14, "ETA 0:00"},			/* all done */
    {3600 * S, 1, 576, "ETA 575:00:00"},		/* hours */
    {0, 0, 0, "ETA 0:00"},				/* kernels=none: no step at all */
    {S, 1, 4294967295ULL * 4294967295ULL, "ETA --:--"}, /* more than the clock can say */
};
// clang-format on

static void eta_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(etas); i++) {
		char got[32];

		status_eta(got, sizeof(got), etas[i].elapsed_us, etas[i].done, etas[i].total);
		if (strcmp(got, etas[i].want))
			fail_msg("%llu us, %llu of %llu: '%s', want '%s'",
				 (unsigned long long)etas[i].elapsed_us,
				 (unsigned long long)etas[i].done,
				 (unsigned long long)etas[i].total, got, etas[i].want);
	}
}

// clang-format off
static const struct {
	uint64_t us;
	const char *want;
} durations[] = {
    {0,           "0:00"},
    {999999,      "0:00"},
    {S,           "0:01"},
    {59 * S,      "0:59"},
    {61 * S,      "1:01"},
    {3599 * S,    "59:59"},
    {3600 * S,    "1:00:00"},
    {86399 * S,   "23:59:59"},
    {360000 * S,  "100:00:00"},
};
// clang-format on

static void duration_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(durations); i++) {
		char got[32];

		status_duration(got, sizeof(got), durations[i].us);
		if (strcmp(got, durations[i].want))
			fail_msg("%llu us: '%s', want '%s'", (unsigned long long)durations[i].us,
				 got, durations[i].want);
	}
}

/* A brand of CPUID's full 48 characters; names longer than any kernel's. */
#define BRAND48 "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz ab"
#define LONG	"a-kernel-name-longer-than-the-row-has-room-for-at-all-really"

enum step { BEFORE, FIRST, MID, LAST, AFTER };

/* Each row: where the job is, then what rows 2 (progress) and 3 (time) must hold. */
// clang-format off
static const struct {
	const char *what;
	enum step step;
	unsigned int cpus, kernels, cpu_n, kernel_k, done;
	const char *core, *kernel, *sampling, *progress, *time;
} layouts[] = {
    {"before the job", BEFORE, 0, 0, 0, 0, 0, NULL, NULL, NULL, " main job not started",
     " elapsed 0:00  ETA --:--   PASS 2  FAIL 1  SKIP 1  ERROR 1"},
    {"0 of N", FIRST, 4, 14, 1, 1, 0, "P-core", "chase-l1", "load",
     " CPU 1 of 4 (cpu 0, P-core)  kernel 1 of 14 chase-l1  sampling load",
     " elapsed 0:20  ETA --:--   PASS 2"},
    {"mid", MID, 4, 14, 3, 8, 35, "E-core", "page-walk", "store",
     " CPU 3 of 4 (cpu 2, E-core)  kernel 8 of 14 page-walk  sampling store",
     " elapsed 0:20  ETA 0:12   PASS 2  FAIL 1  SKIP 1  ERROR 1"},
    {"not hybrid", MID, 1, 3, 1, 2, 1, "none", "chase-l2", "load",
     " CPU 1 of 1 (cpu 0)  kernel 2 of 3 chase-l2  sampling load ",
     " elapsed 0:20  ETA 0:40   PASS 2  FAIL 1  SKIP 1  ERROR 1 "},
    {"last", LAST, 4, 14, 4, 14, 55, "E-core", "acr-reload", "acr",
     " CPU 4 of 4 (cpu 3, E-core)  kernel 14 of 14 acr-reload  sampling acr",
     " elapsed 0:20  ETA 0:00"},
    {"after the job", AFTER, 2, 3, 2, 3, 6, "P-core", "stream-store", NULL,
     " main job done: 2 CPUs, 3 kernels each", " elapsed 0:20  ETA 0:00"},
    {"long names cut at 80", MID, 4294967295u, 4294967295u, 4294967295u, 4294967295u, 1, "E-core",
     LONG, LONG, " CPU 4294967295 of 4294967295 (cpu 4294967294, E-core)  kernel 4294967295 of",
     " elapsed 0:20  ETA "},
};
// clang-format on

static void check_rows(const char *what, char rows[STATUS_ROWS][STATUS_WIDTH + 1])
{
	for (unsigned int r = 0; r < STATUS_ROWS; r++) {
		if (strlen(rows[r]) != STATUS_WIDTH)
			fail_msg("%s: row %u is %zu columns, want %d: '%s'", what, r,
				 strlen(rows[r]), STATUS_WIDTH, rows[r]);
		for (const char *p = rows[r]; *p; p++)
			if (*p < ' ' || *p > '~')
				fail_msg("%s: row %u has byte 0x%02x", what, r, (unsigned char)*p);
	}
}

static void rows_layout(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
		char rows[STATUS_ROWS][STATUS_WIDTH + 1];

		test_lines_capture();
		report_reset();
		report_pass("a");
		report_pass("b");
		report_fail("c", "wrong");
		report_skip("d", "not here");
		report_env_error("e", "no memory");
		status_reset();
		status_machine(BRAND48, "Sapphire Rapids", 5, true);
		if (layouts[i].step != BEFORE) {
			status_job_begin(10 * S, layouts[i].cpus, layouts[i].kernels);
			status_cpu(layouts[i].cpu_n, layouts[i].cpu_n - 1, layouts[i].core,
				   "Sapphire Rapids");
			status_kernel(layouts[i].kernel_k, layouts[i].kernel);
			status_sampling(layouts[i].sampling);
			for (unsigned int d = 0; d < layouts[i].done; d++)
				status_step_done();
		}
		if (layouts[i].step == AFTER)
			status_job_end(30 * S);
		status_rows(layouts[i].step == BEFORE ? 20 * S : 30 * S, rows);
		check_rows(layouts[i].what, rows);
		if (strncmp(rows[0], " " BRAND48, strlen(BRAND48) + 1) ||
		    !strstr(rows[0], "SIMULATED PMU"))
			fail_msg("%s: row 0 '%s'", layouts[i].what, rows[0]);
		if (strncmp(rows[1], " Sapphire Rapids, PMU v5 ", 25))
			fail_msg("%s: row 1 '%s'", layouts[i].what, rows[1]);
		if (strncmp(rows[2], layouts[i].progress, strlen(layouts[i].progress)))
			fail_msg("%s: progress '%s', want '%s'", layouts[i].what, rows[2],
				 layouts[i].progress);
		if (strncmp(rows[3], layouts[i].time, strlen(layouts[i].time)))
			fail_msg("%s: time row '%s', want '%s'", layouts[i].what, rows[3],
				 layouts[i].time);
	}
}

/* No machine known yet, not simulated: no SIMULATED PMU, still 80 columns. */
static void rows_before_the_probe(void **state)
{
	char rows[STATUS_ROWS][STATUS_WIDTH + 1];

	(void)state;
	status_reset();
	status_rows(0, rows);
	check_rows("before the probe", rows);
	assert_null(strstr(rows[0], "SIMULATED"));
	status_machine("Genuine CPU", NULL, 4, false);
	status_rows(0, rows);
	assert_null(strstr(rows[0], "SIMULATED"));
	assert_int_equal(strncmp(rows[1], " unknown uarch, PMU v4 ", 23), 0);
	/* From the job on, the measured CPU's uarch: a hybrid part's E-core. */
	status_job_begin(0, 2, 1);
	status_cpu(2, 1, "E-core", "Gracemont (hybrid E-core)");
	status_rows(0, rows);
	assert_int_equal(strncmp(rows[1], " Gracemont (hybrid E-core), PMU v4 ", 35), 0);
}

/* Made anew when the progress moved, else at most every STATUS_REDRAW_US. */
static void redraw_rate(void **state)
{
	(void)state;
	status_reset();
	assert_true(status_due(1000));
	assert_false(status_due(1000 + STATUS_REDRAW_US - 1));
	assert_true(status_due(1000 + STATUS_REDRAW_US));
	status_kernel(2, "chase-l2");
	assert_true(status_due(1000 + STATUS_REDRAW_US + 1));
	assert_false(status_due(1000 + STATUS_REDRAW_US + 2));
	status_step_done(); /* counts and steps wait for the clock */
	assert_false(status_due(1000 + STATUS_REDRAW_US + 3));
}

/*
 * The last screen at 80x25 and other sizes: a screen keeps the header only
 * where the rows below it hold the longest recap and RESULT, as the
 * screen lays them out (status_line_rows).  The recap is report_result's
 * own, made from many failures and environment errors with names of each
 * width (33 characters: 12 + 33 + 35 made exactly 80 columns, two rows on
 * an 80-column screen).
 */
static void last_screen_holds_the_recap(void **state)
{
	static const struct {
		unsigned int cols, rows;
		bool header; /* whether the screen keeps the header */
	} screens[] = {
	    {80, 25, true},  /* the bench's screen */
	    {100, 31, true}, /* OVMF's graphics console under QEMU */
	    {80, 24, true},  {132, 50, true}, {80, 22, false}, {40, 25, false}, {40, 60, true},
	};
	static const unsigned int name_lens[] = {33, 10, 60, 1};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(screens); i++) {
		bool fits = status_screen_fits(screens[i].cols, screens[i].rows);

		if (fits != screens[i].header)
			fail_msg("%ux%u: header %d, want %d", screens[i].cols, screens[i].rows,
				 fits, screens[i].header);
		if (!fits)
			continue;
		for (size_t n = 0; n < ARRAY_SIZE(name_lens); n++) {
			unsigned int used = 0, first;
			char name[64];

			test_lines_clear();
			report_reset();
			report_set_simulated(true);
			for (unsigned int k = 0; k < 300; k++) {
				snprintf(name, sizeof(name), "%0*u", (int)name_lens[n], k);
				report_fail(name, "wrong");
			}
			for (unsigned int k = 0; k < 40; k++) {
				snprintf(name, sizeof(name), "e%0*u", (int)name_lens[n], k);
				report_env_error(name, "broken");
			}
			first = test_n_lines;
			report_result(1);
			/* Neither kind listed whole: each says how many it left out. */
			if (!test_line_find("RECAP: FAIL ", "results.json") ||
			    !test_line_find("RECAP: ERROR ", "results.json"))
				fail_msg(
				    "%ux%u, names of %u: a recap without its count of the rest",
				    screens[i].cols, screens[i].rows, name_lens[n]);
			for (unsigned int k = first; k < test_n_lines; k++) {
				if (strlen(test_lines[k]) > REPORT_RECAP_WIDTH)
					fail_msg("'%s': over %u columns", test_lines[k],
						 REPORT_RECAP_WIDTH);
				used += status_line_rows(strlen(test_lines[k]), screens[i].cols);
			}
			/* Below the header, the cursor's last row aside. */
			if (used > screens[i].rows - STATUS_ROWS - 1) {
				test_lines_dump(stdout);
				fail_msg(
				    "%ux%u, names of %u: the recap and RESULT take %u rows, %u "
				    "below the header",
				    screens[i].cols, screens[i].rows, name_lens[n], used,
				    screens[i].rows - STATUS_ROWS - 1);
			}
		}
	}
	report_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(eta_text),	   cmocka_unit_test(duration_text),
	    cmocka_unit_test(rows_layout), cmocka_unit_test(rows_before_the_probe),
	    cmocka_unit_test(redraw_rate), cmocka_unit_test(last_screen_holds_the_recap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
