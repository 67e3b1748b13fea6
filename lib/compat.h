/* SPDX-License-Identifier: MIT */
/*
 * compat.h - the few C library functions the pure units (lib, decode, pmu, ds,
 * sim, kernels, app) may use.  On the host they come from libc; in the UEFI
 * application (PP_EFI) from lib/efi_libc.c and gnu-efi's libefi (memset,
 * memcpy).  Nothing else of libc is available in the app: no malloc, no stdio.
 */
#ifndef PP_COMPAT_H
#define PP_COMPAT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef PP_EFI
void *memset(void *s, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
/*
 * -ffreestanding implies -fno-builtin: GCC would call memcpy even for the
 * 8-byte copy of get_le64.  Through __builtin_* a size known at compile time
 * is inlined (a mov or two); any other size still calls lib/efi_libc.c.
 */
#define memcpy(d, s, n)	 __builtin_memcpy(d, s, n)
#define memset(s, c, n)	 __builtin_memset(s, c, n)
#define memmove(d, s, n) __builtin_memmove(d, s, n)
#else
#include <string.h>
#endif

#define ARRAY_SIZE(a)	    (sizeof(a) / sizeof((a)[0]))
#define BIT_ULL(n)	    (1ULL << (n))
#define GENMASK_ULL(hi, lo) ((~0ULL >> (63 - (hi))) & (~0ULL << (lo)))
#define PAGE_SIZE_4K	    4096UL

#define pp_unused	__attribute__((unused))
#define pp_printf(a, b) __attribute__((format(printf, a, b)))

static inline uint64_t get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v)); /* x86 and every host we build on are little-endian */
	return v;
}

static inline uint32_t get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

#endif
