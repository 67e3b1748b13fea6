// SPDX-License-Identifier: MIT
/*
 * coherence.c - the two-CPU part of the cache model: for each line, the CPU
 * that last stored to it (MESI's Modified state, one owner).  A load by
 * another CPU of a line some CPU holds modified is served by that CPU's
 * cache: a snoop that hits a modified line (HITM, SDM Vol. 3B table "Data
 * Source Encoding for Load Latency Record": "L3 hit, snoop hitm"), and
 * the line is shared from then on.  An owner in another package is reached
 * by a cross-package snoop (the same table's L3-miss rows): a remote HITM.
 * The threads of one core are one owner:
 * they share its L1D and L2 (sim/cache.c), so a sibling's store is no snoop
 * away and gives no HITM.  Simulated CPUs run on separate
 * processors or threads, so every slot is read and written atomically.
 * A direct-mapped table: a line whose slot another line took is treated as
 * unowned (no HITM), never as someone else's.
 */
#include "sim_int.h"

#define COH_SLOTS 4096
/*
 * A slot: line << 20 | COH_M | package << 13 | owner (0 = empty).  Lines
 * of a 48-bit address take 42 bits; owners are core_first (below 8192,
 * host/platform_host.c HOST_CPUS_MAX), packages modulo 64.
 */
#define COH_LINE_SHIFT 20
#define COH_M	       (1ULL << 19) /* the owner holds the line modified */
#define COH_PKG_SHIFT  13
#define COH_PKG	       (0x3fULL << COH_PKG_SHIFT)
#define COH_OWNER      0x1fffULL

static uint64_t coh[COH_SLOTS];

void sim_coh_reset(void)
{
	for (size_t i = 0; i < COH_SLOTS; i++)
		__atomic_store_n(&coh[i], 0, __ATOMIC_RELAXED);
}

static uint64_t *slot(uint64_t line)
{
	return &coh[(line ^ (line >> 12)) % COH_SLOTS];
}

static uint64_t owner(const struct sim_cpu *c)
{
	return ((uint64_t)c->package << COH_PKG_SHIFT & COH_PKG) | (c->core_first & COH_OWNER);
}

enum sim_snoop sim_coh_load_hitm(const struct sim_cpu *c, uint64_t line)
{
	uint64_t *s = slot(line), e = __atomic_load_n(s, __ATOMIC_ACQUIRE);
	uint64_t me = owner(c);
	enum sim_snoop snoop;

	if ((e >> COH_LINE_SHIFT) != line || !(e & COH_M) || (e & COH_OWNER) == (me & COH_OWNER))
		return SIM_SNOOP_CLEAN;
	snoop = (e & COH_PKG) == (me & COH_PKG) ? SIM_SNOOP_HITM : SIM_SNOOP_HITM_REMOTE;
	/* Now shared: the next load by anyone hits without a snoop. */
	__atomic_compare_exchange_n(s, &e, line << COH_LINE_SHIFT | me, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return snoop;
}

void sim_coh_store(const struct sim_cpu *c, uint64_t line)
{
	__atomic_store_n(slot(line), line << COH_LINE_SHIFT | COH_M | owner(c), __ATOMIC_RELEASE);
}
