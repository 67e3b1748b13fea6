// SPDX-License-Identifier: MIT
/*
 * test_app.c - app_run()'s decisions on the host, where there is no real
 * backend (host/hw_real_host.c): pmu=hw SKIPs with exit 77, a bad simulator
 * model is a usage error (2) before any MSR access, model=list lists and
 * exits 0, pmu=sim marks every line [sim].
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

static char lines[512][REPORT_LINE_MAX];
static unsigned int n_lines;

static void sink(const char *line, void *ctx)
{
	(void)ctx;
	if (n_lines < 512)
		snprintf(lines[n_lines++], REPORT_LINE_MAX, "%s", line);
}

static int setup(void **state)
{
	n_lines = 0;
	report_init(sink, NULL);
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	hw_reset_msr_access_count();
	return 0;
}

static unsigned int count_prefix(const char *prefix)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < n_lines; i++)
		n += !strncmp(lines[i], prefix, strlen(prefix));
	return n;
}

static const char *find_prefix(const char *prefix)
{
	for (unsigned int i = 0; i < n_lines; i++)
		if (!strncmp(lines[i], prefix, strlen(prefix)))
			return lines[i];
	return NULL;
}

static void test_hw_without_backend_skips(void **state)
{
	struct options o;

	options_defaults(&o);
	o.pmu = OPT_PMU_HW;
	assert_int_equal(app_run(&o), EXIT_ALL_SKIPPED);
	assert_string_equal(find_prefix("SKIP: "),
			    "SKIP: pmu: pmu=hw: this build has no real PMU backend (host build)");
	assert_string_equal(find_prefix("SUMMARY: "), "SUMMARY: 1 tests, 0 failures, 1 skipped");
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
	assert_int_equal(app_run(&o), EXIT_USAGE);
	err = find_prefix("ERROR: ");
	assert_non_null(err);
	assert_non_null(strstr(err, "option model: unknown simulator model 'k7' (accepted: "));
	/* Every model is named, then list. */
	for (size_t i = 0; i < sim_model_count(); i++)
		assert_non_null(strstr(err, sim_model_at(i)->name));
	assert_non_null(strstr(err, ", list)"));
	assert_int_equal(count_prefix("ERROR: "), 1);
	assert_int_equal(count_prefix("MSR: "), 0);
	assert_int_equal(count_prefix("SUMMARY: "), 0);
	assert_int_equal(hw_msr_access_count(), 0);
}

static void test_model_list(void **state)
{
	struct options o;

	options_defaults(&o);
	strcpy(o.model, "list");
	assert_int_equal(app_run(&o), EXIT_PASS);
	assert_int_equal(count_prefix("INFO: model "), sim_model_count());
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
	assert_int_equal(app_run(&o), EXIT_PASS);
	assert_non_null(find_prefix("INFO: cpu: vendor "));
	for (unsigned int i = 0; i < n_lines; i++) {
		size_t n = strlen(lines[i]);

		assert_true(n > 6);
		assert_string_equal(lines[i] + n - 6, " [sim]");
	}
	report_set_simulated(false);
}

static void test_auto_on_host_simulates(void **state)
{
	struct options o;

	options_defaults(&o);
	o.report_only = true;
	strcpy(o.model, sim_model_at(0)->name);
	assert_int_equal(app_run(&o), EXIT_PASS);
	assert_non_null(
	    find_prefix("INFO: pmu=auto: no real backend in this build: simulated PMU"));
	assert_true(hw_is_simulated());
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

	options_defaults(&o);
	o.pmu = OPT_PMU_SIM;
	o.report_only = true;
	app_select(&o);
	assert_int_equal(n_lines, 0);
	assert_int_equal(hw_msr_access_count(), 0);
	assert_true(report_is_simulated());
	report_info("banner");
	assert_string_equal(lines[0], "INFO: banner [sim]");
	assert_int_equal(app_run(&o), EXIT_PASS);
	assert_non_null(find_prefix("INFO: pmu backend: sim, model skl [sim]"));
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
	assert_int_equal(app_run(&o), EXIT_ALL_SKIPPED);
	assert_non_null(find_prefix("SKIP: selftest-gp: this build has no real backend"));
	assert_int_equal(count_prefix("FAIL: "), 0);
	assert_true(hw_is_simulated());
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
	    cmocka_unit_test_setup(test_select_prints_nothing_touches_no_msr, setup),
	    cmocka_unit_test_setup(test_selftest_gp_needs_real_backend, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
