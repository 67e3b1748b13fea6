// SPDX-License-Identifier: MIT
/*
 * plan.c - request to MSR values, refusing what the generation forbids
 * before anything is written.  Rules cited beside each check: the SDM
 * (Vol. 3B chapter 18 sections), Linux arch/x86/events/intel/ds.c and
 * core.c (by function or table), kvm-unit-tests x86/pmu_pebs.c;
 * docs/PROGRAMMING.md lists them by rule.
 */
#include "plan.h"
#include "msr.h"
#include "extra_regs.h"
#include "snapshot.h"
#include "../lib/fmt.h"

/*
 * MSR_PEBS_DATA_CFG bits a legacy adaptive PEBS accepts (Linux
 * arch/x86/include/asm/perf_event.h PEBS_DATACFG_*; the counter snapshot
 * bits of format 6 from Linux e02e9b0374c3 "perf/x86/intel: Support PEBS
 * counters snapshotting").
 */
#define DATA_CFG_MEMINFO BIT_ULL(0)
#define DATA_CFG_GP	 BIT_ULL(1)
#define DATA_CFG_XMM	 BIT_ULL(2)
#define DATA_CFG_LBR	 BIT_ULL(3)
/* fmt 4/5: MEMINFO, GP, XMM, LBR, LBR entries [31:24]; the rest is reserved (#GP). */
#define DATA_CFG_KNOWN_FMT4 (GENMASK_ULL(3, 0) | GENMASK_ULL(31, 24))
/* fmt 6 adds the counter snapshot: CNTR 4, METRICS 5, GP mask [47:32], fixed [55:48]. */
#define DATA_CFG_KNOWN_FMT6 (GENMASK_ULL(5, 0) | GENMASK_ULL(31, 24) | GENMASK_ULL(55, 32))
/*
 * The groups a session sets up: MEMINFO, GP, XMM need nothing beyond
 * DATA_CFG.  LBR entries need the LBRs running (IA32_DEBUGCTL.LBR or
 * arch-LBR), which the session does not set up, so it refuses them rather
 * than arm records with empty groups.  Counter snapshots (CNTR, METRICS,
 * the counter masks) are left to plan_snapshot (pmu/snapshot.c), once the
 * counters are placed: it takes them where the CPU enumerates them.
 */
#define DATA_CFG_SET_UP (DATA_CFG_MEMINFO | DATA_CFG_GP | DATA_CFG_XMM)
/* Arch-PEBS: what plan_groups turns into CFG_C (AUX, GPR). */
#define DATA_CFG_SET_UP_ARCH (DATA_CFG_MEMINFO | DATA_CFG_GP)
/* MSR_PEBS_FRONTEND event: FRONTEND_RETIRED (core.c skl/icl/glc extra regs 0x01c6). */
#define FRONTEND_EVENT 0x01c6
/* Arch-PEBS capability bits: CPUID.23H.4:EBX is CFG_C[63:32] (Linux arch-PEBS, d21954c8a0ff). */
#define ARCH_CAP_GPR BIT_ULL(61 - 32)
#define ARCH_CAP_AUX BIT_ULL(62 - 32)
/*
 * Legacy counter writes sign-extend bit 31 (SDM Vol. 3B 18.9.3 "Full Width
 * Writes to Performance Counters"): a larger period cannot be written
 * (Linux core.c max_period (1ULL << 31) - 1).
 */
#define MAX_PERIOD 0x7fffffffULL

int plan_pebs_format(const struct cpu_info *ci)
{
	unsigned int f;

	if (uarch_arch_pebs(ci))
		return PEBS_FMT_ARCH;
	if (!ci->has_perf_caps)
		return -1;
	f = PERF_CAP_PEBS_FMT(ci->perf_caps);
	return f <= 6 ? (int)f : -1; /* Linux ds.c intel_ds_init: "no PEBS fmt%d" for others */
}

/* every refusal of the plan's files (plan.h) */
#define refuse plan_refuse
int plan_refuse(char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return SESSION_REFUSED;
}

static int lowest_bit(uint64_t m)
{
	return m ? __builtin_ctzll(m) : -1;
}

uint64_t plan_pebs_evtsel(const struct pmu_event *ev, bool adaptive)
{
	/*
	 * INT clear: a PEBS counter's overflow is the assist, not a PMI (SDM
	 * 18.4.4.1; Linux ds.c intel_pmu_pebs_enable clears it, kvm-unit-tests
	 * pebs_enable never sets it).
	 */
	return (ev->evtsel & ~EVTSEL_INT) | EVTSEL_EN | (ev->usr ? EVTSEL_USR : 0) |
	       (ev->os ? EVTSEL_OS : 0) | (adaptive ? EVTSEL_ADAPTIVE : 0);
}

static uint64_t count_evtsel(const struct pmu_event *ev)
{
	return (ev->evtsel & ~EVTSEL_INT) | EVTSEL_EN | (ev->usr ? EVTSEL_USR : 0) |
	       (ev->os ? EVTSEL_OS : 0);
}

static int default_sample(const struct pmu_plan *p, enum pebs_kind kind, struct pmu_event *ev,
			  char *why, size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	uint16_t code = 0;
	const char *what = "";
	bool ldlat = false, nonprecise = false;
	char text[48];

	if (uarch_kind_event(ua, kind, &code, &what)) {
		ldlat = kind == KIND_LDLAT;
	} else {
		/*
		 * The generation's PEBS instructions event: INST_RETIRED.ANY_P 0x00c0
		 * is no PEBS event on SNB..SKL (perfmon PEBS 0; ds.c lists only
		 * PREC_DIST 0x01c0, PMC1); Goldmont: the non-precise CORE_P (SDM Vol. 3B
		 * 18.7.1 "Processor Event Based Sampling (PEBS)").
		 */
		code = ua->flags & UA_NONPRECISE_PEBS ? ua->nonprecise_event : ua->inst_event;
		nonprecise = ua->flags & UA_NONPRECISE_PEBS;
		what = "instructions retired";
	}
	if (!code)
		return refuse(why, why_size, "%s: no such facility on %s", what, ua->name);
	/* Raw, so that its perfmon row (and the row's counters) is found by encoding. */
	pp_snprintf(text, sizeof(text), "event=0x%x,umask=0x%x", code & 0xff, code >> 8);
	if (pmu_event_parse(p->pm, text, ev, why, why_size))
		return SESSION_REFUSED;
	ev->has_ldlat = ldlat;
	if (nonprecise)
		ev->precise = false;
	return 0;
}

static int pebs_event_rules(const struct pmu_plan *p, const struct pmu_event *ev, char *why,
			    size_t why_size)
{
	const uint64_t flags = EVTSEL_ANY | EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK_MASK;

	/* The generation's rule, with its source (uarch_info.pebs_flags_src). */
	if ((ev->evtsel & flags) && p->ua->pebs_flags_src)
		return refuse(why, why_size,
			      "event '%s': PEBS needs AnyThread, Edge, Invert and CMask zero on %s "
			      "(%s; accepted: the event without any, e, i or c=)",
			      ev->name, p->ua->name, p->ua->pebs_flags_src);
	/*
	 * Everywhere, a memory kind: load latency needs CMASK and INV 0 (SDM
	 * Vol. 3B 18.8.1.2, 18.9.4.2), and Linux matches its load-latency,
	 * store and DataLA PEBS constraints (ds.c INTEL_PLD_CONSTRAINT,
	 * INTEL_PST_*, *_DATALA_*) with X86_ALL_EVENT_FLAGS zero: with them
	 * set the event is no memory event, its records no data source.
	 */
	if ((ev->evtsel & flags) && p->kind != KIND_OTHER)
		return refuse(
		    why, why_size,
		    "event '%s': a %s event needs AnyThread, Edge, Invert and CMask zero "
		    "(SDM Vol. 3B 18.9.4.2; Linux ds.c memory-event constraints match "
		    "X86_ALL_EVENT_FLAGS zero; accepted: the event without any, e, i or c=)",
		    ev->name, pebs_kind_name(p->kind));
	if (!ev->precise && !(p->ua->flags & UA_NONPRECISE_PEBS) && !p->baseline && !p->arch)
		return refuse(why, why_size,
			      "event '%s' is not PEBS-capable on %s (perfmon %s: PEBS, Precise and "
			      "CollectPEBSRecord all 0; accepted: an event with one of them set)",
			      ev->name, p->ua->name,
			      p->pm ? perfmon_table_name(p->pm) : "(no file)");
	return 0;
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
	uint32_t gp = (c	 ? c->gp
		       : p->arch ? 0xffffffffu
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
static int pick_sample_counter(struct pmu_plan *p, char *why, size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	const struct pmu_event *ev = &p->sample;
	uint32_t gp_all = p->gp_mask;
	uint32_t cpuid_gp = p->arch ? p->ci_arch_gp & gp_all : gp_all;
	uint32_t rule_gp, allowed, pdist;
	char rule[160], words[64], cpuid_words[64];
	const char *fb;

	if (ev->fixed >= 0) {
		uint32_t fx = p->arch ? p->ci_arch_fixed : (p->baseline ? ua->pebs_fixed : 0);

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
		if (!ev->pebs_list && !p->arch)
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
			      ev->name, rule, words,
			      p->arch ? "CPUID.23H.5:EAX" : "CPUID GP counters", cpuid_words);
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

static int choose_period(struct pmu_plan *p, uint64_t want, char *why, size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	bool inst_all =
	    (ua->flags & UA_INST_RETIRED_128) && pmu_event_code(&p->sample) == UA_HSW11_EVENT;
	uint64_t min = ua->min_period ? ua->min_period : 1;

	if (inst_all && min < 128)
		min = 128; /* HSW11/BDM11/BDM55: Linux core.c bdw_limit_period */
	/* Default: the minimum, but not below 32 (Atoms allow 1: one assist per event). */
	/*
	 * With full-width writes (IA32_PERF_CAPABILITIES.FW_WRITE, bit 13) the
	 * session writes the IA32_A_PMCx aliases: half the counter's width
	 * (Linux core.c intel_pmu_init: max_period = cntval_mask >> 1).  Not
	 * for arch-PEBS, whose reload value (CFG_C, pmu/msr.h) holds 32 bits.
	 */
	bool full = p->fw_write && !p->arch;
	uint64_t w = p->sample_width_mask;
	uint64_t max = full ? w >> 1 : MAX_PERIOD;

	p->period = want ? want : (min < 32 ? 32 : min);
	if (p->period < min)
		return refuse(why, why_size,
			      "period %llu below %llu, the minimum on %s (accepted: %llu..%llu)",
			      (unsigned long long)p->period, (unsigned long long)min, ua->name,
			      (unsigned long long)min, (unsigned long long)max);
	if (inst_all && (p->period & 0x3f))
		return refuse(why, why_size,
			      "period %llu: INST_RETIRED.ALL on %s needs the low 6 bits clear "
			      "(HSW11; accepted: a multiple of 64, %llu..%llu)",
			      (unsigned long long)p->period, ua->name, (unsigned long long)min,
			      (unsigned long long)max);
	if (full && p->period > max)
		return refuse(why, why_size,
			      "period %llu above %llu (full-width counter writes: half "
			      "the %u-bit %scounter; accepted: %llu..%llu)",
			      (unsigned long long)p->period, (unsigned long long)max,
			      (unsigned int)__builtin_popcountll(w),
			      p->sample_ctr >= 32 ? "fixed " : "", (unsigned long long)min,
			      (unsigned long long)max);
	if (!full && p->period > max)
		return refuse(why, why_size, "period %llu above %llu (%s; accepted: %llu..%llu)",
			      (unsigned long long)p->period, (unsigned long long)max,
			      p->arch ? "the arch-PEBS reload value holds 32 bits"
				      : "counter writes sign-extend bit 31: no full-width "
					"writes, IA32_PERF_CAPABILITIES bit 13 clear",
			      (unsigned long long)min, (unsigned long long)max);
	return 0;
}

/*
 * GP counters a counted event may use: its perfmon Counter field, else (no
 * perfmon row) the uarch table's counting constraints (Linux core.c
 * *_event_constraints), else any.
 */
static uint32_t count_allowed(const struct pmu_plan *p, const struct pmu_event *ev)
{
	if (ev->pm_name)
		return ev->count_ctrs.gp;
	return uarch_count_counters(p->ua, pmu_event_code(ev));
}

/* The lowest free GP counter among `allowed` (the event's counting constraint), -1 if none. */
static int free_gp(const struct pmu_plan *p, uint32_t allowed)
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

static int evtsel_ext_check(const struct pmu_plan *p, const struct pmu_event *ev, char *why,
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

static int add_count(struct pmu_plan *p, const struct pmu_event *ev, int user_idx, char *why,
		     size_t why_size)
{
	struct plan_count *c = &p->count[p->n_count];
	uint32_t allowed = count_allowed(p, ev);
	uint64_t rsp_val = 0;
	char rule[160], words[64];
	int ctr, rsp;

	if (p->n_count >= PLAN_MAX_COUNT)
		return refuse(why, why_size, "too many counted events");
	if (evtsel_ext_check(p, ev, why, why_size))
		return SESSION_REFUSED;
	if (ev->taken_alone) {
		const char *other = !p->count_only && p->sample.taken_alone ? p->sample.name : NULL;

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
		ctr = free_gp(p, allowed);
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
		p->evtsel[ctr] = count_evtsel(ev);
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
 * is not crowded out by one that could go anywhere.
 */
static int add_user_counts(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
			   size_t why_size)
{
	struct pmu_event evs[SESSION_MAX_COUNT];
	int weight[SESSION_MAX_COUNT];
	unsigned int i, n = cfg->n_count_events;
	int w, r;

	for (i = 0; i < n; i++) {
		if (pmu_event_parse(p->pm, cfg->count_events[i], &evs[i], why, why_size))
			return SESSION_REFUSED;
		weight[i] = evs[i].fixed >= 0 ? 0 : __builtin_popcount(count_allowed(p, &evs[i]));
	}
	for (w = 0; w <= 32; w++)
		for (i = 0; i < n; i++) {
			if (weight[i] != w)
				continue;
			r = add_count(p, &evs[i], (int)i, why, why_size);
			if (r)
				return r;
		}
	return 0;
}

static void compute_controls(struct pmu_plan *p)
{
	unsigned int i;
	int n = p->sample_ctr;

	/*
	 * Every fixed counter the CPU enumerates counts (0-2 INST_RETIRED.ANY,
	 * CORE, REF; 3 TOPDOWN.SLOTS; 4-6 on PMU v6 E-cores the topdown events
	 * of the model's perfmon file): OS|USR, no PMI, for results.json's
	 * "fixed".  v5+ enumerates them as a bitmap that may have holes
	 * (CPUID.0AH:ECX); writing an absent one raises #GP.
	 */
	for (i = 0; i < p->n_fixed; i++) {
		if (!(p->fixed_mask & BIT_ULL(i)))
			continue;
		p->fixed_used |= BIT_ULL(i);
		p->fixed_ctrl |= FIXED_CTRL_OS(i) | FIXED_CTRL_USR(i);
	}
	for (i = 0; i < p->n_count; i++)
		if (p->count[i].ctr >= 32) {
			unsigned int f = p->count[i].ctr - 32;

			p->fixed_used |= BIT_ULL(f);
			p->fixed_ctrl |= FIXED_CTRL_OS(f) | FIXED_CTRL_USR(f);
		}
	if (n >= 32) {
		unsigned int f = n - 32;

		p->fixed_used |= BIT_ULL(f);
		p->fixed_ctrl &= ~FIXED_CTRL_FIELD(f);
		/*
		 * PMI bit clear as for GP PEBS counters; adaptive bit 32+4i (Linux
		 * perf_event.h ICL_FIXED_0_ADAPTIVE; kvm-unit-tests: no adaptive
		 * record unless the counter's own bit is set too).
		 */
		p->fixed_ctrl |= (p->sample.os ? FIXED_CTRL_OS(f) : 0) |
				 (p->sample.usr ? FIXED_CTRL_USR(f) : 0) |
				 (p->adaptive ? FIXED_CTRL_ADAPTIVE(f) : 0);
		p->pebs_enable = PEBS_EN_FIXED(f);
	} else if (n >= 0) {
		p->gp_used |= BIT_ULL(n);
		p->evtsel[n] = plan_pebs_evtsel(&p->sample, p->adaptive);
		p->pebs_enable = PEBS_EN_PMC(n);
		/* LL_EN_PMCn before Ice Lake (SDM 18.9.4.2: 00000001.00000001H for PMC0) */
		if (p->kind == KIND_LDLAT && p->ua->layout == PEBS_EN_LAYOUT_LL_EN)
			p->pebs_enable |= PEBS_LL_EN(n);
		/* PS_EN (bit 63) with PMC3 for SNB/IVB precise store (SDM 18.9.4.3) */
		if (p->kind == KIND_STORE)
			p->pebs_enable |= PEBS_PS_EN;
	}
	p->global_ctrl = p->gp_used | ((uint64_t)p->fixed_used << 32);
}

static int plan_sample(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
		       size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	int r;

	if (cfg->sample_event) {
		if (pmu_event_parse(p->pm, cfg->sample_event, &p->sample, why, why_size))
			return SESSION_REFUSED;
		p->kind = uarch_event_kind(ua, pmu_event_code(&p->sample));
	} else {
		r = default_sample(p, cfg->kind, &p->sample, why, why_size);
		if (r)
			return r;
		p->kind = cfg->kind;
	}
	p->sample_precise = p->sample.precise;
	if (evtsel_ext_check(p, &p->sample, why, why_size))
		return SESSION_REFUSED;
	r = pebs_event_rules(p, &p->sample, why, why_size);
	if (r)
		return r;
	/*
	 * Keyed on the kind, not on how the event was written: a raw
	 * event=0xcd,umask=0x1 is load latency too and needs the threshold
	 * programmed (SDM Vol. 3B 18.9.4.2 "Load Latency Performance Monitoring
	 * Facility": minimum 3), never the firmware's leftover.
	 */
	if (p->sample.has_ldlat || p->kind == KIND_LDLAT) {
		if (!(ua->flags & UA_LDLAT))
			return refuse(why, why_size, "event '%s': no load-latency facility on %s",
				      p->sample.name, ua->name);
		p->use_ldlat = true;
		p->ldlat = p->sample.ldlat ? p->sample.ldlat : (cfg->ldlat ? cfg->ldlat : 3);
		/* SDM Vol. 3B 18.9.4.2: the smallest threshold MSR_PEBS_LD_LAT_THRESHOLD takes is 3
		 */
		if (p->ldlat < 3 || p->ldlat > 0xffff)
			return refuse(why, why_size,
				      "ldlat=%u: the load-latency threshold is 3..65535 "
				      "(SDM 18.9.4.2)",
				      p->ldlat);
	}
	if (!p->sample.has_frontend && (ua->flags & UA_FRONTEND) &&
	    pmu_event_code(&p->sample) == FRONTEND_EVENT)
		return refuse(why, why_size,
			      "event '%s': FRONTEND_RETIRED needs its "
			      "MSR_PEBS_FRONTEND value (frontend=0x..., or a perfmon "
			      "FRONTEND_RETIRED.* name)",
			      p->sample.name);
	if (p->sample.has_frontend) {
		if (!(ua->flags & UA_FRONTEND) || !ua->frontend_valid)
			return refuse(why, why_size, "event '%s': no MSR_PEBS_FRONTEND on %s",
				      p->sample.name, ua->name);
		if (p->sample.frontend & ~ua->frontend_valid)
			return refuse(why, why_size,
				      "event '%s': MSR_PEBS_FRONTEND value 0x%llx has "
				      "bits outside 0x%llx, the writable ones on %s",
				      p->sample.name, (unsigned long long)p->sample.frontend,
				      (unsigned long long)ua->frontend_valid, ua->name);
		p->use_frontend = true;
		p->frontend = p->sample.frontend;
	}
	if (p->sample.has_offcore)
		return refuse(why, why_size,
			      "event '%s': offcore-response events cannot be sampled "
			      "with PEBS",
			      p->sample.name);
	r = pick_sample_counter(p, why, why_size);
	if (r)
		return r;
	p->sample_width_mask = p->sample_ctr >= 32 ? p->fixed_width_mask : p->gp_width_mask;
	return choose_period(p, cfg->period, why, why_size);
}

static int plan_groups(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
		       size_t why_size)
{
	/*
	 * The memory-info group for the memory kinds, and for an event of kind
	 * "other" whose perfmon row says its record carries the data linear
	 * address (Data_LA: Tremont's MEM_UOPS_RETIRED.ALL_LOADS), which is
	 * where adaptive PEBS puts it (Linux ds.c setup_pebs_adaptive_sample_data).
	 */
	bool mem = p->kind != KIND_OTHER || p->sample.data_la;
	uint64_t known;

	if (p->arch) {
		uint64_t want = cfg->data_cfg & ~SNAP_DATA_CFG_BITS;

		if (want & ~DATA_CFG_SET_UP_ARCH)
			return refuse(
			    why, why_size,
			    "PEBS_DATA_CFG 0x%llx asks for groups this session does not set "
			    "up (arch-PEBS; accepted: MEMINFO and GP, 0x%llx, and counter "
			    "snapshots where enumerated)",
			    (unsigned long long)want, (unsigned long long)DATA_CFG_SET_UP_ARCH);

		/* AUX carries address, data source and latency; GPR the registers (d21954c8a0ff).
		 */
		p->cfg_c = CFG_C_RELOAD(-p->period) | CFG_C_EN;
		if ((mem || (want & DATA_CFG_MEMINFO)) && (p->ci_arch_caps & ARCH_CAP_AUX))
			p->cfg_c |= CFG_C_AUX;
		if ((want & DATA_CFG_GP) && (p->ci_arch_caps & ARCH_CAP_GPR))
			p->cfg_c |= CFG_C_GPR;
		return 0;
	}
	if (!p->baseline) {
		/*
		 * fmt 4/5 without baseline (a KVM guest: kvm-unit-tests e67ba872, KVM
		 * hides PEBS_BASELINE): basic 32-byte records only.
		 */
		p->rec_size = p->fmt >= 4 ? 32 : pebs_legacy_record_size(p->fmt);
		return 0;
	}
	known = p->fmt >= 6 ? DATA_CFG_KNOWN_FMT6 : DATA_CFG_KNOWN_FMT4;
	if (cfg->data_cfg & ~known)
		return refuse(why, why_size,
			      "PEBS_DATA_CFG 0x%llx has bits PEBS format %u does not "
			      "define (known: 0x%llx; counter snapshots need format 6)",
			      (unsigned long long)cfg->data_cfg, p->fmt, (unsigned long long)known);
	if (cfg->data_cfg & ~(DATA_CFG_SET_UP | SNAP_DATA_CFG_BITS))
		return refuse(why, why_size,
			      "PEBS_DATA_CFG 0x%llx asks for groups this session does not set up "
			      "(LBR entries need the LBRs on; accepted: MEMINFO, GP, XMM, 0x%llx, "
			      "and counter snapshots where enumerated)",
			      (unsigned long long)cfg->data_cfg,
			      (unsigned long long)DATA_CFG_SET_UP);
	p->adaptive = true;
	/* the counter-snapshot bits are plan_snapshot's, once the counters are placed */
	p->data_cfg = (cfg->data_cfg & ~SNAP_DATA_CFG_BITS) | (mem ? DATA_CFG_MEMINFO : 0);
	p->rec_size = pebs_adaptive_record_size(p->data_cfg);
	return 0;
}

static void plan_init(struct pmu_plan *p, const struct cpu_info *ci, const struct uarch_info *ua,
		      int fmt)
{
	memset(p, 0, sizeof(*p));
	p->ua = ua;
	p->pm = cpu_perfmon_table(ci);
	p->fmt = (unsigned int)fmt;
	p->arch = fmt == PEBS_FMT_ARCH;
	p->baseline = !p->arch && fmt >= 4 && (ci->perf_caps & PERF_CAP_PEBS_BASELINE);
	p->fw_write = ci->has_perf_caps && (ci->perf_caps & PERF_CAP_FW_WRITE);
	p->n_gp = ci->n_gp < PLAN_MAX_GP ? ci->n_gp : PLAN_MAX_GP;
	/* A cpu_info built without the bitmap (tests) has contiguous GP counters. */
	p->gp_mask = ci->gp_mask ? ci->gp_mask : (uint32_t)GENMASK_ULL(31, 0);
	p->gp_mask &= p->n_gp ? (uint32_t)GENMASK_ULL(p->n_gp - 1, 0) : 0;
	p->n_fixed =
	    ci->pmu_version > 1 ? (ci->n_fixed < PLAN_MAX_FIXED ? ci->n_fixed : PLAN_MAX_FIXED) : 0;
	/*
	 * The fixed counters that exist (pmu/cpu.c: ECX[i] || EDX[4:0] > i from
	 * v5, SDM Vol. 3B 20.2.5).  Every fixed counter the plan uses - the
	 * counting ones, a counted event's, the PEBS one - is checked against this mask,
	 * so fixed_used never names an absent one (it would #GP).  A cpu_info
	 * built without the bitmap (pre-v5 style) has contiguous fixed counters.
	 */
	p->fixed_mask = ci->fixed_mask ? ci->fixed_mask : (uint32_t)GENMASK_ULL(31, 0);
	p->fixed_mask &= p->n_fixed ? (uint32_t)GENMASK_ULL(p->n_fixed - 1, 0) : 0;
	/* fixed counters 4+ only where they have an address: PMU v6 (pmu/msr.h msr_fixed_ctr) */
	if (ci->pmu_version < 6)
		p->fixed_mask &= (uint32_t)GENMASK_ULL(MSR_FIXED_LEGACY_N - 1, 0);
	p->gp_width_mask = ci->gp_width ? GENMASK_ULL(ci->gp_width - 1, 0) : GENMASK_ULL(39, 0);
	/*
	 * Fixed counters have their own width, CPUID.0AH:EDX[12:5] (SDM Vol. 3B
	 * 20.2.2); Linux keeps one cntval_mask, so it never differs there, but a
	 * hypervisor may report it narrower.  No width enumerated: the GP one.
	 */
	p->fixed_width_mask = ci->fixed_width && ci->fixed_width < 64
				  ? GENMASK_ULL(ci->fixed_width - 1, 0)
				  : p->gp_width_mask;
	p->sample_ctr = -1;
	p->copy_idx = -1;
	p->ci_arch_gp = ci->arch_pebs_gp;
	p->ci_arch_fixed = ci->arch_pebs_fixed;
	p->ci_arch_caps = ci->arch_pebs_caps;
	p->evtsel_ext = ci->ext.valid ? ci->ext.evtsel_ext : 0;
	/* PDIST-capable counters: with arch-PEBS CPUID.23H.5 EBX/EDX; before, perfmon alone. */
	p->pdist_gp_ok = p->arch ? ci->arch_pebs_pdist_gp : (uint32_t)GENMASK_ULL(31, 0);
	p->pdist_fixed_ok = p->arch ? ci->arch_pebs_pdist_fixed : (uint32_t)GENMASK_ULL(31, 0);
	p->offcore_valid[0] = offcore_valid_mask(ua, ci, 0);
	p->offcore_valid[1] = offcore_valid_mask(ua, ci, 1);
}

int plan_build(const struct session_cfg *cfg, const struct cpu_info *ci, struct pmu_plan *p,
	       char *why, size_t why_size)
{
	const struct uarch_info *ua = uarch_for_cpu(ci);
	struct pmu_event ev;
	int r, fmt = plan_pebs_format(ci);

	if (!cfg->count_only && !pmu_pebs_usable(ci, why, why_size))
		return SESSION_SKIP;
	if (!ua || ci->vendor != VENDOR_INTEL || !ci->n_gp) {
		pp_snprintf(why, why_size, "no known Intel PMU to count with");
		return SESSION_SKIP;
	}
	if (!cpu_pebs_has_global_ctrl(ci, why, why_size))
		return SESSION_SKIP;
	plan_init(p, ci, ua, fmt < 0 ? 0 : fmt);
	p->count_only = cfg->count_only;
	if (cfg->n_count_events > SESSION_MAX_COUNT)
		return refuse(why, why_size, "%u counted events; at most %d", cfg->n_count_events,
			      SESSION_MAX_COUNT);
	/*
	 * IA32_PERF_GLOBAL_STATUS_SET exists from PMU version 4 (SDM 18.2.4.2),
	 * and a record after an overflow set through it is documented only for
	 * Goldmont's non-precise events (SDM Vol. 3B 18.7.1: "it may also be
	 * generated after an overflow is set by an MSR write to
	 * IA32_PERF_GLOBAL_STATUS_SET"); the row's UA_NONPRECISE_PEBS says which.
	 */
	if (cfg->force_records &&
	    (p->arch || p->count_only || ci->pmu_version < 4 || !(ua->flags & UA_NONPRECISE_PEBS)))
		return refuse(
		    why, why_size,
		    "forced PEBS records are documented only for Goldmont non-precise "
		    "events with legacy PEBS and IA32_PERF_GLOBAL_STATUS_SET (SDM 18.7.1; "
		    "this CPU: %s, PMU version %u)",
		    ua->name, ci->pmu_version);
	if (!p->count_only) {
		r = plan_sample(p, cfg, why, why_size);
		if (r)
			return r;
		if (cfg->force_records && p->sample_precise)
			return refuse(why, why_size,
				      "forced PEBS records are documented only for non-precise "
				      "events (SDM 18.7.1); %s is precise",
				      p->sample.name);
		if (p->sample_ctr < 32)
			p->gp_used |= BIT_ULL(p->sample_ctr);
		r = plan_groups(p, cfg, why, why_size);
		if (r)
			return r;
	}
	r = add_user_counts(p, cfg, why, why_size);
	if (r)
		return r;
	/*
	 * SPR/EMR/GLC: 0x8203 beside load latency for a complete data source
	 * (Linux core.c PMU_FL_MEM_LOADS_AUX, require_mem_loads_aux_event).
	 */
	if (!p->count_only && p->kind == KIND_LDLAT && (ua->flags & UA_MEM_LOADS_AUX)) {
		memset(&ev, 0, sizeof(ev));
		ev.fixed = -1;
		ev.usr = ev.os = true;
		ev.evtsel = ua->aux_event;
		pp_snprintf(ev.name, sizeof(ev.name), "mem-loads-aux (0x%x)", ua->aux_event);
		r = add_count(p, &ev, -1, why, why_size);
		if (r)
			return r;
	}
	/*
	 * A counting copy of the sampled event on a free counter: events / period
	 * is then checked against the records.  Not for facilities tied to one
	 * counter or one MSR (load latency, precise store, store latency), nor
	 * for a TakenAlone event (a second instance of it).
	 */
	if (!p->count_only && p->sample_ctr < 32 && !p->sample.has_ldlat && p->kind != KIND_LDLAT &&
	    p->kind != KIND_STORE && p->kind != KIND_STLAT && !p->sample.has_frontend &&
	    !p->sample.taken_alone && free_gp(p, count_allowed(p, &p->sample)) >= 0) {
		ev = p->sample;
		if (add_count(p, &ev, -1, why, why_size) == 0)
			p->copy_idx = (int)p->n_count - 1;
	}
	compute_controls(p);
	return plan_snapshot(p, cfg, why, why_size);
}
