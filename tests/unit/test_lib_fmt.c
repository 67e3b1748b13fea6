// SPDX-License-Identifier: MIT
/* test_lib_fmt.c - pp_vsnprintf against the C library's snprintf; the strbuf appenders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "lib/fmt.h"

#define SAME(...)                                                                                  \
	do {                                                                                       \
		char want[128], got[128];                                                          \
		int nw = snprintf(want, sizeof(want), __VA_ARGS__);                                \
		int ng = pp_snprintf(got, sizeof(got), __VA_ARGS__);                               \
		assert_string_equal(got, want);                                                    \
		assert_int_equal(ng, nw);                                                          \
	} while (0)

static void test_integers(void **state)
{
	SAME("%d %i %u", -42, 7, 4000000000u);
	SAME("%x %X %08x %-6x|", 0xbeefu, 0xbeefu, 0x12u, 0xau);
	SAME("%llx %lld %llu", 0xffffffffffffffffull, -9223372036854775807ll - 1,
	     18446744073709551615ull);
	SAME("%lu %zu %ld", 123456789ul, (size_t)99, -5l);
	SAME("%5d|%-5d|%05d|%+d|% d", 42, 42, -42, 3, 3);
	SAME("%.3d %.0d %hhu %hd", 7, 0, 300, 70000);
}

static void test_strings(void **state)
{
	SAME("%s|%10s|%-10s|%.2s|%c|%%", "abc", "right", "left", "trunc", 'z');
	SAME("%*d|%-*s|%.*s", 6, 12, 4, "ab", 3, "abcdef");
}

static void test_truncation(void **state)
{
	char buf[8];
	int n = pp_snprintf(buf, sizeof(buf), "%s", "0123456789");

	assert_int_equal(n, 10);
	assert_string_equal(buf, "0123456");
	assert_int_equal(pp_snprintf(NULL, 0, "%d", 12345), 5);
}

static void test_strbuf(void **state)
{
	char buf[10];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_printf(&sb, "%d-", 12);
	strbuf_puts(&sb, "ab");
	assert_string_equal(buf, "12-ab");
	assert_false(sb.truncated);
	strbuf_puts(&sb, "cdefgh");
	assert_true(sb.truncated);
	assert_string_equal(buf, "12-abcdef");
}

/*
 * A cut string is still a string: strbuf_puts ends it with a NUL at the end
 * of the buffer, so a report line longer than REPORT_LINE_MAX reaches the
 * console cut, not unterminated.
 */
static void test_strbuf_cut_is_terminated(void **state)
{
	char buf[8];
	struct strbuf sb;

	memset(buf, 'X', sizeof(buf));
	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_puts(&sb, "abcdefghij");
	assert_true(sb.truncated);
	assert_int_equal(sb.len, 7);
	assert_string_equal(buf, "abcdefg");

	memset(buf, 'X', sizeof(buf));
	strbuf_init(&sb, buf, sizeof(buf));
	strbuf_put(&sb, "0123456789", 10);
	assert_true(sb.truncated);
	assert_string_equal(buf, "0123456");
}

/* The appenders of the hot paths write what pp_snprintf writes. */
static void test_strbuf_numbers(void **state)
{
	static const uint64_t v[] = {0,
				     9,
				     10,
				     0xabcdef,
				     0xffffffffffffffffull,
				     1234567890123ull,
				     0xf,
				     0x10,
				     0xff,
				     0x100,
				     99,
				     100,
				     1000,
				     1ull << 63,
				     10000000000000000000ull};
	char buf[64], want[64];
	struct strbuf sb;

	/* every digit count, both bases (fmt_dec/fmt_hex write two digits at a time) */
	for (uint64_t p = 1, q = 1; p; p = p * 10 < p ? 0 : p * 10, q = q << 4) {
		char *e;

		e = fmt_dec(buf, p - 1);
		*e = '\0';
		snprintf(want, sizeof(want), "%llu", (unsigned long long)(p - 1));
		assert_string_equal(buf, want);
		e = fmt_hex(buf, q - 1 ? q - 1 : ~0ull);
		*e = '\0';
		snprintf(want, sizeof(want), "0x%llx", (unsigned long long)(q - 1 ? q - 1 : ~0ull));
		assert_string_equal(buf, want);
	}
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		strbuf_init(&sb, buf, sizeof(buf));
		strbuf_put_dec(&sb, v[i]);
		strbuf_put(&sb, " ", 1);
		strbuf_put_hex(&sb, v[i]);
		snprintf(want, sizeof(want), "%llu 0x%llx", (unsigned long long)v[i],
			 (unsigned long long)v[i]);
		assert_string_equal(buf, want);
	}
}

/*
 * fmt_hex's table: every byte value in every digit position, and each bit
 * length with random low bits, against printf.
 */
static void test_fmt_hex_table(void **state)
{
	char buf[FMT_HEX_MAX + 1], want[32];
	uint64_t x = 0x243f6a8885a308d3ULL;

	(void)state;
	for (unsigned int pos = 0; pos < 64; pos += 4)
		for (uint64_t b = 0; b < 256; b++) {
			uint64_t v = b << pos | (pos ? 1 : 0);

			*fmt_hex(buf, v) = '\0';
			snprintf(want, sizeof(want), "0x%llx", (unsigned long long)v);
			assert_string_equal(buf, want);
		}
	for (unsigned int bits = 1; bits <= 64; bits++)
		for (unsigned int i = 0; i < 64; i++) {
			uint64_t v;

			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			v = (x >> (64 - bits)) | (1ULL << (bits - 1));
			*fmt_hex(buf, v) = '\0';
			snprintf(want, sizeof(want), "0x%llx", (unsigned long long)v);
			assert_string_equal(buf, want);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integers),
	    cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_strbuf),
	    cmocka_unit_test(test_strbuf_cut_is_terminated),
	    cmocka_unit_test(test_strbuf_numbers),
	    cmocka_unit_test(test_fmt_hex_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
