// SPDX-License-Identifier: MIT
/*
 * test_lib_logbuf.c - the log file's write policy: progress lines wait,
 * a verdict writes everything before it, a full buffer writes whole lines,
 * a wrapped line (pieces joined by newlines) counts once, by its start,
 * and what reached the writer is always a prefix of the lines given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/logbuf.h"

static char disk[1 << 16]; /* what the writer received, in order */
static size_t disk_len;
static unsigned int writes;

static void to_disk(const char *buf, size_t len, void *ctx)
{
	assert_ptr_equal(ctx, disk);
	assert_true(disk_len + len <= sizeof(disk));
	memcpy(disk + disk_len, buf, len);
	disk_len += len;
	writes++;
}

static struct logbuf lb;
static char given[1 << 16]; /* every line given, with its newline */
static size_t given_len;

static void line(const char *s)
{
	logbuf_line(&lb, s, strlen(s));
	memcpy(given + given_len, s, strlen(s));
	given_len += strlen(s);
	given[given_len++] = '\n';
	/* never a partial line, never anything not given, never out of order */
	assert_true(disk_len <= given_len);
	assert_memory_equal(disk, given, disk_len);
	assert_true(disk_len == 0 || disk[disk_len - 1] == '\n');
}

static void reset(void)
{
	disk_len = given_len = 0;
	writes = 0;
	logbuf_init(&lb, to_disk, disk);
}

/* A hang after a verdict loses nothing up to it: the verdict wrote all before it. */
static void test_verdicts_write_through(void **state)
{
	static const char *const urgent[] = {
	    "PASS: a",		 "FAIL: b: why",
	    "SKIP: c: why",	 "SUMMARY: 3 tests, 1 failures, 1 skipped",
	    "ERROR: bad option", "WARNING: x"};

	reset();
	for (size_t i = 0; i < sizeof(urgent) / sizeof(urgent[0]); i++) {
		line("INFO: progress");
		line("REC: offset=0x0");
		line("MSR: wrmsr 0x3f1 0x1");
		assert_int_equal(writes, i); /* progress waits */
		line(urgent[i]);
		assert_int_equal(writes, i + 1); /* one write for all of it */
		assert_int_equal(disk_len, given_len);
	}
}

/* Progress alone: written in whole lines when the buffer fills, the rest at flush. */
static void test_full_buffer_and_flush(void **state)
{
	char l[200];

	reset();
	for (unsigned int i = 0; i < 100; i++) {
		snprintf(l, sizeof(l), "INFO: line %u %0120u", i, i);
		line(l);
	}
	assert_true(writes >= 3);
	assert_true(given_len - disk_len < LOGBUF_SIZE);
	logbuf_flush(&lb);
	assert_int_equal(disk_len, given_len);
	assert_memory_equal(disk, given, given_len);
	logbuf_flush(&lb); /* nothing left: no empty write */
	assert_int_equal(disk_len, given_len);
}

/*
 * A line wrapped for the screen comes as its pieces joined by newlines
 * (efi/console.c): the start decides for all of them.  Each case: the
 * wrapped line, and the writes it makes after a progress line waits.
 */
static void test_wrapped_line_once(void **state)
{
	static const struct {
		const char *line;
		unsigned int writes;
	} cases[] = {
	    {"INFO: kernel x: start: a long line\n    that wrapped\n    twice", 0},
	    {"PASS: chase-l1/load: L1 hits 100.0%\n    (187 of 187); +5 more [sim]", 1},
	    {"FAIL: x/load: why\n    more why\n    and more", 1},
	    {"INFO: a\n    PASS: not a verdict, a piece of the INFO line", 0},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset();
		line("INFO: waiting");
		line(cases[i].line);
		assert_int_equal(writes, cases[i].writes);
		if (cases[i].writes) /* the whole line, every piece, in that one write */
			assert_int_equal(disk_len, given_len);
	}
}

/* "INFO:" without its space, or a short line, is no progress line. */
static void test_prefix_exact(void **state)
{
	reset();
	line("INFO:");
	assert_int_equal(writes, 1);
	line("INF");
	assert_int_equal(writes, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verdicts_write_through),
	    cmocka_unit_test(test_full_buffer_and_flush),
	    cmocka_unit_test(test_wrapped_line_once),
	    cmocka_unit_test(test_prefix_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
