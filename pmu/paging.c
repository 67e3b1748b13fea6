// SPDX-License-Identifier: MIT
/*
 * paging.c - page tables of our own: the kernels' buffers in 4 KiB pages,
 * identity-mapped, everything else as the firmware mapped it (paging.h).
 * Entry formats: SDM Vol. 3A 4.5, Tables 4-14 (PML4E) to 4-20 (PTE).
 */
#include "paging.h"
#include "hw.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

#define PTE_P	    BIT_ULL(0)
#define PTE_RW	    BIT_ULL(1)
#define PTE_US	    BIT_ULL(2)
#define PTE_PS	    BIT_ULL(7) /* a PDPTE or PDE maps a 1 GiB or 2 MiB page */
#define PTE_PAT_4K  BIT_ULL(7)
#define PTE_G	    BIT_ULL(8)
#define PTE_PAT_BIG BIT_ULL(12)
#define PTE_ADDR    GENMASK_ULL(51, 12)
#define PTE_KEEP    (GENMASK_ULL(63, 52) | GENMASK_ULL(12, 0)) /* a leaf's bits but its address */
#define CR3_LOW	    GENMASK_ULL(11, 0)			       /* PCID (CR4.PCIDE) or PWT/PCD */
#define CR4_PAE	    BIT_ULL(5)
#define CR4_PGE	    BIT_ULL(7)
#define CR4_LA57    BIT_ULL(12)
#define PAGE_2M	    (1ULL << 21)
#define PAGE_1G	    (1ULL << 30)
#define TABLE_SLOTS 512

static uint64_t *table_at(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PTE_ADDR);
}

/*
 * The leaf mapping va under cr3: its entry, page size, and in *rw whether
 * every level grants writes (SDM Vol. 3A 4.6.1); false if not present.
 */
static bool walk_rw(uint64_t cr3, uint64_t va, uint64_t *leaf, uint64_t *size, bool *rw)
{
	uint64_t e = cr3;

	*rw = true;
	for (int level = 0; level < 4; level++) {
		unsigned int shift = 39 - 9 * level;

		e = table_at(e)[(va >> shift) & (TABLE_SLOTS - 1)];
		if (!(e & PTE_P))
			return false;
		*rw = *rw && (e & PTE_RW);
		if (level == 3 || (level > 0 && (e & PTE_PS))) {
			*leaf = e;
			*size = 1ULL << shift;
			return true;
		}
	}
	return false;
}

static bool walk(uint64_t cr3, uint64_t va, uint64_t *leaf, uint64_t *size)
{
	bool rw;

	return walk_rw(cr3, va, leaf, size, &rw);
}

static int check_under(uint64_t cr3, const char *whose, uint64_t addr, uint64_t len, char *why,
		       size_t why_size)
{
	uint64_t leaf, size;
	bool rw;

	if (!hw_has_paging() || !(cr3 & PTE_ADDR))
		return 0; /* no tables to walk: the platform's own check stands */
	if (hw_read_cr4() & CR4_LA57) {
		pp_snprintf(why, why_size, "5-level paging (CR4.LA57) is not walked");
		return -1;
	}
	for (uint64_t va = addr & ~(PAGE_SIZE_4K - 1); va < addr + len; va += PAGE_SIZE_4K) {
		if (!walk_rw(cr3, va, &leaf, &size, &rw) || !rw ||
		    (leaf & PTE_ADDR & ~(size - 1)) + (va & (size - 1)) != va) {
			pp_snprintf(why, why_size, "0x%llx is not %s under %s 0x%llx",
				    (unsigned long long)va,
				    !walk(cr3, va, &leaf, &size) ? "mapped"
				    : !rw			 ? "writable"
								 : "identity-mapped",
				    whose, (unsigned long long)cr3);
			return -1;
		}
	}
	return 0;
}

int paging_check_here(uint64_t addr, uint64_t len, char *why, size_t why_size)
{
	return check_under(hw_read_cr3(), "this CPU's CR3", addr, len, why, why_size);
}

int paging_check_under(uint64_t cr3, uint64_t addr, uint64_t len, char *why, size_t why_size)
{
	return check_under(cr3, "pebsprobe's CR3", addr, len, why, why_size);
}

uint64_t paging_page_size(uint64_t cr3, uint64_t addr)
{
	uint64_t leaf, size;

	return cr3 && walk(cr3, addr, &leaf, &size) ? size : 0;
}

/* A zeroed table page of ours, remembered for paging_free(); NULL if none. */
static uint64_t *new_table(struct paging_tables *pt)
{
	uint64_t *t;

	if (pt->n_pages == pt->cap) {
		size_t cap = pt->cap ? 2 * pt->cap : 64;
		void **p = plat_alloc(cap * sizeof(*p));

		if (!p)
			return NULL;
		if (pt->pages) {
			memcpy(p, pt->pages, pt->n_pages * sizeof(*p));
			plat_free(pt->pages);
		}
		pt->pages = p;
		pt->cap = cap;
	}
	t = plat_alloc_pages(1);
	if (t)
		pt->pages[pt->n_pages++] = t;
	return t;
}

static bool is_ours(const struct paging_tables *pt, const uint64_t *t)
{
	for (size_t i = 0; i < pt->n_pages; i++)
		if (pt->pages[i] == t)
			return true;
	return false;
}

/*
 * The table *entry points to, ours: the firmware's is copied first and
 * the entry pointed at the copy (its flags kept).  NULL without memory.
 */
static uint64_t *own_child(struct paging_tables *pt, uint64_t *entry)
{
	uint64_t *child = table_at(*entry), *copy;

	if (is_ours(pt, child))
		return child;
	copy = new_table(pt);
	if (!copy)
		return NULL;
	memcpy(copy, child, TABLE_SLOTS * sizeof(*copy));
	*entry = (*entry & ~PTE_ADDR) | (uint64_t)(uintptr_t)copy;
	return copy;
}

/*
 * A 1 GiB or 2 MiB leaf as a table of 512 pages one size down, same
 * attributes: a 2 MiB page keeps PS and PAT in bit 12, a 4 KiB one has no
 * PS and PAT in bit 7 (Tables 4-17, 4-18, 4-20).  The entry becomes a
 * pointer that grants everything: the leaves below keep the restrictions.
 */
static uint64_t *split(struct paging_tables *pt, uint64_t *entry, uint64_t size)
{
	uint64_t e = *entry, base = e & PTE_ADDR & ~(size - 1), flags = e & PTE_KEEP;
	uint64_t step = size / TABLE_SLOTS;
	uint64_t *t = new_table(pt);

	if (!t)
		return NULL;
	if (step == PAGE_SIZE_4K) {
		bool pat = flags & PTE_PAT_BIG;

		flags &= ~(PTE_PAT_BIG | PTE_PS);
		if (pat)
			flags |= PTE_PAT_4K;
	}
	for (unsigned int i = 0; i < TABLE_SLOTS; i++)
		t[i] = (base + i * step) | flags;
	*entry = (uint64_t)(uintptr_t)t | PTE_P | PTE_RW | PTE_US;
	return t;
}

/* Why va cannot be mapped by us: not present, or a global page PGE keeps. */
static int refuse_leaf(uint64_t va, uint64_t e, uint64_t cr4, char *why, size_t why_size)
{
	if (!(e & PTE_P)) {
		pp_snprintf(why, why_size, "0x%llx is not mapped by the firmware",
			    (unsigned long long)va);
		return -1;
	}
	/* CR3 writes keep global translations (SDM Vol. 3A 4.10.4.1): the old page would stay. */
	if ((cr4 & CR4_PGE) && (e & PTE_G)) {
		pp_snprintf(why, why_size, "0x%llx is a global page under CR4.PGE",
			    (unsigned long long)va);
		return -1;
	}
	return 0;
}

/* The 2 MiB region holding va in 4 KiB pages of ours: the tables above it copied, split. */
static int map_region(struct paging_tables *pt, uint64_t va, uint64_t cr4, char *why,
		      size_t why_size)
{
	uint64_t *t = table_at(pt->root.cr3), *e;

	for (int level = 0; level < 3; level++) {
		unsigned int shift = 39 - 9 * level;

		e = &t[(va >> shift) & (TABLE_SLOTS - 1)];
		if (!(*e & PTE_P))
			return refuse_leaf(va, *e, 0, why, why_size);
		if (level > 0 && (*e & PTE_PS)) {
			if (refuse_leaf(va, *e, cr4, why, why_size))
				return -1;
			t = split(pt, e, 1ULL << shift);
		} else {
			t = own_child(pt, e);
		}
		if (!t) {
			pp_snprintf(why, why_size, "no memory for a page table");
			return -1;
		}
	}
	return 0;
}

int paging_build(struct paging_tables *pt, uint64_t addr, uint64_t len, char *why, size_t why_size)
{
	uint64_t cr4, *root, end = addr + len, leaf, size;

	memset(pt, 0, sizeof(*pt));
	if (!hw_has_paging()) {
		pp_snprintf(why, why_size, "the backend has no page tables to switch");
		return -1;
	}
	cr4 = hw_read_cr4();
	if (cr4 & CR4_LA57) {
		pp_snprintf(why, why_size, "5-level paging (CR4.LA57) is not supported");
		return -1;
	}
	if (!(cr4 & CR4_PAE)) {
		pp_snprintf(why, why_size, "CR4.PAE clear: not 4-level paging");
		return -1;
	}
	if (!len || end < addr || (addr | len) & (PAGE_SIZE_4K - 1)) {
		pp_snprintf(why, why_size, "range 0x%llx+0x%llx is not whole pages",
			    (unsigned long long)addr, (unsigned long long)len);
		return -1;
	}
	pt->root.fw_cr3 = hw_read_cr3();
	pt->root.fw_cr4 = cr4;
	hw_fw_map(addr, len);
	root = new_table(pt);
	if (!root) {
		pp_snprintf(why, why_size, "no memory for a page table");
		goto fail;
	}
	memcpy(root, table_at(pt->root.fw_cr3), TABLE_SLOTS * sizeof(*root));
	pt->root.cr3 = (uint64_t)(uintptr_t)root | (pt->root.fw_cr3 & CR3_LOW);
	for (uint64_t r = addr & ~(PAGE_2M - 1); r < end; r += PAGE_2M)
		if (map_region(pt, r < addr ? addr : r, cr4, why, why_size))
			goto fail;
	/* Every page of the range: a present 4 KiB page of its own address, and no global one. */
	for (uint64_t va = addr; va < end; va += PAGE_SIZE_4K) {
		if (!walk(pt->root.cr3, va, &leaf, &size) || size != PAGE_SIZE_4K) {
			pp_snprintf(why, why_size, "0x%llx is not mapped by the firmware",
				    (unsigned long long)va);
			goto fail;
		}
		if (refuse_leaf(va, leaf, cr4, why, why_size))
			goto fail;
		if ((leaf & PTE_ADDR) != va) {
			pp_snprintf(why, why_size, "0x%llx maps to 0x%llx, not identity",
				    (unsigned long long)va, (unsigned long long)(leaf & PTE_ADDR));
			goto fail;
		}
	}
	/* The hardware reads our tables at their physical address: each must be identity-mapped. */
	for (size_t i = 0; i < pt->n_pages; i++) {
		uint64_t a = (uint64_t)(uintptr_t)pt->pages[i];

		hw_fw_map(a, PAGE_SIZE_4K);
		if (!walk(pt->root.fw_cr3, a, &leaf, &size) ||
		    (leaf & PTE_ADDR & ~(size - 1)) + (a & (size - 1)) != a) {
			pp_snprintf(why, why_size, "a page table at 0x%llx is not identity-mapped",
				    (unsigned long long)a);
			goto fail;
		}
	}
	return 0;
fail:
	paging_free(pt);
	return -1;
}

/* The entry of each level, for the reasons given (SDM Vol. 3A Tables 4-14 to 4-20). */
static const char *const level_names[] = {"PML4E", "PDPTE", "PDE", "PTE"};

/*
 * One 4 KiB page at va into our tables: where ours has no entry at a level,
 * the firmware's entry as it is now (its table below shared, as the copy
 * shares every table it did not make its own); below a table of the
 * firmware's nothing is ours to add.  No table is allocated or replaced.
 */
static int extend_page(struct paging_tables *pt, uint64_t va, char *why, size_t why_size)
{
	uint64_t *t = table_at(pt->root.cr3);
	const uint64_t *f = table_at(pt->root.fw_cr3);

	for (int level = 0; level < 4; level++) {
		unsigned int shift = 39 - 9 * level, i = (va >> shift) & (TABLE_SLOTS - 1);
		uint64_t fe = f ? f[i] : 0;

		if (!(t[i] & PTE_P)) {
			if (!(fe & PTE_P)) {
				pp_snprintf(why, why_size,
					    "0x%llx is not mapped by the firmware (no %s)",
					    (unsigned long long)va, level_names[level]);
				return -1;
			}
			t[i] = fe;
			return 0;
		}
		if (level == 3 || (level > 0 && (t[i] & PTE_PS)) || !is_ours(pt, table_at(t[i])))
			return 0;
		t = table_at(t[i]);
		/* The firmware's table at the next level; none where it has a leaf or nothing. */
		f = (fe & PTE_P) && !(level > 0 && (fe & PTE_PS)) ? table_at(fe) : NULL;
	}
	return 0;
}

int paging_extend(struct paging_tables *pt, uint64_t addr, uint64_t len, char *why, size_t why_size)
{
	if (!pt || !pt->root.cr3 || !len)
		return 0;
	hw_fw_map(addr, len);
	for (uint64_t va = addr & ~(PAGE_SIZE_4K - 1); va < addr + len; va += PAGE_SIZE_4K)
		if (extend_page(pt, va, why, why_size))
			return -1;
	return paging_check_under(pt->root.cr3, addr, len, why, why_size);
}

void paging_free(struct paging_tables *pt)
{
	for (size_t i = 0; i < pt->n_pages; i++)
		plat_free_pages(pt->pages[i], 1);
	plat_free(pt->pages);
	memset(pt, 0, sizeof(*pt));
}

static struct kept {
	struct paging_tables pt;
	struct kept *next;
} * kept;

void paging_keep(struct paging_tables *pt)
{
	struct kept *k = pt->n_pages ? plat_alloc(sizeof(*k)) : NULL;

	if (k) {
		k->pt = *pt;
		k->next = kept;
		kept = k;
	}
	memset(pt, 0, sizeof(*pt));
}

/*
 * The tables are a copy of the building CPU's, judged under its CR4: a CPU
 * on another CR3 may map memory otherwise (its stack, its code), and one
 * with CR4.PGE where the builder had none keeps global translations across
 * the CR3 write (SDM Vol. 3A 4.10.4.1); LA57 or PAE changes the format
 * itself (4.1.1).  The CPU's own CR3 bits outside the table address (PCID
 * or PWT/PCD, 4.10.1) are kept.
 */
#define CR4_MUST_AGREE (CR4_PAE | CR4_PGE | CR4_LA57)

int paging_enter(const struct paging_root *r, uint64_t *saved, char *why, size_t why_size)
{
	uint64_t cr3 = hw_read_cr3(), cr4 = hw_read_cr4();

	*saved = cr3;
	if ((cr3 & PTE_ADDR) != (r->fw_cr3 & PTE_ADDR)) {
		pp_snprintf(why, why_size,
			    "this CPU's CR3 0x%llx is not 0x%llx, the one the tables copy",
			    (unsigned long long)cr3, (unsigned long long)r->fw_cr3);
		return -1;
	}
	if ((cr4 ^ r->fw_cr4) & CR4_MUST_AGREE) {
		pp_snprintf(why, why_size,
			    "this CPU's CR4 0x%llx differs from 0x%llx in PAE/PGE/LA57",
			    (unsigned long long)cr4, (unsigned long long)r->fw_cr4);
		return -1;
	}
	hw_write_cr3((cr3 & ~PTE_ADDR) | (r->cr3 & PTE_ADDR));
	return 0;
}

void paging_leave(uint64_t saved_cr3)
{
	hw_write_cr3(saved_cr3);
}
