// SPDX-License-Identifier: MIT
/*
 * pebs_arch.c - architectural PEBS (CPUID.23H; IA32_PEBS_BASE,
 * IA32_PEBS_INDEX, IA32_PMC_*_CFG_C): the session's flavour where
 * uarch_arch_pebs() holds (session_int.h; Linux core.c/ds.c arch-PEBS
 * series, d21954c8a0ff: init_arch_pebs_on_cpu, intel_pmu_drain_arch_pebs).
 */
#include "session_int.h"
#include "hw.h"
#include "msr.h"
#include "snapshot.h"
#include "../lib/fmt.h"

static uint32_t cfg_c_msr_of(int ctr)
{
	return ctr >= 32 ? MSR_IA32_PMC_FX0_CFG_C + MSR_V6_STEP * (ctr - 32)
			 : MSR_IA32_PMC_GP0_CFG_C + MSR_V6_STEP * ctr;
}

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

static int arch_alloc(struct sess *s, size_t bytes, char *why, size_t why_size)
{
	if (ds_alloc(&s->ds, bytes, true, why, why_size))
		return SESSION_NOMEM;
	s->have_ds = true;
	if (!below_maxphyaddr(s, why, why_size)) {
		ds_free(&s->ds);
		s->have_ds = false;
		return SESSION_SKIP;
	}
	return 0;
}

static size_t arch_min_record(const struct sess *s)
{
	(void)s;
	return 16;
}

/* Restored in reverse: PEBS_BASE before PEBS_INDEX, as Linux programs them (init_arch_pebs_on_cpu).
 */
static void arch_save_buffer(struct sess *s)
{
	session_want_save(s, MSR_IA32_PEBS_INDEX, MSR_IA32_PEBS_INDEX);
	session_want_save(s, MSR_IA32_PEBS_BASE, MSR_IA32_PEBS_BASE);
}

static void arch_save_config(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int i;

	if (p->sample_ctr >= 0)
		session_want_save(s, cfg_c_msr_of(p->sample_ctr), cfg_c_msr_of(p->sample_ctr));
	for (i = 0; i < 64; i++)
		if (snapshot_other_counter(p, i))
			session_want_save(s, cfg_c_msr_of((int)i), cfg_c_msr_of((int)i));
}

/*
 * The plan's record: header 16 + basic 48 [+ aux 64] [+ gpr 160] bytes
 * (d21954c8a0ff: arch/x86/include/asm/perf_event.h struct arch_pebs_header,
 * _basic, _aux, _gprs) [+ the counter group's 16-byte header and a value
 * per counter, arch_pebs_cntr_header].  Only the PEBS counter writes
 * records, and every record carries the groups its CFG_C asks for: this is
 * the largest the plan can write.
 */
static size_t arch_record(const struct pmu_plan *p)
{
	size_t cntrs = (size_t)(popcount64(p->snap_gp) + popcount64(p->snap_fixed));

	return 16 + 48 + ((p->cfg_c & CFG_C_AUX) ? 64 : 0) + ((p->cfg_c & CFG_C_GPR) ? 160 : 0) +
	       (cntrs ? 16 + 8 * cntrs : 0);
}

/*
 * Threshold in bytes from the base of a buf_size-byte buffer.  Default, for
 * polling too: Linux's ARCH_PEBS_THRESH_MULTI rule, a page short of the end
 * ("The largest PEBS record could consume a page, ensure a record at least
 * can be written after triggering PMI"), or one record in a one-page buffer
 * (ARCH_PEBS_THRESH_SINGLE).  drain=pmi with threshold=: that many records.
 * Never past the end: no source says what the CPU does with such a THRESH
 * (docs/PROGRAMMING.md, "arch-PEBS threshold when polling"; ds_arch_index_msr).
 */
static size_t arch_threshold(const struct session_cfg *cfg, const struct pmu_plan *p,
			     size_t buf_size)
{
	size_t thr = buf_size > PAGE_SIZE_4K ? buf_size - PAGE_SIZE_4K : arch_record(p);

	if (cfg->drain == PEBS_DRAIN_PMI && cfg->threshold_records)
		thr = cfg->threshold_records * arch_record(p);
	return thr < buf_size ? thr : buf_size;
}

/* PEBS_BASE -> PEBS_INDEX (WR 0, EN, THRESH), as Linux's init_arch_pebs_on_cpu. */
static bool arch_arm_buffer(struct sess *s)
{
	size_t thr = arch_threshold(s->cfg, &s->plan, s->ds.buf_size);

	return session_wr(s, MSR_IA32_PEBS_BASE, ds_arch_base_msr(&s->ds)) &&
	       session_wr(s, MSR_IA32_PEBS_INDEX, ds_arch_index_msr(&s->ds, thr));
}

/*
 * The flavour's pmi_free.  A record takes whole 16-byte units (PEBS_INDEX.WR
 * and THRESH count them, Linux union arch_pebs_index) from the base, which
 * each drain resets (intel_pmu_drain_arch_pebs: WR and FULL to 0).  That a
 * record which does not fit before the end is dropped (FULL set), and that
 * the first record to end at or past THRESH requests the PMI, is reasoning,
 * as the simulator models it: the records after that one are what is free.
 */
static unsigned int arch_pmi_free(const struct session_cfg *cfg, const struct pmu_plan *p)
{
	size_t size = ds_buf_size((cfg->buffer_kib ? cfg->buffer_kib : 64) * 1024ULL, true);
	size_t room = (arch_record(p) + 15) & ~(size_t)15;
	size_t thr = arch_threshold(cfg, p, size) & ~(size_t)15;
	size_t crossing = thr > room ? (thr + room - 1) / room : 1; /* records up to the PMI */

	return size / room > crossing ? (unsigned int)(size / room - crossing) : 0;
}

/*
 * The PEBS counter's CFG_C, then the counter-snapshot group (pmu/snapshot.h):
 * every member but the PEBS counter gets CFG_C = CNTR_ALLOW (Linux core.c
 * intel_pmu_enable_event_ext sets it on each event of the group).
 */
static bool arch_arm_config(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	unsigned int c;

	if (!session_wr(s, cfg_c_msr_of(p->sample_ctr), p->cfg_c))
		return false;
	for (c = 0; c < 64; c++)
		if (snapshot_other_counter(p, c) &&
		    !session_wr(s, cfg_c_msr_of((int)c), CFG_C_CNTR_ALLOW))
			return false;
	return true;
}

/* Rewrites the index (WR 0) at the start of the drain, as Linux's arch-PEBS drain does. */
static void arch_drain(struct sess *s)
{
	struct ds_drained d;
	uint64_t idx;

	if (!session_rd(s, MSR_IA32_PEBS_INDEX, &idx))
		return;
	if (!session_wr(s, MSR_IA32_PEBS_INDEX,
			idx & ~(ARCH_PEBS_INDEX_WR_MASK | ARCH_PEBS_INDEX_FULL)))
		return;
	ds_drain_arch(&s->ds, idx, &d);
	session_append(s, &d);
}

static bool arch_clear(struct sess *s)
{
	bool ok = true;

	ok &= session_wr_teardown(s, MSR_IA32_PEBS_INDEX, 0);
	ok &= session_wr_teardown(s, MSR_IA32_PEBS_BASE, 0);
	return ok;
}

static void arch_free(struct sess *s)
{
	if (s->have_ds && !s->buffer_held)
		ds_free(&s->ds);
}

static uint64_t arch_pebs_enable(const struct pmu_plan *p)
{
	return p->sample_ctr >= 0 ? BIT_ULL(p->sample_ctr) : 0;
}

/*
 * No disarm hook: PEBS_INDEX is read by the drain, then cleared.  No
 * forced-record hook: the plan refuses forced records with arch-PEBS.
 */
const struct pebs_ops pebs_arch_ops = {
    .alloc = arch_alloc,
    .min_record = arch_min_record,
    .save_buffer = arch_save_buffer,
    .save_config = arch_save_config,
    .arm_buffer = arch_arm_buffer,
    .arm_config = arch_arm_config,
    .drain = arch_drain,
    .clear = arch_clear,
    .pebs_enable = arch_pebs_enable,
    .free = arch_free,
    .stale_status = GLOBAL_STATUS_BUFFER_OVF | GLOBAL_STATUS_ARCH_PEBS,
    .polled_pmi = true,
};

/*
 * PEBS counters and PDIST counters from CPUID.23H.5, any event on them
 * (PMU_FL_PEBS_ALL), a 32-bit reload value in CFG_C, groups and counter
 * snapshots in each counter's CFG_C (d21954c8a0ff; Linux core.c
 * intel_pmu_enable_event_ext).  No forced records: no source describes them.
 */
const struct pebs_flavour pebs_arch_flavour = {
    .name = "arch-PEBS",
    .ops = &pebs_arch_ops,
    .records = true,
    .cpuid_counters = true,
    .counter_source = "CPUID.23H.5:EAX",
    .cpuid_pdist = true,
    .reload_bits = 32,
    .groups = PEBS_GROUPS_CFG_C,
    .handoff_msrs = {MSR_IA32_PEBS_BASE, MSR_IA32_PEBS_INDEX},
    .n_handoff_msrs = 2,
    .handoff_cfg_c = true,
    .handoff_rows = PEBS_HANDOFF_ARCH,
    .pmi_free = arch_pmi_free,
};
