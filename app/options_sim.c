// SPDX-License-Identifier: MIT
/*
 * options_sim.c - sim-fault= (docs/OPTIONS.md, docs/SIM.md): cpuN:KIND
 * items, read once when the token is into struct opt_sim_faults, KIND a
 * simulator fault by its name (sim/sim.h sim_fault_parse) or KIND=N for a
 * kind of fault_args[]; checked against the machine and pmu= with the other
 * options (options.h options_check).
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../sim/sim.h"

/*
 * The kinds that carry a number, KIND=N, and the numbers each accepts;
 * every other kind takes none.  A new one: its enum sim_fault and name
 * (sim/sim.c fault_names), a row here, and its words in
 * OPT_SIM_FAULT_KINDS.
 */
static const struct {
	enum sim_fault kind;
	int32_t min, max;
} fault_args[] = {
    {SIM_FAULT_LATENCY_BIAS, OPT_LATENCY_BIAS_MIN, OPT_LATENCY_BIAS_MAX},
    {SIM_FAULT_LATENCY_OFFSET, OPT_LATENCY_OFFSET_MIN, OPT_LATENCY_OFFSET_MAX},
};

/* N of KIND=N: an integer, optionally signed, within [min, max]. */
static int parse_arg(const char *v, int32_t min, int32_t max, int32_t *out)
{
	bool neg = *v == '-';
	const char *d = v + (neg || *v == '+');
	int64_t n = 0;

	if (!*d)
		return -1;
	for (; *d >= '0' && *d <= '9' && n <= (int64_t)max - min; d++)
		n = n * 10 + (*d - '0');
	n = neg ? -n : n;
	if (*d || n < min || n > max)
		return -1;
	*out = (int32_t)n;
	return 0;
}

/* One item "cpuN:KIND[=N]" of len characters at p into f. */
static int parse_item(const char *p, size_t len, struct options_fault *f, char *why,
		      size_t why_size)
{
	char kind[32], *eq;
	const char *rest;
	size_t i;

	if (options_item_cpu(p, len, &f->cpu, &rest) || (size_t)(p + len - rest) >= sizeof(kind)) {
		pp_snprintf(why, why_size, "'%.*s' is not cpuN:KIND", (int)(len > 40 ? 40 : len),
			    p);
		return -1;
	}
	memcpy(kind, rest, (size_t)(p + len - rest));
	kind[p + len - rest] = 0;
	eq = strchr(kind, '=');
	if (eq)
		*eq = 0;
	f->arg = 0;
	if (sim_fault_parse(kind, &f->kind)) {
		pp_snprintf(why, why_size, "'%.*s': no such KIND '%s'", (int)len, p, kind);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(fault_args) && fault_args[i].kind != f->kind; i++)
		;
	if ((i < ARRAY_SIZE(fault_args)) != !!eq ||
	    (eq && parse_arg(eq + 1, fault_args[i].min, fault_args[i].max, &f->arg))) {
		if (i < ARRAY_SIZE(fault_args))
			pp_snprintf(why, why_size, "'%.*s': %s needs =N, N %d..%d", (int)len, p,
				    kind, fault_args[i].min, fault_args[i].max);
		else
			pp_snprintf(why, why_size, "'%.*s': %s takes no =N", (int)len, p, kind);
		return -1;
	}
	return 0;
}

/* One more item into fs (a struct opt_sim_faults). */
static int add_item(const char *p, size_t len, void *ctx, char *why, size_t why_size)
{
	struct opt_sim_faults *fs = ctx;

	if (fs->n >= OPT_ITEMS_MAX) {
		pp_snprintf(why, why_size, "more than %u items", OPT_ITEMS_MAX);
		return -1;
	}
	if (parse_item(p, len, &fs->item[fs->n], why, why_size))
		return -1;
	fs->n++;
	return 0;
}

int options_parse_sim_fault(struct options *o, const char *v, char *why, size_t why_size)
{
	static struct opt_sim_faults fs; /* 12 KiB: not on the stack */
	const char *p = v;

	fs.n = 0;
	if (options_each_item(p, ',', add_item, &fs, why, why_size))
		return -1;
	memcpy(&o->faults, &fs, offsetof(struct opt_sim_faults, item) + fs.n * sizeof(fs.item[0]));
	return 0;
}

int options_check_sim_fault(const struct options *o, char *err, size_t err_size)
{
	unsigned int n = plat_cpu_count();

	for (unsigned int i = 0; i < o->faults.n; i++) {
		unsigned int cpu = o->faults.item[i].cpu;
		enum sim_fault kind = o->faults.item[i].kind;

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
