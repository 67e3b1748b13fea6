// SPDX-License-Identifier: MIT
/*
 * test_pmu_cpu_models.c - cpu_probe() on the model table: one generation per
 * model, the gaps between known models, the extended family of Nova Lake
 * and Diamond Rapids, and the CPUID.0AH counter quirks (a table of parts).
 * The fake hw_ops is test_cpu_util.h's; each expectation is worked out by
 * hand from the SDM field definitions in the comments beside it.
 */
#include "test_cpu_util.h"

/* The model table: one model per generation pmu/cpu.c knows. */
static void test_uarch_table(void **state)
{
	static const struct {
		uint32_t model;
		enum cpu_core_type core;
		enum pebs_uarch want;
	} cases[] = {
	    {0x17, 0, UARCH_CORE2},
	    {0x1e, 0, UARCH_NHM},
	    {0x2c, 0, UARCH_WSM},
	    {0x2a, 0, UARCH_SNB},
	    {0x3e, 0, UARCH_IVB},
	    {0x3f, 0, UARCH_HSW},
	    {0x4f, 0, UARCH_BDW},
	    {0x8e, 0, UARCH_SKL},
	    {0x9e, 0, UARCH_SKL},
	    {0x55, 0, UARCH_SKX},
	    {0x7e, 0, UARCH_ICL},
	    {0x8c, 0, UARCH_ICL},
	    {0x6a, 0, UARCH_ICX},
	    {0x8f, 0, UARCH_SPR},
	    {0xcf, 0, UARCH_EMR},
	    {0xad, 0, UARCH_GNR},
	    {0xb7, CORE_TYPE_CORE, UARCH_GLC},
	    {0xb7, CORE_TYPE_ATOM, UARCH_GRT},
	    {0xaa, CORE_TYPE_ATOM, UARCH_CMT},
	    {0xaa, CORE_TYPE_CORE, UARCH_GLC},
	    {0xbd, CORE_TYPE_CORE, UARCH_LNC},
	    {0xc6, CORE_TYPE_CORE, UARCH_LNC},
	    {0x5c, 0, UARCH_GLM},
	    {0x7a, 0, UARCH_GLM},
	    {0x37, 0, UARCH_SLM},
	    {0x4c, 0, UARCH_SLM},
	    /* Hybrid part with no core type: no guess. */
	    {0x97, 0, UARCH_NONE},
	    {0x01, 0, UARCH_NONE},
	};
	struct cpu_info ci;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&ci, 0, sizeof(ci));
		ci.vendor = VENDOR_INTEL;
		ci.family = 6;
		ci.model = cases[i].model;
		ci.core_type = cases[i].core;
		if (uarch_models_uarch(&ci) != cases[i].want)
			fail_msg("model 0x%x core 0x%x: got %d want %d", cases[i].model,
				 cases[i].core, uarch_models_uarch(&ci), cases[i].want);
	}
	memset(&ci, 0, sizeof(ci));
	ci.vendor = VENDOR_INTEL;
	ci.family = 0xf;
	ci.model = 0x5e;
	assert_int_equal(uarch_models_uarch(&ci), UARCH_NONE);
}

/*
 * Models the table lacked at 74353af (an audit's list), by display family:
 * CPUID.1 EAX[27:20] is added when EAX[11:8] is 0xF (SDM Vol. 2A, CPUID
 * leaf 01H), so Nova Lake is family 0x12 and Diamond Rapids 0x13 (Linux
 * intel-family.h IFM(18, ...), IFM(19, ...)).  Each gets its row, the kind
 * of core it is (CPUID.1AH, or the row for a non-hybrid part), and where
 * perfmon has a file for it (mapfile.csv) that file.
 */
static void test_model_gaps(void **state)
{
	static const struct {
		uint32_t family, model;
		enum cpu_core_type core;
		uint32_t native;
		enum pebs_uarch want;
		enum cpu_core_type kind;
		const char *word, *file; /* file NULL: perfmon has none */
	} cases[] = {
	    {6, 0x86, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "SNR/snowridgex_core.json"},
	    {6, 0x96, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "EHL/elkhartlake_core.json"},
	    {6, 0x9c, 0, 0, UARCH_TNT, CORE_TYPE_ATOM, "Tremont", "EHL/elkhartlake_core.json"},
	    {6, 0x8a, CORE_TYPE_CORE, 0, UARCH_ICL, CORE_TYPE_CORE, "Lakefield", NULL},
	    {6, 0x8a, CORE_TYPE_ATOM, 0, UARCH_TNT, CORE_TYPE_ATOM, "Lakefield", NULL},
	    {6, 0xb5, CORE_TYPE_CORE, 2, UARCH_GLC, CORE_TYPE_CORE, "Arrow Lake-U",
	     "MTL/meteorlake_redwoodcove_core.json"},
	    {6, 0xb5, CORE_TYPE_ATOM, 2, UARCH_CMT, CORE_TYPE_ATOM, "Arrow Lake-U",
	     "MTL/meteorlake_crestmont_core.json"},
	    {6, 0xcc, CORE_TYPE_CORE, 4, UARCH_CGC, CORE_TYPE_CORE, "Panther Lake",
	     "PTL/pantherlake_cougarcove_core.json"},
	    {6, 0xcc, CORE_TYPE_ATOM, 4, UARCH_DKM, CORE_TYPE_ATOM, "Panther Lake",
	     "PTL/pantherlake_darkmont_core.json"},
	    {6, 0xd5, CORE_TYPE_CORE, 4, UARCH_CGC, CORE_TYPE_CORE, "Wildcat Lake",
	     "PTL/pantherlake_cougarcove_core.json"},
	    {6, 0xe5, CORE_TYPE_ATOM, 4, UARCH_DKM, CORE_TYPE_ATOM, "Panther Lake",
	     "PTL/pantherlake_darkmont_core.json"},
	    {0x12, 0x01, CORE_TYPE_CORE, 5, UARCH_CYC, CORE_TYPE_CORE, "Nova Lake",
	     "NVL/novalake_coyotecove_core.json"},
	    {0x12, 0x03, CORE_TYPE_ATOM, 5, UARCH_ARW, CORE_TYPE_ATOM, "Nova Lake",
	     "NVL/novalake_arcticwolf_core.json"},
	    {0x13, 0x01, 0, 0, UARCH_PNC, CORE_TYPE_CORE, "Diamond Rapids", NULL},
	    {6, 0xdd, 0, 0, UARCH_DKM, CORE_TYPE_ATOM, "Clearwater Forest",
	     "CWF/clearwaterforest_core.json"},
	};
	struct cpu_info ci;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *what;
		const struct perfmon_table *t;

		memset(&ci, 0, sizeof(ci));
		ci.vendor = VENDOR_INTEL;
		ci.family = cases[i].family;
		ci.model = cases[i].model;
		ci.core_type = cases[i].core;
		ci.native_model = cases[i].native;
		what = uarch_models_description(&ci);
		if (!what || !strstr(what, cases[i].word))
			fail_msg("%02X_%02XH core 0x%x: description '%s', want '%s'",
				 cases[i].family, cases[i].model, cases[i].core,
				 what ? what : "(none)", cases[i].word);
		assert_int_equal(uarch_models_uarch(&ci), cases[i].want);
		assert_int_equal(uarch_models_core_kind(&ci), cases[i].kind);
		t = cpu_perfmon_table(&ci);
		if (cases[i].file ? !t || strcmp(perfmon_table_name(t), cases[i].file) : t != NULL)
			fail_msg("%02X_%02XH core 0x%x: perfmon %s, want %s", cases[i].family,
				 cases[i].model, cases[i].core, t ? perfmon_table_name(t) : "none",
				 cases[i].file ? cases[i].file : "none");
	}
}

/* CPUID.1 EAX 0x00300f10 (Nova Lake): family 0xF + EAX[27:20] 3 = 0x12, model 1. */
static const struct leaf nvl_leaves[] = {
    {0, 0, {0x23, S4('G', 'e', 'n', 'u'), S4('n', 't', 'e', 'l'), S4('i', 'n', 'e', 'I')}},
    {1, 0, {0x00300f10, 0, 0, 0}},
    {7, 0, {0, 0, 0, 1u << 15}},
    {0x1a, 0, {0x40000005, 0, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};
static const struct profile nvl = {nvl_leaves, NULL};

static void test_extended_family(void **state)
{
	struct cpu_info ci;

	run_probe(&nvl, &ci);
	assert_int_equal(ci.family, 0x12);
	assert_int_equal(ci.model, 0x01);
	assert_int_equal(ci.core_type, CORE_TYPE_CORE);
	assert_int_equal(ci.native_model, 5);
	assert_non_null(strstr(uarch_models_description(&ci), "Nova Lake"));
	assert_true(has_line("INFO: perfmon: NVL/novalake_coyotecove_core.json"));
}

/*
 * CPUID.0AH counts that pmu/cpu_quirk.c corrects, one case a row: the
 * signature, hybrid bit, hypervisor bit, CPUID.1AH and CPUID.0AH a part
 * gives, and the counters the probe must end with.  Alder Lake's P-core
 * names only the counters it shares with the E-core (Linux core.c
 * intel_pmu_init: 2 GP and 1 fixed more, f83d2f91d259; only with the
 * hybrid bit, ee72a94ea4a6; CPUID as it is past 8 GP or 4 fixed,
 * 7fa981cad216); PMU v2-v4 on bare metal has at least 3 fixed counters
 * (the "v2 perfmon" quirk there).
 */
struct quirk_case {
	const char *name;
	uint32_t sig;
	bool hybrid, guest;
	uint32_t c1a, a_eax, a_ecx, a_edx;
	uint32_t gp_mask, fixed_mask, fixed_width;
	const char *what; /* the quirk that applied, NULL: CPUID as it is */
};

#define ADL_SIG	 0x00090672 /* 06_97 */
#define RPLS_SIG 0x000b06f1 /* 06_BF */
#define MTL_SIG	 0x000a06a4 /* 06_AA */
#define PCORE	 0x40000001
#define ECORE	 0x20000001

static const struct quirk_case quirk_cases[] = {
    {"adl p-core, hybrid", ADL_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf, 48,
     "hybrid P-core"},
    {"rpl-s p-core, hybrid", RPLS_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf, 48,
     "hybrid P-core"},
    {"adl p-core under a hypervisor", ADL_SIG, true, true, PCORE, 0x07300605, 0x7, 0x603, 0xff, 0xf,
     48, "hybrid P-core"},
    {"adl e-core", ADL_SIG, true, false, ECORE, 0x07300605, 0x7, 0x603, 0x3f, 0x7, 48, NULL},
    {"adl p-core, hybrid bit clear", ADL_SIG, false, false, PCORE, 0x07300605, 0x7, 0x603, 0x3f,
     0x7, 48, NULL},
    {"adl, every e-core off: 8 GP 4 fixed named", ADL_SIG, true, false, PCORE, 0x07300805, 0xf,
     0x604, 0xff, 0xf, 48, NULL},
    {"mtl p-core (not the adl platform)", MTL_SIG, true, false, PCORE, 0x07300605, 0x7, 0x603, 0x3f,
     0x7, 48, NULL},
    {"core 2 v2, no fixed counter named", 0x0001067a, false, false, 0, 0x07280202, 0, 0, 0x3, 0x7,
     40, "v2-v4 fixed counters"},
    {"core 2 v2 under a hypervisor", 0x0001067a, false, true, 0, 0x07280202, 0, 0, 0x3, 0, 0, NULL},
    {"skylake v4, 3 fixed named", 0x000506e3, false, false, 0, 0x07300404, 0, 0x603, 0xf, 0x7, 48,
     NULL},
};

static void test_counter_quirks(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(quirk_cases); i++) {
		const struct quirk_case *c = &quirk_cases[i];
		const struct leaf leaves[] = {
		    {0, 0, VENDOR_INTEL_REGS(0x1a)},
		    {1,
		     0,
		     {c->sig, 0, (c->guest ? 1u << 31 : 0) | (1u << 2), (1u << 21) | (1u << 5)}},
		    {7, 0, {0, 0, 0, c->hybrid ? 1u << 15 : 0}},
		    {0xa, 0, {c->a_eax, 0, c->a_ecx, c->a_edx}},
		    {0x1a, 0, {c->c1a, 0, 0, 0}},
		    {0}};
		const struct msr msrs[] = {{MSR_IA32_BIOS_SIGN_ID, 0}, {0}};
		const struct profile p = {leaves, msrs};
		struct cpu_info ci;
		char line[512];
		bool ok;

		run_probe(&p, &ci);
		ok = ci.gp_mask == c->gp_mask && ci.fixed_mask == c->fixed_mask &&
		     ci.fixed_width == c->fixed_width &&
		     (c->what ? ci.count_quirk.what && !strcmp(ci.count_quirk.what, c->what)
			      : !ci.count_quirk.what);
		if (!ok)
			fail_msg("%s: GP 0x%x fixed 0x%x x %u bits, quirk %s; want GP 0x%x fixed "
				 "0x%x x %u bits, quirk %s",
				 c->name, ci.gp_mask, ci.fixed_mask, ci.fixed_width,
				 ci.count_quirk.what ? ci.count_quirk.what : "none", c->gp_mask,
				 c->fixed_mask, c->fixed_width, c->what ? c->what : "none");
		/* The report says what CPUID named and what was taken, where a row applied. */
		snprintf(line, sizeof(line),
			 "INFO: pmu: CPUID.0AH names GP 0x%x fixed 0x%x: short on a %s",
			 c->a_eax >> 8 & 0xff ? (1u << (c->a_eax >> 8 & 0xff)) - 1 : 0,
			 c->a_ecx | ((1u << (c->a_edx & 0x1f)) - 1), c->what ? c->what : "");
		if (c->what && !has_line(line))
			fail_msg("%s: no line saying what CPUID.0AH named", c->name);
		snprintf(line, sizeof(line),
			 "INFO: pmu: taken as GP 0x%x fixed 0x%x (Linux core.c intel_pmu_init, ",
			 c->gp_mask, c->fixed_mask);
		if (c->what && !test_line_find(line, NULL))
			fail_msg("%s: no line saying what was taken", c->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uarch_table),
	    cmocka_unit_test(test_model_gaps),
	    cmocka_unit_test(test_extended_family),
	    cmocka_unit_test(test_counter_quirks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
