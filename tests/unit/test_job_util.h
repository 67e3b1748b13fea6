/* SPDX-License-Identifier: MIT */
/*
 * test_job_util.h - the set-up of the tests that run the whole job on the
 * simulator (test_job_mainjob.c, test_job_skl.c, test_job_cpus.c,
 * test_kernels_partner.c): an output folder, a simulated machine installed
 * with the report reset, the job run from an option line as a user gives
 * it, and its verdict lines looked up by test name.  Header-only: the
 * report lines it reads are test_util.h's, one copy per test program.
 */
#ifndef TEST_JOB_UTIL_H
#define TEST_JOB_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/app.h"
#include "app/options.h"
#include "job/job.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"

/*
 * The job's output folder made from tmpl (mkdtemp: tmpl becomes its name)
 * and the report lines kept, each also printed where getenv(verbose) is
 * set.  0, or -1 where the folder could not be made.
 */
static inline int test_job_begin(char *tmpl, const char *verbose)
{
	if (!mkdtemp(tmpl))
		return -1;
	setenv("PEBSPROBE_OUT", tmpl, 1);
	test_lines_echo = verbose && getenv(verbose) != NULL;
	test_lines_capture();
	return 0;
}

/* The simulator's `model` installed (ops NULL: sim_hw_ops()), the report reset and emptied. */
static inline void test_job_machine(const char *model, const struct hw_ops *ops)
{
	test_lines_clear();
	assert_int_equal(sim_select(model), 0);
	hw_install(ops ? ops : sim_hw_ops());
	report_reset();
	report_set_simulated(true);
}

/* test_job_machine() on ncpus host CPUs (PEBSPROBE_HOST_CPUS). */
static inline void test_job_machine_n(const char *model, const char *ncpus)
{
	setenv("PEBSPROBE_HOST_CPUS", ncpus, 1);
	test_job_machine(model, NULL);
}

/* The installed machine probed into ci; o the defaults with `line` on top. */
static inline void test_job_options(struct options *o, struct cpu_info *ci, const char *line)
{
	cpu_probe(ci);
	options_defaults(o);
	test_option(o, line);
}

/* The job of `line` on the installed machine, results written: the app's exit status. */
static inline int test_job_line(const char *line)
{
	struct options o;
	struct cpu_info ci;

	test_job_options(&o, &ci, line);
	return test_job_run(&o, &ci);
}

/* job_main() alone (no results written) with kernels= and cpus= on the installed machine. */
static inline void test_job_kernels_on(const char *kernels, const char *cpus)
{
	struct options o;
	struct cpu_info ci;
	char line[256];

	snprintf(line, sizeof(line), "kernels=%s cpus=%s", kernels, cpus);
	test_job_options(&o, &ci, line);
	job_main(&o.job, &ci);
}

/*
 * The line "<prefix><test>: ..." (e.g. "PASS: chase-l1/load: ..."), or NULL.
 * Not inlined: a caller that prints the line after assert_non_null() would
 * otherwise see the NULL path (-Wformat-overflow in the sanitizer build).
 */
static __attribute__((noinline, unused)) const char *test_job_find(const char *prefix,
								   const char *test)
{
	char want[128];
	size_t n;

	/* "name:", or "name@cpuN:" when the job measured several CPUs */
	n = (size_t)snprintf(want, sizeof(want), "%s%s", prefix, test);
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (!strncmp(test_lines[i], want, n) &&
		    (test_lines[i][n] == ':' || !strncmp(test_lines[i] + n, "@cpu", 4)))
			return test_lines[i];
	return NULL;
}

/* A line holding both texts (b NULL: a alone), or NULL; not inlined, as test_job_find(). */
static __attribute__((noinline, unused)) const char *test_job_find_text(const char *a,
									const char *b)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (strstr(test_lines[i], a) && (!b || strstr(test_lines[i], b)))
			return test_lines[i];
	return NULL;
}

#endif
