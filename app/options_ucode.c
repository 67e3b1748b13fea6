// SPDX-License-Identifier: MIT
/*
 * options_ucode.c - sim-ucode= and sim-stepping= (docs/OPTIONS.md,
 * docs/SIM.md): the microcode revision and the stepping the simulated CPUs
 * report in place of their model's, so that each row of the errata table
 * (pmu/errata.c) is shown to apply and not to apply.  Parsed once when the
 * token is read into struct opt_sim_ids; refused with pmu=hw; put onto the
 * simulator once it is selected (sim/sim.h sim_set_microcode/_stepping).
 */
#include "options.h"
#include "../lib/fmt.h"

/* "model" (the model's own), or a number 0..max, decimal or 0x hex. */
static int parse_id(const char *v, uint64_t max, bool *set, uint32_t *out, char *why,
		    size_t why_size)
{
	const char *end;
	uint64_t n;

	if (!strcmp(v, "model")) {
		*set = false;
		*out = 0;
		return 0;
	}
	if (!pp_parse_u64(v, &n, &end) || *end || n > max) {
		pp_snprintf(why, why_size, "not model nor a number 0..0x%llx",
			    (unsigned long long)max);
		return -1;
	}
	*set = true;
	*out = (uint32_t)n;
	return 0;
}

int options_parse_sim_ucode(struct options *o, const char *v, char *why, size_t why_size)
{
	return parse_id(v, 0xffffffffu, &o->ids.ucode_set, &o->ids.ucode, why, why_size);
}

int options_parse_sim_stepping(struct options *o, const char *v, char *why, size_t why_size)
{
	return parse_id(v, 15, &o->ids.stepping_set, &o->ids.stepping, why, why_size);
}

int options_check_sim_ids(const struct options *o, char *err, size_t err_size)
{
	if (o->pmu != OPT_PMU_HW || (!o->ids.ucode_set && !o->ids.stepping_set))
		return 0;
	pp_snprintf(err, err_size,
		    "option %s: sets a simulated CPU's %s, but pmu=hw (accepted with pmu=sim or "
		    "pmu=auto)",
		    o->ids.ucode_set ? "sim-ucode" : "sim-stepping",
		    o->ids.ucode_set ? "microcode revision" : "stepping");
	return -1;
}

void options_apply_sim_ids(const struct options *o)
{
	if (o->ids.ucode_set)
		sim_set_microcode(o->ids.ucode);
	if (o->ids.stepping_set)
		sim_set_stepping(o->ids.stepping);
}
