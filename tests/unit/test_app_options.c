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
	ev[7 + 63] = ';'; /* two events of 63 characters: the option's 127 in two */
	/* each a raw encoding, as an entry must name an event: umask=0x00..01 */
	for (int i = 0; i < 2; i++) {
		memcpy(ev + 7 + 64 * i, "event=0xc0,umask=0x", 19);
		memset(ev + 7 + 64 * i + 19, '0', 43);
		ev[7 + 64 * i + 62] = '1';
	}
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

/*
 * One option line a row: options_parse_line() (check: then options_check()
 * on what it parsed) must end with status and, where it refused, exactly
 * the error line; where it took the line, no error and the typed value a
 * getter reads (num/str, NULL: none).  cpus: PEBSPROBE_HOST_CPUS for the
 * row (NULL: unset).  docs/OPTIONS.md is the specification.
 */
struct opt_case {
	const char *line;
	int status;
	const char *error;
	bool check;
	const char *cpus;
	uint64_t (*num)(const struct options *p);
	uint64_t value;
	const char *(*str)(const struct options *p);
	const char *text;
};

#define NUM(name, expr)                                                                            \
	static uint64_t name(const struct options *p)                                              \
	{                                                                                          \
		return (uint64_t)(expr);                                                           \
	}
#define STR(name, expr)                                                                            \
	static const char *name(const struct options *p)                                           \
	{                                                                                          \
		return (expr);                                                                     \
	}
NUM(ldlat, p->job.ldlat)
NUM(size, p->job.size)
NUM(pmu, p->pmu)
NUM(cpu_timeout, p->job.cpu_timeout_s)
STR(events, p->given.events)

#define ACC_SIZE      "(accepted: bytes, an integer with an optional K, M or G suffix (0 = per kernel))"
#define ACC_LDLAT     "(accepted: an integer 3..65535)"
#define ACC_BUFFER    "(accepted: KiB, an integer 4..65536)"
#define ACC_PERIOD    "(accepted: an integer 0..2^48-1 (0 = per kernel))"
#define ACC_KERNELS   "(accepted: all, none, or kernel names separated by commas)"
#define ACC_MALFORMED "(accepted: name=value, names: " OPTION_NAMES ")"
#define ACC_OWN                                                                                    \
	"is one of pebsprobe's own files (accepted: a file name other than PEBSPROBE.CFG, *.efi, " \
	"*.pebs and *.tmp, or none)"
#define ZEROS10 "0000000000"

// clang-format off
static const struct opt_case opt_cases[] = {
    /* sizes: K, M, G; 2^40 the maximum */
    {.line = "size=1k", .num = size, .value = 1024},
    {.line = "size=3M", .num = size, .value = 3u << 20},
    {.line = "size=2G", .num = size, .value = 2ull << 30},
    {.line = "size=0x100", .num = size, .value = 256},
    {.line = "size=1024G", .num = size, .value = 1ull << 40},
    {.line = "size=1025G", .status = -1, .error = "option size: bad value '1025G': out of range " ACC_SIZE},
    {.line = "size=4T", .status = -1, .error = "option size: bad value '4T': not a number " ACC_SIZE},
    {.line = "size=KB", .status = -1, .error = "option size: bad value 'KB': not a number " ACC_SIZE},
    /* ranges */
    {.line = "ldlat=2", .status = -1, .error = "option ldlat: bad value '2': out of range " ACC_LDLAT},
    {.line = "ldlat=65536", .status = -1, .error = "option ldlat: bad value '65536': out of range " ACC_LDLAT},
    {.line = "ldlat=-3", .status = -1, .error = "option ldlat: bad value '-3': out of range " ACC_LDLAT},
    {.line = "ldlat=3x", .status = -1, .error = "option ldlat: bad value '3x': not a number " ACC_LDLAT},
    {.line = "ldlat=", .status = -1, .error = "option ldlat: bad value '': not a number " ACC_LDLAT},
    {.line = "ldlat=0x10", .num = ldlat, .value = 16},
    {.line = "buffer=3", .status = -1, .error = "option buffer: bad value '3': out of range " ACC_BUFFER},
    {.line = "buffer=65537", .status = -1, .error = "option buffer: bad value '65537': out of range " ACC_BUFFER},
    {.line = "period=0x1000000000000", .status = -1, .error = "option period: bad value '0x1000000000000': out of range " ACC_PERIOD},
    {.line = "period=99999999999999999999999", .status = -1, .error =
     "option period: bad value '99999999999999999999999': out of range " ACC_PERIOD},
    {.line = "iterations=4294967296", .status = -1, .error = "option iterations: bad value '4294967296': out of range "
     "(accepted: an integer 0..4294967295 (0 = per kernel))"},
    {.line = "threshold=1000001", .status = -1, .error = "option threshold: bad value '1000001': out of range "
     "(accepted: records, an integer 0..1000000 (0 = near full))"},
    {.line = "records=x", .status = -1, .error = "option records: bad value 'x': not a number (accepted: an integer 0..1000000)"},
    {.line = "cpu-timeout=0", .status = -1, .error = "option cpu-timeout: bad value '0': out of range (accepted: seconds, "
     "an integer 1..3600)"},
    {.line = "", .num = cpu_timeout, .value = 300},
    /* words */
    {.line = "pmu=foo", .status = -1, .error = "option pmu: bad value 'foo' (accepted: auto, hw, sim)"},
    {.line = "pmu=HW", .status = -1, .error = "option pmu: bad value 'HW' (accepted: auto, hw, sim)"},
    {.line = "exit=halt", .status = -1, .error = "option exit: bad value 'halt' (accepted: shutdown, reboot, return)"},
    {.line = "trace=all", .status = -1, .error = "option trace: bad value 'all' (accepted: msr, none)"},
    {.line = "drain=irq", .status = -1, .error = "option drain: bad value 'irq' (accepted: poll, pmi)"},
    {.line = "dump=yes", .status = -1, .error = "option dump: bad value 'yes' (accepted: on, off, all)"},
    {.line = "snapshot=1", .status = -1, .error = "option snapshot: bad value '1' (accepted: off, on)"},
    {.line = "selftest=ud", .status = -1, .error = "option selftest: bad value 'ud' (accepted: none, gp)"},
    {.line = "mode=fast", .status = -1, .error = "option mode: bad value 'fast' (accepted: run, report)"},
    {.line = "verbose=2", .status = -1, .error = "option verbose: bad value '2' (accepted: 0, 1)"},
    {.line = "sim-pages=4m", .status = -1, .error = "option sim-pages: bad value '4m' (accepted: 4k, 2m, 1g)"},
    {.line = "sim-pages=2M", .status = -1, .error = "option sim-pages: bad value '2M' (accepted: 4k, 2m, 1g)"},
    {.line = "model=sk/l", .status = -1, .error = "option model: bad value 'sk/l' (accepted: a simulator model name, or list)"},
    {.line = "model=abcdefghijabcdefghijabcdefghijab", .status = -1, .error =
     "option model: bad value 'abcdefghijabcdefghijabcd...': longer than 31 characters "
     "(accepted: a simulator model name, or list, at most 31 characters)"},
    {.line = "log=a:b", .status = -1, .error = "option log: bad value 'a:b' (accepted: a file name, or none)"},
    {.line = "results=", .status = -1, .error = "option results: bad value '' (accepted: a file name, or none)"},
    {.line = "kernels=a,,b", .status = -1, .error = "option kernels: bad value 'a,,b' " ACC_KERNELS},
    {.line = "kernels=a,", .status = -1, .error = "option kernels: bad value 'a,' " ACC_KERNELS},
    {.line = "events=", .str = events, .text = ""},
    /* a name too long for its field says the limit (log= holds 63 characters) */
    {.line = "log=" ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10 ZEROS10, .status = -1, .error =
     "option log: bad value '000000000000000000000000...': longer than 63 characters "
     "(accepted: a file name, or none, at most 63 characters)"},
    {.line = "model=" ZEROS10 ZEROS10 ZEROS10 ZEROS10, .status = -1, .error =
     "option model: bad value '000000000000000000000000...': longer than 31 characters "
     "(accepted: a simulator model name, or list, at most 31 characters)"},
    /* unknown and malformed; the first bad token named, after the good ones were applied */
    {.line = "foo=1", .status = -1, .error = "unknown option 'foo' (accepted: " OPTION_NAMES ")"},
    {.line = "pmu", .status = -1, .error = "malformed option 'pmu' " ACC_MALFORMED},
    {.line = "=hw", .status = -1, .error = "malformed option '=hw' " ACC_MALFORMED},
    {.line = "pmu=sim ldlat=1 pmu=zz", .status = -1, .error = "option ldlat: bad value '1': out of range " ACC_LDLAT},
    /* tokens: initrd= from a Linux-style loader ignored; tabs, CR, comments; later ones win */
    {.line = "initrd=\\initrd.img\tpmu=hw  \r # ldlat=2", .num = pmu, .value = OPT_PMU_HW},
    {.line = "initrd=\\initrd.img\tpmu=hw  \r # ldlat=2", .num = ldlat, .value = 3},
    {.line = "ldlat=5 ldlat=7", .num = ldlat, .value = 7},
    {.line = ""},
    {.line = "   "},
    /* options_check: sim-fault=cpuN:hang only on an AP (the BSP waits); cpu-timeout= */
    {.line = "sim-fault=cpu3:hang cpu-timeout=2", .check = true, .cpus = "4", .num = cpu_timeout, .value = 2},
    {.line = "sim-fault=cpu0:hang", .status = -1, .error = "option sim-fault: cpu0:hang would stop the boot CPU, which "
     "waits for the others (accepted: cpuN:hang with N in 1-3)", .check = true, .cpus = "4"},
    {.line = "sim-fault=cpu1:no-records,cpu0:hang", .status = -1, .error = "option sim-fault: cpu0:hang would stop the boot "
     "CPU, which waits for the others (accepted: cpuN:hang with N in 1-3)", .check = true, .cpus = "4"},
    /* one CPU: no "N in 1-0", no "1 CPUs" */
    {.line = "sim-fault=cpu0:hang", .status = -1, .error = "option sim-fault: cpu0:hang would stop the boot CPU, which waits "
     "for the others, and this machine has no other (accepted: cpuN:hang with 2 or more CPUs, N 1 "
     "or more)", .check = true, .cpus = "1"},
    {.line = "sim-fault=cpu1:no-records", .status = -1, .error = "option sim-fault: cpu1 does not exist: this machine has 1 "
     "CPU, cpu0 (accepted: cpu0:KIND)", .check = true, .cpus = "1"},
    {.line = "cpus=1", .status = -1, .error = "option cpus: CPU 1 does not exist: this machine has 1 CPU, CPU 0 (accepted: "
     "all, boot or 0)", .check = true, .cpus = "1"},
    /* models and kernels (test_check_model, test_check_kernels: every row of their tables) */
    {.line = "", .check = true},
    {.line = "model=list", .check = true},
    {.line = "kernels=all", .check = true},
    {.line = "kernels=none", .check = true},
    {.line = "kernels=all,bogus", .status = -1, .error = "option kernels: 'all' is a word alone, not a kernel to list with "
     "others " ACC_KERNELS, .check = true},
    {.line = "kernels=all,lock", .status = -1, .error = "option kernels: 'all' is a word alone, not a kernel to list with "
     "others " ACC_KERNELS, .check = true},
    /*
     * The smallest PEBS record is an adaptive record with only the basic group:
     * 0x20 bytes (SDM Vol. 3B 20.9.2.3, Basic Info group 4 quadwords).  So
     * buffer=4 (4096 bytes) holds at most 128 records, 64 KiB at most 2048.
     */
    {.line = "buffer=4 threshold=128", .check = true},
    {.line = "buffer=4 threshold=129", .status = -1, .error = "option threshold: 129 records do not fit in buffer=4 KiB "
     "(accepted: 0..128, the buffer's size over the smallest 32-byte record; 0 = near full)", .check = true},
    {.line = "buffer=4 threshold=1000", .status = -1, .error = "option threshold: 1000 records do not fit in buffer=4 KiB "
     "(accepted: 0..128, the buffer's size over the smallest 32-byte record; 0 = near full)", .check = true},
    {.line = "threshold=2048", .check = true},
    {.line = "threshold=2049", .status = -1, .error = "option threshold: 2049 records do not fit in buffer=64 KiB "
     "(accepted: 0..2048, the buffer's size over the smallest 32-byte record; 0 = near full)", .check = true},
    {.line = "buffer=65536 threshold=1000000", .check = true},
    {.line = "buffer=4 threshold=0", .check = true},
    /* an output may not replace the app's own files, nor name the other output */
    {.line = "log=BOOTX64.EFI", .status = -1, .error = "option log: 'BOOTX64.EFI' " ACC_OWN, .check = true},
    {.line = "results=bootx64.efi", .status = -1, .error = "option results: 'bootx64.efi' " ACC_OWN, .check = true},
    {.line = "results=PEBSPROBE.CFG", .status = -1, .error = "option results: 'PEBSPROBE.CFG' " ACC_OWN, .check = true},
    {.line = "log=pebsprobe.cfg", .status = -1, .error = "option log: 'pebsprobe.cfg' " ACC_OWN, .check = true},
    {.line = "results=chase-l1-load.pebs", .status = -1, .error = "option results: 'chase-l1-load.pebs' " ACC_OWN, .check = true},
    {.line = "log=results.json.tmp", .status = -1, .error = "option log: 'results.json.tmp' " ACC_OWN, .check = true},
    {.line = "log=x results=X", .status = -1, .error = "options log and results: both name 'x' (accepted: two different "
     "file names, or none for either)", .check = true},
    {.line = "log=run.log results=run.json", .check = true},
    {.line = "log=none results=none", .check = true},
    {.line = "results=efi.json", .check = true},
    /* size= below a chosen kernel's minimum; buffer= whose records need too much memory */
    {.line = "size=1", .status = -1, .error = "option size: 1 bytes is below kernel chase-dram's minimum of 16777216 "
     "(accepted: 0 = per kernel, or at least 16777216 bytes for the kernels chosen)", .check = true},
    {.line = "kernels=chase-l1 size=1", .status = -1, .error = "option size: 1 bytes is below kernel chase-l1's minimum of "
     "4096 (accepted: 0 = per kernel, or at least 4096 bytes for the kernels chosen)", .check = true},
    {.line = "kernels=chase-l1 size=4K", .check = true},
    {.line = "kernels=none size=1", .check = true},
    {.line = "drain=pmi buffer=65536", .status = -1, .error = "option buffer: 65536 KiB with drain=pmi keeps 1024 MiB of "
     "drained records, more than the 256 MiB limit (accepted: buffer=4..16384 with drain=pmi)", .check = true},
    {.line = "drain=pmi buffer=16384", .check = true},
    {.line = "drain=poll buffer=65536", .check = true},
    /* a ninth event was dropped silently: refused, naming the limit */
    {.line = "events=event=1;event=2;event=3;event=4;event=5;event=6;event=7;event=8", .check = true},
    {.line = "events=event=1;event=2;event=3;event=4;event=5;event=6;event=7;event=8;event=9", .status = -1, .error = "option events: bad value 'event=1;event=2;event=3;event=4;event=5;...': more than 8 "
     "events (accepted: perfmon event names or raw event=0x..,umask=0x.. separated by ';', at "
     "most 8 of 127 characters)", .check = true},
    {.line = "events=event=1;;event=2;", .check = true},
};
// clang-format on

static void test_option_lines(void **state)
{
	unsigned int bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(opt_cases); i++) {
		const struct opt_case *t = &opt_cases[i];
		int rc;

		if (t->cpus)
			setenv("PEBSPROBE_HOST_CPUS", t->cpus, 1);
		else
			unsetenv("PEBSPROBE_HOST_CPUS");
		rc = t->check ? check(t->line) : parse(t->line);
		if (rc != t->status || strcmp(err, t->error ? t->error : "")) {
			print_error("row %zu '%s': status %d, error '%s'\n  want %d, '%s'\n", i,
				    t->line, rc, err, t->status, t->error ? t->error : "");
			bad++;
			continue;
		}
		if (t->num && t->num(&o) != t->value) {
			print_error("row %zu '%s': value %llu, want %llu\n", i, t->line,
				    (unsigned long long)t->num(&o), (unsigned long long)t->value);
			bad++;
		}
		if (t->str && strcmp(t->str(&o), t->text)) {
			print_error("row %zu '%s': '%s', want '%s'\n", i, t->line, t->str(&o),
				    t->text);
			bad++;
		}
	}
	unsetenv("PEBSPROBE_HOST_CPUS");
	assert_int_equal(bad, 0);
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
	    cmocka_unit_test(test_option_lines),
	    cmocka_unit_test(test_every_option),
	    cmocka_unit_test(test_other_words),
	    cmocka_unit_test(test_tokens),
	    cmocka_unit_test(test_config),
	    cmocka_unit_test(test_error_truncates_safely),
	    cmocka_unit_test(test_check_model),
	    cmocka_unit_test(test_config_sources),
	    cmocka_unit_test(test_check_kernels),
	    cmocka_unit_test(test_control_chars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
