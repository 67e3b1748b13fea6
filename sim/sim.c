// SPDX-License-Identifier: MIT
/*
 * sim.c - the simulated PMU's front: model selection, power-on reset, the
 * struct hw_ops backend, and the local APIC's LVT performance-counter entry.
 */
#include "sim_int.h"
#include "../lib/platform.h"

/*
 * One simulated CPU per processor of the platform (plat_cpu_count(), no
 * fixed cap: allocated by sim_select()): each has its own PMU state, MSRs,
 * local APIC and caches, as the MSRs of a real part are per core.  The
 * calling CPU picks its own (plat_cpu_self()).  sim_cpus[0] stands before
 * any sim_select().
 */
static struct sim_cpu sim_cpu0;
static struct sim_cpu *sim_cpus = &sim_cpu0;
static unsigned int sim_ncpus = 1, sim_cap = 1;
static const struct sim_model *sim_machine; /* model=NAME's row */
static enum sim_fault sim_fault0, *sim_faults = &sim_fault0;
static int32_t sim_fault_arg0, *sim_fault_args = &sim_fault_arg0;

/* sim_set_fixed_enum(): until the next sim_select(). */
static bool fx_override;
static uint32_t fx_ecx, fx_count;
static uint32_t fx_width; /* sim_set_fixed_width(); 0: the model's */
/* sim_set_microcode(), sim_set_stepping(): until the next sim_select(). */
static bool ucode_override, stepping_override;
static uint32_t ucode_rev, stepping_val;

#define APIC_TPR       0x80 /* task priority (SDM Vol. 3A 11.8.3.1) */
#define APIC_EOI       0xb0
#define APIC_ISR       0x100
#define APIC_IRR       0x200
#define APIC_LVTPC     0x340
#define APIC_LVT_LINT0 0x350 /* LVT LINT0 (SDM Vol. 3A 11.5.1) */
/*
 * LINT0's writable bits: vector, delivery mode, polarity, trigger mode,
 * mask; delivery status (12) and remote IRR (14) are the APIC's, read only
 * (SDM Vol. 3A Figure 11-8).
 */
#define LVT_LINT_RW	0x1a7ffu
#define LVT_EXTINT	(7u << 8) /* delivery mode 111b */
#define LVT_MASK	(1u << 16)
#define APIC_SVR	0xf0	  /* spurious-interrupt vector (SDM Vol. 3A 11.9) */
#define APIC_SVR_ENABLE (1u << 8) /* APIC software enable */

/* model=NAME's models: every row but the core rows of a hybrid machine. */
size_t sim_model_count(void)
{
	size_t n = 0;

	for (size_t i = 0; i < sim_model_table_len; i++)
		n += !sim_model_table[i].core_only;
	return n;
}

const struct sim_model_info *sim_model_at(size_t i)
{
	for (size_t k = 0; k < sim_model_table_len; k++) {
		if (sim_model_table[k].core_only)
			continue;
		if (!i--)
			return &sim_model_table[k].info;
	}
	return NULL;
}

static struct sim_cpu *cur(void)
{
	unsigned int n = plat_cpu_self();

	return &sim_cpus[n < sim_ncpus ? n : 0];
}

const char *sim_current_model(void)
{
	return sim_machine ? sim_machine->info.name : NULL;
}

unsigned int sim_cpu_count(void)
{
	return sim_machine ? sim_ncpus : 0;
}

const char *sim_cpu_model(unsigned int cpu)
{
	return sim_machine && cpu < sim_ncpus ? sim_cpus[cpu].m->info.name : NULL;
}

static const char *const fault_names[] = {
    [SIM_FAULT_NONE] = "none",
    [SIM_FAULT_NO_RECORDS] = "no-records",
    [SIM_FAULT_WRONG_LATENCY] = "wrong-latency",
    [SIM_FAULT_GP_ON_ENABLE] = "gp-on-enable",
    [SIM_FAULT_HANG] = "hang",
    [SIM_FAULT_LATENCY_BIAS] = "latency-bias",
    [SIM_FAULT_SKID] = "skid",
    [SIM_FAULT_CR3_KEPT] = "cr3-kept",
    [SIM_FAULT_OWN_CR3] = "own-cr3",
    [SIM_FAULT_APIC_OFF] = "apic-off",
    [SIM_FAULT_UNMAPPED_CR3] = "unmapped-cr3",
    [SIM_FAULT_LATENCY_OFFSET] = "latency-offset",
    [SIM_FAULT_STATUS_ZERO] = "status-zero",
    [SIM_FAULT_COLLISION] = "collision",
};

const char *sim_fault_name(enum sim_fault f)
{
	return (unsigned int)f < ARRAY_SIZE(fault_names) ? fault_names[f] : NULL;
}

int sim_fault_parse(const char *name, enum sim_fault *f)
{
	for (unsigned int i = SIM_FAULT_NO_RECORDS; i < ARRAY_SIZE(fault_names); i++) {
		if (!strcmp(name, fault_names[i])) {
			*f = (enum sim_fault)i;
			return 0;
		}
	}
	return -1;
}

int sim_set_fault(unsigned int cpu, enum sim_fault f, int32_t arg)
{
	if (!sim_machine || cpu >= sim_ncpus || (f == SIM_FAULT_HANG && cpu == 0))
		return -1;
	sim_faults[cpu] = f;
	sim_fault_args[cpu] = arg;
	sim_cpus[cpu].fault = f;
	sim_cpus[cpu].fault_arg = arg;
	if (f == SIM_FAULT_OWN_CR3)
		sim_cpus[cpu].cr3 = sim_paging_fw_cr3_other();
	if (f == SIM_FAULT_UNMAPPED_CR3)
		sim_cpus[cpu].cr3 = sim_paging_fw_cr3_bare();
	sim_cpus[cpu].fw_cr3 = sim_cpus[cpu].cr3;
	sim_cpus[cpu].svr = f == SIM_FAULT_APIC_OFF ? 0xff : 0x1ff;
	return 0;
}

void sim_fixed_enum(const struct sim_model *m, uint32_t *ecx, uint32_t *edx_count)
{
	*ecx = fx_override ? fx_ecx : m->ca[2];
	*edx_count = fx_override ? fx_count : m->ca[3] & 0x1f;
}

uint32_t sim_fixed_width(const struct sim_model *m)
{
	return fx_width ? fx_width : (m->ca[3] >> 5) & 0xff;
}

int sim_set_fixed_width(uint32_t bits)
{
	if (bits < 1 || bits > 64)
		return -1;
	fx_width = bits;
	sim_reset();
	return 0;
}

int sim_set_microcode(uint32_t rev)
{
	ucode_override = true;
	ucode_rev = rev;
	sim_reset();
	return 0;
}

int sim_set_stepping(uint32_t stepping)
{
	if (stepping > 15)
		return -1;
	stepping_override = true;
	stepping_val = stepping;
	sim_reset();
	return 0;
}

uint32_t sim_signature(const struct sim_model *m)
{
	return stepping_override ? (m->sig & ~0xfu) | stepping_val : m->sig;
}

uint32_t sim_microcode(const struct sim_model *m)
{
	return ucode_override ? ucode_rev : m->microcode;
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
	for (unsigned int i = 0; i < sim_ncpus; i++)
		if (!sim_cpus[i].m || (sim_cpus[i].m->ca[0] & 0xff) < 5 || edx_count > 0x1f)
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
	p->fixed_width = sim_fixed_width(m);
	if (p->n_gp > SIM_MAX_GP)
		p->n_gp = SIM_MAX_GP;
	/* width 0: no PMU (a KVM guest of a hybrid host, sim/kvm.c) */
	p->gp_mask = p->gp_width ? GENMASK_ULL(p->gp_width - 1, 0) : 0;
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
	if (m->c71_eax & (1u << 8)) { /* leaf 23H: ArchPerfmonExt */
		p->umask2 = m->c23_ext & 1;
		p->eq = m->c23_ext & 2;
	}
	p->pebs_usable = ds && !(m->misc_enable & (1u << 12)) &&
			 (m->pebs_enable_mask || (m->flags & F_ARCH_PEBS));
}

/*
 * The first CPU of idx's core, from the firmware's topology (lib/platform.h
 * plat_cpu_location): idx itself unless a lower CPU has its package and
 * core.  A thread 0 is first (numbered by APIC ID, EDK II MpInitLib.c
 * SortApicId), so only the other threads look.
 */
static unsigned int core_first(unsigned int idx)
{
	struct plat_cpu_loc me, o;

	if (!plat_cpu_location(idx, &me) || !me.thread)
		return idx;
	for (unsigned int i = 0; i < idx; i++)
		if (plat_cpu_location(i, &o) && o.package == me.package && o.core == me.core)
			return i;
	return idx;
}

/*
 * sim-platform=cet: CR4.CET (SDM Vol. 3A 2.5, CR4 bit 23) set at reset.
 * The real backend's #GP trap returns to a rewritten RIP, which IRET
 * refuses under supervisor shadow stacks (SDM Vol. 1 18 "Control-flow
 * Enforcement Technology": a return address that differs from the shadow
 * stack's is a #CP): each MSR access that #GPs here is counted as one.
 */
#define CR4_CET (1ULL << 23)
static bool cet_on;
static unsigned int cet_faults;

void sim_set_cet(bool on)
{
	cet_on = on;
	for (unsigned int i = 0; i < sim_ncpus; i++)
		sim_cpus[i].cr4 = on ? sim_cpus[i].cr4 | CR4_CET : sim_cpus[i].cr4 & ~CR4_CET;
}

unsigned int sim_cet_faults(void)
{
	return cet_faults;
}

static enum hw_fault cet_check(const struct sim_cpu *c, enum hw_fault f)
{
	if (f == HW_GP && (c->cr4 & CR4_CET))
		__atomic_add_fetch(&cet_faults, 1, __ATOMIC_RELAXED);
	return f;
}

static void reset_cpu(struct sim_cpu *c, unsigned int idx)
{
	const struct sim_model *m = c->m;
	struct plat_cpu_loc loc;

	sim_cache_free(c);
	memset(c, 0, sizeof(*c));
	c->m = m;
	c->index = idx;
	c->fault = sim_faults[idx];
	c->fault_arg = sim_fault_args[idx];
	derive_pmu(c);
	sim_msr_power_on(c);
	c->lvtpc = LVT_MASK; /* LVT entries come out of reset masked (SDM 11.5.1) */
	/* Software-enabled, spurious vector 0xff, as firmware leaves it; apic-off: disabled. */
	c->svr = c->fault == SIM_FAULT_APIC_OFF ? 0xff : 0x1ff;
	/*
	 * LINT0 as the firmware leaves it: ExtINT, unmasked, edge (virtual
	 * wire: EDK II BaseXApicLib ProgramVirtualWireMode, which MpInitLib
	 * calls); masked where the APIC is software-disabled (11.4.7.2).
	 */
	c->lint0 = LVT_EXTINT | (c->svr & APIC_SVR_ENABLE ? 0 : LVT_MASK);
	sim_tsc_reset(c);
	c->core_first = core_first(idx);
	c->package = plat_cpu_location(idx, &loc) ? loc.package : 0;
	sim_cache_init(c, &sim_cpus[c->core_first]);
	/* The firmware's tables; 4-level paging, PAE on, no PGE/PCIDE (as OVMF leaves it). */
	c->cr3 = c->fault == SIM_FAULT_OWN_CR3	      ? sim_paging_fw_cr3_other()
		 : c->fault == SIM_FAULT_UNMAPPED_CR3 ? sim_paging_fw_cr3_bare()
						      : sim_paging_fw_cr3();
	c->fw_cr3 = c->cr3;
	c->last_addr = 0;
	c->cr4 = 1ULL << 5 | (cet_on ? CR4_CET : 0);
	c->programmed = ~0ULL; /* the firmware programs what it enables */
	sim_handoff_apply(c);  /* sim-handoff=: what firmware left (sim/handoff.c) */
	c->programmed = 0;
	c->handoff_global_ctrl = c->global_ctrl;
}

void sim_reset(void)
{
	if (!sim_machine)
		return;
	for (unsigned int i = 0; i < sim_ncpus; i++)
		reset_cpu(&sim_cpus[i], i);
	sim_coh_reset();
	sim_rules_reset_count();
}

static const struct sim_model *row_named(const char *name)
{
	for (size_t i = 0; name && i < sim_model_table_len; i++)
		if (!strcmp(sim_model_table[i].info.name, name))
			return &sim_model_table[i];
	return NULL;
}

/*
 * A hybrid machine's CPUs take its core rows in order, in equal shares:
 * CPU i gets core row i * n_rows / n_cpus (docs/SIM.md "Machines").
 */
static const struct sim_model *core_of(const struct sim_model *mach, unsigned int i,
				       unsigned int ncpus)
{
	unsigned int rows = 0;

	while (rows < SIM_MAX_CORE_TYPES && mach->cores[rows])
		rows++;
	if (!rows)
		return mach;
	return row_named(mach->cores[i * rows / ncpus]);
}

int sim_select(const char *name)
{
	const struct sim_model *mach = row_named(name);
	unsigned int n = plat_cpu_count();

	if (!mach || mach->core_only)
		return -1;
	for (unsigned int i = 0; i < sim_cap; i++)
		sim_cache_free(&sim_cpus[i]);
	if (n > sim_cap) {
		struct sim_cpu *cpus = plat_alloc(n * sizeof(*cpus));
		enum sim_fault *faults = plat_alloc(n * sizeof(*faults));
		int32_t *args = plat_alloc(n * sizeof(*args));

		if (!cpus || !faults || !args) {
			plat_free(cpus);
			plat_free(faults);
			plat_free(args);
			return -1;
		}
		memset(cpus, 0, n * sizeof(*cpus));
		struct sim_cpu *old = sim_cpus;
		enum sim_fault *old_faults = sim_faults;
		int32_t *old_args = sim_fault_args;

		/*
		 * The new arrays in place first: plat_free asks the backend for
		 * the CR3 (the firmware-CR3 guard), which reads sim_cpus.  A hung
		 * CPU is parked for good (plat_park): no CPU reads the old ones now.
		 */
		sim_cpus = cpus;
		sim_faults = faults;
		sim_fault_args = args;
		if (old != &sim_cpu0) {
			plat_free(old);
			plat_free(old_faults);
			plat_free(old_args);
		}
		sim_cap = n;
	}
	for (unsigned int i = 0; i < n; i++) {
		sim_cpus[i].m = core_of(mach, i, n);
		if (!sim_cpus[i].m)
			return -1;
	}
	sim_machine = mach;
	sim_ncpus = n;
	cet_on = false;
	cet_faults = 0;
	sim_set_timer_attr(SIM_TIMER_OFF);
	fx_override = false;
	fx_width = 0;
	ucode_override = stepping_override = false;
	sim_acr_clear();
	memset(sim_faults, 0, sim_cap * sizeof(*sim_faults));
	sim_handoff_clear();
	memset(sim_fault_args, 0, sim_cap * sizeof(*sim_fault_args));
	sim_paging_clear();
	sim_kvm_clear();
	sim_reset();
	return 0;
}

int sim_set_host(enum sim_host h)
{
	if (!sim_machine)
		return -1;
	sim_kvm_clear();
	for (unsigned int i = 0; i < sim_ncpus; i++) {
		const struct sim_model *row = core_of(sim_machine, i, sim_ncpus);

		sim_cpus[i].m = h == SIM_HOST_NONE ? row : sim_kvm_row(row, h);
	}
	sim_reset();
	return 0;
}

void sim_get_stats(struct sim_stats *st)
{
	*st = cur()->stats;
}

void sim_get_cpu_stats(unsigned int cpu, struct sim_stats *st)
{
	if (cpu < sim_ncpus)
		*st = sim_cpus[cpu].stats;
	else
		memset(st, 0, sizeof(*st));
}

bool sim_pmi_running(void)
{
	return cur()->in_pmi;
}

void sim_set_pmi_delay(uint64_t instructions)
{
	cur()->pmi_delay = instructions;
}

/* ---- hw_ops ------------------------------------------------------------ */

static void sim_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	struct sim_cpu *c = cur();

	if (!c->m) {
		memset(r, 0, sizeof(*r));
		return;
	}
	sim_tsc_outside(c);
	sim_cpuid_leaf(c->m, leaf, subleaf, r);
	/* CPUID.1:EBX[31:24] initial APIC ID (SDM Vol. 2A): the CPU's number here. */
	if (leaf == 1 && leaf <= c->m->max_leaf)
		r->ebx = (r->ebx & 0x00ffffffu) | c->index << 24;
}

/*
 * A pending PEBS record is written before the MSR access, as the assist came
 * first; the access ends a span of modelled work (tsc.c).
 */
static void before_msr(struct sim_cpu *c)
{
	sim_tsc_outside(c);
	sim_engine_flush(c, 0, false);
}

static void after_msr(struct sim_cpu *c)
{
	sim_deliver_pmi(c);
}

/*
 * sim-fault=cpuN:gp-on-enable: the GLOBAL_CTRL write that starts a PEBS
 * counter faults; cpuN:hang: it never returns.
 */
static bool pebs_started(const struct sim_cpu *c)
{
	for (unsigned int i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_pebs_armed(c, i))
			return true;
	for (unsigned int i = 0; i < c->pmu.n_fixed; i++)
		if (sim_fixed_pebs_armed(c, i))
			return true;
	return false;
}

static enum hw_fault sim_rdmsr(uint32_t msr, uint64_t *val)
{
	enum hw_fault f;

	struct sim_cpu *c = cur();

	if (!c->m)
		return HW_GP;
	sim_timer_tick(c);
	before_msr(c);
	f = sim_msr_read(c, msr, val);
	after_msr(c);
	return cet_check(c, f);
}

static enum hw_fault sim_wrmsr(uint32_t msr, uint64_t val)
{
	enum hw_fault f;

	struct sim_cpu *c = cur();
	uint64_t prev_ctrl = c->global_ctrl;

	if (!c->m)
		return HW_GP;
	sim_timer_tick(c);
	before_msr(c);
	f = sim_handoff_drops(c, msr, val) ? HW_OK : sim_msr_write(c, msr, val);
	if (f == HW_OK && c->fault == SIM_FAULT_HANG && msr == SIM_MSR_GLOBAL_CTRL &&
	    pebs_started(c))
		plat_park();
	if (f == HW_OK && c->fault == SIM_FAULT_GP_ON_ENABLE && msr == SIM_MSR_GLOBAL_CTRL &&
	    pebs_started(c)) {
		c->global_ctrl = prev_ctrl;
		f = HW_GP;
	}
	if (f == HW_OK) {
		sim_handoff_written(c, msr, val);
		sim_rules_check(c);
	}
	after_msr(c);
	return cet_check(c, f);
}

static uint64_t sim_rdtsc(void)
{
	return sim_tsc_read(cur());
}

/*
 * LVTPC, and the ISR (0x100-0x170) and IRR (0x200-0x270) bit of a PMI in
 * service or held (SDM Vol. 3A 11.8.4, Figure 11-20): register k holds
 * vectors 32k..32k+31.
 */
static uint32_t sim_apic_read(uint32_t reg)
{
	struct sim_cpu *c = cur();
	uint32_t vec, k = (reg >> 4) & 7;

	sim_tsc_outside(c);
	if (reg == APIC_LVTPC)
		return c->lvtpc;
	if (reg == APIC_SVR)
		return c->svr;
	if (reg == APIC_TPR)
		return c->tpr;
	if (reg == APIC_LVT_LINT0)
		return c->lint0;
	if (reg >= APIC_ISR && reg < APIC_ISR + 0x80 && c->pmi_in_service)
		vec = c->isr_vector;
	else if (reg >= APIC_IRR && reg < APIC_IRR + 0x80 && c->pmi_pending && !c->pmi_wait)
		vec = c->pmi_lvt & 0xff;
	else
		return 0;
	return vec / 32 == k ? 1u << (vec % 32) : 0;
}

void sim_set_irq_off(bool off)
{
	struct sim_cpu *c = cur();

	c->irq_off = off;
	sim_deliver_pmi(c);
}

void sim_set_cpu_irq_off(unsigned int cpu, bool off)
{
	if (cpu < sim_ncpus)
		sim_cpus[cpu].irq_off = off;
}

static void sim_irq_window(void)
{
	struct sim_cpu *c = cur();

	sim_tsc_outside(c);
	c->stats.irq_windows++;
	if (c->tpr)
		c->stats.irq_windows_tpr++;
	c->irq_window = true;
	sim_deliver_pmi(c);
	sim_timer_window(c);
	c->irq_window = false;
}

static void sim_apic_write(uint32_t reg, uint32_t val)
{
	struct sim_cpu *c = cur();

	sim_tsc_outside(c);
	if (reg == APIC_LVTPC) {
		bool unmask = (c->lvtpc & LVT_MASK) && !(val & LVT_MASK);

		c->lvtpc = val & 0x107ff; /* vector, delivery mode, mask */
		/*
		 * Software-disabled (SVR bit 8 clear): the LVT mask bits stay set,
		 * attempts to clear them are ignored (SDM Vol. 3A 11.4.7.2).
		 */
		if (!(c->svr & APIC_SVR_ENABLE)) {
			c->lvtpc |= LVT_MASK;
			unmask = false;
		}
		/*
		 * A PEBS buffer request still set in GLOBAL_STATUS (54 arch-PEBS
		 * threshold, 62 OvfBuffer) when LVTPC is unmasked outside a PMI
		 * handler asks again.  Inferred, not documented: Linux
		 * intel_pmu_handle_irq unmasks only after the status is reset
		 * ("avoids spurious NMIs"); docs/SIM.md.
		 */
		if (unmask && !c->in_pmi && (c->global_status & (BIT_ULL(54) | BIT_ULL(62)))) {
			sim_raise_pmi(c);
			sim_deliver_pmi(c);
		}
		/* sim-handoff=cpuN:counter-int: the firmware's counter overflows now. */
		if (unmask && !c->in_pmi && sim_handoff_int_overflow(c)) {
			sim_raise_pmi(c);
			sim_deliver_pmi(c);
		}
	} else if (reg == APIC_EOI) {
		c->pmi_in_service = false;
		sim_deliver_pmi(c);
	} else if (reg == APIC_TPR) {
		c->tpr = (uint8_t)val; /* bits 31:8 reserved */
		sim_deliver_pmi(c);    /* a lower class may let a held PMI in */
	} else if (reg == APIC_LVT_LINT0) {
		/* Software-disabled: the mask stays set (SDM Vol. 3A 11.4.7.2). */
		c->lint0 = (val & LVT_LINT_RW) | (c->svr & APIC_SVR_ENABLE ? 0 : LVT_MASK);
	}
}

static int sim_set_pmi_handler(uint8_t vector, hw_pmi_fn fn, void *ctx)
{
	struct sim_cpu *c = cur();

	sim_tsc_outside(c);
	if (fn && vector < 32)
		return -1; /* vectors 0-31 are exceptions */
	c->pmi_vector = vector;
	c->pmi_fn = fn;
	c->pmi_ctx = ctx;
	return 0;
}

static void sim_mem_access(uint64_t ip, uint64_t ip_next, uint64_t addr, uint32_t size,
			   uint32_t kind)
{
	struct sim_cpu *c = cur();

	if (c->m) {
		sim_tsc_work(c);
		sim_engine_access(c, ip, ip_next, addr, size, kind);
		c->last_addr = addr;
		sim_timer_tick(c);
	}
}

static void sim_retire(uint64_t ip, uint64_t n)
{
	struct sim_cpu *c = cur();

	if (c->m) {
		sim_tsc_work(c);
		sim_engine_retire(c, ip, n);
		sim_timer_tick(c);
	}
}

static void sim_mem_access_cpu(unsigned int cpu, uint64_t ip, uint64_t addr, uint32_t size,
			       uint32_t kind)
{
	struct sim_cpu *c = &sim_cpus[cpu < sim_ncpus ? cpu : 0];

	if (c->m && cpu < sim_ncpus) {
		sim_tsc_work(c);
		sim_engine_access(c, ip, 0, addr, size, kind);
	}
}

int sim_set_pages(uint64_t page_size)
{
	if (sim_paging_set_size(page_size))
		return -1;
	sim_reset();
	return 0;
}

static uint64_t sim_read_cr3(void)
{
	return cur()->cr3;
}

/* MOV to CR3 flushes the TLBs (no global pages here: CR4.PGE is clear). */
static void sim_write_cr3(uint64_t v)
{
	struct sim_cpu *c = cur();

	if (c->fault == SIM_FAULT_CR3_KEPT)
		return;
	c->cr3 = v;
	sim_cache_flush_tlbs(c);
}

/* The boot CPU's firmware tables: the CR3 it came out of reset with. */
static uint64_t sim_fw_cr3(void)
{
	return sim_cpus[0].fw_cr3;
}

static uint64_t sim_read_cr4(void)
{
	return cur()->cr4;
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
    .irq_window = sim_irq_window,
    .mem_access = sim_mem_access,
    .retire = sim_retire,
    .mem_access_cpu = sim_mem_access_cpu,
    .read_cr3 = sim_read_cr3,
    .write_cr3 = sim_write_cr3,
    .read_cr4 = sim_read_cr4,
    .fw_map = sim_paging_fw_map,
    .fw_cr3 = sim_fw_cr3,
};

const struct hw_ops *sim_hw_ops(void)
{
	return &sim_ops;
}
