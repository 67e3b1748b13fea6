// SPDX-License-Identifier: MIT
/*
 * test_sim_rules.c - each SDM PEBS programming rule the simulator enforces
 * is caught on a wrong program and silent on the right one.  The programs
 * are raw MSR sequences written from the SDM Vol. 3B and Linux:
 *   18.9.4.2 "Load Latency Performance Monitoring Facility": ldlat >= 3,
 *            PEBS_EN + LL_EN, CMASK/INV zero, no other PEBS event beside
 *            load latency (Sandy Bridge);
 *   18.9.4 (Sandy Bridge PEBS) NOTE: AnyThread/Edge/Invert/CMask zero,
 *            PMC0-3 only, no reprogramming while counting (PDIR);
 *            18.9.4.3: PS_EN with PMC3 only;
 *   18.9.4.4: PREC_DIST on PMC1; Linux ds.c: Golden Cove constraints;
 *   fixed-counter PEBS needs baseline (kvm-unit-tests commit 79aa106c);
 *   18.6.3: AVG_LATENCY with bits 37:16 clear and the same request type;
 *   MISC_ENABLE[12]: PEBS unavailable; the DS area / arch-PEBS buffer.
 */
#include "test_sim_util.h"
#include "lib/report.h"

static struct ds ds;

static void setup_ds(void)
{
	ds_make(&ds, 16384, 16384, 16384);
	ds_reset_slot(&ds, 0, (uint64_t)-100 & MASK48);
}

/* Programs one PEBS counter in kvm-unit-tests' order and enables it. */
static void arm(unsigned int ctr, uint64_t evtsel, uint64_t pebs_enable)
{
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(ctr), evtsel);
	wr(PMC(ctr), (uint64_t)-100 & 0xffffffff);
	wr(DS_AREA, (uintptr_t)ds.area);
	wr(PEBS_ENABLE, pebs_enable);
	wr(GLOBAL_CTRL, 1ull << ctr);
}

struct rcase {
	const char *model;
	unsigned int ctr;
	uint64_t evtsel, pebs_enable, ldlat;
	const char *rule; /* NULL: a right program, nothing reported */
	const char *what;
};

static const struct rcase rcases[] = {
    /* Counter constraints. */
    {"snb", 0, EVT(0x02cd), 1ull << 63 | 1, 0, "pebs-counter", "precise store on PMC0"},
    {"snb", 3, EVT(0x02cd), 1ull << 63 | 1 << 3, 0, NULL, "precise store on PMC3"},
    {"snb", 0, EVT(0x01c0), 1, 0, "pebs-counter", "PREC_DIST on PMC0"},
    {"snb", 1, EVT(0x01c0), 1 << 1, 0, NULL, "PREC_DIST on PMC1"},
    {"spr", 0, EVT(0x01cd), 1, 3, "pebs-counter", "GLC load latency on PMC0"},
    {"spr", 1, EVT(0x01cd), 1 << 1, 3, NULL, "GLC load latency on PMC1"},
    {"adl-p", 0, EVT(0x00c0), 1, 0, "pebs-counter", "GLC INST_RETIRED on PMC0"},
    {"spr", 1, EVT(0x02cd), 1 << 1, 0, "pebs-counter", "GLC store latency on PMC1"},
    {"spr", 0, EVT(0x02cd), 1, 0, NULL, "GLC store latency on PMC0"},
    /* PEBS-capable events before baseline. */
    {"skl", 0, EVT(0x003c), 1, 0, "pebs-event", "cycles is not a Skylake PEBS event"},
    {"nhm", 0, EVT(0x01b7), 1, 0, "pebs-event", "offcore response is not a PEBS event"},
    {"icx", 0, EVT(0x003c), 1, 0, NULL, "baseline: PEBS on every event"},
    {"glm", 0, EVT(0x003c), 1, 0, NULL, "Goldmont: non-precise events record"},
    /* EVTSEL fields. */
    {"skl", 0, EVT(0x81d0) | EV_EDGE, 1, 0, "pebs-evtsel-fields", "Edge on a PEBS event"},
    {"nhm", 0, EVT(0x010b) | 1ull << 24, 1, 0, "pebs-evtsel-fields", "CMask on a PEBS event"},
    {"hsw", 0, EVT(0x81d0) | 1ull << 21, 1, 0, "pebs-evtsel-fields", "AnyThread"},
    {"core2", 0, EVT(0x00c0) | 1ull << 23, 1, 0, "pebs-evtsel-fields", "Invert"},
    {"glm", 0, EVT(0x81d0) | 1ull << 21, 1, 0, NULL, "Goldmont ignores AnyThread"},
    {"glm", 0, EVT(0x81d0) | EV_EDGE, 1, 0, "pebs-evtsel-fields", "Edge on Goldmont"},
    {"icx", 0, EVT(0x01cd) | 1ull << 23, 1, 3, "ldlat-evtsel", "Invert on load latency"},
    /* Load latency. */
    {"skl", 0, EVT(0x01cd), 1ull << 32 | 1, 2, "ldlat-min", "threshold 2"},
    {"skl", 0, EVT(0x01cd), 1ull << 32 | 1, 3, NULL, "threshold 3"},
    {"nhm", 1, EVT(0x100b), 1ull << 33 | 2, 0, "ldlat-min", "threshold 0 on Nehalem"},
    {"icx", 0, EVT(0x01cd), 1, 1, "ldlat-min", "threshold 1 on Ice Lake"},
    {"skl", 0, EVT(0x01cd), 1, 3, "ldlat-ll-en", "PEBS_EN without LL_EN"},
    {"skl", 0, EVT(0x81d0), 1ull << 32 | 1, 0, "fixed-pebs-baseline",
     "bit 32 on Skylake is LL_EN_PMC0, not fixed-counter PEBS"},
    /* Precise store enable. */
    {"snb", 3, EVT(0x02cd), 1 << 3, 0, "pst-enable", "precise store without PS_EN"},
    {"snb", 3, EVT(0x81d0), 1ull << 63 | 1 << 3, 0, "pst-enable", "PS_EN, other event"},
};

static void run_rcase(const struct rcase *c)
{
	use_model(c->model);
	setup_ds();
	if (c->ldlat)
		wr(LD_LAT, c->ldlat);
	arm(c->ctr, c->evtsel, c->pebs_enable);
	if (c->rule && !saw_rule(c->rule))
		fail_msg("%s: %s: rule %s not reported (saw \"%s\")", c->model, c->what, c->rule,
			 rules_seen);
	if (!c->rule && n_rules)
		fail_msg("%s: %s: a right program reported \"%s\"", c->model, c->what, rules_seen);
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
}

static void test_rule_table(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rcases); i++)
		run_rcase(&rcases[i]);
}

/* SDM Vol. 3B 18.9.4.2: on Sandy Bridge load latency excludes every other PEBS event. */
static void test_ldlat_exclusive(void **state)
{
	static const char *const models[] = {"snb", "skl"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		use_model(models[i]);
		setup_ds();
		wr(GLOBAL_CTRL, 0);
		wr(LD_LAT, 3);
		wr(EVTSEL(0), EVT(0x01cd));
		wr(EVTSEL(1), EVT(0x81d0));
		wr(DS_AREA, (uintptr_t)ds.area);
		wr(PEBS_ENABLE, 1ull << 32 | 0x3);
		wr(GLOBAL_CTRL, 0x3);
		assert_int_equal(saw_rule("ldlat-exclusive"), i == 0);
		wr(GLOBAL_CTRL, 0);
		ds_free(&ds);
	}
}

/* The program is judged when it counts, whatever order it was written in. */
static void test_order_independent(void **state)
{
	use_model("skl");
	setup_ds();
	wr(GLOBAL_CTRL, 0);
	wr(PEBS_ENABLE, 1); /* LL_EN still missing, but nothing counts yet */
	wr(EVTSEL(0), EVT(0x01cd));
	wr(LD_LAT, 1);
	wr(DS_AREA, (uintptr_t)ds.area);
	wr(PEBS_ENABLE, 1ull << 32 | 1);
	wr(LD_LAT, 3);
	assert_int_equal(n_rules, 0);
	wr(GLOBAL_CTRL, 1);
	assert_int_equal(n_rules, 0);
	wr(LD_LAT, 2); /* lowered while armed */
	assert_true(saw_rule("ldlat-min"));
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
}

/* SDM Vol. 3B 18.9.4 NOTE: no EVTSEL/PMC writes to a PEBS counter while it counts (PDIR parts). */
static void test_pdir_reprogram(void **state)
{
	use_model("skl");
	setup_ds();
	arm(0, EVT(0x81d0), 1);
	wr(EVTSEL(1), EVT(0x003c)); /* another, non-PEBS counter: fine */
	assert_int_equal(n_rules, 0);
	wr(PMC(0), 0x1000);
	assert_string_equal(last_rule, "pdir-reprogram");
	wr(EVTSEL(0), EVT(0x82d0));
	assert_int_equal(n_rules, 2);
	wr(GLOBAL_CTRL, 0); /* disabled first: the right way */
	clear_rules();
	wr(EVTSEL(0), EVT(0x81d0));
	wr(PMC(0), 0x1000);
	assert_int_equal(n_rules, 0);
	ds_free(&ds);
	use_model("core2"); /* no PDIR on Core 2 */
	setup_ds();
	arm(0, EVT(0x00c0), 1);
	wr(PMC(0), 0x1000);
	assert_int_equal(n_rules, 0);
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
}

/* A violation is reported once per arming, and again after a re-arm. */
static void test_reported_once_per_arming(void **state)
{
	use_model("skl");
	setup_ds();
	arm(0, EVT(0x003c), 1);
	assert_int_equal(n_rules, 1);
	wr(LD_LAT, 5); /* another write while armed: no duplicate */
	assert_int_equal(n_rules, 1);
	wr(GLOBAL_CTRL, 0);
	wr(GLOBAL_CTRL, 1);
	assert_int_equal(n_rules, 2);
	assert_int_equal(sim_violation_count(), 2);
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
}

static void test_ds_area_rule(void **state)
{
	use_model("hsw");
	setup_ds();
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 1); /* DS_AREA still 0 */
	assert_true(saw_rule("ds-area"));
	wr(GLOBAL_CTRL, 0);
	clear_rules();
	put64(ds.area, 0x28, get64(ds.area, 0x30) + 8); /* index past the maximum */
	wr(DS_AREA, (uintptr_t)ds.area);
	wr(GLOBAL_CTRL, 1);
	assert_true(saw_rule("ds-area"));
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
}

/* PEBS_ENABLE bits the generation does not have: #GP and the rule named. */
static void test_pebs_enable_layout(void **state)
{
	use_model("core2");
	assert_true(wr_gp(PEBS_ENABLE, 0x2));
	assert_true(saw_rule("pebs-counter"));
	use_model("glm");
	assert_true(wr_gp(PEBS_ENABLE, 0x1 | 0x4));
	assert_true(saw_rule("pebs-counter"));
	use_model("hsw");
	assert_true(wr_gp(PEBS_ENABLE, 1ull << 63 | 1));
	assert_true(saw_rule("pebs-enable-layout"));
	use_model("core2");
	wr(PEBS_ENABLE, 1);
	assert_int_equal(n_rules, 0);
}

static void test_pebs_unavailable(void **state)
{
	use_model("pebs-off");
	assert_true(wr_gp(PEBS_ENABLE, 1));
	assert_true(saw_rule("pebs-unavailable"));
}

static void test_arch_pebs_buffer_rule(void **state)
{
	use_model("archpebs");
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(CFG_C_GP(0), 1ull << 63 | 0xffffff00);
	wr(GLOBAL_CTRL, 1); /* PEBS_INDEX.EN clear, no base */
	assert_true(saw_rule("arch-pebs-buffer"));
	wr(GLOBAL_CTRL, 0);
}

/* SDM Vol. 3B 18.6.3: weighted cycles in RSP0 with bits 37:16 clear; RSP1 same request type. */
static void offcore_case(uint64_t rsp0, uint64_t rsp1, bool bad)
{
	use_model("slm");
	wr(GLOBAL_CTRL, 0);
	wr(OFFCORE_RSP(0), rsp0);
	wr(OFFCORE_RSP(1), rsp1);
	wr(EVTSEL(0), EVT(0x01b7));
	wr(EVTSEL(1), EVT(0x02b7));
	wr(GLOBAL_CTRL, 3);
	assert_int_equal(saw_rule("offcore-avg-latency"), bad);
	wr(GLOBAL_CTRL, 0);
}

static void test_offcore_avg_latency(void **state)
{
	offcore_case(1ull << 38 | 0x1, 1ull << 16 | 0x1, false);
	offcore_case(1ull << 38 | 1ull << 16 | 0x1, 1ull << 16 | 0x1, true);
	offcore_case(1ull << 38 | 0x1, 1ull << 16 | 0x2, true);
}

/* Without a handler a violation is a FAIL line (lib/report.h), so a run fails. */
static void test_default_handler_fails_the_run(void **state)
{
	struct report_counts rc;

	use_model("skl");
	sim_set_violation_handler(NULL, NULL);
	report_reset();
	setup_ds();
	arm(0, EVT(0x003c), 1);
	report_get_counts(&rc);
	assert_int_equal(rc.failures, 1);
	assert_int_equal(sim_violation_count(), 1);
	wr(GLOBAL_CTRL, 0);
	ds_free(&ds);
	report_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rule_table),
	    cmocka_unit_test(test_ldlat_exclusive),
	    cmocka_unit_test(test_order_independent),
	    cmocka_unit_test(test_pdir_reprogram),
	    cmocka_unit_test(test_reported_once_per_arming),
	    cmocka_unit_test(test_ds_area_rule),
	    cmocka_unit_test(test_pebs_enable_layout),
	    cmocka_unit_test(test_pebs_unavailable),
	    cmocka_unit_test(test_arch_pebs_buffer_rule),
	    cmocka_unit_test(test_offcore_avg_latency),
	    cmocka_unit_test(test_default_handler_fails_the_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
