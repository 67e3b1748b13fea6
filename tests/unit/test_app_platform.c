// SPDX-License-Identifier: MIT
/*
 * test_app_platform.c - sim-platform= (app/options_platform.c), through the
 * path the app takes (the options' parser, app_select, app_run) on the
 * simulated Skylake:
 *   - bad_rows: each mistake gives exit 2 and one ERROR line naming the item
 *     and what is accepted (docs/OPTIONS.md);
 *   - cet: CR4.CET set (SDM Vol. 3A 2.5, bit 23) is refused before any MSR
 *     access (no "MSR:" line under trace=msr, no access the simulator counts
 *     as a #CP), a SKIP naming it, exit 77;
 *   - disabled: processor 1 of 3 disabled by the firmware is named in an
 *     INFO line and in results.json, not measured, and the highest enabled
 *     one (processor 2) is;
 *   - timer_attr: the firmware's timer that changes page attributes
 *     through the loaded CR3 (sim/timer.c), fixed or ExtINT, ticks during
 *     the run, every change reaches the firmware's own tables, and none
 *     comes in a PMI window: no sim-rule FAIL, exit 0.
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
#include "lib/report.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_util.h"

/* host/platform_host.c: every processor enabled again. */
void plat_host_enable_all(void);

static char outdir[] = "/tmp/pebsprobe-platform-XXXXXX";

struct bad {
	const char *line, *what, *accepted;
};

/* clang-format off */
static const struct bad bad_rows[] = {
	{"sim-platform=cpu1", "option sim-platform: bad value 'cpu1': item 'cpu1' is not one",
	 "accepted: none, or cpuN:disabled, cet, timer-attr, timer-extint separated by commas"},
	{"sim-platform=cet,shadow", "item 'shadow' is not one", "cpuN:disabled, cet, timer-attr"},
	{"sim-platform=cpux:disabled", "item 'cpux:disabled' is not one", "cpuN:disabled"},
	{"sim-platform=cet pmu=hw", "option sim-platform: changes the simulated platform, but pmu=hw",
	 "accepted with pmu=sim or pmu=auto"},
	{"sim-platform=cpu0:disabled", "cpu0:disabled: the boot processor", "N in 1-1"},
	{"sim-platform=cpu7:disabled", "cpu7:disabled: no such processor", "N in 1-1"},
};
/* clang-format on */

/* As efi/main.c: parse, then app_run; the status. */
static int run_options(const char *line)
{
	char text[512], err[REPORT_LINE_MAX];
	struct options o;

	test_lines_capture();
	report_reset();
	report_set_simulated(false);
	hw_install(NULL);
	options_defaults(&o);
	snprintf(text, sizeof(text), "pmu=sim dump=off log=none %s", line);
	if (options_parse_config(&o, NULL, text, strlen(text), err, sizeof(err))) {
		report_line("ERROR: %s", err);
		return EXIT_USAGE;
	}
	return app_finish(&o, o.job.results, app_run(&o, NULL));
}

static void bad_items(void **state)
{
	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	for (size_t i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		const struct bad *b = &bad_rows[i];
		int status = run_options(b->line);
		const char *err = test_line_find("ERROR: ", NULL);

		if (status != EXIT_USAGE || test_line_count("ERROR: ") != 1 ||
		    !strstr(err, b->what) || !strstr(err, b->accepted)) {
			test_lines_dump(stdout);
			fail_msg("'%s': exit %d (want %d, one ERROR naming '%s' ... '%s')", b->line,
				 status, EXIT_USAGE, b->what, b->accepted);
		}
	}
}

static void cet(void **state)
{
	int status;

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	status = run_options("sim-platform=cet kernels=chase-l1 trace=msr results=none");
	if (status != EXIT_ALL_SKIPPED || !test_line_find("SKIP: pebs: ", "CR4.CET is set on") ||
	    test_line_find("MSR: ", NULL) || sim_cet_faults()) {
		test_lines_dump(stdout);
		fail_msg("sim-platform=cet: exit %d (want 77), %u #CP, first MSR line: %s", status,
			 sim_cet_faults(),
			 test_line_find("MSR: ", NULL) ? test_line_find("MSR: ", NULL) : "none");
	}
}

static void disabled(void **state)
{
	static char json[1 << 20];
	char path[256];
	int status;

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "3", 1);
	status = run_options("sim-platform=cpu1:disabled kernels=chase-l1 cpus=all");
	plat_host_enable_all();
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	if (status != EXIT_PASS ||
	    !test_line_find("INFO: main job: processor 1 is disabled by the firmware", NULL) ||
	    !test_line_find("INFO: main job: ", "2 CPUs (cpus=all: 2 measured)") ||
	    !test_line_find("PASS: chase-l1/load", NULL) ||
	    test_read_file(path, json, sizeof(json)) <= 0 ||
	    !strstr(json, "\"cpus_unused\":[{\"processor\":1,\"why\":\"disabled\"}]")) {
		test_lines_dump(stdout);
		fail_msg("cpu1:disabled: exit %d, or a line or results.json's cpus_unused missing",
			 status);
	}
}

/*
 * The timer as the local APIC's (timer-attr) or as ExtINT on LINT0
 * (timer-extint), which TPR does not hold: with drain=pmi the PMI window
 * at TPL_HIGH_LEVEL must keep it out (pmu/pmi.c pmi_window masks LINT0).
 */
static const char *const timer_rows[] = {
    "sim-platform=timer-attr kernels=chase-l1,page-walk results=none",
    "sim-platform=timer-extint kernels=chase-l1,page-walk results=none",
    "sim-platform=timer-extint drain=pmi threshold=16 kernels=chase-l1 results=none",
};

static void timer_attr(void **state)
{
	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	for (size_t i = 0; i < sizeof(timer_rows) / sizeof(timer_rows[0]); i++) {
		int status = run_options(timer_rows[i]);
		const char *fail = test_line_find("FAIL: ", NULL);

		if (status != EXIT_PASS || fail || !sim_timer_attr_ticks()) {
			test_lines_dump(stdout);
			fail_msg("%s: exit %d (want 0), %u ticks, first FAIL: %s", timer_rows[i],
				 status, sim_timer_attr_ticks(), fail ? fail : "none");
		}
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(bad_items),
	    cmocka_unit_test(cet),
	    cmocka_unit_test(disabled),
	    cmocka_unit_test(timer_attr),
	};

	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
