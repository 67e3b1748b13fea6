/* SPDX-License-Identifier: MIT */
/*
 * kstats.h - one sampling's decoded records as statistics: the level each
 * record's data came from, its data address against the kernel's buffer,
 * and its IP's skid from the sampled instruction.  kernels/verdict.h judges
 * them.  Pure C.
 */
#ifndef PP_KERNELS_KSTATS_H
#define PP_KERNELS_KSTATS_H

#include "../decode/decode.h"
#include "kernel.h"

/* Where a record says the data came from (perf_mem_data_src lvl/lvl_num). */
enum klevel {
	KLV_L1,
	KLV_LFB,
	KLV_L2,
	KLV_L3,
	KLV_RAM,
	KLV_REMOTE_RAM,
	KLV_REMOTE_CACHE,
	KLV_IO,
	KLV_MISS,
	KLV_NA,
	KLV_COUNT
};
#define KLV_BIT(l) (1u << (l))
const char *kstats_level_name(enum klevel l);
enum klevel kstats_level_of(uint64_t data_src);

/*
 * Precision.  Which instruction boundary a record's IP names: the sampled
 * instruction itself (KIP_AT: the eventing IP of format 2 and later,
 * adaptive and arch-PEBS records, and the R/EIP of fault-like format 0/1
 * parts) or the instruction after it (KIP_AFTER: the R/EIP of trap-like
 * format 0/1 parts, PERF_CAPABILITIES.PEBS_TRAP).  docs/KERNELS.md has the
 * sources.
 */
enum kip_point { KIP_AT, KIP_AFTER };

/*
 * Skid, in instructions past the expected boundary.  Only the kernels'
 * memory instructions are known (kernel.h struct kernel_insn: each one's
 * start and the next one's start); the ones the compiler put between them
 * are not decoded, so an IP between known boundaries counts one more than
 * the known boundaries it passed: the buckets are lower bounds.
 */
enum kskid { KSKID_0, KSKID_1, KSKID_2_3, KSKID_4_UP, KSKID_OUT, KSKID_N };
const char *kstats_skid_name(enum kskid s); /* "0", "1", "2-3", "4+", "outside" */

/*
 * The skid of a record at ip: insn[n] the kernel's memory instructions in
 * address order, `kinds` the HW_* kinds the sampled event counts (an
 * instruction of another kind is a boundary, never a sampled one),
 * [lo, hi] the kernel's code.  Outside [lo, hi]: KSKID_OUT.
 */
enum kskid kstats_skid_of(const struct kernel_insn *insn, size_t n, enum kip_point pt,
			  uint32_t kinds, uint64_t lo, uint64_t hi, uint64_t ip);

#define KSTATS_INSN_MAX 16

/* Statistics of one sampling's records. */
struct kstats {
	uint64_t buf_lo, buf_hi; /* [lo, hi) */
	uint64_t ip_lo, ip_hi;	 /* [lo, hi] */
	uint64_t first_off;	 /* buf + offset: first access */
	uint32_t stride;
	uint64_t n; /* records decoded */
	uint64_t anomalies;
	uint64_t n_src; /* records with a data source */
	uint64_t level[KLV_COUNT];
	uint64_t locked, stlb_miss, hitm, blk_data;
	uint64_t hitm_remote; /* of hitm, those with mem_remote: from another package */
	uint64_t n_dla, dla_in_buf, dla_on_stride;
	uint64_t n_ip, ip_in_code;
	/* Precision: the kernel's memory instructions, and the skid of every IP. */
	enum kip_point ip_point;
	uint32_t sampled_kinds; /* HW_* kinds of the sampled instructions */
	size_t n_insn;		/* known memory instructions in [ip_lo, ip_hi] (kept) */
	size_t n_insn_found;	/* found there: more than KSTATS_INSN_MAX is unchecked */
	struct kernel_insn insn[KSTATS_INSN_MAX];
	uint64_t skid[KSKID_N];
};

/* Also takes the kernel's memory instructions (kernel_insns); KIP_AT, any access kind. */
void kstats_init(struct kstats *s, const struct kernel_ctx *k);
/* Before the first record: the boundary the IPs name, and the sampling (KSAMPLE_*). */
void kstats_precision(struct kstats *s, enum kip_point pt, unsigned int sampling);
void kstats_add(struct kstats *s, const struct pebs_record *r);

#endif
