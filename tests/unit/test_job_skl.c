// SPDX-License-Identifier: MIT
/*
 * test_job_skl.c - the whole job on the simulated Skylake with a user's
 * options: events= in place of the kernels' own sampling (and refused),
 * the dumps' counters, records lost and inferred, the table's times, a
 * plan the hardware does not follow, the latency calibration, the job's
 * own page tables, an unmeasured CPU and the console's brief verdicts.
 * test_job_mainjob.c has one row per simulator model.
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

static char outdir[] = "/tmp/pebsprobe-skl-XXXXXX";

/* Counts wrmsr calls made through the simulator's ops (a refused request makes none). */
static struct hw_ops counting_ops;
static unsigned int n_wrmsr;

static enum hw_fault counting_wrmsr(uint32_t msr, uint64_t val)
{
	n_wrmsr++;
	return sim_hw_ops()->wrmsr(msr, val);
}

static void setup_skl(struct options *o, struct cpu_info *ci)
{
	counting_ops = *sim_hw_ops();
	counting_ops.wrmsr = counting_wrmsr;
	test_job_machine("skl", &counting_ops);
	test_job_options(o, ci, "cpus=boot");
}

static void read_dump(const char *name, struct pebs_dump_info *di)
{
	char path[256], why[160];
	static uint8_t buf[1 << 20];
	const uint8_t *recs;
	size_t rlen;
	long len;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	len = test_read_file(path, (char *)buf, sizeof(buf));
	assert_true(len >= 0);
	assert_int_equal(pebs_dump_parse(buf, (size_t)len, di, &recs, &rlen, why, sizeof(why)), 0);
}

/*
 * events= replaces every kernel's sampling: a perfmon name with a
 * modifier and a raw spelling of load latency, and an instructions event
 * (kind "other": no data-source rows).  The dump names the real encodings.
 */
static void user_events(void **state)
{
	struct options o;
	struct cpu_info ci;
	struct pebs_dump_info di;
	const char *l;

	setup_skl(&o, &ci);
	test_option(&o, "kernels=chase-dram,chase-l1,stream-store");
	test_option(&o, "events=MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30;event=0xcd,umask=0x1;"
			"INST_RETIRED.PREC_DIST");
	test_job_run(&o, &ci);
	assert_null(test_job_find("FAIL: ", "chase-dram/event1"));
	l = test_job_find("PASS: ", "chase-dram/event1");
	/* Level shares are not judged when the threshold filters the loads: a SKIP, not a PASS. */
	assert_null(l);
	l = test_job_find("SKIP: ", "chase-dram/event1");
	assert_non_null(l);
	assert_non_null(strstr(l, "RAM unchecked (ldlat=30"));
	assert_non_null(test_job_find_text(
	    "chase-dram/event1: sampled MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30", "ldlat=30"));
	assert_null(test_job_find_text("chase-dram/event1: sampled event=0xcd", NULL));
	assert_non_null(test_job_find("PASS: ", "chase-dram/event2"));
	assert_non_null(test_job_find("PASS: ", "chase-l1/event2"));
	assert_non_null(strstr(test_job_find("PASS: ", "chase-l1/event2"), "L1 hits"));
	/* ldlat=30 on the L1 chase: no L1 hit is that slow; no records, nothing judged. */
	assert_null(test_job_find("PASS: ", "chase-l1/event1"));
	l = test_job_find("SKIP: ", "chase-l1/event1");
	assert_non_null(l);
	assert_non_null(strstr(l, "L1 hits unchecked"));
	assert_non_null(strstr(l, "0 records unchecked (ldlat=30 left 0 events"));
	/* The raw spelling of load latency is judged as the default job's (ldlat 3). */
	assert_non_null(strstr(test_job_find("PASS: ", "chase-dram/event2"), "RAM "));
	l = test_job_find("PASS: ", "chase-l1/event3");
	assert_non_null(l);
	/* The L1-hit row was written for load sampling: not applied to instructions. */
	assert_null(strstr(l, "L1 hits"));
	assert_non_null(strstr(l, "IPs in the kernel"));
	/* A load event on a kernel that makes no loads: skipped with the reason. */
	l = test_job_find("SKIP: ", "stream-store/event1");
	assert_non_null(l);
	assert_non_null(strstr(l, "this kernel makes none"));
	assert_null(test_job_find("PASS: ", "chase-dram/load"));

	/* The dump: event | umask << 8 and the name as programmed, then the counted events. */
	read_dump("chase-dram-event1.pebs", &di);
	assert_true(di.simulated);
	assert_int_equal(di.version, PEBS_DUMP_VERSION);
	assert_true(di.n_counters >= 1);
	assert_int_equal(di.counters[0].code & 0xffff, 0x01cd);
	assert_string_equal(di.counters[0].name, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30");
	read_dump("chase-l1-event3.pebs", &di);
	assert_int_equal(di.counters[0].index, 1); /* PREC_DIST: PMC1 only on Skylake */
	assert_int_equal(di.counters[0].code & 0xffff, 0x01c0);
	/*
	 * No counting copy: INST_RETIRED.PREC_DIST counts on PMC1 only
	 * (SKL/events/skylake_core.json Counter "1"; Linux core.c
	 * intel_skl_event_constraints 0x01c0 on 0x2), which the sample holds.
	 */
	for (unsigned int i = 1; i < di.n_counters; i++)
		assert_int_not_equal(di.counters[i].code & 0xffff, 0x01c0);
}

/* The counted events of a kernel are in its dump's counter table too. */
static void dump_counters(void **state)
{
	struct options o;
	struct cpu_info ci;
	struct pebs_dump_info di;
	bool split = false;

	setup_skl(&o, &ci);
	test_option(&o, "kernels=split-line");
	test_job_run(&o, &ci);
	assert_non_null(test_job_find("PASS: ", "split-line/load"));
	read_dump("split-line-load.pebs", &di);
	assert_int_equal(di.counters[0].index, 0);
	assert_int_equal(di.counters[0].code & 0xffff, 0x01cd);
	for (unsigned int i = 1; i < di.n_counters; i++)
		split |= (di.counters[i].code & 0xffff) == 0x41d0 &&
			 !strcmp(di.counters[i].name, "MEM_INST_RETIRED.SPLIT_LOADS");
	assert_true(split);

	/* Sapphire Rapids: the aux event 0x8203 counted beside load latency is listed too. */
	test_lines_clear();
	assert_int_equal(sim_select("spr"), 0);
	hw_install(sim_hw_ops());
	report_reset();
	cpu_probe(&ci);
	test_option(&o, "kernels=chase-l1");
	test_job_run(&o, &ci);
	read_dump("chase-l1-load.pebs", &di);
	split = false;
	for (unsigned int i = 1; i < di.n_counters; i++)
		split |= (di.counters[i].code & 0xffff) == 0x8203 &&
			 di.counters[i].index != di.counters[0].index;
	assert_true(split);
}

/*
 * The per-source table gives ns for min, median, p90, p99 and max, on a line
 * under the cycles; results.json too.
 */
static void table_ns(void **state)
{
	struct options o;
	struct cpu_info ci;
	unsigned long long v[5], c[5];
	const char *l;
	char path[256], json[1 << 16];

	setup_skl(&o, &ci);
	test_option(&o, "kernels=chase-l2");
	test_job_run(&o, &ci);
	/* The ns row under the cycles row, the same five columns: min median p90 p99 max. */
	l = NULL;
	for (unsigned int i = 1; i < test_n_lines && !l; i++) {
		size_t len = strlen(test_lines[i]);

		if (len > 3 && !strcmp(test_lines[i] + len - 3, " ns"))
			l = test_lines[i];
		if (l) {
			const char *cy = strstr(test_lines[i - 1], "%");

			assert_non_null(cy);
			printf("# %s\n# %s\n", test_lines[i - 1], l);
			assert_true(sscanf(cy + 1, " %llu %*[~]%llu %llu %llu %llu cy", &c[0],
					   &c[1], &c[2], &c[3], &c[4]) == 5 ||
				    sscanf(cy + 1, " %llu %llu %llu %llu %llu cy", &c[0], &c[1],
					   &c[2], &c[3], &c[4]) == 5);
		}
	}
	assert_non_null(l);
	assert_int_equal(
	    sscanf(l + 5, " %llu %llu %llu %llu %llu ns", &v[0], &v[1], &v[2], &v[3], &v[4]), 5);
	for (int i = 1; i < 5; i++)
		assert_true(v[i] >= v[i - 1]);
	/* ns grow with cycles: the max is no less than the min, both from the same clock */
	assert_true(c[4] >= c[0]);
	assert_true(v[4] > 0);
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	assert_true(test_read_file(path, json, sizeof(json)) >= 0);
	assert_non_null(strstr(json, "\"min_ns\":"));
	assert_non_null(strstr(json, "\"max_ns\":"));
}

/*
 * What was not measured reads as such: a store group without a latency
 * shows n/a (no 0 cycles, no ns row); the L1 chase's offcore contrast
 * without a request says so instead of "0 cycles".
 */
static void unmeasured_says_so(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *row = NULL;

	(void)state;
	setup_skl(&o, &ci);
	test_option(&o, "kernels=stream-store,chase-l1,chase-dram");
	test_job_run(&o, &ci);
	for (unsigned int i = 0; i + 1 < test_n_lines && !row; i++)
		if (strstr(test_lines[i], "INFO: STORE ") == test_lines[i])
			row = test_lines[i + 1];
	if (!row || !strstr(row, "n/a    n/a   n/a   n/a   n/a") || strstr(row, " cy")) {
		test_lines_dump(stdout);
		fail_msg("store row: %s", row ? row : "(none)");
	}
	assert_null(test_line_find("INFO: ", "                 0      0     0     0     0 ns"));
	assert_null(test_line_find("INFO: chase-l1: offcore average latency 0 cycles", NULL));
	assert_non_null(
	    test_line_find("INFO: chase-l1: offcore latency: none, no offcore demand reads", NULL));
}

/* A request the generation forbids: one FAIL line with the reason, no wrmsr at all. */
static void user_event_refused(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l;

	setup_skl(&o, &ci);
	test_option(&o, "kernels=chase-l1");
	/*
	 * CPU_CLK_UNHALTED.THREAD_P: no PEBS event on Skylake
	 * (SKL/events/skylake_core.json PEBS 0); a PEBS event with a counter
	 * mask (SDM 18.9.4 NOTE).
	 */
	test_option(&o, "events=CPU_CLK_UNHALTED.THREAD_P;event=0xcd,umask=0x1,cmask=1");
	n_wrmsr = 0;
	test_job_run(&o, &ci);
	l = test_job_find("FAIL: ", "chase-l1/event1");
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "chase-l1/event1: refused: "));
	assert_non_null(strstr(l, "not PEBS-capable"));
	l = test_job_find("FAIL: ", "chase-l1/event2");
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "chase-l1/event2: refused: "));
	assert_non_null(strstr(l, "CMask zero"));
	assert_int_equal(n_wrmsr, 0);
}

/*
 * drain=poll, a 4 KiB buffer and period 32 over 6000 loads: 187 samples,
 * about 20 fit.  Load latency has no counting copy, so the session cannot
 * count the lost ones: the run infers them from the kernel's accesses.
 */
static void lost_inferred(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l;

	setup_skl(&o, &ci);
	test_option(&o, "kernels=chase-l1");
	o.job.buffer_kib = 4;
	o.job.period = 32;
	o.job.drain = PEBS_DRAIN_POLL;
	test_job_run(&o, &ci);
	l = test_job_find_text("chase-l1/load: records drained", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "(inferred from the kernel's accesses"));
	assert_null(strstr(l, "lost 0 "));
	assert_non_null(test_job_find("FAIL: ", "chase-l1/load"));
}

/*
 * A wrong plan fails a verdict: the simulated Sapphire Rapids is described
 * to the plan as Ice Lake-SP (06_6A), whose perfmon file lets load latency
 * sample on PMC0 (ICX/events/icelakex_core.json PEBScounters 0-7).  The
 * simulator holds to its own file (SPR/events/sapphirerapids_core.json:
 * 1-7, sim/placement.c): the records come without latency or data source,
 * the rule is reported, and the kernel's verdict is FAIL.
 */
static void wrong_plan_fails(void **state)
{
	struct options o;
	struct cpu_info ci;

	test_lines_clear();
	assert_int_equal(sim_select("spr"), 0);
	hw_install(sim_hw_ops());
	report_reset();
	report_set_simulated(true);
	cpu_probe(&ci);
	options_defaults(&o);
	test_option(&o, "kernels=chase-dram");
	job_main(&o.job, &ci);
	assert_non_null(test_job_find("PASS: ", "chase-dram/load"));
	assert_null(test_job_find_text("sim-rule", NULL));

	test_lines_clear();
	report_reset();
	report_set_simulated(true);
	ci.model = 0x6a; /* the lie: Ice Lake-SP */
	job_main(&o.job, &ci);
	assert_non_null(test_job_find("FAIL: ", "chase-dram/load"));
	assert_non_null(test_job_find_text("pebs-counter", "PMC0"));
}

/*
 * Latency calibration (job/calibrate.c): the chase kernels' PEBS latency
 * median against their cycles per load counted without PEBS.  The
 * simulated field counts from dispatch (one cycle above load-to-use, as
 * the SDM defines it), and latency-offset adds cycles there: up to one
 * more minimum latency (4 cycles) PASSes, 5 FAILs at L1 and L2.  A 30%
 * bias FAILs chase-l2 and chase-dram; at L1 (4 cycles a load) it is
 * within the additive window, by design.  wrong-latency FAILs all three; the level shares
 * hold whatever the latency field says.
 */
static void latency_calibration(void **state)
{
	static const struct {
		enum sim_fault fault;
		int32_t arg;
		const char *want[3]; /* chase-l1, chase-l2, chase-dram calibration */
	} cases[] = {
	    {SIM_FAULT_NONE, 0, {"PASS: ", "PASS: ", "PASS: "}},
	    {SIM_FAULT_LATENCY_BIAS, 0, {"PASS: ", "PASS: ", "PASS: "}},
	    {SIM_FAULT_LATENCY_OFFSET, 3, {"PASS: ", "PASS: ", "PASS: "}},
	    /* the top, cycles per load + 4: 3 is on it at L1 (8) and L2 (16), 4 past it */
	    {SIM_FAULT_LATENCY_OFFSET, 4, {"FAIL: ", "FAIL: ", "PASS: "}},
	    {SIM_FAULT_LATENCY_OFFSET, 5, {"FAIL: ", "FAIL: ", "PASS: "}},
	    {SIM_FAULT_LATENCY_BIAS, 30, {"PASS: ", "FAIL: ", "FAIL: "}},
	    /*
	     * The bottom, 85% of cycles per load less the loop's 2 instructions:
	     * L1 1.70 (-60% gives 2, -75% 1), L2 8.50 (-30% gives 9, -35% 8),
	     * DRAM 210.80 (-16% gives 211, -17% 208).
	     */
	    {SIM_FAULT_LATENCY_BIAS, -16, {"PASS: ", "PASS: ", "PASS: "}},
	    {SIM_FAULT_LATENCY_BIAS, -17, {"PASS: ", "PASS: ", "FAIL: "}},
	    {SIM_FAULT_LATENCY_BIAS, -30, {"PASS: ", "PASS: ", "FAIL: "}},
	    {SIM_FAULT_LATENCY_BIAS, -35, {"PASS: ", "FAIL: ", "FAIL: "}},
	    {SIM_FAULT_LATENCY_BIAS, -60, {"PASS: ", "FAIL: ", "FAIL: "}},
	    {SIM_FAULT_LATENCY_BIAS, -75, {"FAIL: ", "FAIL: ", "FAIL: "}},
	    {SIM_FAULT_WRONG_LATENCY, 0, {"FAIL: ", "FAIL: ", "FAIL: "}},
	};
	static const char *const chases[] = {"chase-l1", "chase-l2", "chase-dram"};
	struct options o;
	struct cpu_info ci;
	char test[48], path[256];
	static char json[1 << 20];

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		setup_skl(&o, &ci);
		assert_int_equal(sim_set_fault(0, cases[c].fault, cases[c].arg), 0);
		test_option(&o, "kernels=chase-l1,chase-l2,chase-dram");
		test_job_run(&o, &ci);
		for (size_t k = 0; k < ARRAY_SIZE(chases); k++) {
			const char *l;

			snprintf(test, sizeof(test), "%s/calibration", chases[k]);
			l = test_job_find(cases[c].want[k], test);
			if (!l || !strstr(l, " cy)")) {
				test_lines_dump(stdout);
				fail_msg("case %zu: no '%s%s' line with the cycles per load", c,
					 cases[c].want[k], test);
			}
			printf("# %s\n", l);
			/* only the calibration sees a latency bias: the level shares still hold */
			snprintf(test, sizeof(test), "%s/load", chases[k]);
			assert_non_null(test_job_find("PASS: ", test));
		}
		snprintf(path, sizeof(path), "%s/results.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) >= 0);
		assert_non_null(strstr(json, "\"latency_calibration\":{\"state\":\""));
		assert_non_null(strstr(json, "\"cycles_per_load_x100\":"));
		assert_non_null(strstr(json, "\"pebs_median\":"));
	}
	sim_set_fault(0, SIM_FAULT_NONE, 0);
}

/*
 * page-walk's STLB misses on any firmware: the simulated firmware maps
 * memory with 4 KiB, 2 MiB or 1 GiB pages (sim-pages=), the job maps the
 * kernel's buffer in 4 KiB pages of its own (pmu/paging.h), and the STLB
 * misses are measured.  A CPU that keeps its CR3 (sim-fault cr3-kept) runs
 * the kernel under the firmware's tables: the share is then not judged
 * (SKIP, naming the page size) where they are large, judged where 4 KiB.
 * results.json's page_kib says which pages the run was measured under.
 */
static void own_page_tables(void **state)
{
	static const struct {
		uint64_t fw_pages;
		enum sim_fault fault;
		const char *want, *text;
		const char *page_kib; /* results.json's page-walk/load run */
	} cases[] = {
	    {4096, SIM_FAULT_NONE, "PASS: ", "STLB misses ", "\"page_kib\":4,"},
	    {2 << 20, SIM_FAULT_NONE, "PASS: ", "STLB misses ", "\"page_kib\":4,"},
	    {1 << 30, SIM_FAULT_NONE, "PASS: ", "STLB misses ", "\"page_kib\":4,"},
	    {2 << 20, SIM_FAULT_CR3_KEPT, "SKIP: ",
	     "STLB misses unchecked (the buffer ran in 2048 KiB pages)", "\"page_kib\":2048,"},
	    {1 << 30, SIM_FAULT_CR3_KEPT,
	     "SKIP: ", "STLB misses unchecked (the buffer ran in 1048576 KiB pages)",
	     "\"page_kib\":1048576,"},
	    {4096, SIM_FAULT_CR3_KEPT, "PASS: ", "STLB misses ", "\"page_kib\":4,"},
	};
	struct options o;
	struct cpu_info ci;
	char path[256];
	static char json[1 << 20];

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		const char *l;
		char *run, *next;

		setup_skl(&o, &ci);
		assert_int_equal(sim_set_pages(cases[c].fw_pages), 0);
		assert_int_equal(sim_set_fault(0, cases[c].fault, 0), 0);
		test_option(&o, "kernels=page-walk");
		test_job_run(&o, &ci);
		l = test_job_find(cases[c].want, "page-walk/load");
		if (!l || !strstr(l, cases[c].text)) {
			test_lines_dump(stdout);
			fail_msg("case %zu: no '%spage-walk/load: ...%s...'", c, cases[c].want,
				 cases[c].text);
		}
		/* a share measured and judged: "STLB misses 97.0% >= 50.0%" */
		if (!strcmp(cases[c].want, "PASS: ") && !strstr(strstr(l, "STLB misses "), "% >= "))
			fail_msg("case %zu: no measured share in '%s'", c, l);
		printf("# %s\n", l);
		assert_non_null(
		    test_job_find_text("page-walk: buffer in 4 KiB pages, CR3 0x", NULL));
		/* The run's object: from its "test" key to the next run's. */
		snprintf(path, sizeof(path), "%s/results.json", outdir);
		assert_true(test_read_file(path, json, sizeof(json)) >= 0);
		run = strstr(json, "{\"test\":\"page-walk/load\"");
		if (!run)
			fail_msg("case %zu: no page-walk/load run in %s", c, path);
		next = strstr(run, "},{\"test\":\"");
		if (next)
			*next = 0;
		if (!strstr(run, cases[c].page_kib))
			fail_msg("case %zu: no %s in page-walk/load's run: %.*s", c,
				 cases[c].page_kib, 400, run);
	}
	sim_set_fault(0, SIM_FAULT_NONE, 0);
	sim_set_pages(4096);
}

/* The log file's side of console_brief: its verdict lines, each with the CPU. */
static unsigned int log_verdicts, log_with_cpu;

static void brief_log_sink(const char *line, void *ctx)
{
	(void)ctx;
	if ((!strncmp(line, "PASS: ", 6) || !strncmp(line, "FAIL: ", 6) ||
	     !strncmp(line, "SKIP: ", 6)) &&
	    strchr(line, '/')) {
		log_verdicts++;
		log_with_cpu += strstr(line, "; cpu 0 (APIC 0, none)") != NULL;
	}
}

static void count_piece(const char *piece, void *ctx)
{
	(void)piece;
	(*(unsigned int *)ctx)++;
}

/*
 * With the console and the log file apart (efi/console.c): each verdict
 * on the console is its brief form, within two 80-column lines once
 * wrapped and without the CPU tail; the log file gets the whole line.
 */
static void console_brief(void **state)
{
	struct options o;
	struct cpu_info ci;
	unsigned int n = 0;

	setup_skl(&o, &ci);
	log_verdicts = log_with_cpu = 0;
	report_init_routes(test_lines_sink, brief_log_sink, NULL);
	test_option(&o, "kernels=chase-l1,stride-load,split-line,st-fwd-block");
	job_main(&o.job, &ci);
	report_init_routes(NULL, NULL, NULL);
	for (unsigned int i = 0; i < test_n_lines; i++) {
		unsigned int pieces = 0;

		/* the kernels' verdicts (kernel/sampling); the hand-off's have no tail */
		if ((strncmp(test_lines[i], "PASS: ", 6) && strncmp(test_lines[i], "FAIL: ", 6) &&
		     strncmp(test_lines[i], "SKIP: ", 6)) ||
		    !strchr(test_lines[i], '/'))
			continue;
		n++;
		report_wrap(test_lines[i], REPORT_WIDTH, count_piece, &pieces);
		printf("# %s\n", test_lines[i]);
		if (pieces > 2 || strstr(test_lines[i], "(APIC "))
			fail_msg("not brief: %s", test_lines[i]);
	}
	assert_true(n >= 6);
	assert_int_equal(log_verdicts, n);
	assert_int_equal(log_with_cpu, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(user_events),
	    cmocka_unit_test(user_event_refused),
	    cmocka_unit_test(dump_counters),
	    cmocka_unit_test(lost_inferred),
	    cmocka_unit_test(table_ns),
	    cmocka_unit_test(wrong_plan_fails),
	    cmocka_unit_test(latency_calibration),
	    cmocka_unit_test(own_page_tables),
	    cmocka_unit_test(unmeasured_says_so),
	    cmocka_unit_test(console_brief),
	};

	/* Two host CPUs, whatever the machine: the sharing kernels need the second. */
	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	if (test_job_begin(outdir, "MAINJOB_VERBOSE"))
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
