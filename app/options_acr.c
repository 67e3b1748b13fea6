// SPDX-License-Identifier: MIT
/*
 * options_acr.c - the auto counter reload options (docs/OPTIONS.md):
 * acr= (the acr-reload kernel's counters, pmu/acr.h) and sim-acr= (the
 * simulated CPUID.23H.2, sim/sim.h sim_set_acr).  Their syntax here, before
 * any backend; acr= against the CPU's masks later (job/check.c).
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../pmu/acr.h"

int options_sim_acr(const char *spec, uint32_t regs[4])
{
	const char *p = spec;

	memset(regs, 0, 4 * sizeof(regs[0]));
	if (!*p || !strcmp(p, "off"))
		return 0;
	for (int i = 0; i < 4; i++) {
		const char *end;
		uint64_t v;

		if (!pp_parse_u64(p, &v, &end) || v > 0xffffffffu || end == p ||
		    (i < 3 && *end != ',') || (i == 3 && *end))
			return -1;
		regs[i] = (uint32_t)v;
		p = end + 1;
	}
	return 0;
}

int options_check_acr(const struct options *o, char *err, size_t err_size)
{
	struct acr_counters want;
	uint32_t regs[4];

	if (acr_parse(o->job.acr, &want)) {
		pp_snprintf(err, err_size,
			    "option acr: bad value '%s' (accepted: auto, or gpR:gpC, the "
			    "reloaded and the cause GP counter, e.g. gp3:gp2)",
			    o->job.acr);
		return -1;
	}
	if (options_sim_acr(o->sim_acr, regs)) {
		pp_snprintf(err, err_size,
			    "option sim-acr: bad value '%s' (accepted: off, or the simulated "
			    "CPUID.23H.2 EAX,EBX,ECX,EDX as four numbers, e.g. "
			    "0xfc,0x0,0xfc,0x0)",
			    o->sim_acr);
		return -1;
	}
	if ((regs[0] | regs[1] | regs[2] | regs[3]) && o->pmu == OPT_PMU_HW) {
		pp_snprintf(err, err_size,
			    "option sim-acr: gives a simulated CPU auto counter reload, but "
			    "pmu=hw (accepted with pmu=sim or pmu=auto)");
		return -1;
	}
	return 0;
}
