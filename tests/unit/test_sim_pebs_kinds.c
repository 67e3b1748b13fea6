// SPDX-License-Identifier: MIT
/*
 * test_sim_pebs_kinds.c - the simulated PEBS engine driven by raw MSR
 * sequences, per kind of record: fixed-counter and adaptive PEBS, Tremont's
 * meminfo, load latency, precise store, SPR's AUX blocking bit, Goldmont's
 * non-precise and STATUS_SET records, Silvermont's average offcore latency
 * and the load-block events.  Record layouts: SDM Tables 18-23/18-44/18-55,
 * Linux struct pebs_basic and the adaptive groups (test_sim_pebs.c has the
 * count, reload, threshold and arch-PEBS buffer tests).
 */
#include "test_sim_util.h"

static uint8_t data[64 * 4096];

/* Fixed counter 0 PEBS: reset slot index 8+i (fmt4) or 32+i (fmt5) (Linux asm/intel_ds.h
 * MAX_PEBS_EVENTS_FMT4). */
static void fixed_case(const char *model, unsigned int slot, unsigned int other)
{
	struct ds d;

	use_model(model);
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, slot, (uint64_t)-100 & MASK48);
	ds_reset_slot(&d, other, (uint64_t)-1 & MASK48);
	wr(GLOBAL_CTRL, 0);
	wr(FIXED_CTR_CTRL, 0x1); /* fixed 0, OS */
	wr(FIXED_CTR(0), (uint64_t)-100 & MASK48);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1ull << 32);
	wr(GLOBAL_CTRL, 1ull << 32);
	hw_current()->retire(KIP, 1000); /* INST_RETIRED.ANY: 1000 instructions */
	wr(GLOBAL_CTRL, 0);
	wr(PEBS_ENABLE, 0);
	assert_int_equal(ds_used(&d), 10 * 0x20);
	assert_int_equal(get64(d.buf, 0x10), 1ull << 32);
	assert_int_equal(get64(d.buf, 0x08), KIP);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

static void test_fixed_counter_pebs(void **state)
{
	fixed_case("icx", 8, 32);
	fixed_case("spr", 32, 8);
	fixed_case("tnt", 8, 32); /* Tremont: fmt4, so slot 8+i as Ice Lake */
}

/*
 * PMC0 counts MEM_UOPS_RETIRED.ALL_LOADS with its adaptive bit and the
 * DATA_CFG groups cfg, every load a record; two loads run.
 */
static void adaptive_loads(const char *model, struct ds *d, uint64_t cfg)
{
	use_model(model);
	ds_make(d, 16384, 16384, 16384);
	ds_reset_slot(d, 0, MASK48);
	wr(DATA_CFG, cfg);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0) | EV_ADAPT);
	wr(PMC(0), 0xffffffff);
	wr(DS_AREA, (uintptr_t)d->area);
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 1);
	run_loads(data, 2);
}

/*
 * Tremont: the memory-info group of a load's adaptive record carries its
 * data linear address, while data source and latency stay 0: the part has
 * no load-latency facility (no MSR_PEBS_LD_LAT event in its perfmon file)
 * and Linux decodes no data source for it (core.c intel_pmu_init Tremont
 * sets no pebs_latency_data).  Layout: Linux struct pebs_meminfo
 * (address, aux, latency, tsx_tuning).
 */
static void test_tremont_meminfo(void **state)
{
	struct ds d;
	uint8_t *r;

	adaptive_loads("tnt", &d, 0x1);
	wr(GLOBAL_CTRL, 0);
	wr(PEBS_ENABLE, 0);
	assert_int_equal(ds_used(&d), 2 * 0x40);
	r = d.buf + 0x40;
	assert_int_equal(get64(r, 0), 0x40ull << 48 | 0x1);
	assert_int_equal(get64(r, 0x20), (uintptr_t)data + 64);
	assert_int_equal(get64(r, 0x28), 0);
	assert_int_equal(get64(r, 0x30), 0);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* Adaptive records only for counters with their adaptive bit (kvm-unit-tests x86/pmu_pebs.c). */
static void test_adaptive_groups(void **state)
{
	static const struct {
		uint64_t cfg, size;
	} cases[] = {
	    {0x1, 0x40},
	    {0x3, 0xd0},
	    {0x7, 0x1d0},
	    {0x8 | 0x1full << 24, 0x320},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ds d;
		uint8_t *r;

		adaptive_loads("icx", &d, cases[i].cfg);
		wr(EVTSEL(1), 0); /* unrelated write while armed: no rule broken */
		wr(GLOBAL_CTRL, 0);
		wr(PEBS_ENABLE, 0);
		r = d.buf + cases[i].size;
		assert_int_equal(ds_used(&d), 2 * cases[i].size);
		assert_int_equal(get64(r, 0), cases[i].size << 48 | cases[i].cfg);
		assert_int_equal(get64(r, 0x08), kip(1));
		if (cases[i].cfg & 1)
			assert_int_equal(get64(r, 0x20), (uintptr_t)data + 64);
		/* GPR group ip (+0x08): the last load, no instruction after it */
		if (cases[i].cfg & 2)
			assert_int_equal(get64(r, 0x20 + 0x20 + 0x08), kip(1));
		assert_int_equal(n_rules, 0);
		ds_free(&d);
	}
}

/* SDM Table 18-24 sources, Table 18-33 STLB-miss and lock bits, latency > threshold. */
static void test_load_latency_skl(void **state)
{
	struct ds d;
	uint8_t *page = data + 8 * 4096;

	use_model("skl");
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 0, MASK48); /* SAV 1 */
	wr(GLOBAL_CTRL, 0);
	wr(LD_LAT, 3);
	wr(EVTSEL(0), EVT(0x01cd));
	wr(PMC(0), 0xffffffff);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1ull << 32 | 1);
	wr(GLOBAL_CTRL, 1);
	hw_current()->mem_access(KIP, 0, (uintptr_t)page, 8, HW_LOAD);	   /* cold: DRAM */
	hw_current()->mem_access(KIP + 4, 0, (uintptr_t)page, 8, HW_LOAD); /* L1D hit */
	hw_current()->mem_access(KIP + 8, 0, (uintptr_t)page + 8, 8, HW_LOAD | HW_LOCKED);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 3 * 0xc8);
	assert_int_equal(get64(d.buf, 0xa0), 0xa | 1 << 4);	    /* local DRAM, STLB miss */
	assert_int_equal(get64(d.buf + 0xc8, 0xa0), 0x1);	    /* L1D hit */
	assert_int_equal(get64(d.buf + 0x190, 0xa0), 0x1 | 1 << 5); /* locked */
	assert_true(get64(d.buf, 0xa8) > get64(d.buf + 0xc8, 0xa8));
	assert_true(get64(d.buf + 0xc8, 0xa8) > 3);
	assert_int_equal(get64(d.buf + 0xc8, 0x98), (uintptr_t)page);
	/* A threshold above the L1 latency: only the cold line's load counts. */
	wr(LD_LAT, 50);
	put64(d.area, 0x28, (uintptr_t)d.buf);
	wr(GLOBAL_CTRL, 1);
	hw_current()->mem_access(KIP, 0, (uintptr_t)page, 8, HW_LOAD);
	hw_current()->mem_access(KIP, 0, (uintptr_t)page + 4096, 8, HW_LOAD);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 0xc8);
	assert_int_equal(get64(d.buf, 0x98), (uintptr_t)page + 4096);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* Gracemont swaps the lock and STLB-miss bits (Linux ds.c __intel_pmu_pebs_data_source_grt). */
static void test_load_latency_grt(void **state)
{
	struct ds d;
	uint8_t *page = data + 16 * 4096;

	use_model("adl-e");
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 0, MASK48);
	wr(DATA_CFG, 1);
	wr(GLOBAL_CTRL, 0);
	wr(LD_LAT, 3);
	wr(EVTSEL(0), EVT(0x05d0) | EV_ADAPT);
	wr(PMC(0), 0xffffffff);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 1);
	hw_current()->mem_access(KIP, 0, (uintptr_t)page, 8, HW_LOAD | HW_LOCKED);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 0x40);
	assert_int_equal(get64(d.buf, 0x20), (uintptr_t)page);
	assert_int_equal(get64(d.buf, 0x28), 0xa | 1 << 4 | 1 << 5);
	/* ADL: cache latency in [47:32] of the latency word (Linux struct pebs_meminfo) */
	assert_true(get64(d.buf, 0x30) >> 32 > 3);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* SNB precise store: the record captures the next store after the overflow (SDM 18.9.4.3). */
static void test_precise_store_snb(void **state)
{
	struct ds d;
	unsigned long i;

	use_model("snb");
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 3, (uint64_t)-2 & MASK48);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(3), EVT(0x02cd));
	wr(PMC(3), (uint64_t)-2 & 0xffffffff);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1ull << 63 | 1ull << 3);
	wr(GLOBAL_CTRL, 1ull << 3);
	for (i = 0; i < 6; i++)
		hw_current()->mem_access(kip(i), 0, (uintptr_t)data + 64 * i, 8, HW_STORE);
	wr(GLOBAL_CTRL, 0);
	wr(PEBS_ENABLE, 0);
	/* Overflows at stores 1 and 3: the records hold stores 2 and 4. */
	assert_int_equal(ds_used(&d), 2 * 0xb0);
	assert_int_equal(get64(d.buf, 0x98), (uintptr_t)data + 64 * 2);
	assert_int_equal(get64(d.buf + 0xb0, 0x98), (uintptr_t)data + 64 * 4);
	assert_int_equal(get64(d.buf, 0xa0) & 1, 0); /* a cold line: not an L1D hit */
	assert_int_equal(get64(d.buf, 0xa8), 0);     /* latency 0 for stores */
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* SPR: data-blk bit 6 only while mem-loads-aux 0x8203 counts (Linux core.c PMU_FL_MEM_LOADS_AUX).
 */
static void blk_case(bool aux, uint64_t want_bit6)
{
	struct ds d;
	uint8_t *x = data + 32 * 4096;

	use_model("spr");
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 1, MASK48);
	wr(DATA_CFG, 1);
	wr(GLOBAL_CTRL, 0);
	wr(LD_LAT, 3);
	wr(EVTSEL(1), EVT(0x01cd) | EV_ADAPT);
	wr(EVTSEL(2), EVT(0x8203));
	wr(PMC(1), 0xffffffff);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1ull << 1);
	wr(GLOBAL_CTRL, 1ull << 1 | (aux ? 1ull << 2 : 0));
	hw_current()->mem_access(KIP, 0, (uintptr_t)x, 8, HW_STORE);
	hw_current()->mem_access(KIP + 4, 0, (uintptr_t)x + 4, 8, HW_LOAD); /* partial overlap */
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 0x40);
	assert_int_equal(get64(d.buf, 0x28) & (1 << 6), want_bit6);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

static void test_spr_aux_blk(void **state)
{
	blk_case(true, 1 << 6);
	blk_case(false, 0);
}

/* Goldmont (SDM 18.7.1): non-precise events record at the next retirement point. */
static void test_goldmont_nonprecise(void **state)
{
	struct ds d;

	use_model("glm");
	ds_make(&d, 16384, 16384, 16384);
	ds_reset_slot(&d, 0, (uint64_t)-10 & MASK48);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x003c)); /* CPU_CLK_UNHALTED.CORE_P */
	wr(PMC(0), (uint64_t)-10 & 0xffffffff);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 1);
	hw_current()->retire(KIP, 10);	  /* 10 cycles: overflow */
	assert_int_equal(ds_used(&d), 0); /* not yet: at the next opportunity */
	hw_current()->retire(KIP + 0x40, 1);
	assert_int_equal(ds_used(&d), 0xc8);
	assert_int_equal(get64(d.buf, 0xb0), KIP + 0x40);
	assert_int_equal(get64(d.buf, 0x90), 1);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* Goldmont: a STATUS_SET overflow on the PEBS counter gives a record (SDM 18.7.1). */
static void test_goldmont_status_set(void **state)
{
	struct ds d;

	use_model("glm");
	ds_make(&d, 16384, 16384, 16384);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(PMC(0), 0x10000000);
	wr(DS_AREA, (uintptr_t)d.area);
	wr(PEBS_ENABLE, 1);
	wr(GLOBAL_CTRL, 1);
	wr(STATUS_SET, 1);
	hw_current()->mem_access(KIP + 0x80, 0, (uintptr_t)data, 8, HW_LOAD);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(ds_used(&d), 0xc8);
	assert_int_equal(get64(d.buf, 0xb0), KIP + 0x80);
	assert_int_equal(get64(d.buf, 0x90), 1);
	assert_int_equal(get64(d.buf, 0xa0), 0); /* reserved on Goldmont (p.18-32) */
	assert_int_equal(get64(d.buf, 0xa8), 0);
	assert_int_equal(rd(GLOBAL_STATUS) & 1, 0); /* cleared by the assist */
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

/* Silvermont (SDM 18.6.3): weighted cycles in RSP0's counter, requests in RSP1's. */
static void test_silvermont_avg_latency(void **state)
{
	uint8_t *x = data + 48 * 4096;
	uint64_t reqs, cycles;

	use_model("slm");
	wr(GLOBAL_CTRL, 0);
	wr(OFFCORE_RSP(0), 1ull << 38 | 0x1); /* demand data reads, AVG_LATENCY */
	wr(OFFCORE_RSP(1), 1ull << 16 | 0x1); /* same request type, ANY_RESPONSE */
	wr(EVTSEL(0), EVT(0x01b7));
	wr(EVTSEL(1), EVT(0x02b7));
	wr(PMC(0), 0);
	wr(PMC(1), 0);
	wr(GLOBAL_CTRL, 3);
	run_loads(x, 32); /* 32 cold lines: 32 offcore requests */
	run_loads(x, 32); /* now L1 hits: none */
	wr(GLOBAL_CTRL, 0);
	reqs = rd(PMC(1));
	cycles = rd(PMC(0));
	assert_int_equal(reqs, 32);
	assert_true(cycles >= 32 * 100); /* a DRAM round trip is >= 100 core cycles */
	assert_int_equal(cycles % reqs, 0);
	assert_int_equal(n_rules, 0);
}

/*
 * Counting LD_BLOCKS.STORE_FORWARD and LD_BLOCKS(_PARTIAL).ADDRESS_ALIAS at
 * the encodings of each part's perfmon file: a 4-byte store then an 8-byte
 * load of it cannot forward; a load at the same offset of the next 4 KiB
 * page aliases; loads of lines no store touched are neither.  Golden Cove
 * and later P-cores renumbered them; the encodings of the older parts have
 * no row there and count nothing.
 */
static const struct {
	const char *model;
	uint16_t stfwd, alias;	 /* perfmon EventCode | UMask << 8 */
	uint16_t old_stfwd, old; /* the pre-Golden Cove encodings: 0 = they are these */
} blocks[] = {
    /* SKL/events/skylake_core.json */
    {"skl", 0x0203, 0x0107, 0, 0},
    /* SPR/events/sapphirerapids_core.json */
    {"spr", 0x8203, 0x0403, 0x0203, 0x0107},
    /* ADL/events/alderlake_goldencove_core.json */
    {"adl-p", 0x8203, 0x0403, 0x0203, 0x0107},
    /* GNR/events/graniterapids_core.json */
    {"gnr", 0x8203, 0x0403, 0x0203, 0x0107},
    /* LNL/events/lunarlake_lioncove_core.json (CPU 0: the P-core) */
    {"lnl", 0x8203, 0x0403, 0x0203, 0x0107},
    /* PTL/events/pantherlake_cougarcove_core.json */
    {"ptl", 0x8203, 0x0403, 0x0203, 0x0107},
    /* NVL/events/novalake_coyotecove_core.json */
    {"nvl", 0x8203, 0x0403, 0x0203, 0x0107},
};

static void block_case(unsigned int k)
{
	uint8_t *x = data + 64 * 4096 - 3 * 4096;
	unsigned long i;
	bool old = blocks[k].old_stfwd;

	use_model(blocks[k].model);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(blocks[k].stfwd));
	wr(EVTSEL(1), EVT(blocks[k].alias));
	if (old) {
		wr(EVTSEL(2), EVT(blocks[k].old_stfwd));
		wr(EVTSEL(3), EVT(blocks[k].old));
	}
	for (i = 0; i < 4; i++)
		wr(PMC(i), 0);
	wr(GLOBAL_CTRL, 0xf);
	for (i = 0; i < 10; i++) {
		hw_current()->mem_access(KIP, 0, (uintptr_t)x, 4, HW_STORE);
		hw_current()->mem_access(KIP + 4, 0, (uintptr_t)x, 8, HW_LOAD);
	}
	for (i = 0; i < 7; i++) {
		hw_current()->mem_access(KIP, 0, (uintptr_t)x + 0x100, 8, HW_STORE);
		hw_current()->mem_access(KIP + 4, 0, (uintptr_t)x + 0x100 + 4096, 8, HW_LOAD);
	}
	run_loads(data + 0x800, 20); /* page offsets no store has: neither */
	wr(GLOBAL_CTRL, 0);
	if (rd(PMC(0)) != 10 || rd(PMC(1)) != 7)
		fail_msg("%s: store forward 0x%04x counted %llu (want 10), alias 0x%04x %llu (want "
			 "7)",
			 blocks[k].model, blocks[k].stfwd, (unsigned long long)rd(PMC(0)),
			 blocks[k].alias, (unsigned long long)rd(PMC(1)));
	if (old && (rd(PMC(2)) || rd(PMC(3))))
		fail_msg("%s: 0x%04x / 0x%04x, no rows in its perfmon file, counted %llu / %llu",
			 blocks[k].model, blocks[k].old_stfwd, blocks[k].old,
			 (unsigned long long)rd(PMC(2)), (unsigned long long)rd(PMC(3)));
	assert_int_equal(n_rules, 0);
}

static void test_load_block_events(void **state)
{
	for (unsigned int k = 0; k < ARRAY_SIZE(blocks); k++)
		block_case(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixed_counter_pebs),
	    cmocka_unit_test(test_tremont_meminfo),
	    cmocka_unit_test(test_adaptive_groups),
	    cmocka_unit_test(test_load_latency_skl),
	    cmocka_unit_test(test_load_latency_grt),
	    cmocka_unit_test(test_precise_store_snb),
	    cmocka_unit_test(test_spr_aux_blk),
	    cmocka_unit_test(test_goldmont_nonprecise),
	    cmocka_unit_test(test_goldmont_status_set),
	    cmocka_unit_test(test_silvermont_avg_latency),
	    cmocka_unit_test(test_load_block_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
