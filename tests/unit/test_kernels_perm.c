// SPDX-License-Identifier: MIT
/*
 * test_kernels_perm.c - Sattolo's permutation is ONE cycle through every
 * slot, and the pointer chain laid out from it visits every slot once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kernels/perm.h"

static void check_one_cycle(const uint32_t *next, uint32_t n)
{
	uint8_t *seen = calloc(n, 1);
	uint32_t i = 0, steps = 0;

	assert_non_null(seen);
	do {
		assert_true(next[i] < n);
		assert_int_equal(seen[i], 0);
		seen[i] = 1;
		i = next[i];
		steps++;
	} while (i != 0 && steps <= n);
	/* Back at 0 after exactly n steps: one cycle of length n. */
	assert_int_equal(steps, n);
	for (uint32_t j = 0; j < n; j++)
		assert_int_equal(seen[j], 1);
	free(seen);
}

static void test_sattolo_single_cycle(void **state)
{
	static const uint32_t sizes[] = {1, 2, 3, 4, 7, 64, 1000, 4096, 65536};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (uint64_t seed = 0; seed < 5; seed++) {
			uint32_t *next = malloc(sizes[s] * sizeof(*next));
			struct perm_rng r;

			assert_non_null(next);
			perm_rng_seed(&r, seed);
			perm_sattolo(next, sizes[s], &r);
			check_one_cycle(next, sizes[s]);
			/* No fixed point when n > 1 (a fixed point would be a cycle of its own). */
			for (uint32_t i = 0; sizes[s] > 1 && i < sizes[s]; i++)
				assert_int_not_equal(next[i], i);
			free(next);
		}
	}
}

static void test_rng_bounds_and_seed(void **state)
{
	struct perm_rng a, b;
	unsigned int hits[5] = {0};

	perm_rng_seed(&a, 42);
	perm_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(perm_rng_next(&a), perm_rng_next(&b));
	perm_rng_seed(&b, 43);
	assert_int_not_equal(perm_rng_next(&a), perm_rng_next(&b));
	for (int i = 0; i < 5000; i++) {
		uint64_t v = perm_rng_below(&a, 5);

		assert_true(v < 5);
		hits[v]++;
	}
	/* Each value ~1000 times: a gross bias (or a stuck generator) fails. */
	for (int i = 0; i < 5; i++)
		assert_true(hits[i] > 800 && hits[i] < 1200);
}

static void walk_chain(uint32_t n, uint32_t slot, uint32_t offset)
{
	uint8_t *buf = aligned_alloc(4096, ((size_t)n * slot + 4095) / 4096 * 4096);
	uint8_t *seen = calloc(n, 1);
	uint64_t p, start;

	assert_non_null(buf);
	assert_non_null(seen);
	start = p = (uint64_t)(uintptr_t)perm_build_chain(buf, n, slot, offset, 7);
	assert_int_equal(start, (uint64_t)(uintptr_t)(buf + offset));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t rel = p - (uint64_t)(uintptr_t)buf;

		/* Every pointer is at `offset` inside a slot of the buffer. */
		assert_true(rel < (uint64_t)n * slot);
		assert_int_equal(rel % slot, offset);
		assert_int_equal(seen[rel / slot], 0);
		seen[rel / slot] = 1;
		p = *(uint64_t *)(uintptr_t)p;
	}
	assert_int_equal(p, start);
	free(seen);
	free(buf);
}

/*
 * perm_rng_below() skips the rejection limit's division for values below
 * 2^64 - bound: it must draw exactly what the plain rule draws (reject
 * x >= 2^64-1 - (2^64-1) % bound, then x % bound), or every chain moves.
 * Bounds near 2^63 and 2^64 reject often, so both paths are taken.
 */
static void test_rng_below_same_as_plain_rule(void **state)
{
	static const uint64_t bounds[] = {
	    1,
	    2,
	    3,
	    7,
	    1000,
	    524287,
	    1ULL << 32,
	    (1ULL << 32) + 1,
	    (1ULL << 63) - 1,
	    (1ULL << 63) + 1,
	    ~0ULL - 1,
	    ~0ULL,
	};

	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		struct perm_rng fast, plain;
		uint64_t bound = bounds[b], limit = ~0ULL - (~0ULL % bound);

		perm_rng_seed(&fast, 0x5eed0000 + b);
		perm_rng_seed(&plain, 0x5eed0000 + b);
		for (unsigned int k = 0; k < 2000; k++) {
			uint64_t x;

			do
				x = perm_rng_next(&plain);
			while (x >= limit);
			assert_int_equal(perm_rng_below(&fast, bound), x % bound);
		}
	}
}

static void test_chain_visits_every_slot(void **state)
{
	walk_chain(1, 64, 0);
	walk_chain(2, 64, 0);
	walk_chain(256, 64, 0);	    /* 16 KiB */
	walk_chain(2048, 64, 8);    /* 128 KiB, offset */
	walk_chain(512, 4096, 128); /* one slot per page */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sattolo_single_cycle),
	    cmocka_unit_test(test_rng_bounds_and_seed),
	    cmocka_unit_test(test_rng_below_same_as_plain_rule),
	    cmocka_unit_test(test_chain_visits_every_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
