// SPDX-License-Identifier: MIT
/*
 * app.c - the run after the options are known, with no EFI types: choose
 * the PMU backend, probe and report the CPU, the self tests, the main job,
 * the SUMMARY.  The real backend is what the platform hands in (struct
 * app_real; NULL on the host, where pmu=hw SKIPs and pmu=auto simulates).
 */
#include "app.h"
#include "../job/job.h"
#include "../job/results.h"
#include "../lib/cpurun.h"
#include "../lib/platform.h"
#include "../lib/fmt.h"
#include "../lib/report.h"
#include "../lib/status.h"
#include "../pmu/cpu.h"
#include "../pmu/cpu_pebs.h"
#include "../pmu/hw.h"
#include "../pmu/session.h"
#include "../pmu/uarch.h"
#include "../sim/sim.h"

#define MSR_IA32_APIC_BASE 0x1b

static void list_models(void)
{
	for (size_t i = 0; i < sim_model_count(); i++) {
		const struct sim_model_info *m = sim_model_at(i);

		report_info("model %s: %s", m->name, m->description);
	}
}

/*
 * pmu=auto: a vCPU that shows no PMU to PEBS-sample with (QEMU TCG, or KVM
 * without PMU passthrough) gets the simulator.  Bare metal always gets the
 * real backend: a missing PMU there is a finding (SKIP), not a reason to
 * pretend.  why says which CPUID bits decided.
 */
static bool vcpu_without_pmu(const struct hw_ops *real, char *why, size_t why_size)
{
	struct cpuid_regs r1, r, hv;
	char sig[13];

	real->cpuid(1, 0, &r1);
	if (!(r1.ecx & BIT_ULL(31)))
		return false;
	real->cpuid(0x40000000, 0, &hv);
	memcpy(sig, &hv.ebx, 4);
	memcpy(sig + 4, &hv.ecx, 4);
	memcpy(sig + 8, &hv.edx, 4);
	sig[12] = 0;
	real->cpuid(0, 0, &r);
	if (r.eax >= 0xa)
		real->cpuid(0xa, 0, &r);
	else
		r.eax = 0;
	if (!(r.eax & 0xff)) {
		pp_snprintf(why, why_size, "hypervisor \"%s\": CPUID.0AH reports PMU version 0",
			    sig);
		return true;
	}
	if (!(r1.edx & BIT_ULL(21))) {
		pp_snprintf(why, why_size,
			    "hypervisor \"%s\": CPUID.1:EDX[21] DS is clear (no PEBS)", sig);
		return true;
	}
	return false;
}

/*
 * The backend decision, taken before anything is printed (CPUID only, no
 * MSR) so that every line of a simulated run, the banner included, carries
 * " [sim]".  What decided is kept in note and printed by app_run().
 */
static struct {
	const struct app_real *real; /* NULL: no real backend in this build */
	bool pending;		     /* app_select() ran and app_run() has not used it yet */
	int status;		     /* 0, EXIT_USAGE (bad options) or EXIT_ALL_SKIPPED */
	bool skip;		     /* note is a SKIP reason, not an INFO line */
	char note[REPORT_LINE_MAX - 64];
} sel;

/* options_check() has accepted the model's name (app_select), so sim_select() knows it. */
static int use_sim(const struct options *opts, char *err, size_t err_size)
{
	static const uint64_t page_sizes[] = {
	    [OPT_SIM_PAGES_4K] = 4096, [OPT_SIM_PAGES_2M] = 2 << 20, [OPT_SIM_PAGES_1G] = 1 << 30};
	const uint32_t *acr = opts->sim_acr;

	/* sim-platform=cpuN:disabled: the firmware's count changes before the simulator's. */
	if (options_apply_platform_cpus(opts, err, err_size))
		return EXIT_USAGE;
	sim_select(opts->model);
	/* sim-platform=: cet, timer-attr onto the selected simulator. */
	if (options_apply_platform_sim(opts, err, err_size))
		return EXIT_USAGE;
	/* sim-host=: the machine as a guest sees it (sim/kvm.c), before anything reads it. */
	options_apply_sim_host(opts);
	/* sim-pages=: how the simulated firmware maps memory, before anything runs. */
	sim_set_pages(page_sizes[opts->sim_pages]);
	/* sim-ucode=, sim-stepping=: what the errata table reads, before the probe. */
	options_apply_sim_ids(opts);
	/* sim-fault=: checked with the options (CPU numbers below plat_cpu_count()). */
	for (unsigned int i = 0; i < opts->faults.n; i++)
		sim_set_fault(opts->faults.item[i].cpu, opts->faults.item[i].kind,
			      opts->faults.item[i].arg);
	/* sim-acr=: CPUID.23H.2 on the v6 CPUs (sim/acr.c); all 0 is off. */
	sim_set_acr(acr[0], acr[1], acr[2], acr[3]);
	/* sim-handoff=: before the backend is installed; refused -> exit 2, no MSR written. */
	if (options_apply_sim_handoff(opts, err, err_size))
		return EXIT_USAGE;
	hw_install(sim_hw_ops());
	report_set_simulated(true);
	return 0;
}

/* Installs the backend; returns 0, or EXIT_ALL_SKIPPED (pmu=hw, no real backend). */
static int choose_backend(const struct options *opts, char *err, size_t err_size)
{
	const struct hw_ops *real = sel.real ? sel.real->ops : NULL;
	char why[160];

	switch (opts->pmu) {
	case OPT_PMU_SIM:
		return use_sim(opts, err, err_size);
	case OPT_PMU_HW:
		if (!real) {
			sel.skip = true;
			pp_snprintf(sel.note, sizeof(sel.note),
				    "pmu=hw: this build has no real PMU backend (host build)");
			return EXIT_ALL_SKIPPED;
		}
		hw_install(real);
		return 0;
	case OPT_PMU_AUTO:
	default: /* the option table holds no other value */
		if (!real) {
			pp_snprintf(
			    sel.note, sizeof(sel.note),
			    "pmu=auto: no real backend in this build: simulated PMU, model %s",
			    opts->model);
			return use_sim(opts, err, err_size);
		}
		if (vcpu_without_pmu(real, why, sizeof(why))) {
			pp_snprintf(sel.note, sizeof(sel.note),
				    "pmu=auto: %s: running the simulated PMU, model %s (pmu=hw to "
				    "insist on the real one)",
				    why, opts->model);
			return use_sim(opts, err, err_size);
		}
		hw_install(real);
		return 0;
	}
}

int app_select(const struct options *opts, const struct app_real *real, char *err, size_t err_size)
{
	memset(&sel, 0, sizeof(sel));
	sel.real = real;
	sel.pending = true;
	/* The one place the options are judged as a whole, before any backend. */
	if (options_check(opts, err, err_size)) {
		pp_snprintf(sel.note, sizeof(sel.note), "ERROR: %s", err);
		sel.status = EXIT_USAGE;
		return EXIT_USAGE;
	}
	/* model=list only lists: no backend. */
	if (!strcmp(opts->model, "list"))
		return 0;
	sel.status = choose_backend(opts, err, err_size);
	if (sel.status == EXIT_USAGE) {
		pp_snprintf(sel.note, sizeof(sel.note), "ERROR: %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * selftest=gp: provoke a real #GP through the seam and check that it was
 * trapped and execution resumed.  The access: WRMSR IA32_PKRS (6E1H) with
 * bit 32 set.  Bits 63:32 of IA32_PKRS are reserved, so a CPU with PKS
 * raises #GP, and a CPU without PKS has no such MSR and raises #GP too
 * (SDM Vol. 4 Table 2-2 "IA32_PKRS"; Vol. 2B WRMSR).  QEMU 7.2 TCG checks
 * the same reserved bits (helper_wrmsr), while it reads and ignores most
 * unknown MSRs without a fault.  Even if some CPU took the write, PKRS only
 * matters with CR4.PKS set, which the firmware does not set.
 */
#define MSR_IA32_PKRS	  0x6e1
#define PKRS_RESERVED_BIT BIT_ULL(32)

struct ap_test {
	const struct app_real *real;
	bool ok;
	char why[160];
};

static void ap_test_on_cpu(void *p)
{
	struct ap_test *t = p;

	t->ok = t->real->selftest_ap_interrupt(t->why, sizeof(t->why));
}

#define AP_TEST_TIMEOUT_US (10ULL * 1000000)

/*
 * drain=pmi on an AP: the PMI is a local APIC interrupt on that AP, which
 * firmware runs with interrupts off.  Each AP fires its own APIC timer on
 * the PMI vector with a handler installed through the real backend, as a
 * session installs its PMI handler on the measured CPU.
 */
static void selftest_ap_interrupt(const struct app_real *real)
{
	unsigned int n = plat_cpu_count(), c;
	struct ap_test *t;
	int rc;

	if (!real->selftest_ap_interrupt || n < 2) {
		report_skip("selftest-pmi-ap", "%s",
			    n < 2 ? "one CPU: no AP to take an interrupt on (QEMU: --smp 2)"
				  : "this backend has no AP interrupt test");
		return;
	}
	for (c = 1; c < n; c++) {
		/* Never on the stack: a CPU that does not return may still write it. */
		t = plat_alloc(sizeof(*t));
		if (!t) {
			report_env_error("selftest-pmi-ap", "no memory for the test of cpu %u", c);
			return;
		}
		memset(t, 0, sizeof(*t));
		t->real = real;
		cpurun_run_what("selftest-pmi-ap");
		rc = cpurun_run(c, ap_test_on_cpu, t, AP_TEST_TIMEOUT_US, NULL, NULL);
		report_flush_deferred("the tested CPU");
		cpurun_release(c); /* no AP left spinning until the job needs it */
		if (rc) {
			report_env_error("selftest-pmi-ap", "cpu %u %s", c,
					 rc == CPU_RUN_TIMEOUT ? "did not return"
							       : "could not be started");
			if (rc != CPU_RUN_TIMEOUT)
				plat_free(t);
			return;
		}
		if (!t->ok) {
			report_fail("selftest-pmi-ap", "real cpu %u: %s", c, t->why);
			plat_free(t);
			return;
		}
		if (c + 1 < n)
			plat_free(t);
	}
	report_pass("selftest-pmi-ap: real CPUs 1-%u: a local APIC timer interrupt on vector "
		    "0xee reached the handler installed on each AP (%s)",
		    n - 1, t->why);
	plat_free(t);
}

static void selftest_gp_checks(const struct app_real *real)
{
	unsigned long before = real->gp_trapped();
	uint64_t base = 0;
	char why[160];

	if (hw_rdmsr(MSR_IA32_APIC_BASE, &base) != HW_OK) {
		report_fail("selftest-gp-read",
			    "rdmsr 0x%x (IA32_APIC_BASE) on the real CPU faulted: the "
			    "trap fires on an access that must not fault",
			    MSR_IA32_APIC_BASE);
		return;
	}
	report_pass(
	    "selftest-gp-read: real CPU: rdmsr 0x%x (IA32_APIC_BASE) = 0x%llx without fault",
	    MSR_IA32_APIC_BASE, (unsigned long long)base);
	if (hw_wrmsr(MSR_IA32_PKRS, PKRS_RESERVED_BIT) != HW_GP) {
		report_fail("selftest-gp-fault",
			    "wrmsr 0x%x <- 0x%llx (reserved bit 32) on the real CPU "
			    "did not fault",
			    MSR_IA32_PKRS, (unsigned long long)PKRS_RESERVED_BIT);
		return;
	}
	if (real->gp_trapped() != before + 1) {
		report_fail("selftest-gp-fault",
			    "#GP reported but the trap counted %lu faults, not 1",
			    real->gp_trapped() - before);
		return;
	}
	report_pass(
	    "selftest-gp-fault: real CPU: wrmsr 0x%x <- 0x%llx raised #GP, trapped, execution "
	    "resumed",
	    MSR_IA32_PKRS, (unsigned long long)PKRS_RESERVED_BIT);
	/*
	 * The fault flag must come from the access alone, not from what the
	 * caller left in the registers (efi/hw_real.c: r8 is zeroed inside the
	 * asm).
	 */
	if (real->selftest_dirty_regs(why, sizeof(why)))
		report_pass("selftest-gp-regs: real CPU: with garbage in rax, rcx, rdx, r8-r11 "
			    "rdmsr 0x%x read without fault and wrmsr 0x%x faulted, each time",
			    MSR_IA32_APIC_BASE, MSR_IA32_PKRS);
	else
		report_fail("selftest-gp-regs", "garbage in the caller-saved registers: %s", why);
	if (real->idt_intact(why, sizeof(why)))
		report_pass("selftest-gp-idt: real CPU: firmware IDT and its #GP gate unchanged");
	else
		report_fail("selftest-gp-idt", "firmware IDT not restored: %s", why);
	/* The PMI path's IDT gate and register save, fired in software. */
	if (real->selftest_vector(why, sizeof(why)))
		report_pass("selftest-pmi-vector: real CPU: INT 0xee reached the handler once, "
			    "registers and xmm0 preserved, firmware IDT restored");
	else
		report_fail("selftest-pmi-vector", "%s", why);
	selftest_ap_interrupt(real);
}

/*
 * The self test proves the real machine's #GP trap (efi/hw_real.c), so it
 * runs on the real backend whatever pmu= chose: the simulator models the
 * PMU, not the CPU's faults.  The backend is put back afterwards.
 */
static void selftest_gp(const struct app_real *real)
{
	const struct hw_ops *prev;

	if (!real || !real->ops) {
		report_skip("selftest-gp",
			    "this build has no real backend to trap #GP on (host build)");
		return;
	}
	if (hw_is_simulated())
		report_info("selftest=gp: on the real CPU, not the simulated PMU");
	prev = hw_install(real->ops);
	selftest_gp_checks(real);
	hw_install(prev);
}

/* The CPU as app_run() probed it, for results.json's identity (app_finish). */
static struct cpu_info probed;
static bool have_probed;

/*
 * CR4.CET (SDM Vol. 3A 2.5, bit 23): supervisor shadow stacks may be on.
 * Every MSR access the app makes may #GP, and the real backend's trap
 * returns from it to a rewritten RIP, which IRET refuses when it differs
 * from the shadow stack's return address (#CP; SDM Vol. 1 18 "Control-flow
 * Enforcement Technology").  Refused before any access, as a known limit:
 * a SKIP naming it.  selftest=gp traps on the real CPU whatever pmu= chose.
 */
#define CR4_CET BIT_ULL(23)

static bool cet_refused(const struct options *opts)
{
	const struct hw_ops *real = sel.real ? sel.real->ops : NULL;
	const char *where = NULL;

	if (hw_read_cr4() & CR4_CET)
		where = hw_is_simulated() ? "the simulated CPU" : "this CPU";
	else if (opts->selftest == OPT_SELFTEST_GP && real && real->read_cr4 &&
		 (real->read_cr4() & CR4_CET))
		where = "the real CPU";
	if (!where)
		return false;
	/* Supervisor shadow stacks refuse the trap's return to a rewritten RIP (#CP). */
	report_skip("pebs", "CR4.CET is set on %s: the #GP trap would #CP; no MSR read", where);
	return true;
}

int app_run(const struct options *opts, const struct app_real *real)
{
	struct cpu_info *ci = &probed;
	char why[REPORT_LINE_MAX - 64];

	if (!sel.pending)
		app_select(opts, real, why, sizeof(why));
	sel.pending = false;
	/* Bad options: the one ERROR line, nothing else (docs/OPTIONS.md). */
	if (sel.status == EXIT_USAGE) {
		report_line("%s", sel.note);
		return EXIT_USAGE;
	}
	hw_set_msr_trace(opts->trace_msr);
	if (opts->verbose)
		options_report(opts);
	if (!strcmp(opts->model, "list")) {
		list_models();
		return EXIT_PASS;
	}
	if (sel.status == EXIT_ALL_SKIPPED) {
		report_skip("pmu", "%s", sel.note);
		return report_summary();
	}
	if (sel.note[0])
		report_info("%s", sel.note);
	report_info("pmu backend: %s%s%s", hw_current()->name, hw_is_simulated() ? ", model " : "",
		    hw_is_simulated() ? opts->model : "");
	if (cet_refused(opts)) {
		app_verdict_table();
		return report_summary();
	}
	cpu_probe(ci);
	have_probed = true;
	/* mode=report asks for the capability report: all of it on the console. */
	if (opts->report_only)
		report_set_verbose(true);
	cpu_report(ci);
	status_machine(ci->brand, uarch_for_cpu(ci) ? uarch_for_cpu(ci)->name : NULL,
		       ci->pmu_version, hw_is_simulated());

	/* The job's options against this CPU, before the first PMU write (bad: exit 2). */
	if (!opts->report_only && pmu_pebs_usable(ci, why, sizeof(why)) &&
	    job_check(&opts->job, ci, why, sizeof(why))) {
		report_line("ERROR: %s", why);
		return EXIT_USAGE;
	}
	if (opts->selftest == OPT_SELFTEST_GP)
		selftest_gp(sel.real);
	if (opts->report_only) {
		report_info("mode=report: capability report only");
	} else if (!pmu_pebs_usable(ci, why, sizeof(why))) {
		report_skip("pebs", "%s", why);
	} else {
		job_main(&opts->job, ci);
	}
	/* sim-platform=timer-attr: every page-attribute change in the firmware's own tables. */
	if (hw_is_simulated())
		sim_timer_attr_check();
	app_verdict_table();
	return report_summary();
}

int app_finish(const struct options *in_effect, const char *results, int status)
{
	static char opt_text[OPTIONS_TEXT_MAX];
	const struct uarch_info *ua = have_probed ? uarch_for_cpu(&probed) : NULL;
	struct plat_identity id;
	struct results_run run = {
	    .plat = &id,
	    .options = opt_text,
	    .simulated = hw_is_simulated(),
	    .sim_model = in_effect->model,
	    .ci = have_probed ? &probed : NULL,
	    .uarch = ua ? ua->name : NULL,
	};
	char why[REPORT_LINE_MAX - 64];

	plat_identity(&id);
	options_format(in_effect, opt_text, sizeof(opt_text));
	if (results_write(results, &run, status, why, sizeof(why)) < 0) {
		report_env_error("results", "%s", why);
		/* A run is never called clean when its results did not land. */
		if (status == EXIT_PASS || status == EXIT_ALL_SKIPPED)
			status = EXIT_ENVIRONMENT;
	} else if (strcmp(results, "none")) {
		report_info("results: %s (run %s, exit status %d)", why, results_run_id(), status);
	}
	results_reset();
	have_probed = false;
	return status;
}
