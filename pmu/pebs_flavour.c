// SPDX-License-Identifier: MIT
/*
 * pebs_flavour.c - the one place that asks which PEBS flavour a CPU or a
 * session has (pebs_flavour.h); everything after reads the flavour's facts.
 */
#include "pebs_flavour.h"
#include "plan.h"
#include "uarch.h"

const struct pebs_flavour *pebs_flavour_of_session(const struct cpu_info *ci, bool count_only)
{
	if (count_only)
		return &pebs_count_flavour;
	return uarch_arch_pebs(ci) ? &pebs_arch_flavour : &pebs_ds_flavour;
}

/*
 * Legacy PEBS is there with the DS save area (CPUID.01H:EDX[21]) unless
 * IA32_MISC_ENABLE[12] says PEBS is unavailable (SDM Vol. 4 Table 2-2).
 */
const struct pebs_flavour *pebs_flavour_of_cpu(const struct cpu_info *ci)
{
	if (ci->arch_pebs)
		return &pebs_arch_flavour;
	if (ci->ds && !(ci->has_misc_enable && (ci->misc_enable & MISC_ENABLE_PEBS_UNAVAIL)))
		return &pebs_ds_flavour;
	return &pebs_count_flavour;
}

unsigned int pebs_flavour_pmi_free(const struct session_cfg *cfg, const struct pmu_plan *p)
{
	return p->fl && p->fl->pmi_free ? p->fl->pmi_free(cfg, p) : 0;
}
