// SPDX-License-Identifier: MIT
/*
 * tsc.c - the simulated time-stamp counter.
 *
 * A constant TSC counts at one rate whatever the core does (SDM Vol. 3B,
 * "Time-Stamp Counter", invariant TSC).  Here it advances two ways:
 *
 *   - during modelled work, by the modelled cycles only (engine.c adds
 *     them): the core clock is the TSC clock in this model, and the host
 *     time the simulator takes to model the work is not the part's time;
 *   - outside it, by the platform's clock at the part's rate (sim_tsc_hz):
 *     a firmware Stall, the platform's own work.  So the job's calibration
 *     against the clock finds the rate CPUID 15H/16H report.
 *
 * Modelled work is a span on one CPU: it starts at a kernel's report
 * (hw_ops mem_access / retire, and mem_access_cpu for the CPU reported on)
 * and ends at that CPU's next hw call of another kind (RDTSC, RDMSR, WRMSR,
 * CPUID, the local APIC, the PMI handler's install, the interrupt window).
 * The host time of a span is not credited; the host time between spans is.
 * What the simulator cannot see: time spent inside a span that the part
 * would have spent too without a report (a firmware Stall between two
 * kernel reports with no hw call between) counts as modelled work, so is
 * lost; the code of a PMI handler (not modelled: it reports nothing) runs
 * outside a span, at wall time.
 */
#include "sim_int.h"
#include "../lib/platform.h"

uint64_t sim_tsc_hz(const struct sim_model *m)
{
	if (m->max_leaf >= 0x15 && m->c15[0] && m->c15[1] && m->c15[2])
		return (uint64_t)m->c15[2] * m->c15[1] / m->c15[0];
	if (m->max_leaf >= 0x16 && m->c16_mhz)
		return (uint64_t)m->c16_mhz * 1000000;
	return (uint64_t)m->tsc_mhz * 1000000;
}

void sim_tsc_reset(struct sim_cpu *c)
{
	c->tsc = 0x100000;
	c->wall_us = plat_time_us();
	c->wall_credit_us = 0;
	c->wall_ticks = 0;
	c->in_work = false;
}

/* Credits the host time since wall_us, outside modelled work, at the part's rate. */
static void credit(struct sim_cpu *c, uint64_t now)
{
	uint64_t hz, us, due;

	if (!c->m)
		return;
	hz = sim_tsc_hz(c->m);
	if (now > c->wall_us)
		c->wall_credit_us += now - c->wall_us;
	c->wall_us = now;
	us = c->wall_credit_us;
	due = us / 1000000 * hz + us % 1000000 * hz / 1000000;
	if (due > c->wall_ticks) {
		c->tsc += due - c->wall_ticks;
		c->wall_ticks = due;
	}
}

void sim_tsc_work(struct sim_cpu *c)
{
	if (c->in_work)
		return;
	credit(c, plat_time_us());
	c->in_work = true;
}

void sim_tsc_outside(struct sim_cpu *c)
{
	uint64_t now = plat_time_us();

	if (c->in_work) {
		c->wall_us = now; /* the span's host time: not the part's */
		c->in_work = false;
	} else {
		credit(c, now);
	}
}

/* RDTSC itself takes time: consecutive reads differ (about 20 cycles). */
uint64_t sim_tsc_read(struct sim_cpu *c)
{
	sim_tsc_outside(c);
	c->tsc += 20;
	return c->tsc;
}
