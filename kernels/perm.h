/* SPDX-License-Identifier: MIT */
/*
 * perm.h - a seeded PRNG and Sattolo's algorithm: the random cyclic
 * permutation behind the pointer chase.  Pure C, no allocation.
 */
#ifndef PP_KERNELS_PERM_H
#define PP_KERNELS_PERM_H

#include "../lib/compat.h"

/* xorshift64*: fast, and the same sequence on every build for a seed. */
struct perm_rng {
	uint64_t s;
};

void perm_rng_seed(struct perm_rng *r, uint64_t seed);
uint64_t perm_rng_next(struct perm_rng *r);
/* Uniform in [0, bound), bound > 0 (rejection sampling, no modulo bias). */
uint64_t perm_rng_below(struct perm_rng *r, uint64_t bound);

/*
 * Fills next[0..n) with a permutation that is ONE cycle through all n
 * slots (Sattolo's algorithm): following next[] from any slot visits every
 * slot once before coming back.  n >= 1.
 */
void perm_sattolo(uint32_t *next, uint32_t n, struct perm_rng *r);

/*
 * The same cycle laid out in memory as a chain of pointers: slot i of
 * `slot_size` bytes at base + i * slot_size holds the address of its
 * successor (at byte offset `offset` in the slot, the same for every slot).
 * Built in place (the slots hold the indices first), so no scratch memory:
 * slot_size >= 8 and offset <= slot_size - 8.  Returns the address of slot
 * 0's pointer.
 */
void *perm_build_chain(uint8_t *base, uint64_t n, uint32_t slot_size, uint32_t offset,
		       uint64_t seed);

#endif
