/* SPDX-License-Identifier: MIT */
/*
 * perfmon_data.h - the layout of the tables tools/perfmon-gen.py writes
 * from data/perfmon into $(BUILD)/gen/perfmon_tables.c.  Only pmu/perfmon.c
 * and that generated file include it; callers use pmu/perfmon.h.
 *
 * Compact on purpose (the app carries every table): names live once in one
 * string pool, an event row is 16 bytes, and what many events share (their
 * counter lists, MSRs and extra codes, sample-after values, errata) is kept
 * once in a side table the row indexes.  Identical rows of different files
 * (SKX and CLX, HSW and HSX...) are stored once; a file is a list of row
 * indices.  The generator fails the build when a value does not fit a field
 * here, rather than truncate it.
 */
#ifndef PP_PMU_PERFMON_DATA_H
#define PP_PMU_PERFMON_DATA_H

#include "perfmon.h"

/* perfmon_event.flags: the 0/1 fields, and two small enumerations. */
enum {
	PMR_INV = 1 << 0,
	PMR_EDGE = 1 << 1,
	PMR_ANY = 1 << 2,
	PMR_EQUAL = 1 << 3,
	PMR_TAKEN_ALONE = 1 << 4,
	PMR_DATA_LA = 1 << 5,
	PMR_L1_HIT = 1 << 6,
	PMR_PRECISE_STORE = 1 << 7,
	PMR_DEPRECATED = 1 << 8,
	PMR_OFFCORE = 1 << 9,
	PMR_OFFMODULE = 1 << 10,
	PMR_FIXED_TYPE = 1 << 11, /* CounterType FIXED (else PGMABLE) */
	PMR_RESTRICT_SHIFT = 12,  /* [13:12] enum perfmon_restriction */
	PMR_RESTRICT_MASK = 3 << 12,
};

/* perfmon_event.pebs: the raw PEBS, Precise and CollectPEBSRecord values. */
#define PMR_PEBS(b)    ((b)&3)
#define PMR_PRECISE(b) (((b) >> 2) & 1)
#define PMR_COLLECT(b) (((b) >> 3) & 3)

/* One event: what is not shared, and indices to what is. */
struct perfmon_event {
	uint32_t name;	/* offset into perfmon_pool */
	uint16_t flags; /* PMR_* */
	uint16_t extra; /* perfmon_extras[]: MSRValue, codes, umasks, MSRIndex */
	uint8_t code;	/* EventCode (the first one when there are two) */
	uint8_t umask;	/* UMask (the first one) */
	uint8_t umask_ext;
	uint8_t cmask;
	uint8_t ctrs;	/* perfmon_ctrsets[] */
	uint8_t sav;	/* perfmon_savs[] */
	uint8_t errata; /* perfmon_errata[]; 0 is "" */
	uint8_t pebs;	/* PMR_PEBS / PMR_PRECISE / PMR_COLLECT */
};

/* The counter lists of an event, indexed by enum perfmon_ctr_list. */
struct perfmon_ctrset {
	struct perfmon_counters ctr[PERFMON_N_CTR_LISTS];
};

/*
 * The codes and umasks of an event after the first (which the row holds),
 * and its MSRIndex list: a few dozen combinations in all.
 */
struct perfmon_lists {
	uint16_t msr_index[PERFMON_MAX_MSRS];
	uint8_t n_msrs;
	uint8_t n_more_codes, more_codes[PERFMON_MAX_CODES - 1];
	uint8_t n_more_umasks, more_umasks[PERFMON_MAX_UMASKS - 1];
};

/* MSRValue (in halves: a uint64_t would pad the entry to 16 bytes) and the lists. */
struct perfmon_extra {
	uint32_t msr_value_lo, msr_value_hi;
	uint8_t lists; /* perfmon_lists[] */
};

struct perfmon_table {
	uint32_t name;	   /* pool: "ADL/alderlake_goldencove_core.json" */
	uint32_t platform; /* pool: "ADL" */
	uint32_t version;  /* pool: Header.Version */
	uint32_t fields;   /* PERFMON_HAS_* */
	uint32_t first;	   /* first index into perfmon_table_rows[] */
	uint32_t n_events;
};

/* One mapfile.csv row, character classes expanded (one row per stepping). */
#define PERFMON_ANY_STEPPING 0xff
struct perfmon_map {
	uint16_t family; /* display family (decimal in mapfile.csv) */
	uint8_t model;
	uint8_t stepping;      /* PERFMON_ANY_STEPPING when the row names none */
	uint8_t core_type;     /* 0 when the row has no Core Type */
	uint32_t native_model; /* valid when core_type != 0 */
	uint16_t table;	       /* perfmon_tables[] */
};

extern const char perfmon_pool[];
extern const struct perfmon_event perfmon_rows[];
extern const uint16_t perfmon_table_rows[];
extern const struct perfmon_ctrset perfmon_ctrsets[];
extern const struct perfmon_extra perfmon_extras[];
extern const struct perfmon_lists perfmon_lists[];
extern const uint32_t perfmon_savs[];
extern const uint32_t perfmon_errata[];
extern const struct perfmon_table perfmon_tables[];
extern const unsigned int perfmon_table_count;
extern const struct perfmon_map perfmon_maps[];
extern const unsigned int perfmon_n_maps;

#endif
