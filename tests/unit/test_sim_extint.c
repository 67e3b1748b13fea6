// SPDX-License-Identifier: MIT
/*
 * test_sim_extint.c - the firmware's timer as the 8254 through the 8259
 * (sim-platform=timer-extint): it reaches CPU 0 on LVT LINT0 in ExtINT
 * mode (virtual wire, EDK II BaseXApicLib ProgramVirtualWireMode), which
 * TPR does not hold (SDM Vol. 3A 11.8.3.1) and LINT0's mask bit does
 * (11.5.1).  The PMI window (pmu/pmi.c pmi_window) must keep it out with
 * more than TPR, and put LINT0 back as it found it.
 *   - timer_against_tpr_and_lint0: a window at TPL_HIGH_LEVEL with a tick
 *     due, the local APIC timer (fixed, vector 0x20) against the ExtINT one
 *   - window_keeps_extint_out: pmi_window() with a PMI held and an ExtINT
 *     tick due, LINT0 as the firmware may leave it
 *   - held_tick_comes_later: a tick LINT0's mask or IF=0 held comes once
 *     both are gone (the 8259 holds INTR until it is acknowledged)
 */
#include "test_sim_util.h"
#include "lib/platform.h"
#include "pmu/session.h"

#define APIC_TPR   0x80
#define APIC_IRR   0x200
#define APIC_LINT0 0x350      /* LVT LINT0 (SDM Vol. 3A Figure 11-8) */
#define LINT_MASK  (1u << 16) /* LVT mask bit */
#define DM_EXTINT  (7u << 8)  /* delivery mode ExtINT */
#define DM_NMI	   (4u << 8)  /* delivery mode NMI */
#define OUR_PMI	   0xee	      /* pmu/session_int.h PMI_VECTOR */
#define VWIRE	   DM_EXTINT  /* ProgramVirtualWireMode's LINT0: ExtINT, edge, unmasked */
#define VWIRE_OFF  (DM_EXTINT | LINT_MASK)

static unsigned int pmis;
static uint32_t lint0_in_handler, tpr_in_handler;

static void on_pmi(void *ctx)
{
	(void)ctx;
	pmis++;
	lint0_in_handler = hw_apic_read(APIC_LINT0);
	tpr_in_handler = hw_apic_read(APIC_TPR);
	hw_apic_write(APIC_EOI, 0);
}

static bool pmi_in_irr(void)
{
	return hw_apic_read(APIC_IRR + 0x10 * (OUR_PMI / 32)) & (1u << (OUR_PMI % 32));
}

/* Boot-CPU hw calls until the simulated firmware timer is due (sim/timer.c TIMER_PERIOD). */
static void timer_due(void)
{
	for (unsigned int i = 0; i < 1024; i++)
		rd(GLOBAL_CTRL);
}

static uint64_t ticks(void)
{
	struct sim_stats st;

	sim_get_cpu_stats(0, &st);
	return st.timer_ticks;
}

/* clang-format off */
static const struct window_case {
	enum sim_timer_via via;
	uint8_t tpr;
	uint32_t lint0;
	bool comes;
} window_cases[] = {
	/* the local APIC timer, fixed delivery, vector 0x20: TPR holds it */
	{SIM_TIMER_LAPIC,  0x20, VWIRE,     false},	/* its own class */
	{SIM_TIMER_LAPIC,  0x1f, VWIRE,     true},	/* the class below */
	{SIM_TIMER_LAPIC,  0x1f, VWIRE_OFF, true},	/* LINT0 is not its pin */
	{SIM_TIMER_LAPIC,  0xd0, VWIRE,     false},	/* pmi_window's TPR */
	/* ExtINT on LINT0 (8259 IRQ0, vector 0x68): TPR does not hold it */
	{SIM_TIMER_EXTINT, 0x1f, VWIRE,     true},
	{SIM_TIMER_EXTINT, 0x20, VWIRE,     true},
	{SIM_TIMER_EXTINT, 0x68, VWIRE,     true},	/* the 8259's vector's class */
	{SIM_TIMER_EXTINT, 0xd0, VWIRE,     true},	/* pmi_window's TPR */
	{SIM_TIMER_EXTINT, 0xff, VWIRE,     true},	/* TPR 15: all but ExtINT, NMI.. */
	/* ... LINT0's mask bit does */
	{SIM_TIMER_EXTINT, 0x00, VWIRE_OFF, false},
	{SIM_TIMER_EXTINT, 0xd0, VWIRE_OFF, false},
};
/* clang-format on */

/*
 * The app holds TPL_HIGH_LEVEL and opens interrupts for one instruction
 * (hw_irq_window) with a tick due: it comes, breaking timer-high-tpl,
 * unless TPR (fixed delivery) or LINT0's mask (ExtINT) holds it.
 */
static void timer_against_tpr_and_lint0(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(window_cases); i++) {
		const struct window_case *c = &window_cases[i];
		uint64_t tpl;

		use_model("skl");
		sim_set_timer_attr(c->via);
		tpl = plat_tpl_raise();
		assert_true(tpl != PLAT_TPL_NONE);
		hw_apic_write(APIC_TPR, c->tpr);
		hw_apic_write(APIC_LINT0, c->lint0);
		timer_due();
		hw_irq_window();
		plat_tpl_restore(tpl);
		if (saw_rule("timer-high-tpl") != c->comes || ticks() != c->comes)
			fail_msg("case %zu: %s timer, TPR 0x%x, LINT0 0x%x: %llu ticks, rules %s; "
				 "want it %s",
				 i, c->via == SIM_TIMER_EXTINT ? "ExtINT" : "LAPIC", c->tpr,
				 c->lint0, (unsigned long long)ticks(), rules_seen,
				 c->comes ? "in" : "out");
		sim_set_timer_attr(SIM_TIMER_OFF);
	}
}

/* clang-format off */
static const struct lint0_case {
	enum sim_timer_via via;
	uint32_t before;	/* LINT0 as the firmware left it */
	uint32_t in_window;	/* what the PMI handler reads */
} lint0_cases[] = {
	{SIM_TIMER_EXTINT, VWIRE,	     VWIRE_OFF},	     /* virtual wire: masked */
	{SIM_TIMER_EXTINT, VWIRE_OFF,	     VWIRE_OFF},	     /* already masked: left */
	{SIM_TIMER_EXTINT, VWIRE | 1u << 15, VWIRE_OFF | 1u << 15},  /* trigger bit kept */
	{SIM_TIMER_EXTINT, 0x00031,	     0x00031 | LINT_MASK},   /* fixed, 0x31: masked */
	/* NMI on LINT0 (the local APIC timer ticks): left, IF does not hold it anyway */
	{SIM_TIMER_LAPIC,  DM_NMI,	     DM_NMI},
};
/* clang-format on */

/*
 * pmi_window() at TPL_HIGH_LEVEL, a PMI held and a timer tick due: the
 * PMI comes (TPR 0xd0), the tick stays out (no timer-high-tpl), and LINT0
 * and TPR read exactly as before afterwards.
 */
static void window_keeps_extint_out(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(lint0_cases); i++) {
		const struct lint0_case *c = &lint0_cases[i];
		uint64_t tpl;

		use_model("skl");
		sim_set_timer_attr(c->via);
		pmis = 0;
		tpl = plat_tpl_raise();
		hw_apic_write(APIC_LINT0, c->before);
		overflow_pmi_now(OUR_PMI, on_pmi);
		timer_due();
		assert_int_equal(pmis, 0); /* interrupts off at TPL_HIGH_LEVEL */
		assert_true(pmi_in_irr());
		pmi_window();
		plat_tpl_restore(tpl); /* before any failure, for the next test */
		if (saw_rule("timer-high-tpl") || ticks())
			fail_msg("LINT0 0x%x: the firmware's timer came in the PMI window "
				 "(%llu ticks, rules %s)",
				 c->before, (unsigned long long)ticks(), rules_seen);
		if (pmis != 1 || tpr_in_handler != 0xd0 || lint0_in_handler != c->in_window)
			fail_msg("LINT0 0x%x: %u PMIs, TPR 0x%x, LINT0 0x%x in the handler (want "
				 "0x%x)",
				 c->before, pmis, tpr_in_handler, lint0_in_handler, c->in_window);
		assert_int_equal(hw_apic_read(APIC_LINT0), c->before);
		assert_int_equal(hw_apic_read(APIC_TPR), 0);
		hw_set_pmi_handler(OUR_PMI, NULL, NULL);
		sim_set_timer_attr(SIM_TIMER_OFF);
	}
}

/* clang-format off */
static const struct held_case {
	const char *what;
	bool tpl_high;	/* held by IF = 0 (TPL_HIGH_LEVEL) until RestoreTPL */
	bool masked;	/* held by LINT0's mask until it is unmasked */
} held_cases[] = {
	{"IF=0",          true,  false},
	{"LINT0 masked",  false, true},
	{"both",          true,  true},
};
/* clang-format on */

/*
 * An ExtINT tick held (IF = 0, LINT0 masked) is not lost: the 8259 keeps
 * INTR asserted until the CPU acknowledges it, so it comes at the first hw
 * call with interrupts on and LINT0 unmasked, once.
 */
static void held_tick_comes_later(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(held_cases); i++) {
		const struct held_case *c = &held_cases[i];
		uint64_t tpl = PLAT_TPL_NONE;

		use_model("skl");
		sim_set_timer_attr(SIM_TIMER_EXTINT);
		if (c->tpl_high)
			tpl = plat_tpl_raise();
		if (c->masked)
			hw_apic_write(APIC_LINT0, VWIRE_OFF);
		timer_due();
		rd(GLOBAL_CTRL);
		if (ticks())
			fail_msg("%s: the tick came while held", c->what);
		if (c->masked)
			hw_apic_write(APIC_LINT0, VWIRE);
		rd(GLOBAL_CTRL);
		if (ticks() != !c->tpl_high)
			fail_msg("%s: %llu ticks after LINT0 unmasked", c->what,
				 (unsigned long long)ticks());
		if (c->tpl_high)
			plat_tpl_restore(tpl); /* the firmware's RestoreTPL: IF = 1 */
		rd(GLOBAL_CTRL);
		rd(GLOBAL_CTRL);
		if (ticks() != 1 || n_rules)
			fail_msg("%s: %llu ticks once held no more (want 1), rules %s", c->what,
				 (unsigned long long)ticks(), rules_seen);
		sim_set_timer_attr(SIM_TIMER_OFF);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(timer_against_tpr_and_lint0),
	    cmocka_unit_test(window_keeps_extint_out),
	    cmocka_unit_test(held_tick_comes_later),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
