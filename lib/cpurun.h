/* SPDX-License-Identifier: MIT */
/*
 * cpurun.h - running a piece of work on one chosen CPU and waiting for it,
 * from the boot processor (BSP).  The MSRs of the PMU are per core, so a
 * measurement of CPU n runs on CPU n, one CPU at a time.
 *
 * Work on another CPU may not call firmware (boot services are for the BSP
 * only, UEFI spec 2.10 7.1 and PI spec Vol. 2 13.4 StartupThisAP): its
 * report lines are deferred (lib/report.h) while it runs, and the caller
 * prints them with report_flush_deferred() once cpu_run() is back.
 */
#ifndef PP_CPURUN_H
#define PP_CPURUN_H

#include "compat.h"

enum {
	CPU_RUN_OK = 0,
	CPU_RUN_NO_START = -1, /* the CPU could not be started (no MP services, busy) */
	CPU_RUN_TIMEOUT = -2,  /* it did not return in time: it may still run */
};

/*
 * Runs fn(arg) on CPU cpu (0 = the BSP: a plain call) and waits for it, at
 * most timeout_us (0: no limit).  While it waits, the BSP calls idle(idle_arg)
 * (when not NULL) over and over: the BSP's own part of two-CPU work.  After
 * CPU_RUN_TIMEOUT nothing fn uses may be freed or reused: it may still run.
 */
int cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg, uint64_t timeout_us,
	    void (*idle)(void *idle_arg), void *idle_arg);

#endif
