// SPDX-License-Identifier: MIT
/*
 * constraints.c - where an event may count and be a PEBS event on a part
 * whose perfmon file has no row for it (or which has no file): Linux's
 * constraint tables, the simulator's own copy (docs/SIM.md: it never reads
 * pmu/constraints.c, the plan's).  What the hardware does outside them is
 * what placement.c says for a perfmon row: outside its counting row the
 * count is wrong (nothing), a PEBS event outside its PEBS row writes no
 * records, a latency event outside its row writes records without latency
 * or data source.  Rows written as Linux writes them (event and umask in
 * one code), so they diff against arch/x86/events/intel/core.c and ds.c.
 */
#include "sim_int.h"

struct sim_cons {
	uint16_t code; /* evtsel[15:0], or the event code alone up to `last` (any) */
	bool any, lat;
	uint8_t last;
	uint32_t gp;
	const char *name;
};

/* clang-format off */
#define UEV(c, n, nm)		{ (c), false, false, 0, (n), (nm) }
#define SIM_CONS_EVENT(c, n, nm)		{ (c), true, false, 0, (n), (nm) }
#define EV_RANGE(c, e, n, nm)	{ (c), true, false, (e), (n), (nm) }
#define LAT(c, n, nm)		{ (c), false, true, 0, (n), (nm) }
#define END			{ 0, false, false, 0, 0, NULL }

/* ds.c intel_pnc_pebs_event_constraints (d345b6bb8860) */
static const struct sim_cons pnc_pebs[] = {
	LAT(0x01cd, 0xfc, "0x1cd (INTEL_HYBRID_LDLAT_CONSTRAINT)"),
	LAT(0x02cd, 0x3, "0x2cd (INTEL_HYBRID_STLAT_CONSTRAINT)"),
	UEV(0x11d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_LOADS"),
	UEV(0x12d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_STORES"),
	UEV(0x21d0, 0xf, "MEM_INST_RETIRED.LOCK_LOADS"),
	UEV(0x41d0, 0xf, "MEM_INST_RETIRED.SPLIT_LOADS"),
	UEV(0x42d0, 0xf, "MEM_INST_RETIRED.SPLIT_STORES"),
	UEV(0x81d0, 0xf, "MEM_INST_RETIRED.ALL_LOADS"),
	UEV(0x82d0, 0xf, "MEM_INST_RETIRED.ALL_STORES"),
	EV_RANGE(0xd1, 0xd4, 0xf, "0xd1-0xd4"),
	SIM_CONS_EVENT(0xd0, 0xf, "0xd0"),
	SIM_CONS_EVENT(0xd6, 0xf, "0xd6"),
	END
};

/* core.c intel_pnc_event_constraints (d345b6bb8860) */
static const struct sim_cons pnc_count[] = {
	SIM_CONS_EVENT(0x20, 0xf, "0x20"),
	SIM_CONS_EVENT(0x79, 0xf, "0x79"),
	UEV(0x0275, 0xf, "0x0275"),
	UEV(0x0176, 0xf, "0x0176"),
	UEV(0x04a4, 0x1, "0x04a4"),
	UEV(0x08a4, 0x1, "0x08a4"),
	UEV(0x01cd, 0xfc, "0x01cd"),
	UEV(0x02cd, 0x3, "0x02cd"),
	SIM_CONS_EVENT(0xd0, 0xf, "0xd0"),
	SIM_CONS_EVENT(0xd1, 0xf, "0xd1"),
	SIM_CONS_EVENT(0xd4, 0xf, "0xd4"),
	SIM_CONS_EVENT(0xd6, 0xf, "0xd6"),
	SIM_CONS_EVENT(0xdf, 0xf, "0xdf"),
	SIM_CONS_EVENT(0xce, 0x1, "0xce"),
	UEV(0x01b1, 0x8, "0x01b1"),
	UEV(0x0847, 0xf, "0x0847"),
	UEV(0x0446, 0xf, "0x0446"),
	UEV(0x0846, 0xf, "0x0846"),
	UEV(0x0148, 0xf, "0x0148"),
	END
};

/* ds.c intel_arw_pebs_event_constraints (c847a208f43b) */
static const struct sim_cons arw_pebs[] = {
	LAT(0x05d0, 0xff, "0x5d0 (INTEL_HYBRID_LAT_CONSTRAINT)"),
	LAT(0x06d0, 0xff, "0x6d0 (INTEL_HYBRID_LAT_CONSTRAINT)"),
	UEV(0x01d4, 0x1, "0x01d4"),
	UEV(0x02d4, 0x2, "0x02d4"),
	UEV(0x04d4, 0x4, "0x04d4"),
	UEV(0x08d4, 0x8, "0x08d4"),
	END
};

/* core.c intel_arw_event_constraints (c847a208f43b) */
static const struct sim_cons arw_count[] = {
	UEV(0x01b7, 0x1, "0x01b7"),
	UEV(0x02b7, 0x2, "0x02b7"),
	UEV(0x04b7, 0x4, "0x04b7"),
	UEV(0x08b7, 0x8, "0x08b7"),
	UEV(0x01d4, 0x1, "0x01d4"),
	UEV(0x02d4, 0x2, "0x02d4"),
	UEV(0x04d4, 0x4, "0x04d4"),
	UEV(0x08d4, 0x8, "0x08d4"),
	UEV(0x0175, 0x1, "0x0175"),
	UEV(0x0275, 0x2, "0x0275"),
	UEV(0x21d3, 0x1, "0x21d3"),
	UEV(0x22d3, 0x1, "0x22d3"),
	END
};

/*
 * ds.c intel_icl_pebs_event_constraints (the GP rows; PREC_DIST and SLOTS
 * are fixed-counter rows): everything else as counted (PMU_FL_PEBS_ALL).
 */
static const struct sim_cons icl_pebs[] = {
	LAT(0x01cd, 0xff, "0x1cd (INTEL_PLD_CONSTRAINT)"),
	UEV(0x11d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_LOADS"),
	UEV(0x12d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_STORES"),
	UEV(0x21d0, 0xf, "MEM_INST_RETIRED.LOCK_LOADS"),
	UEV(0x41d0, 0xf, "MEM_INST_RETIRED.SPLIT_LOADS"),
	UEV(0x42d0, 0xf, "MEM_INST_RETIRED.SPLIT_STORES"),
	UEV(0x81d0, 0xf, "MEM_INST_RETIRED.ALL_LOADS"),
	UEV(0x82d0, 0xf, "MEM_INST_RETIRED.ALL_STORES"),
	EV_RANGE(0xd1, 0xd4, 0xf, "0xd1-0xd4"),
	SIM_CONS_EVENT(0xd0, 0xf, "0xd0"),
	END
};

/* core.c intel_icl_event_constraints, the GP rows (the first match wins) */
static const struct sim_cons icl_count[] = {
	EV_RANGE(0x03, 0x0a, 0xf, "0x03-0x0a"),
	EV_RANGE(0x1f, 0x28, 0xf, "0x1f-0x28"),
	SIM_CONS_EVENT(0x32, 0xf, "SW_PREFETCH_ACCESS.*"),
	EV_RANGE(0x48, 0x56, 0xf, "0x48-0x56"),
	EV_RANGE(0x60, 0x8b, 0xf, "0x60-0x8b"),
	UEV(0x04a3, 0xff, "CYCLE_ACTIVITY.STALLS_TOTAL"),
	UEV(0x10a3, 0xff, "CYCLE_ACTIVITY.CYCLES_MEM_ANY"),
	UEV(0x14a3, 0xff, "CYCLE_ACTIVITY.STALLS_MEM_ANY"),
	SIM_CONS_EVENT(0xa3, 0xf, "CYCLE_ACTIVITY.*"),
	EV_RANGE(0xa8, 0xb0, 0xf, "0xa8-0xb0"),
	EV_RANGE(0xb7, 0xbd, 0xf, "0xb7-0xbd"),
	EV_RANGE(0xd0, 0xe6, 0xf, "0xd0-0xe6"),
	SIM_CONS_EVENT(0xef, 0xf, "0xef"),
	EV_RANGE(0xf0, 0xf4, 0xf, "0xf0-0xf4"),
	END
};

/* ds.c intel_glc_pebs_event_constraints, the GP rows */
static const struct sim_cons glc_pebs[] = {
	SIM_CONS_EVENT(0xc0, 0xfe, "INST_RETIRED.*"),
	LAT(0x01cd, 0xfe, "0x1cd (INTEL_PLD_CONSTRAINT)"),
	LAT(0x02cd, 0x1, "0x2cd (INTEL_PSD_CONSTRAINT)"),
	UEV(0x11d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_LOADS"),
	UEV(0x12d0, 0xf, "MEM_INST_RETIRED.STLB_MISS_STORES"),
	UEV(0x21d0, 0xf, "MEM_INST_RETIRED.LOCK_LOADS"),
	UEV(0x41d0, 0xf, "MEM_INST_RETIRED.SPLIT_LOADS"),
	UEV(0x42d0, 0xf, "MEM_INST_RETIRED.SPLIT_STORES"),
	UEV(0x81d0, 0xf, "MEM_INST_RETIRED.ALL_LOADS"),
	UEV(0x82d0, 0xf, "MEM_INST_RETIRED.ALL_STORES"),
	EV_RANGE(0xd1, 0xd4, 0xf, "0xd1-0xd4"),
	SIM_CONS_EVENT(0xd0, 0xf, "0xd0"),
	END
};

/* core.c intel_glc_event_constraints, the GP rows (the first match wins) */
static const struct sim_cons glc_count[] = {
	SIM_CONS_EVENT(0x2e, 0xff, "0x2e"),
	SIM_CONS_EVENT(0x3c, 0xff, "0x3c"),
	EV_RANGE(0x01, 0x8f, 0xf, "0x01-0x8f"),
	UEV(0x01a3, 0xf, "0x01a3"),
	UEV(0x02a3, 0xf, "0x02a3"),
	UEV(0x08a3, 0xf, "0x08a3"),
	UEV(0x04a4, 0x1, "0x04a4"),
	UEV(0x08a4, 0x1, "0x08a4"),
	UEV(0x02cd, 0x1, "0x02cd"),
	SIM_CONS_EVENT(0xce, 0x1, "0xce"),
	EV_RANGE(0xd0, 0xdf, 0xf, "0xd0-0xdf"),
	EV_RANGE(0x90, 0xfe, 0xff, "0x90-0xfe"),
	END
};

/* core.c intel_core2_event_constraints (Core 2: no perfmon file) */
static const struct sim_cons core2_count[] = {
	SIM_CONS_EVENT(0x10, 0x1, "FP_COMP_OPS_EXE"),
	SIM_CONS_EVENT(0x11, 0x2, "FP_ASSIST"),
	SIM_CONS_EVENT(0x12, 0x2, "MUL"),
	SIM_CONS_EVENT(0x13, 0x2, "DIV"),
	SIM_CONS_EVENT(0x14, 0x1, "CYCLES_DIV_BUSY"),
	SIM_CONS_EVENT(0x18, 0x1, "IDLE_DURING_DIV"),
	SIM_CONS_EVENT(0x19, 0x2, "DELAYED_BYPASS"),
	SIM_CONS_EVENT(0xa1, 0x1, "RS_UOPS_DISPATCH_CYCLES"),
	SIM_CONS_EVENT(0xc9, 0x1, "ITLB_MISS_RETIRED"),
	SIM_CONS_EVENT(0xcb, 0x1, "MEM_LOAD_RETIRED"),
	END
};
/* clang-format on */

/*
 * The simulated core rows whose perfmon coverage is missing or partial, and
 * where pebsprobe places an encoding its perfmon file lacks by Linux's
 * tables (pmu/constraints.c): Ice Lake and Golden Cove too.
 */
static const struct {
	const char *model;
	const struct sim_cons *pebs, *count;
	const char *pebs_src, *count_src;
} sim_cons_models[] = {
    {"dmr", pnc_pebs, pnc_count, "Linux ds.c intel_pnc_pebs_event_constraints",
     "Linux core.c intel_pnc_event_constraints"},
    {"nvl-p", pnc_pebs, pnc_count, "Linux ds.c intel_pnc_pebs_event_constraints",
     "Linux core.c intel_pnc_event_constraints"},
    {"nvl-e", arw_pebs, arw_count, "Linux ds.c intel_arw_pebs_event_constraints",
     "Linux core.c intel_arw_event_constraints"},
    {"core2", NULL, core2_count, NULL, "Linux core.c intel_core2_event_constraints"},
    {"icx", icl_pebs, icl_count, "Linux ds.c intel_icl_pebs_event_constraints",
     "Linux core.c intel_icl_event_constraints"},
    {"spr", glc_pebs, glc_count, "Linux ds.c intel_glc_pebs_event_constraints",
     "Linux core.c intel_glc_event_constraints"},
    {"gnr", glc_pebs, glc_count, "Linux ds.c intel_glc_pebs_event_constraints",
     "Linux core.c intel_glc_event_constraints"},
    {"adl-p", glc_pebs, glc_count, "Linux ds.c intel_glc_pebs_event_constraints",
     "Linux core.c intel_glc_event_constraints"},
};

static const struct sim_cons *find(const struct sim_cons *t, uint16_t code)
{
	uint8_t ev = code & 0xff;

	for (; t && t->name; t++) {
		if (!t->any && t->code == code)
			return t;
		if (t->any && (ev == t->code || (t->last && ev > t->code && ev <= t->last)))
			return t;
	}
	return NULL;
}

bool sim_cons_place(const struct sim_cpu *c, uint16_t code, struct sim_place *pl)
{
	const struct sim_cons *pr, *cr;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sim_cons_models); i++) {
		if (strcmp(c->m->info.name, sim_cons_models[i].model))
			continue;
		pr = find(sim_cons_models[i].pebs, code);
		cr = find(sim_cons_models[i].count, code);
		if (!pr && !cr)
			return false;
		pl->known = true;
		pl->name = pr ? pr->name : cr->name;
		pl->count_gp = cr ? cr->gp : 0xffffffffu;
		/* No PEBS row: every counter the event counts on (Linux PMU_FL_PEBS_ALL). */
		pl->pebs_gp = pr ? pr->gp : pl->count_gp;
		pl->ldlat = pr && pr->lat;
		pl->src = pr ? sim_cons_models[i].pebs_src : sim_cons_models[i].count_src;
		return true;
	}
	return false;
}
