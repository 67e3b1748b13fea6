// SPDX-License-Identifier: MIT
/*
 * fuzz_decode.c - libFuzzer target over decode/: every record format,
 * microarchitecture and event kind, chosen by a 12-byte config prefix; each
 * decoded record is rendered (kv, JSON, CSV) and summarised, and the summary
 * is made again with the summary's fast path (decode/scan.h), which must
 * print the same; the whole input is also parsed as a dump file.  Built with clang
 * -fsanitize=fuzzer,address,undefined (decode/build.mk).
 *
 *   byte 0       record format: value % 8, 7 = architectural PEBS
 *   byte 1       data-source decoder % DSRC_COUNT
 *   byte 2       kind % KIND_COUNT
 *   byte 3       bit 0 timed, bit 1 adaptive, bits 7:4 PEBS-enabled mask
 *   bytes 4..11  PEBS_DATA_CFG (little-endian)
 *   rest         the records
 */
#include <stdlib.h>

#include "decode/decode.h"
#include "decode/dump.h"
#include "decode/render.h"
#include "decode/scan.h"
#include "decode/summary.h"
#include "lib/fmt.h"

static struct pebs_summary sum;
static struct pebs_summary_scan scan;
static struct pebs_record rec;

static void sink(const char *line, void *ctx)
{
	(void)line;
	(void)ctx;
}

/* The summary's printed lines, one after another. */
struct text {
	char buf[1 << 16];
	size_t len;
};

static void keep(const char *line, void *ctx)
{
	struct text *t = ctx;
	size_t n = strlen(line);

	if (t->len + n < sizeof(t->buf)) {
		memcpy(t->buf + t->len, line, n);
		t->len += n;
	}
}

/* The summary up to the first anomaly, with or without the fast path. */
static void summarise(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len, bool fast,
		      struct text *t)
{
	struct pebs_anomaly an;
	size_t off = 0;

	pebs_summary_init(&sum);
	pebs_summary_scan_init(&scan, &sum, cfg);
	for (;;) {
		if (fast)
			pebs_summary_scan(&scan, buf, len, &off);
		if (pebs_decode_next(cfg, buf, len, &off, &rec, &an) != PEBS_STEP_RECORD)
			break;
		pebs_summary_add(&sum, &rec);
	}
	t->len = 0;
	pebs_summary_print(&sum, keep, t);
}

static void compare_scan(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len)
{
	static struct text full, fast;

	summarise(cfg, buf, len, false, &full);
	summarise(cfg, buf, len, true, &fast);
	if (full.len != fast.len || memcmp(full.buf, fast.buf, full.len))
		abort();
}

static void decode_all(const struct pebs_decode_cfg *cfg, const uint8_t *buf, size_t len)
{
	struct pebs_anomaly an;
	size_t off = 0, prev;
	char out[16384];
	struct strbuf sb;
	unsigned int n = 0;

	pebs_summary_init(&sum);
	for (;;) {
		prev = off;
		if (pebs_decode_next(cfg, buf, len, &off, &rec, &an) != PEBS_STEP_RECORD)
			break;
		if (off <= prev || off > len)
			abort(); /* must always advance, never past the end */
		strbuf_init(&sb, out, sizeof(out));
		pebs_render_json(&rec, &sb);
		strbuf_init(&sb, out, sizeof(out));
		pebs_render_kv(&rec, &sb);
		strbuf_init(&sb, out, sizeof(out));
		pebs_render_csv(&rec, &sb);
		pebs_summary_add(&sum, &rec);
		if (++n > len)
			abort();
	}
	pebs_summary_print(&sum, sink, NULL);
	compare_scan(cfg, buf, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pebs_decode_cfg cfg = {0};
	struct pebs_dump_info di;
	const uint8_t *recs;
	size_t rlen;
	char why[200];

	if (pebs_dump_parse(data, size, &di, &recs, &rlen, why, sizeof(why)) >= 0)
		decode_all(&di.cfg, recs, rlen);
	if (size < 12)
		return 0;
	cfg.fmt = data[0] % 8 == 7 ? PEBS_FMT_ARCH : data[0] % 8;
	cfg.dsrc = (enum pebs_dsrc)(data[1] % DSRC_COUNT);
	cfg.kind = (enum pebs_kind)(data[2] % KIND_COUNT);
	cfg.timed = data[3] & 1;
	cfg.adaptive = data[3] & 2;
	cfg.pebs_enabled = data[3] >> 4;
	cfg.data_cfg = get_le64(data + 4);
	decode_all(&cfg, data + 12, size - 12);
	return 0;
}
