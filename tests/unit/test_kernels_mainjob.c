// SPDX-License-Identifier: MIT
/*
 * test_kernels_mainjob.c - the main job end to end on the host, against the
 * simulated PMU, for every simulator model: every kernel and sampling gets
 * PASS, or SKIP because the generation has no such sampling; never FAIL
 * (the two-core kernels run: the host's second "CPU" is a thread).  Records really flow: each PASS line names a
 * record count >= 10, the dump files exist and results.json is whole.
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

#include "kernels/kernel.h"
#include "kernels/runner.h"
#include "lib/options.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/session.h"
#include "sim/sim.h"

#define MAX_LINES 20000

static char *lines[MAX_LINES];
static unsigned int n_lines;
static char outdir[] = "/tmp/pebsprobe-mainjob-XXXXXX";

static void sink(const char *line, void *ctx)
{
	if (n_lines < MAX_LINES)
		lines[n_lines++] = strdup(line);
	if (getenv("MAINJOB_VERBOSE"))
		printf("%s\n", line);
}

static void clear_lines(void)
{
	for (unsigned int i = 0; i < n_lines; i++)
		free(lines[i]);
	n_lines = 0;
}

static const char *find_line(const char *prefix, const char *test)
{
	char want[128];

	snprintf(want, sizeof(want), "%s%s:", prefix, test);
	for (unsigned int i = 0; i < n_lines; i++)
		if (!strncmp(lines[i], want, strlen(want)))
			return lines[i];
	return NULL;
}

static void run_model(void **state)
{
	const struct sim_model_info *m = *state;
	struct options o;
	struct cpu_info ci;
	unsigned int fails = 0, passes = 0, no_sampling = 0, n_tests = 0;
	char why[256];
	bool usable;
	char path[256];

	clear_lines();
	assert_int_equal(sim_select(m->name), 0);
	hw_install(sim_hw_ops());
	report_reset();
	report_set_simulated(true);
	cpu_probe(&ci);
	options_defaults(&o);
	usable = session_pebs_usable(&ci, why, sizeof(why));
	runner_main_job(&o, &ci);
	for (unsigned int i = 0; i < n_lines; i++)
		if (!strncmp(lines[i], "FAIL: ", 6)) {
			printf("# %s: %s\n", m->name, lines[i]);
			fails++;
		}
	assert_int_equal(fails, 0);
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *d = kernel_at(i);

		if (!d->in_default_job)
			continue;
		for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
			char test[64];
			const char *pass, *skip;

			if (!(d->samplings & s))
				continue;
			snprintf(test, sizeof(test), "%s/%s", d->name, s == KSAMPLE_LOAD ? "load" : "store");
			n_tests++;
			pass = find_line("PASS: ", test);
			skip = find_line("SKIP: ", test);
			if (!pass && !skip)
				printf("# %s: no verdict line for %s\n", m->name, test);
			assert_true(pass || skip);
			if (skip) {
				/* Only what the generation explains: no such sampling on it. */
				bool explained = strstr(skip, " has no load sampling") ||
						 strstr(skip, " has no store sampling") ||
						 (!usable && strstr(skip, why));

				printf("# %s: %s\n", m->name, skip);
				assert_true(explained);
				no_sampling += usable;
				continue;
			}
			passes++;
			snprintf(path, sizeof(path), "%s/%s-%s.pebs", outdir, d->name,
				 s == KSAMPLE_LOAD ? "load" : "store");
			assert_int_equal(access(path, R_OK), 0);
		}
	}
	/*
	 * A model with PEBS must have run something, unless it has no load or
	 * store sampling at all (Silvermont); one without PEBS, nothing.
	 */
	if (usable)
		assert_true(passes > 0 || (no_sampling > 0 && no_sampling == n_tests));
	else
		assert_int_equal(passes, 0);
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	assert_int_equal(access(path, R_OK), 0);
}

/*
 * The verdicts are not a rubber stamp: the same kernels, run where they
 * cannot show what their table says (the L1 chase over 32 MiB, the DRAM
 * chase over 16 KiB), FAIL with the numbers.
 */
static void wrong_size_fails(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l1, *dram;

	clear_lines();
	assert_int_equal(sim_select("skl"), 0);
	hw_install(sim_hw_ops());
	report_reset();
	report_set_simulated(true);
	cpu_probe(&ci);
	options_defaults(&o);
	strcpy(o.kernels, "chase-l1");
	o.size = 32 << 20;
	runner_main_job(&o, &ci);
	l1 = find_line("FAIL: ", "chase-l1/load");
	assert_non_null(l1);
	assert_non_null(strstr(l1, "L1 hits "));
	printf("# %s\n", l1);

	clear_lines();
	report_reset();
	strcpy(o.kernels, "chase-dram");
	o.size = 16 << 10;
	runner_main_job(&o, &ci);
	/* Below the kernel's minimum size: refused with one line, not run. */
	dram = find_line("FAIL: ", "chase-dram");
	assert_non_null(dram);
	assert_non_null(strstr(dram, "below the kernel's minimum"));
	printf("# %s\n", dram);

	clear_lines();
	report_reset();
	strcpy(o.kernels, "chase");
	o.size = 16 << 10;
	runner_main_job(&o, &ci);
	/* The generic chase has no level expectation: only the common checks. */
	assert_non_null(find_line("PASS: ", "chase/load"));

	clear_lines();
	report_reset();
	strcpy(o.kernels, "chase-l1,nosuch");
	runner_main_job(&o, &ci);
	assert_non_null(find_line("FAIL: ", "kernels"));
	assert_non_null(strstr(find_line("FAIL: ", "kernels"), "unknown kernel 'nosuch'"));
}

int main(void)
{
	size_t n = sim_model_count();
	struct CMUnitTest *tests = calloc(n + 1, sizeof(*tests));

	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	report_init(sink, NULL);
	for (size_t i = 0; i < n; i++) {
		tests[i].name = sim_model_at(i)->name;
		tests[i].test_func = run_model;
		tests[i].initial_state = (void *)sim_model_at(i);
	}
	tests[n].name = "wrong_size_fails";
	tests[n].test_func = wrong_size_fails;
	return _cmocka_run_group_tests("kernels_mainjob", tests, n + 1, NULL, NULL);
}
