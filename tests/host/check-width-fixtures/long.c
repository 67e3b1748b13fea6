// SPDX-License-Identifier: MIT
/* check-width.sh fixture: one line too long at its widest, one that fits. */
#include "lib/report.h"

void fixture_long(unsigned int n)
{
	report_info("short: %u", n);
	report_info("a fixed text long enough that its widest count %u runs past the edge", n);
}
