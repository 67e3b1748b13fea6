// SPDX-License-Identifier: MIT
/*
 * test_session_buffer.c - the PEBS buffer's interrupt threshold, a full
 * buffer, and records lost, on the simulator.
 *
 * Sources of the expectations (not the code under test):
 *  - SDM Vol. 3B 17.4.9 "BTS and DS Save Area": the threshold "must be
 *    several records short of the PEBS absolute maximum address to allow a
 *    pending interrupt to be handled"; 18.8.1 (Nehalem PEBS): nothing is
 *    written past the absolute maximum and "No signaling is generated".
 *  - Linux ds.c pebs_update_threshold: one record per PEBS-capable counter
 *    (the GP counters, with PEBS_ALL the fixed ones too).
 *  - Record sizes: SDM Table 18-44 (Haswell/Skylake) plus the TSC format 3
 *    adds at 0xC0: 0xC8 bytes; adaptive basic 0x20 + memory info 0x20 (Linux
 *    struct pebs_basic, pebs_meminfo).
 *  - Linux arch-PEBS: THRESH is 1 or a page short of the buffer's end.
 */
#include "test_session_util.h"
#include "pmu/plan.h"

/* ---- the threshold the session programs, read from the DS area mid-run ---- */

struct ds_seen {
	struct ts_kargs k;
	uint64_t base, max, thr;
	uint64_t arch_index, lvtpc;
};

static void kernel_reading_ds(void *arg)
{
	struct ds_seen *d = arg;
	uint64_t ds = 0;

	if (hw_rdmsr(MSR_IA32_DS_AREA, &ds) == HW_OK && ds) {
		d->base = get_le64((const uint8_t *)(uintptr_t)ds + 0x20);
		d->max = get_le64((const uint8_t *)(uintptr_t)ds + 0x30);
		d->thr = get_le64((const uint8_t *)(uintptr_t)ds + 0x38);
	}
	hw_rdmsr(MSR_IA32_PEBS_INDEX, &d->arch_index);
	d->lvtpc = hw_apic_read(APIC_LVTPC);
	ts_kernel(&d->k);
}

static void room_case(const char *model, enum pebs_kind kind, size_t rec, unsigned int reserve,
		      uint32_t threshold, unsigned int free_records)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct pmu_plan plan;
	struct ds_seen d = {.k = {.n = 640, .kind = HW_LOAD}};
	char why[200];

	ts_select(model, &ci);
	c = ts_cfg(&ci, kind);
	c.drain = PEBS_DRAIN_PMI;
	c.period = 32;
	c.threshold_records = threshold;
	assert_int_equal(plan_build(&c, &ci, &plan, why, sizeof(why)), 0);
	assert_int_equal(session_run(&c, kernel_reading_ds, &d, &res, why, sizeof(why)), 0);

	assert_int_equal(ts_violations, 0);
	assert_int_equal((d.max - d.base) % rec, 0);
	if ((d.max - d.thr) != free_records * rec)
		print_error("%s: threshold %llu records short of the maximum, want %u\n", model,
			    (unsigned long long)((d.max - d.thr) / rec), free_records);
	assert_int_equal(d.max - d.thr, free_records * rec);
	assert_int_equal(pebs_ds_pmi_reserve(&ci, ci.perf_caps & PERF_CAP_PEBS_BASELINE), reserve);
	/* What the chunk is cut to (kernels/kernels.c kernel_set_drain), as armed. */
	assert_int_equal(pebs_flavour_pmi_free(&c, &plan), free_records);
	session_result_free(&res);
}

static void test_threshold_room(void **state)
{
	/* Skylake: 4 GP counters, no PEBS_ALL: 4 records of 0xC8 */
	room_case("skl", KIND_DATALA_LOAD, 0xc8, 4, 0, 4);
	/* Ice Lake-SP: 8 GP + 4 fixed with baseline (PEBS_ALL): 12 adaptive records of 0x40 */
	room_case("icx", KIND_LDLAT, 0x40, 12, 0, 12);
	/* threshold=: 64 KiB hold 327 records of 0xC8; 300 leaves 27, 326 one, 1 leaves 326 */
	room_case("skl", KIND_DATALA_LOAD, 0xc8, 4, 300, 27);
	room_case("skl", KIND_DATALA_LOAD, 0xc8, 4, 326, 1);
	room_case("skl", KIND_DATALA_LOAD, 0xc8, 4, 1, 326);
}

/*
 * The PMI comes 3 periods after the threshold record: records are still
 * written meanwhile (SDM), and with Linux's room none is lost.  A one-record
 * margin would drop two of them, silently.
 */
static void test_late_pmi_loses_nothing(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 6400, .kind = HW_LOAD};
	struct sim_stats st;

	ts_select("skl", &ci);
	sim_set_pmi_delay(3 * 32);
	c = ts_cfg(&ci, KIND_DATALA_LOAD); /* MEM_INST_RETIRED.ALL_LOADS: counting copy */
	c.drain = PEBS_DRAIN_PMI;
	c.buffer_kib = 4; /* 20 records of 0xC8 */
	c.period = 32;
	ts_run(__func__, &c, &ka, &res);
	sim_get_stats(&st);
	if (st.records_dropped || res.lost || res.buffer_full)
		print_error("skl, PMI 96 instructions late: %llu records dropped, lost %llu, "
			    "buffer full %d, %u PMIs\n",
			    (unsigned long long)st.records_dropped, (unsigned long long)res.lost,
			    res.buffer_full, res.pmis);
	assert_int_equal(st.records_dropped, 0);
	assert_false(res.buffer_full);
	assert_false(res.lost_unknown);
	assert_int_equal(res.lost, 0);
	assert_true(res.counted_sample);
	/* 6400 loads / 32 = 200 records, all of them */
	assert_true(res.n_records + 1 >= res.expected_records && res.n_records >= 199);
	assert_true(res.pmis >= 10);
	session_result_free(&res);

	/* Later than the room allows: dropped at the maximum, and counted through the copy. */
	ts_select("skl", &ci);
	sim_set_pmi_delay(7 * 32);
	ts_run(__func__, &c, &ka, &res);
	sim_get_stats(&st);
	assert_true(st.records_dropped > 0);
	assert_true(res.buffer_full);
	assert_false(res.lost_unknown);
	assert_true(res.lost > 0);
	assert_true(res.n_records + res.lost + 1 >= res.expected_records &&
		    res.n_records + res.lost <= res.expected_records + 1);
	session_result_free(&res);
}

/*
 * Polling a buffer too small, load latency (no counting copy: one counter
 * for the facility): the number lost is unknown, not 0.  A buffer that did
 * not fill lost none, and that is known.
 */
static void test_full_without_copy(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_LDLAT);
	c.period = 32;
	ts_run(__func__, &c, &ka, &res);
	assert_false(res.counted_sample);
	assert_false(res.buffer_full);
	assert_false(res.lost_unknown);
	assert_int_equal(res.lost, 0);
	assert_true(res.n_records >= 99);
	session_result_free(&res);

	c.buffer_kib = 4; /* 20 of the 100 records fit */
	ts_run(__func__, &c, &ka, &res);
	assert_int_equal(res.n_records, 4096 / 0xc8);
	assert_true(res.buffer_full);
	assert_true(res.lost_unknown);
	/* the events are a lower bound from the records alone */
	assert_int_equal(res.sampled_events, res.n_records * res.period);
	session_result_free(&res);
}

/* Arch-PEBS polling: THRESH inside the buffer, LVTPC masked while armed, then put back. */
static void test_arch_poll_threshold(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct ds_seen d = {.k = {.n = 3200, .kind = HW_LOAD}};
	uint64_t thresh;
	char why[200];

	ts_select("archpebs", &ci);
	/* firmware left LVTPC unmasked, fixed delivery, vector 0xf0 */
	hw_apic_write(APIC_LVTPC, 0xf0);
	c = ts_cfg(&ci, KIND_LDLAT);
	c.buffer_kib = 16;
	c.period = 32;
	assert_int_equal(session_run(&c, kernel_reading_ds, &d, &res, why, sizeof(why)), 0);
	if (ts_violations)
		print_error("archpebs poll: simulator rule: %s\n", ts_last_rule);
	assert_int_equal(ts_violations, 0);
	thresh = (d.arch_index >> 36) & 0x7fffff;
	/* a page short of the 16 KiB end, in 16-byte units (Linux ARCH_PEBS_THRESH_MULTI rule) */
	assert_int_equal(thresh, (16384 - 4096) / 16);
	assert_true(d.lvtpc & APIC_LVT_MASK);
	assert_int_equal(hw_apic_read(APIC_LVTPC), 0xf0);
	assert_true(res.n_records > 0);
	session_result_free(&res);
}

/*
 * Arch-PEBS, drain=pmi on dmr: THRESH as armed (16-byte units) and what the
 * flavour says is free past it, in records of header 16 + basic 48 + aux
 * 64 [+ gpr 160] bytes (Linux d21954c8a0ff struct arch_pebs_*), each from
 * the base: the first record to end at or past THRESH takes the PMI.
 */
/* clang-format off */
static const struct arch_room {
	uint64_t data_cfg;	/* PEBS_DATA_CFG: 1 memory info (AUX), 2 GPRs */
	uint32_t buffer_kib, threshold;
	uint64_t thresh_bytes;
	unsigned int free_records;
} arch_rooms[] = {
	{0, 64, 0,  61440, 32},	/* 128 B: a page short of 64 KiB, 4096 / 128 */
	{0, 4,  0,  128,   31},	/* one page: one record (ARCH_PEBS_THRESH_SINGLE), 32 - 1 */
	{0, 4,  30, 3840,  2},	/* threshold=30: 32 - 30 */
	{3, 64, 0,  61440, 13},	/* 288 B: 227 fit; the 214th ends past 61440 */
	{3, 4,  1,  288,   13},	/* 14 fit, 13 after the first */
};
/* clang-format on */

static void test_arch_threshold_room(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(arch_rooms); i++) {
		const struct arch_room *t = &arch_rooms[i];
		struct cpu_info ci;
		struct session_cfg c;
		struct session_result res;
		struct pmu_plan plan;
		struct ds_seen d = {.k = {.n = 64, .kind = HW_LOAD}};
		uint64_t thresh;
		unsigned int got;
		char why[200];

		ts_select("dmr", &ci);
		c = ts_cfg(&ci, KIND_DATALA_LOAD);
		c.drain = PEBS_DRAIN_PMI;
		c.period = 32;
		c.buffer_kib = t->buffer_kib;
		c.threshold_records = t->threshold;
		c.data_cfg = t->data_cfg;
		assert_int_equal(plan_build(&c, &ci, &plan, why, sizeof(why)), 0);
		assert_int_equal(session_run(&c, kernel_reading_ds, &d, &res, why, sizeof(why)), 0);
		thresh = ((d.arch_index >> 36) & 0x7fffff) << 4;
		got = pebs_flavour_pmi_free(&c, &plan);
		if (thresh != t->thresh_bytes || got != t->free_records)
			fail_msg("row %zu: THRESH %llu bytes, %u records free; want %llu, %u", i,
				 (unsigned long long)thresh, got,
				 (unsigned long long)t->thresh_bytes, t->free_records);
		session_result_free(&res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_threshold_room),
	    cmocka_unit_test(test_late_pmi_loses_nothing),
	    cmocka_unit_test(test_full_without_copy),
	    cmocka_unit_test(test_arch_poll_threshold),
	    cmocka_unit_test(test_arch_threshold_room),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
