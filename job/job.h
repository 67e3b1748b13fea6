/* SPDX-License-Identifier: MIT */
/*
 * job.h - the main job: every kernel that applies to this CPU,
 * sampled with PEBS, a verdict per kernel, records on the console, results
 * and raw dumps on the ESP.  Called by app/app.c once the backend is
 * installed and the capability report printed.
 */
#ifndef PP_JOB_H
#define PP_JOB_H

#include "../lib/types.h"
#include "../pmu/acr.h"
#include "../pmu/cpu.h"
#include "../pmu/event.h"

#define JOB_LIST_MAX   128
#define JOB_MAX_EVENTS 8 /* events= entries, each a sampling of every kernel */

/*
 * cpus=, as app/options_cpus.c read it: every CPU, the boot CPU, or the
 * CPUs of a list, one bit each.  JOB_CPUS_MAX is Linux's largest x86
 * NR_CPUS (arch/x86/Kconfig, NR_CPUS_RANGE_END with MAXSMP: 8192).
 */
#define JOB_CPUS_MAX 8192
enum job_cpus_how { JOB_CPUS_ALL, JOB_CPUS_BOOT, JOB_CPUS_LIST };
struct job_cpus {
	enum job_cpus_how how;
	uint64_t word[JOB_CPUS_MAX / 64]; /* JOB_CPUS_LIST: bit c % 64 of word[c / 64] */
};

/*
 * events=, as app/options_events.c read it: the entries, in order, each
 * read once by pmu_event_read (pmu/event.h: a raw encoding checked whole,
 * a name as the perfmon names it may end at, modifiers typed), and
 * resolved per CPU against its perfmon file by pmu_event_resolve.
 */
struct job_events {
	unsigned int n;
	struct pmu_event_spec ev[JOB_MAX_EVENTS];
};

/*
 * dump=: the raw record dumps on the ESP (docs/OUTPUT.md "The ESP budget").
 * on: every dump while the job measures up to JOB_DUMP_ALL_CPUS CPUs;
 * beyond, the first CPU of each core type's and every failing sampling's
 * (about 667 KB per CPU for the default job: 512 CPUs would need five
 * 64 MiB ESPs).  all: every CPU's.  results.json keeps every CPU's figures
 * either way.
 */
enum job_dump { JOB_DUMP_OFF = 0, JOB_DUMP_ON, JOB_DUMP_ALL };
#define JOB_DUMP_ALL_CPUS 8

/*
 * What the job is asked to do: its part of the options (app/options.h
 * holds it as struct options .job, docs/OPTIONS.md says what each accepts).
 * The caller has checked it (options_check): every kernels= name is a
 * kernel, threshold= fits in buffer=.
 */
struct job_opts {
	uint64_t kernels; /* kernels=: bit i runs kernel_at(i)  default: the default job's */
	struct job_events
	    events;		 /* events=<perfmon name or raw>[;...]  default none (per-kernel) */
	uint32_t ldlat;		 /* ldlat=3..65535               default 3 */
	uint64_t period;	 /* period=<sample-after>        default 0 = per-kernel */
	uint32_t buffer_kib;	 /* buffer=<KiB> 4..65536        default 64 */
	uint32_t threshold;	 /* threshold=<records> (0 = near full)  default 0 */
	enum pebs_drain drain;	 /* drain=poll|pmi               default poll */
	uint32_t records;	 /* records=<n> REC lines per sampling  default 0 */
	uint64_t size;		 /* size=<bytes, K/M/G suffix>   default 0 = per-kernel */
	uint32_t iterations;	 /* iterations=<n>               default 0 = per-kernel */
	char results[64];	 /* results=<file>|none          default results.json */
	enum job_dump dump;	 /* dump=on|off|all (raw dumps on the ESP)  default on */
	struct job_cpus cpus;	 /* cpus=all|boot|LIST           default all */
	uint32_t cpu_timeout_s;	 /* cpu-timeout=<s> per piece of work on a CPU  default 300 */
	struct acr_counters acr; /* acr=auto|gpR:gpC: -1 for auto (pmu/acr.h)  default auto */
	bool snapshot;		 /* snapshot=off|on: counter-snapshot groups  default off */
	bool
	    handoff_strict; /* handoff=warn|strict: firmware hand-off findings fail  default warn */
};

/* cpu-timeout='s default, and what 0 (options not filled) stands for. */
#define JOB_CPU_TIMEOUT_S 300
/* Processors the firmware left disabled or unhealthy, named one by one up to this many. */
#define JOB_UNUSED_SHOWN 64

/*
 * The job's options against this CPU (after cpu_probe, before any PMU
 * programming; pure): every events= entry and period= as the session's
 * plan would take them.  Returns 0, or -1 with err filled (one line naming
 * the option and the limit) for the caller to exit 2.
 */
int job_check(const struct job_opts *jo, const struct cpu_info *ci, char *err, size_t err_size);

/*
 * The CPUs cpus= chose on a machine of ncpus CPUs into set (lib/cpuset.h,
 * allocated for at least ncpus); the number chosen (0: a list naming none
 * that exists, which options_check refuses first).
 */
struct cpuset;
unsigned int job_cpus_set(const struct job_cpus *c, unsigned int ncpus, struct cpuset *set);
/* Whether kernels= chose kernel_at(i). */
static inline bool job_kernel_chosen(const struct job_opts *jo, size_t i)
{
	return i < 64 && (jo->kernels >> i) & 1;
}

/*
 * Reports PASS/FAIL/SKIP lines through lib/report.h; the caller prints
 * SUMMARY.  ci: the boot CPU's description (the header of results.json);
 * every CPU cpus= selects is probed on itself and measured on itself, one
 * at a time, each verdict line naming it; a closing per-CPU table.
 */
void job_main(const struct job_opts *jo, const struct cpu_info *ci);

#endif
