// SPDX-License-Identifier: MIT
/*
 * report.c - PASS/FAIL/SKIP/INFO lines and the SUMMARY, after kvm-unit-tests'
 * lib/report.c (the grammar, not the code).
 */
#include "report.h"
#include "fmt.h"
#include "platform.h"
#include "report_recap.h"

static report_sink_fn report_sink;
static void *report_ctx;
/* The console's and the log file's own ways (report_init_routes); unset: report_sink. */
static report_sink_fn route_console, route_log;
static void *route_ctx;
static bool report_verbose;
/* report_set_verdicts_to_log: the per-CPU verdicts of a run on several CPUs */
static bool verdicts_to_log;
static bool report_simulated;
static bool aside;
static bool more_told;	    /* more_legend() printed */
static uint64_t console_at; /* report_console_at() */
static void (*tick_fn)(void);
static struct report_counts counts;

/*
 * The verdict log (report.h): entries and the text they point into, first
 * these fixed arrays, then doubled from memory as the run needs.
 */
static struct report_entry log_fixed[REPORT_LOG_MAX];
static char log_fixed_pool[REPORT_LOG_BYTES];
static struct report_entry *log_entries = log_fixed;
static char *log_pool = log_fixed_pool;
static unsigned int log_cap = REPORT_LOG_MAX;
static size_t log_pool_size = REPORT_LOG_BYTES;
static unsigned int log_n, log_dropped_n;
static size_t log_used;
static struct {
	bool set;
	unsigned int cpu, apic_id;
	char core_type[REPORT_CORE_TYPE_MAX];
} cur_cpu;

static const char *const kind_prefix[] = {
    [REPORT_PASS] = "PASS: ",
    [REPORT_FAIL] = "FAIL: ",
    [REPORT_SKIP] = "SKIP: ",
    [REPORT_ENV] = "ERROR: ",
};

void report_set_cpu(unsigned int cpu, unsigned int apic_id, const char *core_type)
{
	cur_cpu.set = true;
	cur_cpu.cpu = cpu;
	cur_cpu.apic_id = apic_id;
	pp_snprintf(cur_cpu.core_type, sizeof(cur_cpu.core_type), "%s",
		    core_type ? core_type : "none");
}

void report_clear_cpu(void)
{
	cur_cpu.set = false;
}

/*
 * Twice the room, the entries and their text copied (pointers moved to the
 * new pool); false without memory.  Only on the normal path, like every
 * log_keep(): on another CPU the platform refuses the allocation.
 */
static bool log_grow(size_t need)
{
	unsigned int cap = log_cap * 2;
	size_t size = log_pool_size * 2;
	struct report_entry *e;
	char *pool;

	while (size < log_used + need)
		size *= 2;
	e = plat_alloc(cap * sizeof(*e));
	pool = plat_alloc(size);
	if (!e || !pool) {
		plat_free(e);
		plat_free(pool);
		return false;
	}
	memcpy(pool, log_pool, log_used);
	for (unsigned int i = 0; i < log_n; i++) {
		e[i] = log_entries[i];
		e[i].name = pool + (log_entries[i].name - log_pool);
		e[i].why = pool + (log_entries[i].why - log_pool);
	}
	if (log_entries != log_fixed)
		plat_free(log_entries);
	if (log_pool != log_fixed_pool)
		plat_free(log_pool);
	log_entries = e;
	log_pool = pool;
	log_cap = cap;
	log_pool_size = size;
	return true;
}

/* Keeps one finished line (prefix included, " [sim]" not) of a kind in the log. */
static void log_keep(enum report_kind kind, const char *line, size_t len)
{
	size_t plen = strlen(kind_prefix[kind]);
	struct report_entry *e;
	char *name, *sep;

	if (len < plen || memcmp(line, kind_prefix[kind], plen))
		return;
	line += plen;
	len -= plen;
	if ((log_n >= log_cap || log_used + len + 2 > log_pool_size) && !log_grow(len + 2)) {
		log_dropped_n++;
		return;
	}
	name = log_pool + log_used;
	memcpy(name, line, len);
	name[len] = 0;
	log_used += len + 2;
	e = &log_entries[log_n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->name = name;
	for (sep = name; *sep && !(sep[0] == ':' && sep[1] == ' '); sep++)
		;
	if (*sep) {
		*sep = 0;
		e->why = sep + 2;
	} else {
		/* The byte after the name's NUL, reserved above: an empty reason. */
		e->why = name + len + 1;
		name[len + 1] = 0;
	}
	if (cur_cpu.set) {
		e->has_cpu = true;
		e->cpu = cur_cpu.cpu;
		e->apic_id = cur_cpu.apic_id;
		memcpy(e->core_type, cur_cpu.core_type, sizeof(e->core_type));
	}
}

/* The kind of a finished line, from its prefix; -1 for a line that is no verdict. */
static int line_kind(const char *line)
{
	for (unsigned int k = 0; k < ARRAY_SIZE(kind_prefix); k++)
		if (!strncmp(line, kind_prefix[k], strlen(kind_prefix[k])))
			return (int)k;
	return -1;
}

unsigned int report_log_count(void)
{
	return log_n;
}

const struct report_entry *report_log_at(unsigned int i)
{
	return i < log_n ? &log_entries[i] : NULL;
}

unsigned int report_log_dropped(void)
{
	return log_dropped_n;
}

size_t report_log_bytes(void)
{
	return log_used;
}

const char *report_exit_meaning(int status)
{
	switch (status) {
	case EXIT_PASS:
		return "pass";
	case EXIT_FAIL:
		return "fail";
	case EXIT_USAGE:
		return "usage";
	case EXIT_ALL_SKIPPED:
		return "skipped";
	case EXIT_ENVIRONMENT:
		return "environment";
	default:
		return "unknown";
	}
}

void report_init(report_sink_fn sink, void *ctx)
{
	report_sink = sink;
	report_ctx = ctx;
}

void report_init_routes(report_sink_fn console_only, report_sink_fn log_only, void *ctx)
{
	route_console = console_only;
	route_log = log_only;
	route_ctx = ctx;
}

void report_set_verbose(bool verbose)
{
	report_verbose = verbose;
}

bool report_is_verbose(void)
{
	return report_verbose;
}

void report_set_verdicts_to_log(bool on)
{
	verdicts_to_log = on;
}

/* Lines for one place only go there when both routes are set and verbose= is off. */
static bool routed(void)
{
	return route_console && route_log && !report_verbose;
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
	/*
	 * Short enough for 80 columns with the widest count, the widest caller's
	 * `from` and " [sim]" (tools/check-width.py); "1 line", not "1 lines".
	 */
	char cpu[24] = "";

	/* Which CPU "the measured CPU" is: the one report_set_cpu() names now. */
	if (cur_cpu.set && from && !strcmp(from, "the measured CPU"))
		pp_snprintf(cpu, sizeof(cpu), " (cpu %u)", cur_cpu.cpu);
	report_info("%zu line%s held back by %s%s until now:", n, n == 1 ? "" : "s",
		    from ? from : "deferred code", cpu);
	while (at < defer_len) {
		const char *line = defer_buf + at;
		size_t len = strlen(line);
		int kind = line_kind(line);

		if (report_sink)
			report_sink(line, report_ctx);
		/* Environment errors are not deferred: report_env_error is for the normal path. */
		if (kind >= 0 && kind != REPORT_ENV)
			log_keep((enum report_kind)kind, line,
				 len >= 6 && !strcmp(line + len - 6, " [sim]") ? len - 6 : len);
		at += len + 1;
	}
	if (defer_dropped)
		report_info("%zu line%s dropped: the %d-byte buffer was full", defer_dropped,
			    defer_dropped == 1 ? "" : "s", REPORT_DEFER_BYTES);
	defer_len = defer_lines = defer_dropped = 0;
	return n;
}

void report_now(const char *fmt, ...)
{
	char line[REPORT_LINE_MAX];
	va_list ap;

	memcpy(line, "INFO: ", 6);
	va_start(ap, fmt);
	pp_vsnprintf(line + 6, sizeof(line) - 6, fmt, ap);
	va_end(ap);
	console_at = plat_time_us();
	if (report_sink)
		report_sink(line, report_ctx);
}

uint64_t report_console_at(void)
{
	return console_at;
}

void report_set_tick(void (*tick)(void))
{
	tick_fn = tick;
}

void report_tick(void)
{
	if (tick_fn)
		tick_fn();
}

/*
 * Line-oriented plain ASCII: a newline inside a message would break
 * parsers, another control byte (ESC) would drive the terminal.
 */
static void plain_ascii(char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\n' || line[i] == '\r' || line[i] == '\t')
			line[i] = ' ';
		else if ((uint8_t)line[i] < 0x20 || (uint8_t)line[i] > 0x7e)
			line[i] = '?';
	}
}

/* "<prefix><name>: <text>" (or without the name), plain, with the mark when asked. */
static size_t build(char *line, size_t size, const char *prefix, const char *name, const char *text,
		    bool mark)
{
	struct strbuf sb;

	strbuf_init(&sb, line, size - 8);
	strbuf_puts(&sb, prefix);
	if (name) {
		strbuf_puts(&sb, name);
		if (text && *text)
			strbuf_puts(&sb, ": ");
	}
	if (text)
		strbuf_puts(&sb, text);
	plain_ascii(line, sb.len);
	if (mark) {
		sb.size = size;
		strbuf_puts(&sb, " [sim]");
	}
	return sb.len;
}

enum emit_flags {
	EMIT_MARK = 1,	       /* ends with " [sim]" in a simulated run */
	EMIT_LOG_ONLY = 2,     /* detail: the log file, the console only with verbose= */
	EMIT_CONSOLE_ONLY = 4, /* a summary of log lines: the console, none with verbose= */
};

/* The console's brief text and the full line to the log: a frame of its own, off emit's. */
static __attribute__((noinline)) void emit_brief(const char *line, const char *prefix,
						 const char *name, const char *brief, bool mark)
{
	char shown[REPORT_LINE_MAX];

	build(shown, sizeof(shown), prefix, name, brief, mark);
	route_console(shown, route_ctx);
	route_log(line, route_ctx);
}

/*
 * The first console brief cut to "; +N more" (job/outcome.c): one line,
 * once a run, saying what the count is and where the rest went.
 */
static void more_legend(const char *brief)
{
	size_t len = strlen(brief);

	/* job/outcome.c ends such a brief with "; +N more". */
	if (more_told || len < 9 || strcmp(brief + len - 5, " more"))
		return;
	while (len && brief[len - 1] != '+')
		len--;
	if (len < 3 || brief[len - 2] != ' ' || brief[len - 3] != ';')
		return;
	more_told = true;
	route_console("INFO: legend: +N more: N more clauses, in the log file and results.json",
		      route_ctx);
}

/*
 * kind: the verdict log's kind of the line, or -1 for a line kept nowhere.
 * brief: the console's shorter text for the line, or NULL (report.h,
 * report_verdict); the log file, results.json and verbose= get the full one.
 * One line on the stack: an AP runs this with a 4 KiB stack (docs/
 * ARCHITECTURE.md, "Stacks"); the text is formatted in place after the
 * name, and " [sim]" appended to it.
 */
static void emit_out(int kind, unsigned int flags, const char *line, size_t len, const char *prefix,
		     const char *name, const char *brief, bool mark);

static void emit(int kind, unsigned int flags, const char *prefix, const char *name,
		 const char *brief, const char *fmt, va_list ap)
{
	char line[REPORT_LINE_MAX];
	bool mark = report_simulated && (kind == REPORT_PASS || kind == REPORT_FAIL ||
					 kind == REPORT_SKIP || (flags & EMIT_MARK));
	size_t len = build(line, sizeof(line), prefix, name, NULL, false);

	if (fmt) {
		/* build()'s ": " and text within size - 8, the room " [sim]" needs */
		size_t room = sizeof(line) - 8 - len;

		if (name && room > 2) {
			pp_vsnprintf(line + len + 2, room - 2, fmt, ap);
			if (line[len + 2]) {
				line[len] = ':';
				line[len + 1] = ' ';
				len += 2 + strlen(line + len + 2);
			}
		} else if (!name) {
			pp_vsnprintf(line + len, room, fmt, ap);
			len += strlen(line + len);
		}
		line[len] = 0;
		plain_ascii(line, len);
	}
	if (kind >= 0 && !report_deferring())
		log_keep((enum report_kind)kind, line, len);
	if (mark) {
		memcpy(line + len, " [sim]", 7);
		len += 6;
	}
	emit_out(kind, flags, line, len, prefix, name, brief, mark);
}

/* Where a built line goes: held back, the console, the log file or the sink. */
static void emit_out(int kind, unsigned int flags, const char *line, size_t len, const char *prefix,
		     const char *name, const char *brief, bool mark)
{
	if (verdicts_to_log && kind >= 0 && kind != REPORT_ENV)
		flags |= EMIT_LOG_ONLY;
	/* Every way but the log file's alone reaches the console. */
	if (!report_deferring() && !((flags & EMIT_LOG_ONLY) && routed()) &&
	    !((flags & EMIT_CONSOLE_ONLY) && !routed()))
		console_at = plat_time_us();
	if (report_deferring()) {
		defer_add(line, len);
	} else if ((flags & EMIT_CONSOLE_ONLY) && !routed()) {
		return;
	} else if ((flags & EMIT_CONSOLE_ONLY) && routed()) {
		route_console(line, route_ctx);
	} else if ((flags & EMIT_LOG_ONLY) && routed()) {
		route_log(line, route_ctx);
	} else if (brief && routed()) {
		emit_brief(line, prefix, name, brief, mark);
		more_legend(brief);
	} else if (report_sink) {
		report_sink(line, report_ctx);
	}
}

static void emit_kind(int kind, const char *name, const char *brief, const char *fmt, va_list ap)
{
	counts.tests++;
	if (kind == REPORT_FAIL)
		counts.failures++;
	else if (kind == REPORT_SKIP)
		counts.skipped++;
	else if (aside)
		counts.aside_passed++;
	emit(kind, 0, kind_prefix[kind], name, brief, fmt, ap);
}

void report_pass(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_kind(REPORT_PASS, NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_fail(const char *name, const char *why_fmt, ...)
{
	va_list ap;

	va_start(ap, why_fmt);
	emit_kind(REPORT_FAIL, name, NULL, why_fmt, ap);
	va_end(ap);
}

void report_skip(const char *name, const char *why_fmt, ...)
{
	va_list ap;

	va_start(ap, why_fmt);
	emit_kind(REPORT_SKIP, name, NULL, why_fmt, ap);
	va_end(ap);
}

void report_verdict(enum report_kind kind, const char *name, const char *brief, const char *why_fmt,
		    ...)
{
	va_list ap;

	if (kind == REPORT_ENV)
		return;
	va_start(ap, why_fmt);
	emit_kind(kind, name, brief, why_fmt, ap);
	va_end(ap);
}

void report_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(-1, 0, "INFO: ", NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(-1, EMIT_LOG_ONLY, "INFO: ", NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_console(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(-1, EMIT_MARK | EMIT_CONSOLE_ONLY, "", NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_banner(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(-1, EMIT_MARK, "INFO: ", NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_env_error(const char *name, const char *why_fmt, ...)
{
	va_list ap;

	counts.env_errors++;
	va_start(ap, why_fmt);
	emit(REPORT_ENV, 0, "ERROR: ", name, NULL, why_fmt, ap);
	va_end(ap);
}

void report_vline(const char *fmt, va_list ap)
{
	emit(-1, 0, "", NULL, NULL, fmt, ap);
}

void report_text(const char *text)
{
	emit_out(-1, 0, text, strlen(text), NULL, NULL, NULL, false);
}

void report_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report_vline(fmt, ap);
	va_end(ap);
}

/* SUMMARY and RESULT: a simulated run's last words say so. */
static void marked_line(const char *fmt, ...) pp_printf(1, 2);
static void marked_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(-1, EMIT_MARK, "", NULL, NULL, fmt, ap);
	va_end(ap);
}

void report_get_counts(struct report_counts *c)
{
	*c = counts;
}

void report_set_aside(bool on)
{
	aside = on;
}

/* Every test that passed was set aside (report_set_aside): no PEBS or PMU verdict. */
static bool only_aside_passed(void)
{
	return counts.tests && counts.skipped + counts.aside_passed == counts.tests;
}

int report_exit_status(void)
{
	if (counts.failures)
		return EXIT_FAIL;
	if (counts.env_errors)
		return EXIT_ENVIRONMENT;
	if (only_aside_passed())
		return EXIT_ALL_SKIPPED;
	return EXIT_PASS;
}

int report_summary(void)
{
	marked_line("SUMMARY: %u tests, %u failures, %u skipped", counts.tests, counts.failures,
		    counts.skipped);
	return report_exit_status();
}

/* The status as one word (docs/OUTPUT.md "Exit status"). */
static const char *result_word(int status)
{
	switch (status) {
	case EXIT_PASS:
		return "PASS";
	case EXIT_FAIL:
		return "FAIL";
	case EXIT_ALL_SKIPPED:
		return "SKIP";
	default:
		return "ERROR";
	}
}

void report_result(int status)
{
	unsigned int used;

	used = report_recap(REPORT_FAIL, "FAIL", counts.failures, REPORT_RECAP_LINES);
	report_recap(REPORT_ENV, "ERROR", counts.env_errors,
		     used < REPORT_RECAP_LINES ? REPORT_RECAP_LINES - used : 1);
	if (status == EXIT_ALL_SKIPPED && counts.aside_passed)
		report_info("no PEBS or PMU verdict: %u hand-off check%s passed, no PASS alone",
			    counts.aside_passed, counts.aside_passed == 1 ? "" : "s");
	marked_line("RESULT: %s (exit %d)", result_word(status), status);
}

void report_reset(void)
{
	counts = (struct report_counts){0};
	defer_depth = 0;
	defer_len = defer_lines = defer_dropped = 0;
	log_n = log_dropped_n = 0;
	log_used = 0;
	cur_cpu.set = false;
	verdicts_to_log = false;
	aside = false;
	more_told = false;
}
