// SPDX-License-Identifier: MIT
/*
 * pebs_ds.c - legacy PEBS through the DS save area (IA32_DS_AREA,
 * IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG with baseline): the session's
 * flavour for every PEBS format up to 6 (session_int.h; SDM Vol. 3B 18.4,
 * 18.9; Linux ds.c intel_ds_init, intel_pmu_drain_pebs_nhm/icl).
 */
#include "session_int.h"
#include "hw.h"
#include "msr.h"
#include "paging.h"
#include "../lib/fmt.h"

/*
 * Branch trace store on (IA32_DEBUGCTL.TR and .BTS): the processor writes
 * branch records through the DS save area IA32_DS_AREA points at (SDM Vol.
 * 3B 17.4.9 "BTS and DS Save Area"; 17.4.1 "IA32_DEBUGCTL MSR").  Legacy
 * PEBS replaces DS_AREA with a page whose BTS fields are 0, so the other
 * owner's branch records would go to address 0: SKIP before any write.
 * Arch-PEBS and counting-only runs leave DS_AREA alone.
 */
/*
 * IA32_DS_AREA and the DS fields hold linear addresses (SDM Vol. 3B
 * 17.4.9.1), translated under whatever CR3 is loaded when the assist
 * writes, with no fault handling: the pages must be present under each
 * (17.4.9.2).  The assist may run under this CPU's own CR3 (armed before
 * the kernel switches) and under the kernel's tables (during it).  An AP
 * may run on tables of its own: walked here, on that CPU, before any write.
 */
static int ds_mapped_here(struct sess *s, char *why, size_t why_size)
{
	const struct paging_tables *t = s->cfg->tables;
	uint64_t ds = (uintptr_t)s->ds.ds, buf = (uintptr_t)s->ds.buf;
	char r[120];

	if (!paging_check_here(ds, PAGE_SIZE_4K, r, sizeof(r)) &&
	    !paging_check_here(buf, s->ds.buf_size, r, sizeof(r)) &&
	    (!t || (!paging_check_under(t->root.cr3, ds, PAGE_SIZE_4K, r, sizeof(r)) &&
		    !paging_check_under(t->root.cr3, buf, s->ds.buf_size, r, sizeof(r)))))
		return 0;
	pp_snprintf(why, why_size, "DS area or PEBS buffer: %s; nothing was written", r);
	return SESSION_SKIP;
}

static int ds_check(struct sess *s, char *why, size_t why_size)
{
	uint64_t v;

	if (!session_rd(s, MSR_IA32_DEBUGCTL, &v)) {
		pp_snprintf(why, why_size, "%s; nothing was written", s->fault_what);
		return SESSION_FAULT;
	}
	if ((v & (DEBUGCTL_TR | DEBUGCTL_BTS)) != (DEBUGCTL_TR | DEBUGCTL_BTS))
		return ds_mapped_here(s, why, why_size);
	pp_snprintf(why, why_size,
		    "IA32_DEBUGCTL 0x%llx has TR and BTS set: branch trace store uses the DS "
		    "save area, which PEBS would replace (SDM 17.4.9); nothing was written",
		    (unsigned long long)v);
	return SESSION_SKIP;
}

static int ds_alloc_buf(struct sess *s, size_t bytes, char *why, size_t why_size)
{
	char r[120];

	/* Core 2: buffers over one page hang the GLOBAL_CTRL write (Linux ds.c intel_ds_init). */
	if ((s->plan.ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	if (ds_alloc(&s->ds, bytes, false, why, why_size))
		return SESSION_NOMEM;
	if (s->ds.buf_size / s->plan.rec_size < 1) {
		ds_free(&s->ds);
		pp_snprintf(why, why_size, "a %zu-byte buffer holds no %zu-byte record",
			    s->ds.buf_size, s->plan.rec_size);
		return SESSION_REFUSED;
	}
	s->have_ds = true;
	/* On the boot CPU: the simulated firmware maps what it is asked about (ds_mapped_here). */
	hw_fw_map((uintptr_t)s->ds.ds, PAGE_SIZE_4K);
	hw_fw_map((uintptr_t)s->ds.buf, s->ds.buf_size);
	/* The kernel's tables were copied before this allocation: mapped there now (paging.h). */
	if (paging_extend(s->cfg->tables, (uintptr_t)s->ds.ds, PAGE_SIZE_4K, r, sizeof(r)) ||
	    paging_extend(s->cfg->tables, (uintptr_t)s->ds.buf, s->ds.buf_size, r, sizeof(r))) {
		pp_snprintf(why, why_size,
			    "DS area or PEBS buffer not in the kernel's page tables: %s", r);
		return SESSION_SKIP;
	}
	return 0;
}

static size_t ds_min_record(const struct sess *s)
{
	return s->plan.rec_size ? s->plan.rec_size : 32;
}

static void ds_save_buffer(struct sess *s)
{
	session_want_save(s, MSR_IA32_PEBS_ENABLE, MSR_IA32_PEBS_ENABLE);
	session_want_save(s, MSR_IA32_DS_AREA, MSR_IA32_DS_AREA);
	if (s->plan.baseline)
		session_want_save(s, MSR_PEBS_DATA_CFG, MSR_PEBS_DATA_CFG);
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
unsigned int pebs_ds_pmi_reserve(const struct cpu_info *ci, bool baseline)
{
	return ci->n_gp + (baseline ? ci->n_fixed : 0);
}

/*
 * The flavour's pmi_free: what fill_ds leaves free past the threshold, at
 * least: the buffer is allocated in whole pages (ds_alloc), so it holds at
 * least buffer / record records; Core 2 keeps one page (ds_alloc_buf).
 */
static unsigned int ds_pmi_free(const struct session_cfg *cfg, const struct pmu_plan *p)
{
	unsigned int reserve = pebs_ds_pmi_reserve(cfg->ci, p->baseline);
	size_t bytes = (cfg->buffer_kib ? cfg->buffer_kib : 64) * 1024ULL, n, thr;

	if (!p->rec_size)
		return reserve;
	if ((p->ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	n = ds_buf_size(bytes, false) / p->rec_size;
	thr = cfg->threshold_records ? cfg->threshold_records : (n > reserve ? n - reserve : 1);
	return n > thr ? (unsigned int)(n - thr) : 0;
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
		reserve = pebs_ds_pmi_reserve(s->ci, p->baseline);
		thr = s->cfg->threshold_records ? s->cfg->threshold_records
						: (n > reserve ? n - reserve : 1);
	}
	ds_setup(&s->ds, p->rec_size, thr);
	if (p->sample_ctr >= 32)
		ds_set_reset(&s->ds, ds_fixed_reset_index(p->fmt, p->sample_ctr - 32),
			     session_start_value(s));
	else
		ds_set_reset(&s->ds, p->sample_ctr, session_start_value(s));
}

/*
 * Arming order (kvm-unit-tests pebs_enable, Linux core.c
 * intel_pmu_enable_all; docs/PROGRAMMING.md "Arming order"): PEBS_ENABLE =
 * 0 -> DATA_CFG (baseline) -> DS fields and reset slots here; DS_AREA and
 * PEBS_ENABLE after the counters (ds_arm_enable).
 */
static bool ds_arm_buffer(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;

	if (!session_wr(s, MSR_IA32_PEBS_ENABLE, 0))
		return false;
	if (p->baseline && !session_wr(s, MSR_PEBS_DATA_CFG, p->data_cfg))
		return false;
	fill_ds(s);
	return true;
}

static bool ds_arm_enable(struct sess *s)
{
	return session_wr(s, MSR_IA32_DS_AREA, (uintptr_t)s->ds.ds) &&
	       session_wr(s, MSR_IA32_PEBS_ENABLE, s->plan.pebs_enable);
}

static void ds_disarm(struct sess *s)
{
	session_wr_teardown(s, MSR_IA32_PEBS_ENABLE, 0);
}

static void ds_drain_records(struct sess *s)
{
	struct ds_drained d;

	ds_drain(&s->ds, s->plan.adaptive, &d);
	session_append(s, &d);
}

/* What is in the buffer right after the forced overflows came from them. */
static bool ds_forced(struct sess *s)
{
	size_t before = s->res->n_records, k;

	session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	ds_drain_records(s);
	for (k = before; k < s->res->n_records; k++)
		s->res->rec_kinds[k] = REC_FORCED;
	s->forced = s->res->n_records - before;
	return !s->faulted && session_wr(s, MSR_IA32_PERF_GLOBAL_CTRL, s->plan.global_ctrl);
}

/* Freed only when clear() confirmed nothing points at the buffer any more. */
static void ds_free_buf(struct sess *s)
{
	if (s->have_ds && !s->buffer_held)
		ds_free(&s->ds);
}

static bool ds_clear(struct sess *s)
{
	bool ok = true;

	ok &= session_wr_teardown(s, MSR_IA32_PEBS_ENABLE, 0);
	ok &= session_wr_teardown(s, MSR_IA32_DS_AREA, 0);
	return ok;
}

static uint64_t ds_pebs_enable(const struct pmu_plan *p)
{
	return p->pebs_enable;
}

const struct pebs_ops pebs_ds_ops = {
    .check = ds_check,
    .alloc = ds_alloc_buf,
    .min_record = ds_min_record,
    .save_buffer = ds_save_buffer,
    .arm_buffer = ds_arm_buffer,
    .arm_enable = ds_arm_enable,
    .disarm = ds_disarm,
    .drain = ds_drain_records,
    .forced = ds_forced,
    .clear = ds_clear,
    .pebs_enable = ds_pebs_enable,
    .free = ds_free_buf,
    .stale_status = GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_ARCH_PEBS,
};

/*
 * Counters and PEBS events from the generation row and perfmon (SDM Vol.
 * 3B 18.9.4), the reload value in the counter's width (full-width writes,
 * Linux core.c intel_pmu_init), groups and snapshots in PEBS_DATA_CFG
 * (Linux ds.c intel_pmu_pebs_enable, __intel_pmu_pebs_update_cfg).
 */
const struct pebs_flavour pebs_ds_flavour = {
    .name = "legacy PEBS",
    .ops = &pebs_ds_ops,
    .pmi_free = ds_pmi_free,
    .records = true,
    .counter_source = "CPUID GP counters",
    .forced_records = true,
    .groups = PEBS_GROUPS_DATA_CFG,
    .handoff_msrs = {MSR_IA32_PEBS_ENABLE},
    .n_handoff_msrs = 1,
    .handoff_data_cfg = true,
    .handoff_rows = PEBS_HANDOFF_LEGACY,
};
