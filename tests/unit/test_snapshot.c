// SPDX-License-Identifier: MIT
/*
 * test_snapshot.c - counter-snapshot groups through pmu/ and job/:
 *   - the plan (pmu/snapshot.c): MSR_PEBS_DATA_CFG's CNTR bit and counter
 *     masks on format 6 with baseline, the counters' CFG_C on arch-PEBS,
 *     worked out by hand from Linux e02e9b0374c3 and the arch-PEBS counter
 *     group patch (PEBS_DATACFG_CNTR 4, GP mask 47:32, fixed 55:48; CFG_C
 *     ARCH_PEBS_CNTR_ALLOW 35, _GP 36, _FIXED 37), and every refusal where
 *     the CPU does not enumerate the group (core.c
 *     intel_pmu_has_pebs_counter_group);
 *   - a session on the simulator with snapshot on: the records carry the
 *     group and the job's verdict (job/snapshot.c) passes it;
 *   - the verdict fails records whose snapshots are wrong.
 */
#include "job/job_int.h"
#include "pmu/plan.h"
#include "pmu/snapshot.h"
#include "test_session_util.h"
#include "test_util.h"

#define CNTR	BIT_ULL(4)
#define METRICS BIT_ULL(5)
#define GPM(m)	((uint64_t)(m) << 32)
#define FIXM(m) ((uint64_t)(m) << 48)

/* The plan of a sampling of ev (kind) with snapshot= and DATA_CFG's counter bits. */
static int plan(const struct cpu_info *ci, const char *ev, enum pebs_kind kind, bool snapshot,
		uint64_t data_cfg, struct pmu_plan *p, char *why)
{
	struct session_cfg c = {.ci = ci, .kind = kind, .sample_event = ev, .ldlat = 3};

	c.snapshot = snapshot;
	c.data_cfg = data_cfg;
	return plan_build(&c, ci, p, why, 256);
}

#define LOADS "event=0xd0,umask=0x81" /* MEM_INST_RETIRED.ALL_LOADS */

static struct cpu_info lion_cove(void)
{
	struct cpu_info ci = test_cpu_intel(0xbd, 6, true, 10, 6);

	ci.hybrid = true;
	ci.core_type = CORE_TYPE_CORE;
	return ci;
}

static struct cpu_info arch_pebs(uint32_t caps)
{
	struct cpu_info ci = test_cpu_intel(0xdd, 0, false, 8, 6);

	ci.arch_pebs = true;
	ci.arch_pebs_gp = 0xff;
	ci.arch_pebs_fixed = 0x7;
	ci.arch_pebs_caps = caps;
	ci.perf_caps = (uint64_t)PEBS_FMT_ARCH << 8;
	return ci;
}

/* Format 6: every programmed counter in DATA_CFG; the record grows by 16 + 8 per counter. */
static void test_plan_fmt6(void **state)
{
	struct cpu_info ci = lion_cove();
	struct pmu_plan p;
	char why[256];

	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, true, 0, &p, why), 0);
	/* PMC0 samples, PMC1 counts the copy (plan), fixed 0-2 count */
	assert_int_equal(p.gp_used, 0x3);
	assert_int_equal(p.fixed_used, 0x7);
	assert_true((p.data_cfg & (CNTR | METRICS | GENMASK_ULL(55, 32))) ==
		    (CNTR | GPM(0x3) | FIXM(0x7)));
	assert_int_equal(p.snap_gp, 0x3);
	assert_int_equal(p.snap_fixed, 0x7);
	/* basic, meminfo (ALL_LOADS is a DataLA event), the group: header and 5 values */
	assert_int_equal(p.rec_size, 0x20 + 0x20 + 0x10 + 5 * 8);
	/* raw masks: PMC1 and FIXED0 only */
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, CNTR | GPM(0x2) | FIXM(0x1), &p, why),
			 0);
	assert_int_equal(p.rec_size, 0x20 + 0x20 + 0x10 + 2 * 8);
	/* refusals: METRICS (no PERF_METRICS set up), masks without CNTR, a counter not enumerated
	 */
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, CNTR | METRICS | GPM(1), &p, why),
			 SESSION_REFUSED);
	assert_non_null(strstr(why, "PERF_METRICS"));
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, GPM(1), &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "without CNTR"));
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, CNTR | GPM(1u << 12), &p, why),
			 SESSION_REFUSED);
	assert_non_null(strstr(why, "not all enumerated"));
}

/* Not enumerated: format 5, format 6 without baseline, arch-PEBS without the CNTR caps. */
static void test_plan_not_enumerated(void **state)
{
	struct cpu_info ci = test_cpu_intel(0x8f, 5, true, 8, 5); /* Sapphire Rapids fmt 5 */
	struct pmu_plan p;
	char why[256];

	assert_int_equal(plan(&ci, NULL, KIND_LDLAT, true, 0, &p, why), SESSION_SKIP);
	assert_non_null(strstr(why, "not enumerated"));
	assert_non_null(strstr(why, "PEBS format 5"));
	ci = lion_cove();
	ci.perf_caps &= ~PERF_CAP_PEBS_BASELINE;
	assert_int_equal(plan(&ci, NULL, KIND_LDLAT, true, 0, &p, why), SESSION_SKIP);
	assert_non_null(strstr(why, "without baseline"));
	/* arch-PEBS: basic, aux, gpr, xmm only (CPUID.23H.4:EBX bits 31, 30, 29, 17) */
	ci = arch_pebs(0xe0020000);
	assert_int_equal(plan(&ci, NULL, KIND_LDLAT, true, 0, &p, why), SESSION_SKIP);
	assert_non_null(strstr(why, "CNTR_ALLOW"));
	/* CNTR_GP without CNTR_FIXED: the fixed counters cannot be in the group */
	ci = arch_pebs(0xe0020000 | 0x18);
	assert_int_equal(plan(&ci, NULL, KIND_LDLAT, true, 0, &p, why), SESSION_REFUSED);
	assert_non_null(strstr(why, "CNTR_FIXED"));
	/* without snapshot nothing changes there */
	assert_int_equal(plan(&ci, NULL, KIND_LDLAT, false, 0, &p, why), 0);
	assert_true(!(p.cfg_c & (BIT_ULL(35) | BIT_ULL(36) | BIT_ULL(37))));
}

/* Arch-PEBS: CNTR_GP | CNTR_FIXED on the PEBS counter; an even group (16-byte records). */
static void test_plan_arch(void **state)
{
	struct cpu_info ci = arch_pebs(0xe0020000 | 0x38);
	struct pmu_plan p;
	char why[256];

	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, true, 0, &p, why), 0);
	assert_int_equal(p.gp_used, 0x3);
	assert_int_equal(p.fixed_used, 0x7);
	/* five counters: the PEBS counter PMC0 is left out, so no CNTR_ALLOW on it */
	assert_int_equal(p.snap_gp, 0x2);
	assert_int_equal(p.snap_fixed, 0x7);
	assert_true((p.cfg_c & GENMASK_ULL(39, 35)) == (BIT_ULL(36) | BIT_ULL(37)));
	assert_true(snapshot_other_counter(&p, 1));
	assert_false(snapshot_other_counter(&p, 0));
	assert_true(snapshot_other_counter(&p, 32));
	/* an odd group asked by mask is refused */
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, CNTR | GPM(0x2) | FIXM(0x3), &p, why),
			 SESSION_REFUSED);
	assert_non_null(strstr(why, "odd"));
	assert_int_equal(plan(&ci, LOADS, KIND_OTHER, false, CNTR | GPM(0x3), &p, why), 0);
	assert_true((p.cfg_c & GENMASK_ULL(39, 35)) == (BIT_ULL(35) | BIT_ULL(36)));
}

/* --- a session on the simulator, and the job's verdict ---------------------- */

static void judge_run(const char *model, struct session_result *res, struct pmu_plan *plan,
		      struct snap_out *so)
{
	struct cpu_info ci;
	struct session_cfg c;
	struct ts_kargs ka = {.n = 1600, .kind = HW_LOAD};
	char why[256];

	ts_select(model, &ci);
	c = ts_cfg(&ci, KIND_OTHER);
	c.sample_event = LOADS;
	c.period = 100;
	c.snapshot = true;
	assert_int_equal(plan_build(&c, &ci, plan, why, sizeof(why)), 0);
	ts_run(model, &c, &ka, res);
	assert_int_equal(res->n_records, 16);
	assert_true(res->snap_gp | res->snap_fixed);
	job_snapshot_judge(res, plan, so);
}

/* The value of counter ctr in record k (the group is the record's last bytes). */
static uint8_t *value_at(struct session_result *res, unsigned int k, int ctr)
{
	struct pebs_record rec;
	struct pebs_anomaly an;
	size_t off = 0;
	unsigned int n = (unsigned int)(popcount64(res->snap_gp) + popcount64(res->snap_fixed)),
		     slot;

	for (unsigned int i = 0; i <= k; i++)
		assert_int_equal(pebs_decode_next(&res->decode_cfg, res->records, res->records_len,
						  &off, &rec, &an),
				 PEBS_STEP_RECORD);
	slot = ctr < 32 ? (unsigned int)popcount64(res->snap_gp & GENMASK_ULL(ctr, 0)) - 1
			: (unsigned int)(popcount64(res->snap_gp) +
					 popcount64(res->snap_fixed & GENMASK_ULL(ctr - 32, 0))) -
			      1;
	return res->records + rec.offset + rec.size - 8 * (n - slot);
}

static void put_value(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void verdict_case(const char *model)
{
	struct session_result res;
	struct pmu_plan *plan = malloc(sizeof(*plan));
	struct snap_out so;
	char text[256];

	judge_run(model, &res, plan, &so);
	job_snapshot_text(&so, text, sizeof(text));
	if (so.bad)
		fail_msg("%s: %s", model, text);
	assert_true(so.judged >= 3);
	assert_true(so.copy_checked);
	assert_int_equal(so.records, 16);
	/* the counting copy one event short of k periods at record 5 */
	put_value(value_at(&res, 4, res.copy_counter), 5 * 100 - 1);
	job_snapshot_judge(&res, plan, &so);
	assert_true(so.bad);
	/* a counter that goes down (instructions, FIXED0) */
	session_result_free(&res);
	judge_run(model, &res, plan, &so);
	put_value(value_at(&res, 7, 32), 1);
	job_snapshot_judge(&res, plan, &so);
	assert_true(so.bad);
	assert_non_null(strstr(so.why, "went down"));
	/* a value past the count read at the end */
	session_result_free(&res);
	judge_run(model, &res, plan, &so);
	put_value(value_at(&res, 15, 33), res.fixed[1] + 1);
	job_snapshot_judge(&res, plan, &so);
	assert_true(so.bad);
	assert_non_null(strstr(so.why, "exceeds its final count"));
	session_result_free(&res);
	free(plan);
}

static void test_verdict_fmt6(void **state)
{
	verdict_case("lnl");
}

static void test_verdict_arch(void **state)
{
	verdict_case("cwf");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_fmt6),	 cmocka_unit_test(test_plan_not_enumerated),
	    cmocka_unit_test(test_plan_arch),	 cmocka_unit_test(test_verdict_fmt6),
	    cmocka_unit_test(test_verdict_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
