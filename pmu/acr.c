// SPDX-License-Identifier: MIT
/*
 * acr.c - an auto counter reload group (acr.h): the counters picked
 * against CPUID.23H.2 before any MSR access, then armed, run, read and
 * restored on the measured CPU.
 */
#include "acr.h"
#include "hw.h"
#include "msr.h"
#include "session.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/*
 * INST_RETIRED.ANY_P: architectural event 1, C0H umask 00H (SDM Vol. 3B
 * Table 20-1).  No INT: for the self-reloaded cause counter Linux does the
 * same (1271aeccc307 "perf/x86/intel: Disable PMI for self-reloaded ACR
 * events": core.c intel_pmu_enable_event clears ARCH_PERFMON_EVENTSEL_INT,
 * the hardware setting no overflow bit for it), and no counter of the
 * group wants a PMI.
 */
#define ACR_EVTSEL (EVTSEL_EVENT(0xc0) | EVTSEL_USR | EVTSEL_OS | EVTSEL_EN)
#define ACR_SAVED  12

static int lowest(uint32_t m)
{
	return m ? __builtin_ctz(m) : -1;
}

int acr_pick(const struct cpu_info *ci, const struct acr_counters *want, struct acr_counters *got,
	     char *why, size_t why_size)
{
	const struct cpu_perfmon_ext *x = &ci->ext;
	uint32_t reload, both;
	int r, c;

	if (!x->valid || !(x->subleaves & PMEXT_SUB_ACR)) {
		pp_snprintf(why, why_size,
			    "auto counter reload: CPUID.23H.0:EAX[2] is clear%s: this CPU has "
			    "no ACR (accepted: the acr-reload kernel on a CPU whose CPUID.23H "
			    "enumerates sub-leaf 2)",
			    x->valid ? "" : " (no leaf 23H)");
		return SESSION_REFUSED;
	}
	if (ci->arch_events_len < 2 || (ci->arch_events_unavail & 2)) {
		pp_snprintf(why, why_size,
			    "auto counter reload: the group counts instructions retired, "
			    "which CPUID.0AH does not enumerate here (accepted: a CPU with "
			    "architectural event 1)");
		return SESSION_REFUSED;
	}
	reload = x->acr_gp_reload & ci->gp_mask;
	both = reload & x->acr_gp_cause;
	c = want->cause >= 0 ? want->cause : lowest(both);
	r = want->reloaded >= 0 ? want->reloaded
				: lowest(reload & ~(c >= 0 && c < 32 ? 1u << c : 0));
	if (r < 0 || r > 31 || !(reload & (1u << r))) {
		pp_snprintf(why, why_size,
			    "auto counter reload: %s%d may not be reloaded: CPUID.23H.2:EAX is "
			    "0x%x, the GP counters 0x%x (accepted: acr=auto, or acr=gpR:gpC "
			    "with R in EAX 0x%x)",
			    r < 0 ? "no GP counter" : "gp", r < 0 ? 0 : r, x->acr_gp_reload,
			    ci->gp_mask, reload);
		return SESSION_REFUSED;
	}
	if (c < 0 || c > 31 || !(both & (1u << c)) || c == r) {
		pp_snprintf(why, why_size,
			    "auto counter reload: %s%d cannot be the cause counter: it must "
			    "be another counter than gp%d, may cause a reload (CPUID.23H.2:ECX "
			    "0x%x) and may be reloaded itself (EAX 0x%x), since it reloads "
			    "itself each period (accepted: acr=auto, or acr=gpR:gpC with C in "
			    "0x%x, C != R)",
			    c < 0 ? "no GP counter" : "gp", c < 0 ? 0 : c, r, x->acr_gp_cause,
			    x->acr_gp_reload, both);
		return SESSION_REFUSED;
	}
	got->reloaded = r;
	got->cause = c;
	got->total = lowest(ci->gp_mask & ~(1u << r) & ~(1u << c));
	if (got->total < 0) {
		pp_snprintf(why, why_size,
			    "auto counter reload: the group needs a third GP counter for the "
			    "total, this CPU has 0x%x (accepted: a CPU with 3 GP counters)",
			    ci->gp_mask);
		return SESSION_REFUSED;
	}
	return 0;
}

/* What runs on the measured CPU: its MSRs, the kernel, the read-back, the restore. */
struct acr_call {
	const struct cpu_info *ci;
	struct acr_result res;
	void (*kernel)(void *);
	void *arg;
	struct {
		uint32_t rd, wr; /* where it is read and written back (a counter: 0x4c1 + n) */
		uint64_t val;
	} saved[ACR_SAVED];
	unsigned int n_saved;
	uint32_t fault_msr;
	bool fault_write;
	int rc;
};

static bool wr(struct acr_call *a, uint32_t msr, uint64_t v)
{
	if (hw_wrmsr(msr, v) == HW_OK)
		return true;
	if (!a->rc) {
		a->rc = SESSION_FAULT;
		a->fault_msr = msr;
		a->fault_write = true;
	}
	return false;
}

static bool rd(struct acr_call *a, uint32_t msr, uint64_t *v)
{
	if (hw_rdmsr(msr, v) == HW_OK)
		return true;
	if (!a->rc) {
		a->rc = SESSION_FAULT;
		a->fault_msr = msr;
		a->fault_write = false;
	}
	return false;
}

static bool save(struct acr_call *a, uint32_t rd_msr, uint32_t wr_msr)
{
	uint64_t v;

	if (!rd(a, rd_msr, &v))
		return false;
	a->saved[a->n_saved].rd = rd_msr;
	a->saved[a->n_saved].wr = wr_msr;
	a->saved[a->n_saved].val = v;
	a->n_saved++;
	return true;
}

static uint32_t cfg_b(int n)
{
	return MSR_IA32_PMC_GP0_CFG_B + MSR_V6_STEP * (uint32_t)n;
}

static uint32_t cfg_c(int n)
{
	return MSR_IA32_PMC_GP0_CFG_C + MSR_V6_STEP * (uint32_t)n;
}

static void armed(void *p)
{
	struct acr_call *a = p;
	struct acr_result *res = &a->res;
	const struct acr_counters *k = &res->ctr;
	const int ctr[3] = {k->reloaded, k->cause, k->total};
	/* Full-width writes where PERF_CAPABILITIES[13] has them (SDM 20.2.6): the restore. */
	uint32_t pmc_wr = a->ci->has_perf_caps && (a->ci->perf_caps & PERF_CAP_FW_WRITE)
			      ? MSR_IA32_A_PMC0
			      : MSR_IA32_PMC0;
	uint64_t wmask = res->width >= 64 ? ~0ULL : (1ULL << res->width) - 1;
	uint64_t bits = BIT_ULL(k->reloaded) | BIT_ULL(k->cause) | BIT_ULL(k->total);
	uint64_t minus_p = (0 - (uint64_t)res->period) & wmask;
	uint32_t t_reload = a->ci->ext.acr_gp_reload & a->ci->gp_mask;
	uint64_t orig_status = 0, stale = 0;
	bool ok = save(a, MSR_IA32_PERF_GLOBAL_CTRL, MSR_IA32_PERF_GLOBAL_CTRL);

	for (int i = 0; i < 3 && ok; i++)
		ok = save(a, MSR_IA32_PERFEVTSEL0 + (uint32_t)ctr[i],
			  MSR_IA32_PERFEVTSEL0 + (uint32_t)ctr[i]) &&
		     save(a, MSR_IA32_PMC0 + (uint32_t)ctr[i], pmc_wr + (uint32_t)ctr[i]);
	for (int i = 0; i < 2 && ok; i++)
		ok = save(a, cfg_b(ctr[i]), cfg_b(ctr[i])) && save(a, cfg_c(ctr[i]), cfg_c(ctr[i]));
	/*
	 * The total counter's CFG_B, only where CPUID.23H.2:EAX has it (a
	 * counter that may be reloaded; a CFG_B write can #GP elsewhere, Linux
	 * 43796f305078): a stale mask left there would reload it.  Linux core.c
	 * intel_pmu_enable_acr clears CFG_B of a counter outside the ACR group
	 * ("The disable doesn't clear the ACR CFG register").
	 */
	if (ok && (t_reload & (1u << k->total)))
		ok = save(a, cfg_b(k->total), cfg_b(k->total));
	/*
	 * Status left set: CTR_Frz (bit 59) freezes every counter until it is
	 * cleared (SDM Vol. 3B 18.2.4.1), so it is acked with our counters'
	 * bits before arming and set back afterwards (STATUS_SET, v4+), as the
	 * session does with its stale_status().
	 */
	ok = ok && rd(a, MSR_IA32_PERF_GLOBAL_STATUS, &orig_status);
	stale = orig_status & (bits | GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ);
	/* Linux intel_pmu_enable_event: intel_pmu_enable_acr (CFG_B, CFG_C) before EVTSEL.EN. */
	ok = ok && wr(a, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	for (int i = 0; i < 3 && ok; i++)
		ok = wr(a, MSR_IA32_PERFEVTSEL0 + (uint32_t)ctr[i], 0);
	if (ok && (t_reload & (1u << k->total)))
		ok = wr(a, cfg_b(k->total), 0);
	ok = ok && wr(a, cfg_b(k->reloaded), BIT_ULL(k->cause)) &&
	     wr(a, cfg_c(k->reloaded), res->reload) && wr(a, cfg_b(k->cause), BIT_ULL(k->cause)) &&
	     wr(a, cfg_c(k->cause), (uint32_t)(0 - res->period));
	ok = ok && wr(a, pmc_wr + (uint32_t)k->reloaded, 0) &&
	     wr(a, pmc_wr + (uint32_t)k->cause, minus_p) && wr(a, pmc_wr + (uint32_t)k->total, 0) &&
	     wr(a, MSR_IA32_PERF_GLOBAL_OVF_CTRL, bits | stale);
	for (int i = 0; i < 3 && ok; i++)
		ok = wr(a, MSR_IA32_PERFEVTSEL0 + (uint32_t)ctr[i], ACR_EVTSEL);
	if (ok && wr(a, MSR_IA32_PERF_GLOBAL_CTRL, bits)) {
		a->kernel(a->arg);
		ok = wr(a, MSR_IA32_PERF_GLOBAL_CTRL, 0) &&
		     rd(a, MSR_IA32_PMC0 + (uint32_t)k->reloaded, &res->reloaded) &&
		     rd(a, MSR_IA32_PMC0 + (uint32_t)k->cause, &res->cause) &&
		     rd(a, MSR_IA32_PMC0 + (uint32_t)k->total, &res->total) &&
		     rd(a, MSR_IA32_PERF_GLOBAL_STATUS, &res->status);
	}
	/* Back as it was: the status bits ours set, then everything saved, GLOBAL_CTRL last. */
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	hw_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, bits);
	if (stale)
		hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, stale);
	while (a->n_saved--)
		hw_wrmsr(a->saved[a->n_saved].wr, a->saved[a->n_saved].val);
}

int acr_run(const struct cpu_info *ci, const struct acr_counters *want, void (*kernel)(void *),
	    void *arg, uint64_t timeout_us, void (*idle)(void *), void *idle_arg,
	    struct acr_result *res, char *why, size_t why_size)
{
	struct acr_call *a;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = acr_pick(ci, want, &res->ctr, why, why_size);
	if (rc)
		return rc;
	/* Never on a stack: a CPU that timed out may still use it. */
	a = plat_alloc(sizeof(*a));
	if (!a) {
		pp_snprintf(why, why_size, "no memory for the ACR run");
		return SESSION_NOMEM;
	}
	memset(a, 0, sizeof(*a));
	a->ci = ci;
	a->kernel = kernel;
	a->arg = arg;
	a->res.ctr = res->ctr;
	a->res.period = ACR_PERIOD;
	a->res.reload = ACR_RELOAD;
	a->res.width = ci->gp_width;
	rc = cpurun_run(ci->cpu, armed, a, timeout_us, idle, idle_arg);
	report_flush_deferred("the measured CPU");
	if (rc == CPU_RUN_TIMEOUT) {
		pp_snprintf(why, why_size, "CPU %u did not return within %llu ms: left running",
			    ci->cpu, (unsigned long long)(timeout_us / 1000));
		return SESSION_TIMEOUT;
	}
	if (rc) {
		pp_snprintf(why, why_size, "CPU %u could not be started (MP services)", ci->cpu);
		plat_free(a);
		return SESSION_NO_CPU;
	}
	*res = a->res;
	rc = a->rc;
	if (rc)
		pp_snprintf(why, why_size, "%s 0x%x faulted (#GP); every MSR touched was restored",
			    a->fault_write ? "wrmsr" : "rdmsr", a->fault_msr);
	plat_free(a);
	return rc;
}
