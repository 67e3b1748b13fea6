// SPDX-License-Identifier: MIT
/*
 * kvm.c - sim-host=kvm: a model's row as a guest of Linux KVM on that part
 * sees it (docs/KVM.md).  The simulator keeps its own reading of KVM, as it
 * keeps its own model tables (docs/SIM.md), so pmu/guest.c's rules are
 * checked against it, not copied into it.  Read from torvalds/linux:
 *  - kvm/pmu.c kvm_init_pmu_capability: a hybrid host (X86_FEATURE_HYBRID_CPU)
 *    gets enable_pmu = false, so the guest's CPUID.0AH is 0, and vmx.c
 *    vmx_set_cpu_caps clears PDCM;
 *  - kvm/vmx/capabilities.h vmx_pebs_supported: X86_FEATURE_PEBS and
 *    x86_pmu.pebs_ept, which events/intel/core.c intel_pmu_init sets for
 *    ICELAKE_X/D and ds.c intel_ds_init for PEBS formats 5 and 6; only
 *    then vmx_set_cpu_caps sets DS and DTES64;
 *  - vmx.c vmx_get_perf_capabilities: FW_WRITES, the host's LBR format, and
 *    with PEBS the host's PERF_CAP_PEBS_MASK (trap, arch regs, format,
 *    baseline, timing info); baseline cleared below format 4, and always
 *    from commit 9e985cbf2942 (Linux 6.9);
 *  - vmx/pmu_intel.c intel_pmu_refresh: PEBS_ENABLE takes the GP and fixed
 *    counters' bits with baseline, the GP ones without; intel_pmu_get_msr /
 *    intel_pmu_set_msr handle no MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_FRONTEND
 *    or MSR_OFFCORE_RSP_x: they #GP.
 * Not modelled: arch-PEBS guests (no arch-PEBS MSR is handled in the
 * pmu_intel.c read), PERF_METRICS, kvm.ignore_msrs (which would drop the
 * writes silently instead of #GP).
 */
#include "sim_int.h"

#define CAP_LBR_FMT    0x3fu
#define CAP_FW_WRITES  (1ull << 13)
#define CAP_BASELINE   (1ull << 14)
#define CAP_PEBS_MASK  ((1ull << 6) | (1ull << 7) | 0xf00ull | CAP_BASELINE | (1ull << 17))
#define CPUID1_DS      (1u << 21) /* EDX */
#define CPUID1_DTES64  (1u << 2)  /* ECX */
#define CPUID1_PDCM    (1u << 15) /* ECX */
#define CPUID7_HYBRID  (1u << 15) /* EDX */
#define CPUID71_PMUEXT (1u << 8)  /* (7,1):EAX ArchPerfmonExt */
#define MISC_PEBS_UNAV (1ull << 12)

/* Hosts with x86_pmu.pebs_ept by model (core.c intel_pmu_init: ICELAKE_X 6AH, ICELAKE_D 6CH). */
static const uint32_t pebs_ept_models[] = {0x6a, 0x6c};

static struct sim_model rows[2 * SIM_MAX_CORE_TYPES];
static const struct sim_model *rows_of[ARRAY_SIZE(rows)];
static size_t n_rows;

void sim_kvm_clear(void)
{
	n_rows = 0;
}

static bool pebs_ept(const struct sim_model *m)
{
	uint32_t fam = (m->sig >> 8) & 0xf, model = ((m->sig >> 12) & 0xf0) | ((m->sig >> 4) & 0xf);
	uint32_t fmt = m->c1_ecx & CPUID1_PDCM ? (m->perf_caps >> 8) & 0xf : 0;

	if (fmt == 5 || fmt == 6)
		return true;
	for (size_t i = 0; fam == 6 && i < ARRAY_SIZE(pebs_ept_models); i++)
		if (model == pebs_ept_models[i])
			return true;
	return false;
}

/* X86_FEATURE_PEBS on the host: DS and MISC_ENABLE[12] clear (Linux intel.c init_intel). */
static bool host_pebs(const struct sim_model *m)
{
	return (m->c1_edx & CPUID1_DS) && !(m->misc_enable & MISC_PEBS_UNAV) &&
	       !(m->flags & F_ARCH_PEBS);
}

static void no_pebs(struct sim_model *g)
{
	g->c1_edx &= ~CPUID1_DS;
	g->c1_ecx &= ~CPUID1_DTES64;
	g->pebs_enable_mask = 0;
}

static void guest_of(struct sim_model *g, const struct sim_model *host, enum sim_host h)
{
	uint32_t ngp = (host->ca[0] >> 8) & 0xff;
	uint64_t gp = ngp >= 32 ? 0xffffffffull : (1ull << ngp) - 1;

	*g = *host;
	g->hv_sig = "KVMKVMKVM\0\0\0";
	/* No MSR of these is handled: the simulated MSR file leaves them out (#GP). */
	g->flags &= ~(F_LDLAT | F_FRONTEND | F_OFFCORE_AVG | F_ARCH_PEBS);
	g->frontend_mask = 0;
	g->offcore_mask[0] = g->offcore_mask[1] = 0;
	g->c71_eax &= ~CPUID71_PMUEXT;
	if (host->c7_edx & CPUID7_HYBRID) {
		memset(g->ca, 0, sizeof(g->ca));
		g->ca_unnamed_gp = g->ca_unnamed_fixed = 0;
		g->c1_ecx &= ~CPUID1_PDCM;
		g->perf_caps = 0;
		no_pebs(g);
		return;
	}
	g->perf_caps = CAP_FW_WRITES | (host->perf_caps & CAP_LBR_FMT);
	if (!host_pebs(host) || !pebs_ept(host)) {
		no_pebs(g);
		return;
	}
	g->perf_caps |= host->perf_caps & CAP_PEBS_MASK;
	if (h == SIM_HOST_KVM || ((g->perf_caps >> 8) & 0xf) < 4)
		g->perf_caps &= ~CAP_BASELINE;
	g->pebs_enable_mask &= g->perf_caps & CAP_BASELINE ? gp | (0xffull << 32) : gp;
}

const struct sim_model *sim_kvm_row(const struct sim_model *host, enum sim_host h)
{
	for (size_t i = 0; i < n_rows; i++)
		if (rows_of[i] == host)
			return &rows[i];
	if (n_rows == ARRAY_SIZE(rows))
		return host;
	guest_of(&rows[n_rows], host, h);
	rows_of[n_rows] = host;
	return &rows[n_rows++];
}
