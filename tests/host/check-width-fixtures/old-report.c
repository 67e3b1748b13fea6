// SPDX-License-Identifier: MIT
/*
 * check-width.sh fixture: lib/report.c's held-back line before it was
 * shortened (issue: "INFO: 1 lines from the measured CPU, held back until
 * now (no firmware call there): [sim]" in a per-CPU run), with a caller.
 */
#include "lib/report.h"

size_t fixture_flush(const char *from)
{
	size_t n = 1;

	report_info("%zu lines from %s, held back until now (no firmware call there):", n,
		    from ? from : "code that may not call firmware");
	return n;
}

void fixture_caller(void)
{
	fixture_flush("the measured CPU");
}
