// SPDX-License-Identifier: MIT
/*
 * offcore.c - the main job's offcore average latency run of a kernel
 * (SDM Vol. 3B 18.6.3 "Average Offcore Request Latency Measurement",
 * pmu/offcore.h) and its verdict.
 */
#include "job_int.h"
#include "../lib/fmt.h"
#include "../lib/report.h"
#include "../pmu/offcore.h"

/* A DRAM access costs far more than this many core cycles on every generation (L3 hits ~40). */
#define OFFCORE_DRAM_FLOOR 60

/*
 * One more run of the kernel counting the offcore demand reads and the
 * cycles they were outstanding (pmu/offcore.c): their ratio is the
 * average latency.  The DRAM chase is judged: at least the floor, and
 * above the L1 chase's (which should have almost no offcore requests).
 */
void job_run_offcore(struct runner *r, struct kernel_ctx *k)
{
	const struct kernel_def *def = k->def;
	struct offcore_result oc;
	char test[TEST_NAME_MAX], why[256];
	uint64_t avg;
	bool ok;
	int rc;

	pp_snprintf(test, sizeof(test), "%s/offcore", def->name);
	rc = offcore_avg_latency(r->cpu.ci, OFFCORE_REQ_DMND_DATA_RD, 0, kernel_run, k, &oc, why,
				 sizeof(why));
	kernel_next_chain(k);
	json_begin_object(&r->job.json, "offcore");
	if (rc && def->offcore == KOFF_JUDGE) {
		job_verdict(r, test, V_SKIP, "offcore average latency: ", why);
		json_end_object(&r->job.json);
		return;
	}
	if (rc) {
		/* The contrast kernel's measure is no test of its own: an INFO line. */
		json_str(&r->job.json, "verdict", "SKIP");
		json_str(&r->job.json, "why", why);
		json_end_object(&r->job.json);
		report_detail("%s: offcore average latency not measured: %s", def->name, why);
		return;
	}
	avg = oc.avg_latency_x100 / 100;
	/* No request, no average: 0 cycles would read as a measured latency. */
	if (!oc.requests)
		report_detail("%s: offcore latency: none, no offcore demand reads", def->name);
	else
		report_detail("%s: offcore average latency %llu cycles (weighted cycles %llu / "
			      "requests %llu; %s)",
			      def->name, (unsigned long long)avg,
			      (unsigned long long)oc.weighted_cycles,
			      (unsigned long long)oc.requests, oc.how);
	json_u64(&r->job.json, "weighted_cycles", oc.weighted_cycles);
	json_u64(&r->job.json, "requests", oc.requests);
	json_u64(&r->job.json, "avg_latency_x100", oc.avg_latency_x100);
	json_str(&r->job.json, "how", oc.how);
	if (def->offcore == KOFF_CONTRAST) {
		r->job.contrast_x100 = (int64_t)oc.avg_latency_x100;
		json_end_object(&r->job.json);
		return;
	}
	ok = oc.requests && avg >= OFFCORE_DRAM_FLOOR &&
	     (r->job.contrast_x100 < 0 || oc.avg_latency_x100 > (uint64_t)r->job.contrast_x100);
	if (!oc.requests)
		pp_snprintf(why, sizeof(why),
			    "no offcore demand reads counted, so no average "
			    "latency");
	else if (r->job.contrast_x100 >= 0)
		pp_snprintf(why, sizeof(why),
			    "average %llu cy %s %u, %s the L1 chase's %llu (over %llu requests)",
			    (unsigned long long)avg, avg >= OFFCORE_DRAM_FLOOR ? ">=" : "<",
			    OFFCORE_DRAM_FLOOR,
			    oc.avg_latency_x100 > (uint64_t)r->job.contrast_x100 ? "above"
										 : "not above",
			    (unsigned long long)(r->job.contrast_x100 / 100),
			    (unsigned long long)oc.requests);
	else
		pp_snprintf(why, sizeof(why), "average %llu cy %s %u (over %llu requests)",
			    (unsigned long long)avg, avg >= OFFCORE_DRAM_FLOOR ? ">=" : "<",
			    OFFCORE_DRAM_FLOOR, (unsigned long long)oc.requests);
	job_verdict(r, test, ok ? V_PASS : V_FAIL, NULL, why);
	if (oc.requests)
		job_cpu_tally_figure(r->cpu.tally, "average latency", RUN_FIG_CYCLES, avg);
	json_end_object(&r->job.json);
}
