// SPDX-License-Identifier: MIT
/*
 * test_decode_omr.c - the data sources of Panther Cove (Diamond Rapids),
 * Coyote Cove and Arctic Wolf (Nova Lake) and Darkmont (Panther Lake E-core,
 * Clearwater Forest), field by field.
 *
 * The expected values are written by hand as the fields of union
 * perf_mem_data_src, read off Linux's tables: ds.c pnc_pebs_l2_hit_data_source,
 * arw_pebs_l2_hit_data_source, omr_data_source, parse_omr_data_source(),
 * pnc_/arw_latency_data() (commits d2bdcde9626c and 7cd264d1972d) and
 * __intel_pmu_pebs_data_source_cmt / cmt_latency_data.  The field layout is
 * this file's own bit-field union, written from include/uapi/linux/
 * perf_event.h; nothing here uses decode/perf_mem.h or decode/'s tables, so
 * a wrong shift, a wrong row or a wrong rule in the decoder shows up as a
 * named field that differs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "test_gen.h"

/* include/uapi/linux/perf_event.h union perf_mem_data_src (little-endian). */
union uapi_src {
	uint64_t val;
	struct {
		uint64_t mem_op : 5, mem_lvl : 14, mem_snoop : 5, mem_lock : 2, mem_dtlb : 7,
		    mem_lvl_num : 4, mem_remote : 1, mem_snoopx : 2, mem_blk : 3, mem_hops : 3,
		    mem_region : 5, mem_rsvd : 13;
	};
};

/* The fields, as numbers (PERF_MEM_*_* values, not shifted). */
struct f {
	unsigned int op, lvl, snoop, lock, tlb, num, remote, snoopx, blk, region;
};

/*
 * Every pnc/arw record without bits 11-14 has: TLB HIT|L1|L2 (0x02|0x08|0x10),
 * lock 0, BLK NA (1).  Every cmt-layout one without bits 5-7 the same.
 */
#define TLB_HIT	 0x1a
#define TLB_MISS 0x14 /* MISS 0x04 | L2 0x10 */

static void expect(enum pebs_uarch u, enum pebs_kind k, uint64_t dse, struct f e)
{
	union uapi_src got = {.val = pebs_data_src(gen_dsrc(u), k, dse)};
	const struct {
		const char *name;
		unsigned int got, want;
	} cmp[] = {
	    {"op", got.mem_op, e.op},
	    {"lvl", got.mem_lvl, e.lvl},
	    {"snoop", got.mem_snoop, e.snoop},
	    {"lock", got.mem_lock, e.lock},
	    {"tlb", got.mem_dtlb, e.tlb},
	    {"lvl_num", got.mem_lvl_num, e.num},
	    {"remote", got.mem_remote, e.remote},
	    {"snoopx", got.mem_snoopx, e.snoopx},
	    {"blk", got.mem_blk, e.blk},
	    {"hops", got.mem_hops, 0},
	    {"region", got.mem_region, e.region},
	    {"rsvd", got.mem_rsvd, 0},
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(cmp) / sizeof(cmp[0]); i++) {
		if (cmp[i].got == cmp[i].want)
			continue;
		print_error("%s %s dse 0x%llx: %s is 0x%x, Linux gives 0x%x\n", pebs_uarch_name(u),
			    pebs_kind_name(k), (unsigned long long)dse, cmp[i].name, cmp[i].got,
			    cmp[i].want);
		ok = false;
	}
	assert_true(ok);
}

/* ds.c pnc_pebs_l2_hit_data_source, rows 0x0-0xf; reserved (0) rows -> LOAD | num NA | snoop NA. */
static const struct f pnc_l2[16] = {
    {.op = 2, .lvl = 0x1, .num = 0xf, .snoop = 0x1},	/* non-cache access */
    {.op = 2, .lvl = 0x2, .num = 0x7, .snoop = 0x2},	/* L0 hit */
    {.op = 2, .lvl = 0xa, .num = 0x1, .snoop = 0x2},	/* L1 hit */
    {.op = 2, .lvl = 0x12, .num = 0xc, .snoop = 0x2},	/* L1 miss handling buffer hit */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x2},	/* L2 hit clean */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x4},	/* L2 hit, snoop hit */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x10},	/* L2 hit, snoop hit modified */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x8},	/* prefetch promotion */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x8},	/* cross-core prefetch promotion */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* reserved */
    {.op = 2, .lvl = 0x2002, .num = 0xf, .snoop = 0x2}, /* uncached */
};

/* ds.c arw_pebs_l2_hit_data_source. */
static const struct f arw_l2[16] = {
    {.op = 2, .lvl = 0x1, .num = 0xf, .snoop = 0x1},	/* non-cache access */
    {.op = 2, .lvl = 0xa, .num = 0x1, .snoop = 0x2},	/* L1 hit */
    {.op = 2, .lvl = 0x12, .num = 0xc, .snoop = 0x2},	/* WCB hit */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x2},	/* L2 hit clean */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x4},	/* L2 hit, snoop hit */
    {.op = 2, .lvl = 0x22, .num = 0x2, .snoop = 0x10},	/* L2 hit, snoop hit modified */
    {.op = 2, .lvl = 0x2002, .num = 0xf, .snoop = 0x2}, /* uncached */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},	/* 0x7-0xf reserved */
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
    {.op = 2, .lvl = 0, .num = 0xf, .snoop = 0x1},
};

/*
 * L2 miss (bit 8), OMR bits 7:4 all 0: omr_data_source's row, then
 * parse_omr_data_source adds SNOOP HIT to every source (no hitm), SNOOP NA to
 * source 2 (snoop | promoted == 0), LOC_RAM to the memory regions 8-15.
 * Source 1 is reserved (0): only the HIT is left, op 0, and the result is not
 * 0, so it is not replaced.
 */
static const struct f omr[16] = {
    {.op = 2, .lvl = 0x1, .num = 0xf, .snoop = 0x5},		   /* invalid */
    {.op = 0, .lvl = 0, .num = 0, .snoop = 0x4},		   /* reserved */
    {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x5, .region = 2},   /* local CA shared */
    {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .region = 3},   /* local CA non-shared */
    {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .region = 4},   /* other CA IO agent */
    {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .region = 5},   /* other CA shared */
    {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .region = 6},   /* other CA non-shared */
    {.op = 2, .lvl = 0x2, .num = 0xd, .snoop = 0x4, .region = 7},  /* MMIO */
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 8}, /* MEM0 .. */
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 9},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 10},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 11},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 12},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 13},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 14},
    {.op = 2, .lvl = 0x82, .num = 0xd, .snoop = 0x4, .region = 15}, /* .. MEM7 */
};

static struct f plain(struct f r)
{
	r.tlb = TLB_HIT;
	r.blk = 1;
	return r;
}

static void test_l2_hit_tables(void **state)
{
	for (unsigned int i = 0; i < 16; i++) {
		expect(UARCH_PNC, KIND_LDLAT, i, plain(pnc_l2[i]));
		expect(UARCH_CYC, KIND_LDLAT, i, plain(pnc_l2[i]));
		expect(UARCH_ARW, KIND_LDLAT, i, plain(arw_l2[i]));
		/* bits 7:4 of the source do not index the L2-hit table (pnc_dse & 0xf) */
		expect(UARCH_PNC, KIND_LDLAT, 0xf0 | i, plain(pnc_l2[i]));
		expect(UARCH_ARW, KIND_LDLAT, 0x70 | i, plain(arw_l2[i]));
	}
}

static void test_omr_sources(void **state)
{
	for (unsigned int i = 0; i < 16; i++) {
		expect(UARCH_PNC, KIND_LDLAT, 0x100 | i, plain(omr[i]));
		expect(UARCH_ARW, KIND_LDLAT, 0x100 | i, plain(omr[i]));
	}
}

/* OMR bits: 4 remote, 5 hitm, 6 snoop, 7 promoted (union omr_encoding). */
static void test_omr_modifiers(void **state)
{
	static const struct {
		uint8_t omr;
		struct f e;
	} v[] = {
	    /* source 2, remote: REM_CCE1 (0x400), mem_remote */
	    {0x12, {.op = 2, .lvl = 0x442, .num = 3, .snoop = 0x5, .remote = 1, .region = 2}},
	    /* source 2, hitm: HITM instead of HIT, still NA */
	    {0x22, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x11, .region = 2}},
	    /* source 2, snoop, promoted, or both: HIT | MISS */
	    {0x42, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0xc, .region = 2}},
	    {0x82, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0xc, .region = 2}},
	    {0xc2, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0xc, .region = 2}},
	    /* source 5 (other CA shared), snoop: SNOOPX FWD */
	    {0x45, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .snoopx = 1, .region = 5}},
	    /* source 3, promoted only: no FWD (only bit 6 counts here) */
	    {0x83, {.op = 2, .lvl = 0x42, .num = 3, .snoop = 0x4, .region = 3}},
	    /* source 5, remote and hitm */
	    {0x35, {.op = 2, .lvl = 0x442, .num = 3, .snoop = 0x10, .remote = 1, .region = 5}},
	    /* source 9 (MEM1), remote: REM_RAM1 (0x100) instead of LOC_RAM */
	    {0x19, {.op = 2, .lvl = 0x102, .num = 0xd, .snoop = 0x4, .remote = 1, .region = 9}},
	    /* source 7 (MMIO), remote and snoop: neither RAM level nor FWD */
	    {0x57, {.op = 2, .lvl = 0x2, .num = 0xd, .snoop = 0x4, .remote = 1, .region = 7}},
	    /* source 15 (MEM7), remote, snoop, promoted, hitm */
	    {0xff, {.op = 2, .lvl = 0x102, .num = 0xd, .snoop = 0x10, .remote = 1, .region = 15}},
	    /* source 0, snoop: nothing but the HIT */
	    {0x40, {.op = 2, .lvl = 0x1, .num = 0xf, .snoop = 0x5}},
	    /* source 1 (reserved), remote: only mem_remote and HIT */
	    {0x11, {.op = 0, .lvl = 0, .num = 0, .snoop = 0x4, .remote = 1}},
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		expect(UARCH_PNC, KIND_LDLAT, 0x100 | v[i].omr, plain(v[i].e));
		expect(UARCH_ARW, KIND_LDLAT, 0x100 | v[i].omr, plain(v[i].e));
	}
}

/*
 * Bits beside the source (union intel_x86_pebs_dse pnc_* / arw_*): 11 STLB
 * miss, 12 lock, 13 data blocked, 14 address blocked; 9, 10 and 15 are not
 * decoded by Linux.  Blocked bits count whatever pebs_block says.
 */
static void test_extra_bits(void **state)
{
	struct f r;

	r = plain(pnc_l2[4]);
	r.tlb = TLB_MISS;
	expect(UARCH_PNC, KIND_LDLAT, 0x800 | 4, r);
	r = plain(pnc_l2[2]);
	r.lock = 2;
	expect(UARCH_PNC, KIND_LDLAT, 0x1000 | 2, r);
	r.lock = 0;
	r.blk = 2;
	expect(UARCH_PNC, KIND_LDLAT, 0x2000 | 2, r);
	r.blk = 4;
	expect(UARCH_PNC, KIND_LDLAT, 0x4000 | 2, r);
	r.blk = 6;
	expect(UARCH_PNC, KIND_LDLAT, 0x6000 | 2, r);
	expect(UARCH_PNC, KIND_LDLAT, 0x8600 | 2, plain(pnc_l2[2]));
	/* Arctic Wolf: the same positions (arw_stlb_miss .. arw_addr_blk) */
	r = plain(omr[12]);
	r.tlb = TLB_MISS;
	r.lock = 2;
	r.blk = 6;
	expect(UARCH_ARW, KIND_LDLAT, 0x7800 | 0x100 | 12, r);
	expect(UARCH_ARW, KIND_LDLAT, 0x8600 | 0x100 | 12, plain(omr[12]));
}

/*
 * The store-latency event: on Panther Cove (and Coyote Cove) it is
 * INTEL_HYBRID_STLAT_CONSTRAINT(0x2cd) with PERF_X86_EVENT_PEBS_ST_HSW, so
 * pnc_latency_data says STORE (op 4); on Arctic Wolf 0x6d0 is an
 * INTEL_HYBRID_LAT_CONSTRAINT without it, so arw_latency_data keeps LOAD.
 */
static void test_store_latency(void **state)
{
	struct f r = plain(pnc_l2[4]);

	r.op = 4;
	expect(UARCH_PNC, KIND_STLAT, 4, r);
	expect(UARCH_CYC, KIND_STLAT, 4, r);
	r = plain(omr[8]);
	r.op = 4;
	expect(UARCH_PNC, KIND_STLAT, 0x108, r);
	expect(UARCH_ARW, KIND_STLAT, 3, plain(arw_l2[3]));
	expect(UARCH_ARW, KIND_STLAT, 0x108, plain(omr[8]));
}

/*
 * Darkmont: core.c INTEL_ATOM_DARKMONT_X and the Panther Lake small core use
 * __intel_pmu_pebs_data_source_cmt and cmt_latency_data: bits 3:0 index the
 * table (bit 4 of mtl_dse is masked off), 5 lock, 6 STLB miss, 7 BLK DATA.
 */
static void test_darkmont(void **state)
{
	/* row 7: L3 hit, SNOOPX FWD; bit 4 set must not change the row */
	struct f r7 = {.op = 2, .lvl = 0x42, .num = 3, .snoopx = 1, .tlb = TLB_HIT, .blk = 1};
	/* row 0xb: remote RAM, snoop none */
	struct f rb = {
	    .op = 2, .lvl = 0x2, .num = 0xd, .remote = 1, .snoop = 2, .tlb = TLB_HIT, .blk = 1};

	expect(UARCH_DKM, KIND_LDLAT, 0x07, r7);
	expect(UARCH_DKM, KIND_LDLAT, 0x17, r7);
	rb.tlb = TLB_MISS;
	expect(UARCH_DKM, KIND_LDLAT, 0x4b, rb);
	rb.tlb = TLB_HIT;
	rb.lock = 2;
	expect(UARCH_DKM, KIND_LDLAT, 0x2b, rb);
	rb.lock = 0;
	rb.blk = 2;
	expect(UARCH_DKM, KIND_LDLAT, 0x8b, rb);
	/* the E-core store event 0x6d0 (INTEL_HYBRID_LAT_CONSTRAINT): still LOAD */
	expect(UARCH_DKM, KIND_STLAT, 0x07, r7);
	assert_true(pebs_dsrc_instr_latency(gen_dsrc(UARCH_DKM)));
	assert_true(pebs_dsrc_instr_latency(gen_dsrc(UARCH_PNC)));
	assert_true(pebs_dsrc_instr_latency(gen_dsrc(UARCH_ARW)));
}

/* The names, and the L0 level word (uapi PERF_MEM_LVLNUM_L0, comment "L0"). */
static void test_names_and_words(void **state)
{
	static const char *const names[] = {"pnc", "cyc", "arw", "dkm"};
	static const enum pebs_uarch ids[] = {UARCH_PNC, UARCH_CYC, UARCH_ARW, UARCH_DKM};
	struct pebs_mem_words w;
	enum pebs_uarch u;

	for (size_t i = 0; i < 4; i++) {
		assert_true(pebs_uarch_from_name(names[i], &u));
		assert_int_equal(u, ids[i]);
		assert_string_equal(pebs_uarch_name(ids[i]), names[i]);
		assert_true(pebs_dsrc_has_data_src(gen_dsrc(ids[i])));
		assert_non_null(strstr(pebs_dsrc_source(gen_dsrc(ids[i])), ".c "));
	}
	pebs_mem_describe(pebs_data_src(gen_dsrc(UARCH_PNC), KIND_LDLAT, 1), &w);
	assert_string_equal(w.level, "L0 hit");
	assert_string_equal(w.snoop, "None");
	pebs_mem_describe(pebs_data_src(gen_dsrc(UARCH_PNC), KIND_LDLAT, 0x108), &w);
	assert_string_equal(w.level, "Local RAM hit");
	assert_string_equal(w.snoop, "Hit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_l2_hit_tables),   cmocka_unit_test(test_omr_sources),
	    cmocka_unit_test(test_omr_modifiers),   cmocka_unit_test(test_extra_bits),
	    cmocka_unit_test(test_store_latency),   cmocka_unit_test(test_darkmont),
	    cmocka_unit_test(test_names_and_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
