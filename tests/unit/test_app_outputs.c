// SPDX-License-Identifier: MIT
/*
 * test_app_outputs.c - every run leaves only its own files: what an
 * earlier run left (dumps, results.json, the log, their temporaries) is
 * deleted before this run writes anything, and only when its first bytes
 * are pebsprobe's; a results= or log= name that a file pebsprobe did not
 * write already has is refused (exit 2), never replaced.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/app.h"
#include "test_util.h"

static char outdir[] = "/tmp/pebsprobe-outputs-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static bool there(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	return !access(path, F_OK);
}

static void earlier_run_cleared(void **state)
{
	struct options o;

	put("chase-l1-load.pebs", "PEBSDUMP\x02...");
	put("chase-l1-load.pebs.tmp", "PEBSDUMP\x02.");
	put("false-share-event3.pebs", "PEBSDUMP\x02...");
	put("results.json", "{\"results_version\":2,\"exit_status\":0}\n");
	put("pebsprobe.log", "INFO: pebsprobe v1\nSUMMARY: 1 tests, 0 failures, 0 skipped\n");
	put("old.json", "{\"results_version\":1}\n");
	/* Not pebsprobe's: a dump name with other bytes, a user's notes, a copy of a log. */
	put("chase-l2-load.pebs", "my own notes");
	put("NOTES.TXT", "INFO: pebsprobe v0 saved by hand\n");
	options_defaults(&o);
	strcpy(o.log, "none");
	strcpy(o.job.results, "old.json");
	assert_int_equal(app_clear_previous(&o), 6);
	assert_false(there("chase-l1-load.pebs"));
	assert_false(there("chase-l1-load.pebs.tmp"));
	assert_false(there("false-share-event3.pebs"));
	assert_false(there("results.json"));
	assert_false(there("pebsprobe.log"));
	assert_false(there("old.json"));
	assert_true(there("chase-l2-load.pebs"));
	assert_true(there("NOTES.TXT"));
	assert_int_equal(app_clear_previous(&o), 0);
}

/*
 * The dumps are found by listing the folder once: every name the job can
 * write for any CPU number (1..999999: no machine's cap), whatever this
 * machine's count (here 2: a stick moved from a machine with more CPUs,
 * CPU 64 or 575 too), spelt in any case as FAT matches names; nothing else
 * - CPU 1000000, "cpu05", a folder, a file with another first line - is
 * touched.  "chase-l1-load-cpu5.pebs" goes too, though this machine has no
 * CPU 5.
 */
static void dumps_of_any_cpu_cleared(void **state)
{
	static const char *const gone[] = {
	    "chase-l1-load-cpu1.pebs",	      "chase-l1-load-cpu5.pebs", "chase-l1-load-cpu63.pebs",
	    "seq-load-event8-cpu12.pebs.tmp", "CHASE-L1-STORE.PEBS",	 "chase-l1-load-cpu64.pebs",
	    "chase-l1-load-cpu575.pebs",
	};
	static const char *const kept[] = {
	    "chase-l1-load-cpu1000000.pebs", "chase-l1-load-cpu05.pebs", "chase-l1-load-cpu.pebs",
	    "chase-l1-bogus.pebs",	     "chase-l1-load.pebs.bak",
	};
	struct options o;
	char path[256];

	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		put(gone[i], "PEBSDUMP\x02...");
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		put(kept[i], "PEBSDUMP\x02...");
	put("chase-l2-load-cpu7.pebs", "my own notes");
	snprintf(path, sizeof(path), "%s/chase-l2-store.pebs", outdir);
	assert_int_equal(mkdir(path, 0700), 0);
	options_defaults(&o);
	strcpy(o.log, "none");
	assert_int_equal(app_clear_previous(&o), sizeof(gone) / sizeof(gone[0]));
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (there(gone[i]))
			fail_msg("%s: still there", gone[i]);
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		assert_true(there(kept[i]));
	assert_true(there("chase-l2-load-cpu7.pebs"));
	assert_true(there("chase-l2-store.pebs"));
	unsetenv("PEBSPROBE_HOST_CPUS");
}

static void not_ours_refused(void **state)
{
	struct options o;
	char err[256];

	put("NOTES.TXT", "my notes");
	options_defaults(&o);
	strcpy(o.job.results, "NOTES.TXT");
	assert_int_equal(app_check_outputs(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "option results: a file 'NOTES.TXT' is there that pebsprobe did "
				 "not write; it is not replaced (accepted: a name no file has, or "
				 "one of pebsprobe's earlier results files)");
	options_defaults(&o);
	strcpy(o.log, "NOTES.TXT");
	assert_int_equal(app_check_outputs(&o, err, sizeof(err)), -1);
	/* Its own earlier files and new names are fine. */
	put("run.json", "{\"results_version\":2}");
	options_defaults(&o);
	strcpy(o.job.results, "run.json");
	strcpy(o.log, "new.log");
	assert_int_equal(app_check_outputs(&o, err, sizeof(err)), 0);
	assert_true(there("NOTES.TXT"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(earlier_run_cleared),
	    cmocka_unit_test(dumps_of_any_cpu_cleared),
	    cmocka_unit_test(not_ours_refused),
	};

	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
