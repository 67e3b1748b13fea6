// SPDX-License-Identifier: MIT
/*
 * tally.c - what the main job keeps of each CPU it measures (struct
 * cpu_tally): each verdict with its deciding clause, its key figure and
 * its latency.  outcome.c feeds it with every verdict; cpus.c (the
 * per-CPU table, cpu-compare) and aggregate.c read it.  It calls no
 * other file of job/, so that outcome.c and cpus.c do not call each other.
 */
#include "job_int.h"
#include "../lib/fmt.h"

void job_cpu_tally_begin(struct job_cpu_now *cn, struct cpu_tally *t, const struct cpu_info *ci)
{
	memset(t, 0, sizeof(*t));
	t->cpu = ci->cpu;
	t->apic_id = ci->apic_id;
	t->core_type = ci->core_type;
	t->native_model = ci->native_model;
	t->ua = cn->ua;
	t->probed = true;
	cn->tally = t;
	pp_snprintf(cn->tag, sizeof(cn->tag), "; cpu %u (APIC %u, %s)", ci->cpu, ci->apic_id,
		    cpu_core_type_short(ci->core_type));
}

/*
 * A reason's first clause ("; "-separated, the deciding one first:
 * kernels/expect.c), cut between words to fit: what the line across CPUs
 * leads its FAIL and SKIP CPUs with (aggregate.c).
 */
static void first_clause(const char *why, char *out, size_t size)
{
	size_t n = 0;

	while (why[n] && !(why[n] == ';' && why[n + 1] == ' '))
		n++;

	if (n >= size) {
		n = size - 4;
		while (n > size / 2 && why[n] != ' ')
			n--;
		pp_snprintf(out, size, "%.*s...", (int)n, why);
		return;
	}
	pp_snprintf(out, size, "%.*s", (int)n, why);
}

void job_cpu_tally_verdict(struct cpu_tally *t, const char *test, enum verdict v, const char *why)
{
	if (!t)
		return;
	t->count[v]++;
	if (t->n < CPU_TALLY_RUNS) {
		pp_snprintf(t->runs[t->n].test, sizeof(t->runs[t->n].test), "%s", test);
		t->runs[t->n].v = (uint8_t)v;
		t->runs[t->n].why[0] = 0;
		if (v != V_PASS && why)
			first_clause(why, t->runs[t->n].why, sizeof(t->runs[t->n].why));
		t->n++;
	}
}

void job_cpu_tally_figure(struct cpu_tally *t, const char *what, enum run_fig_unit unit,
			  uint64_t value)
{
	if (!t || !t->n)
		return;
	t->runs[t->n - 1].fig.what = what;
	t->runs[t->n - 1].fig.unit = (uint8_t)unit;
	t->runs[t->n - 1].fig.value = value;
}

/* kernels/verdict.h's units as the tally keeps them. */
static const enum run_fig_unit prop_units[] = {
    [KPU_NONE] = RUN_FIG_NONE,
    [KPU_SHARE_PM] = RUN_FIG_SHARE_PM,
    [KPU_PER_ACCESS_PM] = RUN_FIG_PER_ACCESS_PM,
};

void job_cpu_tally_measured(struct cpu_tally *t, const struct pebs_summary *sum,
			    const struct run_out *o)
{
	uint64_t most = 0;

	if (!t || !t->n)
		return;
	/*
	 * The first of the kernel's own properties judged with a number (its
	 * rows come before the common ones, which every kernel shares and so
	 * say nothing of this one).
	 */
	for (unsigned int i = 0; o && i < o->props.n; i++) {
		bool common = false;

		for (size_t c = 0; c < verdict_common_expect_count; c++)
			common |= o->props.p[i].what == verdict_common_expect[c].what;
		if (common || o->props.p[i].unit == KPU_NONE ||
		    (o->props.p[i].state != KPS_CHECKED && o->props.p[i].state != KPS_FAILED))
			continue;
		job_cpu_tally_figure(t, o->props.p[i].what, prop_units[o->props.p[i].unit],
				     o->props.p[i].value);
		break;
	}
	t->runs[t->n - 1].lat = 0;
	for (unsigned int g = 0; g <= PEBS_SUMMARY_MAX_GROUPS; g++) {
		struct pebs_summary_stats st;

		if (!sum->groups[g].count)
			continue;
		pebs_summary_stats(sum, g, &st);
		if (st.n_lat && st.count > most) {
			most = st.count;
			t->runs[t->n - 1].lat = st.median;
		}
	}
}
