// SPDX-License-Identifier: MIT
/*
 * test_job_mainjob.c - the main job end to end on the host, against the
 * simulated PMU, for every simulator model: every kernel and sampling gets
 * PASS, or SKIP because the generation has no such sampling; never FAIL
 * (the two-core kernels run: the host's second "CPU" is a thread).  Records really flow: each PASS
 * line names a record count >= 10, the dump files exist and results.json is whole.
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
#include "app/options.h"
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
	usable = pmu_pebs_usable(&ci, why, sizeof(why));
	job_main(&o.job, &ci);
	for (unsigned int i = 0; i < n_lines; i++)
		if (!strncmp(lines[i], "FAIL: ", 6)) {
			printf("# %s: %s\n", m->name, lines[i]);
			fails++;
		}
	assert_int_equal(fails, 0);
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *d = kernel_at(i);
		char test[64];

		if (!d->in_default_job)
			continue;
		/*
		 * Core 2 and Silvermont have no load or store sampling: every
		 * kernel runs once with the generation's PEBS instructions
		 * event ("other") and must PASS (IPs, records vs events).
		 */
		if (usable && (!strcmp(m->name, "core2") || !strcmp(m->name, "slm"))) {
			snprintf(test, sizeof(test), "%s/other", d->name);
			n_tests++;
			if (!find_line("PASS: ", test))
				printf("# %s: no PASS line for %s\n", m->name, test);
			assert_non_null(find_line("PASS: ", test));
			assert_non_null(strstr(find_line("PASS: ", test), "IPs in the kernel"));
			passes++;
			continue;
		}
		/* Goldmont: a non-precise event's records and one forced record, judged. */
		if (!strcmp(m->name, "glm")) {
			const char *kinds;

			snprintf(test, sizeof(test), "%s/nonprecise", d->name);
			assert_non_null(find_line("PASS: ", test));
			assert_non_null(strstr(find_line("PASS: ", test), "forced records 1 of 1"));
			kinds = find_line("INFO: ", test);
			for (unsigned int l = 0; l < n_lines; l++)
				if (strstr(lines[l], test) && strstr(lines[l], "record kinds:"))
					kinds = lines[l];
			assert_non_null(strstr(kinds, "forced 1"));
			assert_null(strstr(kinds, "non-precise 0,"));
		}
		for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
			const char *pass, *skip;

			if (!(d->samplings & s))
				continue;
			snprintf(test, sizeof(test), "%s/%s", d->name,
				 s == KSAMPLE_LOAD ? "load" : "store");
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
	 * Offcore average latency (SDM 18.6.3): where the generation has it the
	 * DRAM chase is judged (PASS: >= 60 cycles and above the L1 chase's);
	 * elsewhere SKIP with the reason.  Ice Lake-SP has OFFCORE_REQUESTS
	 * and _OUTSTANDING (libpfm4 icx): it must be measured.
	 */
	if (usable) {
		const char *oc = find_line("PASS: ", "chase-dram/offcore");

		if (!oc)
			oc = find_line("SKIP: ", "chase-dram/offcore");
		assert_non_null(oc);
		printf("# %s: %s\n", m->name, oc);
		if (!strcmp(m->name, "skl") || !strcmp(m->name, "icx") || !strcmp(m->name, "glm") ||
		    !strcmp(m->name, "slm"))
			assert_non_null(find_line("PASS: ", "chase-dram/offcore"));
	}
	/* A model with PEBS must have run something; one without PEBS, nothing. */
	(void)no_sampling;
	if (usable)
		assert_true(passes > 0);
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
	strcpy(o.job.kernels, "chase-l1");
	o.job.size = 32 << 20;
	job_main(&o.job, &ci);
	l1 = find_line("FAIL: ", "chase-l1/load");
	assert_non_null(l1);
	assert_non_null(strstr(l1, "L1 hits "));
	printf("# %s\n", l1);

	clear_lines();
	report_reset();
	strcpy(o.job.kernels, "chase-dram");
	o.job.size = 16 << 10;
	job_main(&o.job, &ci);
	/* Below the kernel's minimum size: refused with one line, not run. */
	dram = find_line("FAIL: ", "chase-dram");
	assert_non_null(dram);
	assert_non_null(strstr(dram, "below the kernel's minimum"));
	printf("# %s\n", dram);

	clear_lines();
	report_reset();
	strcpy(o.job.kernels, "chase");
	o.job.size = 16 << 10;
	job_main(&o.job, &ci);
	/* The generic chase has no level expectation: only the common checks. */
	assert_non_null(find_line("PASS: ", "chase/load"));
}

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
	clear_lines();
	assert_int_equal(sim_select("skl"), 0);
	counting_ops = *sim_hw_ops();
	counting_ops.wrmsr = counting_wrmsr;
	hw_install(&counting_ops);
	report_reset();
	report_set_simulated(true);
	cpu_probe(ci);
	options_defaults(o);
}

static const char *find_text(const char *a, const char *b)
{
	for (unsigned int i = 0; i < n_lines; i++)
		if (strstr(lines[i], a) && (!b || strstr(lines[i], b)))
			return lines[i];
	return NULL;
}

static void read_dump(const char *name, struct pebs_dump_info *di)
{
	char path[256], why[160];
	static uint8_t buf[1 << 20];
	const uint8_t *recs;
	size_t len, rlen;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(pebs_dump_parse(buf, len, di, &recs, &rlen, why, sizeof(why)), 0);
}

/*
 * events= replaces every kernel's sampling: a libpfm4 name with a
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
	strcpy(o.job.kernels, "chase-dram,chase-l1,stream-store");
	strcpy(o.job.events, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30;event=0xcd,umask=0x1;"
			     "INST_RETIRED:PREC_DIST");
	job_main(&o.job, &ci);
	assert_null(find_line("FAIL: ", "chase-dram/event1"));
	l = find_line("PASS: ", "chase-dram/event1");
	assert_non_null(l);
	/* Level shares are not judged when the threshold filters the loads. */
	assert_non_null(strstr(l, "RAM not checked (ldlat=30"));
	assert_non_null(find_text(
	    "chase-dram/event1: sampled MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30", "ldlat=30"));
	assert_null(find_text("chase-dram/event1: sampled event=0xcd", NULL));
	assert_non_null(find_line("PASS: ", "chase-dram/event2"));
	assert_non_null(find_line("PASS: ", "chase-l1/event2"));
	assert_non_null(strstr(find_line("PASS: ", "chase-l1/event2"), "L1 hits"));
	/* ldlat=30 on the L1 chase: no L1 hit is that slow; no records, nothing judged. */
	l = find_line("PASS: ", "chase-l1/event1");
	assert_non_null(l);
	assert_non_null(strstr(l, "L1 hits not checked"));
	assert_non_null(strstr(l, "0 records (ldlat=30 left 0 events"));
	/* The raw spelling of load latency is judged as the default job's (ldlat 3). */
	assert_non_null(strstr(find_line("PASS: ", "chase-dram/event2"), "RAM "));
	l = find_line("PASS: ", "chase-l1/event3");
	assert_non_null(l);
	/* The L1-hit row was written for load sampling: not applied to instructions. */
	assert_null(strstr(l, "L1 hits"));
	assert_non_null(strstr(l, "IPs in the kernel"));
	/* A load event on a kernel that makes no loads: skipped with the reason. */
	l = find_line("SKIP: ", "stream-store/event1");
	assert_non_null(l);
	assert_non_null(strstr(l, "this kernel makes none"));
	assert_null(find_line("PASS: ", "chase-dram/load"));

	/* The dump: event | umask << 8 and the name as programmed, then the counted events. */
	read_dump("chase-dram-event1.pebs", &di);
	assert_true(di.simulated);
	assert_int_equal(di.version, PEBS_DUMP_VERSION);
	assert_true(di.n_counters >= 1);
	assert_int_equal(di.counters[0].code & 0xffff, 0x01cd);
	assert_string_equal(di.counters[0].name, "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30");
	read_dump("chase-l1-event3.pebs", &di);
	assert_int_equal(di.counters[0].index, 1); /* PREC_DIST: PMC1 only on Skylake */
	assert_int_equal(di.counters[0].code & 0xffff, 0x01c0);
	/* The counting copy of the sampled event, on another counter. */
	assert_true(di.n_counters >= 2);
	assert_int_equal(di.counters[1].code & 0xffff, 0x01c0);
	assert_int_not_equal(di.counters[1].index, 1);
}

/* The counted events of a kernel are in its dump's counter table too. */
static void dump_counters(void **state)
{
	struct options o;
	struct cpu_info ci;
	struct pebs_dump_info di;
	bool split = false;

	setup_skl(&o, &ci);
	strcpy(o.job.kernels, "split-line");
	job_main(&o.job, &ci);
	assert_non_null(find_line("PASS: ", "split-line/load"));
	read_dump("split-line-load.pebs", &di);
	assert_int_equal(di.counters[0].index, 0);
	assert_int_equal(di.counters[0].code & 0xffff, 0x01cd);
	for (unsigned int i = 1; i < di.n_counters; i++)
		split |= (di.counters[i].code & 0xffff) == 0x41d0 &&
			 !strcmp(di.counters[i].name, "event=0xd0,umask=0x41");
	assert_true(split);

	/* Sapphire Rapids: the aux event 0x8203 counted beside load latency is listed too. */
	clear_lines();
	assert_int_equal(sim_select("spr"), 0);
	hw_install(sim_hw_ops());
	report_reset();
	cpu_probe(&ci);
	strcpy(o.job.kernels, "chase-l1");
	job_main(&o.job, &ci);
	read_dump("chase-l1-load.pebs", &di);
	split = false;
	for (unsigned int i = 1; i < di.n_counters; i++)
		split |= (di.counters[i].code & 0xffff) == 0x8203 &&
			 di.counters[i].index != di.counters[0].index;
	assert_true(split);
}

/* The per-source table gives ns for min, median, p90, p99 and max; results.json too. */
static void table_ns(void **state)
{
	struct options o;
	struct cpu_info ci;
	unsigned long long v[5], c[5];
	const char *l;
	char path[256], json[1 << 16];
	size_t n;
	FILE *f;

	setup_skl(&o, &ci);
	strcpy(o.job.kernels, "chase-l2");
	job_main(&o.job, &ci);
	l = find_text("INFO:   ", " ns [sim]");
	assert_non_null(l);
	printf("# %s\n", l);
	l = strstr(l, "%");
	assert_non_null(l);
	/* cycles: min median p90 p99 max, then the same five in ns */
	assert_int_equal(
	    sscanf(l + 1, " %llu %*[~]%llu %llu %llu %llu %llu/%llu/%llu/%llu/%llu ns", &c[0],
		   &c[1], &c[2], &c[3], &c[4], &v[0], &v[1], &v[2], &v[3], &v[4]) == 10 ||
		sscanf(l + 1, " %llu %llu %llu %llu %llu %llu/%llu/%llu/%llu/%llu ns", &c[0], &c[1],
		       &c[2], &c[3], &c[4], &v[0], &v[1], &v[2], &v[3], &v[4]) == 10,
	    1);
	for (int i = 1; i < 5; i++)
		assert_true(v[i] >= v[i - 1]);
	/* ns grow with cycles: the max is no less than the min, both from the same clock */
	assert_true(c[4] >= c[0]);
	assert_true(v[4] > 0);
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(json, 1, sizeof(json) - 1, f);
	fclose(f);
	json[n] = 0;
	assert_non_null(strstr(json, "\"min_ns\":"));
	assert_non_null(strstr(json, "\"max_ns\":"));
}

/* A request the generation forbids: one FAIL line with the reason, no wrmsr at all. */
static void user_event_refused(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l;

	setup_skl(&o, &ci);
	strcpy(o.job.kernels, "chase-l1");
	/*
	 * CPU_CLK_UNHALTED.THREAD_P: no PEBS event on Skylake (libpfm4 skl
	 * is_precise 0); a PEBS event with a counter mask (SDM 18.9.4 NOTE).
	 */
	strcpy(o.job.events, "CPU_CLK_THREAD_UNHALTED:THREAD_P;event=0xcd,umask=0x1,cmask=1");
	n_wrmsr = 0;
	job_main(&o.job, &ci);
	l = find_line("FAIL: ", "chase-l1/event1");
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "chase-l1/event1: refused: "));
	assert_non_null(strstr(l, "not PEBS-capable"));
	l = find_line("FAIL: ", "chase-l1/event2");
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
	strcpy(o.job.kernels, "chase-l1");
	o.job.buffer_kib = 4;
	o.job.period = 32;
	o.job.drain = PEBS_DRAIN_POLL;
	job_main(&o.job, &ci);
	l = find_text("chase-l1/load: records drained", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "(inferred from the kernel's accesses"));
	assert_null(strstr(l, "lost 0 "));
	assert_non_null(find_line("FAIL: ", "chase-l1/load"));
}

int main(void)
{
	size_t n = sim_model_count();
	struct CMUnitTest *tests = calloc(n + 6, sizeof(*tests));

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
	tests[n + 1].name = "user_events";
	tests[n + 1].test_func = user_events;
	tests[n + 2].name = "user_event_refused";
	tests[n + 2].test_func = user_event_refused;
	tests[n + 3].name = "dump_counters";
	tests[n + 3].test_func = dump_counters;
	tests[n + 4].name = "lost_inferred";
	tests[n + 4].test_func = lost_inferred;
	tests[n + 5].name = "table_ns";
	tests[n + 5].test_func = table_ns;
	return _cmocka_run_group_tests("job_mainjob", tests, n + 6, NULL, NULL);
}
