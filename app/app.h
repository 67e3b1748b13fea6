/* SPDX-License-Identifier: MIT */
/*
 * app.h - the application's flow after the options are known, independent
 * of UEFI: choose the PMU backend, probe and report the CPU, run the self
 * tests and the main job, print the SUMMARY.  efi/main.c calls app_run().
 */
#ifndef PP_APP_H
#define PP_APP_H

#include "options.h"

/*
 * Chooses and installs the PMU backend from pmu= (pmu=auto: CPUID only, no
 * MSR) and marks the report simulated when it is, printing nothing, so
 * that the caller's first lines already carry " [sim]".  app_run() prints
 * what decided.  Optional: app_run() calls it when the caller did not.
 */
void app_select(const struct options *opts);

/* Returns the exit status (lib/report.h enum exit_status). */
int app_run(const struct options *opts);

#endif
