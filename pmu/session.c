// SPDX-License-Identifier: MIT
/*
 * session.c - one PEBS measurement: save every MSR to be touched, arm in
 * the documented order, run the kernel, disarm in the safe order, drain,
 * count, restore, free.  The plan (pmu/plan.c) has already refused what the
 * generation forbids, so from here on the only failures are #GP faults and
 * memory.  Orders and their sources: docs/PROGRAMMING.md (kvm-unit-tests
 * x86/pmu_pebs.c pebs_enable/pebs_disable, pmu-tools simple-pebs, Linux
 * core.c intel_pmu_enable_all/disable_all, and where no source says it,
 * why this order).
 */
#include "session.h"
#include "msr.h"
#include "hw.h"
#include "plan.h"
#include "snapshot.h"
#include "../ds/ds.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

#define SAVE_MAX      96
#define PMI_VECTOR    0xee /* our own IDT vector for LVTPC (Linux uses NMI; kvm-unit-tests 32) */
#define PMI_MAX_LOOPS 100  /* Linux intel_pmu_handle_irq: "irq loop stuck" after 100 */

struct msr_save {
	uint32_t rd, wr; /* the MSR read, and the one written back (full-width alias) */
	uint64_t val;
};

struct sess;

/* The armed part, on the measured CPU: no firmware call from here on (cpurun.h). */
struct armed_call {
	struct sess *s;
	void (*kernel)(void *arg);
	void *arg;
	int rc;
};

struct sess {
	const struct session_cfg *cfg;
	const struct cpu_info *ci;
	struct pmu_plan plan;
	struct session_result *res;
	struct ds_area ds;
	bool have_ds;
	struct msr_save save[SAVE_MAX];
	unsigned int n_save;
	bool faulted;
	char fault_what[80];
	uint64_t orig_status;
	bool armed_pmi;
	bool masked_lvtpc; /* arch-PEBS polling: LVTPC masked for the session */
	uint32_t orig_lvtpc;
	unsigned int pmi_stuck;
	bool pmi_latched; /* teardown_pmi could not clear the vector's IRR/ISR bit */
	size_t forced;	  /* records present right after the forced overflows */
	size_t res_cap, kinds_cap;
	uint64_t dropped; /* records drained but not kept: the result buffer was full */
	bool disarming;	  /* set before disarm(): a late PMI must not re-enable counters */
	uint64_t residue; /* PEBS counter's count past its last reload */
	/*
	 * What the measured CPU reads and writes lives here, not on the
	 * caller's stack: a CPU that did not return in time may still use it
	 * after session_run() is back (the caller's result gets a copy).
	 */
	struct session_cfg cfg_copy;
	struct session_result res_own;
	struct armed_call call;
};

/* ---- MSR access: every fault recorded, never ignored -------------------- */

static bool sess_rd(struct sess *s, uint32_t msr, uint64_t *v)
{
	if (hw_rdmsr(msr, v) == HW_OK)
		return true;
	if (!s->faulted)
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "#GP on rdmsr 0x%x", msr);
	s->faulted = true;
	return false;
}

static bool sess_wr(struct sess *s, uint32_t msr, uint64_t v)
{
	if (hw_wrmsr(msr, v) == HW_OK)
		return true;
	if (!s->faulted)
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "#GP on wrmsr 0x%x <- 0x%llx",
			    msr, (unsigned long long)v);
	s->faulted = true;
	return false;
}

/* Teardown writes: one retry, so a single transient fault cannot leave state behind. */
static bool sess_wr_teardown(struct sess *s, uint32_t msr, uint64_t v)
{
	return sess_wr(s, msr, v) || sess_wr(s, msr, v);
}

static uint32_t pmc_msr(const struct sess *s, unsigned int i)
{
	/* Full-width alias when PERF_CAPABILITIES[13], else legacy 32-bit sign-extending writes. */
	return (s->plan.fw_write ? MSR_IA32_A_PMC0 : MSR_IA32_PMC0) + i;
}

static uint32_t cfg_c_msr_of(int ctr)
{
	return ctr >= 32 ? MSR_IA32_PMC_FX0_CFG_C + MSR_V6_STEP * (ctr - 32)
			 : MSR_IA32_PMC_GP0_CFG_C + MSR_V6_STEP * ctr;
}

static uint32_t cfg_c_msr(const struct pmu_plan *p)
{
	return cfg_c_msr_of(p->sample_ctr);
}

/*
 * Arch-PEBS counter-snapshot group (pmu/snapshot.h): every member but the
 * PEBS counter gets CFG_C = CNTR_ALLOW (Linux core.c
 * intel_pmu_enable_event_ext sets it on each event of the group).
 */
static bool write_snapshot_cfg_c(struct sess *s)
{
	for (unsigned int c = 0; c < 64; c++)
		if (snapshot_other_counter(&s->plan, c) &&
		    !sess_wr(s, cfg_c_msr_of((int)c), CFG_C_CNTR_ALLOW))
			return false;
	return true;
}

/* ---- save / restore ---------------------------------------------------- */

static void want_save(struct sess *s, uint32_t rd, uint32_t wr)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (s->save[i].rd == rd)
			return;
	if (s->n_save < SAVE_MAX) {
		s->save[s->n_save].rd = rd;
		s->save[s->n_save].wr = wr;
		s->n_save++;
	}
}

/*
 * The list of every MSR the session writes, GLOBAL_CTRL first so that the
 * reverse-order restore re-enables counters last.
 */
static void build_save_list(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	want_save(s, MSR_IA32_PERF_GLOBAL_CTRL, MSR_IA32_PERF_GLOBAL_CTRL);
	/* Read always (its freeze bit, arm()); written only when that bit was set. */
	want_save(s, MSR_IA32_DEBUGCTL, MSR_IA32_DEBUGCTL);
	if (!p->count_only) {
		if (p->arch) {
			/* Restored in reverse: PEBS_BASE before PEBS_INDEX, as Linux programs them
			 * (arch-PEBS series init_arch_pebs_on_cpu). */
			want_save(s, MSR_IA32_PEBS_INDEX, MSR_IA32_PEBS_INDEX);
			want_save(s, MSR_IA32_PEBS_BASE, MSR_IA32_PEBS_BASE);
		} else {
			want_save(s, MSR_IA32_PEBS_ENABLE, MSR_IA32_PEBS_ENABLE);
			want_save(s, MSR_IA32_DS_AREA, MSR_IA32_DS_AREA);
			if (p->baseline)
				want_save(s, MSR_PEBS_DATA_CFG, MSR_PEBS_DATA_CFG);
		}
	}
	if (p->use_ldlat)
		want_save(s, MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_LD_LAT_THRESHOLD);
	if (p->use_frontend)
		want_save(s, MSR_PEBS_FRONTEND, MSR_PEBS_FRONTEND);
	for (i = 0; i < 2; i++)
		if (p->use_rsp[i])
			want_save(s, MSR_OFFCORE_RSP0 + i, MSR_OFFCORE_RSP0 + i);
	if (p->fixed_used)
		want_save(s, MSR_IA32_FIXED_CTR_CTRL, MSR_IA32_FIXED_CTR_CTRL);
	/* fixed_used holds only counters CPUID.0AH enumerates (plan.c): never an absent one */
	for (i = 0; i < p->n_fixed; i++)
		if (p->fixed_used & BIT_ULL(i))
			want_save(s, msr_fixed_ctr(i), msr_fixed_ctr(i));
	for (i = 0; i < p->n_gp; i++) {
		if (!(p->gp_used & BIT_ULL(i)))
			continue;
		want_save(s, MSR_IA32_PERFEVTSEL0 + i, MSR_IA32_PERFEVTSEL0 + i);
		want_save(s, MSR_IA32_PMC0 + i, pmc_msr(s, i));
	}
	if (p->arch && p->sample_ctr >= 0)
		want_save(s, cfg_c_msr(p), cfg_c_msr(p));
	for (i = 0; i < 64; i++)
		if (snapshot_other_counter(p, i))
			want_save(s, cfg_c_msr_of((int)i), cfg_c_msr_of((int)i));
}

static bool save_all(struct sess *s)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (!sess_rd(s, s->save[i].rd, &s->save[i].val))
			return false;
	return sess_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &s->orig_status);
}

/*
 * Safe disarm (Linux core.c intel_pmu_disable_all; docs/PROGRAMMING.md): GLOBAL_CTRL = 0 first
 * so no counter runs without its PEBS bit, then PEBS_ENABLE = 0 (arch-PEBS:
 * PEBS_INDEX.EN = 0).  DS_AREA / PEBS_BASE are cleared in clear_buffers().
 */
static void disarm(struct sess *s)
{
	sess_wr_teardown(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (s->plan.count_only)
		return;
	if (s->plan.arch)
		return; /* PEBS_INDEX is read by the drain, then cleared */
	sess_wr_teardown(s, MSR_IA32_PEBS_ENABLE, 0);
}

/* Clears what points at our memory; true only if all of it is confirmed clear. */
static bool clear_buffers(struct sess *s)
{
	bool ok = true;

	if (s->plan.count_only)
		return true;
	if (s->plan.arch) {
		ok &= sess_wr_teardown(s, MSR_IA32_PEBS_INDEX, 0);
		ok &= sess_wr_teardown(s, MSR_IA32_PEBS_BASE, 0);
	} else {
		ok &= sess_wr_teardown(s, MSR_IA32_PEBS_ENABLE, 0);
		ok &= sess_wr_teardown(s, MSR_IA32_DS_AREA, 0);
	}
	return ok;
}

static uint64_t saved_value(const struct sess *s, uint32_t msr)
{
	unsigned int i;

	for (i = 0; i < s->n_save; i++)
		if (s->save[i].rd == msr)
			return s->save[i].val;
	return 0;
}

/* Acks the overflow bits this run caused; puts back ones that were set before (v4+ STATUS_SET). */
static void restore_status(struct sess *s)
{
	uint64_t now;

	if (!sess_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &now) &&
	    !sess_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &now))
		return;
	if (now & ~s->orig_status)
		sess_wr_teardown(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, now & ~s->orig_status);
	if ((s->orig_status & ~now) && s->ci->pmu_version >= 4)
		sess_wr_teardown(s, MSR_IA32_PERF_GLOBAL_STATUS_SET, s->orig_status & ~now);
}

static void restore_all(struct sess *s, unsigned int n_saved)
{
	unsigned int i = n_saved;

	/* Reverse order: counters and controls first, GLOBAL_CTRL (entry 0) last. */
	while (i--)
		sess_wr_teardown(s, s->save[i].wr, s->save[i].val);
}

/* ---- arming ------------------------------------------------------------ */

static uint64_t start_value(const struct sess *s)
{
	/* -period: the counter overflows after `period` events (the reset slot reloads it: Linux
	 * ds.c). */
	return (0 - s->plan.period) & s->plan.sample_width_mask;
}

/*
 * Records kept free past the interrupt threshold (drain=pmi).  The SDM wants
 * the threshold "several records short of the PEBS absolute maximum address
 * to allow a pending interrupt to be handled prior to processor writing the
 * PEBS absolute maximum record" (Vol. 3B 17.4.9 "BTS and DS Save Area");
 * the threshold only requests the PMI, records are still written up to the
 * absolute maximum, and past it "No signaling is generated when PEBS buffer
 * is full" (18.8.1, Nehalem PEBS, "PEBS Absolute Maximum").  Linux ds.c
 * pebs_update_threshold reserves intel_pmu_max_num_pebs records: fls of
 * pebs_events_mask, which core.c makes every GP counter (intel_pmu_pebs_mask
 * of the counter mask), not only those that can PEBS (Goldmont: 4), plus,
 * with PEBS_ALL (baseline, ICL on), the fixed counters (fls of their mask).
 */
unsigned int session_pmi_reserve(const struct cpu_info *ci, bool baseline)
{
	return ci->n_gp + (baseline ? ci->n_fixed : 0);
}

static void fill_ds(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	size_t thr = 0, reserve;
	size_t n;

	if (s->cfg->drain == PEBS_DRAIN_PMI) {
		/*
		 * Default: that many records short of the maximum; a buffer too
		 * small for it interrupts after every record (Linux: base + one
		 * record when not every event is large PEBS).
		 */
		n = s->ds.buf_size / p->rec_size;
		reserve = session_pmi_reserve(s->ci, p->baseline);
		thr = s->cfg->threshold_records ? s->cfg->threshold_records
						: (n > reserve ? n - reserve : 1);
	}
	ds_setup(&s->ds, p->rec_size, thr);
	if (p->sample_ctr >= 32)
		ds_set_reset(&s->ds, ds_fixed_reset_index(p->fmt, p->sample_ctr - 32),
			     start_value(s));
	else
		ds_set_reset(&s->ds, p->sample_ctr, start_value(s));
}

static bool program_extra_regs(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	/* MSR_PEBS_LD_LAT_THRESHOLD[15:0] (SDM 18.9.4.2: minimum 3) */
	if (p->use_ldlat && !sess_wr(s, MSR_PEBS_LD_LAT_THRESHOLD, p->ldlat))
		return false;
	if (p->use_frontend && !sess_wr(s, MSR_PEBS_FRONTEND, p->frontend))
		return false;
	for (i = 0; i < 2; i++)
		if (p->use_rsp[i] && !sess_wr(s, MSR_OFFCORE_RSP0 + i, p->rsp[i]))
			return false;
	return true;
}

/* Counters are written while disabled: GLOBAL_CTRL is 0 here (SDM 18.9.4 NOTE on PDIR). */
static bool program_counters(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	if (p->fixed_used) {
		if (!sess_wr(s, MSR_IA32_FIXED_CTR_CTRL, 0))
			return false;
		for (i = 0; i < p->n_fixed; i++) {
			uint64_t v = (int)(32 + i) == p->sample_ctr ? start_value(s) : 0;

			if ((p->fixed_used & BIT_ULL(i)) && !sess_wr(s, msr_fixed_ctr(i), v))
				return false;
		}
		if (!sess_wr(s, MSR_IA32_FIXED_CTR_CTRL, p->fixed_ctrl))
			return false;
	}
	for (i = 0; i < p->n_gp; i++) {
		uint64_t v = (int)i == p->sample_ctr ? start_value(s) : 0;

		if (!(p->gp_used & BIT_ULL(i)))
			continue;
		/* EN clear while the counter value is written, then the full EVTSEL. */
		if (!sess_wr(s, MSR_IA32_PERFEVTSEL0 + i, 0) || !sess_wr(s, pmc_msr(s, i), v) ||
		    !sess_wr(s, MSR_IA32_PERFEVTSEL0 + i, p->evtsel[i]))
			return false;
	}
	return true;
}

/*
 * Legacy PEBS (kvm-unit-tests pebs_enable, Linux core.c intel_pmu_enable_all;
 * docs/PROGRAMMING.md "Arming order"):
 *   GLOBAL_CTRL = 0, PEBS_ENABLE = 0 -> DATA_CFG (baseline) -> DS fields and
 *   reset slots -> LD_LAT / FRONTEND / OFFCORE_RSP -> counters and EVTSEL ->
 *   DS_AREA -> PEBS_ENABLE -> GLOBAL_CTRL last.
 * Arch-PEBS (Linux arch-PEBS series, d21954c8a0ff): GLOBAL_CTRL = 0 -> PEBS_BASE -> PEBS_INDEX (WR
 * 0, EN, THRESH) -> extra regs -> CFG_C of the counter -> counters -> GLOBAL_CTRL.
 */
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
	if (!p->count_only)
		m |= BIT_ULL(p->sample_ctr) | GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_ARCH_PEBS;
	return s->orig_status & m;
}

static bool arm(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	uint64_t stale = stale_status(s), debugctl = saved_value(s, MSR_IA32_DEBUGCTL);

	if (!sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return false;
	/*
	 * Status bits left set (stale_status()).  On the counter we arm for PEBS
	 * a pending bit makes a record of its own (SDM Vol. 3B 18.7.1: a record "may also
	 * be generated after an overflow is set by an MSR write to
	 * IA32_PERF_GLOBAL_STATUS_SET"), so clear them first (kvm-unit-tests
	 * reset_pebs acks GLOBAL_STATUS too).  restore_status() sets
	 * them back afterwards where STATUS_SET exists (v4+).
	 */
	if (stale && !sess_wr(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, stale))
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
	    !sess_wr(s, MSR_IA32_DEBUGCTL, debugctl & ~DEBUGCTL_FREEZE_PERFMON_ON_PMI))
		return false;
	if (!p->count_only && !p->arch) {
		if (!sess_wr(s, MSR_IA32_PEBS_ENABLE, 0))
			return false;
		if (p->baseline && !sess_wr(s, MSR_PEBS_DATA_CFG, p->data_cfg))
			return false;
		fill_ds(s);
	} else if (!p->count_only) {
		/*
		 * Threshold in bytes from the base: records of header 16 + basic 48
		 * [+ aux 64] [+ gpr 160] bytes (d21954c8a0ff) [+ the counter group's
		 * 16-byte header and a value per counter].  Default, for
		 * polling too: Linux's ARCH_PEBS_THRESH_MULTI rule, a page short of
		 * the end ("The largest PEBS record could consume a page, ensure a
		 * record at least can be written after triggering PMI"), or one
		 * record in a one-page buffer (ARCH_PEBS_THRESH_SINGLE).  Never past
		 * the end: no source says what the CPU does with such a THRESH
		 * (docs/PROGRAMMING.md, "arch-PEBS threshold when polling").
		 */
		size_t rec =
		    16 + 48 + ((p->cfg_c & CFG_C_AUX) ? 64 : 0) +
		    ((p->cfg_c & CFG_C_GPR) ? 160 : 0) +
		    ((p->snap_gp | p->snap_fixed)
			 ? 16 + 8 * (size_t)(popcount64(p->snap_gp) + popcount64(p->snap_fixed))
			 : 0);
		size_t thr = s->ds.buf_size > PAGE_SIZE_4K ? s->ds.buf_size - PAGE_SIZE_4K : rec;

		if (s->cfg->drain == PEBS_DRAIN_PMI && s->cfg->threshold_records)
			thr = s->cfg->threshold_records * rec;
		if (!sess_wr(s, MSR_IA32_PEBS_BASE, ds_arch_base_msr(&s->ds)) ||
		    !sess_wr(s, MSR_IA32_PEBS_INDEX, ds_arch_index_msr(&s->ds, thr)))
			return false;
	}
	if (!program_extra_regs(s))
		return false;
	if (p->arch && !p->count_only &&
	    (!sess_wr(s, cfg_c_msr(p), p->cfg_c) || !write_snapshot_cfg_c(s)))
		return false;
	if (!program_counters(s))
		return false;
	if (!p->count_only && !p->arch) {
		if (!sess_wr(s, MSR_IA32_DS_AREA, (uintptr_t)s->ds.ds) ||
		    !sess_wr(s, MSR_IA32_PEBS_ENABLE, p->pebs_enable))
			return false;
	}
	return sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, p->global_ctrl);
}

/* ---- draining ---------------------------------------------------------- */

/*
 * The result buffer is allocated before arming: the PMI handler drains into
 * it from interrupt context, where firmware memory services must not be
 * called (UEFI: no AllocatePool above TPL_NOTIFY).  Polling needs one PEBS
 * buffer's worth (plus the forced records); PMI draining several
 * (session.h session_result_bytes).
 */
static int alloc_result(struct sess *s, char *why, size_t why_size)
{
	struct session_result *r = s->res;
	size_t min_rec = s->plan.arch ? 16 : (s->plan.rec_size ? s->plan.rec_size : 32);
	size_t bufs = s->cfg->drain == PEBS_DRAIN_PMI ? SESSION_PMI_RESULT_BUFFERS
						      : SESSION_POLL_RESULT_BUFFERS;

	if (s->plan.count_only)
		return 0;
	s->res_cap = s->ds.buf_size * bufs;
	s->kinds_cap = s->res_cap / min_rec + 1;
	r->records = plat_alloc(s->res_cap);
	r->rec_kinds = plat_alloc(s->kinds_cap);
	if (!r->records || !r->rec_kinds) {
		session_result_free(r);
		pp_snprintf(why, why_size, "no memory for %zu bytes of drained records",
			    s->res_cap);
		return SESSION_NOMEM;
	}
	return 0;
}

static void append(struct sess *s, const struct ds_drained *d)
{
	struct session_result *r = s->res;
	size_t i;
	uint8_t kind = s->plan.sample_precise ? REC_PRECISE : REC_NONPRECISE;

	if (d->full)
		r->buffer_full = true;
	if (!d->len)
		return;
	if (r->records_len + d->len > s->res_cap || r->n_records + d->n_records > s->kinds_cap) {
		s->dropped += d->n_records;
		return;
	}
	memcpy(r->records + r->records_len, d->start, d->len);
	for (i = 0; i < d->n_records; i++)
		r->rec_kinds[r->n_records + i] = kind;
	r->records_len += d->len;
	r->n_records += d->n_records;
}

static void drain(struct sess *s)
{
	struct ds_drained d;
	uint64_t idx;

	if (s->plan.count_only)
		return;
	if (s->plan.arch) {
		if (!sess_rd(s, MSR_IA32_PEBS_INDEX, &idx))
			return;
		/* Rewrite the index (WR 0) at the start of the drain, as Linux's arch-PEBS drain
		 * does. */
		if (!sess_wr(s, MSR_IA32_PEBS_INDEX,
			     idx & ~(ARCH_PEBS_INDEX_WR_MASK | ARCH_PEBS_INDEX_FULL)))
			return;
		ds_drain_arch(&s->ds, idx, &d);
	} else {
		ds_drain(&s->ds, s->plan.adaptive, &d);
	}
	append(s, &d);
}

/*
 * PMI handler (Linux core.c intel_pmu_handle_irq): GLOBAL_CTRL = 0, then loop { read status, ack,
 * drain } at most 100 times, re-enable, EOI; LVTPC, which the delivery masked
 * (SDM 11.5.1), is unmasked where the generation's row says (early, mid or
 * late ack).  Our vector uses fixed delivery, so a PMI requested after an
 * early or mid unmask waits in the IRR until the EOI.
 *
 * No firmware call on this path: the PMI may have interrupted one (a
 * ConOut, SerialIo or file Write of a report line), and calling into the
 * same driver again from the interrupt is not safe.  So what it reports -
 * the trace=msr lines of its MSR accesses, a simulator rule - is held back
 * (lib/report.h deferred output) and printed by run_armed() after the
 * handler is removed.
 */
static void pmi_handler(void *ctx)
{
	struct sess *s = ctx;
	uint64_t status,
	    ours = s->plan.global_ctrl | GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_ARCH_PEBS;
	enum pmi_ack ack = s->plan.ua->pmi_ack;
	unsigned int loops;

	/*
	 * v4+: with DEBUGCTL.FREEZE_PERFMON_ON_PMI (firmware may leave it set)
	 * the PMI sets CTR_Frz[59] (and LBR_Frz[58]) and the counters stay
	 * frozen until those are cleared (SDM 18.2.4.1); ack them too, as
	 * Linux acks the whole status it read.
	 */
	if (s->ci->pmu_version >= 4)
		ours |= GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ;

	report_defer_begin();
	s->res->pmis++;
	/* LVTPC unmask per generation (uarch_info.pmi_ack, Linux intel_pmu_handle_irq). */
	if (ack == PMI_ACK_EARLY)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	for (loops = 0; loops < PMI_MAX_LOOPS; loops++) {
		if (!sess_rd(s, MSR_IA32_PERF_GLOBAL_STATUS, &status) || !(status & ours))
			break;
		if (!sess_wr(s, MSR_IA32_PERF_GLOBAL_OVF_CTRL, status & ours))
			break;
		drain(s);
	}
	if (loops == PMI_MAX_LOOPS)
		s->pmi_stuck++;
	if (ack == PMI_ACK_MID)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	if (!s->faulted && !s->disarming)
		sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, s->plan.global_ctrl);
	hw_apic_write(APIC_EOI, 0);
	if (ack == PMI_ACK_LATE)
		hw_apic_write(APIC_LVTPC, PMI_VECTOR);
	report_defer_end();
}

static bool setup_pmi(struct sess *s)
{
	if (s->plan.count_only)
		return true;
	if (s->cfg->drain != PEBS_DRAIN_PMI) {
		/*
		 * Arch-PEBS polling: PEBS_INDEX.THRESH lies inside the buffer
		 * (arm()), so crossing it requests a PMI (GLOBAL_STATUS bit 54).
		 * LVTPC stays masked for the session, so none reaches whatever
		 * the firmware has there; restore_status() acks the bit.
		 */
		if (s->plan.arch) {
			s->orig_lvtpc = hw_apic_read(APIC_LVTPC);
			s->masked_lvtpc = true;
			hw_apic_write(APIC_LVTPC, s->orig_lvtpc | APIC_LVT_MASK);
		}
		return true;
	}
	if (hw_set_pmi_handler(PMI_VECTOR, pmi_handler, s))
		return false;
	s->orig_lvtpc = hw_apic_read(APIC_LVTPC);
	s->armed_pmi = true;
	hw_apic_write(APIC_LVTPC, PMI_VECTOR); /* fixed delivery, unmasked */
	return true;
}

/* The PMI vector's bit in the local APIC's ISR or IRR (APIC_ISR, APIC_IRR). */
static bool pmi_vector_bit(uint32_t base)
{
	return hw_apic_read(base + 0x10 * (PMI_VECTOR / 32)) & BIT_ULL(PMI_VECTOR % 32);
}

static void teardown_pmi(struct sess *s)
{
	unsigned int tries;

	if (s->masked_lvtpc) {
		hw_apic_write(APIC_LVTPC, s->orig_lvtpc);
		s->masked_lvtpc = false;
	}
	if (!s->armed_pmi)
		return;
	hw_apic_write(APIC_LVTPC, s->orig_lvtpc | APIC_LVT_MASK);
	/*
	 * Masking LVTPC stops new PMIs, not one the local APIC already took: it
	 * waits in the IRR (interrupts off, as firmware may run an AP) or sits
	 * in the ISR without its EOI (SDM Vol. 3A 11.8.4).  With the firmware's
	 * IDT back, the firmware's handler would take it and send no EOI,
	 * blocking every vector of its priority class and below.  So, while
	 * our handler is still installed: EOI what is in service, and let a
	 * held PMI in (one instruction with interrupts on) for our handler to
	 * take and EOI.
	 */
	for (tries = 0; tries < PMI_MAX_LOOPS; tries++) {
		if (pmi_vector_bit(APIC_ISR))
			hw_apic_write(APIC_EOI, 0);
		else if (pmi_vector_bit(APIC_IRR))
			hw_irq_window();
		else
			break;
	}
	s->pmi_latched = tries == PMI_MAX_LOOPS;
	hw_set_pmi_handler(PMI_VECTOR, NULL, NULL);
	hw_apic_write(APIC_LVTPC, s->orig_lvtpc);
	s->armed_pmi = false;
}

/* Goldmont (SDM 18.7.1): a PEBS record forced by setting the overflow bit in STATUS_SET. */
static bool force_records(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	uint32_t i;
	struct ds_drained d;

	if (!s->cfg->force_records)
		return true;
	for (i = 0; i < s->cfg->force_records; i++)
		if (!sess_wr(s, MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT_ULL(p->sample_ctr)))
			return false;
	/* What is in the buffer now came from the forced overflows. */
	if (!p->arch) {
		size_t before = s->res->n_records, k;

		sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
		ds_drain(&s->ds, p->adaptive, &d);
		append(s, &d);
		for (k = before; k < s->res->n_records; k++)
			s->res->rec_kinds[k] = REC_FORCED;
		s->forced = s->res->n_records - before;
		return !s->faulted && sess_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, p->global_ctrl);
	}
	return true;
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
		if (!(p->fixed_used & BIT_ULL(i)) || !sess_rd(s, msr_fixed_ctr(i), &v))
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
		if (!sess_rd(s, counter_msr(ctr), &v))
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
	if (p->count_only || r->counted_sample)
		return;
	/* No counting copy: what the PEBS counter holds beyond -period (records added later). */
	ctr = p->sample_ctr;
	if (sess_rd(s, counter_msr(ctr), &v))
		s->residue = (v - start_value(s)) & p->sample_width_mask;
}

static void finish_result(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	struct session_result *r = s->res;
	size_t written = r->n_records - s->forced;

	r->period = p->period;
	r->pebs_counter = p->sample_ctr;
	r->snap_gp = p->snap_gp;
	r->snap_fixed = p->snap_fixed;
	r->pebs_enable =
	    p->arch ? (p->sample_ctr >= 0 ? BIT_ULL(p->sample_ctr) : 0) : p->pebs_enable;
	/*
	 * Without a counting copy (load latency, precise store, store latency,
	 * frontend: one counter per facility) the events are derived from what
	 * was written: records * period + the counter's residue.  Once the
	 * buffer filled that undercounts by the records the hardware dropped,
	 * and the counter's residue means nothing (no source says what a
	 * counter holds after an assist that found no room), so only the
	 * records are counted: a lower bound.
	 */
	if (!p->count_only && !r->counted_sample)
		r->sampled_events = (uint64_t)(written + s->dropped) * p->period +
				    (r->buffer_full ? 0 : s->residue);
	r->expected_records = p->period ? r->sampled_events / p->period : 0;
	/*
	 * Lost.  Records are dropped only at the absolute maximum (arch-PEBS:
	 * FULL), so a buffer that never filled lost none.  One that filled lost
	 * events / period - written, which only a count of the event that does
	 * not come from the records can tell: the counting copy.  Without one
	 * the number is unknown, never 0.  Records drained but not kept (the
	 * result buffer was full) are lost to the caller too, and known.
	 */
	r->lost_unknown = !p->count_only && r->buffer_full && !r->counted_sample;
	if (r->buffer_full && r->counted_sample && r->expected_records > written + s->dropped)
		r->lost = r->expected_records - written - s->dropped;
	r->lost += s->dropped;
	r->decode_cfg.fmt = p->fmt;
	r->decode_cfg.uarch = p->ua->uarch;
	r->decode_cfg.dsrc = p->ua->dsrc;
	r->decode_cfg.kind = p->kind;
	r->decode_cfg.data_cfg = p->adaptive ? p->data_cfg : 0;
	r->decode_cfg.adaptive = p->adaptive;
	r->decode_cfg.timed = s->ci->perf_caps & PERF_CAP_PEBS_TIMING;
	r->decode_cfg.pebs_enabled =
	    r->pebs_enable & (GENMASK_ULL(31, 0) |
			      (p->ua->layout == PEBS_EN_LAYOUT_FIXED ? GENMASK_ULL(47, 32) : 0));
	if (p->count_only)
		pp_snprintf(r->event_desc, sizeof(r->event_desc), "counting only");
	else {
		char ld[24] = "";

		if (p->use_ldlat)
			pp_snprintf(ld, sizeof(ld), " ldlat=%u", p->ldlat);
		r->pdist = p->sample_pdist;
		pp_snprintf(r->event_desc, sizeof(r->event_desc), "%s (0x%llx)%s on %s%d%s",
			    p->sample.name, (unsigned long long)(p->sample.evtsel & 0xffff), ld,
			    p->sample_ctr >= 32 ? "FIXED" : "PMC",
			    p->sample_ctr >= 32 ? p->sample_ctr - 32 : p->sample_ctr,
			    p->sample_pdist ? " (PDIST)" : "");
	}
}

/* ---- the session ------------------------------------------------------- */

/*
 * IA32_PEBS_BASE takes a physical address: with identity mapping the
 * buffer's linear address, which must lie below MAXPHYADDR
 * (CPUID.80000008H:EAX[7:0]; 36 bits if the leaf is missing, SDM Vol. 3A 4.1.4).
 */
static bool below_maxphyaddr(struct sess *s, char *why, size_t why_size)
{
	struct cpuid_regs r;
	unsigned int bits = 36;
	uint64_t end = (uintptr_t)s->ds.buf + s->ds.buf_size;

	if (s->ci->max_ext_leaf >= 0x80000008) {
		hw_cpuid(0x80000008, 0, &r);
		if (r.eax & 0xff)
			bits = r.eax & 0xff;
	}
	if (bits < 64 && end > (1ULL << bits)) {
		pp_snprintf(why, why_size,
			    "arch-PEBS buffer at 0x%llx lies above MAXPHYADDR "
			    "(%u bits): PEBS_BASE cannot address it",
			    (unsigned long long)(uintptr_t)s->ds.buf, bits);
		return false;
	}
	return true;
}

static int alloc_buffers(struct sess *s, char *why, size_t why_size)
{
	size_t bytes = (s->cfg->buffer_kib ? s->cfg->buffer_kib : 64) * 1024ULL;

	if (s->plan.count_only)
		return 0;
	/* Core 2: buffers over one page hang the GLOBAL_CTRL write (Linux ds.c intel_ds_init). */
	if ((s->plan.ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	if (ds_alloc(&s->ds, bytes, s->plan.arch, why, why_size))
		return SESSION_NOMEM;
	if (!s->plan.arch && s->ds.buf_size / s->plan.rec_size < 1) {
		ds_free(&s->ds);
		pp_snprintf(why, why_size, "a %zu-byte buffer holds no %zu-byte record",
			    s->ds.buf_size, s->plan.rec_size);
		return SESSION_REFUSED;
	}
	s->have_ds = true;
	if (s->plan.arch && !below_maxphyaddr(s, why, why_size)) {
		ds_free(&s->ds);
		s->have_ds = false;
		return SESSION_SKIP;
	}
	return 0;
}

/*
 * Branch trace store on (IA32_DEBUGCTL.TR and .BTS): the processor writes
 * branch records through the DS save area IA32_DS_AREA points at (SDM Vol.
 * 3B 17.4.9 "BTS and DS Save Area"; 17.4.1 "IA32_DEBUGCTL MSR").  Legacy
 * PEBS replaces DS_AREA with a page whose BTS fields are 0, so the other
 * owner's branch records would go to address 0: SKIP before any write.
 * Arch-PEBS and counting-only runs leave DS_AREA alone.
 */
static int check_bts(struct sess *s, char *why, size_t why_size)
{
	uint64_t v;

	if (s->plan.count_only || s->plan.arch)
		return 0;
	if (!sess_rd(s, MSR_IA32_DEBUGCTL, &v)) {
		pp_snprintf(why, why_size, "%s; nothing was written", s->fault_what);
		return SESSION_FAULT;
	}
	if ((v & (DEBUGCTL_TR | DEBUGCTL_BTS)) != (DEBUGCTL_TR | DEBUGCTL_BTS))
		return 0;
	pp_snprintf(why, why_size,
		    "IA32_DEBUGCTL 0x%llx has TR and BTS set: branch trace store uses the DS "
		    "save area, which PEBS would replace (SDM 17.4.9); nothing was written",
		    (unsigned long long)v);
	return SESSION_SKIP;
}

static int run_armed(struct sess *s, void (*kernel)(void *arg), void *arg)
{
	unsigned int n_saved;
	bool cleared;

	build_save_list(s);
	if (!save_all(s))
		return SESSION_FAULT; /* nothing written yet */
	n_saved = s->n_save;
	if (!setup_pmi(s)) {
		pp_snprintf(s->fault_what, sizeof(s->fault_what), "cannot install the PMI handler");
		return SESSION_SKIP;
	}
	if (arm(s) && force_records(s))
		kernel(arg);
	s->disarming = true;
	disarm(s);
	if (!s->faulted)
		read_counts(s);
	drain(s);
	teardown_pmi(s);
	/* The PMI handler's lines, now that no PMI can come (normal path). */
	report_flush_deferred("the PMI handler");
	cleared = clear_buffers(s);
	restore_status(s);
	restore_all(s, n_saved);
	/* Never free memory the hardware may still write to. */
	if (cleared && s->have_ds)
		ds_free(&s->ds);
	s->have_ds = false;
	if (!cleared) {
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
 * buffers: every allocation), the armed part on ci->cpu (cpu_run(): its
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
	if (!r)
		r = check_bts(s, why, why_size);
	if (!r)
		r = alloc_buffers(s, why, why_size);
	if (!r)
		r = alloc_result(s, why, why_size);
	if (r)
		goto out;
	r = cpu_run(cfg->ci->cpu, armed_on_cpu, &s->call, cfg->cpu_timeout_us, cfg->bsp_idle,
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
	finish_result(s);
	if (s->pmi_stuck && !r) {
		pp_snprintf(why, why_size, "PMI loop stuck (%u times over %d iterations)",
			    s->pmi_stuck, PMI_MAX_LOOPS);
		r = SESSION_FAULT;
	} else if (s->pmi_latched && !r) {
		pp_snprintf(why, why_size,
			    "a PMI (vector 0x%x) stayed in the local APIC's IRR/ISR when the "
			    "handler was removed",
			    PMI_VECTOR);
		r = SESSION_FAULT;
	} else if (r) {
		pp_snprintf(why, why_size, "%s; every MSR touched was restored", s->fault_what);
	}
out:
	if (s->have_ds)
		ds_free(&s->ds);
	/* On any failure no records are handed out (counts stay, for offcore.c). */
	if (r)
		session_result_free(&s->res_own);
	*res = s->res_own;
	plat_free(s);
	return r;
}

void session_result_free(struct session_result *res)
{
	plat_free(res->records);
	plat_free(res->rec_kinds);
	res->records = NULL;
	res->rec_kinds = NULL;
	res->records_len = 0;
	res->n_records = 0;
}
