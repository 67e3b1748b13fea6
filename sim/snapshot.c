// SPDX-License-Identifier: MIT
/*
 * snapshot.c - the counter-snapshot group the simulated PEBS assist writes,
 * from the public sources alone (not from pmu/): PEBS format 6, Linux
 * e02e9b0374c3 "perf/x86/intel: Support PEBS counters snapshotting"
 * (MSR_PEBS_DATA_CFG CNTR bit 4, METRICS bit 5, GP mask 47:32, fixed mask
 * 55:48; struct pebs_cntr_header; ds.c adaptive_pebs_record_size_update and
 * __setup_pebs_counter_group: the GP values in counter order, then the fixed
 * ones, then two PERF_METRICS words); arch-PEBS, "perf/x86/intel: Add counter
 * group support for arch-PEBS" (CFG_C ARCH_PEBS_CNTR_ALLOW 35, _GP 36,
 * _FIXED 37, _METRICS 38; the record header's cntr field 39:35; the same
 * group layout).
 *
 * The values are the counters at the assist, before the counters that
 * overflowed are reloaded: Linux computes an event's count from its value
 * in a record as the step from -period ("HW will reload the value right
 * after the overflow", __setup_pebs_counter_group), which holds only for
 * the value before the reload.
 *
 * Our reading, where no public source says it: an arch-PEBS record's group
 * holds the GP counters whose CFG_C has CNTR_ALLOW when the triggering
 * counter's CFG_C has CNTR_GP, and the fixed ones with CNTR_ALLOW when it has
 * CNTR_FIXED (Linux sets ALLOW on every member of the group and GP/FIXED on
 * the PEBS event by the kinds of counters in it; no MSR carries a counter
 * mask there).  PERF_METRICS is not modelled: its two words are written 0.
 */
#include "sim_int.h"

#define CNTR_HDR     0x10
#define METRICS_ALL  3 /* struct pebs_cntr_header.metrics: INTEL_CNTR_METRICS */
#define CFG_CNTR     BIT_ULL(4)
#define CFG_METRICS  BIT_ULL(5)
#define CC_ALLOW     BIT_ULL(35)
#define CC_GP	     BIT_ULL(36)
#define CC_FIXED     BIT_ULL(37)
#define CC_METRICS   BIT_ULL(38)
#define CC_HDR_SHIFT 35
#define CC_HDR_MASK  0x1fULL

static void put32(uint8_t *rec, size_t off, uint32_t v)
{
	memcpy(rec + off, &v, sizeof(v));
}

static void put64(uint8_t *rec, size_t off, uint64_t v)
{
	memcpy(rec + off, &v, sizeof(v));
}

void sim_snap_capture(const struct sim_cpu *c, struct sim_pending *p)
{
	unsigned int i;

	memcpy(p->snap_pmc, c->pmc, sizeof(p->snap_pmc));
	memcpy(p->snap_fixed, c->fixed, sizeof(p->snap_fixed));
	p->snap_allow_gp = p->snap_allow_fixed = 0;
	if (!(c->m->flags & F_ARCH_PEBS))
		return;
	for (i = 0; i < c->pmu.n_gp && i < SIM_MAX_GP; i++)
		if (c->cfg_c_gp[i] & CC_ALLOW)
			p->snap_allow_gp |= 1u << i;
	for (i = 0; i < c->pmu.n_fixed && i < SIM_MAX_FIXED; i++)
		if (c->cfg_c_fx[i] & CC_ALLOW)
			p->snap_allow_fixed |= 1u << i;
}

/* The group's masks: format 6 from the record's format field, arch-PEBS from CFG_C. */
static bool group(const struct sim_pending *p, bool arch, uint64_t cfg, uint32_t *gp,
		  uint32_t *fixed, bool *metrics)
{
	if (arch) {
		*gp = (cfg & CC_GP) ? p->snap_allow_gp : 0;
		*fixed = (cfg & CC_FIXED) ? p->snap_allow_fixed : 0;
		*metrics = cfg & CC_METRICS;
		return cfg & (CC_GP | CC_FIXED | CC_METRICS);
	}
	*gp = (cfg & CFG_CNTR) ? (uint32_t)((cfg >> 32) & 0xffff) : 0;
	*fixed = (cfg & CFG_CNTR) ? (uint32_t)((cfg >> 48) & 0xff) : 0;
	*metrics = cfg & CFG_METRICS;
	return cfg & (CFG_CNTR | CFG_METRICS);
}

size_t sim_snap_size(const struct sim_pending *p, bool arch, uint64_t cfg)
{
	uint32_t gp, fixed;
	bool metrics;

	if (!group(p, arch, cfg, &gp, &fixed, &metrics))
		return 0;
	return CNTR_HDR + 8 * (size_t)(popcount64(gp) + popcount64(fixed) + (metrics ? 2 : 0));
}

uint64_t sim_snap_arch_header(uint64_t cfg_c)
{
	return cfg_c & (CC_GP | CC_FIXED | CC_METRICS) ? cfg_c & (CC_HDR_MASK << CC_HDR_SHIFT) : 0;
}

size_t sim_snap_fill(const struct sim_pending *p, bool arch, uint64_t cfg, uint8_t *rec)
{
	uint32_t gp, fixed;
	bool metrics;
	size_t off = CNTR_HDR;
	unsigned int i;

	if (!group(p, arch, cfg, &gp, &fixed, &metrics))
		return 0;
	put32(rec, 0, gp);
	put32(rec, 4, fixed);
	put32(rec, 8, metrics ? METRICS_ALL : 0);
	for (i = 0; i < 32; i++)
		if ((gp >> i) & 1) {
			put64(rec, off, i < SIM_MAX_GP ? p->snap_pmc[i] : 0);
			off += 8;
		}
	for (i = 0; i < 32; i++)
		if ((fixed >> i) & 1) {
			put64(rec, off, i < SIM_MAX_FIXED ? p->snap_fixed[i] : 0);
			off += 8;
		}
	return off + (metrics ? 16 : 0); /* PERF_METRICS not modelled: 0, 0 */
}
