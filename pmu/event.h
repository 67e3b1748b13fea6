/* SPDX-License-Identifier: MIT */
/*
 * event.h - events by Intel perfmon name with modifiers, or raw, resolved
 * against the CPU's perfmon event file (pmu/perfmon.h, data/perfmon).
 * Pure C, freestanding.
 *
 *   NAME[:u][:k][:e][:i][:eq][:c=N][:ldlat=N][:fe_thres=N]
 *       NAME is perfmon's EventName in any case, e.g.
 *       MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32 or MEM_INST_RETIRED.ALL_LOADS:u
 *   event=0xNN[,umask=0xNN][,umask2=0xNN][,cmask=N][,inv][,edge][,eq][,ldlat=N]
 *       [,offcore_rsp=0x..][,frontend=0x..]
 *
 * umask2 (PERFEVTSEL[47:40]) and eq (bit 36) exist only where CPUID.23H.0:EBX
 * enumerates them; pmu/plan.c refuses them elsewhere.
 *
 * A named event carries its perfmon row's counter lists; a raw event carries
 * those of the file's row with its encoding, when there is one.
 */
#ifndef PP_PMU_EVENT_H
#define PP_PMU_EVENT_H

#include "../lib/compat.h"
#include "perfmon.h"

struct pmu_event {
	char name[64];	 /* as the user wrote it, trimmed */
	uint64_t evtsel; /* event, umask, edge, inv, cmask, EQ, UMASK2 (no USR/OS/INT/EN) */
	bool usr, os;
	bool precise; /* perfmon: PEBS >= 1, Precise 1 or CollectPEBSRecord >= 1 (raw, no row:
			 assumed) */
	bool raw;
	bool has_ldlat;	  /* the event uses MSR_PEBS_LD_LAT_THRESHOLD */
	uint32_t ldlat;	  /* 0: not given (the session's ldlat applies) */
	bool has_offcore; /* MSR_OFFCORE_RSPx value */
	uint64_t offcore_rsp;
	bool has_frontend; /* MSR_PEBS_FRONTEND value */
	uint64_t frontend;
	int fixed; /* fixed counter of a pseudo-encoding (event 0x00), else -1 */
	/*
	 * The perfmon row: its EventName (NULL when the file has no row for
	 * this encoding, or there is no file), its file, and its counter lists:
	 * Counter (where it may count), PEBScounters (where it may be a PEBS
	 * event; Counter where the file has no PEBScounters field, SNB to
	 * SKX/CLX), PDISTCounter.  perfmon README, "Event List Field Definitions".
	 */
	const char *pm_name;
	const struct perfmon_table *pm_table;
	struct perfmon_counters count_ctrs, pebs_ctrs, pdist_ctrs;
	bool pebs_list; /* pebs_ctrs is the file's PEBScounters field */
	bool taken_alone;
	bool data_la; /* perfmon Data_LA: the PEBS record carries the data linear address */
};

/*
 * Parses text against perfmon file t (NULL: raw events only, as on a CPU
 * perfmon has no file for).  0, or -1 with why: one line naming what was
 * wrong and what is accepted.
 */
int pmu_event_parse(const struct perfmon_table *t, const char *text, struct pmu_event *ev,
		    char *why, size_t why_size);

/* The event and umask bits of an evtsel, the key of the uarch table's events. */
static inline uint16_t pmu_event_code(const struct pmu_event *ev)
{
	return (uint16_t)(ev->evtsel & 0xffff);
}

/* Which MSR_OFFCORE_RSPx an offcore event uses: 0, 1, or -1 (not offcore). */
int pmu_event_offcore_index(const struct pmu_event *ev);

#endif
