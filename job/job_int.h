/* SPDX-License-Identifier: MIT */
/*
 * job_int.h - what the main job's files share, internal to job/ (the API
 * is job.h): the runner's state (the job, the CPU measured now, the kernel
 * running there), one sampling, one run's outcome, and the pieces job.c
 * (the job's flow) calls in run.c (one kernel), sampling.c (the
 * generation's samplings, events=), records.c (console lines), results.c
 * (results.json), dump.c (raw dumps) and offcore.c.
 */
#ifndef PP_JOB_INT_H
#define PP_JOB_INT_H

#include "job.h"
#include "../kernels/verdict.h"
#include "../kernels/kernel.h"
#include "../kernels/partner.h"
#include "../lib/json.h"
#include "../lib/report.h"
#include "../decode/summary.h"
#include "../pmu/plan.h"
#include "../pmu/session.h"
#include "../pmu/uarch.h"

/*
 * results.json's kernels: RESULTS_BUF_SIZE, and RESULTS_BUF_PER_CPU more
 * per CPU measured (the default job writes tens of KB per CPU), so that
 * 576 CPUs fit as well as one (struct runner json_size).
 */
#define RESULTS_BUF_SIZE    (1024 * 1024)
#define RESULTS_BUF_PER_CPU (192 * 1024)
#define PROGRESS_EVERY_US   2000000
#define TEST_NAME_MAX	    48
#define RUNNER_MAX_EVENTS   JOB_MAX_EVENTS

/* A processor, as results.json's runs and verdicts name it. */
struct run_cpu {
	unsigned int cpu;      /* the platform's CPU number (0: the boot CPU) */
	unsigned int apic_id;  /* CPUID.1:EBX[31:24], the initial APIC ID (SDM Vol. 2A CPUID) */
	const char *core_type; /* "P-core", "E-core" (CPUID.1AH:EAX[31:24]) or "none" */
};

enum verdict { V_PASS, V_FAIL, V_SKIP };

/*
 * The key figure of one CPU's verdict, typed, as its brief shows it (the
 * first property judged, the calibration's ratio, the offcore latency):
 * the console's line across CPUs gives their range (aggregate.c).
 */
enum run_fig_unit {
	RUN_FIG_NONE,
	RUN_FIG_SHARE_PM,      /* a share of records, per mille: "L1 hits 99.8-100%" */
	RUN_FIG_PER_ACCESS_PM, /* counted per access, thousandths: "split loads 1.00" */
	RUN_FIG_RATIO_X100,    /* hundredths: "PEBS/clock 0.98-1.00" */
	RUN_FIG_CYCLES,	       /* core cycles: "offcore 280 cy" */
};
struct run_fig {
	const char *what; /* static words ("L1 hits"); NULL: none */
	uint8_t unit;	  /* enum run_fig_unit */
	uint64_t value;
};

/* What the job keeps of one CPU it measured (tally.c). */
#define CPU_TALLY_RUNS 96
#define CPU_TALLY_WHY  56
struct cpu_tally {
	unsigned int cpu;
	uint32_t apic_id;
	enum cpu_core_type core_type;
	uint32_t native_model;
	const struct uarch_info *ua;
	bool probed, hung, odd;
	unsigned int count[3]; /* by enum verdict */
	unsigned int n;
	struct {
		char test[TEST_NAME_MAX];
		uint8_t v;
		uint64_t lat; /* median latency of the biggest data-source group; 0 none */
		struct run_fig fig;
		/* a FAIL's or SKIP's deciding clause, its reason's first (aggregate.c) */
		char why[CPU_TALLY_WHY];
	} runs[CPU_TALLY_RUNS];
};

/* dump=on past JOB_DUMP_ALL_CPUS CPUs: the core types that have their representative. */
#define DUMP_REPS_MAX 16

struct cpuset;
struct sampling_now;

/*
 * dump= and what it decided so far (dump.c): every dump up to
 * JOB_DUMP_ALL_CPUS CPUs measured, else each core type's representative's
 * and every failing sampling's.
 */
struct job_dump_policy {
	enum job_dump how;	 /* dump= */
	unsigned int n_measured; /* CPUs cpus= selects */
	struct cpuset *left;	 /* CPUs with samplings the policy did not dump */
	struct cpuset *reps;	 /* each core type's representative: every dump */
	bool rep;		 /* the CPU measured now is one */
	unsigned int n_reps;
	struct {
		uint32_t core_type, native_model;
		const struct uarch_info *ua;
	} rep_of[DUMP_REPS_MAX];
};

/*
 * The whole job, set up once (job.c job_main): the options, results.json
 * being written, the dump policy, the events= list, the options' part of
 * every session and the sampling running now, the hand-off audit.
 */
struct job_state {
	const struct job_opts *jo;
	bool simulated;	   /* reported (results, dumps, the HITM note); never picks sizes */
	bool instrumented; /* the kernels run their instrumented build */
	/* The errata rows last named in an INFO line (job.c note_errata). */
	bool errata_noted;
	uint32_t errata_last;
	uint64_t tsc_hz;
	uint64_t cpu_timeout_us; /* cpu-timeout= in microseconds: how long a CPU's work may take */
	struct json_out json;
	char *json_buf;
	size_t json_size;	     /* RESULTS_BUF_SIZE + RESULTS_BUF_PER_CPU per CPU measured */
	unsigned int n_measured;     /* CPUs cpus= selects */
	struct job_dump_policy dump; /* dump= (job/dump.c) */
	/* events=: the user's sampled events, each a sampling of every kernel */
	const struct pmu_event_spec *user_ev[RUNNER_MAX_EVENTS]; /* struct job_events' entries */
	unsigned int n_user;
	/* The options' part of every sampling's session config, built once (job_session_base). */
	struct session_cfg session;
	struct sampling_now *now; /* the sampling running now */
	/* offcore average latency of the contrast kernel (chase-l1), x100; -1 not measured */
	int64_t contrast_x100;
	/* the firmware hand-off audit of the CPUs of cpus= (handoff.c) */
	struct handoff_job *handoff;
};

/* The CPU measured now (cpus=: each in turn; job.c run_cpus). */
struct job_cpu_now {
	const struct cpu_info *ci;
	const struct uarch_info *ua;
	struct run_cpu at;	 /* it, as results.json names it */
	struct cpu_tally *tally; /* what the job keeps of it; NULL: no CPU now */
	char tag[48];		 /* "; cpu 2 (APIC 2, E-core)": ends every verdict line */
	bool hung;		 /* it did not return: nothing more runs there */
	bool other_only;	 /* neither load nor store sampling here: sample "other" */
};

/* The kernel running now on that CPU (run.c job_run_kernel). */
struct job_kernel_now {
	const char *name;
	uint64_t last_progress_us; /* its last progress line */
	struct partner partner;	   /* a two-CPU kernel's other CPU (kernels/partner.h) */
	/* its load sampling, for its latency calibration (calibrate.c) */
	uint64_t calib_median; /* its records' median latency (job_calib_pebs_median), 0 none */
	char calib_test[TEST_NAME_MAX];
	/* why its buffer is not in pebsprobe's own 4 KiB pages (pmu/paging.h), "" */
	char page_why[160];
};

/* The job, the CPU measured now and the kernel running there. */
struct runner {
	struct job_state job;
	struct job_cpu_now cpu;
	struct job_kernel_now kern;
};

/*
 * One sampling of a kernel: which event, and which of the kernel's
 * accesses it counts (the verdict rows that apply follow from that).
 */
struct sampling {
	char name[16];	     /* the test name's second part: load, store, other, eventN */
	unsigned int acc;    /* KSAMPLE_LOAD / KSAMPLE_STORE, 0: none of the kernel's accesses */
	enum pebs_kind kind; /* with event NULL: the generation's event of this kind */
	const char *event;   /* session_cfg.sample_event */
	const struct pmu_event_spec *spec; /* session_cfg.sample_spec: events= */
	bool user;			   /* from events= */
	bool all_qualify;		   /* every counted access is an event */
	uint32_t force;			   /* records forced through GLOBAL_STATUS_SET (Goldmont) */
};

/*
 * The options' part of a session's config (ldlat=, buffer=, threshold=,
 * drain=, snapshot=, cpu-timeout=), built once for the job (job.c) and for
 * its check (check.c); each sampling adds its own (sampling.c).
 */
void job_session_base(const struct job_opts *jo, uint64_t cpu_timeout_us, struct session_cfg *cfg);

/* The verdict on a run's counter-snapshot group (snapshot.c). */
struct snap_out {
	bool asked;		   /* a group was programmed (snapshot=on) */
	bool bad;		   /* the group failed; why says how */
	bool copy_checked;	   /* the counting copy's k-periods bound was judged */
	uint32_t gp, fixed;	   /* the programmed GP / fixed counter masks */
	uint64_t records, missing; /* records judged; of them without the group as programmed */
	unsigned int judged;	   /* counting counters judged */
	unsigned int n_last;
	struct {
		int ctr; /* GP n or 32+i */
		uint64_t value;
	} last[40]; /* each counter's value in the last record */
	char why[160];
};

struct run_out {
	struct snap_out snap;
	struct kstats st;
	struct kverdict_in in;
	struct kprops props; /* each property's state (verdict_evaluate) */
	uint64_t anomalies;
	uint64_t kinds[3];	/* records by enum session_rec_kind */
	uint64_t lost_inferred; /* records missing by the kernel's accesses (no counting copy) */
	bool smi_known;		/* MSR_SMI_COUNT read before and after the sampling */
	uint64_t smis;		/* SMIs during the sampling (handoff.c) */
	uint64_t race[PEBS_RACE_KINDS]; /* records by the status rule (races.c) */
};

/*
 * The sampling running now (run.c) or the calibration's count (calibrate.c):
 * its session's config, plan, result, records' summary and outcome and its
 * verdict's words.  One per job, allocated with it: out of the frames, which
 * the UEFI build keeps to 1 KiB (docs/ARCHITECTURE.md "Stacks"); the job
 * runs on the BSP only.
 */
struct sampling_now {
	struct session_cfg cfg;
	struct pmu_plan plan;	     /* the session's plan, worked out first (pure) */
	struct pebs_summary summary; /* its records by data source (records.c) */
	struct session_result res;
	struct run_out o;
	char text[REPORT_TEXT_MAX];
};

/* sampling.c */
bool sampling_kind(const struct uarch_info *ua, unsigned int sampling, enum pebs_kind *k,
		   const char **event);
const char *sampling_name(unsigned int sampling);
bool job_default_sampling(const struct job_opts *jo, const struct uarch_info *ua, unsigned int acc,
			  struct sampling *s);
void job_other_sampling(const char *name, uint32_t force, struct sampling *s);
unsigned int job_kind_accesses(enum pebs_kind kind);
void job_user_events(struct job_state *js, const struct job_events *ev);

/*
 * races.c: one record through the status rule (true: dropped, kept out of
 * the statistics); the records so dropped; the verdict's words on them
 * (appended to text); the sampling's "status_race" object.
 */
bool job_race_count(struct run_out *o, const struct pebs_decode_cfg *cfg,
		    const struct pebs_record *rec);
uint64_t job_race_dropped(const struct run_out *o);
void job_race_text(const struct session_result *res, const struct run_out *o, char *text,
		   size_t size);
void job_race_json(struct json_out *j, const struct session_result *res, const struct run_out *o);

/* records.c */
extern const char *const job_rec_kind_names[3];
uint64_t job_cycles_to_ns(const struct job_state *js, const struct session_result *res,
			  uint64_t cycles);
void job_print_kinds(const char *test, const struct run_out *o);
void job_report_drained(const char *test, const struct sampling *s, const struct kernel_ctx *k,
			const struct session_result *res, struct run_out *o);
void job_print_sources(const struct job_state *js, const struct session_result *res);
/* A source's records per power-of-two latency bin (bin b: latencies 2^b..2^(b+1)-1). */
void job_source_bins(const struct pebs_summary_group *grp, uint64_t bins[PEBS_SUMMARY_LOG_BINS]);
void job_decode_records(struct job_state *js, const struct session_result *res, struct run_out *o);

/* snapshot.c */
void job_snapshot_judge(const struct session_result *res, const struct pmu_plan *p,
			struct snap_out *so);
void job_snapshot_text(const struct snap_out *so, char *buf, size_t size);
void job_snapshot_json(struct json_out *j, const struct snap_out *so);
/* The run's verdict v with the group's verdict joined: text gets "; counter snapshot: ...". */
enum verdict job_snapshot_verdict(const struct pmu_plan *p, const struct session_result *res,
				  struct run_out *o, enum verdict v, char *text, size_t size);

/* outcome.c */

/* A run, as its verdict line and its results.json object name it. */
struct run_ref {
	const char *test;		  /* "kernel/sampling": the verdict line's name */
	const char *sampling;		  /* results.json "sampling" */
	enum pebs_kind kind;		  /* results.json "kind" */
	bool kind_unknown;		  /* no such sampling here: "kind" is null */
	const struct session_result *res; /* the measurement; NULL: the run did not happen */
	const struct run_out *o;	  /* with res */
	const struct run_cpu *where;	  /* the CPU it ran on; NULL: the runner's boot CPU */
};

/*
 * The one way a run ends: "PASS: test: why" (FAIL, SKIP: "FAIL: test: why")
 * on the console and, in the open "runs" array, its object with the same
 * verdict and why, then the measurement when there is one.  prefix (or
 * NULL) goes before why on the console line only ("refused: ").
 */
void job_outcome(struct runner *r, const struct run_ref *run, enum verdict v, const char *prefix,
		 const char *why);
/* A run's "cpu", "apic_id" and "core_type" into the open object. */
void job_json_run_cpu(struct json_out *j, const struct run_cpu *where);
/* The same pair, "verdict" and "why" into the open object and the line, for other objects. */
void job_verdict(struct runner *r, const char *test, enum verdict v, const char *prefix,
		 const char *why);

/* results.c */
void job_json_run_fields(struct job_state *js, const struct session_result *res,
			 const struct run_out *o);

/* dump.c */
void job_write_dump(const struct job_state *js, const struct cpu_info *ci, const char *test,
		    const struct session_result *res);
/*
 * dump=: the policy (job.h enum job_dump), set up and freed with the job.
 * job_dump_cpu_begin() before a CPU's
 * kernels decides whether it is its core type's representative;
 * job_dump_sampling() writes the dump of one sampling or leaves it out, by its
 * verdict; job_dump_report() says, once, which CPUs' dumps were left out (an
 * INFO line and results.json "dumps").
 */
void job_dump_policy_init(struct job_dump_policy *d, enum job_dump how, unsigned int n_measured,
			  unsigned int ncpus);
void job_dump_policy_free(struct job_dump_policy *d);
void job_dump_cpu_begin(struct job_dump_policy *d, const struct cpu_info *ci,
			const struct uarch_info *ua);
void job_dump_sampling(struct job_state *js, const struct cpu_info *ci, const char *test,
		       const struct session_result *res, enum verdict v);
void job_dump_report(const struct job_dump_policy *d, struct json_out *j);

/*
 * records.c: the instruction boundary a record's IP names on this CPU for
 * records of format fmt (decode/decode.h: the eventing IP from format 2,
 * else R/EIP, after the instruction where PEBS is trap-like).
 */
enum kip_point job_ip_point(const struct cpu_info *ci, unsigned int fmt);

/* offcore.c */
void job_run_offcore(struct runner *r, struct kernel_ctx *k);

/* calibrate.c: a chase kernel's PEBS latency against its cycles per load */
uint64_t job_calib_pebs_median(const struct pebs_summary *s);
uint64_t job_calib_high_x100(uint64_t cpl_x100);
void job_run_calibration(struct runner *r, struct kernel_ctx *k);

/* acr.c: a kernel with .acr, run under an auto counter reload group */
void job_run_acr(struct runner *r, struct kernel_ctx *k);

/* tally.c: what is kept of each CPU (outcome.c feeds it; it calls no other file of job/) */
void job_cpu_tally_begin(struct job_cpu_now *cn, struct cpu_tally *t, const struct cpu_info *ci);
/* why: the verdict's whole reason (its prefix with it); its first clause is kept. */
void job_cpu_tally_verdict(struct cpu_tally *t, const char *test, enum verdict v, const char *why);
/* The run just given its verdict was measured: keep its figure and latency (sum: its records). */
void job_cpu_tally_measured(struct cpu_tally *t, const struct pebs_summary *sum,
			    const struct run_out *o);
/* The key figure of the verdict just tallied (job_cpu_tally_verdict), where it has one. */
void job_cpu_tally_figure(struct cpu_tally *t, const char *what, enum run_fig_unit unit,
			  uint64_t value);
/* cpus.c: the per-CPU table and cpu-compare, its verdicts through outcome.c */
void job_cpu_tally_report(struct runner *r, struct cpu_tally *t, unsigned int n);
/* aggregate.c: several CPUs: one console line per test across them. */
void job_aggregate_report(const struct cpu_tally *t, unsigned int n);

/* handoff.c: the firmware hand-off audit, over the CPUs of a set */
struct handoff_job;
void job_handoff_audit_begin(struct job_state *js,
			     const struct cpuset *set); /* before any session */
/* each CPU's read as found (before its sessions) and again (after them) */
void job_handoff_cpu_begin(struct job_state *js, unsigned int cpu, const struct cpu_info *ci);
void job_handoff_cpu_end(struct job_state *js, unsigned int cpu);
void job_handoff_audit_end(struct job_state *js); /* after the last; writes "handoff" */
void job_handoff_json(struct job_state *js);
/* MSR_SMI_COUNT on the measured CPU before and after a sampling; o gets the difference. */
struct smi_mark {
	bool known;
	uint64_t before;
};
void job_handoff_smi_mark(struct job_cpu_now *cn, uint64_t timeout_us, struct smi_mark *m);
void job_handoff_smi_since(struct job_cpu_now *cn, uint64_t timeout_us, const struct smi_mark *m,
			   struct run_out *o);
/* text gets "; N SMIs during the sampling" when N > 0. */
void job_handoff_smi_text(const struct run_out *o, char *text, size_t size);

/* run.c: one kernel on the CPU measured now (r->cpu.ci) */
void job_run_kernel(struct runner *r, const struct kernel_def *def);
/* Every sampling of the kernel a SKIP line and results row with the formatted why. */
void job_skip_kernel(struct runner *r, const struct kernel_def *def, const char *fmt, ...)
    pp_printf(3, 4);

#endif
