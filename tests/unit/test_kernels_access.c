// SPDX-License-Identifier: MIT
/*
 * test_kernels_access.c - the instrumented build of every kernel, run
 * against a fake hw_ops that records each mem_access() call: the addresses,
 * sizes and kinds are those the kernel promises (worked out here from the
 * kernel's definition, not from the code), and every reported IP lies in
 * the kernel's code range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kernels/kernel.h"
#include "lib/cpurun.h"
#include "lib/platform.h"

#define MAX_ACC 4096

struct acc {
	uint64_t ip, ip_next, addr;
	uint32_t size, kind;
};

static struct acc accs[MAX_ACC];
static unsigned int n_acc, n_retire;
static uint64_t retire_insns, retire_ip_min = ~0ULL, retire_ip_max;

static void fake_access(uint64_t ip, uint64_t ip_next, uint64_t addr, uint32_t size, uint32_t kind)
{
	if (n_acc < MAX_ACC)
		accs[n_acc] = (struct acc){ip, ip_next, addr, size, kind};
	n_acc++;
}

static void fake_retire(uint64_t ip, uint64_t n)
{
	n_retire++;
	retire_insns += n;
	if (ip < retire_ip_min)
		retire_ip_min = ip;
	if (ip > retire_ip_max)
		retire_ip_max = ip;
}

static const struct hw_ops fake_ops = {
    .name = "fake",
    .simulated = true,
    .mem_access = fake_access,
    .retire = fake_retire,
};

/* Prepares `name` at `size` bytes for `iters` iterations and runs the instrumented build. */
static struct kernel_ctx *run_instrumented(const char *name, uint64_t size, uint64_t iters)
{
	const struct kernel_def *def = kernel_find(name);
	struct kernel_ctx *k = calloc(1, sizeof(*k));
	char why[160];
	bool clipped;

	assert_non_null(def);
	assert_non_null(k);
	assert_int_equal(kernel_prepare(k, def, size, iters, true, &clipped, why, sizeof(why)), 0);
	assert_false(clipped);
	k->instrumented = true;
	k->partner = 1; /* the sharing kernels' other CPU: the host's second thread */
	k->ops = &fake_ops;
	k->cpu_timeout_us = 60 * 1000000ULL;
	n_acc = n_retire = 0;
	retire_insns = 0;
	retire_ip_min = ~0ULL;
	retire_ip_max = 0;
	kernel_run(k);
	assert_int_equal(k->error, 0);
	assert_true(n_acc <= MAX_ACC);
	/* Every IP inside [ip_lo, ip_hi], and a non-empty range. */
	assert_true(k->ip_lo < k->ip_hi);
	for (unsigned int i = 0; i < n_acc; i++) {
		assert_true(accs[i].ip >= k->ip_lo);
		assert_true(accs[i].ip <= k->ip_hi);
	}
	assert_int_equal(n_retire, iters);
	assert_true(retire_ip_min >= k->ip_lo && retire_ip_max <= k->ip_hi);
	return k;
}

static void done(struct kernel_ctx *k)
{
	kernel_release(k);
	free(k);
}

static uint64_t base(const struct kernel_ctx *k)
{
	return (uint64_t)(uintptr_t)k->buf;
}

static void test_chase(void **state)
{
	/* 16 KiB of 64-byte slots = 256 slots; 256 steps visit each exactly once. */
	struct kernel_ctx *k = run_instrumented("chase-l1", 16384, 256);
	uint8_t seen[256] = {0};
	uint64_t expect = k->start;

	assert_int_equal(n_acc, 256);
	for (unsigned int i = 0; i < n_acc; i++) {
		uint64_t rel = accs[i].addr - base(k);

		/* A dependent load: the simulator charges its whole latency. */
		assert_int_equal(accs[i].kind, HW_LOAD | HW_DEPENDENT);
		assert_int_equal(accs[i].size, 8);
		/* Each load's address is the value the previous load read. */
		assert_int_equal(accs[i].addr, expect);
		expect = *(uint64_t *)(uintptr_t)accs[i].addr;
		assert_true(rel < 16384);
		assert_int_equal(rel % 64, 0);
		assert_int_equal(seen[rel / 64], 0);
		seen[rel / 64] = 1;
		/* One instruction does every load: the same IP each step. */
		assert_int_equal(accs[i].ip, accs[0].ip);
	}
	assert_int_equal(k->loads, 256);
	done(k);
}

static void test_page_walk_one_per_page(void **state)
{
	struct kernel_ctx *k = run_instrumented("page-walk", 16 << 20, 1000);
	uint64_t prev_page = ~0ULL;

	for (unsigned int i = 0; i < n_acc; i++) {
		uint64_t page = (accs[i].addr - base(k)) / 4096;

		assert_int_equal((accs[i].addr - base(k)) % 4096, 0);
		assert_true(page < 4096);
		assert_int_not_equal(page, prev_page);
		prev_page = page;
	}
	done(k);
}

static void test_strided(void **state)
{
	/* stride-load: 8 bytes at offset 8 of every 256 bytes, wrapping at 4 KiB. */
	struct kernel_ctx *k = run_instrumented("stride-load", 4096, 40);

	assert_int_equal(n_acc, 40);
	for (unsigned int i = 0; i < n_acc; i++) {
		assert_int_equal(accs[i].kind, HW_LOAD);
		assert_int_equal(accs[i].addr, base(k) + 8 + (i % 16) * 256);
	}
	done(k);
	k = run_instrumented("seq-load", 4096, 600);
	for (unsigned int i = 0; i < n_acc; i++)
		assert_int_equal(accs[i].addr, base(k) + (i % 512) * 8);
	done(k);
}

static void test_stream_store(void **state)
{
	struct kernel_ctx *k = run_instrumented("stream-store", 4096, 600);

	for (unsigned int i = 0; i < n_acc; i++) {
		assert_int_equal(accs[i].kind, HW_STORE);
		assert_int_equal(accs[i].size, 8);
		assert_int_equal(accs[i].addr, base(k) + (i % 512) * 8);
	}
	assert_int_equal(k->stores, 600);
	done(k);
}

static void check_split(const char *name, uint64_t size, uint32_t boundary)
{
	struct kernel_ctx *k = run_instrumented(name, size, 100);
	uint64_t slots = size / boundary;

	assert_int_equal(n_acc, 200);
	for (unsigned int i = 0; i < n_acc; i += 2) {
		uint64_t a = accs[i].addr;

		/* A load then a store at the same address, straddling the boundary. */
		assert_int_equal(accs[i].kind, HW_LOAD);
		assert_int_equal(accs[i + 1].kind, HW_STORE);
		assert_int_equal(accs[i + 1].addr, a);
		assert_int_equal(a, base(k) + boundary - 4 + ((i / 2) % (slots - 1)) * boundary);
		assert_true(a % boundary + accs[i].size > boundary);
		assert_true(a / boundary != (a + 7) / boundary);
	}
	done(k);
}

static void test_split(void **state)
{
	check_split("split-line", 4096, 64);
	check_split("split-page", 64 * 4096, 4096);
}

static void test_locked(void **state)
{
	struct kernel_ctx *k = run_instrumented("lock", 4096, 100);

	for (unsigned int i = 0; i < n_acc; i++) {
		assert_int_equal(accs[i].kind, HW_LOAD | HW_STORE | HW_LOCKED);
		assert_int_equal(accs[i].addr, base(k) + (i % 64) * 64);
	}
	/* The lock add really happened: line 0 got 2 increments (i = 0, 64). */
	assert_int_equal(*(uint64_t *)k->buf, 2);
	done(k);
}

static void test_stfwd_block(void **state)
{
	struct kernel_ctx *k = run_instrumented("st-fwd-block", 4096, 50);

	assert_int_equal(n_acc, 100);
	for (unsigned int i = 0; i < n_acc; i += 2) {
		/* A 4-byte store, then an 8-byte load of the same address: it cannot be forwarded.
		 */
		assert_int_equal(accs[i].kind, HW_STORE);
		assert_int_equal(accs[i].size, 4);
		assert_int_equal(accs[i + 1].kind, HW_LOAD);
		assert_int_equal(accs[i + 1].size, 8);
		assert_int_equal(accs[i + 1].addr, accs[i].addr);
	}
	done(k);
}

static void test_alias_4k(void **state)
{
	struct kernel_ctx *k = run_instrumented("4k-alias", 8192, 100);

	for (unsigned int i = 0; i < n_acc; i += 2) {
		assert_int_equal(accs[i].kind, HW_STORE);
		assert_int_equal(accs[i + 1].kind, HW_LOAD);
		assert_int_equal(accs[i + 1].addr, accs[i].addr + 4096);
		assert_int_equal(accs[i].addr & 0xfff, accs[i + 1].addr & 0xfff);
		assert_true(accs[i].addr - base(k) < 4096);
	}
	done(k);
}

static void test_share(void **state)
{
	struct kernel_ctx *k;

	if (plat_cpu_count() < 2) {
		skip();
		return;
	}
	k = run_instrumented("false-share", 4096, 2000);
	/* Only this CPU's accesses are reported: load+store of word 0. */
	assert_int_equal(n_acc, 4000);
	for (unsigned int i = 0; i < n_acc; i++)
		assert_int_equal(accs[i].addr, base(k));
	/* The other CPU stored to word 4 (byte 32) of the same line. */
	assert_int_equal(k->offset, 32);
	done(k);
}

/*
 * The other part of a two-core kernel that starts late (here 2.5 s: an AP
 * woken late under a loaded hypervisor) is waited for up to the job's
 * cpu-timeout, not a shorter limit of the kernel's own.
 */
static void test_share_late_partner_waited_for(void **state)
{
	struct kernel_ctx *k;

	if (plat_cpu_count() < 2) {
		skip();
		return;
	}
	cpurun_release(1); /* started afresh, late: not the loop test_share left running */
	setenv("PEBSPROBE_HOST_START_DELAY_US", "2500000", 1);
	k = run_instrumented("false-share", 4096, 200);
	unsetenv("PEBSPROBE_HOST_START_DELAY_US");
	assert_int_equal(n_acc, 400);
	done(k);
}

/* And that limit is the one given: a partner later than cpu_timeout_us is error -2. */
static void test_share_partner_timeout_honoured(void **state)
{
	const struct kernel_def *def = kernel_find("false-share");
	struct kernel_ctx *k = calloc(1, sizeof(*k));
	char why[160];
	bool clipped;

	if (plat_cpu_count() < 2) {
		skip();
		free(k);
		return;
	}
	assert_non_null(k);
	assert_int_equal(kernel_prepare(k, def, 4096, 200, true, &clipped, why, sizeof(why)), 0);
	k->instrumented = true;
	k->partner = 1;
	k->ops = &fake_ops;
	k->cpu_timeout_us = 300 * 1000ULL;
	/* CPU 1 back to the platform: the next post starts it (late) again. */
	cpurun_release(1);
	setenv("PEBSPROBE_HOST_START_DELAY_US", "1500000", 1);
	kernel_run(k);
	unsetenv("PEBSPROBE_HOST_START_DELAY_US");
	assert_int_equal(k->error, -2);
	/* Lost for the run, never posted again: it may still use k, which stays. */
	assert_true(cpurun_run_lost(1));
	assert_int_equal(cpurun_post(1, kernel_run, k), CPU_RUN_LOST);
}

static void test_real_build_reports_nothing(void **state)
{
	const struct kernel_def *def = kernel_find("chase-l1");
	struct kernel_ctx k;
	char why[128];
	bool clipped;

	assert_int_equal(kernel_prepare(&k, def, 0, 1000, false, &clipped, why, sizeof(why)), 0);
	assert_int_equal(k.size, def->size);
	n_acc = 0;
	k.ops = &fake_ops;
	kernel_run(&k);
	assert_int_equal(n_acc, 0);
	assert_true(k.ip_lo < k.ip_hi);
	assert_int_equal(k.loads, 1000);
	kernel_release(&k);
}

static void test_defaults_and_names(void **state)
{
	struct kernel_ctx k;
	char why[160];
	bool clipped;

	assert_null(kernel_find("nope"));
	assert_string_equal(kernel_find("chase")->base, "chase");
	/* Below the minimum: one line naming the kernel and the minimum. */
	assert_int_equal(
	    kernel_prepare(&k, kernel_find("4k-alias"), 4096, 1, true, &clipped, why, sizeof(why)),
	    -1);
	assert_string_equal(why, "size 4096 is below the kernel's minimum 8192");
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *d = kernel_at(i);

		assert_true(d->size_sim >= d->min_size && d->size >= d->min_size);
		/* every kernel is sampled, or run under an ACR group (pmu/acr.h) */
		assert_true(d->real && d->sim && (d->samplings || d->acr));
		assert_ptr_equal(kernel_find(d->name), d);
	}
}

/* The distinct memory instructions of the table in [lo, hi], their kinds in address order. */
static size_t table_in(uint64_t lo, uint64_t hi, struct kernel_insn *out, size_t max)
{
	size_t n = kernel_insns(lo, hi, out, max);

	assert_true(n <= max);
	return n;
}

/*
 * The table of memory instructions (kbody.h K_ACCESS): in address order,
 * each a plausible x86 instruction (2..15 bytes); for every kernel, the
 * instrumented build's reported accesses are exactly its entries (IP, next
 * IP, kind), and the real build's code has as many entries, of the same
 * kinds, at its own addresses.
 */
static void test_insn_table(void **state)
{
	struct kernel_insn prev = {0, 0, 0}, e;
	size_t n = kernel_insn_count();

	assert_true(n > 0);
	for (size_t i = 0; kernel_insn_at(i, &e); i++) {
		if (i && e.at <= prev.at)
			fail_msg("entry %zu at %#llx is not above entry %zu's %#llx", i,
				 (unsigned long long)e.at, i - 1, (unsigned long long)prev.at);
		assert_true(e.after > e.at + 1 && e.after <= e.at + 15);
		assert_true(e.kind & (HW_LOAD | HW_STORE));
		prev = e;
	}
	assert_false(kernel_insn_at(n, &e));
	for (size_t d = 0; d < kernel_count(); d++) {
		const struct kernel_def *def = kernel_at(d);
		struct kernel_insn sim[16], real[16];
		struct kernel_ctx *k = run_instrumented(def->name, def->size_sim, 64);
		struct kernel_ctx rk;
		size_t ns = table_in(k->ip_lo, k->ip_hi, sim, 16), nr;
		char why[160];
		bool clipped;

		/* Every reported access is an entry; every entry was reported. */
		for (unsigned int a = 0; a < n_acc; a++) {
			size_t j;

			for (j = 0; j < ns; j++)
				if (sim[j].at == accs[a].ip)
					break;
			if (j == ns)
				fail_msg("%s: access at %#llx is not in the table", def->name,
					 (unsigned long long)accs[a].ip);
			assert_int_equal(sim[j].after, accs[a].ip_next);
			assert_int_equal(sim[j].kind, accs[a].kind);
		}
		for (size_t j = 0; j < ns; j++) {
			unsigned int a;

			for (a = 0; a < n_acc && accs[a].ip != sim[j].at; a++)
				;
			if (a == n_acc)
				fail_msg("%s: entry at %#llx never reported", def->name,
					 (unsigned long long)sim[j].at);
		}
		done(k);
		/* The real build: its own code, the same instructions. */
		assert_int_equal(
		    kernel_prepare(&rk, def, def->size_sim, 64, false, &clipped, why, sizeof(why)),
		    0);
		rk.ops = &fake_ops;
		rk.partner = 1;
		rk.cpu_timeout_us = 60 * 1000000ULL;
		kernel_run(&rk);
		assert_int_equal(rk.error, 0);
		nr = table_in(rk.ip_lo, rk.ip_hi, real, 16);
		if (nr != ns)
			fail_msg("%s: %zu entries in the real build, %zu in the instrumented one",
				 def->name, nr, ns);
		for (size_t j = 0; j < nr; j++)
			assert_int_equal(real[j].kind, sim[j].kind);
		kernel_release(&rk);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chase),
	    cmocka_unit_test(test_page_walk_one_per_page),
	    cmocka_unit_test(test_strided),
	    cmocka_unit_test(test_stream_store),
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_locked),
	    cmocka_unit_test(test_stfwd_block),
	    cmocka_unit_test(test_alias_4k),
	    cmocka_unit_test(test_share),
	    /* before the partner tests below leave CPU 1 lost */
	    cmocka_unit_test(test_insn_table),
	    cmocka_unit_test(test_share_late_partner_waited_for),
	    cmocka_unit_test(test_share_partner_timeout_honoured),
	    cmocka_unit_test(test_real_build_reports_nothing),
	    cmocka_unit_test(test_defaults_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
