// SPDX-License-Identifier: MIT
/*
 * handoff.c - the firmware hand-off audit of one CPU: read every PMU MSR
 * the CPU has before pebsprobe writes one, and classify what was left.
 * Linux does part of this at boot (arch/x86/events/core.c
 * check_hw_exists(): an enabled PERFEVTSELx or fixed counter is "[Firmware
 * Bug]: the BIOS has corrupted hw-PMU resources"); here every register
 * that changes what PEBS measures is read, per CPU, with no OS in the way.
 */
#include "handoff.h"
#include "hw.h"
#include "msr.h"
#include "pebs_flavour.h"
#include "uarch.h"
#include "../lib/fmt.h"

/*
 * IA32_DEBUGCTL bits beside msr.h's (SDM Vol. 3B 17.4.1; pre-2024 Vol. 3C
 * Table 35-2, 1D9H; Linux msr-index.h).
 */
#define DEBUGCTL_LBR		    BIT_ULL(0)
#define DEBUGCTL_BTF		    BIT_ULL(1)
#define DEBUGCTL_FREEZE_LBRS_ON_PMI BIT_ULL(11)
#define DEBUGCTL_FREEZE_WHILE_SMM   BIT_ULL(14)

/* Where a row's value comes from. */
enum h_where {
	H_ONE,	  /* the MSR `msr` */
	H_EVTSEL, /* every PERFEVTSELx */
	H_PMC,	  /* every GP counter */
	H_FIXED,  /* every fixed counter */
	H_CFG_B,  /* every IA32_PMC_{GP,FX}n_CFG_B */
	H_CFG_C,  /* every IA32_PMC_{GP,FX}n_CFG_C */
	H_LVTPC,  /* the local APIC's LVT performance counter entry */
};

/* Which bits make the finding, where they depend on the CPU. */
enum h_bits {
	B_FIXED = 1, /* `bits`: these bits */
	B_FIXED_EN,  /* FIXED_CTR_CTRL's enable fields [1:0] of every fixed counter present */
	B_NOT_GP,    /* GLOBAL_CTRL bits other than the GP counters' (their reset value) */
	B_OVERFLOW,  /* GLOBAL_STATUS's overflow bits of the counters present */
};

/* When a row applies. */
enum h_cond {
	C_ALL,
	C_LEGACY = PEBS_HANDOFF_LEGACY, /* DS-based PEBS (not CPUID.23H) */
	C_ARCH = PEBS_HANDOFF_ARCH,	/* architectural PEBS */
	C_SMM_CAP,			/* PERF_CAPABILITIES[12]: FREEZE_WHILE_SMM is supported */
};

struct h_row {
	struct handoff_kind k;
	enum h_where where;
	uint32_t msr;
	enum h_bits how;
	uint64_t bits;
	bool when_clear; /* the finding is the bits being clear */
	enum h_cond cond;
};

#define ALL ~0ULL

// clang-format off
static const struct h_row rows[] = {
    /* Counters: Linux core.c check_hw_exists() tests the same enable bits. */
    {{"counter-enabled", "PERFEVTSELx enabled (EN, bit 22)", true,
      "SDM Vol. 3B 18.2.3 Figure 18-6; Linux core.c check_hw_exists"},
     H_EVTSEL, 0, B_FIXED, EVTSEL_EN, false, C_ALL},
    {{"fixed-enabled", "fixed counter enabled (FIXED_CTR_CTRL)", true,
      "SDM Vol. 3B 18.2.2 Figure 18-2; Linux core.c check_hw_exists"},
     H_ONE, MSR_IA32_FIXED_CTR_CTRL, B_FIXED_EN, 0, false, C_ALL},
    {{"counter-value", "GP counter not zero", true, "SDM Vol. 3B 18.2.1"},
     H_PMC, 0, B_FIXED, ALL, false, C_ALL},
    {{"fixed-value", "fixed counter not zero", true, "SDM Vol. 3B 18.2.2"},
     H_FIXED, 0, B_FIXED, ALL, false, C_ALL},
    {{"global-ctrl", "GLOBAL_CTRL beyond its reset value", true,
      "SDM Vol. 3B 18.2.2 Figure 18-3 (reset: the GP counters enabled)"},
     H_ONE, MSR_IA32_PERF_GLOBAL_CTRL, B_NOT_GP, 0, false, C_ALL},
    /* PEBS and its buffers (SDM Vol. 3B 17.4.9, 18.8.1; arch-PEBS: Linux d21954c8a0ff). */
    {{"pebs-enable", "PEBS_ENABLE not zero", true, "SDM Vol. 3B Figure 18-35"},
     H_ONE, MSR_IA32_PEBS_ENABLE, B_FIXED, ALL, false, C_ALL},
    {{"ds-area", "DS_AREA points at a DS save area", true, "SDM Vol. 3B 17.4.9"},
     H_ONE, MSR_IA32_DS_AREA, B_FIXED, ALL, false, C_ALL},
    {{"pebs-data-cfg", "PEBS_DATA_CFG not zero", true,
      "SDM Vol. 3B adaptive PEBS (Ice Lake); Linux msr-index.h MSR_PEBS_DATA_CFG"},
     H_ONE, MSR_PEBS_DATA_CFG, B_FIXED, ALL, false, C_ALL},
    {{"ld-lat", "PEBS_LD_LAT_THRESHOLD not zero", true,
      "SDM Vol. 3B 18.8.1.2, 18.9.4.2"},
     H_ONE, MSR_PEBS_LD_LAT_THRESHOLD, B_FIXED, ALL, false, C_ALL},
    {{"frontend", "PEBS_FRONTEND not zero", true,
      "SDM Vol. 4 MSR 3F7H; Linux core.c extra regs"},
     H_ONE, MSR_PEBS_FRONTEND, B_FIXED, ALL, false, C_ALL},
    {{"pebs-base", "arch-PEBS PEBS_BASE not zero", true, "Linux d21954c8a0ff msr-index.h"},
     H_ONE, MSR_IA32_PEBS_BASE, B_FIXED, ALL, false, C_ALL},
    {{"pebs-index", "arch-PEBS PEBS_INDEX not zero", true, "Linux d21954c8a0ff msr-index.h"},
     H_ONE, MSR_IA32_PEBS_INDEX, B_FIXED, ALL, false, C_ALL},
    {{"cfg-b", "CFG_B (ACR reload mask) not zero", true,
      "SDM Vol. 3 21.9.11; Linux core.c intel_pmu_config_acr"},
     H_CFG_B, 0, B_FIXED, ALL, false, C_ALL},
    {{"cfg-c", "CFG_C (arch-PEBS/ACR) not zero", true, "Linux d21954c8a0ff, ec980e4facef"},
     H_CFG_C, 0, B_FIXED, ALL, false, C_ALL},
    /* GLOBAL_STATUS (SDM Vol. 3B 18.2.4.1, Figure 18-13; arch-PEBS bit 54: Linux perf_event.h). */
    {{"ctr-frz", "GLOBAL_STATUS CTR_FRZ (59): counters frozen", true, "SDM Vol. 3B 18.2.4.1"},
     H_ONE, MSR_IA32_PERF_GLOBAL_STATUS, B_FIXED, GLOBAL_STATUS_CTR_FRZ, false, C_ALL},
    {{"lbr-frz", "GLOBAL_STATUS LBR_FRZ (58): LBRs frozen", true, "SDM Vol. 3B 18.2.4.1"},
     H_ONE, MSR_IA32_PERF_GLOBAL_STATUS, B_FIXED, GLOBAL_STATUS_LBR_FRZ, false, C_ALL},
    {{"buffer-ovf", "GLOBAL_STATUS OvfBuffer (62) set", true, "SDM Vol. 3B 18.2.4.1"},
     H_ONE, MSR_IA32_PERF_GLOBAL_STATUS, B_FIXED, GLOBAL_STATUS_BUFFER_OVF, false,
     C_LEGACY},
    {{"arch-pebs-ovf", "GLOBAL_STATUS arch-PEBS threshold (54) set", true,
      "Linux perf_event.h GLOBAL_STATUS_ARCH_PEBS_THRESHOLD_BIT"},
     H_ONE, MSR_IA32_PERF_GLOBAL_STATUS, B_FIXED, GLOBAL_STATUS_ARCH_PEBS, false, C_ARCH},
    {{"overflow", "GLOBAL_STATUS counter overflow bits set", true, "SDM Vol. 3B 18.2.2"},
     H_ONE, MSR_IA32_PERF_GLOBAL_STATUS, B_OVERFLOW, 0, false, C_ALL},
    {{"inuse", "GLOBAL_INUSE not zero", true, "SDM Vol. 3B 18.2.4.3"},
     H_ONE, MSR_IA32_PERF_GLOBAL_INUSE, B_FIXED, ALL, false, C_ALL},
    /* IA32_DEBUGCTL (SDM Vol. 3B 17.4.1 Figure 17-3; BTS/TR: 17.4.9). */
    {{"lbr", "DEBUGCTL LBR (0) on", true, "SDM Vol. 3B 17.4.1"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_LBR, false, C_ALL},
    {{"btf", "DEBUGCTL BTF (1) on", true, "SDM Vol. 3B 17.4.1"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_BTF, false, C_ALL},
    {{"tr", "DEBUGCTL TR (6) on", true, "SDM Vol. 3B 17.4.1, 17.4.9"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_TR, false, C_ALL},
    {{"bts", "DEBUGCTL BTS (7) on", true, "SDM Vol. 3B 17.4.1, 17.4.9"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_BTS, false, C_ALL},
    {{"freeze-lbrs-on-pmi", "DEBUGCTL FREEZE_LBRS_ON_PMI (11) on", true,
      "SDM Vol. 3B 17.4.1, 17.4.7"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_FREEZE_LBRS_ON_PMI, false, C_ALL},
    {{"freeze-perfmon-on-pmi", "DEBUGCTL FREEZE_PERFMON_ON_PMI (12) on", true,
      "SDM Vol. 3B 17.4.1, 18.2.4.1"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_FREEZE_PERFMON_ON_PMI, false, C_ALL},
    {{"no-smm-freeze", "FREEZE_WHILE_SMM (14) off: counts go on in SMM", false,
      "SDM Vol. 3B 17.4.1; Vol. 4 IA32_PERF_CAPABILITIES[12]"},
     H_ONE, MSR_IA32_DEBUGCTL, B_FIXED, DEBUGCTL_FREEZE_WHILE_SMM, true, C_SMM_CAP},
    /* IA32_MISC_ENABLE (SDM Vol. 4 Table 2-2, 1A0H): read-only capability bits. */
    {{"pebs-unavailable", "MISC_ENABLE PEBS unavailable (12)", false, "SDM Vol. 4 MSR 1A0H"},
     H_ONE, MSR_IA32_MISC_ENABLE, B_FIXED, MISC_ENABLE_PEBS_UNAVAIL, false, C_ALL},
    {{"bts-unavailable", "MISC_ENABLE BTS unavailable (11)", false, "SDM Vol. 4 MSR 1A0H"},
     H_ONE, MSR_IA32_MISC_ENABLE, B_FIXED, MISC_ENABLE_BTS_UNAVAIL, false, C_ALL},
    /* LVTPC comes out of reset masked (SDM Vol. 3A 11.5.1). */
    {{"lvtpc-unmasked", "LVTPC unmasked: PMIs are delivered", false, "SDM Vol. 3A 11.5.1"},
     H_LVTPC, 0, B_FIXED, APIC_LVT_MASK, true, C_ALL},
};
// clang-format on

unsigned int handoff_kind_count(void)
{
	return ARRAY_SIZE(rows);
}

const struct handoff_kind *handoff_kind_at(unsigned int k)
{
	return k < ARRAY_SIZE(rows) ? &rows[k].k : NULL;
}

/* ---- reading ------------------------------------------------------------ */

static uint32_t gp_cfg(uint32_t base, unsigned int i)
{
	return base + MSR_V6_STEP * i;
}

static void add(struct handoff_state *st, uint32_t msr)
{
	struct handoff_msr *m;

	if (st->n >= HANDOFF_MAX_MSRS)
		return;
	m = &st->msr[st->n++];
	m->msr = msr;
	m->read = hw_rdmsr(msr, &m->val) == HW_OK;
	if (!m->read)
		m->val = 0;
}

static bool has_acr(const struct cpu_info *ci)
{
	return ci->ext.valid && (ci->ext.subleaves & PMEXT_SUB_ACR);
}

/*
 * Only what this CPU has, from cpu_probe()'s capabilities: an MSR that
 * is absent would #GP (trapped, but it is no finding).
 */
static void read_all(const struct cpu_info *ci, struct handoff_state *st)
{
	const struct pebs_flavour *fl = pebs_flavour_of_cpu(ci);
	bool baseline = ci->has_perf_caps && (ci->perf_caps & PERF_CAP_PEBS_BASELINE) &&
			PERF_CAP_PEBS_FMT(ci->perf_caps) >= 4;
	const struct uarch_info *ua = uarch_for_cpu(ci);
	unsigned int i;

	if (ci->vendor != VENDOR_INTEL)
		return;
	if (ci->pmu_version >= 2) {
		add(st, MSR_IA32_PERF_GLOBAL_CTRL);
		add(st, MSR_IA32_PERF_GLOBAL_STATUS);
		add(st, MSR_IA32_FIXED_CTR_CTRL);
	}
	if (ci->pmu_version >= 4)
		add(st, MSR_IA32_PERF_GLOBAL_INUSE);
	for (i = 0; i < 32 && i < ci->n_gp; i++) {
		if (!(ci->gp_mask & BIT_ULL(i)))
			continue;
		add(st, MSR_IA32_PERFEVTSEL0 + i);
		add(st, MSR_IA32_PMC0 + i);
	}
	for (i = 0; i < 32 && i < ci->n_fixed; i++)
		if (ci->fixed_mask & BIT_ULL(i))
			add(st, msr_fixed_ctr(i));
	/* PERF_METRICS: with PERF_CAPABILITIES[15] and fixed counter 3 (SLOTS). */
	if (ci->has_perf_caps && (ci->perf_caps & PERF_CAP_PERF_METRICS) &&
	    (ci->fixed_mask & BIT_ULL(3)))
		add(st, MSR_PERF_METRICS);
	add(st, MSR_IA32_DEBUGCTL);
	if (ci->has_misc_enable)
		add(st, MSR_IA32_MISC_ENABLE);
	if (ci->ds)
		add(st, MSR_IA32_DS_AREA);
	for (i = 0; i < fl->n_handoff_msrs; i++)
		add(st, fl->handoff_msrs[i]);
	if (baseline && fl->handoff_data_cfg)
		add(st, MSR_PEBS_DATA_CFG);
	/*
	 * LD_LAT and FRONTEND are model-specific (SDM Vol. 4): read where the
	 * generation row (pmu/uarch_table.c) has a load-latency event or writable
	 * FRONTEND bits; an unknown generation reads neither.
	 */
	if (ua && ua->ldlat_event && fl->records)
		add(st, MSR_PEBS_LD_LAT_THRESHOLD);
	if (ua && ua->frontend_valid && fl->records)
		add(st, MSR_PEBS_FRONTEND);
	for (i = 0; i < 32 && i < ci->n_gp; i++) {
		if (!(ci->gp_mask & BIT_ULL(i)))
			continue;
		if (has_acr(ci))
			add(st, gp_cfg(MSR_IA32_PMC_GP0_CFG_B, i));
		if (fl->handoff_cfg_c || has_acr(ci))
			add(st, gp_cfg(MSR_IA32_PMC_GP0_CFG_C, i));
	}
	for (i = 0; i < 32 && i < ci->n_fixed; i++) {
		if (!(ci->fixed_mask & BIT_ULL(i)))
			continue;
		if (has_acr(ci))
			add(st, gp_cfg(MSR_IA32_PMC_FX0_CFG_B, i));
		if (fl->handoff_cfg_c || has_acr(ci))
			add(st, gp_cfg(MSR_IA32_PMC_FX0_CFG_C, i));
	}
}

bool handoff_value(const struct handoff_state *st, uint32_t msr, uint64_t *val)
{
	for (unsigned int i = 0; i < st->n; i++) {
		if (st->msr[i].msr == msr && st->msr[i].read) {
			*val = st->msr[i].val;
			return true;
		}
	}
	return false;
}

/* ---- classifying -------------------------------------------------------- */

static uint64_t row_bits(const struct h_row *r, const struct cpu_info *ci)
{
	uint64_t m = 0;

	switch (r->how) {
	case B_FIXED:
		return r->bits;
	case B_FIXED_EN:
		for (unsigned int i = 0; i < 16 && i < ci->n_fixed; i++)
			if (ci->fixed_mask & BIT_ULL(i))
				m |= 0x3ULL << (4 * i);
		return m;
	case B_NOT_GP:
		return ~(uint64_t)ci->gp_mask;
	case B_OVERFLOW:
		return (uint64_t)ci->gp_mask | ((uint64_t)ci->fixed_mask << 32);
	}
	return 0;
}

static bool row_applies(const struct h_row *r, const struct cpu_info *ci)
{
	switch (r->cond) {
	case C_LEGACY:
	case C_ARCH:
		return (int)r->cond == (int)pebs_flavour_of_cpu(ci)->handoff_rows;
	case C_SMM_CAP:
		return ci->has_perf_caps && (ci->perf_caps & PERF_CAP_SMM_FREEZE);
	default:
		return true;
	}
}

static bool hit(const struct h_row *r, uint64_t v, uint64_t bits)
{
	return r->when_clear ? (v & bits) != bits : (v & bits) != 0;
}

/* Whether the MSR belongs to the row's range. */
static bool in_range(const struct h_row *r, const struct cpu_info *ci, uint32_t msr)
{
	for (unsigned int i = 0; i < 32; i++) {
		bool gp = i < ci->n_gp && (ci->gp_mask & BIT_ULL(i));
		bool fx = i < ci->n_fixed && (ci->fixed_mask & BIT_ULL(i));

		switch (r->where) {
		case H_EVTSEL:
			if (gp && msr == MSR_IA32_PERFEVTSEL0 + i)
				return true;
			break;
		case H_PMC:
			if (gp && msr == MSR_IA32_PMC0 + i)
				return true;
			break;
		case H_FIXED:
			if (fx && msr == msr_fixed_ctr(i))
				return true;
			break;
		case H_CFG_B:
			if ((gp && msr == gp_cfg(MSR_IA32_PMC_GP0_CFG_B, i)) ||
			    (fx && msr == gp_cfg(MSR_IA32_PMC_FX0_CFG_B, i)))
				return true;
			break;
		case H_CFG_C:
			if ((gp && msr == gp_cfg(MSR_IA32_PMC_GP0_CFG_C, i)) ||
			    (fx && msr == gp_cfg(MSR_IA32_PMC_FX0_CFG_C, i)))
				return true;
			break;
		default:
			return msr == r->msr;
		}
	}
	return false;
}

static void classify(const struct cpu_info *ci, struct handoff_state *st)
{
	st->found = 0;
	for (unsigned int k = 0; k < ARRAY_SIZE(rows); k++) {
		const struct h_row *r = &rows[k];
		uint64_t bits = row_bits(r, ci);

		if (!row_applies(r, ci) || !bits)
			continue;
		if (r->where == H_LVTPC) {
			if (hit(r, st->lvtpc, bits))
				st->found |= BIT_ULL(k);
			continue;
		}
		for (unsigned int i = 0; i < st->n; i++) {
			const struct handoff_msr *m = &st->msr[i];

			if (m->read && in_range(r, ci, m->msr) && hit(r, m->val, bits)) {
				st->found |= BIT_ULL(k);
				break;
			}
		}
	}
}

/* Architectural bits of STATUS_SET beside the counters': 55 Trace_ToPA_PMI, 58-62. */
#define STATUS_SET_OTHER (BIT_ULL(55) | GENMASK_ULL(62, 58))

uint64_t handoff_status_set_bits(const struct cpu_info *ci)
{
	if (ci->vendor != VENDOR_INTEL || ci->pmu_version < 4)
		return 0;
	return (uint64_t)ci->gp_mask | ((uint64_t)ci->fixed_mask << 32) | STATUS_SET_OTHER;
}

bool handoff_smi_read(const struct cpu_info *ci, uint64_t *count)
{
	*count = 0;
	if (ci->vendor != VENDOR_INTEL || ci->pmu_version < 3)
		return false;
	return hw_rdmsr(MSR_SMI_COUNT, count) == HW_OK;
}

bool handoff_pmc_fits(const struct cpu_info *ci, uint64_t value)
{
	uint64_t mask = ci->gp_width >= 64 ? ~0ULL : BIT_ULL(ci->gp_width) - 1;

	if (ci->has_perf_caps && (ci->perf_caps & PERF_CAP_FW_WRITE))
		return true;
	return value == ((uint64_t)(int64_t)(int32_t)(uint32_t)value & mask);
}

/* The GP counters found holding a value no write can put back. */
static uint32_t pmc_unrestorable(const struct cpu_info *ci, const struct handoff_state *st)
{
	uint32_t bad = 0;
	uint64_t v;

	for (unsigned int i = 0; i < ci->n_gp && i < 32; i++)
		if (handoff_value(st, MSR_IA32_PMC0 + i, &v) && !handoff_pmc_fits(ci, v))
			bad |= (uint32_t)BIT_ULL(i);
	return bad;
}

void handoff_read(const struct cpu_info *ci, struct handoff_state *st)
{
	memset(st, 0, sizeof(*st));
	st->cpu = ci->cpu;
	read_all(ci, st);
	st->lvtpc = hw_apic_read(APIC_LVTPC);
	st->has_smi = handoff_smi_read(ci, &st->smi);
	st->status_set = handoff_status_set_bits(ci);
	st->pmc_unrestorable = pmc_unrestorable(ci, st);
	classify(ci, st);
	st->valid = true;
}

/* ---- after the run ------------------------------------------------------ */

/* A counter counting at hand-off goes on counting: its value is not compared. */
static bool still_counting(const struct handoff_state *st, uint32_t msr, uint64_t *status_mask)
{
	uint64_t v, fctl = 0;

	handoff_value(st, MSR_IA32_FIXED_CTR_CTRL, &fctl);
	*status_mask = 0;
	for (unsigned int i = 0; i < 32; i++) {
		if (handoff_value(st, MSR_IA32_PERFEVTSEL0 + i, &v) && (v & EVTSEL_EN)) {
			*status_mask |= BIT_ULL(i);
			if (msr == MSR_IA32_PMC0 + i)
				return true;
		}
		if (i < 16 && ((fctl >> (4 * i)) & 0x3)) {
			*status_mask |= BIT_ULL(32 + i);
			/* PERF_METRICS moves with fixed counter 3 (SLOTS) */
			if (msr == msr_fixed_ctr(i) || (i == 3 && msr == MSR_PERF_METRICS))
				return true;
		}
	}
	return false;
}

uint64_t handoff_unrestorable(const struct handoff_state *st, const struct handoff_state *now)
{
	uint64_t was, is, mask;

	if (!handoff_value(st, MSR_IA32_PERF_GLOBAL_STATUS, &was) ||
	    !handoff_value(now, MSR_IA32_PERF_GLOBAL_STATUS, &is))
		return 0;
	still_counting(st, MSR_IA32_PERF_GLOBAL_STATUS, &mask);
	return was & ~is & ~mask & ~st->status_set;
}

uint32_t handoff_pmc_lost(const struct handoff_state *st, const struct handoff_state *now)
{
	uint32_t lost = 0;
	uint64_t was, is;

	for (unsigned int i = 0; i < 32; i++)
		if ((st->pmc_unrestorable & BIT_ULL(i)) &&
		    handoff_value(st, MSR_IA32_PMC0 + i, &was) &&
		    (!handoff_value(now, MSR_IA32_PMC0 + i, &is) || is != was))
			lost |= (uint32_t)BIT_ULL(i);
	return lost;
}

unsigned int handoff_compare(const struct handoff_state *st, const struct handoff_state *now,
			     char *why, size_t why_size)
{
	unsigned int bad = 0;

	if (why_size)
		why[0] = 0;
	for (unsigned int i = 0; i < st->n; i++) {
		const struct handoff_msr *m = &st->msr[i];
		uint64_t v, mask;

		if (!m->read)
			continue;
		if (still_counting(st, m->msr, &mask))
			continue;
		if (m->msr >= MSR_IA32_PMC0 && m->msr < MSR_IA32_PMC0 + 32 &&
		    (st->pmc_unrestorable & BIT_ULL(m->msr - MSR_IA32_PMC0)))
			continue;
		if (!handoff_value(now, m->msr, &v)) {
			if (!bad++)
				pp_snprintf(why, why_size,
					    "MSR 0x%x: 0x%llx at hand-off, unreadable now", m->msr,
					    (unsigned long long)m->val);
			continue;
		}
		if (m->msr == MSR_IA32_PERF_GLOBAL_STATUS) {
			mask |= handoff_unrestorable(st, now);
			v &= ~mask;
			if (v == (m->val & ~mask))
				continue;
			v |= m->val & mask;
		}
		if (v == m->val)
			continue;
		if (!bad++)
			pp_snprintf(why, why_size, "MSR 0x%x: 0x%llx at hand-off, 0x%llx now",
				    m->msr, (unsigned long long)m->val, (unsigned long long)v);
	}
	if (st->lvtpc != now->lvtpc && !bad++)
		pp_snprintf(why, why_size, "LVTPC: 0x%x at hand-off, 0x%x now", st->lvtpc,
			    now->lvtpc);
	return bad;
}
