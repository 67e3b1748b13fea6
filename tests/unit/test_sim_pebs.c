// SPDX-License-Identifier: MIT
/*
 * test_sim_pebs.c - the simulated PEBS engine driven by raw MSR sequences
 * (kvm-unit-tests' arming order, x86/pmu_pebs.c pebs_enable) on every
 * PEBS-capable model: record count = events / sample-after value, records
 * at the DS index in each format's layout, reload from the DS reset slots,
 * the interrupt threshold and the PMI, the absolute maximum, arch-PEBS
 * (test_sim_pebs_kinds.c: each kind of record).
 *
 * Layout facts used below (SDM Tables 18-23/18-44/18-55, Linux struct
 * pebs_basic and the adaptive groups, Linux d21954c8a0ff for arch-PEBS): legacy record sizes
 * 0x90/0xB0/0xC0/0xC8 for fmt 0-3; R/EIP at 0x08, status/applicable at 0x90, DLA 0x98, data source
 * 0xA0, latency 0xA8, EventingIP 0xB0, TSC 0xC0; adaptive basic group 0x20 bytes {size<<48 |
 * format, IP, applicable, TSC}; arch-PEBS header 0x10 + basic 0x30.  Data-source encodings: SDM
 * Table 18-24.
 */
#include "test_sim_util.h"

enum layout { L_LEGACY, L_ADAPTIVE, L_ARCH };

struct pm {
	const char *name;
	enum layout layout;
	unsigned int fmt;
	size_t size;	  /* record size without optional groups */
	unsigned int ctr; /* the PEBS counter used */
	uint64_t code;	  /* umask << 8 | event */
	bool loads;	  /* the event counts loads (records carry the DLA) */
	uint64_t mask;	  /* counter width */
};

/*
 * Events: SDM PEBS event tables (INST_RETIRED.ANY_P 0xC0; loads 0x010B / 0x81D0),
 * each on a counter its perfmon PEBScounters allow (ALL_LOADS: PMC0-3 on SNB to
 * ADL P-core), which the simulator enforces (sim/placement.c).  Where the file
 * names PDIST counters for the event (SPR and ADL P-core ALL_LOADS "0",
 * Clearwater Forest "0,1" and CPUID.23H.5:EBX PMC0 in the simulator), the
 * counter is one, so each record is of the overflowing load (test_sim_placement
 * shows the others).
 */
static const struct pm pms[] = {
    {"core2", L_LEGACY, 0, 0x90, 0, 0x00c0, false, MASK40},
    {"nhm", L_LEGACY, 1, 0xb0, 0, 0x010b, true, MASK48},
    {"snb", L_LEGACY, 1, 0xb0, 1, 0x81d0, true, MASK48},
    {"hsw", L_LEGACY, 2, 0xc0, 2, 0x81d0, true, MASK48},
    {"skl", L_LEGACY, 3, 0xc8, 3, 0x81d0, true, MASK48},
    {"icx", L_ADAPTIVE, 4, 0x20, 2, 0x81d0, true, MASK48},
    {"spr", L_ADAPTIVE, 5, 0x20, 0, 0x81d0, true, MASK48},
    {"adl-p", L_ADAPTIVE, 4, 0x20, 0, 0x81d0, true, MASK48},
    {"adl-e", L_ADAPTIVE, 4, 0x20, 0, 0x81d0, true, MASK48},
    {"glm", L_LEGACY, 3, 0xc8, 0, 0x81d0, true, MASK48},
    {"slm", L_LEGACY, 2, 0xc0, 0, 0x00c0, false, MASK40},
    {"tnt", L_ADAPTIVE, 4, 0x20, 0, 0x81d0, true, MASK48},
    {"archpebs", L_ARCH, 0, 0x40, 0, 0x81d0, true, MASK48},
};

static uint8_t data[64 * 4096];

static bool trap_like(void)
{
	return rd(PERF_CAPS) & (1ull << 6); /* PEBS_TRAP: R/EIP is the next instruction */
}

#define ARCH_BUF_KIB 32 /* IA32_PEBS_BASE SIZE = 3: 4 KiB << 3 */

static void arm(const struct pm *p, struct ds *d, uint64_t first, uint64_t sav, size_t thresh)
{
	unsigned int c = p->ctr;

	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(c), EVT(p->code));
	wr(PMC(c), (uint64_t)-first & 0xffffffff);
	if (p->layout == L_ARCH) {
		wr(CFG_C_GP(c), 1ull << 63 | ((uint64_t)-sav & 0xffffffff));
		wr(PEBS_BASE, (uintptr_t)d->buf | 3);
		wr(PEBS_INDEX, 1ull << 32 | (uint64_t)(thresh >> 4) << 36);
	} else {
		ds_reset_slot(d, c, (uint64_t)-sav & p->mask);
		wr(DS_AREA, (uintptr_t)d->area);
		wr(PEBS_ENABLE, 1ull << c);
	}
	wr(GLOBAL_CTRL, 1ull << c);
}

static void disarm(const struct pm *p)
{
	wr(GLOBAL_CTRL, 0);
	if (p->layout != L_ARCH)
		wr(PEBS_ENABLE, 0);
}

static uint64_t used(const struct pm *p, const struct ds *d)
{
	if (p->layout == L_ARCH)
		return ((rd(PEBS_INDEX) >> 4) & 0x7fffff) << 4;
	return ds_used(d);
}

/* The eventing instruction of record k (0-based) is load (k+1)*sav - 1. */
static void check_record(const struct pm *p, const uint8_t *r, unsigned long j, unsigned long n,
			 bool trap, uint64_t *last_tsc)
{
	uint64_t ip = kip(j), dla = (uintptr_t)data + 64 * j, tsc = 0;
	uint64_t cbit = 1ull << p->ctr;

	switch (p->layout) {
	case L_LEGACY:
		if (j + 1 < n) /* the next IP is known only if an instruction follows */
			assert_int_equal(get64(r, 0x08), trap ? kip(j + 1) : ip);
		if (p->fmt >= 1) {
			assert_true(get64(r, 0x90) & cbit);
			assert_int_equal(get64(r, 0x98), p->loads ? dla : 0);
		}
		if (p->fmt >= 2)
			assert_int_equal(get64(r, 0xb0), ip);
		if (p->fmt == 3) {
			assert_int_equal(get64(r, 0x90), cbit);
			tsc = get64(r, 0xc0);
		}
		break;
	case L_ADAPTIVE:
		assert_int_equal(get64(r, 0x00), 0x20ull << 48); /* no adaptive bit: format 0 */
		assert_int_equal(get64(r, 0x08), ip);
		assert_int_equal(get64(r, 0x10), cbit);
		tsc = get64(r, 0x18);
		break;
	case L_ARCH:
		assert_int_equal(get64(r, 0x00) & 0xffff, 0x40);
		assert_true(get64(r, 0x00) & (1ull << 63)); /* basic group */
		assert_int_equal(get64(r, 0x10), ip);
		assert_int_equal(get64(r, 0x18), cbit);
		tsc = get64(r, 0x20);
		break;
	}
	if (tsc) {
		assert_true(tsc > *last_tsc);
		*last_tsc = tsc;
	} else {
		assert_true(p->fmt < 3 && p->layout == L_LEGACY);
	}
}

static void count_case(const struct pm *p, unsigned long n, uint64_t sav)
{
	struct ds d;
	unsigned long k, want = n / sav;
	uint64_t last_tsc = 0;
	bool trap;

	use_model(p->name);
	trap = trap_like();
	ds_make(&d, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024);
	arm(p, &d, sav, sav, ARCH_BUF_KIB * 1024);
	run_loads(data, n);
	disarm(p);
	if (used(p, &d) != want * p->size)
		fail_msg("%s: %lu events, SAV %llu: %llu bytes of records, want %lu records of %zu",
			 p->name, n, (unsigned long long)sav, (unsigned long long)used(p, &d), want,
			 p->size);
	for (k = 0; k < want; k++)
		check_record(p, d.buf + k * p->size, (k + 1) * sav - 1, n, trap, &last_tsc);
	assert_untouched_from(&d, want * p->size);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

static void test_record_count_every_model(void **state)
{
	static const uint64_t savs[] = {1, 3, 7, 10, 64};
	size_t i, s;

	for (i = 0; i < ARRAY_SIZE(pms); i++)
		for (s = 0; s < ARRAY_SIZE(savs); s++)
			count_case(&pms[i], 100, savs[s]);
}

/*
 * The record's IPs from what the access reported: the eventing IP (format
 * 2+, adaptive, arch-PEBS) is the access; R/EIP is the instruction after
 * it on a trap-like part (PERF_CAPABILITIES.PEBS_TRAP), the access itself
 * on a fault-like one.  sim-fault skid makes each one instruction late:
 * the eventing IP (and a fault-like R/EIP) the instruction after, a
 * trap-like R/EIP the next instruction reported.  Every model, SAV 4.
 */
static void test_record_ips(void **state)
{
	static const enum sim_fault faults[] = {SIM_FAULT_NONE, SIM_FAULT_SKID};
	const unsigned long n = 40, sav = 4;

	for (size_t f = 0; f < ARRAY_SIZE(faults); f++) {
		for (size_t i = 0; i < ARRAY_SIZE(pms); i++) {
			const struct pm *p = &pms[i];
			bool skid = faults[f] == SIM_FAULT_SKID, trap;
			struct ds d;

			use_model(p->name);
			assert_int_equal(sim_set_fault(0, faults[f], 0), 0);
			trap = trap_like();
			ds_make(&d, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024);
			arm(p, &d, sav, sav, ARCH_BUF_KIB * 1024);
			/* Each access says where the next instruction is: 3 bytes on. */
			for (unsigned long j = 0; j < n; j++)
				hw_current()->mem_access(kip(j), kip(j) + 3,
							 (uintptr_t)data + 64 * j, 8, HW_LOAD);
			disarm(p);
			assert_int_equal(used(p, &d), n / sav * p->size);
			for (unsigned long k = 0; k + 1 < n / sav; k++) {
				const uint8_t *r = d.buf + k * p->size;
				uint64_t ip = kip((k + 1) * sav - 1), next = ip + 3;
				uint64_t rip =
				    trap ? (skid ? kip((k + 1) * sav) : next) : (skid ? next : ip);
				uint64_t eip = skid ? next : ip;

				if (p->layout == L_LEGACY && get64(r, 0x08) != rip)
					fail_msg("%s%s: record %lu R/EIP %#llx, want %#llx",
						 p->name, skid ? " skid" : "", k,
						 (unsigned long long)get64(r, 0x08),
						 (unsigned long long)rip);
				if (p->layout == L_LEGACY && p->fmt >= 2)
					assert_int_equal(get64(r, 0xb0), eip);
				if (p->layout == L_ADAPTIVE)
					assert_int_equal(get64(r, 0x08), eip);
				if (p->layout == L_ARCH)
					assert_int_equal(get64(r, 0x10), eip);
			}
			/*
			 * The last record is written at the MSR write that
			 * disarms: no instruction followed, yet a trap-like
			 * R/EIP is the access's next one, and late under skid.
			 */
			if (p->layout == L_LEGACY && trap) {
				const uint8_t *r = d.buf + (n / sav - 1) * p->size;
				uint64_t next = kip(n - 1) + 3;

				if ((get64(r, 0x08) == next) == skid)
					fail_msg("%s%s: last record R/EIP %#llx, next %#llx",
						 p->name, skid ? " skid" : "",
						 (unsigned long long)get64(r, 0x08),
						 (unsigned long long)next);
			}
			ds_free(&d);
		}
	}
	sim_set_fault(0, SIM_FAULT_NONE, 0);
}

/* The counter reloads from its DS reset slot, not from what was first written. */
static void test_reload_from_reset_slot(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pms); i++) {
		const struct pm *p = &pms[i];
		struct ds d;

		use_model(p->name);
		ds_make(&d, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024);
		arm(p, &d, 5, 3, ARCH_BUF_KIB * 1024);
		run_loads(data, 20); /* overflows at 5, 8, 11, 14, 17, 20 */
		disarm(p);
		assert_int_equal(used(p, &d), 6 * p->size);
		/* 20 - 20 = 0 events since the last reload: the counter holds -3. */
		assert_int_equal(rd(PMC(p->ctr)), (uint64_t)-3 & p->mask);
		ds_free(&d);
	}
}

static unsigned int pmis;
static uint64_t index_at_pmi;
static const struct pm *pmi_model;
static struct ds *pmi_ds;
static bool pmi_drains;

/* A drain like simple-pebs': index back to base, ack, EOI, unmask (github.com/andikleen/simple-pebs
 * simple-pebs.c). */
static void on_pmi(void *ctx)
{
	(void)ctx;
	pmis++;
	index_at_pmi = used(pmi_model, pmi_ds);
	if (!pmi_drains)
		return;
	if (pmi_model->layout == L_ARCH) {
		wr(PEBS_INDEX, rd(PEBS_INDEX) & ~((0x7fffffull << 4) | (1ull << 31)));
		wr(GLOBAL_OVF_CTRL, 1ull << 54);
	} else {
		put64(pmi_ds->area, 0x28, (uintptr_t)pmi_ds->buf);
		wr(GLOBAL_OVF_CTRL, 1ull << 62);
	}
	hw_apic_write(APIC_EOI, 0);
	hw_apic_write(APIC_LVTPC, PMI_VEC);
}

static void threshold_case(const struct pm *p, bool drains)
{
	uint64_t bit = p->layout == L_ARCH ? 1ull << 54 : 1ull << 62;
	struct ds d;
	size_t th = 2 * p->size;

	use_model(p->name);
	pmis = 0;
	pmi_model = p;
	pmi_ds = &d;
	pmi_drains = drains;
	if (p->layout == L_ARCH)
		th = (th + 15) & ~(size_t)15;
	ds_make(&d, ARCH_BUF_KIB * 1024, ARCH_BUF_KIB * 1024, th);
	assert_int_equal(hw_set_pmi_handler(PMI_VEC, on_pmi, NULL), 0);
	hw_apic_write(APIC_LVTPC, PMI_VEC);
	arm(p, &d, 4, 4, th);
	run_loads(data, 7); /* one record: below the threshold */
	assert_false(rd(GLOBAL_STATUS) & bit);
	assert_int_equal(pmis, 0);
	/*
	 * The second record reaches it.  On trap-like parts the assist follows
	 * the eventing instruction, so the record (and the PMI) is there by
	 * the next MSR access: read GLOBAL_STATUS first.
	 */
	run_loads(data, 1);
	rd(GLOBAL_STATUS);
	assert_int_equal(pmis, 1);
	assert_int_equal(index_at_pmi, 2 * p->size);
	if (!drains) {
		assert_true(rd(GLOBAL_STATUS) & bit);
		assert_true(hw_apic_read(APIC_LVTPC) & (1u << 16)); /* SDM 11.5.1 */
		run_loads(data, 8); /* more records, but LVTPC stays masked */
		rd(GLOBAL_STATUS);
		assert_int_equal(pmis, 1);
		assert_int_equal(used(p, &d), 4 * p->size);
	} else {
		run_loads(data, 32); /* eight more records: four more PMIs */
		rd(GLOBAL_STATUS);
		assert_int_equal(pmis, 5);
		assert_int_equal(used(p, &d), 0);
	}
	disarm(p);
	assert_int_equal(n_rules, 0);
	hw_set_pmi_handler(PMI_VEC, NULL, NULL);
	ds_free(&d);
}

static void test_threshold_and_pmi(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pms); i++) {
		threshold_case(&pms[i], false);
		threshold_case(&pms[i], true);
	}
}

/* Nothing is written past the absolute maximum, even when it is not record-aligned. */
static void test_absolute_maximum(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pms); i++) {
		const struct pm *p = &pms[i];
		struct sim_stats st;
		struct ds d;

		if (p->layout == L_ARCH)
			continue; /* arch-PEBS: test_arch_pebs_full */
		use_model(p->name);
		ds_make(&d, 4096, 3 * p->size + p->size / 2, 4096 * 2);
		arm(p, &d, 1, 1, 0);
		run_loads(data, 10);
		disarm(p);
		assert_int_equal(ds_used(&d), 3 * p->size);
		assert_untouched_from(&d, 3 * p->size);
		sim_get_stats(&st);
		assert_int_equal(st.records, 3);
		assert_int_equal(st.records_dropped, 7);
		ds_free(&d);
	}
}

/* Arch-PEBS: a 4 KiB buffer (SIZE 0) takes 64 basic records, then FULL is set. */
static void test_arch_pebs_full(void **state)
{
	struct ds d;

	use_model("archpebs");
	ds_make(&d, 8192, 8192, 8192);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(PMC(0), 0xffffffff);
	wr(CFG_C_GP(0), 1ull << 63 | 0xffffffff);
	wr(PEBS_BASE, (uintptr_t)d.buf | 0);
	wr(PEBS_INDEX, 1ull << 32);
	wr(GLOBAL_CTRL, 1);
	run_loads(data, 70);
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(((rd(PEBS_INDEX) >> 4) & 0x7fffff) << 4, 4096);
	assert_true(rd(PEBS_INDEX) & (1ull << 31));
	assert_untouched_from(&d, 4096);
	ds_free(&d);
}

/*
 * Arch-PEBS groups from CFG_C (Linux d21954c8a0ff): header 0x10, basic
 * 0x30, aux 0x40 (address at +0, data source at +0x28), gpr 0xA0 (ip +8).
 * On PMC0, ALL_LOADS's PDIST counter: records of the overflowing loads.
 */
static void test_arch_pebs_groups(void **state)
{
	struct ds d;
	const size_t size = 0x10 + 0x30 + 0x40 + 0xa0;

	use_model("archpebs");
	ds_make(&d, 8192, 8192, 8192);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0));
	wr(PMC(0), 0xfffffffe);
	wr(CFG_C_GP(0), 1ull << 63 | 1ull << 62 | 1ull << 61 | 0xfffffffe);
	wr(PEBS_BASE, (uintptr_t)d.buf | 1);
	wr(PEBS_INDEX, 1ull << 32 | (uint64_t)(8192 >> 4) << 36);
	wr(GLOBAL_CTRL, 1);
	run_loads(data, 4); /* records at loads 2 and 4 */
	wr(GLOBAL_CTRL, 0);
	assert_int_equal(((rd(PEBS_INDEX) >> 4) & 0x7fffff) << 4, 2 * size);
	assert_int_equal(get64(d.buf, 0) & 0xffff, size);
	assert_int_equal(get64(d.buf, 0) >> 61, 0x7); /* basic, aux, gpr */
	assert_int_equal(get64(d.buf, 0x10), kip(1));
	assert_int_equal(get64(d.buf, 0x18), 1);
	assert_int_equal(get64(d.buf, 0x40), (uintptr_t)data + 64);
	assert_int_equal(get64(d.buf, 0x40 + 0x28) & 0xf, 0xa); /* cold line: local DRAM */
	assert_int_equal(get64(d.buf + size, 0x40), (uintptr_t)data + 3 * 64);
	assert_int_equal(n_rules, 0);
	ds_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_record_ips),
	    cmocka_unit_test(test_record_count_every_model),
	    cmocka_unit_test(test_reload_from_reset_slot),
	    cmocka_unit_test(test_threshold_and_pmi),
	    cmocka_unit_test(test_absolute_maximum),
	    cmocka_unit_test(test_arch_pebs_full),
	    cmocka_unit_test(test_arch_pebs_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
