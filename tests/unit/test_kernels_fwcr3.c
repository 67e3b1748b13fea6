// SPDX-License-Identifier: MIT
/*
 * test_kernels_fwcr3.c - no firmware code under pebsprobe's page tables
 * (kernels/kernels.c kernel_run, lib/platform.h), on the simulated Skylake
 * whose firmware has tables of its own (sim/paging.c):
 *   - output_under_fw: every line printed while a body runs on the boot
 *     CPU is printed under the firmware's CR3 with the TPL down, and with
 *     trace=msr each progress line follows a "MSR: wrcr3" back to the
 *     firmware's CR3; the body itself ran under ours;
 *   - wrapper_refused: a platform call under our CR3 is refused and
 *     counted, and after the work on the boot CPU named in one ERROR line,
 *     exit 99, as an AP's call is (lib/ap_refusal.h);
 *   - timer_attr: sim-platform=timer-attr's ticks (sim/timer.c) all reach
 *     the firmware's tables from kernel_run, and a body run under our CR3
 *     without the TPL raised loses them: one sim-rule violation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kernels/kernel.h"
#include "lib/ap_refusal.h"
#include "lib/cpurun.h"
#include "lib/platform.h"
#include "pmu/paging.h"
#include "sim/sim.h"
#include "test_util.h"

/* Lines printed while the firmware's CR3 was not loaded, or the TPL was high. */
static unsigned int bad_lines;
static uint64_t fw_cr3;

static void sink(const char *line, void *ctx)
{
	if (hw_read_cr3() != fw_cr3 || plat_tpl_high())
		bad_lines++;
	test_lines_sink(line, ctx);
}

struct fixture {
	struct kernel_ctx k;
	struct paging_tables pt;
};

/* chase-l1 prepared on the simulated Skylake, its buffer in tables of ours. */
static void setup(struct fixture *f, uint64_t iterations)
{
	char why[160];
	bool clipped;

	memset(f, 0, sizeof(*f));
	assert_int_equal(sim_select("skl"), 0);
	hw_install(sim_hw_ops());
	test_lines_clear();
	report_reset();
	report_init(sink, NULL);
	fw_cr3 = hw_read_cr3();
	bad_lines = 0;
	assert_int_equal(kernel_prepare(&f->k, kernel_find("chase-l1"), 0, iterations, true,
					&clipped, why, sizeof(why)),
			 0);
	f->k.instrumented = true;
	f->k.ops = hw_current();
	assert_int_equal(paging_build(&f->pt, (uintptr_t)f->k.buf,
				      (uint64_t)f->k.alloc_pages * PAGE_SIZE_4K, why, sizeof(why)),
			 0);
	f->k.pages = f->pt.root;
}

static void teardown(struct fixture *f)
{
	hw_set_msr_trace(false);
	paging_free(&f->pt);
	kernel_release(&f->k);
	hw_install(NULL);
}

/* As job/run.c prints its progress lines: between kernel_output_begin() and _end(). */
static void progress(struct kernel_ctx *k, uint64_t done)
{
	kernel_output_begin(k);
	report_info("progress %llu", (unsigned long long)done);
	kernel_output_end(k);
}

static void output_under_fw(void **state)
{
	static struct fixture f;
	char want[64];
	const char *last_cr3 = NULL;
	unsigned int n_progress = 0;

	(void)state;
	setup(&f, 4 * KERNEL_CHUNK);
	f.k.progress = progress;
	hw_set_msr_trace(true);
	kernel_run(&f.k);
	snprintf(want, sizeof(want), "MSR: wrcr3 0x%llx ", (unsigned long long)fw_cr3);
	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (!strncmp(test_lines[i], "MSR: wrcr3 ", 11))
			last_cr3 = test_lines[i];
		if (strncmp(test_lines[i], "INFO: progress", 14))
			continue;
		n_progress++;
		if (!last_cr3 || strncmp(last_cr3, want, strlen(want))) {
			test_lines_dump(stdout);
			fail_msg("'%s' follows '%s', not a write of the firmware's CR3",
				 test_lines[i], last_cr3 ? last_cr3 : "no wrcr3 line");
		}
	}
	if (bad_lines || n_progress != 4 || f.k.run_cr3 != f.pt.root.cr3 ||
	    hw_read_cr3() != fw_cr3 || plat_tpl_high()) {
		test_lines_dump(stdout);
		fail_msg("%u lines printed under CR3 0x%llx or TPL_HIGH_LEVEL; %u progress lines "
			 "(want 4); the body ran under 0x%llx (ours 0x%llx)",
			 bad_lines, (unsigned long long)f.pt.root.cr3, n_progress,
			 (unsigned long long)f.k.run_cr3, (unsigned long long)f.pt.root.cr3);
	}
	teardown(&f);
}

static void alloc_under_ours(void *arg)
{
	const struct paging_root *r = arg;
	uint64_t saved;

	assert_int_equal(paging_enter(r, &saved, NULL, 0), 0);
	assert_null(plat_alloc(64));
	paging_leave(saved);
}

static void wrapper_refused(void **state)
{
	static struct fixture f;
	unsigned int before;
	const char *last = NULL, *err;

	(void)state;
	setup(&f, 100);
	before = ap_refusal_cr3_count(NULL, NULL, NULL);
	assert_int_equal(cpurun_run(0, alloc_under_ours, &f.pt.root, 0, NULL, NULL), CPU_RUN_OK);
	err = test_line_find("ERROR: fw-cr3: ", NULL);
	if (ap_refusal_cr3_count(&last, NULL, NULL) != before + 1 || !last ||
	    strcmp(last, "plat_alloc") || !err || !strstr(err, "plat_alloc called under CR3") ||
	    test_line_count("ERROR: ") != 1 || report_exit_status() != EXIT_ENVIRONMENT) {
		test_lines_dump(stdout);
		fail_msg("plat_alloc under our CR3: %u refused (want %u), ERROR line %s, exit %d",
			 ap_refusal_cr3_count(NULL, NULL, NULL), before + 1, err ? err : "none",
			 report_exit_status());
	}
	/* Under the firmware's CR3 the same call is made. */
	void *p = plat_alloc(64);

	assert_non_null(p);
	plat_free(p);
	assert_int_equal(ap_refusal_cr3_count(NULL, NULL, NULL), before + 1);
	teardown(&f);
}

/* Enough hw calls for a tick that fell due in the body to fire after it. */
static void after_body(void)
{
	uint64_t v;

	for (int i = 0; i < 2048; i++)
		hw_rdmsr(0x10, &v); /* IA32_TIME_STAMP_COUNTER */
}

static void timer_attr(void **state)
{
	static struct fixture f;
	uint64_t saved;

	(void)state;
	setup(&f, 0);
	sim_set_timer_attr(SIM_TIMER_LAPIC);
	kernel_run(&f.k);
	after_body();
	if (sim_timer_attr_check() || !sim_timer_attr_ticks() || test_line_find("FAIL: ", NULL)) {
		test_lines_dump(stdout);
		fail_msg("kernel_run: %u ticks, some under our CR3", sim_timer_attr_ticks());
	}
	/* The body under our CR3 with the TPL down, as before kernel_run raised it: caught. */
	kernel_next_chain(&f.k);
	assert_int_equal(paging_enter(&f.k.pages, &saved, NULL, 0), 0);
	f.k.def->sim(&f.k);
	paging_leave(saved);
	if (sim_timer_attr_check() == 0 ||
	    !test_line_find("FAIL: sim-rule: timer-attr: ", "its tables never got")) {
		test_lines_dump(stdout);
		fail_msg("a body under our CR3 with interrupts on: no timer-attr violation");
	}
	sim_set_timer_attr(SIM_TIMER_OFF);
	teardown(&f);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
	    cmocka_unit_test(output_under_fw),
	    cmocka_unit_test(wrapper_refused),
	    cmocka_unit_test(timer_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
