// SPDX-License-Identifier: MIT
/*
 * placement.c - where an event may count and be a PEBS event, as the
 * simulated part's own Intel perfmon file says (pmu/perfmon.h over
 * data/perfmon; docs/PERFMON.md), read here from the model's CPUID values,
 * never from what pebsprobe's plan or pmu/uarch_table.c believe.  What the
 * hardware does outside those counters (perfmon README, "Event List Field
 * Definitions": Counter, PEBScounters):
 *   - a counting event on a counter its Counter field excludes does not
 *     count correctly: it counts nothing here;
 *   - a PEBS event on a counter outside its PEBScounters (Counter in files
 *     without PEBScounters) writes no records;
 *   - a load-latency event (MSRIndex 0x3F6) outside them writes records
 *     without latency and data source;
 *   - a PEBS event whose PDISTCounter names GP counters, on another counter,
 *     has no precise distribution: "With PDist, the PEBS record will be
 *     generated precisely upon completion of the instruction or operation
 *     that causes the counter to overflow (there is no 'wait for next
 *     occurrence' by default)" (perfmon README, PDISTCounter), so without it
 *     the record is of the next occurrence of the event (engine.c);
 *   - an event with TakenAlone "can only be sampled or counted by itself"
 *     (perfmon README, TakenAlone): two of them counting at once both count
 *     nothing and write no records (rules.c sets alone_clash).
 * An encoding the file has no row for, and a model perfmon has no file for
 * (Core 2, Diamond Rapids), are judged by Linux's constraint tables where
 * constraints.c carries them for the model, and not judged otherwise.
 */
#include "sim_int.h"

#define EVTSEL_EDGE BIT_ULL(18) /* SDM Vol. 3B Figure 21-6 */
#define EVTSEL_INV  BIT_ULL(23)

/* The model as perfmon's mapfile.csv keys it: SDM Vol. 2A CPUID leaf 01H, leaf 1AH. */
void sim_place_init(struct sim_cpu *c)
{
	uint32_t sig = c->m->sig, base = (sig >> 8) & 0xf;
	struct perfmon_cpu pc = {
	    .family = base == 0xf ? base + ((sig >> 20) & 0xff) : base,
	    .model = (base == 6 || base == 0xf) ? ((sig >> 4) & 0xf) | (((sig >> 16) & 0xf) << 4)
						: (sig >> 4) & 0xf,
	    .stepping = sig & 0xf,
	    .core_type = c->m->c1a_eax >> 24,
	    .native_model = c->m->c1a_eax & 0xffffff,
	};

	c->pm = c->m->vendor == SIM_INTEL ? perfmon_table_for_cpu(&pc) : NULL;
	memset(c->place, 0, sizeof(c->place));
	/* Arch-PEBS: PDIST also only on the GP counters CPUID.23H.5:EBX enumerates. */
	c->pdist_ok = (uint32_t)GENMASK_ULL(31, 0);
	if (c->m->flags & F_ARCH_PEBS) {
		struct cpuid_regs r;

		sim_cpuid_leaf(c->m, 0x23, 5, &r);
		c->pdist_ok = r.ebx;
	}
}

/* The perfmon row of EVTSEL i's encoding (the one with its counter mask, invert and edge first). */
void sim_place_decode(struct sim_cpu *c, unsigned int i)
{
	uint64_t v = c->evtsel[i];
	struct perfmon_key key = {
	    .code = (uint8_t)v,
	    .umask = (uint8_t)(v >> 8),
	    .umask_ext = (uint8_t)(v >> 40),
	    .match_mods = true,
	    .cmask = (uint8_t)(v >> 24),
	    .inv = v & EVTSEL_INV,
	    .edge = v & EVTSEL_EDGE,
	};
	struct sim_place *pl = &c->place[i];
	const struct perfmon_event *ev;
	struct perfmon_info in;
	unsigned int pos = 0;

	memset(pl, 0, sizeof(*pl));
	ev = c->pm ? perfmon_find_code(c->pm, &key, &pos) : NULL;
	if (!ev && c->pm) {
		key.match_mods = false;
		pos = 0;
		ev = perfmon_find_code(c->pm, &key, &pos);
	}
	/* No row: Linux's constraint tables, where the model carries them (constraints.c). */
	if (!ev) {
		sim_cons_place(c, (uint16_t)v, pl);
		return;
	}
	perfmon_event_get(c->pm, ev, &in);
	pl->known = true;
	pl->name = in.name;
	pl->count_gp = in.ctr[PERFMON_COUNTER].gp;
	pl->pebs_gp = (perfmon_table_fields(c->pm) & PERFMON_HAS_PEBS_COUNTERS)
			  ? in.ctr[PERFMON_PEBS_COUNTERS].gp
			  : in.ctr[PERFMON_COUNTER].gp;
	pl->ldlat = in.n_msrs && in.msr_index[0] == 0x3f6;
	pl->pdist_gp = in.ctr[PERFMON_PDIST_COUNTER].gp;
	pl->has_pdist = pl->pdist_gp != 0;
	pl->taken_alone = in.taken_alone;
}

/* sim_place_counts() is inline in sim_int.h. */

bool sim_place_pebs(const struct sim_cpu *c, unsigned int i)
{
	if (c->alone_clash & BIT_ULL(i))
		return false;
	return !c->place[i].known || (c->place[i].pebs_gp & BIT_ULL(i));
}

bool sim_place_shadowed(const struct sim_cpu *c, unsigned int i)
{
	return c->place[i].has_pdist && !(c->place[i].pdist_gp & c->pdist_ok & BIT_ULL(i));
}
