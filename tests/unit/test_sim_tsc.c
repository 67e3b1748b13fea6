// SPDX-License-Identifier: MIT
/*
 * test_sim_tsc.c - every simulated model's TSC runs at a clock its part
 * has, against the platform's clock, as the job calibrates it (job/job.c):
 * the rate CPUID 15H/16H report where the part has them (as pmu/cpu.c
 * reads them), else the part's rated base frequency, written here by hand
 * from each named part's published specification.  The old simulator's
 * TSC counted modelled cycles only, about 1 kHz against the clock.
 */
#include "test_sim_util.h"
#include "lib/platform.h"
#include "pmu/cpu.h"

/* The parts without CPUID 15H/16H (sim/models.c names them): base MHz. */
static const struct {
	const char *name;
	uint64_t mhz;
} nominal[] = {
    {"core2", 3000}, /* Core 2 Duo E8400 @ 3.00GHz */
    {"nhm", 2667},   /* Core i7-920 @ 2.67GHz */
    {"snb", 3400},   /* Core i7-2600 @ 3.40GHz */
    {"hsw", 3400},   /* Core i7-4770 @ 3.40GHz */
    {"slm", 2400},   /* Atom C2750 @ 2.40GHz */
    {"amd", 2450},   /* EPYC 7763, 2.45 GHz base */
};

static uint64_t want_hz(const char *name, const struct cpu_info *ci)
{
	if (ci->tsc_hz)
		return ci->tsc_hz;
	for (size_t i = 0; i < ARRAY_SIZE(nominal); i++)
		if (!strcmp(nominal[i].name, name))
			return nominal[i].mhz * 1000000;
	fail_msg("%s: no CPUID 15H/16H and no nominal frequency here", name);
	return 0;
}

/*
 * A 20 ms calibration (job/job.c's) brackets the TSC's ticks between the
 * stall asked for and the time measured around both reads: exact bounds,
 * whatever the host's scheduler does.
 */
static void every_model_calibrates(void **state)
{
	unsigned int checked = 0;

	for (size_t i = 0; i < sim_model_count(); i++) {
		const char *name = sim_model_at(i)->name;
		uint64_t hz, t0, t1, c0, c1, lo, hi;
		struct cpu_info ci;

		assert_int_equal(sim_select(name), 0);
		hw_install(sim_hw_ops());
		cpu_probe(&ci);
		hz = want_hz(name, &ci);
		t0 = plat_time_us();
		c0 = hw_rdtsc();
		plat_stall_us(20000);
		c1 = hw_rdtsc();
		t1 = plat_time_us();
		lo = hz / 50 - 1;			  /* 20 ms at least */
		hi = hz * (t1 - t0 + 1) / 1000000 + 1000; /* at most the time around both */
		if (c1 - c0 < lo || c1 - c0 > hi)
			fail_msg("%s: %llu TSC ticks in %llu us, want %llu..%llu (%llu Hz)", name,
				 (unsigned long long)(c1 - c0), (unsigned long long)(t1 - t0),
				 (unsigned long long)lo, (unsigned long long)hi,
				 (unsigned long long)hz);
		checked++;
		hw_install(NULL);
	}
	assert_int_equal(checked, sim_model_count());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_model_calibrates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
