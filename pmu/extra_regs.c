// SPDX-License-Identifier: MIT
/*
 * extra_regs.c - MSR_OFFCORE_RSPx valid masks per model, where one
 * generation row of pmu/uarch_table.c covers models with different masks.
 */
#include "extra_regs.h"

static const struct offcore_model_row {
	enum pebs_uarch uarch;
	uint8_t family, model;
	uint64_t valid[2];
	const char *source;
} offcore_models[] = {
    /* Linux core.c intel_pmu_init, case SANDYBRIDGE / SANDYBRIDGE_X */
    {UARCH_SNB, 6, 0x2a, {0x3f807f8fffULL, 0x3f807f8fffULL}, "core.c intel_snb_extra_regs"},
    {UARCH_SNB,
     6,
     0x2d,
     {0x3fffff8fffULL, 0x3fffff8fffULL},
     "core.c intel_snbep_extra_regs (SANDYBRIDGE_X)"},
    /* Linux core.c intel_pmu_init, case IVYBRIDGE / IVYBRIDGE_X */
    {UARCH_IVB, 6, 0x3a, {0x3f807f8fffULL, 0x3f807f8fffULL}, "core.c intel_snb_extra_regs"},
    {UARCH_IVB,
     6,
     0x3e,
     {0x3fffff8fffULL, 0x3fffff8fffULL},
     "core.c intel_snbep_extra_regs (IVYBRIDGE_X)"},
};

uint64_t extra_regs_offcore_valid_mask(const struct uarch_info *ua, const struct cpu_info *ci,
				       unsigned int rsp)
{
	unsigned int i;

	if (rsp > 1)
		return 0;
	for (i = 0; i < ARRAY_SIZE(offcore_models); i++)
		if (offcore_models[i].uarch == ua->uarch &&
		    offcore_models[i].family == ci->family && offcore_models[i].model == ci->model)
			return offcore_models[i].valid[rsp];
	return ua->offcore_valid[rsp];
}
