/* SPDX-License-Identifier: MIT */
/*
 * summary.h - per data source: count, share, latency min/median/p90/p99/max
 * and an ASCII histogram.  Pure C, no malloc: the caller owns the struct
 * (it is large, about 300 KiB: allocate it with plat_alloc() in the app or
 * statically on the host, never on the stack).
 *
 *   struct pebs_summary *s = plat_alloc(sizeof(*s));
 *   pebs_summary_init(s);
 *   while (pebs_decode_next(&cfg, buf, len, &off, &rec, &an) == PEBS_STEP_RECORD)
 *           pebs_summary_add(s, &rec);
 *   pebs_summary_print(s, line_cb, ctx);   // e.g. a cb calling report_line("%s", line)
 *   plat_free(s);
 *
 * Grouping: records are grouped by their data source with the TLB, lock and
 * blocked parts masked out (one group per data-source row, e.g. "L3 hit,
 * snoop HitM"); records without a data source form the group "n/a".  Beyond
 * PEBS_SUMMARY_MAX_GROUPS distinct sources, the rest go to group "other".
 *
 * Latency: the record's load/store latency (rec.latency) when it has one,
 * else its retire latency; records with neither count but add no latency.
 * Percentiles are exact for latencies below PEBS_SUMMARY_EXACT cycles; above,
 * they are the upper bound of a power-of-two bucket (clamped to max), and the
 * printed value is prefixed with '~'.
 */
#ifndef PP_DECODE_SUMMARY_H
#define PP_DECODE_SUMMARY_H

#include "decode.h"

#define PEBS_SUMMARY_MAX_GROUPS 32
#define PEBS_SUMMARY_EXACT	2048
#define PEBS_SUMMARY_LOG_BINS	64

struct pebs_summary_group {
	uint64_t key;	/* data_src & ~(TLB | LOCK | BLK bits); ~0 = "other" */
	bool has_mem;	/* false: "n/a" (records without a data source) */
	uint64_t count; /* records */
	/*
	 * Latencies below PEBS_SUMMARY_EXACT are counted in exact[] only: their
	 * number, least and greatest are read off it when the statistics are
	 * made.  Of the others, the least and greatest are kept here.
	 */
	uint64_t big_min, big_max;	      /* ~0 and 0 while there is none */
	uint32_t exact[PEBS_SUMMARY_EXACT];   /* latency value -> records */
	uint32_t log2[PEBS_SUMMARY_LOG_BINS]; /* >= EXACT: bucket floor(log2(lat)) */
};

#define PEBS_SUMMARY_CACHE 64 /* direct-mapped key -> group, so a record seldom searches */

struct pebs_summary {
	uint64_t total;
	unsigned int n_groups;
	struct {
		uint64_t key;
		uint8_t group; /* group index + 1; 0 = empty */
	} cache[PEBS_SUMMARY_CACHE];
	struct pebs_summary_group groups[PEBS_SUMMARY_MAX_GROUPS + 1]; /* last: "other" */
};

/* Results for one group, computed by pebs_summary_stats(). */
struct pebs_summary_stats {
	uint64_t count, n_lat;
	unsigned int share_permille; /* count * 1000 / total, rounded */
	uint64_t min, median, p90, p99, max;
	bool approx; /* a percentile came from a power-of-two bucket */
};

/* Groups not yet used hold only zero counts (key, count): read nothing else of them. */
void pebs_summary_init(struct pebs_summary *s);
void pebs_summary_add(struct pebs_summary *s, const struct pebs_record *rec);

/*
 * pebs_summary_add() in its parts, for a caller that reads a record's data
 * source and latency itself (the summary-only scan, scan.h): the group of a
 * record with (has_mem) or without a data source, which never changes for
 * a data source once chosen; then each record counts in s->total and its
 * group's count, and adds its latency, if it has one, with
 * pebs_summary_latency().
 */
struct pebs_summary_group *pebs_summary_group_of(struct pebs_summary *s, bool has_mem,
						 uint64_t data_src);

static inline unsigned int pebs_summary_log2(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v | 1);
}

static inline void pebs_summary_latency(struct pebs_summary_group *g, uint64_t lat)
{
	if (__builtin_expect(lat < PEBS_SUMMARY_EXACT, 1)) {
		g->exact[lat]++;
		return;
	}
	g->log2[pebs_summary_log2(lat)]++;
	if (lat < g->big_min)
		g->big_min = lat;
	if (lat > g->big_max)
		g->big_max = lat;
}
/* Percentile p (0..100) of group g: the smallest v with >= p% of samples <= v. */
void pebs_summary_stats(const struct pebs_summary *s, unsigned int g,
			struct pebs_summary_stats *st);
/* Human name of group g ("L3 hit, snoop HitM", "n/a", "other"). */
void pebs_summary_group_name(const struct pebs_summary *s, unsigned int g, char *buf, size_t size);

/*
 * Prints the table (groups by count, largest first; "other" last) and, per group, an ASCII latency
 * histogram (power-of-two buckets, '#' bars scaled to 40 columns), one line per callback call (no
 * trailing newline; lines < 160 bytes).
 */
typedef void (*pebs_line_fn)(const char *line, void *ctx);
void pebs_summary_print(const struct pebs_summary *s, pebs_line_fn line, void *ctx);

#endif
