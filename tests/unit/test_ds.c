// SPDX-License-Identifier: MIT
/*
 * test_ds.c - ds/: the DS save area fields at their SDM offsets
 * (Fig. 18-26: base 0x20, index 0x28, absolute maximum 0x30, threshold
 * 0x38, resets from 0x40), whole-record absolute maximum, thresholds, the
 * drain walks (fixed size, adaptive size field, arch-PEBS headers) on
 * records built byte by byte, and the arch-PEBS MSR values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "ds/ds.h"
#include "pmu/msr.h"

static uint64_t at(const uint8_t *p, size_t off)
{
	return get_le64(p + off);
}

static void put(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

static void test_setup_fields(void **state)
{
	struct ds_area d;
	char why[160];
	uint64_t base;
	size_t n;

	assert_int_equal(ds_alloc(&d, 8192, false, why, sizeof(why)), 0);
	assert_int_equal((uintptr_t)d.ds & 4095, 0);
	assert_int_equal((uintptr_t)d.buf & 4095, 0);
	assert_int_equal(d.buf_size, 8192);
	base = (uintptr_t)d.buf;
	/* fmt1 records are 176 bytes: 8192 / 176 = 46 whole records (46 * 176 = 8096) */
	n = ds_setup(&d, 176, 0);
	assert_int_equal(n, 46);
	assert_true(at(d.ds, 0x20) == base);
	assert_true(at(d.ds, 0x28) == base);
	assert_true(at(d.ds, 0x30) == base + 8096);
	/*
	 * no threshold: past the absolute maximum, never reached (polling), and
	 * still base + a multiple of the record size (SDM): 47 * 176 = 8272
	 */
	assert_true(at(d.ds, 0x38) == base + 8272);
	ds_setup(&d, 176, 10);
	assert_true(at(d.ds, 0x38) == base + 1760);
	/* reset slots: GP 3 at 0x40 + 24, fixed 1 at 0x40 + 8 * 9 (fmt <= 4) */
	ds_set_reset(&d, 3, 0xffffffffffe0ULL);
	ds_set_reset(&d, 9, 0xffffffffff00ULL);
	assert_true(at(d.ds, 0x58) == 0xffffffffffe0ULL);
	assert_true(at(d.ds, 0x88) == 0xffffffffff00ULL);
	/* the BTS fields stay zero */
	assert_true(at(d.ds, 0) == 0 && at(d.ds, 8) == 0 && at(d.ds, 0x10) == 0);
	ds_free(&d);
	assert_null(d.buf);
}

static void test_drain_fixed_and_full(void **state)
{
	struct ds_area d;
	struct ds_drained r;
	char why[160];
	uint64_t base;

	assert_int_equal(ds_alloc(&d, 4096, false, why, sizeof(why)), 0);
	base = (uintptr_t)d.buf;
	ds_setup(&d, 200, 0); /* 20 records of 200 bytes: abs max = base + 4000 */
	put(d.ds, 0x28, base + 600);
	ds_drain(&d, false, &r);
	assert_int_equal(r.n_records, 3);
	assert_int_equal(r.len, 600);
	assert_false(r.full);
	/* the write pointer is back at the base */
	assert_true(at(d.ds, 0x28) == base);
	put(d.ds, 0x28, base + 4000);
	ds_drain(&d, false, &r);
	assert_int_equal(r.n_records, 20);
	assert_true(r.full);
	ds_free(&d);
}

static void test_drain_adaptive(void **state)
{
	struct ds_area d;
	struct ds_drained r;
	char why[160];
	uint64_t base;

	assert_int_equal(ds_alloc(&d, 4096, false, why, sizeof(why)), 0);
	base = (uintptr_t)d.buf;
	ds_setup(&d, 64, 0);
	/* two records: basic only (32 B) then basic + meminfo (64 B): size in bits 63:48 */
	put(d.buf, 0, 32ULL << 48);
	put(d.buf, 32, (64ULL << 48) | 1);
	put(d.ds, 0x28, base + 96);
	ds_drain(&d, true, &r);
	assert_int_equal(r.n_records, 2);
	assert_int_equal(r.len, 96);
	assert_false(r.malformed);
	/* a zero size stops the walk and says so */
	put(d.buf, 32, 0);
	put(d.ds, 0x28, base + 96);
	ds_drain(&d, true, &r);
	assert_int_equal(r.n_records, 1);
	assert_true(r.malformed);
	ds_free(&d);
}

static void test_arch(void **state)
{
	struct ds_area d;
	struct ds_drained r;
	char why[160];
	uint64_t idx;

	/* 20 KiB asked: rounded down to 4 KiB << 2 = 16 KiB */
	assert_int_equal(ds_alloc(&d, 20 * 1024, true, why, sizeof(why)), 0);
	assert_null(d.ds);
	assert_int_equal(d.buf_size, 16384);
	assert_true(ds_arch_base_msr(&d) == ((uintptr_t)d.buf | 2));
	/* EN = bit 32; THRESH (bits 58:36) in 16-byte units, never past the end */
	assert_true(ds_arch_index_msr(&d, 4096) == (BIT_ULL(32) | (256ULL << 36)));
	idx = ds_arch_index_msr(&d, 1 << 20);
	assert_true(idx == (BIT_ULL(32) | ((16384ULL / 16) << 36)));
	assert_true(ds_arch_index_msr(&d, 0) == (BIT_ULL(32) | (1ULL << 36)));
	/* two 0x40-byte records with the basic bit, one continuation fragment of 0x20 */
	put(d.buf, 0, BIT_ULL(63) | 0x40);
	put(d.buf, 0x40, BIT_ULL(63) | BIT_ULL(31) | 0x40);
	put(d.buf, 0x80, BIT_ULL(62) | 0x20);
	ds_drain_arch(&d, ((0xa0ULL >> 4) << 4) | BIT_ULL(32), &r);
	assert_int_equal(r.len, 0xa0);
	assert_int_equal(r.n_records, 2);
	assert_false(r.full);
	ds_drain_arch(&d, (0xa0ULL) | BIT_ULL(31), &r);
	assert_true(r.full);
	ds_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_setup_fields),
	    cmocka_unit_test(test_drain_fixed_and_full),
	    cmocka_unit_test(test_drain_adaptive),
	    cmocka_unit_test(test_arch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
