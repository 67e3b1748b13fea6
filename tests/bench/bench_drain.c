// SPDX-License-Identifier: MIT
/*
 * bench-drain - the app's per-record work after a drain, in TSC ticks per
 * record: the records appended to the result buffer (pmu/session.c
 * append_records: memcpy and one kind byte each), the summary and the
 * kernel statistics reset, then every record decoded and counted
 * (job/records.c job_decode_records: pebs_decode_next, kstats_add,
 * pebs_summary_add).  bench-drain.sh builds it twice: with the UEFI build's
 * flags and lib/efi_libc.c, and as a plain host program (glibc), and runs
 * both side by side.
 *
 *   bench-drain fmt3|fmt4 [ROUNDS]    prints "<ticks per record, median>"
 *
 * Records: 200-byte format-3 records (skl) or 0x40-byte adaptive records
 * with the meminfo group (fmt4, icl), 4096 distinct ones, 327 per drain
 * (a 64 KiB buffer: the app's default).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../decode/decode.h"
#include "../../decode/summary.h"
#include "../../kernels/verdict.h"

#define PER_DRAIN 327
#define DRAINS	  64

static uint8_t pebs[PER_DRAIN * 200], results[DRAINS * PER_DRAIN * 200];
static uint8_t kinds[DRAINS * PER_DRAIN];
static struct pebs_summary summary;
static struct pebs_record rec;
static uint8_t kbuf[1 << 20];

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static size_t build(bool fmt3, struct pebs_decode_cfg *cfg)
{
	size_t sz = fmt3 ? 200 : 0x40;

	for (unsigned int i = 0; i < PER_DRAIN; i++) {
		uint8_t *r = pebs + i * sz;
		uint64_t dse = (i * 7) & 0xf, lat = 5 + (i * 37) % 400;
		uint64_t la = (uint64_t)(uintptr_t)kbuf + 64 * (i % 4096);

		for (size_t b = 0; b < sz; b++)
			r[b] = 0;
		if (fmt3) {
			for (int g = 0; g < 18; g++)
				put64(r + 8 * g, 0x1000 * i + g);
			put64(r + 0x90, 1);
			put64(r + 0x98, la);
			put64(r + 0xa0, dse);
			put64(r + 0xa8, lat);
			put64(r + 0xb0, 0x401000 + 4 * i);
			put64(r + 0xc0, 1000 + i);
		} else {
			put64(r, (0x40ULL << 48) | 1);
			put64(r + 8, 0x401000 + 4 * i);
			put64(r + 16, 1);
			put64(r + 24, 1000 + i);
			put64(r + 0x20, la);
			put64(r + 0x28, dse);
			put64(r + 0x30, lat);
		}
	}
	*cfg = (struct pebs_decode_cfg){.fmt = fmt3 ? 3 : 4,
					.dsrc = DSRC_SKL,
					.kind = KIND_LDLAT,
					.data_cfg = fmt3 ? 0 : 1,
					.adaptive = !fmt3,
					.pebs_enabled = 1};
	return sz * PER_DRAIN;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	bool fmt3 = argc > 1 && argv[1][3] == '3';
	unsigned int rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : 21;
	struct kernel_ctx k = {.buf = kbuf, .size = sizeof(kbuf), .stride = 64};
	struct pebs_decode_cfg cfg;
	struct pebs_anomaly an;
	struct kstats st;
	size_t len = build(fmt3, &cfg), n = 0;
	uint64_t t[101];

	if (rounds < 1 || rounds > 101)
		rounds = 21;
	for (unsigned int r = 0; r < rounds; r++) {
		uint64_t t0 = rdtsc();
		size_t rlen = 0, off = 0;

		/* the drains: appended as pmu/session.c does */
		for (unsigned int d = 0; d < DRAINS; d++) {
			memcpy(results + rlen, pebs, len);
			for (unsigned int i = 0; i < PER_DRAIN; i++)
				kinds[d * PER_DRAIN + i] = 1;
			rlen += len;
		}
		/* the decode, as job/records.c job_decode_records does */
		pebs_summary_init(&summary);
		kstats_init(&st, &k);
		n = 0;
		while (pebs_decode_next(&cfg, results, rlen, &off, &rec, &an) == PEBS_STEP_RECORD) {
			kstats_add(&st, &rec);
			pebs_summary_add(&summary, &rec);
			n++;
		}
		t[r] = (rdtsc() - t0) / (n ? n : 1);
	}
	if (n != DRAINS * PER_DRAIN) {
		fprintf(stderr, "bench-drain: decoded %zu records of %u\n", n, DRAINS * PER_DRAIN);
		return 1;
	}
	qsort(t, rounds, sizeof(t[0]), cmp);
	printf("%llu\n", (unsigned long long)t[rounds / 2]);
	return 0;
}
