// SPDX-License-Identifier: MIT
/*
 * msr.c - the simulated MSR file: one row per MSR (or counter range), its
 * presence on the model and its writable bits.  A missing MSR or a reserved
 * bit set raises #GP (HW_GP), as the SDM says for every MSR in Vol. 4
 * ("... #GP if a reserved bit is set / the MSR is not supported").
 *
 * Layouts: SDM Vol. 4 MSR tables and Linux asm/msr-index.h (MSR map), SDM
 * Vol. 3B 18.2 (architectural PMU v1-v5), Linux d21954c8a0ff (arch-PEBS
 * CFG_C).  The PEBS and DS MSRs are sim/msr_pebs.c's rows.
 */
#include "msr.h"

#define EVTSEL_INT	BIT_ULL(20)
#define EVTSEL_ANY	BIT_ULL(21)
#define EVTSEL_EN	BIT_ULL(22)
#define EVTSEL_IN_TX	BIT_ULL(32)
#define EVTSEL_IN_TXCP	BIT_ULL(33)
#define EVTSEL_ADAPTIVE BIT_ULL(34)
#define EVTSEL_EQ	BIT_ULL(36)
#define EVTSEL_UMASK2	GENMASK_ULL(47, 40)

/* ---- presence ---------------------------------------------------------- */

static bool is_intel(const struct sim_cpu *c, unsigned int i)
{
	return c->m->vendor == SIM_INTEL;
}

static bool any_vendor(const struct sim_cpu *c, unsigned int i)
{
	return true;
}

static bool has_gp(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 1 && i < c->pmu.n_gp;
}

static bool has_fw_gp(const struct sim_cpu *c, unsigned int i)
{
	return has_gp(c, i) && c->pmu.fw_write;
}

/* A fixed counter CPUID.0AH does not enumerate raises #GP (sim_fixed_present). */
static bool has_fixed(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 2 && i < SIM_MAX_FIXED && (c->pmu.fixed_bitmap & (1u << i));
}

/* IA32_PMC_FXn_CTR 0x1980 + 4n: PMU version 6 (Linux 149fd4712bcd, msr-index.h
 * MSR_IA32_PMC_V6_FX0_CTR). */
static bool has_fixed_v6(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 6 && has_fixed(c, i);
}

static bool has_global(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 2;
}

/* IA32_PERF_GLOBAL_STATUS_SET exists from architectural PMU version 4 (SDM 18.2.4). */
static bool has_status_set(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 4;
}

/* MSR_PERF_METRICS (329H): PERF_CAPABILITIES[15] with fixed counter 3 (Linux core.c
 * intel_pmu_init). */
static bool has_perf_metrics(const struct sim_cpu *c, unsigned int i)
{
	return (c->m->perf_caps & BIT_ULL(15)) && has_fixed(c, 3);
}

static enum hw_fault rd_perf_metrics(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->perf_metrics;
	return HW_OK;
}

static enum hw_fault wr_perf_metrics(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	c->perf_metrics = v;
	return HW_OK;
}

/* IA32_PERF_GLOBAL_INUSE: "If CPUID.0AH: EAX[7:0] > 3" (SDM Vol. 4, MSR 392H). */
static bool has_inuse(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.version >= 4;
}

static bool has_pdcm(const struct sim_cpu *c, unsigned int i)
{
	return c->m->c1_ecx & BIT_ULL(15);
}

static bool has_offcore(const struct sim_cpu *c, unsigned int i)
{
	return c->m->offcore_mask[i] != 0;
}

/* CFG_C: the arch-PEBS controls and the reload value, also ACR's (sim/acr.c). */
static bool has_cfg_c_gp(const struct sim_cpu *c, unsigned int i)
{
	return (sim_msr_has_arch_pebs(c, i) || sim_acr_enumerated(c->m)) && has_gp(c, i);
}

static bool has_cfg_c_fx(const struct sim_cpu *c, unsigned int i)
{
	return (sim_msr_has_arch_pebs(c, i) || sim_acr_enumerated(c->m)) && has_fixed(c, i);
}

/* CFG_B: ACR's cause mask, where CPUID.23H.2 is enumerated (sim/acr.c). */
static bool has_cfg_b_gp(const struct sim_cpu *c, unsigned int i)
{
	return sim_acr_enumerated(c->m) && has_gp(c, i);
}

static bool has_cfg_b_fx(const struct sim_cpu *c, unsigned int i)
{
	return sim_acr_enumerated(c->m) && has_fixed(c, i);
}

/* ---- writable-bit masks ------------------------------------------------ */

static uint64_t evtsel_mask(const struct sim_cpu *c)
{
	uint64_t m = 0xffffffffull;

	if (c->pmu.version < 3)
		m &= ~EVTSEL_ANY; /* AnyThread appears with version 3 (SDM 18.2.3) */
	if (c->m->flags & F_TSX)
		m |= EVTSEL_IN_TX | EVTSEL_IN_TXCP;
	if (c->pmu.baseline)
		m |= EVTSEL_ADAPTIVE; /* bit 34 only with PEBS baseline (Linux perf_event.h
					 ICL_EVENTSEL_ADAPTIVE) */
	/* only where CPUID.23H.0:EBX enumerates them (Linux core.c update_pmu_cap) */
	if (c->pmu.umask2)
		m |= EVTSEL_UMASK2;
	if (c->pmu.eq)
		m |= EVTSEL_EQ;
	return m;
}

static uint64_t fixed_ctrl_mask(const struct sim_cpu *c)
{
	uint64_t m = 0;
	unsigned int i;

	for (i = 0; i < c->pmu.n_fixed; i++) {
		if (!(c->pmu.fixed_bitmap & (1u << i)))
			continue;	/* an absent counter's field is reserved */
		m |= 0xbull << (4 * i); /* OS, USR, PMI */
		if (c->pmu.version >= 3)
			m |= 0x4ull << (4 * i); /* AnyThread */
		if (c->pmu.baseline)
			m |= BIT_ULL(
			    32 + 4 * i); /* adaptive (Linux perf_event.h ICL_FIXED_0_ADAPTIVE) */
	}
	return m;
}

static uint64_t global_ctrl_mask(const struct sim_cpu *c)
{
	uint64_t m = ((1ull << c->pmu.n_gp) - 1) | ((uint64_t)c->pmu.fixed_bitmap << 32);

	if (c->m->perf_caps & BIT_ULL(15))
		m |= BIT_ULL(48); /* EN_PERF_METRICS */
	return m;
}

/* Bits of IA32_PERF_GLOBAL_STATUS (SDM Vol. 4 Table 2-2, MSR 38EH; Linux msr-index.h). */
uint64_t sim_status_mask(const struct sim_cpu *c)
{
	uint64_t m = global_ctrl_mask(c) | BIT_ULL(63);

	if (sim_msr_has_ds(c, 0) && c->m->pebs_enable_mask)
		m |= BIT_ULL(62); /* OvfBuffer (DS PEBS threshold) */
	if (c->m->flags & F_ARCH_PEBS)
		m |= BIT_ULL(54); /* arch-PEBS threshold */
	if (c->pmu.version >= 4)
		m |= BIT_ULL(58) | BIT_ULL(59); /* LBR_Frz, CTR_Frz */
	return m;
}

static uint64_t debugctl_mask(const struct sim_cpu *c)
{
	uint64_t m = 0x1fc3; /* LBR, BTF, TR, BTS, BTINT, BTS_OFF_OS/USR, FREEZE_LBRS/PERFMON */

	if (c->pmu.version >= 3)
		m |= BIT_ULL(13); /* ENABLE_UNCORE_PMI */
	if (c->m->perf_caps & BIT_ULL(12))
		m |= BIT_ULL(14); /* FREEZE_WHILE_SMM */
	if (c->m->flags & F_TSX)
		m |= BIT_ULL(15); /* RTM_DEBUG */
	return m;
}

/* ---- counters ---------------------------------------------------------- */

static enum hw_fault rd_pmc(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->pmc[i];
	return HW_OK;
}

/* Legacy IA32_PMCx: bits 31:0 written, sign-extended to the counter width. */
static enum hw_fault wr_pmc(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	sim_rules_on_reprogram(c, i, "IA32_PMC");
	c->pmc[i] = (uint64_t)(int64_t)(int32_t)(uint32_t)v & c->pmu.gp_mask;
	return HW_OK;
}

/* IA32_A_PMCx (PERF_CAPABILITIES[13]): full width; wider than the counter -> #GP. */
static enum hw_fault wr_a_pmc(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, c->pmu.gp_mask))
		return HW_GP;
	sim_rules_on_reprogram(c, i, "IA32_A_PMC");
	c->pmc[i] = v;
	return HW_OK;
}

static enum hw_fault rd_evtsel(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->evtsel[i];
	return HW_OK;
}

static enum hw_fault wr_evtsel(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, evtsel_mask(c)))
		return HW_GP;
	if (v != c->evtsel[i])
		sim_rules_on_reprogram(c, i, "IA32_PERFEVTSEL");
	c->evtsel[i] = v;
	c->programmed |= BIT_ULL(i);
	sim_evtsel_written(c, i);
	c->ev[i] = sim_event_decode(c->m, v);
	c->shadowed &= ~BIT_ULL(i);
	sim_place_decode(c, i);
	return HW_OK;
}

static enum hw_fault rd_fixed(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->fixed[i];
	return HW_OK;
}

static enum hw_fault wr_fixed(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, c->pmu.fixed_mask))
		return HW_GP;
	c->fixed[i] = v;
	return HW_OK;
}

/* ---- global controls --------------------------------------------------- */

SIMPLE_REG(fixed_ctrl)
SIMPLE_REG(global_ctrl)
SIMPLE_REG(global_status)
SIMPLE_REG(misc_enable)
SIMPLE_REG(debugctl)
SIMPLE_REG(bios_sign)

static enum hw_fault wr_fixed_ctrl(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, fixed_ctrl_mask(c)))
		return HW_GP;
	c->fixed_ctrl = v;
	c->programmed |= (BIT_ULL(c->pmu.n_fixed) - 1) << 32;
	return HW_OK;
}

static enum hw_fault wr_global_ctrl(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, global_ctrl_mask(c)))
		return HW_GP;
	sim_rules_global_ctrl(c, v);
	c->global_ctrl = v;
	return HW_OK;
}

static enum hw_fault wr_read_only(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	return HW_GP;
}

/* IA32_PERF_GLOBAL_OVF_CTRL / STATUS_RESET: write 1 to clear. */
static enum hw_fault wr_ovf_ctrl(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, sim_status_mask(c)))
		return HW_GP;
	c->global_status &= ~v;
	return HW_OK;
}

static enum hw_fault rd_zero(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = 0;
	return HW_OK;
}

/* IA32_PERF_GLOBAL_STATUS_SET (v4): sets status bits, as an overflow would. */
static enum hw_fault wr_status_set(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, sim_status_mask(c) & ~BIT_ULL(63)) || sim_handoff_refuses_set(c, v))
		return HW_GP;
	c->global_status |= v;
	sim_engine_status_set(c, v);
	return HW_OK;
}

/*
 * IA32_PERF_GLOBAL_INUSE (v4+, read-only), from the CPU's own state (SDM
 * Vol. 3B 18.2.4.3, "Performance Monitoring Resource In-Use"; Vol. 4 MSR
 * 392H): bit n while PERFEVTSELn[7:0] is not 0, bit 32+i while fixed
 * counter i's enable field of FIXED_CTR_CTRL is not 0, bit 63 (PMI_InUse)
 * while any PERFEVTSELn.INT, fixed counter PMI bit or PEBS_ENABLE counter
 * bit is set.
 */
static enum hw_fault rd_global_inuse(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	uint64_t in = 0;
	bool pmi = c->pmu.n_gp && (c->pebs_enable & GENMASK_ULL(c->pmu.n_gp - 1, 0));

	for (unsigned int n = 0; n < c->pmu.n_gp; n++) {
		if (c->evtsel[n] & 0xff)
			in |= BIT_ULL(n);
		pmi |= c->evtsel[n] & BIT_ULL(20);
	}
	for (unsigned int f = 0; f < SIM_MAX_FIXED && 32 + f < 63; f++) {
		if (!(c->pmu.fixed_bitmap & (1u << f)))
			continue;
		if ((c->fixed_ctrl >> (4 * f)) & 3)
			in |= BIT_ULL(32 + f);
		pmi |= (c->fixed_ctrl >> (4 * f + 3)) & 1;
	}
	*v = in | (pmi ? BIT_ULL(63) : 0);
	return HW_OK;
}

static enum hw_fault rd_offcore(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->offcore[i];
	return HW_OK;
}

/* SDM Vol. 3B 18.6.3: AVG_LATENCY (bit 38) exists in MSR_OFFCORE_RSP0 only: the masks say so. */
static enum hw_fault wr_offcore(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, c->m->offcore_mask[i]))
		return HW_GP;
	c->offcore[i] = v;
	return HW_OK;
}

/* PERFMON_AVAIL (7), BTS_UNAVAIL (11), PEBS_UNAVAIL (12) are read-only. */
static enum hw_fault wr_misc_enable(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	uint64_t ro = BIT_ULL(7) | BIT_ULL(11) | BIT_ULL(12);

	c->misc_enable = (v & ~ro) | (c->misc_enable & ro);
	return HW_OK;
}

static enum hw_fault rd_perf_caps(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->m->perf_caps;
	return HW_OK;
}

static enum hw_fault rd_platform_id(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->m->platform_id;
	return HW_OK;
}

/* IA32_BIOS_SIGN_ID: software writes 0, executes CPUID(1), reads the revision. */
static enum hw_fault wr_bios_sign(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	return HW_OK;
}

static enum hw_fault wr_debugctl(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, debugctl_mask(c)))
		return HW_GP;
	c->debugctl = v;
	return HW_OK;
}

/* Physical-address bits [MAXPHYADDR-1:12] of a 4 KiB-aligned address. */
uint64_t sim_phys_mask(const struct sim_cpu *c)
{
	return GENMASK_ULL((c->m->phys_bits ? c->m->phys_bits : 39) - 1, 12);
}

static uint64_t cfg_c_mask(const struct sim_cpu *c)
{
	return 0xffffffffull | ((uint64_t)c->m->c23_caps << 32);
}

static enum hw_fault rd_cfg_c_gp(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->cfg_c_gp[i];
	return HW_OK;
}

static enum hw_fault wr_cfg_c_gp(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, cfg_c_mask(c)))
		return HW_GP;
	c->cfg_c_gp[i] = v;
	return HW_OK;
}

static enum hw_fault rd_cfg_c_fx(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = c->cfg_c_fx[i];
	return HW_OK;
}

static enum hw_fault wr_cfg_c_fx(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, cfg_c_mask(c)))
		return HW_GP;
	c->cfg_c_fx[i] = v;
	return HW_OK;
}

static enum hw_fault rd_cfg_b_gp(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	return sim_acr_rd_cfg_b(c, i, v);
}

static enum hw_fault wr_cfg_b_gp(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	return sim_acr_wr_cfg_b(c, i, v);
}

static enum hw_fault rd_cfg_b_fx(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	return sim_acr_rd_cfg_b(c, 32 + i, v);
}

static enum hw_fault wr_cfg_b_fx(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	return sim_acr_wr_cfg_b(c, 32 + i, v);
}

/* MSR_SMI_COUNT (34H): read-only, from PMU v3 (sim/handoff.c). */
static bool has_smi_count(const struct sim_cpu *c, unsigned int i)
{
	return sim_handoff_has_smi(c);
}

static enum hw_fault rd_smi_count(struct sim_cpu *c, unsigned int i, uint64_t *v)
{
	*v = sim_handoff_smi_count(c);
	return HW_OK;
}

/* ---- the table --------------------------------------------------------- */

static const struct msr_def msr_table[] = {
    {0x017, ONE, 1, "IA32_PLATFORM_ID", is_intel, rd_platform_id, wr_read_only},
    {0x034, ONE, 1, "MSR_SMI_COUNT", has_smi_count, rd_smi_count, wr_read_only},
    {0x08b, ONE, 1, "IA32_BIOS_SIGN_ID", any_vendor, rd_bios_sign, wr_bios_sign},
    {0x0c1, PER_GP, 1, "IA32_PMC", has_gp, rd_pmc, wr_pmc},
    {0x186, PER_GP, 1, "IA32_PERFEVTSEL", has_gp, rd_evtsel, wr_evtsel},
    {0x1a0, ONE, 1, "IA32_MISC_ENABLE", is_intel, rd_misc_enable, wr_misc_enable},
    {0x1a6, PAIR, 1, "MSR_OFFCORE_RSP", has_offcore, rd_offcore, wr_offcore},
    {0x1d9, ONE, 1, "IA32_DEBUGCTL", is_intel, rd_debugctl, wr_debugctl},
    /* IA32_FIXED_CTR0-3 only (SDM Vol. 4 Table 2-2); 4 and up at IA32_PMC_FXn_CTR */
    {0x309, PER_FIXED_LEGACY, 1, "IA32_FIXED_CTR", has_fixed, rd_fixed, wr_fixed},
    {0x329, ONE, 1, "MSR_PERF_METRICS", has_perf_metrics, rd_perf_metrics, wr_perf_metrics},
    {0x345, ONE, 1, "IA32_PERF_CAPABILITIES", has_pdcm, rd_perf_caps, wr_read_only},
    {0x38d, ONE, 1, "IA32_FIXED_CTR_CTRL", has_global, rd_fixed_ctrl, wr_fixed_ctrl},
    {0x38e, ONE, 1, "IA32_PERF_GLOBAL_STATUS", has_global, rd_global_status, wr_read_only},
    {0x38f, ONE, 1, "IA32_PERF_GLOBAL_CTRL", has_global, rd_global_ctrl, wr_global_ctrl},
    {0x390, ONE, 1, "IA32_PERF_GLOBAL_OVF_CTRL", has_global, rd_zero, wr_ovf_ctrl},
    {0x391, ONE, 1, "IA32_PERF_GLOBAL_STATUS_SET", has_status_set, rd_zero, wr_status_set},
    {0x392, ONE, 1, "IA32_PERF_GLOBAL_INUSE", has_inuse, rd_global_inuse, wr_read_only},
    {0x4c1, PER_GP, 1, "IA32_A_PMC", has_fw_gp, rd_pmc, wr_a_pmc},
    {0x1902, PER_GP, 4, "IA32_PMC_GP_CFG_B", has_cfg_b_gp, rd_cfg_b_gp, wr_cfg_b_gp},
    {0x1903, PER_GP, 4, "IA32_PMC_GP_CFG_C", has_cfg_c_gp, rd_cfg_c_gp, wr_cfg_c_gp},
    {0x1980, PER_FIXED, 4, "IA32_PMC_FX_CTR", has_fixed_v6, rd_fixed, wr_fixed},
    {0x1982, PER_FIXED, 4, "IA32_PMC_FX_CFG_B", has_cfg_b_fx, rd_cfg_b_fx, wr_cfg_b_fx},
    {0x1983, PER_FIXED, 4, "IA32_PMC_FX_CFG_C", has_cfg_c_fx, rd_cfg_c_fx, wr_cfg_c_fx},
};

static unsigned int span(enum msr_count n)
{
	switch (n) {
	case PER_GP:
		return SIM_MAX_GP;
	case PER_FIXED:
		return SIM_MAX_FIXED;
	case PER_FIXED_LEGACY:
		return 4;
	case PAIR:
		return 2;
	default:
		return 1;
	}
}

/* The row of `table` whose range holds msr, and msr's index in it. */
static const struct msr_def *row_of(const struct msr_def *table, size_t n, uint32_t msr,
				    unsigned int *idx)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct msr_def *d = &table[k];
		uint32_t off;

		if (msr < d->base)
			continue;
		off = msr - d->base;
		if (off % d->stride || off / d->stride >= span(d->count))
			continue;
		*idx = off / d->stride;
		return d;
	}
	return NULL;
}

/* How many rows of msr_table and sim_msr_pebs_table hold msr. */
static unsigned int rows_holding(uint32_t msr)
{
	unsigned int idx;
	unsigned int n = 0;

	for (size_t k = 0; k < ARRAY_SIZE(msr_table); k++)
		n += row_of(&msr_table[k], 1, msr, &idx) != NULL;
	for (size_t k = 0; k < sim_msr_pebs_count; k++)
		n += row_of(&sim_msr_pebs_table[k], 1, msr, &idx) != NULL;
	return n;
}

/*
 * find() takes the first row that holds an MSR, msr_table before the PEBS
 * table, so a second row for the same MSR would never answer: the first
 * MSR that two rows hold, or 0 where each MSR has one row.
 */
uint32_t sim_msr_first_shared(void)
{
	const struct msr_def *tables[] = {msr_table, sim_msr_pebs_table};
	const size_t counts[] = {ARRAY_SIZE(msr_table), sim_msr_pebs_count};

	for (size_t t = 0; t < ARRAY_SIZE(tables); t++)
		for (size_t k = 0; k < counts[t]; k++)
			for (unsigned int i = 0; i < span(tables[t][k].count); i++) {
				uint32_t msr = tables[t][k].base + i * tables[t][k].stride;

				if (rows_holding(msr) > 1)
					return msr;
			}
	return 0;
}

static const struct msr_def *find(const struct sim_cpu *c, uint32_t msr, unsigned int *idx)
{
	const struct msr_def *d = row_of(msr_table, ARRAY_SIZE(msr_table), msr, idx);

	if (!d)
		d = row_of(sim_msr_pebs_table, sim_msr_pebs_count, msr, idx);
	return d && d->present(c, *idx) ? d : NULL;
}

enum hw_fault sim_msr_read(struct sim_cpu *c, uint32_t msr, uint64_t *val)
{
	unsigned int i;
	const struct msr_def *d = find(c, msr, &i);

	*val = 0;
	return d ? d->rd(c, i, val) : HW_GP;
}

enum hw_fault sim_msr_write(struct sim_cpu *c, uint32_t msr, uint64_t val)
{
	unsigned int i;
	const struct msr_def *d = find(c, msr, &i);

	return d ? d->wr(c, i, val) : HW_GP;
}

/* Power-on values (SDM Vol. 4 reset values; GLOBAL_CTRL enables the GP counters). */
void sim_msr_power_on(struct sim_cpu *c)
{
	unsigned int i;

	memset(c->pmc, 0, sizeof(c->pmc));
	memset(c->evtsel, 0, sizeof(c->evtsel));
	memset(c->fixed, 0, sizeof(c->fixed));
	memset(c->cfg_c_gp, 0, sizeof(c->cfg_c_gp));
	memset(c->cfg_c_fx, 0, sizeof(c->cfg_c_fx));
	memset(c->cfg_b_gp, 0, sizeof(c->cfg_b_gp));
	memset(c->cfg_b_fx, 0, sizeof(c->cfg_b_fx));
	for (i = 0; i < SIM_MAX_GP; i++)
		c->ev[i] = NULL;
	sim_place_init(c);
	c->fixed_ctrl = 0;
	c->perf_metrics = 0;
	c->global_ctrl = c->pmu.version >= 2 ? (1ull << c->pmu.n_gp) - 1 : 0;
	c->global_status = 0;
	c->pebs_enable = c->data_cfg = c->ld_lat = c->frontend = 0;
	c->offcore[0] = c->offcore[1] = 0;
	c->ds_area = c->debugctl = c->pebs_base = c->pebs_index = 0;
	c->misc_enable = c->m->misc_enable;
	c->bios_sign =
	    c->m->vendor == SIM_AMD ? sim_microcode(c->m) : (uint64_t)sim_microcode(c->m) << 32;
}
