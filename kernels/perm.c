// SPDX-License-Identifier: MIT
/*
 * perm.c - seeded PRNG and Sattolo's cyclic permutation for the pointer chase.
 *
 * Sattolo (1986): for i from n-1 down to 1, swap a[i] with a[j], j uniform in
 * [0, i) - strictly below i, which is what makes the result a single cycle
 * (Fisher-Yates with j in [0, i] gives any permutation, many cycles).
 */
#include "perm.h"

void perm_rng_seed(struct perm_rng *r, uint64_t seed)
{
	/* xorshift must not start at 0: mix the seed so 0 is a valid seed too. */
	r->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
	if (!r->s)
		r->s = 1;
}

uint64_t perm_rng_next(struct perm_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

uint64_t perm_rng_below(struct perm_rng *r, uint64_t bound)
{
	/*
	 * Reject the top partial block of the 2^64 range so every value is
	 * equally likely.  That block is shorter than bound, so a value below
	 * 2^64 - bound is taken without working out where it starts: one
	 * division per value, not two (a division is slow under QEMU's TCG,
	 * and a chain of 32 MiB draws 512 Ki values).  The same values result.
	 */
	uint64_t x;

	for (;;) {
		x = perm_rng_next(r);
		if (x < 0ULL - bound || x < ~0ULL - (~0ULL % bound))
			return x % bound;
	}
}

void perm_sattolo(uint32_t *next, uint32_t n, struct perm_rng *r)
{
	uint32_t i;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		next[i] = i;
	/* j strictly below i: the result, read as i -> next[i], is one n-cycle. */
	for (i = n - 1; i >= 1; i--) {
		uint32_t j = (uint32_t)perm_rng_below(r, i);
		uint32_t t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
}

static inline uint64_t *slot_at(uint8_t *base, uint64_t i, uint32_t slot_size, uint32_t offset)
{
	return (uint64_t *)(void *)(base + i * slot_size + offset);
}

void *perm_build_chain(uint8_t *base, uint64_t n, uint32_t slot_size, uint32_t offset,
		       uint64_t seed)
{
	struct perm_rng r;
	uint64_t i;

	if (!n)
		return NULL;
	perm_rng_seed(&r, seed);
	/* Sattolo on the slots themselves: each holds its successor's index. */
	for (i = 0; i < n; i++)
		*slot_at(base, i, slot_size, offset) = i;
	for (i = n - 1; i >= 1; i--) {
		uint64_t j = perm_rng_below(&r, i);
		uint64_t *a = slot_at(base, i, slot_size, offset);
		uint64_t *b = slot_at(base, j, slot_size, offset);
		uint64_t t = *a;

		*a = *b;
		*b = t;
	}
	/* Indices to addresses. */
	for (i = 0; i < n; i++) {
		uint64_t *s = slot_at(base, i, slot_size, offset);

		*s = (uint64_t)(uintptr_t)slot_at(base, *s, slot_size, offset);
	}
	return slot_at(base, 0, slot_size, offset);
}
