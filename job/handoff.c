// SPDX-License-Identifier: MIT
/*
 * handoff.c - the firmware hand-off audit of the main job: on every CPU of
 * cpus=, before its first session writes an MSR, what the firmware (or
 * whatever ran before) left in its PMU (pmu/handoff.c reads and
 * classifies), and the same MSRs again after its last session; at the end
 * one console line per finding kind naming the CPUs, the firmware-handoff
 * and handoff-restored verdicts, a "handoff" object per CPU in
 * results.json.  And MSR_SMI_COUNT around every sampling.
 */
#include "job_int.h"
#include "../lib/cpurun.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/handoff.h"

struct handoff_read {
	struct cpu_info *ci;
	struct handoff_state *st;
};

/* Kept until the end (and for good if a CPU did not return: it may still write here). */
struct handoff_cpu {
	unsigned int cpu;
	struct handoff_read rd;
	struct cpu_info ci;
	struct handoff_state found, now;
	int rc_found, rc_now; /* cpurun_run()'s */
	unsigned int diffs;
	uint64_t unrestorable; /* GLOBAL_STATUS bits STATUS_SET could not set back */
	uint32_t pmc_lost;     /* GP counters whose hand-off value no write put back */
	char why[160];
};

struct handoff_job {
	unsigned int n;
	bool hung; /* a CPU did not return: nothing here is freed */
	/* Per CPU of the machine: its index in cpu[] plus one, 0 when not in cpus=. */
	unsigned int n_slots, *slot;
	struct handoff_cpu cpu[];
};

/* On the CPU read, with its own capabilities (the job's probe of it): they decide what is read. */
static void read_on_cpu(void *p)
{
	struct handoff_read *h = p;

	handoff_read(h->ci, h->st);
}

/*
 * Its lines (trace=msr) held back and printed under "N lines from cpu N's
 * hand-off read", the BSP's too: the MSR trace names each CPU's reads.
 */
static int read_cpu(const struct job_state *js, struct handoff_cpu *c, struct handoff_state *st,
		    const char *what)
{
	char from[48];
	int rc;

	c->rd.ci = &c->ci;
	c->rd.st = st;
	report_defer_begin();
	rc = cpurun_run(c->cpu, read_on_cpu, &c->rd, js->cpu_timeout_us, NULL, NULL);
	report_defer_end();
	pp_snprintf(from, sizeof(from), "cpu %u's hand-off %s", c->cpu, what);
	report_flush_deferred(from);
	return rc;
}

/* "cpu 2" or "cpus 0-3": the ranges fit in 80 columns beside the words of the line. */
#define RANGES_MAX 24
static void cpus_words(const struct cpuset *set, char *buf, size_t size)
{
	char ranges[RANGES_MAX];

	cpuset_text(set, ranges, sizeof(ranges) - 1);
	pp_snprintf(buf, size, "%s %s", cpuset_count(set) == 1 ? "cpu" : "cpus", ranges);
}

static void report_findings(const struct job_state *js, struct handoff_job *h)
{
	unsigned int ncpu = plat_cpu_count(), kinds = 0, n_read;
	struct cpuset *read = cpuset_alloc(ncpu), *warn_cpus = cpuset_alloc(ncpu);
	struct cpuset *on = cpuset_alloc(ncpu);
	char cpus[40], none[40];

	if (!read || !warn_cpus || !on) {
		report_env_error("firmware-handoff", "no memory for %u CPUs' sets", ncpu);
		goto out;
	}
	for (unsigned int i = 0; i < h->n; i++)
		if (h->cpu[i].found.valid)
			cpuset_add(read, h->cpu[i].cpu);
	for (unsigned int k = 0; k < handoff_kind_count(); k++) {
		const struct handoff_kind *kd = handoff_kind_at(k);

		cpuset_clear(on);
		for (unsigned int i = 0; i < h->n; i++)
			if (h->cpu[i].found.valid && (h->cpu[i].found.found & BIT_ULL(k)))
				cpuset_add(on, h->cpu[i].cpu);
		if (cpuset_empty(on))
			continue;
		cpus_words(on, cpus, sizeof(cpus));
		report_info("hand-off%s: %s: %s", kd->warn ? "" : " note", kd->words, cpus);
		if (kd->warn) {
			kinds++;
			for (unsigned int i = 0; i < h->n; i++)
				if (cpuset_has(on, h->cpu[i].cpu))
					cpuset_add(warn_cpus, h->cpu[i].cpu);
		}
	}
	report_clear_cpu();
	n_read = cpuset_count(read);
	if (!n_read) {
		report_skip("firmware-handoff", "no CPU could be read");
		goto out;
	}
	cpus_words(read, cpus, sizeof(cpus));
	none[0] = 0;
	if (n_read != h->n)
		pp_snprintf(none, sizeof(none), "; %u not read", h->n - n_read);
	if (!kinds) {
		report_pass("firmware-handoff: nothing left in the PMU of %s%s", cpus, none);
		goto out;
	}
	cpus_words(warn_cpus, cpus, sizeof(cpus));
	if (js->jo->handoff_strict)
		report_fail("firmware-handoff", "%u kinds left on %s (handoff=strict)%s", kinds,
			    cpus, none);
	else
		report_pass("firmware-handoff: warn: %u kinds left on %s (strict fails)%s", kinds,
			    cpus, none);
out:
	cpuset_free(read);
	cpuset_free(warn_cpus);
	cpuset_free(on);
}

void job_handoff_audit_begin(struct job_state *js, const struct cpuset *set)
{
	unsigned int n = cpuset_count(set), i = 0;
	/* One allocation: the CPUs of cpus=, then the machine's index into them. */
	size_t size = sizeof(struct handoff_job) + n * sizeof(struct handoff_cpu) +
		      set->n * sizeof(unsigned int);
	struct handoff_job *h = plat_alloc(size);

	js->handoff = h;
	if (!h) {
		report_env_error("firmware-handoff", "no memory for %u CPUs' hand-off state", n);
		return;
	}
	memset(h, 0, size);
	h->n = n;
	h->n_slots = set->n;
	h->slot = (unsigned int *)(void *)&h->cpu[n];
	for (unsigned int c = 0; c < set->n && i < n; c++)
		if (cpuset_has(set, c)) {
			h->cpu[i++].cpu = c;
			h->slot[c] = i;
		}
}

static struct handoff_cpu *cpu_of(const struct job_state *js, unsigned int cpu)
{
	struct handoff_job *h = js->handoff;

	/* Looked up, not searched: once per CPU and per read, over up to thousands of CPUs. */
	if (!h || cpu >= h->n_slots || !h->slot[cpu])
		return NULL;
	return &h->cpu[h->slot[cpu] - 1];
}

/*
 * PMU MSRs are per logical CPU and no session writes another CPU's, so a
 * CPU read just before its own sessions is read as the firmware left it;
 * read there, an AP is started through MP services once for the whole run.
 */
void job_handoff_cpu_begin(struct job_state *js, unsigned int cpu, const struct cpu_info *ci)
{
	struct handoff_cpu *hc = cpu_of(js, cpu);

	if (!hc)
		return;
	hc->ci = *ci;
	hc->rc_found = read_cpu(js, hc, &hc->found, "read");
	if (hc->rc_found == CPU_RUN_TIMEOUT)
		js->handoff->hung = true;
}

/* After the CPU's last session, before it is released: the same MSRs again. */
void job_handoff_cpu_end(struct job_state *js, unsigned int cpu)
{
	struct handoff_cpu *hc = cpu_of(js, cpu);

	if (!hc || !hc->found.valid)
		return;
	hc->rc_now = read_cpu(js, hc, &hc->now, "check");
	if (hc->rc_now == CPU_RUN_TIMEOUT)
		js->handoff->hung = true;
	if (hc->now.valid) {
		hc->diffs = handoff_compare(&hc->found, &hc->now, hc->why, sizeof(hc->why));
		hc->unrestorable = handoff_unrestorable(&hc->found, &hc->now);
		hc->pmc_lost = handoff_pmc_lost(&hc->found, &hc->now);
	}
}

/* "bit 54" or "bits 48,54": the first two, then "..". */
static void bits_words(uint64_t bits, char *buf, size_t size)
{
	unsigned int n = 0;
	size_t len;

	pp_snprintf(buf, size, "bit%s", (bits & (bits - 1)) ? "s" : "");
	for (unsigned int b = 0; b < 64 && n < 3; b++) {
		if (!(bits & BIT_ULL(b)))
			continue;
		len = strlen(buf);
		pp_snprintf(buf + len, size - len, "%s%s", n ? "," : " ", n < 2 ? "" : "..");
		len = strlen(buf);
		if (n < 2)
			pp_snprintf(buf + len, size - len, "%u", b);
		n++;
	}
}

/* "IA32_PMC0" or "IA32_PMC0,2": the first two, then ",..". */
static void pmc_words(uint32_t pmcs, char *buf, size_t size)
{
	unsigned int n = 0;
	size_t len;

	pp_snprintf(buf, size, "IA32_PMC");
	for (unsigned int i = 0; i < 32 && n < 3; i++) {
		if (!(pmcs & BIT_ULL(i)))
			continue;
		len = strlen(buf);
		if (n < 2)
			pp_snprintf(buf + len, size - len, "%s%u", n ? "," : "", i);
		else
			pp_snprintf(buf + len, size - len, ",..");
		n++;
	}
}

/*
 * What no write can put back: GLOBAL_STATUS bits found set (pmu/handoff.h
 * handoff_unrestorable), and GP counter values a 32-bit IA32_PMCx write
 * sign-extends, without full-width writes (handoff_pmc_fits).  One note
 * each naming them and the CPUs; the handoff-restored verdict then says it
 * restored all but those (what in words, or "" when nothing).
 */
static void report_unrestorable(struct handoff_job *h, char *what, size_t size)
{
	struct cpuset *on = cpuset_alloc(plat_cpu_count()),
		      *pmc_on = cpuset_alloc(plat_cpu_count());
	uint64_t all = 0;
	uint32_t pmcs = 0;
	char cpus[40], bits[24];
	size_t len;

	what[0] = 0;
	if (!on || !pmc_on)
		goto out;
	for (unsigned int i = 0; i < h->n; i++) {
		all |= h->cpu[i].unrestorable;
		pmcs |= h->cpu[i].pmc_lost;
		if (h->cpu[i].unrestorable)
			cpuset_add(on, h->cpu[i].cpu);
		if (h->cpu[i].pmc_lost)
			cpuset_add(pmc_on, h->cpu[i].cpu);
	}
	if (all) {
		bits_words(all, bits, sizeof(bits));
		cpus_words(on, cpus, sizeof(cpus));
		report_info("hand-off note: GLOBAL_STATUS %s not restorable: %s", bits, cpus);
		pp_snprintf(what, size, "GLOBAL_STATUS %s", bits);
	}
	if (pmcs) {
		/* SDM Vol. 3B 18.2.6: IA32_PMCx writes sign-extend bit 31 */
		pmc_words(pmcs, bits, sizeof(bits));
		cpus_words(pmc_on, cpus, sizeof(cpus));
		report_info("hand-off note: %s not restorable without full-width writes: %s", bits,
			    cpus);
		len = strlen(what);
		pp_snprintf(what + len, size - len, "%s%s", len ? ", " : "", bits);
	}
out:
	cpuset_free(on);
	cpuset_free(pmc_on);
}

static void audit_verdicts(const struct job_state *js, struct handoff_job *h)
{
	struct cpuset *same;
	const struct handoff_cpu *first = NULL;
	unsigned int total = 0;
	char cpus[40], lost[64];

	report_findings(js, h);
	report_unrestorable(h, lost, sizeof(lost));
	same = cpuset_alloc(plat_cpu_count());
	if (!same) {
		report_env_error("handoff-restored", "no memory for a set of %u CPUs",
				 plat_cpu_count());
		return;
	}
	for (unsigned int i = 0; i < h->n; i++) {
		struct handoff_cpu *c = &h->cpu[i];

		if (!c->found.valid || !c->now.valid)
			continue;
		if (c->diffs) {
			total += c->diffs;
			if (!first)
				first = c;
		} else {
			cpuset_add(same, c->cpu);
		}
	}
	report_clear_cpu();
	if (first) {
		report_fail("handoff-restored", "cpu %u: %s (%u MSRs differ in all)", first->cpu,
			    first->why, total);
	} else if (!cpuset_empty(same) && lost[0]) {
		report_pass("handoff-restored: warn: all but %s (note)", lost);
	} else if (!cpuset_empty(same)) {
		cpus_words(same, cpus, sizeof(cpus));
		report_pass("handoff-restored: every MSR read at hand-off as found on %s", cpus);
	} else {
		report_skip("handoff-restored", "no CPU could be read again");
	}
	cpuset_free(same);
}

void job_handoff_audit_end(struct job_state *js)
{
	if (!js->handoff)
		return;
	report_clear_cpu();
	/* What the firmware left, not PEBS: these PASSes alone make no PASS. */
	report_set_aside(true);
	audit_verdicts(js, js->handoff);
	report_set_aside(false);
	job_handoff_json(js);
}

/* ---- results.json ------------------------------------------------------- */

static void json_hexval(struct json_out *j, const char *key, uint64_t v)
{
	char buf[24];

	pp_snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	json_str(j, key, buf);
}

static void json_state(struct json_out *j, const char *key, const struct handoff_state *st)
{
	char name[16];

	json_begin_object(j, key);
	for (unsigned int m = 0; m < st->n; m++) {
		pp_snprintf(name, sizeof(name), "0x%x", st->msr[m].msr);
		if (st->msr[m].read)
			json_hexval(j, name, st->msr[m].val);
		else
			json_null(j, name);
	}
	json_end_object(j);
	json_hexval(j, key[0] == 'm' ? "lvtpc" : "lvtpc_now", st->lvtpc);
}

void job_handoff_json(struct job_state *js)
{
	struct handoff_job *h = js->handoff;
	struct json_out *j = &js->json;

	json_begin_array(j, "handoff");
	for (unsigned int i = 0; h && i < h->n; i++) {
		const struct handoff_cpu *c = &h->cpu[i];

		json_begin_object(j, NULL);
		json_u64(j, "cpu", c->cpu);
		json_bool(j, "read", c->found.valid);
		if (c->found.valid) {
			json_u64(j, "apic_id", c->ci.apic_id);
			json_str(j, "core_type", cpu_core_type_short(c->ci.core_type));
			json_begin_array(j, "found");
			for (unsigned int k = 0; k < handoff_kind_count(); k++) {
				if (!(c->found.found & BIT_ULL(k)))
					continue;
				json_begin_object(j, NULL);
				json_str(j, "kind", handoff_kind_at(k)->name);
				json_bool(j, "warn", handoff_kind_at(k)->warn);
				json_str(j, "source", handoff_kind_at(k)->src);
				json_end_object(j);
			}
			json_end_array(j);
			json_state(j, "msrs", &c->found);
			if (c->found.has_smi)
				json_u64(j, "smi_count", c->found.smi);
			else
				json_null(j, "smi_count");
		}
		if (c->now.valid) {
			json_bool(j, "restored", !c->diffs);
			json_u64(j, "differences", c->diffs);
			json_hexval(j, "status_unrestorable", c->unrestorable);
			json_hexval(j, "pmc_unrestorable", c->pmc_lost);
			if (c->diffs)
				json_str(j, "why", c->why);
		} else {
			json_null(j, "restored");
		}
		json_end_object(j);
	}
	json_end_array(j);
	if (h && !h->hung)
		plat_free(h);
	js->handoff = NULL;
}

/* ---- SMIs around a sampling --------------------------------------------- */

struct smi_read {
	const struct cpu_info *ci;
	bool ok;
	uint64_t v;
};

static void smi_on_cpu(void *p)
{
	struct smi_read *s = p;

	s->ok = handoff_smi_read(s->ci, &s->v);
}

/* MSR_SMI_COUNT on the measured CPU now; false where it has none. */
static bool smi_now(struct job_cpu_now *cn, uint64_t timeout_us, uint64_t *v)
{
	struct smi_read s = {.ci = cn->ci};
	int rc;

	if (cn->hung)
		return false;
	report_defer_begin();
	rc = cpurun_run(cn->ci->cpu, smi_on_cpu, &s, timeout_us, NULL, NULL);
	report_defer_end();
	report_flush_deferred("the measured CPU");
	if (rc == CPU_RUN_TIMEOUT)
		cn->hung = true;
	*v = s.v;
	return !rc && s.ok;
}

void job_handoff_smi_mark(struct job_cpu_now *cn, uint64_t timeout_us, struct smi_mark *m)
{
	m->known = smi_now(cn, timeout_us, &m->before);
}

void job_handoff_smi_since(struct job_cpu_now *cn, uint64_t timeout_us, const struct smi_mark *m,
			   struct run_out *o)
{
	uint64_t v;

	o->smi_known = m->known && smi_now(cn, timeout_us, &v);
	o->smis = o->smi_known ? v - m->before : 0;
}

void job_handoff_smi_text(const struct run_out *o, char *text, size_t size)
{
	size_t len = strlen(text);

	if (o->smi_known && o->smis)
		pp_snprintf(text + len, size - len, "; %llu SMIs during the sampling",
			    (unsigned long long)o->smis);
}
