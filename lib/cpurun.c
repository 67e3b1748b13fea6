// SPDX-License-Identifier: MIT
/*
 * cpurun.c - one piece of work on one CPU, the BSP waiting (cpurun.h).
 */
#include "cpurun.h"
#include "platform.h"
#include "report.h"

struct cpu_call {
	void (*fn)(void *arg);
	void *arg;
	volatile uint32_t done;
};

static void trampoline(void *p)
{
	struct cpu_call *c = p;

	c->fn(c->arg);
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
}

int cpu_run(unsigned int cpu, void (*fn)(void *arg), void *arg, uint64_t timeout_us,
	    void (*idle)(void *idle_arg), void *idle_arg)
{
	struct cpu_call *c;
	uint64_t t0;

	if (cpu == 0) {
		fn(arg);
		return CPU_RUN_OK;
	}
	/* Never on the stack: after a timeout the other CPU may still write it. */
	c = plat_alloc(sizeof(*c));
	if (!c)
		return CPU_RUN_NO_START;
	c->fn = fn;
	c->arg = arg;
	c->done = 0;
	report_defer_begin();
	if (plat_start_on_cpu(cpu, trampoline, c) < 0) {
		report_defer_end();
		plat_free(c);
		return CPU_RUN_NO_START;
	}
	t0 = plat_time_us();
	while (!__atomic_load_n(&c->done, __ATOMIC_ACQUIRE)) {
		if (timeout_us && plat_time_us() - t0 > timeout_us) {
			report_defer_end();
			return CPU_RUN_TIMEOUT; /* c is left to the CPU that may still run */
		}
		if (idle)
			idle(idle_arg);
		else
			plat_stall_us(50);
	}
	/* The work is done; the platform's own bookkeeping follows it shortly. */
	plat_wait_cpu(cpu, 30000000);
	report_defer_end();
	plat_free(c);
	return CPU_RUN_OK;
}
