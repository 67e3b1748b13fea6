// SPDX-License-Identifier: MIT
/*
 * sampling.c - which samplings the main job runs per kernel: the
 * generation's load and store sampling (or "other"), and the user's events=.
 */
#include "job_int.h"

/* --- the generation's samplings (pmu/uarch.h flags) ------------------------ */

/*
 * Goldmont has neither load latency nor DataLA, but PEBS on PMC0 for every
 * event (SDM Vol. 3B 18.7.1 "Processor Event Based Sampling (PEBS)") and a
 * data linear address in its records (18.7.1.1):
 * MEM_UOPS_RETIRED.ALL_LOADS / ALL_STORES (0xD0/0x81, 0xD0/0x82; SDM Vol. 3B
 * ch. 19 Goldmont event table), records without a data source.  Silvermont
 * is left out: its fmt2 records carry no data address for these events.
 */
static const struct {
	enum pebs_uarch uarch;
	const char *load, *store;
} atom_mem_events[] = {
    {UARCH_GLM, "event=0xd0,umask=0x81", "event=0xd0,umask=0x82"},
};

bool sampling_kind(const struct uarch_info *ua, unsigned int sampling, enum pebs_kind *k,
		   const char **event)
{
	*event = NULL;
	if (!ua)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(atom_mem_events); i++) {
		if (atom_mem_events[i].uarch != ua->uarch)
			continue;
		*k = KIND_OTHER;
		*event =
		    sampling == KSAMPLE_LOAD ? atom_mem_events[i].load : atom_mem_events[i].store;
		return true;
	}
	if (sampling == KSAMPLE_LOAD) {
		if (ua->flags & UA_LDLAT)
			*k = KIND_LDLAT;
		else if (ua->flags & UA_DATALA)
			*k = KIND_DATALA_LOAD;
		else
			return false;
		return true;
	}
	/* Stores: store latency (SPR+), else precise store (SNB/IVB), else DataLA (HSW+). */
	if (ua->flags & UA_STLAT)
		*k = KIND_STLAT;
	else if (ua->flags & UA_PRECISE_STORE)
		*k = KIND_STORE;
	else if (ua->flags & UA_DATALA)
		*k = KIND_DATALA_STORE;
	else
		return false;
	return true;
}

const char *sampling_name(unsigned int sampling)
{
	return sampling == KSAMPLE_LOAD ? "load" : "store";
}

/* The default job's sampling of the kernel's loads or stores; false if the generation has none. */
bool default_sampling(const struct runner *r, unsigned int acc, struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", sampling_name(acc));
	s->acc = acc;
	if (!sampling_kind(r->ua, acc, &s->kind, &s->event))
		return false;
	/*
	 * Every access is an event when the event counts them all: DataLA and
	 * ALL_LOADS/ALL_STORES, or load latency with a threshold below the
	 * fastest L1 hit (4 cycles).  Store latency and precise store: not assumed.
	 */
	s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
			 s->kind == KIND_OTHER || (s->kind == KIND_LDLAT && r->jo->ldlat <= 3);
	return true;
}

/*
 * Generations with no load or store sampling (Core 2, Silvermont): the
 * plan's default event of kind "other" (the generation's PEBS instructions
 * event, pmu/plan.c), so records, IPs and counts are checked there too.
 * Goldmont: its non-precise CPU_CLK_UNHALTED.CORE_P plus one record forced
 * through IA32_PERF_GLOBAL_STATUS_SET (SDM 18.7.1).
 */
void other_sampling(const char *name, uint32_t force, struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", name);
	s->kind = KIND_OTHER;
	s->force = force;
}

/* The kind an event's records have decides which of the kernel's accesses it counts. */
unsigned int kind_accesses(enum pebs_kind kind)
{
	switch (kind) {
	case KIND_LDLAT:
	case KIND_DATALA_LOAD:
		return KSAMPLE_LOAD;
	case KIND_STORE:
	case KIND_STLAT:
	case KIND_DATALA_STORE:
		return KSAMPLE_STORE;
	default:
		return 0;
	}
}

/* events=A;B;C: one sampling per event, named event1, event2, ... */
void split_events(struct runner *r, const char *list)
{
	for (const char *p = list; *p && r->n_user < RUNNER_MAX_EVENTS;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len >= JOB_LIST_MAX)
			len = JOB_LIST_MAX - 1;
		if (len) {
			memcpy(r->user_ev[r->n_user], p, len);
			r->user_ev[r->n_user++][len] = 0;
		}
		if (!e)
			break;
		p = e + 1;
	}
}
