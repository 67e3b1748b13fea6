// SPDX-License-Identifier: MIT
/*
 * job.c - the main job: every kernel that applies to this CPU,
 * sampled with load latency and the generation's store sampling; for each:
 * a start line, the events counted, records drained and lost, a
 * per-data-source latency table (cycles and ns), the first N records as
 * REC: lines, the verdict, an end line.  Then results.json and one raw dump
 * per kernel and sampling on the ESP.  This file is the flow over the
 * CPUs of cpus=; one kernel's run is run.c, the pieces are in sampling.c,
 * records.c, results.c, dump.c and offcore.c (job_int.h).
 */
#include "job_int.h"
#include "results.h"
#include "../lib/cpurun.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../lib/status.h"
#include "../pmu/errata.h"
#include "../pmu/hw.h"

/*
 * How long one run on a CPU may take before that CPU is declared not
 * returning (cpu-timeout=, default JOB_CPU_TIMEOUT_S): the longest default
 * run under QEMU TCG takes seconds.
 */
static uint64_t cpu_timeout_us(const struct job_opts *jo)
{
	return (jo->cpu_timeout_s ? jo->cpu_timeout_s : JOB_CPU_TIMEOUT_S) * 1000000ULL;
}

/* --- time ---------------------------------------------------------------- */

/*
 * A TSC runs at the processor's nominal clock: from the 100 MHz of the
 * oldest PEBS machines' bus multiples up to a few GHz.  A calibration
 * outside this range measured something else (the simulator's TSC counts
 * its modelled cycles, not time), and ns from it would be nonsense.
 */
#define TSC_HZ_PLAUSIBLE_MIN 100000000ULL
#define TSC_HZ_PLAUSIBLE_MAX 10000000000ULL

static uint64_t calibrate_tsc(void)
{
	uint64_t t0 = plat_time_us(), c0 = hw_rdtsc(), t1, c1;

	plat_stall_us(20000);
	t1 = plat_time_us();
	c1 = hw_rdtsc();
	if (t1 <= t0 || c1 <= c0)
		return 0;
	return (c1 - c0) * 1000000 / (t1 - t0);
}

/* --- the job ----------------------------------------------------------------- */

/* How many kernels kernels= runs on each CPU: the screen's "kernel k of K". */
static unsigned int job_kernels_selected(const struct job_opts *jo)
{
	unsigned int n = 0;

	for (size_t i = 0; i < kernel_count(); i++)
		n += job_kernel_chosen(jo, i);
	return n;
}

/* The processor the runs are on now (cpus=: each in turn); the report's lines carry it. */
static void set_cpu_now(struct job_cpu_now *cn, const struct cpu_info *ci)
{
	cn->at.cpu = ci->cpu;
	cn->at.apic_id = ci->apic_id;
	cn->at.core_type = cpu_core_type_short(ci->core_type);
	report_set_cpu(cn->at.cpu, cn->at.apic_id, cn->at.core_type);
}

/*
 * The errata rows that drop records by rule on this CPU (pmu/errata.c), in
 * one INFO line, once for a run of CPUs alike; a row that turns PEBS off
 * is named by the SKIP lines instead (pmu_pebs_usable).
 */
static void note_errata(struct job_state *js, const struct cpu_info *ci)
{
	uint32_t mask = errata_mask(ci), dropped = 0;
	char ids[160];
	struct strbuf sb;

	results_keep_cpu_errata(ci->cpu, mask);
	strbuf_init(&sb, ids, sizeof(ids));
	for (unsigned int i = 0; i < errata_count(); i++) {
		if (!(mask & (1u << i)) || errata_at(i)->effect != ERRATA_RECORDS_DROPPED)
			continue;
		strbuf_printf(&sb, "%s%s", dropped ? ", " : "", errata_at(i)->id);
		dropped |= 1u << i;
	}
	if (!dropped || (js->errata_noted && dropped == js->errata_last))
		return;
	js->errata_noted = true;
	js->errata_last = dropped;
	report_info("errata: %s: records dropped by rule, counted per sampling (docs/ERRATA.md)",
		    ids);
}

/*
 * A CPU done and the console quiet for JOB_QUIET_US (its verdicts went to
 * the log file): one line saying how far the job is, so that serial, which
 * has no status header, never looks hung on a machine of many CPUs.
 */
#define JOB_QUIET_US (5ULL * 1000000)

static void progress_cpu_done(void)
{
	uint64_t now = plat_time_us();
	char where[80];

	if (now - report_console_at() < JOB_QUIET_US)
		return;
	status_progress(now, true, where, sizeof(where));
	if (where[0])
		report_info("%s", where);
}

/* One CPU's kernels: the selected ones, or SKIP lines with why PEBS cannot be used. */
static void run_cpu(struct runner *r)
{
	const struct job_opts *jo = r->job.jo;
	char why[256];
	bool usable = pmu_pebs_usable(r->cpu.ci, why, sizeof(why));
	unsigned int nth = 0;

	r->cpu.other_only = false;
	if (usable && r->cpu.ua && !r->job.n_user) {
		enum pebs_kind kd;
		const char *ev;

		r->cpu.other_only = !sampling_kind(r->cpu.ua, KSAMPLE_LOAD, &kd, &ev) &&
				    !sampling_kind(r->cpu.ua, KSAMPLE_STORE, &kd, &ev);
		if (r->cpu.other_only)
			report_info(
			    "main job: %s has no load or store sampling: each kernel is sampled "
			    "with the generation's PEBS instructions event; no data-source checks",
			    r->cpu.ua->name);
	}
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *def = kernel_at(i);

		if (!job_kernel_chosen(jo, i))
			continue;
		status_kernel(++nth, def->name);
		if (!usable) {
			json_begin_object(&r->job.json, NULL);
			json_str(&r->job.json, "kernel", def->name);
			json_u64(&r->job.json, "cpu", r->cpu.ci->cpu);
			json_begin_array(&r->job.json, "runs");
			job_skip_kernel(r, def, "%s", why);
			json_end_array(&r->job.json);
			json_end_object(&r->job.json);
			status_step_done();
			continue;
		}
		job_run_kernel(r, def);
		status_step_done();
	}
}

static void probe_on_cpu(void *ci)
{
	cpu_probe(ci);
}

/*
 * Every CPU of cpus=, one at a time: its own probe (CPUID and the
 * capability MSRs are per CPU: a hybrid part's core types differ), its own
 * sessions, then the per-CPU table.
 */
static void run_cpus(struct runner *r, const struct cpu_info *boot, const struct cpuset *set)
{
	unsigned int n = cpuset_count(set), i = 0;
	struct cpu_tally *tallies = plat_alloc(n * sizeof(*tallies));

	if (!tallies) {
		report_env_error("main-job", "no memory for %u CPUs' tallies", n);
		return;
	}
	memset(tallies, 0, n * sizeof(*tallies));
	for (unsigned int c = 0; c < set->n; c++) {
		struct cpu_tally *t;
		struct cpu_info *ci;
		int rc = CPU_RUN_OK;
		char from[32];

		if (!cpuset_has(set, c))
			continue;
		t = &tallies[i++];
		t->cpu = c;
		/* Never freed: a CPU that does not return may still write it. */
		ci = plat_alloc(sizeof(*ci));
		if (!ci) {
			report_env_error("main-job", "no memory for cpu %u's description", c);
			continue;
		}
		cpurun_run_what("capability probe");
		if (c == 0)
			*ci = *boot;
		else
			rc = cpurun_run(c, probe_on_cpu, ci, r->job.cpu_timeout_us, NULL, NULL);
		pp_snprintf(from, sizeof(from), "cpu %u's probe", c);
		report_flush_deferred(from);
		if (rc == CPU_RUN_LOST) {
			/* The partner of a two-CPU kernel that never came back: named then. */
			report_fail("cpu-probe",
				    "cpu %u did not return from earlier work within %u s "
				    "(cpu-timeout=): not posted again",
				    c, (unsigned int)(r->job.cpu_timeout_us / 1000000));
			t->hung = true;
			t->count[V_FAIL]++;
			continue;
		}
		if (rc == CPU_RUN_TIMEOUT) {
			/* A CPU that never came back is a finding about it: a FAIL, the others go
			 * on. */
			report_fail("cpu-probe",
				    "cpu %u did not return from its capability probe "
				    "within %u s (cpu-timeout=)",
				    c, (unsigned int)(r->job.cpu_timeout_us / 1000000));
			t->hung = true;
			t->count[V_FAIL]++;
			continue;
		}
		if (rc) {
			/* The platform's failure, not the PMU's: exit 99, the others go on. */
			report_env_error("main-job",
					 "cpu %u: could not be started "
					 "(EFI_MP_SERVICES_PROTOCOL)",
					 c);
			plat_free(ci); /* never started: nothing uses it */
			continue;
		}
		r->cpu.ci = ci;
		r->cpu.ua = uarch_for_cpu(ci);
		r->cpu.hung = false;
		set_cpu_now(&r->cpu, ci);
		status_cpu(i, c, r->cpu.at.core_type, r->cpu.ua ? r->cpu.ua->name : NULL);
		job_cpu_tally_begin(&r->cpu, t, ci);
		job_dump_cpu_begin(&r->job.dump, ci, r->cpu.ua);
		results_keep_cpu_uarch(ci->cpu, r->cpu.ua ? r->cpu.ua->name : NULL);
		note_errata(&r->job, ci);
		report_detail("cpu %u: APIC ID %u, core type %s, %s; PMU v%u, %u GP + %u fixed "
			      "counters, PEBS %s",
			      c, ci->apic_id, cpu_core_type_short(ci->core_type),
			      r->cpu.ua ? r->cpu.ua->name : "unknown uarch", ci->pmu_version,
			      ci->n_gp, (unsigned int)__builtin_popcount(ci->fixed_mask),
			      ci->arch_pebs ? "architectural (CPUID.23H)"
			      : ci->has_perf_caps
				  ? (PERF_CAP_PEBS_FMT(ci->perf_caps) == 0 ? "fmt0" : "fmt1+")
				  : "format unknown");
		job_handoff_cpu_begin(&r->job, c, ci); /* before its first session writes an MSR */
		/* Several CPUs: their verdicts to the log, summed up below (aggregate.c). */
		report_set_verdicts_to_log(r->job.n_measured > 1);
		run_cpu(r);
		report_set_verdicts_to_log(false);
		if (!r->cpu.hung)
			job_handoff_cpu_end(&r->job, c);
		t->hung = r->cpu.hung;
		if (!t->hung)
			plat_free(ci);
		/* Done with it: back to MP services, no AP left spinning (a vCPU burns a host CPU).
		 */
		cpurun_release(c);
		progress_cpu_done();
	}
	r->cpu.tally = NULL;
	r->cpu.tag[0] = 0;
	r->cpu.ci = boot;
	r->cpu.ua = uarch_for_cpu(boot);
	set_cpu_now(&r->cpu, boot);
	job_aggregate_report(tallies, n);
	job_cpu_tally_report(r, tallies, n);
	plat_free(tallies);
}

/*
 * The processors the firmware numbers but that are not measured, each
 * named once (PI spec Vol. 2 13.4 GetProcessorInfo StatusFlag): a disabled
 * one is no CPU of cpus=, and the highest enabled one still is.
 */
static void report_unused_cpus(void)
{
	struct plat_cpu_unused u[JOB_UNUSED_SHOWN];
	unsigned int n = plat_cpus_unused(u, JOB_UNUSED_SHOWN);

	for (unsigned int i = 0; i < n && i < JOB_UNUSED_SHOWN; i++)
		report_info("main job: processor %u is %s: not measured", u[i].number,
			    u[i].disabled ? "disabled by the firmware" : "unhealthy");
	if (n > JOB_UNUSED_SHOWN)
		report_info("main job: %u more processors not used", n - JOB_UNUSED_SHOWN);
}

/* cpus= for the INFO line: all, boot, or the CPUs it chose as ranges. */
static void cpus_text(const struct job_cpus *c, const struct cpuset *set, char *out, size_t size)
{
	if (c->how == JOB_CPUS_LIST)
		cpuset_text(set, out, size - 1);
	else
		pp_snprintf(out, size, "%s", c->how == JOB_CPUS_ALL ? "all" : "boot");
}

void job_main(const struct job_opts *jo, const struct cpu_info *ci)
{
	struct runner *r = plat_alloc(sizeof(*r));
	char cpus[48];
	size_t len;
	struct cpuset *set = NULL;

	if (!r) {
		report_env_error("main-job", "no memory for the job's state (%zu bytes)",
				 sizeof(*r));
		return;
	}
	memset(r, 0, sizeof(*r));
	r->job.jo = jo;
	r->cpu.ci = ci;
	r->job.simulated = hw_is_simulated();
	/*
	 * Sizes and iterations follow from how the kernels run, not from
	 * which backend: a backend that wants every access reported gets the
	 * instrumented build, where each access is a call (about 100 times
	 * slower), so the small defaults (size_sim, iters_sim) apply.
	 */
	r->job.instrumented = hw_current()->mem_access && hw_current()->retire;
	r->job.contrast_x100 = -1;
	r->cpu.ua = uarch_for_cpu(ci);
	r->job.cpu_timeout_us = cpu_timeout_us(jo);
	job_session_base(jo, r->job.cpu_timeout_us, &r->job.session);
	/* Nothing measured is nothing passed: a SKIP, so a run of only this exits 77. */
	if (!jo->kernels) {
		report_skip("main-job", "kernels=none: no kernel chosen, nothing was measured");
		goto out;
	}
	/* Checked with the options (app/options.c): a failure here is a changed machine. */
	set = cpuset_alloc(plat_cpu_count());
	if (!set) {
		report_env_error("main-job", "no memory for the set of %u CPUs", plat_cpu_count());
		goto out;
	}
	if (!job_cpus_set(&jo->cpus, plat_cpu_count(), set)) {
		report_fail("main-job", "cpus=: none of its CPUs exists (%u here)",
			    plat_cpu_count());
		goto out;
	}
	r->job.json_size = RESULTS_BUF_SIZE + (size_t)cpuset_count(set) * RESULTS_BUF_PER_CPU;
	r->job.json_buf = plat_alloc(r->job.json_size);
	r->job.now = plat_alloc(sizeof(*r->job.now));
	if (!r->job.json_buf || !r->job.now) {
		report_env_error("main-job", "no memory for the results (%zu bytes) and the plan",
				 r->job.json_size);
		goto out;
	}
	set_cpu_now(&r->cpu, ci);
	r->job.tsc_hz = ci->tsc_hz ? ci->tsc_hz : calibrate_tsc();
	cpus_text(&jo->cpus, set, cpus, sizeof(cpus));
	report_info("main job: TSC %llu Hz (%s), %u CPU%s (cpus=%s: %u measured), %s kernels",
		    (unsigned long long)r->job.tsc_hz, ci->tsc_hz ? "CPUID 15H/16H" : "calibrated",
		    plat_cpu_count(), plat_cpu_count() == 1 ? "" : "s", cpus, cpuset_count(set),
		    r->job.instrumented ? "instrumented" : "real");
	report_unused_cpus();
	if (!ci->tsc_hz &&
	    (r->job.tsc_hz < TSC_HZ_PLAUSIBLE_MIN || r->job.tsc_hz > TSC_HZ_PLAUSIBLE_MAX)) {
		report_info("main job: a calibrated TSC of %llu Hz is no clock this CPU has "
			    "(accepted: 100 MHz..10 GHz): latencies in cycles only (no ns)",
			    (unsigned long long)r->job.tsc_hz);
		r->job.tsc_hz = 0;
	}
	json_init_members(&r->job.json, r->job.json_buf, r->job.json_size);
	json_u64(&r->job.json, "tsc_hz", r->job.tsc_hz);
	json_begin_array(&r->job.json, "kernels");
	job_user_events(&r->job, &jo->events);
	if (r->job.n_user)
		report_info("main job: %u event(s) from events= sample every kernel",
			    r->job.n_user);
	r->job.n_measured = cpuset_count(set);
	job_dump_policy_init(&r->job.dump, jo->dump, r->job.n_measured, plat_cpu_count());
	job_handoff_audit_begin(&r->job, set); /* each CPU read before its own sessions */
	status_job_begin(plat_time_us(), r->job.n_measured, job_kernels_selected(jo));
	run_cpus(r, ci, set);
	status_job_end(plat_time_us());
	json_end_array(&r->job.json);
	job_handoff_audit_end(&r->job);
	job_dump_report(&r->job.dump, &r->job.json);
	report_clear_cpu();
	len = json_members_len(&r->job.json);
	if (!len)
		report_fail("results", "the kernels' results did not fit in %zu bytes",
			    r->job.json_size);
	/* results.json is written at the end of the run (app_finish), with its exit status. */
	results_keep_job(r->job.json_buf, len);
	r->job.json_buf = NULL;
out:
	cpurun_release_all(); /* every path: no AP left in its loop when the app exits */
	cpuset_free(set);
	job_dump_policy_free(&r->job.dump);
	if (r->job.json_buf)
		plat_free(r->job.json_buf);
	if (r->job.now)
		plat_free(r->job.now);
	plat_free(r);
}
