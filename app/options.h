/* SPDX-License-Identifier: MIT */
/*
 * options.h - the app's options: `name=value` tokens from the image's
 * LoadOptions and from the config file on the ESP (docs/OPTIONS.md).  Pure C:
 * efi/ converts UTF-16 to ASCII and reads the file, the parser does the rest.
 *
 * Precedence: built-in defaults < config file < LoadOptions.
 * Bad input (unknown option, malformed value) fills opt_error with one line
 * naming the option and the accepted values; the caller exits with status 2
 * before any MSR is touched.
 */
#ifndef PP_OPTIONS_H
#define PP_OPTIONS_H

#include "../lib/compat.h"
#include "../job/job.h"
#include "../sim/sim.h"

enum opt_pmu { OPT_PMU_AUTO, OPT_PMU_HW, OPT_PMU_SIM };
enum opt_exit { OPT_EXIT_SHUTDOWN, OPT_EXIT_REBOOT, OPT_EXIT_RETURN };
enum opt_selftest { OPT_SELFTEST_NONE, OPT_SELFTEST_GP };
/* sim-pages=: the simulated firmware's page size (sim/sim.h sim_set_pages) */
enum opt_sim_pages { OPT_SIM_PAGES_4K, OPT_SIM_PAGES_2M, OPT_SIM_PAGES_1G };

#define OPT_STR_MAX 128

/*
 * An option line: LoadOptions (app/loadopts.c), one config file line
 * (app/options_config.c), one token.  Long enough for a list item per CPU
 * of a 288-CPU machine (run-qemu.sh --smp's most): "cpu287:skid," is 12
 * characters, 288 of them about 3,300.
 */
#define OPT_LINE_MAX 8191
/*
 * "cpuN:" of a sim-fault= or sim-handoff= item of len characters at p
 * (app/options_cpus.c): 0 with *cpu set and *rest at what follows the
 * ':' (at least one character), or -1.  N any number up to
 * OPT_CPU_NUMBER_MAX; the check across options holds it to the machine.
 */
#define OPT_CPU_NUMBER_MAX 999999
int options_item_cpu(const char *p, size_t len, unsigned int *cpu, const char **rest);

/* The characters of a list's item at p: up to sep or the end. */
static inline size_t options_item_len(const char *p, char sep)
{
	size_t n = 0;

	while (p[n] && p[n] != sep)
		n++;
	return n;
}

/*
 * Calls fn(p, len, ctx, why, why_size) for each item of list v separated by
 * sep, an empty one included (app/options_items.c); stops at the first
 * that refuses.  0, or -1 with why filled by fn.
 */
typedef int (*options_item_fn)(const char *p, size_t len, void *ctx, char *why, size_t why_size);
int options_each_item(const char *v, char sep, options_item_fn fn, void *ctx, char *why,
		      size_t why_size);

/* The text of a list option as given (results.json's "options"), at most a line. */
#define OPT_LIST_MAX (OPT_LINE_MAX + 1)
/* List items per option (sim-fault=, sim-handoff=): one per CPU, "cpuN:KIND,". */
#define OPT_ITEMS_MAX 1024

/* sim-handoff=, parsed once (app/options_handoff.c): what to leave on which CPU. */
#define OPT_HANDOFF_MAX OPT_ITEMS_MAX
struct opt_sim_handoff {
	unsigned int n;
	struct {
		unsigned int cpu;
		enum sim_handoff_kind kind;
		uint32_t smis;	/* smi: SMIs per sampling (smiN; smi alone: 1) */
		uint64_t value; /* counter=V: the count left in PMC0 */
	} item[OPT_HANDOFF_MAX];
};

/* sim-ucode=, sim-stepping=, parsed once (app/options_ucode.c); unset: the model's. */
struct opt_sim_ids {
	bool ucode_set, stepping_set;
	uint32_t ucode, stepping;
};

/* sim-platform=, parsed once (app/options_platform.c): the platform's harsher behaviours. */
#define OPT_PLATFORM_DISABLED_MAX 32
#define OPT_SIM_PLATFORM_ITEMS                                                                     \
	"none, or cpuN:disabled, cet, timer-attr, timer-extint separated by commas"
struct opt_sim_platform {
	unsigned int n_disabled;
	uint32_t disabled[OPT_PLATFORM_DISABLED_MAX]; /* cpuN:disabled: the firmware's numbers */
	bool cet;				      /* CR4.CET set (supervisor shadow stacks) */
	bool timer_attr;   /* a firmware timer edits a page attribute under the loaded CR3 */
	bool timer_extint; /* that timer is the 8254 through the 8259: ExtINT on LINT0 */
};

/* One item of sim-fault=, as the simulator takes it (sim/sim.h sim_set_fault). */
struct options_fault {
	unsigned int cpu;
	enum sim_fault kind;
	int32_t arg; /* latency-bias=PCT: the percentage; latency-offset=C: cycles; else 0 */
};

/* sim-fault=, parsed once (app/options_sim.c). */
struct opt_sim_faults {
	unsigned int n;
	struct options_fault item[OPT_ITEMS_MAX];
};

/*
 * The list options' text as given, kept only to print them back (INFO
 * lines, results.json's "options"): what they mean is in the typed fields.
 */
struct opt_given {
	char kernels[512];
	char events[JOB_LIST_MAX];
	char cpus[OPT_LIST_MAX];
	char sim_fault[OPT_LIST_MAX];
	char acr[16];
	char sim_acr[64];
	char sim_handoff[OPT_LIST_MAX];
	char sim_ucode[16];
	char sim_stepping[8];
	char sim_platform[OPT_STR_MAX];
};

struct options {
	enum opt_pmu pmu;	    /* pmu=auto|hw|sim              default auto */
	char model[32];		    /* model=<sim model>|list       default skl */
	bool trace_msr;		    /* trace=msr|none               default none */
	enum opt_exit exit_mode;    /* exit=shutdown|reboot|return  default shutdown */
	struct job_opts job;	    /* kernels=, events=, ... results=, dump= (job/job.h) */
	char log[64];		    /* log=<file>|none              default pebsprobe.log */
	enum opt_selftest selftest; /* selftest=none|gp           default none */
	bool report_only;	    /* mode=run|report (report: capability report only) */
	bool verbose;		    /* verbose=0|1 */
	uint32_t pause; /* pause=<seconds> before exit=shutdown|reboot on bare metal, default 60 */
	struct opt_sim_faults faults;	      /* sim-fault=cpuN:KIND[,...] (app/options_sim.c) */
	uint32_t sim_acr[4];		      /* sim-acr=off|EAX,EBX,ECX,EDX (all 0: off) */
	struct opt_sim_handoff handoff_items; /* sim-handoff= as parsed (app/options_handoff.c) */
	enum opt_sim_pages sim_pages;	      /* sim-pages=4k|2m|1g           default 4k */
	struct opt_sim_ids ids;		      /* sim-ucode=, sim-stepping= (app/options_ucode.c) */
	struct opt_sim_platform platform;     /* sim-platform= (app/options_platform.c) */
	enum sim_host sim_host; /* sim-host=none|kvm|kvm-6.8 default none (app/options_host.c) */
	struct opt_given given; /* the list options' text, to print them back */
};

void options_defaults(struct options *o);

/* sim-fault='s KIND words, as its table row and its check name them. */
#define OPT_SIM_FAULT_KINDS                                                                        \
	"no-records, wrong-latency, gp-on-enable, hang, skid, cr3-kept, own-cr3, apic-off, "       \
	"unmapped-cr3, status-zero, collision, latency-bias=PCT or latency-offset=C, PCT "         \
	"-90..900, C 0..1000"

/* latency-bias=PCT: the accepted percentages (OPT_SIM_FAULT_KINDS says them). */
#define OPT_LATENCY_BIAS_MIN (-90)
#define OPT_LATENCY_BIAS_MAX 900
/* latency-offset=C: the accepted cycles (a DRAM latency's worth at most). */
#define OPT_LATENCY_OFFSET_MIN 0
#define OPT_LATENCY_OFFSET_MAX 1000

/*
 * The typed options' parsers, one file each, called when the token is read
 * (the opt_table row names them): the value's text v into its typed field
 * of o, written only when the whole value is good; 0, or -1 with why (the
 * item that is wrong; the caller adds the option and what is accepted).
 *
 *   options_cpus.c     cpus=     Linux's cpulist (o->job.cpus)
 *   options_kernels.c  kernels=  a mask indexed like kernel_at() (o->job.kernels)
 *   options_events.c   events=   the entries, their syntax (o->job.events)
 *   options_sim.c      sim-fault= items (o->faults)
 *   options_acr.c      acr= (o->job.acr), sim-acr= (o->sim_acr)
 *   options_handoff.c  sim-handoff= items (o->handoff_items)
 *   options_ucode.c    sim-ucode=, sim-stepping= (o->ids)
 *   options_platform.c sim-platform= items (o->platform)
 */
int options_parse_cpus(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_kernels(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_events(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_fault(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_acr(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_acr(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_handoff(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_ucode(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_stepping(struct options *o, const char *v, char *why, size_t why_size);
int options_parse_sim_platform(struct options *o, const char *v, char *why, size_t why_size);

/*
 * The checks across options of the typed ones, against the machine and
 * pmu= (options_check calls them): cpus= and sim-fault= name CPUs that
 * exist, cpu0 does not hang, the sim- options not with pmu=hw.  0, or -1
 * with err filled (the one ERROR line's text).
 */
int options_check_cpus(const struct options *o, char *err, size_t err_size);
int options_check_sim_fault(const struct options *o, char *err, size_t err_size);
int options_check_acr(const struct options *o, char *err, size_t err_size);
int options_check_handoff(const struct options *o, char *err, size_t err_size);
/* The sim-handoff= items onto the simulator once it is selected (0, or -1 with err). */
int options_apply_sim_handoff(const struct options *o, char *err, size_t err_size);
/* sim-ucode= and sim-stepping=: refused with pmu=hw; onto the selected simulator. */
int options_check_sim_ids(const struct options *o, char *err, size_t err_size);
void options_apply_sim_ids(const struct options *o);
/*
 * sim-platform=: the check across options (pmu= is not hw, its processors
 * exist); its processors disabled through the platform, before the
 * simulator is selected (it sizes itself by plat_cpu_count()); the rest
 * onto the simulator once selected.  Each 0, or -1 with err.
 */
int options_check_platform(const struct options *o, char *err, size_t err_size);
int options_apply_platform_cpus(const struct options *o, char *err, size_t err_size);
int options_apply_platform_sim(const struct options *o, char *err, size_t err_size);

/*
 * The option of opt_table nearest to a misspelled name (edit distance at
 * most 2, or NULL): "kernal" -> "kernels".  lib/fmt.h pp_nearest.
 */
const char *options_nearest(const char *name, size_t len);

/*
 * options_host.c: sim-host='s words (enum sim_host's order); the check
 * across options (not with pmu=hw: 0, or -1 with err); the host onto the
 * simulator once the model is selected.
 */
extern const char *const options_sim_host_words[];
int options_check_sim_host(const struct options *o, char *err, size_t err_size);
void options_apply_sim_host(const struct options *o);

/*
 * Parses one line of space-separated tokens (LoadOptions, or one line of
 * the config file; '#' starts a comment).  The first token is skipped when
 * skip_argv0 is true and it does not contain '=' (the shell passes the
 * image name first).  Returns 0, or -1 with err filled.
 */
int options_parse_line(struct options *o, const char *line, bool skip_argv0, char *err,
		       size_t err_size);
/*
 * Parses a whole config file's text (several lines).  An error names the
 * line: "FILE: config line N: ..." (without "FILE: " when file is NULL),
 * or after a "#@source NAME" line, "NAME line N: ..." counting from the
 * line after it (docs/OPTIONS.md).  A refused line is the error (the
 * first one); the lines after it are still applied.
 */
int options_parse_config(struct options *o, const char *file, const char *text, size_t len,
			 char *err, size_t err_size);

/* Where the options come from, as efi/main.c found them. */
struct options_sources {
	const char *config_path;       /* the config file's name, for errors */
	const char *config_text;       /* its text, NULL: no file */
	size_t config_len;	       /* bytes of config_text */
	const char *config_unreadable; /* why it could not be read, or NULL */
	const uint16_t *loadopts;      /* the image's LoadOptions, NULL: none */
	size_t loadopts_bytes;	       /* bytes of loadopts */
};

/*
 * The config file, then LoadOptions (loadopts.h loadopts_parse; line,
 * line_size and *ignored as there).  A refusal in either stops neither:
 * the first is err, and the options around it are applied (exit=, pause=).
 * Returns 0, or -1 with err filled.
 */
int options_read_sources(struct options *o, const struct options_sources *s, char *line,
			 size_t line_size, bool *ignored, char *err, size_t err_size);

/*
 * The checks one token alone cannot make, after all sources are parsed and
 * before any backend is chosen: model= names a simulator model (sim/sim.h)
 * or list, whatever pmu= is; every kernels= name is a kernel
 * (kernels/kernel.h kernel_find); threshold= fits in buffer=.  Returns 0,
 * or -1 with err filled (one line, what was wrong and what is accepted).
 */
int options_check(const struct options *o, char *err, size_t err_size);

/* One INFO line per option with its value, for the log. */
void options_report(const struct options *o);
/* Every option as it is in effect, "pmu=auto model=skl ...", for results.json. */
#define OPTIONS_TEXT_MAX 32768
void options_format(const struct options *o, char *out, size_t size);

#endif
