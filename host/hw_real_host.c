// SPDX-License-Identifier: MIT
/*
 * hw_real_host.c - host builds run no real instructions on the PMU: there is
 * no real backend, so pmu=hw SKIPs and pmu=auto uses the simulator.
 */
#include "../efi/hw_real.h"
#include "../lib/fmt.h"

const struct hw_ops *hw_real_ops(void)
{
	return NULL;
}

unsigned long hw_real_gp_trapped(void)
{
	return 0;
}

bool hw_real_idt_intact(char *why, size_t why_size)
{
	pp_snprintf(why, why_size, "no IDT on the host");
	return false;
}

bool hw_real_selftest_vector(char *why, size_t why_size)
{
	pp_snprintf(why, why_size, "no IDT on the host");
	return false;
}
