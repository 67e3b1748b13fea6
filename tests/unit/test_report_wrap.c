// SPDX-License-Identifier: MIT
/*
 * test_report_wrap.c - a line longer than the screen in pieces (lib/report.h
 * report_wrap): each piece within the width, continuations indented, a
 * simulated line's " [sim]" once, at the end of its last piece, and the
 * pieces rejoined (tests/qemu/join.sh's rule) give the line back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/report.h"

static char pieces[8][REPORT_LINE_MAX + 16];
static unsigned int n_pieces;

static void keep(const char *piece, void *ctx)
{
	(void)ctx;
	if (n_pieces < 8)
		snprintf(pieces[n_pieces], sizeof(pieces[0]), "%s", piece);
	n_pieces++;
}

#define A70 "aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaa aaaaaa"
#define B60 "bbbb bbbb bbbb bbbb bbbb bbbb bbbb bbbb bbbb bbbb bbbb bbbb "

// clang-format off
static const struct {
	const char *name, *line;
	unsigned int pieces;
	const char *last; /* the last piece */
} cases[] = {
    {"fits", "PASS: k/load: short [sim]", 1, "PASS: k/load: short [sim]"},
    {"two pieces, the mark once", "FAIL: k/load: " A70 " tail [sim]", 2, "    aaaaaa tail [sim]"},
    /* 78 characters of text: fits but for the mark, which goes on with its last word. */
    {"fits but for the mark", "PASS: k/load: " B60 "xyzw [sim]", 2, "    xyzw [sim]"},
    {"unmarked", "FAIL: k/load: " A70 " tail", 2, "    aaaaaa tail"},
};
// clang-format on

static void wrap_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char joined[2 * REPORT_LINE_MAX] = "";
		unsigned int marks = 0;

		n_pieces = 0;
		report_wrap(cases[i].line, REPORT_WIDTH, keep, NULL);
		for (unsigned int p = 0; p < n_pieces; p++) {
			const char *text = pieces[p];

			printf("# %s: '%s'\n", cases[i].name, text);
			if (strlen(text) > REPORT_WIDTH)
				fail_msg("%s: piece %u wider than %u", cases[i].name, p,
					 REPORT_WIDTH);
			marks += strstr(text, "[sim]") != NULL;
			if (p) {
				assert_int_equal(strncmp(text, REPORT_WRAP_INDENT, 4), 0);
				text += 4;
				strcat(joined, " ");
			}
			strcat(joined, text);
		}
		assert_int_equal(n_pieces, cases[i].pieces);
		assert_int_equal(marks, strstr(cases[i].line, "[sim]") ? 1 : 0);
		assert_string_equal(pieces[n_pieces - 1], cases[i].last);
		assert_string_equal(joined, cases[i].line);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(wrap_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
