/* SPDX-License-Identifier: MIT */
/*
 * test_verdict_util.h - the fixture of the verdict tests on synthetic
 * decoded records (test_kernels_verdict.c, test_kernels_skid.c): a kernel
 * run over a made-up buffer and instruction table, records added with a
 * data source, the verdict evaluated.  The data_src values are built with
 * the perf_mem_data_src layout (decode/perf_mem.h, Linux
 * include/uapi/linux/perf_event.h).
 */
#ifndef TEST_VERDICT_UTIL_H
#define TEST_VERDICT_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "decode/perf_mem.h"
#include "kernels/verdict.h"

/* data_src values as Linux builds them for Skylake's table rows (decode/perf_mem.h). */
#define TLB_STLB_MISS (TLB(MISS) | TLB(L2))

#define DS_L1_HIT  (OP(LOAD) | LVL(HIT) | LVL(L1) | SNOOP(NONE) | LVLNUM(L1))
#define DS_L2_HIT  (OP(LOAD) | LVL(HIT) | LVL(L2) | SNOOP(NONE) | LVLNUM(L2))
#define DS_L3_HITM (OP(LOAD) | LVL(HIT) | LVL(L3) | SNOOP(HITM) | LVLNUM(L3))
/* SNB-style "L3 miss, local DRAM": lvl bits only, no lvl_num. */
#define DS_RAM_OLD (OP(LOAD) | LVL(MISS) | LVL(L3) | LVL(LOC_RAM) | SNOOP(HIT))
/* SNB precise store that missed L1: OP STORE | LVL L1|MISS. */
#define DS_ST_L1_MISS (OP(STORE) | LVL(MISS) | LVL(L1))
/* A DataLA load record on Haswell+ (Linux ds.c precise_datala_hsw): no level. */
#define DS_NA_LOAD (OP(LOAD) | LVL(NA) | SNOOP(NA))

static pp_unused uint8_t buffer[16384] __attribute__((aligned(4096)));

struct fixture {
	struct kernel_ctx k;
	struct kstats st;
	struct kverdict_in in;
	char text[REPORT_TEXT_MAX];
	struct kprops props;
};

static pp_unused struct fixture fx;

/*
 * A made-up kernel's memory instructions in [0x1000, 0x1100]: a 4-byte
 * load at 0x1010, a 4-byte store right after it, a 7-byte load at 0x1040.
 */
static pp_unused const struct kernel_insn fake_insns[] = {
    {0x1010, 0x1014, HW_LOAD},
    {0x1014, 0x1018, HW_STORE},
    {0x1040, 0x1047, HW_LOAD},
};

static pp_unused void setup_run(const char *kernel, enum pebs_uarch u)
{
	memset(&fx, 0, sizeof(fx));
	fx.k.def = kernel_find(kernel);
	assert_non_null(fx.k.def);
	fx.k.buf = buffer;
	fx.k.size = sizeof(buffer);
	fx.k.stride = fx.k.def->stride;
	fx.k.offset = fx.k.def->offset;
	fx.k.ip_lo = 0x1000;
	fx.k.ip_hi = 0x1100;
	kstats_init(&fx.st, &fx.k);
	memcpy(fx.st.insn, fake_insns, sizeof(fake_insns));
	fx.st.n_insn = ARRAY_SIZE(fake_insns);
	fx.st.n_insn_found = fx.st.n_insn;
	fx.in.st = &fx.st;
	fx.in.ua = uarch_get(u);
	fx.in.named_counts = true;
	fx.in.page_size = 4096; /* the buffer in pebsprobe's own 4 KiB pages */
	fx.in.period = 100;
}

/* n records with data source ds, in the buffer on the stride, IP in the kernel. */
static pp_unused void add(unsigned int n, uint64_t ds)
{
	for (unsigned int i = 0; i < n; i++) {
		struct pebs_record r;

		memset(&r, 0, sizeof(r));
		r.have = HAVE_IP | HAVE_DLA | HAVE_DSE | HAVE_MEM | HAVE_LATENCY;
		r.ip = 0x1010;
		uint64_t slots = (sizeof(buffer) - 64) / fx.k.stride;

		r.data_la = (uint64_t)(uintptr_t)buffer + fx.k.offset + (i % slots) * fx.k.stride;
		r.data_src = ds;
		kstats_add(&fx.st, &r);
	}
	/* A consistent run: one record per overflow, nothing lost. */
	fx.in.records = fx.st.n;
	fx.in.events = fx.st.n * fx.in.period + 37;
	fx.in.sampled_accesses = fx.in.events;
}

static pp_unused enum kverdict eval(unsigned int sampling)
{
	enum kverdict v =
	    verdict_evaluate(fx.k.def, sampling, &fx.in, fx.text, sizeof(fx.text), &fx.props);
	static const char *const words[] = {
	    [KV_PASS] = "PASS", [KV_FAIL] = "FAIL", [KV_SKIP] = "SKIP"};

	printf("# %s: %s\n", words[v], fx.text);
	return v;
}

#endif
