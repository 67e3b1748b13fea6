// SPDX-License-Identifier: MIT
/*
 * record.c - PEBS records laid out byte by byte from the SDM tables
 * (legacy: SDM Vol. 3B Tables 18-23/18-44/18-55 and Linux ds.c struct
 * pebs_record_*; adaptive: Linux asm/perf_event.h struct pebs_basic and the
 * group order of ds.c setup_pebs_adaptive_sample_data; arch-PEBS: Linux
 * d21954c8a0ff), written at the DS index (or the
 * arch-PEBS write offset).  Independent of decode/ on purpose: the two are
 * checked against each other and against hand-built records.
 *
 * Registers: the kernels report addresses and IPs, not register contents,
 * so RFLAGS is 0x2 (bit 1 is always 1) and the GPRs are 0 (docs/SIM.md).
 */
#include "sim_int.h"

#define RFLAGS_RESERVED 0x2

static void put64(uint8_t *rec, size_t off, uint64_t v)
{
	memcpy(rec + off, &v, sizeof(v));
}

/* Linux core.c mem-loads-aux, "event=0x03,umask=0x82" (PMU_FL_MEM_LOADS_AUX) */
#define MEM_LOADS_AUX 0x8203

static bool aux_counting(const struct sim_cpu *c)
{
	unsigned int i;

	for (i = 0; i < c->pmu.n_gp; i++)
		if (sim_gp_counting(c, i) && c->ev[i] && c->ev[i]->code == MEM_LOADS_AUX)
			return true;
	return false;
}

/*
 * One row per data-source encoding (enum sim_dse): the source index for
 * each level a load is served from, for a HITM snoop and for a remote one
 * (0: the encoding has none, the local HITM stands), and the bit of each
 * extra field (NO_BIT: the layout has none).  How a store's record carries
 * the field is the row's store form.
 */
#define NO_BIT 0xff

enum dse_store {
	STORE_NONE,	   /* no field (or reserved): 0 */
	STORE_STATUS,	   /* SNB "Table 19" / HSW DataLA: 0 L1D hit, 4 STLB miss, 5 locked */
	STORE_LOAD,	   /* the load's layout (Lion Cove and later, ds.c) */
	STORE_LOAD_NO_BLK, /* the load's layout less bits 7:6 (GRT, CMT) */
};

struct dse_row {
	uint16_t src[LVL_DRAM + 1]; /* by enum sim_level */
	uint16_t hitm, rhitm;
	uint8_t stlb, lock, data_blk, addr_blk;
	/*
	 * SPR: the blk bits only with F_BLOCK and mem-loads-aux counting (Linux
	 * core.c PMU_FL_MEM_LOADS_AUX), or F_BLOCK_NOAUX.
	 */
	bool blk_by_model;
	enum dse_store store;
};

/*
 * Sources: SDM Vol. 3B Table 18-24 (L1 1, LFB 2, L2 3, L3 hit no snoop 4,
 * local DRAM 0xa) up to Crestmont; Lion Cove's lnc_pebs_data_source
 * indexes; Panther Cove and Arctic Wolf: pnc_/arw_pebs_l2_hit_data_source
 * below L2, past it bit 8 and an OMR encoding (ds.c omr_data_source: 3
 * local non-shared L3, 8 memory region MEM0).  "L3 hit, snoop HITM": ds.c
 * pebs_data_source[7] (Nehalem to Golden Cove), _grt [6], _cmt [8],
 * lnc_pebs_data_source [0x0d], on PNC/ARW OMR source 3 with bit 5 hitm.
 * Remote HITM (Linux ds.c, the rows with REM and SNOOP HITM):
 * pebs_data_source[0x09] "L3 miss snoop hitm" (Sandy Bridge to Broadwell,
 * and Gracemont, whose _grt patch keeps it), _skl [0x0d] (Skylake and later
 * big cores), _cmt [0x0d]; PNC/ARW: the OMR remote bit 4 (union
 * omr_encoding) beside source 3 and hitm.  None: Nehalem (SDM Table 18-22
 * marks 09H reserved) and lnc_pebs_data_source (no remote row).
 * The extra bits: SDM Vol. 3B Table 18-33 and ds.c's per-generation
 * *_latency_data.
 */
#define SRC(l1, lfb, l2, l3, dram)                                                                 \
	{                                                                                          \
		[LVL_L1] = l1, [LVL_LFB] = lfb, [LVL_L2] = l2, [LVL_L3] = l3, [LVL_DRAM] = dram    \
	}
#define NARROW SRC(0x1, 0x2, 0x3, 0x4, 0xa)

// clang-format off
static const struct dse_row dse_rows[] = {
    /*              sources                                hitm   rhitm  stlb    lock    data    addr    gated  store */
    [DSE_NONE] = {SRC(0, 0, 0, 0, 0),                      0,     0,     NO_BIT, NO_BIT, NO_BIT, NO_BIT, false, STORE_NONE},
    [DSE_RSVD] = {SRC(0, 0, 0, 0, 0),                      0,     0,     NO_BIT, NO_BIT, NO_BIT, NO_BIT, false, STORE_NONE},
    [DSE_NHM]  = {NARROW,                                  0x7,   0,     NO_BIT, NO_BIT, NO_BIT, NO_BIT, false, STORE_STATUS},
    [DSE_SNB]  = {NARROW,                                  0x7,   0x9,   4,      5,      6,      7,      true,  STORE_STATUS},
    [DSE_BIG]  = {NARROW,                                  0x7,   0xd,   4,      5,      6,      7,      true,  STORE_STATUS},
    [DSE_GRT]  = {NARROW,                                  0x6,   0x9,   5,      4,      6,      NO_BIT, false, STORE_LOAD_NO_BLK},
    [DSE_CMT]  = {NARROW,                                  0x8,   0xd,   6,      5,      7,      NO_BIT, false, STORE_LOAD_NO_BLK},
    [DSE_LNC]  = {SRC(0x01, 0x03, 0x05, 0x08, 0x11),       0x0d,  0,     10,     11,     12,     13,     false, STORE_LOAD},
    [DSE_PNC]  = {SRC(0x02, 0x03, 0x04, 0x103, 0x108),     0x123, 0x133, 11,     12,     13,     14,     false, STORE_LOAD},
    [DSE_ARW]  = {SRC(0x01, 0x02, 0x03, 0x103, 0x108),     0x123, 0x133, 11,     12,     13,     14,     false, STORE_LOAD},
};
// clang-format on

static uint64_t field(uint8_t at, bool v)
{
	return at == NO_BIT ? 0 : (uint64_t)v << at;
}

uint64_t sim_dse_load(const struct sim_cpu *c, const struct sim_access *a)
{
	const struct dse_row *r = &dse_rows[c->m->dse];
	enum sim_level lvl = a->level >= LVL_L1 && a->level <= LVL_L3 ? a->level : LVL_DRAM;
	bool blk = !r->blk_by_model || ((c->m->flags & F_BLOCK) && aux_counting(c)) ||
		   (c->m->flags & F_BLOCK_NOAUX);
	uint64_t v;

	if (r->store == STORE_NONE)
		return 0;
	v = a->hitm_remote && r->rhitm ? r->rhitm : a->hitm ? r->hitm : r->src[lvl];
	v |= field(r->stlb, a->stlb_miss) | field(r->lock, a->kind & HW_LOCKED);
	if (blk)
		v |= field(r->data_blk, a->data_blk) | field(r->addr_blk, a->addr_blk);
	return v;
}

uint64_t sim_dse_store(const struct sim_cpu *c, const struct sim_access *a)
{
	switch (dse_rows[c->m->dse].store) {
	case STORE_STATUS:
		return (a->level == LVL_L1) | (uint64_t)a->stlb_miss << 4 |
		       (uint64_t) !!(a->kind & HW_LOCKED) << 5;
	case STORE_LOAD:
		return sim_dse_load(c, a);
	case STORE_LOAD_NO_BLK:
		return sim_dse_load(c, a) & ~((uint64_t)0xc0);
	default:
		return 0;
	}
}

static uint64_t mem_latency(const struct sim_cpu *c, uint64_t lat)
{
	if (lat > 0xffff)
		lat = 0xffff;
	/* ADL/SPR+: instruction latency [15:0], cache latency [47:32] (Linux struct pebs_meminfo)
	 */
	if (c->m->flags & F_INSTR_LAT)
		return lat << 32 | lat;
	return lat;
}

/* ---- legacy fmt 0-3 (SDM Tables 18-23/18-44/18-55) ------------------- */

static size_t legacy_size(unsigned int fmt)
{
	static const size_t size[] = {0x90, 0xb0, 0xc0, 0xc8};

	return size[fmt];
}

size_t sim_legacy_record_size(unsigned int fmt)
{
	return fmt <= 3 ? legacy_size(fmt) : 0;
}

static void legacy_fill(const struct sim_cpu *c, const struct sim_pending *p, uint64_t rip,
			uint8_t *rec)
{
	unsigned int fmt = c->pmu.fmt;

	put64(rec, 0x00, RFLAGS_RESERVED);
	put64(rec, 0x08, rip);
	if (fmt >= 1) {
		put64(rec, 0x90, fmt >= 3 ? p->applicable : p->status);
		put64(rec, 0x98, p->dla);
		put64(rec, 0xa0, p->dse);
		put64(rec, 0xa8, p->lat);
	}
	if (fmt >= 2)
		put64(rec, 0xb0, p->eventing_ip);
	if (fmt >= 3)
		put64(rec, 0xc0, p->tsc);
}

/* ---- adaptive fmt 4-6 (Linux struct pebs_basic and the groups) ------- */

static size_t adaptive_size(uint64_t cfg)
{
	size_t n = 0x20;

	if (cfg & 1)
		n += 0x20;
	if (cfg & 2)
		n += 0x90;
	if (cfg & 4)
		n += 0x100;
	if (cfg & 8)
		n += 0x18 * (((cfg >> 24) & 0xff) + 1);
	return n + sim_snap_size(NULL, false, cfg); /* format 6 counter group (snapshot.c) */
}

/*
 * The format field is DATA_CFG if a triggering counter is adaptive, else 0
 * (the SDM, as kvm-unit-tests commit 1006fedd quotes it).
 */
static uint64_t adaptive_cfg(const struct sim_cpu *c, const struct sim_pending *p)
{
	return (c->pmu.baseline && p->adaptive) ? c->data_cfg : 0;
}

static void adaptive_fill(const struct sim_cpu *c, const struct sim_pending *p, uint64_t rip,
			  uint8_t *rec)
{
	uint64_t cfg = adaptive_cfg(c, p);
	/*
	 * The format field mirrors PEBS_DATA_CFG: bits 47:0 up to format 5;
	 * on format 6, whose DATA_CFG has the counter masks at 47:32, only
	 * the 32 bits Linux's struct pebs_basic names format_group (inferred:
	 * no public text says what format 6 writes at 47:32).
	 */
	uint64_t fmt_bits = c->pmu.fmt >= 6 ? GENMASK_ULL(31, 0) : GENMASK_ULL(47, 0);
	size_t off = 0x20;

	put64(rec, 0x00, (uint64_t)adaptive_size(cfg) << 48 | (cfg & fmt_bits));
	put64(rec, 0x08, p->eventing_ip);
	put64(rec, 0x10, p->applicable);
	put64(rec, 0x18, p->tsc);
	if (cfg & 1) {
		put64(rec, off + 0x00, p->dla);
		put64(rec, off + 0x08, p->dse);
		put64(rec, off + 0x10, mem_latency(c, p->lat));
		off += 0x20;
	}
	if (cfg & 2) {
		put64(rec, off + 0x00, RFLAGS_RESERVED); /* flags, ip, ax, cx, dx, bx, ... */
		put64(rec, off + 0x08, rip);
		off += 0x90;
	}
	if (cfg & 4)
		off += 0x100; /* XMM: not modelled, zero */
	if (cfg & 8)
		off += 0x18 * (((cfg >> 24) & 0xff) + 1); /* LBR entries: zero */
	sim_snap_fill(p, false, cfg, rec + off);
}

/* ---- arch-PEBS (Linux d21954c8a0ff) ----------------------------------- */

#define AG_XMM BIT_ULL(49 - 32)
#define AG_GPR BIT_ULL(61 - 32)
#define AG_AUX BIT_ULL(62 - 32)

static size_t arch_size(const struct sim_pending *p)
{
	uint32_t g = p->cfg_c_groups;

	return 0x10 + 0x30 + ((g & AG_AUX) ? 0x40 : 0) + ((g & AG_GPR) ? 0xa0 : 0) +
	       ((g & AG_XMM) ? 0x110 : 0) + sim_snap_size(p, true, p->cfg_c);
}

static void arch_fill(const struct sim_cpu *c, const struct sim_pending *p, uint64_t rip,
		      uint8_t *rec)
{
	uint32_t g = p->cfg_c_groups;
	uint64_t hdr = arch_size(p) | BIT_ULL(30) | BIT_ULL(63); /* size, 64-bit mode, basic */
	size_t off = 0x40;

	hdr |= ((uint64_t)(g & (AG_XMM | AG_GPR | AG_AUX))) << 32;
	hdr |= sim_snap_arch_header(p->cfg_c);
	put64(rec, 0x00, hdr);
	put64(rec, 0x10, p->eventing_ip);
	put64(rec, 0x18, p->applicable);
	put64(rec, 0x20, p->tsc);
	if (g & AG_AUX) {
		put64(rec, off + 0x00, p->dla);
		put64(rec, off + 0x28, p->dse);
		put64(rec, off + 0x30, mem_latency(c, p->lat));
		off += 0x40;
	}
	if (g & AG_GPR) {
		put64(rec, off + 0x00, RFLAGS_RESERVED);
		put64(rec, off + 0x08, rip);
		off += 0xa0;
	}
	if (g & AG_XMM)
		off += 0x110; /* header and XMM: not modelled, zero */
	/* the counter group last (Linux setup_arch_pebs_sample_data parses it after LBR) */
	sim_snap_fill(p, true, p->cfg_c, rec + off);
}

static void arch_write(struct sim_cpu *c, const struct sim_pending *p, uint64_t rip)
{
	uint64_t base = c->pebs_base & sim_phys_mask(c);
	uint64_t size = 4096ull << (c->pebs_base & 0xf);
	uint64_t off = ((c->pebs_index >> 4) & 0x7fffff) << 4;
	uint64_t thresh = ((c->pebs_index >> 36) & 0x7fffff) << 4;
	size_t n = arch_size(p), room = (n + 15) & ~(size_t)15;
	uint8_t *rec;

	if (!(c->pebs_index & BIT_ULL(32)) || !base || (c->pebs_index & BIT_ULL(31)) ||
	    off + room > size) {
		if (c->pebs_index & BIT_ULL(32))
			c->pebs_index |= BIT_ULL(31); /* FULL */
		c->stats.records_dropped++;
		return;
	}
	rec = (uint8_t *)(uintptr_t)(base + off);
	memset(rec, 0, room);
	arch_fill(c, p, rip, rec);
	if (room != n)
		sim_rules_arch_record_size(c, n);
	off += room;
	c->pebs_index = (c->pebs_index & ~GENMASK_ULL(26, 4)) | (off & GENMASK_ULL(26, 4));
	c->stats.records++;
	if (thresh && off >= thresh) {
		c->global_status |= BIT_ULL(54);
		sim_raise_pmi(c);
	}
}

static void ds_write(struct sim_cpu *c, const struct sim_pending *p, uint64_t rip)
{
	uint8_t *ds = (uint8_t *)(uintptr_t)c->ds_area;
	uint64_t base, index, max, thresh, cfg;
	size_t n;
	uint8_t *rec;

	/* Each address through the loaded CR3 first: the DS fields, then the record (rules.c). */
	if (!ds || !sim_rules_ds_mapped(c, "DS save area (IA32_DS_AREA)", c->ds_area, 0x40)) {
		c->stats.records_dropped++;
		return;
	}
	cfg = adaptive_cfg(c, p);
	n = c->pmu.fmt >= 4 ? adaptive_size(cfg) : legacy_size(c->pmu.fmt);
	base = get_le64(ds + 0x20);
	index = get_le64(ds + 0x28);
	max = get_le64(ds + 0x30);
	thresh = get_le64(ds + 0x38);
	/* Nothing is ever written past the absolute maximum: the record is dropped. */
	if (!base || index < base || index + n > max ||
	    !sim_rules_ds_mapped(c, "record (PEBS index)", index, n)) {
		c->stats.records_dropped++;
		return;
	}
	rec = (uint8_t *)(uintptr_t)index;
	memset(rec, 0, n);
	if (c->pmu.fmt >= 4)
		adaptive_fill(c, p, rip, rec);
	else
		legacy_fill(c, p, rip, rec);
	index += n;
	put64(ds, 0x28, index);
	c->stats.records++;
	if (index >= thresh) {
		c->global_status |= BIT_ULL(62); /* OvfBuffer */
		sim_raise_pmi(c);
	}
}

/*
 * sim-fault=cpuN:status-zero / collision (sim.h): every 4th record of the
 * CPU, on the formats whose status is GLOBAL_STATUS's image (1 and 2).
 */
static bool race_fault(const struct sim_cpu *c, struct sim_pending *wrong)
{
	uint64_t others, gp = c->pmu.n_gp >= 64 ? ~0ull : (1ull << c->pmu.n_gp) - 1;

	if ((c->fault != SIM_FAULT_STATUS_ZERO && c->fault != SIM_FAULT_COLLISION) ||
	    (c->m->flags & F_ARCH_PEBS) || c->pmu.fmt < 1 || c->pmu.fmt > 2 ||
	    c->stats.records % 4 != 3)
		return false;
	if (c->fault == SIM_FAULT_STATUS_ZERO) {
		wrong->status = 0;
		return true;
	}
	others = c->pebs_enable & gp & ~wrong->applicable;
	if (!others)
		others = gp & ~wrong->applicable & (0 - (gp & ~wrong->applicable));
	wrong->status |= others;
	return true;
}

void sim_record_write(struct sim_cpu *c, const struct sim_pending *p, uint64_t rip)
{
	struct sim_pending wrong;

	/* sim-fault=cpuN:wrong-latency / no-records (sim.h). */
	if (c->fault == SIM_FAULT_WRONG_LATENCY) {
		wrong = *p;
		wrong.lat += 1000;
		p = &wrong;
	}
	if (c->fault == SIM_FAULT_LATENCY_BIAS) {
		wrong = *p;
		wrong.lat = (wrong.lat * (uint64_t)(100 + c->fault_arg) + 50) / 100;
		p = &wrong;
	}
	wrong = *p;
	if (race_fault(c, &wrong))
		p = &wrong;
	if (c->fault == SIM_FAULT_NO_RECORDS)
		c->stats.records_dropped++;
	else if (c->m->flags & F_ARCH_PEBS)
		arch_write(c, p, rip);
	else
		ds_write(c, p, rip);
	/* Microcode clears the status bits of the counters that took the assist (SDM 18.9.4.1). */
	c->global_status &= ~p->applicable;
}
