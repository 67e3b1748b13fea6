// SPDX-License-Identifier: MIT
/*
 * test_sim_acr.c - the simulator's auto counter reload (sim/acr.c), only
 * with sim_set_acr() (sim-acr=): CPUID.23H sub-leaf 2, IA32_PMC_*_CFG_B
 * and its #GP rules, and a reload group programmed by hand whose counts are
 * worked out here from the definition (Linux core.c intel_pmu_config_acr:
 * CFG_B names the counters whose overflow reloads this one, CFG_C[31:0] is
 * the reload value).
 */
#include "test_sim_util.h"

#define CFG_B_GP(i) (0x1902 + 4 * (i))
#define CFG_B_FX(i) (0x1982 + 4 * (i))
#define INST_ANY_P  0x00c0 /* INST_RETIRED.ANY_P, architectural event 1 */

static void cpuid_23(uint32_t sub, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	hw_cpuid(0x23, sub, r);
}

/* CPUID.23H enumerates sub-leaf 2 only with sim-acr=, and gives its four registers. */
static void test_cpuid(void **state)
{
	struct cpuid_regs r;

	use_model("ptl");
	cpuid_23(0, &r);
	assert_false(r.eax & (1u << 2));
	assert_true(wr_gp(CFG_B_GP(2), 0)); /* no ACR: no CFG_B */
	assert_int_equal(sim_set_acr(0xfc, 0x1, 0xf0, 0x2), 0);
	cpuid_23(0, &r);
	assert_true(r.eax & (1u << 2));
	cpuid_23(2, &r);
	assert_int_equal(r.eax, 0xfc);
	assert_int_equal(r.ebx, 0x1);
	assert_int_equal(r.ecx, 0xf0);
	assert_int_equal(r.edx, 0x2);
	/* A new sim_select() forgets it. */
	use_model("ptl");
	cpuid_23(0, &r);
	assert_false(r.eax & (1u << 2));
	/* No leaf 23H below v6: nothing to enumerate it in. */
	use_model("spr");
	assert_int_equal(sim_set_acr(0xfc, 0, 0xfc, 0), 0);
	assert_true(wr_gp(CFG_B_GP(2), 0));
}

/*
 * CFG_B: bits of counters that may cause a reload only (Linux 43796f305078:
 * a CFG_B bit for a counter without ACR faults), and non-zero only on a
 * counter that may be reloaded.
 */
static void test_cfg_b(void **state)
{
	use_model("ptl");
	sim_set_acr(0xfc, 0x1, 0xf0, 0x2);
	wr(CFG_B_GP(2), 1ull << 4);
	assert_int_equal(rd(CFG_B_GP(2)), 1ull << 4);
	wr(CFG_B_GP(2), (1ull << 4) | (1ull << 33)); /* fixed 1 may cause */
	assert_true(wr_gp(CFG_B_GP(2), 1ull << 0));  /* GP 0 may not cause */
	assert_true(wr_gp(CFG_B_GP(2), 1ull << 32)); /* fixed 0 may not cause */
	assert_true(wr_gp(CFG_B_GP(0), 1ull << 4));  /* GP 0 may not be reloaded */
	wr(CFG_B_GP(0), 0);
	wr(CFG_B_FX(0), 1ull << 5); /* fixed 0 may be reloaded */
	assert_true(wr_gp(CFG_B_FX(1), 1ull << 5));
	/* CFG_C exists for the reload value also without arch-PEBS (Lunar Lake, fmt6). */
	use_model("lnl");
	assert_true(wr_gp(CFG_C_GP(2), 5));
	sim_set_acr(0xfc, 0, 0xfc, 0);
	wr(CFG_C_GP(2), 5);
	assert_true(wr_gp(CFG_C_GP(2), 1ull << 63)); /* no arch-PEBS bits there */
}

/*
 * gp3 counts instructions from -period and reloads itself to -period on
 * each overflow; gp2 counts them from 0 and is reloaded to `reload` on each
 * of gp3's overflows.  After n instructions (n > period): gp3 = -period +
 * n mod period, gp2 = reload + n mod period.  With acr off gp2 = n.  gp3
 * has INT: a self-reloaded counter sets no GLOBAL_STATUS bit and raises no
 * PMI (the SDM as Linux 1271aeccc307 quotes it); without ACR it does both.
 */
static void group(bool acr, uint64_t n, uint64_t *gp2, uint64_t *gp3)
{
	const uint64_t period = 1000, reload = 77;

	use_model("ptl");
	sim_set_acr(0xfc, 0, 0xfc, 0);
	wr(GLOBAL_CTRL, 0);
	if (acr) {
		wr(CFG_B_GP(2), 1ull << 3);
		wr(CFG_C_GP(2), reload);
		wr(CFG_B_GP(3), 1ull << 3);
		wr(CFG_C_GP(3), (uint32_t)(0 - period));
	}
	wr(PMC(2), 0);
	wr(PMC(3), (0 - period) & MASK48);
	wr(EVTSEL(2), EVT(INST_ANY_P));
	wr(EVTSEL(3), EVT(INST_ANY_P) | EV_INT);
	wr(GLOBAL_CTRL, 0xc);
	hw_current()->retire(0x1000, n);
	wr(GLOBAL_CTRL, 0);
	*gp2 = rd(PMC(2));
	*gp3 = rd(PMC(3));
}

static void test_reload(void **state)
{
	uint64_t gp2, gp3;
	struct sim_stats st;

	group(true, 10500, &gp2, &gp3);
	assert_int_equal(gp2, 77 + 500);
	assert_int_equal(gp3, (0 - 1000ull + 500) & MASK48);
	sim_get_stats(&st);
	assert_int_equal(st.acr_reloads, 2 * 10); /* gp2 and gp3, ten overflows */
	if (rd(GLOBAL_STATUS) & (1ull << 3) || st.pmis + st.pmis_masked)
		fail_msg("self-reloaded gp3: GLOBAL_STATUS 0x%llx, %llu PMIs (+%llu masked); want "
			 "bit 3 clear and none",
			 (unsigned long long)rd(GLOBAL_STATUS), (unsigned long long)st.pmis,
			 (unsigned long long)st.pmis_masked);
	/* The same program without CFG_B: gp2 counts every instruction, gp3 wraps once. */
	group(false, 10500, &gp2, &gp3);
	assert_int_equal(gp2, 10500);
	assert_int_equal(gp3, 9500);
	assert_true(rd(GLOBAL_STATUS) & (1ull << 3));
	sim_get_stats(&st);
	assert_int_equal(st.pmis + st.pmis_masked, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpuid),
	    cmocka_unit_test(test_cfg_b),
	    cmocka_unit_test(test_reload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
