// SPDX-License-Identifier: MIT
/*
 * test_app_loadopts.c - app/loadopts.c: the image's LoadOptions as UTF-16LE
 * bytes into the options, one row per case (docs/OPTIONS.md "LoadOptions"):
 * the text parsed, ignored or refused, and the one ERROR line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/loadopts.h"

#define CFG "\\EFI\\BOOT\\PEBSPROBE.CFG"

struct lo_case {
	const char *name;
	const char *text;  /* as UTF-16LE; '\x01' stands for U+00E9, '\x02' for the BOM */
	size_t cut;	   /* bytes dropped from the end (an odd length) */
	int rc;		   /* loadopts_parse's */
	bool ignored;	   /* not text: ignored whole */
	const char *line;  /* the text parsed, for the log */
	const char *error; /* a substring of the ERROR line, or NULL */
	uint32_t ldlat;	   /* as parsed (the default is 3) */
};

/* clang-format off */
static const struct lo_case cases[] = {
	{"shell",     "pebsprobe.efi ldlat=60", 0, 0, false, "pebsprobe.efi ldlat=60", NULL, 60},
	{"bom",       "\x02ldlat=61", 0, 0, false, "ldlat=61", NULL, 61},
	{"tabs",      "a.efi\tldlat=62\r\n", 0, 0, false, "a.efi ldlat=62  ", NULL, 62},
	{"nul-ends",  "ldlat=63\0ldlat=64", 0, 0, false, "ldlat=63", NULL, 63},
	{"odd",       "ldlat=65", 1, 0, false, "ldlat=6", NULL, 6},
	{"empty",     "", 0, 0, false, "", NULL, 3},
	{"not-text",  "ldlat=66 \x01", 0, 0, true, "", NULL, 3},
	{"bad-value", "a.efi ldlat=2", 0, -1, false, "a.efi ldlat=2", "option ldlat", 3},
};
/* clang-format on */

static size_t to_ucs2(const char *s, size_t n, uint16_t *w)
{
	for (size_t i = 0; i < n; i++)
		w[i] = s[i] == '\x01' ? 0xe9 : s[i] == '\x02' ? 0xfeff : (uint8_t)s[i];
	return n * sizeof(*w);
}

static void test_cases(void **state)
{
	static uint16_t w[64];
	static char line[LOADOPTS_MAX + 1];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct lo_case *c = &cases[i];
		/* The text's length, past an embedded NUL (nul-ends). */
		size_t n = strlen(c->text) + (strcmp(c->name, "nul-ends") ? 0 : 9);
		size_t bytes = to_ucs2(c->text, n, w) - c->cut;
		struct options o;
		char err[256] = "";
		bool ignored;
		int rc;

		options_defaults(&o);
		rc = loadopts_parse(&o, w, bytes, CFG, line, sizeof(line), &ignored, err,
				    sizeof(err));
		if (rc != c->rc || ignored != c->ignored || strcmp(line, c->line) ||
		    o.job.ldlat != c->ldlat || (c->error ? !strstr(err, c->error) : !!err[0]))
			fail_msg("%s: rc %d ignored %d line '%s' ldlat %u err '%s'", c->name, rc,
				 ignored, line, o.job.ldlat, err);
	}
}

/* Longer than LOADOPTS_MAX characters: refused with its length and the limit, not cut. */
static void test_too_long(void **state)
{
	static uint16_t w[LOADOPTS_MAX + 8];
	static char line[LOADOPTS_MAX + 1];
	struct options o;
	char err[256], want[160];
	bool ignored;

	for (size_t i = 0; i < LOADOPTS_MAX + 8; i++)
		w[i] = 'v';
	options_defaults(&o);
	assert_int_equal(
	    loadopts_parse(&o, w, sizeof(w), CFG, line, sizeof(line), &ignored, err, sizeof(err)),
	    -1);
	snprintf(want, sizeof(want), "LoadOptions: %d characters, longer than the %d accepted",
		 LOADOPTS_MAX + 8, LOADOPTS_MAX);
	if (!strstr(err, want) || !strstr(err, CFG))
		fail_msg("got '%s', want '%s' and the config file's name", err, want);
	assert_string_equal(line, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases),
	    cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
