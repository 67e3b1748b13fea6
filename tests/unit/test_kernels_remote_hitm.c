// SPDX-License-Identifier: MIT
/*
 * test_kernels_remote_hitm.c - share-hitm and false-share where the
 * measured CPU's package has no other core and another package has a CPU
 * (kernels/partner.h; the host's topology: PEBSPROBE_HOST_THREADS and
 * PEBSPROBE_HOST_CORES, two packages of one core each):
 *   - the partner is the lowest CPU of the other package, named with its
 *     package in the verdict and results.json;
 *   - the simulator gives the load the model's remote-HITM data source
 *     (sim/record.c), the decoder reads it as remote (mem_remote, snoop
 *     HitM), and the verdict judges remote HITMs and says so: per model, a
 *     table of what each data-source table can say (decode/datasrc.c
 *     pebs_dsrc_remote_hitm); Lion Cove's has no remote row, so any HITM
 *     counts there and the verdict says why.
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
#include "decode/decode.h"
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

static char outdir[] = "/tmp/pebsprobe-rhitm-XXXXXX";

/* Two packages: CPUs, threads a core, cores a package. */
static void two_packages(const char *cpus, const char *threads)
{
	setenv("PEBSPROBE_HOST_CPUS", cpus, 1);
	setenv("PEBSPROBE_HOST_THREADS", threads, 1);
	setenv("PEBSPROBE_HOST_CORES", "1", 1);
}

struct pick_case {
	const char *cpus, *threads;
	unsigned int measured, partner, package;
};

/* clang-format off */
static const struct pick_case pick_cases[] = {
	/* cpus threads measured partner its-package */
	{"2", "1", 0, 1, 1},	/* one core a package */
	{"2", "1", 1, 0, 0},
	{"4", "2", 0, 2, 1},	/* CPU 1 is CPU 0's sibling: the other package */
	{"4", "2", 3, 0, 0},
};
/* clang-format on */

static void pick_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(pick_cases); i++) {
		const struct pick_case *t = &pick_cases[i];
		struct partner p;
		char why[160] = "";
		int rc;

		two_packages(t->cpus, t->threads);
		rc = partner_pick(t->measured, &p, why, sizeof(why));
		if (rc || p.cpu != t->partner || !p.known || p.at.package != t->package ||
		    !partner_remote(&p))
			fail_msg("case %zu: rc %d (%s), partner %u (wanted %u), package %u, "
				 "remote %d",
				 i, rc, why, p.cpu, t->partner, p.at.package, partner_remote(&p));
	}
}

struct model_case {
	const char *model, *measure;
	enum pebs_dsrc dsrc; /* the decoder of the measured CPU's generation */
	const char *what;    /* the verdict's words for the HITM row */
	const char *source;  /* the decoder's data-source line (perf's words of the ds.c row) */
};

/* clang-format off */
static const struct model_case model_cases[] = {
	/* model   measured dsrc      verdict                            data source: ds.c row */
	{"hsw",   "all",  DSRC_SNB, "remote HITM",
	 "LOAD Remote Cache (1 hop) hit, snoop HitM"},		/* pebs_data_source[0x09] */
	{"skl",   "all",  DSRC_SKL, "remote HITM",
	 "LOAD Remote Any cache hit, snoop HitM"},		/* _skl [0x0d] */
	{"spr",   "all",  DSRC_SPR, "remote HITM",
	 "LOAD Remote Any cache hit, snoop HitM"},		/* _skl(true) [0x0d] */
	{"adl-e", "all",  DSRC_GRT, "remote HITM",
	 "LOAD Remote Cache (1 hop) hit, snoop HitM"},		/* _grt keeps [0x09] */
	{"srf",   "all",  DSRC_CMT, "remote HITM",
	 "LOAD Remote RAM hit, snoop HitM"},			/* _cmt [0x0d] */
	{"dmr",   "all",  DSRC_PNC, "remote HITM",
	 "LOAD L3 or Remote Cache (1 hop) hit, snoop HitM"},	/* OMR 3, remote, hitm */
	{"lnl",   "boot", DSRC_LNC, "HITM (no remote-HITM encoding",
	 "LOAD L3 hit, snoop HitM"},				/* lnc: [0x0d], no remote row */
};
/* clang-format on */

static void run_job(const char *model, const char *measure)
{
	char line[256];

	test_job_machine(model, NULL);
	snprintf(line, sizeof(line), "cpus=%s kernels=share-hitm,false-share", measure);
	test_job_line(line);
}

/*
 * Every verdict line of both kernels on cpu: a PASS whose text starts with
 * what (one CPU measured: its name has no "@cpuN").
 */
static void expect_pass(const struct model_case *t, unsigned int cpu)
{
	static const char *const kernels[] = {"share-hitm", "false-share"};
	char want[160], at[16] = "";

	if (!strcmp(t->measure, "all"))
		snprintf(at, sizeof(at), "@cpu%u", cpu);
	for (size_t i = 0; i < ARRAY_SIZE(kernels); i++) {
		snprintf(want, sizeof(want), "%s/load%s: %s", kernels[i], at, t->what);
		if (!test_line_find("PASS: ", want)) {
			test_lines_dump(stdout);
			fail_msg("%s: no PASS line '%s'", t->model, want);
		}
	}
	snprintf(want, sizeof(want), "partner CPU %u (package %u, core 0, thread 0)", !cpu, !cpu);
	if (!test_line_find("", want))
		fail_msg("%s: no '%s'", t->model, want);
}

static void model_table(void **state)
{
	static char json[1 << 20];
	char path[256];

	(void)state;
	two_packages("2", "1");
	for (size_t i = 0; i < ARRAY_SIZE(model_cases); i++) {
		const struct model_case *t = &model_cases[i];
		bool has = pebs_dsrc_remote_hitm(t->dsrc);

		/* The words follow from the decoder's table, not from the case alone. */
		if (has != !strcmp(t->what, "remote HITM"))
			fail_msg("%s: %s has %sa remote-HITM row", t->model,
				 pebs_dsrc_name(t->dsrc), has ? "" : "no ");
		run_job(t->model, t->measure);
		expect_pass(t, 0);
		if (!strcmp(t->measure, "all"))
			expect_pass(t, 1);
		if (!test_line_find("INFO: ", t->source))
			fail_msg("%s: no data source '%s'", t->model, t->source);
		assert_null(test_line_find("FAIL: ", NULL));
		snprintf(path, sizeof(path), "%s/results.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) > 0);
		if (!strstr(json, "\"partner_cpu\":1,\"partner_package\":1"))
			fail_msg("%s: results.json names no partner in package 1", t->model);
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(pick_table),
	    cmocka_unit_test(model_table),
	};

	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	test_lines_echo = getenv("RHITM_VERBOSE") != NULL;
	test_lines_capture();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
