// SPDX-License-Identifier: MIT
/* test_fmt.c - pp_vsnprintf against the C library's snprintf. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integers),
	    cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_strbuf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
