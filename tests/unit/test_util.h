/* SPDX-License-Identifier: MIT */
/*
 * test_util.h - what several host tests need alike, in one place:
 *
 *   test_cpu_intel()      a struct cpu_info as cpu_probe() fills it for an
 *                         Intel family 6 part with PEBS (DS, DTES64, PDCM,
 *                         MISC_ENABLE readable, PERF_CAPABILITIES with the
 *                         given PEBS format), for tests of pmu/ that need no
 *                         backend;
 *   test_lines_capture()  the report lines (lib/report.h) kept in memory, and
 *   test_line_find()      ways to look them up;
 *   test_read_file()      a file the run wrote (results.json, a dump), whole.
 *
 * Header-only: every tests/unit/test_*.c is its own program.
 */
#ifndef PP_TEST_UTIL_H
#define PP_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/session.h"

static inline struct cpu_info test_cpu_intel(uint32_t model, unsigned int fmt, bool baseline,
					     unsigned int n_gp, unsigned int version)
{
	struct cpu_info ci;

	memset(&ci, 0, sizeof(ci));
	ci.vendor = VENDOR_INTEL;
	memcpy(ci.vendor_str, "GenuineIntel", 13);
	ci.family = 6;
	ci.model = model;
	/* 06_2A: stepping 7, the one Linux's pebs_ucodes lists (pmu/errata.c snb-stepping). */
	ci.stepping = model == 0x2a ? 7 : 1;
	ci.ds = ci.dtes64 = ci.pdcm = true;
	ci.pmu_version = version;
	ci.n_gp = n_gp;
	ci.gp_width = 48;
	ci.n_fixed = 3;
	ci.fixed_width = 48;
	ci.has_misc_enable = true;
	ci.misc_enable = MISC_ENABLE_PERFMON;
	ci.has_perf_caps = true;
	ci.perf_caps = ((uint64_t)fmt << 8) | (baseline ? PERF_CAP_PEBS_BASELINE : 0);
	ci.has_microcode = true;
	ci.microcode = 0x100;
	return ci;
}

/* --- report lines ----------------------------------------------------------- */

#define TEST_LINES_MAX 20000

static char *test_lines[TEST_LINES_MAX] __attribute__((unused));
static unsigned int test_n_lines __attribute__((unused));
/* Also print each line (a test's verbose mode). */
static bool test_lines_echo __attribute__((unused));

static inline void test_lines_sink(const char *line, void *ctx)
{
	(void)ctx;
	if (test_n_lines < TEST_LINES_MAX)
		test_lines[test_n_lines++] = strdup(line);
	if (test_lines_echo)
		printf("%s\n", line);
}

static inline void test_lines_clear(void)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		free(test_lines[i]);
	test_n_lines = 0;
}

/* Forgets the lines so far and sends every report line here from now on. */
static inline void test_lines_capture(void)
{
	test_lines_clear();
	report_init(test_lines_sink, NULL);
}

/* The first line starting with prefix and containing text (NULL: any), or NULL. */
static inline const char *test_line_find(const char *prefix, const char *text)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (!strncmp(test_lines[i], prefix, strlen(prefix)) &&
		    (!text || strstr(test_lines[i], text)))
			return test_lines[i];
	return NULL;
}

static inline unsigned int test_line_count(const char *prefix)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < test_n_lines; i++)
		n += !strncmp(test_lines[i], prefix, strlen(prefix));
	return n;
}

/*
 * The #GP sweep: one clean session_run() counts the MSR accesses, then one
 * run per access with a #GP injected there must end in SESSION_FAULT.
 * before() resets what the test compares (and hw_reset_msr_access_count()),
 * after() checks that everything was restored; name and the access number
 * go into the failure message.
 */
struct test_sweep {
	const char *name;
	const struct session_cfg *cfg;
	void (*kernel)(void *arg);
	void *arg;
	void (*before)(void);
	void (*after)(const char *name, unsigned long n);
};

static inline void test_fault_sweep(const struct test_sweep *t)
{
	struct session_result res;
	char why[200];
	unsigned long n, total;
	int r;

	t->before();
	assert_int_equal(session_run(t->cfg, t->kernel, t->arg, &res, why, sizeof(why)), 0);
	session_result_free(&res);
	total = hw_msr_access_count();
	assert_true(total > 10);
	for (n = 1; n <= total; n++) {
		t->before();
		hw_inject_fault_at(n);
		r = session_run(t->cfg, t->kernel, t->arg, &res, why, sizeof(why));
		hw_inject_fault_at(0);
		if (r != SESSION_FAULT)
			fail_msg("%s: #GP at access %lu of %lu: session returned %d (%s)", t->name,
				 n, total, r, why);
		assert_non_null(strstr(why, "#GP"));
		session_result_free(&res);
		t->after(t->name, n);
	}
}

/*
 * A run refused before it measured anything: one ERROR line, naming want,
 * and no kernel run.  what names the case in the failure message.
 */
static inline void test_refused_lines(const char *what, const char *want)
{
	if (!test_line_find("ERROR: ", want))
		fail_msg("%s: no ERROR line with '%s' (first: %s)", what, want,
			 test_line_find("ERROR: ", NULL) ? test_line_find("ERROR: ", NULL)
							 : "none");
	assert_int_equal(test_line_count("ERROR: "), 1);
	assert_null(test_line_find("INFO: kernel ", NULL));
}

/*
 * The file at path whole in buf, NUL-terminated; its length, or -1 when it
 * cannot be opened.  A file larger than buf fails the test: checks on a cut
 * copy would pass or fail on what they never saw.
 */
static inline long test_read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	if (n == size - 1 && fgetc(f) != EOF)
		fail_msg("%s: larger than the test's %zu-byte buffer", path, size - 1);
	fclose(f);
	buf[n] = 0;
	return (long)n;
}

/* Prints every line captured, for a failure message. */
static inline void test_lines_dump(FILE *f)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		fprintf(f, "  %s\n", test_lines[i]);
}

/*
 * The main job as the app runs it, then the run's ending: results.json
 * is written at the end of every run (app_finish), not by the job.
 */
#ifdef PP_APP_H
static inline int test_job_run(const struct options *o, const struct cpu_info *ci)
{
	job_main(&o->job, ci);
	return app_finish(o, o->job.results, report_exit_status());
}
#endif

#endif
