// SPDX-License-Identifier: MIT
/*
 * test_sim_msr.c - the simulated MSR file: which MSRs each model has, #GP on
 * reserved bits, counter widths and legacy sign-extended writes, the global
 * status/control registers, the LVTPC and fault injection.  Expected values
 * from the SDM (Vol. 4 MSR tables, Vol. 3B 18.2, Figure 18-35, Table
 * 18-17) and Linux (msr-index.h; core.c *_extra_regs).
 */
#include "test_sim_util.h"
#include "sim/sim_int.h"

/* One row: an MSR and the models that have it (the others raise #GP). */
struct presence {
	uint32_t msr;
	const char *why;
	const char *models[40];
};

static const struct presence presence[] = {
    {PEBS_ENABLE,
     "DS PEBS (not AMD, not the arch-PEBS part)",
     {"core2", "nhm", "snb", "hsw", "skl", "icx", "spr", "adl-p", "adl-e", "glm", "slm", "pebs-off",
      "gnr", "srf", "mtl-p", "lnl-p", "arl-p", "tnt"}},
    {DATA_CFG,
     "PEBS baseline only (PERF_CAP[14])",
     {"icx", "spr", "adl-p", "adl-e", "gnr", "srf", "mtl-p", "lnl-p", "arl-p", "tnt"}},
    {LD_LAT,
     "load-latency facility (NHM+, not GLM/SLM/Core 2)",
     {"nhm", "snb", "hsw", "skl", "icx", "spr", "adl-p", "adl-e", "archpebs", "pebs-off", "gnr",
      "srf", "mtl-p", "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr"}},
    {FRONTEND,
     "PEBS frontend (SKL+ big cores)",
     {"skl", "icx", "spr", "adl-p", "pebs-off", "gnr", "mtl-p", "lnl-p", "arl-p"}},
    {STATUS_SET,
     "architectural PMU v4+",
     {"skl", "icx", "spr", "adl-p", "adl-e", "glm", "archpebs", "pebs-off", "gnr", "srf", "mtl-p",
      "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr", "tnt"}},
    {GLOBAL_INUSE,
     "architectural PMU v4+ (SDM Vol. 4 MSR 392H)",
     {"skl", "icx", "spr", "adl-p", "adl-e", "glm", "archpebs", "pebs-off", "gnr", "srf", "mtl-p",
      "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr", "tnt"}},
    {A_PMC(0),
     "full-width writes (PERF_CAP[13])",
     {"hsw", "skl", "icx", "spr", "adl-p", "adl-e", "glm", "slm", "archpebs", "pebs-off", "gnr",
      "srf", "mtl-p", "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr", "tnt"}},
    {PEBS_BASE, "arch-PEBS", {"archpebs", "ptl-p", "nvl-p", "dmr"}},
    {PEBS_INDEX, "arch-PEBS", {"archpebs", "ptl-p", "nvl-p", "dmr"}},
    {CFG_C_GP(0), "arch-PEBS", {"archpebs", "ptl-p", "nvl-p", "dmr"}},
    {CFG_C_FX(2), "arch-PEBS", {"archpebs", "ptl-p", "nvl-p", "dmr"}},
    {OFFCORE_RSP(0),
     "offcore response (NHM+)",
     {"nhm",   "snb",	"hsw",	 "skl",	     "icx",	 "spr", "adl-p",
      "adl-e", "glm",	"slm",	 "archpebs", "pebs-off", "gnr", "srf",
      "mtl-p", "lnl-p", "arl-p", "ptl-p",    "nvl-p",	 "dmr", "tnt"}},
    {OFFCORE_RSP(1),
     "second offcore response (not Nehalem)",
     {"snb",	  "hsw", "skl", "icx",	 "spr",	  "adl-p", "adl-e", "glm",   "slm", "archpebs",
      "pebs-off", "gnr", "srf", "mtl-p", "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr", "tnt"}},
    {PMC(2), "a third GP counter", {"nhm",   "snb",   "hsw",	  "skl",      "icx", "spr", "adl-p",
				    "adl-e", "glm",   "archpebs", "pebs-off", "gnr", "srf", "mtl-p",
				    "lnl-p", "arl-p", "ptl-p",	  "nvl-p",    "dmr", "tnt"}},
    {PMC(7),
     "eight GP counters",
     {"icx", "spr", "adl-p", "archpebs", "gnr", "srf", "mtl-p", "lnl-p", "arl-p", "ptl-p", "nvl-p",
      "dmr"}},
    {FIXED_CTR(3),
     "fixed counter 3 (TOPDOWN.SLOTS)",
     {"icx", "spr", "adl-p", "gnr", "mtl-p", "lnl-p", "arl-p", "ptl-p", "nvl-p", "dmr"}},
    {DS_AREA, "DS (CPUID.1:EDX[21])", {"core2",	   "nhm",   "snb",   "hsw",   "skl",   "icx",
				       "spr",	   "adl-p", "adl-e", "glm",   "slm",   "archpebs",
				       "pebs-off", "gnr",   "srf",   "mtl-p", "lnl-p", "arl-p",
				       "ptl-p",	   "nvl-p", "dmr",   "tnt"}},
    {PERF_CAPS, "PDCM", {"core2", "nhm",   "snb",   "hsw",	"skl",	    "icx", "spr", "adl-p",
			 "adl-e", "glm",   "slm",   "archpebs", "pebs-off", "gnr", "srf", "mtl-p",
			 "lnl-p", "arl-p", "ptl-p", "nvl-p",	"dmr",	    "tnt"}},
    {MISC_ENABLE, "Intel only", {"core2",    "nhm",   "snb",   "hsw",	"skl",	 "icx",
				 "spr",	     "adl-p", "adl-e", "glm",	"slm",	 "archpebs",
				 "pebs-off", "gnr",   "srf",   "mtl-p", "lnl-p", "arl-p",
				 "ptl-p",    "nvl-p", "dmr",   "tnt"}},
    {BIOS_SIGN_ID,
     "microcode revision (AMD: patch level)",
     {"core2", "nhm",	"snb",	 "hsw",	     "skl",	 "icx", "spr", "adl-p",
      "adl-e", "glm",	"slm",	 "archpebs", "pebs-off", "amd", "gnr", "srf",
      "mtl-p", "lnl-p", "arl-p", "ptl-p",    "nvl-p",	 "dmr", "tnt"}},
};

static bool listed(const struct presence *p, const char *model)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(p->models) && p->models[i]; i++)
		if (!strcmp(p->models[i], model))
			return true;
	return false;
}

static void test_presence_matrix(void **state)
{
	size_t i, k;

	for (k = 0; k < sim_model_count(); k++) {
		const char *m = sim_model_at(k)->name;

		use_model(m);
		/* A machine's CPU 0 (this thread) is its first core row (sim.h). */
		const char *row = sim_cpu_model(0);

		for (i = 0; i < ARRAY_SIZE(presence); i++) {
			bool want = listed(&presence[i], row);

			if (rd_gp(presence[i].msr) == want)
				fail_msg("%s (%s): rdmsr 0x%x (%s) %s", m, row, presence[i].msr,
					 presence[i].why, want ? "faulted" : "did not fault");
		}
	}
}

/* Each row: model, MSR, value, whether the write must #GP. */
struct wcase {
	const char *model;
	uint32_t msr;
	uint64_t val;
	bool gp;
	const char *why;
};

static const struct wcase wcases[] = {
    /* fixed counter 4: IA32_PMC_FX4_CTR 0x1990 on v6; no legacy 0x30d (pmu/msr.h msr_fixed_ctr) */
    {"archpebs", 0x1990, 5, false, "fixed 4 at IA32_PMC_FX4_CTR (v6)"},
    {"archpebs", 0x1980, 5, false, "fixed 0 at IA32_PMC_FX0_CTR too (v6 alias)"},
    {"archpebs", 0x198c, 5, true, "no fixed counter 3 on archpebs"},
    {"archpebs", 0x30d, 5, true, "no legacy address for fixed counter 4"},
    {"icx", 0x1980, 5, true, "IA32_PMC_FXn_CTR is PMU v6"},
    /* PERFEVTSEL UMASK2 [47:40] and EQ [36] exist only where CPUID.23H.0:EBX says (sim models.c) */
    {"ptl", EVTSEL(0), 0x01ull << 40 | 0x2011, false,
     "UMASK2: ptl (CPU 0 a P-core) enumerates CPUID.23H.0:EBX[0]"},
    {"archpebs", EVTSEL(1), 0xffull << 40 | 0xc0, false, "UMASK2: archpebs enumerates it"},
    {"dmr", EVTSEL(0), 0x01ull << 40 | 0x2011, false, "UMASK2: dmr (v6) enumerates it"},
    {"lnl", EVTSEL(0), 0x01ull << 40 | 0x2011, false, "UMASK2: lnl (v6) enumerates it"},
    {"skl", EVTSEL(0), 0x01ull << 40 | 0xc0, true, "UMASK2: reserved before perfmon v6"},
    {"gnr", EVTSEL(0), 1ull << 36 | 0xc0, true, "EQ: no leaf 23H on gnr (v5)"},
    {"arl", EVTSEL(0), 1ull << 36 | 0x01ull << 40 | 0xc0, false, "EQ and UMASK2 on arl's P-core"},
    {"ptl", EVTSEL(0), 1ull << 36 | 0xc0, false, "EQ: ptl enumerates CPUID.23H.0:EBX[1]"},
    {"snb", PEBS_ENABLE, 1ull << 63 | 0x8, false, "PS_EN exists on Sandy Bridge (SDM 18.9.4)"},
    {"hsw", PEBS_ENABLE, 1ull << 63, true, "PS_EN is Sandy Bridge only"},
    {"skl", PEBS_ENABLE, 1ull << 63, true, "PS_EN is Sandy Bridge only"},
    {"nhm", PEBS_ENABLE, 1ull << 63, true, "PS_EN is Sandy Bridge only"},
    {"skl", PEBS_ENABLE, 0xfull << 32 | 0xf, false, "LL_EN_PMC0-3, PEBS_EN_PMC0-3"},
    {"skl", PEBS_ENABLE, 1ull << 4, true, "only PMC0-3 support PEBS (SDM 18.9.4)"},
    {"skl", PEBS_ENABLE, 1ull << 36, true, "bits 63:36 reserved before Ice Lake"},
    {"icx", PEBS_ENABLE, 0xfull << 32 | 0xff, false, "fixed 0-3 and PMC0-7 (baseline)"},
    {"adl-e", PEBS_ENABLE, 1ull << 35, true, "Gracemont has three fixed counters"},
    {"core2", PEBS_ENABLE, 1ull << 1, true, "Core 2: PEBS on PMC0 only"},
    {"core2", PEBS_ENABLE, 1ull << 32, true, "Core 2: no load latency"},
    {"glm", PEBS_ENABLE, 1ull << 1, true, "Goldmont: PEBS on PMC0 only (SDM 18.7.1)"},
    {"slm", PEBS_ENABLE, 1ull << 1, true, "Silvermont: PEBS on PMC0 only"},
    /* Tremont: baseline, every counter PEBS-capable (ds.c intel_ds_init), GP 0-3, fixed 0-2 */
    {"tnt", PEBS_ENABLE, 0x7ull << 32 | 0xf, false, "Tremont: PMC0-3 and fixed 0-2 (baseline)"},
    {"tnt", PEBS_ENABLE, 1ull << 4, true, "Tremont has four GP counters"},
    {"tnt", PEBS_ENABLE, 1ull << 35, true, "Tremont has three fixed counters"},
    {"tnt", EVTSEL(0), EV_ADAPT | 0x5300c0, false, "Tremont: ADAPTIVE (baseline)"},
    {"tnt", FIXED_CTR_CTRL, 1ull << 32 | 0xb, false, "Tremont: fixed adaptive bit (baseline)"},
    {"tnt", DATA_CFG, 0xf | 0x1full << 24, false, "Tremont: MEMINFO, GP, XMM, LBR, 32 LBRs"},
    {"skl", EVTSEL(0), EV_ADAPT | 0x5300c0, true, "ADAPTIVE bit 34 needs baseline"},
    {"icx", EVTSEL(0), EV_ADAPT | 0x5300c0, false, "ADAPTIVE with baseline"},
    {"core2", EVTSEL(0), 1ull << 21, true, "AnyThread appears with PMU v3"},
    {"nhm", EVTSEL(0), 1ull << 21, false, "AnyThread on v3"},
    {"snb", EVTSEL(0), 1ull << 32, true, "IN_TX is Haswell+ (TSX)"},
    {"hsw", EVTSEL(0), 1ull << 32, false, "IN_TX on Haswell"},
    {"skl", EVTSEL(0), 1ull << 40, true, "bits 63:35 reserved"},
    {"skl", FIXED_CTR_CTRL, 1ull << 32, true, "fixed adaptive bit needs baseline"},
    {"icx", FIXED_CTR_CTRL, 1ull << 32 | 0xb, false, "fixed adaptive bit with baseline"},
    {"skl", FIXED_CTR_CTRL, 0xbull << 12, true, "no fixed counter 3 on Skylake client"},
    {"skl", GLOBAL_CTRL, 1ull << 4, true, "four GP counters"},
    {"skl", GLOBAL_CTRL, 0x7ull << 32 | 0xf, false, "PMC0-3, fixed 0-2"},
    {"icx", GLOBAL_CTRL, 1ull << 48, false, "EN_PERF_METRICS with PERF_CAP[15]"},
    {"skl", GLOBAL_CTRL, 1ull << 48, true, "no perf metrics on Skylake"},
    {"skl", GLOBAL_STATUS, 0, true, "IA32_PERF_GLOBAL_STATUS is read-only"},
    {"skl", PERF_CAPS, 0, true, "IA32_PERF_CAPABILITIES is read-only"},
    {"skl", STATUS_SET, 1ull << 63, true, "CondChgd cannot be set"},
    {"skl", LD_LAT, 0xffff, false, "16-bit threshold"},
    {"skl", LD_LAT, 0x10000, true, "bits 63:16 reserved"},
    {"icx", DATA_CFG, 0xf | 0x1full << 24, false, "MEMINFO, GP, XMM, LBR, 32 LBRs"},
    {"icx", DATA_CFG, 1ull << 4, true, "counter snapshots are fmt6"},
    {"slm", OFFCORE_RSP(0), 1ull << 38 | 1, false, "AVG_LATENCY in RSP0 (SDM 18.6.3)"},
    {"slm", OFFCORE_RSP(1), 1ull << 38 | 1, true, "AVG_LATENCY only in RSP0 (SDM 18.6.3)"},
    {"slm", OFFCORE_RSP(1), 1ull << 16 | 1, false, "ANY_RESPONSE in RSP1"},
    {"nhm", OFFCORE_RSP(0), 0xff01, false, "NHM: request 7:0, response 15:8 (core.c 0xffff)"},
    {"nhm", OFFCORE_RSP(0), 1ull << 16 | 1, true, "NHM: bit 16 reserved (core.c 0xffff)"},
    {"glm", OFFCORE_RSP(0), 1ull << 38 | 1, false, "Goldmont AVG_LATENCY in RSP0 (SDM 18.6.3)"},
    {"glm", OFFCORE_RSP(1), 1ull << 31 | 1ull << 16 | 1, true,
     "Goldmont: SNP_NONE bit 31 reserved (core.c 0x360005ffbf)"},
    {"glm", OFFCORE_RSP(0), 1ull << 6, true, "Goldmont: request bit 6 reserved"},
    {"slm", OFFCORE_RSP(1), 1ull << 32 | 1ull << 16 | 1, true, "Table 18-17: bit 32 reserved"},
    /* Tremont: core.c intel_tnt_extra_regs, RSP0 0x800ff0ffffff9fff, RSP1 0xff0ffffff9fff */
    {"tnt", OFFCORE_RSP(0), 1ull << 63 | 1ull << 16 | 1, false, "TNT: bit 63 in RSP0"},
    {"tnt", OFFCORE_RSP(1), 1ull << 63 | 1ull << 16 | 1, true, "TNT: no bit 63 in RSP1"},
    {"tnt", OFFCORE_RSP(0), 1ull << 13 | 1, true, "TNT: request bits 13-14 reserved"},
    {"tnt", OFFCORE_RSP(0), 1ull << 40 | 1ull << 16 | 1, true, "TNT: bits 43:40 reserved"},
    /* Crestmont-class E-core: core.c intel_cmt_extra_regs, RSP0 0x800ff3ffffffffff, RSP1
       0xff3ffffffffff */
    {"archpebs", OFFCORE_RSP(0), 1ull << 63 | 1ull << 16 | 1, false, "CMT: bit 63 in RSP0"},
    {"archpebs", OFFCORE_RSP(1), 1ull << 63 | 1ull << 16 | 1, true, "CMT: no bit 63 in RSP1"},
    {"archpebs", OFFCORE_RSP(1), 1ull << 51 | 1ull << 16 | 1, false, "CMT: RSP1 bit 51"},
    {"skl", DS_AREA, 0x0000800000000000ull, true, "non-canonical linear address"},
    {"skl", DS_AREA, 0xffff800000001000ull, false, "canonical linear address"},
    {"skl", A_PMC(0), 1ull << 48, true, "wider than the 48-bit counter"},
    {"skl", FIXED_CTR(0), 1ull << 48, true, "wider than the 48-bit counter"},
    {"skl", FRONTEND, 0x7fff17, false, "Skylake frontend mask"},
    {"skl", FRONTEND, 0x8, true, "bit 3 is Golden Cove's"},
    {"spr", FRONTEND, 0x7fff1f, false, "Golden Cove frontend mask"},
    {"archpebs", PEBS_BASE, 0x123000 | 4, false, "4 KiB-aligned base | SIZE"},
    {"archpebs", PEBS_BASE, 0x123010, true, "bits 11:4 reserved"},
    {"archpebs", PEBS_INDEX, 1ull << 32 | 1ull << 36, false, "EN, THRESH"},
    {"archpebs", PEBS_INDEX, 0x8, true, "bits 3:0 reserved"},
    {"archpebs", CFG_C_GP(0), 1ull << 63 | 1ull << 62 | 0xfffffc18, false, "EN, AUX, reload"},
    {"archpebs", CFG_C_GP(0), 1ull << 40, true, "no LBR group advertised in CPUID.23H.4"},
    {"pebs-off", PEBS_ENABLE, 1, true, "MISC_ENABLE[12]: PEBS unavailable"},
    {"pebs-off", PEBS_ENABLE, 0, false, "disabling is harmless"},
};

static void test_reserved_bits(void **state)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wcases); i++) {
		const struct wcase *w = &wcases[i];

		use_model(w->model);
		if (wr_gp(w->msr, w->val) != w->gp)
			fail_msg("%s: wrmsr 0x%x 0x%llx %s (%s)", w->model, w->msr,
				 (unsigned long long)w->val, w->gp ? "did not fault" : "faulted",
				 w->why);
	}
}

/* Legacy IA32_PMCx writes: bits 31:0, sign-extended to the counter width. */
static void test_legacy_sign_extension(void **state)
{
	use_model("skl");
	wr(PMC(0), 0x80000000);
	assert_int_equal(rd(PMC(0)), 0xffff80000000ull);
	wr(PMC(0), 0x7fffffff);
	assert_int_equal(rd(PMC(0)), 0x7fffffffull);
	wr(PMC(1), 0x100000005ull);
	assert_int_equal(rd(PMC(1)), 5);
	wr(A_PMC(1), 0xfffffffffff0ull); /* full width round-trips */
	assert_int_equal(rd(PMC(1)), 0xfffffffffff0ull);
	use_model("core2"); /* 40-bit counters, no full-width aliases */
	wr(PMC(0), 0xfffffff0);
	assert_int_equal(rd(PMC(0)), 0xfffffffff0ull);
	assert_true(wr_gp(A_PMC(0), 1));
}

static void test_global_status(void **state)
{
	use_model("skl");
	assert_int_equal(rd(GLOBAL_CTRL), 0xf); /* power-on: GP counters enabled */
	wr(STATUS_SET, 1ull << 62 | 0x5);
	assert_int_equal(rd(GLOBAL_STATUS), 1ull << 62 | 0x5);
	wr(GLOBAL_OVF_CTRL, 0x1);
	assert_int_equal(rd(GLOBAL_STATUS), 1ull << 62 | 0x4);
	wr(GLOBAL_OVF_CTRL, 1ull << 62 | 0x4);
	assert_int_equal(rd(GLOBAL_STATUS), 0);
	use_model("nhm"); /* v3: no STATUS_SET */
	assert_true(wr_gp(STATUS_SET, 1));
}

/*
 * IA32_PERF_GLOBAL_INUSE from the CPU's own registers (SDM Vol. 3B
 * 18.2.4.3): bit n for PERFEVTSELn[7:0] != 0, bit 32+i for fixed counter
 * i's enable field, bit 63 for any INT, fixed PMI or PEBS_ENABLE counter
 * bit.  One case a row, from power-on on Skylake (4 GP, 3 fixed).
 */
static void test_global_inuse(void **state)
{
	static const struct {
		const char *what;
		uint32_t msr;
		uint64_t val, want;
	} cases[] = {
	    {"power-on", 0, 0, 0},
	    {"PERFEVTSEL2 event select, not enabled", EVTSEL(2), 0xc0, BIT_ULL(2)},
	    {"PERFEVTSEL1 umask only", EVTSEL(1), 0x100, 0},
	    {"PERFEVTSEL0 INT", EVTSEL(0), 0x1000c4, BIT_ULL(0) | BIT_ULL(63)},
	    {"fixed counter 1 OS|USR", FIXED_CTR_CTRL, 0x30, BIT_ULL(33)},
	    {"fixed counter 2 PMI only", FIXED_CTR_CTRL, 0x800, BIT_ULL(63)},
	    {"PEBS_ENABLE PMC3", PEBS_ENABLE, 0x8, BIT_ULL(63)},
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t v;

		use_model("skl");
		if (cases[i].msr)
			wr(cases[i].msr, cases[i].val);
		v = rd(GLOBAL_INUSE);
		if (v != cases[i].want)
			fail_msg("%s: GLOBAL_INUSE 0x%llx, want 0x%llx", cases[i].what,
				 (unsigned long long)v, (unsigned long long)cases[i].want);
	}
	/* read-only */
	assert_true(wr_gp(GLOBAL_INUSE, 0));
}

/* PERF_METRICS (0x329): read/write where PERF_CAPABILITIES[15]; moved once SLOTS counts. */
static void test_perf_metrics(void **state)
{
	static uint8_t data[64 * 100];

	use_model("icx");
	assert_int_equal(rd(PERF_METRICS), 0);
	wr(PERF_METRICS, 0x1234);
	assert_int_equal(rd(PERF_METRICS), 0x1234);
	wr(PERF_METRICS, 0);
	wr(FIXED_CTR_CTRL, 0x3000); /* fixed counter 3, OS|USR */
	wr(GLOBAL_CTRL, 1ull << 35);
	run_loads(data, 100);
	assert_int_equal(rd(PERF_METRICS), SIM_PERF_METRICS);
	use_model("adl-e"); /* no perf metrics */
	assert_true(rd_gp(PERF_METRICS));
}

static void test_misc_enable_read_only_bits(void **state)
{
	use_model("pebs-off");
	assert_true(rd(MISC_ENABLE) & (1ull << 12));
	wr(MISC_ENABLE, rd(MISC_ENABLE) & ~(1ull << 12));
	assert_true(rd(MISC_ENABLE) & (1ull << 12));
	wr(BIOS_SIGN_ID, 0);
	assert_int_equal(rd(BIOS_SIGN_ID) >> 32, 0xf0);
}

/* Every Intel PMU MSR raises #GP on the AMD part. */
static void test_amd_has_no_intel_pmu(void **state)
{
	static const uint32_t msrs[] = {PMC(0),	       EVTSEL(0),   FIXED_CTR(0),    FIXED_CTR_CTRL,
					GLOBAL_STATUS, GLOBAL_CTRL, GLOBAL_OVF_CTRL, PEBS_ENABLE,
					DATA_CFG,      LD_LAT,	    DS_AREA,	     MISC_ENABLE,
					PERF_CAPS,     DEBUGCTL,    PEBS_BASE,	     PEBS_INDEX};
	size_t i;

	use_model("amd");
	for (i = 0; i < ARRAY_SIZE(msrs); i++) {
		assert_true(rd_gp(msrs[i]));
		assert_true(wr_gp(msrs[i], 0));
	}
}

/* pmu/hw.c fault injection: the n-th access faults whatever the backend says. */
static void test_fault_injection(void **state)
{
	uint64_t v;

	use_model("skl");
	hw_inject_fault_at(2);
	assert_int_equal(hw_wrmsr(EVTSEL(0), 0), HW_OK);
	assert_int_equal(hw_rdmsr(EVTSEL(0), &v), HW_GP);
	assert_int_equal(hw_wrmsr(EVTSEL(0), 0), HW_OK);
	assert_int_equal(hw_msr_access_count(), 3);
	hw_inject_fault_at(1);
	assert_int_equal(hw_wrmsr(GLOBAL_CTRL, 0), HW_GP);
	assert_int_equal(rd(GLOBAL_CTRL), 0xf); /* the injected fault wrote nothing */
}

static unsigned int pmis;

static void on_pmi(void *ctx)
{
	(void)ctx;
	pmis++;
}

/*
 * A counting-mode overflow with EVTSEL.INT: status bit, a PMI through the
 * LVTPC, the LVTPC mask bit set on delivery (SDM 11.5.1), nothing delivered
 * while masked, and delivery again after software unmasks and EOIs.
 */
static void test_overflow_pmi_and_lvtpc_mask(void **state)
{
	static uint8_t data[64 * 64];
	struct sim_stats st;

	use_model("skl");
	pmis = 0;
	assert_true(hw_apic_read(APIC_LVTPC) & (1u << 16)); /* masked out of reset */
	assert_int_equal(hw_set_pmi_handler(PMI_VEC, on_pmi, NULL), 0);
	hw_apic_write(APIC_LVTPC, PMI_VEC);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0) | EV_INT); /* MEM_INST_RETIRED.ALL_LOADS */
	wr(PMC(0), (uint64_t)-10);
	wr(GLOBAL_CTRL, 1);
	run_loads(data, 9);
	assert_int_equal(pmis, 0);
	assert_int_equal(rd(GLOBAL_STATUS), 0);
	run_loads(data, 1);
	assert_int_equal(pmis, 1);
	assert_int_equal(rd(GLOBAL_STATUS), 1);
	assert_int_equal(rd(PMC(0)), 0);
	assert_true(hw_apic_read(APIC_LVTPC) & (1u << 16));
	wr(PMC(0), (uint64_t)-1);
	run_loads(data, 1); /* overflows while LVTPC is masked */
	assert_int_equal(pmis, 1);
	hw_apic_write(APIC_EOI, 0);
	hw_apic_write(APIC_LVTPC, PMI_VEC);
	wr(PMC(0), (uint64_t)-1);
	run_loads(data, 1);
	assert_int_equal(pmis, 2);
	sim_get_stats(&st);
	assert_int_equal(st.pmis, 2);
	assert_int_equal(st.pmis_masked, 1);
	assert_int_equal(n_rules, 0);
}

/* The simulated TSC advances with simulated work, and between reads. */
static void test_tsc(void **state)
{
	static uint8_t data[64 * 8];
	uint64_t t0, t1, t2;

	use_model("skl");
	t0 = hw_rdtsc();
	t1 = hw_rdtsc();
	assert_true(t1 > t0);
	run_loads(data, 8); /* eight cold lines: at least eight DRAM latencies */
	t2 = hw_rdtsc();
	assert_true(t2 - t1 >= 8 * 100);
}

/*
 * IA32_DEBUGCTL.FREEZE_PERFMON_ON_PMI (bit 12): on a PMI request, version 4
 * sets GLOBAL_STATUS.CTR_FRZ (bit 59) and counting stops until software
 * clears it; before version 4 the GLOBAL_CTRL enables are cleared.
 */
static void test_freeze_on_pmi(void **state)
{
	static uint8_t d[64 * 64];

	use_model("skl");
	wr(DEBUGCTL, 1ull << 12);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x81d0) | EV_INT);
	wr(PMC(0), (uint64_t)-2 & 0xffffffff);
	wr(GLOBAL_CTRL, 1);
	run_loads(d, 5);
	assert_int_equal(rd(GLOBAL_STATUS), 1ull << 59 | 1);
	assert_int_equal(rd(PMC(0)), 0); /* frozen at the overflow */
	wr(GLOBAL_OVF_CTRL, 1ull << 59 | 1);
	run_loads(d, 3);
	assert_int_equal(rd(PMC(0)), 3);
	use_model("nhm");
	wr(DEBUGCTL, 1ull << 12);
	wr(GLOBAL_CTRL, 0);
	wr(EVTSEL(0), EVT(0x010b) | EV_INT);
	wr(PMC(0), (uint64_t)-2 & 0xffffffff);
	wr(GLOBAL_CTRL, 1);
	run_loads(d, 5);
	assert_int_equal(rd(GLOBAL_CTRL), 0);
	assert_int_equal(rd(PMC(0)), 0);
}

/*
 * The MSR file is two tables (sim/msr.c, sim/msr_pebs.c) searched in turn:
 * with a row of each for one MSR, the second would silently never answer.
 */
static void test_one_row_per_msr(void **state)
{
	uint32_t msr = sim_msr_first_shared();

	(void)state;
	if (msr)
		fail_msg("MSR 0x%x is held by two rows of the simulated MSR file", msr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_row_per_msr),
	    cmocka_unit_test(test_presence_matrix),
	    cmocka_unit_test(test_reserved_bits),
	    cmocka_unit_test(test_legacy_sign_extension),
	    cmocka_unit_test(test_global_status),
	    cmocka_unit_test(test_global_inuse),
	    cmocka_unit_test(test_perf_metrics),
	    cmocka_unit_test(test_misc_enable_read_only_bits),
	    cmocka_unit_test(test_amd_has_no_intel_pmu),
	    cmocka_unit_test(test_fault_injection),
	    cmocka_unit_test(test_overflow_pmi_and_lvtpc_mask),
	    cmocka_unit_test(test_tsc),
	    cmocka_unit_test(test_freeze_on_pmi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
