/* SPDX-License-Identifier: MIT */
/*
 * constraints.h - Linux's counter constraint tables, carried as data for
 * the encodings Intel's perfmon files have no row for (a raw encoding, or
 * a part with no file: Core 2, Diamond Rapids).  The rows keep the shape of
 * arch/x86/events/intel/core.c *_event_constraints and ds.c
 * *_pebs_event_constraints (constraints.c), so that they diff against them.
 */
#ifndef PP_PMU_CONSTRAINTS_H
#define PP_PMU_CONSTRAINTS_H

#include "../lib/compat.h"

/*
 * One row: evtsel[15:0] (event and umask), or the event code alone
 * (any_umask) up to `last`; the GP counters allowed.  A table ends with
 * code 0 and gp 0 (EVENT_CONSTRAINT_END).  gp 0 with a code: on a fixed
 * counter only.
 */
struct uarch_constraint {
	uint16_t code;
	bool any_umask;
	uint32_t gp;
	uint8_t last; /* any_umask: event codes code..last (0: code only) */
};

/* PEBS constraints (ds.c) */
extern const struct uarch_constraint constraints_pdir_pebs[];
extern const struct uarch_constraint constraints_icl_pebs[];
extern const struct uarch_constraint constraints_glc_pebs[];
extern const struct uarch_constraint constraints_pnc_pebs[];
extern const struct uarch_constraint constraints_arw_pebs[];
/* counting constraints (core.c) */
extern const struct uarch_constraint constraints_core2[];
extern const struct uarch_constraint constraints_nhm[];
extern const struct uarch_constraint constraints_wsm[];
extern const struct uarch_constraint constraints_snb[];
extern const struct uarch_constraint constraints_ivb[];
extern const struct uarch_constraint constraints_icl[];
extern const struct uarch_constraint constraints_glc[];
extern const struct uarch_constraint constraints_lnc[];
extern const struct uarch_constraint constraints_pnc[];
extern const struct uarch_constraint constraints_arw[];

/* The first row of table c that matches evtsel[15:0], NULL if none. */
const struct uarch_constraint *constraints_find(const struct uarch_constraint *c, uint16_t evtsel);

#endif
