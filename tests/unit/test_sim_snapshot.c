// SPDX-License-Identifier: MIT
/*
 * test_sim_snapshot.c - the counter-snapshot group the simulated PEBS assist
 * writes, programmed by raw MSR writes (no pmu/ code).  Expected bytes from
 * Linux e02e9b0374c3 "perf/x86/intel: Support PEBS counters snapshotting"
 * (MSR_PEBS_DATA_CFG CNTR bit 4, GP mask 47:32, fixed mask 55:48; struct
 * pebs_cntr_header {cntr, fixed, metrics, reserved}; the GP values, then the
 * fixed ones, after the other groups) and "perf/x86/intel: Add counter group
 * support for arch-PEBS" (CFG_C CNTR_ALLOW 35, CNTR_GP 36, CNTR_FIXED 37;
 * header cntr field 39:35), worked out by hand.
 */
#include "test_sim_util.h"

static uint8_t data[64 * 256] __attribute__((aligned(64)));

#define CNTR	  (1ull << 4)
#define GPM(m)	  ((uint64_t)(m) << 32)
#define FIXM(m)	  ((uint64_t)(m) << 48)
#define C_ALLOW	  (1ull << 35)
#define C_GP	  (1ull << 36)
#define C_FIXED	  (1ull << 37)
#define C_METRICS (1ull << 38)
#define C_AUX	  (1ull << 62)
#define C_EN	  (1ull << 63)

/*
 * Format 6 (lnl, CPU 0): PMC0 samples MEM_INST_RETIRED.ALL_LOADS every 16 loads,
 * PMC1 counts the same event, fixed counter 0 instructions.  Every record:
 * basic 0x20 + counter header 0x10 + 3 values = 0x48 bytes; PMC0 is 0 (it
 * wrapped on the 16th load; the value before its reload), PMC1 and FIXED0 16k.
 */
static void test_fmt6_group(void **state)
{
	const uint64_t cfg = CNTR | GPM(0x3) | FIXM(0x1);
	const size_t size = 0x20 + 0x10 + 3 * 8;
	struct ds d;

	use_model("lnl"); /* CPU 0: the Lion Cove P-core */
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 0, (uint64_t)-16 & MASK48);
	wr(DATA_CFG, cfg); /* a format 4/5 part raises #GP here (test_sim_msr) */
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0) | EV_ADAPT);
	wr(A_PMC(0), (uint64_t)-16 & MASK48);
	wr(EVTSEL(1), EVT(0x81d0));
	wr(A_PMC(1), 0);
	wr(FIXED_CTR_CTRL, 0x1);
	wr(FIXED_CTR(0), 0);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 0x3 | 1ull << 32);
	run_loads(data, 64);
	wr(GLOBAL_CTRL, 0);
	wr(PEBS_ENABLE, 0);
	assert_int_equal(ds_used(&d), 4 * size);
	for (unsigned int k = 0; k < 4; k++) {
		const uint8_t *r = d.buf + k * size;

		/* Format 6: the format field is DATA_CFG[31:0] (struct pebs_basic). */
		assert_int_equal(get64(r, 0), size << 48 | (cfg & GENMASK_ULL(31, 0)));
		assert_int_equal(get64(r, 0x20), 0x3ull | 0x1ull << 32); /* cntr 0x3, fixed 0x1 */
		assert_int_equal(get64(r, 0x28), 0);			 /* metrics 0 */
		assert_int_equal(get64(r, 0x30), 0);			 /* PMC0 */
		assert_int_equal(get64(r, 0x38), 16 * (k + 1));		 /* PMC1 */
		assert_int_equal(get64(r, 0x40), 16 * (k + 1));		 /* FIXED0 */
	}
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/*
 * Arch-PEBS (archpebs, CPUID.23H.4 with CNTR_ALLOW/GP/FIXED): PMC0 samples
 * with CNTR_GP | CNTR_FIXED, PMC1 and fixed counter 0 carry CNTR_ALLOW;
 * PMC0 itself has no ALLOW and is not in the group.  Record: header 0x10 +
 * basic 0x30 + aux 0x40 + counter header 0x10 + 2 values = 0x90.
 */
static void test_arch_group(void **state)
{
	const size_t size = 0x10 + 0x30 + 0x40 + 0x10 + 2 * 8;
	struct ds d;

	use_model("archpebs");
	ds_make(&d, 8192, 8192, 8192);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(A_PMC(0), (uint64_t)-16 & MASK48);
	wr(CFG_C_GP(0), C_EN | C_AUX | C_GP | C_FIXED | 0xfffffff0);
	wr(CFG_C_GP(1), C_ALLOW);
	wr(CFG_C_FX(0), C_ALLOW);
	wr(EVTSEL(1), EVT(0x81d0));
	wr(A_PMC(1), 0);
	wr(FIXED_CTR_CTRL, 0x1);
	wr(FIXED_CTR(0), 0);
	wr(PEBS_BASE, (uintptr_t)d.buf | 1);
	wr(PEBS_INDEX, 1ull << 32 | (uint64_t)(8192 >> 4) << 36);
	wr(GLOBAL_CTRL, 0x3 | 1ull << 32);
	run_loads(data, 32);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(((rd(PEBS_INDEX) >> 4) & 0x7fffff) << 4, 2 * size);
	for (unsigned int k = 0; k < 2; k++) {
		const uint8_t *r = d.buf + k * size;

		assert_int_equal(get64(r, 0) & 0xffff, size);
		assert_int_equal((get64(r, 0) >> 35) & 0x1f, (C_GP | C_FIXED) >> 35);
		assert_int_equal(get64(r, 0x80), 0x2ull | 0x1ull << 32); /* cntr PMC1, fixed 0 */
		assert_int_equal(get64(r, 0x90), 16 * (k + 1));		 /* PMC1 */
		assert_int_equal(get64(r, 0x98), 16 * (k + 1));		 /* FIXED0 */
	}
	assert_int_equal(n_rules, 0);
	/* an odd group: a record of 0x88 bytes, which WR (16-byte units) cannot end */
	clear_rules();
	wr(CFG_C_FX(0), 0);
	wr(PEBS_INDEX, 1ull << 32 | (uint64_t)(8192 >> 4) << 36);
	wr(GLOBAL_CTRL, 0x3 | 1ull << 32);
	run_loads(data, 16);
	wr(GLOBAL_CTRL, 0);
	assert_true(saw_rule("arch-pebs-record-size"));
	ds_free(&d);
}

/* What the parts refuse: counter-snapshot bits before format 6, CNTR_METRICS not enumerated. */
static void test_refused(void **state)
{
	use_model("spr");
	assert_true(wr_gp(DATA_CFG, CNTR | GPM(0x1)));
	assert_true(wr_gp(DATA_CFG, GPM(0x1)));
	use_model("lnl"); /* CPU 0: the Lion Cove P-core */
	assert_false(wr_gp(DATA_CFG, CNTR | GPM(0xffff) | FIXM(0xff)));
	assert_true(wr_gp(DATA_CFG, 1ull << 56));
	use_model("archpebs");
	assert_false(wr_gp(CFG_C_GP(1), C_ALLOW | C_GP | C_FIXED));
	assert_true(wr_gp(CFG_C_GP(1), C_METRICS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fmt6_group),
	    cmocka_unit_test(test_arch_group),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
