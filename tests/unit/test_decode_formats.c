// SPDX-License-Identifier: MIT
/*
 * test_decode_formats.c - records built byte by byte from the SDM layouts
 * (Tables 18-23/18-44/18-55; Linux struct pebs_basic and the adaptive groups;
 * union hsw_tsx_tuning) for formats 0-6 (test_decode_arch.c: arch-PEBS); TSX;
 * latency layouts; validation and anomalies with their byte offsets.  Every
 * buffer is copied into a heap block of exactly its length (test_decode_util.h),
 * so the ASan build catches any read past the end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "test_gen.h"
#include "test_decode_util.h"

/* Legacy record: every GPR gets a distinct value 0x1000 + 8 * slot. */
static void legacy(size_t base, unsigned int fmt)
{
	size_t sz = fmt == 0 ? 0x90 : fmt == 1 ? 0xb0 : fmt == 2 ? 0xc0 : 0xc8;

	memset(img + base, 0, sz);
	for (size_t o = 0; o < 0x90; o += 8)
		p64(base + o, 0x1000 + o);
}

static void test_fmt0(void **state)
{
	struct pebs_decode_cfg cfg = {
	    .fmt = 0, .uarch = UARCH_CORE2, .dsrc = gen_dsrc(UARCH_CORE2), .kind = KIND_OTHER};

	legacy(0, 0);
	legacy(0x90, 0);
	p64(0x90 + 0x08, 0x401234);
	assert_int_equal(pebs_legacy_record_size(0), 144);
	assert_int_equal(run(&cfg, 0x120), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_int_equal(recs[0].size, 144);
	assert_int_equal(recs[1].offset, 144);
	assert_int_equal(recs[1].ip, 0x401234);
	/* SDM order: FLAGS IP AX BX CX DX SI DI BP SP R8..R15 */
	assert_int_equal(recs[0].regs[REG_RFLAGS], 0x1000);
	assert_int_equal(recs[0].regs[REG_RIP], 0x1008);
	assert_int_equal(recs[0].regs[REG_RAX], 0x1010);
	assert_int_equal(recs[0].regs[REG_RBX], 0x1018);
	assert_int_equal(recs[0].regs[REG_RCX], 0x1020);
	assert_int_equal(recs[0].regs[REG_RDX], 0x1028);
	assert_int_equal(recs[0].regs[REG_RSI], 0x1030);
	assert_int_equal(recs[0].regs[REG_RDI], 0x1038);
	assert_int_equal(recs[0].regs[REG_RBP], 0x1040);
	assert_int_equal(recs[0].regs[REG_RSP], 0x1048);
	assert_int_equal(recs[0].regs[REG_R8], 0x1050);
	assert_int_equal(recs[0].regs[REG_R15], 0x1088);
	assert_false(recs[0].have & (HAVE_DLA | HAVE_DSE | HAVE_TSX | HAVE_TSC | HAVE_APPLICABLE));
}

static void test_fmt1_nhm(void **state)
{
	struct pebs_decode_cfg cfg = {
	    .fmt = 1, .uarch = UARCH_NHM, .dsrc = gen_dsrc(UARCH_NHM), .kind = KIND_LDLAT};

	legacy(0, 1);
	p64(0x90, 0x5);	       /* GLOBAL_STATUS */
	p64(0x98, 0x7ffe0040); /* DLA */
	p64(0xa0, 0x36);       /* dse 6 + STLB miss + lock (ignored on NHM) */
	p64(0xa8, 212);	       /* latency */
	assert_int_equal(run(&cfg, 0xb0), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].size, 176);
	assert_int_equal(recs[0].ip, 0x1008); /* R/EIP */
	assert_int_equal(recs[0].global_status, 5);
	assert_true(recs[0].have & HAVE_GLOBAL_STATUS);
	assert_int_equal(recs[0].data_la, 0x7ffe0040);
	assert_int_equal(recs[0].dse, 0x36);
	assert_int_equal(recs[0].latency, 212);
	/* NHM row 6: L3 hit, snoop HitM; TLB NA | LOCK NA (pebs_no_tlb) */
	assert_int_equal(recs[0].data_src, 0x600800842ULL | 0x5000000ULL);
	assert_false(recs[0].have & (HAVE_TSX | HAVE_TSC));
}

static void test_fmt2_tsx(void **state)
{
	struct pebs_decode_cfg cfg = {
	    .fmt = 2, .uarch = UARCH_HSW, .dsrc = gen_dsrc(UARCH_HSW), .kind = KIND_OTHER};

	legacy(0, 2);
	p64(0x10, 0xab000001);			       /* RAX: XABORT imm 0xab, bit 0 explicit */
	p64(0xb0, 0x400abc);			       /* EventingIP */
	p64(0xb8, (1ULL << 33) | (1ULL << 37) | 1000); /* rtm + conflict, 1000 cycles */
	legacy(0xc0, 2);
	p64(0xc0 + 0x10, 0xab000000); /* RAX bit 0 clear: no XABORT code */
	p64(0xc0 + 0xb8, (1ULL << 33) | (1ULL << 39) | 7);
	legacy(0x180, 2);
	p64(0x180 + 0x10, 0xcd000001);
	p64(0x180 + 0xb8, (1ULL << 32) | (1ULL << 35) | (1ULL << 36) | (1ULL << 38) | (1ULL << 34));
	assert_int_equal(run(&cfg, 0x240), PEBS_STEP_END);
	assert_int_equal(nrec, 3);
	assert_int_equal(recs[0].ip, 0x400abc);
	assert_int_equal(recs[0].tsx.cycles, 1000);
	assert_int_equal(recs[0].tsx.flags, TSX_RTM | TSX_CONFLICT);
	assert_true(recs[0].tsx.has_xabort);
	assert_int_equal(recs[0].tsx.xabort, 0xab);
	assert_int_equal(recs[1].tsx.flags, TSX_RTM | TSX_CAPACITY_READ);
	assert_false(recs[1].tsx.has_xabort);
	/* HLE abort: no XABORT even with RAX bit 0 */
	assert_int_equal(recs[2].tsx.flags, TSX_HLE | TSX_INSTRUCTION | TSX_NON_INSTRUCTION |
						TSX_RETRY | TSX_CAPACITY_WRITE);
	assert_false(recs[2].tsx.has_xabort);
	assert_false(recs[0].have & HAVE_MEM); /* kind other */
}

static void test_fmt3_skl(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = 3,
				      .uarch = UARCH_SKL,
				      .dsrc = gen_dsrc(UARCH_SKL),
				      .kind = KIND_LDLAT,
				      .pebs_enabled = 0x1};

	legacy(0, 3);
	p64(0x90, 0x1);
	p64(0xa0, 0x03);
	p64(0xa8, 14);
	p64(0xb0, 0x401000);
	p64(0xc0, 0x123456789aULL);
	legacy(0xc8, 3);
	p64(0xc8 + 0x90, 0x2); /* applicable counter PMC1: not PEBS-enabled */
	assert_int_equal(run(&cfg, 0x190), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].tsc, 0x123456789aULL);
	assert_int_equal(recs[0].applicable_counters, 1);
	assert_false(recs[0].have & HAVE_GLOBAL_STATUS);
	assert_int_equal(recs[0].ip, 0x401000);
	assert_int_equal(recs[0].data_src, 0x400100442ULL | 0x68000000ULL | 0x10000000000ULL);
	assert_int_equal(an.offset, 0xc8);
	assert_non_null(strstr(an.what, "applicable"));
	/* and bits outside the mask next to an enabled one */
	p64(0xc8 + 0x90, 0x3);
	assert_int_equal(run(&cfg, 0x190), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0xc8);
	cfg.pebs_enabled = 0;
	assert_int_equal(run(&cfg, 0x190), PEBS_STEP_END);
}

static void test_glm_reserved(void **state)
{
	struct pebs_decode_cfg cfg = {
	    .fmt = 3, .uarch = UARCH_GLM, .dsrc = gen_dsrc(UARCH_GLM), .kind = KIND_LDLAT};

	legacy(0, 3);
	p64(0x98, 0xdead000);
	p64(0xa0, 0x1);
	assert_int_equal(run(&cfg, 0xc8), PEBS_STEP_END);
	assert_int_equal(recs[0].data_la, 0xdead000);
	assert_true(recs[0].have & HAVE_MEM_NA);
	assert_false(recs[0].have & (HAVE_MEM | HAVE_DSE | HAVE_LATENCY));
}

/* Adaptive: basic + meminfo + GP + XMM + 2 LBR entries. */
#define CFG_ALL (0x1ULL | 0x2 | 0x4 | 0x8 | (1ULL << 24))
#define SZ_ALL	(0x20 + 0x20 + 0x90 + 0x100 + 2 * 0x18)

static void adaptive_all(size_t b, uint64_t lat)
{
	memset(img + b, 0, SZ_ALL);
	p64(b + 0x00, ((uint64_t)SZ_ALL << 48) | CFG_ALL);
	p64(b + 0x08, 0x401500);       /* IP */
	p64(b + 0x10, 0x1);	       /* applicable */
	p64(b + 0x18, 0xabcdef);       /* TSC */
	p64(b + 0x20, 0x7f0000001000); /* meminfo: address */
	p64(b + 0x28, 0x14);	       /* aux: L3 hit, STLB miss */
	p64(b + 0x30, lat);
	p64(b + 0x38, 0); /* tsx tuning */
	/* GP: flags, ip, ax, cx, dx, bx, sp, bp, si, di, r8..r15 */
	for (unsigned int i = 0; i < 18; i++)
		p64(b + 0x40 + 8 * i, 0x2000 + i);
	for (unsigned int i = 0; i < 32; i++)
		p64(b + 0xd0 + 8 * i, 0xeeee); /* XMM */
	for (unsigned int i = 0; i < 2; i++) {
		p64(b + 0x1d0 + 0x18 * i, 0xf000 + i);
		p64(b + 0x1d8 + 0x18 * i, 0xf100 + i);
		p64(b + 0x1e0 + 0x18 * i, 0xf200 + i);
	}
}

static void test_adaptive_groups(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = 4,
				      .uarch = UARCH_ICL,
				      .dsrc = gen_dsrc(UARCH_ICL),
				      .kind = KIND_LDLAT,
				      .data_cfg = CFG_ALL,
				      .adaptive = true,
				      .pebs_enabled = 1};
	const struct pebs_record *r = &recs[0];

	assert_int_equal(pebs_adaptive_record_size(CFG_ALL), SZ_ALL);
	adaptive_all(0, 0x0000002a00000007ULL);
	assert_int_equal(run(&cfg, SZ_ALL), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(r->size, SZ_ALL);
	assert_int_equal(r->ip, 0x401500);
	assert_int_equal(r->tsc, 0xabcdef);
	assert_int_equal(r->data_la, 0x7f0000001000ULL);
	assert_int_equal(r->dse, 0x14);
	/* ICL: the whole u64 is the latency */
	assert_int_equal(r->latency, 0x0000002a00000007ULL);
	assert_false(r->have & HAVE_INSTR_LATENCY);
	assert_int_equal(r->data_src, 0x600100842ULL | 0x50000000ULL | 0x10000000000ULL);
	/* adaptive GPR order: ax cx dx bx sp bp si di */
	assert_int_equal(r->regs[REG_RFLAGS], 0x2000);
	assert_int_equal(r->regs[REG_RIP], 0x2001);
	assert_int_equal(r->regs[REG_RAX], 0x2002);
	assert_int_equal(r->regs[REG_RCX], 0x2003);
	assert_int_equal(r->regs[REG_RDX], 0x2004);
	assert_int_equal(r->regs[REG_RBX], 0x2005);
	assert_int_equal(r->regs[REG_RSP], 0x2006);
	assert_int_equal(r->regs[REG_RBP], 0x2007);
	assert_int_equal(r->regs[REG_RSI], 0x2008);
	assert_int_equal(r->regs[REG_RDI], 0x2009);
	assert_int_equal(r->regs[REG_R8], 0x200a);
	assert_int_equal(r->regs[REG_R15], 0x2011);
	assert_true(r->have & HAVE_XMM);
	assert_int_equal(r->n_lbr, 2);
	assert_int_equal(r->lbr[1].from, 0xf001);
	assert_int_equal(r->lbr[1].to, 0xf101);
	assert_int_equal(r->lbr[1].info, 0xf201);
	assert_false(r->have & HAVE_RETIRE_LATENCY);

	/* SPR: latency split, instruction 15:0, cache 47:32 */
	cfg.uarch = UARCH_SPR;
	cfg.dsrc = gen_dsrc(UARCH_SPR);
	adaptive_all(0, 0xffff002a1234000bULL);
	assert_int_equal(run(&cfg, SZ_ALL), PEBS_STEP_END);
	assert_int_equal(r->latency, 0x2a);
	assert_int_equal(r->instr_latency, 0xb);
	assert_true(r->have & HAVE_INSTR_LATENCY);
}

static void test_adaptive_fmt0_and_timed(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = 5,
				      .uarch = UARCH_SPR,
				      .dsrc = gen_dsrc(UARCH_SPR),
				      .kind = KIND_LDLAT,
				      .data_cfg = 0x1,
				      .timed = true};

	/* a non-adaptive counter's record: format 0, basic group only */
	memset(img, 0, 0x60);
	p64(0x00, (0x20ULL << 48) | (77ULL << 32) | 0);
	p64(0x08, 0x401777);
	/* an adaptive one: format = DATA_CFG, retire latency 300 in 47:32 */
	p64(0x20, (0x40ULL << 48) | (300ULL << 32) | 0x1);
	p64(0x48, 0x3);
	p64(0x50, (9ULL << 32) | 4);
	assert_int_equal(run(&cfg, 0x60), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_int_equal(recs[0].size, 0x20);
	assert_int_equal(recs[0].retire_latency, 77);
	assert_int_equal(recs[0].format_field, 0);
	assert_false(recs[0].have & HAVE_MEM);
	assert_int_equal(recs[1].offset, 0x20);
	assert_int_equal(recs[1].retire_latency, 300);
	assert_int_equal(recs[1].format_field, 1);
	assert_int_equal(recs[1].latency, 9);
	assert_int_equal(recs[1].instr_latency, 4);
	assert_true(recs[1].have & HAVE_MEM);
}

static void test_fmt6_counters(void **state)
{
	/* CNTR, GP mask 0x3 (47:32), fixed mask 0x1 (55:48) */
	uint64_t dcfg = 0x10 | (0x3ULL << 32) | (0x1ULL << 48);
	struct pebs_decode_cfg cfg = {.fmt = 6,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_OTHER,
				      .data_cfg = dcfg,
				      .adaptive = true};
	size_t sz = 0x20 + 0x10 + 3 * 8;

	assert_int_equal(pebs_adaptive_record_size(dcfg), sz);
	memset(img, 0, sizeof(img));
	/* the record's format field holds DATA_CFG 47:0; 63:48 are the size */
	p64(0x00, ((uint64_t)sz << 48) | (dcfg & 0xffffffffffffULL));
	p32(0x20, 0x3);
	p32(0x24, 0x1);
	p32(0x28, 0);
	p64(0x30, 111);
	p64(0x38, 222);
	p64(0x40, 333);
	assert_int_equal(run(&cfg, sz), PEBS_STEP_END);
	assert_int_equal(recs[0].n_counters, 3);
	assert_int_equal(recs[0].counters[0], 111);
	assert_int_equal(recs[0].counters[2], 333);
	assert_int_equal(recs[0].counters_gp_mask, 3);
	assert_int_equal(recs[0].counters_fixed_mask, 1);

	/* metrics == 3: two more values (SLOTS, PERF_METRICS) */
	dcfg = 0x10 | 0x20 | (0x1ULL << 32);
	cfg.data_cfg = dcfg;
	sz = 0x20 + 0x10 + 16 + 8;
	assert_int_equal(pebs_adaptive_record_size(dcfg), sz);
	memset(img, 0, sizeof(img));
	p64(0x00, ((uint64_t)sz << 48) | dcfg);
	p32(0x20, 0x1);
	p32(0x28, 3);
	p64(0x30, 1);
	p64(0x38, 2);
	p64(0x40, 3);
	assert_int_equal(run(&cfg, sz), PEBS_STEP_END);
	assert_int_equal(recs[0].n_counters, 3);
	assert_int_equal(recs[0].counters[2], 3);
}

/*
 * Lunar Lake class (fmt6, timed PEBS, PERF_CAPABILITIES bit 17): Linux
 * struct pebs_basic with pebs_timing_info is format_group 31:0, retire
 * latency 47:32, size 63:48; meminfo latency split (lnc: PMU_FL_INSTR_LATENCY);
 * the counter group (e02e9b0374c3 "Support PEBS counters snapshotting"):
 * a 16-byte header (GP mask, fixed mask, metrics), GP values, fixed values,
 * then SLOTS and PERF_METRICS when metrics == 3.
 */
static void test_fmt6_timed_counters(void **state)
{
	uint64_t dcfg = 0x1 | 0x10 | 0x20 | (0x3ULL << 32) | (0x1ULL << 48);
	struct pebs_decode_cfg cfg = {.fmt = 6,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_LDLAT,
				      .data_cfg = dcfg,
				      .timed = true,
				      .adaptive = true};
	size_t sz = 0x20 + 0x20 + 0x10 + 5 * 8;

	assert_int_equal(pebs_adaptive_record_size(dcfg), sz);
	memset(img, 0, sizeof(img));
	p64(0x00, ((uint64_t)sz << 48) | (500ULL << 32) | (dcfg & 0xffffffffULL));
	p64(0x08, 0x406000);
	p64(0x20, 0x7f0000002000ULL);  /* meminfo: address */
	p64(0x28, 0x11);	       /* lnc: local RAM */
	p64(0x30, (300ULL << 32) | 9); /* cache 300, instruction 9 */
	p32(0x40, 0x3);		       /* counter header: PMC0-1 */
	p32(0x44, 0x1);		       /* FIXED0 */
	p32(0x48, 3);		       /* metrics */
	for (unsigned int i = 0; i < 5; i++)
		p64(0x50 + 8 * i, 0x100 + i);
	assert_int_equal(run(&cfg, sz), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].retire_latency, 500);
	assert_true(recs[0].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[0].format_field, dcfg & 0xffffffffULL);
	assert_int_equal(recs[0].latency, 300);
	assert_int_equal(recs[0].instr_latency, 9);
	assert_true(recs[0].have & HAVE_MEM);
	assert_int_equal(recs[0].n_counters, 5);
	assert_int_equal(recs[0].counters_gp_mask, 0x3);
	assert_int_equal(recs[0].counters_fixed_mask, 0x1);
	assert_int_equal(recs[0].counters_metrics, 3);
	assert_int_equal(recs[0].counters[0], 0x100);
	assert_int_equal(recs[0].counters[4], 0x104);

	/*
	 * The same bytes read as untimed format 6: the format field is still
	 * 31:0 (struct pebs_basic's format_group; DATA_CFG's counter masks at
	 * 47:32 are not in it), and 47:32 are no retire latency.
	 */
	cfg.timed = false;
	assert_int_equal(run(&cfg, sz), PEBS_STEP_END);
	assert_int_equal(recs[0].format_field, dcfg & 0xffffffffULL);
	assert_false(recs[0].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[0].counters_gp_mask, 0x3);
}

/*
 * An untimed format-6 record whose format field has 0 at 47:32 while
 * PEBS_DATA_CFG has the counter masks there: taken (Linux reads 31:0
 * only); compared on 47:0 it was an anomaly and the decode stopped.
 */
static void test_fmt6_untimed_format_is_32_bits(void **state)
{
	uint64_t dcfg = 0x1 | 0x10 | (0x3ULL << 32);
	struct pebs_decode_cfg cfg = {.fmt = 6,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_LDLAT,
				      .data_cfg = dcfg,
				      .adaptive = true};
	size_t sz = 0x20 + 0x20 + 0x10 + 2 * 8;

	(void)state;
	assert_int_equal(pebs_adaptive_record_size(dcfg), sz);
	memset(img, 0, sizeof(img));
	p64(0x00, ((uint64_t)sz << 48) | (dcfg & 0xffffffffULL));
	p64(0x08, 0x406000);
	p64(0x20, 0x7f0000002000ULL);
	p32(0x40, 0x3); /* counter header: PMC0-1 */
	p64(0x50, 0x100);
	p64(0x58, 0x101);
	assert_int_equal(run(&cfg, sz), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].n_counters, 2);
	/* Format 5 and before: 47:0 are the format, so a stray bit at 32 is no match. */
	cfg.fmt = 5;
	cfg.data_cfg = 0x1;
	p64(0x00, (0x40ULL << 48) | 0x1 | (0x1ULL << 32));
	assert_int_equal(run(&cfg, 0x40), PEBS_STEP_ANOMALY);
	assert_non_null(strstr(an.what, "format field"));
}

/*
 * METRICS without CNTR: Linux (ds.c adaptive_pebs_record_size_update,
 * e02e9b0374c3) counts the GP/fixed mask bits 47:32 / 55:48 only when CNTR
 * (bit 4) is set, so a stale mask must not change the expected size:
 * basic 0x20 + header 0x10 + SLOTS and PERF_METRICS 0x10 = 0x40.
 */
static void test_fmt6_metrics_only_size(void **state)
{
	uint64_t dcfg = 0x20 | (0x3ULL << 32) | (0x1ULL << 48);
	struct pebs_decode_cfg cfg = {.fmt = 6,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_OTHER,
				      .data_cfg = dcfg,
				      .adaptive = true};

	assert_int_equal(pebs_adaptive_record_size(dcfg), 0x40);
	memset(img, 0, sizeof(img));
	p64(0x00, (0x40ULL << 48) | (dcfg & 0xffffffffffffULL));
	p32(0x28, 3); /* header: no GP, no fixed, metrics == 3 */
	p64(0x30, 0x1234);
	p64(0x38, 0x5678);
	assert_int_equal(run(&cfg, 0x40), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].n_counters, 2);
	assert_int_equal(recs[0].counters[1], 0x5678);
}

static void test_adaptive_anomalies(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = 4,
				      .uarch = UARCH_ICL,
				      .dsrc = gen_dsrc(UARCH_ICL),
				      .kind = KIND_LDLAT,
				      .data_cfg = 0x1,
				      .adaptive = true};

	/* good record, then a size field of 0 */
	memset(img, 0, sizeof(img));
	p64(0x00, (0x40ULL << 48) | 0x1);
	p64(0x40, 0x1);
	assert_int_equal(run(&cfg, 0x80), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(an.offset, 0x40);
	assert_non_null(strstr(an.what, "size field is 0"));

	/* size past the end */
	p64(0x40, (0x40ULL << 48) | 0x1);
	assert_int_equal(run(&cfg, 0x70), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0x40);
	assert_non_null(strstr(an.what, "past the end"));

	/* truncated basic group */
	assert_int_equal(run(&cfg, 0x50), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0x40);
	assert_non_null(strstr(an.what, "truncated"));

	/* size field smaller than the groups of the format */
	p64(0x40, (0x30ULL << 48) | 0x1);
	assert_int_equal(run(&cfg, 0x80), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0x40);
	assert_non_null(strstr(an.what, "meminfo"));

	/* size field bigger than the groups */
	p64(0x40, (0x50ULL << 48) | 0x1);
	assert_int_equal(run(&cfg, 0x90), PEBS_STEP_ANOMALY);
	assert_non_null(strstr(an.what, "implies 0x40"));

	/* format field neither DATA_CFG nor 0 */
	p64(0x40, (0xd0ULL << 48) | 0x3);
	assert_int_equal(run(&cfg, 0x110), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0x40);
	assert_non_null(strstr(an.what, "format field 0x3"));

	/* size field agrees with format but not with DATA_CFG's groups */
	cfg.data_cfg = 0x3 | (0xffULL << 48);
	assert_int_equal(run(&cfg, 0x40), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0);

	/* unknown format */
	cfg.fmt = 7;
	assert_int_equal(run(&cfg, 0x40), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, 0);
	assert_non_null(strstr(an.what, "unknown record format"));
}

static void test_legacy_truncated(void **state)
{
	struct pebs_decode_cfg cfg = {
	    .fmt = 1, .uarch = UARCH_SNB, .dsrc = gen_dsrc(UARCH_SNB), .kind = KIND_LDLAT};

	legacy(0, 1);
	legacy(0xb0, 1);
	for (size_t cut = 0xb0 + 1; cut < 0x160; cut += 7) {
		assert_int_equal(run(&cfg, cut), PEBS_STEP_ANOMALY);
		assert_int_equal(nrec, 1);
		assert_int_equal(an.offset, 0xb0);
	}
	assert_int_equal(run(&cfg, 0), PEBS_STEP_END);
}

/* Pseudo-random bytes in every format: never a crash, hang or overread. */
static void test_garbage(void **state)
{
	static const unsigned int fmts[] = {0, 1, 2, 3, 4, 5, 6, PEBS_FMT_ARCH, 9};
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	for (unsigned int round = 0; round < 300; round++) {
		struct pebs_decode_cfg cfg = {.fmt = fmts[round % 9],
					      .dsrc = round % DSRC_COUNT,
					      .kind = round % KIND_COUNT,
					      .data_cfg = x & 0xff00003f,
					      .timed = round & 1,
					      .pebs_enabled = round & 2 ? 0xf : 0};
		size_t len = (x >> 20) % 2048;

		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			img[i] = (uint8_t)x;
		}
		if (round % 3 == 0 && len > 8) /* plausible small sizes */
			img[7] = 0, img[6] = (uint8_t)(x & 0x7f);
		run(&cfg, len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fmt0),
	    cmocka_unit_test(test_fmt1_nhm),
	    cmocka_unit_test(test_fmt2_tsx),
	    cmocka_unit_test(test_fmt3_skl),
	    cmocka_unit_test(test_glm_reserved),
	    cmocka_unit_test(test_adaptive_groups),
	    cmocka_unit_test(test_adaptive_fmt0_and_timed),
	    cmocka_unit_test(test_fmt6_counters),
	    cmocka_unit_test(test_fmt6_metrics_only_size),
	    cmocka_unit_test(test_fmt6_timed_counters),
	    cmocka_unit_test(test_fmt6_untimed_format_is_32_bits),
	    cmocka_unit_test(test_adaptive_anomalies),
	    cmocka_unit_test(test_legacy_truncated),
	    cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
