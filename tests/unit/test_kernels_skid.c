// SPDX-License-Identifier: MIT
/*
 * test_kernels_skid.c - the precision row of the verdicts: the skid
 * classifier over a kernel's instruction boundaries and the share of exact
 * IPs, on synthetic decoded records (test_verdict_util.h).
 */
#include "test_verdict_util.h"

/*
 * The skid classifier: skid counted in the instruction boundaries the
 * table knows (each access's start and the next one's), the IP itself one
 * more; an IP of the sampled kind's boundary is 0.
 */
static void test_skid_of(void **state)
{
	static const struct {
		enum kip_point pt;
		uint32_t kinds;
		uint64_t ip;
		enum kskid want;
	} cases[] = {
	    {KIP_AT, HW_LOAD, 0x1010, KSKID_0},	    /* the load itself */
	    {KIP_AT, HW_LOAD, 0x1040, KSKID_0},	    /* the other load */
	    {KIP_AT, HW_LOAD, 0x1014, KSKID_1},	    /* the store after the load */
	    {KIP_AT, HW_LOAD, 0x1018, KSKID_2_3},   /* past the store */
	    {KIP_AT, HW_LOAD, 0x1020, KSKID_2_3},   /* 2 known boundaries, then unknown code */
	    {KIP_AT, HW_LOAD, 0x1047, KSKID_1},	    /* the instruction after the 2nd load */
	    {KIP_AT, HW_LOAD, 0x1050, KSKID_2_3},   /* past it */
	    {KIP_AT, HW_STORE, 0x1014, KSKID_0},    /* store sampling: the store */
	    {KIP_AT, HW_STORE, 0x1010, KSKID_4_UP}, /* round the loop from the store */
	    {KIP_AFTER, HW_LOAD, 0x1014, KSKID_0},  /* trap-like: after the load */
	    {KIP_AFTER, HW_LOAD, 0x1047, KSKID_0},
	    {KIP_AFTER, HW_LOAD, 0x1018, KSKID_1},  /* one past that */
	    {KIP_AFTER, HW_STORE, 0x1018, KSKID_0}, /* after the store */
	    {KIP_AT, HW_LOAD, 0x0fff, KSKID_OUT},   /* below the kernel */
	    {KIP_AT, HW_LOAD, 0x1101, KSKID_OUT},   /* above it */
	    {KIP_AT, HW_LOCKED, 0x1010, KSKID_OUT}, /* no sampled instruction at all */
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		enum kskid got = kstats_skid_of(fake_insns, ARRAY_SIZE(fake_insns), cases[i].pt,
						cases[i].kinds, 0x1000, 0x1100, cases[i].ip);

		if (got != cases[i].want)
			fail_msg("case %zu: ip %#llx: skid %s, want %s", i,
				 (unsigned long long)cases[i].ip, kstats_skid_name(got),
				 kstats_skid_name(cases[i].want));
	}
	assert_int_equal(kstats_skid_of(fake_insns, 0, KIP_AT, HW_LOAD, 0x1000, 0x1100, 0x1010),
			 KSKID_OUT);
}

/* n records at ip, otherwise as add() makes them. */
static void add_at(unsigned int n, uint64_t ip)
{
	for (unsigned int i = 0; i < n; i++) {
		struct pebs_record r;

		memset(&r, 0, sizeof(r));
		r.have = HAVE_IP | HAVE_DLA | HAVE_DSE | HAVE_MEM | HAVE_LATENCY;
		r.ip = ip;
		r.data_la = (uint64_t)(uintptr_t)buffer + fx.k.offset;
		r.data_src = DS_L1_HIT;
		kstats_add(&fx.st, &r);
	}
	fx.in.records = fx.st.n;
	fx.in.events = fx.st.n * fx.in.period + 37;
	fx.in.sampled_accesses = fx.in.events;
}

/* The precision row: the share of exact IPs, and a FAIL names the skid. */
static void test_ip_exact(void **state)
{
	static const struct {
		enum kip_point pt;
		unsigned int sampling;
		uint64_t ip;
		unsigned int n_other;
		uint64_t other_ip;
		enum kverdict want;
		const char *text;
	} cases[] = {
	    {KIP_AT, KSAMPLE_LOAD, 0x1010, 0, 0, KV_PASS, "exact IPs 100.0% >= 95.0%"},
	    {KIP_AT, KSAMPLE_LOAD, 0x1010, 4, 0x1014, KV_PASS, "exact IPs 96.1% >= 95.0%"},
	    {KIP_AT, KSAMPLE_LOAD, 0x1014, 0, 0, KV_FAIL,
	     "exact IPs 0.0% < 95.0%: skid 1 in 100 of 100"},
	    {KIP_AT, KSAMPLE_LOAD, 0x1010, 10, 0x1020, KV_FAIL,
	     "exact IPs 90.9% < 95.0%: skid 2-3 in 10 of 110"},
	    {KIP_AT, KSAMPLE_LOAD, 0x1010, 10, 0x2000, KV_FAIL,
	     "exact IPs 90.9% < 95.0%: skid outside the kernel in 10 of 110"},
	    {KIP_AFTER, KSAMPLE_LOAD, 0x1014, 0, 0, KV_PASS, "exact IPs 100.0% >= 95.0%"},
	    {KIP_AFTER, KSAMPLE_LOAD, 0x1010, 0, 0, KV_FAIL, "exact IPs 0.0% < 95.0%: skid "},
	    {KIP_AT, KSAMPLE_STORE, 0x1014, 0, 0, KV_PASS, "exact IPs 100.0% >= 95.0%"},
	    {KIP_AT, KSAMPLE_STORE, 0x1010, 0, 0, KV_FAIL, "exact IPs 0.0% < 95.0%: skid 4+"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		setup_run("chase-l1", UARCH_SKL);
		kstats_precision(&fx.st, cases[i].pt, cases[i].sampling);
		add_at(100, cases[i].ip);
		add_at(cases[i].n_other, cases[i].other_ip);
		if (eval(cases[i].sampling) != cases[i].want || !strstr(fx.text, cases[i].text))
			fail_msg("case %zu: want '%s' in: %s", i, cases[i].text, fx.text);
	}
	/* The sampled event counts no memory access: not applicable. */
	setup_run("chase-l1", UARCH_SKL);
	add_at(100, 0x1014);
	assert_int_equal(eval(0), KV_PASS);
	assert_non_null(strstr(fx.text, "exact IPs n/a"));
	/* No memory instruction known in the kernel's code: unchecked, a SKIP. */
	setup_run("chase-l1", UARCH_SKL);
	fx.st.n_insn = fx.st.n_insn_found = 0;
	add_at(100, 0x1010);
	assert_int_equal(eval(KSAMPLE_LOAD), KV_SKIP);
	assert_non_null(strstr(fx.text, "exact IPs unchecked (no known memory instruction)"));
	/* More memory instructions than kept: unchecked too, never a false skid. */
	setup_run("chase-l1", UARCH_SKL);
	fx.st.n_insn_found = KSTATS_INSN_MAX + 1;
	add_at(100, 0x1010);
	assert_int_equal(eval(KSAMPLE_LOAD), KV_SKIP);
	assert_non_null(strstr(fx.text, "exact IPs unchecked (17 memory instructions, 16 kept)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_skid_of),
	    cmocka_unit_test(test_ip_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
