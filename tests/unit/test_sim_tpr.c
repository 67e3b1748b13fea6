// SPDX-License-Identifier: MIT
/*
 * test_sim_tpr.c - the simulated local APIC's task priority: a fixed
 * interrupt is given to the CPU only if its priority class (vector[7:4])
 * is above the processor priority's, PPR being TPR or the class in service
 * (SDM Vol. 3A 11.8.3.1); one held waits in the IRR (11.8.4).  The PMI
 * window (pmu/pmi.c pmi_window) raises TPR just below the PMI vector's
 * class, so the firmware's timer (OVMF LocalApicTimerDxe.h
 * LOCAL_APIC_TIMER_VECTOR 32) stays out, and puts TPR back.
 */
#include "test_sim_util.h"
#include "lib/platform.h"
#include "pmu/session.h"
#include "kernels/kernel.h"
#include "test_util.h"

#define APIC_TPR  0x80
#define APIC_IRR  0x200
#define OUR_PMI	  0xee /* pmu/session_int.h PMI_VECTOR: the one pmi_window() lets in */
#define TIMER_VEC 0x20 /* OVMF LocalApicTimerDxe.h LOCAL_APIC_TIMER_VECTOR */

static unsigned int pmis;
static uint32_t tpr_in_handler;

static void on_pmi(void *ctx)
{
	(void)ctx;
	pmis++;
	tpr_in_handler = hw_apic_read(APIC_TPR);
	hw_apic_write(APIC_EOI, 0);
}

static bool in_irr(uint8_t vec)
{
	return hw_apic_read(APIC_IRR + 0x10 * (vec / 32)) & (1u << (vec % 32));
}

/* clang-format off */
static const struct pmi_case {
	uint8_t tpr, vec;
	bool taken;
} pmi_cases[] = {
	{0x00, OUR_PMI, true},	/* TPR 0: every class */
	{0xd0, OUR_PMI, true},	/* class d, just below e: the window's TPR */
	{0xdf, OUR_PMI, true},	/* class d whatever its low bits */
	{0xe0, OUR_PMI, false},	/* class e, the vector's own: held */
	{0xef, OUR_PMI, false},	/* class e, low bits above the vector's */
	{0xf0, OUR_PMI, false},	/* class f: held */
	{0x5f, 0x60,    true},	/* another vector: class 5 below 6 */
	{0x60, 0x60,    false},	/* equal class 6: held */
};
/* clang-format on */

/* Interrupts on: taken at once, or held in the IRR until TPR drops below its class. */
static void test_pmi_against_tpr(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(pmi_cases); i++) {
		const struct pmi_case *c = &pmi_cases[i];

		use_model("skl");
		pmis = 0;
		hw_apic_write(APIC_TPR, c->tpr);
		assert_int_equal(hw_apic_read(APIC_TPR), c->tpr);
		overflow_pmi_now(c->vec, on_pmi);
		if (pmis != (c->taken ? 1u : 0u) || in_irr(c->vec) == c->taken)
			fail_msg("TPR 0x%x, vector 0x%x: %u PMIs, IRR bit %d; want %s", c->tpr,
				 c->vec, pmis, in_irr(c->vec), c->taken ? "taken" : "held");
		hw_apic_write(APIC_TPR, 0); /* a held one comes in now */
		if (pmis != 1 || in_irr(c->vec))
			fail_msg("TPR 0x%x, vector 0x%x: after TPR 0, %u PMIs", c->tpr, c->vec,
				 pmis);
		assert_int_equal(n_rules, 0);
		hw_set_pmi_handler(c->vec, NULL, NULL);
	}
}

/* Boot-CPU hw calls until the simulated firmware timer is due (sim/timer.c TIMER_PERIOD). */
static void timer_due(void)
{
	for (unsigned int i = 0; i < 1024; i++)
		rd(GLOBAL_CTRL);
}

/* clang-format off */
static const struct timer_case {
	uint8_t tpr;
	bool comes;
} timer_cases[] = {
	{0xd0, false},	/* pmi_window's TPR */
	{0x2f, false},	/* class 2, the timer's own */
	{0x20, false},	/* equal class: held */
	{0x1f, true},	/* class 1, just below */
	{0x00, true},
};
/* clang-format on */

/*
 * The app holds TPL_HIGH_LEVEL and opens interrupts for one instruction
 * with a timer tick due: the tick comes (timer-high-tpl) unless TPR holds
 * its vector's class.
 */
static void test_timer_against_tpr(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(timer_cases); i++) {
		const struct timer_case *c = &timer_cases[i];
		uint64_t tpl;

		use_model("skl");
		sim_set_timer_attr(SIM_TIMER_LAPIC);
		tpl = plat_tpl_raise();
		assert_true(tpl != PLAT_TPL_NONE);
		hw_apic_write(APIC_TPR, c->tpr);
		timer_due();
		hw_irq_window();
		if (saw_rule("timer-high-tpl") != c->comes)
			fail_msg("TPR 0x%x: the timer (vector 0x%x) %s", c->tpr, TIMER_VEC,
				 c->comes ? "stayed out" : "came in");
		hw_apic_write(APIC_TPR, 0);
		plat_tpl_restore(tpl);
		sim_set_timer_attr(SIM_TIMER_OFF);
	}
}

/*
 * pmi_window() at TPL_HIGH_LEVEL, a PMI held and a timer tick due, from the
 * firmware's TPR: the window raises TPR to 0xd0, never lowers it (0xdf
 * stays, admitting the PMI's class 0xe alone), and opens none where TPR
 * holds class 0xe (the PMI waits: false; kernel_progress counts it and
 * says so once).  TPR is the caller's after.
 */
/* clang-format off */
static const struct window_case {
	uint8_t before, in_handler;	/* in_handler 0: no window, PMI held */
} window_cases[] = {
	{0x00, 0xd0},
	{0x10, 0xd0},
	{0xc0, 0xd0},
	{0xd0, 0xd0},	/* the window's own */
	{0xdf, 0xdf},	/* higher than 0xd0: kept, class d still admits e */
	{0xe0, 0},	/* the PMI's class: held, no window */
	{0xf0, 0},
};
/* clang-format on */

static void test_window_tpr(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(window_cases); i++) {
		const struct window_case *c = &window_cases[i];
		unsigned int want = c->in_handler ? 1 : 0;
		struct kernel_ctx k = {.pmi = true, .held = true};
		uint64_t tpl;
		bool opened;

		use_model("skl");
		sim_set_timer_attr(SIM_TIMER_LAPIC);
		pmis = 0;
		tpr_in_handler = 0;
		tpl = plat_tpl_raise();
		hw_apic_write(APIC_TPR, c->before);
		overflow_pmi_now(OUR_PMI, on_pmi);
		timer_due();
		assert_int_equal(pmis, 0); /* interrupts off at TPL_HIGH_LEVEL */
		assert_true(in_irr(OUR_PMI));
		test_lines_capture();
		kernel_progress(&k, 0);
		opened = k.pmi_tpr_held == 0;
		if (!!test_line_find("INFO: ", "TPR holds the PMI") == opened)
			fail_msg("TPR 0x%x before: window %s, INFO line %s", c->before,
				 opened ? "opened" : "refused", opened ? "said" : "missing");
		if (pmis != want || tpr_in_handler != c->in_handler || opened != (want != 0) ||
		    saw_rule("timer-high-tpl"))
			fail_msg("TPR 0x%x before: %u PMIs (want %u), TPR 0x%x in the handler "
				 "(want 0x%x), window %s, rules %s",
				 c->before, pmis, want, tpr_in_handler, c->in_handler,
				 opened ? "opened" : "refused", rules_seen);
		assert_int_equal(hw_apic_read(APIC_TPR), c->before);
		assert_int_equal(in_irr(OUR_PMI), !want);
		hw_apic_write(APIC_TPR, 0);
		pmi_window(); /* a held one comes once TPR allows; none held: no window */
		assert_int_equal(pmis, 1);
		assert_true(pmi_window());
		plat_tpl_restore(tpl);
		hw_set_pmi_handler(OUR_PMI, NULL, NULL);
		sim_set_timer_attr(SIM_TIMER_OFF);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pmi_against_tpr),
	    cmocka_unit_test(test_timer_against_tpr),
	    cmocka_unit_test(test_window_tpr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
