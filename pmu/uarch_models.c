// SPDX-License-Identifier: MIT
/*
 * uarch_models.c - the model table: display family, model and hybrid core
 * type to the generation row of pmu/uarch_table.c, with the model's words
 * and its perfmon platforms; and the lookups by the running CPU.
 */
#include "uarch.h"

/*
 * Display family and model (and hybrid core type) to the microarchitecture
 * whose PEBS rules and data-source encoding apply.  Model numbers: SDM Vol.
 * 4 Table 2-1 and Linux arch/x86/include/asm/intel-family.h (IFM(family,
 * model)); which perfmon file a model has is perfmon's mapfile.csv
 * (cpu_perfmon_table); the data-source choice per model follows Linux
 * arch/x86/events/intel/core.c (intel_pmu_init) and ds.c
 * (__intel_pmu_pebs_data_source_*).  CORE_TYPE_NONE in `core` matches any
 * core type; `is` says which kind of core a row describes (for a non-hybrid
 * part, whose CPUID.1AH gives none: the arch-PEBS rows below).  `perfmon`:
 * the platform directories of mapfile.csv for the model; NULL where the
 * pinned perfmon has none: Core 2 (perfmon starts at Nehalem), Ice Lake
 * NNPI 06_9D, Lakefield 06_8A and Diamond Rapids 19_01 (no mapfile.csv
 * row), Silvermont SoFIA 06_5D (no mapfile.csv row).
 */
// clang-format off
static const struct uarch_model models[] = {
#define R(fam, mod, core, is, u, what, pm)                                                         \
	{                                                                                          \
		fam, mod, CORE_TYPE_##core, CORE_TYPE_##is, UARCH_##u, what, pm                    \
	}
    R(6, 0x0f, NONE, CORE, CORE2, "Core 2 (Merom)", NULL),
    R(6, 0x16, NONE, CORE, CORE2, "Core 2 (Merom-L)", NULL),
    R(6, 0x17, NONE, CORE, CORE2, "Core 2 (Penryn)", NULL),
    R(6, 0x1d, NONE, CORE, CORE2, "Core 2 (Dunnington)", NULL),
    R(6, 0x1a, NONE, CORE, NHM, "Nehalem-EP", "NHM-EP"),
    R(6, 0x1e, NONE, CORE, NHM, "Nehalem (Lynnfield)", "NHM-EP"),
    R(6, 0x1f, NONE, CORE, NHM, "Nehalem (Auburndale)", "NHM-EP"),
    R(6, 0x2e, NONE, CORE, NHM, "Nehalem-EX", "NHM-EX"),
    R(6, 0x25, NONE, CORE, WSM, "Westmere (Clarkdale)", "WSM-EP-SP"),
    R(6, 0x2c, NONE, CORE, WSM, "Westmere-EP", "WSM-EP-DP"),
    R(6, 0x2f, NONE, CORE, WSM, "Westmere-EX", "WSM-EX"),
    R(6, 0x2a, NONE, CORE, SNB, "Sandy Bridge", "SNB"),
    R(6, 0x2d, NONE, CORE, SNB, "Sandy Bridge-EP", "JKT"),
    R(6, 0x3a, NONE, CORE, IVB, "Ivy Bridge", "IVB"),
    R(6, 0x3e, NONE, CORE, IVB, "Ivy Bridge-EP", "IVT"),
    R(6, 0x3c, NONE, CORE, HSW, "Haswell", "HSW"),
    R(6, 0x3f, NONE, CORE, HSW, "Haswell-EP", "HSX"),
    R(6, 0x45, NONE, CORE, HSW, "Haswell-ULT", "HSW"),
    R(6, 0x46, NONE, CORE, HSW, "Haswell (Crystal Well)", "HSW"),
    R(6, 0x3d, NONE, CORE, BDW, "Broadwell", "BDW"),
    R(6, 0x47, NONE, CORE, BDW, "Broadwell (Iris Pro)", "BDW"),
    R(6, 0x4f, NONE, CORE, BDW, "Broadwell-EP", "BDX"),
    R(6, 0x56, NONE, CORE, BDW, "Broadwell-DE", "BDW-DE"),
    R(6, 0x4e, NONE, CORE, SKL, "Skylake (mobile)", "SKL"),
    R(6, 0x5e, NONE, CORE, SKL, "Skylake (desktop)", "SKL"),
    R(6, 0x8e, NONE, CORE, SKL, "Kaby/Coffee/Whiskey/Amber Lake (mobile)", "SKL"),
    R(6, 0x9e, NONE, CORE, SKL, "Kaby/Coffee Lake (desktop)", "SKL"),
    R(6, 0xa5, NONE, CORE, SKL, "Comet Lake", "SKL"),
    R(6, 0xa6, NONE, CORE, SKL, "Comet Lake (mobile)", "SKL"),
    R(6, 0x55, NONE, CORE, SKX, "Skylake-SP/Cascade Lake/Cooper Lake", "SKX CLX"),
    R(6, 0x7d, NONE, CORE, ICL, "Ice Lake (desktop)", "ICL"),
    R(6, 0x7e, NONE, CORE, ICL, "Ice Lake (mobile)", "ICL"),
    R(6, 0x9d, NONE, CORE, ICL, "Ice Lake (NNPI)", NULL),
    R(6, 0xa7, NONE, CORE, ICL, "Rocket Lake", "RKL"),
    R(6, 0x8c, NONE, CORE, ICL, "Tiger Lake (mobile)", "TGL"),
    R(6, 0x8d, NONE, CORE, ICL, "Tiger Lake (desktop)", "TGL"),
    R(6, 0x6a, NONE, CORE, ICX, "Ice Lake-SP", "ICX"),
    R(6, 0x6c, NONE, CORE, ICX, "Ice Lake-D", "ICX"),
    R(6, 0x8f, NONE, CORE, SPR, "Sapphire Rapids", "SPR"),
    R(6, 0xcf, NONE, CORE, EMR, "Emerald Rapids", "EMR"),
    R(6, 0xad, NONE, CORE, GNR, "Granite Rapids", "GNR"),
    R(6, 0xae, NONE, CORE, GNR, "Granite Rapids-D", "GNR"),
    /* Hybrid parts: the core type of the CPU running us picks the row. */
    R(6, 0x8a, CORE, CORE, ICL, "Lakefield P-core (Sunny Cove)", NULL),
    R(6, 0x8a, ATOM, ATOM, TNT, "Lakefield E-core (Tremont)", NULL),
    R(6, 0x97, CORE, CORE, GLC, "Alder Lake P-core (Golden Cove)", "ADL"),
    R(6, 0x97, ATOM, ATOM, GRT, "Alder Lake E-core (Gracemont)", "ADL"),
    R(6, 0x9a, CORE, CORE, GLC, "Alder Lake-L P-core (Golden Cove)", "ADL"),
    R(6, 0x9a, ATOM, ATOM, GRT, "Alder Lake-L E-core (Gracemont)", "ADL"),
    R(6, 0xb7, CORE, CORE, GLC, "Raptor Lake P-core (Raptor Cove)", "ADL"),
    R(6, 0xb7, ATOM, ATOM, GRT, "Raptor Lake E-core (Gracemont)", "ADL"),
    R(6, 0xba, CORE, CORE, GLC, "Raptor Lake-P P-core (Raptor Cove)", "ADL"),
    R(6, 0xba, ATOM, ATOM, GRT, "Raptor Lake-P E-core (Gracemont)", "ADL"),
    R(6, 0xbf, CORE, CORE, GLC, "Raptor Lake-S P-core (Raptor Cove)", "ADL"),
    R(6, 0xbf, ATOM, ATOM, GRT, "Raptor Lake-S E-core (Gracemont)", "ADL"),
    R(6, 0xbe, NONE, ATOM, GRT, "Alder Lake-N (Gracemont)", "ADL"),
    R(6, 0xaa, CORE, CORE, GLC, "Meteor Lake P-core (Redwood Cove)", "MTL"),
    R(6, 0xaa, ATOM, ATOM, CMT, "Meteor Lake E-core (Crestmont)", "MTL"),
    R(6, 0xac, CORE, CORE, GLC, "Meteor Lake P-core (Redwood Cove)", "MTL"),
    R(6, 0xac, ATOM, ATOM, CMT, "Meteor Lake E-core (Crestmont)", "MTL"),
    R(6, 0xb5, CORE, CORE, GLC, "Arrow Lake-U P-core (Redwood Cove)", "MTL"),
    R(6, 0xb5, ATOM, ATOM, CMT, "Arrow Lake-U E-core (Crestmont)", "MTL"),
    R(6, 0xaf, NONE, ATOM, CMT, "Sierra Forest (Crestmont)", "SRF"),
    R(6, 0xb6, NONE, ATOM, CMT, "Grand Ridge (Crestmont)", "GRR"),
    R(6, 0xbd, CORE, CORE, LNC, "Lunar Lake P-core (Lion Cove)", "LNL"),
    R(6, 0xbd, ATOM, ATOM, CMT, "Lunar Lake E-core (Skymont)", "LNL"),
    R(6, 0xc5, CORE, CORE, LNC, "Arrow Lake P-core (Lion Cove)", "ARL"),
    R(6, 0xc5, ATOM, ATOM, CMT, "Arrow Lake E-core (Skymont, or LP Crestmont)", "ARL"),
    R(6, 0xc6, CORE, CORE, LNC, "Arrow Lake-S P-core (Lion Cove)", "ARL"),
    R(6, 0xc6, ATOM, ATOM, CMT, "Arrow Lake-S E-core (Skymont)", "ARL"),
    /*
     * Architectural PEBS parts (CPUID.23H gives their counters): core.c
     * intel_pmu_init's PANTHERLAKE_L / WILDCATLAKE_L (Lion Cove's rules on the
     * Cougar Cove P-core, intel_pmu_init_skt on the E-core), ATOM_DARKMONT_X (skt),
     * NOVALAKE / NOVALAKE_L (pnc, arw), DIAMONDRAPIDS_X (pnc).
     */
    R(6, 0xcc, CORE, CORE, CGC, "Panther Lake P-core (Cougar Cove)", "PTL"),
    R(6, 0xcc, ATOM, ATOM, DKM, "Panther Lake E-core (Darkmont)", "PTL"),
    R(6, 0xd5, CORE, CORE, CGC, "Wildcat Lake P-core (Cougar Cove)", "PTL"),
    R(6, 0xd5, ATOM, ATOM, DKM, "Wildcat Lake E-core (Darkmont)", "PTL"),
    R(6, 0xe5, CORE, CORE, CGC, "Panther Lake 06_E5 P-core (Cougar Cove)", "PTL"),
    R(6, 0xe5, ATOM, ATOM, DKM, "Panther Lake 06_E5 E-core (Darkmont)", "PTL"),
    R(6, 0xdd, NONE, ATOM, DKM, "Clearwater Forest (Darkmont)", "CWF"),
    R(0x12, 0x01, CORE, CORE, CYC, "Nova Lake-S P-core (Coyote Cove)", "NVL"),
    R(0x12, 0x01, ATOM, ATOM, ARW, "Nova Lake-S E-core (Arctic Wolf)", "NVL"),
    R(0x12, 0x03, CORE, CORE, CYC, "Nova Lake-L P-core (Coyote Cove)", "NVL"),
    R(0x12, 0x03, ATOM, ATOM, ARW, "Nova Lake-L E-core (Arctic Wolf)", "NVL"),
    R(0x13, 0x01, NONE, CORE, PNC, "Diamond Rapids (Panther Cove)", NULL),
    /* Atoms */
    R(6, 0x5c, NONE, ATOM, GLM, "Goldmont (Apollo Lake)", "GLM"),
    R(6, 0x5f, NONE, ATOM, GLM, "Goldmont (Denverton)", "GLM"),
    R(6, 0x7a, NONE, ATOM, GLM, "Goldmont Plus (Gemini Lake)", "GLP"),
    R(6, 0x86, NONE, ATOM, TNT, "Tremont (Snow Ridge, Jacobsville)", "SNR"),
    R(6, 0x96, NONE, ATOM, TNT, "Tremont (Elkhart Lake)", "EHL"),
    R(6, 0x9c, NONE, ATOM, TNT, "Tremont (Jasper Lake)", "EHL"),
    R(6, 0x37, NONE, ATOM, SLM, "Silvermont (Bay Trail)", "SLM"),
    R(6, 0x4a, NONE, ATOM, SLM, "Silvermont (Merrifield)", "SLM"),
    R(6, 0x4d, NONE, ATOM, SLM, "Silvermont (Avoton)", "SLM"),
    R(6, 0x5a, NONE, ATOM, SLM, "Silvermont (Moorefield)", "SLM"),
    R(6, 0x5d, NONE, ATOM, SLM, "Silvermont (SoFIA)", NULL),
    R(6, 0x4c, NONE, ATOM, SLM, "Airmont (Cherry Trail)", "SLM"),
#undef R
};
// clang-format on

static const struct uarch_model *model_lookup(const struct cpu_info *ci)
{
	if (ci->vendor != VENDOR_INTEL)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(models); i++) {
		const struct uarch_model *r = &models[i];

		if (r->family == ci->family && r->model == ci->model &&
		    (r->core == CORE_TYPE_NONE || r->core == ci->core_type))
			return r;
	}
	return NULL;
}

enum cpu_core_type uarch_models_core_kind(const struct cpu_info *ci)
{
	const struct uarch_model *r;

	if (ci->core_type != CORE_TYPE_NONE)
		return ci->core_type;
	r = model_lookup(ci);
	return r && r->core == CORE_TYPE_NONE ? r->is : CORE_TYPE_NONE;
}

enum pebs_uarch uarch_models_uarch(const struct cpu_info *ci)
{
	const struct uarch_model *r = model_lookup(ci);

	return r ? r->uarch : UARCH_NONE;
}

const struct uarch_model *uarch_model_of(const struct cpu_info *ci)
{
	return model_lookup(ci);
}

const char *uarch_models_description(const struct cpu_info *ci)
{
	const struct uarch_model *r = model_lookup(ci);

	return r ? r->what : NULL;
}

unsigned int uarch_n_models(void)
{
	return ARRAY_SIZE(models);
}

const struct uarch_model *uarch_model_at(unsigned int i)
{
	return i < ARRAY_SIZE(models) ? &models[i] : NULL;
}
