// SPDX-License-Identifier: MIT
/*
 * test_decode_scan.c - the summary's fast path (decode/scan.h) gives the
 * summary the full decoder gives: the same printed table and histograms,
 * the same records stepped over, the same stopping point.  Buffers of
 * every record format (0-6 and arch-PEBS), every data-source decoder and event kind,
 * timed or not, with and without a PEBS-enabled mask, built from varied
 * records (data sources that repeat and ones that overflow the group
 * table, latencies above the exact range, applicable counters outside the
 * mask, format and size fields that disagree with PEBS_DATA_CFG, a
 * truncated tail) and from plain random bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "decode/scan.h"
#include "decode/summary.h"
#include "lib/fmt.h"

/* splitmix64: a fixed sequence, so a failure repeats */
static uint64_t seed;

static uint64_t rnd(void)
{
	uint64_t z = seed += 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Mostly v, now and then anything: the odd record is one the scan must leave alone. */
static uint64_t mostly(uint64_t v)
{
	return rnd() % 16 ? v : rnd();
}

static uint64_t pick_latency(void)
{
	switch (rnd() % 8) {
	case 0:
		return 2048 + rnd() % 100000; /* above the exact range */
	case 1:
		return rnd() & 0xffffffffffffULL;
	default:
		return rnd() % 600;
	}
}

/* Few distinct data-source fields, or (wide) so many that groups overflow into "other". */
static uint64_t pick_aux(bool wide)
{
	return wide ? rnd() & 0xffffffffffffULL : (rnd() % 24) | (rnd() % 4 == 0 ? 0x10 : 0);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (unsigned int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static const uint64_t data_cfgs[] = {
    0x0, 0x1, 0x3, 0x5, 0x7, 0x9 | (7ULL << 24), 0xb, 0x2, 0x11 | (0x3ULL << 32), 0x21, 0x31,
};

static size_t make_legacy(uint8_t *buf, size_t cap, const struct pebs_decode_cfg *cfg, bool wide)
{
	size_t sz = pebs_legacy_record_size(cfg->fmt), len = 0;

	while (len + sz <= cap) {
		uint8_t *p = buf + len;

		for (size_t i = 0; i < sz; i += 8)
			put64(p + i, rnd());
		if (sz > 0x90) {
			put64(p + 0x90, mostly(cfg->pebs_enabled ? cfg->pebs_enabled & 3 : 1));
			put64(p + 0xa0, pick_aux(wide));
			put64(p + 0xa8, pick_latency());
		}
		len += sz;
	}
	return len;
}

static size_t make_adaptive(uint8_t *buf, size_t cap, const struct pebs_decode_cfg *cfg, bool wide)
{
	uint64_t mask = cfg->timed ? 0xffffffffULL : 0xffffffffffffULL;
	size_t len = 0;

	for (;;) {
		uint64_t fmt = mostly(cfg->data_cfg & mask) & mask;
		size_t sz = rnd() % 32 ? pebs_adaptive_record_size(fmt) : 0x20 + 8 * (rnd() % 40);
		uint8_t *p = buf + len;

		if (rnd() % 32 == 0)
			fmt = 0;
		if (len + sz > cap || sz > 0xffff)
			return len;
		for (size_t i = 0; i < sz; i += 8)
			put64(p + i, rnd());
		put64(p, (uint64_t)sz << 48 | (rnd() & 0xffff) << 32 | fmt);
		put64(p + 0x10, mostly(cfg->pebs_enabled ? cfg->pebs_enabled & 3 : 1));
		if (sz >= 0x40) {
			put64(p + 0x28, pick_aux(wide));
			put64(p + 0x30,
			      pick_latency() | (rnd() % 2 ? (pick_latency() & 0xffff) << 32 : 0));
		}
		len += sz;
	}
}

static char out[2][1 << 16];
static size_t out_len[2];
static unsigned int which;

static void sink(const char *line, void *ctx)
{
	size_t n = strlen(line);

	(void)ctx;
	if (out_len[which] + n + 1 < sizeof(out[which])) {
		memcpy(out[which] + out_len[which], line, n);
		out_len[which] += n;
		out[which][out_len[which]++] = '\n';
	}
}

static struct pebs_summary sum;
static struct pebs_summary_scan sc;
static struct pebs_record rec;

struct walked {
	size_t end;		/* where the walk stopped */
	unsigned int anomalies; /* records stepped over or the one that stopped it */
	size_t scanned;		/* records the fast path took */
};

/* pebs-decode's walk: a record that breaks a rule is stepped over, a malformed one ends it. */
static struct walked walk(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len,
			  bool fast, unsigned int slot)
{
	struct walked w = {0};
	struct pebs_anomaly an;
	size_t off = 0;

	pebs_summary_init(&sum);
	if (fast)
		pebs_summary_scan_init(&sc, &sum, cfg);
	for (;;) {
		size_t at;
		enum pebs_step step;

		if (fast)
			w.scanned += pebs_summary_scan(&sc, buf, len, &off);
		at = off;
		step = pebs_decode_next(cfg, buf, len, &off, &rec, &an);
		if (step == PEBS_STEP_END)
			break;
		if (step == PEBS_STEP_ANOMALY) {
			w.anomalies++;
			if (off > at)
				continue;
			break;
		}
		pebs_summary_add(&sum, &rec);
	}
	w.end = off;
	which = slot;
	out_len[slot] = 0;
	pebs_summary_print(&sum, sink, NULL);
	return w;
}

static uint8_t buf[1 << 16];

/* Both walks over one buffer; returns the records the fast path took. */
static size_t compare(const struct pebs_decode_cfg *cfg, size_t len)
{
	struct walked full = walk(cfg, buf, len, false, 0);
	struct walked fast = walk(cfg, buf, len, true, 1);

	if (full.end != fast.end || full.anomalies != fast.anomalies || out_len[0] != out_len[1] ||
	    memcmp(out[0], out[1], out_len[0])) {
		print_error(
		    "fmt %u dsrc %s kind %s timed %d enabled 0x%llx data_cfg 0x%llx, %zu "
		    "bytes: full decoder stopped at %zu with %u anomalies, fast path at %zu "
		    "with %u\n--- full decoder:\n%.*s--- fast path:\n%.*s",
		    cfg->fmt, pebs_dsrc_name(cfg->dsrc), pebs_kind_name(cfg->kind), cfg->timed,
		    (unsigned long long)cfg->pebs_enabled, (unsigned long long)cfg->data_cfg, len,
		    full.end, full.anomalies, fast.end, fast.anomalies, (int)out_len[0], out[0],
		    (int)out_len[1], out[1]);
		fail();
	}
	return fast.scanned;
}

/* Every format, decoder, kind, timed flag and PEBS-enabled mask, on built records. */
static void test_scan_matches_decoder(void **state)
{
	static const unsigned int fmts[] = {0, 1, 2, 3, 4, 5, 6, PEBS_FMT_ARCH};
	size_t taken[PEBS_FMT_ARCH + 1] = {0};

	(void)state;
	for (unsigned int f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
		for (unsigned int u = 0; u < DSRC_COUNT; u++)
			for (unsigned int k = 0; k < KIND_COUNT; k++)
				for (unsigned int v = 0; v < 4; v++) {
					struct pebs_decode_cfg cfg = {
					    .fmt = fmts[f],
					    .dsrc = (enum pebs_dsrc)u,
					    .kind = (enum pebs_kind)k,
					    .timed = v & 1,
					    .pebs_enabled = v & 2 ? 1 + rnd() % 7 : 0,
					    .data_cfg = data_cfgs[rnd() % (sizeof(data_cfgs) /
									   sizeof(data_cfgs[0]))],
					};
					size_t cap = 4096 + rnd() % 8192, len;
					bool wide = rnd() % 4 == 0;

					cfg.adaptive = cfg.fmt >= 4;
					if (cfg.fmt <= 3)
						len = make_legacy(buf, cap, &cfg, wide);
					else if (cfg.fmt <= 6)
						len = make_adaptive(buf, cap, &cfg, wide);
					else
						len = cap; /* arch-PEBS: random bytes */
					if (cfg.fmt == PEBS_FMT_ARCH)
						for (size_t i = 0; i < len; i += 8)
							put64(buf + i, rnd());
					if (rnd() % 4 == 0 && len > 8)
						len -= 1 + rnd() % 8; /* a truncated tail */
					taken[cfg.fmt] += compare(&cfg, len);
				}
	/* The fast path did the work where it should, so the comparison is not vacuous. */
	for (unsigned int fmt = 0; fmt <= 5; fmt++) {
		if (!taken[fmt])
			print_error("the fast path took no fmt%u record\n", fmt);
		assert_true(taken[fmt] > 0);
	}
}

/* Random bytes and random configs, as the fuzz target's 12-byte prefix chooses them. */
static void test_scan_random_bytes(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < 3000; i++) {
		struct pebs_decode_cfg cfg = {
		    .fmt = rnd() % 8 == 7 ? PEBS_FMT_ARCH : (unsigned int)(rnd() % 8),
		    .dsrc = (enum pebs_dsrc)(rnd() % DSRC_COUNT),
		    .kind = (enum pebs_kind)(rnd() % KIND_COUNT),
		    .timed = rnd() & 1,
		    .pebs_enabled = rnd() % 16,
		    .data_cfg = rnd() % 2 ? rnd() : data_cfgs[rnd() % 11],
		};
		size_t len = rnd() % 2048;

		for (size_t j = 0; j < len; j += 8)
			put64(buf + j, rnd() % 2 ? rnd() : (0x40ULL << 48 | (cfg.data_cfg & 0xff)));
		compare(&cfg, len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scan_matches_decoder),
	    cmocka_unit_test(test_scan_random_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
