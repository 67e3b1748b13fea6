/* SPDX-License-Identifier: MIT */
/*
 * cpurun.h - running a piece of work on one chosen CPU and waiting for it,
 * from the boot processor (BSP).  The MSRs of the PMU are per core, so a
 * measurement of CPU n runs on CPU n, one CPU at a time.
 *
 * Dispatch (docs/ARCHITECTURE.md "Dispatch to other CPUs"): each AP is
 * started through the platform (UEFI MP services StartupThisAP) once, into
 * a loop of ours that waits on its mailbox in memory; every piece of work
 * after that is posted there, and the AP returns to MP services only when
 * released.  Work on another CPU may not call firmware (UEFI boot services
 * are for the BSP only: PI spec Vol. 2 13.4 EFI_MP_SERVICES_PROTOCOL,
 * StartupAllAPs/StartupThisAP "Procedure"): its report lines are deferred
 * (lib/report.h) while it runs, and the caller prints them with
 * report_flush_deferred() once cpurun_run() is back.
 */
#ifndef PP_CPURUN_H
#define PP_CPURUN_H

#include "compat.h"

enum {
	CPU_RUN_OK = 0,
	CPU_RUN_NO_START = -1, /* the CPU could not be started (no MP services, busy) */
	CPU_RUN_TIMEOUT = -2,  /* it did not return in time: it may still run */
	CPU_RUN_LOST = -3,     /* it did not return from earlier work: never posted again */
};

/*
 * Runs fn(arg) on CPU cpu (0 = the BSP: a plain call) and waits for it, at
 * most timeout_us (0: no limit).  While it waits, the BSP calls idle(idle_arg)
 * (when not NULL) over and over: the BSP's own part of two-CPU work; and
 * once the console has been quiet CPU_RUN_HEARTBEAT_US (this wait and the
 * ones before it) it prints "waiting for CPU n: <what>, N s; <where the job
 * is>" (lib/status.h status_progress), and it calls report_tick().
 * After CPU_RUN_TIMEOUT nothing fn uses may be freed or reused: it may
 * still run.  A CPU that timed out once is lost: CPU_RUN_LOST at once.
 */
int cpurun_run(unsigned int cpu, void (*fn)(void *arg), void *arg, uint64_t timeout_us,
	       void (*idle)(void *idle_arg), void *idle_arg);

#define CPU_RUN_HEARTBEAT_US (5ULL * 1000000)

/* What the next cpurun_run() and cpurun_wait() calls run, for the heartbeat line (a kernel's name).
 */
void cpurun_run_what(const char *what);

/*
 * The two halves of cpurun_run() for work the BSP does not wait on at once (the
 * partner CPU of a two-CPU kernel): cpurun_post() hands fn(arg) to AP cpu
 * (CPU_RUN_OK, CPU_RUN_NO_START or CPU_RUN_LOST); cpurun_wait() waits for it
 * as cpurun_run() does, without idle work.
 */
int cpurun_post(unsigned int cpu, void (*fn)(void *arg), void *arg);
int cpurun_wait(unsigned int cpu, uint64_t timeout_us);

/* Whether AP cpu did not return from work once (never posted again). */
bool cpurun_run_lost(unsigned int cpu);
/* How many times AP cpu was started through the platform (MP services) this run. */
unsigned int cpurun_run_starts(unsigned int cpu);

/*
 * Tells AP cpu's loop to return to the platform (MP services), and waits
 * for that; a later cpurun_run() starts it again.  A lost CPU is left as it is.
 * cpurun_release_all() does so for every AP, and prints one INFO line with how
 * many were started, released and lost; the app calls it before it exits.
 */
void cpurun_release(unsigned int cpu);
void cpurun_release_all(void);

#endif
