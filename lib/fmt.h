/* SPDX-License-Identifier: MIT */
/*
 * fmt.h - a small vsnprintf for the freestanding units.  It is used on the
 * host too, so the app and the host tools print byte-identical text.
 *
 * Supported: %d %i %u %x %X %c %s %p %%, flags '-' '0' '+' ' ', a width and a
 * precision (also as '*'), and the length modifiers hh h l ll z j t.
 */
#ifndef PP_FMT_H
#define PP_FMT_H

#include "compat.h"

/* Returns the length the full output would have had, like C99 vsnprintf. */
int pp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int pp_snprintf(char *buf, size_t size, const char *fmt, ...) pp_printf(3, 4);

/* Appends to a fixed buffer, never overflowing; tracks truncation. */
struct strbuf {
	char *buf;
	size_t size;
	size_t len;
	bool truncated;
};

void strbuf_init(struct strbuf *sb, char *buf, size_t size);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) pp_printf(2, 3);
void strbuf_puts(struct strbuf *sb, const char *s);

/*
 * Unsigned decimal, or hex after 0x/0X: reads digits while it can.  False
 * when there were none or the value overflows 64 bits; else *out is the
 * value and *end the first byte not read (the caller judges what follows).
 */
bool pp_parse_u64(const char *s, uint64_t *out, const char **end);

#endif
