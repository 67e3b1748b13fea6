// SPDX-License-Identifier: MIT
/*
 * calibrate.c - latency calibration of the chase kernels: the PEBS load
 * latency held against the clock.  One dependent load per iteration, so
 * the core cycles per load, counted without PEBS by the fixed counters
 * (IA32_FIXED_CTR1 unhalted core cycles / the kernel's loads, SDM Vol. 3B
 * 20.2.2 "Architectural Performance Monitoring Version 2"), are the load's
 * latency plus what the loop's own instructions add.  The load-latency
 * record counts core cycles from the load's dispatch to its data (SDM Vol.
 * 3B 20.3.1.1.2 "Load Latency Performance Monitoring Facility"), so its
 * median must sit close to that figure.
 */
#include "job_int.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

/*
 * The window.  The latency field counts from the load's first dispatch to
 * its data's final writeback, re-dispatches included, and reports 4 cycles
 * at the least (SDM Vol. 3B 20.3.1.1.2, Nehalem's load latency facility;
 * perf's Documentation/perf-mem.txt: the use-latency, "pipeline queuing
 * delays" included), so the median may sit above the chain's cycles per
 * load by what dispatch and writeback add: the top is additive where the
 * latency is a few cycles, relative where it is many, the larger of
 * CALIB_SLACK cycles (one more minimum latency: a load dispatched once too
 * early and sent again) and CALIB_HIGH_PCT percent.  At least 85% of the
 * cycles per load less the loop's own instructions per load (each may add
 * up to a cycle where it does not overlap the load; the core can hide them
 * all).  Reasoning from those two sources, not a published tolerance.
 */
#define CALIB_SLACK    4 /* the SDM's minimum detectable load latency */
#define CALIB_HIGH_PCT 15
#define CALIB_LOW_PCT  85

/* The window's top, in cycles x 100, for cycles per load cpl (x 100). */
uint64_t job_calib_high_x100(uint64_t cpl)
{
	uint64_t pct = cpl * CALIB_HIGH_PCT / 100;

	return cpl + (pct > CALIB_SLACK * 100 ? pct : CALIB_SLACK * 100);
}

/* The median latency of the records' largest data-source group with latencies; 0: none. */
uint64_t job_calib_pebs_median(const struct pebs_summary *s)
{
	uint64_t most = 0, median = 0;

	for (unsigned int g = 0; g <= PEBS_SUMMARY_MAX_GROUPS; g++) {
		struct pebs_summary_stats st;

		if (!s->groups[g].count)
			continue;
		pebs_summary_stats(s, g, &st);
		if (st.n_lat && st.count > most) {
			most = st.count;
			median = st.median;
		}
	}
	return median;
}

/* "5.02" from a value times 100. */
static void x100_str(char *b, size_t size, uint64_t v)
{
	pp_snprintf(b, size, "%llu.%02llu", (unsigned long long)(v / 100),
		    (unsigned long long)(v % 100));
}

/* Opens the kernel's "latency_calibration" object: its state, and the verdict when judged. */
static void calib_json(struct runner *r, const char *state, bool judged, enum verdict v,
		       const char *why)
{
	struct json_out *j = &r->job.json;

	json_begin_object(j, "latency_calibration");
	json_str(j, "state", state);
	if (judged)
		job_verdict(r, r->kern.calib_test, v, NULL, why);
	else
		json_str(j, "why", why);
}

void job_run_calibration(struct runner *r, struct kernel_ctx *k)
{
	const struct kernel_def *def = k->def;
	/* The count's config and result: r->job.now, out of this frame (BSP only). */
	struct session_cfg *cfg = &r->job.now->cfg;
	struct session_result *res = &r->job.now->res;
	char why[160], cpl_s[24], ratio_s[24], lo_s[24], hi_s[24];
	uint64_t loads, cycles, inst, cpl, extra, lo, hi, ratio, med = r->kern.calib_median;
	enum pebs_kind kind;
	const char *ev;
	bool ok;
	int rc;

	pp_snprintf(r->kern.calib_test, sizeof(r->kern.calib_test), "%s/calibration", def->name);
	/*
	 * Not applicable: the generation's load records carry no latency
	 * (DataLA on Goldmont and Tremont, instructions on Core 2 and
	 * Silvermont): an INFO line, no verdict.
	 */
	if (!r->cpu.ua || !sampling_kind(r->cpu.ua, KSAMPLE_LOAD, &kind, &ev) ||
	    kind != KIND_LDLAT) {
		pp_snprintf(why, sizeof(why), "n/a on %s (its load records carry no latency)",
			    r->cpu.ua ? r->cpu.ua->name : "this CPU");
		calib_json(r, "n/a", false, V_SKIP, why);
		json_end_object(&r->job.json);
		report_detail("%s: %s", r->kern.calib_test, why);
		return;
	}
	if (!med) {
		calib_json(r, "unchecked", true, V_SKIP,
			   "no load record with a latency to compare");
		json_end_object(&r->job.json);
		return;
	}
	memset(cfg, 0, sizeof(*cfg));
	memset(res, 0, sizeof(*res));
	cfg->ci = r->cpu.ci;
	cfg->count_only = true;
	cfg->cpu_timeout_us = r->job.cpu_timeout_us;
	cfg->bsp_idle = kernel_bsp_idle;
	cfg->bsp_idle_arg = k;
	rc = session_run(cfg, kernel_run, k, res, why, sizeof(why));
	kernel_next_chain(k);
	if (rc == SESSION_TIMEOUT)
		r->cpu.hung = true;
	/* As a sampling's session: a CPU that did not return or a refusal FAILs (job.c). */
	if (rc && rc != SESSION_SKIP && rc != SESSION_NO_CPU) {
		calib_json(r, "failed", true, V_FAIL, why);
		json_end_object(&r->job.json);
		return;
	}
	if (rc || (res->fixed_read & 3) != 3 || !k->loads) {
		if (!rc)
			pp_snprintf(why, sizeof(why), "fixed counters 0 and 1 not read");
		calib_json(r, "unchecked", true, V_SKIP, why);
		json_end_object(&r->job.json);
		if (!rc)
			session_result_free(res);
		return;
	}
	loads = k->loads;
	inst = res->fixed[0];
	cycles = res->fixed[1];
	session_result_free(res);
	cpl = cycles * 100 / loads;
	extra = inst > loads ? ((inst - loads) * 100 + loads - 1) / loads : 0;
	hi = job_calib_high_x100(cpl);
	lo = cpl > extra ? (cpl - extra) * CALIB_LOW_PCT / 100 : 0;
	ratio = cpl ? med * 10000 / cpl : 0;
	ok = cpl && med * 100 >= lo && med * 100 <= hi;
	/* The line stays short: the bounds as ratios; results.json has them in cycles. */
	x100_str(cpl_s, sizeof(cpl_s), cpl);
	x100_str(ratio_s, sizeof(ratio_s), ratio);
	x100_str(lo_s, sizeof(lo_s), cpl ? lo * 100 / cpl : 0);
	x100_str(hi_s, sizeof(hi_s), cpl ? hi * 100 / cpl : 0);
	/* Ratio first, then PEBS median / cycles per load: a FAIL across CPUs keeps 55 columns. */
	pp_snprintf(why, sizeof(why), "PEBS/clock %s, %s %s..%s (%llu / %s cy)", ratio_s,
		    ok ? "in" : "not in", lo_s, hi_s, (unsigned long long)med, cpl_s);
	calib_json(r, ok ? "checked" : "failed", true, ok ? V_PASS : V_FAIL, why);
	job_cpu_tally_figure(r->cpu.tally, "PEBS/clock", RUN_FIG_RATIO_X100, ratio);
	json_u64(&r->job.json, "loads", loads);
	json_u64(&r->job.json, "cycles", cycles);
	json_u64(&r->job.json, "instructions", inst);
	json_u64(&r->job.json, "cycles_per_load_x100", cpl);
	json_u64(&r->job.json, "loop_instructions_per_load_x100", extra);
	json_u64(&r->job.json, "pebs_median", med);
	json_u64(&r->job.json, "ratio_x100", ratio);
	json_u64(&r->job.json, "low_x100", lo);
	json_u64(&r->job.json, "high_x100", hi);
	json_end_object(&r->job.json);
}
