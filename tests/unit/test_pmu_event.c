// SPDX-License-Identifier: MIT
/*
 * test_pmu_event.c - the event parser against Intel's perfmon files: every
 * EventName of every file round-trips through the parser with its row's
 * encoding and counters; known encodings (SDM event tables, the perfmon
 * files named beside each check) come out as PERFEVTSEL bits; a raw
 * encoding finds its row; bad input gets one clear error; an entry read
 * once resolves per CPU as the one-step parse does, keeps no text, and
 * its display name is built from its typed values.
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

/*
 * Read once, resolved per CPU: where a name ends is each file's to say.
 * CLX has OFFCORE_RESPONSE:request=..:response=.. as names of their own,
 * SKX only OFFCORE_RESPONSE (perfmon cascadelakex_core.json,
 * skylakex_core.json), so one entry is a name on one and a name with a
 * bad modifier on the other.  What no CPU could accept (a raw encoding's
 * error, a name no file has, an item after the longest name that is no
 * modifier or out of range) is refused by the read.  name: the display
 * name pmu_event_resolve builds from the typed entry (docs/OPTIONS.md
 * "Event names"): the file's spelling, one spelling per modifier, a raw
 * encoding in one form, whole (PMU_EVENT_NAME_MAX holds the longest).
 */
static const struct read_case {
	const char *text, *table; /* table: a file name prefix, NULL for none */
	int read, resolve;	  /* return codes */
	const char *want;	  /* the row's EventName, or a piece of why */
	const char *name;	  /* the display name, where resolved */
} read_cases[] = {
    {"OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE", "CLX/", 0, 0,
     "OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE",
     "OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE"},
    {"OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE", "SKX/", 0, -1,
     "event 'OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE': modifier "
     "'request=ALL_DATA_RD' needs a number (accepted: decimal or 0x hex)",
     NULL},
    {"offcore_response:request=ALL_DATA_RD:response=ANY_RESPONSE:u", "CLX/", 0, 0,
     "OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE",
     "OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE:u"},
    {"offcore_response:u", "SKX/", 0, 0, "OFFCORE_RESPONSE", "OFFCORE_RESPONSE:u"},
    /* the file's spelling, not the entry's: the entry keeps no text */
    {"offcore_response:u", "CLX/", 0, -1,
     "event 'OFFCORE_RESPONSE:u': no such EventName in perfmon CLX/cascadelakex_core.json", NULL},
    {"mem_inst_retired.all_loads:edge:c=0x2:k", "SKL/", 0, 0, "MEM_INST_RETIRED.ALL_LOADS",
     "MEM_INST_RETIRED.ALL_LOADS:e:c=2:k"},
    {"MEM_INST_RETIRED.ALL_LOADS:u:frob", "SKL/", -1, 0,
     "event 'MEM_INST_RETIRED.ALL_LOADS:u:frob': 'frob' is no modifier of "
     "MEM_INST_RETIRED.ALL_LOADS (accepted: u, k, e, i, eq, c=N, ldlat=N, fe_thres=N)",
     NULL},
    {"MEM_INST_RETIRED.ALL_LOADS:cmask=256", "SKL/", -1, 0, "cmask=N out of range", NULL},
    {"MEM_INST_RETIRED.ALL_LOADS:ldlat=2", "SKL/", -1, 0, "ldlat=N out of range", NULL},
    {"MEM_INST_RETIRED.ALL_LOADS:c=x", "SKL/", -1, 0, "modifier 'c=x' needs a number", NULL},
    /* ldlat=N only where the CPU's row programs MSR_PEBS_LD_LAT_THRESHOLD */
    {"INST_RETIRED.ANY_P:ldlat=5", "SKL/", 0, -1,
     "event 'INST_RETIRED.ANY_P:ldlat=5': 'ldlat=5' is no modifier of INST_RETIRED.ANY_P "
     "(accepted: u, k, e, i, eq, c=N)",
     NULL},
    {"MEM_INST_RETIRED.ALL_LOADS:u", NULL, 0, -1, "no perfmon event file", NULL},
    {"BOGUS", "SKL/", -1, 0,
     "event 'BOGUS': no perfmon file (data/perfmon) has an EventName it begins with", NULL},
    {"BOGUS:u", "SKL/", -1, 0, "event 'BOGUS:u': no perfmon file", NULL},
    {" event=0xcd,umask=0x1,ldlat=40 ", "SKL/", 0, 0, "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4",
     "event=0xcd,umask=0x1,ldlat=40"},
    {"event=0xcd,umask=0x1,ldlat=40", NULL, 0, 0, NULL, "event=0xcd,umask=0x1,ldlat=40"},
    {"event=205,umask=01,k,e,frontend=8,cmask=0x2,i", NULL, 0, 0, NULL,
     "event=0xcd,umask=0x1,cmask=2,inv,edge,k,frontend=0x8"},
    {"event=0xc6,umask=0x1,fe_thres=3", NULL, 0, 0, NULL, "event=0xc6,umask=0x1,fe_thres=3"},
    /* the longest raw form, whole: 127 characters hold it */
    {"event=1,umask=1,cmask=1,inv,edge,eq,u,k,ldlat=3,offcore_rsp=999", NULL, 0, 0, NULL,
     "event=0x1,umask=0x1,cmask=1,inv,edge,eq,u,k,ldlat=3,offcore_rsp=0x3e7"},
    /* a perfmon name of 95 characters, the longest (cascadelakex_core.json) */
    {"OFFCORE_RESPONSE:request=DEMAND_DATA_RD:response=L3_MISS_REMOTE_HOP1_DRAM.HIT_OTHER_CORE_NO_FWD:u",
     "CLX/", 0, 0,
     "OFFCORE_RESPONSE:request=DEMAND_DATA_RD:response=L3_MISS_REMOTE_HOP1_DRAM.HIT_OTHER_CORE_NO_FWD",
     "OFFCORE_RESPONSE:request=DEMAND_DATA_RD:response=L3_MISS_REMOTE_HOP1_DRAM.HIT_OTHER_CORE_NO_FWD:u"},
    /* empty items: 63 and 64 (PMU_EVENT_ITEMS) read, 65 refused, none written past it */
    {"a::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::", NULL, -1, 0,
     "no perfmon file (data/perfmon) has an EventName", NULL},
    {"a:::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::", NULL, -1, 0,
     "no perfmon file (data/perfmon) has an EventName", NULL},
    {"a::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::::", NULL, -1, 0,
     "more than 64 items separated by ':'", NULL},
    {"event=0x1cd", NULL, -1, 0, "'event=0x1cd' out of range (accepted: 0..0xff)", NULL},
    {"event=0x0,umask=0x9", NULL, -1, 0, "encodes as event 0x00 umask 0x09", NULL},
    {"", NULL, -1, 0, "empty event", NULL},
};

/* What follows "event '...': ", the reason, alike whatever names the event. */
static const char *reason(const char *why)
{
	const char *r = strstr(why, "': ");

	return r ? r + 3 : why;
}

/*
 * A display name read again is the same event with the same name: a form
 * of the typed values, whole where not cut with "...".
 */
static void name_reads_back(const struct perfmon_table *t, const struct pmu_event *ev)
{
	struct pmu_event_spec s;
	struct pmu_event again;
	char why[300];

	if (pmu_event_read(ev->name, &s, why, sizeof(why)) ||
	    pmu_event_resolve(t, &s, &again, why, sizeof(why)))
		fail_msg("'%s' read again: %s", ev->name, why);
	assert_string_equal(again.name, ev->name);
	assert_true(again.evtsel == ev->evtsel && again.usr == ev->usr && again.os == ev->os &&
		    again.ldlat == ev->ldlat && again.offcore_rsp == ev->offcore_rsp &&
		    again.frontend == ev->frontend);
}

static void test_read_once_resolve_per_cpu(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(read_cases); i++) {
		const struct read_case *c = &read_cases[i];
		const struct perfmon_table *t = c->table ? table(c->table) : NULL;
		struct pmu_event_spec s;
		struct pmu_event ev, once;
		char why[300] = "", why2[300] = "";
		int r = pmu_event_read(c->text, &s, why, sizeof(why));

		if (r != c->read)
			fail_msg("'%s': read %d, want %d: %s", c->text, r, c->read, why);
		if (r) {
			if (!strstr(why, c->want))
				fail_msg("'%s': '%s' lacks '%s'", c->text, why, c->want);
			continue;
		}
		r = pmu_event_resolve(t, &s, &ev, why, sizeof(why));
		if (r != c->resolve || (r && !strstr(why, c->want)) ||
		    (!r && c->want && (!ev.pm_name || strcmp(ev.pm_name, c->want))))
			fail_msg("'%s' on %s: %d '%s' (%s), want %d '%s'", c->text,
				 c->table ? c->table : "none", r, why, r ? "" : ev.pm_name,
				 c->resolve, c->want);
		if (!r && strcmp(ev.name, c->name))
			fail_msg("'%s': name '%s', want '%s'", c->text, ev.name, c->name);
		if (!r && !strstr(ev.name, "..."))
			name_reads_back(t, &ev);
		/* both steps at once give the same event, or the same reason */
		assert_int_equal(pmu_event_parse(t, c->text, &once, why2, sizeof(why2)), r);
		if (r)
			assert_string_equal(reason(why), reason(why2));
		else
			assert_true(ev.evtsel == once.evtsel && ev.usr == once.usr &&
				    ev.os == once.os && !strcmp(ev.name, once.name));
	}
}

/*
 * An entry keeps no text: two spellings of one event (any case, a
 * modifier's other name, a number in hex or decimal) read into the same
 * bytes.
 */
static const char *const same_entry[][2] = {
    {"INST_RETIRED.ANY_P:u:edge", "inst_retired.any_p:u:e"},
    {"MEM_INST_RETIRED.ALL_LOADS:cmask=0x2:inv", "mem_inst_retired.all_loads:c=2:i"},
    {"OFFCORE_RESPONSE:request=ALL_DATA_RD:response=ANY_RESPONSE:k",
     "offcore_response:request=all_data_rd:response=any_response:k"},
    {"event=0xcd,umask=0x1,ldlat=40,edge", "event=205,umask=1,ldlat=0x28,e"},
};

static void test_entry_keeps_no_text(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(same_entry); i++) {
		struct pmu_event_spec a, b;
		char why[300];

		memset(&a, 0xa5, sizeof(a));
		memset(&b, 0x5a, sizeof(b));
		if (pmu_event_read(same_entry[i][0], &a, why, sizeof(why)) ||
		    pmu_event_read(same_entry[i][1], &b, why, sizeof(why)))
			fail_msg("'%s': %s", same_entry[i][0], why);
		if (memcmp(&a, &b, sizeof(a)))
			fail_msg("'%s' and '%s' read into different bytes", same_entry[i][0],
				 same_entry[i][1]);
	}
}

/*
 * PMU_EVENT_NAMES holds every name an entry may end at: no EventName has
 * more ':'-prefixes that are EventNames of some file (itself included).
 */
static void test_names_an_entry_may_end_at(void **state)
{
	unsigned int most = 0;

	for (unsigned int t = 0; t < perfmon_n_tables(); t++) {
		const struct perfmon_table *pt = perfmon_table_at(t);

		for (unsigned int e = 0; e < perfmon_n_events(pt); e++) {
			const char *name = perfmon_event_name(perfmon_event_at(pt, e));
			unsigned int n = 1;

			if (!strchr(name, ':'))
				continue;
			for (size_t i = 0; name[i]; i++)
				n += name[i] == ':' && perfmon_name_id(NULL, name, i);
			most = n > most ? n : most;
		}
	}
	assert_true(most >= 2); /* CLX OFFCORE_RESPONSE:..., beside OFFCORE_RESPONSE */
	assert_true(most <= PMU_EVENT_NAMES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_name_round_trips),
	    cmocka_unit_test(test_known_encodings),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_read_once_resolve_per_cpu),
	    cmocka_unit_test(test_entry_keeps_no_text),
	    cmocka_unit_test(test_names_an_entry_may_end_at),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
