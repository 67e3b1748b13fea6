// SPDX-License-Identifier: MIT
/*
 * test_pmu_errata.c - the errata table (pmu/errata.c) as tables of cases:
 * each row has a CPU it applies to and one it does not (a row taken away
 * fails its applying case); a PEBS-off row makes pmu_pebs_usable() refuse,
 * naming the row; and on the simulator, sim-ucode= and sim-stepping= make
 * model=snb's rows apply (exit 77, the SKIP names the row) or not (exit 0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "app/app.h"
#include "lib/report.h"
#include "pmu/cpu_pebs.h"
#include "pmu/errata.h"
#include "pmu/hw.h"
#include "test_util.h"

struct row_case {
	const char *row; /* the row's id */
	uint32_t family, model, stepping, microcode;
	int fmt; /* PERF_CAPABILITIES[11:8] */
	bool applies;
};

/* clang-format off */
static const struct row_case row_cases[] = {
	/* intel_clovertown_quirk: Merom 06_0F only, whatever the microcode. */
	{"core2-merom",      6, 0x0f, 6, 0xffff, 0, true},
	{"core2-merom",      6, 0x17, 6, 0xffff, 0, false},	/* Penryn keeps PEBS */
	/* pebs_ucodes: 06_2A stepping 7 from 0x28. */
	{"snb-ucode",        6, 0x2a, 7, 0x27,   1, true},
	{"snb-ucode",        6, 0x2a, 7, 0x28,   1, false},
	/* 06_2A: a stepping with no row (x86_match_min_microcode_rev finds none). */
	{"snb-stepping",     6, 0x2a, 6, 0xffff, 1, true},
	{"snb-stepping",     6, 0x2a, 7, 0x27,   1, false},
	{"snbep-c1-ucode",   6, 0x2d, 6, 0x617,  1, true},
	{"snbep-c1-ucode",   6, 0x2d, 6, 0x618,  1, false},
	{"snbep-c2-ucode",   6, 0x2d, 7, 0x70b,  1, true},
	{"snbep-c2-ucode",   6, 0x2d, 7, 0x70c,  1, false},
	{"snbep-stepping",   6, 0x2d, 5, 0xffff, 1, true},
	{"snbep-stepping",   6, 0x2d, 6, 0x618,  1, false},
	/* intel_pmu_drain_pebs_nhm: the status rules below format 3. */
	{"pebs-status-zero", 6, 0x1a, 5, 0x20,   1, true},
	{"pebs-status-zero", 6, 0x5e, 3, 0xf0,   3, false},
	{"pebs-collision",   6, 0x3c, 3, 0x28,   2, true},
	{"pebs-collision",   6, 0x5e, 3, 0xf0,   3, false},
	{"pebs-collision",   6, 0x17, 6, 0xa0b,  0, false},	/* fmt0: no status field */
};
/* clang-format on */

static const struct errata_row *row_named(const char *id)
{
	for (unsigned int i = 0; i < errata_count(); i++)
		if (!strcmp(errata_at(i)->id, id))
			return errata_at(i);
	return NULL;
}

static struct cpu_info case_cpu(const struct row_case *c)
{
	struct cpu_info ci = test_cpu_intel(c->model, (unsigned int)c->fmt, false, 4, 3);

	ci.family = c->family;
	ci.stepping = c->stepping;
	ci.microcode = c->microcode;
	return ci;
}

/* Each case: the row applies or not, errata_mask() agrees, a PEBS-off row refuses PEBS. */
static void test_rows(void **state)
{
	unsigned int failed = 0;

	for (size_t i = 0; i < ARRAY_SIZE(row_cases); i++) {
		const struct row_case *c = &row_cases[i];
		const struct errata_row *r = row_named(c->row);
		struct cpu_info ci = case_cpu(c);
		char why[256] = "";
		bool got, in_mask, usable;

		if (!r) {
			print_error("case %zu: no row '%s' in the errata table\n", i, c->row);
			failed++;
			continue;
		}
		got = errata_applies(r, &ci);
		in_mask = errata_mask(&ci) & (1u << (r - errata_at(0)));
		usable = pmu_pebs_usable(&ci, why, sizeof(why));
		if (got != c->applies || in_mask != c->applies) {
			print_error("case %zu: %s on 06_%02X stepping %u ucode 0x%x fmt %d: "
				    "applies %d, mask %d, expected %d\n",
				    i, c->row, c->model, c->stepping, c->microcode, c->fmt, got,
				    in_mask, c->applies);
			failed++;
		}
		if (r->effect == ERRATA_PEBS_OFF && c->applies &&
		    (usable || !strstr(why, c->row))) {
			print_error("case %zu: PEBS %s; reason \"%s\" should name %s\n", i,
				    usable ? "usable" : "refused", why, c->row);
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

/* Every row names what it takes away and its source; ids are unique; one bit each. */
static void test_rows_named(void **state)
{
	assert_true(errata_count() <= 32);
	for (unsigned int i = 0; i < errata_count(); i++) {
		const struct errata_row *r = errata_at(i);

		assert_non_null(r->what);
		assert_non_null(r->source);
		assert_ptr_equal(row_named(r->id), r);
		/* a row with no case here could change unseen */
		bool has_case = false;
		for (size_t k = 0; k < ARRAY_SIZE(row_cases); k++)
			has_case |= !strcmp(row_cases[k].row, r->id);
		if (!has_case)
			print_error("row %s has no case\n", r->id);
		assert_true(has_case);
	}
}

/*
 * The app on the simulator: options as one line, the exit status and a line
 * that must be there.  At the model's own microcode (0x2f) and at 0x28
 * model=snb runs as it did.
 */
struct app_case {
	const char *opts;
	int status;
	const char *prefix, *text; /* a line starting with prefix and holding text */
};

static const struct app_case app_cases[] = {
    {"pmu=sim model=snb sim-ucode=0x27 kernels=chase-l1", EXIT_ALL_SKIPPED,
     "SKIP: ", "erratum snb-ucode"},
    {"pmu=sim model=snb sim-stepping=6 kernels=chase-l1", EXIT_ALL_SKIPPED,
     "SKIP: ", "erratum snb-stepping"},
    {"pmu=sim model=snb sim-ucode=0x28 kernels=chase-l1", EXIT_PASS, "SUMMARY: ", "0 failures"},
    {"pmu=sim model=nhm kernels=chase-l1", EXIT_PASS,
     "INFO: errata: ", "pebs-status-zero, pebs-collision"},
};

static void test_app_sim_ids(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(app_cases); i++) {
		const struct app_case *c = &app_cases[i];
		struct options o;
		char err[256];
		int rc;

		test_lines_capture();
		test_lines_echo = getenv("ERRATA_VERBOSE") != NULL;
		report_reset();
		hw_install(NULL);
		options_defaults(&o);
		strcpy(o.job.results, "none");
		o.job.dump = JOB_DUMP_OFF;
		assert_int_equal(options_parse_line(&o, c->opts, false, err, sizeof(err)), 0);
		rc = app_run(&o, NULL);
		if (rc != c->status || !test_line_find(c->prefix, c->text)) {
			print_error("%s: exit %d (expected %d); %s...%s %s\n", c->opts, rc,
				    c->status, c->prefix, c->text,
				    test_line_find(c->prefix, c->text) ? "found" : "missing");
			for (unsigned int k = 0; k < test_n_lines; k++)
				print_error("  %s\n", test_lines[k]);
			fail();
		}
		report_set_simulated(false);
	}
}

/* Bad values: one line naming the option and what it accepts; pmu=hw refuses them. */
static void test_option_errors(void **state)
{
	static const struct {
		const char *opts, *err;
	} cases[] = {
	    {"sim-ucode=xyz", "option sim-ucode: bad value 'xyz': not model nor a number "
			      "0..0xffffffff (accepted: model, or a microcode revision "
			      "0..0xffffffff)"},
	    {"sim-stepping=16", "option sim-stepping: bad value '16': not model nor a number "
				"0..0xf (accepted: model, or a stepping 0..15)"},
	    {"pmu=hw sim-ucode=0x27", "option sim-ucode: sets a simulated CPU's microcode "
				      "revision, but pmu=hw (accepted with pmu=sim or pmu=auto)"},
	    {"pmu=hw sim-stepping=3", "option sim-stepping: sets a simulated CPU's stepping, "
				      "but pmu=hw (accepted with pmu=sim or pmu=auto)"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct options o;
		char err[256] = "";

		options_defaults(&o);
		if (!options_parse_line(&o, cases[i].opts, false, err, sizeof(err)))
			assert_int_equal(options_check(&o, err, sizeof(err)), -1);
		assert_string_equal(err, cases[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_rows_named),
	    cmocka_unit_test(test_option_errors),
	    cmocka_unit_test(test_app_sim_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
