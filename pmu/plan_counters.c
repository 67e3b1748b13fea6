// SPDX-License-Identifier: MIT
/*
 * plan_counters.c - which counter each event of a plan takes: the sampling
 * counter from the event's perfmon counter lists (or Linux's constraints
 * where the file has no row) and what CPUID enumerates, then the counted
 * events, the most constrained first, each refused with the rule it broke.
 */
#include "plan_int.h"
#include "msr.h"
#include "extra_regs.h"
#include "../lib/fmt.h"
static int lowest_bit(uint64_t m)
{
	return m ? __builtin_ctzll(m) : -1;
}

/*
 * GP counters of an event's rule when it has no perfmon row (a raw encoding
 * the file lacks, or a CPU perfmon has no file for: Core 2, Diamond
 * Rapids): Linux's constraints (pmu/constraints.c), with arch-PEBS as with
 * legacy PEBS.  An event no PEBS row names: the generation's PEBS counters,
 * or with arch-PEBS every counter (Linux PMU_FL_PEBS_ALL: the counting
 * constraints decide, ds.c intel_pebs_constraints); the latency facilities
 * keep their counters (row ldlat_gp/store_gp, from the same tables).
 */
static uint32_t fallback_sample_gp(const struct pmu_plan *p, const char **rule)
{
	const struct uarch_info *ua = p->ua;
	uint16_t code = pmu_event_code(&p->sample);
	const struct uarch_constraint *c = constraints_find(ua->cons, code);
	uint32_t gp = (c		       ? c->gp
		       : p->fl->cpuid_counters ? 0xffffffffu
					       : ua->pebs_gp) &
		      uarch_count_counters(ua, code);

	*rule = "no perfmon row; PEBS counters of pmu/constraints.c (Linux ds.c)";
	if (p->kind == KIND_LDLAT) {
		gp &= ua->ldlat_gp;
		*rule = "no perfmon row; load-latency counters of pmu/uarch.c (Linux ds.c)";
	} else if (p->kind == KIND_STORE || p->kind == KIND_STLAT) {
		gp &= ua->store_gp;
		*rule = "no perfmon row; store counters of pmu/uarch.c (SDM 18.9.4.3, Linux ds.c)";
	}
	return gp;
}

/* "PMC2-9"-style words for a GP mask, for a refusal line. */
static void gp_words(uint32_t m, char *buf, size_t size)
{
	struct strbuf sb;
	int i = 0;

	strbuf_init(&sb, buf, size);
	if (!m)
		strbuf_puts(&sb, "none");
	while (m >> i) {
		int lo, hi;

		if (!(m & BIT_ULL(i))) {
			i++;
			continue;
		}
		lo = i;
		while (i < 32 && (m & BIT_ULL(i)))
			i++;
		hi = i - 1;
		if (sb.len)
			strbuf_puts(&sb, ",");
		if (lo == hi)
			strbuf_printf(&sb, "PMC%d", lo);
		else
			strbuf_printf(&sb, "PMC%d-%d", lo, hi);
	}
}

/* "PEBScounters (perfmon ADL/alderlake_goldencove_core.json MEM_INST_RETIRED.ALL_LOADS)" */
static void rule_words(const struct pmu_event *ev, const char *list, char *buf, size_t size)
{
	pp_snprintf(buf, size, "%s (perfmon %s %s)", list, perfmon_table_name(ev->pm_table),
		    ev->pm_name);
}

/*
 * The sampling counter: the event's perfmon PEBScounters (Counter where the
 * file has no PEBScounters, SNB to SKX/CLX: there PEBS is further limited
 * to the generation's PEBS counters, PMC0-3, SDM Vol. 3B 18.9.4), and what
 * CPUID enumerates: CPUID.0AH:EAX[15:8] GP counters (or the CPUID.23H.1:EAX
 * bitmap), and with arch-PEBS the
 * PEBS-capable ones of CPUID.23H.5:EAX.
 */
int plan_pick_sample_counter(struct pmu_plan *p, char *why, size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	const struct pmu_event *ev = &p->sample;
	uint32_t gp_all = p->gp_mask;
	uint32_t cpuid_gp = p->fl->cpuid_counters ? p->ci_arch_gp & gp_all : gp_all;
	uint32_t rule_gp, allowed, pdist;
	char rule[160], words[64], cpuid_words[64];
	const char *fb;

	if (ev->fixed >= 0) {
		uint32_t fx =
		    p->fl->cpuid_counters ? p->ci_arch_fixed : (p->baseline ? ua->pebs_fixed : 0);

		if (ev->pm_name && !(ev->pebs_ctrs.fixed & BIT_ULL(ev->fixed))) {
			rule_words(ev, ev->pebs_list ? "PEBScounters" : "Counter", rule,
				   sizeof(rule));
			return refuse(why, why_size,
				      "event '%s': fixed counter %d is not in its %s (fixed mask "
				      "0x%x; accepted: an event its counter list allows)",
				      ev->name, ev->fixed, rule, ev->pebs_ctrs.fixed);
		}
		if (!(p->fixed_mask & BIT_ULL(ev->fixed)))
			return refuse(
			    why, why_size,
			    "event '%s' lives on fixed counter %d, which CPUID does not "
			    "enumerate (CPUID.0AH fixed counters 0x%x, or 23H.1; 4 and up "
			    "only with PMU version 6; accepted: an event on a counter this CPU "
			    "has)",
			    ev->name, ev->fixed, p->fixed_mask);
		if (!(fx & BIT_ULL(ev->fixed)))
			return refuse(
			    why, why_size,
			    "event '%s' lives on fixed counter %d: fixed-counter PEBS needs "
			    "adaptive PEBS (PERF_CAPABILITIES[14]) or arch-PEBS "
			    "(accepted: events on GP counters here)",
			    ev->name, ev->fixed);
		p->sample_ctr = 32 + ev->fixed;
		p->sample_pdist = (ev->pdist_ctrs.fixed & p->pdist_fixed_ok) & BIT_ULL(ev->fixed);
		return 0;
	}
	if (ev->pm_name) {
		rule_gp = ev->pebs_ctrs.gp;
		if (!ev->pebs_list && !p->fl->cpuid_counters)
			rule_gp &= ua->pebs_gp;
		rule_words(ev, ev->pebs_list ? "PEBScounters" : "Counter", rule, sizeof(rule));
	} else {
		rule_gp = fallback_sample_gp(p, &fb);
		pp_snprintf(rule, sizeof(rule), "%s:", fb);
	}
	allowed = rule_gp & cpuid_gp;
	if (!allowed) {
		gp_words(rule_gp, words, sizeof(words));
		gp_words(cpuid_gp, cpuid_words, sizeof(cpuid_words));
		return refuse(why, why_size,
			      "event '%s': %s %s and %s %s share no counter (accepted: an event "
			      "whose counters this CPU has)",
			      ev->name, rule, words, p->fl->counter_source, cpuid_words);
	}
	/*
	 * Precise distribution where the event's PDISTCounter (and, with
	 * arch-PEBS, CPUID.23H.5:EBX) allows it: there the record is of the
	 * instruction that overflowed the counter, elsewhere of the next
	 * occurrence of the event (perfmon README, PDISTCounter).  So a PDIST
	 * counter is taken first; the records say which they got.
	 */
	pdist = ev->pdist_ctrs.gp & p->pdist_gp_ok & allowed;
	p->sample_ctr = lowest_bit(pdist ? pdist : allowed);
	p->sample_pdist = pdist != 0;
	return 0;
}

/*
 * GP counters a counted event may use: its perfmon Counter field, else (no
 * perfmon row) the uarch table's counting constraints (Linux core.c
 * *_event_constraints), else any.
 */
uint32_t plan_count_allowed(const struct pmu_plan *p, const struct pmu_event *ev)
{
	if (ev->pm_name)
		return ev->count_ctrs.gp;
	return uarch_count_counters(p->ua, pmu_event_code(ev));
}

/* The lowest free GP counter among `allowed` (the event's counting constraint), -1 if none. */
int plan_free_gp(const struct pmu_plan *p, uint32_t allowed)
{
	unsigned int i;

	for (i = 0; i < p->n_gp && i < PLAN_MAX_GP; i++)
		if (!(p->gp_used & BIT_ULL(i)) && (allowed & p->gp_mask & BIT_ULL(i)))
			return (int)i;
	return -1;
}

/*
 * OFFCORE_RESPONSE value, as perfmon's MSRValue or the raw offcore_rsp= gives
 * it: every bit must be writable on this generation, else wrmsr raises #GP (core.c extra_regs
 * valid masks; SDM Vol. 3B Table 18-17 "MSR_OFFCORE_RSPx Snoop Info Field
 * Definition": bits 32 and 35 reserved).
 */
static int offcore_value(const struct pmu_plan *p, const struct pmu_event *ev, int rsp,
			 uint64_t *val, char *why, size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	uint64_t v = ev->offcore_rsp, valid = p->offcore_valid[rsp];

	if (!valid)
		return refuse(why, why_size, "event '%s': %s has no MSR_OFFCORE_RSP%d", ev->name,
			      ua->name, rsp);
	if (v & ~valid)
		return refuse(why, why_size,
			      "event '%s': MSR_OFFCORE_RSP%d value 0x%llx has bits "
			      "0x%llx that this %s model does not define (writable: 0x%llx)",
			      ev->name, rsp, (unsigned long long)v,
			      (unsigned long long)(v & ~valid), ua->name,
			      (unsigned long long)valid);
	*val = v;
	return 0;
}

/*
 * The PERFEVTSEL extension fields only where CPUID.23H.0:EBX enumerates them
 * (Linux core.c update_pmu_cap adds them to the writable config_mask only
 * then): elsewhere bits 47:40 and 36 are reserved and the write would #GP.
 */
static const struct {
	uint64_t bits;
	uint32_t cpuid;
	const char *what;
} evtsel_ext_rules[] = {
    {EVTSEL_UMASK2_MASK, PMEXT_UMASK2, "UMASK2 (PERFEVTSEL[47:40], perfmon UMaskExt)"},
    {EVTSEL_EQ, PMEXT_EQ, "EQ (PERFEVTSEL[36], perfmon Equal)"},
};

int plan_evtsel_ext_check(const struct pmu_plan *p, const struct pmu_event *ev, char *why,
			  size_t why_size)
{
	for (size_t i = 0; i < ARRAY_SIZE(evtsel_ext_rules); i++)
		if ((ev->evtsel & evtsel_ext_rules[i].bits) &&
		    !(p->evtsel_ext & evtsel_ext_rules[i].cpuid))
			return refuse(why, why_size,
				      "event '%s' sets %s, which this CPU does not enumerate "
				      "(CPUID.23H.0:EBX[%d] clear%s) "
				      "(accepted: events without UMASK2 and EQ: "
				      "no perfmon UMaskExt or Equal, no raw umask2= or eq)",
				      ev->name, evtsel_ext_rules[i].what,
				      lowest_bit(evtsel_ext_rules[i].cpuid),
				      p->evtsel_ext ? "" : " or leaf 23H absent");
	return 0;
}

int plan_add_count(struct pmu_plan *p, const struct pmu_event *ev, int user_idx, char *why,
		   size_t why_size)
{
	struct plan_count *c = &p->count[p->n_count];
	uint32_t allowed = plan_count_allowed(p, ev);
	uint64_t rsp_val = 0;
	char rule[160], words[64];
	int ctr, rsp;

	if (p->n_count >= PLAN_MAX_COUNT)
		return refuse(why, why_size, "too many counted events");
	if (plan_evtsel_ext_check(p, ev, why, why_size))
		return SESSION_REFUSED;
	if (ev->taken_alone) {
		const char *other = p->fl->records && p->sample.taken_alone ? p->sample.name : NULL;

		for (unsigned int i = 0; i < p->n_count; i++)
			if (p->count[i].ev.taken_alone)
				other = p->count[i].ev.name;
		if (other)
			return refuse(
			    why, why_size,
			    "events '%s' and '%s' are both TakenAlone in perfmon %s: "
			    "such an event is sampled or counted by itself (accepted: one "
			    "TakenAlone event per run)",
			    other, ev->name, perfmon_table_name(ev->pm_table));
	}
	if (ev->fixed >= 0) {
		if (!(p->fixed_mask & BIT_ULL(ev->fixed)))
			return refuse(why, why_size,
				      "event '%s' needs fixed counter %d; this PMU has "
				      "fixed counters 0x%x (CPUID.0AH, or 23H.1; 4 and up only "
				      "with PMU version 6, at IA32_PMC_FXn_CTR; accepted: an event "
				      "on a counter this CPU has)",
				      ev->name, ev->fixed, p->fixed_mask);
		if (ev->pm_name && !(ev->count_ctrs.fixed & BIT_ULL(ev->fixed))) {
			rule_words(ev, "Counter", rule, sizeof(rule));
			return refuse(why, why_size,
				      "event '%s': fixed counter %d is not in its %s (fixed mask "
				      "0x%x; accepted: an event its counter list allows)",
				      ev->name, ev->fixed, rule, ev->count_ctrs.fixed);
		}
		if (p->sample_ctr == 32 + ev->fixed)
			return refuse(why, why_size, "event '%s': fixed counter %d already samples",
				      ev->name, ev->fixed);
		ctr = 32 + ev->fixed;
	} else {
		ctr = plan_free_gp(p, allowed);
		if (ctr < 0) {
			if (ev->pm_name)
				rule_words(ev, "Counter", rule, sizeof(rule));
			else
				pp_snprintf(rule, sizeof(rule),
					    "no perfmon row; Linux core.c event constraints:");
			gp_words(allowed, words, sizeof(words));
			return refuse(why, why_size,
				      "event '%s': no free counter: %s %s; %u GP counters "
				      "(CPUID.0AH, or 23H.1), in use 0x%x",
				      ev->name, rule, words, p->n_gp, p->gp_used);
		}
		p->gp_used |= BIT_ULL(ctr);
		p->evtsel[ctr] = plan_count_evtsel(ev);
	}
	rsp = pmu_event_offcore_index(ev);
	if (ev->has_offcore) {
		if (rsp < 0)
			return refuse(why, why_size, "event '%s': unknown offcore-response event",
				      ev->name);
		if (p->use_rsp[rsp])
			return refuse(why, why_size, "event '%s': MSR_OFFCORE_RSP%d already in use",
				      ev->name, rsp);
		if (offcore_value(p, ev, rsp, &rsp_val, why, why_size))
			return SESSION_REFUSED;
		p->use_rsp[rsp] = true;
		p->rsp[rsp] = rsp_val;
	}
	if (ev->has_ldlat && ev->ldlat && p->use_ldlat && ev->ldlat != p->ldlat)
		return refuse(why, why_size, "event '%s': one load-latency threshold per run",
			      ev->name);
	c->ev = *ev;
	c->ctr = ctr;
	c->user_idx = user_idx;
	p->n_count++;
	return 0;
}

/*
 * The user's counted events, the most constrained first (fewest allowed
 * GP counters, core.c event constraints), so that an event tied to PMC0
 * is not crowded out by one that could go anywhere.  Each is read again
 * where it is placed (pure): four events on the stack would pass 1 KiB.
 */
int plan_add_user_counts(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
			 size_t why_size)
{
	struct pmu_event ev;
	int weight[SESSION_MAX_COUNT];
	unsigned int i, n = cfg->n_count_events;
	int w, r;

	for (i = 0; i < n; i++) {
		if (pmu_event_parse(p->pm, cfg->count_events[i], &ev, why, why_size))
			return SESSION_REFUSED;
		weight[i] = ev.fixed >= 0 ? 0 : __builtin_popcount(plan_count_allowed(p, &ev));
	}
	for (w = 0; w <= 32; w++)
		for (i = 0; i < n; i++) {
			if (weight[i] != w)
				continue;
			if (pmu_event_parse(p->pm, cfg->count_events[i], &ev, why, why_size))
				return SESSION_REFUSED;
			r = plan_add_count(p, &ev, (int)i, why, why_size);
			if (r)
				return r;
		}
	return 0;
}
