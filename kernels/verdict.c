// SPDX-License-Identifier: MIT
/*
 * verdict.c - statistics and expectations to a verdict: which rows apply
 * to a sampling, each row's check, and the text and state of each property.
 * kernels/kstats.c turns the records into those statistics.
 */
#include "verdict.h"
#include "../lib/fmt.h"

const struct kernel_expect verdict_common_expect[] = {
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_MIN_RECORDS, 10, 0, 0, 0, UA_COUNT_NONE, "records"},
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_DLA_IN_BUF, 0, 990, 0, 0, UA_COUNT_NONE,
     "data addresses in the buffer"},
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_IP_IN_CODE, 0, 950, 0, 0, UA_COUNT_NONE,
     "IPs in the kernel"},
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_RECORDS_MATCH, 0, 900, 1100, 0, UA_COUNT_NONE,
     "records+lost vs events/period"},
    /*
     * Independent of the PMU's own count: no more samples than the kernel's
     * accesses allow, and - when every access is an event - not silently
     * fewer (a full buffer must show up as lost records).
     */
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_RECORDS_VS_ACCESSES, 0, 500, 1100, 0, UA_COUNT_NONE,
     "records+lost vs accesses/period"},
    /* The share comes from ip_exact_min[] by the records' kind (min_pm 0 here). */
    {KSAMPLE_LOAD | KSAMPLE_STORE, KEXP_IP_EXACT, 0, 0, 0, 0, UA_COUNT_NONE, "exact IPs"},
};
const size_t verdict_common_expect_count = ARRAY_SIZE(verdict_common_expect);

/* The perfmon name the generation counts for a row's role, NULL where it counts none. */
static const char *count_name(const struct uarch_info *ua, bool named, enum uarch_count c)
{
	return ua && named && c > UA_COUNT_NONE && c < UA_COUNT_N ? ua->count_ev[c] : NULL;
}

static bool applies(const struct kernel_expect *e, unsigned int sampling,
		    const struct uarch_info *ua, bool named)
{
	if (!(e->sampling & sampling))
		return false;
	if (e->needs && !(ua && (ua->flags & e->needs) == e->needs))
		return false;
	return e->count == UA_COUNT_NONE || count_name(ua, named, e->count);
}

/*
 * A kernel row for a sampling: with an event that counts none of the
 * kernel's accesses (sampling 0), only the counted-event rows, for every
 * sampling the kernel has (they do not depend on the sampled event).
 */
static bool kernel_row_applies(const struct kernel_def *def, const struct kernel_expect *e,
			       unsigned int sampling, const struct uarch_info *ua, bool named)
{
	if (!sampling)
		return e->prop == KEXP_COUNT_PER_ACCESS && applies(e, def->samplings, ua, named);
	return applies(e, sampling, ua, named);
}

unsigned int verdict_count_events(const struct kernel_def *def, unsigned int sampling,
				  const struct uarch_info *ua, bool named_counts,
				  const char **names, unsigned int max)
{
	unsigned int n = 0;

	for (size_t i = 0; i < def->n_expect; i++) {
		const struct kernel_expect *e = &def->expect[i];

		if (e->prop != KEXP_COUNT_PER_ACCESS ||
		    !kernel_row_applies(def, e, sampling, ua, named_counts) || n >= max)
			continue;
		names[n++] = count_name(ua, named_counts, e->count);
	}
	return n;
}

/* "97.5%" from a per-mille value. */
static void pm_str(char *b, size_t size, uint64_t pm)
{
	pp_snprintf(b, size, "%llu.%llu%%", (unsigned long long)(pm / 10),
		    (unsigned long long)(pm % 10));
}

static uint64_t per_mille(uint64_t part, uint64_t whole)
{
	return whole ? part * 1000 / whole : 0;
}

/*
 * The evaluation: each row's note goes to the text of its state (checked
 * and n/a together: what a PASS names), and the row's state to props.
 */
struct eval {
	struct strbuf ok, bad, unk;
	bool failed, unchecked;
	const char *what; /* the row being judged */
	bool noted;	  /* it gave a note */
	struct kprops props;
};

static const char *const kprop_state_names[] = {
    [KPS_CHECKED] = "checked",
    [KPS_FAILED] = "failed",
    [KPS_NA] = "n/a",
    [KPS_UNCHECKED] = "unchecked",
};

const char *verdict_prop_state_name(enum kprop_state s)
{
	return (unsigned int)s < ARRAY_SIZE(kprop_state_names) ? kprop_state_names[s] : "?";
}

/* How much a state weighs when one row gives two notes: the worse one stays. */
static int state_weight(enum kprop_state s)
{
	static const int w[] = {
	    [KPS_NA] = 0, [KPS_CHECKED] = 1, [KPS_UNCHECKED] = 2, [KPS_FAILED] = 3};

	return w[s];
}

static void mark(struct eval *ev, enum kprop_state state)
{
	struct kprops *p = &ev->props;

	ev->noted = true;
	if (state == KPS_FAILED)
		ev->failed = true;
	if (state == KPS_UNCHECKED)
		ev->unchecked = true;
	if (p->n && p->p[p->n - 1].what == ev->what) {
		if (state_weight(state) > state_weight(p->p[p->n - 1].state))
			p->p[p->n - 1].state = state;
		return;
	}
	if (p->n < KPROPS_MAX) {
		p->p[p->n].what = ev->what;
		p->p[p->n].state = state;
		p->p[p->n].unit = KPU_NONE;
		p->p[p->n].value = 0;
		p->n++;
	}
}

/* The number the row being judged observed, beside its note (after it). */
static void mark_value(struct eval *ev, enum kprop_unit unit, uint64_t value)
{
	struct kprops *p = &ev->props;

	if (p->n && p->p[p->n - 1].what == ev->what) {
		p->p[p->n - 1].unit = unit;
		p->p[p->n - 1].value = value;
	}
}

static void note_state(struct eval *ev, enum kprop_state state, const char *fmt, ...)
    pp_printf(3, 4);

static void note_state(struct eval *ev, enum kprop_state state, const char *fmt, ...)
{
	char line[192];
	va_list ap;
	struct strbuf *sb = state == KPS_FAILED	     ? &ev->bad
			    : state == KPS_UNCHECKED ? &ev->unk
						     : &ev->ok;

	va_start(ap, fmt);
	pp_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (sb->len)
		strbuf_puts(sb, "; ");
	strbuf_puts(sb, line);
	mark(ev, state);
}

/* A check that held (pass) or failed. */
#define note(ev, pass, ...) note_state(ev, (pass) ? KPS_CHECKED : KPS_FAILED, __VA_ARGS__)

/* A share of `whole` records: part/whole against [min, max] per mille. */
static void check_share(struct eval *ev, const struct kernel_expect *e, uint64_t part,
			uint64_t whole)
{
	uint64_t pm = per_mille(part, whole);
	char got[16], lim[16];
	bool ok;

	if (!whole) {
		note(ev, false, "%s: no records to judge", e->what);
		return;
	}
	ok = pm >= e->min_pm && (!e->max_pm || pm <= e->max_pm);
	pm_str(got, sizeof(got), pm);
	pm_str(lim, sizeof(lim), ok || pm < e->min_pm ? e->min_pm : e->max_pm);
	note(ev, ok, "%s %s %s %s (%llu of %llu)", e->what, got,
	     ok ? (e->max_pm ? "in range from" : ">=") : (pm < e->min_pm ? "<" : ">"), lim,
	     (unsigned long long)part, (unsigned long long)whole);
	mark_value(ev, KPU_SHARE_PM, pm);
}

static uint64_t level_count(const struct kstats *st, uint32_t mask)
{
	uint64_t n = 0;

	for (int l = 0; l < KLV_COUNT; l++)
		if (mask & KLV_BIT(l))
			n += st->level[l];
	return n;
}

/*
 * A partner in another package holds its modified line across the package
 * link: the load is a remote HITM, which the data source says with its
 * remote bit (decode/datasrc.c pebs_dsrc_remote_hitm; Linux ds.c
 * pebs_data_source[0x09], _skl [0x0d], _cmt [0x0d], omr_encoding bit 4),
 * so only those count.  A table with no such row (ds.c lnc_pebs_data_source,
 * client parts of one package) cannot say it: any HITM counts, said so.
 */
static void check_hitm(struct eval *ev, const struct kernel_expect *e, const struct kverdict_in *in)
{
	static const char remote[] = "remote HITM",
			  any[] = "HITM (no remote-HITM encoding in this data source)";
	struct kernel_expect x = *e;

	if (!in->remote_pair) {
		check_share(ev, e, in->st->hitm, in->st->n_src);
		return;
	}
	if (in->ua && pebs_dsrc_remote_hitm(in->ua->dsrc)) {
		x.what = ev->what = remote;
		check_share(ev, &x, in->st->hitm_remote, in->st->n_src);
	} else {
		x.what = ev->what = any;
		check_share(ev, &x, in->st->hitm, in->st->n_src);
	}
}

static void check_records_match(struct eval *ev, const struct kernel_expect *e,
				const struct kverdict_in *in)
{
	uint64_t expect = in->period ? in->events / in->period : 0;
	uint64_t got = in->records + in->lost;
	uint64_t pm = per_mille(got, expect);
	uint64_t diff = got > expect ? got - expect : expect - got;
	char pms[16];

	if (!in->period) {
		note(ev, false, "%s: no sample-after value", e->what);
		return;
	}
	/*
	 * A full buffer without a count of the event beside the records: the
	 * records lost cannot be numbered, so the records cannot be checked
	 * against the events (which then come from the records themselves).
	 */
	if (in->lost_unknown) {
		note(ev, false,
		     "%s: the PEBS buffer filled and %llu records were kept; how many were lost is "
		     "unknown (no counting copy of the event: a larger buffer= or drain=pmi)",
		     e->what, (unsigned long long)in->records);
		return;
	}
	pm_str(pms, sizeof(pms), pm);
	/* Small counts: one or two overflows in flight at disarm are allowed. */
	if (diff <= 2 || (pm >= e->min_pm && pm <= e->max_pm))
		note(ev, true, "%llu records + %llu lost for %llu events / period %llu = %llu%s",
		     (unsigned long long)in->records, (unsigned long long)in->lost,
		     (unsigned long long)in->events, (unsigned long long)in->period,
		     (unsigned long long)expect,
		     in->buffer_full ? " (the PEBS buffer filled)" : "");
	else
		note(ev, false,
		     "%s: %llu records + %llu lost but %llu events / period %llu = %llu (%s)%s",
		     e->what, (unsigned long long)in->records, (unsigned long long)in->lost,
		     (unsigned long long)in->events, (unsigned long long)in->period,
		     (unsigned long long)expect, pms,
		     in->buffer_full ? "; the PEBS buffer filled" : "");
}

static void check_records_vs_accesses(struct eval *ev, const struct kernel_expect *e,
				      const struct kverdict_in *in, unsigned int sampling)
{
	uint64_t expect = in->period ? in->sampled_accesses / in->period : 0;
	uint64_t got = in->records + in->lost;
	uint64_t pm = per_mille(got, expect);
	bool too_many = got > expect + 2 && (!expect || pm > e->max_pm);
	bool too_few = in->all_qualify && got + 2 < expect && pm < e->min_pm;
	char pms[16];

	if (!in->period) {
		note(ev, false, "%s: no sample-after value", e->what);
		return;
	}
	pm_str(pms, sizeof(pms), pm);
	if (!too_many && !too_few)
		return; /* the line stays short: the events/period check already printed the counts
			 */
	note(ev, false, "%s: %llu records + %llu lost for %llu %s / period %llu = %llu (%s)%s",
	     e->what, (unsigned long long)in->records, (unsigned long long)in->lost,
	     (unsigned long long)in->sampled_accesses,
	     sampling == KSAMPLE_STORE ? "stores" : "loads", (unsigned long long)in->period,
	     (unsigned long long)expect, pms,
	     !too_few		? ": more samples than events"
	     : in->lost_unknown ? ": the PEBS buffer filled and the records it lost could not be "
				  "counted"
				: ": records went missing without being counted lost");
}

static void check_count(struct eval *ev, const struct kernel_expect *e,
			const struct kverdict_in *in)
{
	uint64_t acc = e->arg ? in->stores : in->loads;
	const char *name = count_name(in->ua, in->named_counts, e->count);
	unsigned int i;

	for (i = 0; name && i < in->n_counts; i++)
		if (in->count_names[i] == name || !strcmp(in->count_names[i], name))
			break;
	if (!name || i == in->n_counts) {
		note(ev, false, "%s: event %s was not counted", e->what, name ? name : "(none)");
		return;
	}
	{
		uint64_t pm = per_mille(in->counts[i], acc);
		bool ok = acc && pm >= e->min_pm && (!e->max_pm || pm <= e->max_pm);
		char hi[24];

		if (e->max_pm)
			pp_snprintf(hi, sizeof(hi), "%u.%02u", e->max_pm / 1000,
				    e->max_pm % 1000 / 10);
		else
			pp_snprintf(hi, sizeof(hi), "any");
		/* A ratio, 1.00 one per access; the counts in parentheses, which a brief drops. */
		note(ev, ok, "%s %llu.%02llu per access (%llu for %llu %s, expected %u.%02u..%s)",
		     e->what, (unsigned long long)(pm / 1000), (unsigned long long)(pm % 1000 / 10),
		     (unsigned long long)in->counts[i], (unsigned long long)acc,
		     e->arg ? "stores" : "loads", e->min_pm / 1000, e->min_pm % 1000 / 10, hi);
		if (acc)
			mark_value(ev, KPU_PER_ACCESS_PM, pm);
	}
}

/*
 * The share of exact IPs a sampling needs, by the boundary its records
 * name.  Both are exact by definition: the eventing IP is the instruction
 * that caused the assist (SDM Vol. 3B 18.11, Table 18-44: EventingIP at B0H;
 * the adaptive and arch-PEBS basic group), a trap-like R/EIP the one after
 * it (PERF_CAPABILITIES.PEBS_TRAP, SDM Vol. 3B 18.4.4; Linux ds.c
 * intel_pmu_pebs_fixup_ip).  The 5% left is for the records of the
 * harness's own loads between chunks (kernel_progress), as for "IPs in the
 * kernel": reasoning, not a published figure.  The simulator is exact.
 */
// clang-format off
static const struct {
	enum kip_point pt;
	uint32_t min_pm;
} ip_exact_min[] = {
	{KIP_AT,    950},
	{KIP_AFTER, 950},
};
// clang-format on

static void check_ip_exact(struct eval *ev, const struct kernel_expect *e, const struct kstats *st)
{
	struct kernel_expect lim = *e;
	enum kskid worst = KSKID_1;
	char got[16], need[16];
	uint64_t pm;

	for (size_t i = 0; i < ARRAY_SIZE(ip_exact_min); i++)
		if (ip_exact_min[i].pt == st->ip_point)
			lim.min_pm = ip_exact_min[i].min_pm;
	pm = per_mille(st->skid[KSKID_0], st->n_ip);
	if (!st->n_ip || pm >= lim.min_pm) {
		check_share(ev, &lim, st->skid[KSKID_0], st->n_ip);
		return;
	}
	/* The failure names the skid most of the other records have. */
	for (enum kskid s = KSKID_1; s < KSKID_N; s++)
		if (st->skid[s] > st->skid[worst])
			worst = s;
	pm_str(got, sizeof(got), pm);
	pm_str(need, sizeof(need), lim.min_pm);
	note(ev, false, "%s %s < %s: skid %s%s in %llu of %llu", e->what, got, need,
	     kstats_skid_name(worst), worst == KSKID_OUT ? " the kernel" : "",
	     (unsigned long long)st->skid[worst], (unsigned long long)st->n_ip);
}

static bool data_src_prop(enum kexp_prop p)
{
	return p == KEXP_LEVEL || p == KEXP_LOCKED || p == KEXP_STLB_MISS || p == KEXP_HITM ||
	       p == KEXP_BLK_DATA;
}

/* A load-latency threshold above the kernel's latencies: fewer than `n` events/period. */
static bool few_over_threshold(const struct kverdict_in *in, uint64_t n)
{
	if (n < 10)
		n = 10;
	return in->kind == KIND_LDLAT && in->ldlat > 3 && in->period && in->events / in->period < n;
}

/*
 * Not applicable: the generation's records, or the sampled event's, cannot
 * show the property at all.  Returns true when e is not applicable (and
 * notes why), before anything is judged.
 */
static bool not_applicable(struct eval *ev, const struct kernel_expect *e,
			   const struct kverdict_in *in, unsigned int sampling)
{
	const struct kstats *st = in->st;

	/*
	 * The generation's records have no data-source field: Core 2,
	 * Silvermont and Tremont have none, Goldmont's record reserves the
	 * slots (SDM Vol. 3B 18.7.1.1; decode/datasrc.c says which).
	 */
	if (data_src_prop(e->prop) && in->ua &&
	    (in->ua->dsrc == DSRC_NA || in->ua->dsrc == DSRC_RESERVED)) {
		note_state(ev, KPS_NA, "%s n/a on %s (records carry no data source%s%s)", e->what,
			   in->ua->name, in->ua->dsrc == DSRC_RESERVED ? ": " : "",
			   in->ua->dsrc == DSRC_RESERVED ? pebs_dsrc_source(in->ua->dsrc) : "");
		return true;
	}
	if (data_src_prop(e->prop) && in->kind == KIND_OTHER) {
		note_state(ev, KPS_NA, "%s n/a (the sampled event's records carry no data source)",
			   e->what);
		return true;
	}
	/*
	 * DataLA records of MEM_INST_RETIRED/MEM_UOPS_RETIRED carry an
	 * address, not a level (Linux ds.c precise_datala_hsw: PERF_MEM_LVL_NA).
	 */
	if (e->prop == KEXP_LEVEL && st->n_src && st->n_src == st->level[KLV_NA]) {
		note_state(ev, KPS_NA, "%s n/a (the records carry no data source level)", e->what);
		return true;
	}
	/* Instructions or cycles: the record's address field is not the kernel's access. */
	if ((e->prop == KEXP_DLA_IN_BUF || e->prop == KEXP_DLA_ON_STRIDE ||
	     e->prop == KEXP_RECORDS_VS_ACCESSES || e->prop == KEXP_IP_EXACT) &&
	    !sampling) {
		if (e->prop != KEXP_RECORDS_VS_ACCESSES)
			note_state(ev, KPS_NA, "%s n/a (the sampled event counts no memory access)",
				   e->what);
		else
			mark(ev, KPS_NA);
		return true;
	}
	if ((e->prop == KEXP_DLA_IN_BUF || e->prop == KEXP_DLA_ON_STRIDE) && st->n && !st->n_dla) {
		note_state(ev, KPS_NA, "%s n/a (the records carry no data address)", e->what);
		return true;
	}
	return false;
}

/*
 * Applies, but this run cannot observe it.  Returns true when e is
 * unchecked here (and notes why).
 */
static bool unobservable(struct eval *ev, const struct kernel_expect *e,
			 const struct kverdict_in *in)
{
	const struct kstats *st = in->st;

	if (data_src_prop(e->prop) && (!in->ua || !pebs_dsrc_has_data_src(in->ua->dsrc))) {
		/* No data-source encoding known for this generation: nothing to compare. */
		note_state(ev, KPS_UNCHECKED, "%s unchecked (no data-source encoding for %s)",
			   e->what,
			   !in->ua || in->ua->uarch == UARCH_NONE ? "an unknown microarchitecture"
								  : pebs_uarch_name(in->ua->uarch));
		return true;
	}
	/* ldlat above every latency the kernel has: no records, and none expected. */
	if (!st->n && few_over_threshold(in, e->arg) && e->prop != KEXP_MIN_RECORDS &&
	    e->prop != KEXP_RECORDS_MATCH && e->prop != KEXP_RECORDS_VS_ACCESSES &&
	    e->prop != KEXP_COUNT_PER_ACCESS) {
		note_state(ev, KPS_UNCHECKED, "%s unchecked (no records)", e->what);
		return true;
	}
	/* No memory instruction of the kernel's code is known: nothing to be exact at. */
	if (e->prop == KEXP_IP_EXACT && !st->n_insn) {
		note_state(ev, KPS_UNCHECKED, "%s unchecked (no known memory instruction)",
			   e->what);
		return true;
	}
	/* More than were kept (a compiler that unrolled the loop): a skid could be a lost one. */
	if (e->prop == KEXP_IP_EXACT && st->n_insn_found > st->n_insn) {
		note_state(ev, KPS_UNCHECKED, "%s unchecked (%zu memory instructions, %u kept)",
			   e->what, st->n_insn_found, KSTATS_INSN_MAX);
		return true;
	}
	/* Load latency keeps only loads slower than the threshold: shares of levels mean nothing.
	 */
	if (e->prop == KEXP_LEVEL && in->kind == KIND_LDLAT && in->ldlat > 3) {
		note_state(ev, KPS_UNCHECKED,
			   "%s unchecked (ldlat=%u keeps only loads slower than %u cycles)",
			   e->what, in->ldlat, in->ldlat);
		return true;
	}
	/*
	 * One load per 4 KiB page only misses the STLB when the pages are
	 * 4 KiB: the job maps the buffer so (pmu/paging.h); where it could
	 * not, the firmware's 2 MiB or 1 GiB pages fit the region in the STLB.
	 */
	if (e->prop == KEXP_STLB_MISS && in->page_size != PAGE_SIZE_4K) {
		if (in->page_size)
			note_state(ev, KPS_UNCHECKED,
				   "%s unchecked (the buffer ran in %llu KiB pages%s%s)", e->what,
				   (unsigned long long)(in->page_size >> 10),
				   in->page_why ? ": " : "", in->page_why ? in->page_why : "");
		else
			note_state(ev, KPS_UNCHECKED, "%s unchecked (its page size is unknown%s%s)",
				   e->what, in->page_why ? ": " : "",
				   in->page_why ? in->page_why : "");
		return true;
	}
	return false;
}

static void check_one(struct eval *ev, const struct kernel_expect *e, const struct kverdict_in *in,
		      unsigned int sampling)
{
	const struct kstats *st = in->st;

	ev->what = e->what;
	ev->noted = false;
	if (not_applicable(ev, e, in, sampling) || unobservable(ev, e, in))
		return;
	switch (e->prop) {
	case KEXP_LEVEL:
		/* Only records that name a level show one (not_applicable()). */
		check_share(ev, e, level_count(st, e->arg), st->n_src - st->level[KLV_NA]);
		break;
	case KEXP_LOCKED:
		check_share(ev, e, st->locked, st->n_src);
		break;
	case KEXP_STLB_MISS:
		check_share(ev, e, st->stlb_miss, st->n_src);
		break;
	case KEXP_HITM:
		check_hitm(ev, e, in);
		break;
	case KEXP_BLK_DATA:
		check_share(ev, e, st->blk_data, st->n_src);
		break;
	case KEXP_DLA_IN_BUF:
		check_share(ev, e, st->dla_in_buf, st->n_dla);
		break;
	case KEXP_DLA_ON_STRIDE:
		check_share(ev, e, st->dla_on_stride, st->n_dla);
		break;
	case KEXP_IP_IN_CODE:
		check_share(ev, e, st->ip_in_code, st->n_ip);
		break;
	case KEXP_IP_EXACT:
		check_ip_exact(ev, e, st);
		break;
	case KEXP_RECORDS_MATCH:
		check_records_match(ev, e, in);
		break;
	case KEXP_MIN_RECORDS:
		/* A threshold above the kernel's latencies leaves few events: nothing to judge. */
		if (few_over_threshold(in, e->arg) && !st->anomalies) {
			note_state(
			    ev, KPS_UNCHECKED,
			    "%llu %s unchecked (ldlat=%u left %llu events: too few to judge)",
			    (unsigned long long)st->n, e->what, in->ldlat,
			    (unsigned long long)in->events);
			break;
		}
		note(ev, st->n >= e->arg, "%llu %s (need >= %u)%s", (unsigned long long)st->n,
		     e->what, e->arg, st->anomalies ? ", decode anomaly" : "");
		if (st->anomalies)
			note(ev, false, "the decoder found %llu anomalies",
			     (unsigned long long)st->anomalies);
		break;
	case KEXP_COUNT_PER_ACCESS:
		check_count(ev, e, in);
		break;
	case KEXP_RECORDS_VS_ACCESSES:
		check_records_vs_accesses(ev, e, in, sampling);
		break;
	default:
		note(ev, false, "unknown expectation %d", (int)e->prop);
		break;
	}
	/* A check that held without a note of its own (the line stays short). */
	if (!ev->noted)
		mark(ev, KPS_CHECKED);
}

enum kverdict verdict_evaluate(const struct kernel_def *def, unsigned int sampling,
			       const struct kverdict_in *in, char *text, size_t text_size,
			       struct kprops *props)
{
	/* 3 KiB, not on the stack: the BSP judges one sampling at a time (job/run.c). */
	static char okbuf[REPORT_TEXT_MAX], badbuf[REPORT_TEXT_MAX], unkbuf[REPORT_TEXT_MAX];
	struct eval ev;

	memset(&ev, 0, sizeof(ev));
	strbuf_init(&ev.ok, okbuf, sizeof(okbuf));
	strbuf_init(&ev.bad, badbuf, sizeof(badbuf));
	strbuf_init(&ev.unk, unkbuf, sizeof(unkbuf));
	for (size_t i = 0; i < def->n_expect; i++)
		if (kernel_row_applies(def, &def->expect[i], sampling, in->ua, in->named_counts))
			check_one(&ev, &def->expect[i], in, sampling);
	for (size_t i = 0; i < verdict_common_expect_count; i++)
		if (applies(&verdict_common_expect[i],
			    sampling ? sampling : KSAMPLE_LOAD | KSAMPLE_STORE, in->ua,
			    in->named_counts))
			check_one(&ev, &verdict_common_expect[i], in, sampling);
	if (in->forced_asked) {
		ev.what = "forced records";
		note(&ev, in->forced == in->forced_asked,
		     "forced records %llu of %u (IA32_PERF_GLOBAL_STATUS_SET)",
		     (unsigned long long)in->forced, in->forced_asked);
	}
	if (props)
		*props = ev.props;
	/*
	 * A failure is a FAIL whatever else; else a property that applies
	 * but went unobserved makes a SKIP, its reason first, then what held.
	 */
	if (ev.failed) {
		pp_snprintf(text, text_size, "%s", badbuf);
		return KV_FAIL;
	}
	if (ev.unchecked) {
		pp_snprintf(text, text_size, "%s%s%s", unkbuf, ev.ok.len ? "; " : "", okbuf);
		return KV_SKIP;
	}
	pp_snprintf(text, text_size, "%s", okbuf);
	return KV_PASS;
}
