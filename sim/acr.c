// SPDX-License-Identifier: MIT
/*
 * acr.c - auto counter reload (ACR), behind the simulator option
 * sim-acr= only: no public register dump gives any part's ACR masks, so no
 * model row claims them (docs/SIM.md "Auto counter reload").
 *
 * What is modelled, from the public sources:
 *   - CPUID.23H.0:EAX[2] enumerates sub-leaf 2; 2:EAX / EBX are the GP /
 *     fixed counters that may be reloaded, 2:ECX / EDX those whose overflow
 *     may cause a reload (Linux core.c update_pmu_cap: acr_cntr_mask64 and
 *     acr_cause_mask64, fixed counters from bit 32, INTEL_PMC_IDX_FIXED).
 *   - IA32_PMC_GPn_CFG_B (0x1902 + 4n) / IA32_PMC_FXn_CFG_B (0x1982 + 4n):
 *     the counters whose overflow reloads counter n, GP i at bit i and
 *     fixed i at bit 32 + i; the reload value is CFG_C[31:0] (Linux core.c
 *     intel_pmu_config_acr, which writes the 32-bit -sample_period there;
 *     the "Support auto counter reload" commit ec980e4facef points to SDM
 *     Vol. 3 21.9.11 "Auto Counter Reload").  The reload is sign-extended
 *     to the counter's width: inferred, not from a source (Linux writes a
 *     u32 -sample_period unextended; the arch-PEBS reload in the same
 *     field is extended here by the same choice).
 *   - A counter whose own CFG_B names it (self-reloaded) leaves its
 *     IA32_PERF_GLOBAL_STATUS bit clear and raises no PMI when it wraps:
 *     "the overflow bit (IA32_PERF_GLOBAL_STATUS.PMCn_OVF) is never set
 *     for self-reloaded events", the SDM as Linux 1271aeccc307
 *     "perf/x86/intel: Disable PMI for self-reloaded ACR events" quotes it.
 *   - A CFG_B bit for a counter that may not cause a reload raises #GP
 *     (Linux 43796f305078 "Fix IA32_PMC_x_CFG_B MSRs access error": on
 *     Panther Lake GP counters 0 and 1 do not support ACR and writing bit 0
 *     of a CFG_B faults).  A non-zero CFG_B on a counter that may not be
 *     reloaded is refused the same way (the simulator's rule: no source says
 *     what silicon does; Linux never writes one).
 * A counter named in CFG_B is reloaded on the instruction whose event
 * made a counter of its CFG_B wrap, whether or not it counts itself.
 */
#include "sim_int.h"

/* sim_set_acr(): CPUID.23H.2 EAX, EBX, ECX, EDX; until the next sim_select(). */
static bool acr_on;
static uint32_t acr_regs[4];

int sim_set_acr(uint32_t reload_gp, uint32_t reload_fixed, uint32_t cause_gp, uint32_t cause_fixed)
{
	acr_on = reload_gp || reload_fixed || cause_gp || cause_fixed;
	acr_regs[0] = reload_gp;
	acr_regs[1] = reload_fixed;
	acr_regs[2] = cause_gp;
	acr_regs[3] = cause_fixed;
	sim_reset();
	return 0;
}

void sim_acr_clear(void)
{
	acr_on = false;
	memset(acr_regs, 0, sizeof(acr_regs));
}

/* Only where the row has leaf 23H (CPUID.(7,1):EAX[8], PMU v6). */
bool sim_acr_enumerated(const struct sim_model *m)
{
	return acr_on && (m->c71_eax & (1u << 8));
}

void sim_acr_leaf(const struct sim_model *m, struct cpuid_regs *r)
{
	if (!sim_acr_enumerated(m))
		return;
	r->eax = acr_regs[0];
	r->ebx = acr_regs[1];
	r->ecx = acr_regs[2];
	r->edx = acr_regs[3];
}

/* Counter bit b (GP i: i, fixed i: 32 + i) as the masks number them. */
static uint64_t reload_mask(void)
{
	return acr_regs[0] | ((uint64_t)acr_regs[1] << 32);
}

static uint64_t cause_mask(void)
{
	return acr_regs[2] | ((uint64_t)acr_regs[3] << 32);
}

static uint64_t *cfg_b(struct sim_cpu *c, unsigned int bit)
{
	return bit >= 32 ? &c->cfg_b_fx[bit - 32] : &c->cfg_b_gp[bit];
}

enum hw_fault sim_acr_rd_cfg_b(struct sim_cpu *c, unsigned int bit, uint64_t *v)
{
	*v = *cfg_b(c, bit);
	return HW_OK;
}

enum hw_fault sim_acr_wr_cfg_b(struct sim_cpu *c, unsigned int bit, uint64_t v)
{
	if (v & ~cause_mask())
		return HW_GP;
	if (v && !(reload_mask() & BIT_ULL(bit)))
		return HW_GP;
	*cfg_b(c, bit) = v;
	return HW_OK;
}

bool sim_acr_self_reload(const struct sim_cpu *c, unsigned int bit)
{
	uint64_t b = bit >= 32 ? c->cfg_b_fx[bit - 32] : c->cfg_b_gp[bit];

	return sim_acr_enumerated(c->m) && (b & BIT_ULL(bit));
}

static uint64_t sext32(uint64_t v, uint64_t mask)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v & mask;
}

void sim_acr_overflow(struct sim_cpu *c, uint64_t wrapped)
{
	unsigned int i;

	if (!wrapped || !sim_acr_enumerated(c->m))
		return;
	for (i = 0; i < c->pmu.n_gp && i < SIM_MAX_GP; i++)
		if (c->cfg_b_gp[i] & wrapped) {
			c->pmc[i] = sext32(c->cfg_c_gp[i], c->pmu.gp_mask);
			c->stats.acr_reloads++;
		}
	for (i = 0; i < c->pmu.n_fixed && i < SIM_MAX_FIXED; i++)
		if (c->cfg_b_fx[i] & wrapped) {
			c->fixed[i] = sext32(c->cfg_c_fx[i], c->pmu.fixed_mask);
			c->stats.acr_reloads++;
		}
}
