// SPDX-License-Identifier: MIT
/*
 * options_host.c - sim-host= (docs/OPTIONS.md, docs/KVM.md): the simulated
 * machine as a guest of this host sees it.  A word of the option table,
 * stored as enum sim_host; refused with pmu=hw, where no simulator runs;
 * put onto the simulator right after the model is selected.
 */
#include "options.h"
#include "../lib/fmt.h"

/* In enum sim_host's order (sim/sim.h). */
const char *const options_sim_host_words[] = {"none", "kvm", "kvm-6.8", NULL};

int options_check_sim_host(const struct options *o, char *err, size_t err_size)
{
	if (o->sim_host == SIM_HOST_NONE || o->pmu != OPT_PMU_HW)
		return 0;
	pp_snprintf(err, err_size,
		    "option sim-host: makes the simulated machine a guest, but pmu=hw "
		    "(accepted with pmu=sim or pmu=auto)");
	return -1;
}

void options_apply_sim_host(const struct options *o)
{
	if (o->sim_host != SIM_HOST_NONE)
		sim_set_host(o->sim_host);
}
