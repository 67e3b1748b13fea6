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
#include "../pmu/cpu.h"

#define JOB_LIST_MAX   128
#define JOB_MAX_EVENTS 8 /* events= entries, each a sampling of every kernel */

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
	char kernels[JOB_LIST_MAX]; /* kernels=all|none|name,name   default all */
	char events[JOB_LIST_MAX]; /* events=<perfmon name or raw>[;...]  default "" (per-kernel) */
	uint32_t ldlat;		   /* ldlat=3..65535               default 3 */
	uint64_t period;	   /* period=<sample-after>        default 0 = per-kernel */
	uint32_t buffer_kib;	   /* buffer=<KiB> 4..65536        default 64 */
	uint32_t threshold;	   /* threshold=<records> (0 = near full)  default 0 */
	enum pebs_drain drain;	   /* drain=poll|pmi               default poll */
	uint32_t records;	   /* records=<n> REC lines per sampling  default 0 */
	uint64_t size;		   /* size=<bytes, K/M/G suffix>   default 0 = per-kernel */
	uint32_t iterations;	   /* iterations=<n>               default 0 = per-kernel */
	char results[64];	   /* results=<file>|none          default results.json */
	enum job_dump dump;	   /* dump=on|off|all (raw dumps on the ESP)  default on */
	char cpus[JOB_LIST_MAX];   /* cpus=all|boot|LIST           default all */
	uint32_t cpu_timeout_s;	   /* cpu-timeout=<s> per piece of work on a CPU  default 300 */
	char acr[16];  /* acr=auto|gpR:gpC: the acr-reload kernel's group  default auto */
	bool snapshot; /* snapshot=off|on: counter-snapshot groups  default off */
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
 * cpus=: "all" (every CPU the platform has), "boot" (CPU 0, the boot CPU),
 * or numbers and ranges ("0,2-3") below ncpus, whatever ncpus is.  Fills
 * set (lib/cpuset.h, allocated for at least ncpus CPUs; lib/platform.h
 * numbering); -1 with why filled (the ERROR line's text).
 */
struct cpuset;
int job_cpus_parse(const char *spec, unsigned int ncpus, struct cpuset *set, char *why,
		   size_t why_size);

/*
 * Reports PASS/FAIL/SKIP lines through lib/report.h; the caller prints
 * SUMMARY.  ci: the boot CPU's description (the header of results.json);
 * every CPU cpus= selects is probed on itself and measured on itself, one
 * at a time, each verdict line naming it; a closing per-CPU table.
 */
void job_main(const struct job_opts *jo, const struct cpu_info *ci);

#endif
