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

static void run_mode(const char *model, const struct cpu_info *ci, enum pebs_kind kind,
		     enum pebs_drain drain)
{
	struct session_cfg c;
	struct session_result res;
	struct ts_kargs ka = {.n = 3200, .kind = ts_access_kind(kind)};
	char ctx[96];

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
	ts_run(ctx, &c, &ka, &res);
	if (!res.n_records) {
		print_error("%s: no records (%s, %llu events)\n", ctx, res.event_desc,
			    (unsigned long long)res.sampled_events);
		fail();
	}
	ts_check_records(ctx, &res, kind);
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

static struct ts_snap sweep_snap;

static void sweep_before(void)
{
	ts_take(&sweep_snap);
	ts_violations = 0;
	hw_reset_msr_access_count();
}

static void sweep_after(const char *name, unsigned long n)
{
	struct ts_snap after;

	ts_take(&after);
	ts_assert_same(&sweep_snap, &after, name);
	if (ts_violations)
		fail_msg("%s: #GP at %lu: simulator rule: %s", name, n, ts_last_rule);
}

static void fault_sweep(const char *model, const struct cpu_info *ci, enum pebs_kind kind,
			enum pebs_drain drain)
{
	struct session_cfg c;
	struct ts_kargs ka = {.n = 200, .kind = ts_access_kind(kind)};
	const struct test_sweep t = {model, &c, ts_kernel, &ka, sweep_before, sweep_after};

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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
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
	ts_run(__func__, &c, &ka, &res);
	assert_int_equal(res.n_records, 20);
	assert_true(res.buffer_full);
	assert_true(res.counted_sample);
	/* 3200 loads / 32 = 100 overflows, 20 written: 80 lost (+-1 for the edges) */
	assert_true(res.expected_records >= 99 && res.expected_records <= 101);
	assert_true(res.lost >= 79 && res.lost <= 81);
	assert_int_equal(ts_violations, 0);
	session_result_free(&res);

	/* the same with PMI draining at a threshold keeps everything */
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 10;
	ts_run(__func__, &c, &ka, &res);
	assert_false(res.lost);
	assert_true(res.pmis >= 9);
	assert_true(res.n_records + 1 >= res.expected_records);
	assert_int_equal(ts_violations, 0);
	session_result_free(&res);

	/*
	 * The result buffer is sized before arming (16 PEBS buffers for PMI
	 * draining, no allocation in the handler): 20000 / 32 = 625 records of
	 * 200 bytes do not fit in 64 KiB (327 do); the rest are counted lost.
	 */
	ka.n = 20000;
	c.threshold_records = 1;
	ts_run(__func__, &c, &ka, &res);
	assert_int_equal(res.n_records, 65536 / 200);
	assert_true(res.expected_records >= 624 && res.expected_records <= 626);
	assert_true(res.n_records + res.lost + 1 >= res.expected_records &&
		    res.n_records + res.lost <= res.expected_records + 1);
	assert_int_equal(ts_violations, 0);
	session_result_free(&res);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	size_t i, forced = 0, nonprecise = 0, precise = 0;

	ts_select("glm", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.period = 20011;
	c.force_records = 2;
	ts_run("glm forced", &c, &ka, &res);
	for (i = 0; i < res.n_records; i++) {
		forced += res.rec_kinds[i] == REC_FORCED;
		nonprecise += res.rec_kinds[i] == REC_NONPRECISE;
	}
	assert_int_equal(forced, 2);
	assert_true(nonprecise >= 1);
	assert_int_equal(res.rec_kinds[0], REC_FORCED);
	ts_check_records("glm forced", &res, KIND_OTHER);
	session_result_free(&res);

	/* a precise event (BR_INST_RETIRED.ALL_BRANCHES would need branches: use loads) */
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_UOPS_RETIRED.ALL_LOADS";
	ts_run("glm precise", &c, &ka, &res);
	for (i = 0; i < res.n_records; i++)
		precise += res.rec_kinds[i] == REC_PRECISE;
	assert_true(res.n_records > 0 && precise == res.n_records);
	ts_check_records("glm precise", &res, KIND_OTHER);
	session_result_free(&res);
}

static void offcore_kernel(void *arg)
{
	struct ts_kargs ka = {.n = 4000, .kind = HW_LOAD};

	ts_kernel(&ka);
}

/* SDM Vol. 3B 18.6.3 on Silvermont and Goldmont; the big-core ratio on Skylake. */
static void test_offcore(void **state)
{
	static const char *const models[] = {"slm", "glm", "skl"};
	static const uint64_t lat_dram[] = {200, 220, 250};
	struct offcore_result r;
	struct cpu_info ci;
	struct ts_snap before, after;
	char why[200];
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		ts_select(models[i], &ci);
		ts_take(&before);
		rc = offcore_avg_latency(&ci, OFFCORE_REQ_DMND_DATA_RD, 0, offcore_kernel, NULL, &r,
					 why, sizeof(why));
		if (rc) {
			print_error("%s: offcore %d: %s\n", models[i], rc, why);
			fail();
		}
		ts_take(&after);
		ts_assert_same(&before, &after, models[i]);
		if (ts_violations) {
			print_error("%s: simulator rule: %s\n", models[i], ts_last_rule);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("icx", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "event=0x00,umask=0x01"; /* INST_RETIRED.ANY on fixed counter 0 */
	ts_run("icx fixed0", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 32);
	assert_true(res.pebs_enable == BIT_ULL(32));
	assert_true(res.n_records > 0);
	ts_check_records("icx fixed0", &res, KIND_OTHER);
	session_result_free(&res);

	c = ts_cfg(&ci, KIND_LDLAT);
	c.data_cfg = BIT_ULL(1); /* + GP registers */
	ts_run("icx ldlat+gpr", &c, &ka, &res);
	assert_true(res.decode_cfg.data_cfg == 0x3);
	assert_true(res.decode_cfg.adaptive);
	assert_int_equal(res.records_len, res.n_records * (32 + 32 + 144));
	ts_check_records("icx ldlat+gpr", &res, KIND_LDLAT);
	session_result_free(&res);
}

/*
 * Records not of the load that overflowed the counter: with PDIST (perfmon
 * PDISTCounter) record k is of load (k + 1) * period, the kernel's load i
 * reading line i % TS_LINES.
 */
static size_t not_overflowing(const struct session_result *res)
{
	struct pebs_record rec;
	struct pebs_anomaly an;
	size_t off = 0, k = 0, bad = 0;

	while (pebs_decode_next(&res->decode_cfg, res->records, res->records_len, &off, &rec,
				&an) == PEBS_STEP_RECORD) {
		uint64_t i = (k + 1) * res->period - 1;

		bad += !(rec.have & HAVE_DLA) ||
		       rec.data_la != (uintptr_t)&ts_buf[64 * (i % TS_LINES)];
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("spr", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_INST_RETIRED.ALL_LOADS";
	c.period = 32;
	ts_run("spr pdist", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 0);
	assert_true(res.pdist);
	assert_non_null(strstr(res.event_desc, "on PMC0 (PDIST)"));
	assert_int_equal(res.n_records, 100);
	assert_int_equal(not_overflowing(&res), 0);
	session_result_free(&res);

	/* the counter bitmap without PMC0 (as a VMM may give it): PMC1, no PDIST */
	ci.gp_mask = 0xfe;
	ts_run("spr no pdist", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 1);
	assert_false(res.pdist);
	assert_int_equal(not_overflowing(&res), res.n_records);
	session_result_free(&res);

	/* arch-PEBS: PEBS on PMC1, PDIST there (CPUID.23H.5:EBX 0x3, perfmon "0,1") */
	ts_select("archpebs", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "MEM_UOPS_RETIRED.ALL_LOADS";
	c.period = 32;
	c.data_cfg = 1; /* the meminfo (AUX) group: records with the data address */
	assert_int_equal(ci.arch_pebs_pdist_gp, 0x3);
	ci.arch_pebs_gp &= ~1u;
	ts_run("archpebs pmc1", &c, &ka, &res);
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
	ts_run("archpebs pmc2", &c, &ka, &res);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_LDLAT);
	c.count_events[0] = "MEM_INST_RETIRED.ALL_LOADS";
	c.count_events[1] = "MEM_INST_RETIRED.ALL_STORES";
	c.n_count_events = 2;
	ts_run("skl counts", &c, &ka, &res);
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
	ts_run("skl cmask counts", &c, &ka, &res);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];
	uint64_t v;

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = "event=0xc6,umask=0x1,frontend=0x11"; /* ITLB_MISS-style selector */
	ts_run("skl frontend", &c, &ka, &res);
	assert_int_equal(res.n_records, 0);
	assert_int_equal(res.pebs_counter, 0);
	session_result_free(&res);
	/* the writable mask is the simulator's too: bit 23 faults */
	assert_int_equal(hw_wrmsr(MSR_PEBS_FRONTEND, BIT_ULL(23)), HW_GP);
	assert_int_equal(hw_rdmsr(MSR_PEBS_FRONTEND, &v), HW_OK);
	assert_true(v == 0);
	c.sample_event = "event=0xc6,umask=0x1,frontend=0x800011";
	hw_reset_msr_access_count();
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_int_equal(hw_msr_access_count(), 0);
	c.sample_event = "event=0xc6,umask=0x1";
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[200];

	ts_select("skl", &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	ts_run("skl inst", &c, &ka, &res);
	assert_int_equal(res.pebs_counter, 1);
	assert_true(res.n_records > 0);
	session_result_free(&res);
	/*
	 * INST_RETIRED.ANY_P is no PEBS event on Skylake
	 * (SKL/events/skylake_core.json PEBS 0): the plan refuses it before
	 * anything is written, so the simulator never sees it.
	 */
	c.sample_event = "event=0xc0,umask=0x0";
	ts_violations = 0;
	assert_int_equal(session_run(&c, ts_kernel, &ka, &res, why, sizeof(why)), SESSION_REFUSED);
	assert_non_null(strstr(why, "not PEBS-capable"));
	assert_int_equal(ts_violations, 0);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};

	ts_select("skl", &ci);
	assert_int_equal(hw_wrmsr(0x1d9, BIT_ULL(12)), HW_OK);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.drain = PEBS_DRAIN_PMI;
	c.threshold_records = 8;
	c.period = 32;
	ts_run("skl freeze-on-pmi", &c, &ka, &res);
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
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	uint64_t st;

	ts_select("glm", &ci);
	c = ts_cfg(&ci, KIND_DATALA_LOAD);
	c.sample_event = "event=0xd0,umask=0x81"; /* MEM_UOPS_RETIRED.ALL_LOADS, precise */
	c.period = 32;
	assert_int_equal(hw_wrmsr(MSR_IA32_PERF_GLOBAL_STATUS_SET, 1), HW_OK);
	ts_run("glm stale status", &c, &ka, &res);
	/* 3200 loads / 32 = 100 records, none extra for the stale bit */
	assert_true(res.n_records == 100);
	ts_check_records("glm stale status", &res, KIND_DATALA_LOAD);
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

		ts_select(name, &ci);
		if (!pmu_pebs_usable(&ci, why, sizeof(why))) {
			struct session_cfg c;
			struct session_result res;

			memset(&c, 0, sizeof(c));
			c.ci = &ci;
			c.kind = KIND_LDLAT;
			hw_reset_msr_access_count();
			assert_int_equal(session_run(&c, ts_kernel, NULL, &res, why, sizeof(why)),
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

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
