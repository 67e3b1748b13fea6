// SPDX-License-Identifier: MIT
/*
 * summary.c - per data source: count, share, latency percentiles and an
 * ASCII histogram.  Counting histograms instead of stored samples, so the
 * cost per record is constant and no memory is allocated.
 */
#include "summary.h"
#include "../lib/fmt.h"
#include "perf_mem.h"

#define GROUP_MASK (~(MEM_F_TLB | MEM_F_LOCK | MEM_F_BLK))
#define KEY_OTHER  (~0ULL)
#define KEY_NA	   (~1ULL)
#define BAR_WIDTH  40

/*
 * Only the counts are zeroed here: a group's 8 KiB of histogram is zeroed
 * by group_init() when the group is first used.  Zeroing all 33 groups
 * (280 KiB) cost more than decoding a few thousand records.
 */
void pebs_summary_init(struct pebs_summary *s)
{
	s->total = 0;
	s->n_groups = 0;
	memset(s->cache, 0, sizeof(s->cache));
	for (unsigned int i = 0; i <= PEBS_SUMMARY_MAX_GROUPS; i++) {
		s->groups[i].key = 0;
		s->groups[i].has_mem = false;
		s->groups[i].count = 0;
	}
}

static void group_init(struct pebs_summary_group *g, uint64_t key, bool has_mem)
{
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->has_mem = has_mem;
	g->big_min = ~0ULL;
}

static struct pebs_summary_group *search_group(struct pebs_summary *s, uint64_t key, bool has_mem)
{
	struct pebs_summary_group *other = &s->groups[PEBS_SUMMARY_MAX_GROUPS];

	for (unsigned int i = 0; i < s->n_groups; i++)
		if (s->groups[i].key == key)
			return &s->groups[i];
	if (s->n_groups < PEBS_SUMMARY_MAX_GROUPS) {
		group_init(&s->groups[s->n_groups], key, has_mem);
		return &s->groups[s->n_groups++];
	}
	if (other->key != KEY_OTHER)
		group_init(other, KEY_OTHER, false);
	return other;
}

/*
 * A key's group never changes once chosen (groups are only added, and once
 * all are taken a new key goes to "other" for good), so a cached answer
 * stays right; the cache slot holds the key to tell collisions apart.
 */
static struct pebs_summary_group *find_group(struct pebs_summary *s, uint64_t key, bool has_mem)
{
	unsigned int i = (unsigned int)((key * 0x9e3779b97f4a7c15ULL) >> 58);
	struct pebs_summary_group *g;

	if (s->cache[i].group && s->cache[i].key == key)
		return &s->groups[s->cache[i].group - 1];
	g = search_group(s, key, has_mem);
	s->cache[i].key = key;
	s->cache[i].group = (uint8_t)(g - s->groups + 1);
	return g;
}

struct pebs_summary_group *pebs_summary_group_of(struct pebs_summary *s, bool has_mem,
						 uint64_t data_src)
{
	return find_group(s, has_mem ? data_src & GROUP_MASK : KEY_NA, has_mem);
}

void pebs_summary_add(struct pebs_summary *s, const struct pebs_record *rec)
{
	struct pebs_summary_group *g =
	    pebs_summary_group_of(s, rec->have & HAVE_MEM, rec->data_src);

	s->total++;
	g->count++;
	if (rec->have & HAVE_LATENCY)
		pebs_summary_latency(g, rec->latency);
	else if (rec->have & HAVE_RETIRE_LATENCY)
		pebs_summary_latency(g, rec->retire_latency);
}

/* Records with a latency, the least and the greatest, from the bins (summary.h). */
static uint64_t n_lat(const struct pebs_summary_group *g)
{
	uint64_t n = 0;

	for (unsigned int v = 0; v < PEBS_SUMMARY_EXACT; v++)
		n += g->exact[v];
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
		n += g->log2[b];
	return n;
}

static uint64_t lat_min(const struct pebs_summary_group *g)
{
	for (unsigned int v = 0; v < PEBS_SUMMARY_EXACT; v++)
		if (g->exact[v])
			return v;
	return g->big_min;
}

static uint64_t lat_max(const struct pebs_summary_group *g)
{
	if (g->big_max)
		return g->big_max;
	for (unsigned int v = PEBS_SUMMARY_EXACT; v-- > 0;)
		if (g->exact[v])
			return v;
	return 0;
}

/* The smallest value v with at least pct% of the samples <= v. */
static uint64_t percentile(const struct pebs_summary_group *g, uint64_t n, unsigned int pct,
			   bool *approx)
{
	uint64_t want = (n * pct + 99) / 100, seen = 0;

	if (want == 0)
		want = 1;
	for (unsigned int v = 0; v < PEBS_SUMMARY_EXACT; v++) {
		seen += g->exact[v];
		if (seen >= want)
			return v;
	}
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++) {
		seen += g->log2[b];
		if (seen >= want) {
			uint64_t top = b >= 63 ? ~0ULL : (2ULL << b) - 1;

			*approx = true;
			return top < g->big_max ? top : g->big_max;
		}
	}
	return lat_max(g);
}

void pebs_summary_stats(const struct pebs_summary *s, unsigned int gi,
			struct pebs_summary_stats *st)
{
	const struct pebs_summary_group *g;

	memset(st, 0, sizeof(*st));
	if (gi > PEBS_SUMMARY_MAX_GROUPS || (gi < PEBS_SUMMARY_MAX_GROUPS && gi >= s->n_groups))
		return;
	g = &s->groups[gi];
	st->count = g->count;
	st->share_permille =
	    s->total ? (unsigned int)((g->count * 1000 + s->total / 2) / s->total) : 0;
	if (!g->count) /* an "other" never used: its bins were never zeroed */
		return;
	st->n_lat = n_lat(g);
	if (!st->n_lat)
		return;
	st->min = lat_min(g);
	st->max = lat_max(g);
	st->median = percentile(g, st->n_lat, 50, &st->approx);
	st->p90 = percentile(g, st->n_lat, 90, &st->approx);
	st->p99 = percentile(g, st->n_lat, 99, &st->approx);
}

void pebs_summary_group_name(const struct pebs_summary *s, unsigned int gi, char *buf, size_t size)
{
	const struct pebs_summary_group *g;
	struct pebs_mem_words w;

	if (gi >= PEBS_SUMMARY_MAX_GROUPS || s->groups[gi].key == KEY_OTHER) {
		pp_snprintf(buf, size, "other");
		return;
	}
	g = &s->groups[gi];
	if (!g->has_mem) {
		pp_snprintf(buf, size, "n/a");
		return;
	}
	pebs_mem_describe(g->key, &w);
	pp_snprintf(buf, size, "%s %s, snoop %s", w.op, w.level, w.snoop);
}

/* Not inlined: its bins beside the caller's lines would make a frame over 1 KiB. */
static __attribute__((noinline)) void print_hist(const struct pebs_summary_group *g,
						 pebs_line_fn line, void *ctx)
{
	uint64_t bins[PEBS_SUMMARY_LOG_BINS] = {0}, top = 0;
	unsigned int lo, hi;
	char buf[160];

	for (unsigned int v = 0; v < PEBS_SUMMARY_EXACT; v++)
		bins[pebs_summary_log2(v)] += g->exact[v];
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
		bins[b] += g->log2[b];
	lo = pebs_summary_log2(lat_min(g));
	hi = pebs_summary_log2(lat_max(g));
	for (unsigned int b = lo; b <= hi; b++)
		if (bins[b] > top)
			top = bins[b];
	for (unsigned int b = lo; b <= hi; b++) {
		uint64_t from = b ? 1ULL << b : 0, to = b >= 63 ? ~0ULL : (2ULL << b) - 1;
		unsigned int n = top ? (unsigned int)((bins[b] * BAR_WIDTH + top - 1) / top) : 0;
		char bar[BAR_WIDTH + 1];

		memset(bar, '#', n);
		bar[n] = '\0';
		pp_snprintf(buf, sizeof(buf), "    [%8llu, %8llu] %10llu |%s",
			    (unsigned long long)from, (unsigned long long)to,
			    (unsigned long long)bins[b], bar);
		line(buf, ctx);
	}
}

static void fmt_val(char *buf, size_t size, uint64_t v, bool approx)
{
	pp_snprintf(buf, size, "%s%llu", approx && v >= PEBS_SUMMARY_EXACT ? "~" : "",
		    (unsigned long long)v);
}

/* Group indices by count, largest first ("other" last, if used). */
static unsigned int print_order(const struct pebs_summary *s, unsigned int *order)
{
	unsigned int n = 0;

	for (unsigned int gi = 0; gi < s->n_groups; gi++) {
		unsigned int j = n++;

		while (j && s->groups[order[j - 1]].count < s->groups[gi].count) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = gi;
	}
	if (s->groups[PEBS_SUMMARY_MAX_GROUPS].count)
		order[n++] = PEBS_SUMMARY_MAX_GROUPS;
	return n;
}

void pebs_summary_print(const struct pebs_summary *s, pebs_line_fn line, void *ctx)
{
	char buf[160], name[72], v[5][24];
	unsigned int order[PEBS_SUMMARY_MAX_GROUPS + 1];
	unsigned int n = print_order(s, order);

	pp_snprintf(buf, sizeof(buf), "summary: %llu records, %u data sources",
		    (unsigned long long)s->total, n);
	line(buf, ctx);
	pp_snprintf(buf, sizeof(buf), "%-44s %10s %6s %8s %8s %8s %8s %8s", "data source", "count",
		    "share", "min", "median", "p90", "p99", "max");
	line(buf, ctx);
	for (unsigned int k = 0; k < n; k++) {
		unsigned int gi = order[k];
		struct pebs_summary_stats st;

		pebs_summary_stats(s, gi, &st);
		pebs_summary_group_name(s, gi, name, sizeof(name));
		if (st.n_lat) {
			fmt_val(v[0], sizeof(v[0]), st.min, false);
			fmt_val(v[1], sizeof(v[1]), st.median, st.approx);
			fmt_val(v[2], sizeof(v[2]), st.p90, st.approx);
			fmt_val(v[3], sizeof(v[3]), st.p99, st.approx);
			fmt_val(v[4], sizeof(v[4]), st.max, false);
		} else {
			for (unsigned int i = 0; i < 5; i++)
				pp_snprintf(v[i], sizeof(v[i]), "-");
		}
		pp_snprintf(buf, sizeof(buf), "%-44s %10llu %3u.%u%% %8s %8s %8s %8s %8s", name,
			    (unsigned long long)st.count, st.share_permille / 10,
			    st.share_permille % 10, v[0], v[1], v[2], v[3], v[4]);
		line(buf, ctx);
		if (st.n_lat)
			print_hist(&s->groups[gi], line, ctx);
	}
}
