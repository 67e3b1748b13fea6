// SPDX-License-Identifier: MIT
/*
 * test_session_pmi_chunk.c - drain=pmi where the body holds TPL_HIGH_LEVEL:
 * a PMI waits for the chunk's end (pmi_window), and the assist keeps
 * writing records past the interrupt threshold into its reserve, then drops
 * them at the absolute maximum (SDM Vol. 3B 17.4.9; 18.8.1 "No signaling is
 * generated when PEBS buffer is full"); arch-PEBS drops a record that does
 * not fit before the end and sets PEBS_INDEX.FULL (Linux d21954c8a0ff).  A chunk from
 * kernel_pmi_chunk writes at most the record that crosses the threshold plus the reserve: none
 * lost.  One record more per chunk: the simulator drops it, and the session counts it lost (its
 * counting copy, pmu/session_result.c).
 */
#include "test_session_util.h"
#include "test_util.h"
#include "kernels/kernel.h"
#include "lib/platform.h"
#include "pmu/pebs_flavour.h"
#include "pmu/plan.h"

#define PERIOD 32
#define CHUNKS 4

struct chunked {
	uint64_t chunk; /* loads between windows */
	uint64_t first; /* loads before the first window (0: chunk) */
};

/* CHUNKS chunks of loads at TPL_HIGH_LEVEL (interrupts off), a PMI window after each. */
static void chunked_kernel(void *arg)
{
	const struct chunked *a = arg;
	struct ts_kargs ka = {.n = (unsigned int)(a->first ? a->first : a->chunk), .kind = HW_LOAD};
	uint64_t tpl = plat_tpl_raise();

	assert_true(tpl != PLAT_TPL_NONE);
	for (unsigned int i = 0; i < CHUNKS; i++) {
		ts_kernel(&ka);
		pmi_window();
		ka.n = (unsigned int)a->chunk;
	}
	plat_tpl_restore(tpl);
}

/* clang-format off */
static const struct chunk_case {
	int extra_records; /* per chunk, beside what the room holds (reserve + 1) */
	bool loses;
} cases[] = {
	{-1, false},	/* one record short of the reserve */
	{ 0, false},	/* the crossing record and the reserve, just */
	{ 1, true},	/* one more: dropped at the buffer's end, every chunk */
};

/*
 * A 4 KiB buffer, threshold=1: legacy PEBS (skl, fmt 3, 0xc8-byte records,
 * the TSC last: Linux ds.c struct pebs_record_skl) holds 20, 19 past the
 * threshold; arch-PEBS (dmr)
 * with AUX and GPR (PEBS_DATA_CFG bits 0, 1) writes header 16 + basic 48
 * + aux 64 + gpr 160 = 288 bytes (Linux d21954c8a0ff struct arch_pebs_*):
 * 14 fit, 13 past the first.
 */
static const struct chunk_model {
	const char *model;
	uint64_t data_cfg;
	unsigned int reserve;
} models[] = {
	{"skl", 0,   19},
	{"dmr", 0x3, 13},
};
/* clang-format on */

/* A drain=pmi session at threshold=1 (a PMI at the first record after each drain). */
static struct session_cfg chunk_cfg(const struct chunk_model *m, struct cpu_info *ci,
				    struct pmu_plan *plan)
{
	struct session_cfg c;
	char why[200] = "";

	ts_select(m->model, ci);
	c = ts_cfg(ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.period = PERIOD;
	c.buffer_kib = 4;
	c.data_cfg = m->data_cfg;
	c.threshold_records = 1;
	assert_int_equal(plan_build(&c, ci, plan, why, sizeof(why)), 0);
	if (pebs_flavour_pmi_free(&c, plan) != m->reserve)
		fail_msg("%s: the flavour leaves %u records free, want %u", m->model,
			 pebs_flavour_pmi_free(&c, plan), m->reserve);
	return c;
}

/*
 * With no PMI delay, a chunk of exactly the room (reserve + 1 records,
 * the crossing record a chunk's first) loses none; one record more per
 * chunk loses one a chunk.
 */
static void run_case(const struct chunk_model *m, const struct chunk_case *t)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct pmu_plan plan;
	struct sim_stats before, after;
	struct chunked a;
	uint64_t dropped;
	char why[200] = "";

	c = chunk_cfg(m, &ci, &plan);
	a.chunk = (m->reserve + 1ULL + t->extra_records) * PERIOD;
	a.first = 0;
	assert_true(a.chunk < KERNEL_CHUNK_PMI); /* not clamped: the formula's own edge */
	sim_get_stats(&before);
	assert_int_equal(session_run(&c, chunked_kernel, &a, &res, why, sizeof(why)), 0);
	sim_get_stats(&after);
	dropped = after.records_dropped - before.records_dropped;
	/* One over: each chunk's last record finds the buffer full. */
	if (dropped != (t->loses ? CHUNKS : 0) || res.lost != dropped || res.lost_unknown)
		fail_msg("%s: %d records beside the reserve of %u (chunk %llu loads): %llu "
			 "dropped, %llu lost%s, %u PMIs",
			 m->model, t->extra_records, m->reserve, (unsigned long long)a.chunk,
			 (unsigned long long)dropped, (unsigned long long)res.lost,
			 res.lost_unknown ? " (unknown)" : "", res.pmis);
	printf("# %s %+d record(s): %llu loads a chunk, %llu dropped, %llu lost, %u PMIs\n",
	       m->model, t->extra_records, (unsigned long long)a.chunk, (unsigned long long)dropped,
	       (unsigned long long)res.lost, res.pmis);
	session_result_free(&res);
}

static void test_chunk_against_reserve(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		for (size_t j = 0; j < ARRAY_SIZE(cases); j++)
			run_case(&models[i], &cases[j]);
}

/*
 * The PMI reaches the IRR some loads after the record that requests it
 * (sim_set_pmi_delay(n): n counts the requesting load, so n = late + 1);
 * pmi_window lets it in only once there.  The first chunk is PERIOD + 1
 * loads: the assist writes the record at the load after the overflow, so
 * the crossing record is that chunk's last, the worst case: a PMI one
 * load late misses that window and waits for the next chunk's end.  The
 * room's chunk (reserve + 1 records, sound with no delay) then loses;
 * kernel_pmi_chunk's holds a PMI up to one chunk late, and one load more
 * loses (the edge past its margin).
 */
/* clang-format off */
static const struct delay_case {
	bool room;		/* chunk of the room: (reserve + 1) * PERIOD */
	int64_t late;		/* loads; beside kernel_pmi_chunk's chunk if chunks */
	bool chunks;
	bool loses;
} delays[] = {
	{true,  0, false, false},	/* the room, at once: sound */
	{true,  1, false, true},	/* the room, one load late: lost */
	{false, 0, false, false},	/* kernel_pmi_chunk, at once */
	{false, 1, false, false},	/* one load late */
	{false, 0, true,  false},	/* a whole chunk late: the margin's edge */
	{false, 1, true,  true},	/* one load past it */
};
/* clang-format on */

static void test_chunk_against_delay(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		for (size_t j = 0; j < ARRAY_SIZE(delays); j++) {
			const struct chunk_model *m = &models[i];
			const struct delay_case *t = &delays[j];
			struct cpu_info ci;
			struct pmu_plan plan;
			struct session_cfg c = chunk_cfg(m, &ci, &plan);
			struct session_result res;
			struct sim_stats before, after;
			struct chunked a = {.first = PERIOD + 1};
			uint64_t dropped, delay;
			char why[200] = "";

			a.chunk = t->room ? (m->reserve + 1ULL) * PERIOD
					  : kernel_pmi_chunk(PERIOD, m->reserve, 1);
			delay = (uint64_t)t->late + (t->chunks ? a.chunk : 0);
			sim_set_pmi_delay(delay + 1);
			sim_get_stats(&before);
			assert_int_equal(
			    session_run(&c, chunked_kernel, &a, &res, why, sizeof(why)), 0);
			sim_get_stats(&after);
			dropped = after.records_dropped - before.records_dropped;
			if (!!dropped != t->loses || res.lost != dropped || res.lost_unknown)
				fail_msg("%s: chunk %llu loads (%s), PMI %llu loads late: %llu "
					 "dropped, %llu lost%s, %u PMIs",
					 m->model, (unsigned long long)a.chunk,
					 t->room ? "the room" : "kernel_pmi_chunk",
					 (unsigned long long)delay, (unsigned long long)dropped,
					 (unsigned long long)res.lost,
					 res.lost_unknown ? " (unknown)" : "", res.pmis);
			session_result_free(&res);
		}
}

/* clang-format off */
static const struct formula_case {
	uint64_t period;
	unsigned int reserve, per_iter;
	uint64_t chunk;
} formula[] = {
	{32,   4, 1, 80},			/* (4 + 1) * 32 / 2 */
	{32,   4, 2, 40},			/* two events an iteration */
	{33,   4, 2, 41},			/* 165 / 4: rounded down, never up */
	{1000, 8, 1, KERNEL_CHUNK_PMI},		/* 4500: at most KERNEL_CHUNK_PMI */
	{1,    0, 2, 1},			/* below one iteration: one */
	{32,   4, 0, KERNEL_CHUNK_PMI},		/* no events: nothing to lose */
};
/* clang-format on */

/* Iterations: (reserve + 1) * period / (2 * per_iter), within [1, KERNEL_CHUNK_PMI]. */
static void test_chunk_formula(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(formula); i++) {
		const struct formula_case *f = &formula[i];
		uint64_t got = kernel_pmi_chunk(f->period, f->reserve, f->per_iter);

		if (got != f->chunk)
			fail_msg("period %llu, reserve %u, %u an iteration: chunk %llu, want %llu",
				 (unsigned long long)f->period, f->reserve, f->per_iter,
				 (unsigned long long)got, (unsigned long long)f->chunk);
	}
}

/*
 * kernel_set_drain asks the plan's flavour (pebs_flavour_pmi_free): chase-l1
 * (one load an iteration) at period 32 in a 4 KiB buffer, threshold=1, gets
 * (free + 1) * 32 / 2; counting only writes no records: no cut.
 */
/* clang-format off */
static const struct drain_case {
	const char *model;
	bool count_only;
	uint64_t data_cfg;
	uint64_t chunk;
} drains[] = {
	{"skl", false, 0,   (19 + 1) * PERIOD / 2},	/* legacy: 20 records of 0xc8 */
	{"dmr", false, 0x3, (13 + 1) * PERIOD / 2},	/* arch-PEBS: 14 of 288 bytes */
	{"dmr", true,  0,   KERNEL_CHUNK_PMI},	/* counting only */
};
/* clang-format on */

static void test_chunk_by_flavour(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(drains); i++) {
		const struct drain_case *t = &drains[i];
		struct kernel_ctx k = {.def = kernel_find("chase-l1")};
		struct cpu_info ci;
		struct session_cfg c;
		struct pmu_plan plan;
		char why[200] = "";

		ts_select(t->model, &ci);
		c = ts_cfg(&ci, KIND_DATALA_LOAD);
		c.drain = PEBS_DRAIN_PMI;
		c.period = PERIOD;
		c.buffer_kib = 4;
		c.threshold_records = 1;
		c.data_cfg = t->data_cfg;
		c.count_only = t->count_only;
		assert_non_null(k.def);
		if (plan_build(&c, &ci, &plan, why, sizeof(why)))
			fail_msg("%s: %s", t->model, why);
		kernel_set_drain(&k, &c, &plan);
		if (!k.pmi || k.pmi_chunk != t->chunk)
			fail_msg("%s%s: chunk %llu, want %llu", t->model,
				 t->count_only ? " counting only" : "",
				 (unsigned long long)k.pmi_chunk, (unsigned long long)t->chunk);
	}
}

/*
 * The chunk's floor is one iteration: where two (the PMI up to a chunk
 * late) count more events than (free + 1) records at the period hold, the
 * bound is broken and kernel_set_drain says so (an INFO line).  Goldmont (period
 * from 1: Linux core.c has no limit_period for it), 4 KiB: 20 records of
 * 0xc8 (the plan's fmt3 size), threshold=20 leaves 0 free, 19 leaves 1;
 * chase-l1 with a
 * KIND_OTHER event counts 1 load + 4 other instructions (KERNEL_LOOP_INSNS)
 * an iteration.
 */
/* clang-format off */
static const struct short_case {
	unsigned int threshold, free;
	uint64_t period;
	bool said;
} shorts[] = {
	{20, 0, 10, false},	/* 2 * 5 events = (0 + 1) records * 10: just fits */
	{20, 0, 9,  true},	/* 10 > (0 + 1) * 9: one over */
	{19, 1, 5,  false},	/* 10 <= (1 + 1) * 5 */
	{19, 1, 4,  true},	/* 10 > (1 + 1) * 4 */
};
/* clang-format on */

static void test_chunk_too_small(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(shorts); i++) {
		const struct short_case *t = &shorts[i];
		struct kernel_ctx k = {.def = kernel_find("chase-l1")};
		struct cpu_info ci;
		struct session_cfg c;
		struct pmu_plan plan;
		char why[200] = "";
		const char *line;

		ts_select("glm", &ci);
		c = ts_cfg(&ci, KIND_OTHER);
		c.drain = PEBS_DRAIN_PMI;
		c.period = t->period;
		c.buffer_kib = 4;
		c.threshold_records = t->threshold;
		if (plan_build(&c, &ci, &plan, why, sizeof(why)))
			fail_msg("threshold=%u period=%llu: %s", t->threshold,
				 (unsigned long long)t->period, why);
		if (pebs_flavour_pmi_free(&c, &plan) != t->free)
			fail_msg("threshold=%u: %u free (rec %u), want %u", t->threshold,
				 pebs_flavour_pmi_free(&c, &plan), (unsigned int)plan.rec_size,
				 t->free);
		test_lines_capture();
		kernel_set_drain(&k, &c, &plan);
		line = test_line_find("INFO: ", "records may be lost");
		if (k.pmi_chunk != 1 || !!line != t->said)
			fail_msg("threshold=%u period=%llu: chunk %llu (want 1), %s", t->threshold,
				 (unsigned long long)t->period, (unsigned long long)k.pmi_chunk,
				 line ? line : "nothing said");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chunk_formula),
	    cmocka_unit_test(test_chunk_against_reserve),
	    cmocka_unit_test(test_chunk_against_delay),
	    cmocka_unit_test(test_chunk_by_flavour),
	    cmocka_unit_test(test_chunk_too_small),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
