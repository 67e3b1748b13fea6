/* SPDX-License-Identifier: MIT */
/*
 * paging.h - page tables of pebsprobe's own for the kernels' data buffers.
 *
 * Firmware maps memory with 2 MiB or 1 GiB pages where it can; a kernel
 * that must miss the STLB (page-walk) needs its buffer in 4 KiB pages.
 * paging_build() copies the firmware's PML4 and splits only the entries on
 * the way to the buffers down to 4 KiB pages, identity-mapped with the
 * firmware's attributes; everything else keeps the firmware's own tables.
 * paging_enter()/paging_leave() switch CR3 on the calling CPU around one
 * kernel run, through the hw seam (pmu/hw.h), so the simulator runs under
 * the same tables.  Formats: SDM Vol. 3A 4.5 (4-level paging), Tables 4-14
 * to 4-20.
 */
#ifndef PP_PAGING_H
#define PP_PAGING_H

#include "../lib/compat.h"

/*
 * What a CPU needs to switch to the tables, kept by value (a CPU that
 * never came back keeps its copy): ours, and the CR3 and CR4 of the CPU
 * that built them.  Each CPU has its own CR3 and CR4 (SDM Vol. 3A 2.5):
 * an AP whose differ runs under tables of its own, not a copy of these.
 */
struct paging_root {
	uint64_t cr3;	 /* ours: our PML4 with the firmware's CR3 bits 11:0 */
	uint64_t fw_cr3; /* the firmware's CR3 when the tables were built */
	uint64_t fw_cr4; /* CR4 then: the refusals (LA57, PGE) judged by it */
};

struct paging_tables {
	struct paging_root root;
	void **pages; /* our table pages (plat_alloc_pages, one page each) */
	size_t n_pages, cap;
};

/*
 * Builds tables mapping [addr, addr + len) with 4 KiB pages.  Runs on the
 * boot CPU, before any other CPU uses them: it allocates firmware pages.
 * 0, or -1 with why (5-level paging, no paging in the backend, a buffer the
 * firmware does not identity-map, global pages, no memory): the caller keeps
 * the firmware's tables and says why.
 */
int paging_build(struct paging_tables *pt, uint64_t addr, uint64_t len, char *why, size_t why_size);
/* Frees the tables.  Never while a CPU may still run on them (a hung AP). */
void paging_free(struct paging_tables *pt);
/*
 * Tables a CPU that never came back may still run on: kept for good, in a
 * list of their own (and *pt emptied), never freed or reused.
 */
void paging_keep(struct paging_tables *pt);

/*
 * On the CPU that runs the kernel: CR3 to the tables of r, the CR3 it had
 * in *saved; paging_leave() writes that back.  Only where this CPU's CR3
 * is the one the tables were copied from and its CR4 agrees in PAE, PGE
 * and LA57: else -1 with why, and CR3 is not written.  Both read and
 * write only CR3 and CR4 through the seam (no firmware call: safe on an AP).
 */
int paging_enter(const struct paging_root *r, uint64_t *saved, char *why, size_t why_size);
void paging_leave(uint64_t saved_cr3);

/*
 * On the calling CPU: whether [addr, addr + len) is present, writable at
 * every level and identity-mapped under its own CR3, as memory written
 * through a linear address with no fault handling (the DS save area, the
 * legacy PEBS buffer) must be.  0 (also where the backend has no page
 * tables), or -1 with why.  No firmware call: safe on an AP.  The
 * simulated firmware's tables hold only memory hw_fw_map() was asked about,
 * on the boot CPU (it allocates): the caller asks there first.
 */
int paging_check_here(uint64_t addr, uint64_t len, char *why, size_t why_size);
/* The same walk under the tables cr3 names (ours, before any CPU runs on them). */
int paging_check_under(uint64_t cr3, uint64_t addr, uint64_t len, char *why, size_t why_size);

/*
 * On the boot CPU, for memory allocated after paging_build() (the DS area
 * and the PEBS buffer): [addr, addr + len) mapped in *pt as the firmware
 * maps it now.  The copy shares the firmware's tables only where it made
 * none of its own, so an entry the firmware added since, under a table of
 * ours or a PML4E that was empty, is missing there (SDM Vol. 3B 17.4.9.2:
 * the DS save area and buffers must be present under the CR3 the PEBS
 * assist runs on).  Each level ours lacks takes the firmware's entry.  0
 * (also with no tables: pt NULL or never built), or -1 with why.
 */
int paging_extend(struct paging_tables *pt, uint64_t addr, uint64_t len, char *why,
		  size_t why_size);

/*
 * The size of the page mapping addr in the tables under cr3 (4096, 2 MiB
 * or 1 GiB), 0 if it is not mapped or cr3 is 0.  Tables are read at
 * their physical address: UEFI identity-maps memory.
 */
uint64_t paging_page_size(uint64_t cr3, uint64_t addr);

#endif
