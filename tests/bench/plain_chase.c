// SPDX-License-Identifier: MIT
/*
 * plain-chase SIZE... - the reference for bench-chase.sh: a dependent-load
 * pointer chase written here, independent of kernels/: 64-byte slots linked
 * in one random cycle (Sattolo's shuffle, its own xorshift generator),
 * memory from posix_memalign and zeroed as the host's plat_alloc_pages does,
 * a warm-up of a tenth, then PASSES timed passes of LOADS loads, the best
 * printed as "<MiB> <ns per load>", the format of pebs-kernels and lmbench's
 * lat_mem_rd.  Environment: PASSES (default 5), LOADS (default 1000000).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOT 64

static uint64_t xs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 7;
	xs ^= xs << 17;
	return xs;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void *chase(void *p, uint64_t n)
{
	void **q = p;

	while (n--)
		q = (void **)*q;
	return q;
}

int main(int argc, char **argv)
{
	uint64_t passes = getenv("PASSES") ? strtoull(getenv("PASSES"), NULL, 10) : 5;
	uint64_t loads = getenv("LOADS") ? strtoull(getenv("LOADS"), NULL, 10) : 1000000;
	void *volatile sink;

	for (int a = 1; a < argc; a++) {
		uint64_t size = strtoull(argv[a], NULL, 10), n = size / SLOT, best = ~0ULL;
		uint64_t *idx;
		uint8_t *buf;

		if (n < 2 || posix_memalign((void **)&buf, 4096, size) || !(idx = malloc(n * 8))) {
			fprintf(stderr, "plain-chase: cannot allocate %llu bytes\n",
				(unsigned long long)size);
			return 1;
		}
		memset(buf, 0, size);
		for (uint64_t i = 0; i < n; i++)
			idx[i] = i;
		for (uint64_t i = n - 1; i >= 1; i--) { /* Sattolo: one n-cycle */
			uint64_t j = rnd() % i, t = idx[i];

			idx[i] = idx[j];
			idx[j] = t;
		}
		for (uint64_t i = 0; i < n; i++)
			*(void **)(buf + i * SLOT) = buf + idx[i] * SLOT;
		free(idx);
		sink = chase(buf, loads / 10 ? loads / 10 : 1);
		for (uint64_t p = 0; p < passes; p++) {
			uint64_t t0 = now_ns(), t1;

			sink = chase(buf, loads);
			t1 = now_ns();
			if (t1 - t0 < best)
				best = t1 - t0;
		}
		(void)sink;
		printf("%.5f %.3f\n", (double)size / (1024.0 * 1024.0),
		       (double)best / (double)loads);
		fflush(stdout);
		free(buf);
	}
	return 0;
}
