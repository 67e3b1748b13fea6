// SPDX-License-Identifier: MIT
/*
 * results.c - results.json version 3 (docs/RESULTS.md; results.h): the
 * main job's part (one object per kernel and run, the per-source
 * statistics), kept until the end of the run, then the whole file: the
 * run's identity, the exit status, every verdict of the report's log, the
 * CPUs tested, the summary.  Through the JSON writer of lib/json.c.
 */
#include "job_int.h"
#include "results.h"
#include "../pmu/guest.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/errata.h"

#define RESULTS_VERSION 3
/* Room for all but the job's part: identity, verdicts (the report log's pool), summary. */
/*
 * Everything but the job's kernels: the run's head, and the verdict log,
 * which grows with the run (lib/report.h): its text at most doubled by
 * JSON escapes (report lines are printable ASCII: only " and \ are
 * escaped), and each entry's keys, CPU fields and name parts.
 */
#define RESULTS_HEAD_BYTES  (64 * 1024)
#define RESULTS_ENTRY_BYTES 256

#define RESULTS_UARCH_CPUS 4096

static struct {
	char *job;
	size_t job_len;
	char run_id[17];
	/* Each measured CPU's own (cpus_tested); CPUs past the table get the boot CPU's. */
	const char *uarch[RESULTS_UARCH_CPUS];
	uint32_t errata[RESULTS_UARCH_CPUS]; /* the errata rows that apply (pmu/errata.h) */
} doc;

static const char *const ns_keys[] = {"min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns"};

static void json_sources(struct job_state *js, const struct session_result *res)
{
	const struct pebs_summary *s = &js->now->summary;
	struct json_out *j = &js->json;

	json_begin_array(j, "sources");
	for (unsigned int g = 0; g <= PEBS_SUMMARY_MAX_GROUPS; g++) {
		struct pebs_summary_stats st;
		const struct pebs_summary_group *grp = &s->groups[g];
		char name[64];
		uint64_t bins[PEBS_SUMMARY_LOG_BINS];

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
		/* null: no plausible TSC frequency to convert with (job.c) */
		const uint64_t lat[] = {st.min, st.median, st.p90, st.p99, st.max};

		for (unsigned int i = 0; i < ARRAY_SIZE(ns_keys); i++) {
			if (js->tsc_hz)
				json_u64(j, ns_keys[i], job_cycles_to_ns(js, res, lat[i]));
			else
				json_null(j, ns_keys[i]);
		}
		/* Power-of-two latency histogram: [lowest latency of the bin, records]. */
		job_source_bins(grp, bins);
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
void job_json_run_fields(struct job_state *js, const struct session_result *res,
			 const struct run_out *o)
{
	struct json_out *j = &js->json;

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
	/* MSR_SMI_COUNT's difference over the sampling; null: the CPU has none (job/handoff.c) */
	if (o->smi_known)
		json_u64(j, "smis", o->smis);
	else
		json_null(j, "smis");
	json_begin_object(j, "record_kinds");
	for (unsigned int i = 0; i < 3; i++)
		json_u64(j, job_rec_kind_names[i], o->kinds[i]);
	json_end_object(j);
	json_u64(j, "pmis", res->pmis);
	json_u64(j, "anomalies", o->anomalies);
	job_race_json(j, res, o);
	job_snapshot_json(j, &o->snap);
	json_u64(j, "format", res->decode_cfg.fmt);
	json_str(j, "uarch", pebs_uarch_name(res->decode_cfg.uarch));
	json_begin_array(j, "fixed");
	/* Fixed counter i at index i, every one enumerated; null for a hole in CPUID.0AH's. */
	for (unsigned int i = 0; i < res->n_fixed && i < ARRAY_SIZE(res->fixed); i++) {
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
		json_u64(j, kstats_level_name(l), o->st.level[l]);
	json_end_object(j);
	json_u64(j, "locked", o->st.locked);
	json_u64(j, "stlb_miss", o->st.stlb_miss);
	/*
	 * The page size the buffer ran under: the tables at the CR3 the
	 * measured CPU read back during the run (job/run.c); null: unknown.
	 */
	if (o->in.page_size)
		json_u64(j, "page_kib", o->in.page_size >> 10);
	else
		json_null(j, "page_kib");
	json_u64(j, "hitm", o->st.hitm);
	json_u64(j, "blk_data", o->st.blk_data);
	json_u64(j, "dla_in_buffer", o->st.dla_in_buf);
	json_u64(j, "with_dla", o->st.n_dla);
	json_u64(j, "ip_in_kernel", o->st.ip_in_code);
	json_u64(j, "with_ip", o->st.n_ip);
	/* Precision: per mille of with_ip exactly at a sampled instruction, and the skid. */
	json_str(j, "ip_point", o->st.ip_point == KIP_AFTER ? "after" : "at");
	json_u64(j, "ip_exact", o->st.n_ip ? o->st.skid[KSKID_0] * 1000 / o->st.n_ip : 0);
	json_begin_object(j, "skid");
	for (enum kskid s = KSKID_0; s < KSKID_N; s++)
		json_u64(j, kstats_skid_name(s), o->st.skid[s]);
	json_end_object(j);
	/* What the verdict rests on: each property checked, failed, n/a or unchecked. */
	json_begin_array(j, "properties");
	for (unsigned int i = 0; i < o->props.n; i++) {
		json_begin_object(j, NULL);
		json_str(j, "property", o->props.p[i].what);
		json_str(j, "state", verdict_prop_state_name(o->props.p[i].state));
		json_end_object(j);
	}
	json_end_array(j);
	json_sources(js, res);
}

void results_keep_cpu_uarch(unsigned int cpu, const char *uarch)
{
	if (cpu < RESULTS_UARCH_CPUS)
		doc.uarch[cpu] = uarch;
}

void results_keep_cpu_errata(unsigned int cpu, uint32_t rows)
{
	if (cpu < RESULTS_UARCH_CPUS)
		doc.errata[cpu] = rows;
}

/* The ids of the errata rows in mask (bit i: errata_at(i)), as an array. */
static void json_errata_ids(struct json_out *j, uint32_t mask)
{
	json_begin_array(j, "errata");
	for (unsigned int i = 0; i < errata_count(); i++)
		if (mask & (1u << i))
			json_str(j, NULL, errata_at(i)->id);
	json_end_array(j);
}

/* The rows that apply to the probed CPU, whole: what, source, what it rests on. */
static void json_errata_rows(struct json_out *j, const struct cpu_info *ci)
{
	json_begin_array(j, "errata");
	for (unsigned int i = 0; i < errata_count(); i++) {
		const struct errata_row *e = errata_at(i);

		if (!errata_applies(e, ci))
			continue;
		json_begin_object(j, NULL);
		json_str(j, "id", e->id);
		json_str(j, "effect", errata_effect_name(e->effect));
		json_str(j, "what", e->what);
		json_str(j, "source", e->source);
		json_str(j, "basis", errata_basis_name(e->basis));
		json_end_object(j);
	}
	json_end_array(j);
}

void results_keep_job(char *buf, size_t len)
{
	if (doc.job)
		plat_free(doc.job);
	doc.job = buf;
	doc.job_len = len;
}

void results_reset(void)
{
	if (doc.job)
		plat_free(doc.job);
	doc.job = NULL;
	doc.job_len = 0;
	memset(doc.uarch, 0, sizeof(doc.uarch));
	memset(doc.errata, 0, sizeof(doc.errata));
}

const char *results_run_id(void)
{
	return doc.run_id;
}

/* splitmix64 (Steele, Lea, Flood 2014): spreads the platform's seed over 64 bits. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void json_text(struct json_out *j, const char *key, const char *val)
{
	if (val && *val)
		json_str(j, key, val);
}

static void json_hex(struct json_out *j, const char *key, uint64_t val, unsigned int digits)
{
	char buf[24];

	pp_snprintf(buf, sizeof(buf), "0x%0*llx", digits, (unsigned long long)val);
	json_str(j, key, buf);
}

/* CPUID.1:EAX from the display family/model/stepping (SDM Vol. 2A, CPUID, Figure 3-6). */
static uint32_t cpu_signature(const struct cpu_info *ci)
{
	uint32_t fam = ci->family, mod = ci->model, sig = ci->stepping & 0xf;

	if (fam >= 0xf) {
		sig |= 0xf << 8;
		sig |= (fam - 0xf) << 20;
	} else {
		sig |= fam << 8;
	}
	sig |= (mod & 0xf) << 4;
	if (fam == 0x6 || fam >= 0xf)
		sig |= (mod >> 4) << 16;
	return sig;
}

/* An object of "0x.." masks under key, or null when absent (a sub-leaf not enumerated). */
static void json_masks(struct json_out *j, const char *key, bool present, const char *const *names,
		       const uint32_t *vals, size_t n)
{
	if (!present) {
		json_null(j, key);
		return;
	}
	json_begin_object(j, key);
	for (size_t i = 0; i < n; i++)
		json_hex(j, names[i], vals[i], 1);
	json_end_object(j);
}

/*
 * CPUID.23H as probed (pmu/cpu.h struct cpu_perfmon_ext): null without the
 * leaf; a sub-leaf sub-leaf 0 does not enumerate is null.
 */
static void json_perfmon_ext(struct json_out *j, const struct cpu_info *ci)
{
	static const char *const ctr_names[] = {"gp", "fixed"};
	static const char *const acr_names[] = {"reload_gp", "reload_fixed", "cause_gp",
						"cause_fixed"};
	static const char *const pebs_names[] = {"groups", "gp", "pdist_gp", "fixed",
						 "pdist_fixed"};
	const struct cpu_perfmon_ext *x = &ci->ext;
	const uint32_t ctr[] = {x->gp, x->fixed};
	const uint32_t acr[] = {x->acr_gp_reload, x->acr_fixed_reload, x->acr_gp_cause,
				x->acr_fixed_cause};
	const uint32_t pebs[] = {ci->arch_pebs_caps, ci->arch_pebs_gp, ci->arch_pebs_pdist_gp,
				 ci->arch_pebs_fixed, ci->arch_pebs_pdist_fixed};

	if (!x->valid) {
		json_null(j, "perfmon_ext");
		return;
	}
	json_begin_object(j, "perfmon_ext");
	json_hex(j, "subleaves", x->subleaves, 1);
	json_bool(j, "umask2", x->evtsel_ext & PMEXT_UMASK2);
	json_bool(j, "eq", x->evtsel_ext & PMEXT_EQ);
	json_masks(j, "counters", x->subleaves & PMEXT_SUB_COUNTERS, ctr_names, ctr, 2);
	json_masks(j, "acr", x->subleaves & PMEXT_SUB_ACR, acr_names, acr, 4);
	if (x->subleaves & PMEXT_SUB_EVENTS)
		json_hex(j, "events", x->events, 1);
	else
		json_null(j, "events");
	json_masks(j, "pebs", ci->arch_pebs, pebs_names, pebs, 5);
	json_end_object(j);
}

/*
 * The hypervisor and the guest rules that apply (pmu/guest.c): what
 * pebs-results --baseline needs to tell a guest's SKIP from a regression.
 */
static void json_hypervisor(struct json_out *j, const struct cpu_info *ci)
{
	json_begin_object(j, "hypervisor");
	json_str(j, "name", cpu_hypervisor_name(ci->hypervisor));
	if (ci->hypervisor != HV_NONE)
		json_text(j, "signature", ci->hv_signature);
	json_begin_array(j, "guest_rules");
	for (size_t i = 0; i < guest_rule_count(); i++) {
		const struct guest_rule *g = guest_rule_at(i);

		if (!guest_rule_applies(g, ci))
			continue;
		json_begin_object(j, NULL);
		json_str(j, "id", g->id);
		json_str(j, "what", g->what);
		json_str(j, "source", g->source);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void json_run(struct json_out *j, const struct results_run *run)
{
	const struct plat_identity *p = run->plat;
	char buf[32];

	json_begin_object(j, "run");
	json_str(j, "id", doc.run_id);
	json_text(j, "time", p->time);
	if (p->time[0] && p->has_time_zone) {
		/* EFI_TIME.TimeZone as given (its sign convention is the firmware's) */
		pp_snprintf(buf, sizeof(buf), "%d", p->time_zone);
		json_str(j, "time_zone_minutes", buf);
	}
	json_str(j, "options", run->options);
	if (p->fw_vendor[0] || p->has_fw_revision) {
		json_begin_object(j, "firmware");
		json_text(j, "vendor", p->fw_vendor);
		if (p->has_fw_revision)
			json_hex(j, "revision", p->fw_revision, 1);
		if (p->uefi_major || p->uefi_minor) {
			/* Hdr.Revision's minor is the spec's minor times 10 plus its errata: 2.70
			 */
			pp_snprintf(buf, sizeof(buf), "%u.%02u", p->uefi_major, p->uefi_minor);
			json_str(j, "uefi", buf);
		}
		json_end_object(j);
	}
	if (p->smbios_manufacturer[0] || p->smbios_product[0] || p->smbios_serial[0]) {
		json_begin_object(j, "smbios");
		json_text(j, "manufacturer", p->smbios_manufacturer);
		json_text(j, "product", p->smbios_product);
		json_text(j, "serial", p->smbios_serial);
		json_end_object(j);
	}
	if (run->ci) {
		json_begin_object(j, "cpu");
		json_hex(j, "signature", cpu_signature(run->ci), 8);
		json_u64(j, "family", run->ci->family);
		json_u64(j, "model", run->ci->model);
		json_u64(j, "stepping", run->ci->stepping);
		if (run->ci->has_microcode)
			json_hex(j, "microcode", run->ci->microcode, 1);
		else
			json_null(j, "microcode");
		json_text(j, "brand", run->ci->brand);
		json_perfmon_ext(j, run->ci);
		json_errata_rows(j, run->ci);
		json_hypervisor(j, run->ci);
		json_end_object(j);
	}
	json_str(j, "pebsprobe", PP_VERSION);
	json_bool(j, "simulated", run->simulated);
	if (run->simulated && run->sim_model)
		json_str(j, "sim_model", run->sim_model);
	json_end_object(j);
}

static const char *const verdict_names[] = {
    [REPORT_PASS] = "PASS",
    [REPORT_FAIL] = "FAIL",
    [REPORT_SKIP] = "SKIP",
};

/*
 * "kernel/sampling" names a kernel's run: its two parts; a job on several
 * CPUs names each CPU's "kernel/sampling@cpuN" (job/outcome.c), its CPU in
 * "cpu".
 */
static void json_name_parts(struct json_out *j, const char *name)
{
	const char *slash = strchr(name, '/'), *at;
	char kernel[TEST_NAME_MAX], sampling[TEST_NAME_MAX];

	if (!slash || (size_t)(slash - name) >= sizeof(kernel))
		return;
	memcpy(kernel, name, (size_t)(slash - name));
	kernel[slash - name] = 0;
	at = strchr(slash + 1, '@');
	pp_snprintf(sampling, sizeof(sampling), "%.*s",
		    at ? (int)(at - slash - 1) : (int)strlen(slash + 1), slash + 1);
	json_str(j, "kernel", kernel);
	json_str(j, "sampling", sampling);
}

/* "cpus_unused": the processors the firmware numbers but the job left alone (docs/RESULTS.md). */
static void json_unused_cpus(struct json_out *j)
{
	struct plat_cpu_unused u[JOB_UNUSED_SHOWN];
	unsigned int n = plat_cpus_unused(u, JOB_UNUSED_SHOWN);

	if (!n)
		return;
	json_begin_array(j, "cpus_unused");
	for (unsigned int i = 0; i < n && i < JOB_UNUSED_SHOWN; i++) {
		json_begin_object(j, NULL);
		json_u64(j, "processor", u[i].number);
		json_str(j, "why", u[i].disabled ? "disabled" : "unhealthy");
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_verdicts(struct json_out *j)
{
	json_begin_array(j, "verdicts");
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind == REPORT_ENV)
			continue;
		json_begin_object(j, NULL);
		json_str(j, "name", e->name);
		json_str(j, "verdict", verdict_names[e->kind]);
		json_str(j, "why", e->why);
		if (e->has_cpu) {
			json_u64(j, "cpu", e->cpu);
			json_u64(j, "apic_id", e->apic_id);
			json_str(j, "core_type", e->core_type);
		}
		json_name_parts(j, e->name);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_array(j, "errors");
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind != REPORT_ENV)
			continue;
		json_begin_object(j, NULL);
		json_str(j, "name", e->name);
		json_str(j, "why", e->why);
		json_end_object(j);
	}
	json_end_array(j);
	if (report_log_dropped())
		json_u64(j, "verdicts_dropped", report_log_dropped());
}

/* One object per CPU that verdicts name, in the order they first appear. */
static void json_cpus_tested(struct json_out *j, const struct results_run *run)
{
	unsigned int n = report_log_count();

	json_begin_array(j, "cpus_tested");
	for (unsigned int i = 0; i < n; i++) {
		const struct report_entry *e = report_log_at(i);
		unsigned int c[3] = {0, 0, 0};
		bool seen = false;

		if (!e->has_cpu || e->kind == REPORT_ENV)
			continue;
		for (unsigned int k = 0; k < i && !seen; k++) {
			const struct report_entry *f = report_log_at(k);

			seen = f->has_cpu && f->kind != REPORT_ENV && f->cpu == e->cpu;
		}
		if (seen)
			continue;
		for (unsigned int k = i; k < n; k++) {
			const struct report_entry *f = report_log_at(k);

			if (f->has_cpu && f->kind != REPORT_ENV && f->cpu == e->cpu)
				c[f->kind]++;
		}
		json_begin_object(j, NULL);
		json_u64(j, "cpu", e->cpu);
		json_u64(j, "apic_id", e->apic_id);
		json_str(j, "core_type", e->core_type);
		/* A hybrid's CPUs differ: each its own row, the boot CPU's for one not noted. */
		json_text(j, "uarch",
			  e->cpu < RESULTS_UARCH_CPUS && doc.uarch[e->cpu] ? doc.uarch[e->cpu]
									   : run->uarch);
		json_errata_ids(j, e->cpu < RESULTS_UARCH_CPUS ? doc.errata[e->cpu]
				   : run->ci		       ? errata_mask(run->ci)
							       : 0);
		json_u64(j, "passed", c[REPORT_PASS]);
		json_u64(j, "failed", c[REPORT_FAIL]);
		json_u64(j, "skipped", c[REPORT_SKIP]);
		json_end_object(j);
	}
	json_end_array(j);
}

int results_write(const char *name, const struct results_run *run, int status, char *why,
		  size_t why_size)
{
	size_t size = doc.job_len + RESULTS_HEAD_BYTES + 2 * report_log_bytes() +
		      (size_t)report_log_count() * RESULTS_ENTRY_BYTES,
	       n;
	struct report_counts c;
	struct json_out j;
	char *buf, err[96];
	int rc;

	pp_snprintf(doc.run_id, sizeof(doc.run_id), "%016llx",
		    (unsigned long long)mix64(run->plat->seed));
	if (!strcmp(name, "none"))
		return 0;
	buf = plat_alloc(size);
	if (!buf) {
		pp_snprintf(why, why_size, "%s: no memory for %zu bytes", name, size);
		return -1;
	}
	report_get_counts(&c);
	json_init(&j, buf, size);
	json_begin_object(&j, NULL);
	json_u64(&j, "results_version", RESULTS_VERSION);
	json_str(&j, "pebsprobe", PP_VERSION);
	json_bool(&j, "simulated", run->simulated);
	json_str(&j, "uarch", run->uarch ? run->uarch : "unknown");
	if (run->ci) {
		json_str(&j, "cpu", run->ci->brand);
		json_u64(&j, "family", run->ci->family);
		json_u64(&j, "model", run->ci->model);
	}
	json_u64(&j, "cpus", plat_cpu_count());
	json_unused_cpus(&j);
	json_run(&j, run);
	json_u64(&j, "exit_status", (uint64_t)status);
	json_str(&j, "exit_meaning", report_exit_meaning(status));
	json_verdicts(&j);
	json_cpus_tested(&j, run);
	json_put_members(&j, doc.job, doc.job_len);
	json_begin_object(&j, "summary");
	json_u64(&j, "tests", c.tests);
	json_u64(&j, "failures", c.failures);
	json_u64(&j, "skipped", c.skipped);
	json_u64(&j, "environment_errors", c.env_errors);
	json_end_object(&j);
	json_end_object(&j);
	n = json_finish(&j);
	if (!n) {
		pp_snprintf(why, why_size, "%s: the results did not fit in %zu bytes", name, size);
		plat_free(buf);
		return -1;
	}
	rc = plat_write_file(name, buf, n);
	if (rc < 0)
		pp_snprintf(why, why_size, "could not write %s: %s", name,
			    plat_error_text(rc, err, sizeof(err)));
	else
		pp_snprintf(why, why_size, "%zu bytes written to %s", n, name);
	plat_free(buf);
	return rc < 0 ? rc : 0;
}
