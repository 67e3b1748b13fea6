/* SPDX-License-Identifier: MIT */
/*
 * job.h - the main job: every kernel that applies to this CPU,
 * sampled with PEBS, a verdict per kernel, records on the console, results
 * and raw dumps on the ESP.  Called by app/app.c once the backend is
 * installed and the capability report printed.
 */
#ifndef PP_JOB_H
#define PP_JOB_H

#include "../app/options.h"
#include "../pmu/cpu.h"

/* Reports PASS/FAIL/SKIP lines through lib/report.h; the caller prints SUMMARY. */
void runner_main_job(const struct options *opts, const struct cpu_info *ci);

#endif
