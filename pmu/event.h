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

/* An entry's characters, with the NUL; pmu_event.name's too: every perfmon
 * EventName fits (the longest, CLX OFFCORE_RESPONSE:request=..:response=..,
 * is 95 characters; docs/PERFMON.md), as does the events= option's value. */
#define PMU_EVENT_NAME_MAX 128
#define PMU_EVENT_ITEMS	   64 /* ':'-separated items in PMU_EVENT_NAME_MAX - 1 characters */
#define PMU_EVENT_NAMES	   4  /* names one entry may end at (tests/unit/test_pmu_event.c) */

struct pmu_event {
	/*
	 * Its display name, formatted here from the typed values (never the
	 * text of events=): the file's EventName with its modifiers, or the
	 * raw encoding, in docs/OPTIONS.md's "Event names" form.
	 */
	char name[PMU_EVENT_NAME_MAX];
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
 * An events= entry, read once without a CPU (app/options_events.c): typed
 * values only, no text.  A raw entry is its whole encoding, checked.  A
 * named entry: a perfmon EventName may hold ':' itself (CLX
 * OFFCORE_RESPONSE:request=..:response=.., beside SKX's OFFCORE_RESPONSE),
 * so where the name ends is each CPU's file to say: the longest ':'-prefix
 * that file has.  names[] holds each prefix some file has, as a
 * perfmon_name_id (its text is the file's, perfmon_id_name), longest first;
 * mods[i] is the ':'-separated item i read as a modifier.  Items after
 * names[0] are modifiers every CPU reads (checked at the read); items
 * inside it are read from names[0]'s EventName, for a CPU whose file has
 * only a shorter name.
 */

enum pmu_event_mod_key {
	PMU_MOD_NONE, /* no modifier: an item of a longer name */
	PMU_MOD_U,
	PMU_MOD_K,
	PMU_MOD_EDGE, /* e, edge */
	PMU_MOD_INV,  /* i, inv */
	PMU_MOD_EQ,
	PMU_MOD_CMASK, /* c, cmask */
	PMU_MOD_LDLAT,
	PMU_MOD_FE_THRES,
};

/*
 * One ':' item read as a modifier "key[=N]".  at, len: where an item inside
 * names[0] lies in that EventName (for a CPU's error about it); 0 after it.
 */
struct pmu_event_mod {
	uint8_t key : 4;       /* enum pmu_event_mod_key */
	uint8_t has_value : 1; /* "=N" given */
	uint8_t bad_value : 1; /* inside names[0] only: what follows "=" is no number */
	uint8_t at, len;
	uint32_t value; /* N (1 when not given), saturated at 0xffffffff */
};

struct pmu_event_spec {
	bool raw;
	/* raw: the whole encoding, checked */
	uint64_t evtsel, offcore_rsp, frontend;
	uint32_t ldlat;
	bool usr, os, has_ldlat, has_offcore, has_frontend;
	/* named */
	uint8_t n_names, n_items;
	struct {
		uint32_t id;	 /* perfmon_name_id of the prefix */
		uint8_t n_items; /* the items it spans */
	} names[PMU_EVENT_NAMES];
	struct pmu_event_mod mods[PMU_EVENT_ITEMS];
};

/*
 * The syntax step: text into s, no CPU asked.  0, or -1 with why: what no
 * CPU could accept (an empty event, too long, a raw encoding's error, a
 * name no perfmon file has, an item after the longest name that is no
 * modifier or has a bad value), one line naming it and what is accepted.
 * What a CPU's own file decides is that CPU's error (pmu_event_resolve).
 */
int pmu_event_read(const char *text, struct pmu_event_spec *s, char *why, size_t why_size);

/*
 * The lookup step: s against perfmon file t (NULL: raw events only, as on a
 * CPU perfmon has no file for).  0, or -1 with why.
 */
int pmu_event_resolve(const struct perfmon_table *t, const struct pmu_event_spec *s,
		      struct pmu_event *ev, char *why, size_t why_size);

/* Both steps at once, for an event the program names itself (pmu/plan.c, kernels). */
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
