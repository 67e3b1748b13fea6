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

/* The images the rows start from (NULL: zeros). */
static void img_fmt0(void)
{
	legacy(0, 0);
	legacy(0x90, 0);
}

static void img_fmt1(void)
{
	legacy(0, 1);
}

static void img_fmt2(void)
{
	legacy(0, 2);
	legacy(0xc0, 2);
	legacy(0x180, 2);
}

static void img_fmt3(void)
{
	legacy(0, 3);
	legacy(0xc8, 3);
}

/* ICL: the whole u64 is the latency; SPR: instruction 15:0, cache 47:32. */
static void img_adaptive_icl(void)
{
	adaptive_all(0, 0x0000002a00000007ULL);
}

static void img_adaptive_spr(void)
{
	adaptive_all(0, 0xffff002a1234000bULL);
}

/* A value put into the image over the start: 8 bytes at off, or 4 (P32). */
struct put {
	uint16_t off;
	uint8_t width;
	uint64_t v;
};
#define P64(o, x)                                                                                  \
	{                                                                                          \
		(o), 8, (x)                                                                        \
	}
#define P32(o, x)                                                                                  \
	{                                                                                          \
		(o), 4, (x)                                                                        \
	}

/* A field of a decoded record; arg: the register, counter or LBR entry, or F_HAVE's mask. */
enum fld {
	F_NONE,
	F_SIZE,
	F_OFFSET,
	F_IP,
	F_TSC,
	F_DLA,
	F_DSE,
	F_LAT,
	F_ILAT,
	F_RETIRE,
	F_DSRC,
	F_GSTATUS,
	F_APPLICABLE,
	F_FORMAT,
	F_REG,
	F_NLBR,
	F_LBR_FROM,
	F_LBR_TO,
	F_LBR_INFO,
	F_NCNT,
	F_CNT,
	F_GPMASK,
	F_FIXMASK,
	F_METRICS,
	F_TSX_CYCLES,
	F_TSX_FLAGS,
	F_HAS_XABORT,
	F_XABORT,
	F_HAVE, /* have & arg == v */
};

struct want {
	uint8_t rec;
	enum fld f;
	uint64_t arg;
	uint64_t v;
};

#define NO_ANOMALY (~(size_t)0)

/*
 * One record image a row: the decoder's configuration (format, uarch,
 * kind, DATA_CFG, ...), the image (a builder, then the values put over
 * it), its length; the step the decode ends with, the records it gives,
 * the anomaly's offset and a word of its text, and the fields wanted.
 */
struct fmt_case {
	const char *what;
	unsigned int fmt;
	enum pebs_uarch uarch;
	enum pebs_kind kind;
	uint64_t data_cfg, pebs_enabled;
	bool adaptive, timed;
	void (*image)(void);
	struct put put[16];
	size_t len;
	enum pebs_step step;
	unsigned int nrec;
	size_t an_offset; /* NO_ANOMALY where step is PEBS_STEP_END */
	const char *an_what;
	struct want want[28];
};

#define END	.step = PEBS_STEP_END, .an_offset = NO_ANOMALY
#define ANOMALY .step = PEBS_STEP_ANOMALY
#define REGS_LEGACY(r)                                                                             \
	{r, F_REG, REG_RFLAGS, 0x1000}, {r, F_REG, REG_RIP, 0x1008}, {r, F_REG, REG_RAX, 0x1010},  \
	    {r, F_REG, REG_RBX, 0x1018}, {r, F_REG, REG_RCX, 0x1020}, {r, F_REG, REG_RDX, 0x1028}, \
	    {r, F_REG, REG_RSI, 0x1030}, {r, F_REG, REG_RDI, 0x1038}, {r, F_REG, REG_RBP, 0x1040}, \
	    {r, F_REG, REG_RSP, 0x1048}, {r, F_REG, REG_R8, 0x1050},                               \
	{                                                                                          \
		r, F_REG, REG_R15, 0x1088                                                          \
	}
/* adaptive GPR order: flags ip ax cx dx bx sp bp si di r8..r15 */
#define REGS_ADAPTIVE(r)                                                                           \
	{r, F_REG, REG_RFLAGS, 0x2000}, {r, F_REG, REG_RIP, 0x2001}, {r, F_REG, REG_RAX, 0x2002},  \
	    {r, F_REG, REG_RCX, 0x2003}, {r, F_REG, REG_RDX, 0x2004}, {r, F_REG, REG_RBX, 0x2005}, \
	    {r, F_REG, REG_RSP, 0x2006}, {r, F_REG, REG_RBP, 0x2007}, {r, F_REG, REG_RSI, 0x2008}, \
	    {r, F_REG, REG_RDI, 0x2009}, {r, F_REG, REG_R8, 0x200a},                               \
	{                                                                                          \
		r, F_REG, REG_R15, 0x2011                                                          \
	}

/* DATA_CFG of the format-6 rows: CNTR 0x10, METRICS 0x20, GP mask 47:32, fixed mask 55:48. */
#define F6_CNT	   (0x10 | (0x3ULL << 32) | (0x1ULL << 48))
#define F6_METRICS (0x10 | 0x20 | (0x1ULL << 32))
#define F6_ONLY_M  (0x20 | (0x3ULL << 32) | (0x1ULL << 48))
#define F6_TIMED   (0x1 | 0x10 | 0x20 | (0x3ULL << 32) | (0x1ULL << 48))
#define F6_UNTIMED (0x1 | 0x10 | (0x3ULL << 32))
#define SZ(s)	   ((uint64_t)(s) << 48)
#define LOW48	   0xffffffffffffULL
#define LOW32	   0xffffffffULL

// clang-format off
static const struct fmt_case fmt_cases[] = {
    {"fmt0 core2", 0, UARCH_CORE2, KIND_OTHER, .image = img_fmt0,
     .put = {P64(0x90 + 0x08, 0x401234)}, .len = 0x120, END, .nrec = 2,
     /* SDM order: FLAGS IP AX BX CX DX SI DI BP SP R8..R15 */
     .want = {{0, F_SIZE, 0, 144}, {1, F_OFFSET, 0, 144}, {1, F_IP, 0, 0x401234}, REGS_LEGACY(0),
	      {0, F_HAVE, HAVE_DLA | HAVE_DSE | HAVE_TSX | HAVE_TSC | HAVE_APPLICABLE, 0}}},
    {"fmt1 nhm", 1, UARCH_NHM, KIND_LDLAT, .image = img_fmt1,
     .put = {P64(0x90, 0x5) /* GLOBAL_STATUS */, P64(0x98, 0x7ffe0040) /* DLA */,
	     P64(0xa0, 0x36) /* dse 6 + STLB miss + lock (ignored on NHM) */, P64(0xa8, 212)},
     .len = 0xb0, END, .nrec = 1,
     .want = {{0, F_SIZE, 0, 176}, {0, F_IP, 0, 0x1008} /* R/EIP */, {0, F_GSTATUS, 0, 5},
	      {0, F_HAVE, HAVE_GLOBAL_STATUS, HAVE_GLOBAL_STATUS}, {0, F_DLA, 0, 0x7ffe0040},
	      {0, F_DSE, 0, 0x36}, {0, F_LAT, 0, 212},
	      /* NHM row 6: L3 hit, snoop HitM; TLB NA | LOCK NA (pebs_no_tlb) */
	      {0, F_DSRC, 0, 0x600800842ULL | 0x5000000ULL}, {0, F_HAVE, HAVE_TSX | HAVE_TSC, 0}}},
    {"fmt2 hsw tsx", 2, UARCH_HSW, KIND_OTHER, .image = img_fmt2,
     .put = {P64(0x10, 0xab000001) /* RAX: XABORT imm 0xab, bit 0 explicit */,
	     P64(0xb0, 0x400abc) /* EventingIP */,
	     P64(0xb8, (1ULL << 33) | (1ULL << 37) | 1000) /* rtm + conflict, 1000 cycles */,
	     P64(0xc0 + 0x10, 0xab000000) /* RAX bit 0 clear: no XABORT code */,
	     P64(0xc0 + 0xb8, (1ULL << 33) | (1ULL << 39) | 7), P64(0x180 + 0x10, 0xcd000001),
	     P64(0x180 + 0xb8, (1ULL << 32) | (1ULL << 35) | (1ULL << 36) | (1ULL << 38) | (1ULL << 34))},
     .len = 0x240, END, .nrec = 3,
     .want = {{0, F_IP, 0, 0x400abc}, {0, F_TSX_CYCLES, 0, 1000},
	      {0, F_TSX_FLAGS, 0, TSX_RTM | TSX_CONFLICT}, {0, F_HAS_XABORT, 0, 1},
	      {0, F_XABORT, 0, 0xab}, {1, F_TSX_FLAGS, 0, TSX_RTM | TSX_CAPACITY_READ},
	      {1, F_HAS_XABORT, 0, 0},
	      /* HLE abort: no XABORT even with RAX bit 0 */
	      {2, F_TSX_FLAGS, 0, TSX_HLE | TSX_INSTRUCTION | TSX_NON_INSTRUCTION | TSX_RETRY |
				  TSX_CAPACITY_WRITE},
	      {2, F_HAS_XABORT, 0, 0}, {0, F_HAVE, HAVE_MEM, 0} /* kind other */}},
    /* the second record's applicable counter PMC1 is not PEBS-enabled */
    {"fmt3 skl", 3, UARCH_SKL, KIND_LDLAT, .pebs_enabled = 0x1, .image = img_fmt3,
     .put = {P64(0x90, 0x1), P64(0xa0, 0x03), P64(0xa8, 14), P64(0xb0, 0x401000),
	     P64(0xc0, 0x123456789aULL), P64(0xc8 + 0x90, 0x2)},
     .len = 0x190, ANOMALY, .nrec = 1, .an_offset = 0xc8, .an_what = "applicable",
     .want = {{0, F_TSC, 0, 0x123456789aULL}, {0, F_APPLICABLE, 0, 1},
	      {0, F_HAVE, HAVE_GLOBAL_STATUS, 0}, {0, F_IP, 0, 0x401000},
	      {0, F_DSRC, 0, 0x400100442ULL | 0x68000000ULL | 0x10000000000ULL}}},
    /* and bits outside the mask next to an enabled one */
    {"fmt3 skl, PMC0-1 applicable", 3, UARCH_SKL, KIND_LDLAT, .pebs_enabled = 0x1,
     .image = img_fmt3,
     .put = {P64(0x90, 0x1), P64(0xa0, 0x03), P64(0xa8, 14), P64(0xb0, 0x401000),
	     P64(0xc0, 0x123456789aULL), P64(0xc8 + 0x90, 0x3)},
     .len = 0x190, ANOMALY, .nrec = 1, .an_offset = 0xc8, .an_what = "applicable"},
    {"fmt3 skl, PEBS_ENABLE unknown", 3, UARCH_SKL, KIND_LDLAT, .image = img_fmt3,
     .put = {P64(0x90, 0x1), P64(0xa0, 0x03), P64(0xa8, 14), P64(0xb0, 0x401000),
	     P64(0xc0, 0x123456789aULL), P64(0xc8 + 0x90, 0x3)},
     .len = 0x190, END, .nrec = 2},
    {"glm reserved", 3, UARCH_GLM, KIND_LDLAT, .image = img_fmt1 /* 0xb0 of zeros past */,
     .put = {P64(0x98, 0xdead000), P64(0xa0, 0x1)}, .len = 0xc8, END, .nrec = 1,
     .want = {{0, F_DLA, 0, 0xdead000}, {0, F_HAVE, HAVE_MEM_NA, HAVE_MEM_NA},
	      {0, F_HAVE, HAVE_MEM | HAVE_DSE | HAVE_LATENCY, 0}}},
    {"adaptive icl, every group", 4, UARCH_ICL, KIND_LDLAT, CFG_ALL, 1, true,
     .image = img_adaptive_icl, .len = SZ_ALL, END, .nrec = 1,
     .want = {{0, F_SIZE, 0, SZ_ALL}, {0, F_IP, 0, 0x401500}, {0, F_TSC, 0, 0xabcdef},
	      {0, F_DLA, 0, 0x7f0000001000ULL}, {0, F_DSE, 0, 0x14},
	      {0, F_LAT, 0, 0x0000002a00000007ULL}, {0, F_HAVE, HAVE_INSTR_LATENCY, 0},
	      {0, F_DSRC, 0, 0x600100842ULL | 0x50000000ULL | 0x10000000000ULL}, REGS_ADAPTIVE(0),
	      {0, F_HAVE, HAVE_XMM, HAVE_XMM}, {0, F_NLBR, 0, 2}, {0, F_LBR_FROM, 1, 0xf001},
	      {0, F_LBR_TO, 1, 0xf101}, {0, F_LBR_INFO, 1, 0xf201},
	      {0, F_HAVE, HAVE_RETIRE_LATENCY, 0}}},
    {"adaptive spr, latency split", 4, UARCH_SPR, KIND_LDLAT, CFG_ALL, 1, true,
     .image = img_adaptive_spr, .len = SZ_ALL, END, .nrec = 1,
     .want = {{0, F_LAT, 0, 0x2a}, {0, F_ILAT, 0, 0xb},
	      {0, F_HAVE, HAVE_INSTR_LATENCY, HAVE_INSTR_LATENCY}}},
    /* a non-adaptive counter's record: format 0, basic group only; then an adaptive one */
    {"fmt5 format 0 and timed", 5, UARCH_SPR, KIND_LDLAT, .data_cfg = 0x1, .timed = true,
     .put = {P64(0x00, SZ(0x20) | (77ULL << 32)), P64(0x08, 0x401777),
	     P64(0x20, SZ(0x40) | (300ULL << 32) | 0x1) /* retire latency 300 in 47:32 */,
	     P64(0x48, 0x3), P64(0x50, (9ULL << 32) | 4)},
     .len = 0x60, END, .nrec = 2,
     .want = {{0, F_SIZE, 0, 0x20}, {0, F_RETIRE, 0, 77}, {0, F_FORMAT, 0, 0},
	      {0, F_HAVE, HAVE_MEM, 0}, {1, F_OFFSET, 0, 0x20}, {1, F_RETIRE, 0, 300},
	      {1, F_FORMAT, 0, 1}, {1, F_LAT, 0, 9}, {1, F_ILAT, 0, 4},
	      {1, F_HAVE, HAVE_MEM, HAVE_MEM}}},
    /* the record's format field holds DATA_CFG 47:0; 63:48 are the size */
    {"fmt6 counters", 6, UARCH_LNC, KIND_OTHER, F6_CNT, .adaptive = true,
     .put = {P64(0x00, SZ(0x48) | (F6_CNT & LOW48)), P32(0x20, 0x3), P32(0x24, 0x1),
	     P32(0x28, 0), P64(0x30, 111), P64(0x38, 222), P64(0x40, 333)},
     .len = 0x48, END, .nrec = 1,
     .want = {{0, F_NCNT, 0, 3}, {0, F_CNT, 0, 111}, {0, F_CNT, 2, 333}, {0, F_GPMASK, 0, 3},
	      {0, F_FIXMASK, 0, 1}}},
    /* metrics == 3: two more values (SLOTS, PERF_METRICS) */
    {"fmt6 counters and metrics", 6, UARCH_LNC, KIND_OTHER, F6_METRICS, .adaptive = true,
     .put = {P64(0x00, SZ(0x48) | F6_METRICS), P32(0x20, 0x1), P32(0x28, 3), P64(0x30, 1),
	     P64(0x38, 2), P64(0x40, 3)},
     .len = 0x48, END, .nrec = 1, .want = {{0, F_NCNT, 0, 3}, {0, F_CNT, 2, 3}}},
    /*
     * METRICS without CNTR: Linux (ds.c adaptive_pebs_record_size_update,
     * e02e9b0374c3) counts the GP/fixed mask bits 47:32 / 55:48 only when CNTR
     * (bit 4) is set, so a stale mask must not change the expected size:
     * basic 0x20 + header 0x10 + SLOTS and PERF_METRICS 0x10 = 0x40.
     */
    {"fmt6 metrics only", 6, UARCH_LNC, KIND_OTHER, F6_ONLY_M, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | (F6_ONLY_M & LOW48)),
	     P32(0x28, 3) /* header: no GP, no fixed, metrics == 3 */, P64(0x30, 0x1234),
	     P64(0x38, 0x5678)},
     .len = 0x40, END, .nrec = 1, .want = {{0, F_NCNT, 0, 2}, {0, F_CNT, 1, 0x5678}}},
    /*
     * Lunar Lake class (fmt6, timed PEBS, PERF_CAPABILITIES bit 17): Linux
     * struct pebs_basic with pebs_timing_info is format_group 31:0, retire
     * latency 47:32, size 63:48; meminfo latency split (lnc: PMU_FL_INSTR_LATENCY);
     * the counter group (e02e9b0374c3 "Support PEBS counters snapshotting"):
     * a 16-byte header (GP mask, fixed mask, metrics), GP values, fixed values,
     * then SLOTS and PERF_METRICS when metrics == 3.
     */
    {"fmt6 timed counters", 6, UARCH_LNC, KIND_LDLAT, F6_TIMED, .adaptive = true, .timed = true,
     .put = {P64(0x00, SZ(0x78) | (500ULL << 32) | (F6_TIMED & LOW32)), P64(0x08, 0x406000),
	     P64(0x20, 0x7f0000002000ULL) /* meminfo: address */, P64(0x28, 0x11) /* local RAM */,
	     P64(0x30, (300ULL << 32) | 9) /* cache 300, instruction 9 */,
	     P32(0x40, 0x3) /* counter header: PMC0-1 */, P32(0x44, 0x1) /* FIXED0 */,
	     P32(0x48, 3) /* metrics */, P64(0x50, 0x100), P64(0x58, 0x101), P64(0x60, 0x102),
	     P64(0x68, 0x103), P64(0x70, 0x104)},
     .len = 0x78, END, .nrec = 1,
     .want = {{0, F_RETIRE, 0, 500}, {0, F_HAVE, HAVE_RETIRE_LATENCY, HAVE_RETIRE_LATENCY},
	      {0, F_FORMAT, 0, F6_TIMED & LOW32}, {0, F_LAT, 0, 300}, {0, F_ILAT, 0, 9},
	      {0, F_HAVE, HAVE_MEM, HAVE_MEM}, {0, F_NCNT, 0, 5}, {0, F_GPMASK, 0, 0x3},
	      {0, F_FIXMASK, 0, 0x1}, {0, F_METRICS, 0, 3}, {0, F_CNT, 0, 0x100},
	      {0, F_CNT, 4, 0x104}}},
    /*
     * The same bytes read as untimed format 6: the format field is still
     * 31:0 (struct pebs_basic's format_group; DATA_CFG's counter masks at
     * 47:32 are not in it), and 47:32 are no retire latency.
     */
    {"fmt6 timed bytes, untimed", 6, UARCH_LNC, KIND_LDLAT, F6_TIMED, .adaptive = true,
     .put = {P64(0x00, SZ(0x78) | (500ULL << 32) | (F6_TIMED & LOW32)), P64(0x08, 0x406000),
	     P64(0x20, 0x7f0000002000ULL), P64(0x28, 0x11), P64(0x30, (300ULL << 32) | 9),
	     P32(0x40, 0x3), P32(0x44, 0x1), P32(0x48, 3), P64(0x50, 0x100), P64(0x58, 0x101),
	     P64(0x60, 0x102), P64(0x68, 0x103), P64(0x70, 0x104)},
     .len = 0x78, END, .nrec = 1,
     .want = {{0, F_FORMAT, 0, F6_TIMED & LOW32}, {0, F_HAVE, HAVE_RETIRE_LATENCY, 0},
	      {0, F_GPMASK, 0, 0x3}}},
    /*
     * An untimed format-6 record whose format field has 0 at 47:32 while
     * PEBS_DATA_CFG has the counter masks there: taken (Linux reads 31:0
     * only); compared on 47:0 it was an anomaly and the decode stopped.
     */
    {"fmt6 untimed, format 31:0", 6, UARCH_LNC, KIND_LDLAT, F6_UNTIMED, .adaptive = true,
     .put = {P64(0x00, SZ(0x60) | (F6_UNTIMED & LOW32)), P64(0x08, 0x406000),
	     P64(0x20, 0x7f0000002000ULL), P32(0x40, 0x3) /* counter header: PMC0-1 */,
	     P64(0x50, 0x100), P64(0x58, 0x101)},
     .len = 0x60, END, .nrec = 1, .want = {{0, F_NCNT, 0, 2}}},
    /* Format 5 and before: 47:0 are the format, so a stray bit at 32 is no match. */
    {"fmt5 format 47:0", 5, UARCH_LNC, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1 | (0x1ULL << 32)), P64(0x08, 0x406000),
	     P64(0x20, 0x7f0000002000ULL)},
     .len = 0x40, ANOMALY, .nrec = 0, .an_offset = 0, .an_what = "format field"},
    /* adaptive anomalies: a good record, then the second one's header */
    {"adaptive size field 0", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, 0x1)},
     .len = 0x80, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "size field is 0"},
    {"adaptive size past the end", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0x40) | 0x1)},
     .len = 0x70, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "past the end"},
    {"adaptive basic group truncated", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0x40) | 0x1)},
     .len = 0x50, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "truncated"},
    {"adaptive size below the groups", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0x30) | 0x1)},
     .len = 0x80, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "meminfo"},
    {"adaptive size above the groups", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0x50) | 0x1)},
     .len = 0x90, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "implies 0x40"},
    {"adaptive format neither DATA_CFG nor 0", 4, UARCH_ICL, KIND_LDLAT, 0x1, .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0xd0) | 0x3)},
     .len = 0x110, ANOMALY, .nrec = 1, .an_offset = 0x40, .an_what = "format field 0x3"},
    /* size field agrees with format but not with DATA_CFG's groups */
    {"adaptive size not DATA_CFG's", 4, UARCH_ICL, KIND_LDLAT, 0x3 | (0xffULL << 48),
     .adaptive = true, .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0xd0) | 0x3)},
     .len = 0x40, ANOMALY, .nrec = 0, .an_offset = 0},
    {"unknown format", 7, UARCH_ICL, KIND_LDLAT, 0x3 | (0xffULL << 48), .adaptive = true,
     .put = {P64(0x00, SZ(0x40) | 0x1), P64(0x40, SZ(0xd0) | 0x3)},
     .len = 0x40, ANOMALY, .nrec = 0, .an_offset = 0, .an_what = "unknown record format"},
};
// clang-format on

static uint64_t field(const struct pebs_record *r, const struct want *w)
{
	switch (w->f) {
	case F_SIZE:
		return r->size;
	case F_OFFSET:
		return r->offset;
	case F_IP:
		return r->ip;
	case F_TSC:
		return r->tsc;
	case F_DLA:
		return r->data_la;
	case F_DSE:
		return r->dse;
	case F_LAT:
		return r->latency;
	case F_ILAT:
		return r->instr_latency;
	case F_RETIRE:
		return r->retire_latency;
	case F_DSRC:
		return r->data_src;
	case F_GSTATUS:
		return r->global_status;
	case F_APPLICABLE:
		return r->applicable_counters;
	case F_FORMAT:
		return r->format_field;
	case F_REG:
		return r->regs[w->arg];
	case F_NLBR:
		return r->n_lbr;
	case F_LBR_FROM:
		return r->lbr[w->arg].from;
	case F_LBR_TO:
		return r->lbr[w->arg].to;
	case F_LBR_INFO:
		return r->lbr[w->arg].info;
	case F_NCNT:
		return r->n_counters;
	case F_CNT:
		return r->counters[w->arg];
	case F_GPMASK:
		return r->counters_gp_mask;
	case F_FIXMASK:
		return r->counters_fixed_mask;
	case F_METRICS:
		return r->counters_metrics;
	case F_TSX_CYCLES:
		return r->tsx.cycles;
	case F_TSX_FLAGS:
		return r->tsx.flags;
	case F_HAS_XABORT:
		return r->tsx.has_xabort;
	case F_XABORT:
		return r->tsx.xabort;
	case F_HAVE:
		return r->have & w->arg;
	case F_NONE:
		break;
	}
	return 0;
}

/* Every row decoded; each difference named (row, record, field) before the test fails. */
static void test_format_rows(void **state)
{
	unsigned int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(fmt_cases); i++) {
		const struct fmt_case *t = &fmt_cases[i];
		struct pebs_decode_cfg cfg = {.fmt = t->fmt,
					      .uarch = t->uarch,
					      .dsrc = gen_dsrc(t->uarch),
					      .kind = t->kind,
					      .data_cfg = t->data_cfg,
					      .pebs_enabled = t->pebs_enabled,
					      .adaptive = t->adaptive,
					      .timed = t->timed};
		enum pebs_step st;

		memset(img, 0, sizeof(img));
		if (t->image)
			t->image();
		for (size_t p = 0; p < ARRAY_SIZE(t->put) && t->put[p].width; p++) {
			if (t->put[p].width == 4)
				p32(t->put[p].off, (uint32_t)t->put[p].v);
			else
				p64(t->put[p].off, t->put[p].v);
		}
		st = run(&cfg, t->len);
		if (st != t->step || nrec != t->nrec ||
		    (st == PEBS_STEP_ANOMALY &&
		     (an.offset != t->an_offset || (t->an_what && !strstr(an.what, t->an_what))))) {
			print_error("%s: step %d, %u records, anomaly at %#zx '%s'; want step %d, "
				    "%u records, anomaly at %#zx '%s'\n",
				    t->what, st, nrec, an.offset, an.what, t->step, t->nrec,
				    t->an_offset, t->an_what ? t->an_what : "");
			bad++;
			continue;
		}
		for (size_t w = 0; w < ARRAY_SIZE(t->want) && t->want[w].f; w++) {
			const struct want *x = &t->want[w];
			uint64_t got = field(&recs[x->rec], x);

			if (got != x->v) {
				print_error("%s: record %u field %d [%#llx]: %#llx, want %#llx\n",
					    t->what, x->rec, x->f, (unsigned long long)x->arg,
					    (unsigned long long)got, (unsigned long long)x->v);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

/* The record sizes the rows' lengths rest on. */
static void test_record_sizes(void **state)
{
	(void)state;
	assert_int_equal(pebs_legacy_record_size(0), 144);
	assert_int_equal(pebs_adaptive_record_size(CFG_ALL), SZ_ALL);
	assert_int_equal(pebs_adaptive_record_size(F6_CNT), 0x20 + 0x10 + 3 * 8);
	assert_int_equal(pebs_adaptive_record_size(F6_METRICS), 0x20 + 0x10 + 16 + 8);
	assert_int_equal(pebs_adaptive_record_size(F6_ONLY_M), 0x40);
	assert_int_equal(pebs_adaptive_record_size(F6_TIMED), 0x20 + 0x20 + 0x10 + 5 * 8);
	assert_int_equal(pebs_adaptive_record_size(F6_UNTIMED), 0x20 + 0x20 + 0x10 + 2 * 8);
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
	    cmocka_unit_test(test_record_sizes),
	    cmocka_unit_test(test_format_rows),
	    cmocka_unit_test(test_legacy_truncated),
	    cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
