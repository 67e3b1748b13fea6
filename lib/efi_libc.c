// SPDX-License-Identifier: MIT
/*
 * efi_libc.c - the string functions compat.h promises, for the UEFI build
 * only.  memcpy, memset and memmove are also what GCC emits calls to for
 * struct copies and for any size it does not know at compile time, so they
 * are the drain path's copies: string instructions, not byte loops.
 *
 * `rep movsb` / `rep stosb` move many bytes per cycle on CPUs with fast
 * strings (CPUID.(EAX=07H,ECX=0):EBX[9], "Enhanced REP MOVSB/STOSB", SDM
 * Vol. 2A CPUID; the optimization reference manual's "Enhanced REP MOVSB and
 * STOSB operation" section); without the feature they are still microcoded
 * string moves.  Both x86-64 calling conventions (System V psABI 3.2.1 and
 * Microsoft x64, which UEFI 2.10 section 2.3.4 adopts) have the direction
 * flag clear on function entry and return, which the forward moves rely on;
 * memmove's backward copy sets it and clears it again before returning.
 *
 * Bulk moves go in 8-byte units, the last n % 8 bytes by the byte form.
 * Hardware's fast strings cover MOVSQ/STOSQ as well as the byte forms (SDM
 * Vol. 1 7.3.9.3 "Fast-String Operation"); QEMU's TCG emulates a REP string
 * instruction one element per step (target/i386/tcg/translate.c gen_repz),
 * so 8-byte elements take an eighth of the steps there (docs/PERFORMANCE.md).
 *
 * gnu-efi's libefi defines byte-loop memset and memcpy in the same object
 * as InitializeLib; the Makefile links a copy of libefi in which those two
 * are weak, so these definitions win.  compat.h maps calls with a size
 * known at compile time to __builtin_* so that GCC inlines them even under
 * -ffreestanding; the definitions below are named in parentheses so the
 * macros do not rename them.
 */
#include "lib/compat.h"

void *(memcpy)(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t q = n / 8, b = n % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(src), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(b) : : "memory");
	return dst;
}

void *(memset)(void *s, int c, size_t n)
{
	void *d = s;
	size_t q = n / 8, b = n % 8;
	uint64_t v = (uint8_t)c * 0x0101010101010101ULL; /* the byte in all 8 */

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(b) : "a"(v) : "memory");
	return s;
}

/*
 * Forward when dst is below src (or the ranges do not overlap): each byte
 * is read before any later write reaches it.  Else backward from the last
 * byte with the direction flag set (rep movsb then decrements rsi and rdi).
 */
void *(memmove)(void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	if (d - s >= n) /* d < s (wraps to a large value) or no overlap */
		return (memcpy)(dst, src, n);
	if (!n)
		return dst;
	{
		void *dl = (uint8_t *)dst + n - 1;
		const void *sl = (const uint8_t *)src + n - 1;

		__asm__ volatile("std\n\trep movsb\n\tcld"
				 : "+D"(dl), "+S"(sl), "+c"(n)
				 :
				 : "memory", "cc");
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (uint8_t)*a - (uint8_t)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (uint8_t)*a - (uint8_t)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
