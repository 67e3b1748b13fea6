// SPDX-License-Identifier: MIT
/*
 * summary_table.c - the run's closing verdict table (app.h app_verdict_table):
 * one row per kernel, one column per sampling, then the verdicts that
 * belong to no kernel, all from the report's verdict log (lib/report.h),
 * so that an 80x25 bench screen shows the whole outcome at the end.
 * When the kernels' verdicts come from more than one CPU, a "cpus" column
 * lists the CPUs of each row, and a cell on which they disagree names the
 * CPUs of its worst verdict ("FAIL@3"): still one row per kernel, so the
 * table's height does not grow with the CPUs.
 */
#include "app.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

#define TABLE_COLS    7 /* samplings shown (80 columns); more: their verdict lines stand */
#define CPU_COLS      6 /* with the cpus column: 14 + 6 + 6 x 9 = 74 */
#define NAME_WIDTH    14
#define CPUS_WIDTH    5
#define CELL_WIDTH    9
#define NAME_MAX_LEN  48
#define OTHER_PER_ROW 2
/*
 * The longest row: a kernel's name (14), the cpus column (6) and 7 cells of
 * a space and up to 16 characters (text[] in kernel_row): 139; "other: " and
 * two texts of 39 with ", ": 87.  Not a report line (512): frames <= 1 KiB.
 */
#define ROW_MAX 160

static const char *const words[] = {
    [REPORT_PASS] = "PASS",
    [REPORT_FAIL] = "FAIL",
    [REPORT_SKIP] = "SKIP",
};

struct table {
	char col[TABLE_COLS][16];
	unsigned int n_cols, max_cols;
	bool cpus; /* the cpus column: kernel verdicts from more than one CPU */
	bool cut;  /* a cell's CPUs did not fit ("FAIL@3+"): the legend says so */
};

/*
 * The kernel and sampling of "kernel/sampling", or of "kernel/sampling@cpuN"
 * (a job on several CPUs names each CPU's verdict so: job/outcome.c);
 * false for other names.
 */
static bool split(const char *name, char *kernel, size_t ksize, char *sampling, size_t ssize)
{
	const char *slash = strchr(name, '/'), *at;

	if (!slash || (size_t)(slash - name) >= ksize)
		return false;
	memcpy(kernel, name, (size_t)(slash - name));
	kernel[slash - name] = 0;
	at = strchr(slash + 1, '@');
	pp_snprintf(sampling, ssize, "%.*s", at ? (int)(at - slash - 1) : (int)strlen(slash + 1),
		    slash + 1);
	return true;
}

/* The columns in this order, whatever order the verdicts came in; others after them. */
static const char *const column_order[] = {"load", "store", "other", "nonprecise", "offcore"};

static unsigned int rank(const char *sampling)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(column_order); i++)
		if (!strcmp(column_order[i], sampling))
			return i;
	return ARRAY_SIZE(column_order);
}

static int column(struct table *t, const char *sampling, bool add)
{
	unsigned int at;

	for (unsigned int c = 0; c < t->n_cols; c++)
		if (!strcmp(t->col[c], sampling))
			return (int)c;
	if (!add || t->n_cols >= t->max_cols)
		return -1;
	/* Insert before the first column of a later rank (stable for equal ranks). */
	for (at = 0; at < t->n_cols && rank(t->col[at]) <= rank(sampling); at++)
		;
	memmove(t->col[at + 1], t->col[at], (t->n_cols - at) * sizeof(t->col[0]));
	pp_snprintf(t->col[at], sizeof(t->col[0]), "%s", sampling);
	t->n_cols++;
	return (int)at;
}

/* Drops the spaces a row's last cell leaves. */
static void trim(char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = 0;
}

/* One cell: the verdicts of one kernel and sampling, per kind the CPUs that gave it. */
struct cell {
	const char *first; /* the first verdict's word */
	bool seen[REPORT_ENV];
	struct cpuset *on[REPORT_ENV]; /* NULL: no memory, the CPUs not named */
};

static void cell_text(struct table *t, const struct cell *c, char *out, size_t size)
{
	static const enum report_kind worst[] = {REPORT_FAIL, REPORT_SKIP, REPORT_PASS};
	unsigned int kinds = c->seen[REPORT_PASS] + c->seen[REPORT_FAIL] + c->seen[REPORT_SKIP];
	char list[CELL_WIDTH];

	if (!c->first) {
		pp_snprintf(out, size, "-");
		return;
	}
	/* A FAIL on any CPU wins the cell. */
	if (!t->cpus || kinds == 1) {
		pp_snprintf(out, size, "%s", c->seen[REPORT_FAIL] ? words[REPORT_FAIL] : c->first);
		return;
	}
	/* The CPUs disagree: the worst verdict and the CPUs that gave it. */
	for (unsigned int i = 0; i < ARRAY_SIZE(worst); i++) {
		if (!c->seen[worst[i]])
			continue;
		if (!c->on[worst[i]]) {
			pp_snprintf(out, size, "%s", words[worst[i]]);
			return;
		}
		cpuset_text(c->on[worst[i]], list, CELL_WIDTH - 2 - strlen(words[worst[i]]));
		pp_snprintf(out, size, "%s@%s", words[worst[i]], list);
		if (strchr(list, '+'))
			t->cut = true;
		return;
	}
}

/* One past the highest CPU number of the verdict log: what a CPU set must hold. */
static unsigned int log_cpus(void)
{
	unsigned int n = 1;

	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->has_cpu && e->cpu >= n)
			n = e->cpu + 1;
	}
	return n;
}

/*
 * The row of one kernel: its verdicts per column, from every CPU.  Not
 * inlined: its cells beside the caller's line would make a frame over 1 KiB.
 */
static __attribute__((noinline)) void kernel_row(struct table *t, const char *kernel,
						 unsigned int from)
{
	char line[ROW_MAX], k[NAME_MAX_LEN], text[CELL_WIDTH + 8], cpus[CPUS_WIDTH + 1];
	struct cell cell[TABLE_COLS];
	unsigned int ncpus = log_cpus();
	struct cpuset *row_cpus = cpuset_alloc(ncpus);
	struct strbuf sb;
	char smp[24];

	memset(cell, 0, sizeof(cell));
	for (unsigned int c = 0; c < TABLE_COLS; c++)
		for (unsigned int kind = 0; kind < REPORT_ENV; kind++)
			cell[c].on[kind] = cpuset_alloc(ncpus);
	for (unsigned int i = from; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);
		int c;

		if (e->kind == REPORT_ENV || !split(e->name, k, sizeof(k), smp, sizeof(smp)) ||
		    strcmp(k, kernel))
			continue;
		if (e->has_cpu && row_cpus)
			cpuset_add(row_cpus, e->cpu);
		c = column(t, smp, false);
		if (c < 0)
			continue;
		if (!cell[c].first)
			cell[c].first = words[e->kind];
		cell[c].seen[e->kind] = true;
		if (e->has_cpu && cell[c].on[e->kind])
			cpuset_add(cell[c].on[e->kind], e->cpu);
	}
	strbuf_init(&sb, line, sizeof(line));
	strbuf_printf(&sb, "%-*.*s", NAME_WIDTH, NAME_WIDTH, kernel);
	if (t->cpus) {
		bool any = row_cpus && !cpuset_empty(row_cpus);

		if (any)
			cpuset_text(row_cpus, cpus, CPUS_WIDTH);
		strbuf_printf(&sb, " %-*s", CPUS_WIDTH, any ? cpus : "-");
	}
	for (unsigned int c = 0; c < t->n_cols; c++) {
		cell_text(t, &cell[c], text, sizeof(text));
		strbuf_printf(&sb, " %-*s", CELL_WIDTH - 1, text);
	}
	trim(line);
	report_line("%s", line);
	cpuset_free(row_cpus);
	for (unsigned int c = 0; c < TABLE_COLS; c++)
		for (unsigned int kind = 0; kind < REPORT_ENV; kind++)
			cpuset_free(cell[c].on[kind]);
}

/*
 * A column's header within its CELL_WIDTH - 1 columns: a sampling's name,
 * or the word the screen shows for a longer one (never a cut word such as
 * "calibrat"); docs/OUTPUT.md names each.
 */
static const char *column_header(const char *sampling)
{
	static const struct {
		const char *name, *header;
	} shorter[] = {
	    {"calibration", "calib"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(shorter); i++)
		if (!strcmp(sampling, shorter[i].name))
			return shorter[i].header;
	return sampling;
}

/* Did the kernels' verdicts come from more than one CPU? */
static bool from_several_cpus(void)
{
	char k[NAME_MAX_LEN];
	char smp[24];
	bool any = false;
	unsigned int first = 0;

	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind == REPORT_ENV || !e->has_cpu ||
		    !split(e->name, k, sizeof(k), smp, sizeof(smp)))
			continue;
		if (any && e->cpu != first)
			return true;
		any = true;
		first = e->cpu;
	}
	return false;
}

/* A verdict of no kernel whose name an earlier one had (cpu-compare of each odd CPU). */
static bool other_seen(unsigned int i)
{
	for (unsigned int j = 0; j < i; j++) {
		const struct report_entry *f = report_log_at(j);

		if (f->kind != REPORT_ENV && !strcmp(f->name, report_log_at(i)->name))
			return true;
	}
	return false;
}

/*
 * "cpu-compare FAIL@3,9+": the worst verdict of every one of that name
 * and the CPUs it names, where they are several; "firmware-handoff PASS".
 */
static void other_text(struct table *t, unsigned int i, char *out, size_t size)
{
	static const enum report_kind worst[] = {REPORT_FAIL, REPORT_SKIP, REPORT_PASS};
	const char *name = report_log_at(i)->name;
	unsigned int n = 0, kinds = 0;
	struct cpuset *on = NULL;
	char list[12];

	for (unsigned int j = i; j < report_log_count(); j++) {
		const struct report_entry *e = report_log_at(j);

		if (e->kind != REPORT_ENV && !strcmp(e->name, name)) {
			n++;
			kinds |= 1u << e->kind;
		}
	}
	for (unsigned int w = 0; w < ARRAY_SIZE(worst); w++) {
		if (!(kinds & (1u << worst[w])))
			continue;
		if (n > 1)
			on = cpuset_alloc(log_cpus());
		for (unsigned int j = i; on && j < report_log_count(); j++) {
			const struct report_entry *e = report_log_at(j);

			if (e->kind == worst[w] && e->has_cpu && !strcmp(e->name, name))
				cpuset_add(on, e->cpu);
		}
		if (on && !cpuset_empty(on)) {
			cpuset_text(on, list, 8);
			pp_snprintf(out, size, "%.20s %s@%s", name, words[worst[w]], list);
			t->cut |= strchr(list, '+') != NULL;
		} else {
			pp_snprintf(out, size, "%.20s %s", name, words[worst[w]]);
		}
		cpuset_free(on);
		return;
	}
	pp_snprintf(out, size, "%.20s", name);
}

void app_verdict_table(void)
{
	struct report_counts cnt;
	struct table t = {.n_cols = 0, .max_cols = TABLE_COLS};
	char line[ROW_MAX], k[NAME_MAX_LEN], prev[NAME_MAX_LEN] = "";
	struct strbuf sb;
	char smp[24];
	unsigned int others = 0;

	if (!report_log_count())
		return;
	if (from_several_cpus()) {
		t.cpus = true;
		t.max_cols = CPU_COLS;
	}
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind != REPORT_ENV && split(e->name, k, sizeof(k), smp, sizeof(smp)))
			column(&t, smp, true);
	}
	report_get_counts(&cnt);
	report_line("VERDICTS: %u test%s: %u PASS, %u FAIL, %u SKIP%s", cnt.tests,
		    cnt.tests == 1 ? "" : "s", cnt.tests - cnt.failures - cnt.skipped, cnt.failures,
		    cnt.skipped, cnt.env_errors ? "; environment errors, see ERROR lines" : "");
	/*
	 * The log grows with the run; out of memory it drops verdicts
	 * (lib/report.h): the table must not pass for all of it then.
	 */
	if (report_log_dropped())
		report_info("verdict table: lacks %u verdicts the log could not keep",
			    report_log_dropped());
	if (t.n_cols) {
		strbuf_init(&sb, line, sizeof(line));
		strbuf_printf(&sb, "%-*s", NAME_WIDTH, "kernel");
		if (t.cpus)
			strbuf_printf(&sb, " %-*s", CPUS_WIDTH, "cpus");
		for (unsigned int c = 0; c < t.n_cols; c++)
			strbuf_printf(&sb, " %-*.*s", CELL_WIDTH - 1, CELL_WIDTH - 1,
				      column_header(t.col[c]));
		trim(line);
		report_line("%s", line);
	}
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind == REPORT_ENV || !split(e->name, k, sizeof(k), smp, sizeof(smp)) ||
		    !strcmp(k, prev))
			continue;
		/* Each kernel once, at its first verdict (the log keeps run order). */
		bool seen = false;

		for (unsigned int j = 0; j < i && !seen; j++) {
			const struct report_entry *f = report_log_at(j);
			char fk[NAME_MAX_LEN];
			char fs[24];

			seen = f->kind != REPORT_ENV &&
			       split(f->name, fk, sizeof(fk), fs, sizeof(fs)) && !strcmp(fk, k);
		}
		pp_snprintf(prev, sizeof(prev), "%s", k);
		if (!seen)
			kernel_row(&t, k, i);
	}
	/* Verdicts of no kernel (self tests, pmu, pebs, results), a few per line. */
	strbuf_init(&sb, line, sizeof(line));
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);
		char text[40];

		if (e->kind == REPORT_ENV || split(e->name, k, sizeof(k), smp, sizeof(smp)) ||
		    other_seen(i))
			continue;
		if (others && !(others % OTHER_PER_ROW)) {
			report_line("%s", line);
			strbuf_init(&sb, line, sizeof(line));
		}
		other_text(&t, i, text, sizeof(text));
		strbuf_printf(&sb, "%s%s", others % OTHER_PER_ROW ? ", " : "other: ", text);
		others++;
	}
	if (others)
		report_line("%s", line);
	/* Once, the first time a screen shows a cut list of CPUs. */
	if (t.cut)
		report_info("legend: FAIL@3+ is a FAIL on CPU 3 and more CPUs, named above");
}
