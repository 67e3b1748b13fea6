// SPDX-License-Identifier: MIT
/*
 * options_platform.c - sim-platform= (docs/OPTIONS.md, docs/SIM.md "The
 * platform"): the harsher behaviours of a real platform, items separated
 * by commas, parsed once when the token is read into struct
 * opt_sim_platform; checked with the other options (pmu= is not hw, the
 * processors exist); applied before the simulator is selected.
 *   cpuN:disabled  the firmware disables processor N (MP services
 *                  EnableDisableAP): it stays in the firmware's numbers,
 *                  leaves plat_cpu_count()'s
 *   cet            CR4.CET set: supervisor shadow stacks (sim/sim.h)
 *   timer-attr     a firmware timer that changes a page attribute through
 *                  the loaded CR3 (sim/sim.h sim_set_timer_attr)
 *   timer-extint   that timer as the 8254 through the 8259: ExtINT on
 *                  LVT LINT0, which TPR does not hold (implies timer-attr)
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../sim/sim.h"

/* One item of len characters at p into pl (a struct opt_sim_platform). */
static int parse_item(const char *p, size_t len, void *ctx, char *why, size_t why_size)
{
	struct opt_sim_platform *pl = ctx;
	const char *rest;
	unsigned int n;

	if (len == 3 && !strncmp(p, "cet", 3)) {
		pl->cet = true;
		return 0;
	}
	if (len == 10 && !strncmp(p, "timer-attr", 10)) {
		pl->timer_attr = true;
		return 0;
	}
	if (len == 12 && !strncmp(p, "timer-extint", 12)) {
		pl->timer_attr = pl->timer_extint = true;
		return 0;
	}
	/* cpuN:disabled, N a firmware processor number (the check holds it to the machine) */
	if (!options_item_cpu(p, len, &n, &rest) && (size_t)(p + len - rest) == 8 &&
	    !strncmp(rest, "disabled", 8)) {
		if (pl->n_disabled >= OPT_PLATFORM_DISABLED_MAX) {
			pp_snprintf(why, why_size, "more than %u cpuN:disabled items",
				    OPT_PLATFORM_DISABLED_MAX);
			return -1;
		}
		pl->disabled[pl->n_disabled++] = n;
		return 0;
	}
	pp_snprintf(why, why_size, "item '%.*s' is not one accepted", (int)len, p);
	return -1;
}

int options_parse_sim_platform(struct options *o, const char *v, char *why, size_t why_size)
{
	struct opt_sim_platform pl;
	const char *p = v;

	memset(&pl, 0, sizeof(pl));
	if (!*p || !strcmp(p, "none")) {
		o->platform = pl;
		return 0;
	}
	if (options_each_item(p, ',', parse_item, &pl, why, why_size))
		return -1;
	o->platform = pl;
	return 0;
}

int options_check_platform(const struct options *o, char *err, size_t err_size)
{
	const struct opt_sim_platform *pl = &o->platform;
	struct plat_cpu_unused u[1];
	unsigned int n = plat_cpu_count() + plat_cpus_unused(u, 0);

	if (!pl->n_disabled && !pl->cet && !pl->timer_attr)
		return 0;
	if (o->pmu == OPT_PMU_HW) {
		pp_snprintf(err, err_size,
			    "option sim-platform: changes the simulated platform, but pmu=hw "
			    "(accepted with pmu=sim or pmu=auto)");
		return -1;
	}
	for (unsigned int i = 0; i < pl->n_disabled; i++) {
		if (pl->disabled[i] && pl->disabled[i] < n)
			continue;
		pp_snprintf(err, err_size,
			    "option sim-platform: cpu%u:disabled: %s (accepted: cpuN:disabled with "
			    "N in 1-%u, a processor other than the boot one)",
			    pl->disabled[i],
			    pl->disabled[i] ? "no such processor" : "the boot processor", n - 1);
		return -1;
	}
	return 0;
}

int options_apply_platform_cpus(const struct options *o, char *err, size_t err_size)
{
	const struct opt_sim_platform *pl = &o->platform;
	char why[160];

	for (unsigned int i = 0; i < pl->n_disabled; i++) {
		if (!plat_cpu_disable(pl->disabled[i], why, sizeof(why)))
			continue;
		pp_snprintf(err, err_size, "option sim-platform: cpu%u:disabled: %s",
			    pl->disabled[i], why);
		return -1;
	}
	return 0;
}

int options_apply_platform_sim(const struct options *o, char *err, size_t err_size)
{
	(void)err;
	(void)err_size;
	sim_set_cet(o->platform.cet);
	/* The firmware's timer that changes page attributes (sim/timer.c). */
	sim_set_timer_attr(o->platform.timer_extint ? SIM_TIMER_EXTINT
			   : o->platform.timer_attr ? SIM_TIMER_LAPIC
						    : SIM_TIMER_OFF);
	return 0;
}
