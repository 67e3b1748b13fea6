/* SPDX-License-Identifier: MIT */
/*
 * event.h - events by libpfm4 name with modifiers, or raw, resolved against
 * the generated catalogue (pmu/catalogue.h).  Pure C, freestanding.
 *
 *   NAME[:UMASK][:UMASK...][:u][:k][:e][:i][:c=N][:ldlat=N][:fe_thres=N]
 *       e.g. MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30 (a '.' may stand for the first ':')
 *   event=0xNN[,umask=0xNN][,cmask=N][,inv][,edge][,ldlat=N][,offcore_rsp=0x..][,frontend=0x..]
 */
#ifndef PP_PMU_EVENT_H
#define PP_PMU_EVENT_H

#include "../lib/compat.h"

struct pmu_event {
	char name[64];	 /* as the user wrote it, trimmed */
	uint64_t evtsel; /* event, umask, edge, inv, cmask (no USR/OS/INT/EN) */
	bool usr, os;
	bool precise; /* libpfm4 says PEBS-capable (raw events: assumed) */
	bool raw;
	bool has_ldlat;	  /* the event uses MSR_PEBS_LD_LAT_THRESHOLD */
	uint32_t ldlat;	  /* 0: not given (the session's ldlat applies) */
	bool has_offcore; /* MSR_OFFCORE_RSPx value */
	uint64_t offcore_rsp;
	bool has_frontend; /* MSR_PEBS_FRONTEND value */
	uint64_t frontend;
	int fixed; /* fixed counter of a pseudo-encoding (event 0x00), else -1 */
};

/* Parses text for the libpfm4 PMU table pfm_pmu ("skl", ...). 0 or -1 with why. */
int pmu_event_parse(const char *pfm_pmu, const char *text, struct pmu_event *ev, char *why,
		    size_t why_size);

/* The event and umask bits of an evtsel, the key of the uarch table's events. */
static inline uint16_t pmu_event_code(const struct pmu_event *ev)
{
	return (uint16_t)(ev->evtsel & 0xffff);
}

/* Which MSR_OFFCORE_RSPx an offcore event uses: 0, 1, or -1 (not offcore). */
int pmu_event_offcore_index(const struct pmu_event *ev);

#endif
