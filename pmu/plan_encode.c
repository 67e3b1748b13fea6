// SPDX-License-Identifier: MIT
/*
 * plan_encode.c - a placed plan into register values: PERFEVTSEL of the
 * sampling and counted events, FIXED_CTR_CTRL, PEBS_ENABLE (with its
 * per-generation layout) and GLOBAL_CTRL (SDM Vol. 3B 18.4.4.1, 18.9.4).
 */
#include "plan_int.h"
#include "msr.h"
uint64_t plan_pebs_evtsel(const struct pmu_event *ev, bool adaptive)
{
	/*
	 * INT clear: a PEBS counter's overflow is the assist, not a PMI (SDM
	 * 18.4.4.1; Linux ds.c intel_pmu_pebs_enable clears it, kvm-unit-tests
	 * pebs_enable never sets it).
	 */
	return (ev->evtsel & ~EVTSEL_INT) | EVTSEL_EN | (ev->usr ? EVTSEL_USR : 0) |
	       (ev->os ? EVTSEL_OS : 0) | (adaptive ? EVTSEL_ADAPTIVE : 0);
}

uint64_t plan_count_evtsel(const struct pmu_event *ev)
{
	return (ev->evtsel & ~EVTSEL_INT) | EVTSEL_EN | (ev->usr ? EVTSEL_USR : 0) |
	       (ev->os ? EVTSEL_OS : 0);
}

void plan_compute_controls(struct pmu_plan *p)
{
	unsigned int i;
	int n = p->sample_ctr;

	/*
	 * Every fixed counter the CPU enumerates counts (0-2 INST_RETIRED.ANY,
	 * CORE, REF; 3 TOPDOWN.SLOTS; 4-6 on PMU v6 E-cores the topdown events
	 * of the model's perfmon file): OS|USR, no PMI, for results.json's
	 * "fixed".  v5+ enumerates them as a bitmap that may have holes
	 * (CPUID.0AH:ECX); writing an absent one raises #GP.
	 */
	for (i = 0; i < p->n_fixed; i++) {
		if (!(p->fixed_mask & BIT_ULL(i)))
			continue;
		p->fixed_used |= BIT_ULL(i);
		p->fixed_ctrl |= FIXED_CTRL_OS(i) | FIXED_CTRL_USR(i);
	}
	for (i = 0; i < p->n_count; i++)
		if (p->count[i].ctr >= 32) {
			unsigned int f = p->count[i].ctr - 32;

			p->fixed_used |= BIT_ULL(f);
			p->fixed_ctrl |= FIXED_CTRL_OS(f) | FIXED_CTRL_USR(f);
		}
	if (n >= 32) {
		unsigned int f = n - 32;

		p->fixed_used |= BIT_ULL(f);
		p->fixed_ctrl &= ~FIXED_CTRL_FIELD(f);
		/*
		 * PMI bit clear as for GP PEBS counters; adaptive bit 32+4i (Linux
		 * perf_event.h ICL_FIXED_0_ADAPTIVE; kvm-unit-tests: no adaptive
		 * record unless the counter's own bit is set too).
		 */
		p->fixed_ctrl |= (p->sample.os ? FIXED_CTRL_OS(f) : 0) |
				 (p->sample.usr ? FIXED_CTRL_USR(f) : 0) |
				 (p->adaptive ? FIXED_CTRL_ADAPTIVE(f) : 0);
		p->pebs_enable = PEBS_EN_FIXED(f);
	} else if (n >= 0) {
		p->gp_used |= BIT_ULL(n);
		p->evtsel[n] = plan_pebs_evtsel(&p->sample, p->adaptive);
		p->pebs_enable = PEBS_EN_PMC(n);
		/* LL_EN_PMCn before Ice Lake (SDM 18.9.4.2: 00000001.00000001H for PMC0) */
		if (p->kind == KIND_LDLAT && p->ua->layout == PEBS_EN_LAYOUT_LL_EN)
			p->pebs_enable |= PEBS_LL_EN(n);
		/* PS_EN (bit 63) with PMC3 for SNB/IVB precise store (SDM 18.9.4.3) */
		if (p->kind == KIND_STORE)
			p->pebs_enable |= PEBS_PS_EN;
	}
	p->global_ctrl = p->gp_used | ((uint64_t)p->fixed_used << 32);
}
