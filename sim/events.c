// SPDX-License-Identifier: MIT
/*
 * events.c - EVTSEL event/umask to what the simulated core counts, one table
 * per event dialect.  Only the events pebsprobe samples or counts are here;
 * an unknown encoding counts nothing (a real part would count something
 * else, which no test can rely on either).
 *
 * Sources: SDM Vol. 3B PEBS event tables (Core 2 Table 18-10 "PEBS
 * Performance Events for Intel Core Microarchitecture"; Nehalem 18.8.1.2
 * load latency MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD; Sandy Bridge Table
 * 18-32 and 18.9.4.2/18.9.4.3; Haswell Table 18-45 (18.11.3 "PEBS Data
 * Address Profiling"); Goldmont Table 18-19 "Precise Events Supported by
 * the Goldmont Microarchitecture"; Silvermont offcore, 18.6.3), and the
 * counter constraints of Linux ds.c's *_pebs_event_constraints.  The
 * load-block counting events (LD_BLOCKS.STORE_FORWARD 0x0203,
 * LD_BLOCKS_PARTIAL.ADDRESS_ALIAS 0x0107) are those of the SDM Vol. 3B
 * event lists for Sandy Bridge to Ice Lake, 0x8203 and 0x0403 from Golden
 * Cove on (COVE_BLOCK_EVENTS); Goldmont's LD_BLOCKS sub-events are precise
 * (Table 18-19).
 */
#include "sim_int.h"

/* The event tables are laid out for reading. */
/* clang-format off */
#define SIM_EVENT(code, cnt, pebs, name)             { code, cnt, pebs, 0, 0, name }
#define EVX(code, umask2, cnt, pebs, name)    { code, cnt, pebs, 0, umask2, name }
#define EVO(code, rsp, name)                  { code, CNT_OFFCORE, PEBS_NO, rsp, 0, name }

/* Architectural events (SDM 18.2.1.2, Table 18-1), in every Intel dialect. */
#define ARCH_EVENTS                                                                   \
	SIM_EVENT(0x003c, CNT_CYCLES, PEBS_NO, "CPU_CLK_UNHALTED.CORE_P"),                   \
	SIM_EVENT(0x013c, CNT_REF_CYCLES, PEBS_NO, "CPU_CLK_UNHALTED.REF_P")

/* Core 2: PEBS events of SDM Table 18-10, PMC0 only (enforced by PEBS_ENABLE). */
static const struct sim_event core2_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x01cb, CNT_L1_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1D_MISS"),
	SIM_EVENT(0x02cb, CNT_L1_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1D_LINE_MISS"),
	SIM_EVENT(0x04cb, CNT_L2_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_MISS"),
	SIM_EVENT(0x08cb, CNT_L2_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_LINE_MISS"),
	SIM_EVENT(0x10cb, CNT_DTLB_MISS_LOADS, PEBS_PRECISE, "MEM_LOAD_RETIRED.DTLB_MISS"),
};

/* Nehalem: SDM 18.8.1 (load latency 0x100B; MEM_LOAD_RETIRED 0xCB). */
static const struct sim_event nhm_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x01c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x010b, CNT_LOADS, PEBS_PRECISE, "MEM_INST_RETIRED.LOADS"),
	SIM_EVENT(0x020b, CNT_STORES, PEBS_PRECISE, "MEM_INST_RETIRED.STORES"),
	SIM_EVENT(0x100b, CNT_LDLAT, PEBS_LDLAT, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD"),
	SIM_EVENT(0x01cb, CNT_L1_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1D_HIT"),
	SIM_EVENT(0x02cb, CNT_L2_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_HIT"),
	SIM_EVENT(0x04cb, CNT_L3_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L3_UNSHARED_HIT"),
	SIM_EVENT(0x10cb, CNT_L3_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.LLC_MISS"),
	SIM_EVENT(0x40cb, CNT_FB_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.HIT_LFB"),
	SIM_EVENT(0x80cb, CNT_DTLB_MISS_LOADS, PEBS_PRECISE, "MEM_LOAD_RETIRED.DTLB_MISS"),
	EVO(0x01b7, 0, "OFFCORE_RESPONSE_0"),
};

/* Big-core memory instruction events (0xD0), Sandy Bridge .. Coyote Cove. */
#define BIG_MEM_INST_EVENTS                                                                   \
	SIM_EVENT(0x11d0, CNT_STLB_MISS_LOADS, PEBS_PRECISE, "MEM_INST_RETIRED.STLB_MISS_LOADS"),    \
	SIM_EVENT(0x12d0, CNT_STLB_MISS_STORES, PEBS_PRECISE, "MEM_INST_RETIRED.STLB_MISS_STORES"), \
	SIM_EVENT(0x21d0, CNT_LOCK_LOADS, PEBS_PRECISE, "MEM_INST_RETIRED.LOCK_LOADS"),             \
	SIM_EVENT(0x41d0, CNT_SPLIT_LOADS, PEBS_PRECISE, "MEM_INST_RETIRED.SPLIT_LOADS"),           \
	SIM_EVENT(0x42d0, CNT_SPLIT_STORES, PEBS_PRECISE, "MEM_INST_RETIRED.SPLIT_STORES"),         \
	SIM_EVENT(0x81d0, CNT_LOADS, PEBS_PRECISE, "MEM_INST_RETIRED.ALL_LOADS"),                   \
	SIM_EVENT(0x82d0, CNT_STORES, PEBS_PRECISE, "MEM_INST_RETIRED.ALL_STORES")

/* Offcore responses, Sandy Bridge .. Lion Cove. */
#define BIG_OFFCORE_RSP_EVENTS                                                                \
	EVO(0x01b7, 0, "OFFCORE_RESPONSE_0"),                                                \
	EVO(0x01bb, 1, "OFFCORE_RESPONSE_1")

/* Load blocks, Sandy Bridge .. Ice Lake (their perfmon files). */
#define BIG_BLOCK_OFFCORE_EVENTS                                                              \
	SIM_EVENT(0x0203, CNT_STLF_BLOCK, PEBS_NO, "LD_BLOCKS.STORE_FORWARD"),                     \
	SIM_EVENT(0x0107, CNT_4K_ALIAS, PEBS_NO, "LD_BLOCKS_PARTIAL.ADDRESS_ALIAS"),                \
	BIG_OFFCORE_RSP_EVENTS

/*
 * Load blocks from Golden Cove on: LD_BLOCKS.STORE_FORWARD is 0x03/0x82 and
 * LD_BLOCKS.ADDRESS_ALIAS 0x03/0x04 (SPR/events/sapphirerapids_core.json,
 * ADL/events/alderlake_goldencove_core.json, LNL/events/
 * lunarlake_lioncove_core.json, PTL/events/pantherlake_cougarcove_core.json,
 * NVL/events/novalake_coyotecove_core.json); 0x0203 and 0x0107 have no row
 * there and count nothing here.  Linux programs 0x8203 as mem-loads-aux
 * beside load latency (core.c PMU_FL_MEM_LOADS_AUX): it counts what perfmon
 * says, loads whose store forwarding was blocked.
 */
#define COVE_BLOCK_EVENTS                                                                     \
	SIM_EVENT(0x8203, CNT_STLF_BLOCK, PEBS_NO, "LD_BLOCKS.STORE_FORWARD (mem-loads-aux)"),     \
	SIM_EVENT(0x0403, CNT_4K_ALIAS, PEBS_NO, "LD_BLOCKS.ADDRESS_ALIAS")

/* MEM_LOAD_RETIRED (0xD1) below the PMU v6 cores: no UMaskExt. */
#define BIG_MEM_LOAD_HITS                                                                     \
	SIM_EVENT(0x02d1, CNT_L2_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_HIT"),                     \
	SIM_EVENT(0x04d1, CNT_L3_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L3_HIT"),                     \
	SIM_EVENT(0x08d1, CNT_L1_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1_MISS"),                   \
	SIM_EVENT(0x10d1, CNT_L2_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_MISS"),                   \
	SIM_EVENT(0x20d1, CNT_L3_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L3_MISS"),                   \
	SIM_EVENT(0x40d1, CNT_FB_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.FB_HIT")

#define BIG_MEM_EVENTS                                                                        \
	BIG_MEM_INST_EVENTS,                                                                  \
	BIG_BLOCK_OFFCORE_EVENTS,                                                             \
	BIG_MEM_LOADS

#define BIG_MEM_LOADS                                                                         \
	SIM_EVENT(0x01d1, CNT_L1_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1_HIT"),                     \
	BIG_MEM_LOAD_HITS

/*
 * OFFCORE_REQUESTS.DEMAND_DATA_RD (0x01B0) and OFFCORE_REQUESTS_OUTSTANDING.
 * DEMAND_DATA_RD (0x0160), Sandy Bridge .. Skylake (SDM Vol. 3B event lists;
 * perfmon SNB..SKL files): requests that miss L2 and the cycles they are
 * outstanding, summed over requests.  Not PEBS events.
 */
#define BIG_OFFCORE_REQ_EVENTS                                                                 \
	SIM_EVENT(0x01b0, CNT_OFFCORE_REQ, PEBS_NO, "OFFCORE_REQUESTS.DEMAND_DATA_RD"),               \
	SIM_EVENT(0x0160, CNT_OFFCORE_OUTST, PEBS_NO, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD")

/*
 * Sandy Bridge: PDIR on PMC1 only (18.9.4.4), precise store on PMC3 only
 * (18.9.4.3).  INST_RETIRED.ANY_P (0x00C0) counts but is no PEBS event on
 * SNB..SKL: the PEBS event tables list INST_RETIRED only as PREC_DIST
 * (0x01C0; SDM Table 18-32; perfmon SNB..SKL files: PEBS 0 for ANY_P).
 */
static const struct sim_event snb_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_NO, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x01c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.PREC_DIST"),
	SIM_EVENT(0x01cd, CNT_LDLAT, PEBS_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY"),
	SIM_EVENT(0x02cd, CNT_PST, PEBS_PST, "MEM_TRANS_RETIRED.PRECISE_STORE"),
	BIG_MEM_EVENTS,
	BIG_OFFCORE_REQ_EVENTS,
};

/* Haswell, Skylake: DataLA replaces precise store (SDM 18.11.3). */
#define HSW_EVENTS                                                                   \
	ARCH_EVENTS,                                                                 \
	SIM_EVENT(0x00c0, CNT_INST, PEBS_NO, "INST_RETIRED.ANY_P"),                         \
	SIM_EVENT(0x01c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.PREC_DIST"),         \
	SIM_EVENT(0x01cd, CNT_LDLAT, PEBS_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY"),        \
	BIG_MEM_EVENTS,                                                              \
	BIG_OFFCORE_REQ_EVENTS

static const struct sim_event hsw_ev[] = {
	HSW_EVENTS,
};

/*
 * Skylake adds FRONTEND_RETIRED (0x01C6) with MSR_PEBS_FRONTEND, a PEBS event
 * (SDM Skylake precise-event list; SKL/events/skylake_core.json PEBS 1).  The
 * simulated core has no front end (no instruction cache, iTLB or DSB): no
 * retirement is ever tagged, so it counts 0 and makes no record.
 */
static const struct sim_event skl_ev[] = {
	HSW_EVENTS,
	SIM_EVENT(0x01c6, CNT_NONE, PEBS_PRECISE, "FRONTEND_RETIRED"),
};

/* Ice Lake server: PEBS on any counter with baseline (Linux ds.c intel_icl_pebs_event_constraints). */
static const struct sim_event icx_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x01cd, CNT_LDLAT, PEBS_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY"),
	BIG_MEM_EVENTS,
	/* Ice Lake keeps 0x01B0/0x0160 (ICX/events/icelakex_core.json; SDM Vol. 3B Ice Lake events). */
	BIG_OFFCORE_REQ_EVENTS,
};

/* Golden Cove and later P-cores: instructions, load latency, store latency (0xCD/0x02). */
#define COVE_PEBS_EVENTS                                                                     \
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),                            \
	SIM_EVENT(0x01cd, CNT_LDLAT, PEBS_LDLAT, "MEM_TRANS_RETIRED.LOAD_LATENCY"),                 \
	SIM_EVENT(0x02cd, CNT_STLAT, PEBS_STLAT, "MEM_TRANS_RETIRED.STORE_SAMPLE")

/*
 * Golden Cove moved them to 0x0121 / 0x0120 (SPR/events/sapphirerapids_core.json;
 * the same in LNL/events/lunarlake_lioncove_core.json).
 */
#define COVE_OFFCORE_REQ_EVENTS                                                              \
	SIM_EVENT(0x0121, CNT_OFFCORE_REQ, PEBS_NO, "OFFCORE_REQUESTS.DEMAND_DATA_RD"),              \
	SIM_EVENT(0x0120, CNT_OFFCORE_OUTST, PEBS_NO, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD")

/*
 * Golden Cove (SPR, ADL P-core): INST_RETIRED and load latency not on PMC0,
 * store latency on PMC0 only (Linux ds.c intel_glc_pebs_event_constraints); mem-loads-aux
 * 0x8203 (core.c PMU_FL_MEM_LOADS_AUX) is COVE_BLOCK_EVENTS' LD_BLOCKS.STORE_FORWARD.
 */
static const struct sim_event glc_ev[] = {
	ARCH_EVENTS,
	COVE_PEBS_EVENTS,
	COVE_BLOCK_EVENTS,
	COVE_OFFCORE_REQ_EVENTS,
	BIG_MEM_INST_EVENTS,
	BIG_OFFCORE_RSP_EVENTS,
	BIG_MEM_LOADS,
};

/*
 * Lion Cove, Cougar Cove, Panther Cove: the Golden Cove events
 * without mem-loads-aux (Linux sets PMU_FL_MEM_LOADS_AUX for SPR/EMR and
 * the Golden Cove hybrids only); where each may count comes from the part's
 * perfmon file (placement.c).
 */
static const struct sim_event lnc_ev[] = {
	ARCH_EVENTS,
	COVE_PEBS_EVENTS,
	COVE_OFFCORE_REQ_EVENTS,
	BIG_MEM_INST_EVENTS,
	COVE_BLOCK_EVENTS,
	BIG_OFFCORE_RSP_EVENTS,
	/*
	 * UMASK2 is part of the event (LNL/events/lunarlake_lioncove_core.json,
	 * PTL/events/pantherlake_cougarcove_core.json): 0xD1/0x01 with UMaskExt 1
	 * is MEM_LOAD_RETIRED.L1_HIT; with UMaskExt 0 it is L1_HIT_L0, a level
	 * this model does not keep apart, so that encoding counts nothing here.
	 */
	EVX(0x01d1, 0x01, CNT_L1_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1_HIT"),
	BIG_MEM_LOAD_HITS,
};

/*
 * Coyote Cove (NVL/events/novalake_coyotecove_core.json) renumbered
 * MEM_LOAD_RETIRED: L1_HIT 0x06, FB_HIT 0x08, L1_MISS 0x10, L2_MISS umask 0
 * with UMaskExt 0x80; no L3 events.  L1_HIT_L0/_L1 and L2_HIT_LOCAL are
 * levels this model does not keep apart: they count nothing here.  The file
 * lists no OFFCORE_REQUESTS or OFFCORE_RESPONSE events; its LD_BLOCKS are
 * the Golden Cove encodings.
 */
static const struct sim_event cyc_ev[] = {
	ARCH_EVENTS,
	COVE_PEBS_EVENTS,
	COVE_BLOCK_EVENTS,
	BIG_MEM_INST_EVENTS,
	SIM_EVENT(0x06d1, CNT_L1_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1_HIT"),
	SIM_EVENT(0x08d1, CNT_FB_HIT, PEBS_PRECISE, "MEM_LOAD_RETIRED.FB_HIT"),
	SIM_EVENT(0x10d1, CNT_L1_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L1_MISS"),
	EVX(0x00d1, 0x80, CNT_L2_MISS, PEBS_PRECISE, "MEM_LOAD_RETIRED.L2_MISS"),
};

/* Silvermont: MEM_UOPS_RETIRED 0x04, offcore 0xB7 umask 1/2 (SDM 18.6.2, 18.6.3). */
static const struct sim_event slm_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x0104, CNT_L1_MISS, PEBS_PRECISE, "MEM_UOPS_RETIRED.L1_MISS_LOADS"),
	SIM_EVENT(0x0204, CNT_L2_HIT, PEBS_PRECISE, "MEM_UOPS_RETIRED.L2_HIT_LOADS"),
	SIM_EVENT(0x0404, CNT_L2_MISS, PEBS_PRECISE, "MEM_UOPS_RETIRED.L2_MISS_LOADS"),
	SIM_EVENT(0x0804, CNT_DTLB_MISS_LOADS, PEBS_PRECISE, "MEM_UOPS_RETIRED.DTLB_MISS_LOADS"),
	SIM_EVENT(0x4004, CNT_LOADS, PEBS_NO, "MEM_UOPS_RETIRED.ALL_LOADS"),
	SIM_EVENT(0x8004, CNT_STORES, PEBS_NO, "MEM_UOPS_RETIRED.ALL_STORES"),
	EVO(0x01b7, 0, "OFFCORE_RESPONSE_0"),
	EVO(0x02b7, 1, "OFFCORE_RESPONSE_1"),
};

/* Atom memory events of Goldmont and later (0xD0/0xD1). */
#define ATOM_MEM_EVENTS                                                                        \
	SIM_EVENT(0x11d0, CNT_STLB_MISS_LOADS, PEBS_PRECISE, "MEM_UOPS_RETIRED.DTLB_MISS_LOADS"),    \
	SIM_EVENT(0x12d0, CNT_STLB_MISS_STORES, PEBS_PRECISE, "MEM_UOPS_RETIRED.DTLB_MISS_STORES"), \
	SIM_EVENT(0x21d0, CNT_LOCK_LOADS, PEBS_PRECISE, "MEM_UOPS_RETIRED.LOCK_LOADS"),             \
	SIM_EVENT(0x41d0, CNT_SPLIT_LOADS, PEBS_PRECISE, "MEM_UOPS_RETIRED.SPLIT_LOADS"),           \
	SIM_EVENT(0x42d0, CNT_SPLIT_STORES, PEBS_PRECISE, "MEM_UOPS_RETIRED.SPLIT_STORES"),         \
	SIM_EVENT(0x81d0, CNT_LOADS, PEBS_PRECISE, "MEM_UOPS_RETIRED.ALL_LOADS"),                   \
	SIM_EVENT(0x82d0, CNT_STORES, PEBS_PRECISE, "MEM_UOPS_RETIRED.ALL_STORES"),                 \
	SIM_EVENT(0x01d1, CNT_L1_HIT, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L1_HIT"),                \
	SIM_EVENT(0x02d1, CNT_L2_HIT, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L2_HIT"),                \
	SIM_EVENT(0x08d1, CNT_L1_MISS, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L1_MISS"),              \
	SIM_EVENT(0x10d1, CNT_L2_MISS, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L2_MISS"),              \
	SIM_EVENT(0x80d1, CNT_DRAM_HIT, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.DRAM_HIT"),            \
	SIM_EVENT(0x0203, CNT_STLF_BLOCK, PEBS_PRECISE, "LD_BLOCKS.STORE_FORWARD"),                 \
	SIM_EVENT(0x0403, CNT_4K_ALIAS, PEBS_PRECISE, "LD_BLOCKS.4K_ALIAS"),                        \
	EVO(0x01b7, 0, "OFFCORE_RESPONSE_0"),                                                \
	EVO(0x02b7, 1, "OFFCORE_RESPONSE_1")

/* Goldmont: Table 18-19 precise events; CORE_P cycles is non-precise (SDM 18.7.1). */
static const struct sim_event glm_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY"),
	SIM_EVENT(0x00c2, CNT_INST, PEBS_PRECISE, "UOPS_RETIRED.ANY"),
	ATOM_MEM_EVENTS,
};

/*
 * Tremont: every event may PEBS (Linux core.c intel_pmu_init Tremont case,
 * PMU_FL_PEBS_ALL); no load- or store-latency event (SNR/events/
 * snowridgex_core.json and EHL/events/elkhartlake_core.json have no
 * MSR_PEBS_LD_LAT event).  Encodings as those files name them.
 */
static const struct sim_event tnt_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x04d1, CNT_L3_HIT, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L3_HIT"),
	ATOM_MEM_EVENTS,
};

/* Gracemont (ADL E-core) and the arch-PEBS E-core: load/store latency 0x5D0/0x6D0. */
static const struct sim_event grt_ev[] = {
	ARCH_EVENTS,
	SIM_EVENT(0x00c0, CNT_INST, PEBS_PRECISE, "INST_RETIRED.ANY_P"),
	SIM_EVENT(0x05d0, CNT_LDLAT, PEBS_LDLAT, "MEM_UOPS_RETIRED.LOAD_LATENCY"),
	SIM_EVENT(0x06d0, CNT_STLAT, PEBS_STLAT, "MEM_UOPS_RETIRED.STORE_LATENCY"),
	SIM_EVENT(0x04d1, CNT_L3_HIT, PEBS_PRECISE, "MEM_LOAD_UOPS_RETIRED.L3_HIT"),
	ATOM_MEM_EVENTS,
};

#define TABLE(name, arr) const struct sim_event_table name = { arr, ARRAY_SIZE(arr) }
TABLE(sim_events_core2, core2_ev);
TABLE(sim_events_nhm, nhm_ev);
TABLE(sim_events_snb, snb_ev);
TABLE(sim_events_hsw, hsw_ev);
TABLE(sim_events_skl, skl_ev);
TABLE(sim_events_icx, icx_ev);
TABLE(sim_events_glc, glc_ev);
TABLE(sim_events_lnc, lnc_ev);
TABLE(sim_events_cyc, cyc_ev);
TABLE(sim_events_slm, slm_ev);
TABLE(sim_events_glm, glm_ev);
TABLE(sim_events_tnt, tnt_ev);
TABLE(sim_events_grt, grt_ev);

/* clang-format on */

const struct sim_event *sim_event_decode(const struct sim_model *m, uint64_t evtsel)
{
	uint16_t code = evtsel & 0xffff;
	uint8_t umask2 = (evtsel >> 40) & 0xff; /* zero where CPUID.23H.0:EBX[0] is clear (msr.c) */
	size_t i;

	if (!m->events)
		return NULL;
	for (i = 0; i < m->events->n; i++)
		if (m->events->ev[i].code == code && m->events->ev[i].umask2 == umask2)
			return &m->events->ev[i];
	return NULL;
}

/* OFFCORE_RESPONSE: demand data reads (request bit 0) that left the core's L2. */
static uint64_t offcore_increment(const struct sim_cpu *c, unsigned int rsp,
				  const struct sim_access *a)
{
	uint64_t cfg = c->offcore[rsp];

	if (!(a->kind & HW_LOAD) || a->level < LVL_L3 || !(cfg & 1))
		return 0;
	/*
	 * SDM Vol. 3B 18.6.3 "Average Offcore Request Latency Measurement": bit 38 counts weighted
	 * cycles of the outstanding requests: each request adds the cycles it is outstanding, its
	 * load latency here.
	 */
	if (rsp == 0 && (c->m->flags & F_OFFCORE_AVG) && (cfg & BIT_ULL(38)))
		return a->latency;
	return (cfg & GENMASK_ULL(37, 16)) ? 1 : 0;
}

static bool is_load(const struct sim_access *a)
{
	return a->kind & HW_LOAD;
}

static bool is_store(const struct sim_access *a)
{
	return a->kind & HW_STORE;
}

uint64_t sim_event_increment(const struct sim_cpu *c, const struct sim_event *e,
			     const struct sim_access *a)
{
	switch (e->count) {
	case CNT_LOADS:
		return is_load(a);
	case CNT_STORES:
	case CNT_PST:
	case CNT_STLAT:
		return is_store(a);
	case CNT_LOCK_LOADS:
		return is_load(a) && (a->kind & HW_LOCKED);
	case CNT_SPLIT_LOADS:
		return is_load(a) && a->split;
	case CNT_SPLIT_STORES:
		return is_store(a) && a->split;
	case CNT_STLB_MISS_LOADS:
		return is_load(a) && a->stlb_miss;
	case CNT_STLB_MISS_STORES:
		return is_store(a) && a->stlb_miss;
	case CNT_DTLB_MISS_LOADS:
		return is_load(a) && a->dtlb_miss;
	case CNT_L1_HIT:
		return is_load(a) && a->level == LVL_L1;
	case CNT_FB_HIT:
		return is_load(a) && a->level == LVL_LFB;
	case CNT_L2_HIT:
		return is_load(a) && a->level == LVL_L2;
	case CNT_L3_HIT:
		return is_load(a) && a->level == LVL_L3;
	case CNT_L1_MISS:
		return is_load(a) && a->level >= LVL_L2;
	case CNT_L2_MISS:
		return is_load(a) && a->level >= LVL_L3;
	case CNT_L3_MISS:
	case CNT_DRAM_HIT:
		return is_load(a) && a->level == LVL_DRAM;
	case CNT_STLF_BLOCK:
		return is_load(a) && a->data_blk;
	case CNT_4K_ALIAS:
		return is_load(a) && a->addr_blk;
	case CNT_LDLAT:
		/* SDM 18.9.4.2: loads with latency greater than the threshold. */
		return is_load(a) && a->ldlat > (c->ld_lat & 0xffff);
	case CNT_OFFCORE:
		return offcore_increment(c, e->arg, a);
	case CNT_OFFCORE_REQ:
		/* a demand data read that misses L2 goes to the uncore: one request */
		return is_load(a) && a->level >= LVL_L3;
	case CNT_OFFCORE_OUTST:
		/* summed over cycles: each such request is outstanding for its latency */
		return (is_load(a) && a->level >= LVL_L3) ? a->latency : 0;
	default:
		return 0;
	}
}
