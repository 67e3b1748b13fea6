// SPDX-License-Identifier: MIT
/*
 * test_decode_datasrc.c - every data-source row of every microarchitecture
 * table, each extra bit (STLB miss, lock, blocked), SNB/IVB store status,
 * DataLA, and perf's words.
 *
 * Expected values are composed here from the union perf_mem_data_src bit
 * layout (include/uapi/linux/perf_event.h, pebs-formats.md 6.1), with our
 * own constants below, NOT from decode/'s tables; each composed row is also
 * checked against the worked u64 of pebs-formats.md 6.2-6.4 so a mistake in
 * these constants cannot hide.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "decode/decode.h"

/* UAPI perf_mem_data_src: field shifts and values. */
#define OP_SH  0
#define LVL_SH 5
#define SNP_SH 19
#define LCK_SH 24
#define TLB_SH 26
#define NUM_SH 33
#define REM_SH 37
#define SNX_SH 38
#define BLK_SH 40

#define T_OP_NA	       (1ULL << OP_SH)
#define T_OP_LOAD      (2ULL << OP_SH)
#define T_OP_STORE     (4ULL << OP_SH)
#define T_LVL_NA       (0x1ULL << LVL_SH)
#define T_LVL_HIT      (0x2ULL << LVL_SH)
#define T_LVL_MISS     (0x4ULL << LVL_SH)
#define T_LVL_L1       (0x8ULL << LVL_SH)
#define T_LVL_LFB      (0x10ULL << LVL_SH)
#define T_LVL_L2       (0x20ULL << LVL_SH)
#define T_LVL_L3       (0x40ULL << LVL_SH)
#define T_LVL_LOC_RAM  (0x80ULL << LVL_SH)
#define T_LVL_REM_RAM1 (0x100ULL << LVL_SH)
#define T_LVL_REM_CCE1 (0x400ULL << LVL_SH)
#define T_LVL_IO       (0x1000ULL << LVL_SH)
#define T_LVL_UNC      (0x2000ULL << LVL_SH)
#define T_SNP_NA       (0x1ULL << SNP_SH)
#define T_SNP_NONE     (0x2ULL << SNP_SH)
#define T_SNP_HIT      (0x4ULL << SNP_SH)
#define T_SNP_MISS     (0x8ULL << SNP_SH)
#define T_SNP_HITM     (0x10ULL << SNP_SH)
#define T_LCK_NA       (0x1ULL << LCK_SH)
#define T_LCK_LOCKED   (0x2ULL << LCK_SH)
#define T_TLB_NA       (0x1ULL << TLB_SH)
#define T_TLB_HIT      (0x2ULL << TLB_SH)
#define T_TLB_MISS     (0x4ULL << TLB_SH)
#define T_TLB_L1       (0x8ULL << TLB_SH)
#define T_TLB_L2       (0x10ULL << TLB_SH)
#define T_TLB_WK       (0x20ULL << TLB_SH)
#define T_NUM(n)       ((uint64_t)(n) << NUM_SH)
#define N_L1	       1
#define N_L2	       2
#define N_L3	       3
#define N_L4	       4
#define N_L2_MHB       5
#define N_MSC	       6
#define N_ANY	       0xb
#define N_LFB	       0xc
#define N_RAM	       0xd
#define N_PMEM	       0xe
#define N_NA	       0xf
#define T_REMOTE       (1ULL << REM_SH)
#define T_FWD	       (1ULL << SNX_SH)
#define T_BLK_NA       (1ULL << BLK_SH)
#define T_BLK_DATA     (2ULL << BLK_SH)
#define T_BLK_ADDR     (4ULL << BLK_SH)

#define LH	  (T_OP_LOAD | T_LVL_HIT)
#define T_MEM_NA  (T_OP_NA | T_LVL_NA | T_SNP_NA | T_LCK_NA | T_TLB_NA | T_NUM(N_NA))
#define STLB_HIT  (T_TLB_HIT | T_TLB_L1 | T_TLB_L2)
#define STLB_MISS (T_TLB_MISS | T_TLB_L2)

struct row {
	uint64_t composed; /* from the definitions */
	uint64_t sheet;	   /* the worked value of pebs-formats.md 6.2-6.3 */
};

/* 6.2: the SNB..BDW table (SDM Table 18-24 as ds.c maps it). */
static const struct row snb[16] = {
    {T_OP_LOAD | T_LVL_MISS | T_NUM(N_L3) | T_SNP_NA, 0x600080082},
    {LH | T_LVL_L1 | T_NUM(N_L1) | T_SNP_NONE, 0x200100142},
    {LH | T_LVL_LFB | T_NUM(N_LFB) | T_SNP_NONE, 0x1800100242},
    {LH | T_LVL_L2 | T_NUM(N_L2) | T_SNP_NONE, 0x400100442},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_NONE, 0x600100842},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_MISS, 0x600400842},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HIT, 0x600200842},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842},
    {LH | T_LVL_REM_CCE1 | T_REMOTE | T_NUM(N_L3) | T_SNP_HIT, 0x2600208042},
    {LH | T_LVL_REM_CCE1 | T_REMOTE | T_NUM(N_L3) | T_SNP_HITM, 0x2600808042},
    {LH | T_LVL_LOC_RAM | T_NUM(N_RAM) | T_SNP_HIT, 0x1A00201042},
    {LH | T_LVL_REM_RAM1 | T_REMOTE | T_NUM(N_L3) | T_SNP_HIT, 0x2600202042},
    {LH | T_LVL_LOC_RAM | T_NUM(N_RAM) | T_SNP_NONE | T_SNP_MISS, 0x1A00501042},
    {LH | T_LVL_REM_RAM1 | T_NUM(N_RAM) | T_REMOTE | T_SNP_NONE | T_SNP_MISS, 0x3A00502042},
    {LH | T_LVL_IO | T_NUM(N_NA) | T_SNP_NONE, 0x1E00120042},
    {LH | T_LVL_UNC | T_NUM(N_NA) | T_SNP_NONE, 0x1E00140042},
};

static struct row nhm[16], skl_l4[16], skl_pmem[16], grt[16], cmt[16];

/* LNC (6.3): rows 0..0x11; every other index is 0 -> LOAD | num NA | snoop NA. */
static const struct row lnc_rows[0x12] = {
    {T_OP_LOAD | T_LVL_MISS | T_NUM(N_L3) | T_SNP_NA, 0x600080082},
    {LH | T_LVL_L1 | T_NUM(N_L1) | T_SNP_NONE, 0x200100142},
    {LH | T_LVL_L1 | T_NUM(N_L1) | T_SNP_NONE, 0x200100142},
    {LH | T_LVL_LFB | T_NUM(N_LFB) | T_SNP_NONE, 0x1800100242},
    {0, 0},
    {LH | T_LVL_L2 | T_NUM(N_L2) | T_SNP_NONE, 0x400100442},
    {LH | T_NUM(N_L2_MHB) | T_SNP_NONE, 0xA00100042},
    {0, 0},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_NONE, 0x600100842},
    {0, 0},
    {0, 0},
    {0, 0},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_FWD, 0x4600000842},
    {LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842},
    {0, 0},
    {T_OP_LOAD | T_LVL_MISS | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800882},
    {LH | T_NUM(N_MSC) | T_SNP_NONE, 0xC00100042},
    {LH | T_LVL_LOC_RAM | T_NUM(N_RAM) | T_SNP_NONE, 0x1A00101042},
};
#define LNC_ZERO (T_OP_LOAD | T_NUM(N_NA) | T_SNP_NA)

static void set(struct row *t, unsigned int i, uint64_t composed, uint64_t sheet)
{
	t[i].composed = composed;
	t[i].sheet = sheet;
}

/* The override tables of 6.3, each built on a copy of the SNB table. */
static int setup_tables(void **state)
{
	memcpy(nhm, snb, sizeof(snb));
	set(nhm, 5, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HIT, 0x600200842);
	set(nhm, 6, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842);
	set(nhm, 7, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842);

	memcpy(skl_l4, snb, sizeof(snb));
	set(skl_l4, 8, LH | T_NUM(N_L4) | T_SNP_HIT, 0x800200042);
	set(skl_l4, 9, LH | T_NUM(N_L4) | T_REMOTE | T_SNP_HIT, 0x2800200042);
	set(skl_l4, 0xb, LH | T_NUM(N_RAM) | T_REMOTE | T_SNP_NONE, 0x3A00100042);
	set(skl_l4, 0xc, LH | T_NUM(N_ANY) | T_REMOTE | T_FWD, 0x7600000042);
	set(skl_l4, 0xd, LH | T_NUM(N_ANY) | T_REMOTE | T_SNP_HITM, 0x3600800042);
	memcpy(skl_pmem, skl_l4, sizeof(snb));
	set(skl_pmem, 8, LH | T_NUM(N_PMEM) | T_SNP_HIT, 0x1C00200042);
	set(skl_pmem, 9, LH | T_NUM(N_PMEM) | T_REMOTE | T_SNP_HIT, 0x3C00200042);

	memcpy(grt, snb, sizeof(snb));
	set(grt, 5, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HIT, 0x600200842);
	set(grt, 6, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842);
	set(grt, 8, LH | T_LVL_L3 | T_NUM(N_L3) | T_FWD, 0x4600000842);

	memcpy(cmt, snb, sizeof(snb));
	set(cmt, 7, LH | T_LVL_L3 | T_NUM(N_L3) | T_FWD, 0x4600000842);
	set(cmt, 8, LH | T_LVL_L3 | T_NUM(N_L3) | T_SNP_HITM, 0x600800842);
	set(cmt, 0xa, LH | T_LVL_LOC_RAM | T_NUM(N_RAM) | T_SNP_NONE, 0x1A00101042);
	set(cmt, 0xb, LH | T_NUM(N_RAM) | T_REMOTE | T_SNP_NONE, 0x3A00100042);
	set(cmt, 0xc, LH | T_NUM(N_RAM) | T_REMOTE | T_FWD, 0x7A00000042);
	set(cmt, 0xd, LH | T_NUM(N_RAM) | T_REMOTE | T_SNP_HITM, 0x3A00800042);
	return 0;
}

/* The hand-worked value and the one composed here must agree. */
static void check_rows(const struct row *t, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (t[i].composed != t[i].sheet)
			fail_msg("row 0x%x: composed 0x%llx, sheet 0x%llx", i,
				 (unsigned long long)t[i].composed, (unsigned long long)t[i].sheet);
	}
}

static void test_tables_match_sheet(void **state)
{
	check_rows(snb, 16);
	check_rows(nhm, 16);
	check_rows(skl_l4, 16);
	check_rows(skl_pmem, 16);
	check_rows(grt, 16);
	check_rows(cmt, 16);
	check_rows(lnc_rows, 0x12);
	assert_int_equal(LNC_ZERO, 0x1E00080002ULL);
	assert_int_equal(STLB_MISS, 0x50000000ULL);
	assert_int_equal(STLB_HIT, 0x68000000ULL);
	assert_int_equal(T_LCK_LOCKED, 0x2000000ULL);
	assert_int_equal(T_MEM_NA, 0x1E05080021ULL);
}

static void expect_src(enum pebs_uarch u, enum pebs_kind k, uint64_t dse, uint64_t want)
{
	uint64_t got = pebs_data_src(u, k, dse);

	if (got != want)
		fail_msg("%s/%s dse 0x%llx: got 0x%llx, want 0x%llx", pebs_uarch_name(u),
			 pebs_kind_name(k), (unsigned long long)dse, (unsigned long long)got,
			 (unsigned long long)want);
}

/* Each row with no extra bits set: what the decoder's layout adds then. */
static void rows_plain(enum pebs_uarch u, const struct row *t, uint64_t extra)
{
	for (unsigned int i = 0; i < 16; i++)
		expect_src(u, KIND_LDLAT, i, t[i].composed | extra);
}

static void test_nhm_wsm(void **state)
{
	/* NHM: pebs_no_tlb, TLB NA | LOCK NA, bits 4/5 ignored, no BLK */
	rows_plain(UARCH_NHM, nhm, T_TLB_NA | T_LCK_NA);
	expect_src(UARCH_NHM, KIND_LDLAT, 0x31, nhm[1].composed | T_TLB_NA | T_LCK_NA);
	/* WSM: NHM table, TLB and lock decoded, BLK NA */
	rows_plain(UARCH_WSM, nhm, STLB_HIT | T_BLK_NA);
	expect_src(UARCH_WSM, KIND_LDLAT, 0x13, nhm[3].composed | STLB_MISS | T_BLK_NA);
	expect_src(UARCH_WSM, KIND_LDLAT, 0x27,
		   nhm[7].composed | STLB_HIT | T_LCK_LOCKED | T_BLK_NA);
}

static void test_snb_to_bdw(void **state)
{
	static const enum pebs_uarch us[] = {UARCH_SNB, UARCH_IVB, UARCH_HSW, UARCH_BDW};

	for (unsigned int i = 0; i < 4; i++) {
		rows_plain(us[i], snb, STLB_HIT | T_BLK_NA);
		expect_src(us[i], KIND_LDLAT, 0x10 | 0x4, snb[4].composed | STLB_MISS | T_BLK_NA);
		expect_src(us[i], KIND_LDLAT, 0x20 | 0x1,
			   snb[1].composed | STLB_HIT | T_LCK_LOCKED | T_BLK_NA);
		/* bits 6/7 are not block info before SPR: still BLK NA */
		expect_src(us[i], KIND_LDLAT, 0xc0 | 0x2, snb[2].composed | STLB_HIT | T_BLK_NA);
	}
}

static void test_skl_icl(void **state)
{
	rows_plain(UARCH_SKL, skl_l4, STLB_HIT | T_BLK_NA);
	rows_plain(UARCH_ICL, skl_l4, STLB_HIT | T_BLK_NA);
	rows_plain(UARCH_SKX, skl_pmem, STLB_HIT | T_BLK_NA);
	rows_plain(UARCH_ICX, skl_pmem, STLB_HIT | T_BLK_NA);
	expect_src(UARCH_SKL, KIND_LDLAT, 0x38,
		   skl_l4[8].composed | STLB_MISS | T_LCK_LOCKED | T_BLK_NA);
	expect_src(UARCH_ICX, KIND_LDLAT, 0x49, skl_pmem[9].composed | STLB_HIT | T_BLK_NA);
}

static void test_spr_glc_block(void **state)
{
	static const enum pebs_uarch pm[] = {UARCH_SPR, UARCH_EMR, UARCH_GNR};

	for (unsigned int i = 0; i < 3; i++) {
		rows_plain(pm[i], skl_pmem, STLB_HIT | T_BLK_NA);
		expect_src(pm[i], KIND_LDLAT, 0x40 | 0x3,
			   skl_pmem[3].composed | STLB_HIT | T_BLK_DATA);
		expect_src(pm[i], KIND_LDLAT, 0x80 | 0x3,
			   skl_pmem[3].composed | STLB_HIT | T_BLK_ADDR);
		expect_src(pm[i], KIND_LDLAT, 0xf0 | 0xc,
			   skl_pmem[0xc].composed | STLB_MISS | T_LCK_LOCKED | T_BLK_DATA |
			       T_BLK_ADDR);
	}
	rows_plain(UARCH_GLC, skl_l4, STLB_HIT | T_BLK_NA);
	expect_src(UARCH_GLC, KIND_LDLAT, 0x48, skl_l4[8].composed | STLB_HIT | T_BLK_DATA);
}

static void test_grt(void **state)
{
	rows_plain(UARCH_GRT, grt, STLB_HIT | T_BLK_NA);
	/* bit 4 = lock, bit 5 = STLB miss (swapped), bit 6 = data blocked */
	expect_src(UARCH_GRT, KIND_LDLAT, 0x10 | 0x1,
		   grt[1].composed | STLB_HIT | T_LCK_LOCKED | T_BLK_NA);
	expect_src(UARCH_GRT, KIND_LDLAT, 0x20 | 0x1, grt[1].composed | STLB_MISS | T_BLK_NA);
	expect_src(UARCH_GRT, KIND_LDLAT, 0x40 | 0x8, grt[8].composed | STLB_HIT | T_BLK_DATA);
	expect_src(UARCH_GRT, KIND_LDLAT, 0x80 | 0x8, grt[8].composed | STLB_HIT | T_BLK_NA);
}

static void test_cmt(void **state)
{
	rows_plain(UARCH_CMT, cmt, STLB_HIT | T_BLK_NA);
	/* 5 lock, 6 STLB miss, 7 fwd blocked; bit 4 is in the field but unused */
	expect_src(UARCH_CMT, KIND_LDLAT, 0x20 | 0x7,
		   cmt[7].composed | STLB_HIT | T_LCK_LOCKED | T_BLK_NA);
	expect_src(UARCH_CMT, KIND_LDLAT, 0x40 | 0xa, cmt[0xa].composed | STLB_MISS | T_BLK_NA);
	expect_src(UARCH_CMT, KIND_LDLAT, 0x80 | 0xd, cmt[0xd].composed | STLB_HIT | T_BLK_DATA);
	expect_src(UARCH_CMT, KIND_LDLAT, 0x10 | 0x4, cmt[4].composed | STLB_HIT | T_BLK_NA);
}

static void test_lnc(void **state)
{
	for (unsigned int i = 0; i < 256; i++) {
		uint64_t base = i < 0x12 && lnc_rows[i].composed ? lnc_rows[i].composed : LNC_ZERO;

		expect_src(UARCH_LNC, KIND_LDLAT, i, base | STLB_HIT | T_BLK_NA);
	}
	/* 10 STLB miss, 11 lock, 12 data_blk, 13 addr_blk; 9:8 reserved */
	expect_src(UARCH_LNC, KIND_LDLAT, 0x400 | 0x11,
		   lnc_rows[0x11].composed | STLB_MISS | T_BLK_NA);
	expect_src(UARCH_LNC, KIND_LDLAT, 0x800 | 0x05,
		   lnc_rows[5].composed | STLB_HIT | T_LCK_LOCKED | T_BLK_NA);
	expect_src(UARCH_LNC, KIND_LDLAT, 0x1000 | 0x08,
		   lnc_rows[8].composed | STLB_HIT | T_BLK_DATA);
	expect_src(UARCH_LNC, KIND_LDLAT, 0x2000 | 0x08,
		   lnc_rows[8].composed | STLB_HIT | T_BLK_ADDR);
	expect_src(UARCH_LNC, KIND_LDLAT, 0x300 | 0x01, lnc_rows[1].composed | STLB_HIT | T_BLK_NA);
	/* a store: same table, mem_op STORE */
	expect_src(UARCH_LNC, KIND_STLAT, 0x01,
		   (lnc_rows[1].composed & ~T_OP_LOAD) | T_OP_STORE | STLB_HIT | T_BLK_NA);
}

static void test_store_latency(void **state)
{
	/* store_latency_data: table row, op forced to STORE, TLB/lock, BLK NA */
	for (unsigned int i = 0; i < 16; i++)
		expect_src(UARCH_SPR, KIND_STLAT, i,
			   (skl_pmem[i].composed & ~(0x1fULL)) | T_OP_STORE | STLB_HIT | T_BLK_NA);
	expect_src(UARCH_SPR, KIND_STLAT, 0xf1,
		   (skl_pmem[1].composed & ~(0x1fULL)) | T_OP_STORE | STLB_MISS | T_LCK_LOCKED |
		       T_BLK_NA);
}

/*
 * The store-latency kind on every layout, as Linux reads it:
 * - big cores: ds.c store_latency_data() tests neither pebs_no_tlb nor
 *   pebs_block, so NHM/WSM/SKL also get bits 4/5 as STLB miss/lock, BLK NA
 *   and mem_op STORE;
 * - E-cores: the store event 0x6d0 is an INTEL_HYBRID_LAT_CONSTRAINT and
 *   goes to __grt_latency_data(), which never rewrites mem_op: LOAD stays,
 *   the extra bits are read exactly as for loads.
 */
static void test_store_latency_layouts(void **state)
{
	const uint64_t op_mask = 0x1f;

	expect_src(UARCH_NHM, KIND_STLAT, 0x31,
		   (nhm[1].composed & ~op_mask) | T_OP_STORE | STLB_MISS | T_LCK_LOCKED | T_BLK_NA);
	expect_src(UARCH_WSM, KIND_STLAT, 0xc5,
		   (nhm[5].composed & ~op_mask) | T_OP_STORE | STLB_HIT | T_BLK_NA);
	expect_src(UARCH_SKL, KIND_STLAT, 0x18,
		   (skl_l4[8].composed & ~op_mask) | T_OP_STORE | STLB_MISS | T_BLK_NA);
	/* GLC: block bits 6/7 are not read for stores */
	expect_src(UARCH_GLC, KIND_STLAT, 0xc3,
		   (skl_l4[3].composed & ~op_mask) | T_OP_STORE | STLB_HIT | T_BLK_NA);
	/* GRT: bit 4 lock, bit 5 STLB miss, bit 6 data blocked; op stays LOAD */
	expect_src(UARCH_GRT, KIND_STLAT, 0x01, grt[1].composed | STLB_HIT | T_BLK_NA);
	expect_src(UARCH_GRT, KIND_STLAT, 0x70 | 0x8,
		   grt[8].composed | STLB_MISS | T_LCK_LOCKED | T_BLK_DATA);
	/* CMT: 5 lock, 6 STLB miss, 7 fwd blocked; op stays LOAD */
	expect_src(UARCH_CMT, KIND_STLAT, 0x07, cmt[7].composed | STLB_HIT | T_BLK_NA);
	expect_src(UARCH_CMT, KIND_STLAT, 0xe0 | 0xa,
		   cmt[0xa].composed | STLB_MISS | T_LCK_LOCKED | T_BLK_DATA);
	/* LNC: STORE, and the block bits are read for stores too */
	expect_src(UARCH_LNC, KIND_STLAT, 0x3000 | 0x11,
		   (lnc_rows[0x11].composed & ~op_mask) | T_OP_STORE | STLB_HIT | T_BLK_DATA |
		       T_BLK_ADDR);
}

static void test_precise_store(void **state)
{
	uint64_t base = T_OP_STORE | T_SNP_NA | T_LVL_L1 | T_TLB_L2;

	/* composed from precise_store_data's definition ... */
	expect_src(UARCH_SNB, KIND_STORE, 0x00, base | T_TLB_HIT | T_LVL_MISS);
	expect_src(UARCH_SNB, KIND_STORE, 0x01, base | T_TLB_HIT | T_LVL_HIT);
	expect_src(UARCH_IVB, KIND_STORE, 0x10, base | T_TLB_MISS | T_LVL_MISS);
	expect_src(UARCH_IVB, KIND_STORE, 0x21, base | T_TLB_HIT | T_LVL_HIT | T_LCK_LOCKED);
	/* ... and the worked examples of pebs-formats.md 6.4 */
	expect_src(UARCH_SNB, KIND_STORE, 0x00, 0x48080184);
	expect_src(UARCH_SNB, KIND_STORE, 0x01, 0x48080144);
	expect_src(UARCH_SNB, KIND_STORE, 0x10, 0x50080184);
	expect_src(UARCH_SNB, KIND_STORE, 0x21, 0x4A080144);
	expect_src(UARCH_SNB, KIND_STORE, 0x31, 0x52080144);
	/* bits 3:1 reserved: ignored */
	expect_src(UARCH_SNB, KIND_STORE, 0x0e, 0x48080184);
}

static void test_datala(void **state)
{
	uint64_t na_num = T_NUM(N_NA);

	expect_src(UARCH_HSW, KIND_DATALA_LOAD, 0x0, 0x05080022 | na_num);
	expect_src(UARCH_HSW, KIND_DATALA_LOAD, 0x1, 0x05080022 | na_num);
	expect_src(UARCH_HSW, KIND_DATALA_STORE, 0x1, 0x05080144 | na_num);
	expect_src(UARCH_BDW, KIND_DATALA_STORE, 0x0, 0x05080184 | na_num);
	expect_src(UARCH_HSW, KIND_DATALA_STORE, 0x1,
		   (T_MEM_NA & ~(T_OP_NA | T_LVL_NA)) | T_OP_STORE | T_LVL_L1 | T_LVL_HIT);
}

static void test_not_available(void **state)
{
	assert_false(pebs_uarch_has_data_src(UARCH_GLM));
	assert_false(pebs_uarch_has_data_src(UARCH_SLM));
	assert_false(pebs_uarch_has_data_src(UARCH_CORE2));
	assert_true(pebs_uarch_has_data_src(UARCH_SKL));
	expect_src(UARCH_GLM, KIND_LDLAT, 0x1, T_MEM_NA);
	expect_src(UARCH_SKL, KIND_OTHER, 0x1, T_MEM_NA);
}

static void test_names(void **state)
{
	static const char *const names[] = {"core2", "nhm", "wsm", "snb", "ivb", "hsw", "bdw",
					    "skl",   "skx", "icl", "icx", "spr", "emr", "gnr",
					    "glc",   "grt", "cmt", "lnc", "glm", "slm"};
	static const char *const kinds[] = {"ldlat",	   "store",	   "stlat",
					    "datala-load", "datala-store", "other"};
	enum pebs_uarch u;
	enum pebs_kind k;

	for (unsigned int i = 0; i < 20; i++) {
		assert_true(pebs_uarch_from_name(names[i], &u));
		assert_string_equal(pebs_uarch_name(u), names[i]);
	}
	assert_false(pebs_uarch_from_name("none", &u));
	assert_false(pebs_uarch_from_name("SKL", &u));
	for (unsigned int i = 0; i < 6; i++) {
		assert_true(pebs_kind_from_name(kinds[i], &k));
		assert_string_equal(pebs_kind_name(k), kinds[i]);
	}
	assert_false(pebs_kind_from_name("load", &k));
}

static void words(uint64_t ds, const char *op, const char *level, const char *snoop,
		  const char *tlb, const char *lock, const char *blocked)
{
	struct pebs_mem_words w;

	pebs_mem_describe(ds, &w);
	assert_string_equal(w.op, op);
	assert_string_equal(w.level, level);
	assert_string_equal(w.snoop, snoop);
	assert_string_equal(w.tlb, tlb);
	assert_string_equal(w.lock, lock);
	assert_string_equal(w.blocked, blocked);
}

static void test_words(void **state)
{
	words(snb[1].composed | STLB_HIT | T_BLK_NA, "LOAD", "L1 hit", "None", "L1 or L2 hit", "No",
	      "N/A");
	words(snb[2].composed | STLB_MISS | T_LCK_LOCKED | T_BLK_DATA, "LOAD", "LFB/MAB hit",
	      "None", "L2 miss", "Yes", "Data");
	words(snb[7].composed, "LOAD", "L3 hit", "HitM", "N/A", "No", "N/A");
	words(snb[0xa].composed, "LOAD", "Local RAM hit", "Hit", "N/A", "No", "N/A");
	words(snb[8].composed, "LOAD", "Remote Cache (1 hop) hit", "Hit", "N/A", "No", "N/A");
	words(snb[0xb].composed, "LOAD", "Remote RAM (1 hop) hit", "Hit", "N/A", "No", "N/A");
	words(snb[0xc].composed, "LOAD", "Local RAM hit", "None or Miss", "N/A", "No", "N/A");
	words(snb[0xe].composed, "LOAD", "I/O hit", "None", "N/A", "No", "N/A");
	words(snb[0xf].composed, "LOAD", "Uncached hit", "None", "N/A", "No", "N/A");
	words(snb[0].composed, "LOAD", "L3 miss", "N/A", "N/A", "No", "N/A");
	words(skl_l4[8].composed, "LOAD", "L4 hit", "Hit", "N/A", "No", "N/A");
	words(skl_pmem[9].composed, "LOAD", "Remote PMEM hit", "Hit", "N/A", "No", "N/A");
	words(skl_l4[0xc].composed | T_BLK_ADDR | T_BLK_DATA, "LOAD", "Remote Any cache hit", "Fwd",
	      "N/A", "No", "Data Addr");
	words(lnc_rows[6].composed, "LOAD", "L2 MHB hit", "None", "N/A", "No", "N/A");
	words(lnc_rows[0x10].composed, "LOAD", "Memory-side Cache hit", "None", "N/A", "No", "N/A");
	words(T_OP_LOAD | T_TLB_WK | T_TLB_HIT | T_LCK_NA, "LOAD", "N/A", "N/A", "Walker hit",
	      "N/A", "N/A");
	words(T_MEM_NA, "N/A", "N/A", "N/A", "N/A", "N/A", "N/A");
	/* perf_mem__op_scnprintf: NA wins; no op bit at all reads "No" */
	words(T_OP_NA | T_OP_LOAD, "N/A", "N/A", "N/A", "N/A", "No", "N/A");
	words(0, "No", "N/A", "N/A", "N/A", "No", "N/A");
	words(0x48080184, "STORE", "L1 miss", "N/A", "L2 hit", "No", "N/A");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tables_match_sheet),
	    cmocka_unit_test(test_nhm_wsm),
	    cmocka_unit_test(test_snb_to_bdw),
	    cmocka_unit_test(test_skl_icl),
	    cmocka_unit_test(test_spr_glc_block),
	    cmocka_unit_test(test_grt),
	    cmocka_unit_test(test_cmt),
	    cmocka_unit_test(test_lnc),
	    cmocka_unit_test(test_store_latency),
	    cmocka_unit_test(test_store_latency_layouts),
	    cmocka_unit_test(test_precise_store),
	    cmocka_unit_test(test_datala),
	    cmocka_unit_test(test_not_available),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, setup_tables, NULL);
}
