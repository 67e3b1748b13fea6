/* SPDX-License-Identifier: MIT */
/*
 * pebs_flavour.h - what differs between the PEBS flavours, as facts chosen
 * once: plan_build picks the session's flavour (with its hooks, pebs_ops),
 * handoff.c the CPU's.  The plan, the snapshot group and the hand-off audit
 * read these fields instead of asking which flavour runs, as Linux ds.c
 * intel_ds_init sets pebs_record_size, pebs_buffer_size and drain_pebs once.
 * The descriptions live beside their hooks: pebs_ds.c, pebs_arch.c,
 * pebs_count.c.
 */
#ifndef PP_PMU_PEBS_FLAVOUR_H
#define PP_PMU_PEBS_FLAVOUR_H

#include "cpu.h"

struct pebs_ops;
struct session_cfg;
struct pmu_plan;

/* Where record groups and counter snapshots are asked for. */
enum pebs_groups {
	PEBS_GROUPS_NONE,     /* no records: counting only */
	PEBS_GROUPS_DATA_CFG, /* MSR_PEBS_DATA_CFG (adaptive PEBS, SDM Vol. 3B 20.9.2) */
	PEBS_GROUPS_CFG_C,    /* each counter's IA32_PMC_*_CFG_C (arch-PEBS, CPUID.23H) */
};

/* Which hand-off rows (pmu/handoff.c) read GLOBAL_STATUS bits this flavour's way. */
enum pebs_handoff_rows {
	PEBS_HANDOFF_LEGACY = 1, /* bit 62 OvfBuffer: DS-based PEBS, or none */
	PEBS_HANDOFF_ARCH = 2,	 /* bit 54: the arch-PEBS threshold */
};

struct pebs_flavour {
	const char *name;	    /* in refusals: "legacy PEBS", "arch-PEBS", ... */
	const struct pebs_ops *ops; /* the session's hooks (session_int.h) */
	bool records;		    /* PEBS records at all (false: counting only) */
	/*
	 * PEBS counters from CPUID.23H.5 EAX/ECX, and any event may PEBS on
	 * them (Linux PMU_FL_PEBS_ALL); false: the generation row's PEBS
	 * counters and the perfmon PEBS flags.
	 */
	bool cpuid_counters;
	const char *counter_source; /* what refusals name as the CPUID side */
	bool cpuid_pdist;	  /* PDIST counters from CPUID.23H.5 EBX/EDX, else perfmon alone */
	unsigned int reload_bits; /* the reload value's width; 0: the counter's own */
	bool forced_records;	  /* records after STATUS_SET overflows can exist (SDM 18.7.1) */
	enum pebs_groups groups;
	/* Hand-off: the flavour's buffer MSRs, and what else it reads (handoff.c read_all). */
	uint32_t handoff_msrs[2];
	unsigned int n_handoff_msrs;
	bool handoff_data_cfg; /* MSR_PEBS_DATA_CFG where baseline is enumerated */
	bool handoff_cfg_c;    /* every counter's CFG_C */
	enum pebs_handoff_rows handoff_rows;
	/*
	 * drain=pmi: records that fit past the interrupt threshold the
	 * flavour arms, at least (pebs_flavour_pmi_free).  NULL: no records.
	 */
	unsigned int (*pmi_free)(const struct session_cfg *cfg, const struct pmu_plan *p);
};

extern const struct pebs_flavour pebs_ds_flavour;
extern const struct pebs_flavour pebs_arch_flavour;
extern const struct pebs_flavour pebs_count_flavour;

/* The session's flavour: counting only, or the PEBS format the CPU reports (plan_build). */
const struct pebs_flavour *pebs_flavour_of_session(const struct cpu_info *ci, bool count_only);

/*
 * drain=pmi: how many records the session's interrupt threshold (threshold=
 * or the flavour's default) leaves room for before the buffer's end, at
 * least; a body that holds its PMIs to a chunk's end cuts the chunk to it
 * (kernels/kernel.h kernel_pmi_chunk).  0 where the flavour writes none.
 */
unsigned int pebs_flavour_pmi_free(const struct session_cfg *cfg, const struct pmu_plan *p);

/* The flavour the CPU enumerates, for the hand-off audit: CPUID.23H, usable DS PEBS, or none. */
const struct pebs_flavour *pebs_flavour_of_cpu(const struct cpu_info *ci);

#endif
