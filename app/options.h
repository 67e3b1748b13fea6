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

/* sim-handoff=, parsed once (app/options_handoff.c): what to leave on which CPU. */
#define OPT_HANDOFF_MAX 32
struct opt_sim_handoff {
	unsigned int n;
	struct {
		unsigned int cpu;
		enum sim_handoff_kind kind;
		uint32_t smis; /* smi: SMIs per sampling (smiN; smi alone: 1) */
	} item[OPT_HANDOFF_MAX];
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
	char sim_fault[64]; /* sim-fault=cpuN:KIND[,...]    default none */
	char sim_acr[64];   /* sim-acr=off|EAX,EBX,ECX,EDX  default off (app/options_acr.c) */
	char sim_handoff[OPT_STR_MAX];	      /* sim-handoff=cpuN:KIND[,...]  default none */
	struct opt_sim_handoff handoff_items; /* sim-handoff= as parsed (app/options_handoff.c) */
	enum opt_sim_pages sim_pages;	      /* sim-pages=4k|2m|1g           default 4k */
	enum sim_host sim_host; /* sim-host=none|kvm|kvm-6.8 default none (app/options_host.c) */
};

void options_defaults(struct options *o);

/* One item of sim-fault=, as the simulator takes it (sim/sim.h sim_set_fault). */
struct options_fault {
	unsigned int cpu;
	enum sim_fault kind;
	int32_t arg; /* latency-bias=PCT: the percentage; 0 for the other kinds */
};

/* sim-fault='s KIND words, as its table row and its check name them. */
#define OPT_SIM_FAULT_KINDS                                                                        \
	"no-records, wrong-latency, gp-on-enable, hang, skid, cr3-kept, own-cr3, apic-off, "       \
	"unmapped-cr3 or latency-bias=PCT"

/* latency-bias=PCT: the accepted percentages. */
#define OPT_LATENCY_BIAS_MIN (-90)
#define OPT_LATENCY_BIAS_MAX 900

/*
 * sim-fault='s i-th item (0 = the first): 0 with *f set, 1 past the last,
 * -1 if it is not cpuN:KIND or cpuN:latency-bias=PCT (sim/sim.h
 * sim_fault_parse; PCT an integer OPT_LATENCY_BIAS_MIN..MAX).
 */
int options_sim_fault_at(const char *spec, size_t i, struct options_fault *f);
/*
 * options_sim.c: sim-fault= against the machine and pmu= (its CPUs exist,
 * cpu0 does not hang, pmu= is not hw): 0, or -1 with err filled.
 */
int options_check_sim_fault(const struct options *o, char *err, size_t err_size);

/*
 * options_acr.c: sim-acr='s four registers (all 0 for off or empty): 0, or
 * -1 if it is neither off nor four numbers; and the syntax of acr= and
 * sim-acr= (0, or -1 with err filled: the one ERROR line's text).
 */
int options_sim_acr(const char *spec, uint32_t regs[4]);
int options_check_acr(const struct options *o, char *err, size_t err_size);

/*
 * options_handoff.c: sim-handoff='s text into o->handoff_items, when the
 * token is read (0, or -1 with why: the item that is wrong); the check
 * across options (its CPUs exist, pmu= is not hw); and the items onto
 * the simulator once it is selected (0, or -1 with err: a CPU that cannot
 * hold its kind).
 */
int options_parse_sim_handoff(struct options *o, char *why, size_t why_size);
int options_check_handoff(const struct options *o, char *err, size_t err_size);
int options_apply_sim_handoff(const struct options *o, char *err, size_t err_size);

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
 * line after it (docs/OPTIONS.md).
 */
int options_parse_config(struct options *o, const char *file, const char *text, size_t len,
			 char *err, size_t err_size);

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
#define OPTIONS_TEXT_MAX 1024
void options_format(const struct options *o, char *out, size_t size);

#endif
