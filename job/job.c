// SPDX-License-Identifier: MIT
/*
 * job.c - the main job: every kernel that applies to this CPU,
 * sampled with load latency and the generation's store sampling; for each:
 * a start line, the events counted, records drained and lost, a
 * per-data-source latency table (cycles and ns), the first N records as
 * REC: lines, the verdict, an end line.  Then results.json and one raw dump
 * per kernel and sampling on the ESP.  This file is the flow; the pieces
 * are in sampling.c, records.c, results.c, dump.c and offcore.c
 * (job_int.h).
 */
#include "job_int.h"
#include "results.h"
#include "../lib/cpurun.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/hw.h"

/*
 * How long one run on a CPU may take before that CPU is declared not
 * returning (cpu-timeout=, default JOB_CPU_TIMEOUT_S): the longest default
 * run under QEMU TCG takes seconds.
 */
uint64_t job_cpu_timeout_us(const struct job_opts *jo)
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

/* --- progress -------------------------------------------------------------- */

static void progress(void *ctx, uint64_t done, uint64_t total)
{
	struct runner *r = ctx;
	uint64_t now = plat_time_us();

	if (now - r->last_progress_us < PROGRESS_EVERY_US)
		return;
	r->last_progress_us = now;
	report_info("%s: running, %llu of %llu iterations (%llu%%)", r->kname,
		    (unsigned long long)done, (unsigned long long)total,
		    (unsigned long long)(total ? done * 100 / total : 100));
}

/* --- one sampling of one kernel --------------------------------------------- */

/* Bytes a record may take (fmt3: 200, adaptive with GPRs: 208); XMM/LBR groups are not asked for.
 */
#define RECORD_BYTES_MAX 256

/*
 * Events per iteration assumed for an event that counts none of the
 * kernel's accesses (instructions: a loop is 2 to 6): low rather than high,
 * so the kernel gives records; a full buffer is counted as lost (counting copy).
 */
#define OTHER_EVENTS_PER_ITER 2

/*
 * With period= not given: a sample-after value that lets the records of the
 * whole kernel fit in three quarters of the PEBS buffer, so polling at the
 * end loses none; never below the generation's minimum (and 32).  plan_min:
 * the period the plan picks for this event when none is asked (its minimum,
 * Linux core.c limit_period: e.g. 128 for INST_RETIRED.ALL on Haswell to
 * Skylake, which also wants the low 6 bits clear): the default is a multiple
 * of it when it is 64 or more.
 */
static uint64_t default_period(const struct runner *r, const struct kernel_ctx *k,
			       unsigned int sampling, uint64_t plan_min)
{
	const struct kernel_def *def = k->def;
	uint64_t per = sampling == KSAMPLE_LOAD	   ? def->loads_per_iter
		       : sampling == KSAMPLE_STORE ? def->stores_per_iter
						   : OTHER_EVENTS_PER_ITER;
	uint64_t acc = k->iterations * (per ? per : 1);
	uint64_t bytes = (uint64_t)r->jo->buffer_kib * 1024;
	uint64_t cap;

	/* Core 2: the session keeps the buffer to one page (pmu/session.c, Linux ds.c
	 * intel_ds_init). */
	if (r->ua && (r->ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	cap = bytes / RECORD_BYTES_MAX * 3 / 4;
	uint64_t min = r->ua && r->ua->min_period > 32 ? r->ua->min_period : 32;
	uint64_t p;

	if (!cap)
		cap = 1;
	p = (acc + cap - 1) / cap;
	if (p < min)
		p = min;
	if (p < plan_min)
		p = plan_min;
	if (plan_min >= 64)
		p = (p + plan_min - 1) / plan_min * plan_min;
	return p;
}

/*
 * A later sampling of a chase continues the chain where the last one
 * stopped: the same lines again would hit in the caches the last run filled
 * (the instrumented runs visit only a few thousand of the chain's slots).
 */
void job_next_chain(struct kernel_ctx *k)
{
	if (k->def->chase && k->sink)
		k->start = k->sink;
}

/* The plan the session will follow (pure: no MSR touched), for the kind and the dump's table. */
static int preplan(struct runner *r, const struct session_cfg *cfg, char *why, size_t why_size)
{
	return plan_build(cfg, r->ci, r->plan, why, why_size);
}

static void report_session_error(struct runner *r, const struct run_ref *run, int rc,
				 const char *why)
{
	/*
	 * A CPU that never came back from its armed session is a finding about
	 * that CPU (a FAIL naming it; its later kernels SKIP and the other CPUs
	 * go on); MP services that could not start it at all are the
	 * platform's failure (an environment error, exit 99), with no verdict.
	 */
	if (rc == SESSION_TIMEOUT)
		job_outcome(r, run, V_FAIL, "timeout: ", why);
	else if (rc == SESSION_NO_CPU) {
		report_env_error(run->test, "%s%s", why, r->cpu_tag);
		job_outcome(r, run, V_SKIP, "environment: ", why);
	} else if (rc == SESSION_SKIP)
		job_outcome(r, run, V_SKIP, NULL, why);
	else if (rc == SESSION_REFUSED)
		/* Refused before any wrmsr (pmu/session.h): one line with the reason. */
		job_outcome(r, run, V_FAIL, "refused: ", why);
	else
		job_outcome(r, run, V_FAIL, "session: ", why);
}

/* kernel_ctx.error of the two-core kernels (kernels/kernels.c kernel_start_ap, kernel_stop_ap). */
static const char *const ap_errors[] = {
    [1] = "CPU 1 could not be started",
    [2] = "CPU 1 did not start its part in time",
    [3] = "CPU 1 did not come back when told to stop",
    [4] = "CPU 1 did not return from earlier work: not posted again",
};

static void run_sampling(struct runner *r, struct kernel_ctx *k, struct sampling *s)
{
	const struct kernel_def *def = k->def;
	char test[TEST_NAME_MAX], why[256], text[REPORT_TEXT_MAX];
	struct session_cfg cfg;
	struct session_result res;
	struct run_out o;
	struct run_ref run = {.test = test, .sampling = s->name};
	struct smi_mark smi;
	enum verdict v;
	int rc;

	pp_snprintf(test, sizeof(test), "%s/%s", def->name, s->name);
	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	memset(&o, 0, sizeof(o));
	cfg.ci = r->ci;
	cfg.kind = s->kind;
	cfg.sample_event = s->event;
	cfg.ldlat = r->jo->ldlat;
	cfg.buffer_kib = r->jo->buffer_kib;
	cfg.threshold_records = r->jo->threshold;
	cfg.drain = r->jo->drain;
	cfg.force_records = s->force;
	cfg.snapshot = r->jo->snapshot;
	cfg.cpu_timeout_us = job_cpu_timeout_us(r->jo);
	cfg.bsp_idle = kernel_bsp_idle;
	cfg.bsp_idle_arg = k;
	why[0] = 0;
	/* A user's event: its kind (from the plan) says which accesses it counts. */
	rc = preplan(r, &cfg, why, sizeof(why));
	run.kind = s->kind;
	if (rc) {
		report_session_error(r, &run, rc, why);
		return;
	}
	s->kind = run.kind = r->plan->kind;
	if (s->user) {
		s->acc = job_kind_accesses(s->kind);
		s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
				 (s->kind == KIND_LDLAT && r->plan->ldlat <= 3);
		if ((s->acc == KSAMPLE_LOAD && !def->loads_per_iter) ||
		    (s->acc == KSAMPLE_STORE && !def->stores_per_iter)) {
			pp_snprintf(why, sizeof(why),
				    "the event samples %s; this kernel makes none",
				    s->acc == KSAMPLE_LOAD ? "loads" : "stores");
			job_outcome(r, &run, V_SKIP, NULL, why);
			return;
		}
	}
	cfg.period = r->jo->period ? r->jo->period : default_period(r, k, s->acc, r->plan->period);
	cfg.n_count_events =
	    kernel_count_events(def, s->acc, r->ua, cpu_perfmon_table(r->ci) != NULL,
				cfg.count_events, SESSION_MAX_COUNT);
	rc = preplan(r, &cfg, why, sizeof(why));
	if (!rc) {
		handoff_smi_mark(r, &smi);
		rc = session_run(&cfg, kernel_run, k, &res, why, sizeof(why));
		handoff_smi_since(r, &smi, &o);
	}
	if (rc == SESSION_TIMEOUT)
		r->cpu_hung = true;
	if (rc) {
		report_session_error(r, &run, rc, why);
		return;
	}
	if (k->error) {
		/* The platform let the run down, not the PMU: no verdict, an environment error. */
		pp_snprintf(why, sizeof(why), "%s",
			    -k->error > 0 && -k->error < (int)ARRAY_SIZE(ap_errors)
				? ap_errors[-k->error]
				: "the other CPU could not run its part");
		report_env_error(test, "%s (error %d)", why, k->error);
		job_outcome(r, &run, V_SKIP, "environment: ", why);
		session_result_free(&res);
		return;
	}

	report_info("%s: sampled %s, period %llu: %llu events", test, res.event_desc,
		    (unsigned long long)res.period, (unsigned long long)res.sampled_events);
	if ((res.fixed_read & 3) == 3)
		report_info("%s: instructions %llu, core cycles %llu", test,
			    (unsigned long long)res.fixed[0], (unsigned long long)res.fixed[1]);
	for (unsigned int i = 0; i < cfg.n_count_events; i++)
		report_info("%s: counted %s: %llu", test, cfg.count_events[i],
			    (unsigned long long)res.counts[i]);

	kernel_stats_init(&o.st, k);
	job_decode_records(r, &res, &o);
	job_report_drained(r, test, s, k, &res, &o);
	job_print_kinds(test, &o);
	job_print_sources(r, &res);

	/* The load sampling's latency, for the kernel's calibration (calibrate.c). */
	if (s->acc == KSAMPLE_LOAD && !s->user && res.decode_cfg.kind == KIND_LDLAT)
		r->calib_median = job_calib_pebs_median(r->summary);
	o.in.st = &o.st;
	o.in.ua = r->ua;
	o.in.named_counts = cpu_perfmon_table(r->ci) != NULL;
	o.in.kind = res.decode_cfg.kind;
	o.in.ldlat = r->plan->use_ldlat ? r->plan->ldlat : 0;
	o.in.page_size = k->instrumented ? PAGE_SIZE_4K : plat_page_size((uintptr_t)k->buf);
	o.in.events = res.sampled_events;
	o.in.period = res.period;
	o.in.records = o.st.n;
	o.in.lost = res.lost;
	o.in.buffer_full = res.buffer_full;
	o.in.lost_unknown = res.lost_unknown;
	o.in.loads = k->loads;
	o.in.stores = k->stores;
	o.in.sampled_accesses = s->acc == KSAMPLE_LOAD	  ? k->loads
				: s->acc == KSAMPLE_STORE ? k->stores
							  : 0;
	o.in.all_qualify = s->all_qualify;
	o.in.forced_asked = s->force;
	o.in.forced = o.kinds[REC_FORCED];
	o.in.n_counts = cfg.n_count_events;
	for (unsigned int i = 0; i < cfg.n_count_events; i++) {
		o.in.count_names[i] = cfg.count_events[i];
		o.in.counts[i] = res.counts[i];
	}
	run.res = &res;
	run.o = &o;
	switch (kernel_evaluate(def, s->acc, &o.in, text, sizeof(text), &o.props)) {
	case KV_PASS:
		v = V_PASS;
		break;
	case KV_SKIP:
		v = V_SKIP;
		break;
	default:
		v = V_FAIL;
		break;
	}
	if (cfg.snapshot)
		v = snapshot_verdict(r, &res, &o, v, text, sizeof(text));
	handoff_smi_text(&o, text, sizeof(text));
	job_outcome(r, &run, v, NULL, text);
	dump_sampling(r, test, &res, v);
	session_result_free(&res);
	job_next_chain(k);
}

/* --- one kernel ------------------------------------------------------------ */

#define WARM_UP_MAX_SIZE (4ULL << 20)

/*
 * One unsampled pass over a working set that fits in the caches, so a
 * kernel meant to hit L1 or L2 does not start cold (the simulator's caches
 * start empty: laying out the buffer is not reported to it).  Larger sets
 * are meant to miss anyway.
 */
static void warm_up(const struct runner *r, struct kernel_ctx *k)
{
	uint64_t saved = k->iterations, slots = k->stride ? k->size / k->stride : 0;
	void (*prog)(void *, uint64_t, uint64_t) = k->progress;

	if (k->size > WARM_UP_MAX_SIZE || !slots)
		return;
	k->iterations = slots < saved ? slots : saved;
	k->progress = NULL;
	/* On the measured CPU: its caches (the simulator's are per CPU too). */
	if (cpu_run(k->cpu, kernel_run, k, job_cpu_timeout_us(r->jo), kernel_bsp_idle, k) ==
	    CPU_RUN_TIMEOUT)
		return; /* k stays with that CPU; the session's timeout reports it */
	report_flush_deferred("the measured CPU");
	k->iterations = saved;
	k->progress = prog;
	k->error = 0;
}

static void skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
    pp_printf(3, 4);

static void skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
{
	char why[256], test[TEST_NAME_MAX];
	struct run_ref run = {.test = test, .kind = KIND_OTHER};
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
		if (!(def->samplings & s))
			continue;
		const char *ev;

		pp_snprintf(test, sizeof(test), "%s/%s", def->name, sampling_name(s));
		run.sampling = sampling_name(s);
		/* The kind the sampling would have had; none known: null (not "other"). */
		run.kind_unknown = !sampling_kind(r->ua, s, &run.kind, &ev);
		job_outcome(r, &run, V_SKIP, NULL, why);
	}
}

/* The kernel's samplings: the user's events, else the generation's own. */
static void run_samplings(struct runner *r, struct kernel_ctx *k)
{
	const struct kernel_def *def = k->def;
	struct sampling smp;
	char test[TEST_NAME_MAX], why[160];
	struct run_ref run = {.test = test, .kind = KIND_OTHER};

	if (r->n_user) {
		for (unsigned int i = 0; i < r->n_user; i++) {
			memset(&smp, 0, sizeof(smp));
			pp_snprintf(smp.name, sizeof(smp.name), "event%u", i + 1);
			smp.event = r->user_ev[i];
			smp.user = true;
			smp.kind = KIND_OTHER;
			run_sampling(r, k, &smp);
		}
		return;
	}
	if (r->other_only) {
		job_other_sampling("other", 0, &smp);
		run_sampling(r, k, &smp);
		return;
	}
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
		if (!(def->samplings & s))
			continue;
		if (!job_default_sampling(r, s, &smp)) {
			pp_snprintf(test, sizeof(test), "%s/%s", def->name, sampling_name(s));
			run.sampling = sampling_name(s);
			run.kind_unknown = true;
			pp_snprintf(why, sizeof(why), "%s has no %s sampling", r->ua->name,
				    sampling_name(s));
			job_outcome(r, &run, V_SKIP, NULL, why);
			continue;
		}
		run_sampling(r, k, &smp);
	}
	/* Goldmont: a non-precise event's records and one forced record (SDM 18.7.1). */
	if (r->ua->flags & UA_NONPRECISE_PEBS) {
		job_other_sampling("nonprecise", 1, &smp);
		run_sampling(r, k, &smp);
	}
}

static void run_kernel(struct runner *r, const struct kernel_def *def)
{
	struct kernel_ctx *k = plat_alloc(sizeof(*k));
	unsigned int cpus = plat_cpu_count();
	char why[160];
	bool clipped;
	uint64_t t0 = plat_time_us();

	if (!k) {
		report_env_error(def->name, "no memory for the kernel's state (%zu bytes)",
				 sizeof(*k));
		return;
	}
	memset(k, 0, sizeof(*k));
	cpu_run_what(def->name);
	json_begin_object(&r->json, NULL);
	json_str(&r->json, "kernel", def->name);
	json_str(&r->json, "what", def->what);
	json_u64(&r->json, "cpu", r->ci->cpu);
	if (r->cpu_hung) {
		json_begin_array(&r->json, "runs");
		skip_kernel(r, def, "cpu %u did not return from an earlier run", r->ci->cpu);
		json_end_array(&r->json);
		json_end_object(&r->json);
		plat_free(k);
		return;
	}
	if (def->cpus > cpus) {
		json_begin_array(&r->json, "runs");
		skip_kernel(r, def, "needs %u CPUs, %u available (QEMU: --smp 2)", def->cpus, cpus);
		json_end_array(&r->json);
		json_end_object(&r->json);
		plat_free(k);
		return;
	}
	/* Laying out a large chain takes seconds: say so before, not after. */
	if ((r->jo->size ? r->jo->size : (r->instrumented ? def->size_sim : def->size)) >=
	    (64ULL << 20))
		report_info("kernel %s: preparing the working set", def->name);
	if (kernel_prepare(k, def, r->jo->size, r->jo->iterations, r->instrumented, &clipped, why,
			   sizeof(why)) < 0) {
		report_fail(def->name, "%s", why);
		json_str(&r->json, "error", why);
		json_end_object(&r->json);
		plat_free(k);
		return;
	}
	k->instrumented = r->instrumented;
	k->cpu = r->ci->cpu;
	k->cpu_timeout_us = job_cpu_timeout_us(r->jo);
	k->ops = hw_current();
	k->progress = progress;
	k->progress_ctx = r;
	r->kname = def->name;
	r->last_progress_us = t0;
	json_u64(&r->json, "size", k->size);
	json_u64(&r->json, "iterations", k->iterations);
	json_u64(&r->json, "stride", k->stride);
	json_u64(&r->json, "offset", k->offset);
	json_bool(&r->json, "clipped", clipped);
	json_bool(&r->json, "instrumented", k->instrumented);
	report_info("kernel %s: start: %s; size %llu bytes%s, %llu iterations, %s build", def->name,
		    def->what, (unsigned long long)k->size,
		    clipped ? " (clipped to the memory available)" : "",
		    (unsigned long long)k->iterations, k->instrumented ? "instrumented" : "real");
	warm_up(r, k);
	r->calib_median = 0;
	json_begin_array(&r->json, "runs");
	if (def->acr)
		job_run_acr(r, k);
	else
		run_samplings(r, k);
	json_end_array(&r->json);
	/* With events= only the user's events run (a refused one then touches no MSR at all). */
	if (def->offcore != KOFF_NONE && !r->n_user)
		job_run_offcore(r, k);
	if (def->calibrate && !r->n_user && !r->cpu_hung)
		job_run_calibration(r, k);
	json_end_object(&r->json);
	report_info("kernel %s: end (%llu ms)", def->name,
		    (unsigned long long)((plat_time_us() - t0) / 1000));
	if (r->cpu_hung)
		return; /* that CPU may still use the working set: never freed */
	kernel_release(k);
	plat_free(k);
}

/* --- the job ----------------------------------------------------------------- */

/* The processor the runs are on now (cpus=: each in turn); the report's lines carry it. */
static void set_cpu_now(struct runner *r, const struct cpu_info *ci)
{
	r->boot.cpu = ci->cpu;
	r->boot.apic_id = ci->apic_id;
	r->boot.core_type = cpu_core_type_short(ci->core_type);
	report_set_cpu(r->boot.cpu, r->boot.apic_id, r->boot.core_type);
}

/* One CPU's kernels: the selected ones, or SKIP lines with why PEBS cannot be used. */
static void run_cpu(struct runner *r)
{
	const struct job_opts *jo = r->jo;
	char why[256];
	bool usable = pmu_pebs_usable(r->ci, why, sizeof(why));

	r->other_only = false;
	if (usable && r->ua && !r->n_user) {
		enum pebs_kind kd;
		const char *ev;

		r->other_only = !sampling_kind(r->ua, KSAMPLE_LOAD, &kd, &ev) &&
				!sampling_kind(r->ua, KSAMPLE_STORE, &kd, &ev);
		if (r->other_only)
			report_info(
			    "main job: %s has no load or store sampling: each kernel is sampled "
			    "with the generation's PEBS instructions event; no data-source checks",
			    r->ua->name);
	}
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *def = kernel_at(i);

		if (!kernel_selected(jo->kernels, def))
			continue;
		if (!usable) {
			json_begin_object(&r->json, NULL);
			json_str(&r->json, "kernel", def->name);
			json_u64(&r->json, "cpu", r->ci->cpu);
			json_begin_array(&r->json, "runs");
			skip_kernel(r, def, "%s", why);
			json_end_array(&r->json);
			json_end_object(&r->json);
			continue;
		}
		run_kernel(r, def);
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
		cpu_run_what("capability probe");
		if (c == 0)
			*ci = *boot;
		else
			rc = cpu_run(c, probe_on_cpu, ci, job_cpu_timeout_us(r->jo), NULL, NULL);
		report_flush_deferred("the probed CPU");
		if (rc == CPU_RUN_LOST) {
			/* The partner of a two-CPU kernel that never came back: named then. */
			report_fail("cpu-probe",
				    "cpu %u did not return from earlier work within %u s "
				    "(cpu-timeout=): not posted again",
				    c, (unsigned int)(job_cpu_timeout_us(r->jo) / 1000000));
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
				    c, (unsigned int)(job_cpu_timeout_us(r->jo) / 1000000));
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
		r->ci = ci;
		r->ua = uarch_for_cpu(ci);
		r->cpu_hung = false;
		set_cpu_now(r, ci);
		job_cpu_tally_begin(r, t, ci);
		dump_cpu_begin(r);
		results_keep_cpu_uarch(ci->cpu, r->ua ? r->ua->name : NULL);
		report_info("cpu %u: APIC ID %u, core type %s, %s; PMU v%u, %u GP + %u fixed "
			    "counters, PEBS %s",
			    c, ci->apic_id, cpu_core_type_short(ci->core_type),
			    r->ua ? r->ua->name : "unknown uarch", ci->pmu_version, ci->n_gp,
			    (unsigned int)__builtin_popcount(ci->fixed_mask),
			    ci->arch_pebs ? "architectural (CPUID.23H)"
			    : ci->has_perf_caps
				? (PERF_CAP_PEBS_FMT(ci->perf_caps) == 0 ? "fmt0" : "fmt1+")
				: "format unknown");
		handoff_cpu_begin(r, c, ci); /* before its first session writes an MSR */
		run_cpu(r);
		if (!r->cpu_hung)
			handoff_cpu_end(r, c);
		t->hung = r->cpu_hung;
		if (!t->hung)
			plat_free(ci);
		/* Done with it: back to MP services, no AP left spinning (a vCPU burns a host CPU).
		 */
		cpu_release(c);
	}
	r->tally = NULL;
	r->cpu_tag[0] = 0;
	r->ci = boot;
	r->ua = uarch_for_cpu(boot);
	set_cpu_now(r, boot);
	job_cpu_tally_report(r, tallies, n);
	plat_free(tallies);
}

void job_main(const struct job_opts *jo, const struct cpu_info *ci)
{
	struct runner *r = plat_alloc(sizeof(*r));
	char why[256];
	size_t len;
	struct cpuset *set = NULL;

	if (!r) {
		report_env_error("main-job", "no memory for the job's state (%zu bytes)",
				 sizeof(*r));
		return;
	}
	memset(r, 0, sizeof(*r));
	r->jo = jo;
	r->ci = ci;
	r->simulated = hw_is_simulated();
	/*
	 * Sizes and iterations follow from how the kernels run, not from
	 * which backend: a backend that wants every access reported gets the
	 * instrumented build, where each access is a call (about 100 times
	 * slower), so the small defaults (size_sim, iters_sim) apply.
	 */
	r->instrumented = hw_current()->mem_access && hw_current()->retire;
	r->contrast_x100 = -1;
	r->ua = uarch_for_cpu(ci);
	/* Nothing measured is nothing passed: a SKIP, so a run of only this exits 77. */
	if (!strcmp(jo->kernels, "none")) {
		report_skip("main-job", "kernels=none: no kernel chosen, nothing was measured");
		goto out;
	}
	/* Checked with the options (app/options.c): a failure here is a changed machine. */
	set = cpuset_alloc(plat_cpu_count());
	if (!set) {
		report_env_error("main-job", "no memory for the set of %u CPUs", plat_cpu_count());
		goto out;
	}
	if (job_cpus_parse(jo->cpus[0] ? jo->cpus : "all", plat_cpu_count(), set, why,
			   sizeof(why))) {
		report_fail("main-job", "%s", why);
		goto out;
	}
	r->json_size = RESULTS_BUF_SIZE + (size_t)cpuset_count(set) * RESULTS_BUF_PER_CPU;
	r->json_buf = plat_alloc(r->json_size);
	r->summary = plat_alloc(sizeof(*r->summary));
	r->plan = plat_alloc(sizeof(*r->plan));
	if (!r->json_buf || !r->summary || !r->plan) {
		report_env_error("main-job", "no memory for the results (%zu bytes) and the plan",
				 r->json_size);
		goto out;
	}
	set_cpu_now(r, ci);
	r->tsc_hz = ci->tsc_hz ? ci->tsc_hz : calibrate_tsc();
	report_info("main job: TSC %llu Hz (%s), %u CPUs (cpus=%s: %u measured), %s kernels",
		    (unsigned long long)r->tsc_hz, ci->tsc_hz ? "CPUID 15H/16H" : "calibrated",
		    plat_cpu_count(), jo->cpus[0] ? jo->cpus : "all", cpuset_count(set),
		    r->instrumented ? "instrumented" : "real");
	if (!ci->tsc_hz && (r->tsc_hz < TSC_HZ_PLAUSIBLE_MIN || r->tsc_hz > TSC_HZ_PLAUSIBLE_MAX)) {
		report_info("main job: a calibrated TSC of %llu Hz is no clock this CPU has "
			    "(accepted: 100 MHz..10 GHz): latencies in cycles only (no ns)",
			    (unsigned long long)r->tsc_hz);
		r->tsc_hz = 0;
	}
	json_init_members(&r->json, r->json_buf, r->json_size);
	json_u64(&r->json, "tsc_hz", r->tsc_hz);
	json_begin_array(&r->json, "kernels");
	job_split_events(r, jo->events);
	if (r->n_user)
		report_info("main job: %u event(s) from events= sample every kernel", r->n_user);
	r->n_measured = cpuset_count(set);
	r->dump_left = cpuset_alloc(plat_cpu_count());
	r->dump_reps = cpuset_alloc(plat_cpu_count());
	handoff_audit_begin(r, set); /* each CPU read before its own sessions */
	run_cpus(r, ci, set);
	json_end_array(&r->json);
	handoff_audit_end(r);
	dump_report(r);
	report_clear_cpu();
	len = json_members_len(&r->json);
	if (!len)
		report_fail("results", "the kernels' results did not fit in %zu bytes",
			    r->json_size);
	/* results.json is written at the end of the run (app_finish), with its exit status. */
	results_keep_job(r->json_buf, len);
	r->json_buf = NULL;
out:
	cpu_release_all(); /* every path: no AP left in its loop when the app exits */
	cpuset_free(set);
	cpuset_free(r->dump_left);
	cpuset_free(r->dump_reps);
	if (r->json_buf)
		plat_free(r->json_buf);
	if (r->summary)
		plat_free(r->summary);
	if (r->plan)
		plat_free(r->plan);
	plat_free(r);
}
