// SPDX-License-Identifier: MIT
/*
 * session.c - one PEBS measurement: save every MSR to be touched, arm in
 * the documented order, run the kernel, disarm in the safe order, drain,
 * count, restore, free.  The plan (pmu/plan.c) has already refused what the
 * generation forbids, so from here on the only failures are #GP faults and
 * memory.  What differs between legacy PEBS, arch-PEBS and counting only is
 * the flavour's hooks (session_int.h, pebs_*.c), chosen once; the PMI is
 * pmi.c's.  Orders and their sources: docs/PROGRAMMING.md (kvm-unit-tests
 * x86/pmu_pebs.c pebs_enable/pebs_disable, pmu-tools simple-pebs, Linux
 * core.c intel_pmu_enable_all/disable_all, and where no source says it,
 * why this order).
 */
#include "session_int.h"
#include "msr.h"
#include "hw.h"
#include "handoff.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

static uint32_t pmc_msr(const struct sess *s, unsigned int i)
{
	/* Full-width alias when PERF_CAPABILITIES[13], else legacy 32-bit sign-extending writes. */
	return (s->plan.fw_write ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0) + i;
}

/* ---- save / restore ---------------------------------------------------- */

/*
 * A reload mask (IA32_PMC_*_CFG_B) left on a counter the session uses would
 * reload it whenever a counter it names overflows, and disabling a counter
 * does not clear it (Linux core.c intel_pmu_enable_acr; 6761bc1d3be5).  So
 * where CPUID.23H.2 says the counter may be reloaded (elsewhere a CFG_B write
 * can #GP, Linux 43796f305078) it is saved, zeroed before the counters are
 * programmed, and restored.  Counter c: GP n, or 32 + fixed n.
 */
static uint32_t acr_cfg_b(unsigned int c)
{
	return c >= 32 ? MSR_IA32_PMC_FX0_CFG_B + MSR_V6_STEP * (c - 32)
		       : MSR_IA32_PMC_GP0_CFG_B + MSR_V6_STEP * c;
}

static bool acr_cfg_b_used(const struct sess *s, unsigned int c)
{
	const struct pmu_plan *p = &s->plan;

	if (c >= 32)
		return (p->fixed_used & s->ci->ext.acr_fixed_reload) & BIT_ULL(c - 32);
	return (p->gp_used & s->ci->ext.acr_gp_reload) & BIT_ULL(c);
}

/*
 * The list of every MSR the session writes, GLOBAL_CTRL first so that the
 * reverse-order restore re-enables counters last.
 */
static void build_save_list(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	session_want_save(s, MSR_IA32_PERF_GLOBAL_CTRL, MSR_IA32_PERF_GLOBAL_CTRL);
	/*
	 * Read always (its freeze bit, arm()), written by arm() only when that
	 * bit was set, and written back always: before PMU v4 a PMI request
	 * with FREEZE_LBRS_ON_PMI freezes the LBRs by clearing DEBUGCTL.LBR
	 * (SDM Vol. 3B 17.4.7; v4 sets LBR_Frz instead, 17.10.2), so the
	 * value found is put back either way.
	 */
	session_want_save(s, MSR_IA32_DEBUGCTL, MSR_IA32_DEBUGCTL);
	if (s->ops->save_buffer)
		s->ops->save_buffer(s);
	if (p->use_ldlat)
		session_want_save(s, MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_LD_LAT_THRESHOLD);
	if (p->use_frontend)
		session_want_save(s, MSR_PEBS_FRONTEND, MSR_PEBS_FRONTEND);
	for (i = 0; i < 2; i++)
		if (p->use_rsp[i])
			session_want_save(s, MSR_OFFCORE_RSP0 + i, MSR_OFFCORE_RSP0 + i);
	if (p->fixed_used)
		session_want_save(s, MSR_IA32_FIXED_CTR_CTRL, MSR_IA32_FIXED_CTR_CTRL);
	/*
	 * While fixed counter 3 (SLOTS) counts, PERF_METRICS moves with it.
	 * Linux saves both and puts FIXED_CTR3 back before PERF_METRICS (core.c
	 * intel_update_topdown_event "The fixed counter 3 has to be written
	 * before the PERF_METRICS", icl_set_topdown_event_period); saved
	 * first here, it is restored after FIXED_CTR3.
	 */
	if ((p->fixed_used & BIT_ULL(3)) && s->ci->has_perf_caps &&
	    (s->ci->perf_caps & PERF_CAP_PERF_METRICS))
		session_want_save(s, MSR_PERF_METRICS, MSR_PERF_METRICS);
	/* fixed_used holds only counters CPUID.0AH enumerates (plan.c): never an absent one */
	for (i = 0; i < p->n_fixed; i++)
		if (p->fixed_used & BIT_ULL(i))
			session_want_save(s, msr_fixed_ctr(i), msr_fixed_ctr(i));
	for (i = 0; i < p->n_gp; i++) {
		if (!(p->gp_used & BIT_ULL(i)))
			continue;
		session_want_save(s, MSR_IA32_PERFEVTSEL0 + i, MSR_IA32_PERFEVTSEL0 + i);
		session_want_save(s, MSR_IA32_PMC0 + i, pmc_msr(s, i));
	}
	if (s->ops->save_config)
		s->ops->save_config(s);
	for (i = 0; i < 64; i++)
		if (acr_cfg_b_used(s, i))
			session_want_save(s, acr_cfg_b(i), acr_cfg_b(i));
}

static bool save_all(struct sess *s)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (!session_rd(s, s->save[i].rd, &s->save[i].val))
			return false;
	return session_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &s->orig_status);
}

/*
 * Safe disarm (Linux core.c intel_pmu_disable_all; docs/PROGRAMMING.md): GLOBAL_CTRL = 0 first
 * so no counter runs without its PEBS bit, then PEBS off (legacy: PEBS_ENABLE = 0; arch-PEBS:
 * the drain reads PEBS_INDEX, then clears it).  DS_AREA / PEBS_BASE are cleared by ops->clear.
 */
static void disarm(struct sess *s)
{
	session_wr_teardown(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (s->ops->disarm)
		s->ops->disarm(s);
}

/*
 * Acks the overflow bits this run caused; puts back ones that were set
 * before, through STATUS_SET (v4+), in one write of the bits it defines
 * (handoff_status_set_bits).  No source read here says whether it defines
 * 54, the arch-PEBS threshold (docs/SIM.md provenance): each other bit is
 * tried alone, and a #GP (trapped) leaves it clear for the hand-off check
 * to report, rather than failing the session or the write of the others.
 */
static void restore_status(struct sess *s)
{
	uint64_t now, back, defined;

	if (!session_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &now) &&
	    !session_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &now))
		return;
	if (now & ~s->orig_status)
		session_wr_teardown(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, now & ~s->orig_status);
	back = s->orig_status & ~now;
	defined = back & handoff_status_set_bits(s->ci);
	if (!back || s->ci->pmu_version < 4)
		return;
	if (defined)
		session_wr_teardown(s, MSR_IA32_PERF_GLOBAL_STATUS_SET, defined);
	for (unsigned int b = 0; b < 64; b++)
		if ((back & ~defined) & BIT_ULL(b))
			hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT_ULL(b));
}

static void restore_all(struct sess *s, unsigned int n_saved)
{
	unsigned int i = n_saved;

	/* Reverse order: counters and controls first, GLOBAL_CTRL (entry 0) last. */
	while (i--)
		session_wr_teardown(s, s->save[i].wr, s->save[i].val);
}

/* ---- arming ------------------------------------------------------------ */

uint64_t session_start_value(const struct sess *s)
{
	/* -period: the counter overflows after `period` events (the reset slot reloads it: Linux
	 * ds.c). */
	return (0 - s->plan.period) & s->plan.sample_width_mask;
}

static bool program_extra_regs(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	/* MSR_PEBS_LD_LAT_THRESHOLD[15:0] (SDM 18.9.4.2: minimum 3) */
	if (p->use_ldlat && !session_wr(s, MSR_PEBS_LD_LAT_THRESHOLD, p->ldlat))
		return false;
	if (p->use_frontend && !session_wr(s, MSR_PEBS_FRONTEND, p->frontend))
		return false;
	for (i = 0; i < 2; i++)
		if (p->use_rsp[i] && !session_wr(s, MSR_OFFCORE_RSP0 + i, p->rsp[i]))
			return false;
	return true;
}

/* Counters are written while disabled: GLOBAL_CTRL is 0 here (SDM 18.9.4 NOTE on PDIR). */
static bool program_counters(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	if (p->fixed_used) {
		if (!session_wr(s, MSR_IA32_FIXED_CTR_CTRL, 0))
			return false;
		for (i = 0; i < p->n_fixed; i++) {
			uint64_t v = (int)(32 + i) == p->sample_ctr ? session_start_value(s) : 0;

			if ((p->fixed_used & BIT_ULL(i)) && !session_wr(s, msr_fixed_ctr(i), v))
				return false;
		}
		if (!session_wr(s, MSR_IA32_FIXED_CTR_CTRL, p->fixed_ctrl))
			return false;
	}
	for (i = 0; i < p->n_gp; i++) {
		uint64_t v = (int)i == p->sample_ctr ? session_start_value(s) : 0;

		if (!(p->gp_used & BIT_ULL(i)))
			continue;
		/* EN clear while the counter value is written, then the full EVTSEL. */
		if (!session_wr(s, MSR_IA32_PERFEVTSEL0 + i, 0) ||
		    !session_wr(s, pmc_msr(s, i), v) ||
		    !session_wr(s, MSR_IA32_PERFEVTSEL0 + i, p->evtsel[i]))
			return false;
	}
	return true;
}

/*
 * The GLOBAL_STATUS bits left set before the session that would change what
 * it measures: the PEBS counter's overflow and the buffer bits (a record of
 * their own, see arm()), and on v4+ CTR_Frz / LBR_Frz: while CTR_Frz is set
 * every counter, counting ones too, stays frozen until software clears it
 * (SDM Vol. 3B 18.2.4.1; Linux core.c intel_pmu_reset acks the whole status
 * it reads).  Other counters' overflow bits change nothing: counting goes on.
 */
static uint64_t stale_status(const struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	uint64_t m = 0;

	if (s->ci->pmu_version >= 4)
		m |= GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ;
	m |= s->ops->stale_status;
	if (p->sample_ctr >= 0)
		m |= BIT_ULL(p->sample_ctr);
	return s->orig_status & m;
}

/*
 * GLOBAL_CTRL = 0 -> stale status acked -> DEBUGCTL's freeze bit -> the
 * flavour's buffer -> LD_LAT / FRONTEND / OFFCORE_RSP -> the flavour's
 * counter configuration -> counters and EVTSEL -> PEBS on -> GLOBAL_CTRL
 * last (docs/PROGRAMMING.md "Arming order"; pebs_ds.c, pebs_arch.c).
 */
static bool arm(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	uint64_t stale = stale_status(s), debugctl = session_saved(s, MSR_IA32_DEBUGCTL);
	unsigned int i;

	if (!session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return false;
	/*
	 * Status bits left set (stale_status()).  On the counter we arm for PEBS
	 * a pending bit makes a record of its own (SDM Vol. 3B 18.7.1: a record "may also
	 * be generated after an overflow is set by an MSR write to
	 * IA32_PERF_GLOBAL_STATUS_SET"), so clear them first (kvm-unit-tests
	 * reset_pebs acks GLOBAL_STATUS too).  restore_status() sets
	 * them back afterwards where STATUS_SET exists (v4+).
	 */
	if (stale && !session_wr(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, stale))
		return false;
	/*
	 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI left set by firmware: every PMI
	 * request freezes the counters (v4+: CTR_Frz; before: GLOBAL_CTRL
	 * cleared), in the PMU, so a masked LVTPC does not stop it (SDM Vol. 3B
	 * 18.2.4, 17.4.7 "Freezing LBR and Performance Counters on PMI").  The
	 * arch-PEBS threshold requests one even when polling: the run stopped
	 * counting there, short and self-consistent.  Linux never sets the bit
	 * (its v4 counter_freezing mode is gone).  Cleared for the session, put
	 * back by restore_all().  FREEZE_LBRS_ON_PMI stays: no LBR is used.
	 */
	if ((debugctl & DEBUGCTL_FREEZE_PERFMON_ON_PMI) &&
	    !session_wr(s, MSR_IA32_DEBUGCTL, debugctl & ~DEBUGCTL_FREEZE_PERFMON_ON_PMI))
		return false;
	if (s->ops->arm_buffer && !s->ops->arm_buffer(s))
		return false;
	if (!program_extra_regs(s))
		return false;
	if (s->ops->arm_config && !s->ops->arm_config(s))
		return false;
	for (i = 0; i < 64; i++)
		if (acr_cfg_b_used(s, i) && !session_wr(s, acr_cfg_b(i), 0))
			return false;
	if (!program_counters(s))
		return false;
	if (s->ops->arm_enable && !s->ops->arm_enable(s))
		return false;
	/*
	 * LVTPC unmasked only now: the firmware's counters are stopped and
	 * their status acked, ours programmed and not yet counting (pmi.c,
	 * pmi_setup; Linux intel_pmu_handle_irq unmasks after the status reset).
	 */
	pmi_unmask(s);
	return session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, p->global_ctrl);
}

/* Goldmont (SDM 18.7.1): a PEBS record forced by setting the overflow bit in STATUS_SET. */
static bool force_records(struct sess *s)
{
	uint32_t i;

	if (!s->cfg->force_records)
		return true;
	for (i = 0; i < s->cfg->force_records; i++)
		if (!session_wr(s, MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT_ULL(s->plan.sample_ctr)))
			return false;
	return s->ops->forced ? s->ops->forced(s) : true;
}

/* The counter MSR of plan index ctr: GP n (IA32_PMCn), or 32 + fixed n (pmu/msr.h). */
static uint32_t counter_msr(int ctr)
{
	return ctr >= 32 ? msr_fixed_ctr((unsigned int)(ctr - 32)) : MSR_IA32_PMC0 + (uint32_t)ctr;
}

/* ---- counting ---------------------------------------------------------- */

static void read_counts(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	struct session_result *r = s->res;
	uint64_t v;
	unsigned int i;
	int ctr;

	/*
	 * The fixed counters the plan programmed (compute_controls: every one
	 * CPUID.0AH enumerates, up to PLAN_MAX_FIXED).  From PMU version 5 the
	 * enumeration may have holes (SDM Vol. 3B 20.2.5: counter i exists if
	 * ECX[i] || EDX[4:0] > i), and reading an absent counter raises #GP.
	 */
	_Static_assert(ARRAY_SIZE(r->fixed) >= PLAN_MAX_FIXED, "session_result.fixed");
	for (i = 0; i < p->n_fixed; i++) {
		if (!(p->fixed_used & BIT_ULL(i)) || !session_rd(s, msr_fixed_ctr(i), &v))
			continue;
		r->fixed[i] = v;
		r->fixed_read |= BIT_ULL(i);
		r->n_fixed = i + 1;
	}
	for (i = 0; i < p->n_count; i++) {
		ctr = p->count[i].ctr;
		if (p->count[i].user_idx >= 0)
			r->count_counter[p->count[i].user_idx] = ctr;
		else if ((int)i == p->copy_idx)
			r->copy_counter = ctr;
		if (!session_rd(s, counter_msr(ctr), &v))
			continue;
		if (p->count[i].user_idx >= 0) {
			r->counts[p->count[i].user_idx] = v;
			pp_snprintf(r->count_desc[p->count[i].user_idx], sizeof(r->count_desc[0]),
				    "%s on %s%d", p->count[i].ev.name, ctr >= 32 ? "FIXED" : "PMC",
				    ctr >= 32 ? ctr - 32 : ctr);
		} else if ((int)i == p->copy_idx) {
			r->sampled_events = v;
			r->counted_sample = true;
		}
	}
	if (p->sample_ctr < 0 || r->counted_sample)
		return;
	/* No counting copy: what the PEBS counter holds beyond -period (records added later). */
	ctr = p->sample_ctr;
	if (session_rd(s, counter_msr(ctr), &v))
		s->residue = (v - session_start_value(s)) & p->sample_width_mask;
}

/* ---- the session ------------------------------------------------------- */

static int run_armed(struct sess *s, void (*kernel)(void *arg), void *arg)
{
	unsigned int n_saved;
	bool cleared;

	/*
	 * The flavour's refusals read this CPU's MSRs: DEBUGCTL and DS_AREA are
	 * per logical processor (SDM Vol. 3B 17.4.9), so the CPU measured is
	 * the one asked, not the boot CPU.
	 */
	if (s->ops->check) {
		int r = s->ops->check(s, s->armed_why, sizeof(s->armed_why));

		if (r)
			return r;
	}
	build_save_list(s);
	if (!save_all(s))
		return SESSION_FAULT; /* nothing written yet */
	n_saved = s->n_save;
	if (!pmi_setup(s)) {
		/* pmi_setup says why where the APIC refused the vector (armed_why) */
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "cannot install the PMI handler");
		return SESSION_SKIP;
	}
	if (arm(s) && force_records(s))
		kernel(arg);
	s->disarming = true;
	disarm(s);
	if (!s->faulted)
		read_counts(s);
	if (s->ops->drain)
		s->ops->drain(s);
	pmi_teardown(s);
	/* The PMI handler's lines, now that no PMI can come (normal path). */
	report_flush_deferred("the PMI handler");
	cleared = s->ops->clear ? s->ops->clear(s) : true;
	restore_status(s);
	pmi_restore_lvtpc(s);
	restore_all(s, n_saved);
	/*
	 * Freed by session_run() on the BSP, not here: this may run on an AP,
	 * which may call no boot service (PI spec Vol. 2 13.4); FreePages there
	 * raced the BSP in DxeCore's event queue (a #PF in CoreRestoreTpl).
	 * Never freed while the hardware may still write to it.
	 */
	if (!cleared) {
		s->buffer_held = true;
		pp_snprintf(s->fault_what, sizeof(s->fault_what),
			    "DS_AREA/PEBS_BASE could not be cleared: PEBS buffer left allocated");
		s->faulted = true;
	}
	return s->faulted ? SESSION_FAULT : 0;
}

static void armed_on_cpu(void *p)
{
	struct armed_call *a = p;

	a->rc = run_armed(a->s, a->kernel, a->arg);
}

/*
 * Three parts: prepare on the BSP (plan, DS area, PEBS buffer, result
 * buffers: every allocation), the armed part on ci->cpu (cpurun_run(): its
 * own MSRs, its own DS area, the kernel, drain, restore), finish on the
 * BSP (the result, freeing).
 */
int session_run(const struct session_cfg *cfg, void (*kernel)(void *arg), void *arg,
		struct session_result *res, char *why, size_t why_size)
{
	struct sess *s;
	int r;

	memset(res, 0, sizeof(*res));
	res->pebs_counter = -1;
	res->copy_counter = -1;
	if (!cfg->ci) {
		pp_snprintf(why, why_size, "no CPU description");
		return SESSION_REFUSED;
	}
	/* Too big for a firmware stack; never shared: a CPU that timed out may still use it. */
	s = plat_alloc(sizeof(*s));
	if (!s) {
		pp_snprintf(why, why_size, "no memory for the session");
		return SESSION_NOMEM;
	}
	memset(s, 0, sizeof(*s));
	s->cfg_copy = *cfg;
	s->cfg = &s->cfg_copy;
	s->ci = cfg->ci;
	s->res = &s->res_own;
	s->res_own.pebs_counter = -1;
	s->res_own.copy_counter = -1;
	s->call.s = s;
	s->call.kernel = kernel;
	s->call.arg = arg;
	r = plan_build(cfg, cfg->ci, &s->plan, why, why_size);
	/* The hooks of the flavour plan_build chose (pebs_flavour.h). */
	s->ops = s->plan.fl->ops;
	if (!r && s->ops->alloc)
		r = s->ops->alloc(s, (cfg->buffer_kib ? cfg->buffer_kib : 64) * 1024ULL, why,
				  why_size);
	if (!r)
		r = session_result_alloc(s, why, why_size);
	if (r)
		goto out;
	r = cpurun_run(cfg->ci->cpu, armed_on_cpu, &s->call, cfg->cpu_timeout_us, cfg->bsp_idle,
		       cfg->bsp_idle_arg);
	/* Whatever the other CPU printed, on the normal path now. */
	report_flush_deferred("the measured CPU");
	if (r == CPU_RUN_TIMEOUT) {
		/* It may still run: its session, buffers and results stay allocated (in s). */
		pp_snprintf(why, why_size,
			    "CPU %u did not return within %llu ms: left running, its buffers "
			    "left allocated",
			    cfg->ci->cpu, (unsigned long long)(cfg->cpu_timeout_us / 1000));
		return SESSION_TIMEOUT;
	}
	if (r) {
		pp_snprintf(why, why_size, "CPU %u could not be started (MP services)",
			    cfg->ci->cpu);
		r = SESSION_NO_CPU;
		goto out;
	}
	r = s->call.rc;
	session_result_finish(s);
	if (r && s->armed_why[0])
		pp_snprintf(why, why_size, "%s", s->armed_why);
	else if (!r)
		r = pmi_verdict(s, why, why_size);
	else
		pp_snprintf(why, why_size, "%s; every MSR touched was restored", s->fault_what);
out:
	if (s->ops->free)
		s->ops->free(s);
	/* On any failure no records are handed out (counts stay, for offcore.c). */
	if (r)
		session_result_free(&s->res_own);
	*res = s->res_own;
	plat_free(s);
	return r;
}
