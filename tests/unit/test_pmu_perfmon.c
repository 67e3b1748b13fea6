// SPDX-License-Identifier: MIT
/*
 * test_pmu_perfmon.c - the perfmon lookups (pmu/perfmon.h) against facts
 * read by hand from the perfmon files (intel/perfmon commit 6dadedf3, the
 * file named beside each check).  tests/host/check-perfmon.sh compares every
 * event; these pin the few that the placement rules will lean on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/perfmon.h"

#define GP(...)	  perfmon_mask((const int[]){__VA_ARGS__, -1})
#define NO_NATIVE 0

static uint32_t perfmon_mask(const int *bits)
{
	uint32_t m = 0;

	for (; *bits >= 0; bits++)
		m |= 1u << *bits;
	return m;
}

static const struct perfmon_table *table(uint32_t family, uint32_t model, uint32_t stepping,
					 uint32_t core_type, uint32_t native)
{
	struct perfmon_cpu cpu = {family, model, stepping, core_type, native};

	return perfmon_table_for_cpu(&cpu);
}

static const struct perfmon_table *table_named(const char *name)
{
	unsigned int i;

	for (i = 0; i < perfmon_n_tables(); i++)
		if (!strcmp(perfmon_table_name(perfmon_table_at(i)), name))
			return perfmon_table_at(i);
	fail_msg("no table %s", name);
	return NULL;
}

static void get(const struct perfmon_table *t, const char *name, struct perfmon_info *in)
{
	const struct perfmon_event *ev = perfmon_find_name(t, name);

	if (!ev)
		fail_msg("%s: no event %s", perfmon_table_name(t), name);
	perfmon_event_get(t, ev, in);
}

/* mapfile.csv rows (perfmon mapfile.csv). */
static void test_map(void **state)
{
	const struct perfmon_table *t;

	/* GenuineIntel-6-97 ... 0x40,0x000001,Core and 0x20,0x000001,Atom */
	t = table(6, 0x97, 2, 0x40, 1);
	assert_non_null(t);
	assert_string_equal(perfmon_table_name(t), "ADL/alderlake_goldencove_core.json");
	assert_string_equal(perfmon_table_platform(t), "ADL");
	assert_string_equal(perfmon_table_version(t), "1.40");
	assert_string_equal(perfmon_table_name(table(6, 0x97, 2, 0x20, 1)),
			    "ADL/alderlake_gracemont_core.json");
	/* A hybrid model asked without a core type names two files: none chosen. */
	assert_null(table(6, 0x97, 2, 0, NO_NATIVE));
	/* GenuineIntel-6-C5: Atom 0x000003 Skymont, Atom 0x000002 LowPower_Atom Crestmont. */
	assert_string_equal(perfmon_table_name(table(6, 0xc5, 0, 0x20, 3)),
			    "ARL/arrowlake_skymont_core.json");
	assert_string_equal(perfmon_table_name(table(6, 0xc5, 0, 0x20, 2)),
			    "ARL/arrowlake_crestmont_core.json");
	/* GenuineIntel-6-C6 has no LowPower_Atom row. */
	assert_null(table(6, 0xc6, 0, 0x20, 2));
	/* GenuineIntel-6-55-[01234] Skylake-X, -[56789ABCDEF] Cascade Lake. */
	assert_string_equal(perfmon_table_name(table(6, 0x55, 4, 0, NO_NATIVE)),
			    "SKX/skylakex_core.json");
	assert_string_equal(perfmon_table_name(table(6, 0x55, 5, 0, NO_NATIVE)),
			    "CLX/cascadelakex_core.json");
	assert_null(table(6, 0x55, 16, 0, NO_NATIVE));
	/* GenuineIntel-18-1: family 18 decimal is 0x12 (Nova Lake). */
	assert_string_equal(perfmon_table_name(table(0x12, 0x01, 0, 0x40, 5)),
			    "NVL/novalake_coyotecove_core.json");
	assert_null(table(0x18, 0x01, 0, 0x40, 5));
	/* GenuineIntel-6-BE (Alder Lake-N, E-cores only): a core row, no core type. */
	assert_string_equal(perfmon_table_name(table(6, 0xbe, 0, 0x20, 1)),
			    "ADL/alderlake_gracemont_core.json");
	/* Diamond Rapids (family 0x13) is not in this perfmon snapshot. */
	assert_null(table(0x13, 0x01, 0, 0, NO_NATIVE));
	assert_null(table(6, 0x01, 0, 0, NO_NATIVE));
}

/* PTL/events/pantherlake_cougarcove_core.json: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32. */
static void test_cougar_cove_load_latency(void **state)
{
	const struct perfmon_table *t = table(6, 0xcc, 0, 0x40, 4);
	struct perfmon_info in;

	assert_non_null(t);
	get(t, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32", &in);
	assert_int_equal(in.n_codes, 1);
	assert_int_equal(in.codes[0], 0xcd);
	assert_int_equal(in.n_umasks, 1);
	assert_int_equal(in.umasks[0], 0x01);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(2, 3, 4, 5, 6, 7, 8, 9));
	assert_int_equal(in.ctr[PERFMON_COUNTER].fixed, 0);
	assert_int_equal(in.ctr[PERFMON_PEBS_COUNTERS].gp, GP(2, 3, 4, 5, 6, 7, 8, 9));
	assert_int_equal(in.ctr[PERFMON_PDIST_COUNTER].gp, GP(0, 1));
	assert_int_equal(in.precise, 1);
	assert_int_equal(in.collect_pebs, 2);
	assert_int_equal(in.pebs, -1); /* no PEBS field from Ice Lake on */
	assert_true(in.data_la);
	assert_true(in.taken_alone);
	assert_int_equal(in.n_msrs, 1);
	assert_int_equal(in.msr_index[0], 0x3f6);
	assert_int_equal(in.msr_value, 0x20);
	assert_int_equal(in.sample_after, 100007);
	assert_string_equal(in.errata, "");
	assert_true(perfmon_table_fields(t) & PERFMON_HAS_PDIST_COUNTER);
	assert_false(perfmon_table_fields(t) & PERFMON_HAS_PEBS);
}

/* ADL/events/alderlake_goldencove_core.json */
static void test_golden_cove(void **state)
{
	const struct perfmon_table *t = table_named("ADL/alderlake_goldencove_core.json");
	struct perfmon_info in;

	/* MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32: Counter "1,2,3,4,5,6,7", PDISTCounter "NA". */
	get(t, "mem_trans_retired.load_latency_gt_32", &in); /* any case */
	assert_string_equal(in.name, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32");
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(1, 2, 3, 4, 5, 6, 7));
	assert_int_equal(in.ctr[PERFMON_PDIST_COUNTER].gp, 0);
	assert_int_equal(in.ctr[PERFMON_PDIST_COUNTER].fixed, 0);

	/* CPU_CLK_UNHALTED.REF_TSC: "Fixed counter 2", PEBScounters "34". */
	get(t, "CPU_CLK_UNHALTED.REF_TSC", &in);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, 0);
	assert_int_equal(in.ctr[PERFMON_COUNTER].fixed, 1u << 2);
	assert_int_equal(in.ctr[PERFMON_PEBS_COUNTERS].fixed, 1u << 2);
	assert_int_equal(in.precise, 0);

	/* OCR.DEMAND_DATA_RD.ANY_RESPONSE: "0x2A,0x2B", MSRIndex "0x1a6,0x1a7", 0x10001. */
	get(t, "OCR.DEMAND_DATA_RD.ANY_RESPONSE", &in);
	assert_int_equal(in.n_codes, 2);
	assert_int_equal(in.codes[0], 0x2a);
	assert_int_equal(in.codes[1], 0x2b);
	assert_int_equal(in.n_msrs, 2);
	assert_int_equal(in.msr_index[0], 0x1a6);
	assert_int_equal(in.msr_index[1], 0x1a7);
	assert_int_equal(in.msr_value, 0x10001);
	assert_int_equal(in.collect_pebs, 0);

	/* MEM_INST_RETIRED.ALL_LOADS: 0xd0/0x81, Data_LA 1, PDISTCounter "0". */
	get(t, "MEM_INST_RETIRED.ALL_LOADS", &in);
	assert_int_equal(in.codes[0], 0xd0);
	assert_int_equal(in.umasks[0], 0x81);
	assert_true(in.data_la);
	assert_int_equal(in.ctr[PERFMON_PDIST_COUNTER].gp, GP(0));

	assert_null(perfmon_find_name(t, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_3"));
	assert_null(perfmon_find_name(t, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32X"));
	assert_null(perfmon_find_name(t, ""));
}

/* The same encoding under several names: iterate them all. */
static void test_find_code(void **state)
{
	const struct perfmon_table *t = table_named("ADL/alderlake_goldencove_core.json");
	struct perfmon_key k = {.code = 0xcd, .umask = 0x01};
	const struct perfmon_event *ev;
	unsigned int pos = 0, n = 0;

	/* alderlake_goldencove_core.json lists nine 0xcd/0x01 events, GT_4 ... GT_1024. */
	while ((ev = perfmon_find_code(t, &k, &pos)) != NULL) {
		assert_memory_equal(perfmon_event_name(ev), "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_",
				    34);
		n++;
	}
	assert_int_equal(n, 9);
	assert_int_equal(pos, perfmon_n_events(t));

	/* The second code of an offcore pair finds the event too. */
	k = (struct perfmon_key){.code = 0x2b, .umask = 0x01};
	pos = 0;
	ev = perfmon_find_code(t, &k, &pos);
	assert_non_null(ev);
	assert_memory_equal(perfmon_event_name(ev), "OCR.", 4);

	/* SKL/events/skylake_core.json: 0xA3/0x14 is CYCLE_ACTIVITY.STALLS_MEM_ANY with
	 * CounterMask 20; asked with cmask 16 and the modifiers compared, nothing. */
	t = table(6, 0x5e, 3, 0, NO_NATIVE);
	assert_string_equal(perfmon_table_name(t), "SKL/skylake_core.json");
	k = (struct perfmon_key){.code = 0xa3, .umask = 0x14, .match_mods = true, .cmask = 20};
	pos = 0;
	ev = perfmon_find_code(t, &k, &pos);
	assert_non_null(ev);
	assert_string_equal(perfmon_event_name(ev), "CYCLE_ACTIVITY.STALLS_MEM_ANY");
	k.cmask = 16;
	pos = 0;
	assert_null(perfmon_find_code(t, &k, &pos));
	k.match_mods = false;
	pos = 0;
	assert_non_null(perfmon_find_code(t, &k, &pos));
}

/* HSW/events/haswell_core.json and SKL/events/skylake_core.json: INST_RETIRED.PREC_DIST. */
static void test_prec_dist_counter_1(void **state)
{
	static const char *const files[] = {"HSW/haswell_core.json", "SKL/skylake_core.json"};
	struct perfmon_info in;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		const struct perfmon_table *t = table_named(files[i]);

		get(t, "INST_RETIRED.PREC_DIST", &in);
		assert_int_equal(in.codes[0], 0xc0);
		assert_int_equal(in.umasks[0], 0x01);
		assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(1));
		assert_int_equal(in.ctr[PERFMON_COUNTER_HT_OFF].gp, GP(1));
		assert_int_equal(in.pebs, 2);
		assert_int_equal(in.precise, -1);
		assert_int_equal(in.ctr[PERFMON_PEBS_COUNTERS].gp, 0); /* no PEBScounters field */
		assert_false(perfmon_table_fields(t) & PERFMON_HAS_PEBS_COUNTERS);
	}
	get(table_named("HSW/haswell_core.json"), "INST_RETIRED.PREC_DIST", &in);
	assert_string_equal(in.errata, "HSD140");
	get(table_named("SKL/skylake_core.json"), "INST_RETIRED.PREC_DIST", &in);
	assert_string_equal(in.errata, "SKL091, SKL044");
	/* haswell_core.json CPU_CLK_UNHALTED.THREAD_ANY: AnyThread 1 on fixed counter 1. */
	get(table_named("HSW/haswell_core.json"), "CPU_CLK_UNHALTED.THREAD_ANY", &in);
	assert_true(in.any_thread);
	assert_int_equal(in.ctr[PERFMON_COUNTER].fixed, 1u << 1);
}

/* Lion Cove: L1D_PENDING.LOAD (0x48/0x01) and INST_DECODED.DECODERS (0x75/0x01) on PMC2
 * only (LNL/events/lunarlake_lioncove_core.json, Counter "2"). */
static void test_lion_cove_pmc2(void **state)
{
	const struct perfmon_table *t = table(6, 0xbd, 1, 0x40, 3);
	struct perfmon_info in;

	assert_string_equal(perfmon_table_name(t), "LNL/lunarlake_lioncove_core.json");
	get(t, "L1D_PENDING.LOAD", &in);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(2));
	get(t, "INST_DECODED.DECODERS", &in);
	assert_int_equal(in.codes[0], 0x75);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(2));
}

/* Older and Atom files: raw PEBS values, PEBScounters, PRECISE_STORE, umask lists. */
static void test_older_files(void **state)
{
	struct perfmon_info in;
	const struct perfmon_table *t;

	/* GLM/events/goldmont_core.json: MEM_UOPS_RETIRED.ALL_LOADS PEBS 2, PEBScounters "0";
	 * CPU_CLK_UNHALTED.CORE_P PEBS 0 but CollectPEBSRecord 1. */
	t = table(6, 0x5c, 9, 0, NO_NATIVE);
	assert_string_equal(perfmon_table_name(t), "GLM/goldmont_core.json");
	get(t, "MEM_UOPS_RETIRED.ALL_LOADS", &in);
	assert_int_equal(in.pebs, 2);
	assert_int_equal(in.collect_pebs, 2);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(0, 1, 2, 3));
	assert_int_equal(in.ctr[PERFMON_PEBS_COUNTERS].gp, GP(0));
	get(t, "CPU_CLK_UNHALTED.CORE_P", &in);
	assert_int_equal(in.pebs, 0);
	assert_int_equal(in.collect_pebs, 1);

	/* SNB/events/sandybridge_core.json: MEM_TRANS_RETIRED.PRECISE_STORE on PMC3. */
	t = table(6, 0x2a, 7, 0, NO_NATIVE);
	get(t, "MEM_TRANS_RETIRED.PRECISE_STORE", &in);
	assert_true(in.precise_store);
	assert_true(in.taken_alone);
	assert_int_equal(in.ctr[PERFMON_COUNTER].gp, GP(3));
	assert_string_equal(in.errata, ""); /* written "0" in the file */

	/* ADL/events/alderlake_gracemont_core.json OCR.DEMAND_DATA_RD.ANY_RESPONSE:
	 * 0xB7 with UMask "0x01,0x02". */
	t = table(6, 0x9a, 0, 0x20, 1);
	get(t, "OCR.DEMAND_DATA_RD.ANY_RESPONSE", &in);
	assert_int_equal(in.n_codes, 1);
	assert_int_equal(in.codes[0], 0xb7);
	assert_int_equal(in.n_umasks, 2);
	assert_int_equal(in.umasks[1], 0x02);

	/* NVL/events/novalake_coyotecove_core.json MEM_LOAD_L2_MISS_RETIRED.L3_MISS:
	 * four umasks, four MSRs 0x3E0-0x3E3, MSRIndex-UMask. */
	t = table(0x12, 0x03, 0, 0x40, 5);
	get(t, "MEM_LOAD_L2_MISS_RETIRED.L3_MISS", &in);
	assert_int_equal(in.n_umasks, 4);
	assert_int_equal(in.umasks[3], 0x08);
	assert_int_equal(in.n_msrs, 4);
	assert_int_equal(in.msr_index[3], 0x3e3);
	assert_int_equal(in.msr_value, 0xFF03F000000001ULL);
	assert_int_equal(in.restriction, PERFMON_RESTRICT_MSR_UMASK);
	assert_int_equal(in.counter_type, PERFMON_PGMABLE);
	assert_true(perfmon_table_fields(t) & PERFMON_HAS_COUNTER_TYPE);
}

/* Every table: iteration stays inside it, and every name finds its own event. */
static void test_iteration(void **state)
{
	unsigned int i, e, total = 0;

	assert_int_equal(perfmon_n_tables(), 47);
	assert_null(perfmon_table_at(47));
	for (i = 0; i < perfmon_n_tables(); i++) {
		const struct perfmon_table *t = perfmon_table_at(i);

		assert_true(perfmon_n_events(t) > 0);
		assert_null(perfmon_event_at(t, perfmon_n_events(t)));
		for (e = 0; e < perfmon_n_events(t); e++) {
			const struct perfmon_event *ev = perfmon_event_at(t, e);

			assert_ptr_equal(perfmon_find_name(t, perfmon_event_name(ev)), ev);
		}
		total += perfmon_n_events(t);
	}
	assert_int_equal(total, 18475); /* data/perfmon/PROVENANCE.md */
	assert_int_equal(strlen(perfmon_commit), 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_map),
	    cmocka_unit_test(test_cougar_cove_load_latency),
	    cmocka_unit_test(test_golden_cove),
	    cmocka_unit_test(test_find_code),
	    cmocka_unit_test(test_prec_dist_counter_1),
	    cmocka_unit_test(test_lion_cove_pmc2),
	    cmocka_unit_test(test_older_files),
	    cmocka_unit_test(test_iteration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
