// SPDX-License-Identifier: MIT
/*
 * test_sim_cpuid.c - every model's CPUID is that of its real part and is
 * self-consistent with what pmu/cpu.c's probe reads.  The expected values
 * are the parts' published identities (SDM Vol. 4 Table 2-1 family/model,
 * SDM 18.2 PMU versions and counter counts per generation), written here
 * by hand.
 */
#include "test_sim_util.h"
#include "pmu/cpu.h"
#include "pmu/perfmon.h"
#include "sim/sim_int.h"

struct want {
	const char *name;
	enum cpu_vendor vendor;
	uint32_t family, model;
	uint32_t pmu_version, n_gp, gp_width, n_fixed;
	int pebs_fmt; /* PERF_CAPABILITIES[11:8], -1 = no PDCM / not Intel */
	bool baseline, hybrid, arch_pebs, ds, pebs_unavail;
	enum cpu_core_type core;
};

static const struct want wants[] = {
    {"core2", VENDOR_INTEL, 6, 0x17, 2, 2, 40, 3, 0, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"nhm", VENDOR_INTEL, 6, 0x1a, 3, 4, 48, 3, 1, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"snb", VENDOR_INTEL, 6, 0x2a, 3, 4, 48, 3, 1, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"hsw", VENDOR_INTEL, 6, 0x3c, 3, 4, 48, 3, 2, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"skl", VENDOR_INTEL, 6, 0x5e, 4, 4, 48, 3, 3, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"icx", VENDOR_INTEL, 6, 0x6a, 5, 8, 48, 4, 4, true, false, false, true, false, CORE_TYPE_NONE},
    {"spr", VENDOR_INTEL, 6, 0x8f, 5, 8, 48, 4, 5, true, false, false, true, false, CORE_TYPE_NONE},
    {"adl-p", VENDOR_INTEL, 6, 0x97, 5, 8, 48, 4, 4, true, true, false, true, false,
     CORE_TYPE_CORE},
    {"adl-e", VENDOR_INTEL, 6, 0x97, 5, 6, 48, 3, 4, true, true, false, true, false,
     CORE_TYPE_ATOM},
    {"glm", VENDOR_INTEL, 6, 0x5c, 4, 4, 48, 3, 3, false, false, false, true, false,
     CORE_TYPE_NONE},
    {"slm", VENDOR_INTEL, 6, 0x4d, 3, 2, 40, 3, 2, false, false, false, true, false,
     CORE_TYPE_NONE},
    /* Tremont: v4 (libpfm4 pfmlib_intel_tmt.c), GP 0-3, fixed 0-2, fmt4 + baseline */
    {"tnt", VENDOR_INTEL, 6, 0x9c, 4, 4, 48, 3, 4, true, false, false, true, false, CORE_TYPE_NONE},
    /* fixed counters 0-2 and 4-6 (sim/models.c): n_fixed is one past the highest */
    {"archpebs", VENDOR_INTEL, 6, 0xdd, 6, 8, 48, 7, 0xf, false, false, true, true, false,
     CORE_TYPE_NONE},
    {"pebs-off", VENDOR_INTEL, 6, 0x5e, 4, 4, 48, 3, 3, false, false, false, true, true,
     CORE_TYPE_NONE},
    {"amd", VENDOR_AMD, 0x19, 0x01, 0, 0, 0, 0, -1, false, false, false, false, false,
     CORE_TYPE_NONE},
    /* The parts below, from perfmon's files and mapfile (sim/models.c); a hybrid
       machine as its CPU 0, a P-core. */
    {"gnr", VENDOR_INTEL, 6, 0xad, 5, 8, 48, 4, 5, true, false, false, true, false, CORE_TYPE_NONE},
    {"srf", VENDOR_INTEL, 6, 0xaf, 5, 8, 48, 3, 5, true, false, false, true, false, CORE_TYPE_NONE},
    {"cwf", VENDOR_INTEL, 6, 0xdd, 6, 8, 48, 7, 0xf, false, false, true, true, false,
     CORE_TYPE_NONE},
    {"dmr", VENDOR_INTEL, 0x13, 0x01, 6, 8, 48, 4, 0xf, false, false, true, true, false,
     CORE_TYPE_NONE},
    {"adl", VENDOR_INTEL, 6, 0x97, 5, 8, 48, 4, 4, true, true, false, true, false, CORE_TYPE_CORE},
    {"mtl", VENDOR_INTEL, 6, 0xaa, 5, 8, 48, 4, 4, true, true, false, true, false, CORE_TYPE_CORE},
    {"lnl", VENDOR_INTEL, 6, 0xbd, 6, 10, 48, 4, 6, true, true, false, true, false, CORE_TYPE_CORE},
    {"arl", VENDOR_INTEL, 6, 0xc5, 6, 10, 48, 4, 6, true, true, false, true, false, CORE_TYPE_CORE},
    {"ptl", VENDOR_INTEL, 6, 0xcc, 6, 10, 48, 4, 0xf, false, true, true, true, false,
     CORE_TYPE_CORE},
    {"nvl", VENDOR_INTEL, 0x12, 0x01, 6, 8, 48, 4, 0xf, false, true, true, true, false,
     CORE_TYPE_CORE},
};

static void test_every_model_listed(void **state)
{
	size_t i, j;

	assert_int_equal(sim_model_count(), ARRAY_SIZE(wants));
	for (i = 0; i < ARRAY_SIZE(wants); i++) {
		bool found = false;

		for (j = 0; j < sim_model_count(); j++)
			found |= !strcmp(sim_model_at(j)->name, wants[i].name);
		assert_true(found);
		assert_non_null(sim_model_at(i)->description);
	}
	assert_null(sim_model_at(sim_model_count()));
	assert_int_equal(sim_select("no-such-model"), -1);
	assert_int_equal(sim_select(NULL), -1);
}

static void check_probe(const struct want *w)
{
	struct cpu_info ci;

	use_model(w->name);
	cpu_probe(&ci);
	assert_int_equal(ci.vendor, w->vendor);
	assert_int_equal(ci.family, w->family);
	assert_int_equal(ci.model, w->model);
	assert_int_equal(ci.hypervisor, HV_NONE); /* a real part, not a guest */
	assert_non_null(strstr(ci.brand, "simulated"));
	assert_int_equal(ci.pmu_version, w->pmu_version);
	assert_int_equal(ci.n_gp, w->n_gp);
	assert_int_equal(ci.gp_width, w->gp_width);
	assert_int_equal(ci.n_fixed, w->n_fixed);
	assert_int_equal(ci.ds, w->ds);
	assert_int_equal(ci.hybrid, w->hybrid);
	assert_int_equal(ci.core_type, w->core);
	assert_int_equal(ci.arch_pebs, w->arch_pebs);
	if (w->pebs_fmt < 0) {
		assert_false(ci.has_perf_caps);
		assert_false(ci.has_misc_enable);
		return;
	}
	assert_true(ci.has_perf_caps);
	assert_int_equal(PERF_CAP_PEBS_FMT(ci.perf_caps), w->pebs_fmt);
	assert_int_equal(!!(ci.perf_caps & PERF_CAP_PEBS_BASELINE), w->baseline);
	assert_true(ci.has_misc_enable);
	assert_true(ci.misc_enable & MISC_ENABLE_PERFMON);
	assert_int_equal(!!(ci.misc_enable & MISC_ENABLE_PEBS_UNAVAIL), w->pebs_unavail);
	assert_true(ci.has_microcode);
	assert_true(ci.microcode != 0);
	/* DS, DTES64 and PDCM go together on every Intel model (SDM Vol. 2A CPUID.01H; Linux ds.c
	 * intel_ds_init). */
	assert_true(ci.dtes64 && ci.pdcm);
}

static void test_probe_every_model(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wants); i++)
		check_probe(&wants[i]);
}

/*
 * CPUID.0AH as silicon names it where that is short of the core's counters
 * (the probe's counts, above, are what the core has): an Alder Lake P-core
 * with the hybrid bit names the 6 GP and 3 fixed counters it shares with
 * the E-core (Linux core.c intel_pmu_init, f83d2f91d259 and 7fa981cad216's
 * message); Core 2's v2 names no fixed counter (the "v2 perfmon" quirk).
 */
static const struct leaf_0a_case {
	const char *model;
	uint32_t n_gp, n_fixed, ecx, fixed_width;
} leaf_0a_cases[] = {
    {"adl-p", 6, 3, 0x7, 48},
    {"adl", 6, 3, 0x7, 48}, /* CPU 0, a P-core */
    {"adl-e", 6, 3, 0x7, 48},
    {"core2", 2, 0, 0, 0},
};

static void test_leaf_0a_as_silicon(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(leaf_0a_cases); i++) {
		const struct leaf_0a_case *c = &leaf_0a_cases[i];
		struct cpuid_regs r;

		use_model(c->model);
		hw_cpuid(0xa, 0, &r);
		if (((r.eax >> 8) & 0xff) != c->n_gp || (r.edx & 0x1f) != c->n_fixed ||
		    r.ecx != c->ecx || ((r.edx >> 5) & 0xff) != c->fixed_width)
			fail_msg("%s: CPUID.0AH EAX 0x%x ECX 0x%x EDX 0x%x; want %u GP, %u fixed x "
				 "%u bits, ECX 0x%x",
				 c->model, r.eax, r.ecx, r.edx, c->n_gp, c->n_fixed, c->fixed_width,
				 c->ecx);
	}
}

/* SDM Vol. 2A: a leaf above the maximum returns the highest basic leaf (Intel). */
static void test_leaf_above_max(void **state)
{
	struct cpuid_regs hi, top;

	use_model("nhm"); /* max leaf 0BH */
	hw_cpuid(0, 0, &hi);
	assert_int_equal(hi.eax, 0xb);
	hw_cpuid(0xb, 0, &top);
	hw_cpuid(0x40000000, 0, &hi);
	assert_memory_equal(&hi, &top, sizeof(hi));
	use_model("amd");
	hw_cpuid(0x40000000, 0, &hi);
	assert_int_equal(hi.eax | hi.ebx | hi.ecx | hi.edx, 0);
}

/* CPUID.23H sub-leaves on the arch-PEBS part agree with its counters (Linux core.c update_pmu_cap,
 * d21954c8a0ff). */
static void test_arch_pebs_leaf(void **state)
{
	struct cpuid_regs r, a;

	use_model("archpebs");
	hw_cpuid(0x23, 0, &r);
	assert_int_equal(r.eax & 0x30, 0x30);
	hw_cpuid(0x23, 5, &r);
	hw_cpuid(0xa, 0, &a);
	assert_int_equal(r.eax & ~((1u << ((a.eax >> 8) & 0xff)) - 1), 0);
	assert_int_equal(r.ecx & ~((1u << (a.edx & 0x1f)) - 1), 0);
	/* sub-leaf 0: 1, 3, 4, 5 (no ACR); EBX UMASK2 and EQ (sim/models.c) */
	hw_cpuid(0x23, 0, &r);
	assert_int_equal(r.eax, 0x3b);
	assert_int_equal(r.ebx, 3);
	/* sub-leaf 3: leaf 0AH's events (EAX[31:24] 7 long, EBX 0: all there) */
	hw_cpuid(0x23, 3, &r);
	assert_int_equal(r.eax, 0x7f);
	/* lnl (v6, fmt6): the leaf without the arch-PEBS sub-leaves 4 and 5 */
	use_model("lnl");
	hw_cpuid(0x23, 0, &r);
	assert_int_equal(r.eax, 0xb);
	assert_int_equal(r.ebx, 3);
	hw_cpuid(0x23, 5, &r);
	assert_int_equal(r.eax | r.ebx | r.ecx | r.edx, 0);
	/* mtl (v5): no ArchPerfmonExt, no leaf 23H */
	use_model("mtl");
	hw_cpuid(7, 1, &r);
	assert_int_equal(r.eax & (1u << 8), 0);
	use_model("skl");
	hw_cpuid(0x23, 0, &r); /* above SKL's max leaf 16H: leaf 16H's data */
	hw_cpuid(0x16, 0, &a);
	assert_memory_equal(&r, &a, sizeof(r));
}

/*
 * CPUID.0AH:EAX[31:24] (the length of the EBX event list) and EAX[15:8] (GP
 * counters) are 8-bit fields (SDM Vol. 2A, CPUID leaf 0AH): a hypervisor
 * may give any value up to 255.  CPUID.23H sub-leaf 3 EAX then names every
 * one of the 12 events leaf 0AH lists as present (EBX 0), and sub-leaf 1 EAX
 * all 32 GP counters it can name.  A row of sim/models.c copied and
 * changed, since no real part has such lengths.
 */
static void test_leaf_0a_lengths_past_31(void **state)
{
	static const uint32_t lens[] = {31, 32, 63, 64, 65, 100, 255};
	const struct sim_model *base = NULL;

	for (size_t i = 0; i < sim_model_table_len; i++)
		if (!strcmp(sim_model_table[i].info.name, "archpebs"))
			base = &sim_model_table[i];
	assert_non_null(base);
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		struct sim_model m = *base;
		struct cpuid_regs r;

		m.ca[0] = (m.ca[0] & 0x00ff00ffu) | lens[i] << 24 | lens[i] << 8;
		m.ca[1] = 0x5; /* events 0 and 2 absent */
		sim_cpuid_leaf(&m, 0x23, 3, &r);
		if (r.eax != 0xffa)
			fail_msg("length %u: CPUID.23H.3:EAX 0x%x, want 0xffa", lens[i], r.eax);
		sim_cpuid_leaf(&m, 0x23, 1, &r);
		if (r.eax != (lens[i] >= 32 ? 0xffffffffu : (1u << lens[i]) - 1))
			fail_msg("%u GP counters: CPUID.23H.1:EAX 0x%x", lens[i], r.eax);
	}
}

/* The display family and model of CPUID.1:EAX (SDM Vol. 2A, CPUID leaf 01H). */
static struct perfmon_cpu perfmon_key(const struct sim_model *m)
{
	struct cpuid_regs r1, r1a;
	uint32_t base;

	sim_cpuid_leaf(m, 1, 0, &r1);
	sim_cpuid_leaf(m, 0x1a, 0, &r1a);
	base = (r1.eax >> 8) & 0xf;
	return (struct perfmon_cpu){
	    .family = base == 0xf ? base + ((r1.eax >> 20) & 0xff) : base,
	    .model = (base == 6 || base == 0xf) ? ((r1.eax >> 4) & 0xf) | ((r1.eax >> 12) & 0xf0)
						: (r1.eax >> 4) & 0xf,
	    .stepping = r1.eax & 0xf,
	    .core_type = r1a.eax >> 24,
	    .native_model = r1a.eax & 0xffffff,
	};
}

/*
 * CPUID.23H.5 EBX/EDX (the counters with PDIST) of every arch-PEBS row are
 * the counters the PDISTCounter fields of its own perfmon file name (perfmon
 * README, PDISTCounter; data/perfmon), found through mapfile.csv from the
 * row's CPUID, apart from sim/models.c's own values.  Diamond Rapids has no
 * file: its assumed GP 0 / fixed 0 are checked as such.
 */
static void test_pdist_mask_is_perfmons(void **state)
{
	unsigned int checked = 0;

	for (size_t i = 0; i < sim_model_table_len; i++) {
		const struct sim_model *m = &sim_model_table[i];
		struct perfmon_cpu pc;
		const struct perfmon_table *t;
		struct perfmon_counters u = {0, 0};
		struct cpuid_regs r;

		if (!(m->flags & F_ARCH_PEBS))
			continue;
		pc = perfmon_key(m);
		t = perfmon_table_for_cpu(&pc);
		if (t) {
			for (unsigned int k = 0; k < perfmon_n_events(t); k++) {
				struct perfmon_counters p = perfmon_event_counters(
				    perfmon_event_at(t, k), PERFMON_PDIST_COUNTER);

				u.gp |= p.gp;
				u.fixed |= p.fixed;
			}
		} else {
			assert_string_equal(m->info.name, "dmr");
			u.gp = u.fixed = 1;
		}
		sim_cpuid_leaf(m, 0x23, 5, &r);
		if (r.ebx != u.gp || r.edx != u.fixed)
			fail_msg("%s: CPUID.23H.5 EBX 0x%x EDX 0x%x, %s says GP 0x%x fixed 0x%x",
				 m->info.name, r.ebx, r.edx, t ? perfmon_table_name(t) : "-", u.gp,
				 u.fixed);
		checked++;
	}
	assert_int_equal(checked, 6); /* archpebs, ptl-p, ptl-e, nvl-p, nvl-e, dmr */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_model_listed),
	    cmocka_unit_test(test_probe_every_model),
	    cmocka_unit_test(test_leaf_above_max),
	    cmocka_unit_test(test_leaf_0a_as_silicon),
	    cmocka_unit_test(test_arch_pebs_leaf),
	    cmocka_unit_test(test_leaf_0a_lengths_past_31),
	    cmocka_unit_test(test_pdist_mask_is_perfmons),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
