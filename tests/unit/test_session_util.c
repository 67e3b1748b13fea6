// SPDX-License-Identifier: MIT
/*
 * test_session_util.c - the session fixture (test_session_util.h), linked
 * into each test that runs pmu/session.c on the simulator.
 */
#include "test_session_util.h"

#include <sys/mman.h>

#include "decode/decode.h"

uint8_t ts_buf[TS_LINES * 64] __attribute__((aligned(64)));
unsigned int ts_violations;
char ts_last_rule[200];

static void ts_on_violation(const char *rule, const char *text, void *ctx)
{
	(void)ctx;
	ts_violations++;
	snprintf(ts_last_rule, sizeof(ts_last_rule), "%s: %s", rule, text);
}

void ts_kernel(void *arg)
{
	const struct ts_kargs *k = arg;

	for (unsigned int i = 0; i < k->n; i++)
		hw_current()->mem_access(TS_BASE_IP + 4 * (i % TS_IPS), 0,
					 (uintptr_t)&ts_buf[64 * (i % TS_LINES)], 8, k->kind);
}

bool ts_kernel_ip(uint64_t ip)
{
	return ip >= TS_BASE_IP && ip < TS_BASE_IP + 4 * TS_IPS && !((ip - TS_BASE_IP) & 3);
}

bool ts_kernel_addr(uint64_t a)
{
	return a >= (uintptr_t)ts_buf && a < (uintptr_t)ts_buf + sizeof(ts_buf) &&
	       !((a - (uintptr_t)ts_buf) & 63);
}

uint32_t ts_access_kind(enum pebs_kind k)
{
	return (k == KIND_STORE || k == KIND_STLAT || k == KIND_DATALA_STORE) ? HW_STORE : HW_LOAD;
}

void *ts_low_pages(size_t n)
{
	void *p = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void ts_free_low_pages(void *p, size_t n)
{
	munmap(p, n * 4096);
}

void ts_select(const char *name, struct cpu_info *ci)
{
	assert_int_equal(sim_select(name), 0);
	hw_install(sim_hw_ops());
	sim_set_violation_handler(ts_on_violation, NULL);
	ts_violations = 0;
	cpu_probe(ci);
	hw_reset_msr_access_count();
}

struct session_cfg ts_cfg(const struct cpu_info *ci, enum pebs_kind kind)
{
	struct session_cfg c;

	memset(&c, 0, sizeof(c));
	c.ci = ci;
	c.kind = kind;
	c.ldlat = 3;
	c.buffer_kib = 64;
	return c;
}

// clang-format off
static const uint32_t ts_snap_msrs[TS_SNAP_MSRS] = {
    0xc1,  0xc2,  0xc3,   0xc4,   0xc5,   0xc6,   0xc7,   0xc8,   0x186,  0x187,
    0x188, 0x189, 0x18a,  0x18b,  0x18c,  0x18d,  0x309,  0x30a,  0x30b,  0x30c,
    0x38d, 0x38e, 0x38f,  0x3f1,  0x3f2,  0x3f4,  0x3f5,  0x3f6,  0x3f7,  0x600,
    0x1a6, 0x1a7, 0x1903, 0x1907, 0x190b, 0x190f, 0x1983, 0x1987, 0x198b,
};
// clang-format on

void ts_take(struct ts_snap *s)
{
	for (unsigned int i = 0; i < TS_SNAP_MSRS; i++)
		s->ok[i] = hw_rdmsr(ts_snap_msrs[i], &s->v[i]) == HW_OK;
	s->lvtpc = hw_apic_read(APIC_LVTPC);
}

void ts_assert_same(const struct ts_snap *a, const struct ts_snap *b, const char *ctx)
{
	for (unsigned int i = 0; i < TS_SNAP_MSRS; i++) {
		if (a->ok[i] != b->ok[i] || (a->ok[i] && a->v[i] != b->v[i])) {
			print_error("%s: MSR 0x%x was 0x%llx, now 0x%llx\n", ctx, ts_snap_msrs[i],
				    (unsigned long long)a->v[i], (unsigned long long)b->v[i]);
			fail();
		}
	}
}

void ts_expect_ok(const char *ctx, int r, const char *why)
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

void ts_run(const char *ctx, struct session_cfg *c, struct ts_kargs *ka, struct session_result *res)
{
	struct ts_snap before, after;
	char why[200] = "";
	int r;

	ts_take(&before);
	ts_violations = 0;
	r = session_run(c, ts_kernel, ka, res, why, sizeof(why));
	ts_expect_ok(ctx, r, why);
	ts_take(&after);
	ts_assert_same(&before, &after, ctx);
}

void ts_check_records(const char *ctx, const struct session_result *res, enum pebs_kind kind)
{
	struct pebs_record rec;
	struct pebs_anomaly an;
	size_t off = 0, n = 0;
	enum pebs_step st;

	while ((st = pebs_decode_next(&res->decode_cfg, res->records, res->records_len, &off, &rec,
				      &an)) == PEBS_STEP_RECORD) {
		n++;
		/* A forced record holds the state at the next retirement point: ours, not the
		 * kernel's */
		if (res->rec_kinds && res->rec_kinds[n - 1] == REC_FORCED)
			continue;
		if (!(rec.have & HAVE_IP) || !ts_kernel_ip(rec.ip)) {
			print_error("%s: record %zu IP 0x%llx is not the kernel's\n", ctx, n,
				    (unsigned long long)rec.ip);
			fail();
		}
		if (kind != KIND_OTHER && (rec.have & HAVE_DLA) && !ts_kernel_addr(rec.data_la)) {
			print_error("%s: record %zu address 0x%llx is not the kernel's\n", ctx, n,
				    (unsigned long long)rec.data_la);
			fail();
		}
		if (kind != KIND_OTHER && res->decode_cfg.fmt >= 1 && !(rec.have & HAVE_DLA)) {
			print_error("%s: record %zu has no data address\n", ctx, n);
			fail();
		}
	}
	if (st == PEBS_STEP_ANOMALY) {
		print_error("%s: anomaly at %zu: %s\n", ctx, an.offset, an.what);
		fail();
	}
	assert_int_equal(n, res->n_records);
}
