// SPDX-License-Identifier: MIT
/*
 * aggregate.c - a job on several CPUs: one console line per test across
 * the CPUs (docs/OUTPUT.md "Several CPUs"), from what was kept of each
 * (struct cpu_tally).  The per-CPU verdicts themselves went to the log
 * file (lib/report.h report_set_verdicts_to_log), so the console grows
 * with the kernels, not with the CPUs.
 */
#include "job_int.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/* Distinct test names summed up; a job has a few dozen (kernels x samplings). */
#define AGG_TESTS_MAX 256

static const char *const agg_words[] = {
    [V_PASS] = "PASS",
    [V_FAIL] = "FAIL",
    [V_SKIP] = "SKIP",
};

/* The names in the order the CPUs ran them, each once; returns how many. */
static unsigned int agg_names(const struct cpu_tally *t, unsigned int n, const char **names,
			      unsigned int *more)
{
	unsigned int k = 0;

	*more = 0;
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < t[i].n; j++) {
			const char *test = t[i].runs[j].test;
			unsigned int m = 0;

			while (m < k && strcmp(names[m], test))
				m++;
			if (m < k)
				continue;
			if (k < AGG_TESTS_MAX)
				names[k++] = test;
			else
				(*more)++;
		}
	}
	return k;
}

/* "PASS: chase-l1/load: 16 CPUs: FAIL 2; SKIP 3; PASS 0-1,4-15" */
static void agg_line(const struct cpu_tally *t, unsigned int n, const char *test,
		     struct cpuset *const set[3])
{
	static const enum verdict order[] = {V_FAIL, V_SKIP, V_PASS};
	char line[REPORT_LINE_MAX], cpus[64];
	unsigned int total = 0;
	bool first = true;
	enum verdict word;
	struct strbuf sb;

	for (unsigned int v = 0; v < 3; v++)
		cpuset_clear(set[v]);
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int j = 0; j < t[i].n; j++)
			if (!strcmp(t[i].runs[j].test, test))
				cpuset_add(set[t[i].runs[j].v], t[i].cpu);
	for (unsigned int v = 0; v < 3; v++)
		total += cpuset_count(set[v]);
	/* As the exit status reads them: a FAIL anywhere, else a PASS anywhere. */
	word = !cpuset_empty(set[V_FAIL]) ? V_FAIL : !cpuset_empty(set[V_PASS]) ? V_PASS : V_SKIP;
	strbuf_init(&sb, line, sizeof(line));
	strbuf_printf(&sb, "%s: %s: %u CPUs", agg_words[word], test, total);
	for (unsigned int o = 0; o < ARRAY_SIZE(order); o++) {
		if (cpuset_empty(set[order[o]]))
			continue;
		/* Room for the three sets on two 80-column lines. */
		cpuset_text(set[order[o]], cpus, 40);
		strbuf_printf(&sb, "%s %s %s", first ? ":" : ";", agg_words[order[o]], cpus);
		first = false;
	}
	report_console("%s", line);
}

void job_aggregate_report(const struct cpu_tally *t, unsigned int n)
{
	const char *names[AGG_TESTS_MAX];
	struct cpuset *set[3] = {NULL, NULL, NULL};
	unsigned int max = 0, k, more;

	if (n < 2)
		return;
	for (unsigned int i = 0; i < n; i++)
		if (t[i].cpu + 1 > max)
			max = t[i].cpu + 1;
	for (unsigned int v = 0; v < 3; v++)
		set[v] = cpuset_alloc(max);
	if (set[0] && set[1] && set[2]) {
		k = agg_names(t, n, names, &more);
		for (unsigned int i = 0; i < k; i++)
			agg_line(t, n, names[i], set);
		if (more)
			report_console(
			    "INFO: %u more tests on these CPUs: their verdicts are in the "
			    "log file",
			    more);
	}
	for (unsigned int v = 0; v < 3; v++)
		cpuset_free(set[v]);
}
