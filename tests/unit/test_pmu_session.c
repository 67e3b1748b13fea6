// SPDX-License-Identifier: MIT
/*
 * test_pmu_session.c - pmu/session.c against a small MSR file (a fake
 * hw_ops, independent of sim/): every MSR back to its value from before, a
 * #GP injected at every MSR access in turn ends in SESSION_FAULT with
 * everything restored, SKIP/REFUSED touch no MSR, the arming and disarming
 * orders, the PMI handler's LVTPC/EOI handling, Goldmont forced records
 * and the offcore-latency MSR values (SDM 18.6.3).  The fake checks a few SDM
 * rules itself (counters written while enabled, PEBS_ENABLE without a DS
 * area, INT set on a PEBS counter); any breach fails the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "ds/ds.h"
#include "pmu/hw.h"
#include "pmu/msr.h"
#include "pmu/offcore.h"
#include "pmu/session.h"
#include "test_util.h"

/* ---- the fake MSR file --------------------------------------------------- */

#define N_GP 8
static const uint32_t known[] = {
    0xc1,  0xc2,  0xc3,	 0xc4,	0xc5,  0xc6,  0xc7,  0xc8,  0x186,  0x187,  0x188,  0x189,  0x18a,
    0x18b, 0x18c, 0x18d, 0x309, 0x30a, 0x30b, 0x30c, 0x38d, 0x38e,  0x38f,  0x390,  0x391,  0x3f1,
    0x3f2, 0x3f4, 0x3f5, 0x3f6, 0x3f7, 0x600, 0x1a6, 0x1a7, 0x1903, 0x1907, 0x190b, 0x1983, 0x1d9,
};
static uint64_t val[ARRAY_SIZE(known)], initial[ARRAY_SIZE(known)];
static uint32_t apic_lvtpc, apic_lvtpc_initial = 0x10000 | 0xfe;
static unsigned int eoi_count, violations, unmask_after_eoi;
static int unmask_at; /* MSR writes done when the handler last unmasked LVTPC */
static hw_pmi_fn pmi_fn;
static void *pmi_ctx;
static uint8_t pmi_vec;
static char last_violation[160];
static struct {
	uint32_t msr;
	uint64_t v;
} wtrace[4096];
static unsigned int n_wtrace, kernel_at;
static unsigned int fake_fmt = 3;

static int idx_of(uint32_t msr)
{
	unsigned int i;

	if (msr >= 0x4c1 && msr < 0x4c1 + N_GP)
		msr = msr - 0x4c1 + 0xc1; /* full-width alias */
	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (known[i] == msr)
			return (int)i;
	return -1;
}

static uint64_t *reg(uint32_t msr)
{
	int i = idx_of(msr);

	assert_true(i >= 0);
	return &val[i];
}

static void violation(const char *what, uint32_t msr)
{
	violations++;
	snprintf(last_violation, sizeof(last_violation), "%s (MSR 0x%x)", what, msr);
}

static enum hw_fault f_rdmsr(uint32_t msr, uint64_t *v)
{
	int i = idx_of(msr);

	if (i < 0 || msr == MSR_IA32_PERF_GLOBAL_OVF_CTRL || msr == MSR_IA32_PERF_GLOBAL_STATUS_SET)
		return HW_GP;
	*v = val[i];
	return HW_OK;
}

/* A PEBS assist of the fake: one fmt3 (200-byte) record with the IP the test wants. */
static void fake_assist(uint64_t ip)
{
	uint8_t *ds = (uint8_t *)(uintptr_t)*reg(MSR_IA32_DS_AREA);
	uint64_t index, max;
	uint8_t rec[200];

	memcpy(&index, ds + DS_PEBS_INDEX, 8);
	memcpy(&max, ds + DS_PEBS_ABS_MAX, 8);
	if (index + 200 > max)
		return;
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 0xb0, &ip, 8);
	rec[0x90] = 1; /* applicable counters: PMC0 */
	memcpy((void *)(uintptr_t)index, rec, 200);
	index += 200;
	memcpy(ds + DS_PEBS_INDEX, &index, 8);
}

static enum hw_fault f_wrmsr(uint32_t msr, uint64_t v)
{
	int i = idx_of(msr);
	uint64_t gctl = *reg(MSR_IA32_PERF_GLOBAL_CTRL);
	uint32_t m = (msr >= 0x4c1 && msr < 0x4c1 + N_GP) ? msr - 0x4c1 + 0xc1 : msr;

	if (i < 0 || msr == MSR_IA32_PERF_GLOBAL_STATUS)
		return HW_GP;
	if (n_wtrace < ARRAY_SIZE(wtrace)) {
		wtrace[n_wtrace].msr = m;
		wtrace[n_wtrace++].v = v;
	}
	/* SDM Vol. 3B 18.9.4 NOTE: program a PEBS counter only while it is disabled. */
	if ((m >= 0xc1 && m < 0xc1 + N_GP) || (m >= 0x186 && m < 0x186 + N_GP)) {
		unsigned int c = m >= 0x186 ? m - 0x186 : m - 0xc1;

		if ((gctl & BIT_ULL(c)) && (*reg(MSR_IA32_PEBS_ENABLE) & BIT_ULL(c)) &&
		    (*reg(0x186 + c) & EVTSEL_EN))
			violation("PEBS counter reprogrammed while enabled", msr);
	}
	if (m == MSR_IA32_PEBS_ENABLE && (v & 0xff) && !*reg(MSR_IA32_DS_AREA))
		violation("PEBS_ENABLE set with no DS area", msr);
	if (m == MSR_IA32_PERF_GLOBAL_CTRL) {
		unsigned int c;

		for (c = 0; c < N_GP; c++)
			if ((v & BIT_ULL(c)) && (*reg(MSR_IA32_PEBS_ENABLE) & BIT_ULL(c)) &&
			    (*reg(0x186 + c) & EVTSEL_INT))
				violation("INT set on a PEBS counter", msr);
	}
	if (m == MSR_IA32_PERF_GLOBAL_OVF_CTRL) {
		*reg(MSR_IA32_PERF_GLOBAL_STATUS) &= ~v;
		return HW_OK;
	}
	if (m == MSR_IA32_PERF_GLOBAL_STATUS_SET) {
		/* SDM Vol. 3B 18.7.1: a non-precise PEBS counter's forced overflow gives a record.
		 */
		if ((v & 1) && (*reg(MSR_IA32_PEBS_ENABLE) & 1) && *reg(MSR_IA32_DS_AREA))
			fake_assist(0xf0f0);
		else
			*reg(MSR_IA32_PERF_GLOBAL_STATUS) |= v;
		return HW_OK;
	}
	val[i] = v;
	return HW_OK;
}

static void f_cpuid(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
}

static uint64_t f_rdtsc(void)
{
	return 1;
}

/* SVR: software-enabled, spurious vector 0xff, as firmware leaves the APIC (pmi.c reads it). */
static uint32_t f_apic_read(uint32_t r)
{
	return r == APIC_LVTPC ? apic_lvtpc : r == APIC_SVR ? 0x1ff : 0;
}

static void f_apic_write(uint32_t r, uint32_t v)
{
	if (r == APIC_EOI)
		eoi_count++;
	if (r == APIC_LVTPC) {
		if (eoi_count && !(v & APIC_LVT_MASK) && (v & 0xff) == pmi_vec)
			unmask_after_eoi++;
		if (!(v & APIC_LVT_MASK) && (v & 0xff) == pmi_vec)
			unmask_at = (int)n_wtrace;
		apic_lvtpc = v;
	}
}

static int f_set_pmi(uint8_t vector, hw_pmi_fn fn, void *ctx)
{
	pmi_vec = vector;
	pmi_fn = fn;
	pmi_ctx = ctx;
	return 0;
}

static const struct hw_ops fake_ops = {
    .name = "fake",
    .simulated = true,
    .cpuid = f_cpuid,
    .rdmsr = f_rdmsr,
    .wrmsr = f_wrmsr,
    .rdtsc = f_rdtsc,
    .apic_read = f_apic_read,
    .apic_write = f_apic_write,
    .set_pmi_handler = f_set_pmi,
};

/* Power-on-like values with firmware leftovers, so a restore has something to restore. */
static void fake_reset(void)
{
	memset(val, 0, sizeof(val));
	*reg(MSR_IA32_PERF_GLOBAL_CTRL) = 0x7000000ffULL; /* Intel reset value: all enabled */
	*reg(0x186) = 0x1234;				  /* EN clear */
	*reg(0xc1) = 0x42;
	*reg(0xc4) = 0x777;
	*reg(MSR_IA32_FIXED_CTR_CTRL) = 0xb0;
	*reg(MSR_PEBS_LD_LAT_THRESHOLD) = 0x10;
	*reg(MSR_OFFCORE_RSP0) = 0x8001;
	*reg(MSR_IA32_PERF_GLOBAL_STATUS) = BIT_ULL(1); /* an old, unacked overflow */
	memcpy(initial, val, sizeof(val));
	apic_lvtpc = apic_lvtpc_initial;
	eoi_count = violations = unmask_after_eoi = 0;
	n_wtrace = kernel_at = 0;
	pmi_fn = NULL;
	hw_reset_msr_access_count();
}

static void assert_restored(const char *ctx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (val[i] != initial[i]) {
			print_error("%s: MSR 0x%x is 0x%llx, was 0x%llx\n", ctx, known[i],
				    (unsigned long long)val[i], (unsigned long long)initial[i]);
			fail();
		}
	assert_int_equal(apic_lvtpc, apic_lvtpc_initial);
	assert_null(pmi_fn);
}

/*
 * The shared Intel part with PEBS (test_util.h), 4 GP counters, with
 * full-width counter writes; the fake MSR file reports the same format.
 */
static struct cpu_info mk(uint32_t model, unsigned int fmt, bool baseline, unsigned int version)
{
	struct cpu_info ci = test_cpu_intel(model, fmt, baseline, 4, version);

	ci.perf_caps |= PERF_CAP_FW_WRITE;
	fake_fmt = fmt;
	return ci;
}

static void empty_kernel(void *arg)
{
	kernel_at = n_wtrace;
}

/* The fake's "hardware" during the kernel: PMI with the DS threshold bit. */
static void pmi_kernel(void *arg)
{
	kernel_at = n_wtrace;
	*reg(MSR_IA32_PERF_GLOBAL_STATUS) |= GLOBAL_STATUS_BUFFER_OVF;
	assert_non_null(pmi_fn);
	pmi_fn(pmi_ctx);
}

static int setup(void **state)
{
	hw_install(&fake_ops);
	fake_reset();
	return 0;
}

/* ---- the tests --------------------------------------------------------- */

static struct session_cfg cfg_of(const struct cpu_info *ci, enum pebs_kind kind)
{
	struct session_cfg c;

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.ldlat = 3;
	c.buffer_kib = 8;
	return c;
}

static int find_write(unsigned int from, uint32_t msr, uint64_t v)
{
	unsigned int i;

	for (i = from; i < n_wtrace; i++)
		if (wtrace[i].msr == msr && wtrace[i].v == v)
			return (int)i;
	return -1;
}

static void test_restore_and_order(void **state)
{
	struct cpu_info ci = mk(0x5e, 3, false, 4);
	struct session_cfg c = cfg_of(&ci, KIND_LDLAT);
	struct session_result res;
	char why[200];
	int ds_w, pe_w, g_w, g0, p0, d0;

	fake_reset();
	assert_int_equal(session_run(&c, empty_kernel, NULL, &res, why, sizeof(why)), 0);
	assert_int_equal(violations, 0);
	assert_restored("skl ldlat");
	/* arm: DS_AREA before PEBS_ENABLE before GLOBAL_CTRL, GLOBAL_CTRL last before the kernel */
	ds_w = -1;
	for (unsigned int i = 0; i < kernel_at; i++)
		if (wtrace[i].msr == MSR_IA32_DS_AREA && wtrace[i].v)
			ds_w = (int)i;
	pe_w = find_write(0, MSR_IA32_PEBS_ENABLE, 0x100000001ULL);
	g_w = (int)kernel_at - 1;
	assert_true(ds_w >= 0 && pe_w > ds_w && g_w > pe_w);
	assert_int_equal(wtrace[g_w].msr, MSR_IA32_PERF_GLOBAL_CTRL);
	assert_true(wtrace[g_w].v == (0x1ULL | (0x7ULL << 32)));
	assert_true(find_write(0, MSR_PEBS_LD_LAT_THRESHOLD, 3) >= 0);
	/* disarm: GLOBAL_CTRL = 0 first, then PEBS_ENABLE = 0, DS_AREA = 0 before the restores */
	g0 = find_write(kernel_at, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	p0 = find_write(kernel_at, MSR_IA32_PEBS_ENABLE, 0);
	d0 = find_write(kernel_at, MSR_IA32_DS_AREA, 0);
	assert_int_equal(g0, (int)kernel_at);
	assert_true(p0 == g0 + 1);
	assert_true(d0 > p0);
	/* the old overflow bit (PMC1) is still there, nothing else */
	assert_true(*reg(MSR_IA32_PERF_GLOBAL_STATUS) == BIT_ULL(1));
	assert_int_equal(res.n_records, 0);
	assert_int_equal(res.period, 32);
	assert_non_null(strstr(res.event_desc, "ldlat=3 on PMC0"));
	session_result_free(&res);
}

static void sweep_after(const char *name, unsigned long n)
{
	assert_int_equal(violations, 0);
	assert_restored(name);
}

static void fault_sweep(const char *name, struct session_cfg *c, void (*k)(void *))
{
	const struct test_sweep t = {name, c, k, NULL, fake_reset, sweep_after};

	test_fault_sweep(&t);
}

static void test_fault_every_access(void **state)
{
	struct cpu_info skl = mk(0x5e, 3, false, 4), icl = mk(0x7e, 4, true, 5),
			snb = mk(0x2a, 1, false, 3), glm = mk(0x5c, 3, false, 4);
	struct session_cfg c;

	c = cfg_of(&skl, KIND_LDLAT);
	fault_sweep("skl ldlat poll", &c, empty_kernel);
	c.drain = PEBS_DRAIN_PMI;
	fault_sweep("skl ldlat pmi", &c, pmi_kernel);
	c = cfg_of(&skl, KIND_DATALA_LOAD);
	c.count_events[0] = "L2_RQSTS.ALL_DEMAND_DATA_RD";
	c.n_count_events = 1;
	fault_sweep("skl datala + count", &c, empty_kernel);
	icl.n_fixed = 4;
	icl.n_gp = 8;
	c = cfg_of(&icl, KIND_LDLAT);
	fault_sweep("icl adaptive", &c, empty_kernel);
	c = cfg_of(&icl, KIND_OTHER);
	c.sample_event = "event=0x00,umask=0x01";
	fault_sweep("icl fixed pebs", &c, empty_kernel);
	c = cfg_of(&snb, KIND_STORE);
	fault_sweep("snb store", &c, empty_kernel);
	c = cfg_of(&glm, KIND_OTHER);
	c.force_records = 2;
	fault_sweep("glm forced", &c, empty_kernel);
}

static void test_skip_and_refuse_touch_nothing(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	char why[200];

	struct {
		const char *name;
		void (*mod)(struct cpu_info *);
	} cases[] = {
	    {"amd", NULL},  {"misc12", NULL},	 {"nods", NULL},
	    {"fmt9", NULL}, {"snb-ucode", NULL}, {"core2", NULL},
	};
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		ci = mk(0x5e, 3, false, 4);
		switch (i) {
		case 0:
			ci.vendor = VENDOR_AMD;
			break;
		case 1:
			ci.misc_enable |= MISC_ENABLE_PEBS_UNAVAIL;
			break;
		case 2:
			ci.ds = false;
			break;
		case 3:
			ci.perf_caps = 9 << 8;
			break;
		case 4:
			ci = mk(0x2a, 1, false, 3);
			ci.stepping = 7;
			ci.microcode = 0x20;
			break;
		case 5:
			ci = mk(0x0f, 0, false, 2);
			break; /* Merom: errata */
		}
		fake_reset();
		c = cfg_of(&ci, KIND_LDLAT);
		assert_int_equal(session_run(&c, empty_kernel, NULL, &res, why, sizeof(why)),
				 SESSION_SKIP);
		assert_true(why[0] != 0);
		assert_int_equal(hw_msr_access_count(), 0);
		assert_int_equal(n_wtrace, 0);
	}
	ci = mk(0x5e, 3, false, 4);
	fake_reset();
	c = cfg_of(&ci, KIND_LDLAT);
	c.ldlat = 2;
	assert_int_equal(session_run(&c, empty_kernel, NULL, &res, why, sizeof(why)),
			 SESSION_REFUSED);
	assert_int_equal(hw_msr_access_count(), 0);
}

static void test_pmi_handler(void **state)
{
	struct cpu_info ci = mk(0x5e, 3, false, 4);
	struct session_cfg c = cfg_of(&ci, KIND_LDLAT);
	struct session_result res;
	char why[200];

	fake_reset();
	c.drain = PEBS_DRAIN_PMI;
	assert_int_equal(session_run(&c, pmi_kernel, NULL, &res, why, sizeof(why)), 0);
	assert_int_equal(res.pmis, 1);
	assert_int_equal(eoi_count, 1);
	assert_int_equal(unmask_after_eoi, 1); /* LVTPC unmasked again after the delivery */
	assert_true(
	    find_write(kernel_at, MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_BUFFER_OVF) >= 0);
	assert_int_equal(violations, 0);
	assert_restored("pmi");
	session_result_free(&res);
}

/*
 * Where the handler unmasks LVTPC, per generation (Linux core.c
 * intel_pmu_handle_irq): early ack (old platforms) before GLOBAL_CTRL = 0;
 * mid ack (small cores from Gracemont, intel_pmu_init_grt) after the
 * status loop but before the counters are enabled again; late ack (big
 * cores from Haswell, and Tremont: core.c intel_pmu_init's Tremont case
 * sets late_ack) after the re-enable.
 */
static void test_pmi_ack_order(void **state)
{
	static const struct {
		uint32_t model;
		unsigned int fmt, version;
		bool baseline;
		enum pebs_kind kind;
		int order; /* -1 early, 0 mid, 1 late */
	} rows[] = {
	    {0x5e, 3, 4, false, KIND_LDLAT, 1},	 /* Skylake: late */
	    {0xbe, 4, 5, true, KIND_LDLAT, 0},	 /* Alder Lake-N Gracemont: mid */
	    {0x5c, 3, 4, false, KIND_OTHER, -1}, /* Goldmont: early */
	    {0x9c, 4, 4, true, KIND_OTHER, 1},	 /* Jasper Lake Tremont: late (core.c late_ack) */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct cpu_info ci =
		    mk(rows[i].model, rows[i].fmt, rows[i].baseline, rows[i].version);
		struct session_cfg c = cfg_of(&ci, rows[i].kind);
		struct session_result res;
		char why[200];
		int off, on, order;

		fake_reset();
		unmask_at = -1;
		c.drain = PEBS_DRAIN_PMI;
		assert_int_equal(session_run(&c, pmi_kernel, NULL, &res, why, sizeof(why)), 0);
		assert_int_equal(res.pmis, 1);
		off = find_write(kernel_at, MSR_IA32_PERF_GLOBAL_CTRL, 0);
		assert_true(off >= 0);
		for (on = off + 1; on < (int)n_wtrace; on++)
			if (wtrace[on].msr == MSR_IA32_PERF_GLOBAL_CTRL)
				break;
		assert_true(on < (int)n_wtrace && wtrace[on].v != 0);
		order = unmask_at <= off ? -1 : unmask_at <= on ? 0 : 1;
		if (order != rows[i].order) {
			print_error("model 0x%x: LVTPC unmasked after %d MSR writes (GLOBAL_CTRL 0 "
				    "at %d, re-enabled at %d): order %d, want %d\n",
				    rows[i].model, unmask_at, off, on, order, rows[i].order);
			fail();
		}
		assert_int_equal(eoi_count, 1);
		assert_int_equal(violations, 0);
		session_result_free(&res);
	}
}

static void pmi_frozen_kernel(void *arg)
{
	kernel_at = n_wtrace;
	/* FREEZE_PERFMON_ON_PMI left set by firmware: the PMI also sets CTR_Frz (SDM 18.2.4.1) */
	*reg(MSR_IA32_PERF_GLOBAL_STATUS) |= GLOBAL_STATUS_BUFFER_OVF | BIT_ULL(59);
	pmi_fn(pmi_ctx);
}

/*
 * The PMI handler acks CTR_Frz (bit 59) and LBR_Frz (58) on v4+, or
 * the counters stay frozen after the first PMI.  An overflow bit left
 * set on a counter about to be armed is acked before PEBS_ENABLE (kvm-unit-tests
 * reset_pebs), and set back afterwards through STATUS_SET (v4+).
 */
static void test_status_hygiene(void **state)
{
	struct cpu_info ci = mk(0x5e, 3, false, 4);
	struct session_cfg c = cfg_of(&ci, KIND_LDLAT);
	struct session_result res;
	char why[200];
	int ack, en;
	unsigned int i;
	bool frz_acked = false;

	fake_reset();
	c.drain = PEBS_DRAIN_PMI;
	assert_int_equal(session_run(&c, pmi_frozen_kernel, NULL, &res, why, sizeof(why)), 0);
	for (i = kernel_at; i < n_wtrace; i++)
		if (wtrace[i].msr == MSR_IA32_PERF_GLOBAL_OVF_CTRL && (wtrace[i].v & BIT_ULL(59)))
			frz_acked = true;
	assert_true(frz_acked);
	assert_false(*reg(MSR_IA32_PERF_GLOBAL_STATUS) & BIT_ULL(59));
	assert_restored("pmi frozen");
	session_result_free(&res);

	/* Skylake instructions sample: PREC_DIST on PMC1, whose bit 1 fake_reset left set */
	fake_reset();
	c = cfg_of(&ci, KIND_OTHER);
	assert_int_equal(session_run(&c, empty_kernel, NULL, &res, why, sizeof(why)), 0);
	assert_int_equal(res.pebs_counter, 1);
	ack = find_write(0, MSR_IA32_PERF_GLOBAL_OVF_CTRL, BIT_ULL(1));
	en = find_write(0, MSR_IA32_PEBS_ENABLE, BIT_ULL(1));
	assert_true(ack >= 0 && en > ack);
	assert_true(find_write(en, MSR_IA32_PERF_GLOBAL_STATUS_SET, BIT_ULL(1)) > en);
	assert_int_equal(violations, 0);
	assert_restored("stale status");
	session_result_free(&res);
}

static void test_goldmont_forced(void **state)
{
	struct cpu_info ci = mk(0x5c, 3, false, 4);
	struct session_cfg c = cfg_of(&ci, KIND_OTHER);
	struct session_result res;
	char why[200];

	fake_reset();
	c.force_records = 3;
	assert_int_equal(session_run(&c, empty_kernel, NULL, &res, why, sizeof(why)), 0);
	assert_int_equal(res.n_records, 3);
	assert_int_equal(res.records_len, 600);
	for (unsigned int i = 0; i < 3; i++)
		assert_int_equal(res.rec_kinds[i], REC_FORCED);
	assert_true(get_le64(res.records + 200 + 0xb0) == 0xf0f0);
	assert_int_equal(res.pebs_counter, 0);
	assert_true(find_write(0, MSR_IA32_PERF_GLOBAL_STATUS_SET, 1) >= 0);
	assert_int_equal(violations, 0);
	assert_restored("glm forced");
	session_result_free(&res);
}

static void offcore_kernel(void *arg)
{
	/* 40 requests outstanding for 2000 weighted cycles in total: 50 cycles each */
	*reg(0xc1) = 2000;
	*reg(0xc2) = 40;
}

static void test_offcore(void **state)
{
	struct cpu_info glm = mk(0x5c, 3, false, 4);
	struct offcore_result r;
	char why[200];

	fake_reset();
	assert_int_equal(offcore_avg_latency(&glm, OFFCORE_REQ_DMND_DATA_RD, 0, offcore_kernel,
					     NULL, &r, why, sizeof(why)),
			 0);
	/*
	 * SDM Vol. 3B 18.6.3: RSP0 = request | OUTSTANDING[38] = 0x40_0000_0001;
	 * RSP1 = request | ANY_RESPONSE[16] = 0x1_0001, "the remaining bits 0".
	 */
	assert_true(find_write(0, MSR_OFFCORE_RSP0, 0x4000000001ULL) >= 0);
	assert_true(find_write(0, MSR_OFFCORE_RSP1, 0x10001ULL) >= 0);
	/* OFFCORE_RESPONSE_0/1 = B7H umask 01H/02H, EN|OS|USR */
	assert_true(find_write(0, 0x186, 0x4301b7) >= 0);
	assert_true(find_write(0, 0x187, 0x4302b7) >= 0);
	assert_true(r.atom_method);
	assert_true(r.weighted_cycles == 2000 && r.requests == 40);
	assert_true(r.avg_latency_x100 == 5000);
	assert_restored("offcore");
	/* any snoop filter (HITM, or bits outside 37:31) is refused before any access */
	fake_reset();
	assert_int_equal(
	    offcore_avg_latency(&glm, 1, BIT_ULL(40), offcore_kernel, NULL, &r, why, sizeof(why)),
	    SESSION_REFUSED);
	assert_int_equal(hw_msr_access_count(), 0);
	assert_int_equal(
	    offcore_avg_latency(&glm, 1, OFFCORE_HITM, offcore_kernel, NULL, &r, why, sizeof(why)),
	    SESSION_REFUSED);
	assert_non_null(strstr(why, "SDM 18.6.3"));
	assert_int_equal(hw_msr_access_count(), 0);
	/* Westmere: perfmon spells it OFFCORE_REQUESTS.DEMAND.READ_DATA; 0x60 on PMC0 only */
	{
		struct cpu_info wsm = mk(0x2c, 1, false, 3);

		fake_reset();
		assert_int_equal(offcore_avg_latency(&wsm, OFFCORE_REQ_DMND_DATA_RD, 0,
						     offcore_kernel, NULL, &r, why, sizeof(why)),
				 0);
		/* OFFCORE_REQUESTS_OUTSTANDING 0x0160 on PMC0, OFFCORE_REQUESTS 0x01b0 on PMC1 */
		assert_true(find_write(0, 0x186, 0x430160) >= 0);
		assert_true(find_write(0, 0x187, 0x4301b0) >= 0);
		assert_false(r.atom_method);
		assert_restored("wsm offcore");
	}
	/* Goldmont: request bit 6 is not writable (Linux core.c intel_glm_extra_regs 0x760005ffbf)
	 */
	hw_reset_msr_access_count();
	assert_int_equal(
	    offcore_avg_latency(&glm, 0x40, 0, offcore_kernel, NULL, &r, why, sizeof(why)),
	    SESSION_REFUSED);
	assert_non_null(strstr(why, "MSR_OFFCORE_RSP0"));
	assert_int_equal(hw_msr_access_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_restore_and_order),
	    cmocka_unit_test(test_fault_every_access),
	    cmocka_unit_test(test_skip_and_refuse_touch_nothing),
	    cmocka_unit_test(test_pmi_handler),
	    cmocka_unit_test(test_goldmont_forced),
	    cmocka_unit_test(test_pmi_ack_order),
	    cmocka_unit_test(test_status_hygiene),
	    cmocka_unit_test(test_offcore),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
