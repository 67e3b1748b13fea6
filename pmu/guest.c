// SPDX-License-Identifier: MIT
/*
 * guest.c - the guest rules: what Linux KVM takes away from a guest's PMU,
 * one row each, read from KVM's source (torvalds/linux; docs/KVM.md says
 * which rows rest on the code alone and which on a commit's text too).  A
 * guest knows itself by CPUID.1:ECX[31] and the leaf 40000000H signature
 * "KVMKVMKVM\0\0\0" (pmu/cpu.c probe_ident; Linux kvm_para.h).
 */
#include "guest.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

static bool kvm(const struct cpu_info *ci)
{
	return ci->hypervisor == HV_KVM;
}

/* Leaf 0AH version 0: KVM's enable_pmu is off (kvm.enable_pmu=N, or a hybrid host). */
static bool no_vpmu(const struct cpu_info *ci)
{
	return kvm(ci) && !ci->pmu_version;
}

/*
 * A vPMU without PEBS: KVM sets DS and DTES64 and passes the PEBS fields
 * of PERF_CAPABILITIES only with vmx_pebs_supported(); without it the
 * format reads 0 and DS is clear.
 */
static bool no_pebs(const struct cpu_info *ci)
{
	uint64_t fmt = ci->has_perf_caps ? PERF_CAP_PEBS_FMT(ci->perf_caps) : 0;

	return kvm(ci) && ci->pmu_version && (!ci->ds || !ci->dtes64 || !fmt);
}

/* Format 4 or later (where adaptive PEBS exists) without PERF_CAPABILITIES[14]. */
static bool no_adaptive(const struct cpu_info *ci)
{
	return kvm(ci) && ci->has_perf_caps && PERF_CAP_PEBS_FMT(ci->perf_caps) >= 4 &&
	       !(ci->perf_caps & PERF_CAP_PEBS_BASELINE);
}

/* Every KVM guest with a vPMU: no row of KVM's handles these MSRs. */
static bool vpmu(const struct cpu_info *ci)
{
	return kvm(ci) && ci->pmu_version;
}

/*
 * intel_is_valid_msr, intel_pmu_get_msr and intel_pmu_set_msr handle the
 * counters, FIXED_CTR_CTRL, PEBS_ENABLE, DS_AREA, PEBS_DATA_CFG and the
 * LBRs; any other MSR returns 1, which KVM turns into a #GP.
 */
#define KVM_MSRS "kvm/vmx/pmu_intel.c intel_pmu_get_msr/intel_pmu_set_msr"

/*
 * The rows' sources at length (torvalds/linux):
 *  kvm-no-vpmu: kvm/pmu.c kvm_init_pmu_capability sets enable_pmu = false
 *    on X86_FEATURE_HYBRID_CPU ("Hybrid PMUs don't play nice with
 *    virtualization"); kvm/vmx/vmx.c vmx_set_cpu_caps then clears PDCM.
 *  kvm-no-pebs: vmx_pebs_supported() is X86_FEATURE_PEBS && pebs_ept;
 *    vmx_set_cpu_caps sets DS and DTES64, vmx_get_perf_capabilities the
 *    PEBS fields (PERF_CAP_PEBS_MASK), only then.  pebs_ept: core.c
 *    intel_pmu_init for ICELAKE_X/D (fb358e0b811e), ds.c intel_ds_init for
 *    PEBS formats 5 and 6.
 *  kvm-no-adaptive: vmx_get_perf_capabilities clears PERF_CAP_PEBS_BASELINE
 *    always since 9e985cbf2942 (before: only below format 4); pmu_intel.c
 *    intel_pmu_refresh then leaves PEBS_ENABLE the GP counters' bits only
 *    and intel_is_valid_msr refuses MSR_PEBS_DATA_CFG.
 */
/* clang-format off */
static const struct guest_rule guest_rules[] = {
	{ "kvm-no-vpmu", HV_KVM, GUEST_LOSS_PMU, no_vpmu,
	  "no vPMU (CPUID.0AH version 0): a hybrid host, kvm.enable_pmu=N, or QEMU -cpu "
	  "pmu=off",
	  "kvm/pmu.c kvm_init_pmu_capability (hybrid: enable_pmu = false)",
	  "code" },
	{ "kvm-no-pebs", HV_KVM, GUEST_LOSS_PEBS, no_pebs,
	  "no PEBS: KVM gives it only where the host's PEBS is EPT-friendly "
	  "(Ice Lake server, format 5+)",
	  "kvm/vmx/capabilities.h vmx_pebs_supported, x86_pmu.pebs_ept; commit fb358e0b811e",
	  "code+commit" },
	{ "kvm-no-adaptive", HV_KVM, GUEST_LOSS_ADAPTIVE, no_adaptive,
	  "no adaptive PEBS (PERF_CAPABILITIES[14] clear): basic records only",
	  "kvm/vmx/vmx.c vmx_get_perf_capabilities; commit 9e985cbf2942, Linux 6.9",
	  "code+commit" },
	{ "kvm-no-ldlat", HV_KVM, GUEST_LOSS_LDLAT, vpmu,
	  "no load latency: MSR_PEBS_LD_LAT_THRESHOLD (3F6H) is not handled", KVM_MSRS,
	  "code" },
	{ "kvm-no-frontend", HV_KVM, GUEST_LOSS_FRONTEND, vpmu,
	  "no frontend sampling: MSR_PEBS_FRONTEND (3F7H) is not handled", KVM_MSRS,
	  "code" },
	{ "kvm-no-offcore-rsp", HV_KVM, GUEST_LOSS_OFFCORE, vpmu,
	  "no offcore response: MSR_OFFCORE_RSP_0/1 (1A6H/1A7H) are not handled", KVM_MSRS,
	  "code" },
};
/* clang-format on */

size_t guest_rule_count(void)
{
	return ARRAY_SIZE(guest_rules);
}

const struct guest_rule *guest_rule_at(size_t i)
{
	return i < ARRAY_SIZE(guest_rules) ? &guest_rules[i] : NULL;
}

bool guest_rule_applies(const struct guest_rule *g, const struct cpu_info *ci)
{
	return ci->hypervisor == g->hv && g->applies(ci);
}

const struct guest_rule *guest_rule_for(const struct cpu_info *ci, enum guest_loss loss)
{
	for (size_t i = 0; i < ARRAY_SIZE(guest_rules); i++)
		if (guest_rules[i].loss == loss && guest_rule_applies(&guest_rules[i], ci))
			return &guest_rules[i];
	return NULL;
}

bool guest_takes(const struct cpu_info *ci, enum guest_loss loss, char *why, size_t why_size)
{
	const struct guest_rule *g = guest_rule_for(ci, loss);

	if (!g)
		return false;
	pp_snprintf(why, why_size, "KVM guest: %s (rule %s; %s)", g->what, g->id, g->source);
	return true;
}

void guest_report(const struct cpu_info *ci)
{
	for (size_t i = 0; i < ARRAY_SIZE(guest_rules); i++)
		if (guest_rule_applies(&guest_rules[i], ci))
			report_info("guest: %s: %s", guest_rules[i].id, guest_rules[i].what);
}
