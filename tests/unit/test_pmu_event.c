// SPDX-License-Identifier: MIT
/*
 * test_pmu_event.c - the event parser against Intel's perfmon files: every
 * EventName of every file round-trips through the parser with its row's
 * encoding and counters; known encodings (SDM event tables, the perfmon
 * files named beside each check) come out as PERFEVTSEL bits; a raw
 * encoding finds its row; bad input gets one clear error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "lib/fmt.h"
#include "pmu/event.h"
#include "pmu/msr.h"
#include "pmu/perfmon.h"

/* The table whose file name starts with prefix ("SKL/"). */
static const struct perfmon_table *table(const char *prefix)
{
	unsigned int i;

	for (i = 0; i < perfmon_n_tables(); i++)
		if (!strncmp(perfmon_table_name(perfmon_table_at(i)), prefix, strlen(prefix)))
			return perfmon_table_at(i);
	fail_msg("no perfmon table %s", prefix);
	return NULL;
}

static void test_every_name_round_trips(void **state)
{
	struct pmu_event ev;
	struct perfmon_info in;
	char why[200];
	unsigned int t, e, n = 0;

	for (t = 0; t < perfmon_n_tables(); t++) {
		const struct perfmon_table *pt = perfmon_table_at(t);

		for (e = 0; e < perfmon_n_events(pt); e++) {
			perfmon_event_get(pt, perfmon_event_at(pt, e), &in);
			if (strlen(in.name) >= sizeof(ev.name))
				continue;
			if (pmu_event_parse(pt, in.name, &ev, why, sizeof(why))) {
				/* extra MSRs pebsprobe does not program, and event 0 pseudo codes
				 */
				if (strstr(why, "does not program") || strstr(why, "event 0x00"))
					continue;
				fail_msg("%s %s: %s", perfmon_table_name(pt), in.name, why);
			}
			/* the first name wins where names repeat in any case */
			if (strcmp(ev.pm_name, in.name))
				continue;
			assert_true((ev.evtsel & 0xff) == in.codes[0]);
			assert_true(((ev.evtsel >> 8) & 0xff) == in.umasks[0]);
			assert_true(((ev.evtsel >> 24) & 0xff) == in.cmask);
			assert_true(ev.count_ctrs.gp == in.ctr[PERFMON_COUNTER].gp);
			assert_true(ev.count_ctrs.fixed == in.ctr[PERFMON_COUNTER].fixed);
			n++;
		}
	}
	assert_true(n > 15000);
}

static void test_known_encodings(void **state)
{
	const struct perfmon_table *skl = table("SKL/"), *snb = table("SNB/"), *glm = table("GLM/"),
				   *ptl = table("PTL/pantherlake_cougarcove");
	struct pmu_event ev;
	char why[200];

	/* SDM 18.9.4.2: MEM_TRANS_RETIRED.LOAD_LATENCY = event CDH umask 01H; _GT_32: MSRValue 0x20
	 */
	assert_int_equal(
	    pmu_event_parse(skl, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x01cd);
	assert_true(ev.has_ldlat);
	assert_int_equal(ev.ldlat, 32);
	assert_true(ev.usr && ev.os);
	assert_true(ev.precise);
	/* any case; ldlat= overrides the name's threshold */
	assert_int_equal(pmu_event_parse(skl, "mem_trans_retired.load_latency_gt_4:ldlat=30", &ev,
					 why, sizeof(why)),
			 0);
	assert_int_equal(ev.ldlat, 30);
	/* SKL/events/skylake_core.json: load latency counts on PMC0-3 */
	assert_true(ev.count_ctrs.gp == 0xf);
	/* PTL/events/pantherlake_cougarcove_core.json: Counter and PEBScounters 2-9 */
	assert_int_equal(
	    pmu_event_parse(ptl, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", &ev, why, sizeof(why)), 0);
	assert_true(ev.pebs_list && ev.pebs_ctrs.gp == 0x3fc && ev.count_ctrs.gp == 0x3fc);
	/* SNB precise store: CDH umask 02H (SDM 18.9.4.3) */
	assert_int_equal(
	    pmu_event_parse(snb, "MEM_TRANS_RETIRED.PRECISE_STORE:u", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x02cd);
	assert_true(ev.usr && !ev.os);
	/* Goldmont BR_INST_RETIRED.JCC = C4H umask 7EH (SDM Table 18-19) */
	assert_int_equal(pmu_event_parse(glm, "BR_INST_RETIRED.JCC", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x7ec4);
	/* modifiers: c=2, i, e by their PERFEVTSEL bits */
	assert_int_equal(pmu_event_parse(skl, "INST_RETIRED.ANY_P:c=2:i:e", &ev, why, sizeof(why)),
			 0);
	assert_true(ev.evtsel == (0xc0 | EVTSEL_CMASK(2) | EVTSEL_INV | EVTSEL_EDGE));
	/* offcore: perfmon's MSRValue for MSR_OFFCORE_RSP0 */
	assert_int_equal(pmu_event_parse(skl, "OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE", &ev,
					 why, sizeof(why)),
			 0);
	assert_true(ev.has_offcore);
	assert_true(ev.offcore_rsp == 0x10001);
	assert_int_equal(pmu_event_offcore_index(&ev), 0);
	/* raw: its row found by encoding (INST_RETIRED.PREC_DIST, Counter "1" on SKL) */
	assert_int_equal(pmu_event_parse(skl, "event=0xc0,umask=0x1", &ev, why, sizeof(why)), 0);
	assert_true(ev.raw && ev.pm_name && !strcmp(ev.pm_name, "INST_RETIRED.PREC_DIST"));
	assert_true(ev.count_ctrs.gp == 0x2);
	assert_int_equal(
	    pmu_event_parse(NULL, "event=0xcd,umask=0x1,ldlat=40,u", &ev, why, sizeof(why)), 0);
	assert_true(ev.raw && ev.evtsel == 0x01cd && ev.ldlat == 40 && ev.usr && !ev.os);
	assert_null(ev.pm_name);
	assert_int_equal(pmu_event_parse(NULL, "event=0xb7,umask=0x1,offcore_rsp=0x10001", &ev, why,
					 sizeof(why)),
			 0);
	assert_true(ev.offcore_rsp == 0x10001);
	/* fixed pseudo-encoding: event 0x00 umask 0x03 = REF cycles on fixed counter 2 */
	assert_int_equal(pmu_event_parse(NULL, "event=0x0,umask=0x3", &ev, why, sizeof(why)), 0);
	assert_int_equal(ev.fixed, 2);
	assert_int_equal(pmu_event_parse(skl, "INST_RETIRED.ANY", &ev, why, sizeof(why)), 0);
	assert_int_equal(ev.fixed, 0);
	assert_true(ev.count_ctrs.fixed == 0x1 && ev.count_ctrs.gp == 0);
}

static void test_bad_input(void **state)
{
	const struct perfmon_table *skl = table("SKL/");
	struct pmu_event ev;
	char why[200];

	assert_int_equal(pmu_event_parse(skl, "", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "empty"));
	assert_int_equal(pmu_event_parse(skl, "NOPE", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "NOPE"));
	assert_non_null(strstr(why, "SKL/skylake_core.json"));
	assert_int_equal(pmu_event_parse(skl, "INST_RETIRED.BOGUS", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "BOGUS"));
	/* ldlat only where the row programs MSR_PEBS_LD_LAT_THRESHOLD */
	assert_int_equal(pmu_event_parse(skl, "INST_RETIRED.ANY_P:ldlat=5", &ev, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "ldlat=5"));
	assert_int_equal(pmu_event_parse(skl, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=x", &ev,
					 why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "number"));
	assert_int_equal(pmu_event_parse(skl, "INST_RETIRED.ANY_P:c=300", &ev, why, sizeof(why)),
			 -1);
	assert_int_equal(pmu_event_parse(NULL, "event=0x100", &ev, why, sizeof(why)), -1);
	assert_int_equal(pmu_event_parse(NULL, "event=0xc0,foo=1", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "foo"));
	assert_int_equal(pmu_event_parse(NULL, "umask=1", &ev, why, sizeof(why)), -1);
	/* a name without a perfmon file (Core 2) */
	assert_int_equal(pmu_event_parse(NULL, "INST_RETIRED.ANY_P", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no perfmon event file"));
	/* the libpfm4 spelling is no perfmon name */
	assert_int_equal(
	    pmu_event_parse(skl, "MEM_TRANS_RETIRED:LOAD_LATENCY", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no such EventName"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_name_round_trips),
	    cmocka_unit_test(test_known_encodings),
	    cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
