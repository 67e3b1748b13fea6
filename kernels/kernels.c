// SPDX-License-Identifier: MIT
/*
 * kernels.c - the kernel bodies in both builds, the kernel definitions with
 * their expectations (the verdict tables), and preparing/running a kernel.
 */
#include "kernel.h"
#include "verdict.h"
#include "perm.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../pmu/paging.h"
#include "../pmu/plan.h"
#include "../pmu/session.h"

/*
 * The table of memory instructions (kernel.h struct kernel_insn): kbody.h
 * emits each entry into subsection 1 of its section; these markers, in
 * subsections 0 and 2, bound it whatever order the compiler emits things
 * in.  The section name starts with .rodata, so the EFI link script's
 * *(.rodata*) keeps it in the image (Makefile's objcopy keeps .data) and
 * the host links keep it in .rodata.
 */
struct kinsn_raw {
	int32_t at, after; /* each relative to its own field */
	uint32_t kind;
};
extern const struct kinsn_raw kinsn_start[] __attribute__((visibility("hidden")));
extern const struct kinsn_raw kinsn_end[] __attribute__((visibility("hidden")));
asm(".pushsection .rodata.pp_kinsn, 0, \"a\", @progbits\n\t"
    ".balign 4\n"
    "kinsn_start:\n\t"
    ".popsection\n\t"
    ".pushsection .rodata.pp_kinsn, 2, \"a\", @progbits\n\t"
    ".balign 4\n"
    "kinsn_end:\n\t"
    ".popsection");

/* The real build, then the instrumented build, of the same bodies. */
#define KSIM 0
#include "kbody.h"
#undef KSIM
#define KSIM 1
#include "kbody.h"
#undef KSIM

#define KiB (1024ULL)
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

/*
 * What a row needs of the generation (pmu/uarch.h): a UA_JUDGE_* flag for
 * the data-source bits it judges, or a counted event's role, whose perfmon
 * name the generation's row gives.  No generation is named here.
 */
#define J_LOCK_TLB UA_JUDGE_LOCK_TLB
#define J_HITM	   UA_JUDGE_HITM
#define J_BLK	   UA_JUDGE_BLK
#define NO_COUNT   UA_COUNT_NONE

#define L  KSAMPLE_LOAD
#define S  KSAMPLE_STORE
#define LS (KSAMPLE_LOAD | KSAMPLE_STORE)

/* { sampling, property, arg, min per mille, max per mille, needs, counted role, words } */
static const struct kernel_expect exp_chase_l1[] = {
    {L, KEXP_LEVEL, KLV_BIT(KLV_L1), 900, 0, 0, NO_COUNT, "L1 hits"},
};
static const struct kernel_expect exp_chase_l2[] = {
    {L, KEXP_LEVEL, KLV_BIT(KLV_L2), 500, 0, 0, NO_COUNT, "L2 hits"},
};
static const struct kernel_expect exp_chase_dram[] = {
    {L, KEXP_LEVEL, KLV_BIT(KLV_RAM) | KLV_BIT(KLV_REMOTE_RAM), 500, 0, 0, NO_COUNT, "RAM"},
};
static const struct kernel_expect exp_page_walk[] = {
    {L, KEXP_STLB_MISS, 0, 500, 0, J_LOCK_TLB, NO_COUNT, "STLB misses"},
};
static const struct kernel_expect exp_strided[] = {
    {LS, KEXP_DLA_ON_STRIDE, 0, 990, 0, 0, NO_COUNT, "addresses on the stride"},
};
/*
 * Each sampling judges the split accesses of its own kind: a store run's
 * verdict speaks of stores.  An event that samples neither (events=) still
 * gets both rows (kernel_row_applies).
 */
static const struct kernel_expect exp_split[] = {
    {LS, KEXP_DLA_ON_STRIDE, 0, 990, 0, 0, NO_COUNT, "addresses on the stride"},
    {L, KEXP_COUNT_PER_ACCESS, 0, 900, 1100, 0, UA_COUNT_SPLIT_LOADS, "split loads"},
    {S, KEXP_COUNT_PER_ACCESS, 1, 900, 1100, 0, UA_COUNT_SPLIT_STORES, "split stores"},
};
static const struct kernel_expect exp_locked[] = {
    {L, KEXP_LOCKED, 0, 900, 0, J_LOCK_TLB, NO_COUNT, "locked"},
};
static const struct kernel_expect exp_stfwd[] = {
    {L, KEXP_COUNT_PER_ACCESS, 0, 500, 0, 0, UA_COUNT_STFWD_BLOCK, "store-forward blocks"},
    {L, KEXP_BLK_DATA, 0, 500, 0, J_BLK, NO_COUNT, "blocked by data (store forward)"},
};
static const struct kernel_expect exp_alias[] = {
    {L, KEXP_COUNT_PER_ACCESS, 0, 500, 0, 0, UA_COUNT_4K_ALIAS, "4K-alias blocks"},
};
/*
 * HITM needs the line modified in ANOTHER core's cache: judged wherever the
 * generation's data source reports a snoop HITM (the big cores from
 * Haswell, the E-cores from Gracemont, Panther Cove and Arctic Wolf's OMR
 * encoding), on the simulator too (the other CPU's accesses reach its own
 * simulated core, sim/coherence.c).
 */
static const struct kernel_expect exp_share[] = {
    {L, KEXP_HITM, 0, 100, 0, J_HITM, NO_COUNT, "HITM"},
};

#define EXP(t) t, ARRAY_SIZE(t)

static const struct kernel_def kernel_defs[] = {
    /* The chase at any size (kernels=chase size=..., pebs-kernels chase --size ...). */
    {.name = "chase",
     .base = "chase",
     .what = "pointer chase at the size asked for",
     .real = kbody_chase_real,
     .sim = kbody_chase_sim,
     .size = 64 * MiB,
     .size_sim = 1 * MiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .chase = true,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = NULL,
     .n_expect = 0,
     .in_default_job = false},
    {.name = "chase-l1",
     .base = "chase",
     .what = "pointer chase inside L1 (16 KiB)",
     .real = kbody_chase_real,
     .sim = kbody_chase_sim,
     .size = 16 * KiB,
     .size_sim = 16 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .chase = true,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_chase_l1),
     .calibrate = true,
     .in_default_job = true,
     .offcore = KOFF_CONTRAST},
    {.name = "chase-l2",
     .base = "chase",
     .what = "pointer chase past L1, inside L2 (128 KiB)",
     .real = kbody_chase_real,
     .sim = kbody_chase_sim,
     .size = 128 * KiB,
     .size_sim = 128 * KiB,
     .min_size = 64 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .chase = true,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_chase_l2),
     .calibrate = true,
     .in_default_job = true},
    {.name = "chase-dram",
     .base = "chase",
     .what = "pointer chase far past the LLC",
     .real = kbody_chase_real,
     .sim = kbody_chase_sim,
     .size = 1 * GiB,
     .size_sim = 32 * MiB,
     .min_size = 16 * MiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .chase = true,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_chase_dram),
     .calibrate = true,
     .in_default_job = true,
     .offcore = KOFF_JUDGE},
    {.name = "page-walk",
     .base = "chase",
     .what = "one load per 4 KiB page, random order (STLB misses)",
     .real = kbody_chase_real,
     .sim = kbody_chase_sim,
     .size = 256 * MiB,
     .size_sim = 16 * MiB,
     .min_size = 16 * MiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 4096,
     .chase = true,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_page_walk),
     .in_default_job = true},
    {.name = "seq-load",
     .base = "strided",
     .what = "sequential 8-byte loads",
     .real = kbody_strided_real,
     .sim = kbody_strided_sim,
     .size = 1 * MiB,
     .size_sim = 256 * KiB,
     .min_size = 4 * KiB,
     .iters = 4000000,
     .iters_sim = 6000,
     .stride = 8,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_strided),
     .in_default_job = true},
    {.name = "stride-load",
     .base = "strided",
     .what = "8-byte loads every 256 bytes",
     .real = kbody_strided_real,
     .sim = kbody_strided_sim,
     .size = 4 * MiB,
     .size_sim = 1 * MiB,
     .min_size = 4 * KiB,
     .iters = 4000000,
     .iters_sim = 6000,
     .stride = 256,
     .offset = 8,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .expect = EXP(exp_strided),
     .in_default_job = true},
    {.name = "stream-store",
     .base = "stream_store",
     .what = "sequential non-temporal stores (movnti)",
     .real = kbody_stream_store_real,
     .sim = kbody_stream_store_sim,
     .size = 4 * MiB,
     .size_sim = 256 * KiB,
     .min_size = 4 * KiB,
     .iters = 4000000,
     .iters_sim = 6000,
     .stride = 8,
     .cpus = 1,
     .samplings = S,
     .stores_per_iter = 1,
     .expect = EXP(exp_strided),
     .in_default_job = true},
    {.name = "split-line",
     .base = "split",
     .what = "8-byte load+store across a cache-line boundary",
     .real = kbody_split_real,
     .sim = kbody_split_sim,
     .size = 64 * KiB,
     .size_sim = 64 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .offset = 60,
     .cpus = 1,
     .samplings = LS,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_split),
     .in_default_job = true},
    {.name = "split-page",
     .base = "split",
     .what = "8-byte load+store across a 4 KiB page boundary",
     .real = kbody_split_real,
     .sim = kbody_split_sim,
     .size = 1 * MiB,
     .size_sim = 256 * KiB,
     .min_size = 8 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 4096,
     .offset = 4092,
     .cpus = 1,
     .samplings = LS,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_split),
     .in_default_job = true},
    {.name = "lock",
     .base = "locked",
     .what = "locked read-modify-write (lock add) per line",
     .real = kbody_locked_real,
     .sim = kbody_locked_sim,
     .size = 4 * KiB,
     .size_sim = 4 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_locked),
     .in_default_job = true},
    {.name = "st-fwd-block",
     .base = "stfwd_block",
     .what = "4-byte store then 8-byte load of it",
     .real = kbody_stfwd_block_real,
     .sim = kbody_stfwd_block_sim,
     .size = 4 * KiB,
     .size_sim = 4 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_stfwd),
     .in_default_job = true},
    {.name = "4k-alias",
     .base = "alias_4k",
     .what = "store to A, load from A+4096",
     .real = kbody_alias_4k_real,
     .sim = kbody_alias_4k_sim,
     .size = 8 * KiB,
     .size_sim = 8 * KiB,
     .min_size = 8 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 64,
     .cpus = 1,
     .samplings = L,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_alias),
     .in_default_job = true},
    {.name = "share-hitm",
     .base = "share",
     .what = "load+store of a word the partner CPU also stores (HITM)",
     .real = kbody_share_real,
     .sim = kbody_share_sim,
     .size = 4 * KiB,
     .size_sim = 4 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 8,
     .offset = 0,
     .cpus = 2,
     .samplings = L,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_share),
     .in_default_job = true},
    {.name = "false-share",
     .base = "share",
     .what = "load+store of a word; the partner CPU stores another word of the line",
     .real = kbody_share_real,
     .sim = kbody_share_sim,
     .size = 4 * KiB,
     .size_sim = 4 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 8,
     .offset = 32,
     .cpus = 2,
     .samplings = L,
     .loads_per_iter = 1,
     .stores_per_iter = 1,
     .expect = EXP(exp_share),
     .in_default_job = true},
    /*
     * Auto counter reload (pmu/acr.h): the loads of seq-load counted as
     * instructions by a reload group; not in the default job (it needs
     * CPUID.23H.2, which no simulator model has without sim-acr=).
     */
    {.name = "acr-reload",
     .base = "strided",
     .what = "sequential 8-byte loads under an auto counter reload group",
     .real = kbody_strided_real,
     .sim = kbody_strided_sim,
     .size = 64 * KiB,
     .size_sim = 64 * KiB,
     .min_size = 4 * KiB,
     .iters = 1000000,
     .iters_sim = 6000,
     .stride = 8,
     .cpus = 1,
     .samplings = 0,
     .loads_per_iter = 1,
     .expect = NULL,
     .n_expect = 0,
     .in_default_job = false,
     .acr = true},
};

/* kernels= is a mask of this table (job/job.h struct job_opts .kernels). */
_Static_assert(ARRAY_SIZE(kernel_defs) <= KERNEL_MAX, "kernels= mask too narrow");

size_t kernel_count(void)
{
	return ARRAY_SIZE(kernel_defs);
}

const struct kernel_def *kernel_at(size_t i)
{
	return i < ARRAY_SIZE(kernel_defs) ? &kernel_defs[i] : NULL;
}

const struct kernel_def *kernel_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(kernel_defs); i++)
		if (!strcmp(kernel_defs[i].name, name))
			return &kernel_defs[i];
	return NULL;
}

void kernel_names(char *buf, size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	for (size_t i = 0; i < ARRAY_SIZE(kernel_defs); i++)
		strbuf_printf(&sb, "%s%s", i ? ", " : "", kernel_defs[i].name);
}

static size_t pages_for(uint64_t size)
{
	return (size_t)((size + PAGE_SIZE_4K - 1) / PAGE_SIZE_4K);
}

int kernel_prepare(struct kernel_ctx *k, const struct kernel_def *def, uint64_t size,
		   uint64_t iterations, bool simulated, bool *clipped, char *why, size_t why_size)
{
	uint64_t want;

	memset(k, 0, sizeof(*k));
	k->def = def;
	*clipped = false;
	want = size ? size : (simulated ? def->size_sim : def->size);
	if (want < def->min_size) {
		pp_snprintf(why, why_size, "size %llu is below the kernel's minimum %llu",
			    (unsigned long long)want, (unsigned long long)def->min_size);
		return -1;
	}
	/* Clip to what memory allows: halve until the allocation succeeds. */
	for (;;) {
		k->alloc_pages = pages_for(want);
		k->buf = plat_alloc_pages(k->alloc_pages);
		if (k->buf)
			break;
		if (want / 2 < def->min_size) {
			pp_snprintf(why, why_size, "cannot allocate %llu bytes (minimum %llu)",
				    (unsigned long long)want, (unsigned long long)def->min_size);
			return -1;
		}
		want /= 2;
		*clipped = true;
	}
	k->size = want;
	k->iterations = iterations ? iterations : (simulated ? def->iters_sim : def->iters);
	k->stride = def->stride;
	k->offset = def->offset;
	if (def->chase) {
		uint64_t n = k->size / def->stride;

		/* The seed is fixed: the same chain on every run, comparable results. */
		k->start = (uint64_t)(uintptr_t)perm_build_chain(k->buf, n, def->stride,
								 def->offset, 0x5eed0000 + n);
	}
	return 0;
}

void kernel_release(struct kernel_ctx *k)
{
	if (k->buf)
		plat_free_pages(k->buf, k->alloc_pages);
	k->buf = NULL;
}

/*
 * The instrumented runs visit only a few thousand of the chain's slots:
 * the same ones again would hit in the caches the last run filled.
 */
void kernel_next_chain(struct kernel_ctx *k)
{
	if (k->def->chase && k->sink)
		k->start = k->sink;
}

/* Our tables on this CPU, where they may be (paging_enter refuses a CPU on other ones). */
static void enter_own(struct kernel_ctx *k)
{
	uint64_t saved = 0;

	k->own = k->pages.cr3 && !paging_enter(&k->pages, &saved, k->page_why, sizeof(k->page_why));
	if (k->own)
		k->fw_cr3 = saved;
}

static void leave_own(struct kernel_ctx *k)
{
	if (k->own)
		paging_leave(k->fw_cr3);
	k->own = false;
}

/*
 * Where the TPL was raised (the boot CPU, lib/platform.h): the firmware's
 * CR3 first, then its TPL (notifications that came due run under its own
 * tables), then the lines held while the body ran, MSR: wrcr3 included.
 */
static void fw_back(struct kernel_ctx *k)
{
	leave_own(k);
	plat_tpl_restore(k->tpl);
	report_defer_end();
	report_flush_deferred("the kernel body");
}

/* TPL_HIGH_LEVEL under the firmware's CR3, every line held, then our tables. */
static void fw_away(struct kernel_ctx *k)
{
	k->tpl = plat_tpl_raise();
	k->held = k->tpl != PLAT_TPL_NONE;
	if (k->held)
		report_defer_begin();
	enter_own(k);
}

/*
 * On the CPU that runs the kernel, BSP or AP: CR3 to the kernel's own
 * tables for the body and back after it; a body that never returns (a
 * hung CPU) keeps them, which is why the job never frees them then.  On
 * the boot CPU the body also holds TPL_HIGH_LEVEL, so that no firmware
 * timer or event notification runs under our tables (fw_away).
 */
void kernel_run(void *arg)
{
	struct kernel_ctx *k = arg;

	k->page_why[0] = 0;
	fw_away(k);
	k->run_cr3 = hw_read_cr3();
	k->loads = k->stores = 0;
	if (k->instrumented)
		k->def->sim(k);
	else
		k->def->real(k);
	if (k->held)
		fw_back(k);
	else
		leave_own(k);
	k->held = false;
}

void kernel_output_begin(struct kernel_ctx *k)
{
	if (k->held)
		fw_back(k);
}

void kernel_output_end(struct kernel_ctx *k)
{
	if (k->held)
		fw_away(k);
}

/*
 * Only where the body holds TPL_HIGH_LEVEL: interrupts are off there alone
 * (UEFI spec 7.1 RaiseTPL), so an AP's PMI comes by itself and an AP
 * never opens interrupts here.
 */
void kernel_progress(struct kernel_ctx *k, uint64_t done)
{
	/* Said once, held back with the body's lines (report_defer_begin). */
	if (k->pmi && k->held && !pmi_window() && !k->pmi_tpr_held++)
		report_info("%s: drain=pmi: TPR holds the PMI's class: no window until the end",
			    k->def ? k->def->name : "kernel");
	if (k->progress)
		k->progress(k, done);
}

uint64_t kernel_chunk(const struct kernel_ctx *k)
{
	return k->pmi && k->held ? k->pmi_chunk : KERNEL_CHUNK;
}

/*
 * Instructions an iteration retires beside its accesses: the most any body
 * reports (kbody.h K_RETIRE).  The bound for an event that counts neither
 * loads nor stores, taken as instructions; one that counts cycles has none
 * (reasoning only: such records past the reserve are counted lost).
 */
#define KERNEL_LOOP_INSNS 4

/* The sampled event's counts per iteration, at most: its accesses (kernel.h loads_per_iter). */
static unsigned int per_iter(const struct kernel_def *def, enum pebs_kind kind)
{
	switch (kind) {
	case KIND_LDLAT:
	case KIND_DATALA_LOAD:
		return def->loads_per_iter;
	case KIND_STORE:
	case KIND_STLAT:
	case KIND_DATALA_STORE:
		return def->stores_per_iter;
	default:
		return def->loads_per_iter + def->stores_per_iter + KERNEL_LOOP_INSNS;
	}
}

/*
 * Records past the interrupt threshold go into the reserve until the PMI
 * is taken, and past the absolute maximum they are dropped (SDM Vol. 3B
 * 17.4.9; 18.8.1 "No signaling is generated when PEBS buffer is full").
 * The PMI is let in at a chunk's end only once it is in the IRR, and it
 * takes time to get there: 17.4.9 asks for a threshold "several records
 * short of the PEBS absolute maximum address to allow a pending interrupt
 * to be handled".  Allowing it up to one chunk late, the record that crosses
 * the threshold (a chunk's last) is followed by up to two chunks before
 * the window that takes it: ceil(2 * C * E / P) <= R + 1 records for C
 * iterations of E events at period P, so C <= (R + 1) * P / (2 * E).
 */
#define KERNEL_PMI_CHUNKS_LATE 2

uint64_t kernel_pmi_chunk(uint64_t period, unsigned int reserve, unsigned int per_it)
{
	uint64_t c = per_it ? ((uint64_t)reserve + 1) * period / (KERNEL_PMI_CHUNKS_LATE * per_it)
			    : KERNEL_CHUNK_PMI;

	return c < 1 ? 1 : c > KERNEL_CHUNK_PMI ? KERNEL_CHUNK_PMI : c;
}

/*
 * The reserve: what the session's threshold leaves free, as the plan's
 * PEBS flavour arms it (pebs_flavour_pmi_free: threshold=, or the default:
 * Linux ds.c pebs_update_threshold, arch-PEBS ARCH_PEBS_THRESH_*).  A
 * flavour without records has nothing to lose: no cut.
 */
void kernel_set_drain(struct kernel_ctx *k, const struct session_cfg *cfg,
		      const struct pmu_plan *plan)
{
	unsigned int free, per_it;

	k->pmi = cfg->drain == PEBS_DRAIN_PMI;
	k->pmi_tpr_held = 0;
	k->pmi_chunk = KERNEL_CHUNK_PMI;
	if (!k->pmi || !plan->fl || !plan->fl->records)
		return;
	free = pebs_flavour_pmi_free(cfg, plan);
	per_it = per_iter(k->def, plan->kind);
	k->pmi_chunk = kernel_pmi_chunk(plan->period, free, per_it);
	/*
	 * The chunk's floor is one iteration; where that one, with the one
	 * after it while the PMI is on its way, can count past the crossing
	 * record and the free room, the bound does not hold: said here, and
	 * what is dropped is counted lost by the session.
	 */
	if ((uint64_t)KERNEL_PMI_CHUNKS_LATE * per_it > ((uint64_t)free + 1) * plan->period)
		report_info("%s: drain=pmi: %d iterations overfill %u records: records may be lost",
			    k->def->name, KERNEL_PMI_CHUNKS_LATE, free + 1);
}

/* The other CPU's part of the sharing kernels: real accesses only, never reported. */
static void ap_share(void *arg)
{
	struct kernel_ctx *k = arg;
	volatile uint64_t *p = (volatile uint64_t *)(void *)(k->buf + k->offset);
	uint64_t n = 0;

	k->ap_ready = 1;
	while (!k->ap_stop) {
		*p = *p + 1;
		n++;
	}
	k->ap_iterations = n;
}

static int start_ap(struct kernel_ctx *k);

/* From a body: the firmware's CR3 and TPL back around the posting and the wait (MP services). */
int kernel_start_ap(struct kernel_ctx *k)
{
	int rc;

	kernel_output_begin(k);
	rc = start_ap(k);
	kernel_output_end(k);
	return rc;
}

static int start_ap(struct kernel_ctx *k)
{
	int rc = CPU_RUN_OK;
	uint64_t t0;

	k->ap_ready = 0;
	k->ap_stop = 0;
	k->ap_done = 0;
	if (k->cpu) {
		/* The BSP is the other CPU: kernel_bsp_idle() picks this up. */
		__atomic_store_n(&k->ap_go, 1, __ATOMIC_RELEASE);
	} else if (!k->partner || (rc = cpurun_post(k->partner, ap_share, k)) != CPU_RUN_OK) {
		/* The partner through its mailbox (lib/cpurun.h), as every other piece of work. */
		k->error = rc == CPU_RUN_LOST ? -4 : -1;
		return -1;
	}
	t0 = plat_time_us();
	while (!k->ap_ready) {
		if (plat_time_us() - t0 > k->cpu_timeout_us) {
			k->ap_stop = 1;
			if (!k->cpu)
				cpurun_wait(k->partner, k->cpu_timeout_us);
			k->error = -2;
			return -1;
		}
		asm volatile("pause");
	}
	return 0;
}

static void stop_ap(struct kernel_ctx *k);

void kernel_stop_ap(struct kernel_ctx *k)
{
	kernel_output_begin(k);
	stop_ap(k);
	kernel_output_end(k);
}

static void stop_ap(struct kernel_ctx *k)
{
	uint64_t t0 = plat_time_us();

	k->ap_stop = 1;
	if (!k->cpu) {
		if (cpurun_wait(k->partner, k->cpu_timeout_us) != CPU_RUN_OK)
			k->error = -3;
		return;
	}
	while (!__atomic_load_n(&k->ap_done, __ATOMIC_ACQUIRE)) {
		if (plat_time_us() - t0 > k->cpu_timeout_us) {
			k->error = -3;
			return;
		}
		asm volatile("pause");
	}
}

void kernel_partner_access(struct kernel_ctx *k)
{
	uint64_t addr = (uint64_t)(uintptr_t)(k->buf + k->offset),
		 ip = (uint64_t)(uintptr_t)kernel_partner_access;
	if (!k->ops->mem_access_cpu)
		return;
	k->ops->mem_access_cpu(k->partner, ip, addr, 8, HW_LOAD);
	k->ops->mem_access_cpu(k->partner, ip, addr, 8, HW_STORE);
}

void kernel_bsp_idle(void *arg)
{
	struct kernel_ctx *k = arg;

	if (!__atomic_exchange_n(&k->ap_go, 0, __ATOMIC_ACQ_REL))
		return;
	/* The partner is the BSP itself, or an AP only the BSP may post to. */
	if (!k->partner)
		ap_share(k);
	else if (cpurun_post(k->partner, ap_share, k) == CPU_RUN_OK)
		cpurun_wait(k->partner, k->cpu_timeout_us);
	__atomic_store_n(&k->ap_done, 1, __ATOMIC_RELEASE);
}

size_t kernel_insn_count(void)
{
	return (size_t)(kinsn_end - kinsn_start);
}

bool kernel_insn_at(size_t i, struct kernel_insn *out)
{
	const struct kinsn_raw *e = &kinsn_start[i];

	if (i >= kernel_insn_count())
		return false;
	out->at = (uint64_t)(uintptr_t)&e->at + (uint64_t)(int64_t)e->at;
	out->after = (uint64_t)(uintptr_t)&e->after + (uint64_t)(int64_t)e->after;
	out->kind = e->kind;
	return true;
}

size_t kernel_insns(uint64_t lo, uint64_t hi, struct kernel_insn *out, size_t max)
{
	struct kernel_insn e;
	size_t n = 0;

	for (size_t i = 0; kernel_insn_at(i, &e); i++) {
		size_t j;

		if (e.at < lo || e.at > hi)
			continue;
		/* Insertion in address order: a kernel has a handful. */
		for (j = n < max ? n : max; j > 0 && out[j - 1].at > e.at; j--)
			if (j < max)
				out[j] = out[j - 1];
		if (j < max)
			out[j] = e;
		n++;
	}
	return n;
}
