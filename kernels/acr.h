/* SPDX-License-Identifier: MIT */
/*
 * acr.h - the acr-reload kernel's verdict: whether the counts of an auto
 * counter reload group (pmu/acr.h) after a run are only possible if the
 * reloads happened.
 */
#ifndef PP_KERNELS_ACR_H
#define PP_KERNELS_ACR_H

#include "../pmu/acr.h"

/*
 * PASS only if all hold, each of which a run without reloads breaks:
 *   - the total counter saw at least two periods and less than the reload
 *     value (else the run cannot tell: FAIL, saying so);
 *   - the cause counter holds -period + less than one period: it
 *     reloaded itself (without, it wraps to 0 and counts on: total -
 *     period >= period);
 *   - the reloaded counter holds the reload value plus less than one
 *     period (without reloads it holds the total, below the reload value);
 *   - the cause counter's IA32_PERF_GLOBAL_STATUS bit is clear: the SDM
 *     has it never set for a self-reloaded counter (as Linux 1271aeccc307
 *     "perf/x86/intel: Disable PMI for self-reloaded ACR events" quotes
 *     it), so a set bit is a finding, not a proof of the reload.
 * why: one line with the values either way.
 */
bool kernels_acr_judge(const struct acr_result *r, char *why, size_t why_size);

#endif
