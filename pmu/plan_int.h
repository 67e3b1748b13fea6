/* SPDX-License-Identifier: MIT */
/*
 * plan_int.h - what the plan's files share (plan.c, the flow and the
 * refusals; plan_counters.c, which counter each event takes;
 * plan_encode.c, the register values of a placed plan); nothing outside
 * pmu/plan*.c includes it.
 */
#ifndef PP_PMU_PLAN_INT_H
#define PP_PMU_PLAN_INT_H

#include "plan.h"

/* every refusal of the plan's files (plan.h plan_refuse) */
#define refuse plan_refuse

/*
 * plan_counters.c: the sampling counter (0, or SESSION_REFUSED with why);
 * the GP counters a counted event may use and the lowest free one of them
 * (-1 if none); one counted event placed (user_idx -1: the plan's own),
 * and the user's counted events, the most constrained first.
 */
int plan_pick_sample_counter(struct pmu_plan *p, char *why, size_t why_size);
uint32_t plan_count_allowed(const struct pmu_plan *p, const struct pmu_event *ev);
int plan_free_gp(const struct pmu_plan *p, uint32_t allowed);
/* 0, or SESSION_REFUSED: the event sets PERFEVTSEL fields CPUID does not enumerate. */
int plan_evtsel_ext_check(const struct pmu_plan *p, const struct pmu_event *ev, char *why,
			  size_t why_size);
int plan_add_count(struct pmu_plan *p, const struct pmu_event *ev, int user_idx, char *why,
		   size_t why_size);
int plan_add_user_counts(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
			 size_t why_size);

/*
 * plan_encode.c: PERFEVTSEL of a counted event (EN, USR/OS, INT clear);
 * FIXED_CTR_CTRL, PEBS_ENABLE and GLOBAL_CTRL once every counter is placed.
 */
uint64_t plan_count_evtsel(const struct pmu_event *ev);
void plan_compute_controls(struct pmu_plan *p);

#endif
