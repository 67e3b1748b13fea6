/* SPDX-License-Identifier: MIT */
/*
 * app.h - the application's flow after the options are known, independent
 * of UEFI: choose the PMU backend, probe and report the CPU, run the self
 * tests and the main job, print the SUMMARY.  efi/main.c calls app_run().
 */
#ifndef PP_APP_H
#define PP_APP_H

#include "../lib/options.h"

/* Returns the exit status (lib/report.h enum exit_status). */
int app_run(const struct options *opts);

#endif
