/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h - counter-snapshot groups: the counters each PEBS record
 * snapshots, turned into MSR values (PEBS format 6: MSR_PEBS_DATA_CFG's
 * CNTR bit and counter masks; arch-PEBS: the counters' CFG_C), and refused
 * before any MSR is written where the CPU does not enumerate the group.
 * Pure, like plan.c, which calls it once the counters are placed.
 */
#ifndef PP_PMU_SNAPSHOT_H
#define PP_PMU_SNAPSHOT_H

#include "plan.h"

/*
 * MSR_PEBS_DATA_CFG's counter-snapshot bits (Linux asm/perf_event.h
 * PEBS_DATACFG_CNTR 4, _METRICS 5, GP mask _CNTR_SHIFT 32 / _CNTR_MASK
 * 15:0, fixed mask _FIX_SHIFT 48 / _FIX_MASK 7:0; e02e9b0374c3 "perf/x86/intel:
 * Support PEBS counters snapshotting").  plan_groups leaves them to snapshot_plan.
 */
#define SNAP_DATA_CFG_CNTR    BIT_ULL(4)
#define SNAP_DATA_CFG_METRICS BIT_ULL(5)
#define SNAP_DATA_CFG_GP(m)   (((uint64_t)(m)&0xffffULL) << 32)
#define SNAP_DATA_CFG_FIX(m)  (((uint64_t)(m)&0xffULL) << 48)
#define SNAP_DATA_CFG_BITS    (SNAP_DATA_CFG_CNTR | SNAP_DATA_CFG_METRICS | GENMASK_ULL(55, 32))

/*
 * Whether the CPU enumerates counter-snapshot groups: PEBS format 6 with
 * baseline, or arch-PEBS whose CPUID.23H.4:EBX names CNTR_GP, CNTR_FIXED
 * or CNTR_METRICS (Linux core.c intel_pmu_has_pebs_counter_group) and,
 * pebsprobe's own stricter rule, CNTR_ALLOW too: the group's other
 * counters are marked with it (Linux sets it without checking the bit).
 * Otherwise why says what is missing.
 */
bool snapshot_enumerated(const struct pmu_plan *p, char *why, size_t why_size);

/*
 * The counter-snapshot group of a plan whose counters are placed: the
 * counters cfg->data_cfg's masks name and, with cfg->snapshot, every
 * counter the plan programs (the PEBS counter, the counted events and the
 * fixed counters, as Linux puts a whole sampling group in it:
 * __intel_pmu_pebs_update_cfg for each event).  Sets p->snap_gp /
 * p->snap_fixed and the MSR values; 0, SESSION_SKIP where the CPU does not
 * enumerate the group, or SESSION_REFUSED, with why filled.
 */
int snapshot_plan(struct pmu_plan *p, const struct session_cfg *cfg, char *why, size_t why_size);

/*
 * Arch-PEBS: counter ctr (GP n, or 32+i) is in the group and is not the PEBS
 * counter, so the session writes its CFG_C with CNTR_ALLOW alone.
 */
static inline bool snapshot_other_counter(const struct pmu_plan *p, unsigned int ctr)
{
	bool in = ctr >= 32 ? (p->snap_fixed >> (ctr - 32)) & 1 : (p->snap_gp >> ctr) & 1;

	return p->fl->groups == PEBS_GROUPS_CFG_C && in && (int)ctr != p->sample_ctr;
}

#endif
