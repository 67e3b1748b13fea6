// SPDX-License-Identifier: MIT
/*
 * acr.c - the acr-reload kernel's run: the kernel once under an auto
 * counter reload group (pmu/acr.h), its verdict (kernels/acr.h), its line
 * and its results.json run (sampling "acr").
 */
#include "job_int.h"
#include "../kernels/acr.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

/*
 * A group refused on this CPU (no ACR, or masks without room for it) is a
 * SKIP: the boot CPU's was checked with the options (exit 2).  A CPU that
 * did not come back is a FAIL naming it, one MP services could not start an
 * environment error, as for the samplings (job.c report_session_error).
 */
static void acr_error(struct runner *r, const char *test, int rc, const char *why)
{
	if (rc == SESSION_SKIP || rc == SESSION_REFUSED)
		job_verdict(r, test, V_SKIP, "refused: ", why);
	else if (rc == SESSION_TIMEOUT)
		job_verdict(r, test, V_FAIL, "timeout: ", why);
	else if (rc == SESSION_NO_CPU) {
		report_env_error(test, "%s%s", why, r->cpu.tag);
		job_verdict(r, test, V_SKIP, "environment: ", why);
	} else
		job_verdict(r, test, V_FAIL, NULL, why);
}

void job_run_acr(struct runner *r, struct kernel_ctx *k)
{
	struct json_out *j = &r->job.json;
	struct acr_result res;
	char test[TEST_NAME_MAX], why[320];
	int rc;

	pp_snprintf(test, sizeof(test), "%s/acr", k->def->name);
	rc = acr_run(r->cpu.ci, &r->job.jo->acr, kernel_run, k, r->job.cpu_timeout_us,
		     kernel_bsp_idle, k, &res, why, sizeof(why));
	if (rc == SESSION_TIMEOUT)
		r->cpu.hung = true;
	json_begin_object(j, NULL);
	json_str(j, "test", test);
	json_str(j, "sampling", "acr");
	json_null(j, "kind");
	if (rc)
		acr_error(r, test, rc, why);
	else
		job_verdict(r, test, kernels_acr_judge(&res, why, sizeof(why)) ? V_PASS : V_FAIL,
			    NULL, why);
	job_json_run_cpu(j, &r->cpu.at);
	if (!rc) {
		json_begin_object(j, "acr");
		json_u64(j, "reloaded_gp", (uint64_t)res.ctr.reloaded);
		json_u64(j, "cause_gp", (uint64_t)res.ctr.cause);
		json_u64(j, "total_gp", (uint64_t)res.ctr.total);
		json_u64(j, "period", res.period);
		json_u64(j, "reload", res.reload);
		json_u64(j, "reloaded", res.reloaded);
		json_u64(j, "cause", res.cause);
		json_u64(j, "total", res.total);
		json_u64(j, "global_status", res.status);
		json_end_object(j);
	}
	json_end_object(j);
}
