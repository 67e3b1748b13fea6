/* SPDX-License-Identifier: MIT */
/*
 * catalogue.h - the event catalogue, generated at build time from libpfm4
 * by tools/gen-events.c into $(BUILD)/gen/event_catalogue.c.  The app cannot
 * link libpfm4, so every Intel core PMU libpfm4 knows is flattened here into
 * three tables and one string pool.  Offsets into cat_pool are names.
 */
#ifndef PP_PMU_CATALOGUE_H
#define PP_PMU_CATALOGUE_H

#include "../lib/compat.h"

/* cat_event.flags */
enum {
	CAT_EV_LDLAT = 1 << 0,	  /* takes :ldlat= (MSR_PEBS_LD_LAT_THRESHOLD) */
	CAT_EV_FRONTEND = 1 << 1, /* umask carries an MSR_PEBS_FRONTEND value */
	CAT_EV_OFFCORE = 1 << 2,  /* umasks are MSR_OFFCORE_RSPx bits, OR-able */
	CAT_EV_PRECISE = 1 << 3,  /* libpfm4: some umask is PEBS-capable */
};

/* cat_umask.flags */
enum {
	CAT_UM_PRECISE = 1 << 0, /* libpfm4 is_precise: PEBS-capable */
	CAT_UM_DEFAULT = 1 << 1, /* used when no umask is named */
};

struct cat_pmu {
	uint32_t name; /* libpfm4 PMU name, e.g. "skl" */
	uint32_t desc;
	uint32_t first_event;
	uint16_t n_events;
	uint8_t n_gp, n_fixed;
};

struct cat_event {
	uint32_t name;
	uint32_t first_umask;
	uint16_t n_umasks; /* >= 1: events without umasks have one unnamed entry */
	uint16_t code;	   /* libpfm4 event code (event select, umask in bits 15:8 for some) */
	uint8_t flags;
};

struct cat_umask {
	uint32_t evtsel; /* libpfm4's PERFEVTSEL encoding less USR/OS/INT/EN/PC */
	uint16_t name;	 /* "" for the unnamed entry */
	uint16_t extra;	 /* index into cat_extras (offcore RSP bits / frontend value); 0 = none */
	uint8_t flags;
};

extern const char cat_pool[];
extern const struct cat_pmu cat_pmus[];
extern const struct cat_event cat_events[];
extern const struct cat_umask cat_umasks[];
extern const uint64_t cat_extras[];
extern const uint32_t cat_n_pmus;

static inline const char *cat_str(uint32_t off)
{
	return cat_pool + off;
}

#endif
