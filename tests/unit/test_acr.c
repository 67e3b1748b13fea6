// SPDX-License-Identifier: MIT
/*
 * test_acr.c - auto counter reload in the job: the acr-reload kernel's
 * verdict (kernels/acr.c) on counts with and without reloads, the
 * refusals of acr= before any PMU write, and the kernel through app_run()
 * on the simulator with sim-acr= (the simulator's own ACR:
 * test_sim_acr.c).
 */
#include "test_sim_util.h"
#include "test_options.h"
#include "test_util.h"

#include "app/app.h"
#include "kernels/acr.h"
#include "lib/report.h"
#include "pmu/cpu.h"

/*
 * The verdict: the counts of a run with reloads pass, those of a run without
 * fail.  The self-reloaded cause counter's GLOBAL_STATUS bit stays clear
 * (the SDM as Linux 1271aeccc307 quotes it): a pass needs it clear.
 */
static void test_judge(void **state)
{
	struct acr_result r = {
	    .ctr = {.reloaded = 2, .cause = 3, .total = 0},
	    .period = 997,
	    .reload = 1u << 30,
	    .width = 48,
	    .total = 10 * 997 + 5,
	    .status = 0,
	};
	char why[320];

	r.reloaded = r.reload + 5;
	r.cause = (0 - 997ull + 5) & MASK48;
	if (!kernels_acr_judge(&r, why, sizeof(why)))
		fail_msg("reloads, cause's overflow bit clear: %s", why);
	/* The same counts with the bit set: not what the SDM says of a self-reload. */
	r.status = 1ull << 3;
	assert_false(kernels_acr_judge(&r, why, sizeof(why)));
	assert_non_null(strstr(why, "cause gp3 reloaded itself but its IA32_PERF_GLOBAL_STATUS bit "
				    "is set (0x8)"));
	r.status = 0;
	/* No reloads at all: gp2 holds the total, gp3 wrapped once. */
	r.reloaded = r.total;
	r.cause = r.total - 997;
	assert_false(kernels_acr_judge(&r, why, sizeof(why)));
	assert_non_null(strstr(why, "cause gp3 did not reload itself"));
	/* The cause reloads itself, but gp2 was never reloaded from CFG_C. */
	r.cause = (0 - 997ull + 5) & MASK48;
	assert_false(kernels_acr_judge(&r, why, sizeof(why)));
	assert_non_null(strstr(why, "reloaded gp2 holds 9975, not the reload value"));
	/* Too short a run cannot tell. */
	r.total = 1000;
	assert_false(kernels_acr_judge(&r, why, sizeof(why)));
	assert_non_null(strstr(why, "cannot tell"));
}

static int run(const char *line)
{
	struct options o;
	char err[REPORT_LINE_MAX];

	test_lines_capture();
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	o.job.dump = false;
	test_option(&o, "cpus=boot");
	strcpy(o.job.results, "none");
	strcpy(o.log, "none");
	if (options_parse_line(&o, line, false, err, sizeof(err))) {
		report_line("ERROR: %s", err);
		return EXIT_USAGE;
	}
	return app_run(&o, NULL);
}

/* Every MSR write before the ERROR line is the probe's IA32_BIOS_SIGN_ID (8BH). */
static void refused(const char *line, const char *want)
{
	unsigned int writes = 0;

	assert_int_equal(run(line), EXIT_USAGE);
	test_refused_lines(line, want);
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (!strncmp(test_lines[i], "MSR: wrmsr ", 11)) {
			writes++;
			if (strncmp(test_lines[i], "MSR: wrmsr 0x8b ", 16))
				fail_msg("%s: a PMU write before the refusal: %s", line,
					 test_lines[i]);
		}
	assert_int_equal(writes, 1);
}

static void test_refusals(void **state)
{
	/* No ACR enumerated: the model alone claims none. */
	refused("model=ptl trace=msr kernels=acr-reload",
		"option acr=auto (kernel acr-reload): auto counter reload: CPUID.23H.0:EAX[2] is "
		"clear: this CPU has no ACR");
	refused("model=skl trace=msr kernels=acr-reload", "(no leaf 23H)");
	/* GP 0 and 1 may not be reloaded nor cause a reload here. */
	refused("model=ptl trace=msr kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=gp0:gp3",
		"gp0 may not be reloaded: CPUID.23H.2:EAX is 0xfc, the GP counters 0x3ff "
		"(accepted: acr=auto, or acr=gpR:gpC with R in EAX 0xfc)");
	refused("model=ptl trace=msr kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=gp2:gp1",
		"gp1 cannot be the cause counter");
	/* The cause counter reloads itself: it must be in EAX too. */
	refused("model=ptl trace=msr kernels=acr-reload sim-acr=0x0c,0,0xf0,0 acr=gp2:gp4",
		"gp4 cannot be the cause counter");
	refused("model=ptl trace=msr kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=gp3:gp3",
		"gp3 cannot be the cause counter");
	/* A counter the CPU does not have (ptl's P-core: GP 0-9). */
	refused("model=ptl trace=msr kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=gp40:gp2",
		"gp40 may not be reloaded");
	refused(
	    "model=ptl trace=msr kernels=acr-reload sim-acr=0xfc,0,0xfc,0 acr=auto acr=gp3:gp40",
	    "gp40 cannot be the cause counter");
	/* Syntax, before any backend. */
	assert_int_equal(run("acr=gp3"), EXIT_USAGE);
	assert_non_null(test_line_find("ERROR: ", "option acr: bad value 'gp3' (accepted: auto"));
	assert_int_equal(run("sim-acr=0xfc,0"), EXIT_USAGE);
	assert_non_null(test_line_find("ERROR: ", "option sim-acr: bad value '0xfc,0'"));
}

/*
 * The kernel's line: "gpR = 1073741824 + X after N instructions (gpT)":
 * X must be N mod 997 (the count since the cause counter's last reload),
 * worked out here from the total.
 */
static void kernel_pass(const char *line, unsigned int want_r)
{
	const char *pass = test_line_find("PASS: acr-reload/acr: ", NULL);
	unsigned int r, t;
	unsigned long long reload, x, n;

	if (!pass) {
		test_lines_dump(stderr);
		fail_msg("%s: no PASS line", line);
	}
	if (sscanf(pass, "PASS: acr-reload/acr: gp%u = %llu + %llu after %llu instructions (gp%u)",
		   &r, &reload, &x, &n, &t) != 5)
		fail_msg("%s: cannot read '%s'", line, pass);
	assert_int_equal(r, want_r);
	assert_int_equal(reload, 1ull << 30);
	assert_true(n >= 2 * 997);
	assert_int_equal(x, n % 997);
}

static void retire_30000(void *arg)
{
	hw_current()->retire(0x1000, 30000);
}

/*
 * A CFG_B left non-zero on the total counter by an earlier user (here: gp0
 * reloaded on gp2's overflows) is cleared for the run and put back after
 * (Linux core.c intel_pmu_enable_acr clears CFG_B of counters outside the
 * group); gp0 may be reloaded here (CPUID.23H.2:EAX 0xff), so it has one.
 */
static void test_stale_total(void **state)
{
	const struct acr_counters want = {.reloaded = 3, .cause = 2, .total = -1};
	struct cpu_info ci;
	struct acr_result res;
	char why[320];

	use_model("ptl");
	sim_set_acr(0xff, 0, 0xfc, 0);
	cpu_probe(&ci);
	wr(0x1902, 1ull << 2); /* gp0's CFG_B: reload on gp2's overflow */
	assert_int_equal(
	    acr_run(&ci, &want, retire_30000, NULL, 0, NULL, NULL, &res, why, sizeof(why)), 0);
	assert_int_equal(res.ctr.total, 0);
	if (!kernels_acr_judge(&res, why, sizeof(why)))
		fail_msg("gp0 with a stale CFG_B as the total: %s", why);
	assert_int_equal(res.total, 30000);
	assert_int_equal(rd(0x1902), 1ull << 2); /* put back */
}

static void test_kernel(void **state)
{
	const char *line = "model=ptl kernels=acr-reload sim-acr=0xfc,0,0xfc,0";

	/* acr=auto: the cause is the lowest counter in both masks (gp2), gp3 is reloaded. */
	assert_int_equal(run(line), EXIT_PASS);
	kernel_pass(line, 3);
	/* Every MSR the group wrote is back at its power-on value. */
	for (unsigned int i = 0; i < 4; i++) {
		assert_int_equal(rd(0x1902 + 4 * i), 0); /* CFG_B */
		assert_int_equal(rd(CFG_C_GP(i)), 0);
		assert_int_equal(rd(EVTSEL(i)), 0);
		assert_int_equal(rd(PMC(i)), 0);
	}
	assert_int_equal(rd(GLOBAL_CTRL), 0x3ff); /* power-on: the GP counters enabled */
	assert_int_equal(rd(GLOBAL_STATUS), 0);
	/* Lunar Lake (fmt6 PEBS, no arch-PEBS) with ACR on GP 4-7. */
	line = "model=lnl kernels=acr-reload sim-acr=0xf0,0,0xf0,0 acr=gp5:gp4";
	assert_int_equal(run(line), EXIT_PASS);
	kernel_pass(line, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_judge),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_stale_total),
	    cmocka_unit_test(test_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
