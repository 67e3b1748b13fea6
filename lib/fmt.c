// SPDX-License-Identifier: MIT
/*
 * fmt.c - vsnprintf for the freestanding units (see fmt.h).
 */
#include "fmt.h"

struct out {
	char *buf;
	size_t size;
	size_t pos;
};

static void put(struct out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8 };

static void put_number(struct out *o, unsigned long long v, bool neg, unsigned base, bool upper,
		       int flags, int width, int prec)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, len, zeros = 0;
	char sign = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;
	if (neg)
		sign = '-';
	else if (flags & F_PLUS)
		sign = '+';
	else if (flags & F_SPACE)
		sign = ' ';
	if (prec > n)
		zeros = prec - n;
	len = n + zeros + (sign ? 1 : 0);
	if ((flags & F_ZERO) && !(flags & F_LEFT) && prec < 0 && width > len) {
		zeros += width - len;
		len = width;
	}
	if (!(flags & F_LEFT))
		pad(o, ' ', width - len);
	if (sign)
		put(o, sign);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (flags & F_LEFT)
		pad(o, ' ', width - len);
}

int pp_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {buf, size, 0};

	for (; *fmt; fmt++) {
		int flags = 0, width = 0, prec = -1, lng = 0;
		unsigned long long u;
		long long s;
		const char *str;
		int n;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;;) {
			char c = *++fmt;

			if (c == '-')
				flags |= F_LEFT;
			else if (c == '0')
				flags |= F_ZERO;
			else if (c == '+')
				flags |= F_PLUS;
			else if (c == ' ')
				flags |= F_SPACE;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flags |= F_LEFT;
				width = -width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + (*fmt++ - '0');
			}
		}
		/* lng: -2 hh, -1 h, 0 int, 1 long, 2 long long (z, j, t count as 2). */
		for (;; fmt++) {
			if (*fmt == 'h')
				lng--;
			else if (*fmt == 'l')
				lng++;
			else if (*fmt == 'z' || *fmt == 'j' || *fmt == 't')
				lng = 2;
			else
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng >= 2)
				s = va_arg(ap, long long);
			else if (lng == 1)
				s = va_arg(ap, long);
			else
				s = va_arg(ap, int);
			if (lng == -1)
				s = (short)s;
			else if (lng <= -2)
				s = (signed char)s;
			u = s < 0 ? -(unsigned long long)s : (unsigned long long)s;
			put_number(&o, u, s < 0, 10, false, flags, width, prec);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			put_number(&o, u, false,
				   *fmt == 'u'	 ? 10
				   : *fmt == 'o' ? 8
						 : 16,
				   *fmt == 'X', flags & ~(F_PLUS | F_SPACE), width, prec);
			break;
		case 'p':
			put(&o, '0');
			put(&o, 'x');
			put_number(&o, (uintptr_t)va_arg(ap, void *), false, 16, false, 0, 0, -1);
			break;
		case 'c':
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - 1);
			put(&o, (char)va_arg(ap, int));
			if (flags & F_LEFT)
				pad(&o, ' ', width - 1);
			break;
		case 's':
			str = va_arg(ap, const char *);
			if (!str)
				str = "(null)";
			for (n = 0; str[n] && (prec < 0 || n < prec); n++)
				;
			if (!(flags & F_LEFT))
				pad(&o, ' ', width - n);
			for (int i = 0; i < n; i++)
				put(&o, str[i]);
			if (flags & F_LEFT)
				pad(&o, ' ', width - n);
			break;
		case '%':
			put(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			put(&o, '%');
			put(&o, *fmt);
			break;
		}
	}
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return (int)o.pos;
}

int pp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = pp_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void strbuf_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->len = 0;
	sb->truncated = false;
	if (size)
		buf[0] = '\0';
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	size_t room = sb->size > sb->len ? sb->size - sb->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = pp_vsnprintf(sb->buf + sb->len, room, fmt, ap);
	va_end(ap);
	if ((size_t)n >= room) {
		sb->truncated = true;
		sb->len = room ? sb->size - 1 : sb->len;
	} else {
		sb->len += n;
	}
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
	strbuf_put(sb, s, strlen(s));
}

/* "00" .. "99": two decimal digits per table read. */
#define DEC10(d) d "0" d "1" d "2" d "3" d "4" d "5" d "6" d "7" d "8" d "9"
#define HEX16(h)                                                                                   \
	h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" h "8" h "9" h "a" h "b" h "c" h "d" h      \
	  "e" h "f"
static const char dec_pairs[] = DEC10("0") DEC10("1") DEC10("2") DEC10("3") DEC10("4") DEC10("5")
    DEC10("6") DEC10("7") DEC10("8") DEC10("9");

static const uint64_t pow10_u64[20] = {
    1ull,
    10ull,
    100ull,
    1000ull,
    10000ull,
    100000ull,
    1000000ull,
    10000000ull,
    100000000ull,
    1000000000ull,
    10000000000ull,
    100000000000ull,
    1000000000000ull,
    10000000000000ull,
    100000000000000ull,
    1000000000000000ull,
    10000000000000000ull,
    100000000000000000ull,
    1000000000000000000ull,
    10000000000000000000ull,
};

char *fmt_dec(char *p, uint64_t v)
{
	/* digits: log10 from the bit length (1233 / 4096 ~ log10(2)), corrected by one compare */
	unsigned int t = ((64u - (unsigned int)__builtin_clzll(v | 1)) * 1233u) >> 12;
	unsigned int n = v < 10 ? 1 : t + 1 - (v < pow10_u64[t]);
	char *q = p + n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, dec_pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, dec_pairs + v * 2, 2);
	} else {
		*--q = (char)('0' + v);
	}
	return p + n;
}

/* Two hex digits per byte value, the table behind fmt_hex() (fmt.h). */
#define HEX16(h)                                                                                   \
	h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" h "8" h "9" h "a" h "b" h "c" h "d" h      \
	  "e" h "f"
const char fmt_hex_pairs[513] =
    HEX16("0") HEX16("1") HEX16("2") HEX16("3") HEX16("4") HEX16("5") HEX16("6") HEX16("7")
	HEX16("8") HEX16("9") HEX16("a") HEX16("b") HEX16("c") HEX16("d") HEX16("e") HEX16("f");
#undef HEX16

void strbuf_put_dec(struct strbuf *sb, uint64_t v)
{
	char tmp[FMT_DEC_MAX];

	strbuf_put(sb, tmp, (size_t)(fmt_dec(tmp, v) - tmp));
}

void strbuf_put_hex(struct strbuf *sb, uint64_t v)
{
	char tmp[FMT_HEX_MAX];

	strbuf_put(sb, tmp, (size_t)(fmt_hex(tmp, v) - tmp));
}

/* Shared by the option parser (app/options.c) and the event parser (pmu/event.c). */
bool pp_parse_u64(const char *s, uint64_t *out, const char **end)
{
	unsigned int base = 10;
	uint64_t v = 0;
	bool any = false;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (v > (~0ULL - d) / base)
			return false;
		v = v * base + d;
		any = true;
	}
	*out = v;
	*end = s;
	return any;
}

enum pp_num pp_parse_num(const char *s, bool suffix, uint64_t *out)
{
	static const struct {
		char c;
		unsigned int shift;
	} suffixes[] = {{'k', 10}, {'K', 10}, {'m', 20}, {'M', 20}, {'g', 30}, {'G', 30}};
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned int shift = 0;
	const char *end;
	bool big = false;

	if (!pp_parse_u64(s, out, &end)) {
		/* Digits that overflow 64 bits are a number, out of range. */
		for (end = s + 2 * hex;
		     (*end >= '0' && *end <= '9') ||
		     (hex && ((*end >= 'a' && *end <= 'f') || (*end >= 'A' && *end <= 'F')));
		     end++)
			;
		if (end == s + 2 * hex)
			return PP_NUM_BAD;
		big = true;
	}
	for (size_t i = 0; suffix && *end && i < ARRAY_SIZE(suffixes); i++) {
		if (*end == suffixes[i].c) {
			shift = suffixes[i].shift;
			end++;
			break;
		}
	}
	if (*end)
		return PP_NUM_BAD;
	if (big || *out > (~0ULL >> shift))
		return PP_NUM_RANGE;
	*out <<= shift;
	return PP_NUM_OK;
}

unsigned int pp_edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned int row[PP_EDIT_MAX + 1];

	if (alen > PP_EDIT_MAX || blen > PP_EDIT_MAX)
		return ~0u;
	/* Levenshtein's distance, one row of the table at a time (Wagner-Fischer). */
	for (size_t j = 0; j <= blen; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= alen; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= blen; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[blen];
}
