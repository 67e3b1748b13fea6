// SPDX-License-Identifier: MIT
/*
 * test_app_options_lists.c - the list options read once into typed values
 * (app/options_cpus.c, options_sim.c, options_handoff.c): Linux's cpu
 * lists with strides (Documentation/admin-guide/kernel-parameters.rst,
 * "cpu lists"), a reversed range named so, lists as long as a line, a
 * sim-fault= or sim-handoff= item per CPU of 288; a did-you-mean for a
 * misspelled option or model; events= entries read once (pmu/event.h); the
 * one K/M/G size parser (lib/fmt.h).
 * One table of {line, CPUs, where it is refused, the text, what it chose}.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "app/options.h"
#include "lib/cpuset.h"
#include "lib/fmt.h"
#include "lib/report.h"

/* Lines too long to write in a row: made by gen_line. */
enum gen {
	GEN_NONE,
	GEN_EVEN_CPUS,	  /* cpus=0,2,4,...,286: 144 items, 515 characters */
	GEN_EVERY_CPU,	  /* cpus=0,1,2,...,287: 288 items, 1,077 characters */
	GEN_FAULT_EACH,	  /* sim-fault=cpu1:skid,...,cpu287:skid: 287 items */
	GEN_HANDOFF_EACH, /* sim-handoff=cpu0:counter,...,cpu287:counter: 288 items */
};

enum where { OK, AT_PARSE, AT_CHECK };

static const struct row {
	const char *line;
	enum gen gen;
	unsigned int ncpus;
	enum where refused;
	const char *text; /* in the ERROR line when refused */
	int chosen;	  /* CPUs cpus= chose, or list items read; -1: not counted */
	unsigned int first, last;
} rows[] = {
    {"cpus=all", GEN_NONE, 4, OK, NULL, 4, 0, 3},
    {"cpus=boot", GEN_NONE, 4, OK, NULL, 1, 0, 0},
    {"cpus=0,2-3", GEN_NONE, 4, OK, NULL, 3, 0, 3},
    {"cpus=4", GEN_NONE, 4, AT_CHECK, "CPU 4 does not exist: this machine has 4 CPUs, 0-3", -1, 0,
     0},
    {"cpus=1", GEN_NONE, 1, AT_CHECK, "this machine has 1 CPU, CPU 0 (accepted: all, boot or 0)",
     -1, 0, 0},
    {"cpus=1,", GEN_NONE, 4, AT_PARSE, "option cpus: bad value '1,': an empty item at the end", -1,
     0, 0},
    {"cpus=x", GEN_NONE, 4, AT_PARSE, "option cpus: bad value 'x': 'x' is not N, A-B or A-B:U/G",
     -1, 0, 0},
    {"cpus=99999999", GEN_NONE, 1024, AT_PARSE, "with CPU numbers 0..8191", -1, 0, 0},
    /* A reversed range is named so (it read "CPU 1-0 does not exist"). */
    {"cpus=1-0", GEN_NONE, 2, AT_PARSE, "'1-0' is a reversed range (A-B needs A <= B)", -1, 0, 0},
    {"cpus=0,3-1", GEN_NONE, 4, AT_PARSE, "'3-1' is a reversed range", -1, 0, 0},
    /* Past 64: every CPU that exists. */
    {"cpus=all", GEN_NONE, 72, OK, NULL, 72, 0, 71},
    {"cpus=64-71", GEN_NONE, 72, OK, NULL, 8, 64, 71},
    {"cpus=72", GEN_NONE, 72, AT_CHECK, "CPU 72 does not exist: this machine has 72 CPUs, 0-71", -1,
     0, 0},
    {"cpus=0,575", GEN_NONE, 576, OK, NULL, 2, 0, 575},
    {"cpus=1000-1023", GEN_NONE, 1024, OK, NULL, 24, 1000, 1023},
    /* Strides, A-B:U/G: one thread per core of 288; Linux's own example. */
    {"cpus=0-287:1/2", GEN_NONE, 288, OK, NULL, 144, 0, 286},
    {"cpus=1-287:1/2", GEN_NONE, 288, OK, NULL, 144, 1, 287},
    {"cpus=100-2000:2/25", GEN_NONE, 2048, OK, NULL, 153, 100, 2000},
    {"cpus=0-7:4/4", GEN_NONE, 8, OK, NULL, 8, 0, 7},
    {"cpus=0-300:1/2", GEN_NONE, 288, AT_CHECK, "CPU 288 does not exist", -1, 0, 0},
    {"cpus=0-7:3/2", GEN_NONE, 8, AT_PARSE, "'0-7:3/2': A-B:U/G needs a group G of 1 or more", -1,
     0, 0},
    {"cpus=0-7:1/0", GEN_NONE, 8, AT_PARSE, "'0-7:1/0': A-B:U/G needs a group G", -1, 0, 0},
    {"cpus=0-7:1", GEN_NONE, 8, AT_PARSE, "'0-7:1' is not N, A-B or A-B:U/G", -1, 0, 0},
    {"cpus=0-7:0/2", GEN_NONE, 8, AT_CHECK, "option cpus: the list chooses no CPU", -1, 0, 0},
    /* Lists as long as a line allows (cpus= stopped at 127 characters). */
    {NULL, GEN_EVEN_CPUS, 288, OK, NULL, 144, 0, 286},
    {NULL, GEN_EVERY_CPU, 288, OK, NULL, 288, 0, 287},
    /* An item per CPU (sim-fault= stopped at 63 characters, sim-handoff= at 32 items). */
    {NULL, GEN_FAULT_EACH, 288, OK, NULL, 287, 1, 287},
    {NULL, GEN_HANDOFF_EACH, 288, OK, NULL, 288, 0, 287},
    {"sim-fault=cpu1:latency-bias=-90,cpu2:skid", GEN_NONE, 4, OK, NULL, 2, 1, 2},
    {"sim-fault=cpu1:latency-bias=901", GEN_NONE, 4, AT_PARSE, "latency-bias needs =N, N -90..900",
     -1, 0, 0},
    {"sim-fault=cpu1:latency-bias", GEN_NONE, 4, AT_PARSE, "latency-bias needs =N", -1, 0, 0},
    {"sim-fault=cpu1:skid=5", GEN_NONE, 4, AT_PARSE, "'cpu1:skid=5': skid takes no =N", -1, 0, 0},
    {"sim-fault=cpu1:bogus", GEN_NONE, 4, AT_PARSE, "no such KIND 'bogus'", -1, 0, 0},
    {"sim-fault=cpu:skid", GEN_NONE, 4, AT_PARSE, "'cpu:skid' is not cpuN:KIND", -1, 0, 0},
    {"sim-fault=cpu4:skid", GEN_NONE, 4, AT_CHECK, "cpu4 does not exist", -1, 0, 0},
    {"sim-fault=cpu0:hang", GEN_NONE, 4, AT_CHECK, "cpu0:hang would stop the boot CPU", -1, 0, 0},
    {"sim-handoff=cpu1:smi3,cpu2:bts", GEN_NONE, 4, OK, NULL, 2, 1, 2},
    {"sim-handoff=cpu9:bts", GEN_NONE, 4, AT_CHECK, "cpu9 does not exist", -1, 0, 0},
    /* One walk over the items (app/options_items.c): an empty one is refused in each list. */
    {"sim-fault=cpu1:skid,", GEN_NONE, 4, AT_PARSE, "'' is not cpuN:KIND", -1, 0, 0},
    {"sim-fault=cpu1:skid,,cpu2:skid", GEN_NONE, 4, AT_PARSE, "'' is not cpuN:KIND", -1, 0, 0},
    {"sim-handoff=cpu1:bts,", GEN_NONE, 4, AT_PARSE, "'' is not cpuN:KIND", -1, 0, 0},
    {"sim-platform=cet,", GEN_NONE, 4, AT_PARSE, "item '' is not one accepted", -1, 0, 0},
    {"sim-platform=cet,cpu1:disabled", GEN_NONE, 4, OK, NULL, -1, 0, 0},
    /* Did you mean: one ERROR line, the nearest name (nothing said before). */
    {"kernal=all", GEN_NONE, 4, AT_PARSE,
     "unknown option 'kernal', did you mean kernels? (accepted", -1, 0, 0},
    {"cpu=0", GEN_NONE, 4, AT_PARSE, "unknown option 'cpu', did you mean cpus? (accepted", -1, 0,
     0},
    {"sim-falt=cpu1:skid", GEN_NONE, 4, AT_PARSE, "did you mean sim-fault? (accepted", -1, 0, 0},
    {"foo=1", GEN_NONE, 4, AT_PARSE, "unknown option 'foo' (accepted: pmu, model", -1, 0, 0},
    {"model=skk", GEN_NONE, 4, AT_CHECK, "unknown simulator model 'skk', did you mean skl? ", -1, 0,
     0},
    {"model=zen4", GEN_NONE, 4, AT_CHECK, "unknown simulator model 'zen4' (accepted: ", -1, 0, 0},
    {"kernels=chase-l7", GEN_NONE, 4, AT_PARSE, "unknown kernel 'chase-l7' (accepted: all, none",
     -1, 0, 0},
    /*
     * events=: each entry read once (pmu_event_read) into typed values; a
     * raw encoding is checked whole here, a name against every perfmon
     * file (no file has BOGUS), then against each CPU's own file (SKL
     * lacks MEM_TRANS_RETIRED.STORE_SAMPLE, ICL on have it).
     */
    {"events=event=0xcd,umask=0x1;MEM_INST_RETIRED.ALL_LOADS:u", GEN_NONE, 4, OK, NULL, 2, 0, 0},
    {"events=;MEM_TRANS_RETIRED.STORE_SAMPLE;", GEN_NONE, 4, OK, NULL, 1, 0, 0},
    {"events=;BOGUS;", GEN_NONE, 4, AT_PARSE,
     "option events: event 'BOGUS': no perfmon file (data/perfmon) has an EventName it begins "
     "with (accepted: a perfmon EventName in any case",
     -1, 0, 0},
    {"events=INST_RETIRED.ANY_P:u:frob", GEN_NONE, 4, AT_PARSE,
     "'frob' is no modifier of INST_RETIRED.ANY_P (accepted: u, k, e, i, eq, c=N, ldlat=N, "
     "fe_thres=N)",
     -1, 0, 0},
    {"events=event=0x1cd", GEN_NONE, 4, AT_PARSE,
     "option events: event 'event=0x1cd': 'event=0x1cd' out of range (accepted: 0..0xff)", -1, 0,
     0},
    {"events=event=0x0,umask=0x9", GEN_NONE, 4, AT_PARSE, "encodes as event 0x00 umask 0x09", -1, 0,
     0},
    {"events=event=0xcd,frob=1", GEN_NONE, 4, AT_PARSE, "unknown field 'frob=1'", -1, 0, 0},
};

static char line[OPT_LINE_MAX + 1];

static const char *gen_line(const struct row *r)
{
	struct strbuf sb;

	strbuf_init(&sb, line, sizeof(line));
	switch (r->gen) {
	case GEN_NONE:
		return r->line;
	case GEN_EVEN_CPUS:
	case GEN_EVERY_CPU:
		strbuf_puts(&sb, "cpus=");
		for (unsigned int c = 0; c < 288; c += r->gen == GEN_EVEN_CPUS ? 2 : 1)
			strbuf_printf(&sb, "%s%u", c ? "," : "", c);
		break;
	case GEN_FAULT_EACH:
		strbuf_puts(&sb, "sim-fault=");
		for (unsigned int c = 1; c < 288; c++)
			strbuf_printf(&sb, "%scpu%u:skid", c > 1 ? "," : "", c);
		break;
	case GEN_HANDOFF_EACH:
		strbuf_puts(&sb, "sim-handoff=");
		for (unsigned int c = 0; c < 288; c++)
			strbuf_printf(&sb, "%scpu%u:counter", c ? "," : "", c);
		break;
	}
	return line;
}

/* What the line chose: cpus= CPUs, or sim-fault= / sim-handoff= items, their first and last. */
static int chosen(const struct options *o, const char *text, unsigned int ncpus,
		  unsigned int *first, unsigned int *last)
{
	struct cpuset *set;
	int n;

	if (!strncmp(text, "sim-fault=", 10)) {
		*first = o->faults.item[0].cpu;
		*last = o->faults.item[o->faults.n - 1].cpu;
		return (int)o->faults.n;
	}
	if (!strncmp(text, "events=", 7)) {
		*first = *last = 0;
		return (int)o->job.events.n;
	}
	if (!strncmp(text, "sim-handoff=", 12)) {
		*first = o->handoff_items.item[0].cpu;
		*last = o->handoff_items.item[o->handoff_items.n - 1].cpu;
		return (int)o->handoff_items.n;
	}
	set = cpuset_alloc(ncpus);
	assert_non_null(set);
	n = (int)job_cpus_set(&o->job.cpus, ncpus, set);
	*first = ~0u;
	*last = 0;
	for (unsigned int c = 0; c < ncpus; c++) {
		if (!cpuset_has(set, c))
			continue;
		*first = *first < c ? *first : c;
		*last = c;
	}
	cpuset_free(set);
	return n;
}

static void test_rows(void **state)
{
	static struct options o;
	char err[REPORT_LINE_MAX], cpus[16];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		const char *text = gen_line(r);
		enum where got = OK;
		unsigned int first = 0, last = 0;
		int n = -1;

		snprintf(cpus, sizeof(cpus), "%u", r->ncpus);
		setenv("PEBSPROBE_HOST_CPUS", cpus, 1);
		err[0] = 0;
		options_defaults(&o);
		o.pmu = OPT_PMU_SIM;
		if (options_parse_line(&o, text, false, err, sizeof(err)))
			got = AT_PARSE;
		else if (options_check(&o, err, sizeof(err)))
			got = AT_CHECK;
		if (got == OK && r->chosen >= 0)
			n = chosen(&o, text, r->ncpus, &first, &last);
		if (got != r->refused || (r->text && !strstr(err, r->text)) ||
		    (got == OK && (n != r->chosen || first != r->first || last != r->last)))
			fail_msg("row %zu '%.60s' on %u CPUs: refused %d (want %d), chose %d %u-%u "
				 "(want %d %u-%u), '%s'",
				 i, text, r->ncpus, got, r->refused, n, first, last, r->chosen,
				 r->first, r->last, err);
		if (strlen(err) + sizeof("ERROR: ") > REPORT_LINE_MAX)
			fail_msg("row %zu: the ERROR line is past a report line: '%s'", i, err);
	}
}

/* The one size parser: the app's size= and pebs-kernels' --size. */
static void test_size_parser(void **state)
{
	static const struct {
		const char *text;
		bool suffix;
		enum pp_num want;
		uint64_t value;
	} cases[] = {
	    {"64M", true, PP_NUM_OK, 64ULL << 20},
	    {"1k", true, PP_NUM_OK, 1024},
	    {"2G", true, PP_NUM_OK, 2ULL << 30},
	    {"0x100", true, PP_NUM_OK, 256},
	    {"4096", false, PP_NUM_OK, 4096},
	    {"4K", false, PP_NUM_BAD, 0},
	    {"3X", true, PP_NUM_BAD, 0},
	    {"4T", true, PP_NUM_BAD, 0},
	    {"KB", true, PP_NUM_BAD, 0},
	    {"1KB", true, PP_NUM_BAD, 0},
	    {"", true, PP_NUM_BAD, 0},
	    {"99999999999999999999", true, PP_NUM_RANGE, 0},
	    {"17179869184G", true, PP_NUM_RANGE, 0},
	    {"17179869183G", true, PP_NUM_OK, 17179869183ULL << 30},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v = 0;
		enum pp_num e = pp_parse_num(cases[i].text, cases[i].suffix, &v);

		if (e != cases[i].want || (e == PP_NUM_OK && v != cases[i].value))
			fail_msg("'%s': %d %llu, want %d %llu", cases[i].text, e,
				 (unsigned long long)v, cases[i].want,
				 (unsigned long long)cases[i].value);
	}
}

static void test_edit_distance(void **state)
{
	static const struct {
		const char *a, *b;
		unsigned int d;
	} cases[] = {
	    {"kernal", "kernels", 2}, {"skk", "skl", 1}, {"cpu", "cpus", 1},
	    {"foo", "log", 2},	      {"", "abc", 3},	 {"same", "same", 0},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(pp_edit_distance(cases[i].a, strlen(cases[i].a), cases[i].b,
						  strlen(cases[i].b)),
				 cases[i].d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_size_parser),
	    cmocka_unit_test(test_edit_distance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
