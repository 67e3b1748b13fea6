// SPDX-License-Identifier: MIT
/*
 * test_sim_evtsel.c - the simulator counts PERFEVTSEL's CMASK, INV, EDGE
 * and EQ as SDM Vol. 3B 20.2.1.1 defines them (IA32_PERFEVTSELx fields;
 * EQ bit 36 from PMU version 6, CPUID.23H.0:EBX[1]), per cycle, and flags
 * what it cannot model instead of counting the plain event.
 *
 * The expected counts are worked out here by hand from those rules and
 * docs/SIM.md's cycle model: an L1-hit load is one instruction of one
 * cycle, its load in that cycle; retire(ip, n) is n cycles of one
 * instruction and no load; a load that misses takes extra cycles before it
 * retires, with no load in them.
 */
#include "test_sim_util.h"

#define EV_INV	    (1ull << 23)
#define EV_EQ	    (1ull << 36)
#define CMASK(n)    ((uint64_t)(n) << 24)
#define ALL_LOADS   0x81d0 /* MEM_INST_RETIRED.ALL_LOADS (SKL, LNL perfmon files) */
#define CORE_P	    0x003c /* CPU_CLK_UNHALTED.CORE_P, architectural */
#define OUTSTANDING 0x0160 /* OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD (SKL) */
#define FIXED1_OS   (1ull << 4)
#define GLOBAL_FX1  (1ull << 33)

static uint8_t data[64 * 4096];

/* Programs PMC0-3 with sel[] and fixed counter 1 (cycles), all from 0. */
static void arm4(const uint64_t sel[4])
{
	wr(GLOBAL_CTRL, 0);
	for (unsigned int i = 0; i < 4; i++) {
		wr(EVTSEL(i), sel[i]);
		wr(PMC(i), 0);
	}
	wr(FIXED_CTR(1), 0);
	wr(FIXED_CTR_CTRL, FIXED1_OS);
	wr(GLOBAL_CTRL, 0xf | GLOBAL_FX1);
}

static void l1_loads(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		hw_current()->mem_access(KIP, 0, (uintptr_t)data, 8, HW_LOAD);
}

/* 10 L1-hit loads, 5 cycles without a load, 10 L1-hit loads: 25 cycles. */
static void pattern(void)
{
	l1_loads(10);
	hw_current()->retire(KIP + 0x40, 5);
	l1_loads(10);
	wr(GLOBAL_CTRL, 0);
}

static void want(const char *what, unsigned int ctr, uint64_t n)
{
	uint64_t v = rd(PMC(ctr));

	if (v != n)
		fail_msg("%s on %s: PMC%u (EVTSEL 0x%llx) counted %llu, want %llu", what,
			 sim_current_model(), ctr, (unsigned long long)rd(EVTSEL(ctr)),
			 (unsigned long long)v, (unsigned long long)n);
}

/* Skylake: CMASK, INV, EDGE on loads and cycles. */
static void cmask_inv_edge(void **state)
{
	const uint64_t sel[4] = {
	    EVT(ALL_LOADS) | CMASK(1),		 /* cycles with a load */
	    EVT(ALL_LOADS) | CMASK(1) | EV_INV,	 /* cycles without one */
	    EVT(ALL_LOADS) | CMASK(1) | EV_EDGE, /* runs of cycles with loads */
	    EVT(CORE_P) | CMASK(2),		 /* two cycles in one cycle: never */
	};
	const uint64_t sel2[4] = {
	    EVT(ALL_LOADS) | CMASK(2) | EV_INV, /* fewer than 2 loads: every cycle */
	    EVT(CORE_P) | CMASK(1) | EV_EDGE,	/* cycles begin once */
	    EVT(ALL_LOADS),			/* the plain count */
	    EVT(CORE_P) | CMASK(1) | EV_INV,	/* no cycle without a cycle */
	};

	use_model("skl");
	wr(GLOBAL_CTRL, 0);
	l1_loads(1); /* the line in L1 before counting */
	arm4(sel);
	pattern();
	assert_int_equal(rd(FIXED_CTR(1)), 25);
	want("cmask=1", 0, 20);
	want("cmask=1 inv", 1, 5);
	want("cmask=1 edge", 2, 2);
	want("cycles cmask=2", 3, 0);

	arm4(sel2);
	pattern();
	want("cmask=2 inv", 0, 25);
	want("cycles cmask=1 edge", 1, 1);
	want("plain", 2, 20);
	want("cycles cmask=1 inv", 3, 0);
	assert_int_equal(n_rules, 0);
}

/*
 * Loads that miss: each waits its extra cycles, loadless, then retires.
 * Cycles with a load, without one, and the runs of load cycles, against
 * fixed counter 1's cycles.
 */
static void misses_stall(void **state)
{
	const uint64_t sel[4] = {
	    EVT(ALL_LOADS) | CMASK(1), EVT(ALL_LOADS) | CMASK(1) | EV_INV,
	    EVT(ALL_LOADS) | CMASK(1) | EV_EDGE,
	    EVT(ALL_LOADS) | CMASK(1) | EV_INV | EV_EDGE, /* runs of loadless cycles */
	};
	uint64_t cycles;

	use_model("skl");
	arm4(sel);
	for (unsigned int i = 0; i < 3; i++)
		hw_current()->mem_access(KIP, 0, (uintptr_t)data + 16 * 4096 + 4096 * i, 8,
					 HW_LOAD);
	wr(GLOBAL_CTRL, 0);
	cycles = rd(FIXED_CTR(1));
	assert_true(cycles > 3 * 10); /* misses: far more than a cycle each */
	want("cmask=1", 0, 3);
	want("cmask=1 inv", 1, cycles - 3);
	want("cmask=1 edge", 2, 3);
	want("cmask=1 inv edge", 3, 3);
	assert_int_equal(n_rules, 0);
}

/* Lunar Lake (PMU v6, CPUID.23H.0:EBX[1]): EQ compares for equality. */
static void eq_on_v6(void **state)
{
	const uint64_t sel[4] = {
	    EVT(ALL_LOADS) | CMASK(1) | EV_EQ,		 /* exactly one load */
	    EVT(ALL_LOADS) | CMASK(2) | EV_EQ,		 /* exactly two: never */
	    EVT(CORE_P) | CMASK(1) | EV_EQ,		 /* every cycle */
	    EVT(ALL_LOADS) | CMASK(1) | EV_EQ | EV_EDGE, /* runs of one-load cycles */
	};

	use_model("lnl");
	wr(GLOBAL_CTRL, 0);
	l1_loads(1);
	arm4(sel);
	pattern();
	assert_int_equal(rd(FIXED_CTR(1)), 25);
	want("cmask=1 eq", 0, 20);
	want("cmask=2 eq", 1, 0);
	want("cycles cmask=1 eq", 2, 25);
	want("cmask=1 eq edge", 3, 2);
	assert_int_equal(n_rules, 0);
}

/*
 * A counter torn down (EVTSEL 0) and armed again with the same EVTSEL starts
 * a new "present EVTSEL": the condition before its first cycle is off again,
 * so each run of 10 cycles counts its one edge (cycles begin once per run).
 */
static void edge_rearmed(void **state)
{
	const uint64_t sel = EVT(CORE_P) | CMASK(1) | EV_EDGE;

	use_model("skl");
	for (unsigned int run = 0; run < 2; run++) {
		wr(GLOBAL_CTRL, 0);
		wr(EVTSEL(0), 0);
		wr(PMC(0), 0);
		wr(EVTSEL(0), sel);
		wr(GLOBAL_CTRL, 1);
		hw_current()->retire(KIP + 0x40, 10);
		wr(GLOBAL_CTRL, 0);
		if (rd(PMC(0)) != 1)
			fail_msg("run %u: cycles cmask=1 edge, EVTSEL 0 and back between runs: "
				 "counted %llu, want 1",
				 run, (unsigned long long)rd(PMC(0)));
	}
	assert_int_equal(n_rules, 0);
}

/* What the model cannot count is flagged and counts nothing, not the plain event. */
static void unmodelled_flagged(void **state)
{
	static const struct {
		const char *model;
		uint64_t sel;
	} cases[] = {
	    {"skl", EVT(ALL_LOADS) | EV_INV},			 /* INV with CMASK 0 */
	    {"skl", EVT(ALL_LOADS) | EV_EDGE},			 /* EDGE with CMASK 0 */
	    {"lnl", EVT(ALL_LOADS) | EV_EQ},			 /* EQ with CMASK 0 */
	    {"lnl", EVT(ALL_LOADS) | CMASK(1) | EV_EQ | EV_INV}, /* EQ with INV */
	    {"skl", EVT(OUTSTANDING) | CMASK(1)},		 /* counted per request */
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		const uint64_t sel[4] = {cases[k].sel, EVT(ALL_LOADS), EVT(CORE_P), EVT(CORE_P)};

		use_model(cases[k].model);
		arm4(sel);
		for (unsigned int i = 0; i < 20; i++)
			hw_current()->mem_access(KIP, 0, (uintptr_t)data + 64 * i, 8, HW_LOAD);
		wr(GLOBAL_CTRL, 0);
		if (!saw_rule("unmodelled-evtsel"))
			fail_msg("%s EVTSEL 0x%llx: not flagged (rules: %s)", cases[k].model,
				 (unsigned long long)cases[k].sel, rules_seen);
		want("unmodelled", 0, 0);
		want("plain beside it", 1, 20);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cmask_inv_edge),	  cmocka_unit_test(misses_stall),
	    cmocka_unit_test(eq_on_v6),		  cmocka_unit_test(edge_rearmed),
	    cmocka_unit_test(unmodelled_flagged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
