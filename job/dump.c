// SPDX-License-Identifier: MIT
/*
 * dump.c - one raw dump per kernel and sampling on the ESP (decode/dump.h).
 * A dump that would leave less than DUMP_KEEP_FREE plus the results so far
 * is not written (an environment error: exit 99), so a full ESP never
 * costs results.json or the log.
 */
#include "job_int.h"
#include "../decode/dump.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/*
 * Room a dump leaves free on the ESP for what must land: results.json (the
 * job's part so far, plus this much for the rest of it) and the log's
 * remaining lines.
 */
#define DUMP_KEEP_FREE (256 * 1024)

/* A dump's header (1.2 KiB), out of the frame: the job writes one at a time, on the BSP only. */
static struct pebs_dump_info dump_info;

void job_write_dump(const struct job_state *js, const struct cpu_info *ci, const char *test,
		    const struct session_result *res)
{
	struct pebs_dump_info *di = &dump_info;
	char name[64], err[96];
	size_t n, keep;
	uint8_t *out;
	int64_t avail;
	int rc;

	memset(di, 0, sizeof(*di));
	di->cfg = res->decode_cfg;
	di->simulated = js->simulated;
	/*
	 * Which counter carried which event: the plan the session followed
	 * (built from the same request, pure), the PEBS counter first, then
	 * every counted event (the user's, the SPR aux event, the counting copy).
	 */
	if (res->pebs_counter >= 0)
		pebs_dump_add_counter(di, (uint32_t)res->pebs_counter, js->now->plan.sample.evtsel,
				      js->now->plan.sample.name);
	for (unsigned int i = 0; i < js->now->plan.n_count; i++)
		pebs_dump_add_counter(di, (uint32_t)js->now->plan.count[i].ctr,
				      js->now->plan.count[i].ev.evtsel,
				      js->now->plan.count[i].ev.name);
	n = pebs_dump_size(di, res->records_len);
	out = plat_alloc(n);
	/* The boot CPU's as before; another CPU's with its number (cpus=). */
	if (ci->cpu)
		pp_snprintf(name, sizeof(name), "%s-cpu%u.pebs", test, ci->cpu);
	else
		pp_snprintf(name, sizeof(name), "%s.pebs", test);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '-';
	avail = plat_free_space();
	keep = DUMP_KEEP_FREE + json_members_len(&js->json);
	if (!out) {
		report_env_error(test, "no memory for the dump %s (%zu bytes)", name, n);
	} else if (pebs_dump_write(di, res->records, res->records_len, out, n) != n) {
		report_fail(test, "the dump %s could not be laid out (%zu bytes)", name, n);
	} else if (avail >= 0 && (uint64_t)avail < n + keep) {
		/* results.json and the rest of the log come first: the dump gives way. */
		report_env_error(test,
				 "dump %s (%zu bytes) not written: the ESP has %lld bytes free and "
				 "%zu are kept for results.json and the log",
				 name, n, (long long)avail, keep);
	} else if ((rc = plat_write_file(name, out, n)) < 0) {
		report_env_error(test, "could not write the dump %s: %s", name,
				 plat_error_text(rc, err, sizeof(err)));
	} else {
		report_detail("%s: %zu records (%zu bytes) dumped to %s", test, res->n_records,
			      res->records_len, name);
	}
	if (out)
		plat_free(out);
}

/*
 * dump=on on more than JOB_DUMP_ALL_CPUS CPUs: the first CPU of each core
 * type (CPUID.1AH core type, native model, microarchitecture: the groups
 * cpu-compare uses) keeps every dump, so each kind of core has its records
 * on the ESP to decode.
 */
void job_dump_policy_init(struct job_dump_policy *d, enum job_dump how, unsigned int n_measured,
			  unsigned int ncpus)
{
	memset(d, 0, sizeof(*d));
	d->how = how;
	d->n_measured = n_measured;
	d->left = cpuset_alloc(ncpus);
	d->reps = cpuset_alloc(ncpus);
}

void job_dump_policy_free(struct job_dump_policy *d)
{
	cpuset_free(d->left);
	cpuset_free(d->reps);
	d->left = d->reps = NULL;
}

void job_dump_cpu_begin(struct job_dump_policy *d, const struct cpu_info *ci,
			const struct uarch_info *ua)
{
	d->rep = false;
	for (unsigned int i = 0; i < d->n_reps; i++)
		if (d->rep_of[i].core_type == ci->core_type &&
		    d->rep_of[i].native_model == ci->native_model && d->rep_of[i].ua == ua)
			return;
	d->rep = true;
	if (d->reps)
		cpuset_add(d->reps, ci->cpu);
	if (d->n_reps < DUMP_REPS_MAX) {
		d->rep_of[d->n_reps].core_type = ci->core_type;
		d->rep_of[d->n_reps].native_model = ci->native_model;
		d->rep_of[d->n_reps].ua = ua;
		d->n_reps++;
	}
}

void job_dump_sampling(struct job_state *js, const struct cpu_info *ci, const char *test,
		       const struct session_result *res, enum verdict v)
{
	struct job_dump_policy *d = &js->dump;

	if (d->how == JOB_DUMP_OFF)
		return;
	if (d->how == JOB_DUMP_ALL || d->n_measured <= JOB_DUMP_ALL_CPUS || d->rep || v == V_FAIL) {
		job_write_dump(js, ci, test, res);
		return;
	}
	if (d->left)
		cpuset_add(d->left, ci->cpu);
}

void job_dump_report(const struct job_dump_policy *d, struct json_out *j)
{
	char reps[48], left[48];

	if (d->how == JOB_DUMP_OFF || !d->left || !d->reps)
		return;
	cpuset_text(d->reps, reps, 40);
	cpuset_text(d->left, left, 40);
	json_begin_object(j, "dumps");
	json_str(j, "policy", d->how == JOB_DUMP_ALL ? "all" : "on");
	json_u64(j, "all_cpus_up_to", JOB_DUMP_ALL_CPUS);
	json_u64(j, "cpus_left_out", cpuset_count(d->left));
	json_str(j, "left_out", cpuset_empty(d->left) ? "" : left);
	json_str(j, "every_dump", cpuset_empty(d->reps) ? "" : reps);
	json_end_object(j);
	if (cpuset_empty(d->left))
		return;
	report_info("dumps (dump=on, %u CPUs, over %u): every sampling of CPUs %s (one per "
		    "core type) and every failing one; the passing samplings of %u CPUs (%s) "
		    "not dumped (dump=all writes them)",
		    d->n_measured, JOB_DUMP_ALL_CPUS, reps, cpuset_count(d->left), left);
}
