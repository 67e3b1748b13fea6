// SPDX-License-Identifier: MIT
/*
 * check-width.sh fixture: a line made wide by an argument from elsewhere: a
 * caller's literal passed down as a parameter, and a wrapper's format.
 */
#include "lib/report.h"
#include "lib/fmt.h"

static void say(const char *what)
{
	report_info("said: %s", what);
}

static void skip_it(const char *fmt, ...) pp_printf(1, 2);
static void skip_it(const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	report_skip("fixture", "%s", why);
}

void fixture_via(unsigned long long n)
{
	say("fits");
	say("a caller's literal that is far too long for one console line of eighty");
	skip_it("fits: %u", 1u);
	skip_it("a wrapper's format with a count %llu and a count %llu", n, n);
}
