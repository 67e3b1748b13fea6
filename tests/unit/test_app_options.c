// SPDX-License-Identifier: MIT
/*
 * test_app_options.c - every option, every kind of bad input, the exact error
 * line (docs/OPTIONS.md is the specification these expectations come from).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kernels/kernel.h"
#include "app/options.h"
#include "sim/sim.h"

/* The option names in docs/OPTIONS.md's order, as every "accepted" list gives them. */
#define OPTION_NAMES                                                                               \
	"pmu, model, trace, exit, kernels, events, ldlat, period, buffer, threshold, drain, "      \
	"records, size, iterations, log, results, dump, snapshot, cpus, sim-fault, cpu-timeout, "  \
	"selftest, mode, verbose, pause, acr, sim-acr, handoff, sim-handoff, sim-pages, sim-ucode, sim-stepping, sim-platform, sim-host"

static struct options o;
static char err[512];

static int parse(const char *line)
{
	err[0] = 0;
	options_defaults(&o);
	return options_parse_line(&o, line, false, err, sizeof(err));
}

static void expect_error(const char *line, const char *want)
{
	assert_int_equal(parse(line), -1);
	assert_string_equal(err, want);
}

static void test_defaults(void **state)
{
	options_defaults(&o);
	assert_int_equal(o.pmu, OPT_PMU_AUTO);
	assert_string_equal(o.model, "skl");
	assert_false(o.trace_msr);
	assert_int_equal(o.exit_mode, OPT_EXIT_SHUTDOWN);
	assert_string_equal(o.given.kernels, "all");
	assert_string_equal(o.given.events, "");
	assert_int_equal(o.job.ldlat, 3);
	assert_int_equal(o.job.period, 0);
	assert_int_equal(o.job.buffer_kib, 64);
	assert_int_equal(o.job.threshold, 0);
	assert_int_equal(o.job.drain, PEBS_DRAIN_POLL);
	/* REC lines only when asked (records=N): the dumps keep every record. */
	assert_int_equal(o.job.records, 0);
	assert_int_equal(o.pause, 60);
	assert_int_equal(o.job.size, 0);
	assert_int_equal(o.job.iterations, 0);
	assert_string_equal(o.log, "pebsprobe.log");
	assert_string_equal(o.job.results, "results.json");
	assert_true(o.job.dump);
	assert_false(o.job.snapshot);
	assert_int_equal(o.selftest, OPT_SELFTEST_NONE);
	assert_false(o.report_only);
	assert_false(o.verbose);
}

static void test_every_option(void **state)
{
	assert_int_equal(
	    parse("pmu=sim model=icx trace=msr exit=return kernels=chase,stream-store "
		  "events=MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30;event=0xcd,umask=0x1 "
		  "ldlat=65535 period=0x10000 buffer=4 threshold=12 drain=pmi "
		  "records=0 size=32K iterations=4294967295 log=run1.log results=none "
		  "dump=off snapshot=on selftest=gp mode=report verbose=1"),
	    0);
	assert_int_equal(o.pmu, OPT_PMU_SIM);
	assert_string_equal(o.model, "icx");
	assert_true(o.trace_msr);
	assert_int_equal(o.exit_mode, OPT_EXIT_RETURN);
	assert_string_equal(o.given.kernels, "chase,stream-store");
	assert_string_equal(o.given.events,
			    "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4:ldlat=30;event=0xcd,umask=0x1");
	assert_int_equal(o.job.ldlat, 65535);
	assert_int_equal(o.job.period, 65536);
	assert_int_equal(o.job.buffer_kib, 4);
	assert_int_equal(o.job.threshold, 12);
	assert_int_equal(o.job.drain, PEBS_DRAIN_PMI);
	assert_int_equal(o.job.records, 0);
	assert_int_equal(o.job.size, 32768);
	assert_int_equal(o.job.iterations, 4294967295u);
	assert_string_equal(o.log, "run1.log");
	assert_string_equal(o.job.results, "none");
	assert_false(o.job.dump);
	assert_true(o.job.snapshot);
	assert_int_equal(o.selftest, OPT_SELFTEST_GP);
	assert_true(o.report_only);
	assert_true(o.verbose);
}

static void test_other_words(void **state)
{
	assert_int_equal(parse("pmu=hw exit=reboot trace=none dump=on mode=run verbose=0 "
			       "selftest=none drain=poll kernels=none"),
			 0);
	assert_int_equal(o.pmu, OPT_PMU_HW);
	assert_int_equal(o.exit_mode, OPT_EXIT_REBOOT);
	assert_false(o.trace_msr);
	assert_int_equal(o.job.dump, JOB_DUMP_ON);
	assert_false(o.report_only);
	assert_string_equal(o.given.kernels, "none");
	assert_int_equal(parse("dump=all"), 0);
	assert_int_equal(o.job.dump, JOB_DUMP_ALL);
	assert_int_equal(parse("pmu=auto exit=shutdown model=list"), 0);
	assert_int_equal(o.pmu, OPT_PMU_AUTO);
	assert_string_equal(o.model, "list");
}

static void test_sizes(void **state)
{
	assert_int_equal(parse("size=1k"), 0);
	assert_int_equal(o.job.size, 1024);
	assert_int_equal(parse("size=3M"), 0);
	assert_int_equal(o.job.size, 3u << 20);
	assert_int_equal(parse("size=2G"), 0);
	assert_int_equal(o.job.size, 2ull << 30);
	assert_int_equal(parse("size=0x100"), 0);
	assert_int_equal(o.job.size, 256);
	assert_int_equal(parse("size=1024G"), 0); /* the maximum, 2^40 */
	assert_int_equal(o.job.size, 1ull << 40);
	expect_error("size=1025G",
		     "option size: bad value '1025G': out of range (accepted: bytes, an integer "
		     "with an optional K, M or G suffix (0 = per kernel))");
	expect_error(
	    "size=4T",
	    "option size: bad value '4T': not a number (accepted: bytes, an integer with an "
	    "optional K, M or G suffix (0 = per kernel))");
	expect_error(
	    "size=KB",
	    "option size: bad value 'KB': not a number (accepted: bytes, an integer with an "
	    "optional K, M or G suffix (0 = per kernel))");
}

static void test_ranges(void **state)
{
	expect_error("ldlat=2",
		     "option ldlat: bad value '2': out of range (accepted: an integer 3..65535)");
	expect_error(
	    "ldlat=65536",
	    "option ldlat: bad value '65536': out of range (accepted: an integer 3..65535)");
	expect_error("ldlat=-3",
		     "option ldlat: bad value '-3': out of range (accepted: an integer 3..65535)");
	expect_error("ldlat=3x",
		     "option ldlat: bad value '3x': not a number (accepted: an integer 3..65535)");
	expect_error("ldlat=",
		     "option ldlat: bad value '': not a number (accepted: an integer 3..65535)");
	assert_int_equal(parse("ldlat=0x10"), 0);
	assert_int_equal(o.job.ldlat, 16);
	expect_error(
	    "buffer=3",
	    "option buffer: bad value '3': out of range (accepted: KiB, an integer 4..65536)");
	expect_error(
	    "buffer=65537",
	    "option buffer: bad value '65537': out of range (accepted: KiB, an integer 4..65536)");
	expect_error("period=0x1000000000000",
		     "option period: bad value '0x1000000000000': out of range "
		     "(accepted: an integer 0..2^48-1 (0 = per kernel))");
	expect_error("period=99999999999999999999999",
		     "option period: bad value "
		     "'99999999999999999999999': out of range (accepted: an "
		     "integer 0..2^48-1 (0 = per kernel))");
	expect_error("iterations=4294967296",
		     "option iterations: bad value '4294967296': out of range "
		     "(accepted: an integer 0..4294967295 (0 = per kernel))");
	expect_error("threshold=1000001",
		     "option threshold: bad value '1000001': out of range (accepted: "
		     "records, an integer 0..1000000 (0 = near full))");
	expect_error(
	    "records=x",
	    "option records: bad value 'x': not a number (accepted: an integer 0..1000000)");
}

static void test_bad_words(void **state)
{
	expect_error("pmu=foo", "option pmu: bad value 'foo' (accepted: auto, hw, sim)");
	expect_error("pmu=HW", "option pmu: bad value 'HW' (accepted: auto, hw, sim)");
	expect_error("exit=halt",
		     "option exit: bad value 'halt' (accepted: shutdown, reboot, return)");
	expect_error("trace=all", "option trace: bad value 'all' (accepted: msr, none)");
	expect_error("drain=irq", "option drain: bad value 'irq' (accepted: poll, pmi)");
	expect_error("dump=yes", "option dump: bad value 'yes' (accepted: on, off, all)");
	expect_error("snapshot=1", "option snapshot: bad value '1' (accepted: off, on)");
	expect_error("selftest=ud", "option selftest: bad value 'ud' (accepted: none, gp)");
	expect_error("mode=fast", "option mode: bad value 'fast' (accepted: run, report)");
	expect_error("verbose=2", "option verbose: bad value '2' (accepted: 0, 1)");
	expect_error("sim-pages=4m", "option sim-pages: bad value '4m' (accepted: 4k, 2m, 1g)");
	expect_error("sim-pages=2M", "option sim-pages: bad value '2M' (accepted: 4k, 2m, 1g)");
	expect_error("model=sk/l",
		     "option model: bad value 'sk/l' (accepted: a simulator model name, or list)");
	expect_error("model=abcdefghijabcdefghijabcdefghijab",
		     "option model: bad value 'abcdefghijabcdefghijabcd...': longer than 31 "
		     "characters (accepted: a simulator model name, or list, at most 31 "
		     "characters)");
	expect_error("log=a:b", "option log: bad value 'a:b' (accepted: a file name, or none)");
	expect_error("results=", "option results: bad value '' (accepted: a file name, or none)");
	expect_error("kernels=a,,b", "option kernels: bad value 'a,,b' (accepted: all, none, or "
				     "kernel names separated by commas)");
	expect_error("kernels=a,", "option kernels: bad value 'a,' (accepted: all, none, or "
				   "kernel names separated by commas)");
	assert_int_equal(parse("events="), 0);
	assert_string_equal(o.given.events, "");
}

static void test_unknown_and_malformed(void **state)
{
	expect_error("foo=1", "unknown option 'foo' (accepted: " OPTION_NAMES ")");
	expect_error("pmu",
		     "malformed option 'pmu' (accepted: name=value, names: " OPTION_NAMES ")");
	expect_error("=hw",
		     "malformed option '=hw' (accepted: name=value, names: " OPTION_NAMES ")");
	/* The error names the first bad token, after the good ones were applied. */
	expect_error("pmu=sim ldlat=1 pmu=zz",
		     "option ldlat: bad value '1': out of range (accepted: an integer 3..65535)");
}

static void test_tokens(void **state)
{
	/* argv0 skipped only when asked and only without '='. */
	options_defaults(&o);
	assert_int_equal(
	    options_parse_line(&o, "\\EFI\\BOOT\\BOOTX64.EFI pmu=sim", true, err, sizeof(err)), 0);
	assert_int_equal(o.pmu, OPT_PMU_SIM);
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, "pmu=sim ldlat=9", true, err, sizeof(err)), 0);
	assert_int_equal(o.pmu, OPT_PMU_SIM);
	assert_int_equal(o.job.ldlat, 9);
	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, "app.efi pmu", true, err, sizeof(err)), -1);
	/* initrd= from a Linux-style loader is ignored; tabs, CR, comments. */
	assert_int_equal(parse("initrd=\\initrd.img\tpmu=hw  \r # ldlat=2"), 0);
	assert_int_equal(o.pmu, OPT_PMU_HW);
	assert_int_equal(o.job.ldlat, 3);
	/* Later tokens override earlier ones. */
	assert_int_equal(parse("ldlat=5 ldlat=7"), 0);
	assert_int_equal(o.job.ldlat, 7);
	assert_int_equal(parse(""), 0);
	assert_int_equal(parse("   "), 0);
	/* A token too long for any option: longer than a line. */
	static char line[OPT_LINE_MAX + 8];
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = 0;
	memcpy(line, "events=", 7);
	expect_error(line, "option 'events=aaaaaaaaaaaaaaaaa...' is too long (accepted: at most "
			   "8191 characters)");
	/* A value too long for its field but within a token. */
	char ev[200];
	memset(ev, 'b', sizeof(ev) - 1);
	ev[sizeof(ev) - 1] = 0;
	memcpy(ev, "events=", 7);
	ev[7 + 128] = 0; /* 128 characters: one more than the field holds */
	assert_int_equal(parse(ev), -1);
	assert_non_null(strstr(err, "option events: bad value"));
	ev[7 + 127] = 0;
	ev[7 + 63] = ';'; /* two events of 63 characters, each the most one holds */
	assert_int_equal(parse(ev), 0);
	assert_int_equal(strlen(o.given.events), 127);
}

static void test_config(void **state)
{
	static const char cfg[] = "\xef\xbb\xbf# pebsprobe config\r\n"
				  "pmu=sim model=glm\r\n"
				  "\r\n"
				  "   # indented comment\n"
				  "ldlat=50 # trailing comment\n"
				  "records=2";
	options_defaults(&o);
	assert_int_equal(options_parse_config(&o, NULL, cfg, sizeof(cfg) - 1, err, sizeof(err)), 0);
	assert_int_equal(o.pmu, OPT_PMU_SIM);
	assert_string_equal(o.model, "glm");
	assert_int_equal(o.job.ldlat, 50);
	assert_int_equal(o.job.records, 2);

	/* Then LoadOptions on top: they win. */
	assert_int_equal(options_parse_line(&o, "ldlat=60", true, err, sizeof(err)), 0);
	assert_int_equal(o.job.ldlat, 60);
	assert_string_equal(o.model, "glm");

	static const char bad[] = "pmu=sim\n\nbogus=1\n";
	options_defaults(&o);
	assert_int_equal(options_parse_config(&o, NULL, bad, sizeof(bad) - 1, err, sizeof(err)),
			 -1);
	assert_string_equal(err,
			    "config line 3: unknown option 'bogus' (accepted: " OPTION_NAMES ")");
	static const char bin[] = "pmu=sim\nldlat=\x80\n";
	options_defaults(&o);
	assert_int_equal(options_parse_config(&o, NULL, bin, sizeof(bin) - 1, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "config line 2: not plain ASCII text (byte 0x80 at column 7; "
				 "accepted: printable ASCII, tabs, CR LF line ends)");
	static const char nul[] = "pmu=sim\0";
	assert_int_equal(options_parse_config(&o, NULL, nul, sizeof(nul) - 1, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "config line 1: not plain ASCII text (byte 0x00 at column 8; "
				 "accepted: printable ASCII, tabs, CR LF line ends)");
	static char longline[OPT_LINE_MAX + 100];
	memset(longline, '#', sizeof(longline));
	assert_int_equal(
	    options_parse_config(&o, NULL, longline, sizeof(longline), err, sizeof(err)), -1);
	assert_string_equal(err,
			    "config line 1: longer than 8191 characters (accepted: lines of at "
			    "most 8191 characters; more lines for more options)");
	/* An empty file is fine: defaults. */
	options_defaults(&o);
	assert_int_equal(options_parse_config(&o, NULL, "", 0, err, sizeof(err)), 0);
	assert_int_equal(o.pmu, OPT_PMU_AUTO);
}

static void test_error_truncates_safely(void **state)
{
	char small[16];

	options_defaults(&o);
	assert_int_equal(options_parse_line(&o, "pmu=nope", false, small, sizeof(small)), -1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, "option pmu: bad", 15);
}

/* --- options_check: across options and against the kernel and model tables --- */

/* A list option's value is read when its token is: a bad one is refused there. */
static int check(const char *line)
{
	if (parse(line))
		return -1;
	err[0] = 0;
	return options_check(&o, err, sizeof(err));
}

/* sim-fault=cpuN:hang only on an AP (the BSP is the one that waits); cpu-timeout= in range. */
static void test_check_hang(void **state)
{
	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "4", 1);
	assert_int_equal(check("sim-fault=cpu3:hang cpu-timeout=2"), 0);
	assert_int_equal(o.job.cpu_timeout_s, 2);
	assert_int_equal(check("sim-fault=cpu0:hang"), -1);
	assert_string_equal(err, "option sim-fault: cpu0:hang would stop the boot CPU, which "
				 "waits for the others (accepted: cpuN:hang with N in 1-3)");
	assert_int_equal(check("sim-fault=cpu1:no-records,cpu0:hang"), -1);
	expect_error("cpu-timeout=0", "option cpu-timeout: bad value '0': out of range (accepted: "
				      "seconds, an integer 1..3600)");
	assert_int_equal(parse(""), 0);
	assert_int_equal(o.job.cpu_timeout_s, 300);
	unsetenv("PEBSPROBE_HOST_CPUS");
}

/* One CPU: no "N in 1-0", no "1 CPUs" (each row: the options, the error line exactly). */
static void test_check_one_cpu(void **state)
{
	static const struct {
		const char *line, *want;
	} rows[] = {
	    {"sim-fault=cpu0:hang",
	     "option sim-fault: cpu0:hang would stop the boot CPU, which waits for the others, "
	     "and this machine has no other (accepted: cpuN:hang with 2 or more CPUs, N 1 or "
	     "more)"},
	    {"sim-fault=cpu1:no-records",
	     "option sim-fault: cpu1 does not exist: this machine has 1 CPU, cpu0 (accepted: "
	     "cpu0:KIND)"},
	    {"cpus=1", "option cpus: CPU 1 does not exist: this machine has 1 CPU, CPU 0 "
		       "(accepted: all, boot or 0)"},
	};

	(void)state;
	setenv("PEBSPROBE_HOST_CPUS", "1", 1);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		assert_int_equal(check(rows[i].line), -1);
		assert_string_equal(err, rows[i].want);
	}
	unsetenv("PEBSPROBE_HOST_CPUS");
}

/* A name too long for its field says the limit (log= holds 63 characters). */
static void test_long_names_give_the_limit(void **state)
{
	char line[160];

	(void)state;
	snprintf(line, sizeof(line), "log=%070d", 0);
	assert_int_equal(parse(line), -1);
	assert_string_equal(err, "option log: bad value '000000000000000000000000...': longer "
				 "than 63 characters (accepted: a file name, or none, at most 63 "
				 "characters)");
	snprintf(line, sizeof(line), "model=%040d", 0);
	assert_int_equal(parse(line), -1);
	assert_non_null(strstr(err, "longer than 31 characters"));
}

/*
 * Which file a config line is in: the config file's own name, or after a
 * "#@source NAME" line (run-qemu.sh's merge of --config and -- options)
 * that name, lines counted from 1 again; a UTF-16 file is named so.
 */
static void test_config_sources(void **state)
{
	static const char merged[] = "#@source my.cfg\npmu=sim\n"
				     "#@source run-qemu.sh -- OPTIONS\npmu=bogus\n";
	static const char merged_ok[] = "#@source my.cfg\r\npmu=sim ldlat=9\r\n"
					"#@source run-qemu.sh -- OPTIONS\nldlat=10\n";
	static const char in_file[] = "#@source my.cfg\npmu=sim\nbogus=1\n";
	static const char u16le[] = "\xff\xfep\0m\0u\0=\0s\0i\0m\0";
	static const char u16be[] = "\xfe\xff\0p\0m\0u";
	static const char u16_in[] = "#@source my.cfg\n\xff\xfep\0";
	static const struct {
		const char *text;
		size_t len;
		const char *want; /* the error's start; NULL: parses */
	} rows[] = {
	    {merged, sizeof(merged) - 1,
	     "run-qemu.sh -- OPTIONS line 1: option pmu: bad value 'bogus' (accepted: auto, hw, "
	     "sim)"},
	    {in_file, sizeof(in_file) - 1, "my.cfg line 2: unknown option 'bogus' (accepted: "},
	    {"pmu=sim\nbogus=1", 15, "X.CFG: config line 2: unknown option 'bogus'"},
	    {u16le, sizeof(u16le) - 1,
	     "X.CFG: config line 1: UTF-16 text (byte-order mark 0xff 0xfe; accepted: ASCII "
	     "text, saved as ANSI or UTF-8)"},
	    {u16be, sizeof(u16be) - 1,
	     "X.CFG: config line 1: UTF-16 text (byte-order mark 0xfe "
	     "0xff;"},
	    {u16_in, sizeof(u16_in) - 1, "my.cfg line 1: UTF-16 text"},
	    {merged_ok, sizeof(merged_ok) - 1, NULL},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		int rc;

		options_defaults(&o);
		err[0] = 0;
		rc = options_parse_config(&o, "X.CFG", rows[i].text, rows[i].len, err, sizeof(err));
		if (!rows[i].want) {
			assert_int_equal(rc, 0);
			continue;
		}
		assert_int_equal(rc, -1);
		if (strncmp(err, rows[i].want, strlen(rows[i].want)))
			fail_msg("row %zu: '%s', want '%s...'", i, err, rows[i].want);
	}
	assert_int_equal(o.job.ldlat, 10); /* the options after the file's win */
	assert_int_equal(o.pmu, OPT_PMU_SIM);
}

static void test_check_model(void **state)
{
	char want[512];
	size_t n;

	assert_int_equal(check(""), 0);
	assert_int_equal(check("model=list"), 0);
	for (size_t i = 0; i < sim_model_count(); i++) {
		char line[64];

		snprintf(line, sizeof(line), "pmu=hw model=%s", sim_model_at(i)->name);
		assert_int_equal(check(line), 0);
	}
	/* Checked whatever pmu= says: pmu=hw model=k7 was accepted silently. */
	n = snprintf(want, sizeof(want), "option model: unknown simulator model 'k7' (accepted: ");
	for (size_t i = 0; i < sim_model_count(); i++)
		n += snprintf(want + n, sizeof(want) - n, "%s, ", sim_model_at(i)->name);
	snprintf(want + n, sizeof(want) - n, "list)");
	for (int pmu = 0; pmu < 3; pmu++) {
		static const char *const lines[] = {"pmu=auto model=k7", "pmu=hw model=k7",
						    "pmu=sim model=k7"};

		assert_int_equal(check(lines[pmu]), -1);
		assert_string_equal(err, want);
	}
}

static void test_check_kernels(void **state)
{
	char names[400], want[512];

	assert_int_equal(check("kernels=all"), 0);
	assert_int_equal(check("kernels=none"), 0);
	for (size_t i = 0; i < kernel_count(); i++) {
		char line[128];

		snprintf(line, sizeof(line), "kernels=%s", kernel_at(i)->name);
		assert_int_equal(check(line), 0);
	}
	assert_true(kernel_count() >= 2);
	{
		char line[128];

		snprintf(line, sizeof(line), "kernels=%s,%s", kernel_at(0)->name,
			 kernel_at(1)->name);
		assert_int_equal(check(line), 0);
	}
	kernel_names(names, sizeof(names));
	snprintf(want, sizeof(want),
		 "option kernels: unknown kernel 'bogus' (accepted: all, none, "
		 "or names separated by commas: %s)",
		 names);
	assert_int_equal(check("kernels=bogus"), -1);
	assert_string_equal(err, want);
	/* The first unknown name of a list is the one named. */
	{
		char line[128];

		snprintf(line, sizeof(line), "kernels=%s,bogus,nope", kernel_at(0)->name);
		assert_int_equal(check(line), -1);
		assert_string_equal(err, want);
	}
	/* "all" is a word alone, not a list element (was "unknown kernel 'all'"). */
	assert_int_equal(check("kernels=all,bogus"), -1);
	assert_int_equal(check("kernels=all,lock"), -1);
	assert_string_equal(err, "option kernels: 'all' is a word alone, not a kernel to list "
				 "with others (accepted: all, none, or kernel names separated by "
				 "commas)");
}

/*
 * The smallest PEBS record is an adaptive record with only the basic group:
 * 0x20 bytes (SDM Vol. 3B 20.9.2.3, Basic Info group 4 quadwords).  So
 * buffer=4 (4096 bytes) holds at most 128 records, 64 KiB at most 2048.
 */
static void test_check_threshold(void **state)
{
	assert_int_equal(check("buffer=4 threshold=128"), 0);
	assert_int_equal(check("buffer=4 threshold=129"), -1);
	assert_string_equal(err, "option threshold: 129 records do not fit in buffer=4 KiB "
				 "(accepted: 0..128, the buffer's size over the smallest 32-byte "
				 "record; 0 = near full)");
	assert_int_equal(check("buffer=4 threshold=1000"), -1);
	assert_int_equal(check("threshold=2048"), 0);
	assert_int_equal(check("threshold=2049"), -1);
	assert_int_equal(check("buffer=65536 threshold=1000000"), 0);
	assert_int_equal(check("buffer=4 threshold=0"), 0);
}

/* An output may not replace the app's own files, nor name the other output. */
static void test_check_outputs(void **state)
{
	static const char *const own[] = {
	    "log=BOOTX64.EFI",	 "results=bootx64.efi",	       "results=PEBSPROBE.CFG",
	    "log=pebsprobe.cfg", "results=chase-l1-load.pebs", "log=results.json.tmp"};

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		assert_int_equal(check(own[i]), -1);
		assert_non_null(strstr(err,
				       "is one of pebsprobe's own files (accepted: a file "
				       "name other than PEBSPROBE.CFG, *.efi, *.pebs and *.tmp, "
				       "or none)"));
	}
	assert_int_equal(check("log=x results=X"), -1);
	assert_string_equal(err, "options log and results: both name 'x' (accepted: two "
				 "different file names, or none for either)");
	assert_int_equal(check("log=run.log results=run.json"), 0);
	assert_int_equal(check("log=none results=none"), 0);
	assert_int_equal(check("results=efi.json"), 0);
}

/* size= below a chosen kernel's minimum; buffer= whose records need too much memory. */
static void test_check_size_and_memory(void **state)
{
	assert_int_equal(check("size=1"), -1);
	assert_string_equal(err, "option size: 1 bytes is below kernel chase-dram's minimum of "
				 "16777216 (accepted: 0 = per kernel, or at least 16777216 bytes "
				 "for the kernels chosen)");
	assert_int_equal(check("kernels=chase-l1 size=1"), -1);
	assert_non_null(strstr(err, "chase-l1's minimum of 4096"));
	assert_int_equal(check("kernels=chase-l1 size=4K"), 0);
	assert_int_equal(check("kernels=none size=1"), 0);
	assert_int_equal(check("drain=pmi buffer=65536"), -1);
	assert_string_equal(err, "option buffer: 65536 KiB with drain=pmi keeps 1024 MiB of "
				 "drained records, more than the 256 MiB limit (accepted: "
				 "buffer=4..16384 with drain=pmi)");
	assert_int_equal(check("drain=pmi buffer=16384"), 0);
	assert_int_equal(check("drain=poll buffer=65536"), 0);
	/* A ninth event was dropped silently: refused, naming the limit. */
	assert_int_equal(check("events=a;b;c;d;e;f;g;h"), 0);
	assert_int_equal(check("events=a;b;c;d;e;f;g;h;i"), -1);
	assert_string_equal(err, "option events: bad value 'a;b;c;d;e;f;g;h;i': more than 8 events "
				 "(accepted: perfmon event names or raw event=0x..,umask=0x.. "
				 "separated by ';', at most 8 of 63 characters)");
	assert_int_equal(check("events=a;;b;"), 0);
}

/* A control byte (ESC) is refused like NUL and never echoed raw. */
static void test_control_chars(void **state)
{
	static const char esc_cfg[] = "log=a\x1b[31mb\n";
	char e[256];

	options_defaults(&o);
	assert_int_equal(options_parse_config(&o, NULL, esc_cfg, sizeof(esc_cfg) - 1, e, sizeof(e)),
			 -1);
	assert_string_equal(e, "config line 1: not plain ASCII text (byte 0x1b at column 6; "
			       "accepted: printable ASCII, tabs, CR LF line ends)");
	assert_int_equal(options_parse_line(&o, "pmu=hw mode=\x1b", false, e, sizeof(e)), -1);
	assert_string_equal(e, "options: not plain ASCII text (byte 0x1b at column 13; "
			       "accepted: printable ASCII separated by spaces)");
	assert_int_equal(options_parse_line(&o, "pmu=\x7fhw", false, e, sizeof(e)), -1);
	/* Tabs separate and a Windows line end is fine. */
	assert_int_equal(
	    options_parse_config(&o, NULL, "pmu=hw\tmode=report\r\n", 20, e, sizeof(e)), 0);
	assert_int_equal(o.pmu, OPT_PMU_HW);
	assert_true(o.report_only);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_every_option),
	    cmocka_unit_test(test_other_words),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_ranges),
	    cmocka_unit_test(test_bad_words),
	    cmocka_unit_test(test_unknown_and_malformed),
	    cmocka_unit_test(test_tokens),
	    cmocka_unit_test(test_config),
	    cmocka_unit_test(test_error_truncates_safely),
	    cmocka_unit_test(test_check_model),
	    cmocka_unit_test(test_check_hang),
	    cmocka_unit_test(test_check_one_cpu),
	    cmocka_unit_test(test_long_names_give_the_limit),
	    cmocka_unit_test(test_config_sources),
	    cmocka_unit_test(test_check_kernels),
	    cmocka_unit_test(test_check_threshold),
	    cmocka_unit_test(test_check_outputs),
	    cmocka_unit_test(test_control_chars),
	    cmocka_unit_test(test_check_size_and_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
