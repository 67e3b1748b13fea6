// SPDX-License-Identifier: MIT
/*
 * test_sim_placement.c - the simulator enforces the part's own perfmon file
 * (sim/placement.c), apart from any plan: raw MSR programs on a counter the
 * event's Counter / PEBScounters list excludes, and on one it allows.
 *   SKL/events/skylake_core.json: INST_RETIRED.PREC_DIST (0x01c0) Counter "1";
 *   SPR/events/sapphirerapids_core.json: INST_RETIRED.ANY_P (0x00c0)
 *   PEBScounters "1,2,3,4,5,6,7"; MEM_TRANS_RETIRED.LOAD_LATENCY_GT_* (0x01cd)
 *   Counter and PEBScounters "1,2,3,4,5,6,7"; MEM_INST_RETIRED.ALL_LOADS
 *   (0x81d0) PEBScounters "0,1,2,3", PDISTCounter "0"; the load-latency events
 *   and FRONTEND_RETIRED.* (0x01c6) TakenAlone "1", MEM_INST_RETIRED.* "0".
 */
#include "test_sim_util.h"

static uint8_t data[64 * 4096];

/* A counting event outside its Counter list counts nothing, and says so. */
static void test_count_outside_counter(void **state)
{
	use_model("skl");
	for (unsigned int ctr = 0; ctr < 2; ctr++) {
		clear_rules();
		wr(GLOBAL_CTRL, 0);
		wr(PMC(ctr), 0);
		wr(EVTSEL(ctr), EVT(0x01c0));
		wr(GLOBAL_CTRL, 1ull << ctr);
		run_loads(data, 100);
		wr(GLOBAL_CTRL, 0);
		if (ctr == 0) {
			assert_int_equal(rd(PMC(0)), 0);
			assert_true(saw_rule("count-counter"));
		} else {
			assert_int_equal(rd(PMC(1)), 100);
			assert_int_equal(n_rules, 0);
		}
		wr(EVTSEL(ctr), 0);
	}
}

/* Arms GP ctr for PEBS with evtsel on spr (adaptive, meminfo group), SAV 1. */
static void arm_spr(struct ds *d, unsigned int ctr, uint64_t evtsel)
{
	ds_make(d, 16384, 16384, 16384);
	ds_reset_slot(d, ctr, MASK48); /* SAV 1 */
	wr(GLOBAL_CTRL, 0);
	wr(LD_LAT, 3);
	wr(DATA_CFG, 1); /* MEMINFO */
	wr(EVTSEL(ctr), evtsel | EV_ADAPT);
	wr(PMC(ctr), MASK48);
	wr(DS_AREA, (uintptr_t)d->area);
	wr(PEBS_ENABLE, 1ull << ctr);
	wr(GLOBAL_CTRL, 1ull << ctr);
}

/* A PEBS event outside its PEBScounters writes no records. */
static void test_pebs_outside_pebscounters(void **state)
{
	struct ds d;

	use_model("spr");
	arm_spr(&d, 0, EVT(0x00c0));
	run_loads(data, 10);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 0);
	assert_true(saw_rule("pebs-counter"));
	ds_free(&d);

	use_model("spr");
	arm_spr(&d, 1, EVT(0x00c0));
	run_loads(data, 10);
	wr(GLOBAL_CTRL, 0);
	assert_true(ds_used(&d) >= 9 * 0x40);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/*
 * Load latency outside its counters: records, but without latency and data
 * source (meminfo group: +0x20 address, +0x28 data source, +0x30 latency).
 */
static void test_ldlat_outside(void **state)
{
	struct ds d;

	for (unsigned int ctr = 0; ctr < 2; ctr++) {
		use_model("spr");
		arm_spr(&d, ctr, EVT(0x01cd));
		run_loads(data + 32 * 4096, 4);
		wr(GLOBAL_CTRL, 0);
		assert_true(ds_used(&d) >= 3 * 0x40);
		if (ctr == 0) {
			assert_int_equal(get64(d.buf, 0x28), 0);
			assert_int_equal(get64(d.buf, 0x30), 0);
			assert_true(saw_rule("pebs-counter"));
		} else {
			assert_true(get64(d.buf, 0x28) != 0);
			assert_true(get64(d.buf, 0x30) > 3);
			assert_int_equal(n_rules, 0);
		}
		ds_free(&d);
	}
}

/*
 * PDIST only where PDISTCounter allows it (perfmon README, PDISTCounter:
 * with PDist the record is "generated precisely upon completion of the
 * instruction or operation that causes the counter to overflow (there is no
 * 'wait for next occurrence' by default)").  ALL_LOADS with SAV 4 on PMC0
 * (PDIST): records of loads 4, 8, 12, ...; on PMC1 (PEBS, no PDIST): of the
 * load after each overflow, 5, 9, 13, ...  (meminfo group: +0x20 address).
 */
static void test_pdist_only_on_pdist_counter(void **state)
{
	struct ds d;

	for (unsigned int ctr = 0; ctr < 2; ctr++) {
		struct sim_stats st;

		use_model("spr");
		arm_spr(&d, ctr, EVT(0x81d0));
		wr(GLOBAL_CTRL, 0);
		ds_reset_slot(&d, ctr, MASK48 - 3); /* SAV 4 */
		wr(PMC(ctr), MASK48 - 3);
		wr(GLOBAL_CTRL, 1ull << ctr);
		run_loads(data, 17);
		wr(GLOBAL_CTRL, 0);
		sim_get_stats(&st);
		assert_int_equal(ds_used(&d), 4 * 0x40);
		for (unsigned int r = 0; r < 4; r++) {
			/* load n (1-based) reads data + 64 * (n - 1) */
			unsigned int n = 4 * (r + 1) + (ctr == 0 ? 0 : 1);

			assert_int_equal(get64(d.buf, 0x40 * r + 0x20),
					 (uintptr_t)data + 64 * (n - 1));
		}
		assert_int_equal(st.records_shadowed, ctr == 0 ? 0 : 4);
		assert_string_equal(rules_seen, "");
		ds_free(&d);
	}
}

/*
 * Two TakenAlone events at once count nothing and say so (perfmon README,
 * TakenAlone: "can only be sampled or counted by itself"); one of them
 * beside an ordinary event counts.
 */
static void test_taken_alone(void **state)
{
	for (unsigned int second = 0; second < 2; second++) {
		use_model("spr");
		clear_rules();
		wr(GLOBAL_CTRL, 0);
		wr(LD_LAT, 3);
		wr(PMC(1), 0);
		wr(PMC(2), 0);
		wr(EVTSEL(1), EVT(0x01cd)); /* MEM_TRANS_RETIRED.LOAD_LATENCY_GT_* */
		/* FRONTEND_RETIRED.* (TakenAlone) or MEM_INST_RETIRED.ALL_LOADS (not) */
		wr(EVTSEL(2), EVT(second ? 0x01c6 : 0x81d0));
		wr(GLOBAL_CTRL, 0x6);
		run_loads(data, 100);
		wr(GLOBAL_CTRL, 0);
		if (second) {
			assert_int_equal(rd(PMC(1)), 0);
			assert_true(saw_rule("taken-alone"));
		} else {
			assert_int_equal(rd(PMC(1)), 100);
			assert_int_equal(rd(PMC(2)), 100);
			assert_string_equal(rules_seen, "");
		}
	}
}

/*
 * UMaskExt (PERFEVTSEL[47:40]) is part of an event's identity:
 * LNL/events/lunarlake_lioncove_core.json MEM_LOAD_RETIRED.L1_HIT is
 * 0xd1/0x01/UMaskExt 0x01, L1_HIT_L0 0xd1/0x01/0x00 (a level the model does
 * not keep apart, so it counts nothing); NVL/events/novalake_coyotecove_core.json
 * renumbered them (L1_HIT 0xd1/0x06).  Two programs that differ only in
 * UMASK2 must not count the same (CPU 0 of lnl and nvl is a P-core).
 */
static void test_umask2_is_part_of_the_event(void **state)
{
	static const struct {
		const char *model;
		uint64_t l1_hit, other;
	} rows[] = {
	    {"lnl", EVT(0x01d1) | 1ull << 40, EVT(0x01d1)},
	    {"nvl", EVT(0x06d1), EVT(0x01d1)},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		use_model(rows[i].model);
		clear_rules();
		wr(GLOBAL_CTRL, 0);
		wr(PMC(2), 0);
		wr(PMC(3), 0);
		wr(EVTSEL(2), rows[i].l1_hit);
		wr(EVTSEL(3), rows[i].other);
		run_loads(data, 100); /* warm: every later load hits L1 */
		wr(PMC(2), 0);
		wr(PMC(3), 0);
		wr(GLOBAL_CTRL, 3ull << 2);
		run_loads(data, 100);
		wr(GLOBAL_CTRL, 0);
		assert_int_equal(rd(PMC(2)), 100);
		assert_int_equal(rd(PMC(3)), 0);
		wr(EVTSEL(2), 0);
		wr(EVTSEL(3), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_count_outside_counter),
	    cmocka_unit_test(test_pebs_outside_pebscounters),
	    cmocka_unit_test(test_ldlat_outside),
	    cmocka_unit_test(test_umask2_is_part_of_the_event),
	    cmocka_unit_test(test_pdist_only_on_pdist_counter),
	    cmocka_unit_test(test_taken_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
