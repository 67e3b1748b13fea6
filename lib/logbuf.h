/* SPDX-License-Identifier: MIT */
/*
 * logbuf.h - the log file's write policy: lines are collected in a fixed
 * buffer and handed to the writer (efi/console.c: EFI_FILE_PROTOCOL.Write
 * then Flush) only when it matters, not once per line.
 *
 *   static struct logbuf lb;
 *   logbuf_init(&lb, write_and_flush, fh);
 *   logbuf_line(&lb, "INFO: ...", n);   // waits
 *   logbuf_line(&lb, "PASS: ...", n);   // both lines written now
 *   logbuf_flush(&lb);                  // at close
 *
 * Written at once: every line that is not progress (not "INFO: ", "REC: "
 * or "MSR: "), i.e. each PASS:, FAIL:, SKIP:, SUMMARY: and ERROR: line,
 * with all lines before it.  Written in whole lines when the next line
 * would not fit.  So a hang leaves the log complete up to the last verdict,
 * then at most LOGBUF_SIZE bytes of the progress lines after it are lost.
 *
 * A line wrapped for 80 columns (lib/report.h report_wrap) is given as one:
 * its pieces joined by newlines.  Its start decides, so the continuation
 * pieces of an INFO line wait with it, and a verdict's go out in the same
 * write as its first piece: one Write and Flush per verdict, not per piece.
 */
#ifndef PP_LIB_LOGBUF_H
#define PP_LIB_LOGBUF_H

#include "compat.h"

#define LOGBUF_SIZE 4096

typedef void (*logbuf_write_fn)(const char *buf, size_t len, void *ctx);

struct logbuf {
	logbuf_write_fn write;
	void *ctx;
	size_t len;
	char buf[LOGBUF_SIZE];
};

void logbuf_init(struct logbuf *lb, logbuf_write_fn write, void *ctx);
/*
 * One line (or a wrapped line's pieces joined by newlines) without its final
 * newline (added here); one over LOGBUF_SIZE - 1 bytes is cut.
 */
void logbuf_line(struct logbuf *lb, const char *line, size_t len);
/* Hands over what is buffered (nothing when empty). */
void logbuf_flush(struct logbuf *lb);

#endif
