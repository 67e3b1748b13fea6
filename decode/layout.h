/* SPDX-License-Identifier: MIT */
/*
 * layout.h - byte offsets and group sizes of the legacy and adaptive PEBS
 * record layouts, shared by the full decoder (decode.c) and the summary's
 * scan (scan.c).  Internal to decode/.
 */
#ifndef PP_DECODE_LAYOUT_H
#define PP_DECODE_LAYOUT_H

#include "decode.h"

/* Legacy record offsets (Linux ds.c struct pebs_record_core/nhm/hsw/skl). */
enum {
	LEG_FLAGS = 0x00,
	LEG_IP = 0x08,
	LEG_AX = 0x10,
	LEG_R8 = 0x50,
	LEG_STATUS = 0x90,
	LEG_DLA = 0x98,
	LEG_DSE = 0xa0,
	LEG_LAT = 0xa8,
	LEG_EVENTING_IP = 0xb0,
	LEG_TSX = 0xb8,
	LEG_TSC = 0xc0,
};

/*
 * Adaptive basic group (Linux asm/perf_event.h struct pebs_basic): format and
 * size word, IP, applicable counters, TSC; meminfo group (struct
 * pebs_meminfo): address, aux (data source), latency, TSX tuning.
 */
enum {
	BASIC_FORMAT_SIZE = 0x00,
	BASIC_IP = 0x08,
	BASIC_APPLICABLE = 0x10,
	BASIC_TSC = 0x18,
	MEMINFO_DLA = 0x00,
	MEMINFO_AUX = 0x08,
	MEMINFO_LATENCY = 0x10,
	MEMINFO_TSX = 0x18,
};

/*
 * Adaptive PEBS_DATA_CFG / record-format bits (Linux asm/perf_event.h
 * PEBS_DATACFG_*, the counter snapshot from e02e9b0374c3).
 */
#define CFG_MEMINFO    BIT_ULL(0)
#define CFG_GP	       BIT_ULL(1)
#define CFG_XMMS       BIT_ULL(2)
#define CFG_LBRS       BIT_ULL(3)
#define CFG_CNTR       BIT_ULL(4)
#define CFG_METRICS    BIT_ULL(5)
#define CFG_LBR_N(cfg) ((unsigned int)(((cfg) >> 24) & 0xff) + 1)

enum {
	BASIC_SIZE = 0x20,
	MEMINFO_SIZE = 0x20,
	GP_SIZE = 0x90,
	XMM_SIZE = 0x100,
	LBR_ENTRY = 0x18,
	CNTR_HDR = 0x10,
	ARCH_HDR = 0x10,
	ARCH_BASIC = 0x30,
	ARCH_AUX = 0x40,
	ARCH_GPR = 0xa0,
	ARCH_VEC_HDR = 0x10,
	ARCH_LBR_HDR = 0x30,
};

/* What a record's data-source field gives under a decode config. */
enum layout_mem {
	LAYOUT_MEM_NONE,  /* no decoder or no memory kind: nothing is said */
	LAYOUT_MEM_NA,	  /* the decoder reads no data source: HAVE_MEM_NA */
	LAYOUT_MEM_VALUE, /* pebs_data_src() of the field: HAVE_MEM */
};

static inline enum layout_mem layout_mem(const struct pebs_decode_cfg *cfg)
{
	if (cfg->kind == KIND_OTHER || cfg->kind >= KIND_COUNT || cfg->dsrc == DSRC_UNKNOWN ||
	    cfg->dsrc >= DSRC_COUNT)
		return LAYOUT_MEM_NONE;
	return pebs_dsrc_has_data_src(cfg->dsrc) ? LAYOUT_MEM_VALUE : LAYOUT_MEM_NA;
}

/*
 * The adaptive basic group's format field: bits 31:0 where bits 47:32 hold
 * something else (timed PEBS: the retire latency) or where PEBS_DATA_CFG
 * has bits above 31 that Linux never reads back (format 6: the counter
 * masks at 47:32), as Linux's struct pebs_basic (format_group:32,
 * retire_latency:16, format_size:16) reads it; bits 47:0 before.
 */
static inline uint64_t pebs_basic_format_mask(const struct pebs_decode_cfg *cfg)
{
	return cfg->timed || (cfg->fmt >= 6 && cfg->fmt != PEBS_FMT_ARCH) ? GENMASK_ULL(31, 0)
									  : GENMASK_ULL(47, 0);
}

/* Memory latency field: split on ADL/SPR and later (Linux PMU_FL_INSTR_LATENCY): 47:32. */
static inline uint64_t layout_load_latency(uint64_t lat, bool split)
{
	return split ? (lat >> 32) & 0xffff : lat;
}

#endif
