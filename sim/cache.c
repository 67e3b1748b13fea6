// SPDX-License-Identifier: MIT
/*
 * cache.c - a small model of the part's data caches, TLBs and store buffer,
 * enough to give each access a data source, a latency, an STLB-miss bit, a
 * line split, and store-forwarding / 4K-alias blocks.  Each level is
 * set-associative with LRU replacement (way 0 is most recent); fills are
 * inclusive.  The TLBs hold one entry per page of the size the tables
 * under the CPU's CR3 give (sim/paging.c).  Line-fill-buffer hits are not modelled: an
 * access waits for its miss to complete, so the next one finds the line.
 */
#include "sim_int.h"
#include "../lib/platform.h"

static void assoc_free(struct sim_assoc *as)
{
	if (as->tag)
		plat_free(as->tag);
	memset(as, 0, sizeof(*as));
}

/* Allocates entries/ways sets; halves the sets until the memory is there. */
static void assoc_init(struct sim_assoc *as, uint64_t entries, uint32_t ways)
{
	memset(as, 0, sizeof(*as));
	if (!entries || !ways)
		return;
	as->ways = ways;
	for (as->sets = entries / ways; as->sets; as->sets /= 2) {
		as->tag = plat_alloc((size_t)as->sets * ways * sizeof(uint64_t));
		if (as->tag) {
			as->set_mask = (as->sets & (as->sets - 1)) ? 0 : as->sets - 1;
			return;
		}
	}
	as->ways = 0;
}

/*
 * Looks key up; a miss fills it.  Returns whether it hit.  Absent level: miss.
 * Every simulated access comes here up to five times, so under emulation
 * (QEMU's TCG) it avoids what is dear there: a division where the sets are
 * a power of two, and a byte-wise backward memmove (lib/efi_libc.c) for
 * the ways' ageing, done as a loop of 8-byte moves instead.
 */
static bool assoc_touch(struct sim_assoc *as, uint64_t key)
{
	uint64_t *set, t = key + 1;
	uint32_t w;
	bool hit;

	if (!as->tag)
		return false;
	set = as->tag + (size_t)(as->set_mask ? key & as->set_mask : key % as->sets) * as->ways;
	for (w = 0; w < as->ways && set[w] != t; w++)
		;
	hit = w < as->ways;
	if (!hit)
		w = as->ways - 1; /* miss: the least recent way is evicted */
	for (; w; w--)		  /* the ways before it age by one */
		set[w] = set[w - 1];
	set[0] = t;
	return hit;
}

/*
 * core_first: the first CPU of c's core, or c.  The threads of a core share
 * its L1D and L2 (SDM Vol. 3A, "Intel Hyper-Threading Technology
 * Architecture": the logical processors share the caches), so a second
 * thread uses the first one's arrays: what a sibling stored is an L1 hit.
 */
int sim_cache_init(struct sim_cpu *c, const struct sim_cpu *core_first)
{
	const struct sim_cache_geom *g = &c->m->cache;

	sim_cache_free(c);
	if (core_first && core_first != c) {
		c->l1 = core_first->l1;
		c->l2 = core_first->l2;
		c->l12_shared = true;
	} else {
		assoc_init(&c->l1, (uint64_t)g->l1_kib * 1024 / 64, g->l1_ways);
		assoc_init(&c->l2, (uint64_t)g->l2_kib * 1024 / 64, g->l2_ways);
	}
	assoc_init(&c->l3, (uint64_t)g->l3_kib * 1024 / 64, g->l3_ways);
	assoc_init(&c->dtlb, g->dtlb_entries, g->dtlb_ways);
	assoc_init(&c->stlb, g->stlb_entries, g->stlb_ways);
	memset(c->stores, 0, sizeof(c->stores));
	c->store_head = 0;
	return 0;
}

void sim_cache_free(struct sim_cpu *c)
{
	if (c->l12_shared) { /* the core's first CPU frees them */
		memset(&c->l1, 0, sizeof(c->l1));
		memset(&c->l2, 0, sizeof(c->l2));
		c->l12_shared = false;
	}
	assoc_free(&c->l1);
	assoc_free(&c->l2);
	assoc_free(&c->l3);
	assoc_free(&c->dtlb);
	assoc_free(&c->stlb);
}

void sim_cache_flush_tlbs(struct sim_cpu *c)
{
	if (c->dtlb.tag)
		memset(c->dtlb.tag, 0, (size_t)c->dtlb.sets * c->dtlb.ways * sizeof(uint64_t));
	if (c->stlb.tag)
		memset(c->stlb.tag, 0, (size_t)c->stlb.sets * c->stlb.ways * sizeof(uint64_t));
}

/*
 * The TLB key of addr: its page number at the size the CPU's page tables
 * map it with, and that size, so a 2 MiB page is one entry for all of its
 * 512 4 KiB pages (the sizes' own entries are not modelled apart).
 */
static uint64_t tlb_key(const struct sim_cpu *c, uint64_t addr)
{
	uint64_t size = sim_paging_page_size(c->cr3, addr);
	unsigned int code = size == (1ULL << 30) ? 2 : size == (1ULL << 21) ? 1 : 0;

	return ((addr >> (12 + 9 * code)) << 2) | code;
}

static enum sim_level line_level(struct sim_cpu *c, uint64_t line)
{
	if (assoc_touch(&c->l1, line))
		return LVL_L1;
	if (assoc_touch(&c->l2, line))
		return LVL_L2;
	if (c->l3.tag && assoc_touch(&c->l3, line))
		return LVL_L3;
	return LVL_DRAM;
}

static uint32_t level_latency(const struct sim_cpu *c, enum sim_level l)
{
	const struct sim_cache_geom *g = &c->m->cache;

	switch (l) {
	case LVL_L1:
		return g->lat_l1;
	case LVL_L2:
		return g->lat_l2;
	case LVL_L3:
		return g->lat_l3;
	default:
		return g->lat_dram;
	}
}

static bool overlaps(uint64_t a, uint32_t an, uint64_t b, uint32_t bn)
{
	return a < b + bn && b < a + an;
}

/* Failed store forwarding costs about a dozen cycles more than an L1 hit (Opt. Manual). */
#define STLF_BLOCK_PENALTY 12

/*
 * A load against the recent stores: contained in one, it is forwarded (about
 * an L1 hit); overlapping one partially, forwarding is blocked and the load
 * waits for the store to commit; no overlap but the same 4 KiB offset is a
 * 4K alias (address blocked).
 */
static void check_store_buffer(struct sim_cpu *c, struct sim_access *a)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->stores); i++) {
		const struct sim_store_ent *s = &c->stores[i];

		if (!s->size)
			continue;
		if (overlaps(a->addr, a->size, s->addr, s->size)) {
			if (a->addr < s->addr || a->addr + a->size > s->addr + s->size)
				a->data_blk = true;
		} else if (overlaps(a->addr & 0xfff, a->size, s->addr & 0xfff, s->size)) {
			a->addr_blk = true;
		}
	}
	if (a->data_blk)
		a->latency += STLF_BLOCK_PENALTY;
}

void sim_cache_access(struct sim_cpu *c, struct sim_access *a)
{
	uint64_t first = a->addr >> 6, last = (a->addr + a->size - 1) >> 6;
	uint64_t page = tlb_key(c, a->addr);
	enum sim_level l1, l2;
	enum sim_snoop snoop;

	a->split = first != last;
	a->dtlb_miss = !assoc_touch(&c->dtlb, page);
	a->stlb_miss = a->dtlb_miss && !assoc_touch(&c->stlb, page);
	l1 = line_level(c, first);
	l2 = a->split ? line_level(c, last) : l1;
	a->level = l1 > l2 ? l1 : l2;
	/*
	 * Another CPU holds the line modified: the L3 snoops it out of that core
	 * (HITM), or a cross-package snoop out of another package (remote HITM).
	 */
	snoop = (a->kind & HW_LOAD) ? sim_coh_load_hitm(c, first) : SIM_SNOOP_CLEAN;
	a->hitm = snoop != SIM_SNOOP_CLEAN;
	a->hitm_remote = snoop == SIM_SNOOP_HITM_REMOTE;
	if (a->hitm && a->level < LVL_L3)
		a->level = LVL_L3;
	if (a->kind & HW_STORE)
		sim_coh_store(c, first);
	a->latency = level_latency(c, a->level);
	/* SDM 18.9.4.2: the minimum detectable load latency is 4 cycles. */
	if (a->latency < 4)
		a->latency = 4;
	if (a->kind & HW_LOAD)
		check_store_buffer(c, a);
	if (a->kind & HW_STORE) {
		c->stores[c->store_head].addr = a->addr;
		c->stores[c->store_head].size = a->size;
		c->store_head = (c->store_head + 1) % ARRAY_SIZE(c->stores);
	}
}
