/* SPDX-License-Identifier: MIT */
/*
 * uarch.h - the generation table: every fact pebsprobe keeps about one
 * microarchitecture generation, in one row per enum pebs_uarch
 * (lib/types.h), each row naming its sources: record format, PEBS_ENABLE
 * layout, PEBS / load-latency / store counters, the data-source decoder
 * (decode/decode.h enum pebs_dsrc), what the kernels sample and count (by
 * perfmon name), what their verdicts judge, the HSW11 period rule, offcore and frontend
 * masks, PMI order.  Beside it, the model table: display family/model and
 * hybrid core type to the generation, and the perfmon platform the model's
 * mapfile.csv rows name.  Nothing else in the tree lists CPU models or
 * switches on a generation.
 */
#ifndef PP_PMU_UARCH_H
#define PP_PMU_UARCH_H

#include "../decode/decode.h"
#include "constraints.h"
#include "cpu.h"

/*
 * Which IA32_PEBS_ENABLE[35:32] meaning the generation has (Linux ds.c
 * intel_pmu_pebs_enable sets bit 32+i for load latency only while the PMU
 * version is below 5; from Ice Lake on it enables PEBS on fixed counter i).
 */
enum pebs_en_layout {
	PEBS_EN_LAYOUT_LL_EN, /* pre-Ice Lake (PMU version < 5): LL_EN_PMCi at 32+i */
	PEBS_EN_LAYOUT_FIXED, /* Ice Lake+ (baseline): PEBS on fixed counter i at 32+i */
};

/*
 * Where the PMI handler unmasks LVTPC again (Linux core.c
 * intel_pmu_handle_irq: "the early ACK is only applied for old platforms.
 * For the big core starts from Haswell, the late ACK should be applied. For
 * the small core after Tremont, we have to do the ACK right before
 * re-enabling counters").
 */
enum pmi_ack {
	PMI_ACK_LATE,  /* after the counters are enabled again (x86_pmu.late_ack) */
	PMI_ACK_MID,   /* before they are enabled again (mid_ack: intel_pmu_init_grt) */
	PMI_ACK_EARLY, /* first, before GLOBAL_CTRL = 0 (neither flag) */
};

/*
 * The event of errata HSW11/BDM11 (a period of at least 100) and BDM55 (the
 * period's low 6 bits clear), on the rows flagged UA_INST_RETIRED_128:
 * INST_RETIRED.ALL, event 0xC0 umask 0x01, as pmu_event_code() reads it.
 * Linux core.c erratum_hsw11() (used by hsw_limit_period/bdw_limit_period);
 * perfmon broadwell_core.json INST_RETIRED.PREC_DIST, Errata "BDM11, BDM55".
 */
#define UA_HSW11_EVENT 0x01c0

enum uarch_flag {
	UA_LDLAT = 1 << 0,	   /* load-latency facility (MSR_PEBS_LD_LAT_THRESHOLD) */
	UA_LDLAT_ALONE = 1 << 1,   /* no other PEBS event beside load latency (SDM 18.9.4.2) */
	UA_PRECISE_STORE = 1 << 2, /* SNB/IVB precise store: PMC3 + PS_EN (SDM 18.9.4.3) */
	UA_DATALA = 1 << 3,	   /* Haswell+ DataLA events (SDM 18.11.3, Table 18-45) */
	UA_STLAT = 1 << 4,	   /* SPR+ store latency (0x2cd, ds.c glc constraints) */
	UA_MEM_LOADS_AUX =
	    1 << 5, /* SPR/EMR: aux event 0x8203 beside ldlat (core.c PMU_FL_MEM_LOADS_AUX) */
	UA_FRONTEND = 1 << 6,	     /* MSR_PEBS_FRONTEND events (SKL+) */
	UA_NONPRECISE_PEBS = 1 << 7, /* Goldmont: non-precise events may PEBS (SDM 18.7.1) */
	UA_ONE_PAGE_BUFFER =
	    1 << 8,	     /* Core 2: buffers > 4 KiB hang GLOBAL_CTRL (ds.c intel_ds_init) */
	UA_HYBRID = 1 << 10, /* one core type of a hybrid part */
	UA_INST_RETIRED_128 =
	    1 << 11, /* HSW11/BDM11/BDM55: UA_HSW11_EVENT period >= 128, low 6 bits 0 */
	UA_OFFCORE_AVG_LAT = 1 << 12,	/* OFFCORE_RSP0.OUTSTANDING[38] (SDM 18.6.3) */
	UA_GLOBAL_STATUS_SET = 1 << 13, /* IA32_PERF_GLOBAL_STATUS_SET (PMU v4+) */
	/*
	 * What the kernels' verdicts judge in the data source (kernels/kernels.c
	 * rows name the flag): the lock and STLB-miss bits (Linux ds.c
	 * load_latency_data, __grt/__cmt_latency_data), a snoop HITM, the
	 * data_blk bit (x86_pmu.pebs_block).
	 */
	UA_JUDGE_LOCK_TLB = 1 << 14,
	UA_JUDGE_HITM = 1 << 15,
	UA_JUDGE_BLK = 1 << 16,
};

/*
 * Events the kernels count beside a sampling, by role: the row names the
 * generation's perfmon event for each (NULL: the generation's kernels do
 * not count it), kernels/kernels.c names the role.
 */
enum uarch_count {
	UA_COUNT_NONE,	       /* no counted event (count_ev[0] stays NULL) */
	UA_COUNT_SPLIT_LOADS,  /* loads that cross a cache line */
	UA_COUNT_SPLIT_STORES, /* stores that cross a cache line */
	UA_COUNT_STFWD_BLOCK,  /* loads whose store forwarding was blocked */
	UA_COUNT_4K_ALIAS,     /* loads blocked by a 4 KiB address alias */
	UA_COUNT_N
};

struct uarch_info {
	enum pebs_uarch uarch;
	const char *name;
	const char *source; /* where the row's facts come from */
	int fmt;	    /* PERF_CAPABILITIES.PEBS_FMT expected; -1 not known */
	uint32_t flags;	    /* enum uarch_flag */
	enum pebs_en_layout layout;
	uint32_t pebs_gp;		/* PEBS-capable GP counters */
	uint32_t pebs_fixed;		/* PEBS-capable fixed counters (baseline only) */
	uint32_t ldlat_gp;		/* where the load-latency event may go */
	uint32_t store_gp;		/* precise store (SNB/IVB) or store latency (SPR+) */
	uint32_t pdist_gp, pdist_fixed; /* precise distribution (PDIR/PDIST) */
	uint32_t min_period;		/* smallest sample-after value */
	uint16_t ldlat_event;		/* evtsel[15:0] of the load-latency event */
	uint16_t store_event;		/* precise store / store latency event */
	uint16_t datala_load_event;	/* a DataLA load event (ALL_LOADS) */
	uint16_t datala_store_event;	/* a DataLA store event (ALL_STORES) */
	uint16_t aux_event;		/* 0x8203 on SPR/EMR */
	uint16_t nonprecise_event;	/* Goldmont: CPU_CLK_UNHALTED.CORE_P */
	/*
	 * A generation without load latency or DataLA whose loads and stores
	 * are still sampled: the perfmon names of its load and store events
	 * (records of kind "other"), NULL elsewhere.
	 */
	const char *mem_load_name, *mem_store_name;
	const struct uarch_constraint *cons; /* terminated by gp == 0 */
	uint16_t inst_event; /* the PEBS instructions-retired event (default sample) */
	/* Writable bits of MSR_OFFCORE_RSP0/1 (0: no such MSR): core.c *_extra_regs. */
	uint64_t offcore_valid[2];
	uint64_t frontend_valid; /* writable MSR_PEBS_FRONTEND bits (core.c extra regs) */
	enum pmi_ack pmi_ack;	 /* LVTPC unmask order in the PMI handler */
	const struct uarch_constraint
	    *count_cons;     /* counting constraints (core.c event constraints) */
	enum pebs_dsrc dsrc; /* how its records' data source is read (decode/datasrc.c) */
	/* The kernels' counted events by perfmon EventName (test_pmu_uarch resolves them). */
	const char *count_ev[UA_COUNT_N];
	/*
	 * Where "a PEBS event needs AnyThread, Edge, Invert and CMask zero"
	 * comes from on this generation (the refusal cites it).  NULL: PEBS on
	 * every event (baseline, arch-PEBS), where Linux applies no such rule
	 * (ds.c intel_pebs_constraints: with PMU_FL_PEBS_ALL an event no PEBS
	 * constraint matches takes the counting constraints), and only the
	 * memory kinds need them zero (pmu/plan.c).
	 */
	const char *pebs_flags_src;
};

const struct uarch_info *uarch_get(enum pebs_uarch u);
/*
 * Architectural PEBS is used only when CPUID.23H enumerates it AND
 * PERF_CAPABILITIES.PEBS_FMT is 0xF (Linux ds.c intel_pebs_init, arch-PEBS series).
 */
bool uarch_arch_pebs(const struct cpu_info *ci);

/* GP counters a counted (not sampled) event may use, 0xffffffff when unconstrained. */
uint32_t uarch_count_counters(const struct uarch_info *ua, uint16_t evtsel);

/* Rows 0..uarch_n_rows()-1 (the arch-PEBS rows are not among them). */
unsigned int uarch_n_rows(void);
const struct uarch_info *uarch_row_at(unsigned int i);

/*
 * The model table, one row per display family/model (and hybrid core type):
 * the generation, the words, the perfmon platform(s) mapfile.csv gives it.
 */
struct uarch_model {
	uint8_t family, model;
	enum cpu_core_type core; /* CORE_TYPE_NONE: any (a non-hybrid part) */
	enum cpu_core_type is;	 /* the kind of core the row describes */
	enum pebs_uarch uarch;
	const char *what;
	/*
	 * The perfmon platform directories mapfile.csv names for this model
	 * and core type, space separated ("SKX CLX": by stepping), or NULL
	 * where perfmon has no file (the row says why).  mapfile.csv itself
	 * picks the file at run time (cpu_perfmon_table); test_pmu_uarch
	 * checks the two agree.
	 */
	const char *perfmon;
};
unsigned int uarch_n_models(void);
const struct uarch_model *uarch_model_at(unsigned int i);

/*
 * The generation whose rules and data-source table apply: display family
 * and model, and on hybrid parts the core type of the running CPU (P-core
 * or E-core).  UARCH_NONE if the model is not in the table, or is an
 * architectural-PEBS part.
 */
enum pebs_uarch uarch_models_uarch(const struct cpu_info *ci);
/* The model table's row for this CPU (family, model, core type), or NULL. */
const struct uarch_model *uarch_model_of(const struct cpu_info *ci);
/* The model row's words, e.g. "Skylake (desktop)", or NULL. */
const char *uarch_models_description(const struct cpu_info *ci);
/*
 * The kind of core this is: CPUID.1AH's core type, else what the model
 * table says a non-hybrid part's cores are (Clearwater Forest 06_DD:
 * E-cores; Diamond Rapids 19_01: P-cores), else CORE_TYPE_NONE.
 */
enum cpu_core_type uarch_models_core_kind(const struct cpu_info *ci);

/* The row for the running CPU (uarch_models_uarch()), NULL if unknown. */
const struct uarch_info *uarch_for_cpu(const struct cpu_info *ci);

/*
 * How the main job samples a kernel's loads (store false) or stores: the
 * kind of event, and *event a perfmon name when the generation samples
 * them with a named event of kind "other" (Goldmont), else NULL (the plan's
 * default event for the kind).  False: the generation has no such sampling.
 */
bool uarch_sampling(const struct uarch_info *ua, bool store, enum pebs_kind *kind,
		    const char **event);

/*
 * A memory-sampling kind's event on this generation (*event 0 when the row
 * does not offer the kind) and the words a refusal names the kind by.
 * False: kind is no memory-sampling kind (KIND_OTHER).
 */
bool uarch_kind_event(const struct uarch_info *ua, enum pebs_kind kind, uint16_t *event,
		      const char **what);

/* The data-source kind of records of event evtsel[15:0] (the decoder's --kind). */
enum pebs_kind uarch_event_kind(const struct uarch_info *ua, uint16_t evtsel);

#endif
