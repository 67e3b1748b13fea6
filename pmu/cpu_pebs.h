/* SPDX-License-Identifier: MIT */
/*
 * cpu_pebs.h - the PEBS part of the CPU's capabilities (cpu.h describes the
 * CPU; this says whether PEBS can be used on it): the one check, which the
 * app, the job and every plan (plan_build) ask.
 */
#ifndef PP_PMU_CPU_PEBS_H
#define PP_PMU_CPU_PEBS_H

#include "cpu.h"

/*
 * Whether PEBS can be used at all on this CPU, and why not (the SKIP
 * reason, with a hint when a hypervisor hides the PMU).
 */
bool pmu_pebs_usable(const struct cpu_info *ci, char *why, size_t why_size);

/*
 * Whether IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL exist (PMU version 2 and
 * up), which every session writes; why says the version otherwise.
 */
bool cpu_pebs_has_global_ctrl(const struct cpu_info *ci, char *why, size_t why_size);

#endif
