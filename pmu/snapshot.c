// SPDX-License-Identifier: MIT
/*
 * snapshot.c - counter-snapshot groups (snapshot.h).  Sources: Linux
 * e02e9b0374c3 "perf/x86/intel: Support PEBS counters snapshotting" (PEBS
 * format 6: MSR_PEBS_DATA_CFG bits, ds.c __intel_pmu_pebs_update_cfg,
 * adaptive_pebs_record_size_update) and "perf/x86/intel: Add counter group
 * support for arch-PEBS" (msr-index.h ARCH_PEBS_CNTR_*, core.c
 * intel_pmu_enable_event_ext, intel_pmu_has_pebs_counter_group).
 */
#include "snapshot.h"
#include "msr.h"
#include "../lib/fmt.h"

/* CPUID.23H.4:EBX is CFG_C[63:32] (pmu/cpu.c): the counter-group bits 35..38. */
#define CAP(bit)       ((uint32_t)((bit) >> 32))
#define CAP_CNTR_ALLOW CAP(CFG_C_CNTR_ALLOW)
#define CAP_CNTR_GP    CAP(CFG_C_CNTR_GP)
#define CAP_CNTR_FIXED CAP(CFG_C_CNTR_FIXED)
#define CAP_CNTR_ANY   (CAP(CFG_C_CNTR_GP) | CAP(CFG_C_CNTR_FIXED) | CAP(CFG_C_CNTR_METRICS))

#define refuse plan_refuse

bool snapshot_enumerated(const struct pmu_plan *p, char *why, size_t why_size)
{
	if (p->fl->groups == PEBS_GROUPS_CFG_C) {
		if ((p->ci_arch_caps & CAP_CNTR_ANY) && (p->ci_arch_caps & CAP_CNTR_ALLOW))
			return true;
		pp_snprintf(why, why_size,
			    "arch-PEBS without counter groups: CPUID.23H.4:EBX 0x%x has not "
			    "CNTR_ALLOW (bit 3) with CNTR_GP/CNTR_FIXED/CNTR_METRICS (bits 4/5/6)",
			    p->ci_arch_caps);
		return false;
	}
	if (p->fmt >= 6 && p->baseline)
		return true;
	pp_snprintf(why, why_size, "PEBS format %u%s", p->fmt,
		    p->fmt >= 6 ? " without baseline (PERF_CAPABILITIES[14])" : "");
	return false;
}

/*
 * SESSION_SKIP, not REFUSED: the CPU cannot do it (on a hybrid part one core
 * type may lack it); the job's check makes it a bad option on the boot CPU.
 */
static int refuse_unenumerated(const struct pmu_plan *p, char *why, size_t why_size)
{
	char what[160];

	snapshot_enumerated(p, what, sizeof(what));
	refuse(why, why_size,
	       "counter snapshots are not enumerated on this CPU: %s (accepted: "
	       "PEBS format 6 with baseline, or arch-PEBS with CPUID.23H.4:EBX "
	       "CNTR_ALLOW and CNTR_GP/CNTR_FIXED; Linux core.c "
	       "intel_pmu_has_pebs_counter_group)",
	       what);
	return SESSION_SKIP;
}

/* The arch-PEBS CFG_C bits: CNTR_GP / CNTR_FIXED on the PEBS counter, ALLOW on every member. */
static int arch_cfg_c(struct pmu_plan *p, char *why, size_t why_size)
{
	bool sample_in = p->sample_ctr >= 32 ? (p->snap_fixed >> (p->sample_ctr - 32)) & 1
					     : (p->snap_gp >> p->sample_ctr) & 1;

	if (p->snap_gp && !(p->ci_arch_caps & CAP_CNTR_GP))
		return refuse(why, why_size,
			      "counter snapshot of GP counters 0x%x: CPUID.23H.4:EBX 0x%x lacks "
			      "CNTR_GP (bit 4) (accepted: fixed counters only)",
			      p->snap_gp, p->ci_arch_caps);
	if (p->snap_fixed && !(p->ci_arch_caps & CAP_CNTR_FIXED))
		return refuse(why, why_size,
			      "counter snapshot of fixed counters 0x%x: CPUID.23H.4:EBX 0x%x lacks "
			      "CNTR_FIXED (bit 5) (accepted: GP counters only)",
			      p->snap_fixed, p->ci_arch_caps);
	p->cfg_c |= (p->snap_gp ? CFG_C_CNTR_GP : 0) | (p->snap_fixed ? CFG_C_CNTR_FIXED : 0);
	if (sample_in)
		p->cfg_c |= CFG_C_CNTR_ALLOW;
	return 0;
}

int snapshot_plan(struct pmu_plan *p, const struct session_cfg *cfg, char *why, size_t why_size)
{
	uint64_t want = cfg->data_cfg & SNAP_DATA_CFG_BITS;
	uint32_t gp, fixed;

	if (cfg->snapshot && p->fl->records)
		want |= SNAP_DATA_CFG_CNTR | SNAP_DATA_CFG_GP(p->gp_used) |
			SNAP_DATA_CFG_FIX(p->fixed_used);
	if (!want)
		return 0;
	if (!p->fl->records)
		return refuse(why, why_size, "counter snapshots need PEBS records (counting only)");
	if (!snapshot_enumerated(p, why, why_size))
		return refuse_unenumerated(p, why, why_size);
	if (want & SNAP_DATA_CFG_METRICS)
		return refuse(why, why_size,
			      "counter snapshot 0x%llx asks for PERF_METRICS (bit 5), which this "
			      "session does not program (accepted: CNTR with GP and fixed counter "
			      "masks)",
			      (unsigned long long)want);
	if (!(want & SNAP_DATA_CFG_CNTR))
		return refuse(why, why_size,
			      "PEBS_DATA_CFG 0x%llx names counters without CNTR (bit 4), which "
			      "takes them (accepted: bit 4 with the masks)",
			      (unsigned long long)want);
	if (cfg->snapshot && (p->gp_used >> 16))
		return refuse(why, why_size,
			      "counter snapshot: GP counters 0x%x, but the GP mask holds counters "
			      "0-15 only (PEBS_DATACFG_CNTR_MASK)",
			      p->gp_used);
	gp = (uint32_t)((want >> 32) & 0xffff);
	fixed = (uint32_t)((want >> 48) & 0xff);
	if ((gp & ~p->gp_mask) || (fixed & ~p->fixed_mask))
		return refuse(
		    why, why_size,
		    "counter snapshot of GP counters 0x%x, fixed 0x%x: not all enumerated "
		    "(accepted: GP 0x%x, fixed 0x%x, CPUID.0AH/23H.1)",
		    gp, fixed, p->gp_mask, p->fixed_mask);
	/*
	 * Arch-PEBS records are whole 16-byte units: IA32_PEBS_INDEX.WR counts
	 * them (bits 26:4; Linux union arch_pebs_index, ARCH_PEBS_INDEX_WR_SHIFT),
	 * and the group is a 16-byte header and 8 bytes a counter.  Where an odd
	 * group's record would end no public source says, so none is armed:
	 * snapshot=on leaves the PEBS counter out (its value is not judged),
	 * other odd groups are refused.
	 */
	if (p->fl->groups == PEBS_GROUPS_CFG_C && (popcount64(gp) + popcount64(fixed)) % 2) {
		bool leave =
		    cfg->snapshot && p->sample_ctr >= 0 && !(cfg->data_cfg & SNAP_DATA_CFG_BITS);

		if (!leave)
			return refuse(
			    why, why_size,
			    "counter snapshot of %d counters (GP 0x%x, fixed 0x%x): an odd "
			    "number makes an arch-PEBS record that is no multiple of 16 "
			    "bytes, which IA32_PEBS_INDEX.WR counts in (accepted: an even "
			    "number of counters)",
			    popcount64(gp) + popcount64(fixed), gp, fixed);
		if (p->sample_ctr >= 32)
			fixed &= ~(1u << (p->sample_ctr - 32));
		else
			gp &= ~(1u << p->sample_ctr);
	}
	if (!gp && !fixed)
		return refuse(why, why_size,
			      "counter snapshot 0x%llx names no counter (accepted: CNTR with a GP "
			      "mask in bits 47:32 or a fixed mask in 55:48)",
			      (unsigned long long)want);
	p->snap_gp = gp;
	p->snap_fixed = fixed;
	if (p->fl->groups == PEBS_GROUPS_CFG_C)
		return arch_cfg_c(p, why, why_size);
	/* Format 6: the group follows the others in the record (ds.c
	 * adaptive_pebs_record_size_update). */
	p->data_cfg |= want;
	p->rec_size = pebs_adaptive_record_size(p->data_cfg);
	return 0;
}
