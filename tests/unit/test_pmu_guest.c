// SPDX-License-Identifier: MIT
/*
 * test_pmu_guest.c - the guest rules (pmu/guest.c) against the simulated
 * KVM guest (sim-host=, sim/kvm.c): each rule has a case where it applies
 * and one where it does not; what a guest sees (leaf 40000000H, the masked
 * PERF_CAPABILITIES, #GP on the MSRs KVM does not handle) is checked
 * against the values worked out from KVM's source in docs/KVM.md; and the
 * verdicts a guest cannot have become SKIPs naming the rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "pmu/cpu.h"
#include "pmu/cpu_pebs.h"
#include "pmu/guest.h"
#include "pmu/hw.h"
#include "pmu/plan.h"
#include "pmu/session.h"
#include "sim/sim.h"
#include "test_util.h"

/* A simulated model, as a guest of host h, probed as the app probes it. */
static void guest_probe(const char *model, enum sim_host h, struct cpu_info *ci)
{
	assert_int_equal(sim_select(model), 0);
	assert_int_equal(sim_set_host(h), 0);
	hw_install(sim_hw_ops());
	cpu_probe(ci);
}

struct rule_case {
	const char *model;
	enum sim_host host;
	const char *rule;
	bool applies;
};

/* clang-format off */
static const struct rule_case rule_cases[] = {
	/* Ice Lake server: EPT-friendly PEBS (core.c ICELAKE_X), so PEBS; no MSR 3F6H/3F7H */
	{ "icx", SIM_HOST_KVM,     "kvm-no-ldlat",       true },
	{ "icx", SIM_HOST_NONE,    "kvm-no-ldlat",       false },
	{ "icx", SIM_HOST_KVM,     "kvm-no-frontend",    true },
	{ "skl", SIM_HOST_NONE,    "kvm-no-frontend",    false },
	{ "icx", SIM_HOST_KVM,     "kvm-no-pebs",        false },
	/* Sapphire Rapids: format 5, pebs_ept from ds.c intel_ds_init */
	{ "spr", SIM_HOST_KVM,     "kvm-no-pebs",        false },
	/* 9e985cbf2942: no baseline from 6.9; before it, format 4+ kept it */
	{ "icx", SIM_HOST_KVM,     "kvm-no-adaptive",    true },
	{ "spr", SIM_HOST_KVM,     "kvm-no-adaptive",    true },
	{ "icx", SIM_HOST_KVM_6_8, "kvm-no-adaptive",    false },
	{ "icx", SIM_HOST_NONE,    "kvm-no-adaptive",    false },
	/* Skylake client: no pebs_ept, so DS clear and format 0 */
	{ "skl", SIM_HOST_KVM,     "kvm-no-pebs",        true },
	{ "skl", SIM_HOST_KVM,     "kvm-no-vpmu",        false },
	/* a hybrid host: enable_pmu = false (pmu.c kvm_init_pmu_capability) */
	{ "adl", SIM_HOST_KVM,     "kvm-no-vpmu",        true },
	{ "adl", SIM_HOST_NONE,    "kvm-no-vpmu",        false },
	/* Silvermont's offcore average latency takes MSR_OFFCORE_RSP_0/1 */
	{ "slm", SIM_HOST_KVM,     "kvm-no-offcore-rsp", true },
	{ "slm", SIM_HOST_NONE,    "kvm-no-offcore-rsp", false },
};
/* clang-format on */

static const struct guest_rule *rule_named(const char *id)
{
	for (size_t i = 0; i < guest_rule_count(); i++)
		if (!strcmp(guest_rule_at(i)->id, id))
			return guest_rule_at(i);
	return NULL;
}

static void test_rules_apply_where_kvm_says(void **state)
{
	struct cpu_info ci;

	for (size_t i = 0; i < ARRAY_SIZE(rule_cases); i++) {
		const struct rule_case *c = &rule_cases[i];
		const struct guest_rule *g = rule_named(c->rule);

		if (!g)
			fail_msg("no rule %s", c->rule);
		guest_probe(c->model, c->host, &ci);
		if (guest_rule_applies(g, &ci) != c->applies)
			fail_msg("%s on %s, host %d: applies %d, expected %d", c->rule, c->model,
				 c->host, !c->applies, c->applies);
	}
}

/* Every rule has a case where it applies and one where it does not. */
static void test_every_rule_has_both_cases(void **state)
{
	for (size_t i = 0; i < guest_rule_count(); i++) {
		bool yes = false, no = false;

		for (size_t j = 0; j < ARRAY_SIZE(rule_cases); j++)
			if (!strcmp(rule_cases[j].rule, guest_rule_at(i)->id)) {
				yes |= rule_cases[j].applies;
				no |= !rule_cases[j].applies;
			}
		if (!yes || !no)
			fail_msg("rule %s lacks a case that %s", guest_rule_at(i)->id,
				 yes ? "does not apply" : "applies");
	}
}

/*
 * What the guest sees, from KVM's source (docs/KVM.md): the signature,
 * PERF_CAPABILITIES as vmx_get_perf_capabilities builds it from the host's
 * (icx 0x...: FW_WRITES 13, LBR format, trap 6, arch regs 7, format 4,
 * baseline 14 only before 6.9), and #GP on the MSRs pmu_intel.c lacks.
 */
struct msr_case {
	const char *model;
	enum sim_host host;
	uint32_t msr;
	bool gp;
};

/* clang-format off */
static const struct msr_case msr_cases[] = {
	{ "icx", SIM_HOST_KVM,     0x3f6, true },  /* MSR_PEBS_LD_LAT_THRESHOLD */
	{ "icx", SIM_HOST_NONE,    0x3f6, false },
	{ "icx", SIM_HOST_KVM,     0x3f7, true },  /* MSR_PEBS_FRONTEND */
	{ "icx", SIM_HOST_KVM,     0x3f2, true },  /* MSR_PEBS_DATA_CFG: no baseline */
	{ "icx", SIM_HOST_KVM_6_8, 0x3f2, false },
	{ "icx", SIM_HOST_KVM,     0x3f1, false }, /* IA32_PEBS_ENABLE */
	{ "icx", SIM_HOST_KVM,     0x600, false }, /* IA32_DS_AREA */
	{ "slm", SIM_HOST_KVM,     0x1a6, true },  /* MSR_OFFCORE_RSP_0 */
	{ "slm", SIM_HOST_NONE,    0x1a6, false },
};
/* clang-format on */

static void test_guest_msrs(void **state)
{
	struct cpu_info ci;
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(msr_cases); i++) {
		const struct msr_case *c = &msr_cases[i];

		guest_probe(c->model, c->host, &ci);
		if ((hw_rdmsr(c->msr, &v) == HW_GP) != c->gp)
			fail_msg("%s host %d: rdmsr 0x%x %s", c->model, c->host, c->msr,
				 c->gp ? "did not #GP" : "#GP");
	}
}

static void test_guest_cpuid_and_caps(void **state)
{
	struct cpu_info ci;

	guest_probe("icx", SIM_HOST_KVM, &ci);
	assert_int_equal(ci.hypervisor, HV_KVM);
	assert_memory_equal(ci.hv_signature, "KVMKVMKVM\0\0\0", 12);
	assert_true(ci.has_perf_caps);
	assert_int_equal(PERF_CAP_PEBS_FMT(ci.perf_caps), 4);
	assert_false(ci.perf_caps & PERF_CAP_PEBS_BASELINE);
	assert_true(ci.perf_caps & PERF_CAP_FW_WRITE);
	assert_false(ci.perf_caps & PERF_CAP_SMM_FREEZE); /* not in PERF_CAP_PEBS_MASK */
	/* without baseline PEBS_ENABLE takes the GP counters only (intel_pmu_refresh) */
	assert_int_equal(hw_wrmsr(0x3f1, 1ull << 32), HW_GP);
	assert_int_equal(hw_wrmsr(0x3f1, 1), HW_OK);
	assert_int_equal(hw_wrmsr(0x3f1, 0), HW_OK);

	guest_probe("icx", SIM_HOST_KVM_6_8, &ci);
	assert_true(ci.perf_caps & PERF_CAP_PEBS_BASELINE);

	guest_probe("icx", SIM_HOST_NONE, &ci);
	assert_int_equal(ci.hypervisor, HV_NONE);
	assert_true(ci.perf_caps & PERF_CAP_PEBS_BASELINE);

	guest_probe("skl", SIM_HOST_KVM, &ci);
	assert_false(ci.ds);
	assert_int_equal(PERF_CAP_PEBS_FMT(ci.perf_caps), 0);

	guest_probe("adl", SIM_HOST_KVM, &ci);
	assert_int_equal(ci.pmu_version, 0);
	assert_false(ci.pdcm);
}

/* The verdicts: a SKIP naming the rule, where the old code #GPed or blamed the PMU. */
static void test_verdicts_name_the_rule(void **state)
{
	struct cpu_info ci;
	struct session_cfg cfg;
	struct pmu_plan plan;
	char why[512];

	guest_probe("skl", SIM_HOST_KVM, &ci);
	assert_false(pmu_pebs_usable(&ci, why, sizeof(why)));
	assert_non_null(strstr(why, "rule kvm-no-pebs"));
	guest_probe("adl", SIM_HOST_KVM, &ci);
	assert_false(pmu_pebs_usable(&ci, why, sizeof(why)));
	assert_non_null(strstr(why, "rule kvm-no-vpmu"));

	guest_probe("icx", SIM_HOST_KVM, &ci);
	assert_true(pmu_pebs_usable(&ci, why, sizeof(why)));
	memset(&cfg, 0, sizeof(cfg));
	cfg.ci = &ci;
	cfg.kind = KIND_LDLAT;
	assert_int_equal(plan_build(&cfg, &ci, &plan, why, sizeof(why)), SESSION_SKIP);
	assert_non_null(strstr(why, "KVM guest"));
	assert_non_null(strstr(why, "rule kvm-no-ldlat"));
	/* stores need no 3F6H: planned as on bare metal */
	cfg.kind = KIND_DATALA_STORE;
	assert_int_equal(plan_build(&cfg, &ci, &plan, why, sizeof(why)), 0);

	guest_probe("icx", SIM_HOST_NONE, &ci);
	cfg.kind = KIND_LDLAT;
	assert_int_equal(plan_build(&cfg, &ci, &plan, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rules_apply_where_kvm_says),
	    cmocka_unit_test(test_every_rule_has_both_cases),
	    cmocka_unit_test(test_guest_msrs),
	    cmocka_unit_test(test_guest_cpuid_and_caps),
	    cmocka_unit_test(test_verdicts_name_the_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
