/* SPDX-License-Identifier: MIT */
/*
 * decode.h - PEBS records to structured values, exactly as Linux perf reads
 * them.  Pure C: no EFI types, no MSR access.  Built into the app and into
 * the host tools (build/host/pebs-decode).
 *
 * A caller describes how the buffer was produced (struct pebs_decode_cfg) and
 * walks it with pebs_decode_next(); every field a record has is filled and
 * flagged in pebs_record.have.  Nothing is read past the buffer: a truncated
 * or malformed record gives an anomaly with its byte offset.
 */
#ifndef PP_DECODE_H
#define PP_DECODE_H

#include "../lib/compat.h"
#include "../lib/types.h"

/* enum pebs_uarch and enum pebs_kind: lib/types.h. */
const char *pebs_uarch_name(enum pebs_uarch u); /* "skl", ... */
bool pebs_uarch_from_name(const char *name, enum pebs_uarch *u);

const char *pebs_kind_name(enum pebs_kind k);
bool pebs_kind_from_name(const char *name, enum pebs_kind *k);

#define PEBS_FMT_ARCH 0xf /* architectural PEBS (CPUID.23H), not a PERF_CAPABILITIES value */

/*
 * The data-source decoders (decode/datasrc.c), one per table and layout of
 * Linux ds.c.  Which one a generation's records need is that generation's
 * choice, named in its row (pmu/uarch_table.c); decode knows no generation.
 */
enum pebs_dsrc {
	DSRC_UNKNOWN = 0, /* not given: the field is not read, nothing is said about it */
	DSRC_NA,	  /* the generation has no data source (Core 2, Silvermont, Tremont) */
	DSRC_RESERVED,	  /* legacy 0x98/0xA0 reserved, not read (Goldmont, SDM 18.7.1.1) */
	DSRC_NHM,	  /* intel_pmu_pebs_data_source_nhm, pebs_no_tlb */
	DSRC_WSM,	  /* the NHM table, load_latency_data's TLB/lock bits */
	DSRC_SNB,	  /* pebs_data_source[] */
	DSRC_SKL,	  /* __intel_pmu_pebs_data_source_skl(pmem=false) */
	DSRC_SKX,	  /* __intel_pmu_pebs_data_source_skl(pmem=true) */
	DSRC_SPR,	  /* _skl(pmem=true), pebs_block, instruction latency */
	DSRC_ADL,	  /* _skl(pmem=false), pebs_block, instruction latency (hybrid P-core) */
	DSRC_GRT,	  /* __intel_pmu_pebs_data_source_grt */
	DSRC_CMT,	  /* __intel_pmu_pebs_data_source_cmt */
	DSRC_LNC,	  /* lnc_pebs_data_source */
	DSRC_PNC,	  /* pnc_latency_data: L2-hit table or OMR; STORE for store latency */
	DSRC_ARW,	  /* arw_latency_data: its L2-hit table or OMR */
	DSRC_COUNT
};

struct pebs_decode_cfg {
	unsigned int fmt; /* 0..6, or PEBS_FMT_ARCH */
	/* the generation: a label only (dump header, results); decoding reads dsrc */
	enum pebs_uarch uarch;
	enum pebs_dsrc dsrc; /* how the data-source field is read */
	enum pebs_kind kind;
	uint64_t data_cfg; /* MSR_PEBS_DATA_CFG (adaptive), 0 otherwise */
	bool timed;	   /* PERF_CAPABILITIES bit 17: retire latency in the basic group */
	bool adaptive;	   /* the sampling counters had their adaptive bit set */
	/* Validation (kvm-unit-tests' checks); 0 = do not check. */
	uint64_t pebs_enabled; /* counters armed for PEBS: applicable counters must intersect */
	/*
	 * IA32_PEBS_ENABLE as written, its LL_EN and PS_EN bits too: what
	 * Linux keeps in cpuc->pebs_enabled (ds.c intel_pmu_pebs_enable), whose
	 * single bit makes a zero status the sole event's (pebs_race_of).
	 */
	uint64_t pebs_enable_msr;
};

/* Which fields a decoded record has. */
enum pebs_have {
	HAVE_IP = BIT_ULL(0),
	HAVE_APPLICABLE = BIT_ULL(1),
	HAVE_DLA = BIT_ULL(2),
	HAVE_DSE = BIT_ULL(3),
	HAVE_LATENCY = BIT_ULL(4),
	HAVE_INSTR_LATENCY = BIT_ULL(5),
	HAVE_RETIRE_LATENCY = BIT_ULL(6),
	HAVE_TSC = BIT_ULL(7),
	HAVE_REGS = BIT_ULL(8),
	HAVE_TSX = BIT_ULL(9),
	HAVE_MEM = BIT_ULL(10),
	HAVE_LBR = BIT_ULL(11),
	HAVE_COUNTERS = BIT_ULL(12),
	HAVE_XMM = BIT_ULL(13),
	HAVE_GLOBAL_STATUS = BIT_ULL(14),
	/* (decode addition) the data-source slot exists but is reserved on this
	 * uarch (Goldmont: SDM Vol. 3B 18.7.1.1) or the uarch has none: "not available". */
	HAVE_MEM_NA = BIT_ULL(15),
	/* arch-PEBS GPR group: the shadow-stack pointer after R15 (Linux struct arch_pebs_gprs) */
	HAVE_SSP = BIT_ULL(16),
};

/* GPRs by name, not by their position in any one record layout. */
enum pebs_reg {
	REG_RFLAGS,
	REG_RIP,
	REG_RAX,
	REG_RBX,
	REG_RCX,
	REG_RDX,
	REG_RSI,
	REG_RDI,
	REG_RBP,
	REG_RSP,
	REG_R8,
	REG_R9,
	REG_R10,
	REG_R11,
	REG_R12,
	REG_R13,
	REG_R14,
	REG_R15,
	REG_COUNT
};

/* TSX abort flags, bit i = tuning bit 32+i (SDM 18.11.5.1; Linux hsw_tsx_tuning). */
enum pebs_tsx_flag {
	TSX_HLE = 1 << 0,
	TSX_RTM = 1 << 1,
	TSX_INSTRUCTION = 1 << 2,
	TSX_NON_INSTRUCTION = 1 << 3,
	TSX_RETRY = 1 << 4,
	TSX_CONFLICT = 1 << 5,
	TSX_CAPACITY_WRITE = 1 << 6,
	TSX_CAPACITY_READ = 1 << 7,
};

#define PEBS_MAX_LBR 64 /* arch LBR depth is at most 64; more entries are skipped by size */
#define PEBS_MAX_COUNTERS                                                                          \
	66 /* 32 GP + 32 fixed + SLOTS and PERF_METRICS: all a counter header can name */

struct pebs_lbr_entry {
	uint64_t from, to, info;
};

struct pebs_record {
	size_t offset; /* byte offset of the record in the buffer */
	size_t size;   /* bytes this record occupies */
	uint64_t have; /* enum pebs_have */
	uint64_t ip;
	uint64_t applicable_counters; /* fmt3 0x90, adaptive/arch basic group */
	uint64_t global_status;	      /* fmt1/2 0x90 */
	uint64_t data_la;
	uint64_t dse;	  /* the raw data-source / store-status / aux field */
	uint64_t latency; /* load (cache) latency in core cycles */
	uint64_t instr_latency;
	uint64_t retire_latency;
	uint64_t tsc;
	uint64_t regs[REG_COUNT];
	uint64_t ssp; /* HAVE_SSP */
	struct {
		uint32_t cycles;
		uint32_t flags; /* enum pebs_tsx_flag */
		uint8_t xabort; /* XABORT imm8, valid when flags has TSX_RTM and RAX bit 0 */
		bool has_xabort;
	} tsx;
	uint64_t data_src;     /* union perf_mem_data_src as Linux computes it */
	uint64_t format_field; /* adaptive: format/group field of the basic group */
	unsigned int n_lbr;
	struct pebs_lbr_entry lbr[PEBS_MAX_LBR];
	unsigned int n_counters;
	uint64_t counters[PEBS_MAX_COUNTERS]; /* counter-snapshot group, in record order */
	uint32_t counters_gp_mask, counters_fixed_mask, counters_metrics;
};

/* What is wrong with a record: the decoder never guesses past one. */
struct pebs_anomaly {
	size_t offset;
	char what[160];
};

enum pebs_step {
	PEBS_STEP_RECORD = 0,  /* *rec holds a record; continue */
	PEBS_STEP_END = 1,     /* no more bytes */
	PEBS_STEP_ANOMALY = 2, /* *an says what and where; stop */
};

/*
 * Decodes the record at *offset in buf[0..len) and advances *offset.  A
 * record that decodes but breaks a validation rule (size field disagreeing
 * with data_cfg, applicable counters outside pebs_enabled, format field not
 * data_cfg or 0) is returned as PEBS_STEP_ANOMALY with rec still filled.
 */
enum pebs_step pebs_decode_next(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len,
				size_t *offset, struct pebs_record *rec, struct pebs_anomaly *an);

/*
 * What Linux's drain makes of a format 1 or 2 record's status (ds.c
 * intel_pmu_drain_pebs_nhm; from format 3 the status names the counters
 * exactly and each set bit counts, SDM Vol. 3B 18.13.1.1): the status
 * masked with the PEBS-enabled counters (cfg->pebs_enabled) is
 *   zero: "PEBS is racing with clearing of GLOBAL_STATUS": the record is
 *         the sole PEBS event's when PEBS_ENABLE (cfg->pebs_enable_msr)
 *         has one bit, else dropped;
 *   two or more counters: a collision, the record dropped and each
 *         counter's sample lost (perf_log_lost_samples);
 * bits of counters not PEBS-enabled are ignored (the record is kept).
 */
enum pebs_race {
	PEBS_RACE_NONE,	     /* one PEBS counter, or a format whose status is exact */
	PEBS_RACE_ZERO_SOLE, /* zero: the sole PEBS event's, kept */
	PEBS_RACE_ZERO_DROP, /* zero, PEBS_ENABLE not a single bit: dropped */
	PEBS_RACE_COLLISION, /* several PEBS counters: dropped, lost */
	PEBS_RACE_KINDS
};
enum pebs_race pebs_race_of(const struct pebs_decode_cfg *cfg, const struct pebs_record *r);
/* Whether the race rule drops the record (it is not the sampled event's). */
bool pebs_race_drops(enum pebs_race race);

/* Fixed record size of legacy formats 0..3 (144, 176, 192, 200), else 0. */
size_t pebs_legacy_record_size(unsigned int fmt);
/* Expected adaptive record size for a PEBS_DATA_CFG value (basic + groups). */
size_t pebs_adaptive_record_size(uint64_t data_cfg);

/* The perf_mem_data_src value for a raw data-source field (Linux ds.c). */
uint64_t pebs_data_src(enum pebs_dsrc d, enum pebs_kind k, uint64_t dse);

/* (decode additions) Facts of a decoder's row. */
bool pebs_dsrc_has_data_src(enum pebs_dsrc d);	/* false: unknown, NA, RESERVED */
bool pebs_dsrc_reserved(enum pebs_dsrc d);	/* legacy data-source and latency slots reserved */
bool pebs_dsrc_instr_latency(enum pebs_dsrc d); /* meminfo latency split 15:0 / 47:32 */
const char *pebs_dsrc_name(enum pebs_dsrc d);	/* "skl", ...: the words of tests and reports */
const char *pebs_dsrc_source(enum pebs_dsrc d); /* the Linux functions the row follows */
/* Some load source decodes to a snoop HITM with mem_remote set (a cross-package HITM). */
bool pebs_dsrc_remote_hitm(enum pebs_dsrc d);

/* perf's words for each part of a data_src (tools/perf/util/mem-events.c). */
struct pebs_mem_words {
	char op[24], level[96], snoop[32], tlb[48], lock[8], blocked[16];
};
void pebs_mem_describe(uint64_t data_src, struct pebs_mem_words *w);

#endif
