// SPDX-License-Identifier: MIT
/*
 * test_session_tables.c - the DS area and the PEBS buffer under the page
 * tables the kernel runs on (pmu/paging.h), built before the session
 * allocates them, as job/run.c builds them per kernel.  The simulated
 * assist translates DS_AREA, the DS fields and each record through the
 * loaded CR3 (sim/paging.c sim_paging_not_present): a level missing there
 * is the rule ds-not-present (SDM Vol. 3B 17.4.9.2).  The buffers come
 * from pages below 2 GiB (ts_low_pages); the kernel's buffer is an address
 * only (never touched) that picks the first level the copy lacks for them:
 * another 512 GiB (an empty PML4E) or another 1 GiB (a PDPT of ours).
 * Without the tables in the session (the old way), the assist faults there;
 * with them, the session maps both and every record is written.
 */
#include "test_util.h"
#include "test_session_util.h"
#include "pmu/paging.h"

/* A kernel on the tables of root, as kernels/kernels.c kernel_run switches. */
struct on_tables {
	const struct paging_root *root;
	struct ts_kargs k;
};

static void kernel_on_tables(void *arg)
{
	struct on_tables *o = arg;
	uint64_t saved = 0;
	char why[160];

	assert_int_equal(paging_enter(o->root, &saved, why, sizeof(why)), 0);
	ts_kernel(&o->k);
	paging_leave(saved);
}

/* clang-format off */
static const struct {
	const char *name;
	uint64_t buf;	  /* the kernel's buffer the tables are built for */
	bool tables;	  /* session_cfg.tables given (the session maps its DS area there) */
	const char *want; /* the simulator's rule text, NULL: none, records written */
} rows[] = {
	/* name                          kernel's buffer        tables  rule */
	{"pml4e: tables not given",      0x10000200000ULL,      false,  "its PML4E is not present"},
	{"pml4e: the session maps",      0x10000200000ULL,      true,   NULL},
	{"pdpte: tables not given",      0x100200000ULL,        false,  "its PDPTE is not present"},
	{"pdpte: the session maps",      0x100200000ULL,        true,   NULL},
};
/* clang-format on */

static void ds_under_kernel_tables(void **state)
{
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
		struct on_tables o = {.k = {.n = 3200, .kind = HW_LOAD}};
		struct paging_tables pt;
		struct session_result res;
		struct session_cfg c;
		struct cpu_info ci;
		char why[200] = "";
		int rc;

		ts_select("skl", &ci);
		if (paging_build(&pt, rows[r].buf, 4096, why, sizeof(why)))
			fail_msg("%s: tables: %s", rows[r].name, why);
		o.root = &pt.root;
		c = ts_cfg(&ci, KIND_LDLAT);
		c.period = 32;
		c.tables = rows[r].tables ? &pt : NULL;
		rc = session_run(&c, kernel_on_tables, &o, &res, why, sizeof(why));
		if (rc)
			fail_msg("%s: session %d: %s", rows[r].name, rc, why);
		if (rows[r].want) {
			if (!ts_violations || !strstr(ts_last_rule, rows[r].want))
				fail_msg("%s: %u rules broken, last '%s', want '%s'", rows[r].name,
					 ts_violations, ts_last_rule, rows[r].want);
			printf("# %s: %s\n", rows[r].name, ts_last_rule);
			assert_int_equal(res.n_records, 0);
		} else {
			if (ts_violations)
				fail_msg("%s: simulator rule: %s", rows[r].name, ts_last_rule);
			/* 3200 loads / 32: every record written */
			assert_true(res.n_records >= 99);
		}
		session_result_free(&res);
		paging_free(&pt);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(ds_under_kernel_tables),
	};

	ds_set_page_allocator(ts_low_pages, ts_free_low_pages);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
