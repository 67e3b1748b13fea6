// SPDX-License-Identifier: MIT
/*
 * uarch_table.c - the generation table.  One row per enum pebs_uarch; each
 * row names its sources: ds.c and core.c are Linux's
 * arch/x86/events/intel/ds.c (the *_pebs_event_constraints tables) and
 * core.c (event constraints, extra regs, quirks); SDM is Intel's SDM Vol. 3B.
 */
#include "uarch.h"

#define UA_EVENT(event, umask) ((uint16_t)((event) | ((umask) << 8)))

/* Writable PEBS_FRONTEND bits, core.c *_extra_regs. */
#define FE_SKL 0x7fff17ULL /* core.c intel_skl_extra_regs / icl */
#define FE_GLC 0x7fff1fULL /* intel_glc_extra_regs */

/*
 * The kernels' counted events (enum uarch_count) by perfmon EventName; each
 * resolves in the file of every model of the generation (test_pmu_uarch).
 * SNB..BDW: MEM_UOPS_RETIRED (SNB/events/sandybridge_core.json,
 * HSW/events/haswell_core.json, ...); SKL..ICX: MEM_INST_RETIRED
 * (SKL/events/skylake_core.json, ICX/events/icelakex_core.json, ...).
 * Golden Cove and Lion Cove: their files (SPR/events/sapphirerapids_core.json,
 * ADL/events/alderlake_goldencove_core.json, LNL/events/
 * lunarlake_lioncove_core.json) have LD_BLOCKS.ADDRESS_ALIAS (0x03/0x04)
 * instead of LD_BLOCKS_PARTIAL.ADDRESS_ALIAS, and LD_BLOCKS.STORE_FORWARD
 * is 0x03/0x82 there, the encoding Linux also programs as mem-loads-aux
 * beside load latency (core.c PMU_FL_MEM_LOADS_AUX); the names resolve to
 * those encodings in each file.
 */
#define COUNT_EV(split, stfwd, alias)                                                              \
	{                                                                                          \
		[UA_COUNT_SPLIT_LOADS] = split ".SPLIT_LOADS",                                     \
		[UA_COUNT_SPLIT_STORES] = split ".SPLIT_STORES", [UA_COUNT_STFWD_BLOCK] = stfwd,   \
		[UA_COUNT_4K_ALIAS] = alias                                                        \
	}
#define COUNT_SNB                                                                                  \
	COUNT_EV("MEM_UOPS_RETIRED", "LD_BLOCKS.STORE_FORWARD", "LD_BLOCKS_PARTIAL.ADDRESS_ALIAS")
#define COUNT_SKL                                                                                  \
	COUNT_EV("MEM_INST_RETIRED", "LD_BLOCKS.STORE_FORWARD", "LD_BLOCKS_PARTIAL.ADDRESS_ALIAS")
#define COUNT_GLC COUNT_EV("MEM_INST_RETIRED", "LD_BLOCKS.STORE_FORWARD", "LD_BLOCKS.ADDRESS_ALIAS")

/*
 * Where no SDM sentence says it for a generation, Linux's PEBS constraint
 * tables do: their INTEL_FLAGS_* / INTEL_ALL_EVENT_CONSTRAINT entries match
 * the event with the X86_ALL_EVENT_FLAGS bits (Edge, Invert, CMask,
 * AnyThread, ...; arch/x86/include/asm/perf_event.h) zero, and ds.c
 * intel_pebs_constraints gives an event no entry matches no counter
 * (emptyconstraint) unless PMU_FL_PEBS_ALL.
 */
#define FLAGS_LINUX(tbl) "Linux ds.c " tbl " (matched with X86_ALL_EVENT_FLAGS zero)"

/* What the verdicts judge in the data source of the big cores from Sandy Bridge. */
#define JUDGE_SNB UA_JUDGE_LOCK_TLB
#define JUDGE_HSW (UA_JUDGE_LOCK_TLB | UA_JUDGE_HITM)
#define JUDGE_GLC (UA_JUDGE_LOCK_TLB | UA_JUDGE_HITM | UA_JUDGE_BLK)

/*
 * Shared by SNB and IVB: SDM Vol. 3B 18.9.4 "PEBS Support in Intel
 * Microarchitecture Code Name Sandy Bridge" (PMC0-3), 18.9.4.2 "Load Latency
 * Performance Monitoring Facility" (no other PEBS event beside it), 18.9.4.3
 * "Precise Store Facility" (PMC3 only); ds.c snb/ivb constraints.
 */
#define SNB_ROW(u, nm, ocr, cc)                                                                    \
	{                                                                                          \
		.uarch = (u), .name = nm, .fmt = 1,                                                \
		.source = "SDM Vol. 3B 18.9.4.2-18.9.4.4; ds.c intel_snb_pebs_event_constraints "  \
			  "(ld-lat 0x1cd and precise store 0x2cd on PMC3, PREC_DIST on PMC1)",     \
		.flags = UA_LDLAT | UA_LDLAT_ALONE | UA_PRECISE_STORE | JUDGE_SNB,                 \
		.layout = PEBS_EN_LAYOUT_LL_EN, .pebs_gp = 0xf, .ldlat_gp = 0x8, .store_gp = 0x8,  \
		.pdist_gp = 0x2, .min_period = 32, .ldlat_event = UA_EVENT(0xcd, 0x01),            \
		.store_event = UA_EVENT(0xcd, 0x02), .cons = constraints_pdir_pebs,                \
		.inst_event = UA_EVENT(0xc0, 0x01), .offcore_valid = {ocr, ocr}, .count_cons = cc, \
		.pmi_ack = PMI_ACK_EARLY /* core.c: no late_ack before Haswell */,                 \
		.dsrc = DSRC_SNB, .count_ev = COUNT_SNB,                                           \
		.pebs_flags_src = "SDM Vol. 3B 18.9.4 NOTE"                                        \
	}

/*
 * Haswell..Skylake-SP: DataLA, SDM Vol. 3B 18.11.3 "PEBS Data Address
 * Profiling" (Table 18-45), the record of Table 18-44.
 */
#define HSW_ROW(u, nm, f, extra, ds, cnt, fl)                                                      \
	{                                                                                          \
		.uarch = (u), .name = nm, .fmt = f,                                                \
		.source =                                                                          \
		    "SDM Vol. 3B 18.11 (record Table 18-44, DataLA Table 18-45); ds.c "            \
		    "hsw/bdw/skl "                                                                 \
		    "constraints (ld-lat 0x1cd on PMC0-3, PREC_DIST on PMC1); core.c HSW11/BDM11", \
		.flags = UA_LDLAT | UA_DATALA | UA_INST_RETIRED_128 | UA_GLOBAL_STATUS_SET |       \
			 JUDGE_HSW | (extra),                                                      \
		.layout = PEBS_EN_LAYOUT_LL_EN, .pebs_gp = 0xf, .ldlat_gp = 0xf, .pdist_gp = 0x2,  \
		.min_period = 32, .ldlat_event = UA_EVENT(0xcd, 0x01),                             \
		.datala_load_event = UA_EVENT(0xd0, 0x81),                                         \
		.datala_store_event = UA_EVENT(0xd0, 0x82), .cons = constraints_pdir_pebs,         \
		.inst_event = UA_EVENT(0xc0, 0x01),                                                \
		.offcore_valid = {0x3fffff8fffULL, 0x3fffff8fffULL},                               \
		.frontend_valid = ((extra)&UA_FRONTEND) ? FE_SKL : 0, .dsrc = (ds),                \
		.count_ev = cnt, .pebs_flags_src = fl                                              \
	}

/* Golden Cove class (SPR/EMR/GNR, ADL/MTL P-cores, LNL): ds.c intel_glc_pebs_event_constraints. */
#define GLC_ROW(u, nm, f, extra, ldl, ocr, cc, ds)                                                 \
	{                                                                                          \
		.uarch = (u), .name = nm, .fmt = f,                                                \
		.source =                                                                          \
		    "ds.c intel_glc_pebs_event_constraints (ld-lat 0x1cd on 0xfe, store "          \
		    "latency 0x2cd "                                                               \
		    "on PMC0); core.c PMU_FL_MEM_LOADS_AUX (0x8203), limit_period; SDM 20.9 "      \
		    "adaptive PEBS",                                                               \
		.flags = UA_LDLAT | UA_DATALA | UA_STLAT | UA_FRONTEND | UA_GLOBAL_STATUS_SET |    \
			 JUDGE_GLC | (extra),                                                      \
		.layout = PEBS_EN_LAYOUT_FIXED, .pebs_gp = 0xff, .pebs_fixed = 0xf,                \
		.ldlat_gp = (ldl), .store_gp = 0x1, .pdist_gp = 0x1, .pdist_fixed = 0x1,           \
		.min_period = 32, .ldlat_event = UA_EVENT(0xcd, 0x01),                             \
		.store_event = UA_EVENT(0xcd, 0x02), .datala_load_event = UA_EVENT(0xd0, 0x81),    \
		.datala_store_event = UA_EVENT(0xd0, 0x82),                                        \
		.aux_event = ((extra)&UA_MEM_LOADS_AUX) ? UA_EVENT(0x03, 0x82) : 0,                \
		.cons = constraints_glc_pebs, .inst_event = 0x00c0, .offcore_valid = {ocr, ocr},   \
		.frontend_valid = FE_GLC, .count_cons = (cc), .dsrc = (ds), .count_ev = COUNT_GLC  \
	}

/*
 * Panther Cove class (DMR; NVL P-core): constraints_pnc_pebs and
 * constraints_pnc (pmu/constraints.c) place its events; ldlat_gp and
 * store_gp are those tables' latency rows.
 */
#define PNC_ROW(u, nm, extra)                                                                      \
	{                                                                                          \
		.uarch = (u), .name = nm, .fmt = -1,                                               \
		.source = "ds.c intel_pnc_pebs_event_constraints (d345b6bb8860); core.c "          \
			  "intel_pmu_init_pnc",                                                    \
		.flags = UA_LDLAT | UA_DATALA | UA_STLAT | UA_GLOBAL_STATUS_SET | UA_JUDGE_HITM |  \
			 (extra),                                                                  \
		.layout = PEBS_EN_LAYOUT_FIXED, .pebs_gp = 0xff, .pebs_fixed = 0xf,                \
		.ldlat_gp = 0xfc, .store_gp = 0x3, .pdist_fixed = 0x1, .min_period = 32,           \
		.ldlat_event = UA_EVENT(0xcd, 0x01), .store_event = UA_EVENT(0xcd, 0x02),          \
		.datala_load_event = UA_EVENT(0xd0, 0x81),                                         \
		.datala_store_event = UA_EVENT(0xd0, 0x82), .cons = constraints_pnc_pebs,          \
		.count_cons = constraints_pnc, .inst_event = 0x00c0, .dsrc = DSRC_PNC              \
	}

// clang-format off
static const struct uarch_info uarch_table[] = {
    {.uarch = UARCH_CORE2,
     .name = "Core 2",
     .fmt = 0,
     .source = "ds.c intel_core2_pebs_event_constraints (PMC0 only); ds.c 1-page buffer "
	       "(GLOBAL_CTRL hang); core.c intel_core2_event_constraints (counting)",
     .flags = UA_ONE_PAGE_BUFFER,
     .layout = PEBS_EN_LAYOUT_LL_EN,
     .pebs_gp = 0x1,
     .min_period = 1,
     .inst_event = 0x00c0,
     .pmi_ack = PMI_ACK_EARLY, /* core.c: early ack before Haswell */
     .dsrc = DSRC_NA /* fmt0 records have no data-source field (ds.c pebs_record_core) */,
     .pebs_flags_src = FLAGS_LINUX("intel_core2_pebs_event_constraints"),
     .count_cons = constraints_core2},
    {.uarch = UARCH_NHM,
     .name = "Nehalem",
     .fmt = 1,
     .source = "SDM 18.8.1 (PEBS on PMC0-3, load latency 0x100b, Fig. 18-25 LL_EN); "
	       "ds.c intel_nehalem_pebs_event_constraints; core.c nhm_limit_period (min 32)",
     .flags = UA_LDLAT | UA_LDLAT_ALONE,
     .layout = PEBS_EN_LAYOUT_LL_EN,
     .pebs_gp = 0xf,
     .ldlat_gp = 0xf,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0x0b, 0x10),
     .inst_event = 0x00c0,
     .offcore_valid = {0xffff, 0}, /* intel_nehalem_extra_regs */
     .count_cons = constraints_nhm,
     .pmi_ack = PMI_ACK_EARLY,
     .dsrc = DSRC_NHM /* core.c intel_pmu_init NEHALEM: pebs_no_tlb */,
     .pebs_flags_src = FLAGS_LINUX("intel_nehalem_pebs_event_constraints")},
    {.uarch = UARCH_WSM,
     .name = "Westmere",
     .fmt = 1,
     .source = "SDM 18.8.1 (as Nehalem); ds.c intel_westmere_pebs_event_constraints",
     .flags = UA_LDLAT | UA_LDLAT_ALONE,
     .layout = PEBS_EN_LAYOUT_LL_EN,
     .pebs_gp = 0xf,
     .ldlat_gp = 0xf,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0x0b, 0x10),
     /* WSM-EP-SP/events/WestmereEP-SP_core.json: INST_RETIRED.ANY_P is umask 0x01, PEBS 1 */
     .inst_event = UA_EVENT(0xc0, 0x01),
     .offcore_valid = {0xffff, 0xffff},
     .count_cons = constraints_wsm,
     .pmi_ack = PMI_ACK_EARLY,
     .dsrc = DSRC_WSM /* core.c intel_pmu_init WESTMERE: the NHM table, TLB and lock bits */,
     .pebs_flags_src = FLAGS_LINUX("intel_westmere_pebs_event_constraints")},
    /* OFFCORE_RSPx: intel_snb_extra_regs; the -EP models differ, per model in pmu/extra_regs.c */
    SNB_ROW(UARCH_SNB, "Sandy Bridge", 0x3f807f8fffULL,
	    constraints_snb),
    SNB_ROW(UARCH_IVB, "Ivy Bridge", 0x3f807f8fffULL, constraints_ivb),
    HSW_ROW(UARCH_HSW, "Haswell", 2, 0, DSRC_SNB, COUNT_SNB, "SDM Vol. 3B 18.11.1 NOTE"),
    HSW_ROW(UARCH_BDW, "Broadwell", 2, 0, DSRC_SNB, COUNT_SNB,
	    FLAGS_LINUX("intel_bdw_pebs_event_constraints")),
    /* data source: ds.c __intel_pmu_pebs_data_source_skl(pmem=false) for clients */
    HSW_ROW(UARCH_SKL, "Skylake", 3, UA_FRONTEND, DSRC_SKL, COUNT_SKL, "SDM Vol. 3B 18.13.1 NOTES"),
    /* core.c intel_pmu_init SKYLAKE_X: pmem = true */
    HSW_ROW(UARCH_SKX, "Skylake-SP", 3, UA_FRONTEND, DSRC_SKX, COUNT_SKL,
	    "SDM Vol. 3B 18.13.1 NOTES"),
    {.uarch = UARCH_ICL,
     .name = "Ice Lake",
     .fmt = 4,
     .source =
	 "ds.c intel_icl_pebs_event_constraints (PEBS_ALL, ld-lat 0x1cd on 0xff, "
	 "PREC_DIST on fixed 0); SDM 20.9 adaptive PEBS; Linux perf_event.h ICL_EVENTSEL_ADAPTIVE",
     .flags = UA_LDLAT | UA_DATALA | UA_FRONTEND | UA_GLOBAL_STATUS_SET | JUDGE_HSW,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0xff,
     .pebs_fixed = 0xf,
     .ldlat_gp = 0xff,
     .pdist_fixed = 0x1,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xcd, 0x01),
     .datala_load_event = UA_EVENT(0xd0, 0x81),
     .datala_store_event = UA_EVENT(0xd0, 0x82),
     .cons = constraints_icl_pebs,
     .inst_event = 0x00c0,

     .offcore_valid = {0x3fffffbfffULL, 0x3fffffbfffULL},
     .frontend_valid = FE_SKL,
     .count_cons = constraints_icl,
     .dsrc = DSRC_SKL /* ds.c _skl(pmem = false) */,
     .count_ev = COUNT_SKL},
    {.uarch = UARCH_ICX,
     .name = "Ice Lake-SP",
     .fmt = 4,
     .source = "as Ice Lake (ds.c intel_icl_pebs_event_constraints)",
     .flags = UA_LDLAT | UA_DATALA | UA_FRONTEND | UA_GLOBAL_STATUS_SET | JUDGE_HSW,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0xff,
     .pebs_fixed = 0xf,
     .ldlat_gp = 0xff,
     .pdist_fixed = 0x1,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xcd, 0x01),
     .datala_load_event = UA_EVENT(0xd0, 0x81),
     .datala_store_event = UA_EVENT(0xd0, 0x82),
     .cons = constraints_icl_pebs,
     .inst_event = 0x00c0,

     .offcore_valid = {0x3fffffbfffULL, 0x3fffffbfffULL},
     .frontend_valid = FE_SKL,
     .count_cons = constraints_icl,
     .dsrc = DSRC_SKX /* core.c intel_pmu_init ICELAKE_X: pmem = true */,
     .count_ev = COUNT_SKL},
    /* intel_glc_extra_regs: OFFCORE_RSP 0x3fffffffff */
    /* data source: core.c intel_pmu_init SAPPHIRERAPIDS_X/EMERALDRAPIDS_X/GRANITERAPIDS_X:
       _skl(pmem = true), pebs_block */
    GLC_ROW(UARCH_SPR, "Sapphire Rapids", 5, UA_MEM_LOADS_AUX, 0xfe, 0x3fffffffffULL,
	    constraints_glc, DSRC_SPR),
    GLC_ROW(UARCH_EMR, "Emerald Rapids", 5, UA_MEM_LOADS_AUX, 0xfe, 0x3fffffffffULL,
	    constraints_glc, DSRC_SPR),
    /* core.c: PMU_FL_MEM_LOADS_AUX only for SPR/EMR, not GNR */
    GLC_ROW(UARCH_GNR, "Granite Rapids", 5, 0, 0xfe, 0x3fffffffffULL, constraints_glc, DSRC_SPR),
    /* data source: ds.c intel_pmu_pebs_data_source_adl/_mtl, P-core: _skl(false), pebs_block */
    GLC_ROW(UARCH_GLC, "Golden Cove (hybrid P-core)", 4, UA_MEM_LOADS_AUX | UA_HYBRID, 0xfe,
	    0x3fffffffffULL, constraints_glc, DSRC_ADL),
    {.uarch = UARCH_GRT,
     .name = "Gracemont (hybrid E-core)",
     .fmt = 4,
     .source = "ds.c intel_grt_pebs_event_constraints (LAT events: loads 0x5d0 on PMC0-1, "
	       "stores 0x6d0 on PMC0-3)",
     .flags =
	 UA_LDLAT | UA_STLAT | UA_HYBRID | UA_GLOBAL_STATUS_SET | UA_JUDGE_LOCK_TLB | UA_JUDGE_HITM,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0x3f,
     .pebs_fixed = 0x7,
     .ldlat_gp = 0x3,
     .store_gp = 0xf,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xd0, 0x05),
     .store_event = UA_EVENT(0xd0, 0x06),
     .inst_event = 0x00c0,

     .offcore_valid = {0x3fffffffffULL, 0x3fffffffffULL}, /* intel_grt_extra_regs */
     .pmi_ack = PMI_ACK_MID /* core.c intel_pmu_init_grt: mid_ack */,
     .dsrc = DSRC_GRT /* ds.c intel_pmu_pebs_data_source_adl, E-core: __grt */},
    {.uarch = UARCH_CMT,
     .name = "Crestmont (E-core)",
     .fmt = 5,
     .source = "ds.c intel_grt_pebs_event_constraints (Crestmont reuses them); fmt unverified",
     .flags = UA_LDLAT | UA_STLAT | UA_GLOBAL_STATUS_SET | UA_JUDGE_LOCK_TLB | UA_JUDGE_HITM,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0xff,
     .pebs_fixed = 0x7,
     .ldlat_gp = 0x3,
     .store_gp = 0xf,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xd0, 0x05),
     .store_event = UA_EVENT(0xd0, 0x06),
     .inst_event = 0x00c0,

     /*
      * core.c intel_cmt_extra_regs: MSR_OFFCORE_RSP_0 0x800ff3ffffffffff,
      * MSR_OFFCORE_RSP_1 0xff3ffffffffff - bit 63 exists in RSP0 only
      */
     .offcore_valid = {0x800ff3ffffffffffULL, 0xff3ffffffffffULL},
     .pmi_ack = PMI_ACK_MID /* intel_pmu_init_grt */,
     .dsrc = DSRC_CMT /* ds.c intel_pmu_pebs_data_source_mtl, E-core: __cmt */},
    /* ds.c intel_lnc_pebs_event_constraints: ld-lat 0x1cd on 0x3fc; intel_lnc_extra_regs */
    /* data source: ds.c lnl_latency_data -> lnc_latency_data, lnc_pebs_data_source */
    GLC_ROW(UARCH_LNC, "Lion Cove (P-core)", 6, UA_HYBRID, 0x3fc, 0xfffffffffffULL, constraints_lnc,
	    DSRC_LNC),
    /*
     * Cougar Cove (Panther Lake, Wildcat Lake P-core; perfmon mapfile 6-CC, 6-D5,
     * 6-E5 Core: pantherlake_cougarcove_core.json): core.c intel_pmu_init
     * PANTHERLAKE_L / WILDCATLAKE_L "goto lnl_common", Lion Cove's code path
     * with only the name changed, so Lion Cove's facts under its own name.
     */
    GLC_ROW(UARCH_CGC, "Cougar Cove (P-core)", 6, UA_HYBRID, 0x3fc, 0xfffffffffffULL,
	    constraints_lnc, DSRC_LNC),
    {.uarch = UARCH_GLM,
     .name = "Goldmont",
     .fmt = 3,
     .source = "SDM Vol. 3B 18.7.1 \"Processor Event Based Sampling (PEBS)\" (Goldmont: PEBS "
	       "on PMC0 for all events, precise and non-precise, GLOBAL_STATUS_SET); SDM Vol. 3B "
	       "18.6.3 \"Average Offcore Request Latency Measurement\" and Table 18-17",
     .flags = UA_NONPRECISE_PEBS | UA_OFFCORE_AVG_LAT | UA_GLOBAL_STATUS_SET,
     .layout = PEBS_EN_LAYOUT_LL_EN,
     .pebs_gp = 0x1,
     .min_period = 1,
     .nonprecise_event = UA_EVENT(0x3c, 0x00),
     /*
      * Neither load latency nor DataLA, but PEBS for every event and a data
      * linear address in the record (SDM 18.7.1.1): ALL_LOADS / ALL_STORES,
      * 0xD0/0x81 and 0xD0/0x82 (GLM/events/goldmont_core.json, and
      * GLP/events/goldmontplus_core.json for 06_7A), records without a data
      * source.  Silvermont has no row: its fmt2 records carry no address.
      */
     .mem_load_name = "MEM_UOPS_RETIRED.ALL_LOADS",
     .mem_store_name = "MEM_UOPS_RETIRED.ALL_STORES",
     .inst_event = 0x00c0,

     /* intel_glm_extra_regs: bit 31 (SNP_NONE) and request bit 6 not writable */
     .offcore_valid = {0x760005ffbfULL, 0x360005ffbfULL},
     .pmi_ack = PMI_ACK_EARLY /* core.c: Goldmont (Plus) sets neither late_ack nor mid_ack */,
     .dsrc = DSRC_RESERVED /* SDM 18.7.1.1: data source and latency reserved */,
     /*
      * Goldmont; Linux sets PMU_FL_PEBS_ALL for Goldmont Plus (core.c
      * intel_pmu_init GOLDMONT_PLUS), which shares this row: refused there too.
      */
     .pebs_flags_src = FLAGS_LINUX("intel_glm_pebs_event_constraints")},
    {.uarch = UARCH_SLM,
     .name = "Silvermont",
     .fmt = 2,
     .source = "ds.c intel_slm_pebs_event_constraints (PMC0 only); SDM Vol. 3B 18.6.3 "
	       "(offcore average latency); fmt unverified",
     .flags = UA_OFFCORE_AVG_LAT,
     .layout = PEBS_EN_LAYOUT_LL_EN,
     .pebs_gp = 0x1,
     .min_period = 1,
     .inst_event = 0x00c0,

     .offcore_valid = {0x768005ffffULL, 0x368005ffffULL}, /* intel_slm_extra_regs */
     .pmi_ack = PMI_ACK_EARLY,
     .dsrc = DSRC_NA /* no load-latency facility */,
     .pebs_flags_src = FLAGS_LINUX("intel_slm_pebs_event_constraints")},
    /*
     * The decoders' newest cores.  Only the PEBS constraints below are from a
     * source; the record format (arch-PEBS or not) comes from the CPU, and the
     * OFFCORE_RESPONSE MSRs are replaced by OMR ones (PMU_FL_HAS_OMR), which
     * this table does not describe: offcore_valid stays 0.
     */
    /* data source: core.c INTEL_DIAMONDRAPIDS_X: intel_pmu_init_pnc, pnc_latency_data */
    PNC_ROW(UARCH_PNC, "Panther Cove", 0),
    /* data source: ds.c nvl_latency_data -> pnc_latency_data (7cd264d1972d, c847a208f43b) */
    PNC_ROW(UARCH_CYC, "Coyote Cove (hybrid P-core)", UA_HYBRID),
    {.uarch = UARCH_ARW,
     .name = "Arctic Wolf (hybrid E-core)",
     .fmt = -1,
     .source = "ds.c intel_arw_pebs_event_constraints (c847a208f43b: LAT events 0x5d0 and "
	       "0x6d0 on 0xff, 0x01d4..0x08d4 on one counter each); core.c intel_pmu_init_arw",
     .flags = UA_LDLAT | UA_STLAT | UA_HYBRID | UA_GLOBAL_STATUS_SET | UA_JUDGE_HITM,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0xff,
     .pebs_fixed = 0x7,
     .ldlat_gp = 0xff,
     .store_gp = 0xff,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xd0, 0x05),
     .store_event = UA_EVENT(0xd0, 0x06),
     .cons = constraints_arw_pebs,
     .count_cons = constraints_arw,
     .inst_event = 0x00c0,
     .pmi_ack = PMI_ACK_MID /* core.c intel_pmu_init_hybrid: mid_ack on small cores */,
     /* core.c INTEL_NOVALAKE(_L) small core: intel_pmu_init_arw; ds.c nvl_latency_data ->
	arw_latency_data */
     .dsrc = DSRC_ARW},
    {.uarch = UARCH_DKM,
     .name = "Darkmont (E-core)",
     .fmt = -1,
     .source = "core.c INTEL_ATOM_DARKMONT_X: intel_pmu_init_skt (grt PEBS constraints: "
	       "loads 0x5d0 on PMC0-1, stores 0x6d0 on PMC0-3), cmt_latency_data",
     .flags = UA_LDLAT | UA_STLAT | UA_GLOBAL_STATUS_SET | UA_JUDGE_HITM,
     .layout = PEBS_EN_LAYOUT_FIXED,
     .pebs_gp = 0xff,
     .pebs_fixed = 0x7,
     .ldlat_gp = 0x3,
     .store_gp = 0xf,
     .min_period = 32,
     .ldlat_event = UA_EVENT(0xd0, 0x05),
     .store_event = UA_EVENT(0xd0, 0x06),
     .inst_event = 0x00c0,
     /*
      * intel_pmu_init_skt: extra_regs = intel_cmt_extra_regs (bit 63 in
      * RSP0 only); perfmon PTL/pantherlake_darkmont_core.json and
      * CWF/clearwaterforest_core.json name OCR.* on MSRIndex 0x1a6,0x1a7
      */
     .offcore_valid = {0x800ff3ffffffffffULL, 0xff3ffffffffffULL},
     .pmi_ack = PMI_ACK_MID /* intel_pmu_init_skt -> intel_pmu_init_grt */,
     /* core.c INTEL_ATOM_DARKMONT_X (intel_pmu_init_skt) and INTEL_PANTHERLAKE_L
	(lnl_latency_data, small core -> cmt_latency_data) */
     .dsrc = DSRC_CMT},
    /*
     * Tremont (Snow Ridge, Elkhart Lake, Jasper Lake, Lakefield's E-cores):
     * core.c intel_pmu_init's Tremont case (PMU_FL_PEBS_ALL: every event may
     * PEBS on every counter; intel_tnt_extra_regs); ds.c intel_ds_init PEBS
     * format 4 with baseline.  No load-latency event in SNR/events/
     * snowridgex_core.json or EHL/events/elkhartlake_core.json.
     */
    {
	.uarch = UARCH_TNT,
	.name = "Tremont",
	.fmt = 4,
	.source = "core.c intel_pmu_init Tremont (PMU_FL_PEBS_ALL, intel_tnt_extra_regs); "
		  "SNR/EHL perfmon files",
	.flags = UA_GLOBAL_STATUS_SET,
	.layout = PEBS_EN_LAYOUT_FIXED,
	.pebs_gp = 0xf,
	.pebs_fixed = 0x7,
	.min_period = 1,
	/*
	 * Loads and stores sampled as on Goldmont, by name: Data_LA 1 in
	 * EHL/events/elkhartlake_core.json and SNR/events/snowridgex_core.json;
	 * the address comes in the memory-info group, no data source.
	 */
	.mem_load_name = "MEM_UOPS_RETIRED.ALL_LOADS",
	.mem_store_name = "MEM_UOPS_RETIRED.ALL_STORES",
	.inst_event = 0x00c0,
	.offcore_valid = {0x800ff0ffffff9fffULL, 0xff0ffffff9fffULL},
	.pmi_ack = PMI_ACK_LATE /* core.c intel_pmu_init's Tremont case sets late_ack */,
	.dsrc = DSRC_NA, /* no load-latency facility (no MSR_PEBS_LD_LAT event in its files) */
    },
};
// clang-format on

/*
 * A model the table does not know but which enumerates architectural PEBS
 * (CPUID.23H with PEBS_FMT 0xF): counters and groups come from CPUID; the
 * latency events depend on the core type (CPUID.1AH): E-cores 0x05d0 /
 * 0x06d0 (ds.c intel_grt_pebs_event_constraints), P-cores 0x01cd / 0x02cd
 * (ds.c glc/lnc constraints); a non-hybrid part by its model (uarch_models_core_kind,
 * pmu/cpu.c).  Otherwise no
 * latency event is guessed.  No data-source table (the arch-PEBS series, Linux
 * commit d21954c8a0ff "perf/x86/intel: Process arch-PEBS records or record
 * fragments", decodes none).
 */
#define ARCH_PEBS_ROW(nm, fl, ld, st, ocr, ack)                                                    \
	{                                                                                          \
		.uarch = UARCH_NONE, .name = nm, .fmt = PEBS_FMT_ARCH,                             \
		.source =                                                                          \
		    "Linux arch-PEBS (d21954c8a0ff: CPUID.23H sub-leaves 4/5, PEBS_BASE/INDEX, "   \
		    "CFG_C); "                                                                     \
		    "ds.c grt/glc constraints for the latency events",                             \
		.flags = (fl) | UA_GLOBAL_STATUS_SET, .layout = PEBS_EN_LAYOUT_FIXED,              \
		.pebs_gp = 0xff, .pebs_fixed = 0xf, .ldlat_gp = 0xff, .store_gp = 0xff,            \
		.min_period = 32, .ldlat_event = (ld), .store_event = (st), .inst_event = 0x00c0,  \
		.offcore_valid = {ocr}, .pmi_ack = (ack)                                           \
	}

/*
 * Offcore masks: E-cores (Skymont, Darkmont) core.c intel_cmt_extra_regs
 * (bit 63 in RSP0 only); P-cores (Lion Cove, Cougar Cove) intel_lnc_extra_regs.
 */
#define CMT_OCR 0x800ff3ffffffffffULL, 0xff3ffffffffffULL
#define LNC_OCR 0xfffffffffffULL, 0xfffffffffffULL
#define NO_OCR	0, 0

/*
 * PMI ack: E-cores mid (core.c intel_pmu_init_grt), P-cores late
 * (intel_pmu_init_glc); core type unknown: mid, since a PMI requested while
 * LVTPC is still masked is lost, and a spurious one finds no status bit of
 * ours and ends the handler.
 */
static const struct uarch_info arch_pebs_atom =
    ARCH_PEBS_ROW("architectural PEBS (CPUID.23H, E-core)", UA_LDLAT | UA_STLAT,
		  UA_EVENT(0xd0, 0x05), UA_EVENT(0xd0, 0x06), CMT_OCR, PMI_ACK_MID);
static const struct uarch_info arch_pebs_core =
    ARCH_PEBS_ROW("architectural PEBS (CPUID.23H, P-core)", UA_LDLAT | UA_STLAT,
		  UA_EVENT(0xcd, 0x01), UA_EVENT(0xcd, 0x02), LNC_OCR, PMI_ACK_LATE);
static const struct uarch_info arch_pebs_untyped =
    ARCH_PEBS_ROW("architectural PEBS (CPUID.23H, core type unknown: no latency events)", 0, 0, 0,
		  NO_OCR, PMI_ACK_MID);

unsigned int uarch_n_rows(void)
{
	return ARRAY_SIZE(uarch_table);
}

const struct uarch_info *uarch_row_at(unsigned int i)
{
	return i < ARRAY_SIZE(uarch_table) ? &uarch_table[i] : NULL;
}

const struct uarch_info *uarch_get(enum pebs_uarch u)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uarch_table); i++)
		if (uarch_table[i].uarch == u)
			return &uarch_table[i];
	return NULL;
}

const struct uarch_info *uarch_for_cpu(const struct cpu_info *ci)
{
	enum pebs_uarch u;

	if (ci->vendor != VENDOR_INTEL)
		return NULL;
	u = uarch_models_uarch(ci);
	if (u == UARCH_NONE && uarch_arch_pebs(ci)) {
		enum cpu_core_type t = uarch_models_core_kind(ci);

		if (t == CORE_TYPE_CORE)
			return &arch_pebs_core;
		return t == CORE_TYPE_ATOM ? &arch_pebs_atom : &arch_pebs_untyped;
	}
	return uarch_get(u);
}
