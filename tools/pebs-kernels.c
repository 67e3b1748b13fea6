// SPDX-License-Identifier: MIT
/*
 * pebs-kernels - runs one of pebsprobe's kernels (the real build, the same
 * code the UEFI app samples) on Linux and prints, like lmbench's
 * lat_mem_rd, one line per working-set size:
 *
 *   <size in MiB, 5 decimals> <ns per access, 3 decimals>
 *
 *   pebs-kernels chase --size 64M      one size
 *   pebs-kernels chase --cycles        a third column: core cycles per
 *                                      access (Linux perf, the unhalted
 *                                      core cycles the app's latency
 *                                      calibration divides by its loads)
 *   pebs-kernels chase                 a sweep 4K, 8K, ... 256M
 *   pebs-kernels --list                the kernels
 *
 * Options (each also as --opt=value; --help prints the usage): --size
 * N[K|M|G] (4K..1G), --max N[K|M|G] (sweep end, default
 * 256M), --iterations N (default: the kernel's), --passes N (timed passes
 * per size, the best one printed, as lat_mem_rd takes the best of its
 * repetitions; default 1).  Bad usage: one line on
 * stderr naming the option and what it accepts, exit status 2.
 */
#define _GNU_SOURCE
#include "../kernels/kernel.h"
#include "../kernels/partner.h"
#include "../lib/platform.h"
#include "../lib/fmt.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MIN_SIZE (4ULL << 10)
#define MAX_SIZE (1ULL << 30)

static int usage_error(const char *fmt, const char *arg, const char *accepted)
{
	fprintf(stderr, "pebs-kernels: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "; accepted: %s\n", accepted);
	return 2;
}

/* A value that is no number, or one out of range: which, and what is accepted. */
static int value_error(const char *opt, const char *val, const char *what, const char *accepted)
{
	fprintf(stderr, "pebs-kernels: %s: '%s' is %s; accepted: %s\n", opt, val, what, accepted);
	return 2;
}

/* "64M" -> 67108864 (lib/fmt.h pp_parse_num): NULL, or "not a number" / "out of range". */
static const char *parse_size(const char *s, uint64_t *out)
{
	enum pp_num e = *s >= '0' && *s <= '9' ? pp_parse_num(s, true, out) : PP_NUM_BAD;

	return e == PP_NUM_OK ? NULL : e == PP_NUM_BAD ? "not a number" : "out of range";
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Unhalted core cycles of this thread in user mode (perf_event_open(2),
 * PERF_COUNT_HW_CPU_CYCLES: the fixed counter the app reads), or -1 with
 * errno where the kernel gives no PMU to this process.
 */
static int cycles_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* kernel_run(k) with its cycles counted on fd (-1: not counted, 0 returned). */
static uint64_t run_counted(struct kernel_ctx *k, int fd)
{
	uint64_t v = 0;

	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	kernel_run(k);
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			v = 0;
	}
	return v;
}

/*
 * One size: prepare, a warm-up pass, then the timed passes (the best counts).
 * fd: the cycles counter for --cycles, else -2.  Returns 0 or 1.
 */
static int measure(const struct kernel_def *def, uint64_t size, uint64_t iterations,
		   uint64_t passes, int fd)
{
	struct kernel_ctx k;
	char why[160];
	bool clipped;
	uint64_t t0, t1, acc, best = ~0ULL, cyc, best_cyc = 0;

	if (kernel_prepare(&k, def, size, iterations, false, &clipped, why, sizeof(why)) < 0) {
		fprintf(stderr, "pebs-kernels: %s: %s\n", def->name, why);
		return 1;
	}
	/* A two-core kernel's other thread starts in milliseconds on a host. */
	k.cpu_timeout_us = 10 * 1000000ULL;
	if (def->cpus == 2) {
		struct partner p;

		if (partner_pick(0, &p, why, sizeof(why)) < 0) {
			fprintf(stderr, "pebs-kernels: %s: %s\n", def->name, why);
			kernel_release(&k);
			return 1;
		}
		k.partner = p.cpu;
	}
	if (clipped)
		fprintf(stderr, "pebs-kernels: %s: only %llu bytes could be allocated\n", def->name,
			(unsigned long long)k.size);
	/* Warm-up: page faults and the first touch stay out of the timed pass. */
	{
		uint64_t saved = k.iterations;

		k.iterations = saved / 10 ? saved / 10 : 1;
		kernel_run(&k);
		k.iterations = saved;
	}
	for (uint64_t p = 0; p < passes && !k.error; p++) {
		t0 = now_ns();
		cyc = run_counted(&k, fd);
		t1 = now_ns();
		if (t1 - t0 < best) {
			best = t1 - t0;
			best_cyc = cyc;
		}
	}
	if (k.error) {
		fprintf(stderr, "pebs-kernels: %s: the second CPU could not run its part\n",
			def->name);
		kernel_release(&k);
		return 1;
	}
	acc = k.loads + k.stores;
	if (!acc)
		acc = k.iterations;
	printf("%.5f %.3f", (double)k.size / (1024.0 * 1024.0), (double)best / (double)acc);
	/* --cycles: the app's calibration figure, cycles per load; "-" where perf gave none. */
	if (fd >= 0)
		printf(" %.2f", (double)best_cyc / (double)acc);
	else if (fd == -1)
		printf(" -");
	printf("\n");
	fflush(stdout);
	kernel_release(&k);
	return 0;
}

int main(int argc, char **argv)
{
	const struct kernel_def *def = NULL;
	uint64_t size = 0, max = 256ULL << 20, iterations = 0, passes = 1;
	const char *size_arg = "";
	char names[512];
	int rc = 0, fd = -2;
	bool cycles = false;

	kernel_names(names, sizeof(names));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		char opt[16];
		/* --size=64M as well as --size 64M: the value after '=' stands in for the next
		 * word. */
		const char *inline_val = NULL;

		if (!strncmp(a, "--", 2) && eq && (size_t)(eq - a) < sizeof(opt)) {
			memcpy(opt, a, (size_t)(eq - a));
			opt[eq - a] = 0;
			a = opt;
			inline_val = eq + 1;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf(
			    "usage: pebs-kernels KERNEL [--size N[K|M|G]] [--max N[K|M|G]] "
			    "[--iterations N] [--passes N] [--cycles]\n"
			    "       pebs-kernels --list\n"
			    "One line per working-set size: <MiB> <ns per access> (lat_mem_rd's "
			    "format);\n--cycles adds core cycles per access (Linux perf; '-' "
			    "without it).\n--size N: one size, %lluK..%lluM; without it a sweep "
			    "from "
			    "4K to --max (default 256M).\nSizes take K, M or G (powers of 1024); "
			    "--opt=value works too.\nKernels: %s\n",
			    MIN_SIZE >> 10, MAX_SIZE >> 20, names);
			return 0;
		}
		if (!strcmp(a, "--cycles") && !inline_val) {
			cycles = true;
			continue;
		}
		if (!strcmp(a, "--list")) {
			for (size_t j = 0; j < kernel_count(); j++)
				printf("%-14s %s\n", kernel_at(j)->name, kernel_at(j)->what);
			return 0;
		}
		if (!strcmp(a, "--size") || !strcmp(a, "--max") || !strcmp(a, "--iterations") ||
		    !strcmp(a, "--passes")) {
			bool count = !strcmp(a, "--iterations") || !strcmp(a, "--passes");
			const char *val = inline_val	 ? inline_val
					  : i + 1 < argc ? argv[i + 1]
							 : NULL;
			uint64_t v;

			if (!val || !*val)
				return usage_error("%s needs a value", a,
						   count ? "a count >= 1" : "N[K|M|G], 4K..1G");
			if (count) {
				char *end;

				errno = 0;
				v = strtoull(val, &end, 10);
				if (*end || val[0] < '0' || val[0] > '9')
					return value_error(a, val, "not a number", "a count >= 1");
				if (errno || !v)
					return value_error(a, val, "out of range", "a count >= 1");
				if (!strcmp(a, "--passes"))
					passes = v;
				else
					iterations = v;
			} else {
				const char *bad = parse_size(val, &v);

				if (!bad && (v < MIN_SIZE || v > MAX_SIZE))
					bad = "out of range";
				if (bad)
					return value_error(a, val, bad, "N[K|M|G], 4K..1G");
				if (!strcmp(a, "--size")) {
					size = v;
					size_arg = val;
				} else
					max = v;
			}
			if (!inline_val)
				i++;
			continue;
		}
		if (a[0] == '-')
			return usage_error("unknown option '%s'", a,
					   "KERNEL [--size N[K|M|G]] [--max N[K|M|G]] "
					   "[--iterations N] [--passes N] [--cycles], "
					   "--list");
		if (def)
			return usage_error("one kernel at a time, '%s' is a second one", a, names);
		def = kernel_find(a);
		if (!def)
			return usage_error("unknown kernel '%s'", a, names);
	}
	if (!def)
		return usage_error("%s", "no kernel named", names);
	if (size && size < def->min_size) {
		char lim[64];

		snprintf(lim, sizeof(lim), "%llu bytes or more for %s",
			 (unsigned long long)def->min_size, def->name);
		return value_error("--size", size_arg, "out of range, below the kernel's minimum",
				   lim);
	}
	if (def->cpus > plat_cpu_count()) {
		fprintf(stderr, "pebs-kernels: %s needs %u CPUs, %u online\n", def->name, def->cpus,
			plat_cpu_count());
		return 77;
	}
	fprintf(stderr, "pebs-kernels: %s (%s), stride %u\n", def->name, def->what, def->stride);
	if (cycles) {
		fd = cycles_open();
		if (fd < 0)
			fprintf(stderr,
				"pebs-kernels: --cycles: perf_event_open: %s (no PMU for this "
				"process: a VM without one, or perf_event_paranoid); '-' instead\n",
				strerror(errno));
	}
	if (size)
		rc = measure(def, size, iterations, passes, fd);
	else
		for (uint64_t s = def->min_size > MIN_SIZE ? def->min_size : MIN_SIZE; s <= max;
		     s *= 2)
			rc |= measure(def, s, iterations, passes, fd);
	if (fd >= 0)
		close(fd);
	return rc;
}
