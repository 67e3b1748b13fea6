/* SPDX-License-Identifier: MIT */
/*
 * cpu_quirk.h - where CPUID.0AH's counter counts are known to be short of
 * what the core has, and by how much: one table row per quirk, each naming
 * its source (Linux arch/x86/events/intel/core.c intel_pmu_init).
 */
#ifndef PP_PMU_CPU_QUIRK_H
#define PP_PMU_CPU_QUIRK_H

#include "cpu.h"

/*
 * Apply the row that matches ci (CPUID.0AH already read into n_gp, gp_mask,
 * n_fixed, fixed_mask, fixed_width): the counts become what the core has.
 * Records what CPUID said and the row's source in ci->count_quirk.
 */
void cpu_quirk_counters(struct cpu_info *ci);

#endif
