/* SPDX-License-Identifier: MIT */
/*
 * test_session_util.h - the session fixture (test_session_util.c) of the
 * tests that run pmu/session.c on the simulator: select a model and
 * install it, a small kernel that reports loads or stores through
 * hw_current()->mem_access, low pages for the PEBS buffers (a simulated
 * MAXPHYADDR), a violation counter, and ts_run(): a session that must run,
 * break no simulator rule and leave every MSR as it found it.
 */
#ifndef TEST_SESSION_UTIL_H
#define TEST_SESSION_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ds/ds.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/msr.h"
#include "pmu/session.h"
#include "sim/sim.h"

#define TS_IPS	   8
#define TS_LINES   4096 /* 256 KiB: past L1, so loads have latencies above any small ldlat */
#define TS_BASE_IP 0x401000ULL

extern uint8_t ts_buf[TS_LINES * 64];
extern unsigned int ts_violations;
extern char ts_last_rule[200];

struct ts_kargs {
	unsigned int n;
	uint32_t kind; /* HW_LOAD / HW_STORE */
};

/* The MSRs a session may touch and the LVTPC, read through the seam (a #GP: not read). */
#define TS_SNAP_MSRS 39
struct ts_snap {
	uint64_t v[TS_SNAP_MSRS];
	bool ok[TS_SNAP_MSRS];
	uint32_t lvtpc;
};

/* n accesses, IP i%8, address line i%4096. */
void ts_kernel(void *arg);
/* An IP of ts_kernel's, an address of one of ts_buf's lines. */
bool ts_kernel_ip(uint64_t ip);
bool ts_kernel_addr(uint64_t a);
/* HW_STORE for the store kinds, else HW_LOAD. */
uint32_t ts_access_kind(enum pebs_kind k);

/* Pages below 2 GiB, as firmware identity-maps them (ds_set_page_allocator). */
void *ts_low_pages(size_t n);
void ts_free_low_pages(void *p, size_t n);

/* Selects and installs a simulated model, probes it into ci, zeroes the counters. */
void ts_select(const char *name, struct cpu_info *ci);
/* A load-latency-3, 64 KiB buffer session on ci. */
struct session_cfg ts_cfg(const struct cpu_info *ci, enum pebs_kind kind);

void ts_take(struct ts_snap *s);
/* Fails the test, naming ctx and the MSR, where b differs from a. */
void ts_assert_same(const struct ts_snap *a, const struct ts_snap *b, const char *ctx);

/* A session that must have run: fails the test with its reason, or the simulator rule it broke. */
void ts_expect_ok(const char *ctx, int r, const char *why);
/* Runs ts_kernel in a session that must succeed (ts_expect_ok) and restore every MSR. */
void ts_run(const char *ctx, struct session_cfg *c, struct ts_kargs *ka,
	    struct session_result *res);
/* Decodes every record: each carries a kernel IP, and a kernel address for memory kinds. */
void ts_check_records(const char *ctx, const struct session_result *res, enum pebs_kind kind);

#endif
