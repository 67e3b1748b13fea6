// SPDX-License-Identifier: MIT
/* test_lib_json.c - the JSON writer: commas, nesting, the escaping rule, overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/json.h"

static void test_nesting_and_commas(void **state)
{
	char buf[512];
	struct json_out j;
	size_t n;

	json_init(&j, buf, sizeof(buf));
	json_begin_object(&j, NULL);
	json_u64(&j, "a", 1);
	json_str(&j, "b", "x");
	json_begin_array(&j, "c");
	json_u64(&j, NULL, 18446744073709551615ULL);
	json_begin_array(&j, NULL);
	json_end_array(&j);
	json_begin_object(&j, NULL);
	json_bool(&j, "t", true);
	json_null(&j, "n");
	json_end_object(&j);
	json_end_array(&j);
	json_begin_object(&j, "e");
	json_end_object(&j);
	json_end_object(&j);
	n = json_finish(&j);
	assert_string_equal(buf, "{\"a\":1,\"b\":\"x\",\"c\":[18446744073709551615,[],{\"t\":true,"
				 "\"n\":null}],\"e\":{}}\n");
	assert_int_equal(n, strlen(buf));
}

static void test_escapes(void **state)
{
	char buf[128];
	struct json_out j;

	json_init(&j, buf, sizeof(buf));
	json_str(&j, NULL, "q\"b\\n\nt\t\x01\xc3");
	assert_int_not_equal(json_finish(&j), 0);
	assert_string_equal(buf, "\"q\\\"b\\\\n\\u000at\\u0009\\u0001\\u00c3\"\n");
}

/* The one escaping rule, as the decoder's JSON Lines use it: plain runs, DEL, NULL. */
static void test_put_string(void **state)
{
	char buf[64];
	struct strbuf sb;

	strbuf_init(&sb, buf, sizeof(buf));
	json_put_string(&sb, "L3 hit");
	json_put_string(&sb, "a\x7f\"");
	json_put_string(&sb, NULL);
	assert_false(sb.truncated);
	assert_string_equal(buf, "\"L3 hit\"\"a\\u007f\\\"\"\"\"");

	/* Cut mid-escape: still a string, and said to be cut. */
	strbuf_init(&sb, buf, 6);
	json_put_string(&sb, "\x01\x02");
	assert_true(sb.truncated);
	assert_int_equal(strlen(buf), 5);
}

static void test_overflow_and_unbalanced(void **state)
{
	char buf[16];
	struct json_out j;

	json_init(&j, buf, sizeof(buf));
	json_begin_object(&j, NULL);
	json_str(&j, "key", "a value longer than the buffer");
	json_end_object(&j);
	/* Cut JSON is never handed out as complete. */
	assert_int_equal(json_finish(&j), 0);

	json_init(&j, buf, sizeof(buf));
	json_begin_array(&j, NULL);
	assert_int_equal(json_finish(&j), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nesting_and_commas),
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_put_string),
	    cmocka_unit_test(test_overflow_and_unbalanced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
