// SPDX-License-Identifier: MIT
/*
 * test_pmu_sim.c - pmu/session.c against EVERY simulated model (sim/):
 *   - each arming mode the generation has (load latency, precise store,
 *     DataLA loads/stores, store latency, instructions; polling and PMI)
 *     gives records that decode (decode/) to the test kernel's own IPs and
 *     data addresses;
 *   - the record count agrees with the kernel's own accesses (n / period);
 *   - every MSR is back to its value from before;
 *   - a #GP injected at every MSR access in turn ends in SESSION_FAULT with
 *     everything restored;
 *   - the simulator's SDM-rule checks never fire;
 *   - models without usable PEBS SKIP with zero MSR accesses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "ds/ds.h"
#include "decode/decode.h"
#include "pmu/cpu.h"
#include "pmu/cpu_pebs.h"
#include "pmu/hw.h"
#include "pmu/msr.h"
#include "pmu/offcore.h"
#include "pmu/session.h"
#include "pmu/uarch.h"
#include "sim/sim.h"
#include "test_session_util.h"
#include "test_util.h"

#define K_IPS	  8
#define K_LINES	  4096 /* 256 KiB: past L1, so loads have latencies above any small ldlat */
#define K_BASE_IP 0x401000ULL

static uint8_t kbuf[K_LINES * 64] __attribute__((aligned(64)));
static unsigned int violations;
static char last_rule[200];

static void on_violation(const char *rule, const char *text, void *ctx)
{
	violations++;
	snprintf(last_rule, sizeof(last_rule), "%s: %s", rule, text);
}

struct kargs {
	unsigned int n;
	uint32_t kind; /* HW_LOAD / HW_STORE */
};

/* The tiny test kernel: n accesses, IP i%8, address line i%64. */
static void kernel(void *arg)
{
	const struct kargs *k = arg;
	unsigned int i;

	for (i = 0; i < k->n; i++)
		hw_current()->mem_access(K_BASE_IP + 4 * (i % K_IPS), 0,
					 (uintptr_t)&kbuf[64 * (i % K_LINES)], 8, k->kind);
}

static bool kernel_ip(uint64_t ip)
{
	return ip >= K_BASE_IP && ip < K_BASE_IP + 4 * K_IPS && !((ip - K_BASE_IP) & 3);
}

static bool kernel_addr(uint64_t a)
{
	return a >= (uintptr_t)kbuf && a < (uintptr_t)kbuf + sizeof(kbuf) &&
	       !((a - (uintptr_t)kbuf) & 63);
}

/* MSRs a session may touch, read through the seam (those that #GP are skipped). */
static const uint32_t snap_msrs[] = {
    0xc1,  0xc2,  0xc3,	  0xc4,	  0xc5,	  0xc6,	  0xc7,	  0xc8,	  0x186,  0x187,
    0x188, 0x189, 0x18a,  0x18b,  0x18c,  0x18d,  0x309,  0x30a,  0x30b,  0x30c,
    0x38d, 0x38e, 0x38f,  0x3f1,  0x3f2,  0x3f4,  0x3f5,  0x3f6,  0x3f7,  0x600,
    0x1a6, 0x1a7, 0x1903, 0x1907, 0x190b, 0x190f, 0x1983, 0x1987, 0x198b,
};

struct snap {
	uint64_t v[ARRAY_SIZE(snap_msrs)];
	bool ok[ARRAY_SIZE(snap_msrs)];
	uint32_t lvtpc;
};

static void take(struct snap *s)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(snap_msrs); i++)
		s->ok[i] = hw_rdmsr(snap_msrs[i], &s->v[i]) == HW_OK;
	s->lvtpc = hw_apic_read(APIC_LVTPC);
}

static void assert_same(const struct snap *a, const struct snap *b, const char *ctx)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(snap_msrs); i++) {
		if (a->ok[i] != b->ok[i] || (a->ok[i] && a->v[i] != b->v[i])) {
			print_error("%s: MSR 0x%x was 0x%llx, now 0x%llx\n", ctx, snap_msrs[i],
				    (unsigned long long)a->v[i], (unsigned long long)b->v[i]);
			fail();
		}
	}
}

/* Pages below 2 GiB, as firmware identity maps them (see ds_set_page_allocator). */
static void *low_pages(size_t n)
{
	void *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void free_low_pages(void *p, size_t n)
{
	munmap(p, n * 4096);
}

static void select_model(const char *name, struct cpu_info *ci)
{
	assert_int_equal(sim_select(name), 0);
	hw_install(sim_hw_ops());
	sim_set_violation_handler(on_violation, NULL);
	violations = 0;
	cpu_probe(ci);
	hw_reset_msr_access_count();
}

static uint32_t access_kind(enum pebs_kind k)
{
	return (k == KIND_STORE || k == KIND_STLAT || k == KIND_DATALA_STORE) ? HW_STORE : HW_LOAD;
}

/* Decodes every record; each must carry a kernel IP, and a kernel address for memory kinds. */
static void check_records(const char *ctx, const struct session_result *res, enum pebs_kind kind)
{
	struct pebs_record rec;
	struct pebs_anomaly an;
	size_t off = 0, n = 0;
	enum pebs_step st;

	while ((st = pebs_decode_next(&res->decode_cfg, res->records, res->records_len, &off, &rec,
				      &an)) == PEBS_STEP_RECORD) {
		n++;
		/* A forced record holds the state at the next retirement point: ours, not the
		 * kernel's */
		if (res->rec_kinds && res->rec_kinds[n - 1] == REC_FORCED)
			continue;
		if (!(rec.have & HAVE_IP) || !kernel_ip(rec.ip)) {
			print_error("%s: record %zu IP 0x%llx is not the kernel's\n", ctx, n,
				    (unsigned long long)rec.ip);
			fail();
		}
		if (kind != KIND_OTHER && (rec.have & HAVE_DLA) && !kernel_addr(rec.data_la)) {
			print_error("%s: record %zu address 0x%llx is not the kernel's\n", ctx, n,
				    (unsigned long long)rec.data_la);
			fail();
		}
		if (kind != KIND_OTHER && res->decode_cfg.fmt >= 1 && !(rec.have & HAVE_DLA)) {
			print_error("%s: record %zu has no data address\n", ctx, n);
			fail();
		}
	}
	if (st == PEBS_STEP_ANOMALY) {
		print_error("%s: anomaly at %zu: %s\n", ctx, an.offset, an.what);
		fail();
	}
	assert_int_equal(n, res->n_records);
}

static void run_mode(const char *model, const struct cpu_info *ci, enum pebs_kind kind,
		     enum pebs_drain drain)
{
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = access_kind(kind)};
	struct snap before, after;
	char why[200], ctx[96];
	int r;

	snprintf(ctx, sizeof(ctx), "%s %s %s", model, pebs_kind_name(kind),
		 drain == PEBS_DRAIN_PMI ? "pmi" : "poll");
	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.ldlat = 3;
	c.buffer_kib = 64;
	c.drain = drain;
	c.threshold_records = drain == PEBS_DRAIN_PMI ? 8 : 0;
	/* Goldmont's default sample is cycles: a period that keeps the buffer from filling */
	if (kind == KIND_OTHER && (uarch_for_cpu(ci)->flags & UA_NONPRECISE_PEBS))
		c.period = 20011;
	/* Core 2: a one-page PEBS buffer (28 fmt0 records): 3200 / 128 = 25 fit */
	if (uarch_for_cpu(ci)->flags & UA_ONE_PAGE_BUFFER)
		c.period = 128;
	take(&before);
	violations = 0;
	r = session_run(&c, kernel, &ka, &res, why, sizeof(why));
	if (r) {
		print_error("%s: session %d: %s\n", ctx, r, why);
		fail();
	}
	take(&after);
	assert_same(&before, &after, ctx);
	if (violations) {
		print_error("%s: simulator rule: %s\n", ctx, last_rule);
		fail();
	}
	if (!res.n_records) {
		print_error("%s: no records (%s, %llu events)\n", ctx, res.event_desc,
			    (unsigned long long)res.sampled_events);
		fail();
	}
	check_records(ctx, &res, kind);
	if (res.lost) {
		print_error("%s: %llu records lost (%zu kept)\n", ctx, (unsigned long long)res.lost,
			    res.n_records);
		fail();
	}
	/*
	 * Against the kernel's own access count, not the simulator's counters:
	 * a memory kind samples each of the ka.n accesses, so there are ka.n /
	 * period records, one either way for the partial first and last period;
	 * an instructions event counts at least one instruction per access.
	 */
	if (kind != KIND_OTHER) {
		if (res.n_records + 1 < ka.n / res.period || res.n_records > ka.n / res.period + 1)
			print_error("%s: %zu records, the kernel made %u accesses / %llu\n", ctx,
				    res.n_records, ka.n, (unsigned long long)res.period);
		assert_in_range(res.n_records, ka.n / res.period - 1, ka.n / res.period + 1);
	} else if (!c.period) {
		assert_true(res.n_records + 1 >= ka.n / res.period);
	}
	/* At most one record per period of the kernel's own accesses (not for cycles). */
	if (!c.period)
		assert_true(res.n_records <= ka.n / res.period + 1);
	/* the threshold is 8 records: at least one PMI once that many were written */
	if (drain == PEBS_DRAIN_PMI && res.n_records >= 8)
		assert_true(res.pmis >= 1);
	assert_true(res.n_fixed >= 1 && res.fixed[0] >= ka.n); /* INST_RETIRED.ANY counted */
	session_result_free(&res);
}

static struct snap sweep_snap;

static void sweep_before(void)
{
	take(&sweep_snap);
	violations = 0;
	hw_reset_msr_access_count();
}

static void sweep_after(const char *name, unsigned long n)
{
	struct snap after;

	take(&after);
	assert_same(&sweep_snap, &after, name);
	if (violations)
		fail_msg("%s: #GP at %lu: simulator rule: %s", name, n, last_rule);
}

static void fault_sweep(const char *model, const struct cpu_info *ci, enum pebs_kind kind,
			enum pebs_drain drain)
{
	struct session_cfg c;
	struct kargs ka = {.n = 200, .kind = access_kind(kind)};
	const struct test_sweep t = {model, &c, kernel, &ka, sweep_before, sweep_after};

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.ldlat = 3;
	c.buffer_kib = 16;
	c.drain = drain;
	c.threshold_records = drain == PEBS_DRAIN_PMI ? 2 : 0;
	test_fault_sweep(&t);
}

/* A buffer too small for the run: the records that could not be written are counted. */
static void test_lost_records(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	select_model("skl", &ci);
	memset(&c, 0, sizeof(c));
	c.ci = &ci;
	/*
	 * MEM_INST_RETIRED.ALL_LOADS (DataLA), counting copy on PMC1.  Not
	 * instructions: on Skylake the PEBS one is PREC_DIST, whose period must
	 * be at least 128 (HSW11); 32 here makes the buffer overflow.
	 */
	c.kind = KIND_DATALA_LOAD;
	c.buffer_kib = 4; /* 20 records of 200 bytes */
	c.period = 32;
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), 0);
	assert_int_equal(res.n_records, 20);
	assert_true(res.buffer_full);
	assert_true(res.counted_sample);
	/* 3200 loads / 32 = 100 overflows, 20 written: 80 lost (+-1 for the edges) */
	assert_true(res.expected_records >= 99 && res.expected_records <= 101);
	assert_true(res.lost >= 79 && res.lost <= 81);
	assert_int_equal(violations, 0);
	session_result_free(&res);

	/* the same with PMI draining at a threshold keeps everything */
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 10;
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), 0);
	assert_false(res.lost);
	assert_true(res.pmis >= 9);
	assert_true(res.n_records + 1 >= res.expected_records);
	assert_int_equal(violations, 0);
	session_result_free(&res);

	/*
	 * The result buffer is sized before arming (16 PEBS buffers for PMI
	 * draining, no allocation in the handler): 20000 / 32 = 625 records of
	 * 200 bytes do not fit in 64 KiB (327 do); the rest are counted lost.
	 */
	ka.n = 20000;
	c.threshold_records = 1;
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), 0);
	assert_int_equal(res.n_records, 65536 / 200);
	assert_true(res.expected_records >= 624 && res.expected_records <= 626);
	assert_true(res.n_records + res.lost + 1 >= res.expected_records &&
		    res.n_records + res.lost <= res.expected_records + 1);
	assert_int_equal(violations, 0);
	session_result_free(&res);
}

static void run_ok(const char *ctx, struct session_cfg *c, struct kargs *ka,
		   struct session_result *res)
{
	struct snap before, after;
	char why[200];
	int r;

	take(&before);
	violations = 0;
	r = session_run(c, kernel, ka, res, why, sizeof(why));
	if (r) {
		print_error("%s: session %d: %s\n", ctx, r, why);
		fail();
	}
	take(&after);
	assert_same(&before, &after, ctx);
	if (violations) {
		print_error("%s: simulator rule: %s\n", ctx, last_rule);
		fail();
	}
}

/*
 * SDM Vol. 3B 18.7.1: Goldmont records for a non-precise event (CPU_CLK_UNHALTED.CORE_P)
 * and records forced through IA32_PERF_GLOBAL_STATUS_SET, each marked.
 */
static void test_goldmont_kinds(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};
	size_t i, forced = 0, nonprecise = 0, precise = 0;

	select_model("glm", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.period = 20011;
	c.force_records = 2;
	run_ok("glm forced", &c, &ka, &res);
	for (i = 0; i < res.n_records; i++) {
		forced += res.rec_kinds[i] == REC_FORCED;
		nonprecise += res.rec_kinds[i] == REC_NONPRECISE;
	}
	assert_int_equal(forced, 2);
	assert_true(nonprecise >= 1);
	assert_int_equal(res.rec_kinds[0], REC_FORCED);
	check_records("glm forced", &res, KIND_OTHER);
	session_result_free(&res);

	/* a precise event (BR_INST_RETIRED.ALL_BRANCHES would need branches: use loads) */
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_UOPS_RETIRED.ALL_LOADS";
	run_ok("glm precise", &c, &ka, &res);
	for (i = 0; i < res.n_records; i++)
		precise += res.rec_kinds[i] == REC_PRECISE;
	assert_true(res.n_records > 0 && precise == res.n_records);
	check_records("glm precise", &res, KIND_OTHER);
	session_result_free(&res);
}

static void offcore_kernel(void *arg)
{
	struct kargs ka = {.n = 4000, .kind = HW_LOAD};

	kernel(&ka);
}

/* SDM Vol. 3B 18.6.3 on Silvermont and Goldmont; the big-core ratio on Skylake. */
static void test_offcore(void **state)
{
	static const char *const models[] = {"slm", "glm", "skl"};
	static const uint64_t lat_dram[] = {200, 220, 250};
	struct offcore_result r;
	struct cpu_info ci;
	struct snap before, after;
	char why[200];
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		select_model(models[i], &ci);
		take(&before);
		rc = offcore_avg_latency(&ci, OFFCORE_REQ_DMND_DATA_RD, 0, offcore_kernel, NULL, &r,
					 why, sizeof(why));
		if (rc) {
			print_error("%s: offcore %d: %s\n", models[i], rc, why);
			fail();
		}
		take(&after);
		assert_same(&before, &after, models[i]);
		if (violations) {
			print_error("%s: simulator rule: %s\n", models[i], last_rule);
			fail();
		}
		print_message("# %s: offcore %s: %llu cycles / %llu requests = %llu.%02llu\n",
			      models[i], r.how, (unsigned long long)r.weighted_cycles,
			      (unsigned long long)r.requests,
			      (unsigned long long)(r.avg_latency_x100 / 100),
			      (unsigned long long)(r.avg_latency_x100 % 100));
		/*
		 * By hand: 4000 loads of distinct lines into a cold cache (the model is
		 * selected afresh): each misses every level and is one offcore demand
		 * read outstanding for the model's DRAM load latency (sim/models.c
		 * cache rows: slm 200, glm 220, skl 250 cycles).  So requests = 4000,
		 * weighted cycles = 4000 * latency, ratio = latency exactly.
		 */
		assert_true(r.requests == 4000);
		assert_true(r.weighted_cycles == 4000ULL * lat_dram[i]);
		assert_true(r.avg_latency_x100 == 100ULL * lat_dram[i]);
		assert_int_equal(r.atom_method, i < 2);
		if (i == 2) {
			assert_non_null(
			    strstr(r.how, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD on PMC0"));
			assert_non_null(strstr(r.how, "OFFCORE_REQUESTS.DEMAND_DATA_RD on PMC1"));
		}
	}
}

/* Ice Lake-SP baseline: fixed-counter PEBS and adaptive groups (GPRs). */
static void test_icx_fixed_and_groups(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};

	select_model("icx", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "event=0x00,umask=0x01"; /* INST_RETIRED.ANY on fixed counter 0 */
	run_ok("icx fixed0", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 32);
	assert_true(res.pebs_enable == BIT_ULL(32));
	assert_true(res.n_records > 0);
	check_records("icx fixed0", &res, KIND_OTHER);
	session_result_free(&res);

	c = ts_cfg(&ci, KIND_LDLAT);
	c.data_cfg = BIT_ULL(1); /* + GP registers */
	run_ok("icx ldlat+gpr", &c, &ka, &res);
	assert_true(res.decode_cfg.data_cfg == 0x3);
	assert_true(res.decode_cfg.adaptive);
	assert_int_equal(res.records_len, res.n_records * (32 + 32 + 144));
	check_records("icx ldlat+gpr", &res, KIND_LDLAT);
	session_result_free(&res);
}

/*
 * Records not of the load that overflowed the counter: with PDIST (perfmon
 * PDISTCounter) record k is of load (k + 1) * period, the kernel's load i
 * reading line i % K_LINES.
 */
static size_t not_overflowing(const struct session_result *res)
{
	struct pebs_record rec;
	struct pebs_anomaly an;
	size_t off = 0, k = 0, bad = 0;

	while (pebs_decode_next(&res->decode_cfg, res->records, res->records_len, &off, &rec,
				&an) == PEBS_STEP_RECORD) {
		uint64_t i = (k + 1) * res->period - 1;

		bad +=
		    !(rec.have & HAVE_DLA) || rec.data_la != (uintptr_t)&kbuf[64 * (i % K_LINES)];
		k++;
	}
	return bad;
}

/*
 * PDIST where perfmon's PDISTCounter and (arch-PEBS) CPUID.23H.5:EBX allow
 * it; the simulator records the load after the overflow elsewhere
 * (sim/placement.c).  MEM_INST_RETIRED.ALL_LOADS: SPR PDISTCounter "0";
 * MEM_UOPS_RETIRED.ALL_LOADS: Clearwater Forest "0,1", as the simulated
 * part's CPUID.23H.5:EBX (0x3).  A plan that believes in PDIST where the
 * CPU has none is caught.
 */
static void test_pdist(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};

	select_model("spr", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_INST_RETIRED.ALL_LOADS";
	c.period = 32;
	run_ok("spr pdist", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 0);
	assert_true(res.pdist);
	assert_non_null(strstr(res.event_desc, "on PMC0 (PDIST)"));
	assert_int_equal(res.n_records, 100);
	assert_int_equal(not_overflowing(&res), 0);
	session_result_free(&res);

	/* the counter bitmap without PMC0 (as a VMM may give it): PMC1, no PDIST */
	ci.gp_mask = 0xfe;
	run_ok("spr no pdist", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 1);
	assert_false(res.pdist);
	assert_int_equal(not_overflowing(&res), res.n_records);
	session_result_free(&res);

	/* arch-PEBS: PEBS on PMC1, PDIST there (CPUID.23H.5:EBX 0x3, perfmon "0,1") */
	select_model("archpebs", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_UOPS_RETIRED.ALL_LOADS";
	c.period = 32;
	c.data_cfg = 1; /* the meminfo (AUX) group: records with the data address */
	assert_int_equal(ci.arch_pebs_pdist_gp, 0x3);
	ci.arch_pebs_gp &= ~1u;
	run_ok("archpebs pmc1", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 1);
	assert_true(res.pdist);
	assert_int_equal(not_overflowing(&res), 0);
	session_result_free(&res);
	/*
	 * PEBS not on PMC0-1: PMC2, no PDIST (perfmon "0,1"), even for a plan told
	 * CPUID.23H.5 names PMC2: every record is of the load after the overflow
	 */
	ci.arch_pebs_gp &= ~3u;
	ci.arch_pebs_pdist_gp = 0x7;
	run_ok("archpebs pmc2", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 2);
	assert_false(res.pdist);
	assert_true(res.n_records >= 10);
	assert_int_equal(not_overflowing(&res), res.n_records);
	session_result_free(&res);
}

/* Counted events beside sampling: MEM_INST_RETIRED.ALL_LOADS counts every load. */
static void test_counts(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};

	select_model("skl", &ci);
	c = ts_cfg(&ci, KIND_LDLAT);
	c.count_events[0] = "MEM_INST_RETIRED.ALL_LOADS";
	c.count_events[1] = "MEM_INST_RETIRED.ALL_STORES";
	c.n_count_events = 2;
	run_ok("skl counts", &c, &ka, &res);
	assert_true(res.counts[0] == ka.n);
	assert_true(res.counts[1] == 0);
	assert_non_null(strstr(res.count_desc[0], "PMC"));
	session_result_free(&res);

	/*
	 * Named events whose perfmon rows set CounterMask, Invert and EdgeDetect
	 * (SKL/events/skylake_core.json), counted as the SDM defines those fields
	 * (sim/evtsel.c): INST_RETIRED.TOTAL_CYCLES_PS (cmask 10, inv: cycles
	 * with fewer than 10 instructions, so every cycle here) equals
	 * CPU_CLK_UNHALTED.THREAD_P; CPU_CLK_UNHALTED.RING0_TRANS (cmask 1, edge:
	 * cycles at ring 0 beginning) is 1.  A plan that dropped the fields would
	 * count instructions and every cycle.
	 */
	c.count_events[0] = "CPU_CLK_UNHALTED.THREAD_P";
	c.count_events[1] = "INST_RETIRED.TOTAL_CYCLES_PS";
	c.count_events[2] = "CPU_CLK_UNHALTED.RING0_TRANS";
	c.n_count_events = 3;
	run_ok("skl cmask counts", &c, &ka, &res);
	assert_true(res.counts[0] > ka.n);
	assert_true(res.counts[1] == res.counts[0]);
	assert_true(res.counts[2] == 1);
	session_result_free(&res);
}

/*
 * FRONTEND_RETIRED (0x01c6) sampling on Skylake: a PEBS event there (SDM
 * Skylake precise events; SKL/events/skylake_core.json PEBS 1), MSR_PEBS_FRONTEND
 * programmed and put back, no simulator rule broken.  The simulated core
 * has no front end, so nothing is tagged: 0 events, 0 records (by design,
 * docs/SIM.md).  A value outside the writable 0x7fff17 is refused before
 * any access; the simulator would #GP on it.
 */
static void test_frontend(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];
	uint64_t v;

	select_model("skl", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "event=0xc6,umask=0x1,frontend=0x11"; /* ITLB_MISS-style selector */
	run_ok("skl frontend", &c, &ka, &res);
	assert_int_equal(res.n_records, 0);
	assert_int_equal(res.pebs_counter, 0);
	session_result_free(&res);
	/* the writable mask is the simulator's too: bit 23 faults */
	assert_int_equal(hw_wrmsr(MSR_PEBS_FRONTEND, BIT_ULL(23)), HW_GP);
	assert_int_equal(hw_rdmsr(MSR_PEBS_FRONTEND, &v), HW_OK);
	assert_true(v == 0);
	c.sample_event = "event=0xc6,umask=0x1,frontend=0x800011";
	hw_reset_msr_access_count();
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_int_equal(hw_msr_access_count(), 0);
	c.sample_event = "event=0xc6,umask=0x1";
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_non_null(strstr(why, "MSR_PEBS_FRONTEND"));
	assert_int_equal(hw_msr_access_count(), 0);
}

/*
 * The default instructions sample on Skylake is PREC_DIST 0x01c0 on PMC1.
 * INST_RETIRED.ANY_P 0x00c0 is no PEBS event there: sampling it raw is what
 * the simulator flags ("pebs-event"), as the hardware would give nothing
 * usable.
 */
static void test_inst_event(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	select_model("skl", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	run_ok("skl inst", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 1);
	assert_true(res.n_records > 0);
	session_result_free(&res);
	/*
	 * INST_RETIRED.ANY_P is no PEBS event on Skylake
	 * (SKL/events/skylake_core.json PEBS 0): the plan refuses it before
	 * anything is written, so the simulator never sees it.
	 */
	c.sample_event = "event=0xc0,umask=0x0";
	violations = 0;
	assert_int_equal(session_run(&c, kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_non_null(strstr(why, "not PEBS-capable"));
	assert_int_equal(violations, 0);
}

/*
 * Firmware left IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12) set: each PMI
 * sets CTR_Frz (GLOBAL_STATUS bit 59) on v4+ and the counters stop until it
 * is cleared (SDM 18.2.4.1; sim/engine.c).  The PMI handler must ack it, or
 * nothing counts after the first PMI: with a threshold of 8 records and
 * 3200 loads / 32 = 100 overflows, all ~100 records must still arrive.
 */
static void test_freeze_on_pmi(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};

	select_model("skl", &ci);
	assert_int_equal(hw_wrmsr(0x1d9, BIT_ULL(12)), HW_OK);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 8;
	c.period = 32;
	run_ok("skl freeze-on-pmi", &c, &ka, &res);
	assert_true(res.pmis >= 12);
	assert_true(res.n_records >= 99 && res.n_records <= 101);
	assert_false(res.lost);
	session_result_free(&res);
	assert_int_equal(hw_wrmsr(0x1d9, 0), HW_OK);
}

/*
 * A stale overflow bit on the PEBS counter (firmware, or a previous run):
 * on Goldmont an overflow set in GLOBAL_STATUS makes a record of its own
 * (SDM 18.7.1).  Arming acks it first, so the records are the kernel's only,
 * and the bit is back afterwards (STATUS_SET, v4+).
 */
static void test_stale_status(void **state)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct session_result res;
	struct kargs ka = {.n = 3200, .kind = HW_LOAD};
	uint64_t st;

	select_model("glm", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.sample_event = "event=0xd0,umask=0x81"; /* MEM_UOPS_RETIRED.ALL_LOADS, precise */
	c.period = 32;
	assert_int_equal(hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, 1), HW_OK);
	run_ok("glm stale status", &c, &ka, &res);
	/* 3200 loads / 32 = 100 records, none extra for the stale bit */
	assert_true(res.n_records == 100);
	check_records("glm stale status", &res, KIND_DATALA_LOAD);
	session_result_free(&res);
	assert_int_equal(hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS, &st), HW_OK);
	assert_true(st & 1);
	assert_int_equal(hw_wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1), HW_OK);
}

static void test_every_model(void **state)
{
	size_t m;
	unsigned int usable = 0;

	for (m = 0; m < sim_model_count(); m++) {
		const char *name = sim_model_at(m)->name;
		const struct uarch_info *ua;
		struct cpu_info ci;
		char why[200];

		select_model(name, &ci);
		if (!pmu_pebs_usable(&ci, why, sizeof(why))) {
			struct session_cfg c;
			struct session_result res;

			memset(&c, 0, sizeof(c));
			c.ci = &ci;
			c.kind = KIND_LDLAT;
			hw_reset_msr_access_count();
			assert_int_equal(session_run(&c, kernel, NULL, &res, why, sizeof(why)),
					 SESSION_SKIP);
			assert_int_equal(hw_msr_access_count(), 0);
			print_message("# %s: SKIP: %s\n", name, why);
			continue;
		}
		usable++;
		ua = uarch_for_cpu(&ci);
		assert_non_null(ua);
		run_mode(name, &ci, KIND_OTHER, PEBS_DRAIN_POLL);
		run_mode(name, &ci, KIND_OTHER, PEBS_DRAIN_PMI);
		if (ua->flags & UA_LDLAT) {
			run_mode(name, &ci, KIND_LDLAT, PEBS_DRAIN_POLL);
			run_mode(name, &ci, KIND_LDLAT, PEBS_DRAIN_PMI);
		}
		if (ua->flags & UA_PRECISE_STORE)
			run_mode(name, &ci, KIND_STORE, PEBS_DRAIN_POLL);
		if (ua->flags & UA_DATALA) {
			run_mode(name, &ci, KIND_DATALA_LOAD, PEBS_DRAIN_POLL);
			run_mode(name, &ci, KIND_DATALA_STORE, PEBS_DRAIN_POLL);
		}
		if (ua->flags & UA_STLAT)
			run_mode(name, &ci, KIND_STLAT, PEBS_DRAIN_POLL);
		fault_sweep(name, &ci, (ua->flags & UA_LDLAT) ? KIND_LDLAT : KIND_OTHER,
			    PEBS_DRAIN_POLL);
		fault_sweep(name, &ci, KIND_OTHER, PEBS_DRAIN_PMI);
		print_message("# %s: all modes pass (%s)\n", name, ua->name);
	}
	assert_true(usable >= 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_model),
	    cmocka_unit_test(test_lost_records),
	    cmocka_unit_test(test_goldmont_kinds),
	    cmocka_unit_test(test_offcore),
	    cmocka_unit_test(test_icx_fixed_and_groups),
	    cmocka_unit_test(test_counts),
	    cmocka_unit_test(test_frontend),
	    cmocka_unit_test(test_inst_event),
	    cmocka_unit_test(test_freeze_on_pmi),
	    cmocka_unit_test(test_stale_status),
	    cmocka_unit_test(test_pdist),
	};

	ds_set_page_allocator(low_pages, free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
