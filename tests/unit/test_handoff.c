// SPDX-License-Identifier: MIT
/*
 * test_handoff.c - the firmware hand-off audit end to end on the host,
 * against the simulated PMU: each sim-handoff= kind left on chosen CPUs
 * of a four-CPU machine, the main job run as the app runs it.  Each row
 * says which finding kinds (pmu/handoff.c's names) must be reported on
 * which CPUs, and the verdicts; then every register the kind left is read
 * back on its CPU, through the seam, and must be as it was left.  Then the
 * option's bad values, handoff=strict, the SMI count, and handoff_compare.
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
#include "lib/cpurun.h"
#include "lib/platform.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/handoff.h"
#include "pmu/hw.h"
#include "pmu/msr.h"
#include "sim/sim.h"
#include "test_util.h"

static char outdir[] = "/tmp/pebsprobe-handoff-XXXXXX";

#define ACR_ON	"sim-acr=0xfc,0,0xfc,0"
#define ACR_ALL "sim-acr=0xff,0,0xff,0"

/* A register as the kind left it, read back after the run on that CPU: (val & mask) == want. */
struct left {
	uint32_t msr;
	uint64_t mask, want;
};

struct hcase {
	const char *name;
	const char *opts;     /* besides results=none dump=off */
	const char *kinds[4]; /* finding kinds that must be reported ... */
	const char *cpus[4];  /* ... on exactly these CPUs ("cpu 1", "cpus 0-3") */
	const char *verdict;  /* the firmware-handoff line starts with it */
	const char *run;      /* the kernel's run, PASS on every CPU but skip_cpu's */
	int skip_cpu;	      /* -1 none: the CPU whose run SKIPs, not run (BTS on it) */
	unsigned int left_cpu;
	struct left left[3];
};

#define PTL  "model=ptl kernels=chase-l1 "
#define WARN "PASS: firmware-handoff: warn: "
#define NONE "PASS: firmware-handoff: nothing left"

/*
 * bts-legacy and ctr-frz-acr pass only with the session's defect fixes of
 * the hand-off work (check BTS on the measured CPU; ACR clears a stale
 * CTR_FRZ): on d1e4054 the first writes DS_AREA under CPU 1's BTS (the
 * simulator's bts-ds-area rule), the second's acr-reload FAILs on CPU 1.
 */
// clang-format off
static const struct hcase cases[] = {
    {"counter", PTL "sim-handoff=cpu2:counter",
     {"counter-enabled", "counter-value", "inuse"}, {"cpu 2", "cpu 2", "cpu 2"}, WARN,
     "chase-l1/load", -1,
     2, {{MSR_IA32_PERFEVTSEL0, ~0ULL, 0x4300c0}}},
    {"bts", PTL "sim-handoff=cpu1:bts",
     {"bts", "tr", "ds-area"}, {"cpu 1", "cpu 1", "cpu 1"}, WARN, "chase-l1/load", -1,
     1, {{MSR_IA32_DEBUGCTL, DEBUGCTL_TR | DEBUGCTL_BTS, DEBUGCTL_TR | DEBUGCTL_BTS}}},
    {"ctr-frz", PTL "sim-handoff=cpu3:ctr-frz",
     {"ctr-frz"}, {"cpu 3"}, WARN, "chase-l1/load", -1,
     3, {{MSR_IA32_PERF_GLOBAL_STATUS, GLOBAL_STATUS_CTR_FRZ, GLOBAL_STATUS_CTR_FRZ}}},
    {"cfg-b", PTL "sim-handoff=cpu0:cfg-b " ACR_ON,
     {"cfg-b"}, {"cpu 0"}, WARN, "chase-l1/load", -1,
     0, {{MSR_IA32_PMC_GP0_CFG_B + 3 * MSR_V6_STEP, ~0ULL, 1u << 2}}},
    /*
     * ACR on every GP counter: the cause is GP0 and CFG_B of GP1 names it.
     * split-line's store run counts split stores on GP1 beside its
     * sampling on GP0, so the stale mask sits on the session's own
     * counters (defect 5 end to end): not zeroed, every overflow of the
     * sampling reloads the count and split-line/store FAILs on cpu 1.
     */
    {"cfg-b-own", "model=ptl kernels=split-line sim-handoff=cpu1:cfg-b " ACR_ALL,
     {"cfg-b"}, {"cpu 1"}, WARN, "split-line/store", -1,
     1, {{MSR_IA32_PMC_GP0_CFG_B + 1 * MSR_V6_STEP, ~0ULL, 1u << 0}}},
    {"no-smm-freeze", PTL "sim-handoff=cpu1:no-smm-freeze",
     {"no-smm-freeze"}, {"cpu 1"}, NONE, "chase-l1/load", -1,
     1, {{MSR_IA32_DEBUGCTL, 1u << 14, 0}}},
    {"spread", PTL "sim-handoff=cpu0:counter,cpu1:bts,cpu2:ctr-frz,cpu3:no-smm-freeze,"
     "cpu3:counter,cpu0:cfg-b,cpu2:smi2 " ACR_ON,
     {"counter-enabled", "bts", "ctr-frz", "no-smm-freeze"},
     {"cpus 0,3", "cpu 1", "cpu 2", "cpu 3"}, WARN, "chase-l1/load", -1,
     3, {{MSR_IA32_PERFEVTSEL0, ~0ULL, 0x4300c0}, {MSR_IA32_DEBUGCTL, 1u << 14, 0}}},
    {"bts-legacy", "model=skl kernels=chase-l1 sim-handoff=cpu1:bts",
     {"bts"}, {"cpu 1"}, WARN, "chase-l1/load", 1,
     1, {{MSR_IA32_DEBUGCTL, DEBUGCTL_TR | DEBUGCTL_BTS, DEBUGCTL_TR | DEBUGCTL_BTS}}},
    {"ctr-frz-acr", "model=ptl kernels=acr-reload sim-handoff=cpu1:ctr-frz " ACR_ON,
     {"ctr-frz"}, {"cpu 1"}, WARN, "acr-reload/acr", -1,
     1, {{MSR_IA32_PERF_GLOBAL_STATUS, GLOBAL_STATUS_CTR_FRZ, GLOBAL_STATUS_CTR_FRZ}}},
    /* The arch-PEBS threshold bit left set: put back where STATUS_SET takes it. */
    {"arch-pebs-ovf", PTL "sim-handoff=cpu2:arch-pebs-ovf",
     {"arch-pebs-ovf"}, {"cpu 2"}, WARN, "chase-l1/load", -1,
     2, {{MSR_IA32_PERF_GLOBAL_STATUS, GLOBAL_STATUS_ARCH_PEBS, GLOBAL_STATUS_ARCH_PEBS}}},
    /*
     * ... and where STATUS_SET refuses bit 54 (no-set-54), beside CTR_FRZ:
     * CTR_FRZ is put back, 54 stays clear and is reported, and no session
     * fails.  On 43a619e the one STATUS_SET write of both bits raised #GP,
     * twice, so neither came back and chase-l1/load@cpu1 FAILed.
     */
    {"status-set-refuses-54",
     PTL "sim-handoff=cpu1:arch-pebs-ovf,cpu1:no-set-54,cpu1:ctr-frz",
     {"arch-pebs-ovf", "ctr-frz"}, {"cpu 1", "cpu 1"}, WARN, "chase-l1/load", -1,
     1, {{MSR_IA32_PERF_GLOBAL_STATUS, GLOBAL_STATUS_ARCH_PEBS | GLOBAL_STATUS_CTR_FRZ,
          GLOBAL_STATUS_CTR_FRZ}}},
    /*
     * A firmware counter with INT set, near overflow, under drain=pmi: it
     * overflows at the first LVTPC unmask (sim/handoff.c).  Unmasked before
     * arm() (738d90f), the PMI handler wrote the plan's GLOBAL_CTRL over the
     * firmware's EVTSELs: the simulator's global-ctrl-unprogrammed rule FAILs.
     */
    {"counter-int-pmi", PTL "drain=pmi sim-handoff=cpu1:counter-int",
     {"counter-enabled", "counter-value", "inuse"}, {"cpu 1", "cpu 1", "cpu 1"}, WARN,
     "chase-l1/load", -1,
     1, {{MSR_IA32_PERFEVTSEL0, ~0ULL, 0x5300c0}}},
    {"counter-int-skl", "model=skl kernels=chase-l1 drain=pmi sim-handoff=cpu2:counter-int",
     {"counter-enabled", "counter-value", "inuse"}, {"cpu 2", "cpu 2", "cpu 2"}, WARN,
     "chase-l1/load", -1,
     2, {{MSR_IA32_PERFEVTSEL0, ~0ULL, 0x5300c0}}},
};
// clang-format on

static const struct handoff_kind *kind_named(const char *name)
{
	for (unsigned int k = 0; k < handoff_kind_count(); k++)
		if (!strcmp(handoff_kind_at(k)->name, name))
			return handoff_kind_at(k);
	return NULL;
}

/* options, app_select (the simulator, sim-handoff= applied), the main job, as the app does. */
static int run_app(const char *extra, struct options *o, char *err, size_t err_size)
{
	char line[512];
	struct cpu_info ci;
	int rc;

	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	test_lines_clear();
	report_reset();
	options_defaults(o);
	snprintf(line, sizeof(line), "results=none dump=off %s", extra);
	if (options_parse_line(o, line, false, err, err_size))
		return -1;
	rc = app_select(o, NULL, err, err_size);
	if (rc)
		return rc;
	report_set_simulated(true);
	cpu_probe(&ci);
	job_main(&o->job, &ci);
	return 0;
}

struct rd_on {
	uint32_t msr;
	uint64_t v;
	enum hw_fault f;
};

static void rd_here(void *p)
{
	struct rd_on *r = p;

	r->f = hw_rdmsr(r->msr, &r->v);
}

static uint64_t rd_cpu(unsigned int cpu, uint32_t msr)
{
	struct rd_on r = {.msr = msr};

	assert_int_equal(cpurun_run(cpu, rd_here, &r, 0, NULL, NULL), 0);
	assert_int_equal(r.f, HW_OK);
	return r.v;
}

static void run_case(void **state)
{
	const struct hcase *c = *state;
	struct options o;
	char err[256], want[160];

	if (run_app(c->opts, &o, err, sizeof(err))) {
		print_error("%s: refused: %s\n", c->name, err);
		fail();
	}
	for (unsigned int i = 0; i < 4 && c->kinds[i]; i++) {
		const struct handoff_kind *k = kind_named(c->kinds[i]);

		assert_non_null(k);
		snprintf(want, sizeof(want), "hand-off%s: %s: %s", k->warn ? "" : " note", k->words,
			 c->cpus[i]);
		if (!test_line_find("INFO: ", want)) {
			print_error("%s: no line 'INFO: %s'\n", c->name, want);
			test_lines_dump(stderr);
			fail();
		}
	}
	if (test_line_find("FAIL: ", NULL)) {
		print_error("%s: %s\n", c->name, test_line_find("FAIL: ", NULL));
		fail();
	}
	assert_non_null(test_line_find(c->verdict, NULL));
	assert_non_null(test_line_find("PASS: handoff-restored: ", NULL));
	snprintf(want, sizeof(want), "PASS: %s@cpu", c->run); /* one per CPU */
	assert_int_equal(test_line_count(want), c->skip_cpu < 0 ? 4 : 3);
	if (c->skip_cpu >= 0) {
		snprintf(want, sizeof(want), "cpu %d ", c->skip_cpu);
		assert_non_null(test_line_find("SKIP: ", want));
	}
	/* Every register the kind left, on its CPU, as it was left (not as pebsprobe last wrote).
	 */
	for (unsigned int i = 0; i < 3 && c->left[i].msr; i++) {
		uint64_t v = rd_cpu(c->left_cpu, c->left[i].msr);

		if ((v & c->left[i].mask) != c->left[i].want) {
			print_error("%s: cpu %u MSR 0x%x = 0x%llx after the run, want 0x%llx "
				    "under 0x%llx\n",
				    c->name, c->left_cpu, c->left[i].msr, (unsigned long long)v,
				    (unsigned long long)c->left[i].want,
				    (unsigned long long)c->left[i].mask);
			fail();
		}
	}
}

/* Nothing left: PASS with no finding line. */
static void nothing_left(void **state)
{
	struct options o;
	char err[256];

	assert_int_equal(run_app(PTL, &o, err, sizeof(err)), 0);
	assert_non_null(test_line_find("PASS: firmware-handoff: nothing left", "cpus 0-3"));
	assert_null(test_line_find("INFO: hand-off: ", NULL));
	assert_non_null(test_line_find("PASS: handoff-restored: ", "cpus 0-3"));
}

/*
 * PERF_METRICS (0x329) moves while fixed counter 3 (SLOTS) counts, which
 * every session lets it do; on the P-cores of ptl (PERF_CAPABILITIES[15])
 * the session puts it back after FIXED_CTR3, so it reads 0 as at power-on
 * and the hand-off check, which reads it, passes.
 */
static void perf_metrics_restored(void **state)
{
	struct options o;
	char err[256];

	assert_int_equal(run_app(PTL, &o, err, sizeof(err)), 0);
	if (test_line_find("FAIL: handoff-restored: ", NULL))
		fail_msg("%s", test_line_find("FAIL: handoff-restored: ", NULL));
	assert_non_null(test_line_find("PASS: handoff-restored: ", "cpus 0-3"));
	for (unsigned int cpu = 0; cpu < 2; cpu++)
		assert_int_equal(rd_cpu(cpu, MSR_PERF_METRICS), 0);
}

/*
 * STATUS_SET refuses bit 54 on CPU 1: the note names the bit and the CPU,
 * handoff-restored says all but that bit, and results.json's handoff
 * object of CPU 1 carries it.
 */
static void unrestorable_reported(void **state)
{
	struct options o;
	char err[256];

	assert_int_equal(
	    run_app(PTL "sim-handoff=cpu1:arch-pebs-ovf,cpu1:no-set-54", &o, err, sizeof(err)), 0);
	if (!test_line_find("INFO: hand-off note: GLOBAL_STATUS bit 54 not restorable: ",
			    "cpu 1")) {
		test_lines_dump(stderr);
		fail_msg("no note naming GLOBAL_STATUS bit 54 on cpu 1");
	}
	assert_non_null(
	    test_line_find("PASS: handoff-restored: warn: all but GLOBAL_STATUS bit 54", NULL));
	assert_null(test_line_find("FAIL: ", NULL));
	/* Where STATUS_SET takes it, nothing is left to report. */
	assert_int_equal(run_app(PTL "sim-handoff=cpu1:arch-pebs-ovf", &o, err, sizeof(err)), 0);
	assert_null(test_line_find("INFO: hand-off note: GLOBAL_STATUS", NULL));
}

/*
 * A count left in PMC0 that a 32-bit IA32_PMCx write cannot make (SDM Vol.
 * 3B 18.2.6: bits 31:0 written, sign-extended): without full-width writes
 * (snb: PERF_CAPABILITIES[13] clear) 0x80000000 is named not
 * restorable instead of failing handoff-restored; a value that fits, or a
 * part with IA32_A_PMCx (skl), is put back whole.
 */
static void pmc_unrestorable(void **state)
{
	static const struct {
		const char *opts;
		bool note; /* the not-restorable note, and the verdict's "all but" */
	} rows[] = {
	    {"model=snb kernels=chase-l1 sim-handoff=cpu1:counter=0x80000000", true},
	    {"model=snb kernels=chase-l1 sim-handoff=cpu2:counter=0xffffffff", true},
	    {"model=snb kernels=chase-l1 sim-handoff=cpu1:counter=0x7fffffff", false},
	    {"model=snb kernels=chase-l1 sim-handoff=cpu1:counter=0xffff80000000", false},
	    /* bit 31 clear under set upper bits: no sign extension makes it */
	    {"model=snb kernels=chase-l1 sim-handoff=cpu1:counter=0xffff7fffffff", true},
	    {"model=skl kernels=chase-l1 sim-handoff=cpu1:counter=0x80000000", false},
	};
	struct options o;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		assert_int_equal(run_app(rows[i].opts, &o, err, sizeof(err)), 0);
		if (test_line_find("FAIL: ", NULL) ||
		    !test_line_find("INFO: hand-off note: IA32_PMC0 not restorable without",
				    NULL) != !rows[i].note ||
		    !test_line_find(rows[i].note ? "PASS: handoff-restored: warn: all but IA32_PMC0"
						 : "PASS: handoff-restored: every MSR",
				    NULL)) {
			test_lines_dump(stderr);
			fail_msg("row %zu (%s): want %s", i, rows[i].opts,
				 rows[i].note ? "the note, no FAIL" : "every MSR restored");
		}
	}
}

/* handoff=strict: the same finding fails the run. */
static void strict_fails(void **state)
{
	struct options o;
	char err[256];

	assert_int_equal(
	    run_app(PTL "handoff=strict sim-handoff=cpu1:counter", &o, err, sizeof(err)), 0);
	assert_non_null(test_line_find("FAIL: firmware-handoff: ", "handoff=strict"));
	assert_int_equal(report_exit_status(), EXIT_FAIL);
}

/* N SMIs per sampling on CPU 2: its sampling says so, the others do not. */
static void smis_named(void **state)
{
	struct options o;
	char err[256];
	unsigned int with = 0;

	assert_int_equal(run_app(PTL "sim-handoff=cpu2:smi7", &o, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < test_n_lines; i++)
		with += !strncmp(test_lines[i], "PASS: chase-l1/load@cpu2: ", 26) &&
			strstr(test_lines[i], "; 7 SMIs during the sampling");
	assert_int_equal(with, 1);
	assert_null(test_line_find("PASS: chase-l1/load@cpu1: ", "SMIs during"));
	assert_null(test_line_find("FAIL: ", NULL));
}

/*
 * lost-restore: CPU 1 drops the write that puts PERFEVTSEL0 back, so the
 * check after its last session must FAIL, naming that MSR and both values.
 */
static void lost_restore_fails(void **state)
{
	struct options o;
	char err[256];

	assert_int_equal(run_app(PTL "sim-handoff=cpu1:lost-restore", &o, err, sizeof(err)), 0);
	if (!test_line_find("FAIL: handoff-restored: ",
			    "cpu 1: MSR 0x186: 0x4300c0 at hand-off, ")) {
		test_lines_dump(stderr);
		fail_msg("no handoff-restored FAIL naming cpu 1's PERFEVTSEL0 (0x186)");
	}
	assert_int_equal(report_exit_status(), EXIT_FAIL);
}

/* Bad values: one error naming what was wrong and what is accepted, before any MSR. */
static void bad_values(void **state)
{
	static const struct {
		const char *opts, *want;
	} bad[] = {
	    {"sim-handoff=cpu1:bogus", "no such KIND 'bogus'"},
	    {"sim-handoff=cpu1", "is not cpuN:KIND"},
	    {"sim-handoff=cpuX:bts", "is not cpuN:KIND"},
	    {"sim-handoff=cpu1:smi0", "smiN needs N"},
	    {"sim-handoff=cpu1:counter=", "counter=V needs V a number"},
	    {"sim-handoff=cpu1:counter=0xg", "counter=V needs V a number"},
	    {"sim-handoff=cpu1:counter=0x1000000000000", "counter=V needs V a number"},
	    {"sim-handoff=cpu7:bts", "cpu7 does not exist"},
	    {"sim-handoff=cpu1:cfg-b", "no auto counter reload"},
	    {"model=skl sim-handoff=cpu1:arch-pebs-ovf", "no arch-PEBS"},
	    {"model=skl sim-handoff=cpu1:no-set-54", "no arch-PEBS"},
	    {"pmu=hw sim-handoff=cpu1:bts", "pmu=hw"},
	    {"handoff=loose", "accepted: warn, strict"},
	};
	struct options o;
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		hw_reset_msr_access_count();
		err[0] = 0;
		char line[256];

		snprintf(line, sizeof(line), PTL "%s", bad[i].opts);
		if (!run_app(line, &o, err, sizeof(err)) || !strstr(err, bad[i].want) ||
		    !strstr(err, "accepted")) {
			print_error("%s: error '%s', want '%s' and what is accepted\n", bad[i].opts,
				    err, bad[i].want);
			fail();
		}
		assert_int_equal(hw_msr_access_count(), 0);
	}
}

/* handoff_compare: a register that came back different is named; a running counter is not. */
static void compare_names_difference(void **state)
{
	struct handoff_state a, b;
	char why[160];

	memset(&a, 0, sizeof(a));
	a.n = 3;
	a.msr[0] = (struct handoff_msr){MSR_IA32_PERFEVTSEL0, true, EVTSEL_EN | 0xc0};
	a.msr[1] = (struct handoff_msr){MSR_IA32_PMC0, true, 5};
	a.msr[2] = (struct handoff_msr){MSR_IA32_DEBUGCTL, true, 0xc0};
	b = a;
	b.msr[1].val = 99; /* still counting: not compared */
	assert_int_equal(handoff_compare(&a, &b, why, sizeof(why)), 0);
	b.msr[2].val = 0;
	assert_int_equal(handoff_compare(&a, &b, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "MSR 0x1d9: 0xc0 at hand-off, 0x0 now"));
	b = a;
	b.lvtpc = 0xee;
	assert_int_equal(handoff_compare(&a, &b, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "LVTPC"));
}

/* The tests beside the case rows, appended after them. */
static const struct CMUnitTest other_tests[] = {
    cmocka_unit_test(nothing_left),
    cmocka_unit_test(strict_fails),
    cmocka_unit_test(smis_named),
    cmocka_unit_test(bad_values),
    cmocka_unit_test(compare_names_difference),
    cmocka_unit_test(lost_restore_fails),
    cmocka_unit_test(perf_metrics_restored),
    cmocka_unit_test(unrestorable_reported),
    cmocka_unit_test(pmc_unrestorable),
};

int main(void)
{
	size_t n = ARRAY_SIZE(cases), total = n + ARRAY_SIZE(other_tests);
	struct CMUnitTest *tests = calloc(total, sizeof(*tests));

	if (!tests || !mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	test_lines_echo = getenv("HANDOFF_VERBOSE") != NULL;
	test_lines_capture();
	for (size_t i = 0; i < n; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = run_case;
		tests[i].initial_state = (void *)&cases[i];
	}
	memcpy(tests + n, other_tests, sizeof(other_tests));
	return _cmocka_run_group_tests("handoff", tests, total, NULL, NULL);
}
