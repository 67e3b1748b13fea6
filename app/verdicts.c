// SPDX-License-Identifier: MIT
/*
 * verdicts.c - the run's closing verdict table (app.h app_verdict_table):
 * one row per kernel, one column per sampling, then the verdicts that
 * belong to no kernel, all from the report's verdict log (lib/report.h),
 * so that an 80x25 bench screen shows the whole outcome at the end.
 */
#include "app.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

#define TABLE_COLS    7 /* samplings shown (80 columns); more: their verdict lines stand */
#define NAME_WIDTH    14
#define CELL_WIDTH    9
#define NAME_MAX_LEN  48
#define OTHER_PER_ROW 2

static const char *const words[] = {
    [REPORT_PASS] = "PASS",
    [REPORT_FAIL] = "FAIL",
    [REPORT_SKIP] = "SKIP",
};

struct table {
	char col[TABLE_COLS][16];
	unsigned int n_cols;
};

/* The kernel and sampling of "kernel/sampling"; false for other names. */
static bool split(const char *name, char *kernel, size_t ksize, const char **sampling)
{
	const char *slash = strchr(name, '/');

	if (!slash || (size_t)(slash - name) >= ksize)
		return false;
	memcpy(kernel, name, (size_t)(slash - name));
	kernel[slash - name] = 0;
	*sampling = slash + 1;
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
	if (!add || t->n_cols >= TABLE_COLS)
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

/* The row of one kernel: its first verdict per column (later CPUs are counted apart). */
static void kernel_row(struct table *t, const char *kernel, unsigned int from)
{
	char line[REPORT_LINE_MAX], k[NAME_MAX_LEN];
	const char *cell[TABLE_COLS] = {NULL};
	struct strbuf sb;
	const char *smp;

	for (unsigned int i = from; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);
		int c;

		if (e->kind == REPORT_ENV || !split(e->name, k, sizeof(k), &smp) ||
		    strcmp(k, kernel))
			continue;
		c = column(t, smp, false);
		/* A FAIL on any CPU wins the cell. */
		if (c >= 0 && (!cell[c] || e->kind == REPORT_FAIL))
			cell[c] = words[e->kind];
	}
	strbuf_init(&sb, line, sizeof(line));
	strbuf_printf(&sb, "%-*.*s", NAME_WIDTH, NAME_WIDTH, kernel);
	for (unsigned int c = 0; c < t->n_cols; c++)
		strbuf_printf(&sb, " %-*s", CELL_WIDTH - 1, cell[c] ? cell[c] : "-");
	trim(line);
	report_line("%s", line);
}

void app_verdict_table(void)
{
	struct report_counts cnt;
	struct table t = {.n_cols = 0};
	char line[REPORT_LINE_MAX], k[NAME_MAX_LEN], prev[NAME_MAX_LEN] = "";
	struct strbuf sb;
	const char *smp;
	unsigned int others = 0;

	if (!report_log_count())
		return;
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind != REPORT_ENV && split(e->name, k, sizeof(k), &smp))
			column(&t, smp, true);
	}
	report_get_counts(&cnt);
	report_line("VERDICTS: %u tests: %u PASS, %u FAIL, %u SKIP%s", cnt.tests,
		    cnt.tests - cnt.failures - cnt.skipped, cnt.failures, cnt.skipped,
		    cnt.env_errors ? "; environment errors, see ERROR lines" : "");
	if (t.n_cols) {
		strbuf_init(&sb, line, sizeof(line));
		strbuf_printf(&sb, "%-*s", NAME_WIDTH, "kernel");
		for (unsigned int c = 0; c < t.n_cols; c++)
			strbuf_printf(&sb, " %-*.*s", CELL_WIDTH - 1, CELL_WIDTH - 1, t.col[c]);
		trim(line);
		report_line("%s", line);
	}
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind == REPORT_ENV || !split(e->name, k, sizeof(k), &smp) ||
		    !strcmp(k, prev))
			continue;
		/* Each kernel once, at its first verdict (the log keeps run order). */
		bool seen = false;

		for (unsigned int j = 0; j < i && !seen; j++) {
			const struct report_entry *f = report_log_at(j);
			char fk[NAME_MAX_LEN];
			const char *fs;

			seen = f->kind != REPORT_ENV && split(f->name, fk, sizeof(fk), &fs) &&
			       !strcmp(fk, k);
		}
		pp_snprintf(prev, sizeof(prev), "%s", k);
		if (!seen)
			kernel_row(&t, k, i);
	}
	/* Verdicts of no kernel (self tests, pmu, pebs, results), a few per line. */
	strbuf_init(&sb, line, sizeof(line));
	for (unsigned int i = 0; i < report_log_count(); i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind == REPORT_ENV || split(e->name, k, sizeof(k), &smp))
			continue;
		if (others && !(others % OTHER_PER_ROW)) {
			report_line("%s", line);
			strbuf_init(&sb, line, sizeof(line));
		}
		strbuf_printf(&sb, "%s%.20s %s", others % OTHER_PER_ROW ? ", " : "other: ", e->name,
			      words[e->kind]);
		others++;
	}
	if (others)
		report_line("%s", line);
}
