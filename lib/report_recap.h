/* SPDX-License-Identifier: MIT */
/*
 * report_recap.h - the RECAP lines report_result() prints (lib/report.c).
 */
#ifndef PP_LIB_REPORT_RECAP_H
#define PP_LIB_REPORT_RECAP_H

#include "report.h"

/*
 * The RECAP lines of one kind (`word` names it) from the verdict log,
 * "name@cpuN" where verdicts came from several CPUs, each name once, at
 * most `budget` lines, the last one saying how many of `total` were left
 * out; returns the lines printed.
 */
unsigned int report_recap(enum report_kind kind, const char *word, unsigned int total,
			  unsigned int budget);

#endif
