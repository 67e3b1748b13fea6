// SPDX-License-Identifier: MIT
/*
 * test_job_mainjob.c - the main job end to end on the host, against the
 * simulated PMU.  Every simulator model has one row below saying what its
 * generation must give: a load and/or store sampling of every kernel (or
 * the PEBS instructions event, "other", where it has neither), Goldmont's
 * non-precise sampling with a forced record, whether the DRAM chase's
 * offcore latency is judged, or no PEBS at all and why.  Every expected
 * verdict line must be there and no FAIL line may be (the two-core kernels
 * run: the host's second "CPU" is a thread).  Records really flow: each
 * PASS line names a record count >= 10, the dump files exist and
 * results.json is whole.  Then cases that must FAIL (test_job_skl.c: the
 * job with a user's options).
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
#include "job/job.h"
#include "decode/dump.h"
#include "app/app.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/session.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"
#include "test_job_util.h"

static char outdir[] = "/tmp/pebsprobe-mainjob-XXXXXX";

/*
 * What a generation's main job must give, one row per simulator model.
 * load, store: the kernels' loads or stores are sampled (else SKIP "<uarch>
 * has no load/store sampling"); other: neither exists, and every kernel is
 * sampled once with the generation's PEBS instructions event instead;
 * nonprecise: Goldmont's CPU_CLK_UNHALTED.CORE_P with one forced record
 * (SDM Vol. 3B 18.7.1); offcore: the DRAM chase's offcore latency is
 * measured and judged (PASS), or SKIPs with the reason (the generation's
 * events are not there), or is not run (no PEBS).  no_pebs: the word every
 * SKIP line gives when PEBS cannot be used at all.
 */
enum offcore_want { OC_NONE, OC_PASS, OC_SKIP };

struct model_row {
	const char *model;
	bool load, store, other, nonprecise;
	enum offcore_want offcore;
	const char *no_pebs;
};

/* clang-format off */
static const struct model_row model_rows[] = {
	/* model      load   store  other  nonpre offcore  no PEBS because */
	{"core2",    false, false, true,  false, OC_SKIP, NULL},
	{"nhm",      true,  false, false, false, OC_SKIP, NULL},
	{"snb",      true,  true,  false, false, OC_PASS, NULL},
	{"hsw",      true,  true,  false, false, OC_PASS, NULL},
	{"skl",      true,  true,  false, false, OC_PASS, NULL},
	{"icx",      true,  true,  false, false, OC_PASS, NULL},
	{"spr",      true,  true,  false, false, OC_PASS, NULL},
	{"adl-p",    true,  true,  false, false, OC_PASS, NULL},
	{"adl-e",    true,  true,  false, false, OC_SKIP, NULL},
	{"glm",      true,  true,  false, true,  OC_PASS, NULL},
	{"slm",      false, false, true,  false, OC_PASS, NULL},
	{"tnt",      true,  true,  false, false, OC_SKIP, NULL},
	{"archpebs", true,  true,  false, false, OC_SKIP, NULL},
	{"gnr",      true,  true,  false, false, OC_PASS, NULL},
	{"srf",      true,  true,  false, false, OC_SKIP, NULL},
	{"cwf",      true,  true,  false, false, OC_SKIP, NULL},
	{"dmr",      true,  true,  false, false, OC_SKIP, NULL},
	/* Hybrid machines, cpus=boot: CPU 0 is a P-core (adl-p, ptl-p, ...). */
	{"adl",      true,  true,  false, false, OC_PASS, NULL},
	{"mtl",      true,  true,  false, false, OC_PASS, NULL},
	{"lnl",      true,  true,  false, false, OC_PASS, NULL},
	{"arl",      true,  true,  false, false, OC_PASS, NULL},
	{"ptl",      true,  true,  false, false, OC_PASS, NULL},
	{"nvl",      true,  true,  false, false, OC_SKIP, NULL},
	{"pebs-off", false, false, false, false, OC_NONE, "IA32_MISC_ENABLE[12] set: PEBS unavailable"},
	{"amd",      false, false, false, false, OC_NONE, "not an Intel CPU"},
};
/* clang-format on */

static const char *const offcore_words[] = {
    [OC_NONE] = "a line, though it must not run, for",
    [OC_PASS] = "no PASS line for",
    [OC_SKIP] = "no SKIP line for",
};

/* Counts a failed expectation of the row, with the line that was wanted. */
static void miss(unsigned int *misses, const struct model_row *row, const char *what,
		 const char *test)
{
	print_error("%s: %s %s\n", row->model, what, test);
	(*misses)++;
}

/* The verdict line one sampling of one kernel must give on this row's generation. */
static void check_sampling(const struct model_row *row, const struct kernel_def *d,
			   const char *sampling, bool has, unsigned int *misses)
{
	char test[64], path[256], why[64];
	const char *pass, *skip;

	snprintf(test, sizeof(test), "%s/%s", d->name, sampling);
	pass = test_job_find("PASS: ", test);
	skip = test_job_find("SKIP: ", test);
	if (row->no_pebs) {
		if (!skip || !strstr(skip, row->no_pebs))
			miss(misses, row, "no SKIP naming why there is no PEBS for", test);
		return;
	}
	if (!has) {
		snprintf(why, sizeof(why), "has no %s sampling", sampling);
		if (!skip || !strstr(skip, why))
			miss(misses, row, "no SKIP 'has no ... sampling' for", test);
		return;
	}
	if (!pass) {
		miss(misses, row, "no PASS line for", test);
		return;
	}
	if (!strstr(pass, "IPs in the kernel"))
		miss(misses, row, "PASS line without the IP check for", test);
	/* Precision: judged (a memory sampling) or n/a (an instructions event). */
	if (!strstr(pass, strcmp(sampling, "other") ? "exact IPs 100.0% >= " : "exact IPs n/a"))
		miss(misses, row, "PASS line without the exact-IP check for", test);
	snprintf(path, sizeof(path), "%s/%s-%s.pebs", outdir, d->name, sampling);
	if (access(path, R_OK))
		miss(misses, row, "no dump file for", test);
}

/* Goldmont: the non-precise event's records and one forced record, judged. */
static void check_nonprecise(const struct model_row *row, const struct kernel_def *d,
			     unsigned int *misses)
{
	char test[64];
	const char *pass, *kinds = NULL;

	snprintf(test, sizeof(test), "%s/nonprecise", d->name);
	pass = test_job_find("PASS: ", test);
	if (!pass || !strstr(pass, "forced records 1 of 1"))
		miss(misses, row, "no PASS with 'forced records 1 of 1' for", test);
	for (unsigned int l = 0; l < test_n_lines; l++)
		if (strstr(test_lines[l], test) && strstr(test_lines[l], "record kinds:"))
			kinds = test_lines[l];
	if (!kinds || !strstr(kinds, "forced 1") || strstr(kinds, "non-precise 0,"))
		miss(misses, row, "no record kinds with non-precise and 1 forced for", test);
}

/*
 * results.json: every measured run says what each property became, and
 * no PASS run rests on one that went unchecked.  A run's object is the
 * text from its "test" key to the next one.
 */
static void check_properties(const struct model_row *row, const char *path, unsigned int *misses)
{
	static char json[1 << 20];
	char *p, *next;
	unsigned int measured = 0;

	if (test_read_file(path, json, sizeof(json)) < 0)
		json[0] = 0;
	for (p = strstr(json, "{\"test\":\""); p; p = next) {
		char name[64];

		next = strstr(p + 1, "{\"test\":\"");
		if (next)
			next[0] = 0;
		sscanf(p + 9, "%63[^\"]", name);
		measured += !!strstr(p, "\"records\":");
		if (strstr(p, "\"records\":") && !strstr(p, "\"properties\":[{\"property\":"))
			miss(misses, row, "results.json: no properties for", name);
		if (strstr(p, "\"records\":") &&
		    (!strstr(p, "\"ip_exact\":") || !strstr(p, "\"skid\":{\"0\":") ||
		     !strstr(p, "\"outside\":")))
			miss(misses, row, "results.json: no ip_exact and skid for", name);
		if (strstr(p, "\"verdict\":\"PASS\"") && strstr(p, "\"state\":\"unchecked\""))
			miss(misses, row, "results.json: a PASS with an unchecked property:", name);
		if (next)
			next[0] = '{';
	}
	if (!measured && !row->no_pebs)
		miss(misses, row, "results.json: no measured run in", path);
}

/*
 * The default job on the boot CPU of one simulated model, with `fault` on
 * CPU 0 unless SIM_FAULT_NONE: the model rows and the skid comparison.
 */
static void run_model(const char *model, enum sim_fault fault)
{
	test_job_machine(model, NULL);
	if (fault != SIM_FAULT_NONE)
		assert_int_equal(sim_set_fault(0, fault, 0), 0);
	test_job_line("cpus=boot");
}

static void run_row(void **state)
{
	const struct model_row *row = *state;
	unsigned int misses = 0;
	char path[256];
	const char *oc;

	test_lines_capture();
	run_model(row->model, SIM_FAULT_NONE);
	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (!strncmp(test_lines[i], "FAIL: ", 6))
			miss(&misses, row, "unexpected", test_lines[i]);
		/* A PASS rests on what was observed: nothing unchecked in it. */
		if (!strncmp(test_lines[i], "PASS: ", 6) && strstr(test_lines[i], "not checked"))
			miss(&misses, row, "a PASS with an unchecked property:", test_lines[i]);
	}
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *d = kernel_at(i);

		if (!d->in_default_job)
			continue;
		if (row->other) {
			check_sampling(row, d, "other", true, &misses);
			continue;
		}
		if (d->samplings & KSAMPLE_LOAD)
			check_sampling(row, d, "load", row->load, &misses);
		if (d->samplings & KSAMPLE_STORE)
			check_sampling(row, d, "store", row->store, &misses);
		if (row->nonprecise)
			check_nonprecise(row, d, &misses);
	}
	/* The DRAM chase's offcore average latency (SDM Vol. 3B 18.6.3). */
	oc = row->offcore == OC_PASS   ? test_job_find("PASS: ", "chase-dram/offcore")
	     : row->offcore == OC_SKIP ? test_job_find("SKIP: ", "chase-dram/offcore")
				       : test_job_find_text("chase-dram/offcore", NULL);
	if (row->offcore == OC_NONE ? oc != NULL : oc == NULL)
		miss(&misses, row, offcore_words[row->offcore], "chase-dram/offcore");
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	if (access(path, R_OK))
		miss(&misses, row, "no file", path);
	else
		check_properties(row, path, &misses);
	if (misses)
		test_lines_dump(stdout);
	assert_int_equal(misses, 0);
}

/* Every simulator model has its row, and every row a model: none is left unchecked. */
static void every_model_has_a_row(void **state)
{
	unsigned int found = 0;

	for (size_t i = 0; i < sim_model_count(); i++) {
		const char *name = sim_model_at(i)->name;
		size_t r;

		for (r = 0; r < ARRAY_SIZE(model_rows); r++)
			if (!strcmp(model_rows[r].model, name))
				break;
		if (r == ARRAY_SIZE(model_rows))
			print_error("simulator model %s has no row in model_rows\n", name);
		else
			found++;
	}
	assert_int_equal(found, sim_model_count());
	assert_int_equal(ARRAY_SIZE(model_rows), sim_model_count());
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

	test_job_machine("skl", NULL);
	test_job_options(&o, &ci, "cpus=boot kernels=chase-l1");
	o.job.size = 32 << 20;
	test_job_run(&o, &ci);
	l1 = test_job_find("FAIL: ", "chase-l1/load");
	assert_non_null(l1);
	assert_non_null(strstr(l1, "L1 hits "));
	printf("# %s\n", l1);

	test_lines_clear();
	report_reset();
	test_option(&o, "kernels=chase-dram");
	o.job.size = 16 << 10;
	test_job_run(&o, &ci);
	/* Below the kernel's minimum size: refused with one line, not run. */
	dram = test_job_find("FAIL: ", "chase-dram");
	assert_non_null(dram);
	assert_non_null(strstr(dram, "below the kernel's minimum"));
	printf("# %s\n", dram);

	test_lines_clear();
	report_reset();
	test_option(&o, "kernels=chase");
	o.job.size = 16 << 10;
	test_job_run(&o, &ci);
	/* The generic chase has no level expectation: only the common checks. */
	assert_non_null(test_job_find("PASS: ", "chase/load"));
}

/* The verdict lines of a run ("PASS: test: ..."), copied. */
struct verdicts {
	unsigned int n;
	char line[256][1024];
};

static void keep_verdicts(struct verdicts *v)
{
	v->n = 0;
	for (unsigned int i = 0; i < test_n_lines && v->n < ARRAY_SIZE(v->line); i++)
		if (!strncmp(test_lines[i], "PASS: ", 6) || !strncmp(test_lines[i], "FAIL: ", 6) ||
		    !strncmp(test_lines[i], "SKIP: ", 6))
			snprintf(v->line[v->n++], sizeof(v->line[0]), "%s", test_lines[i]);
}

/* "PASS: chase-l1/load: ..." -> "chase-l1/load" */
static void test_name(const char *line, char *name, size_t size)
{
	const char *e = strchr(line + 6, ':');
	size_t len = e ? (size_t)(e - line - 6) : strlen(line + 6);

	snprintf(name, size, "%.*s", (int)(len < size ? len : size - 1), line + 6);
}

/*
 * sim-fault=cpu0:skid (every record's IP one instruction late) FAILs the
 * precision of every sampling whose precision was judged, naming the skid,
 * and changes no other verdict: the verdict sets with and without the
 * fault are compared line by line, on one model per kind of record IP
 * (fault-like format 0 with only an instructions event, where precision
 * is n/a; trap-like format 1; eventing IP in formats 3 and 4; arch-PEBS).
 */
static void skid_fails_precision_only(void **state)
{
	static const char *const models[] = {"core2", "nhm", "skl", "icx", "archpebs"};
	static struct verdicts clean, skid;

	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		unsigned int failed = 0, bad = 0;

		for (int f = 0; f < 2; f++) {
			test_lines_clear();
			run_model(models[m], f ? SIM_FAULT_SKID : SIM_FAULT_NONE);
			keep_verdicts(f ? &skid : &clean);
		}
		if (clean.n != skid.n)
			fail_msg("%s: %u verdicts without the fault, %u with it", models[m],
				 clean.n, skid.n);
		for (unsigned int i = 0; i < clean.n; i++) {
			const char *c = clean.line[i], *s = skid.line[i];
			char name_c[64], name_s[64];
			bool judged = !strncmp(c, "PASS: ", 6) && strstr(c, "exact IPs 100.0% >= ");

			test_name(c, name_c, sizeof(name_c));
			test_name(s, name_s, sizeof(name_s));
			if (strcmp(name_c, name_s)) {
				print_error("%s: verdict %u is %s, then %s\n", models[m], i, name_c,
					    name_s);
				bad++;
			} else if (judged) {
				/* FAIL, and for the precision alone: one failed check, the skid
				 * named. */
				const char *d = s + 6 + strlen(name_s) + 2, *semi = strchr(d, ';');

				failed++;
				/*
				 * "; partner CPU 1 (...)" (two-CPU kernels), "; cpu 0 (APIC 0,
				 * ...)": the run's own suffixes, after the checks
				 */
				if (strncmp(s, "FAIL: ", 6) || strncmp(d, "exact IPs ", 10) ||
				    !strstr(d, ": skid ") ||
				    (semi && semi != strstr(d, "; cpu ") &&
				     semi != strstr(d, "; partner CPU "))) {
					print_error("%s: want a FAIL of the precision alone: %s\n",
						    models[m], s);
					bad++;
				}
			} else if (strncmp(c, s, 6)) {
				print_error("%s: changed: %s\n  -> %s\n", models[m], c, s);
				bad++;
			}
		}
		printf("# %s: %u of %u verdicts FAIL precision under skid, e.g. %s\n", models[m],
		       failed, clean.n, failed ? "below" : "none (n/a)");
		for (unsigned int i = 0; i < skid.n && failed; i++)
			if (!strncmp(skid.line[i], "FAIL: ", 6)) {
				printf("# %s\n", skid.line[i]);
				break;
			}
		/* Where precision is judged, the fault breaks it; where n/a, nothing. */
		assert_int_equal(bad, 0);
		assert_true(strcmp(models[m], "core2") ? failed > 0 : failed == 0);
	}
	sim_set_fault(0, SIM_FAULT_NONE, 0);
}

/* The tests beside the model rows, appended after them. */
static const struct CMUnitTest other_tests[] = {
    cmocka_unit_test(every_model_has_a_row),
    cmocka_unit_test(wrong_size_fails),
    cmocka_unit_test(skid_fails_precision_only),
};

int main(void)
{
	size_t n = ARRAY_SIZE(model_rows), total = n + ARRAY_SIZE(other_tests);
	struct CMUnitTest *tests = calloc(total, sizeof(*tests));

	if (!tests)
		return 1;
	/*
	 * Two host CPUs, whatever the machine (the sharing kernels need the
	 * second); each job measures the boot CPU (cpus=boot), test_job_cpus.c
	 * measures several.
	 */
	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	if (test_job_begin(outdir, "MAINJOB_VERBOSE"))
		return 1;
	for (size_t i = 0; i < n; i++) {
		tests[i].name = model_rows[i].model;
		tests[i].test_func = run_row;
		tests[i].initial_state = (void *)&model_rows[i];
	}
	memcpy(tests + n, other_tests, sizeof(other_tests));
	return _cmocka_run_group_tests("job_mainjob", tests, total, NULL, NULL);
}
