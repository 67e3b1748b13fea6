// SPDX-License-Identifier: MIT
/*
 * plan.c - request to MSR values, refusing what the generation forbids
 * before anything is written.  Rules cited beside each check: the SDM
 * (Vol. 3B chapter 18 sections), Linux arch/x86/events/intel/ds.c and
 * core.c (by function or table), kvm-unit-tests x86/pmu_pebs.c;
 * docs/PROGRAMMING.md lists them by rule.
 */
#include "plan_int.h"
#include "msr.h"
#include "extra_regs.h"
#include "guest.h"
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
 * the counter masks) are left to snapshot_plan (pmu/snapshot.c), once the
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
int plan_refuse(char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return SESSION_REFUSED;
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
	if (!ev->precise && !(p->ua->flags & UA_NONPRECISE_PEBS) && !p->baseline &&
	    !p->fl->cpuid_counters)
		return refuse(why, why_size,
			      "event '%s' is not PEBS-capable on %s (perfmon %s: PEBS, Precise and "
			      "CollectPEBSRecord all 0; accepted: an event with one of them set)",
			      ev->name, p->ua->name,
			      p->pm ? perfmon_table_name(p->pm) : "(no file)");
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
	 * for a flavour whose reload value has a width of its own (arch-PEBS:
	 * CFG_C, pmu/msr.h, holds 32 bits).
	 */
	bool full = p->fw_write && !p->fl->reload_bits;
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
	if (!full && p->fl->reload_bits && p->period > max)
		return refuse(why, why_size,
			      "period %llu above %llu (the %s reload value holds %u bits; "
			      "accepted: %llu..%llu)",
			      (unsigned long long)p->period, (unsigned long long)max, p->fl->name,
			      p->fl->reload_bits, (unsigned long long)min, (unsigned long long)max);
	if (!full && p->period > max)
		return refuse(why, why_size,
			      "period %llu above %llu (counter writes sign-extend bit 31: no "
			      "full-width writes, IA32_PERF_CAPABILITIES bit 13 clear; "
			      "accepted: %llu..%llu)",
			      (unsigned long long)p->period, (unsigned long long)max,
			      (unsigned long long)min, (unsigned long long)max);
	return 0;
}

static int plan_sample(struct pmu_plan *p, const struct session_cfg *cfg, char *why,
		       size_t why_size)
{
	const struct uarch_info *ua = p->ua;
	int r;

	if (cfg->sample_spec || cfg->sample_event) {
		if (cfg->sample_spec
			? pmu_event_resolve(p->pm, cfg->sample_spec, &p->sample, why, why_size)
			: pmu_event_parse(p->pm, cfg->sample_event, &p->sample, why, why_size))
			return SESSION_REFUSED;
		p->kind = uarch_event_kind(ua, pmu_event_code(&p->sample));
	} else {
		r = default_sample(p, cfg->kind, &p->sample, why, why_size);
		if (r)
			return r;
		p->kind = cfg->kind;
	}
	p->sample_precise = p->sample.precise;
	if (plan_evtsel_ext_check(p, &p->sample, why, why_size))
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
		/* A guest whose hypervisor handles no 3F6H: a SKIP naming it (pmu/guest.c). */
		if (guest_takes(cfg->ci, GUEST_LOSS_LDLAT, why, why_size))
			return SESSION_SKIP;
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
		if (guest_takes(cfg->ci, GUEST_LOSS_FRONTEND, why, why_size))
			return SESSION_SKIP;
		p->use_frontend = true;
		p->frontend = p->sample.frontend;
	}
	if (p->sample.has_offcore)
		return refuse(why, why_size,
			      "event '%s': offcore-response events cannot be sampled "
			      "with PEBS",
			      p->sample.name);
	r = plan_pick_sample_counter(p, why, why_size);
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

	if (p->fl->groups == PEBS_GROUPS_CFG_C) {
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
	/* the counter-snapshot bits are snapshot_plan's, once the counters are placed */
	p->data_cfg = (cfg->data_cfg & ~SNAP_DATA_CFG_BITS) | (mem ? DATA_CFG_MEMINFO : 0);
	p->rec_size = pebs_adaptive_record_size(p->data_cfg);
	return 0;
}

static void plan_init(struct pmu_plan *p, const struct cpu_info *ci, const struct uarch_info *ua,
		      int fmt)
{
	const struct pebs_flavour *fl = p->fl;

	memset(p, 0, sizeof(*p));
	p->fl = fl;
	p->ua = ua;
	p->pm = cpu_perfmon_table(ci);
	p->fmt = (unsigned int)fmt;
	p->baseline = fmt != PEBS_FMT_ARCH && fmt >= 4 && (ci->perf_caps & PERF_CAP_PEBS_BASELINE);
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
	p->pdist_gp_ok = p->fl->cpuid_pdist ? ci->arch_pebs_pdist_gp : (uint32_t)GENMASK_ULL(31, 0);
	p->pdist_fixed_ok =
	    p->fl->cpuid_pdist ? ci->arch_pebs_pdist_fixed : (uint32_t)GENMASK_ULL(31, 0);
	p->offcore_valid[0] = extra_regs_offcore_valid_mask(ua, ci, 0);
	p->offcore_valid[1] = extra_regs_offcore_valid_mask(ua, ci, 1);
}

int plan_build(const struct session_cfg *cfg, const struct cpu_info *ci, struct pmu_plan *p,
	       char *why, size_t why_size)
{
	const struct uarch_info *ua = uarch_for_cpu(ci);
	struct pmu_event ev;
	int r, fmt = plan_pebs_format(ci);

	/* The flavour, once, before any refusal: the session takes its hooks from it. */
	p->fl = pebs_flavour_of_session(ci, cfg->count_only);
	if (p->fl->records && !pmu_pebs_usable(ci, why, why_size))
		return SESSION_SKIP;
	if (!ua || ci->vendor != VENDOR_INTEL || !ci->n_gp) {
		pp_snprintf(why, why_size, "no known Intel PMU to count with");
		return SESSION_SKIP;
	}
	if (!cpu_pebs_has_global_ctrl(ci, why, why_size))
		return SESSION_SKIP;
	plan_init(p, ci, ua, fmt < 0 ? 0 : fmt);
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
	    (!p->fl->forced_records || ci->pmu_version < 4 || !(ua->flags & UA_NONPRECISE_PEBS)))
		return refuse(
		    why, why_size,
		    "forced PEBS records are documented only for Goldmont non-precise "
		    "events with legacy PEBS and IA32_PERF_GLOBAL_STATUS_SET (SDM 18.7.1; "
		    "this CPU: %s, PMU version %u)",
		    ua->name, ci->pmu_version);
	if (p->fl->records) {
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
	r = plan_add_user_counts(p, cfg, why, why_size);
	if (r)
		return r;
	/*
	 * SPR/EMR/GLC: 0x8203 beside load latency for a complete data source
	 * (Linux core.c PMU_FL_MEM_LOADS_AUX, require_mem_loads_aux_event).
	 */
	if (p->fl->records && p->kind == KIND_LDLAT && (ua->flags & UA_MEM_LOADS_AUX)) {
		memset(&ev, 0, sizeof(ev));
		ev.fixed = -1;
		ev.usr = ev.os = true;
		ev.evtsel = ua->aux_event;
		pp_snprintf(ev.name, sizeof(ev.name), "mem-loads-aux (0x%x)", ua->aux_event);
		r = plan_add_count(p, &ev, -1, why, why_size);
		if (r)
			return r;
	}
	/*
	 * A counting copy of the sampled event on a free counter: events / period
	 * is then checked against the records.  Not for facilities tied to one
	 * counter or one MSR (load latency, precise store, store latency), nor
	 * for a TakenAlone event (a second instance of it).
	 */
	if (p->fl->records && p->sample_ctr < 32 && !p->sample.has_ldlat && p->kind != KIND_LDLAT &&
	    p->kind != KIND_STORE && p->kind != KIND_STLAT && !p->sample.has_frontend &&
	    !p->sample.taken_alone && plan_free_gp(p, plan_count_allowed(p, &p->sample)) >= 0) {
		ev = p->sample;
		if (plan_add_count(p, &ev, -1, why, why_size) == 0)
			p->copy_idx = (int)p->n_count - 1;
	}
	plan_compute_controls(p);
	return snapshot_plan(p, cfg, why, why_size);
}
