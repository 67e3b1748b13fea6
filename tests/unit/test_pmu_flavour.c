// SPDX-License-Identifier: MIT
/*
 * test_pmu_flavour.c - the PEBS flavour chosen once (pmu/pebs_flavour.h):
 * which flavour a session and a CPU get, and that a plan built for the
 * session carries it (the session takes its hooks from there).  Arch-PEBS
 * is CPUID.23H with PERF_CAPABILITIES.PEBS_FMT 0xF (pmu/uarch.c); legacy
 * PEBS is DS without IA32_MISC_ENABLE[12] (SDM Vol. 4 Table 2-2).
 */
#include "pmu/pebs_flavour.h"
#include "pmu/plan.h"
#include "test_util.h"

struct flavour_case {
	const char *what;
	bool arch_enum, arch_fmt, pebs_unavail, count_only;
	const struct pebs_flavour *session, *cpu;
};

// clang-format off
static const struct flavour_case cases[] = {
	{"legacy PEBS",            false, false, false, false, &pebs_ds_flavour,    &pebs_ds_flavour},
	{"legacy, counting only",  false, false, false, true,  &pebs_count_flavour, &pebs_ds_flavour},
	{"PEBS unavailable",       false, false, true,  true,  &pebs_count_flavour, &pebs_count_flavour},
	{"arch-PEBS",              true,  true,  false, false, &pebs_arch_flavour,  &pebs_arch_flavour},
	{"arch, counting only",    true,  true,  false, true,  &pebs_count_flavour, &pebs_arch_flavour},
	{"23H without format 0xF", true,  false, false, false, &pebs_ds_flavour,    &pebs_arch_flavour},
};
// clang-format on

static struct cpu_info case_cpu(const struct flavour_case *c)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 4, true, 8, 5);

	ci.arch_pebs = c->arch_enum;
	if (c->arch_fmt)
		ci.perf_caps = (ci.perf_caps & ~0xf00ULL) | ((uint64_t)PEBS_FMT_ARCH << 8);
	if (c->pebs_unavail)
		ci.misc_enable |= MISC_ENABLE_PEBS_UNAVAIL;
	return ci;
}

static void test_flavour_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct flavour_case *c = &cases[i];
		struct cpu_info ci = case_cpu(c);

		if (pebs_flavour_of_session(&ci, c->count_only) != c->session ||
		    pebs_flavour_of_cpu(&ci) != c->cpu)
			fail_msg("%s: session %s (want %s), cpu %s (want %s)", c->what,
				 pebs_flavour_of_session(&ci, c->count_only)->name,
				 c->session->name, pebs_flavour_of_cpu(&ci)->name, c->cpu->name);
	}
}

/* Every flavour's facts agree with its kind: records iff groups, CPUID counters iff CFG_C. */
static void test_flavour_facts(void **state)
{
	const struct pebs_flavour *all[] = {&pebs_ds_flavour, &pebs_arch_flavour,
					    &pebs_count_flavour};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		const struct pebs_flavour *f = all[i];

		assert_non_null(f->ops);
		assert_non_null(f->name);
		assert_non_null(f->counter_source);
		assert_int_equal(f->records, f->groups != PEBS_GROUPS_NONE);
		assert_int_equal(f->cpuid_counters, f->groups == PEBS_GROUPS_CFG_C);
		assert_true(f->n_handoff_msrs <= 2);
	}
}

/* A plan carries the session's flavour, refused or not: the session takes its hooks from it. */
static void test_plan_carries_flavour(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 4, true, 8, 5);
	struct session_cfg cfg;
	struct pmu_plan p;
	char why[256];

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.count_only = true;
	plan_build(&cfg, &ci, &p, why, sizeof(why));
	assert_ptr_equal(p.fl, &pebs_count_flavour);
	ci.vendor = VENDOR_AMD; /* refused before any plan is made */
	cfg.count_only = false;
	assert_int_not_equal(plan_build(&cfg, &ci, &p, why, sizeof(why)), 0);
	assert_ptr_equal(p.fl, &pebs_ds_flavour);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_flavour_cases),
	    cmocka_unit_test(test_flavour_facts),
	    cmocka_unit_test(test_plan_carries_flavour),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
