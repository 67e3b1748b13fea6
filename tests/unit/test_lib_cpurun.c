// SPDX-License-Identifier: MIT
/*
 * test_lib_cpurun.c - lib/cpurun.c's dispatch on the host (a thread per
 * CPU, host/platform_host.c), as the app's on MP services:
 *   - 1,024 CPUs: each AP runs its work on itself, started once through
 *     the platform however many pieces of work it gets, then released;
 *   - a piece of work that does not come back in time: CPU_RUN_TIMEOUT,
 *     then CPU_RUN_LOST at once, never posted again, counted lost;
 *   - the BSP's heartbeat while it waits: "waiting for CPU 1: what, 5 s",
 *     once the console is quiet 5 s over several waits too;
 *   - cpurun_post/cpurun_wait: the partner CPU of the two-CPU kernels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "lib/cpurun.h"
#include "lib/platform.h"
#include "lib/report.h"
#include "test_util.h"

unsigned int plat_host_starts(unsigned int cpu);

struct where {
	unsigned int ran_on, runs;
};

static void whoami(void *p)
{
	struct where *w = p;

	w->ran_on = plat_cpu_self();
	w->runs++;
}

#define MANY 1024

static void every_cpu_once(void **state)
{
	static struct where w[MANY];

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "1024", 1);
	assert_int_equal(plat_cpu_count(), MANY);
	for (unsigned int c = 1; c < MANY; c++) {
		unsigned int before = plat_host_starts(c);

		/* Three pieces of work, as a probe and two kernels: one start. */
		for (unsigned int k = 0; k < 3; k++)
			if (cpurun_run(c, whoami, &w[c], 10000000, NULL, NULL) != CPU_RUN_OK)
				fail_msg("cpu %u: work %u not run", c, k);
		if (w[c].ran_on != c || w[c].runs != 3 || cpurun_run_starts(c) != 1 ||
		    plat_host_starts(c) != before + 1)
			fail_msg(
			    "cpu %u: ran on %u, %u runs, %u starts (%u threads), want on itself, "
			    "3 runs, one start",
			    c, w[c].ran_on, w[c].runs, cpurun_run_starts(c),
			    plat_host_starts(c) - before);
		cpurun_release(c);
	}
}

static void park(void *p)
{
	(void)p;
	__atomic_store_n((volatile unsigned int *)p, 1, __ATOMIC_RELEASE);
	plat_park();
}

static void lost_cpu(void **state)
{
	static unsigned int parked;
	struct where w = {0};
	uint64_t t0;

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	test_lines_clear();
	assert_int_equal(cpurun_run(2, park, &parked, 200000, NULL, NULL), CPU_RUN_TIMEOUT);
	assert_true(cpurun_run_lost(2));
	t0 = plat_time_us();
	/* Never posted again: at once, not after another timeout. */
	assert_int_equal(cpurun_run(2, whoami, &w, 200000, NULL, NULL), CPU_RUN_LOST);
	assert_int_equal(cpurun_post(2, whoami, &w), CPU_RUN_LOST);
	assert_true(plat_time_us() - t0 < 100000);
	assert_int_equal(w.runs, 0);
	/* The others go on. */
	assert_int_equal(cpurun_run(3, whoami, &w, 1000000, NULL, NULL), CPU_RUN_OK);
	assert_int_equal(w.ran_on, 3);
	cpurun_release_all();
	if (!test_line_find("INFO: APs ", "lost 1")) {
		test_lines_dump(stdout);
		fail_msg("no dispatch line counting the lost CPU");
	}
}

static void slow(void *p)
{
	(void)p;
	usleep(5600000);
}

static void heartbeat(void **state)
{
	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	test_lines_clear();
	cpurun_run_what("slow-kernel");
	assert_int_equal(cpurun_run(1, slow, NULL, 60000000, NULL, NULL), CPU_RUN_OK);
	if (!test_line_find("INFO: waiting for CPU 1: slow-kernel, 5 s", NULL)) {
		test_lines_dump(stdout);
		fail_msg("no heartbeat while CPU 1 ran 5.6 s");
	}
	cpurun_release(1);
}

static void three_s(void *p)
{
	(void)p;
	usleep(3000000);
}

static unsigned int ticks;

static void tick(void)
{
	ticks++;
}

/*
 * A job of many short waits: two of 3 s each with the console quiet
 * between them still get a heartbeat (the quiet is counted across waits,
 * report_console_at), and each turn of a wait ticks (report_tick: the
 * screen's header redrawn when due).
 */
static void quiet_across_waits(void **state)
{
	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	report_set_tick(tick);
	ticks = 0;
	report_info("the last line before the waits");
	test_lines_clear();
	cpurun_run_what("short-kernel");
	assert_int_equal(cpurun_run(1, three_s, NULL, 60000000, NULL, NULL), CPU_RUN_OK);
	assert_int_equal(cpurun_run(1, three_s, NULL, 60000000, NULL, NULL), CPU_RUN_OK);
	report_set_tick(NULL);
	if (!test_line_find("INFO: waiting for CPU 1: short-kernel, ", NULL)) {
		test_lines_dump(stdout);
		fail_msg("no line in 6 s of a quiet console over two waits of 3 s");
	}
	assert_true(ticks > 100);
	cpurun_release(1);
}

static void post_and_wait(void **state)
{
	struct where w = {0};

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	assert_int_equal(cpurun_post(1, whoami, &w), CPU_RUN_OK);
	assert_int_equal(cpurun_wait(1, 1000000), CPU_RUN_OK);
	assert_int_equal(w.ran_on, 1);
	assert_int_equal(cpurun_post(1, whoami, &w), CPU_RUN_OK);
	assert_int_equal(cpurun_wait(1, 1000000), CPU_RUN_OK);
	assert_int_equal(w.runs, 2);
	/* CPU 0 is the BSP: nothing to post to; a CPU past the count neither. */
	assert_int_equal(cpurun_post(0, whoami, &w), CPU_RUN_NO_START);
	assert_int_equal(cpurun_post(4, whoami, &w), CPU_RUN_NO_START);
	cpurun_release(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_cpu_once),
	    cmocka_unit_test(post_and_wait),
	    cmocka_unit_test(heartbeat),
	    cmocka_unit_test(quiet_across_waits),
	    /* last: CPU 2's thread stays parked */
	    cmocka_unit_test(lost_cpu),
	};

	test_lines_capture();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
