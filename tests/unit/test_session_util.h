/* SPDX-License-Identifier: MIT */
/*
 * test_session_util.h - what the session tests that run pmu/session.c on the
 * simulator share: select a model and install it, a small kernel that
 * reports loads or stores through hw_current()->mem_access, low pages for
 * the PEBS buffers (a simulated MAXPHYADDR), and a violation counter.
 */
#ifndef TEST_SESSION_UTIL_H
#define TEST_SESSION_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "ds/ds.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/msr.h"
#include "pmu/session.h"
#include "sim/sim.h"

#define TS_IPS	   8
#define TS_LINES   4096
#define TS_BASE_IP 0x401000ULL

static uint8_t ts_buf[TS_LINES * 64] __attribute__((aligned(64)));
static unsigned int ts_violations;
static char ts_last_rule[200];

static pp_unused void ts_on_violation(const char *rule, const char *text, void *ctx)
{
	(void)ctx;
	ts_violations++;
	snprintf(ts_last_rule, sizeof(ts_last_rule), "%s: %s", rule, text);
}

struct ts_kargs {
	unsigned int n;
	uint32_t kind; /* HW_LOAD / HW_STORE */
};

/* n accesses, IP i%8, address line i%4096. */
static pp_unused void ts_kernel(void *arg)
{
	const struct ts_kargs *k = arg;

	for (unsigned int i = 0; i < k->n; i++)
		hw_current()->mem_access(TS_BASE_IP + 4 * (i % TS_IPS), 0,
					 (uintptr_t)&ts_buf[64 * (i % TS_LINES)], 8, k->kind);
}

/* Pages below 2 GiB, as firmware identity-maps them (ds_set_page_allocator). */
static pp_unused void *ts_low_pages(size_t n)
{
	void *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static pp_unused void ts_free_low_pages(void *p, size_t n)
{
	munmap(p, n * 4096);
}

static pp_unused void ts_select(const char *name, struct cpu_info *ci)
{
	assert_int_equal(sim_select(name), 0);
	hw_install(sim_hw_ops());
	sim_set_violation_handler(ts_on_violation, NULL);
	ts_violations = 0;
	cpu_probe(ci);
	hw_reset_msr_access_count();
}

static pp_unused struct session_cfg ts_cfg(const struct cpu_info *ci, enum pebs_kind kind)
{
	struct session_cfg c;

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.ldlat = 3;
	c.buffer_kib = 64;
	return c;
}

/* A session that must have run: fails the test with its reason, or the simulator rule it broke. */
static pp_unused void ts_expect_ok(const char *ctx, int r, const char *why)
{
	if (r) {
		print_error("%s: session %d: %s\n", ctx, r, why);
		fail();
	}
	if (ts_violations) {
		print_error("%s: simulator rule: %s\n", ctx, ts_last_rule);
		fail();
	}
}

/* Runs ts_kernel in a session that must succeed (ts_expect_ok). */
static pp_unused void ts_run_ok(const char *ctx, struct session_cfg *c, struct ts_kargs *ka,
				struct session_result *res)
{
	char why[200] = "";

	ts_expect_ok(ctx, session_run(c, ts_kernel, ka, res, why, sizeof(why)), why);
}

#endif
