/* SPDX-License-Identifier: MIT */
/*
 * render.h - one decoded record as text, into a caller buffer (struct
 * strbuf, lib/fmt.h); no malloc, no stdio.  The same functions serve the
 * app's console lines and build/host/pebs-decode.  One render at a time:
 * render.c keeps its cache and scratch in static storage.
 *
 *   char line[REPORT_LINE_MAX];
 *   struct strbuf sb;
 *   strbuf_init(&sb, line, sizeof(line));
 *   pebs_render_kv(&rec, &sb);
 *   report_line("REC: %s", line);
 *
 * Keys are those of the JSON Lines contract (docs/DECODER.md): offset,
 * size, ip, applicable_counters, data_la, dse, latency, instr_latency,
 * retire_latency, tsc, data_src, op, level, snoop, tlb, lock, blocked,
 * tsx_cycles, tsx_flags, xabort.  Only fields the record has are printed.
 * Values with spaces are double-quoted: level="L3 hit".
 * 64-bit values are lowercase 0x hex; counts and latencies are decimal.
 */
#ifndef PP_DECODE_RENDER_H
#define PP_DECODE_RENDER_H

#include "../lib/fmt.h"
#include "decode.h"

/* One line, key=value pairs separated by one space, no trailing newline. */
void pebs_render_kv(const struct pebs_record *r, struct strbuf *sb);

/* One JSON object (JSON Lines), no trailing newline; keys as docs/DECODER.md lists them. */
void pebs_render_json(const struct pebs_record *r, struct strbuf *sb);

/* CSV: a fixed header line and one row per record (empty cell = field absent). */
void pebs_render_csv_header(struct strbuf *sb);
void pebs_render_csv(const struct pebs_record *r, struct strbuf *sb);

/* "hle,rtm,..." words of enum pebs_tsx_flag (empty string for 0). */
void pebs_render_tsx_flags(uint32_t flags, struct strbuf *sb);

#endif
