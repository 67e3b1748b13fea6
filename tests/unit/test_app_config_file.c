// SPDX-License-Identifier: MIT
/*
 * test_app_config_file.c - the PEBSPROBE.CFG the images ship
 * (efi/pebsprobe.cfg, all comments): each "#   name=value" line it shows
 * is an option the app takes, at its default (so uncommenting one changes
 * nothing until it is edited), and it shows the options a bench needs:
 * cpus, kernels, pause, cpu-timeout.  Run from the repository's root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "app/options.h"

static const char *const needed[] = {"pmu",	"exit",	 "log",	       "cpus",
				     "kernels", "pause", "cpu-timeout"};

static void shows_defaults(void **state)
{
	FILE *f = fopen("efi/pebsprobe.cfg", "r");
	char line[256], defaults[OPTIONS_TEXT_MAX];
	bool seen[sizeof(needed) / sizeof(needed[0])] = {false};
	struct options o;

	(void)state;
	assert_non_null(f);
	options_defaults(&o);
	options_format(&o, defaults, sizeof(defaults));
	while (fgets(line, sizeof(line), f)) {
		char tok[128], err[256], after[OPTIONS_TEXT_MAX];
		const char *eq;

		/* "#   name=value  words": a token with '=' after the comment's indent. */
		if (strncmp(line, "#   ", 4) || line[4] == ' ' ||
		    sscanf(line + 4, "%127s", tok) != 1 || !(eq = strchr(tok, '=')))
			continue;
		options_defaults(&o);
		if (options_parse_line(&o, tok, false, err, sizeof(err)))
			fail_msg("efi/pebsprobe.cfg shows '%s', which is refused: %s", tok, err);
		options_format(&o, after, sizeof(after));
		if (strcmp(after, defaults))
			fail_msg("efi/pebsprobe.cfg shows '%s', not the default", tok);
		for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
			seen[i] |= strlen(needed[i]) == (size_t)(eq - tok) &&
				   !strncmp(tok, needed[i], (size_t)(eq - tok));
	}
	fclose(f);
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
		if (!seen[i])
			fail_msg("efi/pebsprobe.cfg does not show %s=", needed[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(shows_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
