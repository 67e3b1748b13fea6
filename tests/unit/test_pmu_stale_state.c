// SPDX-License-Identifier: MIT
/*
 * test_pmu_stale_state - state that firmware or an earlier program left in
 * the PMU, set through the simulator's own MSRs and APIC before pebsprobe
 * runs, as cases: what was left, on which simulated CPU, which run
 * follows, and what must hold afterwards.
 *   bts-on-cpu1   IA32_DEBUGCTL TR|BTS on CPU 1 only: a legacy-PEBS session
 *                 measuring CPU 1 is a SKIP naming BTS (DEBUGCTL and
 *                 DS_AREA are per logical CPU, SDM Vol. 3B 17.4.9);
 *   acr-ctr-frz   GLOBAL_STATUS CTR_Frz (59) set: the auto counter reload
 *                 group still counts (CTR_Frz freezes every counter until
 *                 cleared, SDM 18.2.4.1), and the bit is set again after;
 *   lvtpc-polled  the firmware's LVTPC unmasked (fixed, vector 0x40): a
 *                 polled arch-PEBS session whose threshold sets status bit
 *                 54 gives it back only once the bit is acked, so no PMI
 *                 reaches the firmware's handler (Linux
 *                 intel_pmu_handle_irq: unmask after the reset);
 *   cfg-b-left    IA32_PMC_GP1..7_CFG_B = PMC0 on a part with ACR: a DataLA
 *                 session's counting copy still counts every load, and
 *                 each CFG_B is back afterwards (Linux intel_pmu_enable_acr:
 *                 "The disable doesn't clear the ACR CFG register").
 */
#include <stdlib.h>

#include "test_session_util.h"
#include "lib/cpurun.h"
#include "pmu/acr.h"

#define CPUS 2

struct leftover {
	uint32_t msr; /* 0: none */
	uint64_t val;
	uint32_t lvtpc; /* 0: none */
	unsigned int n; /* msr written n times, 4 apart (IA32_PMC_*: MSR_V6_STEP); 0 = 1 */
};

static void leave(void *p)
{
	const struct leftover *l = p;

	for (unsigned int k = 0; l->msr && k < (l->n ? l->n : 1); k++)
		assert_int_equal(hw_wrmsr(l->msr + 4 * k, l->val), HW_OK);
	if (l->lvtpc)
		hw_apic_write(APIC_LVTPC, l->lvtpc);
}

struct probe {
	struct cpu_info *ci;
};

static void probe(void *p)
{
	cpu_probe(((struct probe *)p)->ci);
}

/* RUN_ACR_SESSION: a session on a part whose CPUID.23H.2 enumerates ACR. */
enum run_kind { RUN_SESSION, RUN_ACR, RUN_ACR_SESSION };

struct stale_case {
	const char *name;
	const char *model;
	unsigned int cpu; /* the CPU measured, and the one the state is left on */
	struct leftover left;
	enum run_kind run;
	enum pebs_kind kind;
	uint32_t buffer_kib;
	int want_rc;	       /* session_run / acr_run */
	const char *want_why;  /* substring of the reason, with want_rc != 0 */
	uint64_t status_after; /* GLOBAL_STATUS bits set again afterwards */
};

/* clang-format off */
static const struct stale_case cases[] = {
	{ "bts-on-cpu1", "skl", 1, { MSR_IA32_DEBUGCTL, DEBUGCTL_TR | DEBUGCTL_BTS, 0, 0 },
	  RUN_SESSION, KIND_DATALA_LOAD, 64, SESSION_SKIP, "TR and BTS set", 0 },
	{ "acr-ctr-frz", "ptl", 0, { MSR_IA32_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_CTR_FRZ, 0, 0 },
	  RUN_ACR, KIND_OTHER, 0, 0, NULL, GLOBAL_STATUS_CTR_FRZ },
	{ "lvtpc-polled", "archpebs", 0, { 0, 0, 0x40, 0 },
	  RUN_SESSION, KIND_LDLAT, 4, 0, NULL, 0 },
	{ "cfg-b-left", "ptl", 0, { MSR_IA32_PMC_GP0_CFG_B + 4 * 1, 1, 0, 7 },
	  RUN_ACR_SESSION, KIND_DATALA_LOAD, 64, 0, NULL, 0 },
};
/* clang-format on */

/* One line naming the case and what went wrong; the case fails. */
#define BAD(...)                                                                                   \
	do {                                                                                       \
		print_error(__VA_ARGS__);                                                          \
		print_error("\n");                                                                 \
		return false;                                                                      \
	} while (0)

static bool run_case(const struct stale_case *t)
{
	struct cpu_info ci;
	struct probe pr = {&ci};
	struct ts_kargs ka = {.n = 3200, .kind = HW_LOAD};
	char why[256] = "";
	uint64_t status = 0;
	uint32_t lvtpc_after = 0;
	int rc;

	ts_select(t->model, &ci);
	if (t->run != RUN_SESSION)
		assert_int_equal(sim_set_acr(0xfe, 0, 0xff, 0), 0);
	assert_int_equal(cpurun_run(t->cpu, probe, &pr, 0, NULL, NULL), 0);
	assert_int_equal(cpurun_run(t->cpu, leave, (void *)&t->left, 0, NULL, NULL), 0);
	if (t->run != RUN_ACR) {
		struct session_cfg c = ts_cfg(&ci, t->kind);
		struct session_result res;

		c.buffer_kib = t->buffer_kib;
		c.period = 32;
		rc = session_run(&c, ts_kernel, &ka, &res, why, sizeof(why));
		/* A counting copy reloaded by a stale CFG_B undercounts the 3200 loads. */
		if (!rc && res.counted_sample && res.sampled_events != ka.n)
			BAD("%s: the counting copy (PMC%d) read %llu events, %u loads ran", t->name,
			    res.copy_counter, (unsigned long long)res.sampled_events, ka.n);
		session_result_free(&res);
	} else {
		struct acr_counters want = ACR_COUNTERS_AUTO;
		struct acr_result res;

		rc = acr_run(&ci, &want, ts_kernel, &ka, 0, NULL, NULL, &res, why, sizeof(why));
		if (!rc && !res.total)
			BAD("%s: the ACR group's total counter counted nothing (frozen)", t->name);
	}
	if (rc != t->want_rc || (t->want_why && !strstr(why, t->want_why)))
		BAD("%s: rc %d (%s), want %d%s%s", t->name, rc, why, t->want_rc,
		    t->want_why ? " naming " : "", t->want_why ? t->want_why : "");
	if (ts_violations)
		BAD("%s: simulator rule: %s", t->name, ts_last_rule);
	hw_rdmsr(MSR_IA32_PERF_GLOBAL_STATUS, &status);
	if ((status & t->status_after) != t->status_after)
		BAD("%s: GLOBAL_STATUS 0x%llx afterwards lacks 0x%llx, which was left set", t->name,
		    (unsigned long long)status, (unsigned long long)t->status_after);
	for (unsigned int k = 0; t->left.msr != MSR_IA32_PERF_GLOBAL_STATUS_SET && k < t->left.n;
	     k++) {
		uint64_t v = 0;

		hw_rdmsr(t->left.msr + 4 * k, &v);
		if (v != t->left.val)
			BAD("%s: MSR 0x%x is 0x%llx afterwards, 0x%llx was left", t->name,
			    t->left.msr + 4 * k, (unsigned long long)v,
			    (unsigned long long)t->left.val);
	}
	if (t->left.lvtpc) {
		lvtpc_after = hw_apic_read(APIC_LVTPC);
		if (lvtpc_after != t->left.lvtpc)
			BAD("%s: LVTPC 0x%x afterwards, 0x%x was left", t->name, lvtpc_after,
			    t->left.lvtpc);
	}
	return true;
}

static void test_cases(void **state)
{
	unsigned int bad = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		bad += !run_case(&cases[i]);
	if (bad)
		fail_msg("%u case(s) failed", bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cases),
	};

	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
