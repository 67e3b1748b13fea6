/* SPDX-License-Identifier: MIT */
/*
 * cpuset.h - a set of CPU numbers sized from the machine's CPU count (no
 * fixed cap: a two-socket Sierra Forest has 576 logical CPUs): one bit per
 * CPU in words allocated for n CPUs.  cpus= selects one (job/cpus.c), the
 * closing verdict table groups CPUs with them (app/summary_table.c).
 */
#ifndef PP_CPUSET_H
#define PP_CPUSET_H

#include "compat.h"

struct cpuset {
	unsigned int n;	 /* CPUs 0..n-1 fit */
	uint64_t word[]; /* bit c % 64 of word[c / 64] */
};

/* An empty set for CPUs 0..n-1 (n >= 1), NULL without memory; cpuset_free() it. */
struct cpuset *cpuset_alloc(unsigned int n);
void cpuset_free(struct cpuset *s);
void cpuset_clear(struct cpuset *s);
/* Out of range: cpuset_add does nothing, cpuset_has is false. */
void cpuset_add(struct cpuset *s, unsigned int cpu);
bool cpuset_has(const struct cpuset *s, unsigned int cpu);
unsigned int cpuset_count(const struct cpuset *s);
bool cpuset_empty(const struct cpuset *s);
/*
 * The set as "0-3,8" in out (size bytes, at least 2); cut with a trailing
 * "+" ("0,2+") when it does not fit in width characters.
 */
void cpuset_text(const struct cpuset *s, char *out, size_t width);

#endif
