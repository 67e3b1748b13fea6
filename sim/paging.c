// SPDX-License-Identifier: MIT
/*
 * paging.c - the simulated firmware's page tables and the simulator's own
 * reading of a CPU's tables.  Firmware identity-maps all memory before an
 * application starts (UEFI 2.10, 2.3.4); this firmware does it with the
 * pages sim-pages= names, materialized for the memory the app asks about
 * (hw_ops.fw_map).  The walk is the simulator's own copy of the 4-level
 * paging rules (SDM Vol. 3A 4.5, Tables 4-14 to 4-20), not pmu/paging.c's.
 */
#include "sim_int.h"
#include "../lib/platform.h"

#define E_P    (1ULL << 0)
#define E_RW   (1ULL << 1)
#define E_PS   (1ULL << 7)
#define E_ADDR 0x000ffffffffff000ULL /* bits 51:12 */

static struct {
	uint64_t page_size; /* 4 KiB (default), 2 MiB or 1 GiB */
	uint64_t *root;
	uint64_t *other; /* a second root, its entries kept equal to root's */
	uint64_t *bare;	 /* a third root, empty: maps none of the app's memory */
	void **pages;
	size_t n, cap;
} fw = {.page_size = 4096};

static uint64_t *fw_table(void)
{
	uint64_t *t;

	if (fw.n == fw.cap) {
		size_t cap = fw.cap ? 2 * fw.cap : 64;
		void **p = plat_alloc(cap * sizeof(*p));

		if (!p)
			return NULL;
		if (fw.pages) {
			memcpy(p, fw.pages, fw.n * sizeof(*p));
			plat_free(fw.pages);
		}
		fw.pages = p;
		fw.cap = cap;
	}
	t = plat_alloc_pages(1);
	if (t)
		fw.pages[fw.n++] = t;
	return t;
}

/* Drops the firmware's tables: only at sim_select(), when no CPU runs on them. */
void sim_paging_clear(void)
{
	for (size_t i = 0; i < fw.n; i++)
		plat_free_pages(fw.pages[i], 1);
	plat_free(fw.pages);
	memset(&fw, 0, sizeof(fw));
	fw.page_size = 4096;
}

int sim_paging_set_size(uint64_t page_size)
{
	if (page_size != 4096 && page_size != (1ULL << 21) && page_size != (1ULL << 30))
		return -1;
	sim_paging_clear();
	fw.page_size = page_size;
	return 0;
}

uint64_t sim_paging_fw_cr3(void)
{
	if (!fw.root)
		fw.root = fw_table();
	return (uint64_t)(uintptr_t)fw.root;
}

uint64_t sim_paging_fw_cr3_other(void)
{
	uint64_t *root = (uint64_t *)(uintptr_t)sim_paging_fw_cr3();

	if (!fw.other && root) {
		fw.other = fw_table();
		if (fw.other)
			memcpy(fw.other, root, 512 * sizeof(*root));
	}
	return (uint64_t)(uintptr_t)fw.other;
}

uint64_t sim_paging_fw_cr3_bare(void)
{
	if (!fw.bare)
		fw.bare = fw_table();
	return (uint64_t)(uintptr_t)fw.bare;
}

/* One page of the firmware's size at va, identity, writable, WB (PAT 0). */
static void fw_map_page(uint64_t va)
{
	uint64_t *t = (uint64_t *)(uintptr_t)sim_paging_fw_cr3();

	for (unsigned int shift = 39; t; shift -= 9) {
		uint64_t *e = &t[(va >> shift) & 511];

		if (1ULL << shift == fw.page_size) {
			/* mapped once: a page already there stays as it is */
			if (!(*e & E_P))
				*e = (va & ~(fw.page_size - 1)) | E_P | E_RW |
				     (shift > 12 ? E_PS : 0);
			return;
		}
		if (!(*e & E_P)) {
			uint64_t *n = fw_table();

			if (!n)
				return;
			*e = (uint64_t)(uintptr_t)n | E_P | E_RW;
			if (shift == 39 && fw.other)
				fw.other[(va >> shift) & 511] = *e;
		}
		t = (uint64_t *)(uintptr_t)(*e & E_ADDR);
	}
}

void sim_paging_fw_map(uint64_t addr, uint64_t len)
{
	uint64_t va = addr & ~(fw.page_size - 1);

	for (; va < addr + len; va += fw.page_size)
		fw_map_page(va);
}

/*
 * The page size mapping addr under cr3 (SDM Vol. 3A 4.5.4: PS in a PDPTE
 * or PDE ends the walk).  Memory the firmware was never asked about is
 * mapped by it all the same: its page size.
 */
uint64_t sim_paging_page_size(uint64_t cr3, uint64_t addr)
{
	uint64_t e = cr3;

	if (!cr3)
		return fw.page_size;
	for (unsigned int shift = 39; shift >= 12; shift -= 9) {
		e = ((const uint64_t *)(uintptr_t)(e & E_ADDR))[(addr >> shift) & 511];
		if (!(e & E_P))
			return fw.page_size;
		if (shift == 12 || (shift < 39 && (e & E_PS)))
			return 1ULL << shift;
	}
	return fw.page_size;
}

/*
 * The PEBS assist's own walk (SDM Vol. 3B 17.4.9.1: IA32_DS_AREA, the DS
 * fields and the records are linear addresses; 17.4.9.2: their pages must
 * be present, no lazy page-table entry propagation).  The firmware maps all
 * memory: under its own roots an entry not yet materialized is mapped all
 * the same.  Any other root (tables copied by the app, the bare one of
 * unmapped-cr3) maps only what its entries hold.  The entry found not
 * present, or NULL where addr is mapped.
 */
const char *sim_paging_not_present(uint64_t cr3, uint64_t addr)
{
	static const char *const names[] = {"PML4E", "PDPTE", "PDE", "PTE"};
	const uint64_t *t = (const uint64_t *)(uintptr_t)(cr3 & E_ADDR);
	unsigned int level = 0;

	if (!t || t == fw.root || t == fw.other)
		return NULL;
	for (unsigned int shift = 39; shift >= 12; shift -= 9, level++) {
		uint64_t e = t[(addr >> shift) & 511];

		if (!(e & E_P))
			return names[level];
		if (shift == 12 || (shift < 39 && (e & E_PS)))
			return NULL;
		t = (const uint64_t *)(uintptr_t)(e & E_ADDR);
	}
	return NULL;
}
