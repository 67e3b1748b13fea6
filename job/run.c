// SPDX-License-Identifier: MIT
/*
 * run.c - one kernel on the CPU measured now: warmed up once, then each of
 * its samplings as one session (planned first, refused or skipped with
 * why), with its progress lines, verdict and results row; or every
 * sampling of a kernel that cannot run skipped with the reason.
 */
#include "job_int.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../lib/status.h"
#include "../pmu/hw.h"
#include "../pmu/paging.h"

/* --- progress -------------------------------------------------------------- */

/* Between chunks of a body: a line now and then, under the firmware's CR3 and TPL (kernel.h). */
static void progress(struct kernel_ctx *k, uint64_t done)
{
	struct job_kernel_now *kn = k->progress_ctx;
	uint64_t now = plat_time_us(), total = k->iterations;

	if (now - kn->last_progress_us < PROGRESS_EVERY_US)
		return;
	kn->last_progress_us = now;
	kernel_output_begin(k);
	report_info("%s: running, %llu of %llu iterations (%llu%%)", kn->name,
		    (unsigned long long)done, (unsigned long long)total,
		    (unsigned long long)(total ? done * 100 / total : 100));
	kernel_output_end(k);
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
static uint64_t default_period(const struct job_opts *jo, const struct uarch_info *ua,
			       const struct kernel_ctx *k, unsigned int sampling, uint64_t plan_min)
{
	const struct kernel_def *def = k->def;
	uint64_t per = sampling == KSAMPLE_LOAD	   ? def->loads_per_iter
		       : sampling == KSAMPLE_STORE ? def->stores_per_iter
						   : OTHER_EVENTS_PER_ITER;
	uint64_t acc = k->iterations * (per ? per : 1);
	uint64_t bytes = (uint64_t)jo->buffer_kib * 1024;
	uint64_t cap;

	/* Core 2: the session keeps the buffer to one page (pmu/session.c, Linux ds.c
	 * intel_ds_init). */
	if (ua && (ua->flags & UA_ONE_PAGE_BUFFER) && bytes > PAGE_SIZE_4K)
		bytes = PAGE_SIZE_4K;
	cap = bytes / RECORD_BYTES_MAX * 3 / 4;
	uint64_t min = ua && ua->min_period > 32 ? ua->min_period : 32;
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
		report_env_error(run->test, "%s%s", why, r->cpu.tag);
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
    [1] = "could not be started",
    [2] = "did not start its part in time",
    [3] = "did not come back when told to stop",
    [4] = "did not return from earlier work: not posted again",
};

/* A two-CPU kernel's verdict names its partner (kernels/partner.h). */
static void partner_note(const struct partner *p, char *text, size_t size)
{
	size_t n = strlen(text);
	char t[96];

	partner_text(p, t, sizeof(t));
	pp_snprintf(text + n, size - n, "; %s", t);
}

/* The session's config: the job's options' part and this sampling's own. */
static void sampling_cfg(struct session_cfg *cfg, const struct session_cfg *base,
			 const struct cpu_info *ci, const struct sampling *s, struct kernel_ctx *k)
{
	*cfg = *base;
	cfg->ci = ci;
	cfg->kind = s->kind;
	cfg->sample_event = s->event;
	cfg->sample_spec = s->spec;
	cfg->force_records = s->force;
	cfg->bsp_idle = kernel_bsp_idle;
	cfg->bsp_idle_arg = k;
	cfg->tables = k->tables;
}

/* What the session counted: the sampled event, the fixed counters, each counted event. */
static void report_counted(const char *test, const struct session_cfg *cfg,
			   const struct session_result *res)
{
	report_detail("%s: sampled %s, period %llu: %llu events", test, res->event_desc,
		      (unsigned long long)res->period, (unsigned long long)res->sampled_events);
	if ((res->fixed_read & 3) == 3)
		report_detail("%s: instructions %llu, core cycles %llu", test,
			      (unsigned long long)res->fixed[0], (unsigned long long)res->fixed[1]);
	for (unsigned int i = 0; i < cfg->n_count_events; i++)
		report_detail("%s: counted %s: %llu", test, cfg->count_events[i],
			      (unsigned long long)res->counts[i]);
}

/* The verdict's input (kernels/verdict.h): the sampling's records, counts and kernel. */
static void verdict_input(struct sampling_now *now, const struct job_cpu_now *cn,
			  const struct job_kernel_now *kn, const struct kernel_ctx *k,
			  const struct sampling *s)
{
	const struct session_cfg *cfg = &now->cfg;
	const struct session_result *res = &now->res;
	struct run_out *o = &now->o;

	o->in.st = &o->st;
	o->in.ua = cn->ua;
	o->in.named_counts = cpu_perfmon_table(cn->ci) != NULL;
	o->in.kind = res->decode_cfg.kind;
	o->in.ldlat = now->plan.use_ldlat ? now->plan.ldlat : 0;
	o->in.remote_pair = k->def->cpus == 2 && partner_remote(&kn->partner);
	/* The tables the measured CPU really ran under (kernel_run read CR3 back there). */
	o->in.page_size = paging_page_size(k->run_cr3, (uintptr_t)k->buf);
	o->in.page_why = kn->page_why[0] ? kn->page_why : k->page_why[0] ? k->page_why : NULL;
	o->in.events = res->sampled_events;
	o->in.period = res->period;
	o->in.records = o->st.n;
	/* Records the status rule dropped are lost samples, as Linux logs them (races.c). */
	o->in.lost = res->lost + job_race_dropped(o);
	o->in.buffer_full = res->buffer_full;
	o->in.lost_unknown = res->lost_unknown;
	o->in.loads = k->loads;
	o->in.stores = k->stores;
	o->in.sampled_accesses = s->acc == KSAMPLE_LOAD	   ? k->loads
				 : s->acc == KSAMPLE_STORE ? k->stores
							   : 0;
	o->in.all_qualify = s->all_qualify;
	o->in.forced_asked = s->force;
	o->in.forced = o->kinds[REC_FORCED];
	o->in.n_counts = cfg->n_count_events;
	for (unsigned int i = 0; i < cfg->n_count_events; i++) {
		o->in.count_names[i] = cfg->count_events[i];
		o->in.counts[i] = res->counts[i];
	}
}

/* The sampling's verdict, its words in now->text: the kernel's rows, then the joined checks. */
static enum verdict sampling_verdict(struct sampling_now *now, const struct kernel_def *def,
				     const struct sampling *s, const struct partner *p)
{
	const struct session_cfg *cfg = &now->cfg;
	const struct session_result *res = &now->res;
	struct run_out *o = &now->o;
	char *text = now->text;
	enum verdict v;

	switch (verdict_evaluate(def, s->acc, &o->in, text, sizeof(now->text), &o->props)) {
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
	if (cfg->snapshot)
		v = job_snapshot_verdict(&now->plan, res, o, v, text, sizeof(now->text));
	job_handoff_smi_text(o, text, sizeof(now->text));
	job_race_text(res, o, text, sizeof(now->text));
	if (def->cpus == 2)
		partner_note(p, text, sizeof(now->text));
	return v;
}

static void run_sampling(struct runner *r, struct kernel_ctx *k, struct sampling *s)
{
	const struct kernel_def *def = k->def;
	char test[TEST_NAME_MAX], why[256];
	/* The sampling's config, result and outcome: out of this frame (BSP only). */
	struct sampling_now *now = r->job.now;
	struct session_cfg *cfg = &now->cfg;
	struct session_result *res = &now->res;
	struct run_out *o = &now->o;
	char *text = now->text;
	struct run_ref run = {.test = test, .sampling = s->name};
	struct smi_mark smi;
	enum verdict v;
	int rc;

	status_sampling(s->name);
	pp_snprintf(test, sizeof(test), "%s/%s", def->name, s->name);
	memset(res, 0, sizeof(*res));
	memset(o, 0, sizeof(*o));
	sampling_cfg(cfg, &r->job.session, r->cpu.ci, s, k);
	why[0] = 0;
	/*
	 * The plan the session will follow (pure: no MSR touched), for the kind
	 * and the dump's table.  A user's event: its kind says which accesses it counts.
	 */
	rc = plan_build(cfg, r->cpu.ci, &now->plan, why, sizeof(why));
	run.kind = s->kind;
	if (rc) {
		report_session_error(r, &run, rc, why);
		return;
	}
	s->kind = run.kind = now->plan.kind;
	if (s->user) {
		s->acc = job_kind_accesses(s->kind);
		s->all_qualify = s->kind == KIND_DATALA_LOAD || s->kind == KIND_DATALA_STORE ||
				 (s->kind == KIND_LDLAT && now->plan.ldlat <= 3);
		if ((s->acc == KSAMPLE_LOAD && !def->loads_per_iter) ||
		    (s->acc == KSAMPLE_STORE && !def->stores_per_iter)) {
			pp_snprintf(why, sizeof(why),
				    "the event samples %s; this kernel makes none",
				    s->acc == KSAMPLE_LOAD ? "loads" : "stores");
			job_outcome(r, &run, V_SKIP, NULL, why);
			return;
		}
	}
	cfg->period = r->job.jo->period
			  ? r->job.jo->period
			  : default_period(r->job.jo, r->cpu.ua, k, s->acc, now->plan.period);
	cfg->n_count_events =
	    verdict_count_events(def, s->acc, r->cpu.ua, cpu_perfmon_table(r->cpu.ci) != NULL,
				 cfg->count_events, SESSION_MAX_COUNT);
	rc = plan_build(cfg, r->cpu.ci, &now->plan, why, sizeof(why));
	if (!rc) {
		kernel_set_drain(k, cfg, &now->plan);
		job_handoff_smi_mark(&r->cpu, r->job.cpu_timeout_us, &smi);
		rc = session_run(cfg, kernel_run, k, res, why, sizeof(why));
		job_handoff_smi_since(&r->cpu, r->job.cpu_timeout_us, &smi, o);
	}
	if (rc == SESSION_TIMEOUT)
		r->cpu.hung = true;
	if (rc) {
		report_session_error(r, &run, rc, why);
		return;
	}
	if (k->error) {
		/* The platform let the run down, not the PMU: no verdict, an environment error. */
		pp_snprintf(why, sizeof(why), "partner CPU %u %s", k->partner,
			    -k->error > 0 && -k->error < (int)ARRAY_SIZE(ap_errors)
				? ap_errors[-k->error]
				: "could not run its part");
		report_env_error(test, "%s (error %d)", why, k->error);
		job_outcome(r, &run, V_SKIP, "environment: ", why);
		session_result_free(res);
		return;
	}

	report_counted(test, cfg, res);
	kstats_init(&o->st, k);
	kstats_precision(&o->st, job_ip_point(r->cpu.ci, res->decode_cfg.fmt),
			 s->acc ? s->acc : KSAMPLE_LOAD | KSAMPLE_STORE);
	job_decode_records(&r->job, res, o);
	job_report_drained(test, s, k, res, o);
	job_print_kinds(test, o);
	job_print_sources(&r->job, res);

	/* The load sampling's latency, for the kernel's calibration (calibrate.c). */
	if (s->acc == KSAMPLE_LOAD && !s->user && res->decode_cfg.kind == KIND_LDLAT)
		r->kern.calib_median = job_calib_pebs_median(&now->summary);
	verdict_input(now, &r->cpu, &r->kern, k, s);
	run.res = res;
	run.o = o;
	v = sampling_verdict(now, def, s, &r->kern.partner);
	job_outcome(r, &run, v, NULL, text);
	job_dump_sampling(&r->job, r->cpu.ci, test, res, v);
	session_result_free(res);
	kernel_next_chain(k);
}

/* --- one kernel ------------------------------------------------------------ */

#define WARM_UP_MAX_SIZE (4ULL << 20)

/*
 * One unsampled pass over a working set that fits in the caches, so a
 * kernel meant to hit L1 or L2 does not start cold (the simulator's caches
 * start empty: laying out the buffer is not reported to it).  Larger sets
 * are meant to miss anyway.
 */
static void warm_up(struct kernel_ctx *k)
{
	uint64_t saved = k->iterations, slots = k->stride ? k->size / k->stride : 0;
	void (*prog)(struct kernel_ctx *, uint64_t) = k->progress;

	if (k->size > WARM_UP_MAX_SIZE || !slots)
		return;
	k->iterations = slots < saved ? slots : saved;
	k->progress = NULL;
	/* On the measured CPU: its caches (the simulator's are per CPU too). */
	if (cpurun_run(k->cpu, kernel_run, k, k->cpu_timeout_us, kernel_bsp_idle, k) ==
	    CPU_RUN_TIMEOUT)
		return; /* k stays with that CPU; the session's timeout reports it */
	report_flush_deferred("the measured CPU");
	k->iterations = saved;
	k->progress = prog;
	k->error = 0;
}

void job_skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
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
		run.kind_unknown = !sampling_kind(r->cpu.ua, s, &run.kind, &ev);
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

	if (r->job.n_user) {
		for (unsigned int i = 0; i < r->job.n_user; i++) {
			memset(&smp, 0, sizeof(smp));
			pp_snprintf(smp.name, sizeof(smp.name), "event%u", i + 1);
			smp.spec = r->job.user_ev[i];
			smp.user = true;
			smp.kind = KIND_OTHER;
			run_sampling(r, k, &smp);
		}
		return;
	}
	if (r->cpu.other_only) {
		job_other_sampling("other", 0, &smp);
		run_sampling(r, k, &smp);
		return;
	}
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE; s <<= 1) {
		if (!(def->samplings & s))
			continue;
		if (!job_default_sampling(r->job.jo, r->cpu.ua, s, &smp)) {
			pp_snprintf(test, sizeof(test), "%s/%s", def->name, sampling_name(s));
			run.sampling = sampling_name(s);
			run.kind_unknown = true;
			pp_snprintf(why, sizeof(why), "%s has no %s sampling", r->cpu.ua->name,
				    sampling_name(s));
			job_outcome(r, &run, V_SKIP, NULL, why);
			continue;
		}
		run_sampling(r, k, &smp);
	}
	/* Goldmont: a non-precise event's records and one forced record (SDM 18.7.1). */
	if (r->cpu.ua->flags & UA_NONPRECISE_PEBS) {
		job_other_sampling("nonprecise", 1, &smp);
		run_sampling(r, k, &smp);
	}
}

/*
 * The kernel's buffer in 4 KiB pages of our own (pmu/paging.h), built here
 * on the boot CPU before any CPU runs the kernel; kernel_run() switches to
 * them, and each sampling's session maps its DS area and PEBS buffer, which
 * come later, into them (session_cfg.tables).  Refused: the firmware's
 * tables, and the reason for the verdicts.
 */
static void own_pages(struct job_kernel_now *kn, struct kernel_ctx *k, struct paging_tables *pt)
{
	if (paging_build(pt, (uintptr_t)k->buf, (uint64_t)k->alloc_pages * PAGE_SIZE_4K,
			 kn->page_why, sizeof(kn->page_why))) {
		report_detail("kernel %s: the firmware's page tables: %s", k->def->name,
			      kn->page_why);
		return;
	}
	kn->page_why[0] = 0;
	k->pages = pt->root;
	k->tables = pt;
	report_detail("kernel %s: buffer in 4 KiB pages, CR3 0x%llx", k->def->name,
		      (unsigned long long)pt->root.cr3);
}

/*
 * results.json: the partner and, where the firmware names them, the
 * packages of both CPUs (docs/RESULTS.md).
 */
static void partner_json(struct json_out *j, const struct job_kernel_now *kn,
			 const struct cpu_info *ci)
{
	char text[96];

	json_u64(j, "partner_cpu", kn->partner.cpu);
	if (kn->partner.known) {
		json_u64(j, "partner_package", kn->partner.at.package);
		json_u64(j, "partner_core", kn->partner.at.core);
		json_u64(j, "package", kn->partner.own.package);
		json_u64(j, "core", kn->partner.own.core);
	}
	partner_text(&kn->partner, text, sizeof(text));
	report_detail("kernel %s: %s; CPU %u is core %u of package %u", kn->name ? kn->name : "",
		      text, ci->cpu, kn->partner.own.core, kn->partner.own.package);
}

void job_run_kernel(struct runner *r, const struct kernel_def *def)
{
	struct kernel_ctx *k = plat_alloc(sizeof(*k));
	struct paging_tables pt;
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
	cpurun_run_what(def->name);
	json_begin_object(&r->job.json, NULL);
	json_str(&r->job.json, "kernel", def->name);
	json_str(&r->job.json, "what", def->what);
	json_u64(&r->job.json, "cpu", r->cpu.ci->cpu);
	if (r->cpu.hung) {
		json_begin_array(&r->job.json, "runs");
		job_skip_kernel(r, def, "cpu %u did not return from an earlier run",
				r->cpu.ci->cpu);
		json_end_array(&r->job.json);
		json_end_object(&r->job.json);
		plat_free(k);
		return;
	}
	if (def->cpus > cpus) {
		json_begin_array(&r->job.json, "runs");
		job_skip_kernel(r, def, "needs %u CPUs, %u available (QEMU: --smp 2)", def->cpus,
				cpus);
		json_end_array(&r->job.json);
		json_end_object(&r->job.json);
		plat_free(k);
		return;
	}
	if (def->cpus == 2 && partner_pick(r->cpu.ci->cpu, &r->kern.partner, why, sizeof(why))) {
		json_begin_array(&r->job.json, "runs");
		job_skip_kernel(r, def, "%s", why);
		json_end_array(&r->job.json);
		json_end_object(&r->job.json);
		plat_free(k);
		return;
	}
	/* Laying out a large chain takes seconds: say so before, not after. */
	if ((r->job.jo->size ? r->job.jo->size
			     : (r->job.instrumented ? def->size_sim : def->size)) >= (64ULL << 20))
		report_detail("kernel %s: preparing the working set", def->name);
	if (kernel_prepare(k, def, r->job.jo->size, r->job.jo->iterations, r->job.instrumented,
			   &clipped, why, sizeof(why)) < 0) {
		report_fail(def->name, "%s", why);
		json_str(&r->job.json, "error", why);
		json_end_object(&r->job.json);
		plat_free(k);
		return;
	}
	k->instrumented = r->job.instrumented;
	k->cpu = r->cpu.ci->cpu;
	k->partner = r->kern.partner.cpu;
	k->cpu_timeout_us = r->job.cpu_timeout_us;
	k->ops = hw_current();
	k->progress = progress;
	k->progress_ctx = &r->kern;
	r->kern.name = def->name;
	r->kern.last_progress_us = t0;
	json_u64(&r->job.json, "size", k->size);
	json_u64(&r->job.json, "iterations", k->iterations);
	json_u64(&r->job.json, "stride", k->stride);
	json_u64(&r->job.json, "offset", k->offset);
	json_bool(&r->job.json, "clipped", clipped);
	json_bool(&r->job.json, "instrumented", k->instrumented);
	if (def->cpus == 2)
		partner_json(&r->job.json, &r->kern, r->cpu.ci);
	report_detail("kernel %s: start: %s; size %llu bytes%s, %llu iterations, %s build",
		      def->name, def->what, (unsigned long long)k->size,
		      clipped ? " (clipped to the memory available)" : "",
		      (unsigned long long)k->iterations, k->instrumented ? "instrumented" : "real");
	own_pages(&r->kern, k, &pt);
	warm_up(k);
	r->kern.calib_median = 0;
	json_begin_array(&r->job.json, "runs");
	if (def->acr)
		job_run_acr(r, k);
	else
		run_samplings(r, k);
	json_end_array(&r->job.json);
	/* With events= only the user's events run (a refused one then touches no MSR at all). */
	if (def->offcore != KOFF_NONE && !r->job.n_user)
		job_run_offcore(r, k);
	if (def->calibrate && !r->job.n_user && !r->cpu.hung)
		job_run_calibration(r, k);
	json_end_object(&r->job.json);
	report_detail("kernel %s: end (%llu ms)", def->name,
		      (unsigned long long)((plat_time_us() - t0) / 1000));
	/* That CPU may still use the working set and run on our tables: neither is freed. */
	if (r->cpu.hung) {
		paging_keep(&pt);
		return;
	}
	paging_free(&pt);
	kernel_release(k);
	plat_free(k);
}
