// SPDX-License-Identifier: MIT
/*
 * constraints.c - Linux's counter constraints as data (constraints.h).
 * Each table names its Linux table; its rows are written with macros named
 * after Linux's (arch/x86/events/perf_event.h), the event and umask in one
 * code as there, and the event name Linux's comment gives, so that
 * `diff` against core.c / ds.c shows what is carried and what is not.
 * Rows for fixed counters (FIXED_EVENT_CONSTRAINT, METRIC_*) are not
 * carried: the plan places fixed-counter events by CPUID.0AH.  The first
 * matching row wins, as in Linux's walk of a table.
 */
#include "constraints.h"

/* clang-format off */
#define INTEL_EVENT_CONSTRAINT(c, n)		{ (c), true, (n), 0 }
#define INTEL_EVENT_CONSTRAINT_RANGE(c, e, n)	{ (c), true, (n), (e) }
#define INTEL_UEVENT_CONSTRAINT(c, n)		{ (c), false, (n), 0 }
#define INTEL_EXCLEVT_CONSTRAINT(c, n)		INTEL_EVENT_CONSTRAINT(c, n)
/* PEBS rows: the flags Linux matches besides the code change no placement. */
#define INTEL_FLAGS_EVENT_CONSTRAINT(c, n)	INTEL_EVENT_CONSTRAINT(c, n)
#define INTEL_FLAGS_UEVENT_CONSTRAINT(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
#define INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_LD(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
#define INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_ST(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
#define INTEL_FLAGS_EVENT_CONSTRAINT_DATALA_LD_RANGE(c, e, n)	INTEL_EVENT_CONSTRAINT_RANGE(c, e, n)
#define INTEL_HYBRID_LDLAT_CONSTRAINT(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
#define INTEL_HYBRID_STLAT_CONSTRAINT(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
#define INTEL_HYBRID_LAT_CONSTRAINT(c, n)	INTEL_UEVENT_CONSTRAINT(c, n)
/* A fixed-counter-only PEBS row (gp 0): the plan refuses it on GP counters. */
#define FIXED_ONLY_UEVENT_CONSTRAINT(c)		{ (c), false, 0, 0 }
#define EVENT_CONSTRAINT_END			{ 0, false, 0, 0 }

/* ---- PEBS constraints: ds.c ---- */

/* PDIR on PMC1: ds.c intel_snb/ivb/hsw/bdw/skl_pebs_event_constraints (SDM Vol. 3B 18.9.4.4) */
const struct uarch_constraint constraints_pdir_pebs[] = {
	INTEL_FLAGS_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PRECDIST */
	EVENT_CONSTRAINT_END
};

/* ds.c intel_icl_pebs_event_constraints: PREC_DIST on fixed counter 0 only */
const struct uarch_constraint constraints_icl_pebs[] = {
	FIXED_ONLY_UEVENT_CONSTRAINT(0x01c0),		/* old INST_RETIRED.PREC_DIST */
	EVENT_CONSTRAINT_END
};

/* ds.c intel_glc_pebs_event_constraints (the GP row pebsprobe uses) */
const struct uarch_constraint constraints_glc_pebs[] = {
	INTEL_FLAGS_EVENT_CONSTRAINT(0xc0, 0xfe),	/* INST_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/* ds.c intel_pnc_pebs_event_constraints (d345b6bb8860, Diamond Rapids, Nova Lake P-core) */
const struct uarch_constraint constraints_pnc_pebs[] = {
	INTEL_HYBRID_LDLAT_CONSTRAINT(0x1cd, 0xfc),
	INTEL_HYBRID_STLAT_CONSTRAINT(0x2cd, 0x3),
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_LD(0x11d0, 0xf),	/* MEM_INST_RETIRED.STLB_MISS_LOADS */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_ST(0x12d0, 0xf),	/* MEM_INST_RETIRED.STLB_MISS_STORES */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_LD(0x21d0, 0xf),	/* MEM_INST_RETIRED.LOCK_LOADS */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_LD(0x41d0, 0xf),	/* MEM_INST_RETIRED.SPLIT_LOADS */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_ST(0x42d0, 0xf),	/* MEM_INST_RETIRED.SPLIT_STORES */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_LD(0x81d0, 0xf),	/* MEM_INST_RETIRED.ALL_LOADS */
	INTEL_FLAGS_UEVENT_CONSTRAINT_DATALA_ST(0x82d0, 0xf),	/* MEM_INST_RETIRED.ALL_STORES */
	INTEL_FLAGS_EVENT_CONSTRAINT_DATALA_LD_RANGE(0xd1, 0xd4, 0xf),
	INTEL_FLAGS_EVENT_CONSTRAINT(0xd0, 0xf),
	INTEL_FLAGS_EVENT_CONSTRAINT(0xd6, 0xf),
	EVENT_CONSTRAINT_END
};

/* ds.c intel_arw_pebs_event_constraints (c847a208f43b, Nova Lake E-core) */
const struct uarch_constraint constraints_arw_pebs[] = {
	INTEL_HYBRID_LAT_CONSTRAINT(0x5d0, 0xff),
	INTEL_HYBRID_LAT_CONSTRAINT(0x6d0, 0xff),
	INTEL_FLAGS_UEVENT_CONSTRAINT(0x01d4, 0x1),
	INTEL_FLAGS_UEVENT_CONSTRAINT(0x02d4, 0x2),
	INTEL_FLAGS_UEVENT_CONSTRAINT(0x04d4, 0x4),
	INTEL_FLAGS_UEVENT_CONSTRAINT(0x08d4, 0x8),
	EVENT_CONSTRAINT_END
};

/* ---- counting constraints: core.c ---- */

/* core.c intel_core2_event_constraints (Core 2 has no perfmon file: these place every event) */
const struct uarch_constraint constraints_core2[] = {
	INTEL_EVENT_CONSTRAINT(0x10, 0x1),	/* FP_COMP_OPS_EXE */
	INTEL_EVENT_CONSTRAINT(0x11, 0x2),	/* FP_ASSIST */
	INTEL_EVENT_CONSTRAINT(0x12, 0x2),	/* MUL */
	INTEL_EVENT_CONSTRAINT(0x13, 0x2),	/* DIV */
	INTEL_EVENT_CONSTRAINT(0x14, 0x1),	/* CYCLES_DIV_BUSY */
	INTEL_EVENT_CONSTRAINT(0x18, 0x1),	/* IDLE_DURING_DIV */
	INTEL_EVENT_CONSTRAINT(0x19, 0x2),	/* DELAYED_BYPASS */
	INTEL_EVENT_CONSTRAINT(0xa1, 0x1),	/* RS_UOPS_DISPATCH_CYCLES */
	INTEL_EVENT_CONSTRAINT(0xc9, 0x1),	/* ITLB_MISS_RETIRED (T30-9) */
	INTEL_EVENT_CONSTRAINT(0xcb, 0x1),	/* MEM_LOAD_RETIRED */
	EVENT_CONSTRAINT_END
};

/* core.c intel_nehalem_event_constraints */
const struct uarch_constraint constraints_nhm[] = {
	INTEL_EVENT_CONSTRAINT(0x40, 0x3),	/* L1D_CACHE_LD */
	INTEL_EVENT_CONSTRAINT(0x41, 0x3),	/* L1D_CACHE_ST */
	INTEL_EVENT_CONSTRAINT(0x42, 0x3),	/* L1D_CACHE_LOCK */
	INTEL_EVENT_CONSTRAINT(0x43, 0x3),	/* L1D_ALL_REF */
	INTEL_EVENT_CONSTRAINT(0x48, 0x3),	/* L1D_PEND_MISS */
	INTEL_EVENT_CONSTRAINT(0x4e, 0x3),	/* L1D_PREFETCH */
	INTEL_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D */
	INTEL_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	EVENT_CONSTRAINT_END
};

/* core.c intel_westmere_event_constraints */
const struct uarch_constraint constraints_wsm[] = {
	INTEL_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D */
	INTEL_EVENT_CONSTRAINT(0x60, 0x1),	/* OFFCORE_REQUESTS_OUTSTANDING */
	INTEL_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	INTEL_EVENT_CONSTRAINT(0xb3, 0x1),	/* SNOOPQ_REQUEST_OUTSTANDING */
	EVENT_CONSTRAINT_END
};

/* core.c intel_snb_event_constraints */
const struct uarch_constraint constraints_snb[] = {
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	INTEL_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x06a3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	INTEL_EVENT_CONSTRAINT(0x48, 0x4),	/* L1D_PEND_MISS.PENDING */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EVENT_CONSTRAINT(0xcd, 0x8),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf),	/* MEM_LOAD_UOPS_LLC_MISS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/* core.c intel_ivb_event_constraints */
const struct uarch_constraint constraints_ivb[] = {
	INTEL_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	INTEL_UEVENT_CONSTRAINT(0x0279, 0xf),	/* IDQ.EMTPY */
	INTEL_UEVENT_CONSTRAINT(0x019c, 0xf),	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_LDM_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	INTEL_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x06a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_LDM_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	INTEL_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	INTEL_EXCLEVT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_LLC_HIT_RETIRED.* */
	INTEL_EXCLEVT_CONSTRAINT(0xd3, 0xf),	/* MEM_LOAD_UOPS_LLC_MISS_RETIRED.* */
	EVENT_CONSTRAINT_END
};

/*
 * core.c intel_icl_event_constraints, its GP rows (0x48-0x56: the ICL fix of
 * lore 20220525133952; the three CYCLE_ACTIVITY rows on any counter ahead of
 * 0xa3 on PMC0-3: the first match wins).
 */
const struct uarch_constraint constraints_icl[] = {
	INTEL_EVENT_CONSTRAINT_RANGE(0x03, 0x0a, 0xf),
	INTEL_EVENT_CONSTRAINT_RANGE(0x1f, 0x28, 0xf),
	INTEL_EVENT_CONSTRAINT(0x32, 0xf),	/* SW_PREFETCH_ACCESS.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0x48, 0x56, 0xf),
	INTEL_EVENT_CONSTRAINT_RANGE(0x60, 0x8b, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x04a3, 0xff),	/* CYCLE_ACTIVITY.STALLS_TOTAL */
	INTEL_UEVENT_CONSTRAINT(0x10a3, 0xff),	/* CYCLE_ACTIVITY.CYCLES_MEM_ANY */
	INTEL_UEVENT_CONSTRAINT(0x14a3, 0xff),	/* CYCLE_ACTIVITY.STALLS_MEM_ANY */
	INTEL_EVENT_CONSTRAINT(0xa3, 0xf),	/* CYCLE_ACTIVITY.* */
	INTEL_EVENT_CONSTRAINT_RANGE(0xa8, 0xb0, 0xf),
	INTEL_EVENT_CONSTRAINT_RANGE(0xb7, 0xbd, 0xf),
	INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xe6, 0xf),
	INTEL_EVENT_CONSTRAINT(0xef, 0xf),
	INTEL_EVENT_CONSTRAINT_RANGE(0xf0, 0xf4, 0xf),
	EVENT_CONSTRAINT_END
};

/*
 * core.c intel_glc_event_constraints, its GP rows: 0x2e and 0x3c on the 8 GP
 * counters, ahead of 0x01-0x8f on PMC0-3; three CYCLE_ACTIVITY umasks on
 * PMC0-3; 0x90-0xfe on the 8 GP counters after the rows above it.
 */
#define GLC_EVENT_CONSTRAINTS						\
	INTEL_EVENT_CONSTRAINT(0x2e, 0xff),				\
	INTEL_EVENT_CONSTRAINT(0x3c, 0xff),				\
	INTEL_EVENT_CONSTRAINT_RANGE(0x01, 0x8f, 0xf),			\
	INTEL_UEVENT_CONSTRAINT(0x01a3, 0xf),				\
	INTEL_UEVENT_CONSTRAINT(0x02a3, 0xf),				\
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0xf),				\
	INTEL_UEVENT_CONSTRAINT(0x04a4, 0x1),	/* TOPDOWN.BAD_SPEC_SLOTS */	\
	INTEL_UEVENT_CONSTRAINT(0x08a4, 0x1),	/* TOPDOWN.BR_MISPREDICT_SLOTS */ \
	INTEL_UEVENT_CONSTRAINT(0x02cd, 0x1),	/* MEM_TRANS_RETIRED.STORE_SAMPLE */ \
	INTEL_EVENT_CONSTRAINT(0xce, 0x1),	/* AMX_OPS_RETIRED */	\
	INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xdf, 0xf),			\
	INTEL_EVENT_CONSTRAINT_RANGE(0x90, 0xfe, 0xff)

const struct uarch_constraint constraints_glc[] = {
	GLC_EVENT_CONSTRAINTS,
	EVENT_CONSTRAINT_END
};

/*
 * core.c intel_lnc_event_constraints, its GP rows as of 782cffeec9ad
 * ("perf/x86/intel: Fix event constraints for LNC"), which dropped the
 * Golden Cove ranges (0x01-0x8f on PMC0-3, 0x90-0xfe) and 0xce for Lion
 * Cove's own rows: the first match wins.
 */
const struct uarch_constraint constraints_lnc[] = {
	INTEL_EVENT_CONSTRAINT(0x20, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x012a, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x012b, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x0148, 0x4),
	INTEL_UEVENT_CONSTRAINT(0x0175, 0x4),
	INTEL_EVENT_CONSTRAINT(0x2e, 0x3ff),
	INTEL_EVENT_CONSTRAINT(0x3c, 0x3ff),
	INTEL_UEVENT_CONSTRAINT(0x08a3, 0x4),
	INTEL_UEVENT_CONSTRAINT(0x0ca3, 0x4),
	INTEL_UEVENT_CONSTRAINT(0x04a4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x08a4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x10a4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x01b1, 0x8),
	INTEL_UEVENT_CONSTRAINT(0x01cd, 0x3fc),
	INTEL_UEVENT_CONSTRAINT(0x02cd, 0x3),
	INTEL_EVENT_CONSTRAINT_RANGE(0xd0, 0xdf, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x00e0, 0xf),
	EVENT_CONSTRAINT_END
};

/* core.c intel_pnc_event_constraints (d345b6bb8860: Diamond Rapids, Nova Lake P-core) */
const struct uarch_constraint constraints_pnc[] = {
	INTEL_EVENT_CONSTRAINT(0x20, 0xf),
	INTEL_EVENT_CONSTRAINT(0x79, 0xf),

	INTEL_UEVENT_CONSTRAINT(0x0275, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x0176, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x04a4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x08a4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x01cd, 0xfc),
	INTEL_UEVENT_CONSTRAINT(0x02cd, 0x3),

	INTEL_EVENT_CONSTRAINT(0xd0, 0xf),
	INTEL_EVENT_CONSTRAINT(0xd1, 0xf),
	INTEL_EVENT_CONSTRAINT(0xd4, 0xf),
	INTEL_EVENT_CONSTRAINT(0xd6, 0xf),
	INTEL_EVENT_CONSTRAINT(0xdf, 0xf),
	INTEL_EVENT_CONSTRAINT(0xce, 0x1),

	INTEL_UEVENT_CONSTRAINT(0x01b1, 0x8),
	INTEL_UEVENT_CONSTRAINT(0x0847, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x0446, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x0846, 0xf),
	INTEL_UEVENT_CONSTRAINT(0x0148, 0xf),
	EVENT_CONSTRAINT_END
};

/* core.c intel_arw_event_constraints (c847a208f43b, Nova Lake E-core) */
const struct uarch_constraint constraints_arw[] = {
	INTEL_UEVENT_CONSTRAINT(0x01b7, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x02b7, 0x2),
	INTEL_UEVENT_CONSTRAINT(0x04b7, 0x4),
	INTEL_UEVENT_CONSTRAINT(0x08b7, 0x8),
	INTEL_UEVENT_CONSTRAINT(0x01d4, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x02d4, 0x2),
	INTEL_UEVENT_CONSTRAINT(0x04d4, 0x4),
	INTEL_UEVENT_CONSTRAINT(0x08d4, 0x8),
	INTEL_UEVENT_CONSTRAINT(0x0175, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x0275, 0x2),
	INTEL_UEVENT_CONSTRAINT(0x21d3, 0x1),
	INTEL_UEVENT_CONSTRAINT(0x22d3, 0x1),
	EVENT_CONSTRAINT_END
};
/* clang-format on */

const struct uarch_constraint *constraints_find(const struct uarch_constraint *c, uint16_t evtsel)
{
	uint8_t ev = evtsel & 0xff;

	for (; c && (c->gp || c->code); c++) {
		if (!c->any_umask && evtsel == c->code)
			return c;
		if (c->any_umask && (ev == c->code || (c->last && ev > c->code && ev <= c->last)))
			return c;
	}
	return NULL;
}
