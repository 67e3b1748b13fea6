/* SPDX-License-Identifier: MIT */
/*
 * test_options.h - options set as a user gives them: the token through
 * the app's parser (app/options.h), so a test never writes a typed field
 * by hand.  Header-only, for the tests that run the job.
 */
#ifndef PP_TEST_OPTIONS_H
#define PP_TEST_OPTIONS_H

#include <cmocka.h>

#include "app/options.h"
#include "lib/report.h"

/* One line of name=value tokens into o; the test fails when it is refused. */
static inline void test_option(struct options *o, const char *line)
{
	char err[REPORT_LINE_MAX];

	if (options_parse_line(o, line, false, err, sizeof(err)))
		fail_msg("options '%s' refused: %s", line, err);
}

#endif
