// SPDX-License-Identifier: MIT
/*
 * sampling.c - which samplings the main job runs per kernel: the
 * generation's load and store sampling (or "other"), and the user's events=.
 */
#include "job_int.h"

/* --- the generation's samplings (pmu/uarch.h rows) -------------------------- */

/* The generation's row says how its loads and stores are sampled (pmu/uarch_table.c). */
bool sampling_kind(const struct uarch_info *ua, unsigned int sampling, enum pebs_kind *k,
		   const char **event)
{
	*event = NULL;
	return ua && uarch_sampling(ua, sampling != KSAMPLE_LOAD, k, event);
}

const char *sampling_name(unsigned int sampling)
{
	return sampling == KSAMPLE_LOAD ? "load" : "store";
}

/* The default job's sampling of the kernel's loads or stores; false if the generation has none. */
bool job_default_sampling(const struct job_opts *jo, const struct uarch_info *ua, unsigned int acc,
			  struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", sampling_name(acc));
	s->acc = acc;
	if (!sampling_kind(ua, acc, &s->kind, &s->event))
		return false;
	/*
	 * Every access is an event when the event counts them all: DataLA and
	 * ALL_LOADS/ALL_STORES, or load latency with a threshold below the
	 * fastest L1 hit (4 cycles).  Store latency and precise store: not assumed.
	 */
	s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
			 s->kind == KIND_OTHER || (s->kind == KIND_LDLAT && jo->ldlat <= 3);
	return true;
}

/*
 * Generations with no load or store sampling (Core 2, Silvermont): the
 * plan's default event of kind "other" (the generation's PEBS instructions
 * event, pmu/plan.c), so records, IPs and counts are checked there too.
 * Goldmont: its non-precise CPU_CLK_UNHALTED.CORE_P plus one record forced
 * through IA32_PERF_GLOBAL_STATUS_SET (SDM 18.7.1).
 */
void job_other_sampling(const char *name, uint32_t force, struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", name);
	s->kind = KIND_OTHER;
	s->force = force;
}

/* The kind an event's records have decides which of the kernel's accesses it counts. */
unsigned int job_kind_accesses(enum pebs_kind kind)
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

/* events=A;B;C (app/options_events.c read it): one sampling per event, named event1, ... */
void job_user_events(struct job_state *js, const struct job_events *ev)
{
	js->n_user = 0;
	for (unsigned int i = 0; i < ev->n && js->n_user < RUNNER_MAX_EVENTS; i++)
		js->user_ev[js->n_user++] = &ev->ev[i];
}

void job_session_base(const struct job_opts *jo, uint64_t cpu_timeout_us, struct session_cfg *cfg)
{
	*cfg = (struct session_cfg){
	    .ldlat = jo->ldlat,
	    .buffer_kib = jo->buffer_kib,
	    .threshold_records = jo->threshold,
	    .drain = jo->drain,
	    .snapshot = jo->snapshot,
	    .cpu_timeout_us = cpu_timeout_us,
	};
}
