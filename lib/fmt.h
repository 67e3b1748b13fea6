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
 * Appends n bytes, as many as fit; the buffer stays NUL-terminated.  With
 * the two below, the appenders of the hot paths (pebs-decode writes
 * millions of fields a second): no format string to read.
 */
static inline void strbuf_put(struct strbuf *sb, const char *s, size_t n)
{
	size_t room;

	if (!sb->size) {
		sb->truncated |= n != 0;
		return;
	}
	room = sb->size - 1 - sb->len;
	if (n > room) {
		n = room;
		sb->truncated = true;
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/* An unsigned decimal; lowercase hex after 0x. */
void strbuf_put_dec(struct strbuf *sb, uint64_t v);
void strbuf_put_hex(struct strbuf *sb, uint64_t v);

/*
 * The same digits written at p with no bounds check (the caller has room for
 * FMT_DEC_MAX / FMT_HEX_MAX bytes: fmt_hex may write bytes past the end it
 * returns, within that room); returns the end.  No per-digit loop:
 * pebs-decode writes tens of millions of numbers a second.
 */
#define FMT_DEC_MAX 20
#define FMT_HEX_MAX 18
char *fmt_dec(char *p, uint64_t v);

/*
 * fmt_hex is inline: JSON of a format-3 record writes about 30 hex values.
 * A 512-byte table gives each byte's two digits, so eight digits are four
 * table reads; the leading zero digits are shifted out of the words.
 */
extern const char fmt_hex_pairs[513];

static inline uint64_t fmt_hex_pair(unsigned int byte)
{
	uint16_t w;

	memcpy(&w, fmt_hex_pairs + 2 * byte, 2);
	return w;
}

/* The eight hex digits of x as ASCII, most significant first in memory (little-endian). */
static inline uint64_t fmt_hex8(uint32_t x)
{
	return fmt_hex_pair(x >> 24) | fmt_hex_pair((x >> 16) & 0xff) << 16 |
	       fmt_hex_pair((x >> 8) & 0xff) << 32 | fmt_hex_pair(x & 0xff) << 48;
}

/* Writes 2 + 16 bytes (FMT_HEX_MAX); only the "0x" and the value's digits count. */
static inline __attribute__((always_inline)) char *fmt_hex(char *p, uint64_t v)
{
	unsigned int n = (67u - (unsigned int)__builtin_clzll(v | 1)) / 4, skip = 16 - n;
	uint64_t hi, lo, w;

	*p++ = '0';
	*p++ = 'x';
	if (skip >= 8) { /* little-endian: a right shift drops the leading digits */
		w = fmt_hex8((uint32_t)v) >> ((skip - 8) * 8);
		memcpy(p, &w, 8);
		return p + n;
	}
	hi = fmt_hex8((uint32_t)(v >> 32));
	lo = fmt_hex8((uint32_t)v);
	if (skip)
		hi = (hi >> (skip * 8)) | (lo << (64 - skip * 8));
	memcpy(p, &hi, 8);
	w = skip ? lo >> (skip * 8) : lo;
	memcpy(p + 8, &w, 8);
	return p + n;
}

/*
 * Unsigned decimal, or hex after 0x/0X: reads digits while it can.  False
 * when there were none or the value overflows 64 bits; else *out is the
 * value and *end the first byte not read (the caller judges what follows).
 */
bool pp_parse_u64(const char *s, uint64_t *out, const char **end);

/*
 * A whole number: decimal or 0x hex (pp_parse_u64), with suffix a K, M or
 * G after it (binary: 2^10, 2^20, 2^30, either case), nothing else after.
 * The one size parser of the app's size= and pebs-kernels' --size.
 */
enum pp_num {
	PP_NUM_OK,
	PP_NUM_BAD,   /* not a number (no digits, or other text after them) */
	PP_NUM_RANGE, /* a number past 64 bits, before or after its suffix */
};
enum pp_num pp_parse_num(const char *s, bool suffix, uint64_t *out);

/*
 * Levenshtein's edit distance between two words of at most PP_EDIT_MAX
 * characters (~0u when longer): for a did-you-mean.
 */
#define PP_EDIT_MAX    32
#define PP_NEAREST_MAX 2
/* Whether d edits from a word of len characters is near enough: at most 2, a third of it. */
#define PP_NEAR(d, len) ((d) <= PP_NEAREST_MAX && 3 * (d) <= (len))
unsigned int pp_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
