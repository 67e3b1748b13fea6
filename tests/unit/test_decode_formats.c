// SPDX-License-Identifier: MIT
/*
 * test_decode_formats.c - records built byte by byte from the SDM layouts
 * (Tables 18-23/18-44/18-55; Linux struct pebs_basic and the adaptive groups;
 * the arch-PEBS records of Linux d21954c8a0ff; union hsw_tsx_tuning) for every format; TSX; latency
 * layouts; validation and anomalies with their byte offsets.  Every buffer is copied into a heap
 * block of exactly its length, so the ASan build catches any read past the end.
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

#define MAXREC 16
static uint8_t img[8192];
static struct pebs_record recs[MAXREC];
static struct pebs_anomaly an;
static unsigned int nrec;

static void p64(size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

static void p32(size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

/* Decodes img[0..len) from an exact-size heap copy; returns the last step. */
static enum pebs_step run(const struct pebs_decode_cfg *cfg, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);
	size_t off = 0;
	enum pebs_step st;

	memcpy(b, img, len);
	nrec = 0;
	memset(&an, 0, sizeof(an));
	for (;;) {
		st = pebs_decode_next(cfg, b, len, &off, &recs[nrec < MAXREC ? nrec : MAXREC - 1],
				      &an);
		if (st != PEBS_STEP_RECORD)
			break;
		nrec++;
		assert_true(nrec < 1000); /* never loops forever */
	}
	free(b);
	return st;
}

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

/* Arch-PEBS header: size, groups, cont. */
static uint64_t ahdr(size_t size, uint64_t bits)
{
	return (uint64_t)size | bits;
}

#define A_BASIC	  (1ULL << 63)
#define A_AUX	  (1ULL << 62)
#define A_GPR	  (1ULL << 61)
#define A_XMM	  (1ULL << 49)
#define A_CONT	  (1ULL << 31)
#define A_LBR(n)  ((uint64_t)(n) << 40)
#define A_CNTR(n) ((uint64_t)(n) << 35)

static void test_arch(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_LDLAT,
				      .pebs_enabled = 0x1};
	size_t s1 = 0x10 + 0x30 + 0x40 + 0xa0, o;

	memset(img, 0, sizeof(img));
	/* record 1: one fragment, basic + aux + gpr */
	p64(0x00, ahdr(s1, A_BASIC | A_AUX | A_GPR));
	p64(0x10, 0x402000);		       /* ip */
	p64(0x18, 0x1);			       /* applicable */
	p64(0x20, 0x5555);		       /* tsc */
	p64(0x28, (1ULL << 16) | 123);	       /* retire latency, valid */
	p64(0x40, 0x7f00aa00);		       /* aux: address */
	p64(0x40 + 0x28, 0x11 | (1ULL << 10)); /* aux: local RAM, STLB miss */
	p64(0x40 + 0x30, (250ULL << 32) | 6);  /* cache 250, instr 6 */
	for (unsigned int i = 0; i < 20; i++)
		p64(0x80 + 8 * i, 0x3000 + i);
	o = s1;
	/* record 2: basic fragment with CONT, a null fragment, then aux + LBR(8) + XMM + counters
	 */
	p64(o, ahdr(0x40, A_BASIC | A_CONT));
	p64(o + 0x10, 0x403000);
	p64(o + 0x18, 0x1);
	o += 0x40;
	p64(o, ahdr(0x10, 0)); /* null: continued */
	o += 0x10;
	{
		size_t s3 = 0x10 + 0x40 + (0x10 + 0x100) + (0x30 + 8 * 0x18) + (0x10 + 8);
		size_t g = o + 0x10;

		p64(o, ahdr(s3, A_AUX | A_XMM | A_LBR(1) | A_CNTR(1)));
		p64(g + 0x28, 0x1);    /* aux: L1 hit */
		g += 0x40 + 0x110;     /* vector header + XMM */
		p64(g + 0x30, 0xaaa0); /* first LBR entry from */
		g += 0x30 + 8 * 0x18;
		p32(g, 0x1); /* counter group: PMC0 */
		p64(g + 0x10, 4242);
		o += s3;
	}
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_int_equal(recs[0].size, s1);
	assert_int_equal(recs[0].ip, 0x402000);
	assert_int_equal(recs[0].tsc, 0x5555);
	assert_int_equal(recs[0].retire_latency, 123);
	assert_true(recs[0].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[0].data_la, 0x7f00aa00);
	assert_int_equal(recs[0].latency, 250);
	assert_int_equal(recs[0].instr_latency, 6);
	/* LNC 0x11 local RAM + STLB miss + BLK NA */
	assert_int_equal(recs[0].data_src, 0x1A00101042ULL | 0x50000000ULL | 0x10000000000ULL);
	assert_int_equal(recs[0].regs[REG_RAX], 0x3002);
	assert_int_equal(recs[0].regs[REG_RBX], 0x3005);
	assert_int_equal(recs[0].regs[REG_R15], 0x3011);
	assert_int_equal(recs[1].offset, s1);
	assert_int_equal(recs[1].size, o - s1);
	assert_int_equal(recs[1].ip, 0x403000);
	assert_false(recs[1].have & HAVE_RETIRE_LATENCY);
	assert_int_equal(recs[1].n_lbr, 8);
	assert_int_equal(recs[1].lbr[0].from, 0xaaa0);
	assert_int_equal(recs[1].n_counters, 1);
	assert_int_equal(recs[1].counters[0], 4242);
	assert_true(recs[1].have & HAVE_XMM);

	/* the record's last fragment cut off: continues past the end */
	assert_int_equal(run(&cfg, s1 + 0x50), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(an.offset, s1 + 0x50);

	/* a first fragment without the basic group */
	p64(s1, ahdr(0x40, A_AUX));
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, s1);

	/*
	 * a null fragment, then one without the basic group: no fragment of
	 * the record has it (Linux skips such fragments); must not pass as a
	 * record, nor be checked against a previous record's counters
	 */
	p64(s1, ahdr(0x10, 0));
	p64(s1 + 0x10, ahdr(0x50, A_AUX));
	cfg.pebs_enabled = 0;
	assert_int_equal(run(&cfg, s1 + 0x60), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 1);
	assert_int_equal(an.offset, s1);
	assert_non_null(strstr(an.what, "basic"));
	cfg.pebs_enabled = 0x1;

	/* size 0 */
	p64(s1, 0);
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, s1);
	assert_non_null(strstr(an.what, "size field is 0"));
}

/*
 * Counts taken from the record itself, chosen to defeat size arithmetic:
 * - an arch LBR header (lbr == 3) whose depth is 1 << 61, so depth * 0x18
 *   wraps to 0 in 64 bits: must be "too small for its lbr group";
 * - a counter-group header naming every GP and fixed counter plus metrics
 *   (32 + 32 + 2 = 66 values, the most a header can describe): every value
 *   must be kept, and one byte less must be refused.
 */
static void test_arch_hostile_counts(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_LNC,
				      .dsrc = gen_dsrc(UARCH_LNC),
				      .kind = KIND_OTHER};
	size_t s = 0x10 + 0x30 + 0x30, c;

	memset(img, 0, sizeof(img));
	p64(0x00, ahdr(s, A_BASIC | A_LBR(3)));
	p64(0x40 + 0x10, 1ULL << 61); /* LBR header: depth */
	assert_int_equal(run(&cfg, s), PEBS_STEP_ANOMALY);
	assert_int_equal(nrec, 0);
	assert_int_equal(an.offset, 0);
	assert_non_null(strstr(an.what, "lbr"));

	c = 0x10 + 0x30 + 0x10 + 66 * 8;
	memset(img, 0, sizeof(img));
	p64(0x00, ahdr(c, A_BASIC | A_CNTR(1)));
	p32(0x40, 0xffffffff);
	p32(0x44, 0xffffffff);
	p32(0x48, 3);
	for (unsigned int i = 0; i < 66; i++)
		p64(0x50 + 8 * i, 0x1000 + i);
	assert_int_equal(run(&cfg, c), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].n_counters, 66);
	assert_int_equal(recs[0].counters[65], 0x1000 + 65);
	p64(0x00, ahdr(c - 8, A_BASIC | A_CNTR(1)));
	assert_int_equal(run(&cfg, c - 8), PEBS_STEP_ANOMALY);
	assert_non_null(strstr(an.what, "counter"));
}

#define A_YMMH	 (1ULL << 50)
#define A_OPMASK (1ULL << 53)
#define A_ZMMH	 (1ULL << 54)
#define A_H16ZMM (1ULL << 55)

/* RTM abort (tuning bit 33) after 77 cycles; AX bit 0 set, XABORT code 0x5a in 31:24. */
#define RTM_TUNING (77ULL | (1ULL << 33))
#define RTM_AX	   0x5a000001ULL

/* Fragment layouts for the XABORT rule, each with its record size. */
static size_t frag_basic_aux(size_t o, uint64_t more)
{
	p64(o, ahdr(0x80, A_BASIC | A_AUX | more));
	p64(o + 0x10, 0x404000);
	p64(o + 0x40 + 0x38, RTM_TUNING);
	return o + 0x80;
}

static size_t frag_gpr(size_t o, uint64_t more, uint64_t ax)
{
	p64(o, ahdr(0xb0, A_GPR | more));
	p64(o + 0x10 + 0x10, ax);	      /* AX, after flags and ip */
	p64(o + 0x10 + 0x88, 0x7777);	      /* r15 */
	p64(o + 0x10 + 0x90, 0x7ffff0001000); /* ssp */
	return o + 0xb0;
}

/*
 * Linux setup_arch_pebs_sample_data() keeps the GPR pointer across the
 * fragments of a record and reads AX when it processes an aux group, after
 * that fragment's GPRs: the XABORT code comes from GPRs of the same or an
 * earlier fragment, never from a later one (then AX = 0: no code).
 */
static void test_arch_xabort_fragments(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_PNC,
				      .dsrc = gen_dsrc(UARCH_PNC),
				      .kind = KIND_OTHER};
	size_t o;

	/* aux in fragment 1, GPRs only in fragment 2: no code */
	memset(img, 0, sizeof(img));
	o = frag_basic_aux(0, A_CONT);
	o = frag_gpr(o, 0, RTM_AX);
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].size, 0x80 + 0xb0);
	assert_int_equal(recs[0].tsx.flags, TSX_RTM);
	assert_int_equal(recs[0].tsx.cycles, 77);
	assert_int_equal(recs[0].regs[REG_RAX], RTM_AX); /* the GPRs themselves are kept */
	assert_false(recs[0].tsx.has_xabort);

	/* GPRs in fragment 1, aux in fragment 2: the earlier AX counts */
	memset(img, 0, sizeof(img));
	p64(0, ahdr(0x40 + 0xa0, A_BASIC | A_GPR | A_CONT));
	p64(0x40 + 0x10, RTM_AX);
	o = 0x40 + 0xa0;
	p64(o, ahdr(0x50, A_AUX));
	p64(o + 0x10 + 0x38, RTM_TUNING);
	o += 0x50;
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_true(recs[0].tsx.has_xabort);
	assert_int_equal(recs[0].tsx.xabort, 0x5a);

	/* aux and GPRs in the same fragment: GPRs come after aux, still used */
	memset(img, 0, sizeof(img));
	p64(0, ahdr(0x120, A_BASIC | A_AUX | A_GPR));
	p64(0x40 + 0x38, RTM_TUNING);
	p64(0x80 + 0x10, RTM_AX);
	assert_int_equal(run(&cfg, 0x120), PEBS_STEP_END);
	assert_true(recs[0].tsx.has_xabort);
	assert_int_equal(recs[0].tsx.xabort, 0x5a);

	/* a record after one with a code: the code is not carried over */
	o = 0x120;
	o = frag_basic_aux(o, A_CONT);
	o = frag_gpr(o, 0, RTM_AX);
	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 2);
	assert_true(recs[0].tsx.has_xabort);
	assert_false(recs[1].tsx.has_xabort);
}

/*
 * Every arch-PEBS group, spread over three fragments (Linux struct
 * arch_pebs_header, _basic, _aux, _gprs with ssp, _xer_header, the vector
 * parts of "Support arch-PEBS vector registers group capturing": XMM and
 * YMMH 0x100, OPMASK 0x40, ZMMH 0x200, H16ZMM 0x400 behind one 0x10
 * header; _lbr_header; _cntr_header).
 */
static void test_arch_all_groups_fragments(void **state)
{
	struct pebs_decode_cfg cfg = {.fmt = PEBS_FMT_ARCH,
				      .uarch = UARCH_PNC,
				      .dsrc = gen_dsrc(UARCH_PNC),
				      .kind = KIND_LDLAT};
	size_t f1 = 0x10 + 0x30 + 0x10 + 0x100 + 0x100;
	size_t f2 = 0x10 + 0xa0 + 0x10 + 0x40 + 0x200 + 0x400;
	size_t f3 = 0x10 + 0x40 + (0x30 + 16 * 0x18) + (0x10 + 3 * 8);
	size_t o, g;

	memset(img, 0, sizeof(img));
	/* fragment 1: basic, XMM + YMMH */
	p64(0, ahdr(f1, A_BASIC | A_XMM | A_YMMH | A_CONT));
	p64(0x10, 0x405000);
	p64(0x18, 0x4);
	p64(0x28, (1ULL << 16) | 0x222); /* retire latency, valid */
	/* fragment 2: GPR + SSP, OPMASK + ZMMH + H16ZMM */
	o = f1;
	p64(o, ahdr(f2, A_GPR | A_OPMASK | A_ZMMH | A_H16ZMM | A_CONT));
	p64(o + 0x10 + 0x10, 0xa0a0);	     /* ax */
	p64(o + 0x10 + 0x90, 0x7ffd0000ULL); /* ssp */
	o += f2;
	/* fragment 3: aux, LBR(2) = 16 entries, counters GP 0x5 + fixed 0x1 */
	p64(o, ahdr(f3, A_AUX | A_LBR(2) | A_CNTR(1)));
	g = o + 0x10;
	p64(g, 0xdada);			    /* address */
	p64(g + 0x28, 0x108);		    /* L2 miss, OMR source 8: MEM0 */
	p64(g + 0x30, (400ULL << 32) | 12); /* cache 400, instr 12 */
	g += 0x40;
	p64(g + 0x30 + 15 * 0x18 + 8, 0xbeef); /* the 16th LBR entry's to */
	g += 0x30 + 16 * 0x18;
	p32(g, 0x5);
	p32(g + 4, 0x1);
	p64(g + 0x10 + 16, 0xc3);
	o += f3;

	assert_int_equal(run(&cfg, o), PEBS_STEP_END);
	assert_int_equal(nrec, 1);
	assert_int_equal(recs[0].size, f1 + f2 + f3);
	assert_int_equal(recs[0].ip, 0x405000);
	assert_int_equal(recs[0].applicable_counters, 0x4);
	assert_int_equal(recs[0].retire_latency, 0x222);
	assert_true(recs[0].have & HAVE_XMM);
	assert_int_equal(recs[0].regs[REG_RAX], 0xa0a0);
	assert_true(recs[0].have & HAVE_SSP);
	assert_int_equal(recs[0].ssp, 0x7ffd0000ULL);
	assert_int_equal(recs[0].data_la, 0xdada);
	assert_int_equal(recs[0].latency, 400);
	assert_int_equal(recs[0].instr_latency, 12);
	assert_true(recs[0].have & HAVE_MEM);
	assert_int_equal(recs[0].n_lbr, 16);
	assert_int_equal(recs[0].lbr[15].to, 0xbeef);
	assert_int_equal(recs[0].n_counters, 3);
	assert_int_equal(recs[0].counters[2], 0xc3);

	/* one vector part too many for the fragment's size: refused */
	p64(f1, ahdr(f2, A_GPR | A_OPMASK | A_ZMMH | A_H16ZMM | A_YMMH | A_CONT));
	assert_int_equal(run(&cfg, o), PEBS_STEP_ANOMALY);
	assert_int_equal(an.offset, f1);
	assert_non_null(strstr(an.what, "vector"));
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
	    cmocka_unit_test(test_arch),
	    cmocka_unit_test(test_arch_hostile_counts),
	    cmocka_unit_test(test_arch_xabort_fragments),
	    cmocka_unit_test(test_arch_all_groups_fragments),
	    cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
