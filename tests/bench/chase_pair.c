// SPDX-License-Identifier: MIT
/*
 * chase-pair SIZE... - what bench-chase.sh runs: the kernels' pointer chase
 * (kernel_prepare + kernel_run of "chase", the code the app samples)
 * against a plain dependent-load chase written here, over the SAME buffer.
 *
 * The two chains share every 64-byte slot: the kernels' chain is the one
 * kernel_prepare() builds at the slot's offset 0 (kernels/perm.c); the
 * plain chain is built here, independently (Sattolo's shuffle with its own
 * xorshift generator), in the slot's second half.  So both walk the same
 * pages and lines in a random order: neither gets other physical pages,
 * other cache sets or other TLB reach than the other.  Each runs a warm-up
 * of a tenth, then PASSES passes of LOADS loads each, the two taking turns
 * pass by pass (each first every other pass) so a slow moment of the
 * machine hits both; the best pass of
 * each counts, as lmbench's lat_mem_rd takes the best of its repetitions.
 * Passes are timed in the thread's CPU time (now_ns()).
 * Prints "<KiB> <kernels ns per load> <plain ns per load>" per SIZE.
 * Environment: PASSES (default 5), LOADS (default 1000000).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/kernel.h"

#define SLOT	  64
#define PLAIN_OFF 32 /* the plain chain's word in each slot */

static uint64_t xs = 0x2545f4914f6cdd1dULL;

static uint64_t next_random(void)
{
	xs ^= xs >> 12;
	xs ^= xs << 25;
	xs ^= xs >> 27;
	return xs * 0x9e3779b97f4a7c15ULL;
}

/*
 * The thread's CPU time, not the wall clock: on a machine where other
 * builds run, a pass that was preempted would count the other process's
 * time slices as its own loads' latency.  (Time the host takes the vCPU
 * away is still counted: the guest cannot see it.)
 */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *plain_chase(void *p, uint64_t n)
{
	void **q = p;

	while (n--)
		q = (void **)*q;
	return q;
}

/* One random cycle through every slot, in each slot's word at PLAIN_OFF. */
static void *plain_chain(uint8_t *buf, uint64_t n)
{
	uint64_t *idx = malloc(n * sizeof(*idx));

	if (!idx)
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		idx[i] = i;
	for (uint64_t i = n - 1; i >= 1; i--) { /* Sattolo: j below i, so one n-cycle */
		uint64_t j = next_random() % i, t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
	}
	for (uint64_t i = 0; i < n; i++)
		*(void **)(buf + i * SLOT + PLAIN_OFF) = buf + idx[i] * SLOT + PLAIN_OFF;
	free(idx);
	return buf + PLAIN_OFF;
}

static uint64_t timed_kernel(struct kernel_ctx *k)
{
	uint64_t t0 = now_ns();

	kernel_run(k);
	return now_ns() - t0;
}

static uint64_t timed_plain(void *start, uint64_t loads, void *volatile *sink)
{
	uint64_t t0 = now_ns();

	*sink = plain_chase(start, loads);
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	uint64_t passes = getenv("PASSES") ? strtoull(getenv("PASSES"), NULL, 10) : 5;
	uint64_t loads = getenv("LOADS") ? strtoull(getenv("LOADS"), NULL, 10) : 1000000;
	const struct kernel_def *def = kernel_find("chase");
	void *volatile sink;

	if (!def || def->stride != SLOT || def->offset + 8 > PLAIN_OFF) {
		fprintf(stderr,
			"chase-pair: the kernels' chase is not 64-byte slots at offset 0\n");
		return 1;
	}
	for (int a = 1; a < argc; a++) {
		uint64_t size = strtoull(argv[a], NULL, 10), best_k = ~0ULL, best_p = ~0ULL;
		struct kernel_ctx k;
		char why[160];
		bool clipped;
		void *start;

		if (kernel_prepare(&k, def, size, loads, false, &clipped, why, sizeof(why)) < 0 ||
		    clipped || !(start = plain_chain(k.buf, k.size / SLOT))) {
			fprintf(stderr, "chase-pair: %llu bytes: %s\n", (unsigned long long)size,
				clipped ? "clipped" : why);
			return 1;
		}
		/* Warm-up: the first touch of each page stays out of the timed passes. */
		k.iterations = loads / 10 ? loads / 10 : 1;
		kernel_run(&k);
		sink = plain_chase(start, k.iterations);
		k.iterations = loads;
		for (uint64_t p = 0; p < passes; p++) {
			/* each goes first every other pass: neither always finds the other's lines
			 */
			uint64_t tk = p & 1 ? 0 : timed_kernel(&k);
			uint64_t tp = timed_plain(start, loads, &sink);

			if (p & 1)
				tk = timed_kernel(&k);

			best_k = tk < best_k ? tk : best_k;
			best_p = tp < best_p ? tp : best_p;
		}
		printf("%llu %.3f %.3f\n", (unsigned long long)(size / 1024),
		       (double)best_k / (double)k.loads, (double)best_p / (double)loads);
		fflush(stdout);
		kernel_release(&k);
	}
	(void)sink;
	return 0;
}
