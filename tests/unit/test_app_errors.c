// SPDX-License-Identifier: MIT
/*
 * test_app_errors.c - every user mistake the app refuses gives exit 2 and
 * one ERROR line that names what was wrong and what is accepted (the
 * limits, the words), docs/OPTIONS.md.  One row per mistake, through the
 * path the app takes: the options' parser (config file, LoadOptions), the
 * check across options (app_select), then the job's check against the CPU
 * (app_run, simulated Skylake).  The expected fragments are written from
 * docs/OPTIONS.md's ranges, not read back from app/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "app/app.h"
#include "lib/report.h"
#include "pmu/hw.h"
#include "test_util.h"

struct bad {
	const char *line;     /* the options, as one config line */
	const char *what;     /* names what was wrong */
	const char *accepted; /* names what is accepted */
};

static const struct bad bad_inputs[] = {
    /* the parser: one row per option's kind of value */
    {"records=abc", "option records: bad value 'abc': not a number",
     "accepted: an integer 0..1000000"},
    {"records=2000000", "option records: bad value '2000000': out of range", "0..1000000"},
    {"ldlat=2", "option ldlat: bad value '2': out of range", "3..65535"},
    {"period=0x1000000000000", "option period: bad value '0x1000000000000': out of range",
     "0..2^48-1"},
    {"buffer=1", "option buffer: bad value '1': out of range", "4..65536"},
    {"threshold=-1", "option threshold: bad value '-1': out of range", "0..1000000"},
    {"iterations=4294967296", "option iterations: bad value '4294967296': out of range",
     "0..4294967295"},
    {"pause=3601", "option pause: bad value '3601': out of range", "0..3600"},
    {"period=99999999999999999999", "option period: bad value '99999999999999999999': out of range",
     "0..2^48-1"},
    {"buffer=0x", "option buffer: bad value '0x': not a number", "4..65536"},
    {"size=2048G", "option size: bad value '2048G': out of range", "optional K, M or G suffix"},
    {"pause=-", "option pause: bad value '-': not a number", "0..3600"},
    {"size=1T", "option size: bad value '1T': not a number", "optional K, M or G suffix"},
    {"pmu=kvm", "option pmu: bad value 'kvm'", "accepted: auto, hw, sim"},
    {"exit=halt", "option exit: bad value 'halt'", "accepted: shutdown, reboot, return"},
    {"drain=irq", "option drain: bad value 'irq'", "accepted: poll, pmi"},
    {"selftest=all", "option selftest: bad value 'all'", "accepted: none, gp"},
    {"trace=on", "option trace: bad value 'on'", "accepted: msr, none"},
    {"mode=fast", "option mode: bad value 'fast'", "accepted: run, report"},
    {"verbose=2", "option verbose: bad value '2'", "accepted: 0, 1"},
    {"dump=yes", "option dump: bad value 'yes'", "accepted: on, off"},
    {"model=sk/l", "option model: bad value 'sk/l'", "simulator model name"},
    {"log=", "option log: bad value ''", "accepted: a file name, or none"},
    {"kernels=chase-l1,,seq-load", "option kernels: bad value 'chase-l1,,seq-load'",
     "kernel names separated by commas"},
    {"cpus=0,,1", "option cpus: bad value '0,,1'", "accepted: all, boot"},
    {"bogus=1", "unknown option 'bogus'", "accepted: pmu, model,"},
    {"noequals", "malformed option 'noequals'", "accepted: name=value, names: pmu, model,"},
    {"events=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "option events: bad value 'aaaaaaaaaaaaaaaaaaaaaaaa...': longer than 127 characters",
     "at most 127 characters"},
    {"\x1b[31m", "not plain ASCII text (byte 0x1b at column", "accepted: printable ASCII"},
    {"log=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.log",
     "longer than 63 characters", "accepted: a file name, or none, at most 63 characters"},
    /* the check across options */
    {"pmu=sim model=k7", "unknown simulator model 'k7'", "accepted: core2,"},
    {"kernels=bogus", "unknown kernel 'bogus'", "accepted: all, none"},
    {"kernels=all,chase-l1", "'all' is a word alone", "accepted: all, none"},
    {"buffer=4 threshold=1000", "1000 records do not fit in buffer=4 KiB", "accepted: 0.."},
    {"log=BOOTX64.EFI", "'BOOTX64.EFI' is one of pebsprobe's own files", "*.efi"},
    {"log=x.txt results=x.txt", "both name 'x.txt'", "two different file names"},
    {"cpus=99", "CPU 99 does not exist", "accepted: all, boot"},
    {"cpus=1-a", "option cpus: bad value '1-a'", "accepted: all, boot"},
    {"sim-fault=cpu0", "option sim-fault: bad value 'cpu0'", "accepted: cpuN:KIND"},
    {"sim-fault=cpu0:melt", "option sim-fault: bad value 'cpu0:melt'",
     "no-records, wrong-latency, gp-on-enable, hang, skid, cr3-kept, own-cr3, apic-off, "
     "unmapped-cr3, status-zero, collision, latency-bias=PCT or latency-offset=C, PCT -90..900, C 0..1000"},
    {"sim-fault=cpu0:latency-bias", "option sim-fault: bad value 'cpu0:latency-bias'",
     "PCT -90..900"},
    {"sim-fault=cpu0:latency-bias=abc", "bad value 'cpu0:latency-bias=abc'", "PCT -90..900"},
    {"sim-fault=cpu0:latency-bias=901", "bad value 'cpu0:latency-bias=901'", "PCT -90..900"},
    {"sim-fault=cpu0:latency-offset", "bad value 'cpu0:latency-offset'", "C 0..1000"},
    {"sim-fault=cpu0:latency-offset=-1", "bad value 'cpu0:latency-offset=-1'", "C 0..1000"},
    {"sim-fault=cpu0:latency-offset=1001", "bad value 'cpu0:latency-offset=1001'", "C 0..1000"},
    {"sim-fault=cpu0:hang=3", "bad value 'cpu0:hang=3'", "latency-bias=PCT"},
    {"sim-fault=cpu0:hang", "cpu0:hang would stop the boot CPU",
     "accepted: cpuN:hang with N in 1-1"},
    {"cpu-timeout=0", "option cpu-timeout: bad value '0': out of range",
     "accepted: seconds, an integer 1..3600"},
    {"sim-fault=cpu99:no-records", "cpu99 does not exist: this machine has 2 CPUs", "N in 0-1"},
    {"sim-fault=cpu1000000:no-records", "bad value 'cpu1000000:no-records'", "is not cpuN:KIND"},
    {"sim-fault=cpu1:no-records,cpu5:no-records", "cpu5 does not exist", "accepted: cpuN:KIND"},
    {"pmu=hw sim-fault=cpu0:no-records", "pmu=hw", "accepted with pmu=sim or pmu=auto"},
    /* the other simulator-only options, refused the same way (sim-pages= was ignored) */
    {"pmu=hw sim-pages=2m", "option sim-pages: maps a simulated machine's memory, but pmu=hw",
     "accepted with pmu=sim or pmu=auto"},
    {"pmu=hw sim-pages=1g", "option sim-pages: maps a simulated machine's memory, but pmu=hw",
     "accepted with pmu=sim or pmu=auto"},
    {"pmu=hw sim-host=kvm", "option sim-host: makes the simulated machine a guest, but pmu=hw",
     "accepted with pmu=sim or pmu=auto"},
    {"sim-host=kvm6", "option sim-host: bad value 'kvm6'", "accepted: none, kvm, kvm-6.8"},
    {"pmu=hw sim-handoff=cpu1:counter", "option sim-handoff: leaves state on a simulated CPU",
     "accepted with pmu=sim or pmu=auto"},
    {"kernels=chase-l1 size=1", "1 bytes is below kernel chase-l1's minimum", "at least"},
    {"drain=pmi buffer=65536", "65536 KiB with drain=pmi", "accepted: buffer=4.."},
    {"events=event=1;event=2;event=3;event=4;event=5;event=6;event=7;event=8;event=9",
     "more than 8 events", "at most 8"},
    /* a name no perfmon file has: refused as the option is read */
    {"kernels=chase-l1 events=BOGUS", "event 'BOGUS': no perfmon file (data/perfmon) has",
     "accepted: a perfmon EventName in any case"},
    /* the job's check against the CPU (skl), through the session's plan */
    {"kernels=chase-l1 events=mem_trans_retired.store_sample:u",
     "event 'MEM_TRANS_RETIRED.STORE_SAMPLE:u': no such EventName in perfmon SKL/",
     "accepted: a perfmon name"},
    {"kernels=chase-l1 events=event=0x1cd", "'event=0x1cd' out of range", "accepted: 0..0xff"},
    {"kernels=chase-l1 events=event=0xcd,umask=x", "'umask=x' needs a number",
     "accepted: decimal or 0x hex"},
    {"kernels=chase-l1 events=event=0xcd,frob=1", "unknown field 'frob=1'", "accepted: event="},
    {"kernels=chase-l1 events=event=0xcd,c=256", "c=N out of range", "accepted: N in 0..255"},
    {"kernels=chase-l1 events=event=0xcd,ldlat=2", "ldlat=N out of range",
     "accepted: N in 3..65535"},
    {"kernels=chase-l1 events=event=0xcd,umask=0x1,e", "PEBS needs AnyThread, Edge",
     "accepted: the event without any, e, i or c="},
    {"kernels=chase-l1 events=MEM_INST_RETIRED.ALL_LOADS:frob", "'frob' is no modifier",
     "accepted: u, k, e, i, eq, c=N"},
    {"kernels=chase-l1 events=CPU_CLK_UNHALTED.THREAD_P", "is not PEBS-capable on Skylake",
     "accepted: an event with one of them set"},
    {"kernels=chase-l1 events=event=0x0,umask=0x9", "encodes as event 0x00 umask 0x09",
     "accepted: umask 0x01..0x08"},
    {"model=gnr kernels=chase-l1 events=event=0xc0,umask=0x0,umask2=0x1", "sets UMASK2",
     "accepted: events without UMASK2 and EQ"},
    {"kernels=chase-l1 period=1", "period 1 below 32, the minimum on Skylake",
     "accepted: 32..140737488355327"},
    {"kernels=chase-l1 period=0xffffffffffff", "period 281474976710655 above 140737488355327",
     "accepted: 32..140737488355327"},
    {"kernels=chase-l1 events=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "event 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa': no perfmon file",
     "accepted: a perfmon EventName in any case"},
    {"kernels=chase-l1 events=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
     "longer than 127 characters", "at most 8 of 127 characters"},
};

/* The one ERROR line a bad input gave, or NULL (and a message) when not exactly one. */
static const char *one_error(const char *line)
{
	const char *found = NULL;
	unsigned int n = 0;

	for (unsigned int i = 0; i < test_n_lines; i++) {
		if (!strncmp(test_lines[i], "ERROR: ", 7)) {
			found = test_lines[i];
			n++;
		}
	}
	if (n != 1) {
		print_message("'%s': %u ERROR lines\n", line, n);
		return NULL;
	}
	return found;
}

/* As efi/main.c: parse, then app_run (app_select's check, the job's check); the status. */
static int run_options(const char *line)
{
	char text[512], err[REPORT_LINE_MAX];
	struct options o;

	options_defaults(&o);
	/* What a row does not say: the simulator, a small job, no files. */
	snprintf(text, sizeof(text), "pmu=sim dump=off log=none results=none %s", line);
	if (options_parse_config(&o, NULL, text, strlen(text), err, sizeof(err))) {
		report_line("ERROR: %s", err);
		return EXIT_USAGE;
	}
	return app_run(&o, NULL);
}

static void every_bad_input_names_its_limit(void **state)
{
	unsigned int bad = 0;

	for (size_t i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		const struct bad *b = &bad_inputs[i];
		const char *err;
		int status;

		test_lines_capture();
		report_reset();
		report_set_simulated(false);
		hw_install(NULL);
		status = run_options(b->line);
		err = one_error(b->line);
		if (status != EXIT_USAGE || !err || !strstr(err, b->what) ||
		    !strstr(err, b->accepted) || strchr(err, '\n')) {
			print_message("'%s': exit %d, line: %s\n  want '%s' ... '%s'\n", b->line,
				      status, err ? err : "(none)", b->what, b->accepted);
			bad++;
		}
		hw_install(NULL);
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(every_bad_input_names_its_limit),
	};

	setenv("PEBSPROBE_HOST_CPUS", "2", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
