/* SPDX-License-Identifier: MIT */
/*
 * report.h - the only way anything prints.  The console grammar (a contract,
 * documented in docs/OUTPUT.md) follows kvm-unit-tests:
 *
 *   PASS: <name>
 *   FAIL: <name>: <why>
 *   SKIP: <name>: <reason>
 *   INFO: <text>
 *   MSR: wrmsr 0x<msr> 0x<value>          (trace=msr)
 *   REC: key=value key=value ...           (one decoded PEBS record)
 *   ERROR: <name>: <why>                   (the environment failed: report_env_error)
 *   SUMMARY: N tests, M failures, K skipped
 *
 * When the PMU is simulated, the banner (report_banner), every PASS, FAIL
 * and SKIP line, SUMMARY and RESULT end with " [sim]"; other lines do not.
 * Exit status (report_exit_status): 0 all passed, 1 any failure, 2 bad
 * options, 77 everything skipped, 99 the environment failed (no memory, a
 * file that did not land on the ESP, a processor MP services could not
 * start) and nothing failed.  A FAIL found is reported as 1 even when the
 * environment failed too: it is a finding either way.
 */
#ifndef PP_REPORT_H
#define PP_REPORT_H

#include "compat.h"

#define REPORT_LINE_MAX 512

enum exit_status {
	EXIT_PASS = 0,
	EXIT_FAIL = 1,
	EXIT_USAGE = 2,
	EXIT_ALL_SKIPPED = 77,
	EXIT_ENVIRONMENT = 99,
};

/* "pass", "fail", "usage", "skipped", "environment"; "unknown" for another status. */
const char *report_exit_meaning(int status);

/* Where finished lines go (console + serial + log file); no trailing newline. */
typedef void (*report_sink_fn)(const char *line, void *ctx);

void report_init(report_sink_fn sink, void *ctx);
void report_set_simulated(bool simulated);
bool report_is_simulated(void);

/*
 * The console (screens and serial) and the log file apart (efi/console.c):
 * with both set and verbose= off, a detail line (report_detail) goes to
 * the log file only and a verdict with a brief form (report_verdict) shows
 * the brief one on the console, the full one in the log file.  Unset (the
 * host, the unit tests) or with verbose=1, every line goes to the one sink
 * whole.  results.json's verdicts always keep the full reason.
 */
void report_init_routes(report_sink_fn console_only, report_sink_fn log_only, void *ctx);
void report_set_verbose(bool verbose);
bool report_is_verbose(void);
/*
 * While on, PASS/FAIL/SKIP lines go where detail goes (the log file; the
 * console too with verbose=1 or without routes): a job on several CPUs
 * prints its per-CPU verdicts so and sums them up with report_console().
 * They are counted and kept for results.json as ever.
 */
void report_set_verdicts_to_log(bool on);
/*
 * A line of its own prefix, for the console only and only when the routes
 * are set and verbose= is off (else the lines it sums up are there): not
 * counted, not kept, not in the log file; " [sim]" in a simulated run.
 */
void report_console(const char *fmt, ...) pp_printf(1, 2);

void report_pass(const char *fmt, ...) pp_printf(1, 2);
/* name, then the reason: prints "FAIL: <name>: <why>". */
void report_fail(const char *name, const char *why_fmt, ...) pp_printf(2, 3);
void report_skip(const char *name, const char *why_fmt, ...) pp_printf(2, 3);
void report_info(const char *fmt, ...) pp_printf(1, 2);
/* An INFO line of detail: the log file; the console too with verbose=1. */
void report_detail(const char *fmt, ...) pp_printf(1, 2);
/* The banner, an INFO line with the " [sim]" mark of a simulated run. */
void report_banner(const char *fmt, ...) pp_printf(1, 2);
/*
 * The environment failed, not the PMU: "ERROR: <name>: <why>", not a test
 * (not in SUMMARY's counts), but the exit status is 99 unless a test
 * failed.  For no memory, an ESP file that could not be written, a
 * processor MP services could not start.  (A processor that never came
 * back from its work is a FAIL naming it: a finding about that CPU.)
 */
void report_env_error(const char *name, const char *why_fmt, ...) pp_printf(2, 3);
/* A line with its own prefix (MSR:, REC:, ERROR:, progress): not counted. */
void report_line(const char *fmt, ...) pp_printf(1, 2);
void report_vline(const char *fmt, va_list ap);
/*
 * report_line("%s", text) for plain ASCII text, without a variadic call's
 * frame or a line buffer (pmu/hw.c's MSR trace on an AP's 4 KiB stack).
 */
void report_text(const char *text);

/*
 * Deferred output, for code that may not call firmware: the PMI handler (a
 * PMI that lands inside a ConOut, SerialIo or file Write call would enter
 * the same driver again) and code running on another CPU (UEFI boot
 * services are for the BSP only).  Between report_defer_begin() and
 * report_defer_end() (they nest) a finished line - a counted PASS/FAIL/SKIP
 * as well as an MSR: line - goes into a fixed buffer instead of the sink:
 * no allocation, no sink call.  The counts are kept at once, so SUMMARY is
 * right either way.  Lines that do not fit are counted, not written.
 * report_defer_begin() may also cover a whole session, which then calls
 * report_flush_deferred() once it is back on the normal path.  Writers may
 * interrupt one another or run on several CPUs at once: each reserves its
 * bytes atomically.  The flush must run when none is writing (after the PMI
 * handler is removed, after the other CPUs are done).  Not made atomic: the
 * PASS/FAIL/SKIP counts.
 */
#define REPORT_DEFER_BYTES 32768

void report_defer_begin(void);
void report_defer_end(void);
bool report_deferring(void);
/*
 * From the normal path only (does nothing while deferring): an INFO line
 * saying how many lines were held back and from where (`from`, e.g. "the
 * PMI handler"), the lines through the sink in their order, then, if any
 * did not fit, an INFO line with how many were dropped.  The buffer is
 * empty afterwards.  Returns the number of lines held back (printed or
 * dropped).
 */
size_t report_flush_deferred(const char *from);
/*
 * From the BSP only, deferring or not: an INFO line straight to the sink,
 * kept nowhere - what the BSP says while another CPU runs deferred work
 * ("waiting for CPU 17: chase-dram, 12 s", lib/cpurun.c).
 */
void report_now(const char *fmt, ...) pp_printf(1, 2);
/*
 * The platform clock (plat_time_us) when the console last got a line (the
 * log file's lines aside): a BSP that waits (lib/cpurun.c) or goes from
 * CPU to CPU (job/job.c) says where the run is once the console has been
 * quiet a while, so serial never falls silent for long.
 */
uint64_t report_console_at(void);
/*
 * What the platform does while the BSP waits for another CPU, called at
 * every turn of its wait (lib/cpurun.c): efi/console.c redraws the screen's
 * status header when it is due (lib/status.h status_due).  NULL: nothing.
 */
void report_set_tick(void (*tick)(void));
void report_tick(void);

/*
 * A finished line as a screen or terminal of `width` columns shows it: the
 * pieces out() gets are at most width characters, the first the line's
 * start, each following one indented with REPORT_WRAP_INDENT (which no
 * line of the grammar starts with), broken at spaces; a simulated line's
 * " [sim]" ends its last piece only.  Rejoin: a piece that starts with the
 * indent continues the line before it, after one space.
 * For the console, serial and log alike (efi/console.c); results.json and
 * the verdict log keep whole lines.
 */
#define REPORT_WRAP_INDENT "    "
#define REPORT_WIDTH	   80
void report_wrap(const char *line, unsigned int width, void (*out)(const char *piece, void *ctx),
		 void *ctx);

struct report_counts {
	unsigned int tests, failures, skipped;
	unsigned int env_errors;   /* report_env_error() lines */
	unsigned int aside_passed; /* PASS lines counted with report_set_aside() on */
};

/*
 * While on, a PASS counts in SUMMARY as any other but never makes the
 * run's PASS alone: the firmware hand-off audit (job/handoff.c) checks
 * what the firmware left, not PEBS, so a run whose PEBS and PMU tests all
 * SKIPped exits 77 (report_exit_status), with one line saying why
 * (report_result).  A FAIL counts as ever.
 */
void report_set_aside(bool on);

/*
 * Every PASS/FAIL/SKIP and environment ERROR line of the run, in order, for
 * results.json ("verdicts", "errors"): the name (up to the first ": ") and
 * the rest apart, the " [sim]" mark left out.  Deferred lines are kept when
 * they are flushed.  Each carries the CPU set by report_set_cpu() when it
 * was printed.  The first REPORT_LOG_MAX lines and REPORT_LOG_BYTES of text
 * go in fixed arrays; past them the log doubles from memory (plat_alloc),
 * so a run on a thousand CPUs keeps every verdict: a line is dropped (and
 * counted, report_log_dropped) only when memory runs out.  Growing moves
 * the entries: report_log_at()'s pointer holds until the next verdict.
 */
#define REPORT_LOG_MAX	     512
#define REPORT_LOG_BYTES     65536
#define REPORT_CORE_TYPE_MAX 16

enum report_kind { REPORT_PASS, REPORT_FAIL, REPORT_SKIP, REPORT_ENV };

struct report_entry {
	enum report_kind kind;
	const char *name;
	const char *why;
	bool has_cpu;
	unsigned int cpu, apic_id;
	char core_type[REPORT_CORE_TYPE_MAX];
};

/*
 * The processor the lines that follow are about (the job: the CPU a kernel
 * ran on); report_clear_cpu() for lines about no one CPU (self tests).
 */
/*
 * A PASS, FAIL or SKIP line (kind) whose console form is "<name>: <brief>"
 * (NULL: the full line), the full reason for the log file and results.json.
 */
void report_verdict(enum report_kind kind, const char *name, const char *brief, const char *why_fmt,
		    ...) pp_printf(4, 5);

void report_set_cpu(unsigned int cpu, unsigned int apic_id, const char *core_type);
void report_clear_cpu(void);
unsigned int report_log_count(void);
const struct report_entry *report_log_at(unsigned int i);
/* Lines not kept because the pool was full (results.json says so). */
unsigned int report_log_dropped(void);
/* Bytes of text the kept lines take (names and reasons): for sizing results.json. */
size_t report_log_bytes(void);
void report_get_counts(struct report_counts *c);
/* Prints the SUMMARY line and returns 0, 1, 77 or 99. */
int report_summary(void);
/*
 * The run's last lines, so a screen without scrollback still shows what
 * went wrong: "RECAP: FAIL name, name, ..." and "RECAP: ERROR name, ..."
 * naming every FAIL and environment ERROR of the run (name@cpuN when the
 * verdicts come from several CPUs), each within 80 columns and together at
 * most REPORT_RECAP_LINES lines (then "and N more (results.json)"), then
 * "RESULT: PASS|FAIL|SKIP|ERROR (exit N)" for the exit status.
 */
#define REPORT_RECAP_LINES 16
/*
 * A RECAP line's width: one row on an 80-column screen, where a line of
 * the full width takes two (the cursor wraps past the last column before
 * the line's end moves it down: status.h status_line_rows).
 */
#define REPORT_RECAP_WIDTH (REPORT_WIDTH - 1)
/* The most lines report_result prints: the FAIL lines, one ERROR line at least, RESULT. */
#define REPORT_RESULT_LINES_MAX (REPORT_RECAP_LINES + 2)
void report_result(int status);
/* The exit status the counts so far imply, without printing. */
int report_exit_status(void);
void report_reset(void);

#endif
