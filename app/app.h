/* SPDX-License-Identifier: MIT */
/*
 * app.h - the application's flow after the options are known, independent
 * of UEFI: choose the PMU backend, probe and report the CPU, run the self
 * tests and the main job, print the SUMMARY.  efi/main.c calls app_run().
 * The app knows no platform: what it needs of one is handed in.
 */
#ifndef PP_APP_H
#define PP_APP_H

#include "options.h"
#include "../pmu/hw.h"

/*
 * The real-instruction backend, as the platform hands it to the app
 * (efi/main.c, from efi/hw_real.h): its hw_ops and the checks of its #GP
 * trap and PMI vector that selftest=gp runs.  A NULL pointer instead of
 * this struct: the build has no real backend (the host), so pmu=hw SKIPs
 * and pmu=auto simulates.
 */
struct app_real {
	const struct hw_ops *ops;
	/* How many #GP faults the trap caught and resumed from since start. */
	unsigned long (*gp_trapped)(void);
	/* The firmware's IDT and #GP gate as they were; why says what differs. */
	bool (*idt_intact)(char *why, size_t why_size);
	/* INT to the PMI vector reached a test handler once, registers kept. */
	bool (*selftest_vector)(char *why, size_t why_size);
	/* The #GP verdict with garbage in the caller-saved registers: right both ways. */
	bool (*selftest_dirty_regs)(char *why, size_t why_size);
	/* On an AP: a local APIC interrupt on the PMI vector reached the handler. */
	bool (*selftest_ap_interrupt)(char *why, size_t why_size);
};

/*
 * Checks the options as a whole (options_check: the one place, before any
 * backend is chosen), then chooses and installs the PMU backend from pmu=
 * (pmu=auto: CPUID only, no MSR) and marks the report simulated when it
 * is, printing nothing, so that the caller's first lines already carry
 * " [sim]".  app_run() prints what decided.  Returns 0, or EXIT_USAGE with
 * err filled (one line: what was wrong, what is accepted) and no backend.
 * Optional: app_run() calls it when the caller did not.
 */
int app_select(const struct options *opts, const struct app_real *real, char *err, size_t err_size);

/* Returns the exit status (lib/report.h enum exit_status). */
int app_run(const struct options *opts, const struct app_real *real);

/*
 * Every run's ending, whatever it was (refused options included): writes
 * results.json (job/results.h) as the file `results` with the run's
 * identity, the options in effect, every verdict and status.  Returns the
 * status to exit with: status, or 99 (EXIT_ENVIRONMENT) in place of 0 or
 * 77 when the file could not be written (an ERROR line says why, with the
 * platform's status).
 */
int app_finish(const struct options *in_effect, const char *results, int status);

/*
 * The run's outputs (app/outputs.c), before anything is written:
 * app_check_outputs refuses a results= or log= name that a file pebsprobe
 * did not write already has (0, or -1 with err: one line, exit 2);
 * app_clear_previous deletes what an earlier run left - the dumps, from
 * one listing of the folder (every name the job can write, for any CPU
 * number a machine can have), results.json and pebsprobe.log and the
 * names in effect, each only when its first bytes are pebsprobe's - and
 * returns how many files it deleted.
 */
int app_check_outputs(const struct options *o, char *err, size_t err_size);
unsigned int app_clear_previous(const struct options *o);

/*
 * The closing verdict table (app/summary_table.c), printed by app_run() before
 * SUMMARY: a line of counts, one row per kernel with a column per
 * sampling, then the verdicts of no kernel; within 80 columns and, for the
 * default job, 25 lines.
 */
void app_verdict_table(void);

#endif
