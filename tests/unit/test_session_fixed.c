// SPDX-License-Identifier: MIT
/*
 * test_session_fixed.c - a session never touches a fixed counter CPUID.0AH
 * does not enumerate.  From PMU version 5 the enumeration may have holes:
 * fixed counter i exists if ECX[i] || EDX[4:0] > i (SDM Vol. 3B 20.2.5), and
 * the simulator raises #GP on an absent one (sim/msr.c).  Cases: the
 * Clearwater Forest-class E-core (fixed 0-2 and 4-6, no 3), and guests whose
 * VMM left a hole among counters 0-2 (sim_set_fixed_enum), where reading the
 * counting counters 0..n-1 blindly faults.
 */
#include "test_session_util.h"
#include "lib/report.h"

static char touched[256]; /* the fixed-counter MSR lines seen, e.g. " 0x30a" */

static void trace_sink(const char *line, void *ctx)
{
	unsigned int msr;

	(void)ctx;
	if (sscanf(line, "MSR: %*s 0x%x", &msr) == 1 &&
	    ((msr >= 0x309 && msr < 0x309 + 8) || (msr >= 0x1980 && msr < 0x1980 + 4 * 8)) &&
	    strlen(touched) + 8 < sizeof(touched)) {
		char one[8];

		snprintf(one, sizeof(one), " 0x%x", msr);
		if (!strstr(touched, one))
			strcat(touched, one);
	}
}

/* Runs a polled load-latency session; returns the fixed counters it read. */
static uint32_t run_session(const char *ctx, const struct cpu_info *ci)
{
	struct session_cfg c = ts_cfg(ci, KIND_LDLAT);
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];
	uint32_t got;
	int r;

	c.period = 32;
	touched[0] = 0;
	report_init(trace_sink, NULL);
	hw_set_msr_trace(true);
	r = session_run(&c, ts_kernel, &ka, &res, why, sizeof(why));
	hw_set_msr_trace(false);
	report_init(NULL, NULL);
	ts_expect_ok(ctx, r, why);
	assert_true(res.n_records > 0);
	got = res.fixed_read;
	/* INST_RETIRED.ANY counted the kernel's accesses, where it exists */
	if (got & 1)
		assert_true(res.fixed[0] >= ka.n);
	for (unsigned int i = 0; i < 3; i++)
		if (!(got & (1u << i)))
			assert_int_equal(res.fixed[i], 0);
	session_result_free(&res);
	return got;
}

static void assert_untouched(const char *ctx, uint32_t absent)
{
	for (unsigned int i = 0; i < 8; i++) {
		char a[8], b[8];

		if (!(absent & (1u << i)))
			continue;
		snprintf(a, sizeof(a), " 0x%x", 0x309 + i);
		snprintf(b, sizeof(b), " 0x%x", 0x1983 + 4 * i);
		if (strstr(touched, a) || strstr(touched, b)) {
			print_error("%s: absent fixed counter %u touched (%s)\n", ctx, i, touched);
			fail();
		}
	}
}

static void test_ecore_hole_at_3(void **state)
{
	struct cpu_info ci;

	ts_select("archpebs", &ci);
	assert_int_equal(ci.fixed_mask, 0x77);
	/* every enumerated one is read (results.json "fixed"), never the hole 3 or 7 */
	assert_int_equal(run_session("archpebs", &ci), 0x77);
	assert_untouched("archpebs", 0x88);
}

static void test_guest_holes(void **state)
{
	static const struct {
		uint32_t ecx, count, present;
	} cases[] = {
	    {0x5, 1, 0x5}, /* no fixed counter 1 */
	    {0x6, 0, 0x6}, /* no fixed counter 0 */
	    {0x3, 0, 0x3}, /* no fixed counter 2 */
	    {0x0, 2, 0x3}, /* EDX alone: 0 and 1 */
	    {0x0, 0, 0x0}, /* none */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct cpu_info ci;
		char ctx[64];

		snprintf(ctx, sizeof(ctx), "icx, CPUID.0AH ECX 0x%x EDX[4:0] %u", cases[i].ecx,
			 cases[i].count);
		ts_select("icx", &ci);
		assert_int_equal(sim_set_fixed_enum(cases[i].ecx, cases[i].count), 0);
		cpu_probe(&ci);
		assert_int_equal(ci.fixed_mask, cases[i].present);
		assert_int_equal(run_session(ctx, &ci), cases[i].present & 7);
		assert_untouched(ctx, ~cases[i].present & 0xff);
	}
}

/*
 * Fixed counters have their own width, CPUID.0AH:EDX[12:5] (SDM Vol. 3B
 * 20.2.2), which a hypervisor may report narrower than the GP counters'
 * 48: here 40.  Sampling on fixed counter 0 (Ice Lake-SP baseline,
 * INST_RETIRED.PREC_DIST) writes -period masked to 40 bits, not 48 (a write
 * above the width #GPs, sim/msr.c), and a period above half of 40 bits is
 * refused although the GP counters would take it.
 */
static void test_narrow_fixed_width(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	ts_select("icx", &ci);
	assert_int_equal(sim_set_fixed_width(40), 0);
	cpu_probe(&ci);
	assert_int_equal(ci.fixed_width, 40);
	assert_int_equal(ci.gp_width, 48);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "INST_RETIRED.PREC_DIST";
	c.period = 32;
	ts_run(__func__, &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 32);
	assert_int_equal(res.n_records, 100);
	assert_int_equal(ts_violations, 0);
	session_result_free(&res);

	c.period = 1ull << 39; /* fits a 48-bit GP counter's half, not a 40-bit one's */
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_non_null(strstr(why, "half the 40-bit fixed counter"));
	c.period = (1ull << 39) - 1;
	ts_run(__func__, &c, &ka, &res);
	session_result_free(&res);
}

/*
 * Counted events on fixed counters 4 and 6 of the Clearwater Forest-class
 * E-core (perfmon clearwaterforest_core.json TOPDOWN_BAD_SPECULATION.ALL,
 * TOPDOWN_RETIRING.ALL; PMU v6): programmed and read at IA32_PMC_FX4_CTR
 * 0x1990 and FX6 0x1998 (pmu/msr.h msr_fixed_ctr), never at 0x30d/0x30f,
 * and they count (the simulator counts cycles there).
 */
static void test_fixed_4_and_6_counted(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];
	int r;

	ts_select("archpebs", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.count_only = true;
	c.count_events[0] = "TOPDOWN_BAD_SPECULATION.ALL";
	c.count_events[1] = "TOPDOWN_RETIRING.ALL";
	c.n_count_events = 2;
	touched[0] = 0;
	report_init(trace_sink, NULL);
	hw_set_msr_trace(true);
	r = session_run(&c, ts_kernel, &ka, &res, why, sizeof(why));
	hw_set_msr_trace(false);
	report_init(NULL, NULL);
	if (r)
		fail_msg("session %d: %s", r, why);
	assert_int_equal(ts_violations, 0);
	assert_true(res.counts[0] > 0);
	assert_true(res.counts[1] > 0);
	assert_non_null(strstr(res.count_desc[0], "on FIXED4"));
	assert_non_null(strstr(res.count_desc[1], "on FIXED6"));
	assert_non_null(strstr(touched, " 0x1990"));
	assert_non_null(strstr(touched, " 0x1998"));
	assert_null(strstr(touched, " 0x30d"));
	assert_null(strstr(touched, " 0x30f"));
	session_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ecore_hole_at_3),
	    cmocka_unit_test(test_guest_holes),
	    cmocka_unit_test(test_narrow_fixed_width),
	    cmocka_unit_test(test_fixed_4_and_6_counted),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
