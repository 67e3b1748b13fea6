// SPDX-License-Identifier: MIT
/*
 * test_decode_output.c - record rendering (key=value, JSON Lines, CSV), the
 * per-data-source summary (percentiles worked out by hand) and the raw dump
 * file (writer, parser, bad headers).
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
#include "decode/dump.h"
#include "decode/render.h"
#include "decode/summary.h"
#include "lib/fmt.h"

/* L1 hit row with STLB hit and BLK NA, from the perf_mem_data_src bits: see test_decode_datasrc.c
 */
#define DS_L1	   0x200100142ULL
#define DS_L3_HITM 0x600800842ULL
#define STLB_HIT   0x68000000ULL
#define STLB_MISS  0x50000000ULL
#define BLK_NA	   0x10000000000ULL

static void mem_rec(struct pebs_record *r, uint64_t ds, uint64_t lat)
{
	memset(r, 0, sizeof(*r));
	r->have = HAVE_MEM | HAVE_LATENCY;
	r->data_src = ds;
	r->latency = lat;
}

static void test_render_kv(void **state)
{
	struct pebs_record r;
	char buf[512];
	struct strbuf sb;

	mem_rec(&r, DS_L1 | STLB_HIT | BLK_NA, 5);
	r.offset = 0xc8;
	r.size = 200;
	r.ip = 0x401000;
	r.data_la = 0x7fff0010;
	r.dse = 0x1;
	r.have |= HAVE_IP | HAVE_DLA | HAVE_DSE;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_kv(&r, &sb);
	assert_string_equal(buf,
			    "offset=0xc8 size=200 ip=0x401000 data_la=0x7fff0010 dse=0x1 latency=5 "
			    "data_src=0x10268100142 op=LOAD level=\"L1 hit\" snoop=None "
			    "tlb=\"L1 or L2 hit\" lock=No blocked=N/A");
	assert_false(sb.truncated);

	/* TSX fields; a tiny buffer truncates, never overflows */
	memset(&r, 0, sizeof(r));
	r.have = HAVE_TSX;
	r.tsx.cycles = 40;
	r.tsx.flags = TSX_RTM | TSX_CONFLICT;
	r.tsx.has_xabort = true;
	r.tsx.xabort = 0xab;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_kv(&r, &sb);
	assert_string_equal(buf,
			    "offset=0x0 size=0 tsx_cycles=40 tsx_flags=rtm,conflict xabort=0xab");
	strbuf_init(&sb, buf, 10);
	pebs_render_kv(&r, &sb);
	assert_true(sb.truncated);
	assert_int_equal(strlen(buf), 9);
}

static void test_render_json(void **state)
{
	struct pebs_record r;
	char buf[4096];
	struct strbuf sb;

	mem_rec(&r, DS_L3_HITM | STLB_MISS | BLK_NA, 80);
	r.offset = 64;
	r.size = 64;
	r.have |= HAVE_INSTR_LATENCY | HAVE_RETIRE_LATENCY | HAVE_TSC | HAVE_LBR | HAVE_COUNTERS |
		  HAVE_TSX;
	r.instr_latency = 3;
	r.retire_latency = 12;
	r.tsc = 0xabc;
	r.n_lbr = 1;
	r.lbr[0].from = 0x10;
	r.lbr[0].to = 0x20;
	r.lbr[0].info = 0x30;
	r.n_counters = 2;
	r.counters[0] = 0xff;
	r.counters[1] = 1;
	r.tsx.flags = TSX_HLE;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_json(&r, &sb);
	assert_string_equal(
	    buf,
	    "{\"offset\":64,\"size\":64,\"latency\":80,\"instr_latency\":3,\"retire_latency\":12,"
	    "\"tsc\":\"0xabc\",\"tsx\":{\"cycles\":0,\"flags\":[\"hle\"]},"
	    "\"mem\":{\"data_src\":\"0x10650800842\",\"op\":\"LOAD\",\"level\":\"L3 hit\","
	    "\"snoop\":\"HitM\",\"tlb\":\"L2 miss\",\"lock\":\"No\",\"blocked\":\"N/A\"},"
	    "\"lbr\":[{\"from\":\"0x10\",\"to\":\"0x20\",\"info\":\"0x30\"}],"
	    "\"counters\":[\"0xff\",\"0x1\"]}");

	/* registers by name; "not available" for a reserved data source */
	memset(&r, 0, sizeof(r));
	r.have = HAVE_REGS | HAVE_MEM_NA;
	r.regs[REG_RSP] = 0x7ff0;
	r.regs[REG_R15] = 15;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_json(&r, &sb);
	assert_non_null(strstr(buf, "\"rsp\":\"0x7ff0\""));
	assert_non_null(strstr(buf, "\"r15\":\"0xf\""));
	assert_non_null(strstr(buf, "\"mem\":{\"level\":\"not available\"}"));
	/* no shadow stack pointer in the record: no key */
	assert_null(strstr(buf, "\"ssp\""));

	/* arch-PEBS: the SSP of the GPR group, last in regs */
	r.have |= HAVE_SSP;
	r.ssp = 0x7ffd0000;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_json(&r, &sb);
	assert_non_null(strstr(buf, "\"r15\":\"0xf\",\"ssp\":\"0x7ffd0000\"}"));
}

static void test_render_csv(void **state)
{
	struct pebs_record r;
	char buf[1024];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_csv_header(&sb);
	assert_string_equal(buf,
			    "offset,size,ip,applicable_counters,data_la,dse,latency,instr_latency,"
			    "retire_latency,tsc,data_src,op,level,snoop,tlb,lock,blocked,"
			    "tsx_cycles,tsx_flags,xabort");
	mem_rec(&r, DS_L1 | STLB_HIT | BLK_NA, 4);
	r.size = 200;
	r.ip = 0x10;
	r.have |= HAVE_IP;
	strbuf_init(&sb, buf, sizeof(buf));
	pebs_render_csv(&r, &sb);
	assert_string_equal(
	    buf, "0,200,0x10,,,,4,,,,0x10268100142,LOAD,L1 hit,None,L1 or L2 hit,No,N/A,,,");
}

static struct pebs_summary sum;
static char lines[64][160];
static unsigned int nlines;

static void grab(const char *line, void *ctx)
{
	(void)ctx;
	assert_true(strlen(line) < 160);
	if (nlines < 64)
		snprintf(lines[nlines++], 160, "%s", line);
}

static void test_summary(void **state)
{
	struct pebs_record r;
	struct pebs_summary_stats st;
	char name[80];

	pebs_summary_init(&sum);
	/* L1 hit: latencies 1..100, half with STLB miss (same group) */
	for (unsigned int i = 1; i <= 100; i++) {
		mem_rec(&r, DS_L1 | (i & 1 ? STLB_MISS : STLB_HIT) | BLK_NA, 101 - i);
		pebs_summary_add(&sum, &r);
	}
	/* L3 HitM: 3000 and 5000 cycles, past the exact range */
	mem_rec(&r, DS_L3_HITM | STLB_HIT, 3000);
	pebs_summary_add(&sum, &r);
	mem_rec(&r, DS_L3_HITM | STLB_HIT, 5000);
	pebs_summary_add(&sum, &r);
	/* no data source, no latency */
	memset(&r, 0, sizeof(r));
	pebs_summary_add(&sum, &r);
	pebs_summary_add(&sum, &r);

	assert_int_equal(sum.total, 104);
	assert_int_equal(sum.n_groups, 3);
	pebs_summary_stats(&sum, 0, &st);
	assert_int_equal(st.count, 100);
	assert_int_equal(st.share_permille, 962); /* 100/104 = 0.9615 */
	assert_int_equal(st.min, 1);
	assert_int_equal(st.median, 50); /* 50 of 100 samples <= 50 */
	assert_int_equal(st.p90, 90);
	assert_int_equal(st.p99, 99);
	assert_int_equal(st.max, 100);
	assert_false(st.approx);
	pebs_summary_group_name(&sum, 0, name, sizeof(name));
	assert_string_equal(name, "LOAD L1 hit, snoop None");

	pebs_summary_stats(&sum, 1, &st);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.min, 3000);
	assert_int_equal(st.max, 5000);
	assert_int_equal(st.median, 4095); /* top of the [2048, 4095] bucket */
	assert_int_equal(st.p99, 5000);	   /* [4096, 8191] clamped to max */
	assert_true(st.approx);

	pebs_summary_stats(&sum, 2, &st);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.n_lat, 0);
	pebs_summary_group_name(&sum, 2, name, sizeof(name));
	assert_string_equal(name, "n/a");

	nlines = 0;
	pebs_summary_print(&sum, grab, NULL);
	assert_string_equal(lines[0], "summary: 104 records, 3 data sources");
	assert_non_null(strstr(lines[1], "median"));
	assert_non_null(strstr(lines[2], "LOAD L1 hit, snoop None"));
	assert_non_null(strstr(lines[2], " 96.2%"));
	/* histogram rows follow: [0,1] holds latency 1 */
	assert_non_null(strstr(lines[3], "[       0,        1]          1 |"));
	/* the L3 row shows approximate percentiles */
	for (unsigned int i = 0; i < nlines; i++)
		if (strstr(lines[i], "LOAD L3 hit, snoop HitM"))
			assert_non_null(strstr(lines[i], "~4095"));
}

static void test_summary_overflow(void **state)
{
	struct pebs_record r;
	struct pebs_summary_stats st;
	char name[80];

	pebs_summary_init(&sum);
	for (unsigned int i = 0; i < PEBS_SUMMARY_MAX_GROUPS + 5; i++) {
		mem_rec(&r, DS_L1 | ((uint64_t)i << 46), 10); /* distinct sources */
		pebs_summary_add(&sum, &r);
	}
	assert_int_equal(sum.n_groups, PEBS_SUMMARY_MAX_GROUPS);
	pebs_summary_stats(&sum, PEBS_SUMMARY_MAX_GROUPS, &st);
	assert_int_equal(st.count, 5);
	pebs_summary_group_name(&sum, PEBS_SUMMARY_MAX_GROUPS, name, sizeof(name));
	assert_string_equal(name, "other");
}

/*
 * pebs_summary_init() zeroes only the counts: a struct full of a previous
 * decode's (here: garbage) histograms must give the same figures as a fresh
 * one, and the key -> group cache must never send a record to another
 * group (70 keys for 64 cache slots, added twice in different orders).
 */
static void test_summary_reused(void **state)
{
	struct pebs_record r;
	struct pebs_summary_stats st;

	memset(&sum, 0xa5, sizeof(sum));
	pebs_summary_init(&sum);
	for (unsigned int pass = 0; pass < 2; pass++)
		for (unsigned int i = 0; i < 70; i++) {
			unsigned int k = pass ? 69 - i : i;

			mem_rec(&r, DS_L1 | ((uint64_t)k << 46), 10 + k);
			pebs_summary_add(&sum, &r);
		}
	assert_int_equal(sum.total, 140);
	assert_int_equal(sum.n_groups, PEBS_SUMMARY_MAX_GROUPS);
	for (unsigned int g = 0; g < PEBS_SUMMARY_MAX_GROUPS; g++) {
		pebs_summary_stats(&sum, g, &st);
		assert_int_equal(st.count, 2);
		assert_int_equal(st.min, 10 + g);
		assert_int_equal(st.median, 10 + g);
		assert_int_equal(st.max, 10 + g);
	}
	pebs_summary_stats(&sum, PEBS_SUMMARY_MAX_GROUPS, &st);
	assert_int_equal(st.count, 2 * (70 - PEBS_SUMMARY_MAX_GROUPS));
	assert_int_equal(st.min, 10 + PEBS_SUMMARY_MAX_GROUPS);
	assert_int_equal(st.max, 10 + 69);
}

static void test_dump_roundtrip(void **state)
{
	struct pebs_dump_info di = {.cfg = {.fmt = 4,
					    .uarch = UARCH_SPR,
					    .dsrc = gen_dsrc(UARCH_SPR),
					    .kind = KIND_STLAT,
					    .data_cfg = 0x1,
					    .timed = true,
					    .adaptive = true,
					    .pebs_enabled = 0x1}};
	struct pebs_dump_info back;
	uint8_t recs[40], out[512];
	const uint8_t *rp;
	size_t rl, n;
	char why[200];

	for (unsigned int i = 0; i < sizeof(recs); i++)
		recs[i] = (uint8_t)i;
	assert_true(pebs_dump_add_counter(&di, 0, 0x2cd, "MEM_TRANS_RETIRED.STORE_SAMPLE"));
	assert_true(pebs_dump_add_counter(&di, 33, 0x3c, "CPU_CLK_UNHALTED.THREAD"));
	assert_int_equal(pebs_dump_header_size(&di), 0x50 + 2 * 0x40);
	n = pebs_dump_size(&di, sizeof(recs));
	assert_int_equal(n, 0xd0 + 40);
	assert_int_equal(pebs_dump_write(&di, recs, sizeof(recs), out, n - 1), 0);
	assert_int_equal(pebs_dump_write(&di, recs, sizeof(recs), out, sizeof(out)), n);
	/* the layout of docs/DECODER.md, byte by byte */
	assert_memory_equal(out, "PEBSDUMP", 8);
	assert_int_equal(out[8], 2); /* version 2: the simulated flag */
	assert_int_equal(out[0xa], 0xd0);
	assert_int_equal(out[0xc], 3); /* timed | adaptive */
	assert_int_equal(out[0x10], 4);
	assert_int_equal(out[0x14], 2);
	assert_string_equal((char *)out + 0x18, "spr");
	assert_string_equal((char *)out + 0x20, "stlat");
	assert_int_equal(out[0x30], 1);
	assert_int_equal(out[0x40], 40);
	assert_int_equal(out[0x50 + 0x40], 33);
	assert_int_equal(out[0x50 + 0x08], 0xcd);
	assert_int_equal(out[0x50 + 0x09], 0x02);
	assert_string_equal((char *)out + 0x50 + 0x10, "MEM_TRANS_RETIRED.STORE_SAMPLE");
	assert_memory_equal(out + 0xd0, recs, 40);

	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), 0);
	assert_int_equal(back.cfg.fmt, 4);
	assert_int_equal(back.cfg.uarch, UARCH_SPR);
	assert_int_equal(back.cfg.kind, KIND_STLAT);
	assert_true(back.cfg.timed);
	assert_true(back.cfg.adaptive);
	assert_int_equal(back.cfg.data_cfg, 1);
	assert_int_equal(back.cfg.pebs_enabled, 1);
	assert_int_equal(back.n_counters, 2);
	assert_int_equal(back.counters[1].index, 33);
	assert_string_equal(back.counters[1].name, "CPU_CLK_UNHALTED.THREAD");
	assert_ptr_equal(rp, out + 0xd0);
	assert_int_equal(rl, 40);

	/* truncated: what is there is still given */
	assert_int_equal(pebs_dump_parse(out, n - 8, &back, &rp, &rl, why, sizeof(why)), 1);
	assert_int_equal(rl, 32);
	assert_non_null(strstr(why, "truncated"));
	/* inside the counter table */
	assert_int_equal(pebs_dump_parse(out, 0x60, &back, &rp, &rl, why, sizeof(why)), -1);
	/* bad magic, unknown uarch, unknown format */
	out[0] = 'X';
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "offset 0x0"));
	out[0] = 'P';
	memcpy(out + 0x18, "zen4\0\0\0\0", 8);
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unknown uarch 'zen4' at offset 0x18"));
	/* The file's bytes in the error line: a newline or ESC would split or colour it. */
	memcpy(out + 0x18, "skl\n\x1b\0\0\0", 8);
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_string_equal(why, "dump header: unknown uarch 'skl?\?' at offset 0x18");
	memcpy(out + 0x18, "spr\0\0\0\0\0", 8);
	out[0x10] = 9;
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "offset 0x10"));
	assert_int_equal(pebs_dump_parse(out, 10, &back, &rp, &rl, why, sizeof(why)), -1);
}

/*
 * Version 2: flags bit 2 says the records came from the simulated PMU.
 * Version 1 files are still read (no such bit: a set bit 2 is refused).
 */
static void test_dump_simulated(void **state)
{
	struct pebs_dump_info di = {
	    .cfg = {.fmt = 3, .uarch = UARCH_SKL, .dsrc = gen_dsrc(UARCH_SKL), .kind = KIND_LDLAT}};
	struct pebs_dump_info back;
	uint8_t out[256];
	const uint8_t *rp;
	size_t rl, n;
	char why[200];

	di.simulated = true;
	n = pebs_dump_write(&di, NULL, 0, out, sizeof(out));
	assert_int_equal(n, 0x50);
	assert_int_equal(out[0x8], 2);
	assert_int_equal(out[0xc], 4);
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), 0);
	assert_true(back.simulated);
	assert_int_equal(back.version, 2);
	/* hardware: bit clear */
	di.simulated = false;
	n = pebs_dump_write(&di, NULL, 0, out, sizeof(out));
	assert_int_equal(out[0xc], 0);
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), 0);
	assert_false(back.simulated);
	/* a version 1 file (the same bytes, version 1) is read: not simulated */
	out[0x8] = 1;
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), 0);
	assert_int_equal(back.version, 1);
	assert_false(back.simulated);
	/* version 1 has no bit 2 */
	out[0xc] = 4;
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "unknown flag bits at offset 0xc"));
	/* versions 0 and 3: refused, naming the accepted ones */
	out[0xc] = 0;
	out[0x8] = 3;
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "accepted: 1, 2"));
	out[0x8] = 0;
	assert_int_equal(pebs_dump_parse(out, n, &back, &rp, &rl, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_render_kv),	     cmocka_unit_test(test_render_json),
	    cmocka_unit_test(test_render_csv),	     cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_summary_overflow), cmocka_unit_test(test_summary_reused),
	    cmocka_unit_test(test_dump_roundtrip),   cmocka_unit_test(test_dump_simulated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
