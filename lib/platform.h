/* SPDX-License-Identifier: MIT */
/*
 * platform.h - what the pure units need from their environment: memory,
 * files, time, other cores.  efi/platform_efi.c implements it with UEFI boot
 * services; host/platform_host.c with POSIX for host tests and tools.
 */
#ifndef PP_PLATFORM_H
#define PP_PLATFORM_H

#include "compat.h"

/* Page-aligned, zeroed memory (boot-services pages in the app). NULL if none. */
void *plat_alloc_pages(size_t npages);
void plat_free_pages(void *p, size_t npages);

/* Ordinary small allocations (pool memory in the app). */
void *plat_alloc(size_t size);
void plat_free(void *p);

/*
 * Checks that [addr, addr+len) is mapped present, writable, identity-mapped
 * (linear == physical) and write-back, by walking the live page tables.  On
 * failure returns false and writes the reason into why.  The host
 * implementation reports what it cannot check (no page tables to walk).
 */
bool plat_check_mapping(uint64_t addr, size_t len, char *why, size_t why_size);

/*
 * The size of the page that maps addr in the live page tables (4096, 2 MiB
 * or 1 GiB), 0 if it is not mapped.  The host reports 4096: its main job
 * runs on the simulator, whose TLB model uses 4 KiB pages.
 */
uint64_t plat_page_size(uint64_t addr);

/*
 * Writes a whole file beside the binary on the ESP (the app) or in the
 * output directory (host).  Written to "<name>.tmp" first and renamed, so a
 * file is never left half-written.  Returns 0 or a negative error.
 */
int plat_write_file(const char *name, const void *buf, size_t len);

/* Wall-clock-ish microseconds since start, for progress lines. */
uint64_t plat_time_us(void);
void plat_stall_us(unsigned int us);

/* Other processors (UEFI MP services).  Returns how many CPUs are enabled. */
unsigned int plat_cpu_count(void);
/*
 * Runs fn(arg) on the application processor number cpu (1..count-1) while
 * the caller runs its own part; plat_wait_cpu() waits for it.  Returns 0, or
 * a negative value when no second processor can be used.
 */
int plat_start_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg);
int plat_wait_cpu(unsigned int cpu, uint64_t timeout_us);

#endif
