// SPDX-License-Identifier: MIT
/*
 * test_sim_tsc.c - every simulated model's TSC runs at a clock its part
 * has, against the platform's clock, as the job calibrates it (job/job.c);
 * and during modelled work it advances by the modelled cycles, not by the
 * host time the simulator takes (sim/tsc.c).
 *
 * The rates are written here by hand, not computed by pmu/cpu.c or by the
 * simulator's rule: a named part's rated base frequency (the "@ N.NNGHz"
 * of its brand string, Intel's and AMD's product specifications), and for
 * a row that names no part the product of its CPUID.15H crystal and ratio,
 * multiplied out by hand (SDM Vol. 2A CPUID leaf 15H: TSC = ECX x EBX / EAX).
 */
#include "test_sim_util.h"
#include "lib/platform.h"

static const struct {
	const char *name;
	uint64_t hz;
} rates[] = {
    {"core2", 3000000000},    /* Core 2 Duo E8400 @ 3.00GHz */
    {"nhm", 2667000000},      /* Core i7-920 @ 2.67GHz */
    {"snb", 3400000000},      /* Core i7-2600 @ 3.40GHz */
    {"hsw", 3400000000},      /* Core i7-4770 @ 3.40GHz */
    {"skl", 4000000000},      /* Core i7-6700K @ 4.00GHz; 24 MHz x 500 / 3 */
    {"pebs-off", 4000000000}, /* the same Skylake */
    {"icx", 2300000000},      /* Xeon Platinum 8380 @ 2.30GHz; 25 MHz x 184 / 2 */
    {"spr", 2000000000},      /* Xeon Platinum 8480+ @ 2.00GHz; 25 MHz x 160 / 2 */
    {"adl-p", 3200000000},    /* Core i9-12900K, 3.20 GHz P-core base; 38.4 MHz x 250 / 3 */
    {"adl-e", 3200000000},    /* the same part: one TSC */
    {"adl", 3200000000},
    {"glm", 1100000000},      /* Pentium N4200 @ 1.10GHz; 19.2 MHz x 1375 / 24 */
    {"slm", 2400000000},      /* Atom C2750 @ 2.40GHz */
    {"tnt", 2000000000},      /* Celeron N5105, 2.00 GHz base */
    {"amd", 2450000000},      /* EPYC 7763, 2.45 GHz base */
    {"archpebs", 2200000000}, /* no part named: 25 MHz x 88 / 1 */
    {"cwf", 2200000000},      /* the same row */
    {"gnr", 2000000000},      /* no part named: 25 MHz x 160 / 2 */
    {"dmr", 2000000000},      /* no part named: 25 MHz x 160 / 2 */
    {"srf", 2200000000},      /* no part named: 25 MHz x 176 / 2 */
    {"mtl", 3840000000},      /* no part named: 38.4 MHz x 200 / 2 */
    {"lnl", 3379200000},      /* no part named: 38.4 MHz x 176 / 2 */
    {"arl", 3379200000},      /* the same */
    {"ptl", 3379200000},      /* the same */
    {"nvl", 3379200000},      /* the same */
};

static uint64_t want_hz(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(rates); i++)
		if (!strcmp(rates[i].name, name))
			return rates[i].hz;
	fail_msg("%s: no rate written here", name);
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

		assert_int_equal(sim_select(name), 0);
		hw_install(sim_hw_ops());
		hz = want_hz(name);
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
	assert_int_equal(checked, ARRAY_SIZE(rates));
}

#define N_LOADS	   200000
#define FIXED1_OS  (1ull << 4)	/* IA32_FIXED_CTR_CTRL: counter 1 at CPL 0 (SDM 18.2.2) */
#define GLOBAL_FX1 (1ull << 33) /* IA32_PERF_GLOBAL_CTRL: fixed counter 1 */

static uint8_t buf[64];

/* Fixed counter 1 (CPU_CLK_UNHALTED.CORE) counts the modelled cycles of the work. */
static void start_cycles(void)
{
	wr(GLOBAL_CTRL, 0);
	wr(FIXED_CTR(1), 0);
	wr(FIXED_CTR_CTRL, FIXED1_OS);
	wr(GLOBAL_CTRL, GLOBAL_FX1);
}

static void load_same_line(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		hw_current()->mem_access(KIP, 0, (uintptr_t)buf, 8, HW_LOAD);
}

/*
 * Between two RDTSCs, N_LOADS modelled loads and nothing else: the TSC
 * advances by the modelled cycles (fixed counter 1), 20 for the RDTSC, and
 * the host time outside the work (two calls' worth), never by the host time
 * the simulator spends modelling it: that excess is held below a tenth of
 * the host time measured around it all (the old TSC added nearly all of it).
 */
static void work_counts_modelled_cycles(void **state)
{
	static const char *const models[] = {"hsw", "lnl"};

	for (size_t m = 0; m < ARRAY_SIZE(models); m++) {
		uint64_t hz, t0, t1, c0, c1, cycles, excess, bound;

		use_model(models[m]);
		hz = want_hz(models[m]);
		start_cycles();
		t0 = plat_time_us();
		c0 = hw_rdtsc();
		load_same_line(N_LOADS);
		c1 = hw_rdtsc();
		t1 = plat_time_us();
		cycles = rd(FIXED_CTR(1));
		assert_true(cycles >= N_LOADS);
		assert_true(c1 - c0 >= cycles + 20);
		excess = c1 - c0 - cycles - 20;
		bound = hz * (t1 - t0) / 10000000;
		print_message("# %s: %u loads, %llu cycles, TSC +%llu, host %llu us\n", models[m],
			      N_LOADS, (unsigned long long)cycles, (unsigned long long)(c1 - c0),
			      (unsigned long long)(t1 - t0));
		if (excess > bound)
			fail_msg("%s: TSC advanced %llu ticks past the %llu modelled cycles over "
				 "%llu us of host time (at most %llu: a tenth of it)",
				 models[m], (unsigned long long)excess, (unsigned long long)cycles,
				 (unsigned long long)(t1 - t0), (unsigned long long)bound);
	}
}

/*
 * Work, then an MSR access (which ends the work), then a 20 ms stall: the
 * stall is outside modelled work and counts at the part's rate.
 */
static void time_after_work_counts(void **state)
{
	uint64_t hz, t0, t1, c0, c1, cycles;

	use_model("skl");
	hz = want_hz("skl");
	start_cycles();
	t0 = plat_time_us();
	c0 = hw_rdtsc();
	load_same_line(1000);
	wr(GLOBAL_CTRL, 0);
	plat_stall_us(20000);
	c1 = hw_rdtsc();
	t1 = plat_time_us();
	cycles = rd(FIXED_CTR(1));
	assert_true(cycles >= 1000);
	if (c1 - c0 < cycles + hz / 50 - 1 || c1 - c0 > cycles + hz * (t1 - t0 + 1) / 1000000 + 20)
		fail_msg("skl: TSC +%llu for %llu cycles and a 20 ms stall in %llu us",
			 (unsigned long long)(c1 - c0), (unsigned long long)cycles,
			 (unsigned long long)(t1 - t0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_model_calibrates),
	    cmocka_unit_test(work_counts_modelled_cycles),
	    cmocka_unit_test(time_after_work_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
