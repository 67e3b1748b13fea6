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
#include "../pmu/cpu.h"

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

/* --- the figures: each core type's range of a verdict's key figure -------- */

/* Core types told apart on one line; a part has two or three. */
#define AGG_TYPES_MAX 4

struct agg_range {
	bool any;
	uint64_t lo, hi;
};

struct agg_type {
	enum cpu_core_type core_type;
	const char *what; /* the figure's words on this type's first CPU with one */
	uint8_t unit;
	struct agg_range fig, lat;
};

/* One value of a unit: "99.8" (a share), "1.02" (per access, a ratio), "280". */
static void agg_value(struct strbuf *sb, uint8_t unit, uint64_t v)
{
	switch (unit) {
	case RUN_FIG_SHARE_PM:
		if (v % 10)
			strbuf_printf(sb, "%llu.%llu", (unsigned long long)(v / 10),
				      (unsigned long long)(v % 10));
		else
			strbuf_printf(sb, "%llu", (unsigned long long)(v / 10));
		break;
	case RUN_FIG_PER_ACCESS_PM:
		strbuf_printf(sb, "%llu.%02llu", (unsigned long long)(v / 1000),
			      (unsigned long long)(v % 1000 / 10));
		break;
	case RUN_FIG_RATIO_X100:
		strbuf_printf(sb, "%llu.%02llu", (unsigned long long)(v / 100),
			      (unsigned long long)(v % 100));
		break;
	default:
		strbuf_printf(sb, "%llu", (unsigned long long)v);
	}
}

/* "99.8-100%", "1.00 per access", "250-280 cy": a range and its unit. */
static void agg_range_text(struct strbuf *sb, uint8_t unit, const struct agg_range *r)
{
	static const char *const suffix[] = {
	    [RUN_FIG_NONE] = "",
	    [RUN_FIG_SHARE_PM] = "%",
	    [RUN_FIG_PER_ACCESS_PM] = " per access",
	    [RUN_FIG_RATIO_X100] = "",
	    [RUN_FIG_CYCLES] = " cy",
	};

	agg_value(sb, unit, r->lo);
	if (r->hi != r->lo) {
		strbuf_puts(sb, "-");
		agg_value(sb, unit, r->hi);
	}
	strbuf_puts(sb, unit < ARRAY_SIZE(suffix) ? suffix[unit] : "");
}

static void agg_add(struct agg_range *r, uint64_t v)
{
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = true;
}

/* The CPUs' figures of one test, by core type in the order they ran; returns the types. */
static unsigned int agg_types(const struct cpu_tally *t, unsigned int n, const char *test,
			      struct agg_type *ty)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < t[i].n; j++) {
			const struct run_fig *f = &t[i].runs[j].fig;
			unsigned int m = 0;

			if (strcmp(t[i].runs[j].test, test))
				continue;
			while (m < k && ty[m].core_type != t[i].core_type)
				m++;
			if (m == k) {
				if (k == AGG_TYPES_MAX)
					break;
				memset(&ty[k], 0, sizeof(ty[k]));
				ty[k++].core_type = t[i].core_type;
			}
			if (f->what && !ty[m].what) {
				ty[m].what = f->what;
				ty[m].unit = f->unit;
			}
			/* A CPU whose first figure is another property: not in this range. */
			if (f->what && !strcmp(f->what, ty[m].what))
				agg_add(&ty[m].fig, f->value);
			if (t[i].runs[j].lat)
				agg_add(&ty[m].lat, t[i].runs[j].lat);
		}
	}
	return k;
}

static bool agg_range_same(const struct agg_range *a, const struct agg_range *b)
{
	return a->any == b->any && (!a->any || (a->lo == b->lo && a->hi == b->hi));
}

/* "(P)", "(E)": a core type in a figure's per-type list. */
static const char *agg_type_tag(enum cpu_core_type ct)
{
	return ct == CORE_TYPE_CORE ? " (P)" : ct == CORE_TYPE_ATOM ? " (E)" : " (none)";
}

/*
 * The figures of a test across its CPUs: "L1 hits 99.8-100%, median 5 cy",
 * each per core type where the types differ ("median 5 cy (P) / 4 cy
 * (E)"); split false: every CPU in one range.
 */
static void agg_figures(struct strbuf *sb, struct agg_type *ty, unsigned int k, bool split)
{
	bool fig_same = true, lat_same = true, what_same = true, any_fig = false, any_lat = false;
	size_t start = sb->len;

	if (!split) {
		for (unsigned int m = 1; m < k; m++) {
			if (!ty[m].what || (ty[0].what && strcmp(ty[m].what, ty[0].what)))
				continue;
			if (!ty[0].what) {
				ty[0].what = ty[m].what;
				ty[0].unit = ty[m].unit;
			}
			if (ty[m].fig.any) {
				agg_add(&ty[0].fig, ty[m].fig.lo);
				agg_add(&ty[0].fig, ty[m].fig.hi);
			}
		}
		for (unsigned int m = 1; m < k; m++)
			if (ty[m].lat.any) {
				agg_add(&ty[0].lat, ty[m].lat.lo);
				agg_add(&ty[0].lat, ty[m].lat.hi);
			}
		k = 1;
	}
	for (unsigned int m = 0; m < k; m++) {
		any_fig |= ty[m].fig.any;
		any_lat |= ty[m].lat.any;
		if (m && !agg_range_same(&ty[m].fig, &ty[0].fig))
			fig_same = false;
		if (m && !agg_range_same(&ty[m].lat, &ty[0].lat))
			lat_same = false;
		if (m &&
		    (!ty[m].what != !ty[0].what || (ty[m].what && strcmp(ty[m].what, ty[0].what))))
			what_same = false;
	}
	if (any_fig && what_same) {
		strbuf_printf(sb, "%s ", ty[0].what);
		for (unsigned int m = 0; m < (fig_same ? 1u : k); m++) {
			if (m)
				strbuf_puts(sb, " / ");
			if (ty[m].fig.any)
				agg_range_text(sb, ty[m].unit, &ty[m].fig);
			else
				strbuf_puts(sb, "-");
			if (!fig_same)
				strbuf_puts(sb, agg_type_tag(ty[m].core_type));
		}
	} else if (any_fig) {
		for (unsigned int m = 0, w = 0; m < k; m++) {
			if (!ty[m].fig.any)
				continue;
			strbuf_printf(sb, "%s%s ", w++ ? " / " : "", ty[m].what);
			agg_range_text(sb, ty[m].unit, &ty[m].fig);
			strbuf_puts(sb, agg_type_tag(ty[m].core_type));
		}
	}
	if (!any_lat)
		return;
	strbuf_puts(sb, sb->len > start ? ", median " : "median ");
	for (unsigned int m = 0; m < (lat_same ? 1u : k); m++) {
		if (m)
			strbuf_puts(sb, " / ");
		if (ty[m].lat.any)
			agg_range_text(sb, RUN_FIG_CYCLES, &ty[m].lat);
		else
			strbuf_puts(sb, "-");
		if (!lat_same)
			strbuf_puts(sb, agg_type_tag(ty[m].core_type));
	}
}

/*
 * A console line's room on two 80-column lines once wrapped (lib/report.h
 * report_wrap): the continuation's indent, each piece's " [sim]", and a
 * word's worth for where the break falls.
 */
static size_t agg_room(void)
{
	size_t mark = report_is_simulated() ? 6 : 0;

	return 2 * (REPORT_WIDTH - mark) - sizeof(REPORT_WRAP_INDENT) - 12;
}

/* The first letters of a clause up to its first figure: "exact IPs " of "exact IPs 0.0% < ...". */
static size_t agg_words_len(const char *why)
{
	size_t n = 0;

	while (why[n] && (why[n] < '0' || why[n] > '9'))
		n++;
	return n;
}

/*
 * The deciding clause of the CPUs that gave test verdict v (their first
 * one's, tally.c job_cpu_tally_verdict), with "(cpu N)" where the others'
 * figures differ and "(cpu N; others differ)" where their clauses do: the
 * log file has each.
 */
static void agg_reason(struct strbuf *sb, const struct cpu_tally *t, unsigned int n,
		       const char *test, enum verdict v)
{
	const char *first = NULL;
	unsigned int first_cpu = 0;
	bool same_text = true, same_words = true;

	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int j = 0; j < t[i].n; j++) {
			const char *why = t[i].runs[j].why;

			if (t[i].runs[j].v != v || strcmp(t[i].runs[j].test, test) || !why[0])
				continue;
			if (!first) {
				first = why;
				first_cpu = t[i].cpu;
				continue;
			}
			same_text &= !strcmp(why, first);
			same_words &= agg_words_len(why) == agg_words_len(first) &&
				      !strncmp(why, first, agg_words_len(first));
		}
	}
	if (!first)
		return;
	strbuf_printf(sb, ": %s", first);
	if (!same_words)
		strbuf_printf(sb, " (cpu %u; others differ)", first_cpu);
	else if (!same_text)
		strbuf_printf(sb, " (cpu %u)", first_cpu);
}

/*
 * The line's figures, per core type where they fit, else in one range
 * (agg_line); in a frame of its own: the UEFI build keeps frames to 1 KiB.
 */
static __attribute__((noinline)) void agg_line_figures(struct strbuf *sb, const struct cpu_tally *t,
						       unsigned int n, const char *test, bool first)
{
	char figs[REPORT_LINE_MAX];
	struct agg_type ty[AGG_TYPES_MAX];
	struct strbuf fb;

	for (int split = 1; split >= 0; split--) {
		unsigned int k = agg_types(t, n, test, ty);

		strbuf_init(&fb, figs, sizeof(figs));
		agg_figures(&fb, ty, k, split);
		if (fb.len && sb->len + 2 + fb.len <= agg_room()) {
			strbuf_printf(sb, "%s %s", first ? ":" : ";", figs);
			break;
		}
	}
}

/*
 * "FAIL: chase-l1/load: 16 CPUs: FAIL 2: exact IPs 0.0% < 95.0% (0 of
 * 187); SKIP 3: ...; PASS 0-1,4-15; L1 hits
 * 0-100%, median 5 cy", or with every CPU passing "PASS: chase-l1/load: 16
 * CPUs: L1 hits 99.8-100%, median 5 cy (P) / 4 cy (E)": the CPUs of each
 * verdict where they differ, then the range of the figures the CPUs' own
 * briefs show (per core type where the types differ, in one range where
 * that does not fit, left out where nothing fits: the log file has each).
 */
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
	/* Every CPU passed: its number says which; else each verdict's CPUs. */
	for (unsigned int o = 0; o < ARRAY_SIZE(order) && cpuset_count(set[V_PASS]) < total; o++) {
		if (cpuset_empty(set[order[o]]))
			continue;
		/*
		 * Room for the three sets and the reasons on two 80-column lines:
		 * the PASS CPUs shorter once a reason leads the line.
		 */
		cpuset_text(set[order[o]], cpus, order[o] == V_PASS && !first ? 24 : 40);
		strbuf_printf(&sb, "%s %s %s", first ? ":" : ";", agg_words[order[o]], cpus);
		if (order[o] != V_PASS)
			agg_reason(&sb, t, n, test, order[o]);
		first = false;
	}
	agg_line_figures(&sb, t, n, test, first);
	report_console("%s", line);
}

/* The test names (2 KiB), out of the frame: the job sums up once, on the BSP only. */
static const char *agg_test_names[AGG_TESTS_MAX];

void job_aggregate_report(const struct cpu_tally *t, unsigned int n)
{
	const char **names = agg_test_names;
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
