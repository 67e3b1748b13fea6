// SPDX-License-Identifier: MIT
/*
 * test_session_leftover.c - PMU state that firmware (or a run that crashed)
 * left behind must not change what a session measures, and is back as it
 * was afterwards.  Runs pmu/session.c on the simulator (sim/), which models
 * the hardware rules independently of the plan's tables.
 */
#include "test_session_util.h"
#include "lib/report.h"

static uint64_t rdmsr_ok(uint32_t msr)
{
	uint64_t v = 0;

	assert_int_equal(hw_rdmsr(msr, &v), HW_OK);
	return v;
}

/*
 * PMU v4+: CTR_Frz (GLOBAL_STATUS bit 59) and LBR_Frz (58) left set.  While
 * CTR_Frz is set every counter is frozen, until software clears it through
 * GLOBAL_STATUS_RESET (SDM Vol. 3B 18.2.4.1; Linux core.c intel_pmu_reset
 * acks the whole status it reads).  No counter overflows, so no PMI acks it:
 * arming must.  3200 loads / 32 = 100 records; both bits are back after.
 */
static void test_stale_freeze_bits(void **state)
{
	static const enum pebs_drain drains[] = {PEBS_DRAIN_POLL, PEBS_DRAIN_PMI};
	const uint64_t frz = GLOBAL_STATUS_CTR_FRZ | GLOBAL_STATUS_LBR_FRZ;
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	unsigned int d;

	for (d = 0; d < ARRAY_SIZE(drains); d++) {
		ts_select("skl", &ci);
		assert_int_equal(hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, frz), HW_OK);
		c = ts_cfg(&ci, KIND_DATALA_LOAD);
		c.period = 32;
		c.drain = drains[d];
		ts_run("skl CTR_Frz left set", &c, &ka, &res);
		if (res.n_records != 100 || res.sampled_events != 3200) {
			print_error("skl CTR_Frz left set (drain %u): %zu records, %llu events; "
				    "want 100, 3200\n",
				    d, res.n_records, (unsigned long long)res.sampled_events);
			fail();
		}
		session_result_free(&res);
		assert_int_equal(rdmsr_ok(MSR_IA32_PERF_GLOBAL_STATUS) & frz, frz);
	}
}

/* Counting only (offcore and count= runs) is frozen by CTR_Frz too. */
static void test_stale_freeze_counting(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
	assert_int_equal(hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_CTR_FRZ), HW_OK);
	c = ts_cfg(&ci, KIND_OTHER);
	c.count_only = true;
	c.count_events[0] = "MEM_INST_RETIRED.ALL_LOADS";
	c.n_count_events = 1;
	ts_run("skl CTR_Frz counting", &c, &ka, &res);
	if (res.counts[0] != 3200) {
		print_error("skl CTR_Frz counting: counted %llu loads, want 3200\n",
			    (unsigned long long)res.counts[0]);
		fail();
	}
	session_result_free(&res);
	assert_true(rdmsr_ok(MSR_IA32_PERF_GLOBAL_STATUS) & GLOBAL_STATUS_CTR_FRZ);
}

/*
 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) left set: a PMI request
 * freezes the counters (v4+: CTR_Frz; before: GLOBAL_CTRL cleared), even
 * with LVTPC masked, since the freeze happens in the PMU (SDM Vol. 3B
 * 18.2.4 and the IA32_DEBUGCTL description, 17.4.1).  Arch-PEBS polling puts
 * THRESH a page short of the end, so crossing it froze the run silently
 * short: 60000 accesses must all be counted, and the bit is back after.
 */
static void test_debugctl_freeze_perfmon(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 60000, .kind = HW_LOAD};

	ts_select("archpebs", &ci);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_PERFMON_ON_PMI), HW_OK);
	c = ts_cfg(&ci, KIND_OTHER);
	ts_run("archpebs DEBUGCTL freeze", &c, &ka, &res);
	if (!res.counted_sample || res.sampled_events != 60000) {
		print_error("archpebs DEBUGCTL freeze: %llu events counted (copy %d), want 60000\n",
			    (unsigned long long)res.sampled_events, res.counted_sample);
		fail();
	}
	session_result_free(&res);
	assert_int_equal(rdmsr_ok(MSR_IA32_DEBUGCTL), DEBUGCTL_FREEZE_PERFMON_ON_PMI);
}

/*
 * IA32_DEBUGCTL.TR and .BTS set: branch trace store writes branch records
 * through the DS save area IA32_DS_AREA points at (SDM Vol. 3B 17.4.9, "BTS
 * and DS Save Area").  Legacy PEBS replaces DS_AREA with a page whose BTS
 * fields are 0, so branch records would go to address 0: SKIP, naming BTS,
 * with DEBUGCTL and DS_AREA untouched.  Arch-PEBS has no DS area and runs.
 */
static void test_bts_on(void **state)
{
	const uint64_t bts = DEBUGCTL_TR | DEBUGCTL_BTS;
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200] = "";
	int r;

	ts_select("skl", &ci);
	assert_int_equal(hw_wrmsr(MSR_IA32_DS_AREA, 0x1000), HW_OK);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTL, bts), HW_OK);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	r = session_run(&c, ts_kernel, &ka, &res, why, sizeof(why));
	if (r != SESSION_SKIP || !strstr(why, "BTS")) {
		print_error("skl with BTS on: session %d (%s); want SKIP naming BTS\n", r, why);
		fail();
	}
	assert_int_equal(rdmsr_ok(MSR_IA32_DS_AREA), 0x1000);
	assert_int_equal(rdmsr_ok(MSR_IA32_DEBUGCTL), bts);

	ts_select("archpebs", &ci);
	assert_int_equal(hw_wrmsr(MSR_IA32_DEBUGCTL, bts), HW_OK);
	c = ts_cfg(&ci, KIND_OTHER);
	ts_run("archpebs with BTS on", &c, &ka, &res);
	assert_true(res.n_records > 0);
	session_result_free(&res);
}

static int last_wr[2]; /* line number of the last write to PEBS_BASE, PEBS_INDEX */
static int n_lines;

static void order_sink(const char *line, void *ctx)
{
	unsigned int msr;

	(void)ctx;
	n_lines++;
	if (sscanf(line, "MSR: wrmsr 0x%x", &msr) == 1 &&
	    (msr == MSR_IA32_PEBS_BASE || msr == MSR_IA32_PEBS_INDEX))
		last_wr[msr - MSR_IA32_PEBS_BASE] = n_lines;
}

/*
 * Arch-PEBS state another owner left (a buffer, INDEX.EN set) is written
 * back base first, then the index, the order Linux programs them in
 * (arch-PEBS series init_arch_pebs_on_cpu: PEBS_BASE, then PEBS_INDEX), so
 * an enabled index never points into a base of 0.
 */
static void test_arch_restore_order(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	void *fw_buf = ts_low_pages(1);
	uint64_t base = (uintptr_t)fw_buf, index = BIT_ULL(32) | (16ULL << 36);

	assert_non_null(fw_buf);
	ts_select("archpebs", &ci);
	assert_int_equal(hw_wrmsr(MSR_IA32_PEBS_BASE, base), HW_OK);
	assert_int_equal(hw_wrmsr(MSR_IA32_PEBS_INDEX, index), HW_OK);
	c = ts_cfg(&ci, KIND_OTHER);
	last_wr[0] = last_wr[1] = n_lines = 0;
	report_init(order_sink, NULL);
	hw_set_msr_trace(true);
	ts_run("archpebs restore order", &c, &ka, &res);
	hw_set_msr_trace(false);
	report_init(NULL, NULL);
	session_result_free(&res);
	assert_int_equal(rdmsr_ok(MSR_IA32_PEBS_BASE), base);
	assert_int_equal(rdmsr_ok(MSR_IA32_PEBS_INDEX), index);
	if (!last_wr[0] || last_wr[0] > last_wr[1]) {
		print_error("PEBS_BASE last written at trace line %d, PEBS_INDEX at %d: "
			    "want the base first\n",
			    last_wr[0], last_wr[1]);
		fail();
	}
	ts_free_low_pages(fw_buf, 1);
}

/*
 * A PMI the local APIC holds when the handler goes (drain=pmi on a CPU that
 * runs with interrupts off, as firmware may run an AP): masking LVTPC does
 * not take it back (SDM Vol. 3A 11.8.4).  Once the firmware's IDT is back
 * and interrupts are on, the firmware's handler would get vector 0xEE and
 * send no EOI (sim rule pmi-no-eoi); the session lets its own handler take
 * it first.  ISR/IRR register 7 holds vectors 0xE0-0xFF: 0xEE is bit 14.
 */
static void test_pmi_held_at_teardown(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.period = 32;
	c.threshold_records = 1; /* a PMI after the first record */
	sim_set_irq_off(true);
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), 0);
	sim_set_irq_off(false); /* back in the firmware, interrupts on */
	if (ts_violations)
		fail_msg("%s", ts_last_rule);
	assert_int_equal(hw_apic_read(0x170) & (1u << 14), 0); /* ISR */
	assert_int_equal(hw_apic_read(0x270) & (1u << 14), 0); /* IRR */
	assert_int_equal(res.pmis, 1); /* taken by our handler, at teardown */
	assert_int_equal(res.n_records, 100);
	session_result_free(&res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stale_freeze_bits),
	    cmocka_unit_test(test_stale_freeze_counting),
	    cmocka_unit_test(test_debugctl_freeze_perfmon),
	    cmocka_unit_test(test_bts_on),
	    cmocka_unit_test(test_arch_restore_order),
	    cmocka_unit_test(test_pmi_held_at_teardown),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
