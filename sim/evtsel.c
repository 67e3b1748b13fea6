// SPDX-License-Identifier: MIT
/*
 * evtsel.c - the counting modifiers of IA32_PERFEVTSELx: CMASK [31:24],
 * INV [23], EDGE [18] and, from PMU version 6 where CPUID.23H.0:EBX[1]
 * enumerates it, EQ [36] (SDM Vol. 3B 20.2.1.1 "Architectural Performance
 * Monitoring Version 1 Facilities", the IA32_PERFEVTSELx fields; Linux
 * perf_event.h ARCH_PERFMON_EVENTSEL_EQ, commit dce0c74d2d18):
 *
 *   CMASK != 0: each cycle the event's count in that cycle is compared
 *     with CMASK; the counter increments by one if it is greater than or
 *     equal (EQ: equal, read from the field's name, "the equal flag" of
 *     dce0c74d2d18; the SDM's version-6 text was not at hand), else not;
 *   INV: the comparison's result inverted ("less than" for >=);
 *   EDGE: the counter counts the deasserted-to-asserted transitions of
 *     that per-cycle condition, not the cycles it holds.
 *
 * The simulated core has cycles: a reported memory access is one
 * instruction over its cycles (1, plus a load's latency beyond L1), its
 * events in its last cycle, when it retires, and none in the cycles before;
 * `retire(ip, n)` is n cycles of one instruction each.  Every cycle counts
 * one CPU_CLK_UNHALTED.  The condition of the cycle before the first one a
 * counter sees with its present EVTSEL is taken as deasserted; every write
 * of IA32_PERFEVTSELx, the same value again included (a teardown to 0 and
 * re-arm), begins a present EVTSEL.  The SDM's E flag text ("counts the
 * number of deasserted to asserted transitions", Vol. 3B 20.2.1.1) says
 * nothing of state kept across a write, so none is kept.
 *
 * What this model cannot say is flagged, and such a counter counts nothing
 * (rule unmodelled-evtsel, rules.c), so a program that depends on it fails
 * here instead of passing as the plain event:
 *   - INV, EDGE or EQ with CMASK 0: the SDM's P6 PerfEvtSel text says INV
 *     is then ignored, yet perfmon files list events with CounterMask 0 and
 *     Invert 1 (broadwellde_core.json UOPS_EXECUTED.CORE_CYCLES_NONE) or
 *     EdgeDetect 1 (elkhartlake_core.json BUS_LOCK.ALL); what EQ compares
 *     with 0 is not defined in any source read here;
 *   - EQ with INV: no source read here defines the pair;
 *   - CMASK, EDGE or EQ on an event whose count is spread over cycles the
 *     model does not lay out (OFFCORE_REQUESTS_OUTSTANDING, OFFCORE_RESPONSE
 *     with AVG_LATENCY: each request adds its whole latency at once).
 */
#include "sim_int.h"

#define EVTSEL_EDGE	BIT_ULL(18)
#define EVTSEL_INV	BIT_ULL(23)
#define EVTSEL_EQ	BIT_ULL(36)
#define EVTSEL_CMASK(v) (((v) >> 24) & 0xff)

/* sim_evtsel_modified() is inline in sim_int.h. */

/* Events counted as a sum of cycles at once: no count per cycle here. */
static bool spread(const struct sim_cpu *c, const struct sim_event *e)
{
	if (e->count == CNT_OFFCORE_OUTST)
		return true;
	return e->count == CNT_OFFCORE && e->arg == 0 && (c->m->flags & F_OFFCORE_AVG) &&
	       (c->offcore[0] & BIT_ULL(38));
}

const char *sim_evtsel_unmodelled(const struct sim_cpu *c, unsigned int i)
{
	uint64_t v = c->evtsel[i];

	if (!sim_evtsel_modified(v))
		return NULL;
	if (!EVTSEL_CMASK(v))
		return "INV, EDGE or EQ with CMASK 0";
	if ((v & EVTSEL_EQ) && (v & EVTSEL_INV))
		return "EQ with INV";
	if (c->ev[i] && spread(c, c->ev[i]))
		return "CMASK on an event counted per request, not per cycle (OFFCORE outstanding, "
		       "AVG_LATENCY)";
	return NULL;
}

/* The per-cycle condition: count >= CMASK (EQ: ==), inverted by INV. */
static bool asserted(uint64_t v, uint64_t k)
{
	uint64_t cm = EVTSEL_CMASK(v);
	bool r = (v & EVTSEL_EQ) ? k == cm : k >= cm;

	return (v & EVTSEL_INV) ? !r : r;
}

/* n cycles of k events each: cycles asserted, or (EDGE) the transitions into them. */
static uint64_t cycles_of(uint64_t v, bool *prev, uint64_t n, uint64_t k)
{
	bool a;
	uint64_t inc;

	if (!n)
		return 0;
	a = asserted(v, k);
	if (!(v & EVTSEL_EDGE))
		return a ? n : 0;
	inc = a && !*prev;
	*prev = a;
	return inc;
}

void sim_evtsel_written(struct sim_cpu *c, unsigned int i)
{
	c->edge_prev &= ~BIT_ULL(i);
}

uint64_t sim_evtsel_count(struct sim_cpu *c, unsigned int i, const struct sim_cycles *cy,
			  bool commit)
{
	uint64_t v = c->evtsel[i], inc;
	bool prev = c->edge_prev & BIT_ULL(i);

	if (sim_evtsel_unmodelled(c, i))
		return 0;
	inc = cycles_of(v, &prev, cy->lead, cy->lead_k);
	inc += cycles_of(v, &prev, cy->tail, cy->tail_k);
	if (commit && (v & EVTSEL_EDGE))
		c->edge_prev = prev ? c->edge_prev | BIT_ULL(i) : c->edge_prev & ~BIT_ULL(i);
	return inc;
}
