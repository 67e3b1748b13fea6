/* SPDX-License-Identifier: MIT */
/*
 * test_sim_util.h - helpers for the simulator's host tests: select a model,
 * raw MSR writes that must succeed, a DS save area built by hand from the
 * SDM layout (Vol. 3B Figure 18-26; Linux asm/intel_ds.h struct
 * debug_store), and a kernel stand-in that
 * reports loads and stores through hw_current()->mem_access.
 *
 * Expected values in the tests are written from the SDM / reference tables
 * (record sizes, field offsets, encodings), never read back from sim/.
 */
#ifndef TEST_SIM_UTIL_H
#define TEST_SIM_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmu/hw.h"
#include "sim/sim.h"

/* MSR numbers, SDM Vol. 4 / Linux asm/msr-index.h. */
#define PMC(i)		(0xc1 + (i))
#define A_PMC(i)	(0x4c1 + (i))
#define EVTSEL(i)	(0x186 + (i))
#define FIXED_CTR(i)	(0x309 + (i))
#define FIXED_CTR_CTRL	0x38d
#define GLOBAL_STATUS	0x38e
#define GLOBAL_CTRL	0x38f
#define GLOBAL_OVF_CTRL 0x390
#define STATUS_SET	0x391
#define GLOBAL_INUSE	0x392
#define PERF_METRICS	0x329
#define PEBS_ENABLE	0x3f1
#define DATA_CFG	0x3f2
#define PEBS_BASE	0x3f4
#define PEBS_INDEX	0x3f5
#define LD_LAT		0x3f6
#define FRONTEND	0x3f7
#define OFFCORE_RSP(i)	(0x1a6 + (i))
#define DS_AREA		0x600
#define MISC_ENABLE	0x1a0
#define PERF_CAPS	0x345
#define BIOS_SIGN_ID	0x8b
#define DEBUGCTL	0x1d9
#define CFG_C_GP(i)	(0x1903 + 4 * (i))
#define CFG_C_FX(i)	(0x1983 + 4 * (i))

/* PERFEVTSEL fields (SDM 18.2.1.1). */
#define EV_USR	  (1ull << 16)
#define EV_OS	  (1ull << 17)
#define EV_EDGE	  (1ull << 18)
#define EV_INT	  (1ull << 20)
#define EV_EN	  (1ull << 22)
#define EV_ADAPT  (1ull << 34)
#define EVT(code) (EV_EN | EV_OS | EV_USR | (code))

#define APIC_LVTPC 0x340
#define APIC_EOI   0xb0
#define PMI_VEC	   0xf0

#define MASK48 0xffffffffffffull
#define MASK40 0xffffffffffull

/* ---- violations -------------------------------------------------------- */

static char last_rule[64];
static char rules_seen[512]; /* every rule id reported, each followed by ';' */
static unsigned int n_rules;

static pp_unused void catch_violation(const char *rule, const char *text, void *ctx)
{
	size_t n = strlen(rules_seen);

	(void)text;
	(void)ctx;
	snprintf(last_rule, sizeof(last_rule), "%s", rule);
	snprintf(rules_seen + n, sizeof(rules_seen) - n, "%s;", rule);
	n_rules++;
}

static pp_unused void clear_rules(void)
{
	last_rule[0] = 0;
	rules_seen[0] = 0;
	n_rules = 0;
}

/* Whether rule id was reported since clear_rules(). */
static pp_unused bool saw_rule(const char *id)
{
	char key[80];

	snprintf(key, sizeof(key), "%s;", id);
	return strstr(rules_seen, key) != NULL;
}

static pp_unused void use_model(const char *name)
{
	assert_int_equal(sim_select(name), 0);
	hw_install(sim_hw_ops());
	hw_reset_msr_access_count();
	sim_set_violation_handler(catch_violation, NULL);
	clear_rules();
}

static pp_unused void wr(uint32_t msr, uint64_t v)
{
	if (hw_wrmsr(msr, v) != HW_OK)
		fail_msg("wrmsr 0x%x 0x%llx faulted on %s", msr, (unsigned long long)v,
			 sim_current_model());
}

static pp_unused uint64_t rd(uint32_t msr)
{
	uint64_t v = 0;

	if (hw_rdmsr(msr, &v) != HW_OK)
		fail_msg("rdmsr 0x%x faulted on %s", msr, sim_current_model());
	return v;
}

static pp_unused bool wr_gp(uint32_t msr, uint64_t v)
{
	return hw_wrmsr(msr, v) == HW_GP;
}

static pp_unused bool rd_gp(uint32_t msr)
{
	uint64_t v;

	return hw_rdmsr(msr, &v) == HW_GP;
}

/* ---- DS save area (64-bit layout: SDM Vol. 3B 18.4.4; Linux struct debug_store) */

struct ds {
	uint8_t *area; /* 4 KiB DS save area */
	uint8_t *buf;  /* PEBS buffer, then a guard region */
	size_t buf_len, guard;
};

static pp_unused uint64_t get64(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static pp_unused void put64(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

/* A buffer of buf_len bytes; abs_max and threshold as byte offsets from base. */
static pp_unused void ds_make(struct ds *d, size_t buf_len, size_t abs_max_off, size_t thresh_off)
{
	d->guard = 4096;
	d->buf_len = buf_len;
	assert_int_equal(posix_memalign((void **)&d->area, 4096, 4096), 0);
	assert_int_equal(posix_memalign((void **)&d->buf, 4096, buf_len + d->guard), 0);
	memset(d->area, 0, 4096);
	memset(d->buf, 0xa5, buf_len + d->guard);
	put64(d->area, 0x20, (uintptr_t)d->buf);	       /* pebs_buffer_base */
	put64(d->area, 0x28, (uintptr_t)d->buf);	       /* pebs_index */
	put64(d->area, 0x30, (uintptr_t)d->buf + abs_max_off); /* pebs_absolute_maximum */
	put64(d->area, 0x38, (uintptr_t)d->buf + thresh_off);  /* pebs_interrupt_threshold */
}

static pp_unused void ds_reset_slot(struct ds *d, unsigned int slot, uint64_t v)
{
	put64(d->area, 0x40 + 8 * slot, v);
}

static pp_unused uint64_t ds_used(const struct ds *d)
{
	return get64(d->area, 0x28) - (uintptr_t)d->buf;
}

static pp_unused void ds_free(struct ds *d)
{
	free(d->area);
	free(d->buf);
}

/* Nothing past `limit` bytes of the buffer was touched (0xa5 fill intact). */
static pp_unused void assert_untouched_from(const struct ds *d, size_t limit)
{
	size_t i;

	for (i = limit; i < d->buf_len + d->guard; i++)
		if (d->buf[i] != 0xa5)
			fail_msg("byte %zu of the PEBS buffer written (limit %zu)", i, limit);
}

/* ---- the kernel stand-in ----------------------------------------------- */

#define KIP 0x401000ull /* "code" addresses of the stand-in kernel */

static pp_unused uint64_t kip(unsigned long i)
{
	return KIP + 4 * (i % 16);
}

/* n loads of 8 bytes, each to a new 64-byte line of data[]. */
static pp_unused void run_loads(const uint8_t *data, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		hw_current()->mem_access(kip(i), 0, (uintptr_t)data + 64 * i, 8, HW_LOAD);
}

/* One load overflows GP counter 0 (EVTSEL.INT): a PMI at vec, handled by fn. */
static pp_unused void overflow_pmi_now(uint8_t vec, void (*fn)(void *ctx))
{
	static uint8_t data[64];

	assert_int_equal(hw_set_pmi_handler(vec, fn, NULL), 0);
	hw_apic_write(APIC_LVTPC, vec);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0) | EV_INT); /* MEM_INST_RETIRED.ALL_LOADS */
	wr(PMC(0), (uint64_t)-1);
	wr(GLOBAL_CTRL, 1);
	run_loads(data, 1);
}

#endif
