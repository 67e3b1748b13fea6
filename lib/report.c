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

/*
 * Deferred lines, back to back, each ending in its NUL (report.h).  A
 * writer reserves its bytes with one compare-and-swap on defer_len before
 * copying, so a PMI that interrupts a writer (or another CPU writing at the
 * same time) gets bytes of its own; the counters are atomic for the same
 * reason.
 */
static char defer_buf[REPORT_DEFER_BYTES];
static size_t defer_len, defer_lines, defer_dropped;
static unsigned int defer_depth;

void report_defer_begin(void)
{
	__atomic_fetch_add(&defer_depth, 1, __ATOMIC_SEQ_CST);
}

void report_defer_end(void)
{
	unsigned int d = __atomic_load_n(&defer_depth, __ATOMIC_SEQ_CST);

	while (d && !__atomic_compare_exchange_n(&defer_depth, &d, d - 1, false, __ATOMIC_SEQ_CST,
						 __ATOMIC_SEQ_CST))
		;
}

bool report_deferring(void)
{
	return __atomic_load_n(&defer_depth, __ATOMIC_SEQ_CST) != 0;
}

static void defer_add(const char *line, size_t len)
{
	size_t at = __atomic_load_n(&defer_len, __ATOMIC_SEQ_CST);

	do {
		if (at + len + 1 > sizeof(defer_buf)) {
			__atomic_fetch_add(&defer_dropped, 1, __ATOMIC_SEQ_CST);
			return;
		}
	} while (!__atomic_compare_exchange_n(&defer_len, &at, at + len + 1, false,
					      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	memcpy(defer_buf + at, line, len + 1);
	__atomic_fetch_add(&defer_lines, 1, __ATOMIC_SEQ_CST);
}

size_t report_flush_deferred(const char *from)
{
	size_t n = defer_lines + defer_dropped, at = 0;

	if (report_deferring() || !n)
		return 0;
	report_info("%zu lines from %s, held back until now (no firmware call there):", n,
		    from ? from : "code that may not call firmware");
	while (at < defer_len) {
		if (report_sink)
			report_sink(defer_buf + at, report_ctx);
		at += strlen(defer_buf + at) + 1;
	}
	if (defer_dropped)
		report_info("%zu more lines dropped: the %d-byte buffer for them was full",
			    defer_dropped, REPORT_DEFER_BYTES);
	defer_len = defer_lines = defer_dropped = 0;
	return n;
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
	if (report_deferring())
		defer_add(line, sb.len);
	else if (report_sink)
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
	defer_depth = 0;
	defer_len = defer_lines = defer_dropped = 0;
}
