// SPDX-License-Identifier: MIT
/*
 * datasrc.c - the PEBS data-source field to union perf_mem_data_src: the
 * SNB base table plus each generation's patch list, and the tables of their
 * own (LNC, PNC, ARW, OMR), as Linux arch/x86/events/intel/ds.c builds them
 * (pebs_data_source[] and the per-generation overrides and
 * helpers: __intel_pmu_pebs_data_source_*, load_latency_data,
 * store_latency_data, ...), and perf's words for the result
 * (tools/perf/util/mem-events.c).
 */
#include "decode.h"
#include "perf_mem.h"

#define OP_LH (OP(LOAD) | LVL(HIT))

/*
 * SDM Table 18-24 "Data Source Encoding for Load Latency Record" as Linux
 * maps it: ds.c pebs_data_source[], "Version for Sandy Bridge and later".
 * Used unmodified on SNB, IVB, HSW, BDW; the base the patches below change.
 */
// clang-format off
static const uint64_t ds_snb[16] = {
    [0x0] = OP(LOAD) | LVL(MISS) | LVLNUM(L3) | SNOOP(NA),
    [0x1] = OP_LH | LVL(L1) | LVLNUM(L1) | SNOOP(NONE),
    [0x2] = OP_LH | LVL(LFB) | LVLNUM(LFB) | SNOOP(NONE),
    [0x3] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(NONE),
    [0x4] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(NONE),
    [0x5] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(MISS),
    [0x6] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HIT),
    [0x7] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM),
    [0x8] = OP_LH | LVL(REM_CCE1) | REMOTE | LVLNUM(L3) | SNOOP(HIT),
    [0x9] = OP_LH | LVL(REM_CCE1) | REMOTE | LVLNUM(L3) | SNOOP(HITM),
    [0xa] = OP_LH | LVL(LOC_RAM) | LVLNUM(RAM) | SNOOP(HIT),
    [0xb] = OP_LH | LVL(REM_RAM1) | REMOTE | LVLNUM(L3) | SNOOP(HIT),
    [0xc] = OP_LH | LVL(LOC_RAM) | LVLNUM(RAM) | SNOOP(NONE) | SNOOP(MISS),
    [0xd] = OP_LH | LVL(REM_RAM1) | LVLNUM(RAM) | REMOTE | SNOOP(NONE) | SNOOP(MISS),
    [0xe] = OP_LH | LVL(IO) | LVLNUM(NA) | SNOOP(NONE),
    [0xf] = OP_LH | LVL(UNC) | LVLNUM(NA) | SNOOP(NONE),
};
// clang-format on

/*
 * The generations that differ from SNB in a few rows: each a list of the
 * rows it replaces, as ds.c's per-generation functions patch the base.
 */
struct ds_patch {
	uint8_t idx;
	uint64_t val;
};

// clang-format off
/* Nehalem/Westmere: ds.c intel_pmu_pebs_data_source_nhm(). */
static const struct ds_patch nhm_patch[] = {
    {0x5, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HIT)},
    {0x6, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM)},
    {0x7, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM)},
};

/*
 * Skylake and later big cores: ds.c __intel_pmu_pebs_data_source_skl(pmem);
 * rows 8/9 name L4 (client) or PMEM (servers).
 */
#define SKL_PATCH(X) {                                                  \
    {0x8, OP_LH | LVLNUM(X) | SNOOP(HIT)},                              \
    {0x9, OP_LH | LVLNUM(X) | REMOTE | SNOOP(HIT)},                     \
    {0xb, OP_LH | LVLNUM(RAM) | REMOTE | SNOOP(NONE)},                  \
    {0xc, OP_LH | LVLNUM(ANY_CACHE) | REMOTE | SNOOPX(FWD)},            \
    {0xd, OP_LH | LVLNUM(ANY_CACHE) | REMOTE | SNOOP(HITM)},            \
}
static const struct ds_patch skl_l4_patch[] = SKL_PATCH(L4);
static const struct ds_patch skl_pmem_patch[] = SKL_PATCH(PMEM);

/* Gracemont (ADL E-core): ds.c __intel_pmu_pebs_data_source_grt(). */
static const struct ds_patch grt_patch[] = {
    {0x5, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HIT)},
    {0x6, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM)},
    {0x8, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOPX(FWD)},
};

/* Crestmont (MTL/LNL/ARL E-cores): ds.c __intel_pmu_pebs_data_source_cmt(). */
static const struct ds_patch cmt_patch[] = {
    {0x7, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOPX(FWD)},
    {0x8, OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM)},
    {0xa, OP_LH | LVL(LOC_RAM) | LVLNUM(RAM) | SNOOP(NONE)},
    {0xb, OP_LH | LVLNUM(RAM) | REMOTE | SNOOP(NONE)},
    {0xc, OP_LH | LVLNUM(RAM) | REMOTE | SNOOPX(FWD)},
    {0xd, OP_LH | LVLNUM(RAM) | REMOTE | SNOOP(HITM)},
};
// clang-format on

/*
 * Lion Cove (LNL/ARL P-core): ds.c lnc_pebs_data_source (Linux 608f6976c309
 * "perf/x86/intel: Support new data source for Lunar Lake"), an
 * 8-bit index; rows not listed are 0 and become LNC_ZERO_ROW.
 */
static const uint64_t ds_lnc[256] = {
    [0x00] = OP(LOAD) | LVL(MISS) | LVLNUM(L3) | SNOOP(NA),
    [0x01] = OP_LH | LVL(L1) | LVLNUM(L1) | SNOOP(NONE),
    [0x02] = OP_LH | LVL(L1) | LVLNUM(L1) | SNOOP(NONE),
    [0x03] = OP_LH | LVL(LFB) | LVLNUM(LFB) | SNOOP(NONE),
    [0x05] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(NONE),
    [0x06] = OP_LH | LVLNUM(L2_MHB) | SNOOP(NONE),
    [0x08] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(NONE),
    [0x0c] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOPX(FWD),
    [0x0d] = OP_LH | LVL(L3) | LVLNUM(L3) | SNOOP(HITM),
    [0x0f] = OP(LOAD) | LVL(MISS) | LVL(L3) | LVLNUM(L3) | SNOOP(HITM),
    [0x10] = OP_LH | LVLNUM(MSC) | SNOOP(NONE),
    [0x11] = OP_LH | LVL(LOC_RAM) | LVLNUM(RAM) | SNOOP(NONE),
};
#define LNC_ZERO_ROW (OP(LOAD) | LVLNUM(NA) | SNOOP(NA))

/*
 * Panther Cove and later (Diamond Rapids; Nova Lake's Coyote Cove): with
 * the L2-miss bit (8) clear, bits 3:0 of the 8-bit source index this L2-hit
 * table: ds.c pnc_pebs_l2_hit_data_source (Linux d2bdcde9626c "perf/x86/
 * intel: Add support for PEBS memory auxiliary info field in DMR").  A 0
 * row (reserved) becomes LNC_ZERO_ROW, as in pnc_latency_data().
 */
static const uint64_t ds_pnc_l2_hit[16] = {
    [0x0] = OP(LOAD) | LVL(NA) | LVLNUM(NA) | SNOOP(NA),
    [0x1] = OP_LH | LVLNUM(L0) | SNOOP(NONE),
    [0x2] = OP_LH | LVL(L1) | LVLNUM(L1) | SNOOP(NONE),
    [0x3] = OP_LH | LVL(LFB) | LVLNUM(LFB) | SNOOP(NONE),
    [0x4] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(NONE),
    [0x7] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(HIT),
    [0x8] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(HITM),
    [0x9] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(MISS),
    [0xa] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(MISS),
    [0xf] = OP_LH | LVL(UNC) | LVLNUM(NA) | SNOOP(NONE),
};

/*
 * Arctic Wolf (Nova Lake E-core): the same layout, its own L2-hit table:
 * ds.c arw_pebs_l2_hit_data_source (Linux 7cd264d1972d "perf/x86/intel:
 * Add support for PEBS memory auxiliary info field in NVL").
 */
static const uint64_t ds_arw_l2_hit[16] = {
    [0x0] = OP(LOAD) | LVL(NA) | LVLNUM(NA) | SNOOP(NA),
    [0x1] = OP_LH | LVL(L1) | LVLNUM(L1) | SNOOP(NONE),
    [0x2] = OP_LH | LVL(LFB) | LVLNUM(LFB) | SNOOP(NONE),
    [0x3] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(NONE),
    [0x4] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(HIT),
    [0x5] = OP_LH | LVL(L2) | LVLNUM(L2) | SNOOP(HITM),
    [0x6] = OP_LH | LVL(UNC) | LVLNUM(NA) | SNOOP(NONE),
};

/*
 * With the L2-miss bit set, the 8-bit source is an OMR encoding (union
 * omr_encoding: 3:0 source, 4 remote, 5 hitm, 6 snoop, 7 promoted) whose
 * source indexes this table: ds.c omr_data_source (d2bdcde9626c), shared by
 * Panther Cove and Arctic Wolf.
 */
static const uint64_t ds_omr[16] = {
    [0x0] = OP(LOAD) | LVL(NA) | LVLNUM(NA) | SNOOP(NA),
    [0x2] = OP_LH | LVL(L3) | LVLNUM(L3) | REGION(L_SHARE),
    [0x3] = OP_LH | LVL(L3) | LVLNUM(L3) | REGION(L_NON_SHARE),
    [0x4] = OP_LH | LVL(L3) | LVLNUM(L3) | REGION(O_IO),
    [0x5] = OP_LH | LVL(L3) | LVLNUM(L3) | REGION(O_SHARE),
    [0x6] = OP_LH | LVL(L3) | LVLNUM(L3) | REGION(O_NON_SHARE),
    [0x7] = OP_LH | LVLNUM(RAM) | REGION(MMIO),
    [0x8] = OP_LH | LVLNUM(RAM) | REGION(MEM0),
    [0x9] = OP_LH | LVLNUM(RAM) | REGION(MEM1),
    [0xa] = OP_LH | LVLNUM(RAM) | REGION(MEM2),
    [0xb] = OP_LH | LVLNUM(RAM) | REGION(MEM3),
    [0xc] = OP_LH | LVLNUM(RAM) | REGION(MEM4),
    [0xd] = OP_LH | LVLNUM(RAM) | REGION(MEM5),
    [0xe] = OP_LH | LVLNUM(RAM) | REGION(MEM6),
    [0xf] = OP_LH | LVLNUM(RAM) | REGION(MEM7),
};

/*
 * How the bits beside the table index are laid out: Linux ds.c's unions
 * and helpers per generation (load_latency_data, store_latency_data,
 * pebs_no_tlb, pebs_block, the grt/cmt/lnc variants).
 */
enum dse_layout {
	DSE_NONE,  /* no data source: reserved (GLM) or absent (Core 2, SLM) */
	DSE_NHM,   /* 3:0 index; no TLB/lock (pebs_no_tlb): TLB NA | LOCK NA */
	DSE_LDLAT, /* load_latency_data: 3:0, 4 STLB miss, 5 lock, BLK NA */
	DSE_BLOCK, /* same + 6 data_blk, 7 addr_blk (pebs_block: SPR, GLC) */
	DSE_GRT,   /* 3:0, 4 lock, 5 STLB miss, 6 data_blk */
	DSE_CMT,   /* 3:0 (of 4:0), 5 lock, 6 STLB miss, 7 fwd_blk */
	DSE_LNC,   /* 7:0, 10 STLB miss, 11 lock, 12 data_blk, 13 addr_blk */
	DSE_OMR,   /* 7:0 source, 8 L2 miss (then 7:0 is OMR), 11 STLB miss, 12 lock,
		      13 data_blk, 14 addr_blk (pnc_ and arw_latency_data) */
};

/* A decoder's table: a full one, or ds_snb with a patch list. */
struct ds_table {
	const uint64_t *base;
	const struct ds_patch *patch;
	unsigned int npatch;
};

// clang-format off
#define FULL(t)     {t, NULL, 0}
#define SNB_WITH(p) {ds_snb, p, ARRAY_SIZE(p)}
// clang-format on

struct dsrc_row {
	const char *name;
	enum dse_layout layout;
	struct ds_table table;
	bool instr_latency; /* PMU_FL_INSTR_LATENCY: meminfo latency split 15:0 / 47:32 */
	const char *source; /* the Linux ds.c functions the row follows */
	/*
	 * DSE_OMR only: the store-latency event carries PERF_X86_EVENT_PEBS_ST_HSW
	 * (INTEL_HYBRID_STLAT_CONSTRAINT), so Linux says STORE for it.
	 */
	bool stlat_store;
	bool reserved; /* legacy record: 0x98 data source and 0xA0 latency reserved */
};

/*
 * One row per decoder, indexed by enum pebs_dsrc.  Which generation uses
 * which decoder is the generation's row (pmu/uarch_table.c), with its source.
 */
// clang-format off
static const struct dsrc_row dsrcs[DSRC_COUNT] = {
    [DSRC_UNKNOWN] = {"unknown", DSE_NONE, {NULL}, false, "-"},
    [DSRC_NA] = {"na", DSE_NONE, {NULL}, false, "no data-source field"},
    [DSRC_RESERVED] = {"reserved", DSE_NONE, {NULL}, false,
		       "SDM Vol. 3B 18.7.1.1: record offsets 0x98/0xA0 reserved", false, true},
    [DSRC_NHM] = {"nhm", DSE_NHM, SNB_WITH(nhm_patch), false,
		  "ds.c intel_pmu_pebs_data_source_nhm, pebs_no_tlb"},
    [DSRC_WSM] = {"wsm", DSE_LDLAT, SNB_WITH(nhm_patch), false,
		  "ds.c intel_pmu_pebs_data_source_nhm, load_latency_data"},
    [DSRC_SNB] = {"snb", DSE_LDLAT, FULL(ds_snb), false,
		  "ds.c pebs_data_source[], load_latency_data"},
    [DSRC_SKL] = {"skl", DSE_LDLAT, SNB_WITH(skl_l4_patch), false,
		  "ds.c __intel_pmu_pebs_data_source_skl(false)"},
    [DSRC_SKX] = {"skx", DSE_LDLAT, SNB_WITH(skl_pmem_patch), false,
		  "ds.c __intel_pmu_pebs_data_source_skl(true)"},
    [DSRC_SPR] = {"spr", DSE_BLOCK, SNB_WITH(skl_pmem_patch), true, "ds.c _skl(true), pebs_block"},
    [DSRC_ADL] = {"adl", DSE_BLOCK, SNB_WITH(skl_l4_patch), true, "ds.c _skl(false), pebs_block"},
    [DSRC_GRT] = {"grt", DSE_GRT, SNB_WITH(grt_patch), true,
		  "ds.c __intel_pmu_pebs_data_source_grt"},
    [DSRC_CMT] = {"cmt", DSE_CMT, SNB_WITH(cmt_patch), true,
		  "ds.c __intel_pmu_pebs_data_source_cmt, cmt_latency_data"},
    [DSRC_LNC] = {"lnc", DSE_LNC, FULL(ds_lnc), true, "ds.c lnc_pebs_data_source (608f6976c309)"},
    [DSRC_PNC] = {"pnc", DSE_OMR, FULL(ds_pnc_l2_hit), true,
		  "ds.c pnc_latency_data, pnc_pebs_l2_hit_data_source, omr_data_source "
		  "(d2bdcde9626c)",
		  true},
    /* ds.c intel_arw_pebs_event_constraints: 0x6d0 is INTEL_HYBRID_LAT_CONSTRAINT (no ST_HSW) */
    [DSRC_ARW] = {"arw", DSE_OMR, FULL(ds_arw_l2_hit), true,
		  "ds.c arw_latency_data, arw_pebs_l2_hit_data_source, omr_data_source "
		  "(7cd264d1972d)",
		  false},
};
// clang-format on

/* The generations' names, pebs-decode --uarch (enum pebs_uarch, lib/types.h). */
static const char *const uarch_names[UARCH_COUNT] = {
    [UARCH_NONE] = "none", [UARCH_CORE2] = "core2", [UARCH_NHM] = "nhm", [UARCH_WSM] = "wsm",
    [UARCH_SNB] = "snb",   [UARCH_IVB] = "ivb",	    [UARCH_HSW] = "hsw", [UARCH_BDW] = "bdw",
    [UARCH_SKL] = "skl",   [UARCH_SKX] = "skx",	    [UARCH_ICL] = "icl", [UARCH_ICX] = "icx",
    [UARCH_SPR] = "spr",   [UARCH_EMR] = "emr",	    [UARCH_GNR] = "gnr", [UARCH_GLC] = "glc",
    [UARCH_GRT] = "grt",   [UARCH_CMT] = "cmt",	    [UARCH_LNC] = "lnc", [UARCH_GLM] = "glm",
    [UARCH_SLM] = "slm",   [UARCH_PNC] = "pnc",	    [UARCH_CYC] = "cyc", [UARCH_ARW] = "arw",
    [UARCH_DKM] = "dkm",   [UARCH_TNT] = "tnt",	    [UARCH_CGC] = "cgc",
};

static const char *const kind_names[KIND_COUNT] = {
    [KIND_LDLAT] = "ldlat",
    [KIND_STORE] = "store",
    [KIND_STLAT] = "stlat",
    [KIND_DATALA_LOAD] = "datala-load",
    [KIND_DATALA_STORE] = "datala-store",
    [KIND_OTHER] = "other",
};

const char *pebs_uarch_name(enum pebs_uarch u)
{
	return (unsigned int)u < UARCH_COUNT ? uarch_names[u] : "?";
}

bool pebs_uarch_from_name(const char *name, enum pebs_uarch *u)
{
	for (unsigned int i = UARCH_NONE + 1; i < UARCH_COUNT; i++) {
		if (!strcmp(name, uarch_names[i])) {
			*u = (enum pebs_uarch)i;
			return true;
		}
	}
	return false;
}

const char *pebs_kind_name(enum pebs_kind k)
{
	return (unsigned int)k < KIND_COUNT ? kind_names[k] : "?";
}

bool pebs_kind_from_name(const char *name, enum pebs_kind *k)
{
	for (unsigned int i = 0; i < KIND_COUNT; i++) {
		if (!strcmp(name, kind_names[i])) {
			*k = (enum pebs_kind)i;
			return true;
		}
	}
	return false;
}

bool pebs_dsrc_has_data_src(enum pebs_dsrc d)
{
	return (unsigned int)d < DSRC_COUNT && dsrcs[d].layout != DSE_NONE;
}

bool pebs_dsrc_reserved(enum pebs_dsrc d)
{
	return (unsigned int)d < DSRC_COUNT && dsrcs[d].reserved;
}

bool pebs_dsrc_instr_latency(enum pebs_dsrc d)
{
	return (unsigned int)d < DSRC_COUNT && dsrcs[d].instr_latency;
}

const char *pebs_dsrc_name(enum pebs_dsrc d)
{
	return (unsigned int)d < DSRC_COUNT ? dsrcs[d].name : "?";
}

const char *pebs_dsrc_source(enum pebs_dsrc d)
{
	return (unsigned int)d < DSRC_COUNT ? dsrcs[d].source : "?";
}

/* Row i of the decoder's table: its patch when it has one, else the base. */
static uint64_t table_row(const struct dsrc_row *ua, unsigned int i)
{
	const struct ds_table *t = &ua->table;

	for (unsigned int n = 0; n < t->npatch; n++) {
		if (t->patch[n].idx == i)
			return t->patch[n].val;
	}
	return t->base[i];
}

/*
 * A remote HITM: a row with mem_remote and snoop HITM (ds.c
 * pebs_data_source[0x09], _skl [0x0d], _cmt [0x0d]), or the OMR encoding's
 * remote and hitm bits (union omr_encoding, bits 4 and 5).  Lion Cove's
 * lnc_pebs_data_source has none: those parts are one package.
 */
bool pebs_dsrc_remote_hitm(enum pebs_dsrc d)
{
	const struct dsrc_row *ua;
	unsigned int rows;

	if (!pebs_dsrc_has_data_src(d))
		return false;
	ua = &dsrcs[d];
	if (ua->layout == DSE_OMR)
		return true;
	rows = ua->layout == DSE_LNC ? ARRAY_SIZE(ds_lnc) : ARRAY_SIZE(ds_snb);
	for (unsigned int i = 0; i < rows; i++) {
		uint64_t v = table_row(ua, i);

		if ((v & REMOTE) && (MEM_FIELD(v, SNOOP) & MEM_SNOOP_HITM))
			return true;
	}
	return false;
}

/* ds.c pebs_set_tlb_lock(): STLB miss or hit, and the lock bit. */
static uint64_t tlb_lock(bool stlb_miss, bool locked)
{
	uint64_t v = stlb_miss ? TLB(MISS) | TLB(L2) : TLB(HIT) | TLB(L1) | TLB(L2);

	return locked ? v | LOCK(LOCKED) : v;
}

static uint64_t blk(bool data, bool addr)
{
	uint64_t v = (data ? BLK(DATA) : 0) | (addr ? BLK(ADDR) : 0);

	return v ? v : BLK(NA);
}

static inline bool bit(uint64_t v, unsigned int n)
{
	return (v >> n) & 1;
}

/*
 * ds.c parse_omr_data_source(): the OMR source's row; an L3-class source
 * (2..6) adds REM_CCE1 when remote, a memory region (8..15) REM_RAM1 or
 * LOC_RAM (MMIO, 7, neither); remote sets mem_remote; snoop HITM or HIT
 * from bit 5.  Source 2 (local shared cache) also ORs, from snoop | promoted
 * (bit 6 | bit 7 as one-bit values): 0 NA, 1 MISS.  Sources 3..6 add
 * SNOOPX FWD when bit 6 is set.
 */
static uint64_t omr_data_src(uint8_t omr)
{
	unsigned int src = omr & 0xf;
	bool remote = bit(omr, 4), snoop = bit(omr, 6), promoted = bit(omr, 7);
	uint64_t v = ds_omr[src];

	if (src > 1 && src < 7)
		v |= remote ? LVL(REM_CCE1) : 0;
	else if (src > 7)
		v |= remote ? LVL(REM_RAM1) : LVL(LOC_RAM);
	if (remote)
		v |= REMOTE;
	v |= bit(omr, 5) ? SNOOP(HITM) : SNOOP(HIT);
	if (src == 2)
		v |= (snoop | promoted) ? SNOOP(MISS) : SNOOP(NA);
	else if (src > 2 && src < 7 && snoop)
		v |= SNOOPX(FWD);
	return v;
}

/*
 * ds.c pnc_latency_data() / arw_latency_data(): the L2-hit table or the OMR
 * encoding, a 0 result replaced, then TLB, lock and blocked bits (decoded
 * whatever pebs_block says), STORE only where the event has ST_HSW.
 */
static uint64_t omr_latency_data(const struct dsrc_row *ua, uint64_t dse, bool store)
{
	uint64_t v = bit(dse, 8) ? omr_data_src((uint8_t)dse) : table_row(ua, dse & 0xf);

	if (!v)
		v = LNC_ZERO_ROW;
	v |= tlb_lock(bit(dse, 11), bit(dse, 12)) | blk(bit(dse, 13), bit(dse, 14));
	return store && ua->stlat_store ? (v & ~MEM_F_OP) | OP(STORE) : v;
}

/*
 * ds.c store_latency_data(), the store-latency event (STLAT) of the big
 * cores: the 4-bit table index, bit 4 STLB miss, bit 5 lock, BLK NA, and
 * mem_op forced to STORE.  It tests neither pebs_no_tlb nor pebs_block, so
 * it is the same whatever the load layout of the uarch.
 */
static uint64_t store_latency_data(const struct dsrc_row *ua, uint64_t dse)
{
	uint64_t v = table_row(ua, dse & 0xf) | tlb_lock(bit(dse, 4), bit(dse, 5)) | BLK(NA);

	return (v & ~MEM_F_OP) | OP(STORE);
}

/* Load latency / store latency, per layout (ds.c *_latency_data). */
static uint64_t latency_data(const struct dsrc_row *ua, uint64_t dse, bool store)
{
	uint64_t v;

	switch (ua->layout) {
	case DSE_NHM:
		if (store)
			return store_latency_data(ua, dse);
		return table_row(ua, dse & 0xf) | TLB(NA) | LOCK(NA);
	case DSE_LDLAT:
		if (store)
			return store_latency_data(ua, dse);
		return table_row(ua, dse & 0xf) | tlb_lock(bit(dse, 4), bit(dse, 5)) | BLK(NA);
	case DSE_BLOCK:
		if (store)
			return store_latency_data(ua, dse);
		return table_row(ua, dse & 0xf) | tlb_lock(bit(dse, 4), bit(dse, 5)) |
		       blk(bit(dse, 6), bit(dse, 7));
	/*
	 * E-cores: ds.c __grt_latency_data() serves both the load- and the
	 * store-latency event (both are INTEL_HYBRID_LAT_CONSTRAINT, 0x5d0 and
	 * 0x6d0) and never rewrites mem_op, so Linux says LOAD for a store
	 * here too.  We report what Linux reports (docs/DECODER.md, Review).
	 */
	case DSE_GRT:
		return table_row(ua, dse & 0xf) | tlb_lock(bit(dse, 5), bit(dse, 4)) |
		       blk(bit(dse, 6), false);
	case DSE_CMT:
		return table_row(ua, dse & 0xf) | tlb_lock(bit(dse, 6), bit(dse, 5)) |
		       blk(bit(dse, 7), false);
	case DSE_LNC:
		/* lnc_latency_data(): block bits for stores too; STORE for STLAT */
		v = table_row(ua, dse & 0xff);
		if (!v)
			v = LNC_ZERO_ROW;
		v |= tlb_lock(bit(dse, 10), bit(dse, 11)) | blk(bit(dse, 12), bit(dse, 13));
		return store ? (v & ~MEM_F_OP) | OP(STORE) : v;
	case DSE_OMR:
		return omr_latency_data(ua, dse, store);
	default:
		return MEM_NA;
	}
}

/* SNB/IVB precise store status (ds.c precise_store_data; SDM "Table 19"). */
static uint64_t precise_store(uint64_t st)
{
	uint64_t v = OP(STORE) | SNOOP(NA) | LVL(L1) | TLB(L2);

	v |= bit(st, 4) ? TLB(MISS) : TLB(HIT);
	v |= bit(st, 0) ? LVL(HIT) : LVL(MISS);
	if (bit(st, 5))
		v |= LOCK(LOCKED);
	return v;
}

/* HSW+ DataLA (ds.c precise_datala_hsw): only bit 0 for stores. */
static uint64_t datala(uint64_t st, bool store)
{
	uint64_t v = MEM_NA & ~MEM_F_OP;

	if (!store)
		return v | OP(LOAD);
	v = (v & ~MEM_F_LVL) | OP(STORE);
	return v | (bit(st, 0) ? LVL(L1) | LVL(HIT) : LVL(L1) | LVL(MISS));
}

uint64_t pebs_data_src(enum pebs_dsrc d, enum pebs_kind k, uint64_t dse)
{
	const struct dsrc_row *ua;

	if (!pebs_dsrc_has_data_src(d))
		return MEM_NA;
	ua = &dsrcs[d];
	switch (k) {
	case KIND_LDLAT:
		return latency_data(ua, dse, false);
	case KIND_STLAT:
		return latency_data(ua, dse, true);
	case KIND_STORE:
		return precise_store(dse);
	case KIND_DATALA_LOAD:
		return datala(dse, false);
	case KIND_DATALA_STORE:
		return datala(dse, true);
	default:
		return MEM_NA;
	}
}

/* ---- perf's words (tools/perf/util/mem-events.c) ---- */

static const char *const lvl_names[] = {
    "N/A",
    "HIT",
    "MISS",
    "L1",
    "LFB/MAB",
    "L2",
    "L3",
    "Local RAM",
    "Remote RAM (1 hop)",
    "Remote RAM (2 hops)",
    "Remote Cache (1 hop)",
    "Remote Cache (2 hops)",
    "I/O",
    "Uncached",
};

static const char *const lvlnum_names[16] = {
    [MEM_LVLNUM_L1] = "L1",
    [MEM_LVLNUM_L2] = "L2",
    [MEM_LVLNUM_L3] = "L3",
    [MEM_LVLNUM_L4] = "L4",
    [MEM_LVLNUM_L2_MHB] = "L2 MHB",
    [MEM_LVLNUM_MSC] = "Memory-side Cache",
    /* uapi comment of PERF_MEM_LVLNUM_L0 (d2bdcde9626c); perf's own word: NOT FOUND */
    [MEM_LVLNUM_L0] = "L0",
    [MEM_LVLNUM_UNC] = "Uncached",
    [MEM_LVLNUM_CXL] = "CXL",
    [MEM_LVLNUM_IO] = "I/O",
    [MEM_LVLNUM_ANY_CACHE] = "Any cache",
    [MEM_LVLNUM_LFB] = "LFB/MAB",
    [MEM_LVLNUM_RAM] = "RAM",
    [MEM_LVLNUM_PMEM] = "PMEM",
    [MEM_LVLNUM_NA] = "N/A",
};

static const char *const snoop_names[] = {"N/A", "None", "Hit", "Miss", "HitM"};
static const char *const tlb_names[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};

/* Appends name to a fixed buffer, never overflowing. */
static void cat(char *out, size_t size, size_t *len, const char *s)
{
	while (*s && *len + 1 < size)
		out[(*len)++] = *s++;
	out[*len] = '\0';
}

/* Names of the set bits of m (bit i -> names[i]) joined by " or ". */
static unsigned int cat_bits(char *out, size_t size, size_t *len, uint64_t m,
			     const char *const *names, unsigned int n)
{
	unsigned int printed = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (!(m & (1ULL << i)))
			continue;
		if (printed++)
			cat(out, size, len, " or ");
		cat(out, size, len, names[i]);
	}
	return printed;
}

/*
 * Level: the legacy mem_lvl names when a level bit is set ("L3 hit",
 * "Local RAM hit", "Remote Cache (1 hop) hit"), else the mem_lvl_num name
 * with "Remote " when mem_remote ("Remote Any cache hit", "L2 MHB hit"),
 * else "N/A"; then " hit" / " miss" from the HIT/MISS bits.  Current perf
 * (mem-events.c since the lvlnum-first rewrite) tries mem_lvl_num first and
 * so says "RAM hit" / "Remote L3 hit" where this says "Local RAM hit" /
 * "Remote Cache (1 hop) hit": the mem_lvl words carry more (local vs
 * remote, hops), and docs/DECODER.md promises them.
 */
static void describe_level(uint64_t ds, char *out, size_t size)
{
	uint64_t lvl = (ds & MEM_F_LVL) >> MEM_LVL_SHIFT;
	unsigned int num = (ds & MEM_F_LVLNUM) >> MEM_LVLNUM_SHIFT;
	uint64_t places = lvl & ~(uint64_t)(MEM_LVL_NA | MEM_LVL_HIT | MEM_LVL_MISS);
	size_t len = 0;

	out[0] = '\0';
	if (places) {
		cat_bits(out, size, &len, places, lvl_names, ARRAY_SIZE(lvl_names));
	} else if (num && num != MEM_LVLNUM_NA) {
		if (ds & REMOTE)
			cat(out, size, &len, "Remote ");
		cat(out, size, &len, lvlnum_names[num] ? lvlnum_names[num] : "Unknown level");
	} else {
		cat(out, size, &len, "N/A");
		return;
	}
	if (lvl & MEM_LVL_HIT)
		cat(out, size, &len, " hit");
	else if (lvl & MEM_LVL_MISS)
		cat(out, size, &len, " miss");
}

void pebs_mem_describe(uint64_t ds, struct pebs_mem_words *w)
{
	uint64_t op = ds & MEM_F_OP;
	uint64_t snoop = (ds & MEM_F_SNOOP) >> MEM_SNOOP_SHIFT;
	uint64_t snoopx = (ds & MEM_F_SNOOPX) >> MEM_SNOOPX_SHIFT;
	uint64_t tlb = (ds & MEM_F_TLB) >> MEM_TLB_SHIFT;
	uint64_t lock = (ds & MEM_F_LOCK) >> MEM_LOCK_SHIFT;
	uint64_t b = (ds & MEM_F_BLK) >> MEM_BLK_SHIFT;
	unsigned int n;
	size_t len;

	/* op: perf_mem__op_scnprintf, NA first, "No" when no bit is set */
	len = 0;
	w->op[0] = '\0';
	if (op & MEM_OP_NA)
		cat(w->op, sizeof(w->op), &len, "N/A");
	else if (op & MEM_OP_LOAD)
		cat(w->op, sizeof(w->op), &len, "LOAD");
	else if (op & MEM_OP_STORE)
		cat(w->op, sizeof(w->op), &len, "STORE");
	else if (op & MEM_OP_PFETCH)
		cat(w->op, sizeof(w->op), &len, "PFETCH");
	else if (op & MEM_OP_EXEC)
		cat(w->op, sizeof(w->op), &len, "EXEC");
	else
		cat(w->op, sizeof(w->op), &len, "No");

	describe_level(ds, w->level, sizeof(w->level));

	len = 0;
	w->snoop[0] = '\0';
	n = cat_bits(w->snoop, sizeof(w->snoop), &len, snoop, snoop_names, ARRAY_SIZE(snoop_names));
	if (snoopx & MEM_SNOOPX_FWD) {
		if (n++)
			cat(w->snoop, sizeof(w->snoop), &len, " or ");
		cat(w->snoop, sizeof(w->snoop), &len, "Fwd");
	}
	if (snoopx & MEM_SNOOPX_PEER) {
		if (n++)
			cat(w->snoop, sizeof(w->snoop), &len, " or ");
		cat(w->snoop, sizeof(w->snoop), &len, "Peer");
	}
	if (!n)
		cat(w->snoop, sizeof(w->snoop), &len, "N/A");

	/* TLB: level names joined, then " hit" / " miss" (perf_mem__tlb_scnprintf) */
	len = 0;
	w->tlb[0] = '\0';
	n = cat_bits(w->tlb, sizeof(w->tlb), &len, tlb & ~(uint64_t)(MEM_TLB_HIT | MEM_TLB_MISS),
		     tlb_names, ARRAY_SIZE(tlb_names));
	if (!n)
		cat(w->tlb, sizeof(w->tlb), &len, "N/A");
	if (tlb & MEM_TLB_HIT)
		cat(w->tlb, sizeof(w->tlb), &len, " hit");
	if (tlb & MEM_TLB_MISS)
		cat(w->tlb, sizeof(w->tlb), &len, " miss");

	len = 0;
	w->lock[0] = '\0';
	cat(w->lock, sizeof(w->lock), &len,
	    (lock & MEM_LOCK_NA)       ? "N/A"
	    : (lock & MEM_LOCK_LOCKED) ? "Yes"
				       : "No");

	len = 0;
	w->blocked[0] = '\0';
	if (!b || (b & MEM_BLK_NA)) {
		cat(w->blocked, sizeof(w->blocked), &len, "N/A");
	} else {
		if (b & MEM_BLK_DATA)
			cat(w->blocked, sizeof(w->blocked), &len, "Data");
		if ((b & MEM_BLK_DATA) && (b & MEM_BLK_ADDR))
			cat(w->blocked, sizeof(w->blocked), &len, " ");
		if (b & MEM_BLK_ADDR)
			cat(w->blocked, sizeof(w->blocked), &len, "Addr");
	}
}
