// SPDX-License-Identifier: MIT
/*
 * kstats.c - records to statistics: levels, data addresses, IPs and their
 * skid.  The data_src bits are union perf_mem_data_src (Linux UAPI
 * include/uapi/linux/perf_event.h; decode/perf_mem.h), which decode/ fills
 * for every generation.
 */
#include "kstats.h"
#include "../decode/perf_mem.h"
#include "../lib/fmt.h"

static const char *const klevel_names[KLV_COUNT] = {
    [KLV_L1] = "L1",
    [KLV_LFB] = "LFB",
    [KLV_L2] = "L2",
    [KLV_L3] = "L3",
    [KLV_RAM] = "Local RAM",
    [KLV_REMOTE_RAM] = "Remote RAM",
    [KLV_REMOTE_CACHE] = "Remote cache",
    [KLV_IO] = "I/O or uncached",
    [KLV_MISS] = "Miss",
    [KLV_NA] = "N/A",
};

const char *kstats_level_name(enum klevel l)
{
	return l < KLV_COUNT ? klevel_names[l] : "?";
}

static enum klevel level_from_num(unsigned int num, bool remote)
{
	switch (num) {
	case MEM_LVLNUM_L0:
	case MEM_LVLNUM_L1:
		return KLV_L1;
	case MEM_LVLNUM_LFB:
		return KLV_LFB;
	case MEM_LVLNUM_L2:
	case MEM_LVLNUM_L2_MHB:
		return KLV_L2;
	case MEM_LVLNUM_L3:
	case MEM_LVLNUM_L4:
	case MEM_LVLNUM_MSC:
		return remote ? KLV_REMOTE_CACHE : KLV_L3;
	case MEM_LVLNUM_ANY_CACHE:
		return remote ? KLV_REMOTE_CACHE : KLV_L3;
	case MEM_LVLNUM_RAM:
	case MEM_LVLNUM_PMEM:
	case MEM_LVLNUM_CXL:
		return remote ? KLV_REMOTE_RAM : KLV_RAM;
	case MEM_LVLNUM_IO:
	case MEM_LVLNUM_UNC:
		return KLV_IO;
	default:
		return KLV_NA;
	}
}

/* The older encoding: only mem_lvl bits (Linux's SNB..BDW tables, NHM). */
static enum klevel level_from_bits(unsigned int lvl)
{
	static const struct {
		unsigned int bit;
		enum klevel level;
	} map[] = {
	    {MEM_LVL_L1, KLV_L1},
	    {MEM_LVL_LFB, KLV_LFB},
	    {MEM_LVL_L2, KLV_L2},
	    {MEM_LVL_L3, KLV_L3},
	    {MEM_LVL_LOC_RAM, KLV_RAM},
	    {MEM_LVL_REM_RAM1, KLV_REMOTE_RAM},
	    {MEM_LVL_REM_RAM2, KLV_REMOTE_RAM},
	    {MEM_LVL_REM_CCE1, KLV_REMOTE_CACHE},
	    {MEM_LVL_REM_CCE2, KLV_REMOTE_CACHE},
	    {MEM_LVL_IO, KLV_IO},
	    {MEM_LVL_UNC, KLV_IO},
	};
	enum klevel found = KLV_NA;

	/* The deepest level named wins ("L3 miss, local RAM" is RAM). */
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (lvl & map[i].bit)
			found = map[i].level;
	return found;
}

enum klevel kstats_level_of(uint64_t d)
{
	unsigned int lvl = MEM_FIELD(d, LVL), num = MEM_FIELD(d, LVLNUM);
	bool miss_only = (lvl & MEM_LVL_MISS) && !(lvl & MEM_LVL_HIT);
	enum klevel l;

	if (num && num != MEM_LVLNUM_NA)
		l = level_from_num(num, d & REMOTE);
	else
		l = level_from_bits(lvl);
	if (l == KLV_NA)
		return KLV_NA;
	/* "L1 miss" (SNB precise store) is a miss, not an L1 hit; memory is never a "hit". */
	if (miss_only && (l == KLV_L1 || l == KLV_LFB || l == KLV_L2))
		return KLV_MISS;
	return l;
}

void kstats_init(struct kstats *s, const struct kernel_ctx *k)
{
	memset(s, 0, sizeof(*s));
	s->buf_lo = (uint64_t)(uintptr_t)k->buf;
	s->buf_hi = s->buf_lo + k->size;
	s->ip_lo = k->ip_lo;
	s->ip_hi = k->ip_hi;
	s->first_off = s->buf_lo + k->offset;
	s->stride = k->stride;
	s->ip_point = KIP_AT;
	s->sampled_kinds = HW_LOAD | HW_STORE;
	s->n_insn_found = kernel_insns(s->ip_lo, s->ip_hi, s->insn, KSTATS_INSN_MAX);
	s->n_insn = s->n_insn_found < KSTATS_INSN_MAX ? s->n_insn_found : KSTATS_INSN_MAX;
}

void kstats_precision(struct kstats *s, enum kip_point pt, unsigned int sampling)
{
	s->ip_point = pt;
	s->sampled_kinds =
	    (sampling & KSAMPLE_LOAD ? HW_LOAD : 0) | (sampling & KSAMPLE_STORE ? HW_STORE : 0);
}

const char *kstats_skid_name(enum kskid s)
{
	static const char *const names[KSKID_N] = {[KSKID_0] = "0",
						   [KSKID_1] = "1",
						   [KSKID_2_3] = "2-3",
						   [KSKID_4_UP] = "4+",
						   [KSKID_OUT] = "outside"};

	return (unsigned int)s < KSKID_N ? names[s] : "?";
}

/* Known instruction boundaries (each access's start and the next one's) in (a, b). */
static uint64_t boundaries_between(const struct kernel_insn *insn, size_t n, uint64_t a, uint64_t b)
{
	uint64_t c = 0;

	for (size_t i = 0; i < n; i++) {
		/* An access's end is the next one's start when they touch: count it once. */
		bool end_is_next = i + 1 < n && insn[i + 1].at == insn[i].after;

		c += insn[i].at > a && insn[i].at < b;
		c += !end_is_next && insn[i].after > a && insn[i].after < b;
	}
	return c;
}

enum kskid kstats_skid_of(const struct kernel_insn *insn, size_t n, enum kip_point pt,
			  uint32_t kinds, uint64_t lo, uint64_t hi, uint64_t ip)
{
	uint64_t best = 0, last = 0, d;
	bool found = false, any = false;

	if (ip < lo || ip > hi)
		return KSKID_OUT;
	for (size_t i = 0; i < n; i++) {
		uint64_t p = pt == KIP_AFTER ? insn[i].after : insn[i].at;

		if (!(insn[i].kind & kinds))
			continue;
		if (p == ip)
			return KSKID_0;
		any = true;
		if (p > last)
			last = p;
		if (p < ip && (!found || p > best)) {
			best = p;
			found = true;
		}
	}
	if (!any)
		return KSKID_OUT;
	/*
	 * Past the nearest sampled boundary before ip; none before it: the
	 * loop went round from the last one.  The ip itself is one more.
	 */
	if (found)
		d = boundaries_between(insn, n, best, ip) + 1;
	else
		d = boundaries_between(insn, n, last, hi + 1) +
		    boundaries_between(insn, n, lo ? lo - 1 : 0, ip) + 1;
	return d == 1 ? KSKID_1 : d <= 3 ? KSKID_2_3 : KSKID_4_UP;
}

/*
 * A multiple of the stride: a mask for a power of two (the built-in
 * kernels' strides are), so the per-record path has no 64-bit division.
 */
static bool on_stride(const struct kstats *s, uint64_t delta)
{
	uint64_t st = s->stride;

	if (!(st & (st - 1)))
		return !(delta & (st - 1));
	return delta % st == 0;
}

void kstats_add(struct kstats *s, const struct pebs_record *r)
{
	s->n++;
	/* HAVE_MEM: decode/ filled data_src (it knows this generation's encoding). */
	if (r->have & HAVE_MEM) {
		uint64_t d = r->data_src;

		s->n_src++;
		s->level[kstats_level_of(d)]++;
		s->locked += MEM_FIELD(d, LOCK) == MEM_LOCK_LOCKED;
		s->stlb_miss += !!(MEM_FIELD(d, TLB) & MEM_TLB_MISS);
		s->hitm += !!(MEM_FIELD(d, SNOOP) & MEM_SNOOP_HITM);
		s->hitm_remote += (MEM_FIELD(d, SNOOP) & MEM_SNOOP_HITM) && (d & REMOTE);
		s->blk_data += !!(MEM_FIELD(d, BLK) & MEM_BLK_DATA);
	}
	if (r->have & HAVE_DLA) {
		s->n_dla++;
		if (r->data_la >= s->buf_lo && r->data_la < s->buf_hi) {
			s->dla_in_buf++;
			if (s->stride && r->data_la >= s->first_off &&
			    on_stride(s, r->data_la - s->first_off))
				s->dla_on_stride++;
		}
	}
	if (r->have & HAVE_IP) {
		s->n_ip++;
		s->ip_in_code += r->ip >= s->ip_lo && r->ip <= s->ip_hi;
		s->skid[kstats_skid_of(s->insn, s->n_insn, s->ip_point, s->sampled_kinds, s->ip_lo,
				       s->ip_hi, r->ip)]++;
	}
}
