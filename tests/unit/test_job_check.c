// SPDX-License-Identifier: MIT
/*
 * test_job_check.c - a user's mistake is a bad option (exit 2, one ERROR
 * line naming the limit, no kernel started), not a PEBS failure (exit 1):
 * period= outside the generation's range (the upper end by full-width
 * writes: above 2^31-1 only where IA32_PERF_CAPABILITIES.FW_WRITE allows
 * it, never with arch-PEBS's 32-bit reload), events= not in the
 * generation's perfmon table or over 63 characters, snapshot=on where the
 * CPU does not enumerate counter-snapshot groups.  On the simulator, through
 * app_run() as the app runs it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/app.h"
#include "lib/report.h"
#include "pmu/hw.h"
#include "test_options.h"
#include "test_util.h"

static int run(const char *line)
{
	struct options o;
	char err[REPORT_LINE_MAX];

	test_lines_capture();
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, line, false, err, sizeof(err)), 0);
	o.pmu = OPT_PMU_SIM;
	o.job.dump = false;
	test_option(&o, "kernels=chase-l1");
	return app_run(&o, NULL);
}

static void refused(const char *line, const char *want)
{
	assert_int_equal(run(line), EXIT_USAGE);
	test_refused_lines(line, want);
	assert_int_equal(test_line_count("FAIL: "), 0);
	assert_int_equal(test_line_count("SUMMARY: "), 0);
}

static void period_range(void **state)
{
	refused("model=skl period=1",
		"ERROR: option period: period 1 below 32, the minimum on Skylake (accepted: "
		"32..140737488355327) (checked before any PMU programming)");
	/* Skylake writes full width (FW_WRITE): 2^47-1 for its 48-bit counters. */
	assert_int_not_equal(run("model=skl period=4294967296"), EXIT_USAGE);
	refused("model=skl period=140737488355328",
		"period 140737488355328 above 140737488355327 (full-width counter writes: half "
		"the 48-bit counter; accepted: 32..140737488355327)");
	/* Arch-PEBS's reload value (CFG_C) has 32 bits whatever FW_WRITE says. */
	refused("model=archpebs period=4294967296",
		"period 4294967296 above 2147483647 (the arch-PEBS reload value holds 32 bits; "
		"accepted: 32..2147483647)");
	/* Atoms take 1 (one assist per event). */
	assert_int_equal(run("model=slm period=1"), EXIT_PASS);
}

static void events(void **state)
{
	static struct options o;
	char line[160], err[REPORT_LINE_MAX];

	/* A name some file has (ICL on), not SKL's: the file's spelling in the line. */
	refused("model=skl events=mem_trans_retired.store_sample",
		"ERROR: option events: event 'MEM_TRANS_RETIRED.STORE_SAMPLE': no such EventName "
		"in perfmon SKL/skylake_core.json");
	/* A name no file has: refused as the option is read, before any CPU. */
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, "model=skl events=BOGUS", false, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "event 'BOGUS': no perfmon file (data/perfmon) has"));
	/* A value longer than the option holds: refused as the option is read. */
	snprintf(line, sizeof(line), "model=skl events=%0128d", 7);
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, line, false, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "...': longer than 127 characters (accepted: "));
	assert_int_not_equal(run("model=skl events=MEM_INST_RETIRED.ALL_LOADS"), EXIT_USAGE);
}

/*
 * Counter snapshots: PEBS format 6 with baseline or arch-PEBS with
 * CPUID.23H.4's CNTR bits (Linux core.c intel_pmu_has_pebs_counter_group).
 */
static void snapshot(void **state)
{
	refused(
	    "model=spr snapshot=on",
	    "ERROR: option snapshot: counter snapshots are not enumerated on this CPU: PEBS "
	    "format 5 (accepted: PEBS format 6 with baseline, or arch-PEBS with CPUID.23H.4:EBX "
	    "CNTR_ALLOW and CNTR_GP/CNTR_FIXED; Linux core.c intel_pmu_has_pebs_counter_group) "
	    "(on Sapphire Rapids, checked before any PMU programming)");
	/* an event that is fine by itself: the error names snapshot=, not events= */
	refused("model=skl snapshot=on events=MEM_INST_RETIRED.ALL_LOADS",
		"ERROR: option snapshot: counter snapshots are not enumerated on this CPU: PEBS "
		"format 3");
	assert_int_equal(run("model=lnl snapshot=on"), EXIT_PASS);
	assert_int_equal(run("model=cwf snapshot=on"), EXIT_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(period_range),
	    cmocka_unit_test(events),
	    cmocka_unit_test(snapshot),
	};

	setenv("PEBSPROBE_OUT", "/tmp", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
