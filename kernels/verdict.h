/* SPDX-License-Identifier: MIT */
/*
 * verdict.h - what a correct PMU must show while a kernel runs, as data, and
 * the evaluation that turns decoded records into PASS or FAIL.
 *
 * Each kernel has a table of struct kernel_expect (kernels/kernels.c); every
 * sampling also gets the common checks (records' data addresses inside the
 * kernel's buffer, IPs inside the kernel's code, records ~= events/period).
 * Statistics come from decoded records (decode/decode.h's data_src, the
 * perf_mem_data_src encoding), so one table serves every generation; a row
 * names what the generation must have for it to apply (pmu/uarch.h: a
 * UA_JUDGE_* flag, or a counted event by role), never a generation.  Pure C.
 */
#ifndef PP_KERNELS_EXPECT_H
#define PP_KERNELS_EXPECT_H

#include "../decode/decode.h"
#include "../pmu/uarch.h"
#include "kernel.h"
#include "kstats.h"

enum kexp_prop {
	KEXP_LEVEL,	       /* share of records at a level in `arg` (KLV_BIT mask) */
	KEXP_LOCKED,	       /* share with the lock bit */
	KEXP_STLB_MISS,	       /* share with the STLB-miss bit */
	KEXP_HITM,	       /* share with snoop HITM */
	KEXP_BLK_DATA,	       /* share with "blocked: data" (store forwarding) */
	KEXP_DLA_IN_BUF,       /* share of data addresses inside the kernel's buffer */
	KEXP_DLA_ON_STRIDE,    /* share of data addresses at buf + offset + i * stride */
	KEXP_IP_IN_CODE,       /* share of IPs inside the kernel's code */
	KEXP_RECORDS_MATCH,    /* records + lost within [min, max] per mille of events / period */
	KEXP_MIN_RECORDS,      /* at least arg records */
	KEXP_COUNT_PER_ACCESS, /* counted event `event` per load (arg 0) or store (arg 1), per mille
				*/
	KEXP_RECORDS_VS_ACCESSES, /* records + lost vs the kernel's accesses of the sampled kind /
				     period: at most max; at least min when every access qualifies
				   */
	KEXP_IP_EXACT, /* share of IPs exactly at a sampled instruction (limit per kip_point) */
	KEXP_COUNT
};

struct kernel_expect {
	unsigned int sampling; /* KSAMPLE_LOAD or KSAMPLE_STORE */
	enum kexp_prop prop;
	uint32_t arg;
	uint32_t min_pm, max_pm; /* bounds in per mille (max 0 = no upper bound) */
	uint32_t needs;		 /* UA_JUDGE_* flags the generation's row must have; 0 = none */
	/*
	 * KEXP_COUNT_PER_ACCESS: the counted event's role; the row applies
	 * where the generation names a perfmon event for it (uarch_info.count_ev).
	 */
	enum uarch_count count;
	const char *what; /* words for the verdict line, e.g. "L1 hits" */
};

/* What the session measured, beside the records. */
struct kverdict_in {
	const struct kstats *st;
	/* the generation's row (NULL: unknown); named_counts: the CPU's perfmon file names events
	 */
	const struct uarch_info *ua;
	bool named_counts;
	/* page size mapping the kernel's buffer in the tables it ran under (pmu/paging.h) */
	uint64_t page_size;
	const char *page_why; /* why those are not pebsprobe's own 4 KiB pages, or NULL */
	uint64_t events;      /* occurrences of the sampled event */
	uint64_t period;
	uint64_t records, lost;
	/*
	 * The PEBS buffer filled at least once; and then, without a count of
	 * the event beside the records, how many were lost is unknown (lost is
	 * a lower bound).
	 */
	bool buffer_full, lost_unknown;
	uint64_t loads, stores; /* accesses the kernel made */
	uint64_t
	    sampled_accesses; /* of those, the kind the sampled event counts (loads or stores) */
	bool all_qualify;     /* every such access is an event (ldlat <= 3, DataLA, ALL_LOADS) */
	/*
	 * The sampled event's kind (lib/types.h) and, for load latency,
	 * its threshold (0 = not known).  Data-source rows need a kind with a
	 * data source; level shares need every load to qualify (ldlat <= 3).
	 */
	enum pebs_kind kind;
	uint32_t ldlat;
	/* A two-CPU kernel's partner is in another package: its HITMs are remote ones. */
	bool remote_pair;
	/* Goldmont forced records (SDM 18.7.1): asked for, and found among the records. */
	uint32_t forced_asked;
	uint64_t forced;
	const char *count_names[4];
	uint64_t counts[4];
	unsigned int n_counts;
};

/*
 * KV_SKIP: nothing failed, but a property that applies could not be
 * observed on this run (firmware page sizes, a threshold above every
 * latency, too few records): the verdict cannot rest on it.
 */
enum kverdict { KV_PASS, KV_FAIL, KV_SKIP };

/*
 * What became of one property of a sampling (results.json "properties"):
 * checked and held, checked and failed, not applicable (the generation's
 * records cannot show it: not part of its expectation), or applicable but
 * unchecked here (the run could not observe it).
 */
enum kprop_state { KPS_CHECKED, KPS_FAILED, KPS_NA, KPS_UNCHECKED };
const char *
verdict_prop_state_name(enum kprop_state s); /* "checked", "failed", "n/a", "unchecked" */

/*
 * What a property's check observed, as a number (the job sums a verdict's
 * figures up across CPUs from these, never from the text): a share of
 * records in per mille, or a counted event per access in thousandths.
 */
enum kprop_unit { KPU_NONE, KPU_SHARE_PM, KPU_PER_ACCESS_PM };

#define KPROPS_MAX 16
struct kprops {
	unsigned int n;
	struct {
		const char *what; /* the row's words ("L1 hits", "records", ...) */
		enum kprop_state state;
		enum kprop_unit unit; /* KPU_NONE: no number (n/a, unchecked, a count) */
		uint64_t value;
	} p[KPROPS_MAX];
};

#define REPORT_TEXT_MAX 1024

/*
 * `sampling` below is KSAMPLE_LOAD or KSAMPLE_STORE: which of the kernel's
 * accesses the sampled event counts; 0 for an event that counts none of
 * them (instructions, cycles, a user's event of kind "other"): then no
 * row that depends on the sampled event applies (data source, addresses,
 * records vs accesses); the counted-event rows of every sampling the
 * kernel has still do.
 *
 * The counted events (perfmon names, from the generation's row ua) the
 * expectations of (def, sampling) need, in order; returns how many (at most
 * max).  named_counts false (the CPU has no perfmon event file to resolve a
 * name in, or the row is unknown): none, and no counted-event row applies.
 */
unsigned int verdict_count_events(const struct kernel_def *def, unsigned int sampling,
				  const struct uarch_info *ua, bool named_counts,
				  const char **names, unsigned int max);

/*
 * Evaluates every expectation of (def, sampling) that applies to in->ua,
 * then the common ones.  `text` gets the checks with their numbers
 * ("L1 hits 97.0% >= 90%; ..."): on FAIL only the failed ones; on SKIP the
 * unchecked ones with their reasons, then what held.  A PASS names only
 * what was checked and what is not applicable ("n/a on ...").  props (or
 * NULL) gets every property's state.
 */
enum kverdict verdict_evaluate(const struct kernel_def *def, unsigned int sampling,
			       const struct kverdict_in *in, char *text, size_t text_size,
			       struct kprops *props);

/* The common checks, as a table (exported for the docs and the tests). */
extern const struct kernel_expect verdict_common_expect[];
extern const size_t verdict_common_expect_count;

#endif
