// SPDX-License-Identifier: MIT
/*
 * test_pmu_event.c - the event parser and the generated catalogue: every
 * name libpfm4 gave round-trips through the parser; known encodings (SDM
 * event tables) come out as PERFEVTSEL bits; bad input gets a clear error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "lib/fmt.h"
#include "pmu/catalogue.h"
#include "pmu/event.h"
#include "pmu/msr.h"

static void test_catalogue_round_trip(void **state)
{
	struct pmu_event ev;
	char text[160], why[200];
	uint32_t p, e, u;
	unsigned int n = 0;

	assert_true(cat_n_pmus >= 10);
	for (p = 0; p < cat_n_pmus; p++) {
		const struct cat_pmu *cp = &cat_pmus[p];

		for (e = cp->first_event; e < cp->first_event + cp->n_events; e++) {
			const struct cat_event *ce = &cat_events[e];

			for (u = ce->first_umask; u < ce->first_umask + ce->n_umasks; u++) {
				const struct cat_umask *um = &cat_umasks[u];

				if (!um->name)
					continue;
				pp_snprintf(text, sizeof(text), "%s::%s:%s", cat_str(cp->name),
					    cat_str(ce->name), cat_str(um->name));
				if (strlen(text) >= sizeof(ev.name))
					continue;
				if (pmu_event_parse(NULL, text, &ev, why, sizeof(why)) != 0) {
					/* libpfm4's event-0 pseudo encodings are refused by design
					 */
					if ((um->evtsel & 0xff) == 0)
						continue;
					print_error("%s: %s\n", text, why);
					fail();
				}
				if (!(ce->flags & CAT_EV_OFFCORE))
					assert_true((ev.evtsel & 0xffffffffULL) == um->evtsel);
				n++;
			}
		}
	}
	assert_true(n > 1000);
}

static void test_known_encodings(void **state)
{
	struct pmu_event ev;
	char why[200];

	/* SDM 18.9.4.2: MEM_TRANS_RETIRED.LOAD_LATENCY = event CDH umask 01H */
	assert_int_equal(pmu_event_parse("skl", "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30", &ev, why,
					 sizeof(why)),
			 0);
	assert_true(ev.evtsel == 0x01cd);
	assert_true(ev.has_ldlat);
	assert_int_equal(ev.ldlat, 30);
	assert_true(ev.usr && ev.os);
	assert_true(ev.precise);
	/* the SDM's dotted spelling is accepted too */
	assert_int_equal(
	    pmu_event_parse("skl", "MEM_TRANS_RETIRED.LOAD_LATENCY", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x01cd);
	assert_int_equal(ev.ldlat, 0);
	/* SNB precise store: CDH umask 02H (SDM 18.9.4.3) */
	assert_int_equal(
	    pmu_event_parse("snb", "MEM_TRANS_RETIRED:PRECISE_STORE:u", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x02cd);
	assert_true(ev.usr && !ev.os);
	/* Goldmont BR_INST_RETIRED.JCC = C4H umask 7EH (SDM Table 18-19) */
	assert_int_equal(pmu_event_parse("glm", "BR_INST_RETIRED:JCC", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == 0x7ec4);
	/* modifiers: c=2, i, e by their PERFEVTSEL bits */
	assert_int_equal(
	    pmu_event_parse("skl", "INST_RETIRED:ANY_P:c=2:i:e", &ev, why, sizeof(why)), 0);
	assert_true(ev.evtsel == (0xc0 | EVTSEL_CMASK(2) | EVTSEL_INV | EVTSEL_EDGE));
	/* offcore: request and response bits OR-ed into MSR_OFFCORE_RSP0 (SDM 18.6.3) */
	assert_int_equal(pmu_event_parse("glm", "OFFCORE_RESPONSE_0:DMND_DATA_RD:OUTSTANDING", &ev,
					 why, sizeof(why)),
			 0);
	assert_true(ev.has_offcore);
	assert_true(ev.offcore_rsp == (0x1ULL | BIT_ULL(38)));
	assert_int_equal(pmu_event_offcore_index(&ev), 0);
	/* raw */
	assert_int_equal(
	    pmu_event_parse(NULL, "event=0xcd,umask=0x1,ldlat=40,u", &ev, why, sizeof(why)), 0);
	assert_true(ev.raw && ev.evtsel == 0x01cd && ev.ldlat == 40 && ev.usr && !ev.os);
	assert_int_equal(pmu_event_parse(NULL, "event=0xb7,umask=0x1,offcore_rsp=0x10001", &ev, why,
					 sizeof(why)),
			 0);
	assert_true(ev.offcore_rsp == 0x10001);
	/* fixed pseudo-encoding: event 0x00 umask 0x03 = REF cycles on fixed counter 2 */
	assert_int_equal(pmu_event_parse(NULL, "event=0x0,umask=0x3", &ev, why, sizeof(why)), 0);
	assert_int_equal(ev.fixed, 2);
}

static void test_bad_input(void **state)
{
	struct pmu_event ev;
	char why[200];

	assert_int_equal(pmu_event_parse("skl", "", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "empty"));
	assert_int_equal(pmu_event_parse("skl", "NOPE", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "NOPE"));
	assert_int_equal(pmu_event_parse("skl", "INST_RETIRED:BOGUS", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "BOGUS"));
	/* ldlat only where libpfm4 lists it */
	assert_int_equal(
	    pmu_event_parse("skl", "INST_RETIRED:ANY_P:ldlat=5", &ev, why, sizeof(why)), -1);
	assert_int_equal(
	    pmu_event_parse("skl", "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=x", &ev, why, sizeof(why)),
	    -1);
	assert_non_null(strstr(why, "number"));
	assert_int_equal(pmu_event_parse("skl", "INST_RETIRED:ANY_P:c=300", &ev, why, sizeof(why)),
			 -1);
	assert_int_equal(pmu_event_parse(NULL, "event=0x100", &ev, why, sizeof(why)), -1);
	assert_int_equal(pmu_event_parse(NULL, "event=0xc0,foo=1", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "foo"));
	assert_int_equal(pmu_event_parse(NULL, "umask=1", &ev, why, sizeof(why)), -1);
	assert_int_equal(pmu_event_parse("nosuch", "INST_RETIRED", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "nosuch"));
	assert_int_equal(
	    pmu_event_parse("skl", "INST_RETIRED:ALL:PREC_DIST", &ev, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "one unit mask"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_catalogue_round_trip),
	    cmocka_unit_test(test_known_encodings),
	    cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
