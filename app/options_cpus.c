// SPDX-License-Identifier: MIT
/*
 * options_cpus.c - cpus= (docs/OPTIONS.md), read once when the token is
 * into struct job_cpus: all, boot, or a CPU list in Linux's syntax
 * (Documentation/admin-guide/kernel-parameters.rst, "cpu lists"; the
 * parser lib/bitmap-str.c bitmap_parselist): items separated by commas,
 * each N, A-B (A <= B), or A-B:U/G (of each group of G CPUs from A, the
 * first U, up to B).  Checked against the machine with the other options;
 * and the "cpuN:" of sim-fault= and sim-handoff= items.
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

#define CPUS_ACCEPTED                                                                              \
	"all, boot, or CPU numbers and ranges separated by commas, e.g. 0,2-3 or 0-287:1/2"

/* A decimal number at *p, at most max: advances *p; false when none or too big. */
static bool number(const char **p, uint32_t max, uint32_t *out)
{
	uint64_t n = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((n = n * 10 + (uint64_t)(*s - '0')) > max)
			return false;
	*p = s;
	*out = (uint32_t)n;
	return true;
}

/* One item at p (up to a ',' or the end) into words; *end past it. */
static int parse_item(const char *p, uint64_t *words, const char **end, char *why, size_t why_size)
{
	const char *start = p;
	uint32_t a, b, used = 1, group = 1;
	int len = (int)options_item_len(p, ',');

	if (len > 40)
		len = 40;
	if (!number(&p, JOB_CPUS_MAX - 1, &a))
		goto bad;
	b = a;
	if (*p == '-') {
		p++;
		if (!number(&p, JOB_CPUS_MAX - 1, &b))
			goto bad;
		if (*p == ':') {
			p++;
			if (!number(&p, JOB_CPUS_MAX, &used) || *p++ != '/' ||
			    !number(&p, JOB_CPUS_MAX, &group))
				goto bad;
		}
	}
	if (*p && *p != ',')
		goto bad;
	if (b < a) {
		pp_snprintf(why, why_size, "'%.*s' is a reversed range (A-B needs A <= B)", len,
			    start);
		return -1;
	}
	if (!group || used > group) {
		pp_snprintf(why, why_size,
			    "'%.*s': A-B:U/G needs a group G of 1 or more and U at most G", len,
			    start);
		return -1;
	}
	for (uint32_t c = a; c <= b; c++)
		if ((c - a) % group < used)
			words[c / 64] |= 1ULL << (c % 64);
	*end = p;
	return 0;
bad:
	pp_snprintf(why, why_size, "'%.*s' is not N, A-B or A-B:U/G with CPU numbers 0..%u", len,
		    start, JOB_CPUS_MAX - 1);
	return -1;
}

int options_parse_cpus(struct options *o, const char *v, char *why, size_t why_size)
{
	static struct job_cpus c; /* 1 KiB: not on the stack */
	const char *p = v;

	memset(&c, 0, sizeof(c));
	c.how = JOB_CPUS_LIST;
	if (!strcmp(v, "all") || !strcmp(v, "boot")) {
		c.how = *v == 'a' ? JOB_CPUS_ALL : JOB_CPUS_BOOT;
		p = "";
	} else if (!*v) {
		pp_snprintf(why, why_size, "no CPU");
		return -1;
	}
	while (*p) {
		if (parse_item(p, c.word, &p, why, why_size))
			return -1;
		if (*p == ',' && !*++p) {
			pp_snprintf(why, why_size, "an empty item at the end");
			return -1;
		}
	}
	o->job.cpus = c;
	return 0;
}

int options_check_cpus(const struct options *o, char *err, size_t err_size)
{
	const struct job_cpus *c = &o->job.cpus;
	unsigned int n = plat_cpu_count(), cpu;
	bool any = false;

	if (c->how != JOB_CPUS_LIST)
		return 0;
	for (cpu = 0; cpu < JOB_CPUS_MAX; cpu++) {
		if (!(c->word[cpu / 64] >> (cpu % 64) & 1))
			continue;
		any = true;
		if (cpu >= n)
			break;
	}
	if (cpu < JOB_CPUS_MAX && n == 1) {
		pp_snprintf(err, err_size,
			    "option cpus: CPU %u does not exist: this machine has 1 CPU, CPU 0 "
			    "(accepted: all, boot or 0)",
			    cpu);
		return -1;
	}
	if (cpu < JOB_CPUS_MAX) {
		pp_snprintf(err, err_size,
			    "option cpus: CPU %u does not exist: this machine has %u CPUs, 0-%u "
			    "(accepted: " CPUS_ACCEPTED ")",
			    cpu, n, n - 1);
		return -1;
	}
	if (!any) {
		pp_snprintf(err, err_size,
			    "option cpus: the list chooses no CPU (accepted: " CPUS_ACCEPTED ")");
		return -1;
	}
	return 0;
}

int options_item_cpu(const char *p, size_t len, unsigned int *cpu, const char **rest)
{
	const char *q = p + 3;
	uint32_t n;

	if (len < 6 || strncmp(p, "cpu", 3) || !number(&q, OPT_CPU_NUMBER_MAX, &n) || *q != ':' ||
	    (size_t)(q + 1 - p) >= len)
		return -1;
	*cpu = n;
	*rest = q + 1;
	return 0;
}
