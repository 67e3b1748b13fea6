/* SPDX-License-Identifier: MIT */
/*
 * perf_mem.h - the bit layout of union perf_mem_data_src, from Linux
 * include/uapi/linux/perf_event.h (the PERF_MEM_* definitions), defined
 * here once: decode/ builds every record's data_src with it, kernels/
 * kernels/verdict.c reads the fields back for its verdicts, and the tests compose
 * their expected values with it (checking them against worked u64 values).
 * The short macros (OP(), LVL(), ...) keep the decoder's tables readable
 * as rows of Linux's.
 */
#ifndef PP_DECODE_PERF_MEM_H
#define PP_DECODE_PERF_MEM_H

#include "../lib/compat.h"

#define MEM_OP_SHIFT	 0
#define MEM_LVL_SHIFT	 5
#define MEM_SNOOP_SHIFT	 19
#define MEM_LOCK_SHIFT	 24
#define MEM_TLB_SHIFT	 26
#define MEM_LVLNUM_SHIFT 33
#define MEM_REMOTE_SHIFT 37
#define MEM_SNOOPX_SHIFT 38
#define MEM_BLK_SHIFT	 40
#define MEM_HOPS_SHIFT	 43
#define MEM_REGION_SHIFT 46

#define OP(x)	  ((uint64_t)MEM_OP_##x << MEM_OP_SHIFT)
#define LVL(x)	  ((uint64_t)MEM_LVL_##x << MEM_LVL_SHIFT)
#define SNOOP(x)  ((uint64_t)MEM_SNOOP_##x << MEM_SNOOP_SHIFT)
#define LOCK(x)	  ((uint64_t)MEM_LOCK_##x << MEM_LOCK_SHIFT)
#define TLB(x)	  ((uint64_t)MEM_TLB_##x << MEM_TLB_SHIFT)
#define LVLNUM(x) ((uint64_t)MEM_LVLNUM_##x << MEM_LVLNUM_SHIFT)
#define SNOOPX(x) ((uint64_t)MEM_SNOOPX_##x << MEM_SNOOPX_SHIFT)
#define BLK(x)	  ((uint64_t)MEM_BLK_##x << MEM_BLK_SHIFT)
#define REGION(x) ((uint64_t)MEM_REGION_##x << MEM_REGION_SHIFT)
#define REMOTE	  (1ULL << MEM_REMOTE_SHIFT)

enum { MEM_OP_NA = 1, MEM_OP_LOAD = 2, MEM_OP_STORE = 4, MEM_OP_PFETCH = 8, MEM_OP_EXEC = 0x10 };
enum {
	MEM_LVL_NA = 1,
	MEM_LVL_HIT = 2,
	MEM_LVL_MISS = 4,
	MEM_LVL_L1 = 8,
	MEM_LVL_LFB = 0x10,
	MEM_LVL_L2 = 0x20,
	MEM_LVL_L3 = 0x40,
	MEM_LVL_LOC_RAM = 0x80,
	MEM_LVL_REM_RAM1 = 0x100,
	MEM_LVL_REM_RAM2 = 0x200,
	MEM_LVL_REM_CCE1 = 0x400,
	MEM_LVL_REM_CCE2 = 0x800,
	MEM_LVL_IO = 0x1000,
	MEM_LVL_UNC = 0x2000,
};
enum {
	MEM_SNOOP_NA = 1,
	MEM_SNOOP_NONE = 2,
	MEM_SNOOP_HIT = 4,
	MEM_SNOOP_MISS = 8,
	MEM_SNOOP_HITM = 0x10
};
enum { MEM_LOCK_NA = 1, MEM_LOCK_LOCKED = 2 };
enum {
	MEM_TLB_NA = 1,
	MEM_TLB_HIT = 2,
	MEM_TLB_MISS = 4,
	MEM_TLB_L1 = 8,
	MEM_TLB_L2 = 0x10,
	MEM_TLB_WK = 0x20,
	MEM_TLB_OS = 0x40,
};
enum {
	MEM_LVLNUM_L1 = 1,
	MEM_LVLNUM_L2 = 2,
	MEM_LVLNUM_L3 = 3,
	MEM_LVLNUM_L4 = 4,
	MEM_LVLNUM_L2_MHB = 5,
	MEM_LVLNUM_MSC = 6,
	/* L0 (Diamond Rapids): Linux commit d2bdcde9626c "perf/x86/intel: Add support for
	   PEBS memory auxiliary info field in DMR" */
	MEM_LVLNUM_L0 = 7,
	MEM_LVLNUM_UNC = 8,
	MEM_LVLNUM_CXL = 9,
	MEM_LVLNUM_IO = 0xa,
	MEM_LVLNUM_ANY_CACHE = 0xb,
	MEM_LVLNUM_LFB = 0xc,
	MEM_LVLNUM_RAM = 0xd,
	MEM_LVLNUM_PMEM = 0xe,
	MEM_LVLNUM_NA = 0xf,
};
enum { MEM_SNOOPX_FWD = 1, MEM_SNOOPX_PEER = 2 };
enum { MEM_BLK_NA = 1, MEM_BLK_DATA = 2, MEM_BLK_ADDR = 4 };
/*
 * mem_region, bits 50:46 (Diamond Rapids): Linux commit d2bdcde9626c
 * "perf/x86/intel: Add support for PEBS memory auxiliary info field in DMR",
 * PERF_MEM_REGION_*.  L_ = the local cache agent (CA), O_ = another one.
 */
enum {
	MEM_REGION_NA = 0,
	MEM_REGION_RSVD = 1,
	MEM_REGION_L_SHARE = 2,
	MEM_REGION_L_NON_SHARE = 3,
	MEM_REGION_O_IO = 4,
	MEM_REGION_O_SHARE = 5,
	MEM_REGION_O_NON_SHARE = 6,
	MEM_REGION_MMIO = 7,
	MEM_REGION_MEM0 = 8,
	MEM_REGION_MEM1 = 9,
	MEM_REGION_MEM2 = 0xa,
	MEM_REGION_MEM3 = 0xb,
	MEM_REGION_MEM4 = 0xc,
	MEM_REGION_MEM5 = 0xd,
	MEM_REGION_MEM6 = 0xe,
	MEM_REGION_MEM7 = 0xf,
};

/* Field masks (in place). */
#define MEM_F_OP     GENMASK_ULL(4, 0)
#define MEM_F_LVL    GENMASK_ULL(18, 5)
#define MEM_F_SNOOP  GENMASK_ULL(23, 19)
#define MEM_F_LOCK   GENMASK_ULL(25, 24)
#define MEM_F_TLB    GENMASK_ULL(32, 26)
#define MEM_F_LVLNUM GENMASK_ULL(36, 33)
#define MEM_F_SNOOPX GENMASK_ULL(39, 38)
#define MEM_F_BLK    GENMASK_ULL(42, 40)
#define MEM_F_HOPS   GENMASK_ULL(45, 43)
#define MEM_F_REGION GENMASK_ULL(50, 46)

/* A field's value, e.g. MEM_FIELD(d, LVL) & MEM_LVL_L1. */
#define MEM_FIELD(d, f) (((d)&MEM_F_##f) >> MEM_##f##_SHIFT)

/*
 * PERF_MEM_NA as the kernel defines it today (include/linux/perf_event.h,
 * with LVLNUM NA): what perf gets for a sample without a data source.
 */
#define MEM_NA (OP(NA) | LVL(NA) | SNOOP(NA) | LOCK(NA) | TLB(NA) | LVLNUM(NA))

#endif
