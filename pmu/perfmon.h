/* SPDX-License-Identifier: MIT */
/*
 * perfmon.h - Intel's perfmon core event files (github.com/intel/perfmon,
 * copied into data/perfmon and turned into C at build time by
 * tools/perfmon-gen.py): which file describes a CPU (perfmon mapfile.csv),
 * and each event's encoding, counters and PEBS attributes as the file gives
 * them.  Pure C, freestanding, no allocation: every answer points into const
 * tables.  docs/PERFMON.md says how each field is read.
 */
#ifndef PP_PMU_PERFMON_H
#define PP_PMU_PERFMON_H

#include "../lib/compat.h"

struct perfmon_table; /* one perfmon event file */
struct perfmon_event; /* one event of it */

/* The perfmon commit data/perfmon was imported from (40 hex digits). */
extern const char perfmon_commit[];

/*
 * The CPU as perfmon's mapfile.csv keys it.  family: the display family,
 * CPUID.1:EAX[11:8] plus EAX[27:20] when [11:8] is 0xF (mapfile.csv writes
 * it in decimal: GenuineIntel-18-1 is family 0x12).  model: the display
 * model, EAX[7:4] plus EAX[19:16] << 4 when [11:8] is 6 or 0xF (SDM Vol. 2A,
 * CPUID leaf 01H, "DisplayModel").
 * core_type and native_model: CPUID.1AH:EAX[31:24] and [23:0] (SDM Vol. 2A,
 * CPUID leaf 1AH); 0 and 0 where the CPU has no leaf 1AH.
 */
struct perfmon_cpu {
	uint32_t family, model, stepping;
	uint32_t core_type;    /* 0x20 Atom, 0x40 Core, 0 none */
	uint32_t native_model; /* matched exactly when a row names one */
};

/*
 * The event file for cpu, or NULL when mapfile.csv has no row for it or its
 * rows name more than one file (a hybrid model asked without a core type).
 * A row with a core type matches only that core type and native model ID; a
 * row without one (a non-hybrid part) matches whatever core type is given.
 * A row with a stepping (SKX 6-55-[01234], CLX 6-55-[56789ABCDEF]) matches
 * only those steppings.
 */
const struct perfmon_table *perfmon_table_for_cpu(const struct perfmon_cpu *cpu);

/* Every table, in mapfile.csv order: 0..perfmon_n_tables()-1. */
unsigned int perfmon_n_tables(void);
const struct perfmon_table *perfmon_table_at(unsigned int i);

/* "ADL/alderlake_goldencove_core.json": the platform directory and file. */
const char *perfmon_table_name(const struct perfmon_table *t);
/* "ADL" */
const char *perfmon_table_platform(const struct perfmon_table *t);
/* The file header's Version, e.g. "1.40". */
const char *perfmon_table_version(const struct perfmon_table *t);

/*
 * Fields a file may lack (older files lack the newer fields, newer ones drop
 * PEBS, CounterHTOff, AnyThread).  EventName, EventCode, UMask, Counter,
 * MSRIndex, MSRValue, SampleAfterValue, CounterMask, Invert and EdgeDetect
 * are in every file; the generator fails the build on a file without one.
 */
enum perfmon_field {
	PERFMON_HAS_UMASK_EXT = 1 << 0,
	PERFMON_HAS_COUNTER_HT_OFF = 1 << 1,
	PERFMON_HAS_PEBS_COUNTERS = 1 << 2,
	PERFMON_HAS_PDIST_COUNTER = 1 << 3,
	PERFMON_HAS_PDIR_COUNTER = 1 << 4,
	PERFMON_HAS_PEBS = 1 << 5,
	PERFMON_HAS_PRECISE = 1 << 6,
	PERFMON_HAS_COLLECT_PEBS = 1 << 7,
	PERFMON_HAS_DATA_LA = 1 << 8,
	PERFMON_HAS_L1_HIT = 1 << 9,
	PERFMON_HAS_PRECISE_STORE = 1 << 10,
	PERFMON_HAS_TAKEN_ALONE = 1 << 11,
	PERFMON_HAS_ANY_THREAD = 1 << 12,
	PERFMON_HAS_EQUAL = 1 << 13,
	PERFMON_HAS_ERRATA = 1 << 14,
	PERFMON_HAS_DEPRECATED = 1 << 15,
	PERFMON_HAS_OFFCORE = 1 << 16,
	PERFMON_HAS_OFFMODULE = 1 << 17,
	PERFMON_HAS_COUNTER_TYPE = 1 << 18,
	PERFMON_HAS_PROG_RESTRICTION = 1 << 19,
};

/* PERFMON_HAS_* bits of the fields t's file carries. */
uint32_t perfmon_table_fields(const struct perfmon_table *t);

/* Events of t in file order: 0..perfmon_n_events(t)-1. */
unsigned int perfmon_n_events(const struct perfmon_table *t);
const struct perfmon_event *perfmon_event_at(const struct perfmon_table *t, unsigned int i);

/* The event named name (EventName, any case), or NULL. */
const struct perfmon_event *perfmon_find_name(const struct perfmon_table *t, const char *name);

/*
 * A name checked once against every file, looked up per CPU without its
 * text: the id of an EventName that file t (NULL: any file) has, equal to
 * name[0..len) in any case, or 0 when it has none; and t's event of that
 * name, or NULL.
 */
uint32_t perfmon_name_id(const struct perfmon_table *t, const char *name, size_t len);
const struct perfmon_event *perfmon_find_id(const struct perfmon_table *t, uint32_t id);
/* The EventName an id stands for, as the first file that has it spells it ("" for 0). */
const char *perfmon_id_name(uint32_t id);

/*
 * An encoding to look for.  code matches any of the event's EventCode
 * values and umask any of its UMask values (offcore events list two codes
 * or two umasks, one per MSR_OFFCORE_RSPx); umask_ext must equal UMaskExt
 * (0 in a file without it).  With match_mods, cmask, inv, edge and any must
 * equal CounterMask, Invert, EdgeDetect and AnyThread too; without it they
 * are not compared (an event with a counter mask still matches).
 */
struct perfmon_key {
	uint8_t code, umask, umask_ext;
	bool match_mods;
	uint8_t cmask;
	bool inv, edge, any;
};

/*
 * The first event at index *pos or later that matches key, or NULL; *pos is
 * left one past it, so calling again finds the next one (several events
 * share an encoding: offcore events differ only in MSRValue, and names are
 * aliases, e.g. INST_RETIRED.ANY and INST_RETIRED.PREC_DIST).
 */
const struct perfmon_event *perfmon_find_code(const struct perfmon_table *t,
					      const struct perfmon_key *key, unsigned int *pos);

/* Which counter list of an event (perfmon README, "Event List Field Definitions"). */
enum perfmon_ctr_list {
	PERFMON_COUNTER,	/* Counter: where it may count */
	PERFMON_COUNTER_HT_OFF, /* CounterHTOff: where, with Hyper-Threading off (pre-ICL) */
	PERFMON_PEBS_COUNTERS,	/* PEBScounters: where it may be a PEBS event */
	PERFMON_PDIST_COUNTER,	/* PDISTCounter: where PDIST (precise distribution) works */
	PERFMON_PDIR_COUNTER,	/* PDIR_COUNTER (Goldmont Plus): where PDIR works */
	PERFMON_N_CTR_LISTS
};

/* Counters as bitmasks: IA32_PMCi is gp bit i, IA32_FIXED_CTRi is fixed bit i. */
struct perfmon_counters {
	uint32_t gp, fixed;
};

#define PERFMON_MAX_CODES  2 /* "0xB7, 0xBB": one per MSR_OFFCORE_RSPx */
#define PERFMON_MAX_UMASKS 4 /* "0x01,0x02,0x04,0x08" (Nova Lake 0xD6) */
#define PERFMON_MAX_MSRS   4 /* "0x3E0,0x3E1,0x3E2,0x3E3" */

enum perfmon_counter_type { PERFMON_PGMABLE, PERFMON_FIXED };
enum perfmon_restriction {
	PERFMON_RESTRICT_NONE,
	PERFMON_RESTRICT_MSR_UMASK,	    /* MSRIndex-UMask: UMask[N] goes with MSRIndex[N] */
	PERFMON_RESTRICT_MSR_UMASK_COUNTER, /* MSRIndex-UMask-Counter: and with Counter[N] */
};

/*
 * One event, decoded.  A field the file lacks (perfmon_table_fields()) reads
 * as 0, false, an empty counter list or "", except the three PEBS numbers,
 * which read -1.
 */
struct perfmon_info {
	const char *name; /* EventName */
	uint8_t n_codes, codes[PERFMON_MAX_CODES];
	uint8_t n_umasks, umasks[PERFMON_MAX_UMASKS];
	uint8_t umask_ext; /* UMaskExt: IA32_PERFEVTSELx[47:40] (UMASK2) */
	uint8_t cmask;	   /* CounterMask: IA32_PERFEVTSELx[31:24] */
	bool inv;	   /* Invert: [23] */
	bool edge;	   /* EdgeDetect: [18] */
	bool any_thread;   /* AnyThread: [21] */
	bool equal;	   /* Equal (not described by the perfmon README; all 0) */
	struct perfmon_counters ctr[PERFMON_N_CTR_LISTS];
	int8_t pebs;	     /* PEBS, raw: 0 no precise IP, 1 precise, 2 PEBS only; -1 absent */
	int8_t precise;	     /* Precise, raw: 0 or 1; -1 absent */
	int8_t collect_pebs; /* CollectPEBSRecord, raw: 0..3; -1 absent */
	bool data_la;	     /* Data_LA: PEBS record has the data linear address */
	bool l1_hit;	     /* L1_Hit_Indication */
	bool precise_store;  /* PRECISE_STORE (Sandy Bridge, Ivy Bridge) */
	bool taken_alone;    /* TakenAlone: no other event beside it */
	bool deprecated, offcore, offmodule;
	enum perfmon_counter_type counter_type; /* CounterType (PERFMON_HAS_COUNTER_TYPE) */
	enum perfmon_restriction restriction;	/* ProgrammingRestriction */
	uint8_t n_msrs;				/* 0: MSRIndex is 0 (no extra MSR) */
	uint16_t msr_index[PERFMON_MAX_MSRS];	/* MSRIndex */
	uint64_t msr_value;			/* MSRValue */
	uint32_t sample_after;			/* SampleAfterValue */
	const char *errata;			/* Errata, "" when none */
};

const char *perfmon_event_name(const struct perfmon_event *ev);

/* Fills out from ev, an event of t. */
void perfmon_event_get(const struct perfmon_table *t, const struct perfmon_event *ev,
		       struct perfmon_info *out);

/* One counter list of ev (empty when its file lacks that field). */
struct perfmon_counters perfmon_event_counters(const struct perfmon_event *ev,
					       enum perfmon_ctr_list which);

#endif
