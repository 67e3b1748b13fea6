// SPDX-License-Identifier: MIT
/*
 * runner.c - the main job (issue 6): every kernel that applies to this CPU,
 * sampled with load latency and the generation's store sampling; for each:
 * a start line, the events counted, records drained and lost, a
 * per-data-source latency table (cycles and ns), the first N records as
 * REC: lines, the verdict, an end line.  Then results.json and one raw dump
 * per kernel and sampling on the ESP.
 */
#include "runner.h"
#include "expect.h"
#include "kernel.h"
#include "results.h"
#include "../decode/dump.h"
#include "../decode/render.h"
#include "../decode/summary.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/hw.h"
#include "../pmu/offcore.h"
#include "../pmu/plan.h"
#include "../pmu/session.h"
#include "../pmu/uarch.h"

#define RESULTS_BUF_SIZE (1024 * 1024)
#define PROGRESS_EVERY_US 2000000
#define TEST_NAME_MAX 48
#define RUNNER_MAX_EVENTS 8

struct runner {
	const struct options *opts;
	const struct cpu_info *ci;
	const struct uarch_info *ua;
	bool simulated;         /* reported (results, dumps, the HITM note); never picks sizes */
	bool instrumented;      /* the kernels run their instrumented build */
	uint64_t tsc_hz;
	struct json_out json;
	char *json_buf;
	struct pebs_summary *summary;
	/* progress of the kernel running now */
	const char *kname;
	uint64_t last_progress_us;
	/* events=: the user's sampled events, each a sampling of every kernel */
	char user_ev[RUNNER_MAX_EVENTS][OPT_STR_MAX];
	unsigned int n_user;
	/* neither load nor store sampling on this generation: sample "other" */
	bool other_only;
	struct pmu_plan *plan; /* the session's plan, worked out first (pure) */
	/* offcore average latency of the contrast kernel (chase-l1), x100; -1 not measured */
	int64_t contrast_x100;
};

/*
 * One sampling of a kernel: which event, and which of the kernel's
 * accesses it counts (the verdict rows that apply follow from that).
 */
struct sampling {
	char name[16];          /* the test name's second part: load, store, other, eventN */
	unsigned int acc;       /* KSAMPLE_LOAD / KSAMPLE_STORE, 0: none of the kernel's accesses */
	enum pebs_kind kind;    /* with event NULL: the generation's event of this kind */
	const char *event;      /* session_cfg.sample_event */
	bool user;              /* from events= */
	bool all_qualify;       /* every counted access is an event */
	uint32_t force;         /* records forced through GLOBAL_STATUS_SET (Goldmont) */
};

/* --- the generation's samplings (pmu/uarch.h flags) ------------------------ */

/*
 * Goldmont has neither load latency nor DataLA, but PEBS on PMC0 for every
 * event (SDM 18.7.1, seed 003) and a data linear address in its records:
 * MEM_UOPS_RETIRED.ALL_LOADS / ALL_STORES (0xD0/0x81, 0xD0/0x82; SDM Vol. 3B
 * ch. 19 Goldmont event table), records without a data source.  Silvermont
 * is left out: its fmt2 records carry no data address for these events.
 */
static const struct {
	enum pebs_uarch uarch;
	const char *load, *store;
} atom_mem_events[] = {
	{ UARCH_GLM, "event=0xd0,umask=0x81", "event=0xd0,umask=0x82" },
};

static bool sampling_kind(const struct uarch_info *ua, unsigned int sampling, enum pebs_kind *k,
			  const char **event)
{
	*event = NULL;
	if (!ua)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(atom_mem_events); i++) {
		if (atom_mem_events[i].uarch != ua->uarch)
			continue;
		*k = KIND_OTHER;
		*event = sampling == KSAMPLE_LOAD ? atom_mem_events[i].load : atom_mem_events[i].store;
		return true;
	}
	if (sampling == KSAMPLE_LOAD) {
		if (ua->flags & UA_LDLAT)
			*k = KIND_LDLAT;
		else if (ua->flags & UA_DATALA)
			*k = KIND_DATALA_LOAD;
		else
			return false;
		return true;
	}
	/* Stores: store latency (SPR+), else precise store (SNB/IVB), else DataLA (HSW+). */
	if (ua->flags & UA_STLAT)
		*k = KIND_STLAT;
	else if (ua->flags & UA_PRECISE_STORE)
		*k = KIND_STORE;
	else if (ua->flags & UA_DATALA)
		*k = KIND_DATALA_STORE;
	else
		return false;
	return true;
}

static const char *sampling_name(unsigned int sampling)
{
	return sampling == KSAMPLE_LOAD ? "load" : "store";
}

/* The default job's sampling of the kernel's loads or stores; false if the generation has none. */
static bool default_sampling(const struct runner *r, unsigned int acc, struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", sampling_name(acc));
	s->acc = acc;
	if (!sampling_kind(r->ua, acc, &s->kind, &s->event))
		return false;
	/*
	 * Every access is an event when the event counts them all: DataLA and
	 * ALL_LOADS/ALL_STORES, or load latency with a threshold below the
	 * fastest L1 hit (4 cycles).  Store latency and precise store: not assumed.
	 */
	s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
			 s->kind == KIND_OTHER || (s->kind == KIND_LDLAT && r->opts->ldlat <= 3);
	return true;
}

/*
 * Generations with no load or store sampling (Core 2, Silvermont): the
 * plan's default event of kind "other" (the generation's PEBS instructions
 * event, pmu/plan.c), so records, IPs and counts are checked there too.
 * Goldmont: its non-precise CPU_CLK_UNHALTED.CORE_P plus one record forced
 * through IA32_PERF_GLOBAL_STATUS_SET (seed 003).
 */
static void other_sampling(const char *name, uint32_t force, struct sampling *s)
{
	memset(s, 0, sizeof(*s));
	pp_snprintf(s->name, sizeof(s->name), "%s", name);
	s->kind = KIND_OTHER;
	s->force = force;
}

/* The kind an event's records have decides which of the kernel's accesses it counts. */
static unsigned int kind_accesses(enum pebs_kind kind)
{
	switch (kind) {
	case KIND_LDLAT:
	case KIND_DATALA_LOAD: return KSAMPLE_LOAD;
	case KIND_STORE:
	case KIND_STLAT:
	case KIND_DATALA_STORE: return KSAMPLE_STORE;
	default: return 0;
	}
}

/* events=A;B;C: one sampling per event, named event1, event2, ... */
static void split_events(struct runner *r, const char *list)
{
	for (const char *p = list; *p && r->n_user < RUNNER_MAX_EVENTS;) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len >= OPT_STR_MAX)
			len = OPT_STR_MAX - 1;
		if (len) {
			memcpy(r->user_ev[r->n_user], p, len);
			r->user_ev[r->n_user++][len] = 0;
		}
		if (!e)
			break;
		p = e + 1;
	}
}

/* --- time ---------------------------------------------------------------- */

static uint64_t calibrate_tsc(void)
{
	uint64_t t0 = plat_time_us(), c0 = hw_rdtsc(), t1, c1;

	plat_stall_us(20000);
	t1 = plat_time_us();
	c1 = hw_rdtsc();
	if (t1 <= t0 || c1 <= c0)
		return 0;
	return (c1 - c0) * 1000000 / (t1 - t0);
}

/* Core cycles to ns: the core clock is the TSC clock scaled by CORE/REF cycles. */
static uint64_t cycles_to_ns(const struct runner *r, const struct session_result *res,
			     uint64_t cycles)
{
	uint64_t hz = r->tsc_hz;

	if (!hz)
		return 0;
	if (res->n_fixed >= 3 && res->fixed[1] && res->fixed[2])
		hz = hz / 1000 * (res->fixed[1] * 1000 / res->fixed[2]);
	return hz ? cycles * 1000000000ULL / hz : 0;
}

/* --- progress -------------------------------------------------------------- */

static void progress(void *ctx, uint64_t done, uint64_t total)
{
	struct runner *r = ctx;
	uint64_t now = plat_time_us();

	if (now - r->last_progress_us < PROGRESS_EVERY_US)
		return;
	r->last_progress_us = now;
	report_info("%s: running, %llu of %llu iterations (%llu%%)", r->kname,
		    (unsigned long long)done, (unsigned long long)total,
		    (unsigned long long)(total ? done * 100 / total : 100));
}

/* --- one sampling of one kernel --------------------------------------------- */

/* Bytes a record may take (fmt3: 200, adaptive with GPRs: 208); XMM/LBR groups are not asked for. */
#define RECORD_BYTES_MAX 256

/*
 * With period= not given: a sample-after value that lets the records of the
 * whole kernel fit in three quarters of the PEBS buffer, so polling at the
 * end loses none; never below the generation's minimum (and 32).
 */
/*
 * Events per iteration assumed for an event that counts none of the
 * kernel's accesses (instructions: a loop is 2 to 6): low rather than high,
 * so the kernel gives records; a full buffer is counted as lost (counting copy).
 */
#define OTHER_EVENTS_PER_ITER 2

/*
 * plan_min: the period the plan picks for this event when none is asked
 * (its minimum: ref. 8.5, e.g. 128 for INST_RETIRED.ALL on Haswell to
 * Skylake, which also wants the low 6 bits clear): the default is a
 * multiple of it when it is 64 or more.
 */
static uint64_t default_period(const struct runner *r, const struct kernel_ctx *k,
			       unsigned int sampling, uint64_t plan_min)
{
	const struct kernel_def *def = k->def;
	uint64_t per = sampling == KSAMPLE_LOAD ? def->loads_per_iter :
		       sampling == KSAMPLE_STORE ? def->stores_per_iter : OTHER_EVENTS_PER_ITER;
	uint64_t acc = k->iterations * (per ? per : 1);
	uint64_t bytes = (uint64_t)r->opts->buffer_kib * 1024;
	uint64_t cap;

	/* Core 2: the session keeps the buffer to one page (pmu/session.c, ref. 3). */
	if (r->ua && (r->ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	cap = bytes / RECORD_BYTES_MAX * 3 / 4;
	uint64_t min = r->ua && r->ua->min_period > 32 ? r->ua->min_period : 32;
	uint64_t p;

	if (!cap)
		cap = 1;
	p = (acc + cap - 1) / cap;
	if (p < min)
		p = min;
	if (p < plan_min)
		p = plan_min;
	if (plan_min >= 64)
		p = (p + plan_min - 1) / plan_min * plan_min;
	return p;
}


struct run_out {
	struct kstats st;
	struct kverdict_in in;
	uint64_t anomalies;
	uint64_t kinds[3];      /* records by enum session_rec_kind */
	uint64_t lost_inferred; /* records missing by the kernel's accesses (no counting copy) */
};

static const char *const rec_kind_names[3] = {
	[REC_PRECISE] = "precise", [REC_NONPRECISE] = "non-precise", [REC_FORCED] = "forced",
};

static unsigned int rec_kind_at(const struct session_result *res, size_t i)
{
	unsigned int k = res->rec_kinds && i < res->n_records ? res->rec_kinds[i] : REC_PRECISE;

	return k < 3 ? k : REC_PRECISE;
}

/* How many records of each kind (seed 003: precise, non-precise, forced). */
static void print_kinds(const char *test, const struct run_out *o)
{
	report_info("%s: record kinds: precise %llu, non-precise %llu, forced %llu", test,
		    (unsigned long long)o->kinds[REC_PRECISE],
		    (unsigned long long)o->kinds[REC_NONPRECISE],
		    (unsigned long long)o->kinds[REC_FORCED]);
}

/*
 * Records drained and lost.  The session counts lost records only from a
 * counting copy of the sampled event; without one (load latency, precise
 * store, store latency: one counter per facility) a full buffer loses
 * records it cannot count.  Then, when every access the kernel made is an
 * event, the missing ones are inferred from the accesses (the verdict's
 * records-vs-accesses check judges them).
 */
static void report_drained(struct runner *r, const char *test, const struct sampling *s,
			   const struct kernel_ctx *k, const struct session_result *res,
			   struct run_out *o)
{
	uint64_t acc = s->acc == KSAMPLE_LOAD ? k->loads : s->acc == KSAMPLE_STORE ? k->stores : 0;
	uint64_t expect = res->period ? acc / res->period : 0;
	uint64_t got = o->st.n + res->lost;

	if (!res->counted_sample && s->all_qualify && s->acc && expect > got)
		o->lost_inferred = expect - got;
	if (o->lost_inferred)
		report_info("%s: records drained %zu, lost %llu (inferred from the kernel's accesses: "
			    "%llu / period %llu = %llu expected), PMIs %u, loads %llu, stores %llu",
			    test, res->n_records, (unsigned long long)(res->lost + o->lost_inferred),
			    (unsigned long long)acc, (unsigned long long)res->period,
			    (unsigned long long)expect, res->pmis, (unsigned long long)k->loads,
			    (unsigned long long)k->stores);
	else
		report_info("%s: records drained %zu, lost %llu, PMIs %u, loads %llu, stores %llu",
			    test, res->n_records, (unsigned long long)res->lost, res->pmis,
			    (unsigned long long)k->loads, (unsigned long long)k->stores);
	(void)r;
}

static void print_sources(struct runner *r, const struct session_result *res)
{
	const struct pebs_summary *s = r->summary;

	report_info("  %-28s %8s %6s %8s %8s %8s %8s %8s  %s", "data source", "records", "share",
		    "min", "median", "p90", "p99", "max", "(cycles; min/median/p90/p99/max ns)");
	for (unsigned int g = 0; g < s->n_groups || (g == s->n_groups && s->groups[g].count);
	     g++) {
		struct pebs_summary_stats st;
		char name[64];

		if (g >= PEBS_SUMMARY_MAX_GROUPS + 1)
			break;
		if (!s->groups[g].count)
			continue;
		pebs_summary_stats(s, g, &st);
		pebs_summary_group_name(s, g, name, sizeof(name));
		report_info("  %-28s %8llu %3u.%u%% %8llu %7s%llu %8llu %8llu %8llu  "
			    "%llu/%llu/%llu/%llu/%llu ns",
			    name, (unsigned long long)st.count, st.share_permille / 10,
			    st.share_permille % 10, (unsigned long long)st.min, st.approx ? "~" : "",
			    (unsigned long long)st.median, (unsigned long long)st.p90,
			    (unsigned long long)st.p99, (unsigned long long)st.max,
			    (unsigned long long)cycles_to_ns(r, res, st.min),
			    (unsigned long long)cycles_to_ns(r, res, st.median),
			    (unsigned long long)cycles_to_ns(r, res, st.p90),
			    (unsigned long long)cycles_to_ns(r, res, st.p99),
			    (unsigned long long)cycles_to_ns(r, res, st.max));
	}
}

/* Decodes every record: statistics, the summary, and the first N as REC lines. */
/* Anomalies beyond this many are counted, not printed one by one. */
#define RUNNER_MAX_ANOMALY_LINES 8

static void decode_records(struct runner *r, const struct session_result *res,
			   struct run_out *o)
{
	struct pebs_record *rec = plat_alloc(sizeof(*rec));
	struct pebs_anomaly an;
	size_t off = 0;
	uint32_t printed = 0;

	pebs_summary_init(r->summary);
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
		 * the session forced it.  Counted by kind, not in the statistics.
		 */
		if (kind != REC_FORCED) {
			kstats_add(&o->st, rec);
			pebs_summary_add(r->summary, rec);
		}
		if (printed < r->opts->records) {
			char line[REPORT_LINE_MAX];
			struct strbuf sb;

			strbuf_init(&sb, line, sizeof(line) - 32);
			pebs_render_kv(rec, &sb);
			report_line("REC: %s kind=%s", line, rec_kind_names[kind]);
			printed++;
		}
	}
	o->st.anomalies = o->anomalies;
	plat_free(rec);
}

static void write_dump(struct runner *r, const char *test, const struct session_result *res)
{
	struct pebs_dump_info di;
	char name[64];
	size_t n;
	uint8_t *out;

	memset(&di, 0, sizeof(di));
	di.cfg = res->decode_cfg;
	di.simulated = r->simulated;
	/*
	 * Which counter carried which event: the plan the session followed
	 * (built from the same request, pure), the PEBS counter first, then
	 * every counted event (the user's, the SPR aux event, the counting copy).
	 */
	if (res->pebs_counter >= 0)
		pebs_dump_add_counter(&di, (uint32_t)res->pebs_counter, r->plan->sample.evtsel,
				      r->plan->sample.name);
	for (unsigned int i = 0; i < r->plan->n_count; i++)
		pebs_dump_add_counter(&di, (uint32_t)r->plan->count[i].ctr, r->plan->count[i].ev.evtsel,
				      r->plan->count[i].ev.name);
	n = pebs_dump_size(&di, res->records_len);
	out = plat_alloc(n);
	pp_snprintf(name, sizeof(name), "%s.pebs", test);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '-';
	if (!out || pebs_dump_write(&di, res->records, res->records_len, out, n) != n) {
		report_info("%s: could not build the dump %s", test, name);
	} else if (plat_write_file(name, out, n) < 0) {
		report_info("%s: could not write %s", test, name);
	} else {
		report_info("%s: %zu records (%zu bytes) dumped to %s", test, res->n_records,
			    res->records_len, name);
	}
	if (out)
		plat_free(out);
}

static void json_sources(struct runner *r, const struct session_result *res)
{
	const struct pebs_summary *s = r->summary;
	struct json_out *j = &r->json;

	json_begin_array(j, "sources");
	for (unsigned int g = 0; g <= PEBS_SUMMARY_MAX_GROUPS; g++) {
		struct pebs_summary_stats st;
		const struct pebs_summary_group *grp = &s->groups[g];
		char name[64];
		uint64_t bins[PEBS_SUMMARY_LOG_BINS] = { 0 };

		if (!grp->count)
			continue;
		pebs_summary_stats(s, g, &st);
		pebs_summary_group_name(s, g, name, sizeof(name));
		json_begin_object(j, NULL);
		json_str(j, "source", name);
		json_u64(j, "data_src", grp->key);
		json_u64(j, "count", st.count);
		json_u64(j, "share_permille", st.share_permille);
		json_u64(j, "with_latency", st.n_lat);
		json_u64(j, "lat_min", st.min);
		json_u64(j, "lat_median", st.median);
		json_u64(j, "lat_p90", st.p90);
		json_u64(j, "lat_p99", st.p99);
		json_u64(j, "lat_max", st.max);
		json_bool(j, "lat_approx", st.approx);
		json_u64(j, "min_ns", cycles_to_ns(r, res, st.min));
		json_u64(j, "median_ns", cycles_to_ns(r, res, st.median));
		json_u64(j, "p90_ns", cycles_to_ns(r, res, st.p90));
		json_u64(j, "p99_ns", cycles_to_ns(r, res, st.p99));
		json_u64(j, "max_ns", cycles_to_ns(r, res, st.max));
		/* Power-of-two latency histogram: [lowest latency of the bin, records]. */
		for (unsigned int v = 1; v < PEBS_SUMMARY_EXACT; v++)
			bins[63 - __builtin_clzll(v)] += grp->exact[v];
		for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
			bins[b] += grp->log2[b];
		json_begin_array(j, "histogram");
		for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++) {
			if (!bins[b])
				continue;
			json_begin_array(j, NULL);
			json_u64(j, NULL, 1ULL << b);
			json_u64(j, NULL, bins[b]);
			json_end_array(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_run(struct runner *r, const char *test, const char *sampling,
		     enum pebs_kind kind, const struct session_result *res, const struct run_out *o,
		     const char *verdict, const char *why)
{
	struct json_out *j = &r->json;

	json_begin_object(j, NULL);
	json_str(j, "test", test);
	json_str(j, "sampling", sampling);
	json_str(j, "kind", pebs_kind_name(kind));
	json_str(j, "verdict", verdict);
	json_str(j, "why", why);
	if (res) {
		json_str(j, "event", res->event_desc);
		json_u64(j, "period", res->period);
		json_u64(j, "events", res->sampled_events);
		json_u64(j, "records", res->n_records);
		json_u64(j, "record_bytes", res->records_len);
		json_u64(j, "lost", res->lost);
		json_u64(j, "lost_inferred", o->lost_inferred);
		json_begin_object(j, "record_kinds");
		for (unsigned int i = 0; i < 3; i++)
			json_u64(j, rec_kind_names[i], o->kinds[i]);
		json_end_object(j);
		json_u64(j, "pmis", res->pmis);
		json_u64(j, "anomalies", o->anomalies);
		json_u64(j, "format", res->decode_cfg.fmt);
		json_str(j, "uarch", pebs_uarch_name(res->decode_cfg.uarch));
		json_begin_array(j, "fixed");
		for (unsigned int i = 0; i < res->n_fixed && i < 4; i++)
			json_u64(j, NULL, res->fixed[i]);
		json_end_array(j);
		json_begin_object(j, "counts");
		for (unsigned int i = 0; i < o->in.n_counts; i++)
			json_u64(j, o->in.count_names[i], o->in.counts[i]);
		json_end_object(j);
		json_u64(j, "loads", o->in.loads);
		json_u64(j, "stores", o->in.stores);
		json_begin_object(j, "levels");
		for (int l = 0; l < KLV_COUNT; l++)
			json_u64(j, klevel_name(l), o->st.level[l]);
		json_end_object(j);
		json_u64(j, "locked", o->st.locked);
		json_u64(j, "stlb_miss", o->st.stlb_miss);
		json_u64(j, "hitm", o->st.hitm);
		json_u64(j, "blk_data", o->st.blk_data);
		json_u64(j, "dla_in_buffer", o->st.dla_in_buf);
		json_u64(j, "with_dla", o->st.n_dla);
		json_u64(j, "ip_in_kernel", o->st.ip_in_code);
		json_u64(j, "with_ip", o->st.n_ip);
		json_sources(r, res);
	}
	json_end_object(j);
}

/*
 * A later sampling of a chase continues the chain where the last one
 * stopped: the same lines again would hit in the caches the last run filled
 * (the instrumented runs visit only a few thousand of the chain's slots).
 */
static void next_chain(struct kernel_ctx *k)
{
	if (k->def->chase && k->sink)
		k->start = k->sink;
}

/* The plan the session will follow (pure: no MSR touched), for the kind and the dump's table. */
static int preplan(struct runner *r, const struct session_cfg *cfg, char *why, size_t why_size)
{
	return plan_build(cfg, r->ci, r->plan, why, why_size);
}

static void report_session_error(struct runner *r, const char *test, const struct sampling *s,
				 int rc, const char *why)
{
	if (rc == SESSION_SKIP) {
		report_skip(test, "%s", why);
		json_run(r, test, s->name, s->kind, NULL, NULL, "SKIP", why);
	} else if (rc == SESSION_REFUSED) {
		/* Refused before any wrmsr (pmu/session.h): one line with the reason. */
		report_fail(test, "refused: %s", why);
		json_run(r, test, s->name, s->kind, NULL, NULL, "FAIL", why);
	} else {
		report_fail(test, "session: %s", why);
		json_run(r, test, s->name, s->kind, NULL, NULL, "FAIL", why);
	}
}

static void run_sampling(struct runner *r, struct kernel_ctx *k, struct sampling *s)
{
	const struct kernel_def *def = k->def;
	char test[TEST_NAME_MAX], why[256], text[REPORT_TEXT_MAX];
	struct session_cfg cfg;
	struct session_result res;
	struct run_out o;
	int rc;

	pp_snprintf(test, sizeof(test), "%s/%s", def->name, s->name);
	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	memset(&o, 0, sizeof(o));
	cfg.ci = r->ci;
	cfg.kind = s->kind;
	cfg.sample_event = s->event;
	cfg.ldlat = r->opts->ldlat;
	cfg.buffer_kib = r->opts->buffer_kib;
	cfg.threshold_records = r->opts->threshold;
	cfg.drain = r->opts->drain;
	cfg.force_records = s->force;
	why[0] = 0;
	/* A user's event: its kind (from the plan) says which accesses it counts. */
	rc = preplan(r, &cfg, why, sizeof(why));
	if (rc) {
		report_session_error(r, test, s, rc, why);
		return;
	}
	s->kind = r->plan->kind;
	if (s->user) {
		s->acc = kind_accesses(s->kind);
		s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
				 (s->kind == KIND_LDLAT && r->plan->ldlat <= 3);
		if ((s->acc == KSAMPLE_LOAD && !def->loads_per_iter) ||
		    (s->acc == KSAMPLE_STORE && !def->stores_per_iter)) {
			pp_snprintf(why, sizeof(why), "the event samples %s; this kernel makes none",
				    s->acc == KSAMPLE_LOAD ? "loads" : "stores");
			report_skip(test, "%s", why);
			json_run(r, test, s->name, s->kind, NULL, NULL, "SKIP", why);
			return;
		}
	}
	cfg.period = r->opts->period ? r->opts->period :
		     default_period(r, k, s->acc, r->plan->period);
	cfg.n_count_events = kernel_count_events(def, s->acc, r->ua->uarch, cfg.count_events,
						 SESSION_MAX_COUNT);
	rc = preplan(r, &cfg, why, sizeof(why));
	if (!rc)
		rc = session_run(&cfg, kernel_run, k, &res, why, sizeof(why));
	if (rc) {
		report_session_error(r, test, s, rc, why);
		return;
	}
	if (k->error) {
		pp_snprintf(why, sizeof(why), "CPU 1 could not run its part (error %d)", k->error);
		report_fail(test, "%s", why);
		json_run(r, test, s->name, s->kind, NULL, NULL, "FAIL", why);
		session_result_free(&res);
		return;
	}

	report_info("%s: sampled %s, period %llu: %llu events", test, res.event_desc,
		    (unsigned long long)res.period, (unsigned long long)res.sampled_events);
	if (res.n_fixed >= 2)
		report_info("%s: instructions %llu, core cycles %llu", test,
			    (unsigned long long)res.fixed[0], (unsigned long long)res.fixed[1]);
	for (unsigned int i = 0; i < cfg.n_count_events; i++)
		report_info("%s: counted %s: %llu", test, cfg.count_events[i],
			    (unsigned long long)res.counts[i]);

	kstats_init(&o.st, k);
	decode_records(r, &res, &o);
	report_drained(r, test, s, k, &res, &o);
	print_kinds(test, &o);
	print_sources(r, &res);

	o.in.st = &o.st;
	o.in.uarch = res.decode_cfg.uarch;
	o.in.kind = res.decode_cfg.kind;
	o.in.ldlat = r->plan->use_ldlat ? r->plan->ldlat : 0;
	/*
	 * Rows marked hw_only (HITM) need another core's modified line: an
	 * instrumented run reports the sampled core's accesses only
	 * (hw_ops.mem_access has no CPU argument), so they are not judged there.
	 */
	o.in.simulated = k->instrumented;
	o.in.page_size = k->instrumented ? PAGE_SIZE_4K : plat_page_size((uintptr_t)k->buf);
	o.in.events = res.sampled_events;
	o.in.period = res.period;
	o.in.records = o.st.n;
	o.in.lost = res.lost;
	o.in.loads = k->loads;
	o.in.stores = k->stores;
	o.in.sampled_accesses = s->acc == KSAMPLE_LOAD ? k->loads :
				s->acc == KSAMPLE_STORE ? k->stores : 0;
	o.in.all_qualify = s->all_qualify;
	o.in.forced_asked = s->force;
	o.in.forced = o.kinds[REC_FORCED];
	o.in.n_counts = cfg.n_count_events;
	for (unsigned int i = 0; i < cfg.n_count_events; i++) {
		o.in.count_names[i] = cfg.count_events[i];
		o.in.counts[i] = res.counts[i];
	}
	if (kernel_evaluate(def, s->acc, &o.in, text, sizeof(text)) == KV_PASS) {
		report_pass("%s: %s", test, text);
		json_run(r, test, s->name, s->kind, &res, &o, "PASS", text);
	} else {
		report_fail(test, "%s", text);
		json_run(r, test, s->name, s->kind, &res, &o, "FAIL", text);
	}
	if (r->opts->dump)
		write_dump(r, test, &res);
	session_result_free(&res);
	next_chain(k);
}

/* --- offcore average latency (seed 004) ------------------------------------ */

/* A DRAM access costs far more than this many core cycles on every generation (L3 hits ~40). */
#define OFFCORE_DRAM_FLOOR 60

/*
 * One more run of the kernel counting the offcore demand reads and the
 * cycles they were outstanding (pmu/offcore.c): their ratio is the
 * average latency.  The DRAM chase is judged: at least the floor, and
 * above the L1 chase's (which should have almost no offcore requests).
 */
static void run_offcore(struct runner *r, struct kernel_ctx *k)
{
	const struct kernel_def *def = k->def;
	struct offcore_result oc;
	char test[TEST_NAME_MAX], why[256];
	uint64_t avg;
	bool ok;
	int rc;

	pp_snprintf(test, sizeof(test), "%s/offcore", def->name);
	rc = offcore_avg_latency(r->ci, OFFCORE_REQ_DMND_DATA_RD, 0, kernel_run, k, &oc, why,
				 sizeof(why));
	next_chain(k);
	json_begin_object(&r->json, "offcore");
	if (rc) {
		json_str(&r->json, "verdict", "SKIP");
		json_str(&r->json, "why", why);
		json_end_object(&r->json);
		if (def->offcore == KOFF_JUDGE)
			report_skip(test, "offcore average latency: %s", why);
		else
			report_info("%s: offcore average latency not measured: %s", def->name, why);
		return;
	}
	avg = oc.avg_latency_x100 / 100;
	report_info("%s: offcore average latency %llu cycles (weighted cycles %llu / requests %llu; %s)",
		    def->name, (unsigned long long)avg, (unsigned long long)oc.weighted_cycles,
		    (unsigned long long)oc.requests, oc.how);
	json_u64(&r->json, "weighted_cycles", oc.weighted_cycles);
	json_u64(&r->json, "requests", oc.requests);
	json_u64(&r->json, "avg_latency_x100", oc.avg_latency_x100);
	json_str(&r->json, "how", oc.how);
	if (def->offcore == KOFF_CONTRAST) {
		r->contrast_x100 = (int64_t)oc.avg_latency_x100;
		json_end_object(&r->json);
		return;
	}
	ok = oc.requests && avg >= OFFCORE_DRAM_FLOOR &&
	     (r->contrast_x100 < 0 || oc.avg_latency_x100 > (uint64_t)r->contrast_x100);
	if (r->contrast_x100 >= 0)
		pp_snprintf(why, sizeof(why), "average latency %llu cycles over %llu requests %s %u "
			    "and %s the L1 chase's %llu", (unsigned long long)avg,
			    (unsigned long long)oc.requests, avg >= OFFCORE_DRAM_FLOOR ? ">=" : "<",
			    OFFCORE_DRAM_FLOOR,
			    oc.avg_latency_x100 > (uint64_t)r->contrast_x100 ? "above" : "not above",
			    (unsigned long long)(r->contrast_x100 / 100));
	else
		pp_snprintf(why, sizeof(why), "average latency %llu cycles over %llu requests %s %u",
			    (unsigned long long)avg, (unsigned long long)oc.requests,
			    avg >= OFFCORE_DRAM_FLOOR ? ">=" : "<", OFFCORE_DRAM_FLOOR);
	json_str(&r->json, "verdict", ok ? "PASS" : "FAIL");
	json_str(&r->json, "why", why);
	json_end_object(&r->json);
	if (ok)
		report_pass("%s: %s", test, why);
	else
		report_fail(test, "%s", why);
}

/* --- one kernel ------------------------------------------------------------ */

#define WARM_UP_MAX_SIZE (4ULL << 20)

/*
 * One unsampled pass over a working set that fits in the caches, so a
 * kernel meant to hit L1 or L2 does not start cold (the simulator's caches
 * start empty: laying out the buffer is not reported to it).  Larger sets
 * are meant to miss anyway.
 */
static void warm_up(struct kernel_ctx *k)
{
	uint64_t saved = k->iterations, slots = k->stride ? k->size / k->stride : 0;
	void (*prog)(void *, uint64_t, uint64_t) = k->progress;

	if (k->size > WARM_UP_MAX_SIZE || !slots)
		return;
	k->iterations = slots < saved ? slots : saved;
	k->progress = NULL;
	kernel_run(k);
	k->iterations = saved;
	k->progress = prog;
	k->error = 0;
}

static void skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
	pp_printf(3, 4);

static void skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
{
	char why[256], test[TEST_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
		if (!(def->samplings & s))
			continue;
		pp_snprintf(test, sizeof(test), "%s/%s", def->name, sampling_name(s));
		report_skip(test, "%s", why);
		json_run(r, test, sampling_name(s), KIND_OTHER, NULL, NULL, "SKIP", why);
	}
}

/* The kernel's samplings: the user's events, else the generation's own. */
static void run_samplings(struct runner *r, struct kernel_ctx *k)
{
	const struct kernel_def *def = k->def;
	struct sampling smp;
	char test[TEST_NAME_MAX], why[160];

	if (r->n_user) {
		for (unsigned int i = 0; i < r->n_user; i++) {
			memset(&smp, 0, sizeof(smp));
			pp_snprintf(smp.name, sizeof(smp.name), "event%u", i + 1);
			smp.event = r->user_ev[i];
			smp.user = true;
			smp.kind = KIND_OTHER;
			run_sampling(r, k, &smp);
		}
		return;
	}
	if (r->other_only) {
		other_sampling("other", 0, &smp);
		run_sampling(r, k, &smp);
		return;
	}
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
		if (!(def->samplings & s))
			continue;
		if (!default_sampling(r, s, &smp)) {
			pp_snprintf(test, sizeof(test), "%s/%s", def->name, sampling_name(s));
			pp_snprintf(why, sizeof(why), "%s has no %s sampling", r->ua->name,
				    sampling_name(s));
			report_skip(test, "%s", why);
			json_run(r, test, sampling_name(s), KIND_OTHER, NULL, NULL, "SKIP", why);
			continue;
		}
		run_sampling(r, k, &smp);
	}
	/* Goldmont: a non-precise event's records and one forced record (seed 003). */
	if (r->ua->flags & UA_NONPRECISE_PEBS) {
		other_sampling("nonprecise", 1, &smp);
		run_sampling(r, k, &smp);
	}
}

static void run_kernel(struct runner *r, const struct kernel_def *def)
{
	struct kernel_ctx *k = plat_alloc(sizeof(*k));
	unsigned int cpus = plat_cpu_count();
	char why[160];
	bool clipped;
	uint64_t t0 = plat_time_us();

	if (!k) {
		report_fail(def->name, "out of memory");
		return;
	}
	json_begin_object(&r->json, NULL);
	json_str(&r->json, "kernel", def->name);
	json_str(&r->json, "what", def->what);
	if (def->cpus > cpus) {
		json_begin_array(&r->json, "runs");
		skip_kernel(r, def, "needs %u CPUs, %u available (QEMU: --smp 2)", def->cpus, cpus);
		json_end_array(&r->json);
		json_end_object(&r->json);
		plat_free(k);
		return;
	}
	/* Laying out a large chain takes seconds: say so before, not after. */
	if ((r->opts->size ? r->opts->size : (r->instrumented ? def->size_sim : def->size)) >=
	    (64ULL << 20))
		report_info("kernel %s: preparing the working set", def->name);
	if (kernel_prepare(k, def, r->opts->size, r->opts->iterations, r->instrumented, &clipped, why,
			   sizeof(why)) < 0) {
		report_fail(def->name, "%s", why);
		json_str(&r->json, "error", why);
		json_end_object(&r->json);
		plat_free(k);
		return;
	}
	k->instrumented = r->instrumented;
	k->ops = hw_current();
	k->progress = progress;
	k->progress_ctx = r;
	r->kname = def->name;
	r->last_progress_us = t0;
	json_u64(&r->json, "size", k->size);
	json_u64(&r->json, "iterations", k->iterations);
	json_u64(&r->json, "stride", k->stride);
	json_u64(&r->json, "offset", k->offset);
	json_bool(&r->json, "clipped", clipped);
	json_bool(&r->json, "instrumented", k->instrumented);
	report_info("kernel %s: start: %s; size %llu bytes%s, %llu iterations, %s build", def->name,
		    def->what, (unsigned long long)k->size,
		    clipped ? " (clipped to the memory available)" : "",
		    (unsigned long long)k->iterations, k->instrumented ? "instrumented" : "real");
	warm_up(k);
	json_begin_array(&r->json, "runs");
	run_samplings(r, k);
	json_end_array(&r->json);
	/* With events= only the user's events run (a refused one then touches no MSR at all). */
	if (def->offcore != KOFF_NONE && !r->n_user)
		run_offcore(r, k);
	json_end_object(&r->json);
	report_info("kernel %s: end (%llu ms)", def->name,
		    (unsigned long long)((plat_time_us() - t0) / 1000));
	kernel_release(k);
	plat_free(k);
}

/* --- selection: kernels=all|none|name,name ----------------------------------- */

static bool name_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* Every name in the list must be a kernel: one error line otherwise. */
static bool check_list(const char *list)
{
	char names[512], word[64];

	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len >= sizeof(word))
			len = sizeof(word) - 1;
		memcpy(word, p, len);
		word[len] = 0;
		if (!kernel_find(word)) {
			kernel_names(names, sizeof(names));
			report_fail("kernels", "unknown kernel '%s'; accepted: all, none, %s", word,
				    names);
			return false;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return true;
}

static bool selected(const struct options *o, const struct kernel_def *def)
{
	if (!strcmp(o->kernels, "all"))
		return def->in_default_job;
	return name_in_list(o->kernels, def->name);
}

/* --- the job ----------------------------------------------------------------- */

static void write_results(struct runner *r)
{
	struct report_counts c;
	size_t n;

	report_get_counts(&c);
	json_begin_object(&r->json, "summary");
	json_u64(&r->json, "tests", c.tests);
	json_u64(&r->json, "failures", c.failures);
	json_u64(&r->json, "skipped", c.skipped);
	json_end_object(&r->json);
	json_end_object(&r->json);
	n = json_finish(&r->json);
	if (!n)
		report_fail("results", "%s: the results did not fit in %u bytes", r->opts->results,
			    RESULTS_BUF_SIZE);
	else if (plat_write_file(r->opts->results, r->json_buf, n) < 0)
		report_fail("results", "could not write %s", r->opts->results);
	else
		report_info("results: %zu bytes written to %s", n, r->opts->results);
}

static void json_header(struct runner *r)
{
	struct json_out *j = &r->json;

	json_begin_object(j, NULL);
	json_u64(j, "results_version", 1);
	json_str(j, "pebsprobe", PP_VERSION);
	json_bool(j, "simulated", r->simulated);
	json_str(j, "uarch", r->ua ? r->ua->name : "unknown");
	json_str(j, "cpu", r->ci->brand);
	json_u64(j, "family", r->ci->family);
	json_u64(j, "model", r->ci->model);
	json_u64(j, "tsc_hz", r->tsc_hz);
	json_u64(j, "cpus", plat_cpu_count());
	json_begin_array(j, "kernels");
}

void runner_main_job(const struct options *opts, const struct cpu_info *ci)
{
	struct runner *r = plat_alloc(sizeof(*r));
	char why[256];
	bool usable;

	if (!r) {
		report_fail("main-job", "out of memory");
		return;
	}
	memset(r, 0, sizeof(*r));
	r->opts = opts;
	r->ci = ci;
	r->simulated = hw_is_simulated();
	/*
	 * Sizes and iterations follow from how the kernels run, not from
	 * which backend: a backend that wants every access reported gets the
	 * instrumented build, where each access is a call (about 100 times
	 * slower), so the small defaults (size_sim, iters_sim) apply.
	 */
	r->instrumented = hw_current()->mem_access && hw_current()->retire;
	r->contrast_x100 = -1;
	r->ua = uarch_for_cpu(ci);
	if (!strcmp(opts->kernels, "none"))
		goto out;
	if (strcmp(opts->kernels, "all") && !check_list(opts->kernels))
		goto out;
	r->json_buf = plat_alloc(RESULTS_BUF_SIZE);
	r->summary = plat_alloc(sizeof(*r->summary));
	r->plan = plat_alloc(sizeof(*r->plan));
	if (!r->json_buf || !r->summary || !r->plan) {
		report_fail("main-job", "out of memory for the results");
		goto out;
	}
	r->tsc_hz = ci->tsc_hz ? ci->tsc_hz : calibrate_tsc();
	report_info("main job: TSC %llu Hz (%s), %u CPUs, %s kernels", (unsigned long long)r->tsc_hz,
		    ci->tsc_hz ? "CPUID 15H/16H" : "calibrated", plat_cpu_count(),
		    r->instrumented ? "instrumented" : "real");
	json_init(&r->json, r->json_buf, RESULTS_BUF_SIZE);
	json_header(r);
	usable = session_pebs_usable(ci, why, sizeof(why));
	split_events(r, opts->events);
	if (usable && r->ua && !r->n_user) {
		enum pebs_kind kd;
		const char *ev;

		r->other_only = !sampling_kind(r->ua, KSAMPLE_LOAD, &kd, &ev) &&
				!sampling_kind(r->ua, KSAMPLE_STORE, &kd, &ev);
		if (r->other_only)
			report_info("main job: %s has no load or store sampling: each kernel is sampled "
				    "with the generation's PEBS instructions event; no data-source checks",
				    r->ua->name);
	}
	if (r->n_user)
		report_info("main job: %u event(s) from events= sample every kernel", r->n_user);
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *def = kernel_at(i);

		if (!selected(opts, def))
			continue;
		if (!usable) {
			json_begin_object(&r->json, NULL);
			json_str(&r->json, "kernel", def->name);
			json_begin_array(&r->json, "runs");
			skip_kernel(r, def, "%s", why);
			json_end_array(&r->json);
			json_end_object(&r->json);
			continue;
		}
		run_kernel(r, def);
	}
	json_end_array(&r->json);
	if (strcmp(opts->results, "none"))
		write_results(r);
out:
	if (r->json_buf)
		plat_free(r->json_buf);
	if (r->summary)
		plat_free(r->summary);
	if (r->plan)
		plat_free(r->plan);
	plat_free(r);
}
