// SPDX-License-Identifier: MIT
/*
 * outcome.c - the one way a run's verdict is written: its PASS, FAIL or
 * SKIP line on the console and its object in results.json's "runs", from
 * the same words, together.
 */
#include "job_int.h"
#include "../lib/report.h"

static const char *const verdict_words[] = {
    [V_PASS] = "PASS",
    [V_FAIL] = "FAIL",
    [V_SKIP] = "SKIP",
};

void job_verdict(struct runner *r, const char *test, enum verdict v, const char *prefix,
		 const char *why)
{
	json_str(&r->json, "verdict", verdict_words[v]);
	json_str(&r->json, "why", why);
	job_cpu_tally_verdict(r, test, v);
	if (!prefix)
		prefix = "";
	if (v == V_PASS)
		report_pass("%s: %s%s%s", test, prefix, why, r->cpu_tag);
	else if (v == V_FAIL)
		report_fail(test, "%s%s%s", prefix, why, r->cpu_tag);
	else
		report_skip(test, "%s%s%s", prefix, why, r->cpu_tag);
}

void job_json_run_cpu(struct json_out *j, const struct run_cpu *where)
{
	json_u64(j, "cpu", where->cpu);
	json_u64(j, "apic_id", where->apic_id);
	json_str(j, "core_type", where->core_type);
}

void job_outcome(struct runner *r, const struct run_ref *run, enum verdict v, const char *prefix,
		 const char *why)
{
	struct json_out *j = &r->json;

	json_begin_object(j, NULL);
	json_str(j, "test", run->test);
	json_str(j, "sampling", run->sampling);
	if (run->kind_unknown)
		json_null(j, "kind");
	else
		json_str(j, "kind", pebs_kind_name(run->kind));
	job_verdict(r, run->test, v, prefix, why);
	job_json_run_cpu(j, run->where ? run->where : &r->boot);
	if (run->res) {
		job_cpu_tally_measured(r);
		job_json_run_fields(r, run->res, run->o);
	}
	json_end_object(j);
}
