/* SPDX-License-Identifier: MIT */
/*
 * status.h - the status header a screen keeps at its top (docs/OUTPUT.md
 * "The screen"): the machine, the progress (CPU n of N, kernel k of K, the
 * sampling), elapsed time and an ETA, the running verdict counts.  Pure:
 * the job and the app say where the run is, efi/console.c draws the rows
 * on the screens only; serial and the log never see them.
 */
#ifndef PP_STATUS_H
#define PP_STATUS_H

#include "compat.h"

#define STATUS_ROWS  4	/* header rows, the lines scroll below them */
#define STATUS_WIDTH 80 /* every row, padded with spaces to this width */
/* The rows' text is made again at most this often (the app's own clock). */
#define STATUS_REDRAW_US 250000ULL

/* Forget everything (a new run; the host tests). */
void status_reset(void);
/* The machine the run is on (the boot CPU's probe); simulated: the PMU is. */
void status_machine(const char *brand, const char *uarch, unsigned int pmu_version, bool simulated);
/* The job starts at now_us: cpus CPUs measured, kernels kernels on each. */
void status_job_begin(uint64_t now_us, unsigned int cpus, unsigned int kernels);
/*
 * The CPU now measured, n of the job's CPUs counted from 1: its core type,
 * and its uarch, which the machine row shows from now on (a hybrid part's
 * E-core is not its boot CPU's P-core).
 */
void status_cpu(unsigned int n, unsigned int cpu, const char *core_type, const char *uarch);
/* The kernel now running, k of the job's kernels counted from 1. */
void status_kernel(unsigned int k, const char *name);
/* The sampling now running (load, store, ...); NULL for none. */
void status_sampling(const char *name);
/* One kernel on one CPU is done: the ETA counts these. */
void status_step_done(void);
/* The job is over at now_us (every CPU done, or given up on): the clock stops. */
void status_job_end(uint64_t now_us);

/*
 * Where the job is, as one line says it on serial (no header there):
 * "cpu 3 of 16 done: 20 PASS 0 FAIL, 0:41 elapsed" (cpu_done), else "cpu 3
 * of 16, kernel 2 of 4: ..."; "" outside the job.
 */
void status_progress(uint64_t now_us, bool cpu_done, char *buf, size_t size);

/* "1:05", "12:00:00": minutes and seconds, hours from one hour on. */
void status_duration(char *buf, size_t size, uint64_t us);
/*
 * The time left if the steps not done take as long as the done ones took
 * on average: "ETA 0:42"; "ETA --:--" before a step is done (nothing to go
 * by) or past what the arithmetic holds, "ETA 0:00" when all are.
 */
void status_eta(char *buf, size_t size, uint64_t elapsed_us, uint64_t done, uint64_t total);

/*
 * Rows a line of len characters takes on a screen of cols columns: one
 * more when it fills the last one (the cursor wraps before the line ends).
 */
unsigned int status_line_rows(size_t len, unsigned int cols);
/*
 * Whether a screen of cols x rows keeps the header: only where the rows
 * left below it, the cursor's last row aside, hold the longest end of a
 * run (lib/report.h report_result: the recap and RESULT, each line of
 * them REPORT_RECAP_WIDTH at most), so that the last screen shows every
 * recap line and RESULT whatever scrolled before.  80x25 keeps it (20
 * rows for at most 18 lines); a smaller screen scrolls without one.
 */
bool status_screen_fits(unsigned int cols, unsigned int rows);

/* The rows as at now_us, each exactly STATUS_WIDTH characters. */
void status_rows(uint64_t now_us, char rows[STATUS_ROWS][STATUS_WIDTH + 1]);
/*
 * Whether to make the rows anew: the progress changed (a CPU, kernel or
 * sampling began) or STATUS_REDRAW_US passed since the last true (the clock
 * and the counts), so a few times a second, not at every line.
 */
bool status_due(uint64_t now_us);

#endif
