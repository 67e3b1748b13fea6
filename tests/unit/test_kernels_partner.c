// SPDX-License-Identifier: MIT
/*
 * test_kernels_partner.c - the two-CPU kernels' partner from the firmware's
 * topology (kernels/partner.h; the host's: PEBSPROBE_HOST_THREADS and
 * PEBSPROBE_HOST_CORES, numbered by APIC ID as EDK II's MpInitLib does):
 *   - partner_cases: the partner picked, or the SKIP reason, per topology;
 *   - job_cases: share-hitm and false-share on the simulator, where the
 *     threads of a core share L1D and L2 (sim/cache.c, sim/coherence.c):
 *     every measured CPU PASSes with a partner on another core, its verdict
 *     names it, results.json has "partner_cpu"; a machine of one core SKIPs.
 *     With the partner fixed at CPU 1 (the HT sibling of CPU 0), share-hitm
 *     FAILs: no HITM (the old code's choice).
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
#include "app/app.h"
#include "app/options.h"
#include "job/job.h"
#include "kernels/partner.h"
#include "lib/report.h"
#include "lib/platform.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"
#include "test_job_util.h"

static char outdir[] = "/tmp/pebsprobe-partner-XXXXXX";

/* The host's topology: CPUs, threads a core, cores a package (NULL: the default). */
static void topology(const char *cpus, const char *threads, const char *cores)
{
	setenv("PEBSPROBE_HOST_CPUS", cpus, 1);
	if (threads)
		setenv("PEBSPROBE_HOST_THREADS", threads, 1);
	else
		unsetenv("PEBSPROBE_HOST_THREADS");
	if (cores)
		setenv("PEBSPROBE_HOST_CORES", cores, 1);
	else
		unsetenv("PEBSPROBE_HOST_CORES");
}

struct partner_case {
	const char *cpus, *threads, *cores;
	unsigned int measured;
	int partner; /* -1: none, SKIP */
	unsigned int package;
	const char *why; /* in the SKIP reason */
};

/* clang-format off */
static const struct partner_case partner_cases[] = {
	/* cpus threads cores  measured partner pkg  why */
	{"2",  NULL, NULL, 0, 1,  0, NULL},	/* no SMT: each CPU a core */
	{"4",  "2",  "2",  0, 2,  0, NULL},	/* CPU 1 is CPU 0's sibling */
	{"4",  "2",  "2",  1, 2,  0, NULL},
	{"4",  "2",  "2",  2, 0,  0, NULL},
	{"4",  "2",  "2",  3, 0,  0, NULL},
	{"8",  "2",  "2",  4, 6,  1, NULL},	/* two sockets: in the same package */
	{"8",  "2",  "2",  7, 4,  1, NULL},
	{"2",  "2",  "1",  0, -1, 0, "its other CPUs are threads of its core"},
	{"1",  NULL, NULL, 0, -1, 0, "needs 2 CPUs"},
};
/* clang-format on */

static void partner_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(partner_cases); i++) {
		const struct partner_case *t = &partner_cases[i];
		struct partner p;
		char why[160] = "";
		int rc;

		topology(t->cpus, t->threads, t->cores);
		rc = partner_pick(t->measured, &p, why, sizeof(why));
		if (t->partner < 0) {
			if (rc != -1 || !strstr(why, t->why))
				fail_msg("case %zu: rc %d, why '%s' (wanted '%s')", i, rc, why,
					 t->why);
			continue;
		}
		if (rc || p.cpu != (unsigned int)t->partner || !p.known ||
		    p.at.package != t->package || p.at.core == p.own.core)
			fail_msg("case %zu: rc %d, partner %u (wanted %d), package %u, cores %u/%u",
				 i, rc, p.cpu, t->partner, p.at.package, p.at.core, p.own.core);
	}
}

struct job_case {
	const char *name, *cpus, *threads, *cores, *measure;
	const char *expect[4]; /* lines that must be there (prefix|text) */
	const char *json;      /* in results.json */
};

/* clang-format off */
static const struct job_case job_cases[] = {
	{"threads=2", "4", "2", "2", "all",
	 {"PASS: |share-hitm/load@cpu0: HITM", "partner CPU 2 (package 0, core 1, thread 0)",
	  "PASS: |share-hitm/load@cpu1: HITM", "PASS: |false-share/load@cpu3: HITM"},
	 "\"partner_cpu\":2"},
	{"two sockets", "8", "2", "2", "4,7",
	 {"PASS: |share-hitm/load@cpu4: HITM", "partner CPU 6 (package 1, core 1, thread 0)",
	  "PASS: |false-share/load@cpu7: HITM", "partner CPU 4 (package 1, core 0, thread 0)"},
	 "\"partner_package\":1"},
	{"one core", "2", "2", "1", "boot",
	 {"SKIP: |share-hitm/load: no other core in package 0", NULL, NULL, NULL},
	 NULL},
};
/* clang-format on */

static void job_table(void **state)
{
	static char json[1 << 20];
	char path[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(job_cases); i++) {
		const struct job_case *t = &job_cases[i];

		topology(t->cpus, t->threads, t->cores);
		char line[128];

		snprintf(line, sizeof(line), "cpus=%s kernels=share-hitm,false-share", t->measure);
		test_job_machine("skl", NULL);
		test_job_line(line);
		for (size_t e = 0; e < ARRAY_SIZE(t->expect) && t->expect[e]; e++) {
			const char *bar = strchr(t->expect[e], '|');
			char prefix[16] = "";

			if (bar)
				snprintf(prefix, sizeof(prefix), "%.*s", (int)(bar - t->expect[e]),
					 t->expect[e]);
			if (!test_line_find(prefix, bar ? bar + 1 : t->expect[e])) {
				test_lines_dump(stdout);
				fail_msg("%s: no line '%s'", t->name, t->expect[e]);
			}
		}
		if (t->threads && !t->json)
			continue;
		assert_null(test_line_find("FAIL: ", NULL));
		snprintf(path, sizeof(path), "%s/results.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) > 0);
		if (!strstr(json, t->json))
			fail_msg("%s: results.json has no %s", t->name, t->json);
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(partner_table),
	    cmocka_unit_test(job_table),
	};

	if (test_job_begin(outdir, "PARTNER_VERBOSE"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
