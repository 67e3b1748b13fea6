// SPDX-License-Identifier: MIT
/*
 * options_contract.c - the contract of the option fuzz targets
 * (options_contract.h), in the order efi/main.c and app/app.c apply the
 * options: the parse, app_select() (options_check and the backend choice),
 * what use_sim() takes of sim-fault= and job_main of cpus=, and, on the simulator,
 * job_check() against the probed CPU as app_run() calls it before the job.
 */
#include <stdio.h>
#include <stdlib.h>

#include "options_contract.h"
#include "app/app.h"
#include "lib/platform.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/cpu_pebs.h"
#include "pmu/hw.h"
#include "pmu/session.h"

static void quiet(const char *line, void *ctx)
{
	(void)line;
	(void)ctx;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* plat_cpu_count() bounds cpus= and sim-fault=: the same on every machine. */
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	report_init(quiet, NULL);
	return 0;
}

struct options *contract_fresh(void)
{
	static struct options o;

	options_defaults(&o);
	return &o;
}

/* The contract's own failure: what broke, then abort() for libFuzzer. */
static void broken(const char *what, const char *detail)
{
	fprintf(stderr, "options contract broken: %s: '%s'\n", what, detail);
	abort();
}

/* A refusal is one line of printable ASCII that fits the report's line. */
static void one_line(const char *err)
{
	size_t n = strlen(err);

	if (!n)
		broken("refused without a reason", err);
	if (n + sizeof("ERROR: ") > REPORT_LINE_MAX)
		broken("ERROR line longer than a report line", err);
	for (size_t i = 0; i < n; i++)
		if (err[i] < 0x20 || err[i] > 0x7e)
			broken("ERROR line is not one line of printable ASCII", err);
}

/* What the rest of the app takes of accepted options without checking again. */
static void accepted(struct options *o)
{
	static char text[OPTIONS_TEXT_MAX], again[OPTIONS_TEXT_MAX];
	static struct options back;
	char err[REPORT_LINE_MAX];

	/* app.c use_sim(): every sim-fault= item names a CPU of the machine. */
	for (unsigned int i = 0; i < o->faults.n; i++)
		if (o->faults.item[i].cpu >= plat_cpu_count())
			broken("sim-fault= CPU past the last", o->given.sim_fault);
	/* job_main: cpus= chose a CPU of the machine. */
	if (o->job.cpus.how == JOB_CPUS_LIST && !o->job.cpus.word[0])
		for (unsigned int w = 1; w < JOB_CPUS_MAX / 64; w++)
			if (o->job.cpus.word[w])
				broken("cpus= CPU past the last", o->given.cpus);

	/* results.json's "options" names every option in effect: read back, the same. */
	options_format(o, text, sizeof(text));
	options_defaults(&back);
	if (options_parse_line(&back, text, false, err, sizeof(err)))
		broken(err, text);
	options_format(&back, again, sizeof(again));
	if (strcmp(text, again))
		broken("options text does not read back the same", again);
}

void contract_options(struct options *o, int rc, const char *err)
{
	char why[REPORT_LINE_MAX], e[REPORT_LINE_MAX];
	struct cpu_info ci;

	if (rc) {
		if (rc != -1)
			broken("parse returned neither 0 nor -1", err);
		one_line(err);
		return;
	}
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	e[0] = 0;
	if (app_select(o, NULL, e, sizeof(e))) {
		one_line(e);
		return;
	}
	accepted(o);
	/* app_run(): model=list lists; on the simulator the job's options meet the CPU. */
	if (!strcmp(o->model, "list") || !hw_is_simulated() || o->report_only)
		return;
	cpu_probe(&ci);
	if (pmu_pebs_usable(&ci, why, sizeof(why)) && job_check(&o->job, &ci, e, sizeof(e)))
		one_line(e);
}
