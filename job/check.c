// SPDX-License-Identifier: MIT
/*
 * check.c - the job's options against this CPU, after the capability probe
 * and before any PMU programming (job.h job_check): each events= entry,
 * period= and snapshot= go through the same plan the session would follow (pmu/plan.c,
 * pure: no MSR), so what the plan would refuse for the user's value - an
 * event not in the generation's table, a period outside the generation's
 * range - is a bad option (exit 2), not a PEBS failure.
 */
#include "job_int.h"
#include "../pmu/acr.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/* One plan with the user's values, snapshot= as given; the kind and event (text or events= entry).
 */
static int check_plan(const struct job_opts *jo, bool snapshot, const struct cpu_info *ci,
		      enum pebs_kind kind, const char *event, const struct pmu_event_spec *spec,
		      struct pmu_plan *plan, char *why, size_t why_size)
{
	struct session_cfg cfg;

	job_session_base(jo, 0, &cfg);
	cfg.snapshot = snapshot;
	cfg.ci = ci;
	cfg.kind = kind;
	cfg.sample_event = event;
	cfg.sample_spec = spec;
	cfg.period = jo->period;
	return plan_build(&cfg, ci, plan, why, why_size);
}

/*
 * acr=, for a chosen kernel run under an auto counter reload group: its
 * counters against this CPU's CPUID.23H.2 masks (pmu/acr.c acr_pick, pure).
 */
static int check_acr(const struct job_opts *jo, const struct cpu_info *ci, char *err,
		     size_t err_size)
{
	struct acr_counters got;
	char why[320];

	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *def = kernel_at(i);

		char acr[24] = "auto";

		if (!def->acr || !job_kernel_chosen(jo, i))
			continue;
		if (!acr_pick(ci, &jo->acr, &got, why, sizeof(why)))
			continue;
		if (jo->acr.reloaded >= 0)
			pp_snprintf(acr, sizeof(acr), "gp%d:gp%d", jo->acr.reloaded, jo->acr.cause);
		pp_snprintf(err, err_size,
			    "option acr=%s (kernel %s): %s (checked before any PMU programming)",
			    acr, def->name, why);
		return -1;
	}
	return 0;
}

/*
 * snapshot=on where the CPU does not enumerate counter-snapshot groups
 * (pmu/snapshot.c): the samplings the job would run, planned with and
 * without it; what only the snapshot makes the plan refuse is option
 * snapshot's error.  Not inlined: its runs[] in job_check's frame would
 * pass the 1 KiB a frame may take (docs/ARCHITECTURE.md "Stacks").
 */
static __attribute__((noinline)) int
check_snapshot(const struct job_opts *jo, const struct cpu_info *ci, const struct uarch_info *ua,
	       const struct job_state *js, struct pmu_plan *plan, char *err, size_t err_size)
{
	unsigned int n = 0;
	struct {
		enum pebs_kind kind;
		const char *event;
		const struct pmu_event_spec *spec;
	} runs[RUNNER_MAX_EVENTS + 2];
	char why[256];

	for (unsigned int i = 0; i < js->n_user; i++, n++) {
		runs[n].kind = KIND_OTHER;
		runs[n].event = NULL;
		runs[n].spec = js->user_ev[i];
	}
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE && !js->n_user; s <<= 1)
		if (sampling_kind(ua, s, &runs[n].kind, &runs[n].event)) {
			runs[n].spec = NULL;
			n++;
		}
	if (!n) { /* neither loads nor stores: the "other" sampling */
		runs[n].kind = KIND_OTHER;
		runs[n].spec = NULL;
		runs[n++].event = NULL;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (!check_plan(jo, true, ci, runs[i].kind, runs[i].event, runs[i].spec, plan, why,
				sizeof(why)) ||
		    check_plan(jo, false, ci, runs[i].kind, runs[i].event, runs[i].spec, plan, err,
			       err_size))
			continue;
		pp_snprintf(err, err_size,
			    "option snapshot: %s (on %s, checked before any PMU programming)", why,
			    ua->name);
		return -1;
	}
	return 0;
}

int job_check(const struct job_opts *jo, const struct cpu_info *ci, char *err, size_t err_size)
{
	const struct uarch_info *ua = uarch_for_cpu(ci);
	struct pmu_plan *plan;
	struct job_state
	    *js; /* for its events= list (job_user_events): on the heap, 1 KiB frames */
	char why[256];
	int rc = 0;

	if (!ua)
		return 0; /* no generation: the job SKIPs every kernel and says why */
	plan = plat_alloc(sizeof(*plan));
	js = plat_alloc(sizeof(*js));
	if (!plan || !js) {
		if (plan)
			plat_free(plan);
		if (js)
			plat_free(js);
		return 0; /* the job reports the missing memory itself */
	}
	memset(js, 0, sizeof(*js));
	job_user_events(js, &jo->events);
	for (unsigned int i = 0; i < js->n_user && !rc; i++) {
		if (check_plan(jo, false, ci, KIND_OTHER, NULL, js->user_ev[i], plan, why,
			       sizeof(why))) {
			pp_snprintf(err, err_size,
				    "option events: %s (on %s, checked before any PMU "
				    "programming)",
				    why, ua->name);
			rc = -1;
		}
	}
	/* period= applies to the generation's own samplings too. */
	for (unsigned int s = KSAMPLE_LOAD; s <= KSAMPLE_STORE && !rc && jo->period && !js->n_user;
	     s <<= 1) {
		enum pebs_kind kind;
		const char *event;

		if (!sampling_kind(ua, s, &kind, &event))
			continue;
		/* events= and period= are judged without snapshot= */
		if (check_plan(jo, false, ci, kind, event, NULL, plan, why, sizeof(why))) {
			pp_snprintf(err, err_size,
				    "option period: %s (checked before any PMU "
				    "programming)",
				    why);
			rc = -1;
		}
	}
	if (!rc && jo->snapshot)
		rc = check_snapshot(jo, ci, ua, js, plan, err, err_size);
	plat_free(plan);
	plat_free(js);
	return rc ? rc : check_acr(jo, ci, err, err_size);
}
