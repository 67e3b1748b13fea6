// SPDX-License-Identifier: MIT
/*
 * test_sim_fixed_enum.c - the simulator's fixed counters follow CPUID.0AH
 * as SDM Vol. 3B 20.2.5 "Architectural Performance Monitoring Version 5"
 * has software read it: from version 5 on fixed counter i exists if
 * ECX[i] || EDX[4:0] > i (before, counters 0 to EDX[4:0] - 1).  One that does
 * not exist raises #GP on RDMSR/WRMSR, and its FIXED_CTR_CTRL field and
 * GLOBAL_CTRL bit are reserved.  Expected sets written from that rule.
 */
#include "test_sim_util.h"

/*
 * Fixed counter i: IA32_FIXED_CTRi 0x309+i for 0-3 (SDM Vol. 4); 4 and up at
 * IA32_PMC_FXi_CTR 0x1980+4i, PMU v6 only (Linux 149fd4712bcd).
 */
static uint32_t fixed_ctr(unsigned int i)
{
	return i < 4 ? FIXED_CTR(i) : 0x1980 + 4 * i;
}

static void expect_fixed(uint32_t present)
{
	uint64_t v;

	for (unsigned int i = 0; i < 8; i++) {
		bool want = present & (1u << i);

		assert_int_equal(hw_rdmsr(fixed_ctr(i), &v) == HW_OK, want);
		assert_int_equal(hw_wrmsr(fixed_ctr(i), 0) == HW_OK, want);
		/* OS|USR in counter i's field of FIXED_CTR_CTRL */
		assert_int_equal(hw_wrmsr(FIXED_CTR_CTRL, 3ull << (4 * i)) == HW_OK, want);
		assert_int_equal(hw_wrmsr(GLOBAL_CTRL, 1ull << (32 + i)) == HW_OK, want);
	}
	assert_int_equal(hw_wrmsr(FIXED_CTR_CTRL, 0), HW_OK);
	assert_int_equal(hw_wrmsr(GLOBAL_CTRL, 0), HW_OK);
}

/* Clearwater Forest-class E-core: fixed counters 0-2 and 4-6, no 3 (perfmon, sim/models.c). */
static void test_ecore_hole_at_3(void **state)
{
	struct cpuid_regs r;

	use_model("archpebs");
	hw_cpuid(0xa, 0, &r);
	assert_int_equal(r.ecx, 0x77);
	assert_int_equal(r.edx & 0x1f, 3);
	hw_cpuid(0x23, 1, &r);
	assert_int_equal(r.ebx, 0x77); /* the counters sub-leaf names the same set */
	expect_fixed(0x77);
}

/* A guest's CPUID as a VMM may set it (KVM honours ECX[i] || EDX[4:0] > i). */
static void test_guest_enumerations(void **state)
{
	static const struct {
		uint32_t ecx, count, present;
	} cases[] = {
	    {0x5, 1, 0x5}, /* no fixed counter 1 */
	    {0x6, 0, 0x6}, /* no fixed counter 0 */
	    {0x3, 0, 0x3}, /* no fixed counter 2 */
	    {0x0, 2, 0x3}, /* EDX alone: 0 and 1 */
	    {0x8, 3, 0xf}, /* both: 0-2 from EDX, 3 from ECX */
	    {0x0, 0, 0x0}, /* none */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpuid_regs r;

		use_model("icx");
		assert_int_equal(sim_set_fixed_enum(cases[i].ecx, cases[i].count), 0);
		hw_cpuid(0xa, 0, &r);
		assert_int_equal(r.ecx, cases[i].ecx);
		assert_int_equal(r.edx & 0x1f, cases[i].count);
		assert_int_equal((r.edx >> 5) & 0xff, 48); /* the width is the model's */
		expect_fixed(cases[i].present);
	}
	/* a new selection forgets it */
	use_model("icx");
	expect_fixed(0xf);
	/* before version 5 ECX is reserved: no enumeration to override */
	use_model("skl");
	assert_int_equal(sim_set_fixed_enum(0x5, 1), -1);
	expect_fixed(0x7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ecore_hole_at_3),
	    cmocka_unit_test(test_guest_enumerations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
