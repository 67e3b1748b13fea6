// SPDX-License-Identifier: MIT
/*
 * cpu_quirk.c - CPUID.0AH counter counts that Linux corrects, as data.
 *
 * Two cases are known where the leaf names fewer counters than the core
 * has, and Linux perf (arch/x86/events/intel/core.c intel_pmu_init) adds
 * them back.  The rows below carry those facts; cpu_quirk_counters()
 * applies the first row that matches, after CPUID.0AH and before
 * CPUID.23H (whose bitmaps, where the leaf exists, stand over both).
 */
#include "cpu_quirk.h"
#include "uarch.h"

struct cpu_count_quirk {
	const char *what;
	/* The model table's perfmon platform (pmu/uarch.c), NULL: any model. */
	const char *platform;
	enum cpu_core_type core;   /* the core kind it applies to, NONE: any */
	uint8_t ver_min, ver_max;  /* CPUID.0AH:EAX[7:0] */
	bool hybrid;		   /* only where CPUID.7.0:EDX[15] is set */
	bool bare_metal;	   /* not where CPUID.1:ECX[31] says hypervisor */
	uint8_t add_gp, add_fixed; /* counters above the enumerated ones */
	uint8_t min_fixed;	   /* at least this many fixed counters */
	/* More than this after the addition: CPUID already named them all. */
	uint8_t max_gp, max_fixed;
	const char *source;
};

/* clang-format off */
static const struct cpu_count_quirk quirks[] = {
	/*
	 * Alder Lake / Raptor Lake P-cores (the "ADL" platform's P-core rows:
	 * 06_97, 06_9A, 06_B7, 06_BA, 06_BF).  Where the hybrid bit is set,
	 * CPUID.0AH names only the counters both core types share; Linux gives
	 * the P-core 2 more GP and 1 more fixed counter (f83d2f91d259), only
	 * with the hybrid bit (ee72a94ea4a6), and takes CPUID as it is when
	 * the sum passes 8 GP or 4 fixed, which is what a BIOS with every
	 * E-core disabled enumerates (7fa981cad216).
	 */
	{ "hybrid P-core", "ADL", CORE_TYPE_CORE, 1, 0xff, true, false, 2, 1, 0, 8, 4,
	  "Linux core.c intel_pmu_init, f83d2f91d259" },
	/*
	 * Version 2 to 4 (Core 2 is where it shows: version 2 names no fixed
	 * counter): Linux assumes at least 3 fixed counters unless a
	 * hypervisor runs it, and counts every counter with EAX[23:16] bits
	 * (x86_pmu.cntval_bits).
	 */
	{ "v2-v4 fixed counters", NULL, CORE_TYPE_NONE, 2, 4, false, true, 0, 0, 3, 0, 0,
	  "Linux core.c intel_pmu_init, v2 quirk" },
};
/* clang-format on */

static bool quirk_matches(const struct cpu_count_quirk *q, const struct cpu_info *ci)
{
	const struct uarch_model *m;

	if (ci->vendor != VENDOR_INTEL || ci->pmu_version < q->ver_min ||
	    ci->pmu_version > q->ver_max)
		return false;
	if ((q->hybrid && !ci->hybrid) || (q->bare_metal && ci->hypervisor != HV_NONE))
		return false;
	if (!q->platform && q->core == CORE_TYPE_NONE)
		return true;
	m = uarch_model_of(ci);
	if (!m || (q->core != CORE_TYPE_NONE && m->is != q->core))
		return false;
	return !q->platform || (m->perfmon && !strcmp(m->perfmon, q->platform));
}

/* mask << n with the n low bits set: n counters more, as Linux widens a mask. */
static uint32_t widen(uint32_t mask, unsigned int n)
{
	return n ? mask << n | ((1u << n) - 1) : mask;
}

static unsigned int top(uint32_t mask)
{
	return mask ? 32 - (unsigned int)__builtin_clz(mask) : 0;
}

void cpu_quirk_counters(struct cpu_info *ci)
{
	for (size_t i = 0; i < ARRAY_SIZE(quirks); i++) {
		const struct cpu_count_quirk *q = &quirks[i];
		uint32_t gp, fx;

		if (!quirk_matches(q, ci))
			continue;
		gp = widen(ci->gp_mask, q->add_gp);
		fx = widen(ci->fixed_mask, q->add_fixed);
		if (top(fx) < q->min_fixed)
			fx = (1u << q->min_fixed) - 1;
		if ((q->max_gp && top(gp) > q->max_gp) || (q->max_fixed && top(fx) > q->max_fixed))
			return;
		if (gp == ci->gp_mask && fx == ci->fixed_mask)
			return;
		ci->count_quirk.what = q->what;
		ci->count_quirk.source = q->source;
		ci->count_quirk.cpuid_gp = ci->gp_mask;
		ci->count_quirk.cpuid_fixed = ci->fixed_mask;
		ci->gp_mask = gp;
		ci->n_gp = top(gp);
		ci->fixed_mask = fx;
		ci->n_fixed = top(fx);
		if (!ci->fixed_width)
			ci->fixed_width = ci->gp_width;
		return;
	}
}
