// SPDX-License-Identifier: MIT
/*
 * options_acr.c - the auto counter reload options (docs/OPTIONS.md), read
 * once when the token is: acr= (the acr-reload kernel's counters, pmu/acr.h
 * struct acr_counters; against the CPU's masks later, job/check.c) and
 * sim-acr= (the simulated CPUID.23H.2, sim/sim.h sim_set_acr).
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../pmu/acr.h"

/* "gpN" of the n characters at s, N at most two digits. */
static bool parse_gp(const char *s, size_t n, int *gp)
{
	int v = 0;

	if (n < 3 || n > 4 || s[0] != 'g' || s[1] != 'p')
		return false;
	for (size_t i = 2; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*gp = v;
	return true;
}

int options_parse_acr(struct options *o, const char *v, char *why, size_t why_size)
{
	struct acr_counters want = ACR_COUNTERS_AUTO;
	const char *colon = strchr(v, ':');

	if (*v && strcmp(v, "auto") &&
	    (!colon || !parse_gp(v, (size_t)(colon - v), &want.reloaded) ||
	     !parse_gp(colon + 1, strlen(colon + 1), &want.cause))) {
		why[0] = 0; /* the row's accepted text says it all */
		return -1;
	}
	o->job.acr = want;
	return 0;
}

int options_parse_sim_acr(struct options *o, const char *v, char *why, size_t why_size)
{
	uint32_t regs[4] = {0};
	const char *p = v;

	for (int i = 0; *v && strcmp(v, "off") && i < 4; i++) {
		const char *end;
		uint64_t n;

		if (!pp_parse_u64(p, &n, &end) || n > 0xffffffffu || end == p ||
		    (i < 3 && *end != ',') || (i == 3 && *end)) {
			why[0] = 0; /* the row's accepted text says it all */
			return -1;
		}
		regs[i] = (uint32_t)n;
		p = end + 1;
	}
	memcpy(o->sim_acr, regs, sizeof(regs));
	return 0;
}

int options_check_acr(const struct options *o, char *err, size_t err_size)
{
	const uint32_t *r = o->sim_acr;

	if ((r[0] | r[1] | r[2] | r[3]) && o->pmu == OPT_PMU_HW) {
		pp_snprintf(err, err_size,
			    "option sim-acr: gives a simulated CPU auto counter reload, but "
			    "pmu=hw (accepted with pmu=sim or pmu=auto)");
		return -1;
	}
	return 0;
}
