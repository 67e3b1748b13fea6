/* SPDX-License-Identifier: MIT */
/*
 * acr.h - auto counter reload (ACR): a counter reloaded with a value of its
 * own when another counter overflows, with no interrupt and no software in
 * between.
 *
 * Where CPUID.23H.0:EAX[2] enumerates sub-leaf 2 (SDM Vol. 2A CPUID leaf
 * 23H): 2:EAX / EBX are the GP / fixed counters that may be reloaded,
 * 2:ECX / EDX those whose overflow may cause a reload (Linux core.c
 * update_pmu_cap: acr_cntr_mask64, acr_cause_mask64).  Counter n's
 * IA32_PMC_GPn_CFG_B (0x1902 + 4n) names the counters whose overflow
 * reloads it (GP i at bit i, fixed i at bit 32 + i) and CFG_C[31:0]
 * (0x1903 + 4n) holds its reload value (Linux core.c intel_pmu_config_acr,
 * from intel_pmu_enable_acr with -sample_period; SDM Vol. 3 21.9.11 "Auto
 * Counter Reload", as the Linux commit ec980e4facef cites it).  On an
 * arch-PEBS part CFG_C[31:0] is also the PEBS reload value (Linux core.c
 * intel_pmu_enable_event_ext, ARCH_PEBS_RELOAD): one field, so pebsprobe's
 * ACR group arms no PEBS on its counters.
 *
 * The group (the acr-reload kernel, docs/KERNELS.md): three GP counters
 * count INST_RETIRED.ANY_P (event C0H, umask 00H, architectural):
 *   cause     starts at -ACR_PERIOD, CFG_B = itself, reload -ACR_PERIOD:
 *             it overflows every ACR_PERIOD instructions and reloads itself;
 *   reloaded  starts at 0, CFG_B = the cause counter, reload ACR_RELOAD;
 *   total     no ACR: every instruction of the run.
 * After the run the reloaded counter holds ACR_RELOAD plus what retired
 * since the cause counter's last overflow, less than ACR_PERIOD; without
 * the reloads it would hold the total, below ACR_RELOAD
 * (kernels/acr.h judges it).
 */
#ifndef PP_PMU_ACR_H
#define PP_PMU_ACR_H

#include "cpu.h"

#define ACR_PERIOD 997u	      /* the cause counter's period, instructions (a prime) */
#define ACR_RELOAD (1u << 30) /* the reloaded counter's reload value, CFG_C[31:0] */

/* GP counters of the group; -1 in a request: the lowest the masks allow. */
struct acr_counters {
	int reloaded, cause, total;
};

/* acr=auto: every counter the lowest the masks allow (app/options_acr.c reads acr=). */
#define ACR_COUNTERS_AUTO ((struct acr_counters){.reloaded = -1, .cause = -1, .total = -1})

/*
 * The group on this CPU (pure, no MSR): CPUID.23H.2 must be enumerated,
 * the reloaded counter must be in 2:EAX, the cause counter in 2:EAX (it
 * reloads itself) and in 2:ECX, and a third counter must exist for the
 * total.  Returns 0 with *got filled, or SESSION_REFUSED with why filled:
 * one line naming the rule, the masks and what is accepted.
 */
int acr_pick(const struct cpu_info *ci, const struct acr_counters *want, struct acr_counters *got,
	     char *why, size_t why_size);

struct acr_result {
	struct acr_counters ctr;
	uint32_t period, reload, width;
	uint64_t reloaded, cause, total; /* the counters after the run */
	uint64_t status;		 /* IA32_PERF_GLOBAL_STATUS after the run */
};

/*
 * Runs kernel(arg) once on ci->cpu with the group armed (cpurun_run,
 * timeout_us, idle(idle_arg) on the BSP meanwhile), then reads the three
 * counters and puts every MSR it wrote back.  Refusals (acr_pick) come
 * before any MSR access.  Returns 0, or a SESSION_* value with why filled.
 */
int acr_run(const struct cpu_info *ci, const struct acr_counters *want, void (*kernel)(void *),
	    void *arg, uint64_t timeout_us, void (*idle)(void *), void *idle_arg,
	    struct acr_result *res, char *why, size_t why_size);

#endif
