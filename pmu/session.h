/* SPDX-License-Identifier: MIT */
/*
 * session.h - one PEBS measurement, start to finish, as the main job uses it:
 *   check the request against the generation's rules (before any wrmsr),
 *   save every MSR to be touched, allocate the DS area and PEBS buffer,
 *   arm in the SDM's order, run the kernel, disarm in the safe order, drain,
 *   read the counting-mode counters, restore every MSR, free the buffers.
 *
 * The main job (job/job.c) and pmu/offcore.c are the callers.
 */
#ifndef PP_SESSION_H
#define PP_SESSION_H

#include "../decode/decode.h"
#include "../lib/types.h"
#include "cpu.h"

struct paging_tables;
struct pmu_event_spec;

#define SESSION_MAX_COUNT 4

struct session_cfg {
	const struct cpu_info *ci;
	/*
	 * The sampled (PEBS) event: a perfmon name with modifiers, e.g.
	 * "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=3", or raw
	 * "event=0xcd,umask=0x1".  NULL: the generation's event for `kind`
	 * (load latency, precise store, DataLA load/store, store latency).
	 */
	const char *sample_event;
	/* Or the user's event, read once (pmu/event.h); before sample_event. */
	const struct pmu_event_spec *sample_spec;
	enum pebs_kind kind;
	uint64_t period;     /* sample-after value; 0 = the generation's minimum safe value */
	uint32_t ldlat;	     /* load-latency threshold (>= 3) */
	uint32_t buffer_kib; /* PEBS buffer size */
	uint32_t threshold_records; /* interrupt threshold in records from the base; 0 = default */
	enum pebs_drain drain;
	uint64_t data_cfg; /* adaptive PEBS groups wanted (fmt >= 4 with baseline) */
	/*
	 * A counter-snapshot group in every record: every counter the session
	 * programs, where the CPU enumerates the group (pmu/snapshot.h).
	 */
	bool snapshot;
	/* Events counted (not sampled) beside the PEBS event, same syntax. */
	const char *count_events[SESSION_MAX_COUNT];
	unsigned int n_count_events;
	/*
	 * force_records - Goldmont-style forced PEBS records: after arming, set
	 *   the PEBS counter's overflow bit this many times through
	 *   IA32_PERF_GLOBAL_STATUS_SET (SDM Vol. 3B 18.7.1 "Processor Event
	 *   Based Sampling (PEBS)"); needs PMU version >= 4.
	 * count_only - no PEBS at all: only count_events (and the fixed
	 *   counters) are programmed; used by pmu/offcore.c.
	 */
	uint32_t force_records;
	bool count_only;
	/*
	 * The armed part runs on the CPU ci describes (ci->cpu, lib/platform.h
	 * numbering, 0 = the BSP; lib/cpurun.h), at most cpu_timeout_us (0: no
	 * limit); the BSP calls bsp_idle(bsp_idle_arg) meanwhile, when set.
	 */
	uint64_t cpu_timeout_us;
	void (*bsp_idle)(void *arg);
	void *bsp_idle_arg;
	/*
	 * The page tables the kernel switches to (pmu/paging.h), NULL: none.
	 * Built before the session allocates its DS area and PEBS buffer: the
	 * session maps them there on the BSP (paging_extend) and walks them
	 * there on the measured CPU, as the PEBS assist will.
	 */
	struct paging_tables *tables;
};

/* What produced each record (session_result.rec_kinds; SDM 18.7.1). */
enum session_rec_kind {
	REC_PRECISE = 0,    /* a precise event's overflow: state of the eventing instruction */
	REC_NONPRECISE = 1, /* a non-precise event: state at the next retirement point */
	REC_FORCED = 2,	    /* forced through IA32_PERF_GLOBAL_STATUS_SET */
};

struct session_result {
	/*
	 * Counting mode, read after disarming.  fixed[i] is fixed counter i,
	 * every one the CPU enumerates (INST_RETIRED.ANY, CPU_CLK_UNHALTED.CORE,
	 * .REF_TSC, TOPDOWN.SLOTS, from PMU v6 up to 8: pmu/plan.h
	 * PLAN_MAX_FIXED); n_fixed is one past the highest read, fixed_read
	 * says which hold a count: a counter CPUID.0AH does not enumerate is
	 * never read (it would #GP).
	 */
	uint64_t fixed[8];
	unsigned int n_fixed;
	uint32_t fixed_read;
	uint64_t sampled_events; /* how many times the PEBS event occurred (overflows * period +
				    residue) */
	uint64_t counts[SESSION_MAX_COUNT]; /* cfg.count_events, in order */
	/* Records as drained, back to back, in drain order (owned by the session). */
	uint8_t *records;
	size_t records_len;
	size_t n_records;
	/*
	 * Records lost: the hardware found the buffer full (legacy: PEBS index
	 * at the absolute maximum; arch-PEBS: PEBS_INDEX.FULL), or the result
	 * buffer could not keep them.  Counted against a count of the event
	 * that does not come from the records - a counting copy; without one
	 * and with the buffer full, lost_unknown is set and lost holds only
	 * what the result buffer dropped (a lower bound).
	 */
	uint64_t lost;
	bool lost_unknown;
	unsigned int pmis;		   /* PMIs handled (drain=pmi) */
	struct pebs_decode_cfg decode_cfg; /* how to decode `records` */
	uint64_t period;		   /* the sample-after value used */
	char event_desc[96];		   /* the sampled event as programmed, e.g.
					      "MEM_TRANS_RETIRED.LOAD_LATENCY (0x1cd) ldlat=3 on PMC0" */
	uint8_t *rec_kinds;		   /* enum session_rec_kind per record, n_records entries */
	bool buffer_full;		   /* the buffer reached its end at least once */
	bool counted_sample;	   /* sampled_events comes from a counting copy of the event */
	uint64_t expected_records; /* sampled_events / period */
	uint64_t pebs_enable;	   /* IA32_PEBS_ENABLE as armed (arch-PEBS: counter mask) */
	int pebs_counter;	   /* GP n, or 32+i for fixed counter i; -1 none */
	/*
	 * The PEBS counter is in the event's perfmon PDISTCounter: each record
	 * is of the instruction that overflowed the counter; otherwise of the
	 * next occurrence of the event (perfmon README, PDISTCounter).
	 */
	bool pdist;
	/* The counter-snapshot group as programmed: GP and fixed counter masks (0: none). */
	uint32_t snap_gp, snap_fixed;
	int copy_counter; /* the counting copy of the sampled event: GP n, -1 none */
	int count_counter[SESSION_MAX_COUNT];	/* where each count event went: GP n or 32+i */
	char count_desc[SESSION_MAX_COUNT][96]; /* where each count event went */
};

/*
 * Runs kernel(arg) once under PEBS.  Returns 0 on success; a negative value
 * with `why` filled otherwise, and then:
 *   SESSION_SKIP   - the machine cannot do this (no DS, PEBS unavailable,
 *                    unknown format, not Intel, ...): nothing was written;
 *   SESSION_REFUSED - the request breaks a rule of the generation (counter
 *                    constraints, ldlat < 3, ...): refused before any wrmsr;
 *   SESSION_FAULT  - an MSR access faulted (#GP) mid-way: everything touched
 *                    was restored;
 *   SESSION_TIMEOUT - the measured CPU did not return in time: it is left
 *                    running, nothing it may touch was freed;
 *   SESSION_NO_CPU  - the measured CPU could not be started: nothing written.
 * But for SESSION_TIMEOUT's CPU, left running, every MSR is back to its
 * value from before the call, and on any failure res holds no records
 * (session_result_free() is harmless).
 */
enum {
	SESSION_SKIP = -1,
	SESSION_REFUSED = -2,
	SESSION_FAULT = -3,
	SESSION_NOMEM = -4,
	SESSION_TIMEOUT = -5,
	SESSION_NO_CPU = -6,
};

int session_run(const struct session_cfg *cfg, void (*kernel)(void *arg), void *arg,
		struct session_result *res, char *why, size_t why_size);
void session_result_free(struct session_result *res);

/*
 * The memory the drained records are kept in, allocated before arming:
 * one PEBS buffer's worth twice when polling, 16 times with drain=pmi (the
 * handler drains into it and may not allocate).  The options refuse a
 * buffer= whose records would need more than SESSION_RESULT_MAX.
 */
#define SESSION_PMI_RESULT_BUFFERS  16
#define SESSION_POLL_RESULT_BUFFERS 2
#define SESSION_RESULT_MAX	    (256ULL << 20)
static inline uint64_t session_result_bytes(uint32_t buffer_kib, enum pebs_drain drain)
{
	return (uint64_t)buffer_kib * 1024 *
	       (drain == PEBS_DRAIN_PMI ? SESSION_PMI_RESULT_BUFFERS : SESSION_POLL_RESULT_BUFFERS);
}

/*
 * drain=pmi, legacy PEBS: how many records the default interrupt threshold
 * leaves free before the absolute maximum (Linux ds.c pebs_update_threshold:
 * one per GP counter, PEBS-capable or not, the fixed ones too with baseline).
 * What it leaves free, threshold= included: the flavour's pmi_free
 * (pebs_flavour.h pebs_flavour_pmi_free).
 */
unsigned int pebs_ds_pmi_reserve(const struct cpu_info *ci, bool baseline);

/*
 * drain=pmi while a kernel body holds TPL_HIGH_LEVEL (interrupts off, UEFI
 * spec 7.1 RaiseTPL): a PMI waiting in the local APIC's IRR is let in for
 * one instruction, with TPR raised so that no vector of a lower priority
 * class than ours, the firmware's timer among them, comes with it (SDM
 * Vol. 3A 11.8.3.1), and LVT LINT0 masked, since TPR does not hold an
 * ExtINT (the 8259's timer in virtual-wire mode): OVMF's timer handler logs
 * an error for one at TPL_HIGH_LEVEL (edk2 OvmfPkg NestedInterruptTplLib).
 * TPR and LINT0 are put back as found.  None held: no-op, true.  TPR is
 * never lowered (max of the firmware's and 0xd0); where the firmware's
 * already holds the PMI's class, no window: false, the PMI waits.
 */
bool pmi_window(void);

#endif
