// SPDX-License-Identifier: MIT
/*
 * results.c - the main job's results.json (docs/RESULTS.md): the header,
 * one object per run, the per-source statistics, the summary; written
 * through the JSON writer of lib/json.c.
 */
#include "job_int.h"
#include "../lib/platform.h"
#include "../lib/report.h"

void json_header(struct runner *r)
{
	struct json_out *j = &r->json;

	json_begin_object(j, NULL);
	json_u64(j, "results_version", 1);
	json_str(j, "pebsprobe", PP_VERSION);
	json_bool(j, "simulated", r->simulated);
	json_str(j, "uarch", r->ua ? r->ua->name : "unknown");
	json_str(j, "cpu", r->ci->brand);
	json_u64(j, "family", r->ci->family);
	json_u64(j, "model", r->ci->model);
	json_u64(j, "tsc_hz", r->tsc_hz);
	json_u64(j, "cpus", plat_cpu_count());
	json_begin_array(j, "kernels");
}

static void json_sources(struct runner *r, const struct session_result *res)
{
	const struct pebs_summary *s = r->summary;
	struct json_out *j = &r->json;

	json_begin_array(j, "sources");
	for (unsigned int g = 0; g <= PEBS_SUMMARY_MAX_GROUPS; g++) {
		struct pebs_summary_stats st;
		const struct pebs_summary_group *grp = &s->groups[g];
		char name[64];
		uint64_t bins[PEBS_SUMMARY_LOG_BINS] = {0};

		if (!grp->count)
			continue;
		pebs_summary_stats(s, g, &st);
		pebs_summary_group_name(s, g, name, sizeof(name));
		json_begin_object(j, NULL);
		json_str(j, "source", name);
		json_u64(j, "data_src", grp->key);
		json_u64(j, "count", st.count);
		json_u64(j, "share_permille", st.share_permille);
		json_u64(j, "with_latency", st.n_lat);
		json_u64(j, "lat_min", st.min);
		json_u64(j, "lat_median", st.median);
		json_u64(j, "lat_p90", st.p90);
		json_u64(j, "lat_p99", st.p99);
		json_u64(j, "lat_max", st.max);
		json_bool(j, "lat_approx", st.approx);
		json_u64(j, "min_ns", cycles_to_ns(r, res, st.min));
		json_u64(j, "median_ns", cycles_to_ns(r, res, st.median));
		json_u64(j, "p90_ns", cycles_to_ns(r, res, st.p90));
		json_u64(j, "p99_ns", cycles_to_ns(r, res, st.p99));
		json_u64(j, "max_ns", cycles_to_ns(r, res, st.max));
		/* Power-of-two latency histogram: [lowest latency of the bin, records]. */
		for (unsigned int v = 1; v < PEBS_SUMMARY_EXACT; v++)
			bins[63 - __builtin_clzll(v)] += grp->exact[v];
		for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++)
			bins[b] += grp->log2[b];
		json_begin_array(j, "histogram");
		for (unsigned int b = 0; b < PEBS_SUMMARY_LOG_BINS; b++) {
			if (!bins[b])
				continue;
			json_begin_array(j, NULL);
			json_u64(j, NULL, 1ULL << b);
			json_u64(j, NULL, bins[b]);
			json_end_array(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

/* The measured run's fields of its results.json object (after verdict and why). */
void json_run_fields(struct runner *r, const struct session_result *res, const struct run_out *o)
{
	struct json_out *j = &r->json;

	json_str(j, "event", res->event_desc);
	json_u64(j, "period", res->period);
	json_u64(j, "events", res->sampled_events);
	json_u64(j, "records", res->n_records);
	json_u64(j, "record_bytes", res->records_len);
	/* null: the buffer filled and nothing counted the event beside the records */
	if (res->lost_unknown)
		json_null(j, "lost");
	else
		json_u64(j, "lost", res->lost);
	json_bool(j, "buffer_full", res->buffer_full);
	json_u64(j, "lost_inferred", o->lost_inferred);
	json_begin_object(j, "record_kinds");
	for (unsigned int i = 0; i < 3; i++)
		json_u64(j, rec_kind_names[i], o->kinds[i]);
	json_end_object(j);
	json_u64(j, "pmis", res->pmis);
	json_u64(j, "anomalies", o->anomalies);
	json_u64(j, "format", res->decode_cfg.fmt);
	json_str(j, "uarch", pebs_uarch_name(res->decode_cfg.uarch));
	json_begin_array(j, "fixed");
	/* Fixed counter i at index i; null for one CPUID.0AH does not enumerate. */
	for (unsigned int i = 0; i < res->n_fixed && i < 4; i++) {
		if (res->fixed_read & BIT_ULL(i))
			json_u64(j, NULL, res->fixed[i]);
		else
			json_null(j, NULL);
	}
	json_end_array(j);
	json_begin_object(j, "counts");
	for (unsigned int i = 0; i < o->in.n_counts; i++)
		json_u64(j, o->in.count_names[i], o->in.counts[i]);
	json_end_object(j);
	json_u64(j, "loads", o->in.loads);
	json_u64(j, "stores", o->in.stores);
	json_begin_object(j, "levels");
	for (int l = 0; l < KLV_COUNT; l++)
		json_u64(j, klevel_name(l), o->st.level[l]);
	json_end_object(j);
	json_u64(j, "locked", o->st.locked);
	json_u64(j, "stlb_miss", o->st.stlb_miss);
	json_u64(j, "hitm", o->st.hitm);
	json_u64(j, "blk_data", o->st.blk_data);
	json_u64(j, "dla_in_buffer", o->st.dla_in_buf);
	json_u64(j, "with_dla", o->st.n_dla);
	json_u64(j, "ip_in_kernel", o->st.ip_in_code);
	json_u64(j, "with_ip", o->st.n_ip);
	json_sources(r, res);
}

void write_results(struct runner *r)
{
	struct report_counts c;
	size_t n;

	report_get_counts(&c);
	json_begin_object(&r->json, "summary");
	json_u64(&r->json, "tests", c.tests);
	json_u64(&r->json, "failures", c.failures);
	json_u64(&r->json, "skipped", c.skipped);
	json_end_object(&r->json);
	json_end_object(&r->json);
	n = json_finish(&r->json);
	if (!n)
		report_fail("results", "%s: the results did not fit in %u bytes", r->jo->results,
			    RESULTS_BUF_SIZE);
	else if (plat_write_file(r->jo->results, r->json_buf, n) < 0)
		report_fail("results", "could not write %s", r->jo->results);
	else
		report_info("results: %zu bytes written to %s", n, r->jo->results);
}
