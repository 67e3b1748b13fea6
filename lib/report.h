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
 *   SUMMARY: N tests, M failures, K skipped
 *
 * When the PMU is simulated, every line ends with " [sim]".
 * Exit status (report_exit_status): 0 all passed, 1 any failure, 2 bad
 * options, 77 everything skipped.
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
};

/* Where finished lines go (console + serial + log file); no trailing newline. */
typedef void (*report_sink_fn)(const char *line, void *ctx);

void report_init(report_sink_fn sink, void *ctx);
void report_set_simulated(bool simulated);
bool report_is_simulated(void);

void report_pass(const char *fmt, ...) pp_printf(1, 2);
/* name, then the reason: prints "FAIL: <name>: <why>". */
void report_fail(const char *name, const char *why_fmt, ...) pp_printf(2, 3);
void report_skip(const char *name, const char *why_fmt, ...) pp_printf(2, 3);
void report_info(const char *fmt, ...) pp_printf(1, 2);
/* A line with its own prefix (MSR:, REC:, ERROR:, progress): not counted. */
void report_line(const char *fmt, ...) pp_printf(1, 2);
void report_vline(const char *fmt, va_list ap);

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

struct report_counts {
	unsigned int tests, failures, skipped;
};
void report_get_counts(struct report_counts *c);
/* Prints the SUMMARY line and returns 0, 1 or 77. */
int report_summary(void);
/* The exit status the counts so far imply, without printing. */
int report_exit_status(void);
void report_reset(void);

#endif
