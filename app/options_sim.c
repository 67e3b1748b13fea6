// SPDX-License-Identifier: MIT
/*
 * options_sim.c - the sim-fault= grammar (docs/OPTIONS.md, docs/SIM.md):
 * cpuN:KIND items, KIND a simulator fault (sim/sim.h sim_fault_parse) or
 * latency-bias=PCT or latency-offset=C; read item by item, and checked against the machine
 * and pmu= with the other options (options.h options_check).
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../sim/sim.h"

/* The kinds that carry a number (KIND=N), each with its accepted range. */
struct fault_arg_row {
	enum sim_fault kind;
	int32_t min, max;
};

static const struct fault_arg_row fault_args[] = {
    {SIM_FAULT_LATENCY_BIAS, OPT_LATENCY_BIAS_MIN, OPT_LATENCY_BIAS_MAX},
    {SIM_FAULT_LATENCY_OFFSET, OPT_LATENCY_OFFSET_MIN, OPT_LATENCY_OFFSET_MAX},
};

/* kind's row of fault_args, or NULL: a kind without a number. */
static const struct fault_arg_row *fault_arg_find(enum sim_fault kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(fault_args); i++)
		if (fault_args[i].kind == kind)
			return &fault_args[i];
	return NULL;
}

/* N of KIND=N: an integer in [min, max], optionally signed. */
static int parse_arg(const char *v, int32_t min, int32_t max, int32_t *out)
{
	bool neg = *v == '-';
	long n = 0;
	const char *d = v + (neg || *v == '+');

	if (!*d)
		return -1;
	for (; *d >= '0' && *d <= '9' && n <= max; d++)
		n = n * 10 + (*d - '0');
	if (*d)
		return -1;
	n = neg ? -n : n;
	if (n < min || n > max)
		return -1;
	*out = (int32_t)n;
	return 0;
}

int options_sim_fault_at(const char *spec, size_t i, struct options_fault *f)
{
	char item[OPT_STR_MAX], *colon, *d, *eq;
	const struct fault_arg_row *row;
	const char *p = spec;
	size_t len;
	unsigned long n = 0;

	for (; i; i--) {
		p = strchr(p, ',');
		if (!p)
			return 1;
		p++;
	}
	if (!*p)
		return 1;
	len = strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
	if (len >= sizeof(item))
		return -1;
	memcpy(item, p, len);
	item[len] = 0;
	colon = strchr(item, ':');
	if (strncmp(item, "cpu", 3) || !colon || colon == item + 3)
		return -1;
	*colon = 0;
	/* Any number of digits up to a million; the check holds it to the count. */
	for (d = item + 3; *d >= '0' && *d <= '9' && n < 1000000; d++)
		n = n * 10 + (unsigned long)(*d - '0');
	if (*d || n >= 1000000)
		return -1;
	/* latency-bias=PCT and latency-offset=C carry their number; the other kinds none. */
	f->arg = 0;
	eq = strchr(colon + 1, '=');
	if (eq)
		*eq = 0;
	if (sim_fault_parse(colon + 1, &f->kind))
		return -1;
	row = fault_arg_find(f->kind);
	if (!row != !eq || (row && parse_arg(eq + 1, row->min, row->max, &f->arg)))
		return -1;
	f->cpu = (unsigned int)n;
	return 0;
}

int options_check_sim_fault(const struct options *o, char *err, size_t err_size)
{
	unsigned int cpu, n = plat_cpu_count();
	struct options_fault f;
	enum sim_fault kind;
	int rc;

	for (size_t i = 0; (rc = options_sim_fault_at(o->sim_fault, i, &f)) != 1; i++) {
		if (rc < 0) {
			pp_snprintf(
			    err, err_size,
			    "option sim-fault: bad value '%s' (accepted: cpuN:KIND separated "
			    "by commas, N 0..%u, KIND " OPT_SIM_FAULT_KINDS
			    ", PCT %d..%d, C %d..%d)",
			    o->sim_fault, n - 1, OPT_LATENCY_BIAS_MIN, OPT_LATENCY_BIAS_MAX,
			    OPT_LATENCY_OFFSET_MIN, OPT_LATENCY_OFFSET_MAX);
			return -1;
		}
		cpu = f.cpu;
		kind = f.kind;
		if (cpu >= n && n == 1) {
			pp_snprintf(err, err_size,
				    "option sim-fault: cpu%u does not exist: this machine has 1 "
				    "CPU, cpu0 (accepted: cpu0:KIND)",
				    cpu);
			return -1;
		}
		if (cpu >= n) {
			pp_snprintf(err, err_size,
				    "option sim-fault: cpu%u does not exist: this machine has %u "
				    "CPUs, 0-%u (accepted: cpuN:KIND with N in 0-%u)",
				    cpu, n, n - 1, n - 1);
			return -1;
		}
		if (kind == SIM_FAULT_HANG && cpu == 0 && n == 1) {
			pp_snprintf(
			    err, err_size,
			    "option sim-fault: cpu0:hang would stop the boot CPU, which "
			    "waits for the others, and this machine has no other (accepted: "
			    "cpuN:hang with 2 or more CPUs, N 1 or more)");
			return -1;
		}
		if (kind == SIM_FAULT_HANG && cpu == 0) {
			pp_snprintf(err, err_size,
				    "option sim-fault: cpu0:hang would stop the boot CPU, which "
				    "waits for the others (accepted: cpuN:hang with N in 1-%u)",
				    n - 1);
			return -1;
		}
		if (o->pmu == OPT_PMU_HW) {
			pp_snprintf(err, err_size,
				    "option sim-fault: breaks a simulated CPU, but pmu=hw "
				    "(accepted with pmu=sim or pmu=auto)");
			return -1;
		}
	}
	return 0;
}
