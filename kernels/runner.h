/* SPDX-License-Identifier: MIT */
/*
 * runner.h - the main job (issue 6): every kernel that applies to this CPU,
 * sampled with PEBS, a verdict per kernel, records on the console, results
 * and raw dumps on the ESP.  Called by app/app.c once the backend is
 * installed and the capability report printed.
 * Owner: kernels/.
 */
#ifndef PP_RUNNER_H
#define PP_RUNNER_H

#include "../app/options.h"
#include "../pmu/cpu.h"

/* Reports PASS/FAIL/SKIP lines through lib/report.h; the caller prints SUMMARY. */
void runner_main_job(const struct options *opts, const struct cpu_info *ci);

#endif
