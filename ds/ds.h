/* SPDX-License-Identifier: MIT */
/*
 * ds.h - the Debug Store save area and the PEBS buffer (legacy PEBS, through
 * IA32_DS_AREA) and the arch-PEBS buffer (IA32_PEBS_BASE/PEBS_INDEX).
 * Memory only: the MSRs are written by pmu/session.c.  Layout: SDM Vol. 3B
 * Fig. 18-26 (64-bit DS save area); Linux asm/intel_ds.h struct debug_store,
 * and for arch-PEBS Linux d21954c8a0ff.
 */
#ifndef PP_DS_DS_H
#define PP_DS_DS_H

#include "../lib/compat.h"

/* DS save area offsets (SDM Fig. 18-26; Linux struct debug_store). */
#define DS_PEBS_BASE	  0x20
#define DS_PEBS_INDEX	  0x28
#define DS_PEBS_ABS_MAX	  0x30
#define DS_PEBS_THRESHOLD 0x38
#define DS_PEBS_RESET	  0x40 /* u64 per counter: GP n at slot n, fixed i at 8+i or 32+i */
#define DS_RESET_SLOTS	  48 /* 32 GP + 16 fixed (Linux MAX_PEBS_EVENTS + MAX_FIXED_PEBS_EVENTS) */

/*
 * Arch-PEBS IA32_PEBS_INDEX (3F5H): the write pointer WR in 16-byte units,
 * FULL, EN and the interrupt threshold THRESH (Linux d21954c8a0ff, union
 * arch_pebs_index).
 */
#define ARCH_PEBS_INDEX_WR_SHIFT  4
#define ARCH_PEBS_INDEX_WR_MASK	  GENMASK_ULL(26, 4)
#define ARCH_PEBS_INDEX_FULL	  BIT_ULL(31)
#define ARCH_PEBS_INDEX_EN	  BIT_ULL(32)
#define ARCH_PEBS_INDEX_THRESH(x) (((uint64_t)(x)&0x7fffff) << 36)

struct ds_area {
	uint8_t *ds;  /* one page: the DS save area (legacy PEBS only) */
	uint8_t *buf; /* the PEBS buffer */
	size_t buf_pages;
	size_t buf_size;
	size_t rec_size; /* bytes per record as configured (legacy/adaptive); 0 arch */
	uint64_t abs_max;
	bool arch;
	unsigned int arch_size_code; /* arch-PEBS: buffer = 4 KiB << code */
};

/*
 * Allocates the DS page (legacy) and buf_bytes of PEBS buffer, page-aligned
 * and zeroed (plat_alloc_pages), and checks both are mapped present,
 * writable, identity-mapped and write-back (plat_check_mapping).  Arch-PEBS
 * buffers are rounded down to 4 KiB << n.  0, or -1 with why (nothing kept).
 */
int ds_alloc(struct ds_area *d, size_t buf_bytes, bool arch, char *why, size_t why_size);
/* The buffer's bytes ds_alloc gives for buf_bytes: whole pages, arch-PEBS a power of two. */
size_t ds_buf_size(size_t buf_bytes, bool arch);
void ds_free(struct ds_area *d);

/*
 * Host tests only: where pages come from (default plat_alloc_pages).  A
 * Linux process's heap lies above a simulated 39-bit MAXPHYADDR, which the
 * arch-PEBS PEBS_BASE must respect; tests pass an mmap(MAP_32BIT) allocator.
 */
void ds_set_page_allocator(void *(*alloc_pages)(size_t npages),
			   void (*free_pages)(void *p, size_t npages));

/*
 * Legacy: fills base, index = base, absolute maximum (whole records) and
 * the interrupt threshold: threshold_records from the base, or 0 for none
 * (threshold past the absolute maximum: polling, no PMI, as EDK2's
 * UefiCpuPkg SmmProfile does).
 * Returns the number of whole records the buffer holds.
 */
size_t ds_setup(struct ds_area *d, size_t rec_size, size_t threshold_records);
/*
 * The reset slot of fixed counter i: 8 + i up to PEBS format 4, 32 + i from
 * format 5 on.  GP counter n has slot n.
 */
unsigned int ds_fixed_reset_index(unsigned int fmt, unsigned int i);
/* Reset (sample-after reload) value of one counter's slot (n, or ds_fixed_reset_index()). */
void ds_set_reset(struct ds_area *d, unsigned int slot, uint64_t value);
uint64_t ds_get(const struct ds_area *d, unsigned int off);

/* IA32_PEBS_BASE value: physical == linear (identity-mapped) | size code. */
uint64_t ds_arch_base_msr(const struct ds_area *d);
/*
 * IA32_PEBS_INDEX value that arms: WR = 0, FULL = 0, EN = 1, THRESH in
 * 16-byte units, kept within 1 .. the buffer's end (what the CPU does with a
 * THRESH past the end is not documented in any source).
 */
uint64_t ds_arch_index_msr(const struct ds_area *d, size_t threshold_bytes);

/* What one drain found. */
struct ds_drained {
	const uint8_t *start;
	size_t len;	  /* bytes of records from start */
	size_t n_records; /* whole records walked */
	bool full;	  /* the buffer had reached its end: later records were lost */
	bool malformed;	  /* a record size of 0 or past the top: walk stopped there */
};

/*
 * Legacy drain (Linux intel_pmu_drain_pebs_*): reads top = pebs_index,
 * resets pebs_index to the base FIRST, then walks base..top by record size
 * (adaptive: by each record's own size, format_size[63:48]).  The bytes
 * stay valid until the next drain or arm.
 */
void ds_drain(struct ds_area *d, bool adaptive, struct ds_drained *out);
/*
 * Arch-PEBS drain for the IA32_PEBS_INDEX value read: top = base + WR<<4;
 * walks the records by their header's size (Linux d21954c8a0ff).  The caller
 * rewrites PEBS_INDEX (WR = 0) before copying, as Linux does.
 */
void ds_drain_arch(struct ds_area *d, uint64_t index_msr, struct ds_drained *out);

#endif
