// SPDX-License-Identifier: MIT
/*
 * records.c - the main job's console lines for one sampling: records
 * drained and lost, record kinds, the per-data-source latency table and
 * the REC: lines (decoding every record on the way).
 */
#include "job_int.h"
#include "../decode/render.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/* Core cycles to ns: the core clock is the TSC clock scaled by CORE/REF cycles. */
uint64_t job_cycles_to_ns(const struct job_state *js, const struct session_result *res,
			  uint64_t cycles)
{
	uint64_t hz = js->tsc_hz;

	if (!hz)
		return 0;
	if ((res->fixed_read & 6) == 6 && res->fixed[1] && res->fixed[2])
		hz = hz / 1000 * (res->fixed[1] * 1000 / res->fixed[2]);
	return hz ? cycles * 1000000000ULL / hz : 0;
}

enum kip_point job_ip_point(const struct cpu_info *ci, unsigned int fmt)
{
	/*
	 * Format 0/1 records have only R/EIP: on a trap-like part
	 * (PERF_CAPABILITIES.PEBS_TRAP, bit 6) the state after the eventing
	 * instruction, so its successor (SDM Vol. 3B 18.4.4; Linux ds.c
	 * intel_pmu_pebs_fixup_ip() walks back from it only when pebs_trap).
	 * From format 2 and in arch-PEBS the decoder takes the eventing IP.
	 */
	if (fmt >= 2 || !ci || !ci->has_perf_caps)
		return KIP_AT;
	return (ci->perf_caps & PERF_CAP_PEBS_TRAP) ? KIP_AFTER : KIP_AT;
}

const char *const job_rec_kind_names[3] = {
    [REC_PRECISE] = "precise",
    [REC_NONPRECISE] = "non-precise",
    [REC_FORCED] = "forced",
};

static unsigned int rec_kind_at(const struct session_result *res, size_t i)
{
	unsigned int k = res->rec_kinds && i < res->n_records ? res->rec_kinds[i] : REC_PRECISE;

	return k < 3 ? k : REC_PRECISE;
}

/* How many records of each kind (SDM 18.7.1: precise, non-precise, forced). */
void job_print_kinds(const char *test, const struct run_out *o)
{
	report_detail("%s: record kinds: precise %llu, non-precise %llu, forced %llu", test,
		      (unsigned long long)o->kinds[REC_PRECISE],
		      (unsigned long long)o->kinds[REC_NONPRECISE],
		      (unsigned long long)o->kinds[REC_FORCED]);
}

/*
 * Records drained and lost, and whether the PEBS buffer filled.  The
 * session counts lost records only from a counting copy of the sampled
 * event; without one (load latency, precise store, store latency: one
 * counter per facility) a full buffer loses records it cannot count, and
 * the line says "unknown".  Then, when every access the kernel made is an
 * event, the missing ones are inferred from the accesses (the verdict's
 * records-vs-accesses check judges them).
 */
void job_report_drained(const char *test, const struct sampling *s, const struct kernel_ctx *k,
			const struct session_result *res, struct run_out *o)
{
	uint64_t acc = s->acc == KSAMPLE_LOAD ? k->loads : s->acc == KSAMPLE_STORE ? k->stores : 0;
	uint64_t expect = res->period ? acc / res->period : 0;
	uint64_t dropped = job_race_dropped(o), got = o->st.n + res->lost + dropped;
	char lost[48], race[48] = "";

	if (!res->counted_sample && s->all_qualify && s->acc && expect > got)
		o->lost_inferred = expect - got;
	/* Records the status rule dropped (races.c): drained, then lost as Linux logs them. */
	if (dropped)
		pp_snprintf(race, sizeof(race), " (%llu dropped by the status rule)",
			    (unsigned long long)dropped);
	if (o->lost_inferred)
		report_detail(
		    "%s: records drained %zu, lost %llu (inferred from the kernel's accesses: "
		    "%llu / period %llu = %llu expected%s)%s, PMIs %u, loads %llu, stores %llu",
		    test, res->n_records, (unsigned long long)(res->lost + o->lost_inferred),
		    (unsigned long long)acc, (unsigned long long)res->period,
		    (unsigned long long)expect, res->buffer_full ? "; the PEBS buffer filled" : "",
		    race, res->pmis, (unsigned long long)k->loads, (unsigned long long)k->stores);
	else {
		/* Unknown, never 0, when the buffer filled and nothing counted the event. */
		if (!res->lost_unknown)
			pp_snprintf(lost, sizeof(lost), "%llu", (unsigned long long)res->lost);
		else if (res->lost)
			pp_snprintf(lost, sizeof(lost), "unknown (at least %llu)",
				    (unsigned long long)res->lost);
		else
			pp_snprintf(lost, sizeof(lost), "unknown");
		report_detail(
		    "%s: records drained %zu, lost %s%s%s, PMIs %u, loads %llu, stores %llu", test,
		    res->n_records, lost, race,
		    !res->buffer_full	? ""
		    : res->lost_unknown ? " (the PEBS buffer filled; no count of the event "
					  "beside the records)"
					: " (the PEBS buffer filled)",
		    res->pmis, (unsigned long long)k->loads, (unsigned long long)k->stores);
	}
}

void job_source_bins(const struct pebs_summary_group *grp, uint64_t bins[PEBS_SUMMARY_LOG_BINS])
{
	memset(bins, 0, PEBS_SUMMARY_LOG_BINS * sizeof(bins[0]));
	for (unsigned int v = 1; v < PEBS_SUMMARY_EXACT; v++)
		bins[63 - __builtin_clzll(v)] += grp->exact[v];
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
		bins[b] += grp->log2[b];
}

/*
 * The per-data-source table, within 80 columns with " [sim]": fixed-width
 * columns, numbers right-aligned (a "~" median, from a power-of-two
 * bucket, takes its column's width too), a name longer than its column on
 * a line of its own above its row, the same statistics in ns on a line
 * under the cycles; then, per source with latencies, a histogram: one line
 * per power-of-two bin with a bar scaled to the fullest bin.
 */
#define SRC_NAME_W 17
#define SRC_COLS   "%-17s %7s %6s %5s %6s %5s %5s %5s"
#define SRC_ROW	   SRC_COLS " %s"
#define HIST_BAR_W 40

/* In a frame of its own (its bins): the UEFI build keeps frames to 1 KiB. */
static __attribute__((noinline)) void source_histogram(const struct pebs_summary_group *grp)
{
	uint64_t bins[PEBS_SUMMARY_LOG_BINS], most = 0;
	char bar[HIST_BAR_W + 1], range[32];

	job_source_bins(grp, bins);
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
		most = bins[b] > most ? bins[b] : most;
	for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS && most; b++) {
		unsigned int n;

		if (!bins[b])
			continue;
		n = (unsigned int)((bins[b] * HIST_BAR_W + most - 1) / most);
		memset(bar, '#', n);
		bar[n] = 0;
		pp_snprintf(range, sizeof(range), "%llu-%llu", 1ULL << b, (2ULL << b) - 1);
		report_detail("  %13s cy %-*s %7llu", range, HIST_BAR_W, bar,
			      (unsigned long long)bins[b]);
	}
}

void job_print_sources(const struct job_state *js, const struct session_result *res)
{
	const struct pebs_summary *s = &js->now->summary;
	bool ns = js->tsc_hz != 0;

	report_detail(SRC_ROW, "data source", "records", "share", "min", "median", "p90", "p99",
		      "max", "");
	for (unsigned int g = 0; g < s->n_groups || (g == s->n_groups && s->groups[g].count); g++) {
		struct pebs_summary_stats st;
		char name[64], f[8][24];
		uint64_t v[5];

		if (g >= PEBS_SUMMARY_MAX_GROUPS + 1)
			break;
		if (!s->groups[g].count)
			continue;
		pebs_summary_stats(s, g, &st);
		pebs_summary_group_name(s, g, name, sizeof(name));
		if (strlen(name) > SRC_NAME_W) {
			report_detail("%s", name);
			name[0] = 0;
		}
		v[0] = st.min;
		v[1] = st.median;
		v[2] = st.p90;
		v[3] = st.p99;
		v[4] = st.max;
		pp_snprintf(f[0], sizeof(f[0]), "%llu", (unsigned long long)st.count);
		pp_snprintf(f[1], sizeof(f[1]), "%u.%u%%", st.share_permille / 10,
			    st.share_permille % 10);
		/* Records without a latency (stores on most formats) have no figures. */
		for (unsigned int i = 0; i < 5; i++)
			if (!st.n_lat)
				pp_snprintf(f[2 + i], sizeof(f[0]), "n/a");
			else
				pp_snprintf(f[2 + i], sizeof(f[0]), "%s%llu",
					    i == 1 && st.approx ? "~" : "",
					    (unsigned long long)v[i]);
		report_detail(SRC_ROW, name, f[0], f[1], f[2], f[3], f[4], f[5], f[6],
			      st.n_lat ? "cy" : "");
		if (!st.n_lat)
			continue;
		if (ns) {
			for (unsigned int i = 0; i < 5; i++)
				pp_snprintf(f[2 + i], sizeof(f[0]), "%llu",
					    (unsigned long long)job_cycles_to_ns(js, res, v[i]));
			report_detail(SRC_ROW, "", "", "", f[2], f[3], f[4], f[5], f[6], "ns");
		}
		source_histogram(&s->groups[g]);
	}
}

/* Decodes every record: statistics, the summary, and the first N as REC lines. */
/* Anomalies beyond this many are counted, not printed one by one. */
#define RUNNER_MAX_ANOMALY_LINES 8

void job_decode_records(struct job_state *js, const struct session_result *res, struct run_out *o)
{
	struct pebs_record *rec = plat_alloc(sizeof(*rec));
	struct pebs_anomaly an;
	size_t off = 0;
	uint32_t printed = 0;

	pebs_summary_init(&js->now->summary);
	if (!rec) {
		o->anomalies++;
		return;
	}
	for (size_t idx = 0;; idx++) {
		size_t at = off;
		enum pebs_step step = pebs_decode_next(&res->decode_cfg, res->records,
						       res->records_len, &off, rec, &an);
		unsigned int kind = rec_kind_at(res, idx);

		if (step == PEBS_STEP_END)
			break;
		if (step == PEBS_STEP_ANOMALY) {
			o->anomalies++;
			if (o->anomalies <= RUNNER_MAX_ANOMALY_LINES)
				report_info("decode anomaly at offset %zu: %s", an.offset, an.what);
			/*
			 * A record that decoded but broke a validation rule
			 * (size or format field, applicable counters) was
			 * stepped over by its own size: the ones after it are
			 * still read.  A malformed one (truncated, size 0)
			 * leaves no trustworthy next offset: stop there.
			 */
			if (off > at)
				continue;
			break;
		}
		o->kinds[kind]++;
		/*
		 * A forced record is no event of the kernel: its state is where
		 * the session forced it.  Counted by kind, not in the statistics;
		 * nor is one the status rule drops (races.c, as Linux's drain).
		 */
		if (kind != REC_FORCED && !job_race_count(o, &res->decode_cfg, rec)) {
			kstats_add(&o->st, rec);
			pebs_summary_add(&js->now->summary, rec);
		}
		if (printed < js->jo->records) {
			char line[REPORT_LINE_MAX];
			struct strbuf sb;

			strbuf_init(&sb, line, sizeof(line) - 32);
			pebs_render_kv(rec, &sb);
			report_line("REC: %s kind=%s", line, job_rec_kind_names[kind]);
			printed++;
		}
	}
	o->st.anomalies = o->anomalies;
	plat_free(rec);
}
