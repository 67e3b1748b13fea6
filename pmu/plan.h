/* SPDX-License-Identifier: MIT */
/*
 * plan.h - a session request checked against the generation's rules and
 * turned into MSR values, before any MSR is written: events parsed against
 * the CPU's perfmon file, counters allocated where its Counter / PEBScounters
 * lists and CPUID allow, sample-after value chosen,
 * PEBS_ENABLE / GLOBAL_CTRL / FIXED_CTR_CTRL / EVTSEL values computed.
 * Pure: no MSR access, so every value can be unit-tested by hand.
 */
#ifndef PP_PMU_PLAN_H
#define PP_PMU_PLAN_H

#include "cpu_pebs.h"
#include "event.h"
#include "pebs_flavour.h"
#include "session.h"
#include "uarch.h"

#define PLAN_MAX_GP 32
/* fixed counters 0-7: FIXED_CTR_CTRL's 4-bit fields and the adaptive bits 32+4i fit in 64 */
#define PLAN_MAX_FIXED 8
#define PLAN_MAX_COUNT (SESSION_MAX_COUNT + 2) /* + SPR aux event + counting copy */

struct plan_count {
	struct pmu_event ev;
	int ctr;      /* GP index, or 32+i for a fixed counter */
	int user_idx; /* index in cfg->count_events, -1 for the aux event / counting copy */
};

struct pmu_plan {
	const struct uarch_info *ua;
	const struct perfmon_table *pm; /* the CPU's perfmon event file, NULL if none */
	unsigned int fmt;		/* PERF_CAPABILITIES.PEBS_FMT, or PEBS_FMT_ARCH */
	const struct pebs_flavour *fl;	/* chosen once (plan_build): its facts, its hooks */
	bool baseline, adaptive, fw_write;
	unsigned int n_gp, n_fixed;
	uint32_t gp_mask;    /* GP counters present (CPUID.0AH count, or the CPUID.23H.1 bitmap) */
	uint32_t fixed_mask; /* fixed counters present (CPUID.0AH EDX/ECX, or CPUID.23H.1) */
	uint64_t gp_width_mask;
	uint64_t fixed_width_mask;			  /* CPUID.0AH:EDX[12:5] */
	uint64_t sample_width_mask;			  /* the sampling counter's: GP or fixed */
	uint32_t ci_arch_gp, ci_arch_fixed, ci_arch_caps; /* CPUID.23H (arch-PEBS) */
	uint32_t evtsel_ext; /* CPUID.23H.0:EBX: PMEXT_UMASK2, PMEXT_EQ (0: leaf not read) */
	uint32_t pdist_gp_ok, pdist_fixed_ok; /* counters PDIST may use (CPUID.23H.5 EBX/EDX) */
	uint64_t offcore_valid[2]; /* MSR_OFFCORE_RSPx writable bits (pmu/extra_regs.h) */

	struct pmu_event sample;
	int sample_ctr; /* GP n or 32+i; -1 when counting only */
	enum pebs_kind kind;
	bool sample_precise; /* perfmon: PEBS-capable event (else non-precise, Goldmont) */
	bool sample_pdist;   /* sample_ctr is in the event's PDISTCounter: precise distribution */
	uint64_t period;
	uint64_t data_cfg; /* MSR_PEBS_DATA_CFG (adaptive only) */
	size_t rec_size;   /* legacy/adaptive record size; 0 arch */

	struct plan_count count[PLAN_MAX_COUNT];
	unsigned int n_count;
	int copy_idx; /* count[] entry counting the sampled event, -1 */

	uint32_t gp_used;
	uint32_t fixed_used; /* fixed counters programmed (counting and/or PEBS) */
	uint64_t evtsel[PLAN_MAX_GP];
	uint64_t fixed_ctrl;
	uint64_t pebs_enable; /* legacy IA32_PEBS_ENABLE */
	uint64_t global_ctrl;
	uint64_t cfg_c; /* arch-PEBS CFG_C of the sampling counter */
	/* counter-snapshot group (pmu/snapshot.c): the counters each record snapshots */
	uint32_t snap_gp, snap_fixed;
	bool use_ldlat, use_frontend;
	uint32_t ldlat;
	uint64_t frontend;
	bool use_rsp[2];
	uint64_t rsp[2];
};

/*
 * Builds the plan for cfg on ci.  Returns 0, or SESSION_SKIP /
 * SESSION_REFUSED with why filled; nothing is written either way.
 */
int plan_build(const struct session_cfg *cfg, const struct cpu_info *ci, struct pmu_plan *p,
	       char *why, size_t why_size);

/* why = the formatted reason; returns SESSION_REFUSED (the plan's files: plan.c, snapshot.c). */
int plan_refuse(char *why, size_t why_size, const char *fmt, ...) pp_printf(3, 4);

/* The PEBS record format the CPU reports: PEBS_FMT, PEBS_FMT_ARCH, or -1 unknown. */
int plan_pebs_format(const struct cpu_info *ci);

/* PERFEVTSEL value for a PEBS event: EN, USR/OS as asked, INT clear (SDM 18.4.4.1). */
uint64_t plan_pebs_evtsel(const struct pmu_event *ev, bool adaptive);

#endif
