/* SPDX-License-Identifier: MIT */
/*
 * kernel.h - the synthetic load/store kernels: what each one does, its
 * parameters, and the two builds of every kernel.
 *
 * ONE source (kernels/kbody.h), TWO builds (kernels/kernels.c includes it
 * twice):
 *   real          the tight loop and nothing else: each memory access is one
 *                 instruction in an asm statement, so the access pattern is
 *                 exactly what the kernel says;
 *   instrumented  the same loop, where each access is followed by a call
 *                 hw_current()->mem_access(ip, ip_next, addr, size, kind)
 *                 with ip the address of THAT access instruction (a local
 *                 asm label) and ip_next of the one after it, and the loop
 *                 overhead by ->retire(ip, n).  Used when
 *                 hw_is_simulated(): the simulated PMU sees every access.
 *
 * A kernel records the range of its own code ([ip_lo, ip_hi], taken with
 * `lea` at the start and the end of its body) so the verdicts can check
 * that PEBS records' IPs fall inside the kernel.
 */
#ifndef PP_KERNEL_H
#define PP_KERNEL_H

#include "../lib/compat.h"
#include "../pmu/hw.h"
#include "../pmu/paging.h"

struct kernel_ctx;
typedef void (*kernel_body_fn)(struct kernel_ctx *k);

struct kernel_ctx {
	/* Filled by kernel_prepare() from the definition and the options. */
	const struct kernel_def *def;
	uint8_t *buf;		  /* the working set, page-aligned */
	size_t size;		  /* its size in bytes */
	size_t alloc_pages;	  /* pages allocated for buf */
	uint64_t iterations;	  /* loop iterations on the sampled CPU */
	uint32_t stride;	  /* bytes between successive accesses (or chase slot size) */
	uint32_t offset;	  /* byte offset of each access in its stride/slot */
	uint64_t start;		  /* chase: address of the first pointer */
	bool instrumented;	  /* run the instrumented build */
	const struct hw_ops *ops; /* the simulator's hooks (instrumented build) */
	/*
	 * The page tables buf runs under (pmu/paging.h): kernel_run() switches
	 * CR3 to pages.cr3 on the CPU it runs on and back after; 0 keeps the
	 * firmware's, and so does a CPU whose CR3 or CR4 is not the one the
	 * tables were built from (page_why says so).  run_cr3: CR3 as read
	 * back during the last run there, the tables the kernel really ran under.
	 */
	struct paging_root pages;
	struct paging_tables *tables; /* the tables pages names; a session adds its DS area */
	uint64_t run_cr3;
	char page_why[120];
	/*
	 * On the boot CPU, while the body runs (kernel_run): the TPL it held
	 * before (lib/platform.h plat_tpl_raise), the firmware's CR3 and
	 * whether ours is loaded; held: the body holds TPL_HIGH_LEVEL and
	 * output (kernel_output_begin).
	 */
	uint64_t tpl, fw_cr3;
	bool held, own;

	/*
	 * Progress: called between chunks of the loop; NULL for none.  A line
	 * it prints goes between kernel_output_begin() and kernel_output_end().
	 */
	void (*progress)(struct kernel_ctx *k, uint64_t done);
	void *progress_ctx;
	/*
	 * drain=pmi (kernel_set_drain).  Where the body holds TPL_HIGH_LEVEL
	 * (held: the boot CPU) a PMI waits in the IRR, so between chunks of
	 * kernel_chunk() iterations kernel_progress lets it in (pmi_window);
	 * elsewhere it comes by itself and the chunk is KERNEL_CHUNK.
	 * pmi_chunk: that chunk, from the threshold's reserve (kernel_pmi_chunk).
	 */
	bool pmi;
	uint64_t pmi_chunk;
	/* Windows not opened: the firmware's TPR held the PMI's class. */
	uint32_t pmi_tpr_held;

	/* Filled by the kernel while it runs. */
	uint64_t ip_lo, ip_hi;	/* the kernel body's code */
	uint64_t loads, stores; /* accesses done on the sampled CPU */
	uint64_t sink;		/* keeps results alive */
	int error;		/* 0, or why the kernel could not run (two-core start) */

	/*
	 * Two-core kernels: the other CPU's part.  cpu: the CPU the kernel
	 * runs on (lib/platform.h numbering).  On the BSP the other part runs
	 * on CPU partner, posted from the kernel; on any other CPU the BSP
	 * runs it (partner 0) or posts it to the partner (an AP cannot start a
	 * CPU: MP services are for the BSP only), from kernel_bsp_idle() while
	 * it waits (lib/cpurun.h).
	 */
	unsigned int cpu;
	unsigned int partner; /* the other CPU, on another core (kernels/partner.h) */
	/*
	 * How long the other part may take to start and to stop (the job's
	 * cpu-timeout=): an AP woken by MP services under a loaded
	 * hypervisor may take seconds, so no shorter limit of the kernel's own.
	 */
	uint64_t cpu_timeout_us;
	volatile uint32_t ap_ready, ap_stop, ap_go, ap_done;
	volatile uint64_t ap_iterations;
};

/* What the main job samples while a kernel runs. */
enum kernel_sampling {
	KSAMPLE_LOAD = 1 << 0, /* load latency (ldlat) */
	KSAMPLE_STORE =
	    1
	    << 1, /* the generation's store sampling: precise store, DataLA store, store latency */
};

struct kernel_expect;

struct kernel_def {
	const char *name; /* kernels=NAME and the verdict lines */
	const char *base; /* the body it runs ("chase", "strided", ...) */
	const char *what; /* one line for docs and the start line */
	kernel_body_fn real, sim;
	uint64_t size, size_sim;   /* default working set (real hardware, simulator/QEMU) */
	uint64_t min_size;	   /* below this the kernel is meaningless */
	uint64_t iters, iters_sim; /* default iterations */
	uint32_t stride, offset;
	bool chase;		/* the buffer is a pointer-chase chain (slot = stride) */
	unsigned int cpus;	/* 1, or 2 for the sharing kernels */
	unsigned int samplings; /* enum kernel_sampling */
	uint32_t loads_per_iter, stores_per_iter;
	const struct kernel_expect *expect; /* the verdict table (verdict.h) */
	size_t n_expect;
	bool in_default_job;
	/*
	 * Also measure the average offcore demand-read latency (pmu/offcore.h,
	 * SDM 18.6.3) over one more run: KOFF_CONTRAST for a kernel that should
	 * have (almost) no offcore requests, KOFF_JUDGE for the one judged.
	 */
	enum { KOFF_NONE, KOFF_CONTRAST, KOFF_JUDGE } offcore;
	/*
	 * Not sampled: run once under an auto counter reload group instead
	 * (pmu/acr.h, verdict kernels/acr.h); samplings is 0.
	 */
	bool acr;
	/*
	 * One dependent load per iteration: its cycles per load, counted
	 * without PEBS, calibrate the PEBS latency (job/calibrate.c).
	 */
	bool calibrate;
};

/* The most kernel rows: kernels= is one bit per row (job/job.h struct job_opts). */
#define KERNEL_MAX 64
size_t kernel_count(void);
const struct kernel_def *kernel_at(size_t i);
/* By name ("chase" is the chase at any size, not in the default job). NULL if unknown. */
const struct kernel_def *kernel_find(const char *name);
/* "chase-l1, chase-l2, ..." for error lines. */
void kernel_names(char *buf, size_t size);

/*
 * Allocates and lays out the working set (pointer chain, ...).  size and
 * iterations of 0 take the definition's defaults (the _sim ones when
 * `simulated`).  When memory is short the size is halved until it fits
 * (never below def->min_size); *clipped tells.  Not measured.
 * Returns 0, or -1 with why filled.
 */
int kernel_prepare(struct kernel_ctx *k, const struct kernel_def *def, uint64_t size,
		   uint64_t iterations, bool simulated, bool *clipped, char *why, size_t why_size);
/* Runs the chosen build once: the session's kernel callback (void *arg = k). */
void kernel_run(void *k);
void kernel_release(struct kernel_ctx *k);
/*
 * Before another run of the same kernel: a chase continues its chain where
 * the last run stopped (k->sink), so its lines are not the ones that run
 * left in the caches.
 */
void kernel_next_chain(struct kernel_ctx *k);

/*
 * Called by the bodies between chunks: the PMI window where the body holds
 * TPL_HIGH_LEVEL with drain=pmi, then the caller's progress fn (which
 * rate-limits its lines).
 */
void kernel_progress(struct kernel_ctx *k, uint64_t done);
/* Loop iterations between kernel_progress calls for this run (K_LOOP). */
uint64_t kernel_chunk(const struct kernel_ctx *k);
struct session_cfg;
struct pmu_plan;
/*
 * Before a sampling's run: whether it drains on PMIs (cfg->drain) and the
 * chunk then, from the plan's period and kind and what its PEBS flavour's
 * threshold leaves free (pmu/pebs_flavour.h pebs_flavour_pmi_free); a
 * flavour without records: KERNEL_CHUNK_PMI.  Where two iterations count
 * past what that room holds (the chunk's floor), an INFO line.
 */
void kernel_set_drain(struct kernel_ctx *k, const struct session_cfg *cfg,
		      const struct pmu_plan *plan);
/*
 * Iterations per chunk where a PMI waits for the chunk's end: two chunks
 * (the PMI may reach the IRR up to a chunk late) write at most reserve + 1
 * records (the one that crosses the threshold, then the reserve) at
 * `period` events each, per_iter events an iteration at most; between 1
 * and KERNEL_CHUNK_PMI.
 */
uint64_t kernel_pmi_chunk(uint64_t period, unsigned int reserve, unsigned int per_iter);
/*
 * Around output or any firmware call made while a body runs: on the boot
 * CPU, the firmware's CR3 back, then its TPL, and the lines held since
 * printed (kernel_output_begin); TPL_HIGH_LEVEL again, then our CR3
 * (kernel_output_end).  The firmware edits the tables CR3 names (EDK II
 * CpuDxe GetCurrentPagingContext), and ConOut is for TPL_NOTIFY and below
 * (UEFI spec 7.1).  Elsewhere (an AP, whose lines are held anyway): nothing.
 */
void kernel_output_begin(struct kernel_ctx *k);
void kernel_output_end(struct kernel_ctx *k);
/*
 * Two-core kernels: starts the other CPU's part (stores to buf + offset
 * until told to stop) and waits until it runs; on failure sets k->error and
 * returns -1.  kernel_stop_ap() stops it and waits for it.
 */
int kernel_start_ap(struct kernel_ctx *k);
void kernel_stop_ap(struct kernel_ctx *k);
/*
 * The BSP's part while a kernel runs on another CPU (k->cpu != 0): the
 * other part of a two-core kernel when that kernel asks for it, else
 * nothing.  Called over and over by cpurun_run() (lib/cpurun.h); arg: the
 * struct kernel_ctx.
 */
void kernel_bsp_idle(void *arg);
/*
 * Instrumented build: the other CPU's load and store of the shared word
 * (buf + offset) reported to that CPU's simulated core
 * (hw_ops.mem_access_cpu), once per iteration between this CPU's store and
 * its next load: the order in which the two CPUs' accesses reach the
 * caches is then the program's, not the threads' timing, so the
 * simulator's coherence model (sim/coherence.c) gives every run the same
 * records.  The real other CPU still runs its real loop meanwhile.
 */
void kernel_partner_access(struct kernel_ctx *k);

/*
 * The memory instructions of every kernel body, both builds (kbody.h
 * K_ACCESS puts each into a table at build time): where the instruction
 * is, where the one after it starts, and its kind (HW_LOAD, HW_STORE, ...).
 * A record's IP is judged against these (kernels/verdict.h, precision).
 */
struct kernel_insn {
	uint64_t at, after;
	uint32_t kind;
};
/* How many the whole table holds. */
size_t kernel_insn_count(void);
/* Entry i in table order (the assembler's), NULL past the end. */
bool kernel_insn_at(size_t i, struct kernel_insn *out);
/*
 * Those whose address lies in [lo, hi] (a kernel's code range), sorted by
 * address, at most max into out; returns how many there are.
 */
size_t kernel_insns(uint64_t lo, uint64_t hi, struct kernel_insn *out, size_t max);

/* The bodies (kbody.h), both builds. */
#define KERNEL_BODIES(X)                                                                           \
	X(chase) X(strided) X(stream_store) X(split) X(locked) X(stfwd_block) X(alias_4k) X(share)
#define KERNEL_DECLARE(n)                                                                          \
	void kbody_##n##_real(struct kernel_ctx *k);                                               \
	void kbody_##n##_sim(struct kernel_ctx *k);
KERNEL_BODIES(KERNEL_DECLARE)
#undef KERNEL_DECLARE

/* Loop iterations between progress calls. */
#define KERNEL_CHUNK 65536
/*
 * With drain=pmi, where the body holds TPL_HIGH_LEVEL (interrupts off): a
 * PMI waits for the next chunk's end (pmu/session.h pmi_window), so the
 * chunk is cut to what the threshold's reserve holds (kernel_pmi_chunk);
 * at most this many iterations, however large the period.
 */
#define KERNEL_CHUNK_PMI 1024

#endif
