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

#define PMU_EVENT_NAME_MAX 64 /* an event's characters, with the NUL (pmu_event.name) */
#define PMU_EVENT_ITEMS	   32 /* ':'-separated items in PMU_EVENT_NAME_MAX - 1 characters */
#define PMU_EVENT_NAMES	   4  /* names one entry may end at (tests/unit/test_pmu_event.c) */

struct pmu_event {
	char name[PMU_EVENT_NAME_MAX]; /* as the user wrote it, trimmed (pmu_event_spec.label) */
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
 * An event as written, read once without a CPU (app/options_events.c reads
 * events= into these): its syntax is checked, a raw encoding is whole, and
 * a name is left as what each CPU's file may make of it.  A perfmon
 * EventName may hold ':' itself (CLX OFFCORE_RESPONSE:request=..:response=..,
 * beside SKX's OFFCORE_RESPONSE), so where the name ends is the CPU's file
 * to say: the longest ':'-prefix that file has.  names[] holds each prefix
 * that some file has, as a perfmon_name_id, longest first; the ':'-separated
 * items after the name's start are read as modifiers (mods[i] is item i).
 */

enum pmu_event_mod_key {
	PMU_MOD_NONE, /* no modifier: "frob", or an item of a longer name */
	PMU_MOD_U,
	PMU_MOD_K,
	PMU_MOD_EDGE, /* e, edge */
	PMU_MOD_INV,  /* i, inv */
	PMU_MOD_EQ,
	PMU_MOD_CMASK, /* c, cmask */
	PMU_MOD_LDLAT,
	PMU_MOD_FE_THRES,
};

/* One ':' item read as a modifier "key[=N]"; at, len, key_len place it in the label. */
struct pmu_event_mod {
	uint8_t key : 4;       /* enum pmu_event_mod_key */
	uint8_t has_value : 1; /* "=N" written */
	uint8_t bad_value : 1; /* what follows "=" is no number */
	uint8_t at, len, key_len;
	uint32_t value; /* N (1 when not written), saturated at 0xffffffff */
};

struct pmu_event_spec {
	/* The event as written, trimmed: shown in lines and dumps, never read again. */
	char label[PMU_EVENT_NAME_MAX];
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
 * The syntax step: text into s, no CPU asked.  0, or -1 with why (an empty
 * event, too long, a raw encoding's error): one line naming what was wrong
 * and what is accepted.  A name's errors are the CPU's (pmu_event_resolve).
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
