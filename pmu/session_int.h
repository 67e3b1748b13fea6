/* SPDX-License-Identifier: MIT */
/*
 * session_int.h - what the session's files share (session.c, pmi.c and
 * the PEBS flavours pebs_ds.c, pebs_arch.c, pebs_count.c); nothing outside
 * pmu/session*.c, pmi.c and pebs_*.c includes it.
 *
 * The flavour is chosen once per session (session_run), as Linux ds.c
 * intel_ds_init picks x86_pmu.drain_pebs and the PEBS buffer setup once
 * per PMU: legacy PEBS through the DS save area, architectural PEBS
 * through PEBS_BASE/PEBS_INDEX, or counting only.
 */
#ifndef PP_PMU_SESSION_INT_H
#define PP_PMU_SESSION_INT_H

#include "session.h"
#include "plan.h"
#include "pebs_flavour.h"
#include "../ds/ds.h"

#define SESSION_SAVE_MAX 96
#define PMI_VECTOR	 0xee /* our own IDT vector for LVTPC (Linux uses NMI; kvm-unit-tests 32) */
#define PMI_MAX_LOOPS	 100  /* Linux intel_pmu_handle_irq: "irq loop stuck" after 100 */

struct msr_save {
	uint32_t rd, wr; /* the MSR read, and the one written back (full-width alias) */
	uint64_t val;
};

struct sess;

/* The armed part, on the measured CPU: no firmware call from here on (cpurun.h). */
struct armed_call {
	struct sess *s;
	void (*kernel)(void *arg);
	void *arg;
	int rc;
};

/*
 * One PEBS flavour.  A NULL hook does nothing (returns true / 0); the
 * session calls them at fixed points of its order (docs/PROGRAMMING.md
 * "Arming order").
 */
struct pebs_ops {
	/* Refuse before anything is written, on the measured CPU: 0 or SESSION_*. */
	int (*check)(struct sess *s, char *why, size_t why_size);
	/* The PEBS buffer (and DS page) of buf_bytes, on the BSP: 0 or SESSION_*. */
	int (*alloc)(struct sess *s, size_t buf_bytes, char *why, size_t why_size);
	/* The smallest record, for sizing the per-record kinds of the result. */
	size_t (*min_record)(const struct sess *s);
	/* The flavour's buffer MSRs, into the save list (session_want_save). */
	void (*save_buffer)(struct sess *s);
	/* Its per-counter MSRs, saved after the counters (restored before them). */
	void (*save_config)(struct sess *s);
	/* Arming, GLOBAL_CTRL = 0: the buffer (before the extra registers). */
	bool (*arm_buffer)(struct sess *s);
	/* Arming: the counter's PEBS configuration (before the counters). */
	bool (*arm_config)(struct sess *s);
	/* Arming: PEBS on (after the counters, before GLOBAL_CTRL). */
	bool (*arm_enable)(struct sess *s);
	/* After GLOBAL_CTRL = 0 at the end: PEBS off (the buffer still set). */
	void (*disarm)(struct sess *s);
	/* Records written since the last drain into the result (session_append). */
	void (*drain)(struct sess *s);
	/* Records forced through STATUS_SET are in the buffer: mark them. */
	bool (*forced)(struct sess *s);
	/* What points at our memory, cleared; true only if confirmed. */
	bool (*clear)(struct sess *s);
	/* On the BSP after the run: the flavour's memory (unless buffer_held). */
	void (*free)(struct sess *s);
	/* IA32_PEBS_ENABLE as the result reports it. */
	uint64_t (*pebs_enable)(const struct pmu_plan *p);
	/* GLOBAL_STATUS bits of this flavour that a left-over value would fake. */
	uint64_t stale_status;
	/* The buffer threshold requests a PMI even when polling (LVTPC masked). */
	bool polled_pmi;
};

extern const struct pebs_ops pebs_ds_ops;
extern const struct pebs_ops pebs_arch_ops;
extern const struct pebs_ops pebs_count_ops;

struct sess {
	const struct session_cfg *cfg;
	const struct cpu_info *ci;
	struct pmu_plan plan;
	const struct pebs_ops *ops;
	struct session_result *res;
	struct ds_area ds;
	bool have_ds;
	bool buffer_held; /* the hardware may still write the buffer: never freed */
	struct msr_save save[SESSION_SAVE_MAX];
	unsigned int n_save;
	bool faulted;
	char fault_what[80];
	char armed_why[200]; /* a refusal on the measured CPU (ops->check) */
	uint64_t orig_status;
	bool armed_pmi;
	bool masked_lvtpc; /* arch-PEBS polling: LVTPC masked for the session */
	uint32_t orig_lvtpc;
	unsigned int pmi_stuck;
	bool pmi_latched; /* pmi_teardown could not clear the vector's IRR/ISR bit */
	size_t forced;	  /* records present right after the forced overflows */
	size_t res_cap, kinds_cap;
	uint64_t dropped; /* records drained but not kept: the result buffer was full */
	bool disarming;	  /* set before disarm(): a late PMI must not re-enable counters */
	uint64_t residue; /* PEBS counter's count past its last reload */
	/*
	 * What the measured CPU reads and writes lives here, not on the
	 * caller's stack: a CPU that did not return in time may still use it
	 * after session_run() is back (the caller's result gets a copy).
	 */
	struct session_cfg cfg_copy;
	struct session_result res_own;
	struct armed_call call;
};

/* MSR access: every fault recorded in s->fault_what, never ignored. */
bool session_rd(struct sess *s, uint32_t msr, uint64_t *v);
bool session_wr(struct sess *s, uint32_t msr, uint64_t v);
/* Teardown writes: one retry, so a single transient fault cannot leave state behind. */
bool session_wr_teardown(struct sess *s, uint32_t msr, uint64_t v);
/* Adds an MSR to the save list (once): read rd, write back wr. */
void session_want_save(struct sess *s, uint32_t rd, uint32_t wr);
/* The saved value of msr (0 if it is not saved). */
uint64_t session_saved(const struct sess *s, uint32_t msr);
/* -period in the sampling counter's width: the value it starts from. */
uint64_t session_start_value(const struct sess *s);
/* session_result.c: the result's memory, before arming (on the BSP); 0 or SESSION_NOMEM. */
int session_result_alloc(struct sess *s, char *why, size_t why_size);
/* Drained records into the result (dropped, counted, when it is full). */
void session_append(struct sess *s, const struct ds_drained *d);
/* The result's derived fields, once the counts are read and the buffer drained. */
void session_result_finish(struct sess *s);

/* pmi.c: LVTPC and the PMI handler for the session (drain=pmi, arch polling). */
/* The handler installed, LVTPC masked; pmi_unmask() once arm() has stopped the firmware's counters.
 */
bool pmi_setup(struct sess *s);
void pmi_unmask(struct sess *s);
void pmi_teardown(struct sess *s);
/* LVTPC as found; after the session's status bits are acked (restore_status). */
void pmi_restore_lvtpc(struct sess *s);
/* After a clean run: SESSION_FAULT with why if the PMI loop stuck or a PMI stayed latched. */
int pmi_verdict(const struct sess *s, char *why, size_t why_size);

#endif
