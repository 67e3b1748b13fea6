// SPDX-License-Identifier: MIT
/*
 * test_job_cpus_console.c - what a job on several CPUs prints (host: a
 * thread per CPU, PEBSPROBE_HOST_CPUS of them), with the console and the
 * log file apart (efi/console.c): one console line per test naming the
 * CPUs of its FAIL, the figures of the full verdict, briefs cut between
 * words, and the blame on the CPU whose PMU was wrong (sim-fault=
 * cpuN:wrong-latency).  test_job_cpus.c has the measurements per CPU.
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
#include "lib/cpuset.h"
#include "job/results.h"
#include "lib/report.h"
#include "lib/ap_refusal.h"
#include "lib/platform.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"
#include "test_job_util.h"

static char outdir[] = "/tmp/pebsprobe-cpus-console-XXXXXX";

/* The log file's side of console_per_kernel: the per-CPU verdict lines. */
static unsigned int log_per_cpu;

static void agg_log_sink(const char *line, void *ctx)
{
	(void)ctx;
	log_per_cpu +=
	    strstr(line, "@cpu") && (!strncmp(line, "PASS: ", 6) || !strncmp(line, "FAIL: ", 6) ||
				     !strncmp(line, "SKIP: ", 6));
}

/*
 * MODEL on four CPUs with cpu 2's latencies wrong (sim-fault wrong-latency):
 * KERNELS run on every CPU, the console lines kept as test lines and the
 * log file's through agg_log_sink.
 */
static void run_cpu2_wrong(const char *model, const char *kernels)
{
	enum sim_fault f;

	test_job_machine_n(model, "4");
	assert_int_equal(sim_fault_parse("wrong-latency", &f), 0);
	assert_int_equal(sim_set_fault(2, f, 0), 0);
	report_init_routes(test_lines_sink, agg_log_sink, NULL);
	test_job_kernels_on(kernels, "all");
	report_init_routes(NULL, NULL, NULL);
	sim_set_fault(2, SIM_FAULT_NONE, 0);
}

/*
 * With the console and the log file apart (efi/console.c), a job on four
 * CPUs: the console has one line per test naming the CPU of its FAIL, no
 * per-CPU verdict; the log file has every CPU's verdict.
 */
static void console_per_kernel(void **state)
{
	unsigned int per_cpu = 0;

	(void)state;
	log_per_cpu = 0;
	run_cpu2_wrong("ptl", "chase-l1,seq-load");
	for (unsigned int i = 0; i < test_n_lines; i++)
		per_cpu += !!strstr(test_lines[i], "@cpu");
	/* Every CPU passed: no list of them; one did not: each verdict's CPUs. */
	if (per_cpu || test_line_count("PASS: chase-l1/load: 4 CPUs: L1 hits ") != 1 ||
	    test_line_count("FAIL: chase-l1/calibration: 4 CPUs: FAIL 2: PEBS/clock ") != 1 ||
	    !test_line_find("FAIL: chase-l1/calibration: 4 CPUs: FAIL 2: ", "; PASS 0,1,3") ||
	    test_line_count("PASS: seq-load/load: 4 CPUs: addresses on the stride ") != 1) {
		test_lines_dump(stdout);
		fail_msg("not one console line per test naming the failing CPU");
	}
	/* chase-l1/load, chase-l1/calibration, seq-load/load on each of 4 CPUs */
	assert_int_equal(log_per_cpu, 12);
}

/* The number after `words` in a full verdict's reason ("L1 hits 97.5%": 975 per mille). */
static bool why_number(const char *why, const char *words, unsigned int *x10)
{
	const char *p = strstr(why, words);
	unsigned int whole, tenth = 0;

	if (!p || sscanf(p + strlen(words), " %u.%u", &whole, &tenth) < 1)
		return false;
	*x10 = whole * 10 + tenth % 10;
	return true;
}

static unsigned int wrapped_pieces;

static void count_piece(const char *piece, void *ctx)
{
	(void)piece;
	(void)ctx;
	wrapped_pieces++;
}

/*
 * The console's line per test carries the range over the CPUs of the
 * figure each CPU's brief shows, per core type on a hybrid part, within
 * two 80-column lines: the range is worked out here from the log file's
 * full per-CPU verdicts ("L1 hits 100.0% >= ...").  ptl's cpu 2 with
 * wrong-latency: the E-cores' median spans the broken latency, the
 * P-cores' does not.
 */
static void console_figures(void **state)
{
	static const struct {
		const char *test, *words, *unit;
	} rows[] = {
	    {"chase-l1/load", "L1 hits", "%"},
	    {"seq-load/load", "addresses on the stride", "%"},
	    {"chase-dram/load", "RAM", "%"},
	};
	const char *line;

	(void)state;
	run_cpu2_wrong("ptl", "chase-l1,seq-load,chase-dram");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int lo = ~0u, hi = 0, v, cpus = 0;
		char head[64], want[96], a[16], b[16];

		for (unsigned int k = 0; k < report_log_count(); k++) {
			const struct report_entry *e = report_log_at(k);

			if (strncmp(e->name, rows[i].test, strlen(rows[i].test)) ||
			    strncmp(e->name + strlen(rows[i].test), "@cpu", 4) ||
			    !why_number(e->why, rows[i].words, &v))
				continue;
			cpus++;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (cpus != 4)
			fail_msg("%s: %u CPUs' verdicts name %s", rows[i].test, cpus,
				 rows[i].words);
		snprintf(a, sizeof(a), lo % 10 ? "%u.%u" : "%u", lo / 10, lo % 10);
		snprintf(b, sizeof(b), hi % 10 ? "%u.%u" : "%u", hi / 10, hi % 10);
		if (lo == hi)
			snprintf(want, sizeof(want), ": %s %s%s", rows[i].words, a, rows[i].unit);
		else
			snprintf(want, sizeof(want), ": %s %s-%s%s", rows[i].words, a, b,
				 rows[i].unit);
		snprintf(head, sizeof(head), "PASS: %s: 4 CPUs", rows[i].test);
		line = test_line_find(head, want);
		if (!line) {
			test_lines_dump(stdout);
			fail_msg("%s: no console line with '%s'", rows[i].test, want);
		}
		wrapped_pieces = 0;
		report_wrap(line, REPORT_WIDTH, count_piece, NULL);
		if (wrapped_pieces > 2)
			fail_msg("'%s': %u lines of 80 columns", line, wrapped_pieces);
	}
	/* Hybrid: each core type's median; the broken latency on the E-cores' only. */
	line = test_line_find("PASS: chase-l1/load: 4 CPUs: ", ", median ");
	if (!line || !strstr(line, " cy (P) / ") || !strstr(line, " cy (E)") ||
	    !strstr(strstr(line, " cy (P) / "), "-10"))
		fail_msg("no per-core-type median with cpu 2's broken latency on E: %s",
			 line ? line : "(none)");
}

/*
 * A console brief too long for two lines is cut between words, never
 * inside a test name ("... which is odd: chase-l1/loa..."): the text
 * before "..." is the full reason's start up to a space.  The two E-cores
 * of adl that disagree give the longest cpu-compare reason.
 */
static void brief_cut_between_words(void **state)
{
	const struct report_entry *e = NULL;
	const char *line, *dots;
	size_t kept;

	(void)state;
	run_cpu2_wrong("adl", "chase-l1");
	for (unsigned int k = 0; k < report_log_count(); k++)
		if (!strcmp(report_log_at(k)->name, "cpu-compare"))
			e = report_log_at(k);
	line = test_line_find("FAIL: cpu-compare: ", NULL);
	if (!e || !line || !(dots = strstr(line, "...")))
		fail_msg("no cut cpu-compare brief: %s", line ? line : "(none)");
	kept = (size_t)(dots - (line + strlen("FAIL: cpu-compare: ")));
	if (strncmp(e->why, line + strlen("FAIL: cpu-compare: "), kept) ||
	    !strchr(" ,:;", e->why[kept]))
		fail_msg("brief '%s' cut inside a word of '%s'", line, e->why);
}

/*
 * The right CPU blamed in results.json: the cpu-compare verdict names the
 * odd CPU (its run object and the verdict list, not the boot CPU that
 * printed it) and what it was compared with; with two CPUs of a type and
 * no majority, one FAIL names both; cpus_tested[].uarch is each CPU's own.
 */
static void blames_the_right_cpu(void **state)
{
	static const struct {
		const char *model, *ncpus;
		unsigned int bad;
		const char *line; /* in the one cpu-compare FAIL line */
		const char *run;  /* in results.json: the compare run */
		const char *cpu2; /* in results.json: CPU 2's cpus_tested object */
	} rows[] = {
	    {"skl", "3", 2, "cpu 2 (APIC 2, none) differs from cpu 1 of its core type",
	     "\"cpu\":2,\"apic_id\":2,\"core_type\":\"none\",\"differs_in\":\"chase-l1/load\","
	     "\"compared_with\":[0,1]",
	     "{\"cpu\":2,\"apic_id\":2,\"core_type\":\"none\",\"uarch\":\"Skylake\""},
	    {"adl", "4", 2,
	     "cpu 2 (APIC 2) and cpu 3 (APIC 3), the only E-core CPUs of their type, disagree",
	     "\"cpu\":2,\"apic_id\":2,\"core_type\":\"E-core\",\"differs_in\":\"chase-l1/load\","
	     "\"compared_with\":[3]",
	     "{\"cpu\":2,\"apic_id\":2,\"core_type\":\"E-core\",\"uarch\":\"Gracemont (hybrid "
	     "E-core)\""},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct results_run run = {.options = "", .uarch = "the boot CPU's"};
		struct plat_identity id;
		enum sim_fault f;
		char why[256], path[300];
		static char json[1 << 18];
		const char *compare = NULL;
		unsigned int logged = 0;

		test_job_machine_n(rows[i].model, rows[i].ncpus);
		assert_int_equal(sim_fault_parse("wrong-latency", &f), 0);
		assert_int_equal(sim_set_fault(rows[i].bad, f, 0), 0);
		test_job_kernels_on("chase-l1", "all");
		for (unsigned int k = 0; k < report_log_count(); k++) {
			const struct report_entry *e = report_log_at(k);

			if (strcmp(e->name, "cpu-compare"))
				continue;
			logged++;
			if (!e->has_cpu || e->cpu != rows[i].bad)
				fail_msg("%s: cpu-compare logged on cpu %u", rows[i].model, e->cpu);
		}
		compare = test_line_find("FAIL: cpu-compare: ", rows[i].line);
		if (logged != 1 || test_line_count("FAIL: cpu-compare: ") != 1 || !compare) {
			test_lines_dump(stdout);
			fail_msg("%s: %u cpu-compare verdicts, want one naming '%s'", rows[i].model,
				 logged, rows[i].line);
		}
		plat_identity(&id);
		run.plat = &id;
		assert_int_equal(results_write("blame.json", &run, 1, why, sizeof(why)), 0);
		snprintf(path, sizeof(path), "%s/blame.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) >= 0);
		if (!strstr(json, rows[i].run) || !strstr(json, rows[i].cpu2))
			fail_msg("%s: results.json lacks %s or %s", rows[i].model, rows[i].run,
				 rows[i].cpu2);
		/* Each CPU's verdict by its name, its sampling without the CPU. */
		if (!strstr(json, "\"name\":\"chase-l1/load@cpu2\"") ||
		    !strstr(json, "\"kernel\":\"chase-l1\",\"sampling\":\"load\"") ||
		    strstr(json, "\"sampling\":\"load@"))
			fail_msg("%s: results.json's verdict names and samplings", rows[i].model);
		results_reset();
		sim_set_fault(rows[i].bad, SIM_FAULT_NONE, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(console_per_kernel),
	    cmocka_unit_test(brief_cut_between_words),
	    cmocka_unit_test(console_figures),
	    cmocka_unit_test(blames_the_right_cpu),
	};

	if (test_job_begin(outdir, NULL))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
