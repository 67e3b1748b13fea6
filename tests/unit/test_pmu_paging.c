// SPDX-License-Identifier: MIT
/*
 * test_pmu_paging.c - pebsprobe's own page tables (pmu/paging.c) over the
 * simulated firmware's (sim-pages=, sim/paging.c): a buffer inside one
 * 2 MiB or 1 GiB page, or across the boundary of two, becomes 4 KiB pages
 * of its own address with the firmware's attributes; the rest keeps the
 * firmware's page size, and the firmware's tables are left as they were.
 * Then what must be refused, each with its reason and no CR3 written:
 * 5-level paging, a global page under CR4.PGE, a buffer not identity-
 * mapped, a backend without paging.  The walk below is the test's own
 * reading of SDM Vol. 3A 4.5 (Tables 4-14 to 4-20).
 */
#include "test_util.h"
#include "lib/platform.h"
#include "pmu/paging.h"
#include "sim/sim.h"

#define KiB4 4096ULL
#define MiB2 (2ULL << 20)
#define GiB1 (1ULL << 30)
#define ADDR 0x000ffffffffff000ULL
#define PAE  (1ULL << 5)
#define PGE  (1ULL << 7)
#define LA57 (1ULL << 12)

static struct hw_ops fake;
static uint64_t fake_cr4;
static unsigned int cr3_writes;
static const struct hw_ops *sim;

static uint64_t fake_read_cr4(void)
{
	return fake_cr4;
}

static void fake_write_cr3(uint64_t v)
{
	cr3_writes++;
	sim->write_cr3(v);
}

/* The leaf entry mapping va under cr3, its page size in *size; NULL if none. */
static uint64_t *leaf_of(uint64_t cr3, uint64_t va, uint64_t *size)
{
	uint64_t e = cr3;

	for (unsigned int shift = 39; shift >= 12; shift -= 9) {
		uint64_t *p = (uint64_t *)(uintptr_t)(e & ADDR) + ((va >> shift) & 511);

		e = *p;
		if (!(e & 1))
			return NULL;
		if (shift == 12 || (shift < 39 && (e & (1ULL << 7)))) {
			*size = 1ULL << shift;
			return p;
		}
	}
	return NULL;
}

/* The simulated firmware with pages of fw_size, behind a CR4 the test sets. */
static uint64_t firmware(uint64_t fw_size)
{
	assert_int_equal(sim_select("skl"), 0);
	assert_int_equal(sim_set_pages(fw_size), 0);
	sim = sim_hw_ops();
	fake = *sim;
	fake.read_cr4 = fake_read_cr4;
	fake.write_cr3 = fake_write_cr3;
	fake_cr4 = PAE;
	cr3_writes = 0;
	hw_install(&fake);
	return hw_read_cr3();
}

/* clang-format off */
static const struct {
	const char *name;
	uint64_t fw_size, addr, pages;
} cases[] = {
	/* name                                fw size  buffer              4 KiB pages */
	{"2m: inside one 2 MiB page",          MiB2,    0x740203000ULL,     3},
	{"2m: across a 2 MiB boundary",        MiB2,    0x7403fe000ULL,     4},
	{"1g: inside one 1 GiB page",          GiB1,    0x7c0001000ULL,     2},
	{"1g: across a 1 GiB boundary",        GiB1,    0x7ffffe000ULL,     4},
	{"1g: across 2 MiB and a PML4 entry",  GiB1,    0x7ffffffe000ULL,   4},
	{"4k: the firmware's are 4 KiB",       KiB4,    0x740203000ULL,     3},
};
/* clang-format on */

static void splits(void **state)
{
	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		uint64_t addr = cases[c].addr, len = cases[c].pages * KiB4, fw_cr3, size, *e;
		uint64_t attrs = (1ULL << 63) | (1ULL << 4) | (1ULL << 3); /* XD, PCD, PWT */
		struct paging_tables pt;
		char why[160];

		fw_cr3 = firmware(cases[c].fw_size);
		hw_fw_map(addr, len);
		hw_fw_map(addr + 64 * GiB1, KiB4); /* memory the firmware mapped, far away */
		/* The firmware's attributes on its leaf: PAT is bit 12 in a large page, 7 in 4 KiB.
		 */
		e = leaf_of(fw_cr3, addr, &size);
		assert_non_null(e);
		assert_int_equal(size, cases[c].fw_size);
		*e |= attrs | (size > KiB4 ? 1ULL << 12 : 1ULL << 7);
		if (paging_build(&pt, addr, len, why, sizeof(why)))
			fail_msg("%s: refused: %s", cases[c].name, why);
		for (uint64_t va = addr; va < addr + len; va += KiB4) {
			e = leaf_of(pt.root.cr3, va, &size);
			if (!e || size != KiB4 || (*e & ADDR) != va)
				fail_msg("%s: 0x%llx is not a 4 KiB identity page", cases[c].name,
					 (unsigned long long)va);
			if (va == addr && ((*e & attrs) != attrs || !(*e & (1ULL << 7))))
				fail_msg("%s: 0x%llx lost the firmware's XD/PCD/PWT/PAT: 0x%llx",
					 cases[c].name, (unsigned long long)va,
					 (unsigned long long)*e);
			/* the firmware's own tables are as they were */
			assert_non_null(leaf_of(fw_cr3, va, &size));
			assert_int_equal(size, cases[c].fw_size);
		}
		/* Far from the buffer: the firmware's own mapping, its page size. */
		assert_int_equal(paging_page_size(pt.root.cr3, addr + 64 * GiB1), cases[c].fw_size);
		assert_int_equal(paging_page_size(fw_cr3, addr), cases[c].fw_size);
		/* CR3 on the CPU: ours for the run, the firmware's after. */
		assert_int_equal(cr3_writes, 0);
		uint64_t saved = 0;

		assert_int_equal(paging_enter(&pt.root, &saved, why, sizeof(why)), 0);
		assert_int_equal(saved, fw_cr3);
		assert_int_equal(hw_read_cr3(), pt.root.cr3);
		paging_leave(saved);
		assert_int_equal(hw_read_cr3(), fw_cr3);
		assert_int_equal(cr3_writes, 2);
		printf("# %s: %zu table pages\n", cases[c].name, pt.n_pages);
		paging_free(&pt);
	}
}

/* What the builder must refuse: its reason, no table kept, CR3 never written. */
enum poke { P_NONE, P_LA57, P_GLOBAL, P_NOT_IDENTITY, P_NO_PAGING };

static void refusals(void **state)
{
	static const struct {
		enum poke poke;
		const char *want;
	} refuse[] = {
	    {P_LA57, "5-level paging (CR4.LA57) is not supported"},
	    {P_GLOBAL, "is a global page under CR4.PGE"},
	    {P_NOT_IDENTITY, "not identity"},
	    {P_NO_PAGING, "the backend has no page tables to switch"},
	};
	uint64_t addr = 0x740203000ULL, size, *e;

	for (size_t c = 0; c < ARRAY_SIZE(refuse); c++) {
		struct paging_tables pt;
		char why[160] = "";
		uint64_t fw_cr3 = firmware(MiB2);

		hw_fw_map(addr, KiB4);
		e = leaf_of(fw_cr3, addr, &size);
		assert_non_null(e);
		switch (refuse[c].poke) {
		case P_LA57:
			fake_cr4 |= LA57;
			break;
		case P_GLOBAL:
			fake_cr4 |= PGE;
			*e |= 1ULL << 8;
			break;
		case P_NOT_IDENTITY:
			*e += MiB2;
			break;
		case P_NO_PAGING:
			fake.read_cr3 = NULL;
			break;
		default:
			break;
		}
		assert_int_equal(paging_build(&pt, addr, KiB4, why, sizeof(why)), -1);
		if (!strstr(why, refuse[c].want))
			fail_msg("case %zu: '%s' lacks '%s'", c, why, refuse[c].want);
		printf("# %s\n", why);
		assert_int_equal(pt.n_pages, 0);
		assert_int_equal(pt.root.cr3, 0);
		assert_int_equal(cr3_writes, 0);
	}
	/* the same global page without CR4.PGE: the G bit is ignored, nothing to refuse */
	{
		struct paging_tables pt;
		char why[160];
		uint64_t fw_cr3 = firmware(MiB2);

		hw_fw_map(addr, KiB4);
		*leaf_of(fw_cr3, addr, &size) |= 1ULL << 8;
		assert_int_equal(paging_build(&pt, addr, KiB4, why, sizeof(why)), 0);
		paging_free(&pt);
	}
}

/*
 * Built on one CPU, entered on another (an AP has its own CR3 and CR4, SDM
 * Vol. 3A 2.5): where that CPU's CR3 is not the one the tables copy, or
 * its CR4 differs in PAE, PGE or LA57, the switch is refused with its
 * reason and CR3 is not written; where only the CR3 bits outside the
 * table address differ (PCID, PWT/PCD), the switch keeps this CPU's.
 */
enum on_cpu { C_SAME, C_OTHER_CR3, C_PGE, C_LA57, C_LOW_BITS };

static void enter_on_another_cpu(void **state)
{
	static const struct {
		enum on_cpu on;
		const char *want; /* the refusal, or NULL: switched */
	} on_cpus[] = {
	    {C_SAME, NULL},
	    {C_OTHER_CR3, "the one the tables copy"},
	    {C_PGE, "in PAE/PGE/LA57"},
	    {C_LA57, "in PAE/PGE/LA57"},
	    {C_LOW_BITS, NULL},
	};
	uint64_t addr = 0x740203000ULL;

	for (size_t c = 0; c < ARRAY_SIZE(on_cpus); c++) {
		struct paging_tables pt;
		char why[160] = "";
		uint64_t fw_cr3 = firmware(MiB2), saved = 0, cpu_cr3 = fw_cr3;
		int r;

		hw_fw_map(addr, KiB4);
		assert_int_equal(paging_build(&pt, addr, KiB4, why, sizeof(why)), 0);
		switch (on_cpus[c].on) {
		case C_OTHER_CR3:
			cpu_cr3 = fw_cr3 + 2 * KiB4; /* another table address */
			break;
		case C_PGE:
			fake_cr4 |= PGE;
			break;
		case C_LA57:
			fake_cr4 |= LA57;
			break;
		case C_LOW_BITS:
			cpu_cr3 = fw_cr3 | 0x18; /* PWT, PCD */
			break;
		default:
			break;
		}
		sim->write_cr3(cpu_cr3);
		cr3_writes = 0;
		r = paging_enter(&pt.root, &saved, why, sizeof(why));
		if (!on_cpus[c].want) {
			if (r)
				fail_msg("case %zu: refused: %s", c, why);
			assert_int_equal(hw_read_cr3(), (pt.root.cr3 & ADDR) | (cpu_cr3 & ~ADDR));
			paging_leave(saved);
			assert_int_equal(hw_read_cr3(), cpu_cr3);
		} else {
			if (!r || !strstr(why, on_cpus[c].want))
				fail_msg("case %zu: switched (rc %d), want a refusal '%s' ('%s')",
					 c, r, on_cpus[c].want, why);
			assert_int_equal(cr3_writes, 0);
			assert_int_equal(hw_read_cr3(), cpu_cr3);
			printf("# %s\n", why);
		}
		sim->write_cr3(fw_cr3);
		paging_free(&pt);
	}
}

/*
 * paging_check_here() on the calling CPU's own tables: a DS area must be
 * present, writable at every level (SDM Vol. 3A 4.6.1) and identity; each
 * broken one is named, with the CPU's CR3.
 */
enum dsmap { D_OK, D_NOT_PRESENT, D_RO_DIRECTORY, D_NOT_IDENTITY };

/* The page-directory entry on the way to va under cr3 (4 KiB pages below it). */
static uint64_t *pde_of(uint64_t cr3, uint64_t va)
{
	uint64_t e = cr3, *p = NULL;

	for (unsigned int shift = 39; shift >= 21; shift -= 9) {
		p = (uint64_t *)(uintptr_t)(e & ADDR) + ((va >> shift) & 511);
		e = *p;
	}
	return p;
}

static void check_here(void **state)
{
	static const struct {
		enum dsmap poke;
		const char *want; /* NULL: accepted */
	} dscases[] = {
	    {D_OK, NULL},
	    {D_NOT_PRESENT, "is not mapped under this CPU's CR3 0x"},
	    {D_RO_DIRECTORY, "is not writable under this CPU's CR3 0x"},
	    {D_NOT_IDENTITY, "is not identity-mapped under this CPU's CR3 0x"},
	};
	uint64_t addr = 0x740203000ULL, size;

	for (size_t c = 0; c < ARRAY_SIZE(dscases); c++) {
		char why[160] = "";
		uint64_t fw_cr3 = firmware(KiB4), *e;
		int r;

		hw_fw_map(addr, 2 * KiB4);
		e = leaf_of(fw_cr3, addr + KiB4, &size);
		assert_non_null(e);
		switch (dscases[c].poke) {
		case D_NOT_PRESENT:
			*e &= ~1ULL;
			break;
		case D_RO_DIRECTORY: /* the PDE above the 4 KiB leaf: R/W clear */
			*pde_of(fw_cr3, addr) &= ~2ULL;
			break;
		case D_NOT_IDENTITY:
			*e += KiB4;
			break;
		default:
			break;
		}
		r = paging_check_here(addr, 2 * KiB4, why, sizeof(why));
		if (dscases[c].want ? !r || !strstr(why, dscases[c].want) : r != 0)
			fail_msg("case %zu: rc %d, '%s', want %s", c, r, why,
				 dscases[c].want ? dscases[c].want : "accepted");
		if (r)
			printf("# %s\n", why);
	}
}

/*
 * The simulator's TLBs take the page size from the tables under the CPU's
 * CR3 (sim/paging.c), not from a flag: one load in each 4 KiB page of
 * 16 MiB misses the STLB 4096 times in 4 KiB pages and 8 times (one per
 * 2 MiB page) or once (1 GiB) under the firmware's large pages, counted
 * by MEM_INST_RETIRED.STLB_MISS_LOADS (SKL/events/skylake_core.json D0H
 * 11H) on PMC0.
 */
static void sim_stlb_follows_tables(void **state)
{
	static const struct {
		uint64_t fw_size;
		bool own;
		uint64_t misses;
	} runs[] = {
	    {KiB4, false, 4096}, {MiB2, false, 8},   {MiB2, true, 4096},
	    {GiB1, false, 1},	 {GiB1, true, 4096},
	};
	uint64_t base = 0x740000000ULL, len = 16ULL << 20;

	for (size_t c = 0; c < ARRAY_SIZE(runs); c++) {
		struct paging_tables pt = {0};
		char why[160];
		uint64_t saved = 0, n = 0;

		firmware(runs[c].fw_size);
		if (runs[c].own) {
			assert_int_equal(paging_build(&pt, base, len, why, sizeof(why)), 0);
			assert_int_equal(paging_enter(&pt.root, &saved, why, sizeof(why)), 0);
		}
		assert_int_equal(hw_wrmsr(0x186, 0x4311d0), HW_OK); /* PERFEVTSEL0: EN, OS, USR */
		assert_int_equal(hw_wrmsr(0x38f, 1), HW_OK);	    /* IA32_PERF_GLOBAL_CTRL */
		for (uint64_t off = 0; off < len; off += KiB4)
			sim->mem_access(0x1000, 0x1004, base + off, 8, HW_LOAD);
		assert_int_equal(hw_wrmsr(0x38f, 0), HW_OK);
		assert_int_equal(hw_rdmsr(0xc1, &n), HW_OK);
		if (runs[c].own)
			paging_leave(saved);
		paging_free(&pt);
		if (n != runs[c].misses)
			fail_msg("case %zu: %llu STLB misses, want %llu", c, (unsigned long long)n,
				 (unsigned long long)runs[c].misses);
	}
}

/*
 * Memory the firmware maps after the copy (the DS area comes after the
 * kernel's tables): under ours the walk stops at the level the copy made
 * its own or found empty; paging_extend() takes the firmware's entry there.
 * The buffer sits at the DS page plus an offset that picks which level
 * they first differ at; the rest of the tables is left as it was.
 */
/* clang-format off */
static const struct {
	const char *name;
	uint64_t fw_size, buf_off, pre_mapped;
	int missing; /* level not present under ours before paging_extend: 0 PML4E .. 3 PTE, -1 none */
} late[] = {
	/* name                                 fw size  buffer at DS +     mapped before  missing */
	{"4k: same 2 MiB, our PT copy",         KiB4,    0x8000,            0,             3},
	{"4k: another 2 MiB, our PD copy",      KiB4,    4 * MiB2,          0,             2},
	{"4k: another 1 GiB, our PDPT copy",    KiB4,    2 * GiB1,          0,             1},
	{"4k: another 512 GiB, empty PML4E",    KiB4,    512 * GiB1,        0,             0},
	{"4k: the firmware's PT, shared",       KiB4,    4 * MiB2,          KiB4,          -1},
	{"2m: another 2 MiB, our PD copy",      MiB2,    4 * MiB2,          0,             2},
	{"2m: same 2 MiB, split by us",         MiB2,    0x8000,            0,             -1},
	{"1g: another 1 GiB, our PDPT copy",    GiB1,    2 * GiB1,          0,             1},
};
/* clang-format on */

/* The level whose entry is not present walking va under cr3 (0 PML4E .. 3 PTE), -1: mapped. */
static int missing_level(uint64_t cr3, uint64_t va)
{
	uint64_t e = cr3;
	int level = 0;

	for (unsigned int shift = 39; shift >= 12; shift -= 9, level++) {
		e = ((const uint64_t *)(uintptr_t)(e & ADDR))[(va >> shift) & 511];
		if (!(e & 1))
			return level;
		if (shift == 12 || (shift < 39 && (e & (1ULL << 7))))
			return -1;
	}
	return -1;
}

static void extend_after_copy(void **state)
{
	static const char *const names[] = {"PML4E", "PDPTE", "PDE", "PTE"};
	uint64_t ds = 0x740203000ULL;

	for (size_t c = 0; c < ARRAY_SIZE(late); c++) {
		uint64_t buf = ds + late[c].buf_off, size, fw_cr3 = firmware(late[c].fw_size);
		struct paging_tables pt;
		size_t n_pages;
		char why[160] = "";
		uint64_t *e;

		/* One page beside the DS page, mapped before the copy (the same PT). */
		if (late[c].pre_mapped)
			hw_fw_map(ds + late[c].pre_mapped, KiB4);
		if (paging_build(&pt, buf, 2 * KiB4, why, sizeof(why)))
			fail_msg("%s: refused: %s", late[c].name, why);
		n_pages = pt.n_pages;
		hw_fw_map(ds, KiB4); /* the firmware maps the DS page now */
		if (missing_level(pt.root.cr3, ds) != late[c].missing)
			fail_msg("%s: before: %d not present, want %d", late[c].name,
				 missing_level(pt.root.cr3, ds), late[c].missing);
		assert_int_equal(paging_check_under(pt.root.cr3, ds, KiB4, why, sizeof(why)),
				 late[c].missing < 0 ? 0 : -1);
		if (late[c].missing >= 0)
			printf("# %s: %s (%s)\n", late[c].name, why, names[late[c].missing]);
		if (paging_extend(&pt, ds, KiB4, why, sizeof(why)))
			fail_msg("%s: extend: %s", late[c].name, why);
		/* Present, identity, writable; the firmware's page size or our split; no new table.
		 */
		assert_int_equal(paging_check_under(pt.root.cr3, ds, KiB4, why, sizeof(why)), 0);
		e = leaf_of(pt.root.cr3, ds, &size);
		assert_non_null(e);
		assert_int_equal((*e & ADDR & ~(size - 1)) + (ds & (size - 1)), ds);
		assert_int_equal(pt.n_pages, n_pages);
		/* The buffer is still in 4 KiB pages of ours; the firmware's tables as they were.
		 */
		assert_int_equal(paging_page_size(pt.root.cr3, buf), KiB4);
		assert_int_equal(paging_page_size(fw_cr3, buf), late[c].fw_size);
		assert_int_equal(paging_page_size(fw_cr3, ds), late[c].fw_size);
		paging_free(&pt);
	}
	/* No tables (the firmware's kept): nothing to extend. */
	assert_int_equal(paging_extend(NULL, ds, KiB4, NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(splits),
	    cmocka_unit_test(refusals),
	    cmocka_unit_test(enter_on_another_cpu),
	    cmocka_unit_test(check_here),
	    cmocka_unit_test(sim_stlb_follows_tables),
	    cmocka_unit_test(extend_after_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
