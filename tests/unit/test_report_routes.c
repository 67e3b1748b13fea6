// SPDX-License-Identifier: MIT
/*
 * test_report_routes.c - where each kind of line goes (lib/report.h
 * report_init_routes): the console, the log file, or both, with verbose=
 * off and on and without routes; and which lines carry " [sim]".  Each
 * case prints one kind of line and names the lines each place must get.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lib/report.h"

enum place { MAIN, CONSOLE, LOG, N_PLACES };

static char got[N_PLACES][4][REPORT_LINE_MAX];
static unsigned int n_got[N_PLACES];

static void put(enum place p, const char *line)
{
	if (n_got[p] < 4)
		snprintf(got[p][n_got[p]], sizeof(got[0][0]), "%s", line);
	n_got[p]++;
}

static void main_sink(const char *line, void *ctx)
{
	(void)ctx;
	put(MAIN, line);
}

static void console_sink(const char *line, void *ctx)
{
	(void)ctx;
	put(CONSOLE, line);
}

static void log_sink(const char *line, void *ctx)
{
	(void)ctx;
	put(LOG, line);
}

enum what { VERDICT, DETAIL, INFO, BANNER, SUMMARY };

// clang-format off
static const struct {
	const char *name;
	bool routes, verbose, sim;
	enum what what;
	const char *main, *console, *log; /* NULL: nothing there */
} cases[] = {
    {"verdict-routed", true, false, true, VERDICT,
     NULL, "PASS: k/load: short [sim]", "PASS: k/load: short; long tail [sim]"},
    {"verdict-verbose", true, true, true, VERDICT,
     "PASS: k/load: short; long tail [sim]", NULL, NULL},
    {"verdict-no-routes", false, false, false, VERDICT,
     "PASS: k/load: short; long tail", NULL, NULL},
    {"detail-routed", true, false, true, DETAIL,
     NULL, NULL, "INFO: records drained 187"},
    {"detail-verbose", true, true, true, DETAIL,
     "INFO: records drained 187", NULL, NULL},
    {"detail-no-routes", false, false, true, DETAIL,
     "INFO: records drained 187", NULL, NULL},
    {"info-unmarked", true, false, true, INFO,
     "INFO: cpu: brand", NULL, NULL},
    {"banner-marked", true, false, true, BANNER,
     "INFO: pebsprobe v1 [sim]", NULL, NULL},
    {"banner-real", true, false, false, BANNER,
     "INFO: pebsprobe v1", NULL, NULL},
    {"summary-marked", true, false, true, SUMMARY,
     "SUMMARY: 0 tests, 0 failures, 0 skipped [sim]", NULL, NULL},
};
// clang-format on

static void check_place(const char *name, enum place p, const char *want)
{
	static const char *const place_names[] = {"sink", "console", "log"};

	if (!want && n_got[p]) {
		print_error("%s: %s got '%s', want nothing\n", name, place_names[p], got[p][0]);
		fail();
	}
	if (want && (n_got[p] != 1 || strcmp(got[p][0], want))) {
		print_error("%s: %s got %u lines ('%s'), want '%s'\n", name, place_names[p],
			    n_got[p], n_got[p] ? got[p][0] : "", want);
		fail();
	}
}

static void routes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct report_entry *e;

		report_reset();
		report_init(main_sink, NULL);
		report_init_routes(cases[i].routes ? console_sink : NULL,
				   cases[i].routes ? log_sink : NULL, NULL);
		report_set_verbose(cases[i].verbose);
		report_set_simulated(cases[i].sim);
		memset(n_got, 0, sizeof(n_got));
		switch (cases[i].what) {
		case VERDICT:
			report_verdict(REPORT_PASS, "k/load", "short", "short; %s", "long tail");
			/* results.json's verdicts keep the whole reason, wherever the line went. */
			e = report_log_at(0);
			assert_non_null(e);
			assert_string_equal(e->name, "k/load");
			assert_string_equal(e->why, "short; long tail");
			break;
		case DETAIL:
			report_detail("records drained %u", 187);
			break;
		case INFO:
			report_info("cpu: brand");
			break;
		case BANNER:
			report_banner("pebsprobe %s", "v1");
			break;
		case SUMMARY:
			report_summary();
			break;
		}
		check_place(cases[i].name, MAIN, cases[i].main);
		check_place(cases[i].name, CONSOLE, cases[i].console);
		check_place(cases[i].name, LOG, cases[i].log);
	}
	report_init_routes(NULL, NULL, NULL);
	report_set_verbose(false);
	report_set_simulated(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(routes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
