/* SPDX-License-Identifier: MIT */
/*
 * results.h - results.json, version 2 (docs/RESULTS.md): written once, at
 * the end of every run whatever its ending (bad options, all skipped,
 * mode=report, a finished job), by the app (app_finish).  The main job
 * hands its part (tsc_hz, kernels) over with results_keep_job(); the rest
 * comes from the run's identity, the report's verdict log (lib/report.h)
 * and the exit status.
 */
#ifndef PP_JOB_RESULTS_H
#define PP_JOB_RESULTS_H

#include "../lib/platform.h"
#include "../pmu/cpu.h"

struct results_run {
	const struct plat_identity *plat;
	const char *options;	   /* the options in effect, "name=value ..." */
	bool simulated;		   /* the PMU backend is the simulator */
	const char *sim_model;	   /* with simulated */
	const struct cpu_info *ci; /* NULL: the CPU was not probed (the options were refused) */
	const char *uarch;	   /* pmu/uarch.h row name, NULL: unknown */
};

/* The job's members ("tsc_hz":..,"kernels":[..]) in buf (plat_alloc), now results.c's. */
void results_keep_job(char *buf, size_t len);

/*
 * Writes the file name ("none": nothing, returns 0).  Returns 0, or a
 * negative error with why filled (one line, the platform's status in it).
 */
int results_write(const char *name, const struct results_run *run, int status, char *why,
		  size_t why_size);

/* The run ID of results_write's last document (16 hex digits), "" before. */
const char *results_run_id(void);

/* CPU cpu's microarchitecture (a pmu/uarch.h row name, static) for cpus_tested[].uarch. */
void results_keep_cpu_uarch(unsigned int cpu, const char *uarch);

/* The errata rows that apply to CPU cpu (pmu/errata.h errata_mask) for cpus_tested[].errata. */
void results_keep_cpu_errata(unsigned int cpu, uint32_t rows);

/* Frees what results_keep_job kept, forgets the CPUs' uarch (tests). */
void results_reset(void);

#endif
