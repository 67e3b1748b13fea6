// SPDX-License-Identifier: MIT
/*
 * test_job_cpus.c - every CPU measured on itself (host: a thread per CPU,
 * PEBSPROBE_HOST_CPUS of them):
 *   - the simulator keeps one PMU per CPU, and a hybrid machine gives each
 *     CPU its core row (ptl: CPUs 0-1 Cougar Cove, 2-3 Darkmont; the pmu
 *     names them Cougar Cove and Darkmont);
 *   - cpus=all runs the kernels on every CPU, each verdict line names its
 *     CPU, the closing table has a row per CPU with its core type;
 *   - sim-fault=cpuN:KIND (no-records, wrong-latency, gp-on-enable) fails
 *     exactly CPU N: every FAIL line names it, the cpu-compare line too;
 *   - drain=pmi: every CPU's session drains on its own PMIs (the simulator
 *     delivers each CPU's LVTPC to the handler that CPU installed);
 *   - sim-fault=cpuN:hang: CPU N never returns; cpu-timeout= fires, an
 *     FAIL line names it (exit 1), its later kernels SKIP, the others
 *     pass (last: the hung CPU's thread stays parked to the end);
 *   - cpus= parsing: all, boot, lists, ranges; bad values are refused
 * (test_job_cpus_console.c: what such a job prints).
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

static char outdir[] = "/tmp/pebsprobe-cpus-XXXXXX";

struct probe_on {
	struct cpu_info ci;
	uint64_t ctrl;
};

static void probe_here(void *p)
{
	struct probe_on *o = p;

	cpu_probe(&o->ci);
	assert_int_equal(hw_rdmsr(0x38f, &o->ctrl), HW_OK);
	/* Written on this CPU only. */
	assert_int_equal(hw_wrmsr(0x38f, 0x3), HW_OK);
}

static void probe_cpu(unsigned int cpu, struct probe_on *o)
{
	memset(o, 0, sizeof(*o));
	if (!cpu) {
		probe_here(o);
		return;
	}
	assert_int_equal(plat_start_on_cpu(cpu, probe_here, o), 0);
	assert_int_equal(plat_wait_cpu(cpu, 0), 0);
}

static void machine_per_cpu(void **state)
{
	struct probe_on o[4];
	static const char *const rows[] = {"ptl-p", "ptl-p", "ptl-e", "ptl-e"};

	(void)state;
	test_job_machine_n("ptl", "4");
	assert_int_equal(sim_cpu_count(), 4);
	for (unsigned int c = 0; c < 4; c++) {
		assert_string_equal(sim_cpu_model(c), rows[c]);
		probe_cpu(c, &o[c]);
		assert_int_equal(o[c].ci.cpu, c);
		assert_int_equal(o[c].ci.apic_id, c);
		assert_int_equal(o[c].ci.core_type, c < 2 ? CORE_TYPE_CORE : CORE_TYPE_ATOM);
		assert_int_equal(o[c].ci.n_gp, c < 2 ? 10 : 8);
		/* Every CPU's GLOBAL_CTRL at its power-on value: the others' writes did not reach
		 * it. */
		assert_int_equal(o[c].ctrl, c < 2 ? 0x3ff : 0xff);
	}
	/* Alder Lake: a machine of adl-p and adl-e; each of those stays a model of its own. */
	test_job_machine_n("adl", "2");
	assert_string_equal(sim_cpu_model(0), "adl-p");
	assert_string_equal(sim_cpu_model(1), "adl-e");
	test_job_machine_n("adl-e", "2");
	assert_string_equal(sim_cpu_model(0), "adl-e");
	assert_string_equal(sim_cpu_model(1), "adl-e");
	/* The core rows are not models of their own. */
	assert_int_equal(sim_select("ptl-p"), -1);
}

static void every_cpu_measured(void **state)
{
	char want[64], l1[48], hitm[48];

	(void)state;
	test_job_machine_n("ptl", "4");
	test_job_kernels_on("chase-l1,share-hitm", "all");
	for (unsigned int c = 0; c < 4; c++) {
		const char *type = c < 2 ? "P-core" : "E-core";

		/* Each CPU's verdict a case of its own: the CPU in the name. */
		snprintf(want, sizeof(want), "; cpu %u (APIC %u, %s)", c, c, type);
		snprintf(l1, sizeof(l1), "PASS: chase-l1/load@cpu%u: ", c);
		snprintf(hitm, sizeof(hitm), "PASS: share-hitm/load@cpu%u: ", c);
		if (!test_line_find(l1, want) || !test_line_find(hitm, want) ||
		    test_line_count(l1) != 1) {
			test_lines_dump(stdout);
			fail_msg("no PASS naming %s", want);
		}
	}
	/* The table: the two P-cores alike, one row; the two E-cores too. */
	assert_non_null(test_line_find("INFO:       0-1       0-1 P-core Cougar Cove", NULL));
	assert_non_null(test_line_find("INFO:       2-3       2-3 E-core Darkmont", NULL));
	assert_int_equal(test_line_count("FAIL: "), 0);
	assert_non_null(test_line_find("INFO: per-CPU results (4 CPUs)", NULL));
	/* One CPU is "1 CPU", not "1 CPUs". */
	test_job_machine_n("skl", "1");
	test_job_kernels_on("chase-l1", "all");
	assert_non_null(test_line_find("INFO: per-CPU results (1 CPU):", NULL));
}

unsigned int plat_host_starts(unsigned int cpu);

/* PASS on chase-l1/load naming each CPU of [lo, hi]; the closing table's count. */
static void passed_on(unsigned int lo, unsigned int hi, unsigned int n)
{
	char want[64];

	for (unsigned int c = lo; c <= hi; c++) {
		snprintf(want, sizeof(want), "; cpu %u (APIC %u,", c, c);
		if (!test_line_find("PASS: chase-l1/load@cpu", want)) {
			test_lines_dump(stdout);
			fail_msg("no PASS naming cpu %u", c);
		}
	}
	snprintf(want, sizeof(want), "INFO: per-CPU results (%u CPUs)", n);
	if (!test_line_find(want, NULL)) {
		test_lines_dump(stdout);
		fail_msg("no '%s'", want);
	}
}

/*
 * More CPUs than 64 (the old JOB_MAX_CPUS): cpus=all measures every one,
 * cpus=64-71 those eight; each AP is started once for its probe, its
 * warm-up and its sessions (host threads count the starts).
 */
static void past_64_cpus(void **state)
{
	unsigned int before[72];

	(void)state;
	test_job_machine_n("skl", "72");
	for (unsigned int c = 0; c < 72; c++)
		before[c] = plat_host_starts(c);
	test_job_kernels_on("chase-l1", "all");
	passed_on(0, 71, 72);
	assert_int_equal(test_line_count("FAIL: "), 0);
	for (unsigned int c = 1; c < 72; c++)
		if (plat_host_starts(c) - before[c] != 1)
			fail_msg("cpu %u started %u times, want once", c,
				 plat_host_starts(c) - before[c]);
	app_verdict_table();
	if (!test_line_find("chase-l1       0-71 ", NULL)) {
		test_lines_dump(stdout);
		fail_msg("the verdict table's row does not name CPUs 0-71");
	}
	test_job_machine_n("skl", "72");
	test_job_kernels_on("chase-l1", "64-71");
	passed_on(64, 71, 8);
	assert_null(test_line_find("PASS: chase-l1/load@cpu", "; cpu 63 (APIC"));
}

static bool dumped(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	return access(path, F_OK) == 0;
}

/*
 * The ESP budget (dump=, docs/OUTPUT.md): on 12 CPUs of Panther Lake (P-cores
 * 0-5, E-cores 6-11), past the 8 that get every dump, dump=on writes CPU
 * 0's and CPU 6's (one per core type) and CPU 3's failing sampling, no
 * other, and says which it left out; dump=all writes every CPU's.
 */
static void dump_budget(void **state)
{
	static const struct {
		const char *file;
		bool on, all;
	} files[] = {
	    {"chase-l1-load.pebs", true, true},	      {"chase-l1-load-cpu6.pebs", true, true},
	    {"chase-l1-load-cpu3.pebs", true, true},  {"chase-l1-load-cpu1.pebs", false, true},
	    {"chase-l1-load-cpu7.pebs", false, true}, {"chase-l1-load-cpu11.pebs", false, true},
	};
	struct options o;
	struct cpu_info ci;

	(void)state;
	for (int all = 0; all < 2; all++) {
		test_job_machine_n("ptl", "12");
		assert_int_equal(sim_set_fault(3, SIM_FAULT_NO_RECORDS, 0), 0);
		for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
			char path[256];

			snprintf(path, sizeof(path), "%s/%s", outdir, files[i].file);
			unlink(path);
		}
		cpu_probe(&ci);
		options_defaults(&o);
		test_option(&o, "kernels=chase-l1");
		o.job.dump = all ? JOB_DUMP_ALL : JOB_DUMP_ON;
		job_main(&o.job, &ci);
		for (size_t i = 0; i < ARRAY_SIZE(files); i++)
			if (dumped(files[i].file) != (all ? files[i].all : files[i].on)) {
				test_lines_dump(stdout);
				fail_msg("dump=%s: %s %s", all ? "all" : "on", files[i].file,
					 dumped(files[i].file) ? "written" : "missing");
			}
		if (!all && !test_line_find("INFO: dumps (dump=on, 12 CPUs, over 8): every "
					    "sampling of CPUs 0,6 (one per core type) and every "
					    "failing one; the passing samplings of 9 CPUs "
					    "(1,2,4,5,7-11) not dumped",
					    NULL)) {
			test_lines_dump(stdout);
			fail_msg("no line naming the CPUs left out");
		}
		if (all)
			assert_null(test_line_find("INFO: dumps (", NULL));
	}
}

/* Every FAIL line names CPU `bad`, at least one FAIL per kind, the compare line too. */
static void only_cpu_named(const char *model, const char *ncpus, unsigned int bad, const char *kind)
{
	enum sim_fault f;
	char want[32];
	unsigned int fails = 0;

	test_job_machine_n(model, ncpus);
	assert_int_equal(sim_fault_parse(kind, &f), 0);
	assert_int_equal(sim_set_fault(bad, f, 0), 0);
	test_job_kernels_on("chase-l1,seq-load", "all");
	snprintf(want, sizeof(want), "cpu %u (APIC %u,", bad, bad);
	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (strncmp(test_lines[i], "FAIL: ", 6))
			continue;
		fails++;
		if (!strstr(test_lines[i], want)) {
			test_lines_dump(stdout);
			fail_msg("%s on cpu %u: a FAIL line not naming it: %s", kind, bad,
				 test_lines[i]);
		}
	}
	if (!fails || !test_line_find("FAIL: cpu-compare: ", want)) {
		test_lines_dump(stdout);
		fail_msg("%s on cpu %u: %u FAIL lines, no cpu-compare line naming it", kind, bad,
			 fails);
	}
}

/*
 * An AP whose firmware left it on page tables of its own (sim-fault
 * own-cr3: another CR3, the same mappings): the tables built on the boot
 * CPU copy the boot CPU's, so that AP keeps its own and page-walk's STLB
 * share is not judged there (SKIP naming its CR3), while the boot CPU
 * runs the kernel in 4 KiB pages of ours and PASSes.
 */
static void ap_on_its_own_cr3(void **state)
{
	const char *l;

	(void)state;
	test_job_machine_n("skl", "2");
	assert_int_equal(sim_set_pages(2 << 20), 0);
	assert_int_equal(sim_set_fault(1, SIM_FAULT_OWN_CR3, 0), 0);
	test_job_kernels_on("page-walk", "all");
	l = NULL;
	for (unsigned int i = 0; i < test_n_lines && !l; i++)
		if (strstr(test_lines[i], "page-walk/load@cpu1: "))
			l = test_lines[i];
	if (!test_line_find("PASS: page-walk/load@cpu0: STLB misses ", NULL) || !l ||
	    strncmp(l, "SKIP: ", 6) ||
	    !strstr(l, "unchecked (the buffer ran in 2048 KiB pages: this CPU's CR3 0x")) {
		test_lines_dump(stdout);
		fail_msg("cpu 1 on a CR3 of its own: want PASS on cpu 0, SKIP naming the CR3 on "
			 "cpu 1; cpu 1 has: %s",
			 l ? l : "no line");
	}
	printf("# %s\n", l);
	sim_set_pages(4096);
}

/*
 * An AP on page tables of its own that do not map what the app allocated
 * (sim-fault unmapped-cr3): DS_AREA and the PEBS buffer are linear
 * addresses, checked mapped under the boot CPU's tables when allocated, so
 * that AP's legacy-PEBS samplings SKIP naming the address and its CR3
 * before anything is written; the boot CPU PASSes.
 */
static void ap_without_the_buffer(void **state)
{
	const char *l = NULL;

	(void)state;
	test_job_machine_n("skl", "2");
	assert_int_equal(sim_set_fault(1, SIM_FAULT_UNMAPPED_CR3, 0), 0);
	test_job_kernels_on("chase-l1", "all");
	for (unsigned int i = 0; i < test_n_lines && !l; i++)
		if (strstr(test_lines[i], "chase-l1/load@cpu1: "))
			l = test_lines[i];
	if (!test_line_find("PASS: chase-l1/load@cpu0: ", NULL) || !l || strncmp(l, "SKIP: ", 6) ||
	    !strstr(l, "DS area or PEBS buffer: 0x") ||
	    !strstr(l, "is not mapped under this CPU's CR3 0x")) {
		test_lines_dump(stdout);
		fail_msg("cpu 1 without the buffer mapped: want PASS on cpu 0, a SKIP naming the "
			 "address and CR3 on cpu 1; cpu 1 has: %s",
			 l ? l : "no line");
	}
	printf("# %s\n", l);
}

static void fault_no_records(void **state)
{
	(void)state;
	only_cpu_named("ptl", "4", 3, "no-records");
}

static void fault_gp_on_enable(void **state)
{
	(void)state;
	only_cpu_named("ptl", "4", 1, "gp-on-enable");
}

/*
 * A wrong latency field: the L1 chase's calibration against its cycles per
 * load FAILs on that CPU, and cpu-compare tells the CPU from the others of
 * its type by its latency (three Skylake CPUs: a majority).
 */
static void fault_wrong_latency(void **state)
{
	(void)state;
	only_cpu_named("skl", "3", 2, "wrong-latency");
	if (!test_line_find("FAIL: chase-l1/calibration@cpu2: ", "cpu 2 (APIC 2,")) {
		test_lines_dump(stdout);
		fail_msg("wrong-latency on cpu 2: no calibration FAIL naming it");
	}
	assert_null(test_line_find("FAIL: chase-l1/calibration@cpu0", NULL));
	assert_null(test_line_find("FAIL: chase-l1/calibration@cpu1", NULL));
}

/*
 * Each CPU's PMIs, summed from the "records drained ..., PMIs N" lines
 * between its "INFO: cpu N: APIC ID" line and the next CPU's.
 */
static void pmis_per_cpu(unsigned int *pmis, unsigned int ncpus)
{
	unsigned int cpu = ~0u;

	for (unsigned int i = 0; i < test_n_lines; i++) {
		const char *p;
		unsigned int n;

		if (sscanf(test_lines[i], "INFO: cpu %u: APIC ID", &n) == 1 && n < ncpus)
			cpu = n;
		p = strstr(test_lines[i], "records drained ");
		if (p && (p = strstr(p, ", PMIs ")) && cpu < ncpus &&
		    sscanf(p, ", PMIs %u", &n) == 1)
			pmis[cpu] += n;
	}
}

/* kernels=chase-l1 drain=pmi threshold=16 on the machine selected. */
static void run_chase_pmi(void)
{
	struct options o;
	struct cpu_info ci;

	cpu_probe(&ci);
	options_defaults(&o);
	test_option(&o, "kernels=chase-l1");
	o.job.drain = PEBS_DRAIN_PMI;
	o.job.threshold = 16;
	job_main(&o.job, &ci);
}

/*
 * drain=pmi on every CPU: with a threshold of 16 records each CPU's
 * session takes PMIs (187 records: 11) and passes.
 */
static void pmi_on_every_cpu(void **state)
{
	unsigned int pmis[4] = {0};

	(void)state;
	test_job_machine_n("ptl", "4");
	run_chase_pmi();
	pmis_per_cpu(pmis, 4);
	for (unsigned int c = 0; c < 4; c++) {
		char want[32];

		snprintf(want, sizeof(want), "; cpu %u (APIC %u,", c, c);
		if (pmis[c] < 2 || !test_line_find("PASS: chase-l1/load@cpu", want)) {
			test_lines_dump(stdout);
			fail_msg("drain=pmi on cpu %u: %u PMIs, or no PASS", c, pmis[c]);
		}
	}
	assert_int_equal(test_line_count("FAIL: "), 0);
}

/*
 * drain=pmi on an AP whose local APIC is software-disabled (sim-fault
 * apic-off: SVR bit 8 clear, LVTPC stays masked, SDM Vol. 3A 11.4.7.2):
 * no PMI can reach the handler, so that CPU's samplings SKIP naming the
 * LVTPC read back and the SVR, LVTPC as it was; the other CPU drains on
 * its PMIs and PASSes.
 */
static void pmi_with_apic_off(void **state)
{
	const char *l = NULL;
	unsigned int pmis[2] = {0};

	(void)state;
	test_job_machine_n("skl", "2");
	assert_int_equal(sim_set_fault(1, SIM_FAULT_APIC_OFF, 0), 0);
	run_chase_pmi();
	pmis_per_cpu(pmis, 2);
	for (unsigned int i = 0; i < test_n_lines && !l; i++)
		if (strstr(test_lines[i], "chase-l1/load@cpu1: "))
			l = test_lines[i];
	if (pmis[0] < 2 || !test_line_find("PASS: chase-l1/load@cpu0: ", NULL) || !l ||
	    strncmp(l, "SKIP: ", 6) ||
	    !strstr(l, "LVTPC reads 0x100ee after 0x100ee was written (SVR 0xff: APIC "
		       "software-disabled)")) {
		test_lines_dump(stdout);
		fail_msg("apic-off on cpu 1: want PASS with PMIs on cpu 0 (%u PMIs), a SKIP "
			 "naming LVTPC and SVR on cpu 1 (%u PMIs); cpu 1 has: %s",
			 pmis[0], pmis[1], l ? l : "no line");
	}
	printf("# %s\n", l);
}

/*
 * drain=pmi on an AP that the firmware runs with interrupts off: its body
 * holds no TPL_HIGH_LEVEL, so it never opens interrupts between chunks
 * (pmi_window, TPR raised); its held PMIs come at the session's end
 * (pmi_teardown, TPR as it was).  CPU 0 holds TPL_HIGH_LEVEL and opens them.
 */
static void no_pmi_window_on_an_ap(void **state)
{
	struct sim_stats st[2];

	(void)state;
	test_job_machine_n("skl", "2");
	sim_set_cpu_irq_off(1, true);
	run_chase_pmi();
	sim_get_cpu_stats(0, &st[0]);
	sim_get_cpu_stats(1, &st[1]);
	if (!st[0].irq_windows_tpr || st[1].irq_windows_tpr) {
		test_lines_dump(stdout);
		fail_msg("interrupt windows with TPR raised: cpu 0 %llu, cpu 1 %llu (want some, "
			 "none)",
			 (unsigned long long)st[0].irq_windows_tpr,
			 (unsigned long long)st[1].irq_windows_tpr);
	}
	sim_set_cpu_irq_off(1, false);
}

/*
 * The work an AP runs calls no platform function that stands for a boot
 * service: UEFI lets an AP call none but WhoAmI (PI spec Vol. 2 13.4), and
 * a FreePages from an AP's session corrupted OVMF's event queue (a #PF in
 * DxeCore on the BSP at CPU 51 of 72).  The host refuses those calls on a
 * CPU thread as the app does and counts them (ap_refusal_count); the BSP
 * names each in an ERROR line.  One row per path that reaches an AP: the
 * probe, the hand-off reads, the warm-up, the armed session and its PMIs,
 * the partner of a two-CPU kernel, ACR, the SMI count around a sampling.
 */
static const struct ap_case {
	const char *cpus, *line;
} ap_cases[] = {
    {"4", "model=skl kernels=chase-l1"},
    {"4", "model=ptl kernels=chase-l1,share-hitm drain=pmi threshold=16"},
    {"2", "model=skl"},
    {"2", "model=ptl kernels=acr-reload sim-acr=0xfc,0,0xfc,0"},
    {"2", "model=skl kernels=chase-l1 sim-handoff=cpu1:smi7"},
};

static void no_firmware_on_an_ap(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ap_cases) / sizeof(ap_cases[0]); i++) {
		const struct ap_case *t = &ap_cases[i];
		const char *last = NULL;
		unsigned int before = ap_refusal_count(NULL), after, starts = plat_host_starts(1);
		struct options o;
		char err[REPORT_LINE_MAX];

		setenv("PEBSPROBE_HOST_CPUS", t->cpus, 1);
		test_lines_capture();
		report_reset();
		hw_install(NULL);
		options_defaults(&o);
		o.pmu = OPT_PMU_SIM;
		strcpy(o.job.results, "none");
		strcpy(o.log, "none");
		if (options_parse_line(&o, t->line, false, err, sizeof(err)))
			fail_msg("%s: %s", t->line, err);
		app_run(&o, NULL);
		after = ap_refusal_count(&last);
		if (after != before || test_line_find("ERROR: ap-call: ", NULL)) {
			test_lines_dump(stdout);
			fail_msg("%s on %s CPUs: %u firmware calls on an AP, the last %s", t->line,
				 t->cpus, after - before, last ? last : "?");
		}
		/* CPU 1 ran work: the case reached an AP. */
		if (plat_host_starts(1) == starts) {
			test_lines_dump(stdout);
			fail_msg("%s: CPU 1 was never started", t->line);
		}
	}
}

/*
 * An AP that never returns: the session's wait times out after
 * cpu-timeout= seconds, one ERROR line names the CPU, the run goes on.
 * alarm(): a timeout that does not fire ends the program (a failure), not
 * the whole check.
 */
static void fault_hang(void **state)
{
	struct options o;
	struct cpu_info ci;
	char want[64];
	unsigned int fails = 0;

	(void)state;
	alarm(120);
	test_job_machine_n("skl", "3");
	assert_int_equal(sim_set_fault(0, SIM_FAULT_HANG, 0), -1); /* the BSP: refused */
	assert_int_equal(sim_set_fault(2, SIM_FAULT_HANG, 0), 0);
	cpu_probe(&ci);
	options_defaults(&o);
	test_option(&o, "kernels=chase-l1,seq-load");
	o.job.cpu_timeout_s = 1;
	job_main(&o.job, &ci);
	alarm(0);
	/* A CPU that never came back is a finding: one FAIL naming it, no ERROR, exit 1. */
	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (strncmp(test_lines[i], "FAIL: ", 6))
			continue;
		fails++;
		if (!strstr(test_lines[i],
			    "FAIL: chase-l1/load@cpu2: timeout: CPU 2 did not return "
			    "within 1000 ms") ||
		    !strstr(test_lines[i], "; cpu 2 (APIC 2,")) {
			test_lines_dump(stdout);
			fail_msg("a FAIL line not naming CPU 2's timeout: %s", test_lines[i]);
		}
	}
	if (fails != 1) {
		test_lines_dump(stdout);
		fail_msg("%u FAIL lines, want 1 (the first session on CPU 2)", fails);
	}
	assert_int_equal(report_exit_status(), 1);
	assert_int_equal(test_line_count("ERROR: "), 0);
	for (unsigned int c = 0; c < 2; c++) {
		snprintf(want, sizeof(want), "; cpu %u (APIC %u,", c, c);
		assert_non_null(test_line_find("PASS: chase-l1/load@cpu", want));
		assert_non_null(test_line_find("PASS: seq-load/load@cpu", want));
	}
	assert_non_null(test_line_find("SKIP: seq-load/load@cpu2: cpu 2 did not return from an "
				       "earlier run",
				       "; cpu 2"));
	assert_non_null(test_line_find("INFO: ", "        2         2 none   (did not return)"));
	assert_non_null(test_line_find("INFO: ", "(did not return)      0      1       1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(machine_per_cpu),
	    cmocka_unit_test(every_cpu_measured),
	    cmocka_unit_test(fault_no_records),
	    cmocka_unit_test(ap_on_its_own_cr3),
	    cmocka_unit_test(ap_without_the_buffer),
	    cmocka_unit_test(fault_gp_on_enable),
	    cmocka_unit_test(fault_wrong_latency),
	    cmocka_unit_test(past_64_cpus),
	    cmocka_unit_test(dump_budget),
	    cmocka_unit_test(pmi_on_every_cpu),
	    cmocka_unit_test(pmi_with_apic_off),
	    cmocka_unit_test(no_pmi_window_on_an_ap),
	    cmocka_unit_test(no_firmware_on_an_ap),
	    /* last: CPU 2's thread never returns */
	    cmocka_unit_test(fault_hang),
	};

	if (test_job_begin(outdir, NULL))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
