// SPDX-License-Identifier: MIT
/*
 * sim.c - the simulated PMU's front: model selection, power-on reset, the
 * struct hw_ops backend, and the local APIC's LVT performance-counter entry.
 */
#include "sim_int.h"

struct sim_cpu sim_cpu;

/* sim_set_fixed_enum(): until the next sim_select(). */
static bool fx_override;
static uint32_t fx_ecx, fx_count;

#define APIC_EOI   0xb0
#define APIC_LVTPC 0x340
#define LVT_MASK   (1u << 16)

size_t sim_model_count(void)
{
	return sim_model_table_len;
}

const struct sim_model_info *sim_model_at(size_t i)
{
	return i < sim_model_table_len ? &sim_model_table[i].info : NULL;
}

const char *sim_current_model(void)
{
	return sim_cpu.m ? sim_cpu.m->info.name : NULL;
}

void sim_fixed_enum(const struct sim_model *m, uint32_t *ecx, uint32_t *edx_count)
{
	*ecx = fx_override ? fx_ecx : m->ca[2];
	*edx_count = fx_override ? fx_count : m->ca[3] & 0x1f;
}

uint32_t sim_fixed_present(uint32_t version, uint32_t ecx, uint32_t edx_count)
{
	uint32_t contiguous = edx_count >= 32 ? ~0u : (1u << edx_count) - 1;

	if (version < 2)
		return 0;
	return (version >= 5 ? ecx | contiguous : contiguous) & ((1u << SIM_MAX_FIXED) - 1);
}

int sim_set_fixed_enum(uint32_t ecx, uint32_t edx_count)
{
	if (!sim_cpu.m || (sim_cpu.m->ca[0] & 0xff) < 5 || edx_count > 0x1f)
		return -1;
	fx_override = true;
	fx_ecx = ecx;
	fx_count = edx_count;
	sim_reset();
	return 0;
}

/* The PMU's shape from the model's own CPUID.0AH and capability MSRs. */
static void derive_pmu(struct sim_cpu *c)
{
	const struct sim_model *m = c->m;
	struct sim_pmu *p = &c->pmu;
	bool pdcm = m->c1_ecx & (1u << 15), ds = m->c1_edx & (1u << 21);
	uint32_t ecx, count;

	memset(p, 0, sizeof(*p));
	if (m->vendor != SIM_INTEL)
		return;
	p->version = m->ca[0] & 0xff;
	p->n_gp = (m->ca[0] >> 8) & 0xff;
	p->gp_width = (m->ca[0] >> 16) & 0xff;
	p->fixed_width = (m->ca[3] >> 5) & 0xff;
	if (p->n_gp > SIM_MAX_GP)
		p->n_gp = SIM_MAX_GP;
	p->gp_mask = GENMASK_ULL(p->gp_width - 1, 0);
	p->fixed_mask = p->fixed_width ? GENMASK_ULL(p->fixed_width - 1, 0) : 0;
	/* Which fixed counters exist (sim_fixed_present); n_fixed: the highest + 1. */
	sim_fixed_enum(m, &ecx, &count);
	p->fixed_bitmap = sim_fixed_present(p->version, ecx, count);
	p->n_fixed = p->fixed_bitmap ? 32 - (uint32_t)__builtin_clz(p->fixed_bitmap) : 0;
	if (pdcm) {
		p->fmt = (m->perf_caps >> 8) & 0xf;
		p->baseline = p->fmt >= 4 && (m->perf_caps & (1u << 14));
		p->fw_write = m->perf_caps & (1u << 13);
		p->trap = m->perf_caps & (1u << 6);
	}
	p->pebs_usable = ds && !(m->misc_enable & (1u << 12)) &&
			 (m->pebs_enable_mask || (m->flags & F_ARCH_PEBS));
}

void sim_reset(void)
{
	struct sim_cpu *c = &sim_cpu;
	const struct sim_model *m = c->m;

	if (!m)
		return;
	sim_cache_free(c);
	memset(c, 0, sizeof(*c));
	c->m = m;
	derive_pmu(c);
	sim_msr_power_on(c);
	c->lvtpc = LVT_MASK; /* LVT entries come out of reset masked (SDM 11.5.1) */
	c->tsc = 0x100000;
	sim_cache_init(c);
	sim_rules_reset_count();
}

int sim_select(const char *name)
{
	size_t i;

	for (i = 0; name && i < sim_model_table_len; i++) {
		if (!strcmp(sim_model_table[i].info.name, name)) {
			sim_cpu.m = &sim_model_table[i];
			fx_override = false;
			sim_reset();
			return 0;
		}
	}
	return -1;
}

void sim_get_stats(struct sim_stats *st)
{
	*st = sim_cpu.stats;
}

bool sim_pmi_running(void)
{
	return sim_cpu.in_pmi;
}

void sim_set_pmi_delay(uint64_t instructions)
{
	sim_cpu.pmi_delay = instructions;
}

/* ---- hw_ops ------------------------------------------------------------ */

static void sim_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	if (!sim_cpu.m) {
		memset(r, 0, sizeof(*r));
		return;
	}
	sim_cpuid_leaf(sim_cpu.m, leaf, subleaf, r);
}

/* A pending PEBS record is written before the MSR access, as the assist came first. */
static void before_msr(void)
{
	sim_engine_flush(&sim_cpu, 0, false);
}

static void after_msr(void)
{
	sim_deliver_pmi(&sim_cpu);
}

static enum hw_fault sim_rdmsr(uint32_t msr, uint64_t *val)
{
	enum hw_fault f;

	if (!sim_cpu.m)
		return HW_GP;
	before_msr();
	f = sim_msr_read(&sim_cpu, msr, val);
	after_msr();
	return f;
}

static enum hw_fault sim_wrmsr(uint32_t msr, uint64_t val)
{
	enum hw_fault f;

	if (!sim_cpu.m)
		return HW_GP;
	before_msr();
	f = sim_msr_write(&sim_cpu, msr, val);
	if (f == HW_OK)
		sim_rules_check(&sim_cpu);
	after_msr();
	return f;
}

/* RDTSC itself takes time: consecutive reads differ (about 20 cycles). */
static uint64_t sim_rdtsc(void)
{
	sim_cpu.tsc += 20;
	return sim_cpu.tsc;
}

static uint32_t sim_apic_read(uint32_t reg)
{
	return reg == APIC_LVTPC ? sim_cpu.lvtpc : 0;
}

static void sim_apic_write(uint32_t reg, uint32_t val)
{
	if (reg == APIC_LVTPC) {
		sim_cpu.lvtpc = val & 0x107ff; /* vector, delivery mode, mask */
	} else if (reg == APIC_EOI) {
		sim_cpu.pmi_in_service = false;
		sim_deliver_pmi(&sim_cpu);
	}
}

static int sim_set_pmi_handler(uint8_t vector, hw_pmi_fn fn, void *ctx)
{
	if (fn && vector < 32)
		return -1; /* vectors 0-31 are exceptions */
	sim_cpu.pmi_vector = vector;
	sim_cpu.pmi_fn = fn;
	sim_cpu.pmi_ctx = ctx;
	return 0;
}

static void sim_mem_access(uint64_t ip, uint64_t addr, uint32_t size, uint32_t kind)
{
	if (sim_cpu.m)
		sim_engine_access(&sim_cpu, ip, addr, size, kind);
}

static void sim_retire(uint64_t ip, uint64_t n)
{
	if (sim_cpu.m)
		sim_engine_retire(&sim_cpu, ip, n);
}

static const struct hw_ops sim_ops = {
    .name = "sim",
    .simulated = true,
    .cpuid = sim_cpuid,
    .rdmsr = sim_rdmsr,
    .wrmsr = sim_wrmsr,
    .rdtsc = sim_rdtsc,
    .apic_read = sim_apic_read,
    .apic_write = sim_apic_write,
    .set_pmi_handler = sim_set_pmi_handler,
    .mem_access = sim_mem_access,
    .retire = sim_retire,
};

const struct hw_ops *sim_hw_ops(void)
{
	return &sim_ops;
}
