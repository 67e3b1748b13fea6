/* SPDX-License-Identifier: MIT */
/*
 * sim_int.h - the simulated PMU's internals, shared by the sim/ files only.
 *
 *   models.c  one row per CPU model: CPUID leaves, MSR power-on values, PMU shape
 *   events.c  one table per event dialect: EVTSEL event/umask -> what it counts
 *   cpuid.c   the CPUID leaves of the selected model
 *   msr.c     the MSR file: presence, reserved bits (#GP), counters
 *   msr_pebs.c the PEBS and DS MSRs of that file (rows shared in msr.h)
 *   rules.c   the SDM's PEBS programming rules, checked on the live program
 *   cache.c   a small cache/TLB/store-buffer model for data source and latency
 *   engine.c  counting, overflow, the PEBS assist and the PMI
 *   record.c  PEBS records laid out per SDM format (never through decode/)
 *   placement.c where events may count and PEBS, from the part's perfmon file
 *   acr.c     auto counter reload, behind sim-acr= (sim_set_acr)
 *   sim.c     selection, the hw_ops backend, the local APIC's LVTPC
 *   tsc.c     the TSC: modelled cycles during modelled work, the clock outside it
 *   evtsel.c  PERFEVTSEL's CMASK, INV, EDGE and EQ, cycle by cycle
 */
#ifndef PP_SIM_INT_H
#define PP_SIM_INT_H

#include "sim.h"
#include "../pmu/perfmon.h"

#define SIM_MAX_CORE_TYPES  3 /* a hybrid machine's core rows (Arrow Lake-H: three) */
#define SIM_MSR_GLOBAL_CTRL 0x38f
/* GP counters: Lion Cove, Cougar Cove have 0-9 (perfmon lunarlake_lioncove_core.json) */
#define SIM_MAX_GP    10
#define SIM_MAX_FIXED 8 /* Skymont/Darkmont: fixed counters up to 6 (perfmon) */

enum sim_vendor { SIM_INTEL, SIM_AMD };

/* Model feature flags (what the generation has, per its SDM section). */
enum sim_flag {
	F_LDLAT = 1u << 0,	  /* MSR_PEBS_LD_LAT_THRESHOLD 0x3F6 */
	F_LL_EN = 1u << 1,	  /* PEBS_ENABLE[35:32] are LL_EN_PMCx (before Ice Lake) */
	F_PS_EN = 1u << 2,	  /* PEBS_ENABLE[63] PS_EN, precise store (Sandy Bridge) */
	F_PDIR = 1u << 3,	  /* PDIR: no reprogramming while counting (SDM 18.9.4 NOTE) */
	F_LDLAT_EXCL = 1u << 4,	  /* no other PEBS event beside load latency (SDM 18.9.4.2) */
	F_STLAT = 1u << 6,	  /* store latency event 0x2CD (Sapphire Rapids) */
	F_BLOCK = 1u << 7,	  /* data-source blk bits, with the aux event 0x8203 counting */
	F_NONPRECISE = 1u << 8,	  /* Goldmont: non-precise events, STATUS_SET records */
	F_TSX = 1u << 9,	  /* PERFEVTSEL IN_TX/IN_TXCP bits 32/33 */
	F_INSTR_LAT = 1u << 10,	  /* meminfo latency split: instr [15:0], cache [47:32] */
	F_ARCH_PEBS = 1u << 11,	  /* CPUID.23H architectural PEBS */
	F_FRONTEND = 1u << 12,	  /* MSR_PEBS_FRONTEND 0x3F7 */
	F_OFFCORE_AVG = 1u << 13, /* OFFCORE_RSP0 bit 38 AVG_LATENCY (Silvermont, SDM 18.6.3) */
	F_BLOCK_NOAUX =
	    1u << 14, /* blk bits without the aux event (GNR: no PMU_FL_MEM_LOADS_AUX) */
};

/* How the data-source field (0xA0 / meminfo aux) of a load is laid out. */
enum sim_dse {
	DSE_NONE, /* fmt0: the record has no such field */
	DSE_RSVD, /* present but reserved (Goldmont: SDM 18.7.1.1; Silvermont: Table 18-13): written
		     0 */
	DSE_NHM,  /* [3:0] source only (Linux pebs_no_tlb) */
	DSE_SNB,  /* [3:0] source, 4 STLB miss, 5 lock, 6/7 blk (F_BLOCK): SNB to BDW */
	DSE_BIG,  /* DSE_SNB's layout, Skylake and later (ds.c _skl: another remote HITM row) */
	DSE_GRT,  /* Gracemont: [3:0], 4 lock, 5 STLB miss, 6 data blk */
	DSE_CMT,  /* Crestmont-style: [4:0], 5 lock, 6 STLB miss, 7 fwd blk */
	DSE_LNC,  /* Lion Cove: [7:0] source, 10 STLB miss, 11 lock, 12/13 data/addr blk */
	DSE_PNC,  /* Panther Cove: [7:0], 8 L2 miss (7:0 then OMR), 11 STLB, 12 lock, 13/14 blk */
	DSE_ARW,  /* Arctic Wolf: DSE_PNC's layout, its own L2-hit indexes */
};

struct sim_cache_geom {
	uint32_t l1_kib, l1_ways, l2_kib, l2_ways, l3_kib, l3_ways;
	uint32_t dtlb_entries, dtlb_ways, stlb_entries, stlb_ways;
	uint32_t lat_l1, lat_l2, lat_l3, lat_dram; /* load-to-use, core cycles */
};

/* What an event counts (events.c decodes EVTSEL into one of these). */
enum sim_count {
	CNT_NONE,
	CNT_INST,
	CNT_CYCLES,
	CNT_REF_CYCLES,
	CNT_LOADS,
	CNT_STORES,
	CNT_LOCK_LOADS,
	CNT_SPLIT_LOADS,
	CNT_SPLIT_STORES,
	CNT_STLB_MISS_LOADS,
	CNT_STLB_MISS_STORES,
	CNT_DTLB_MISS_LOADS,
	CNT_L1_HIT,
	CNT_L2_HIT,
	CNT_L3_HIT,
	CNT_L1_MISS,
	CNT_L2_MISS,
	CNT_L3_MISS,
	CNT_FB_HIT,
	CNT_DRAM_HIT,
	CNT_STLF_BLOCK,	   /* loads whose store forwarding was blocked */
	CNT_4K_ALIAS,	   /* loads blocked by a 4 KiB-aliased store */
	CNT_LDLAT,	   /* loads with latency above MSR_PEBS_LD_LAT_THRESHOLD */
	CNT_PST,	   /* Sandy Bridge precise store: stores, record on the next store */
	CNT_STLAT,	   /* store latency (SPR 0x2CD, Gracemont 0x6D0): stores */
	CNT_OFFCORE,	   /* OFFCORE_RESPONSE through MSR_OFFCORE_RSPx */
	CNT_OFFCORE_REQ,   /* OFFCORE_REQUESTS.DEMAND_DATA_RD: L2-missing demand loads */
	CNT_OFFCORE_OUTST, /* OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD: their cycles */
};

/* How an event behaves with PEBS on (the generation's PEBS event table). */
enum sim_pebs {
	PEBS_NO,      /* not a PEBS event (Goldmont: non-precise, record at next retirement) */
	PEBS_PRECISE, /* precise event */
	PEBS_LDLAT,   /* load latency */
	PEBS_PST,     /* precise store (SNB) */
	PEBS_STLAT,   /* store latency */
};

struct sim_event {
	uint16_t code;	/* umask << 8 | event select */
	uint8_t count;	/* enum sim_count */
	uint8_t pebs;	/* enum sim_pebs */
	uint8_t arg;	/* CNT_OFFCORE: which MSR_OFFCORE_RSPx */
	uint8_t umask2; /* PERFEVTSEL[47:40]: perfmon UMaskExt, part of the event's identity */
	const char *name;
};

struct sim_event_table {
	const struct sim_event *ev;
	size_t n;
};

/* PERF_METRICS once FIXED_CTR3 has counted: retiring, bad spec, FE, BE bound bytes. */
#define SIM_PERF_METRICS 0x40303020ull

struct sim_model {
	struct sim_model_info info; /* name (model=NAME) and description */
	const char *brand;
	enum sim_vendor vendor;
	uint32_t sig; /* CPUID.1:EAX */
	uint32_t max_leaf, max_ext;
	uint32_t phys_bits; /* MAXPHYADDR (CPUID.80000008H:EAX[7:0]); 0 = 39 */
	uint32_t c1_ebx, c1_ecx, c1_edx;
	uint32_t c7_ebx, c7_ecx, c7_edx;
	uint32_t c71_eax; /* CPUID.(7,1):EAX, bit 8 ArchPerfmonExt (leaf 23H) */
	uint32_t c1a_eax; /* CPUID.1AH:EAX core type / native model */
	uint32_t ca[4];	  /* CPUID.0AH EAX EBX ECX EDX */
	/*
	 * Counters the core has (ca) that silicon's CPUID.0AH does not name:
	 * the highest GP and fixed ones are left out of the leaf (a hybrid
	 * P-core names the shared ones, Core 2's v2 no fixed counter; the
	 * model row cites it).  The simulated PMU keeps them all.
	 */
	uint8_t ca_unnamed_gp, ca_unnamed_fixed;
	uint32_t c15[3];		   /* CPUID.15H EAX EBX ECX */
	uint32_t c16_mhz;		   /* CPUID.16H:EAX base MHz */
	uint32_t c23_caps, c23_gp, c23_fx; /* CPUID.23H sub-leaf 4 EBX, sub-leaf 5 EAX/ECX */
	/*
	 * CPUID.23H sub-leaf 5 EBX/EDX, the counters with PDIST: the union of the
	 * PDISTCounter lists of the part's perfmon file (test_sim_cpuid checks it)
	 */
	uint32_t c23_pdist_gp, c23_pdist_fx;
	uint32_t c23_ext;     /* CPUID.23H.0:EBX: 0 UMASK2, 1 EQ in PERFEVTSEL (sim/cpuid.c) */
	uint64_t perf_caps;   /* IA32_PERF_CAPABILITIES, if PDCM */
	uint64_t misc_enable; /* IA32_MISC_ENABLE power-on value */
	uint32_t microcode;   /* IA32_BIOS_SIGN_ID[63:32] (AMD: patch level [31:0]) */
	uint64_t platform_id;
	uint64_t pebs_enable_mask; /* writable IA32_PEBS_ENABLE bits; 0 = no such MSR */
	uint64_t frontend_mask;
	uint64_t offcore_mask[2]; /* writable MSR_OFFCORE_RSP0/1 bits; 0 = absent */
	uint32_t flags;		  /* enum sim_flag */
	enum sim_dse dse;
	uint32_t slots_per_cycle; /* fixed counter 3 (TOPDOWN.SLOTS) */
	const struct sim_event_table *events;
	struct sim_cache_geom cache;
	const char *source; /* where the values come from */
	/*
	 * A part without CPUID 15H/16H: its nominal TSC rate in MHz, the
	 * named part's rated base frequency (the "@ N.NNGHz" of its brand
	 * string, SDM Vol. 2A CPUID, "Identification of Processor Brand
	 * String"); a constant TSC runs at that rate (SDM Vol. 3B "Time-Stamp
	 * Counter").
	 */
	uint32_t tsc_mhz;
	/*
	 * A machine of several core types: the rows its CPUs take, in order
	 * (sim.c core_of()); NULL: every CPU is this row.  core_only: a core
	 * row of such a machine, not a model=NAME of its own.
	 */
	const char *cores[SIM_MAX_CORE_TYPES];
	bool core_only;
	/*
	 * A guest's row (sim/kvm.c, sim-host=): the hypervisor's leaf 40000000H
	 * signature, with CPUID.1:ECX[31] set; NULL on the real parts.
	 */
	const char *hv_sig;
};

extern const struct sim_model sim_model_table[];
extern const size_t sim_model_table_len;
/*
 * The rate of the model's TSC in Hz: what its CPUID 15H gives (crystal x
 * EBX/EAX), else 16H (base MHz), else tsc_mhz (SDM Vol. 2A CPUID leaves
 * 15H, 16H), so software reading them finds the rate the TSC runs at.
 */
uint64_t sim_tsc_hz(const struct sim_model *m);

/*
 * CPUID.0AH ECX and EDX[4:0] as the CPU reports them: the model's, or what
 * sim_set_fixed_enum() put in their place.
 */
void sim_fixed_enum(const struct sim_model *m, uint32_t *ecx, uint32_t *edx_count);
/* CPUID.0AH:EDX[12:5], the fixed counters' width: the model's, or sim_set_fixed_width()'s. */
uint32_t sim_fixed_width(const struct sim_model *m);
/* CPUID.1:EAX and the microcode revision: the model's, or sim_set_stepping()/_microcode()'s. */
uint32_t sim_signature(const struct sim_model *m);
uint32_t sim_microcode(const struct sim_model *m);
/*
 * The fixed counters that exist for that enumeration: SDM Vol. 3B 20.2.5
 * "Architectural Performance Monitoring Version 5": from version 5 on,
 * counter i exists if ECX[i] || EDX[4:0] > i; before, counters 0 to
 * EDX[4:0] - 1.
 */
uint32_t sim_fixed_present(uint32_t version, uint32_t ecx, uint32_t edx_count);

/* The PMU shape, derived once from the model's CPUID.0AH. */
struct sim_pmu {
	uint32_t version, n_gp, gp_width, n_fixed, fixed_width;
	uint64_t gp_mask, fixed_mask; /* width masks */
	uint32_t fixed_bitmap;	      /* fixed counters present (sim_fixed_enum) */
	unsigned int fmt;	      /* PERF_CAPABILITIES.PEBS_FMT (0 if no PDCM) */
	bool baseline, fw_write, trap;
	bool umask2, eq;  /* PERFEVTSEL[47:40] / [36] writable: CPUID.23H.0:EBX[0] / [1] */
	bool pebs_usable; /* DS and not MISC_ENABLE.PEBS_UNAVAIL */
};

/* One cache level or TLB: set-associative, LRU by position (way 0 = MRU). */
struct sim_assoc {
	uint32_t sets, ways;
	uint32_t set_mask; /* sets - 1 when sets is a power of two, else 0 */
	uint64_t *tag;	   /* sets * ways, 0 = empty, else line/page number + 1 */
};

struct sim_store_ent {
	uint64_t addr;
	uint32_t size;
};

/* The result of one memory access, as the cache model saw it. */
enum sim_level { LVL_L1 = 1, LVL_LFB, LVL_L2, LVL_L3, LVL_DRAM };

/*
 * The cycles the load-latency field adds to a load's load-to-use latency:
 * it counts from the load's first dispatch to the final data writeback
 * (SDM Vol. 3B 20.3.1.1.2, Nehalem's facility; perf-mem.txt calls it the
 * use-latency, "pipeline queuing delays" included), so one cycle of
 * writeback at least.  Reasoning, not a published figure: the least that
 * keeps a 3-cycle L1 hit at the SDM's 4-cycle minimum detectable latency.
 */
#define SIM_LDLAT_DISPATCH 1

struct sim_access {
	uint64_t ip, addr;
	uint64_t ip_next; /* the instruction after it; 0: not known */
	uint32_t size, kind;
	enum sim_level level;
	uint32_t latency; /* load-to-use, from the cache model */
	/*
	 * What the load-latency facility measures: from the load's first
	 * dispatch to its data's writeback (SDM Vol. 3B 20.3.1.1.2), so the
	 * load-to-use latency plus SIM_LDLAT_DISPATCH (and a latency-offset
	 * fault's cycles).
	 */
	uint32_t ldlat;
	bool stlb_miss, dtlb_miss, split, data_blk, addr_blk;
	bool hitm;	  /* a load served by another CPU's modified line (coherence.c) */
	bool hitm_remote; /* that CPU is in another package */
};

/* A record captured at the eventing instruction, written at the next retirement. */
struct sim_pending {
	bool valid;
	bool nonprecise; /* Goldmont: IP is the next retirement point */
	uint64_t eventing_ip, dla, dse, lat, tsc, applicable, status;
	uint64_t next_ip;      /* the instruction after the eventing one; 0: not known */
	uint32_t cfg_c_groups; /* arch-PEBS: groups of the triggering counter */
	bool adaptive;
	bool no_mem_info; /* load latency outside its counters: no latency, no data source */
	/* the counters at the assist, for a counter-snapshot group (snapshot.c) */
	uint64_t snap_pmc[SIM_MAX_GP], snap_fixed[SIM_MAX_FIXED];
	uint32_t snap_allow_gp, snap_allow_fixed; /* arch-PEBS: CFG_C.CNTR_ALLOW */
	uint64_t cfg_c;				  /* arch-PEBS: CFG_C of the triggering counter */
};

/* EVTSEL i's perfmon row, as the part's own file gives it (placement.c). */
struct sim_place {
	bool known;	   /* the file has a row for the encoding */
	bool ldlat;	   /* the row programs MSR_PEBS_LD_LAT_THRESHOLD (0x3F6) */
	uint32_t count_gp; /* Counter */
	uint32_t pebs_gp;  /* PEBScounters (Counter where the file has none) */
	bool has_pdist;	   /* the row names PDISTCounter GP counters (not "NA") */
	uint32_t pdist_gp; /* PDISTCounter */
	bool taken_alone;  /* TakenAlone */
	const char *name;
	const char *src; /* not perfmon: the Linux table that placed it (constraints.c) */
};
struct sim_cpu;
/* No perfmon row: Linux's constraints for the model (constraints.c); false if none. */
bool sim_cons_place(const struct sim_cpu *c, uint16_t code, struct sim_place *pl);

struct sim_cpu {
	const struct sim_model *m;	/* this CPU's core row */
	const struct perfmon_table *pm; /* the part's perfmon file, NULL if none */
	struct sim_place place[SIM_MAX_GP];
	uint32_t pdist_ok; /* GP counters PDIST may use (arch-PEBS: CPUID.23H.5:EBX) */
	struct sim_pmu pmu;
	unsigned int index; /* the platform's CPU number: its initial APIC ID */
	/*
	 * The first CPU of this CPU's core (its own index when it is): the
	 * threads of a core share its L1D and L2, whose arrays that CPU owns
	 * (l12_shared here), and are one owner to the coherence model.
	 */
	unsigned int core_first;
	unsigned int package; /* the firmware's package of this CPU (0 where it names none) */
	bool l12_shared;
	enum sim_fault fault;
	int32_t fault_arg; /* latency-bias: percent; latency-offset: cycles */

	uint64_t pmc[SIM_MAX_GP], evtsel[SIM_MAX_GP];
	uint64_t fixed[SIM_MAX_FIXED], fixed_ctrl;
	uint64_t perf_metrics; /* MSR_PERF_METRICS, moved by FIXED_CTR3 (sim/engine.c) */
	uint64_t global_ctrl, global_status;
	uint64_t pebs_enable, data_cfg, ld_lat, frontend, offcore[2];
	uint64_t ds_area, misc_enable, debugctl, bios_sign;
	uint64_t pebs_base, pebs_index, cfg_c_gp[SIM_MAX_GP], cfg_c_fx[SIM_MAX_FIXED];
	uint64_t cfg_b_gp[SIM_MAX_GP], cfg_b_fx[SIM_MAX_FIXED]; /* ACR (sim/acr.c) */
	const struct sim_event *ev[SIM_MAX_GP];			/* decoded EVTSEL, NULL = unknown */

	uint64_t tsc, cycles;
	uint64_t overlap; /* instructions that retire under a dependent load's latency */
	/* tsc.c: the platform's clock up to which time is accounted, the time and ticks credited */
	uint64_t wall_us, wall_credit_us, wall_ticks;
	bool in_work; /* a span of modelled work runs (tsc.c) */
	uint64_t last_ip;

	/* Local APIC LVT performance-counter entry and the PMI handler. */
	uint32_t lvtpc;
	uint32_t svr; /* the APIC's spurious-vector register: bit 8 software enable */
	bool pmi_in_service, pmi_pending, in_pmi;
	uint32_t pmi_lvt;   /* LVTPC when the pending PMI was requested (its vector, mode) */
	uint8_t isr_vector; /* the vector in service (pmi_in_service) */
	uint8_t tpr;	    /* the task-priority register (APIC 0x80, bits 7:0) */
	uint32_t lint0;	    /* LVT LINT0 (APIC 0x350), its writable bits */
	bool irq_off;	    /* sim_set_irq_off: RFLAGS.IF = 0 */
	bool irq_window;    /* hw_ops.irq_window: interrupts on for one instruction */
	uint64_t pmi_delay; /* sim_set_pmi_delay: instructions from request to delivery */
	uint64_t pmi_wait;  /* of those, still to retire for the pending PMI */
	uint8_t pmi_vector;
	hw_pmi_fn pmi_fn;
	void *pmi_ctx;

	/* PEBS engine state. */
	struct sim_pending pend;
	bool pst_armed; /* SNB: capture the next store */
	uint64_t pst_applicable;
	uint64_t
	    shadowed; /* GP PEBS counters that overflowed without PDIST: record the next event */
	uint32_t
	    alone_clash; /* counting GP counters of TakenAlone events, when two or more count */
	uint64_t status_set_pebs; /* Goldmont: STATUS_SET overflows pending a record */

	/* Rules: reported once per arming (cleared when nothing is armed). */
	uint32_t rules_reported;

	/* evtsel.c: EDGE's condition in the last cycle counted, per GP counter */
	uint32_t edge_prev;

	/* Paging: CR3 (the firmware's at reset, sim/paging.c) and CR4. */
	uint64_t cr3, cr4;
	uint64_t fw_cr3;    /* the CR3 it came out of reset with: the firmware's tables */
	uint64_t last_addr; /* the last data access's address (timer.c) */

	/*
	 * GLOBAL_CTRL's counter bits whose EVTSEL (GP) or FIXED_CTR_CTRL (32+)
	 * was written since the hand-off, and GLOBAL_CTRL as handed off (rules.c
	 * sim_rules_global_ctrl).
	 */
	uint64_t programmed, handoff_global_ctrl;

	/* Cache model. */
	struct sim_assoc l1, l2, l3, dtlb, stlb;
	struct sim_store_ent stores[8];
	unsigned int store_head;

	struct sim_stats stats;
};

/*
 * The boot CPU: the platform's CPU 0, the one that holds TPL_HIGH_LEVEL
 * for a kernel body (lib/platform.h plat_tpl_high) and that the
 * firmware's timer interrupts.  reset_cpu numbers sim_cpus[i] i.
 */
static inline bool sim_boot_cpu(const struct sim_cpu *c)
{
	return c->index == 0;
}

/*
 * engine.c: whether the local APIC would give the CPU a fixed interrupt of
 * `vector` now: its priority class (vector[7:4]) above the processor
 * priority's, PPR being TPR or the class in service, whichever is higher
 * (SDM Vol. 3A 11.8.3.1).  Interrupts on or off is the caller's question.
 */
bool sim_apic_admits(const struct sim_cpu *c, uint8_t vector);

/* tsc.c: modelled work advances the TSC by its cycles, the time outside it by the clock */
void sim_tsc_reset(struct sim_cpu *c);
void sim_tsc_work(struct sim_cpu *c);	 /* a kernel report: modelled work */
void sim_tsc_outside(struct sim_cpu *c); /* any other hw call */
uint64_t sim_tsc_read(struct sim_cpu *c);

/*
 * timer.c: sim-platform=timer-attr, at every hw call of a CPU (only the
 * boot CPU's count: sim_boot_cpu).
 */
void sim_timer_tick(struct sim_cpu *c);
/*
 * timer.c: interrupts on for one instruction (hw_ops.irq_window) while the
 * app holds TPL_HIGH_LEVEL: a timer tick that fell due comes in now unless
 * TPR holds its vector (SIM_TIMER_LAPIC) or LINT0 is masked
 * (SIM_TIMER_EXTINT), and breaks timer-high-tpl.
 */
void sim_timer_window(struct sim_cpu *c);

/* cpuid.c */
void sim_cpuid_leaf(const struct sim_model *m, uint32_t leaf, uint32_t sub, struct cpuid_regs *r);

/* acr.c: auto counter reload, only with sim_set_acr() (sim-acr=). */
/* sim-host=: the row a guest of that host sees for the host's row (sim/kvm.c). */
const struct sim_model *sim_kvm_row(const struct sim_model *host, enum sim_host h);
void sim_kvm_clear(void);

void sim_acr_clear(void);
bool sim_acr_enumerated(const struct sim_model *m);
void sim_acr_leaf(const struct sim_model *m, struct cpuid_regs *r); /* CPUID.23H.2 */
/* CFG_B of counter bit (GP i: i, fixed i: 32 + i) */
enum hw_fault sim_acr_rd_cfg_b(struct sim_cpu *c, unsigned int bit, uint64_t *v);
enum hw_fault sim_acr_wr_cfg_b(struct sim_cpu *c, unsigned int bit, uint64_t v);
/* The counters whose CFG_B names a counter of `wrapped` (overflowed on this instruction). */
void sim_acr_overflow(struct sim_cpu *c, uint64_t wrapped);
/* Counter bit's own CFG_B names it: its wrap sets no GLOBAL_STATUS bit, raises no PMI. */
bool sim_acr_self_reload(const struct sim_cpu *c, unsigned int bit);

/* handoff.c: sim-handoff= (sim_set_handoff) */
void sim_handoff_clear(void);
void sim_handoff_apply(struct sim_cpu *c); /* at the end of a CPU's reset */
void sim_handoff_written(struct sim_cpu *c, uint32_t msr, uint64_t val);
/* A STATUS_SET write sim-handoff= no-set-54 refuses (#GP). */
bool sim_handoff_refuses_set(const struct sim_cpu *c, uint64_t val);
/* counter-int: the firmware's counter overflows now, once, if it still counts with INT set. */
bool sim_handoff_int_overflow(struct sim_cpu *c);
/* Before a write: true if sim-handoff= lost-restore drops it. */
bool sim_handoff_drops(const struct sim_cpu *c, uint32_t msr, uint64_t val);
bool sim_handoff_has_smi(const struct sim_cpu *c);
uint64_t sim_handoff_smi_count(const struct sim_cpu *c);

/* msr.c */
enum hw_fault sim_msr_read(struct sim_cpu *c, uint32_t msr, uint64_t *val);
enum hw_fault sim_msr_write(struct sim_cpu *c, uint32_t msr, uint64_t val);
void sim_msr_power_on(struct sim_cpu *c);
/* The first MSR two rows of the MSR file hold (0: none); sim/msr.c */
uint32_t sim_msr_first_shared(void);
uint64_t sim_status_mask(const struct sim_cpu *c);
uint64_t sim_phys_mask(const struct sim_cpu *c);

/* placement.c */
void sim_place_init(struct sim_cpu *c);
void sim_place_decode(struct sim_cpu *c, unsigned int i);
/*
 * Counter allows GP i (a load-latency event outside its list still counts:
 * its records are what suffers).  Inline: asked per counter on every
 * simulated access, where a call is dear under QEMU's TCG.
 */
static inline bool sim_place_counts(const struct sim_cpu *c, unsigned int i)
{
	if (c->alone_clash & BIT_ULL(i))
		return false;
	return !c->place[i].known || c->place[i].ldlat || (c->place[i].count_gp & BIT_ULL(i));
}
bool sim_place_pebs(const struct sim_cpu *c, unsigned int i); /* PEBScounters allows GP i */
/* GP i's event has PDIST counters and i is not one: its records wait for the next event. */
bool sim_place_shadowed(const struct sim_cpu *c, unsigned int i);

/* events.c */
const struct sim_event *sim_event_decode(const struct sim_model *m, uint64_t evtsel);
/* Events of type `count` that access a produces (0 or 1; cycles elsewhere). */
uint64_t sim_event_increment(const struct sim_cpu *c, const struct sim_event *e,
			     const struct sim_access *a);

/*
 * evtsel.c: an instruction's events laid out over its cycles - lead cycles of
 * lead_k events each, then tail cycles of tail_k each.
 */
struct sim_cycles {
	uint64_t lead, lead_k, tail, tail_k;
};
/* CMASK, INV, EDGE or EQ set (SDM Vol. 3B 20.2.1.1; evtsel.c); inline as above */
static inline bool sim_evtsel_modified(uint64_t evtsel)
{
	return evtsel & (GENMASK_ULL(31, 24) | BIT_ULL(18) | BIT_ULL(23) | BIT_ULL(36));
}
/* IA32_PERFEVTSELi written: EDGE's condition before the next cycle is off again */
void sim_evtsel_written(struct sim_cpu *c, unsigned int i);
/* Why GP i's modifiers cannot be modelled (it then counts nothing), or NULL. */
const char *sim_evtsel_unmodelled(const struct sim_cpu *c, unsigned int i);
/* GP i's increment over those cycles; commit: keep EDGE's state (else a look ahead). */
uint64_t sim_evtsel_count(struct sim_cpu *c, unsigned int i, const struct sim_cycles *cy,
			  bool commit);

/* rules.c */
void sim_rules_check(struct sim_cpu *c);
void sim_rules_reset_count(void);
void sim_rules_arch_record_size(struct sim_cpu *c, size_t n);
bool sim_rules_ds_mapped(struct sim_cpu *c, const char *what, uint64_t addr, uint64_t len);
void sim_rules_on_reprogram(struct sim_cpu *c, unsigned int gp, const char *what);
void sim_rules_global_ctrl(struct sim_cpu *c, uint64_t val);
void sim_violation(struct sim_cpu *c, const char *rule, const char *fmt, ...) pp_printf(3, 4);

/* coherence.c: which CPU last modified a line, shared by every simulated CPU */
enum sim_snoop {
	SIM_SNOOP_CLEAN,      /* no other core holds the line modified */
	SIM_SNOOP_HITM,	      /* another core of c's package does */
	SIM_SNOOP_HITM_REMOTE /* a core of another package does: a cross-package snoop */
};
void sim_coh_reset(void);
enum sim_snoop sim_coh_load_hitm(const struct sim_cpu *c, uint64_t line);
void sim_coh_store(const struct sim_cpu *c, uint64_t line);

/* paging.c: the simulated firmware's page tables (sim-pages=) and the walk */
void sim_paging_clear(void);
int sim_paging_set_size(uint64_t page_size);
uint64_t sim_paging_fw_cr3(void);
/* A second top-level table of the same mappings (sim-fault own-cr3). */
uint64_t sim_paging_fw_cr3_other(void);
/* A top-level table that maps nothing the app asks about (sim-fault unmapped-cr3). */
uint64_t sim_paging_fw_cr3_bare(void);
void sim_paging_fw_map(uint64_t addr, uint64_t len);
uint64_t sim_paging_page_size(uint64_t cr3, uint64_t addr);
/* The entry (PML4E .. PTE) found not present walking addr under cr3; NULL: mapped. */
const char *sim_paging_not_present(uint64_t cr3, uint64_t addr);

/* cache.c */
int sim_cache_init(struct sim_cpu *c, const struct sim_cpu *core_first);
void sim_cache_free(struct sim_cpu *c);
void sim_cache_flush_tlbs(struct sim_cpu *c); /* a CR3 write (SDM Vol. 3A 4.10.4.1) */
void sim_cache_access(struct sim_cpu *c, struct sim_access *a);

/* engine.c */
bool sim_gp_counting(const struct sim_cpu *c, unsigned int i);
bool sim_fixed_counting(const struct sim_cpu *c, unsigned int i);
bool sim_gp_pebs_armed(const struct sim_cpu *c, unsigned int i);
bool sim_fixed_pebs_armed(const struct sim_cpu *c, unsigned int i);
void sim_engine_access(struct sim_cpu *c, uint64_t ip, uint64_t ip_next, uint64_t addr,
		       uint32_t size, uint32_t kind);
void sim_engine_retire(struct sim_cpu *c, uint64_t ip, uint64_t n);
void sim_engine_flush(struct sim_cpu *c, uint64_t next_ip, bool known);
void sim_engine_status_set(struct sim_cpu *c, uint64_t bits);
void sim_raise_pmi(struct sim_cpu *c);
void sim_deliver_pmi(struct sim_cpu *c);

/* record.c */
size_t sim_legacy_record_size(unsigned int fmt); /* fmt 0-3, else 0 */
uint64_t sim_dse_load(const struct sim_cpu *c, const struct sim_access *a);
uint64_t sim_dse_store(const struct sim_cpu *c, const struct sim_access *a);
void sim_record_write(struct sim_cpu *c, const struct sim_pending *p, uint64_t rip);

/* snapshot.c: the counter-snapshot group (format 6 DATA_CFG, arch-PEBS CFG_C). */
void sim_snap_capture(const struct sim_cpu *c, struct sim_pending *p);
size_t sim_snap_size(const struct sim_pending *p, bool arch, uint64_t cfg);
size_t sim_snap_fill(const struct sim_pending *p, bool arch, uint64_t cfg, uint8_t *rec);
uint64_t sim_snap_arch_header(uint64_t cfg_c);

#endif
