// SPDX-License-Identifier: MIT
/*
 * coherence.c - the two-CPU part of the cache model: for each line, the CPU
 * that last stored to it (MESI's Modified state, one owner).  A load by
 * another CPU of a line some CPU holds modified is served by that CPU's
 * cache: a snoop that hits a modified line (HITM, SDM Vol. 3B table "Data
 * Source Encoding for Load Latency Record": "L3 hit, snoop hitm"), and
 * the line is shared from then on.  The threads of one core are one owner:
 * they share its L1D and L2 (sim/cache.c), so a sibling's store is no snoop
 * away and gives no HITM.  Simulated CPUs run on separate
 * processors or threads, so every slot is read and written atomically.
 * A direct-mapped table: a line whose slot another line took is treated as
 * unowned (no HITM), never as someone else's.
 */
#include "sim_int.h"

#define COH_SLOTS 4096
#define COH_M	  0x80u /* the owner holds the line modified */

/* line << 8 | COH_M | owner: 0 = empty */
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

bool sim_coh_load_hitm(const struct sim_cpu *c, uint64_t line)
{
	uint64_t *s = slot(line), e = __atomic_load_n(s, __ATOMIC_ACQUIRE);

	if ((e >> 8) != line || !(e & COH_M) || (e & 0x7f) == (c->core_first & 0x7f))
		return false;
	/* Now shared: the next load by anyone hits without a snoop. */
	__atomic_compare_exchange_n(s, &e, line << 8 | (c->core_first & 0x7f), false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return true;
}

void sim_coh_store(const struct sim_cpu *c, uint64_t line)
{
	__atomic_store_n(slot(line), line << 8 | COH_M | (c->core_first & 0x7f), __ATOMIC_RELEASE);
}
