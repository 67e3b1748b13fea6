// SPDX-License-Identifier: MIT
/*
 * test_app.c - app_run()'s decisions on the host, where there is no real
 * backend (the host hands the app none): pmu=hw SKIPs with exit 77, a bad
 * simulator model is a usage error (2) before any MSR access, model=list
 * lists and exits 0, pmu=sim marks every line [sim].  With a stand-in
 * handed in as the real backend, selftest=gp runs its checks on it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "app/app.h"
#include "lib/report.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"

static int setup(void **state)
{
	test_lines_capture();
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	hw_reset_msr_access_count();
	return 0;
}

static void test_hw_without_backend_skips(void **state)
{
	struct options o;

	options_defaults(&o);
	o.pmu = OPT_PMU_HW;
	assert_int_equal(app_run(&o, NULL), EXIT_ALL_SKIPPED);
	assert_string_equal(test_line_find("SKIP: ", NULL),
			    "SKIP: pmu: pmu=hw: this build has no real PMU backend (host build)");
	assert_string_equal(test_line_find("SUMMARY: ", NULL),
			    "SUMMARY: 1 tests, 0 failures, 1 skipped");
	assert_int_equal(hw_msr_access_count(), 0);
}

static void test_bad_model_is_usage_error(void **state)
{
	struct options o;
	const char *err;

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	strcpy(o.model, "k7");
	o.trace_msr = true;
	assert_int_equal(app_run(&o, NULL), EXIT_USAGE);
	err = test_line_find("ERROR: ", NULL);
	assert_non_null(err);
	assert_non_null(strstr(err, "option model: unknown simulator model 'k7' (accepted: "));
	/* Every model is named, then list. */
	for (size_t i = 0; i < sim_model_count(); i++)
		assert_non_null(strstr(err, sim_model_at(i)->name));
	assert_non_null(strstr(err, ", list)"));
	assert_int_equal(test_line_count("ERROR: "), 1);
	assert_int_equal(test_line_count("MSR: "), 0);
	assert_int_equal(test_line_count("SUMMARY: "), 0);
	assert_int_equal(hw_msr_access_count(), 0);
}

static void test_model_list(void **state)
{
	struct options o;

	options_defaults(&o);
	strcpy(o.model, "list");
	assert_int_equal(app_run(&o, NULL), EXIT_PASS);
	assert_int_equal(test_line_count("INFO: model "), sim_model_count());
	assert_true(sim_model_count() > 0);
	assert_int_equal(hw_msr_access_count(), 0);
}

static void test_sim_report_marks_lines(void **state)
{
	struct options o;

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	o.report_only = true;
	strcpy(o.model, sim_model_at(0)->name);
	assert_int_equal(app_run(&o, NULL), EXIT_PASS);
	report_summary();
	assert_non_null(test_line_find("INFO: cpu: vendor ", NULL));
	/* The verdicts and SUMMARY say [sim]; no other line does (report.h). */
	for (unsigned int i = 0; i < test_n_lines; i++) {
		const char *l = test_lines[i];
		size_t n = strlen(l);
		bool want = !strncmp(l, "PASS: ", 6) || !strncmp(l, "FAIL: ", 6) ||
			    !strncmp(l, "SKIP: ", 6) || !strncmp(l, "SUMMARY: ", 9);

		if (want != (n > 6 && !strcmp(l + n - 6, " [sim]"))) {
			print_error("line %u %s [sim]: %s\n", i, want ? "lacks" : "has", l);
			fail();
		}
	}
	assert_non_null(test_line_find("SUMMARY: ", " [sim]"));
	report_set_simulated(false);
}

static void test_auto_on_host_simulates(void **state)
{
	struct options o;

	options_defaults(&o);
	o.report_only = true;
	strcpy(o.model, sim_model_at(0)->name);
	assert_int_equal(app_run(&o, NULL), EXIT_PASS);
	assert_non_null(
	    test_line_find("INFO: pmu=auto: no real backend in this build: simulated PMU", NULL));
	assert_true(hw_is_simulated());
	report_set_simulated(false);
}

/* kernels=none measures nothing: one SKIP saying so, exit 77, never a clean 0. */
static void test_kernels_none_skips(void **state)
{
	struct options o;

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	test_option(&o, "kernels=none");
	assert_int_equal(app_run(&o, NULL), EXIT_ALL_SKIPPED);
	assert_non_null(test_line_find("SKIP: main-job: kernels=none: ", NULL));
	assert_non_null(test_line_find("SUMMARY: 1 tests, 0 failures, 1 skipped", NULL));
	report_set_simulated(false);
}

/*
 * app_select() decides before anything prints: CPUID only, no MSR, no
 * line; the report is marked simulated so the caller's banner carries
 * [sim]; app_run() then prints what decided.
 */
static void test_select_prints_nothing_touches_no_msr(void **state)
{
	struct options o;
	char err[REPORT_LINE_MAX];

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	o.report_only = true;
	assert_int_equal(app_select(&o, NULL, err, sizeof(err)), 0);
	assert_int_equal(test_n_lines, 0);
	assert_int_equal(hw_msr_access_count(), 0);
	assert_true(report_is_simulated());
	report_banner("banner");
	assert_string_equal(test_lines[0], "INFO: banner [sim]");
	assert_int_equal(app_run(&o, NULL), EXIT_PASS);
	assert_non_null(test_line_find("INFO: pmu backend: sim, model skl", NULL));
	report_set_simulated(false);
}

/* The #GP self test proves the real CPU's trap: no real backend, no test. */
static void test_selftest_gp_needs_real_backend(void **state)
{
	struct options o;

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	o.report_only = true;
	o.selftest = OPT_SELFTEST_GP;
	assert_int_equal(app_run(&o, NULL), EXIT_ALL_SKIPPED);
	assert_non_null(test_line_find("SKIP: selftest-gp: this build has no real backend", NULL));
	assert_int_equal(test_line_count("FAIL: "), 0);
	assert_true(hw_is_simulated());
	report_set_simulated(false);
}

/*
 * A stand-in for the real backend (struct app_real): the simulator's ops,
 * except that WRMSR IA32_PKRS (6E1H) faults and IA32_APIC_BASE reads, and
 * a trap counter that a faulting write advances by `step`.
 */
static struct hw_ops fake_ops;
static unsigned long fake_faults, fake_step;

static enum hw_fault fake_rdmsr(uint32_t msr, uint64_t *val)
{
	if (msr == 0x1b) {
		*val = 0xfee00900;
		return HW_OK;
	}
	return sim_hw_ops()->rdmsr(msr, val);
}

static enum hw_fault fake_wrmsr(uint32_t msr, uint64_t val)
{
	if (msr == 0x6e1) {
		fake_faults += fake_step;
		return HW_GP;
	}
	return sim_hw_ops()->wrmsr(msr, val);
}

static unsigned long fake_gp_trapped(void)
{
	return fake_faults;
}

static bool fake_ok(char *why, size_t why_size)
{
	(void)why, (void)why_size;
	return true;
}

static const struct app_real fake_real = {
    .ops = &fake_ops,
    .gp_trapped = fake_gp_trapped,
    .idt_intact = fake_ok,
    .selftest_vector = fake_ok,
    .selftest_dirty_regs = fake_ok,
    .selftest_ap_interrupt = fake_ok,
};

static void fake_setup(struct options *o, unsigned long step)
{
	assert_int_equal(sim_select("skl"), 0);
	fake_ops = *sim_hw_ops();
	fake_ops.name = "hw";
	fake_ops.simulated = false;
	fake_ops.rdmsr = fake_rdmsr;
	fake_ops.wrmsr = fake_wrmsr;
	fake_faults = 0;
	fake_step = step;
	options_defaults(o);
	o->pmu = OPT_PMU_SIM;
	o->report_only = true;
	o->selftest = OPT_SELFTEST_GP;
}

/* selftest=gp runs on the backend the platform handed in, then puts the simulator back. */
static void test_selftest_gp_on_handed_backend(void **state)
{
	struct options o;

	fake_setup(&o, 1);
	assert_int_equal(app_run(&o, &fake_real), EXIT_PASS);
	assert_non_null(
	    test_line_find("INFO: selftest=gp: on the real CPU, not the simulated PMU", NULL));
	assert_non_null(
	    test_line_find("PASS: selftest-gp-read: real CPU: rdmsr 0x1b (IA32_APIC_BASE)", NULL));
	assert_non_null(test_line_find(
	    "PASS: selftest-gp-fault: real CPU: wrmsr 0x6e1 <- 0x100000000 raised #GP", NULL));
	assert_non_null(
	    test_line_find("PASS: selftest-gp-regs: real CPU: with garbage in rax", NULL));
	assert_non_null(test_line_find("PASS: selftest-gp-idt: real CPU: firmware IDT", NULL));
	assert_non_null(test_line_find("PASS: selftest-pmi-vector: ", NULL));
	assert_int_equal(test_line_count("FAIL: "), 0);
	assert_true(hw_is_simulated());
	report_set_simulated(false);
}

/* A fault the trap did not count is a failure: the counter comes from the handed backend. */
static void test_selftest_gp_counts_the_trap(void **state)
{
	struct options o;

	fake_setup(&o, 0);
	assert_int_equal(app_run(&o, &fake_real), EXIT_FAIL);
	assert_non_null(test_line_find(
	    "FAIL: selftest-gp-fault: #GP reported but the trap counted 0 faults, not 1", NULL));
	report_set_simulated(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_hw_without_backend_skips, setup),
	    cmocka_unit_test_setup(test_bad_model_is_usage_error, setup),
	    cmocka_unit_test_setup(test_model_list, setup),
	    cmocka_unit_test_setup(test_sim_report_marks_lines, setup),
	    cmocka_unit_test_setup(test_auto_on_host_simulates, setup),
	    cmocka_unit_test_setup(test_kernels_none_skips, setup),
	    cmocka_unit_test_setup(test_select_prints_nothing_touches_no_msr, setup),
	    cmocka_unit_test_setup(test_selftest_gp_needs_real_backend, setup),
	    cmocka_unit_test_setup(test_selftest_gp_on_handed_backend, setup),
	    cmocka_unit_test_setup(test_selftest_gp_counts_the_trap, setup),
	};

	/* One host CPU, whatever the machine: cpus=all measures it (test_job_cpus.c: several). */
	setenv("PEBSPROBE_HOST_CPUS", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
