// SPDX-License-Identifier: MIT
/*
 * test_app_sources.c - app/options_sources.c: the config file, then
 * LoadOptions (docs/OPTIONS.md "Where options come from").  A refusal in
 * either source stops no option around it: the first refusal is the one
 * error, and exit= and pause= land wherever they were written, so a
 * refused run still ends as asked (a UEFI Shell script gets its status).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "app/options.h"

#define CFG "\\EFI\\BOOT\\PEBSPROBE.CFG"

struct src_case {
	const char *name;
	const char *config;	/* the file's text; NULL: no file */
	const char *unreadable; /* why the file could not be read, or NULL */
	const char *loadopts;	/* as UTF-16LE; NULL: none */
	int rc;
	const char *error; /* the start of the error, or NULL */
	enum opt_exit exit_mode;
	uint32_t pause;
};

#define RET  OPT_EXIT_RETURN
#define SHUT OPT_EXIT_SHUTDOWN

/* clang-format off */
static const struct src_case cases[] = {
	{"both-good",      "pause=5\n", NULL, "a.efi exit=return", 0, NULL, RET, 5},
	{"loadopts-win",   "pause=5\n", NULL, "pause=7", 0, NULL, SHUT, 7},
	{"cfg-bad-line",   "kernels=bogus\n", NULL, "a.efi exit=return pause=0", -1,
	 CFG ": config line 1: ", RET, 0},
	{"cfg-bad-middle", "ldlat=2\npause=9\nexit=return\n", NULL, NULL, -1,
	 CFG ": config line 1: option ldlat", RET, 9},
	{"cfg-bad-byte",   "pmu=\x1b\nexit=return\n", NULL, "pause=0", -1,
	 CFG ": config line 1: not plain ASCII", RET, 0},
	{"cfg-two-bad",    "ldlat=2\nbogus=1\n", NULL, "exit=return", -1,
	 CFG ": config line 1: option ldlat", RET, 60},
	{"both-bad",       "ldlat=2\n", NULL, "bogus=1 exit=return", -1,
	 CFG ": config line 1: option ldlat", RET, 60},
	{"loadopts-bad",   "pause=5\n", NULL, "bogus=1 exit=return", -1,
	 "unknown option 'bogus'", RET, 5},
	{"unreadable",     NULL, "device error", "exit=return pause=0", -1,
	 "config file " CFG ": unreadable (device error)", RET, 0},
	{"utf16",          "\xff\xfe" "e\0", NULL, "exit=return", -1,
	 CFG ": config line 1: UTF-16 text", RET, 60},
};
/* clang-format on */

static size_t to_ucs2(const char *s, uint16_t *w)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		w[i] = (uint8_t)s[i];
	return n * sizeof(*w);
}

static void order_and_refusals(void **state)
{
	static char line[OPT_LINE_MAX + 1];
	static uint16_t w[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct src_case *c = &cases[i];
		struct options_sources s = {.config_path = CFG, .config_unreadable = c->unreadable};
		struct options o;
		char err[512] = "";
		bool ignored;
		int rc;

		if (c->config) {
			s.config_text = c->config;
			/* The UTF-16 row's text holds NULs: its length is its 4 bytes. */
			s.config_len = strcmp(c->name, "utf16") ? strlen(c->config) : 4;
		}
		if (c->loadopts) {
			s.loadopts = w;
			s.loadopts_bytes = to_ucs2(c->loadopts, w);
		}
		options_defaults(&o);
		rc = options_read_sources(&o, &s, line, sizeof(line), &ignored, err, sizeof(err));
		if (rc != c->rc || o.exit_mode != c->exit_mode || o.pause != c->pause ||
		    (c->error ? strncmp(err, c->error, strlen(c->error)) : !!err[0]))
			fail_msg("%s: rc %d exit %d pause %u err '%s'; want rc %d exit %d pause "
				 "%u err '%s...'",
				 c->name, rc, (int)o.exit_mode, o.pause, err, c->rc,
				 (int)c->exit_mode, c->pause, c->error ? c->error : "");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(order_and_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
