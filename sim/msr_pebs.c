// SPDX-License-Identifier: MIT
/*
 * msr_pebs.c - the simulated PEBS and DS MSRs: IA32_PEBS_ENABLE,
 * MSR_PEBS_DATA_CFG, the load-latency threshold, MSR_PEBS_FRONTEND,
 * IA32_DS_AREA and arch-PEBS's IA32_PEBS_BASE / IA32_PEBS_INDEX.
 *
 * Layouts: SDM Vol. 3B Figure 18-35 (PEBS_ENABLE), SDM Vol. 4 MSR tables,
 * Linux d21954c8a0ff (arch-PEBS PEBS_BASE / PEBS_INDEX).
 */
#include "msr.h"

/* ---- presence ---------------------------------------------------------- */

bool sim_msr_has_ds(const struct sim_cpu *c, unsigned int i)
{
	return c->m->c1_edx & BIT_ULL(21);
}

static bool has_pebs_enable(const struct sim_cpu *c, unsigned int i)
{
	return c->m->pebs_enable_mask != 0;
}

static bool has_ldlat(const struct sim_cpu *c, unsigned int i)
{
	return c->m->flags & F_LDLAT;
}

static bool has_data_cfg(const struct sim_cpu *c, unsigned int i)
{
	return c->pmu.baseline;
}

static bool has_frontend(const struct sim_cpu *c, unsigned int i)
{
	return c->m->frontend_mask != 0;
}

bool sim_msr_has_arch_pebs(const struct sim_cpu *c, unsigned int i)
{
	return c->m->flags & F_ARCH_PEBS;
}

/* ---- registers --------------------------------------------------------- */

SIMPLE_REG(pebs_enable)
SIMPLE_REG(data_cfg)
SIMPLE_REG(ld_lat)
SIMPLE_REG(frontend)
SIMPLE_REG(ds_area)
SIMPLE_REG(pebs_base)
SIMPLE_REG(pebs_index)

/* Reserved IA32_PEBS_ENABLE bits: #GP, and said why (the generation's layout). */
static enum hw_fault pebs_enable_reserved(struct sim_cpu *c, uint64_t v)
{
	uint64_t bad = v & ~c->m->pebs_enable_mask;

	if (bad & 0xffffffffull)
		sim_violation(
		    c, "pebs-counter",
		    "IA32_PEBS_ENABLE=0x%llx: PEBS on a counter this generation does not "
		    "allow (PEBS_EN bits 0x%llx writable; Core 2, Silvermont, Goldmont: "
		    "PMC0 only, SDM 18.4.4 / 18.7.1; Nehalem-Skylake: PMC0-3, SDM 18.9.4)",
		    (unsigned long long)v,
		    (unsigned long long)(c->m->pebs_enable_mask & 0xffffffffull));
	else
		sim_violation(
		    c, "pebs-enable-layout",
		    "IA32_PEBS_ENABLE=0x%llx sets bits 0x%llx reserved on this generation "
		    "(LL_EN 35:32 before Ice Lake, fixed counters 32+ with baseline, PS_EN 63 "
		    "on Sandy Bridge only: SDM Fig. 18-35, Linux ds.c intel_pmu_pebs_enable)",
		    (unsigned long long)v, (unsigned long long)bad);
	return HW_GP;
}

static enum hw_fault wr_pebs_enable(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, c->m->pebs_enable_mask))
		return pebs_enable_reserved(c, v);
	if (v && !c->pmu.pebs_usable) {
		sim_violation(c, "pebs-unavailable",
			      "IA32_PEBS_ENABLE=0x%llx on a part whose IA32_MISC_ENABLE[12] "
			      "(PEBS_UNAVAIL) is set: PEBS must not be used (SDM Vol. 4, MSR 1A0H; "
			      "Linux kernel/cpu/intel.c)",
			      (unsigned long long)v);
		return HW_GP;
	}
	c->pebs_enable = v;
	return HW_OK;
}

static enum hw_fault wr_data_cfg(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	/*
	 * MEMINFO, GP, XMM, LBR, LBR entries [31:24] (Linux perf_event.h PEBS_DATACFG_*);
	 * format 6 adds the counter snapshot: CNTR 4, METRICS 5, GP mask 47:32, fixed
	 * mask 55:48 (Linux e02e9b0374c3: "The feature is available in the PEBS format V6").
	 */
	uint64_t ok = 0xf | GENMASK_ULL(31, 24);

	if (c->pmu.fmt >= 6)
		ok |= GENMASK_ULL(5, 4) | GENMASK_ULL(55, 32);
	if (sim_msr_check(v, ok))
		return HW_GP;
	c->data_cfg = v;
	return HW_OK;
}

static enum hw_fault wr_ld_lat(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, 0xffff))
		return HW_GP;
	c->ld_lat = v;
	return HW_OK;
}

static enum hw_fault wr_frontend(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, c->m->frontend_mask))
		return HW_GP;
	c->frontend = v;
	return HW_OK;
}

/* IA32_DS_AREA holds a linear address: non-canonical -> #GP (48-bit linear). */
static enum hw_fault wr_ds_area(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if ((uint64_t)((int64_t)(v << 16) >> 16) != v)
		return HW_GP;
	c->ds_area = v;
	return HW_OK;
}

/* Arch-PEBS IA32_PEBS_BASE: 4 KiB-aligned physical address | SIZE [3:0] (Linux msr-index.h,
 * arch-PEBS d21954c8a0ff). */
static enum hw_fault wr_pebs_base(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, sim_phys_mask(c) | 0xf))
		return HW_GP;
	c->pebs_base = v;
	return HW_OK;
}

/* IA32_PEBS_INDEX: WR [26:4], FULL 31, EN 32, THRESH [58:36] (Linux msr-index.h ARCH_PEBS_*,
 * d21954c8a0ff). */
static enum hw_fault wr_pebs_index(struct sim_cpu *c, unsigned int i, uint64_t v)
{
	if (sim_msr_check(v, GENMASK_ULL(26, 4) | BIT_ULL(31) | BIT_ULL(32) | GENMASK_ULL(58, 36)))
		return HW_GP;
	c->pebs_index = v;
	return HW_OK;
}

/* ---- the table --------------------------------------------------------- */

// clang-format off
const struct msr_def sim_msr_pebs_table[] = {
    {0x3f1, ONE, 1, "IA32_PEBS_ENABLE", has_pebs_enable, rd_pebs_enable, wr_pebs_enable},
    {0x3f2, ONE, 1, "MSR_PEBS_DATA_CFG", has_data_cfg, rd_data_cfg, wr_data_cfg},
    {0x3f4, ONE, 1, "IA32_PEBS_BASE", sim_msr_has_arch_pebs, rd_pebs_base, wr_pebs_base},
    {0x3f5, ONE, 1, "IA32_PEBS_INDEX", sim_msr_has_arch_pebs, rd_pebs_index, wr_pebs_index},
    {0x3f6, ONE, 1, "MSR_PEBS_LD_LAT_THRESHOLD", has_ldlat, rd_ld_lat, wr_ld_lat},
    {0x3f7, ONE, 1, "MSR_PEBS_FRONTEND", has_frontend, rd_frontend, wr_frontend},
    {0x600, ONE, 1, "IA32_DS_AREA", sim_msr_has_ds, rd_ds_area, wr_ds_area},
};
// clang-format on
const size_t sim_msr_pebs_count = ARRAY_SIZE(sim_msr_pebs_table);
