// SPDX-License-Identifier: MIT
/*
 * report.c - PASS/FAIL/SKIP/INFO lines and the SUMMARY, after kvm-unit-tests'
 * lib/report.c (the grammar, not the code).
 */
#include "report.h"
#include "fmt.h"

static report_sink_fn report_sink;
static void *report_ctx;
static bool report_simulated;
static struct report_counts counts;

void report_init(report_sink_fn sink, void *ctx)
{
	report_sink = sink;
	report_ctx = ctx;
}

void report_set_simulated(bool simulated)
{
	report_simulated = simulated;
}

bool report_is_simulated(void)
{
	return report_simulated;
}

static void emit(const char *prefix, const char *name, const char *fmt, va_list ap)
{
	char line[REPORT_LINE_MAX];
	struct strbuf sb;
	char msg[REPORT_LINE_MAX];

	strbuf_init(&sb, line, sizeof(line) - 8);
	strbuf_puts(&sb, prefix);
	if (name) {
		strbuf_puts(&sb, name);
		if (fmt && *fmt)
			strbuf_puts(&sb, ": ");
	}
	if (fmt) {
		pp_vsnprintf(msg, sizeof(msg), fmt, ap);
		strbuf_puts(&sb, msg);
	}
	/* Line-oriented output: a newline inside a message would break parsers. */
	for (size_t i = 0; i < sb.len; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	if (report_simulated) {
		sb.size = sizeof(line);
		strbuf_puts(&sb, " [sim]");
	}
	if (report_sink)
		report_sink(line, report_ctx);
}

void report_pass(const char *fmt, ...)
{
	va_list ap;

	counts.tests++;
	va_start(ap, fmt);
	emit("PASS: ", NULL, fmt, ap);
	va_end(ap);
}

void report_fail(const char *name, const char *why_fmt, ...)
{
	va_list ap;

	counts.tests++;
	counts.failures++;
	va_start(ap, why_fmt);
	emit("FAIL: ", name, why_fmt, ap);
	va_end(ap);
}

void report_skip(const char *name, const char *why_fmt, ...)
{
	va_list ap;

	counts.tests++;
	counts.skipped++;
	va_start(ap, why_fmt);
	emit("SKIP: ", name, why_fmt, ap);
	va_end(ap);
}

void report_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("INFO: ", NULL, fmt, ap);
	va_end(ap);
}

void report_vline(const char *fmt, va_list ap)
{
	emit("", NULL, fmt, ap);
}

void report_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vline(fmt, ap);
	va_end(ap);
}

void report_get_counts(struct report_counts *c)
{
	*c = counts;
}

int report_exit_status(void)
{
	if (counts.failures)
		return EXIT_FAIL;
	if (counts.tests && counts.skipped == counts.tests)
		return EXIT_ALL_SKIPPED;
	return EXIT_PASS;
}

int report_summary(void)
{
	report_line("SUMMARY: %u tests, %u failures, %u skipped", counts.tests, counts.failures,
		    counts.skipped);
	return report_exit_status();
}

void report_reset(void)
{
	counts = (struct report_counts){0};
}
