// SPDX-License-Identifier: MIT
/*
 * test_efi_libc - lib/efi_libc.c's memcpy, memset and memmove, built with
 * the UEFI build's compiler flags (-ffreestanding, -DPP_EFI: compat.h's
 * declarations and __builtin_* macros) and linked into a host program, whose
 * own calls then reach these definitions instead of libc's.  Checked
 * against byte-by-byte references: every size 0..300 at every source and
 * destination alignment 0..15, the bytes around the range untouched, the
 * return value, memmove over overlapping ranges in both directions, and the
 * direction flag clear afterwards.  Output: one PASS/FAIL line per check.
 */
#include <stdio.h>

#include "../../lib/compat.h"

#define AREA  1024
#define GUARD 64
#define MAXN  300

static unsigned int failures;

static void check(bool ok, const char *name, size_t n, size_t a, size_t b)
{
	if (ok)
		return;
	failures++;
	if (failures <= 10)
		printf("FAIL: efi-libc: %s: size %zu, offsets %zu/%zu\n", name, n, a, b);
}

/* The references: volatile so GCC cannot turn them into calls of the code under test. */
static void ref_copy(volatile uint8_t *d, const volatile uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

static bool same(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool df_clear(void)
{
	uint64_t fl;

	__asm__ volatile("pushfq\n\tpopq %0" : "=r"(fl));
	return !(fl & (1u << 10));
}

/* Sizes 0..MAXN at all alignments; the bytes around dst must stay as they were. */
static void test_copy_set(void)
{
	static uint8_t src[AREA], dst[AREA], want[AREA];
	unsigned int before = failures;

	fill(src, AREA, 1);
	for (size_t n = 0; n <= MAXN; n++)
		for (size_t sa = 0; sa < 16; sa++)
			for (size_t da = 0; da < 16; da++) {
				fill(dst, AREA, 2);
				fill(want, AREA, 2);
				ref_copy(want + GUARD + da, src + GUARD + sa, n);
				void *r = memcpy(dst + GUARD + da, src + GUARD + sa, n);
				check(r == dst + GUARD + da && same(dst, want, AREA), "memcpy", n,
				      sa, da);
			}
	printf("%s: efi-libc: memcpy, sizes 0..%d at every alignment 0..15, guards intact\n",
	       failures == before ? "PASS" : "FAIL", MAXN);

	before = failures;
	for (size_t n = 0; n <= MAXN; n++)
		for (size_t da = 0; da < 16; da++) {
			int c = (int)(0x100 | (n * 13 + da)); /* only the low byte counts */

			fill(dst, AREA, 3);
			fill(want, AREA, 3);
			for (size_t i = 0; i < n; i++)
				((volatile uint8_t *)want)[GUARD + da + i] = (uint8_t)c;
			void *r = memset(dst + GUARD + da, c, n);
			check(r == dst + GUARD + da && same(dst, want, AREA), "memset", n, 0, da);
		}
	printf("%s: efi-libc: memset, sizes 0..%d at every alignment 0..15, low byte only, "
	       "guards intact\n",
	       failures == before ? "PASS" : "FAIL", MAXN);
}

/* memmove within one buffer: every overlap distance both ways, and disjoint ranges. */
static void test_move(void)
{
	static uint8_t buf[AREA], want[AREA], tmp[AREA];
	unsigned int before = failures;

	for (size_t n = 0; n <= MAXN; n += (n < 40 ? 1 : 13))
		for (size_t s = GUARD; s < GUARD + 40; s++)
			for (size_t d = GUARD; d < GUARD + 40; d++) {
				fill(buf, AREA, 4);
				fill(want, AREA, 4);
				ref_copy(tmp, want + s, n); /* through a third buffer */
				ref_copy(want + d, tmp, n);
				void *r = memmove(buf + d, buf + s, n);
				check(r == buf + d && same(buf, want, AREA), "memmove", n, s, d);
				check(df_clear(), "memmove leaves DF set", n, s, d);
			}
	printf("%s: efi-libc: memmove, overlapping forward and backward (distances 0..39), "
	       "sizes 0..%d, DF clear after\n",
	       failures == before ? "PASS" : "FAIL", MAXN);
}

/* Fixed sizes go through __builtin_* (compat.h): the little-endian readers still read right. */
static void test_fixed(void)
{
	static const uint8_t b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	bool ok = get_le64(b + 1) == 0x0908070605040302ULL && get_le32(b + 3) == 0x07060504u;

	check(ok, "get_le64/get_le32 at odd offsets", 8, 1, 3);
	printf("%s: efi-libc: get_le64 and get_le32 at unaligned offsets\n", ok ? "PASS" : "FAIL");
}

int main(void)
{
	test_copy_set();
	test_move();
	test_fixed();
	return failures ? 1 : 0;
}
