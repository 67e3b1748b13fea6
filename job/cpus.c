// SPDX-License-Identifier: MIT
/*
 * cpus.c - cpus= (app/options_cpus.c read it): which CPUs the main job
 * measures, the closing per-CPU table from what tally.c kept of each, and
 * the check that every CPU of a core type got the verdicts of the others
 * of its type (its verdicts through outcome.c, which calls tally.c: the
 * calls go one way).
 */
#include "job_int.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

unsigned int job_cpus_set(const struct job_cpus *c, unsigned int ncpus, struct cpuset *set)
{
	if (ncpus > set->n)
		ncpus = set->n; /* the caller sized it: never written past */
	cpuset_clear(set);
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		bool in = c->how == JOB_CPUS_ALL || (c->how == JOB_CPUS_BOOT && !cpu) ||
			  (c->how == JOB_CPUS_LIST && cpu < JOB_CPUS_MAX &&
			   (c->word[cpu / 64] >> (cpu % 64) & 1));

		if (in)
			cpuset_add(set, cpu);
	}
	return cpuset_count(set);
}

/*
 * Two latencies of the same run on two CPUs of one core type agree within
 * half the larger plus 20 cycles: cores of one type differ little, a
 * broken latency field by far more (PEBS latency is in core cycles, SDM
 * Vol. 3B 20.3.1.1.2 "Load Latency Performance Monitoring Facility").
 */
static bool lat_close(uint64_t a, uint64_t b)
{
	uint64_t hi = a > b ? a : b, lo = a > b ? b : a;

	return hi - lo <= hi / 2 + 20;
}

static const char *const v_words[] = {[V_PASS] = "PASS", [V_FAIL] = "FAIL", [V_SKIP] = "SKIP"};

static bool same_group(const struct cpu_tally *a, const struct cpu_tally *b)
{
	return a->probed && b->probed && !a->hung && !b->hung && a->core_type == b->core_type &&
	       a->native_model == b->native_model && a->ua == b->ua;
}

static int find_run(const struct cpu_tally *t, const char *test)
{
	for (unsigned int i = 0; i < t->n; i++)
		if (!strcmp(t->runs[i].test, test))
			return (int)i;
	return -1;
}

static bool runs_agree(const struct cpu_tally *a, unsigned int i, const struct cpu_tally *b,
		       unsigned int k)
{
	return a->runs[i].v == b->runs[k].v && lat_close(a->runs[i].lat, b->runs[k].lat);
}

/*
 * The CPU a cpu-compare verdict is about, in its results.json run and in
 * the verdict list (report_set_cpu), and the CPUs of its type that had the
 * same run ("compared_with"): the engineer is sent to the odd CPU, not to
 * the boot CPU that printed the line.
 */
static void compare_verdict(struct runner *r, const struct cpu_tally *t, unsigned int n,
			    unsigned int a, const char *test, const char *why)
{
	const char *ct = cpu_core_type_short(t[a].core_type);

	json_begin_object(&r->job.json, NULL);
	json_str(&r->job.json, "test", "cpu-compare");
	json_u64(&r->job.json, "cpu", t[a].cpu);
	json_u64(&r->job.json, "apic_id", t[a].apic_id);
	json_str(&r->job.json, "core_type", ct);
	json_str(&r->job.json, "differs_in", test);
	json_begin_array(&r->job.json, "compared_with");
	for (unsigned int b = 0; b < n; b++)
		if (b != a && same_group(&t[a], &t[b]) && find_run(&t[b], test) >= 0)
			json_u64(&r->job.json, NULL, t[b].cpu);
	json_end_array(&r->job.json);
	report_set_cpu(t[a].cpu, t[a].apic_id, ct);
	job_verdict(r, "cpu-compare", V_FAIL, NULL, why);
	json_end_object(&r->job.json);
}

/*
 * A CPU whose result of a test (verdict, median latency) differs from the
 * others of its core type (CPUID.1AH core type and native model, and
 * microarchitecture): the odd one is the one against the majority; on a
 * tie, the one that did not PASS.  Two CPUs of a type that disagree with
 * the same verdict have no majority to say which is odd: one FAIL names
 * both.  Otherwise one FAIL line per odd CPU, naming its first differing
 * test.
 */
/* The first odd CPU's run and the one of its type it was told from (the console's line). */
struct odd_first {
	unsigned int a, i, ref;
	int rk;
};

static unsigned int compare_cpus(struct runner *r, struct cpu_tally *t, unsigned int n, bool emit,
				 struct odd_first *first)
{
	char why[REPORT_LINE_MAX]; /* job_verdict keeps this much of a reason */
	unsigned int odd = 0;

	for (unsigned int a = 0; a < n; a++) {
		for (unsigned int i = 0; i < t[a].n; i++) {
			unsigned int same = 1, other = 0, ref = a;
			int rk = -1;
			enum verdict va = (enum verdict)t[a].runs[i].v;
			bool pair;

			/* A SKIP observed nothing (BTS on that CPU, ...): nothing to compare. */
			if (va == V_SKIP)
				continue;
			for (unsigned int b = 0; b < n; b++) {
				int k;

				if (b == a || !same_group(&t[a], &t[b]))
					continue;
				k = find_run(&t[b], t[a].runs[i].test);
				if (k < 0 || t[b].runs[k].v == V_SKIP)
					continue;
				if (runs_agree(&t[a], i, &t[b], (unsigned int)k)) {
					same++;
				} else {
					other++;
					ref = b;
					rk = k;
				}
			}
			if (!other || same > other ||
			    (same == other && va == V_PASS && t[ref].runs[rk].v != V_PASS))
				continue;
			pair = same == 1 && other == 1 &&
			       (va == V_PASS) == (t[ref].runs[rk].v == V_PASS);
			if (pair && ref < a) {
				/* Named with the pair's first CPU already. */
				t[a].odd = true;
				break;
			}
			if (!odd)
				*first = (struct odd_first){a, i, ref, rk};
			if (emit && pair)
				pp_snprintf(why, sizeof(why),
					    "cpu %u (APIC %u) and cpu %u (APIC %u), the only %s "
					    "CPUs of their type, disagree and no third says which "
					    "is odd: %s %s, latency median %llu cycles on cpu %u; "
					    "%s, %llu on cpu %u",
					    t[a].cpu, t[a].apic_id, t[ref].cpu, t[ref].apic_id,
					    cpu_core_type_short(t[a].core_type), t[a].runs[i].test,
					    v_words[va], (unsigned long long)t[a].runs[i].lat,
					    t[a].cpu, v_words[t[ref].runs[rk].v],
					    (unsigned long long)t[ref].runs[rk].lat, t[ref].cpu);
			else if (emit)
				pp_snprintf(
				    why, sizeof(why),
				    "cpu %u (APIC %u, %s) differs from cpu %u of its core type: "
				    "%s %s, latency median %llu cycles here, %s, %llu there%s",
				    t[a].cpu, t[a].apic_id, cpu_core_type_short(t[a].core_type),
				    t[ref].cpu, t[a].runs[i].test, v_words[va],
				    (unsigned long long)t[a].runs[i].lat,
				    v_words[t[ref].runs[rk].v],
				    (unsigned long long)t[ref].runs[rk].lat,
				    same == other ? " (no majority: either may be the odd one)"
						  : "");
			if (emit)
				compare_verdict(r, t, n, a, t[a].runs[i].test, why);
			t[a].odd = true;
			odd++;
			break;
		}
	}
	report_clear_cpu();
	return odd;
}

/* CPUs of one core type with another of that type to be compared with. */
static unsigned int comparable(const struct cpu_tally *t, unsigned int n)
{
	unsigned int c = 0;

	for (unsigned int a = 0; a < n; a++)
		for (unsigned int b = 0; b < n; b++)
			if (b != a && same_group(&t[a], &t[b])) {
				c++;
				break;
			}
	return c;
}

/* Whether any CPU has a run that PASSed or FAILed: a SKIP observed nothing to compare. */
static bool any_judged(const struct cpu_tally *t, unsigned int n)
{
	for (unsigned int a = 0; a < n; a++)
		for (unsigned int i = 0; i < t[a].n; i++)
			if (t[a].runs[i].v != V_SKIP)
				return true;
	return false;
}

/* The closing table: one row per CPU measured, within 80 columns. */
/* A count in its column: 65535 and more show as 65535 (results.json has it whole). */
static unsigned short row_count(unsigned int n)
{
	return n > 65535 ? 65535 : (unsigned short)n;
}

/* A row's uarch column. */
static const char *cpu_row_uarch(const struct cpu_tally *t)
{
	return t->hung	    ? "(did not return)"
	       : !t->probed ? "(not probed)"
	       : t->ua	    ? t->ua->name
			    : "unknown";
}

/* Two rows of the per-CPU table that say the same but for the CPU and its APIC ID. */
static bool cpu_rows_alike(const struct cpu_tally *a, const struct cpu_tally *b)
{
	return a->core_type == b->core_type && !strcmp(cpu_row_uarch(a), cpu_row_uarch(b)) &&
	       a->hung == b->hung && a->probed == b->probed && a->odd == b->odd &&
	       !memcmp(a->count, b->count, sizeof(a->count));
}

/*
 * The odd CPUs' cpu-compare FAILs: each its own verdict (results.json, the
 * log file); two or more, one console line for them all, the first odd
 * CPU's value beside its type's, so that the console does not grow with
 * the CPUs that fail.  Returns how many were odd.
 */
static unsigned int compare_odd(struct runner *r, struct cpu_tally *t, unsigned int n)
{
	struct odd_first f = {0, 0, 0, -1};
	unsigned int odd = compare_cpus(r, t, n, false, &f);
	struct cpuset *set;
	char cpus[48];

	if (odd < 2) {
		compare_cpus(r, t, n, true, &f);
		return odd;
	}
	report_set_verdicts_to_log(true);
	compare_cpus(r, t, n, true, &f);
	report_set_verdicts_to_log(false);
	set = cpuset_alloc(t[n - 1].cpu + 1);
	for (unsigned int a = 0; set && a < n; a++)
		if (t[a].odd)
			cpuset_add(set, t[a].cpu);
	if (set)
		cpuset_text(set, cpus, 32);
	else
		pp_snprintf(cpus, sizeof(cpus), "cpu %u and more", t[f.a].cpu);
	cpuset_free(set);
	report_console("FAIL: cpu-compare: %u CPUs, odd %s: %s %s, median %llu cy on cpu %u; "
		       "%s, %llu cy on cpu %u of its type",
		       n, cpus, t[f.a].runs[f.i].test, v_words[t[f.a].runs[f.i].v],
		       (unsigned long long)t[f.a].runs[f.i].lat, t[f.a].cpu,
		       f.rk < 0 ? "-" : v_words[t[f.ref].runs[f.rk].v],
		       f.rk < 0 ? 0ULL : (unsigned long long)t[f.ref].runs[f.rk].lat, t[f.ref].cpu);
	return odd;
}

/* The CPUs and the APIC IDs of row i and the rows alike after it, as ranges of 9 columns. */
static void row_sets(const struct cpu_tally *t, unsigned int n, unsigned int i, char cpus[24],
		     char apics[24])
{
	unsigned int max_cpu = 0, max_apic = 0;
	struct cpuset *c, *a;

	for (unsigned int j = i; j < n; j++)
		if (j == i || cpu_rows_alike(&t[i], &t[j])) {
			max_cpu = t[j].cpu > max_cpu ? t[j].cpu : max_cpu;
			max_apic = t[j].apic_id > max_apic ? t[j].apic_id : max_apic;
		}
	c = cpuset_alloc(max_cpu + 1);
	a = max_apic < 65536 ? cpuset_alloc(max_apic + 1) : NULL;
	for (unsigned int j = i; j < n; j++)
		if (j == i || cpu_rows_alike(&t[i], &t[j])) {
			if (c)
				cpuset_add(c, t[j].cpu);
			if (a)
				cpuset_add(a, t[j].apic_id);
		}
	/* Contiguous: "0-1" as the rows always read, not cpuset_text's "0,1". */
	if (c && cpuset_count(c) == max_cpu - t[i].cpu + 1 && max_cpu > t[i].cpu)
		pp_snprintf(cpus, 24, "%u-%u", t[i].cpu, max_cpu);
	else if (c)
		cpuset_text(c, cpus, 9);
	else
		pp_snprintf(cpus, 24, "%u+", t[i].cpu);
	if (a && cpuset_count(a) == max_apic - t[i].apic_id + 1 && max_apic > t[i].apic_id)
		pp_snprintf(apics, 24, "%u-%u", t[i].apic_id, max_apic);
	else if (a)
		cpuset_text(a, apics, 9);
	else
		pp_snprintf(apics, 24, "%u+", t[i].apic_id);
	cpuset_free(c);
	cpuset_free(a);
}

void job_cpu_tally_report(struct runner *r, struct cpu_tally *t, unsigned int n)
{
	unsigned int c = comparable(t, n);

	/*
	 * In results.json as a kernel of its own, "cpu-compare": a FAIL per
	 * odd CPU, or one PASS when CPUs of a type had others to agree with.
	 */
	if (c) {
		json_begin_object(&r->job.json, NULL);
		json_str(&r->job.json, "kernel", "cpu-compare");
		json_begin_array(&r->job.json, "runs");
		if (!any_judged(t, n)) {
			/* Every run a SKIP: agreeing on nothing is no PASS. */
			json_begin_object(&r->job.json, NULL);
			json_str(&r->job.json, "test", "cpu-compare");
			job_verdict(r, "cpu-compare", V_SKIP, NULL,
				    "no run passed or failed on any CPU: nothing to compare");
			json_end_object(&r->job.json);
		} else if (!compare_odd(r, t, n)) {
			char why[128];

			pp_snprintf(why, sizeof(why),
				    "%u CPUs agree with the others of their core type", c);
			json_begin_object(&r->job.json, NULL);
			json_str(&r->job.json, "test", "cpu-compare");
			job_verdict(r, "cpu-compare", V_PASS, NULL, why);
			json_end_object(&r->job.json);
		}
		json_end_array(&r->job.json);
		json_end_object(&r->job.json);
	}
	/* What it counts, beside SUMMARY's and VERDICTS' every verdict (cpu-compare, hand-off). */
	report_info("per-CPU results (%u CPU%s): kernel verdicts; SUMMARY counts all", n,
		    n == 1 ? "" : "s");
	report_info("%9s %9s %-6s %-16s %6s %6s %7s", "CPU", "APIC", "type", "uarch", "passed",
		    "failed", "skipped");
	for (unsigned int i = 0; i < n; i++) {
		const char *ua = cpu_row_uarch(&t[i]);
		/* The name up to its parenthesis: "Darkmont (Panther Lake E-core, ...)". */
		const char *paren = strchr(ua, '(');
		int len = paren && paren > ua + 1 ? (int)(paren - ua - 1) : 16;
		char cpus[24], apics[24];
		bool seen = false;

		/*
		 * The rows alike but for the CPU: one row, their CPUs as ranges
		 * ("0-2,4-8+"), so the table grows with the kinds of outcome, not
		 * with the CPUs that fail (the log file has each CPU's verdicts).
		 */
		for (unsigned int j = 0; j < i && !seen; j++)
			seen = cpu_rows_alike(&t[i], &t[j]);
		if (seen)
			continue;
		row_sets(t, n, i, cpus, apics);
		report_info("%9s %9s %-6s %-16.*s %6hu %6hu %7hu%s", cpus, apics,
			    cpu_core_type_short(t[i].core_type), len < 16 ? len : 16, ua,
			    row_count(t[i].count[V_PASS]), row_count(t[i].count[V_FAIL]),
			    row_count(t[i].count[V_SKIP]), t[i].odd ? " odd" : "");
	}
}
