// SPDX-License-Identifier: MIT
/*
 * models.c - one row per simulated CPU: a real part of each generation.
 *
 * Where the values come from (recalled from these sources, not re-read from
 * a register dump in this project; see docs/SIM.md "Provenance"):
 *  - CPUID.1 signature and feature words, leaf 0AH, leaf 1AH, leaf 15H/16H:
 *    SDM Vol. 2A "CPUID" and public CPUID dumps of the named parts
 *    (InstLatx64 / Linux /proc/cpuinfo).  Only the PMU-relevant bits are
 *    checked by tests: DS (1:EDX[21]), DTES64 (1:ECX[2]), PDCM (1:ECX[15]),
 *    hypervisor (1:ECX[31], always 0: these are real parts), leaf 0AH, the
 *    hybrid bit (7:EDX[15]) and core type (1AH:EAX[31:24]).
 *  - IA32_PERF_CAPABILITIES: field layout of Linux arch/x86/events/
 *    perf_event.h union perf_capabilities; PEBS_FMT per Linux ds.c
 *    intel_ds_init; the other fields are what Linux reports for these
 *    parts ("PEBS fmtN+" boot lines).
 *  - PEBS_ENABLE layouts: SDM Vol. 3B Figure 18-35 "Layout of
 *    IA32_PEBS_ENABLE MSR" (SNB); Linux ds.c intel_pmu_pebs_enable (bit 32+i
 *    load latency before PMU v5, fixed counter i from Ice Lake).
 *  - OFFCORE_RSPx writable masks: Linux events/intel/core.c *_extra_regs,
 *    Silvermont/Goldmont values; bit 38 from SDM Vol. 3B 18.6.3 "Average
 *    Offcore Request Latency Measurement".
 *  - PEBS_FRONTEND masks: Linux core.c intel_skl/icl/glc_extra_regs.
 *  - Cache/TLB geometry and latencies: Intel Optimization Reference Manual
 *    tables for each microarchitecture (rounded).
 */
#include "sim_int.h"

extern const struct sim_event_table sim_events_core2, sim_events_nhm, sim_events_snb,
    sim_events_hsw, sim_events_skl, sim_events_icx, sim_events_glc, sim_events_slm, sim_events_glm,
    sim_events_grt, sim_events_lnc, sim_events_cyc, sim_events_tnt;

/* CPUID.0AH:EAX (SDM Vol. 2A): version, #GP counters, width, EBX vector length. */
#define CA_EAX(ver, ngp, width) ((ver) | (ngp) << 8 | (width) << 16 | 7u << 24)
/* CPUID.0AH:EDX: #fixed [4:0], width [12:5], AnyThread deprecation [15] (v5+). */
#define CA_EDX(nfx, width, anydep) ((nfx) | (width) << 5 | ((anydep) ? 1u << 15 : 0))

#define PEBS_GP(n)    ((1ull << (n)) - 1)
#define LL_EN_0_3     (0xfull << 32)		  /* LL_EN_PMC0-3, SDM Fig. 18-35 */
#define FIXED_PEBS(n) (((1ull << (n)) - 1) << 32) /* fixed-counter PEBS, Ice Lake+ */
#define PS_EN	      (1ull << 63)		  /* SNB precise store, SDM 18.9.4.3 */

#define MISC_DEFAULT 0x850089ull /* fast strings, TM1, perfmon avail (7), EIST, MONITOR, xTPR */

/* Feature words of the parts below keep DS, DTES64 and PDCM set, hypervisor clear. */
#define EDX_INTEL 0xbfebfbffu

/*
 * CPUID.23H.4:EBX of the arch-PEBS rows, as CFG_C[63:32]: basic 31, AUX 30,
 * GPR 29, XMM 17 (Linux arch-PEBS d21954c8a0ff), and the counter group's
 * CNTR_ALLOW 3, CNTR_GP 4, CNTR_FIXED 5 (Linux msr-index.h ARCH_PEBS_CNTR_*,
 * "perf/x86/intel: Add counter group support for arch-PEBS", the same series
 * that brings arch-PEBS to these parts).  Inferred, not read from a register
 * dump; CNTR_METRICS (6) on none: PERF_METRICS is not modelled.
 */
#define ARCH_PEBS_CAPS ((1u << 31) | (1u << 30) | (1u << 29) | (1u << 17) | (7u << 3))

/*
 * CPUID.23H.0:EBX, the PERFEVTSEL extensions of PMU v6: bit 0 UMASK2, bit 1
 * EQ (sim/cpuid.c; Linux LNL/ARL series "New Architectural performance
 * monitoring V6", ARCH_PERFMON_EXT_UMASK2 and _EQ).
 */
#define LEAF23_UMASK2_EQ ((1u << 0) | (1u << 1))

/*
 * An arch-PEBS row's leaf 23H: sub-leaf 4 EBX (the capabilities above),
 * sub-leaf 5 the GP and fixed counters with PEBS and with PDIST, and the
 * PMU v6 PERFEVTSEL extensions.
 */
#define ARCH_PEBS_LEAF23(gp, fixed, pdist_gp, pdist_fixed)                                         \
	.c23_caps = ARCH_PEBS_CAPS, .c23_gp = (gp), .c23_fx = (fixed), .c23_pdist_gp = (pdist_gp), \
	.c23_pdist_fx = (pdist_fixed), .c23_ext = LEAF23_UMASK2_EQ

/*
 * struct sim_cache_geom by name: L1D, L2, L3 (KiB, ways; L3 0, 0: none),
 * the DTLB and STLB (entries, ways), and the load-to-use latencies in core
 * cycles of an L1, L2, L3 and DRAM hit.
 */
#define L1D(kib, ways)	 .l1_kib = (kib), .l1_ways = (ways)
#define L2(kib, ways)	 .l2_kib = (kib), .l2_ways = (ways)
#define L3(kib, ways)	 .l3_kib = (kib), .l3_ways = (ways)
#define DTLB(ents, ways) .dtlb_entries = (ents), .dtlb_ways = (ways)
#define STLB(ents, ways) .stlb_entries = (ents), .stlb_ways = (ways)
#define LOAD_TO_USE(l1, l2, l3, dram)                                                              \
	.lat_l1 = (l1), .lat_l2 = (l2), .lat_l3 = (l3), .lat_dram = (dram)

/* One row per model, laid out for reading. */
/* clang-format off */
const struct sim_model sim_model_table[] = {
	{
		.info = { "core2", "Core 2 Duo E8400 (06_17), PEBS fmt0, PMC0 only" },
		.brand = "pebsprobe simulated Core 2 (06_17)",
		.vendor = SIM_INTEL, .sig = 0x0001067a, .max_leaf = 0xd, .max_ext = 0x80000008,
		.tsc_mhz = 3000, /* no 15H/16H: E8400 @ 3.00GHz */
		.c1_ebx = 0x00020800, .c1_ecx = 0x0408e3fd, .c1_edx = EDX_INTEL,
		.ca = { CA_EAX(2, 2, 40), 0, 0, CA_EDX(3, 40, 0) },
		/* v2 names no fixed counter (Linux core.c intel_pmu_init, v2 quirk) */
		.ca_unnamed_fixed = 3,
		.perf_caps = 0x82, /* LBR fmt 2, PEBSSaveArchRegs, PEBS fmt0, fault-like */
		.misc_enable = MISC_DEFAULT, .microcode = 0xa0b, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(1),
		.dse = DSE_NONE, .events = &sim_events_core2,
		.cache = { L1D(32, 8), L2(6144, 24), L3(0, 0), DTLB(16, 4), STLB(256, 4),
			   LOAD_TO_USE(3, 15, 0, 250) },
		.source = "SDM 18.4.4 (Core 2 PEBS, PMC0), Table 18-10",
	},
	{
		.info = { "nhm", "Core i7-920 Nehalem (06_1A), PEBS fmt1, load latency" },
		.brand = "pebsprobe simulated Nehalem (06_1A)",
		.vendor = SIM_INTEL, .sig = 0x000106a5, .max_leaf = 0xb, .max_ext = 0x80000008,
		.tsc_mhz = 2667, /* no 15H/16H: i7-920 @ 2.67GHz */
		.c1_ebx = 0x00100800, .c1_ecx = 0x0098e3bd, .c1_edx = EDX_INTEL,
		.ca = { CA_EAX(3, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.perf_caps = 0x1c3, /* LBR fmt 3, trap, arch regs, fmt1 */
		.misc_enable = MISC_DEFAULT, .microcode = 0x20, .platform_id = 0,
		.pebs_enable_mask = PEBS_GP(4) | LL_EN_0_3,
		.offcore_mask = { 0xffff, 0 },
		.flags = F_LDLAT | F_LL_EN, .dse = DSE_NHM, .events = &sim_events_nhm,
		.cache = { L1D(32, 8), L2(256, 8), L3(8192, 16), DTLB(64, 4), STLB(512, 4),
			   LOAD_TO_USE(4, 10, 40, 200) },
		.source = "SDM 18.8.1 (Nehalem PEBS, load latency, Fig. 18-25)",
	},
	{
		.info = { "snb", "Core i7-2600 Sandy Bridge (06_2A), fmt1, precise store" },
		.brand = "pebsprobe simulated Sandy Bridge (06_2A)",
		.vendor = SIM_INTEL, .sig = 0x000206a7, .max_leaf = 0xd, .max_ext = 0x80000008,
		.tsc_mhz = 3400, /* no 15H/16H: i7-2600 @ 3.40GHz */
		.c1_ebx = 0x00100800, .c1_ecx = 0x1fbae3ff, .c1_edx = EDX_INTEL,
		.ca = { CA_EAX(3, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.perf_caps = 0x11c3, /* LBR fmt 3, trap, arch regs, fmt1, SMM freeze */
		.misc_enable = MISC_DEFAULT, .microcode = 0x2f, .platform_id = 1ull << 52,
		.pebs_enable_mask = PEBS_GP(4) | LL_EN_0_3 | PS_EN,
		.offcore_mask = { 0x3f807f8fffull, 0x3f807f8fffull },
		.flags = F_LDLAT | F_LL_EN | F_PS_EN | F_PDIR | F_LDLAT_EXCL, .dse = DSE_SNB,
		.events = &sim_events_snb,
		.cache = { L1D(32, 8), L2(256, 8), L3(8192, 16), DTLB(64, 4), STLB(512, 4),
			   LOAD_TO_USE(4, 12, 30, 200) },
		.source = "SDM 18.9.4 (Sandy Bridge PEBS, load latency, precise store)",
	},
	{
		.info = { "hsw", "Core i7-4770 Haswell (06_3C), fmt2, DataLA" },
		.brand = "pebsprobe simulated Haswell (06_3C)",
		.vendor = SIM_INTEL, .sig = 0x000306c3, .max_leaf = 0xd, .max_ext = 0x80000008,
		.tsc_mhz = 3400, /* no 15H/16H: i7-4770 @ 3.40GHz */
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x000027ab,
		.ca = { CA_EAX(3, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.perf_caps = 0x32c4, /* LBR fmt 4, trap, arch regs, fmt2, SMM freeze, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x28, .platform_id = 1ull << 51,
		.pebs_enable_mask = PEBS_GP(4) | LL_EN_0_3,
		.offcore_mask = { 0x3fffff8fffull, 0x3fffff8fffull },
		.flags = F_LDLAT | F_LL_EN | F_PDIR | F_TSX, .dse = DSE_SNB,
		.events = &sim_events_hsw,
		.cache = { L1D(32, 8), L2(256, 8), L3(8192, 16), DTLB(64, 4), STLB(1024, 8),
			   LOAD_TO_USE(4, 12, 36, 230) },
		.source = "SDM 18.11 (Haswell PEBS, DataLA: Table 18-44/18-45)",
	},
	{
		.info = { "skl", "Core i7-6700K Skylake (06_5E), PEBS fmt3" },
		.brand = "pebsprobe simulated Skylake (06_5E)",
		.vendor = SIM_INTEL, .sig = 0x000506e3, .max_leaf = 0x16, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbbf, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x029c6fbf,
		.ca = { CA_EAX(4, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.c15 = { 3, 500, 0 }, .c16_mhz = 4000,
		.perf_caps = 0x33c5, /* LBR fmt 5, trap, arch regs, fmt3, SMM freeze, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0xf0, .platform_id = 1ull << 51,
		.pebs_enable_mask = PEBS_GP(4) | LL_EN_0_3, .frontend_mask = 0x7fff17,
		.offcore_mask = { 0x3fffff8fffull, 0x3fffff8fffull },
		.flags = F_LDLAT | F_LL_EN | F_PDIR | F_TSX | F_FRONTEND, .dse = DSE_BIG,
		.events = &sim_events_skl,
		.cache = { L1D(32, 8), L2(256, 4), L3(8192, 16), DTLB(64, 4), STLB(1536, 12),
			   LOAD_TO_USE(4, 12, 42, 250) },
		.source = "SDM 18.13 (Skylake PEBS fmt3)",
	},
	{
		.info = { "icx", "Xeon Platinum 8380 Ice Lake-SP (06_6A), fmt4 baseline" },
		.brand = "pebsprobe simulated Ice Lake-SP (06_6A)",
		.vendor = SIM_INTEL, .sig = 0x000606a6, .max_leaf = 0x1b, .max_ext = 0x80000008,
		.phys_bits = 46,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffefbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0xf3bfa7eb,
		.ca = { CA_EAX(5, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 184, 25000000 }, .c16_mhz = 2300,
		.perf_caps = 0xf4c5, /* fmt4, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0xd0003a5, .platform_id = 0,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(4), .frontend_mask = 0x7fff17,
		.offcore_mask = { 0x3fffffbfffull, 0x3fffffbfffull },
		.flags = F_LDLAT | F_PDIR | F_TSX | F_FRONTEND, .dse = DSE_BIG,
		.slots_per_cycle = 5, .events = &sim_events_icx,
		.cache = { L1D(48, 12), L2(1280, 20), L3(61440, 12), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(5, 14, 70, 300) },
		.source = "SDM 18.9 adaptive PEBS (Ice Lake), Linux ds.c icl constraints",
	},
	{
		.info = { "spr", "Xeon Platinum 8480+ Sapphire Rapids (06_8F), fmt5" },
		.brand = "pebsprobe simulated Sapphire Rapids (06_8F)",
		.vendor = SIM_INTEL, .sig = 0x000806f8, .max_leaf = 0x20, .max_ext = 0x80000008,
		.phys_bits = 46,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffefbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0xf3bfa7eb,
		.ca = { CA_EAX(5, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 160, 25000000 }, .c16_mhz = 2000,
		.perf_caps = 0xf5c5, /* fmt5, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x2b000590, .platform_id = 0,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_PDIR | F_TSX | F_FRONTEND | F_STLAT | F_BLOCK |
			 F_INSTR_LAT,
		.dse = DSE_BIG, .slots_per_cycle = 6, .events = &sim_events_glc,
		.cache = { L1D(48, 12), L2(2048, 16), L3(107520, 15), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(5, 16, 110, 350) },
		.source = "Linux ds.c glc constraints, core.c PMU_FL_MEM_LOADS_AUX, ds.c intel_ds_init",
	},
	{
		.info = { "adl-p", "Core i9-12900K Alder Lake P-core Golden Cove (06_97)" },
		.brand = "pebsprobe simulated Alder Lake P-core (06_97)",
		.vendor = SIM_INTEL, .sig = 0x00090672, .max_leaf = 0x20, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c1a_eax = 0x40000001,
		.ca = { CA_EAX(5, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		/* CPUID.0AH names the counters shared with the E-core (Linux f83d2f91d259) */
		.ca_unnamed_gp = 2, .ca_unnamed_fixed = 1,
		.c15 = { 3, 250, 38400000 }, .c16_mhz = 3200,
		.perf_caps = 0xf4c5, /* fmt4, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x35, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_PDIR | F_FRONTEND | F_STLAT | F_BLOCK | F_INSTR_LAT,
		.dse = DSE_BIG, .slots_per_cycle = 6, .events = &sim_events_glc,
		.cache = { L1D(48, 12), L2(1280, 10), L3(30720, 12), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(5, 15, 60, 280) },
		.source = "Linux ds.c glc constraints (hybrid P-core), CPUID.1AH core type 40H",
	},
	{
		.info = { "adl-e", "Core i9-12900K Alder Lake E-core Gracemont (06_97)" },
		.brand = "pebsprobe simulated Alder Lake E-core (06_97)",
		.vendor = SIM_INTEL, .sig = 0x00090672, .max_leaf = 0x20, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c1a_eax = 0x20000001,
		.ca = { CA_EAX(5, 6, 48), 0, 0x7, CA_EDX(3, 48, 1) },
		.c15 = { 3, 250, 38400000 }, .c16_mhz = 3200,
		.perf_caps = 0x74c5, /* fmt4, baseline, FW write, no perf metrics */
		.misc_enable = MISC_DEFAULT, .microcode = 0x35, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(6) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_GRT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(2048, 16), L3(30720, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(3, 17, 65, 290) },
		.source = "Linux ds.c __intel_pmu_pebs_data_source_grt, CPUID.1AH core type 20H",
	},
	{
		.info = { "glm", "Pentium N4200 Goldmont (06_5C), fmt3, PMC0 only" },
		.brand = "pebsprobe simulated Goldmont (06_5C)",
		.vendor = SIM_INTEL, .sig = 0x000506c9, .max_leaf = 0x15, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x4ff8ebbf, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x2294e283,
		.ca = { CA_EAX(4, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.c15 = { 24, 1375, 19200000 }, .c16_mhz = 1100,
		.perf_caps = 0x33c5, /* fmt3, trap (state after the instruction, SDM 18.7.1) */
		.misc_enable = MISC_DEFAULT, .microcode = 0x48, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(1),
		.offcore_mask = { 0x760005ffbfull, 0x360005ffbfull },
		/* SDM 18.6.3: OUTSTANDING[38] in RSP0 on Silvermont and Goldmont (writable: mask) */
		.flags = F_NONPRECISE | F_OFFCORE_AVG, .dse = DSE_RSVD, .events = &sim_events_glm,
		.cache = { L1D(24, 6), L2(2048, 16), L3(0, 0), DTLB(32, 4), STLB(512, 4),
			   LOAD_TO_USE(3, 19, 0, 220) },
		.source = "SDM 18.7.1 (Goldmont PEBS), 18.7.1.1 (data source reserved)",
	},
	{
		.info = { "slm", "Atom C2750 Silvermont (06_4D), fmt2, offcore AVG_LATENCY" },
		.brand = "pebsprobe simulated Silvermont (06_4D)",
		.vendor = SIM_INTEL, .sig = 0x000406d8, .max_leaf = 0xb, .max_ext = 0x80000008,
		.tsc_mhz = 2400, /* no 15H/16H: C2750 @ 2.40GHz */
		.c1_ebx = 0x00100800, .c1_ecx = 0x43d8e3bf, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x00002282,
		.ca = { CA_EAX(3, 2, 40), 0, 0, CA_EDX(3, 40, 0) },
		.perf_caps = 0x32c3, /* fmt2 */
		.misc_enable = MISC_DEFAULT, .microcode = 0x12d, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(1),
		.offcore_mask = { 0x768005ffffull, 0x368005ffffull },
		.flags = F_OFFCORE_AVG, .dse = DSE_RSVD, .events = &sim_events_slm,
		.cache = { L1D(24, 6), L2(1024, 16), L3(0, 0), DTLB(128, 4), STLB(128, 4),
			   LOAD_TO_USE(3, 14, 0, 200) },
		.source = "SDM 18.6 (Silvermont), 18.6.3 and Table 18-17 (offcore latency)",
	},
	/*
	 * Tremont (Jasper Lake Celeron N5105, 06_9C; perfmon mapfile 6-9C ->
	 * EHL/events/elkhartlake_core.json).  Which value comes from where, and
	 * which are inferred, is listed in docs/SIM.md "Tremont".
	 */
	{
		.info = { "tnt", "Celeron N5105 Tremont (06_9C), fmt4 baseline on an Atom" },
		.brand = "pebsprobe simulated Tremont (06_9C)",
		.vendor = SIM_INTEL, .sig = 0x000906c0, .max_leaf = 0x1b, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x4ff8ebbf, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x2294e283, /* Goldmont's words (not the part's: not verified) */
		/*
		 * Version 4, GP 0-3, fixed 0-2: libpfm4 pfmlib_intel_tmt.c
		 * (arch_version 4, 4 counters, 3 fixed) and the perfmon Counter
		 * fields; 48 bits wide as Goldmont (inferred).
		 */
		.ca = { CA_EAX(4, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.c16_mhz = 2000, /* no 15H crystal: N5105 base 2.00 GHz */
		/*
		 * fmt4 with baseline (adaptive PEBS: Linux 6daeb8737f8a "Add
		 * Tremont core PMU support"), FW write, SMM freeze, trap, arch
		 * regs, LBR format 5 (the last four inferred, as the other Atoms)
		 */
		.perf_caps = 0x74c5,
		.misc_enable = MISC_DEFAULT, .microcode = 0x24000024, .platform_id = 1ull << 50,
		/*
		 * GP 0-3 and fixed 0-2: Linux ds.c intel_ds_init (baseline:
		 * PMU_FL_PEBS_ALL, every counter PEBS-capable); the perfmon
		 * PEBScounters fields name 0-3 and 32-34
		 */
		.pebs_enable_mask = PEBS_GP(4) | FIXED_PEBS(3),
		.offcore_mask = { 0x800ff0ffffff9fffull, 0xff0ffffff9fffull }, /* intel_tnt_extra_regs */
		.dse = DSE_RSVD, .events = &sim_events_tnt,
		.cache = { L1D(32, 8), L2(1536, 12), L3(4096, 16), DTLB(64, 4), STLB(1024, 8),
			   LOAD_TO_USE(3, 17, 40, 250) },
		.source = "Linux core.c intel_pmu_init Tremont, 6daeb8737f8a (adaptive PEBS); "
			  "perfmon elkhartlake_core.json; libpfm4 pfmlib_intel_tmt.c",
	},
	{
		.info = { "archpebs", "Clearwater Forest-class E-core (06_DD), arch-PEBS" },
		.brand = "pebsprobe simulated arch-PEBS E-core (06_DD)",
		.vendor = SIM_INTEL, .sig = 0x000d06d3, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c71_eax = 1u << 8,
		/*
		 * Fixed counters 0-2 and 4-6, none 3: perfmon clearwaterforest_core.json
		 * puts TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_FE_BOUND.ALL and
		 * TOPDOWN_RETIRING.ALL on fixed counters 4, 5, 6 and no event on 3;
		 * Linux core.c intel_skt_event_constraints has the same (0x0073 on 4,
		 * 0x019c on 5, 0x02c2 on 6).  The CPUID value itself is not published:
		 * ECX 0x77 with EDX[4:0] = 3 is that set under SDM 20.2.5's rule.
		 */
		.ca = { CA_EAX(6, 8, 48), 0, 0x77, CA_EDX(3, 48, 1) },
		.c15 = { 1, 88, 25000000 }, .c16_mhz = 2200,
		/* PDIST: the PDISTCounter lists of clearwaterforest_core.json (GP 0,1; fixed 0) */
		/* UMASK2 (clearwaterforest_core.json uses UMaskExt) and EQ: PMU v6, as on LNL */
		ARCH_PEBS_LEAF23(0xff, 0x7, 0x3, 0x1),
		.perf_caps = 0x3fc5, /* PEBS_FMT 0xF: arch-PEBS (Linux intel_pebs_init), CPUID.23H */
		.misc_enable = MISC_DEFAULT, .microcode = 0x3000140, .platform_id = 0,
		/* Linux core.c intel_cmt_extra_regs (Crestmont, Skymont, Darkmont): bit 63 in RSP0 only */
		.offcore_mask = { 0x800ff3ffffffffffull, 0xff3ffffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(36864, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 80, 300) },
		.source = "Linux arch-PEBS series (d21954c8a0ff)",
	},
	/*
	 * Granite Rapids (06_AD): Sapphire Rapids' PMU with timed PEBS
	 * (PERF_CAPABILITIES[17], Linux core.c update_pmu_cap / ds.c
	 * intel_ds_init "PEBS-via-PT" and timed-PEBS); counters as perfmon
	 * graniterapids_core.json (GP 0-7, fixed 0-3, load latency on 1-7,
	 * store sample on 0).
	 */
	{
		.info = { "gnr", "Xeon 6 Granite Rapids (06_AD), fmt5, timed PEBS" },
		.brand = "pebsprobe simulated Granite Rapids (06_AD)",
		.vendor = SIM_INTEL, .sig = 0x000a06d1, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffefbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0xf3bfa7eb,
		.ca = { CA_EAX(5, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 160, 25000000 }, .c16_mhz = 2000,
		.perf_caps = 0x2f5c5, /* fmt5, baseline, perf metrics, FW write, timed PEBS (17) */
		.misc_enable = MISC_DEFAULT, .microcode = 0x10003a2, .platform_id = 0,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_PDIR | F_FRONTEND | F_STLAT | F_BLOCK_NOAUX |
			 F_INSTR_LAT,
		.dse = DSE_BIG, .slots_per_cycle = 8, .events = &sim_events_glc,
		.cache = { L1D(48, 12), L2(2048, 16), L3(491520, 16), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(5, 16, 120, 380) },
		.source = "perfmon graniterapids_core.json, mapfile 6-AD; Linux ds.c glc constraints",
	},
	/* Sierra Forest (06_AF): Crestmont server, perfmon sierraforest_core.json. */
	{
		.info = { "srf", "Xeon 6 Sierra Forest Crestmont (06_AF), fmt5" },
		.brand = "pebsprobe simulated Sierra Forest (06_AF)",
		.vendor = SIM_INTEL, .sig = 0x000a06f3, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb,
		/* GP 0-7, fixed 0-2 (perfmon sierraforest_core.json) */
		.ca = { CA_EAX(5, 8, 48), 0, 0x7, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 25000000 }, .c16_mhz = 2200,
		.perf_caps = 0x75c5, /* fmt5, baseline, FW write, no perf metrics */
		.misc_enable = MISC_DEFAULT, .microcode = 0x3000341, .platform_id = 0,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(110592, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 90, 330) },
		.source = "perfmon sierraforest_core.json, mapfile 6-AF; Linux ds.c cmt_latency_data",
	},
	/* Meteor Lake (06_AA): Redwood Cove P + Crestmont E, native model 2 (mapfile 6-AA). */
	{
		.info = { "mtl", "Core Ultra 1 Meteor Lake (06_AA): Redwood Cove P + Crestmont E" },
		.cores = { "mtl-p", "mtl-e" },
		.source = "perfmon mapfile.csv GenuineIntel-6-AA (native model 0x000002)",
	},
	{
		.info = { "mtl-p", "Meteor Lake P-core Redwood Cove (06_AA)" },
		.core_only = true,
		.brand = "pebsprobe simulated Meteor Lake P-core (06_AA)",
		.vendor = SIM_INTEL, .sig = 0x000a06a4, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c1a_eax = 0x40000002,
		/* GP 0-7, fixed 0-3 (perfmon meteorlake_redwoodcove_core.json) */
		.ca = { CA_EAX(5, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 200, 38400000 }, .c16_mhz = 3800,
		.perf_caps = 0xf4c5, /* fmt4, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x20, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_PDIR | F_FRONTEND | F_STLAT | F_BLOCK | F_INSTR_LAT,
		.dse = DSE_BIG, .slots_per_cycle = 6, .events = &sim_events_glc,
		.cache = { L1D(48, 12), L2(2048, 16), L3(24576, 12), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(5, 16, 75, 330) },
		.source = "perfmon meteorlake_redwoodcove_core.json (load latency on 1-7, store "
			  "sample on 0); Linux ds.c glc constraints",
	},
	{
		.info = { "mtl-e", "Meteor Lake E-core Crestmont (06_AA)" },
		.core_only = true,
		.brand = "pebsprobe simulated Meteor Lake E-core (06_AA)",
		.vendor = SIM_INTEL, .sig = 0x000a06a4, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c1a_eax = 0x20000002,
		/* GP 0-7, fixed 0-2 (perfmon meteorlake_crestmont_core.json) */
		.ca = { CA_EAX(5, 8, 48), 0, 0x7, CA_EDX(3, 48, 1) },
		.c15 = { 2, 200, 38400000 }, .c16_mhz = 3800,
		.perf_caps = 0x74c5, /* fmt4, baseline, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x20, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(2048, 16), L3(24576, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 80, 340) },
		.source = "perfmon meteorlake_crestmont_core.json (load latency on 0-1); Linux ds.c "
			  "cmt_latency_data",
	},
	/* Lunar Lake (06_BD): Lion Cove P + Skymont E, native model 3 (mapfile 6-BD). */
	{
		.info = { "lnl", "Core Ultra 2 Lunar Lake (06_BD): Lion Cove P + Skymont E, fmt6" },
		.cores = { "lnl-p", "lnl-e" },
		.source = "perfmon mapfile.csv GenuineIntel-6-BD (native model 0x000003)",
	},
	{
		.info = { "lnl-p", "Lunar Lake P-core Lion Cove (06_BD), fmt6" },
		.core_only = true,
		.brand = "pebsprobe simulated Lunar Lake P-core (06_BD)",
		.vendor = SIM_INTEL, .sig = 0x000b06d1, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x40000003,
		/* GP 0-9, fixed 0-3 (perfmon lunarlake_lioncove_core.json) */
		.ca = { CA_EAX(6, 10, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		.c23_ext = LEAF23_UMASK2_EQ, /* leaf 23H without arch-PEBS */
		.perf_caps = 0xf6c5, /* fmt6, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x11f, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(10) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_FRONTEND | F_STLAT | F_INSTR_LAT, .dse = DSE_LNC,
		.slots_per_cycle = 8, .events = &sim_events_lnc,
		.cache = { L1D(48, 12), L2(2560, 10), L3(12288, 12), DTLB(96, 6), STLB(2048, 16),
			   LOAD_TO_USE(5, 17, 70, 320) },
		.source = "perfmon lunarlake_lioncove_core.json (load latency on 2-9, store sample "
			  "on 0-1); Linux ds.c lnc constraints",
	},
	{
		.info = { "lnl-e", "Lunar Lake E-core Skymont (06_BD), fmt6" },
		.core_only = true,
		.brand = "pebsprobe simulated Lunar Lake E-core (06_BD)",
		.vendor = SIM_INTEL, .sig = 0x000b06d1, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x20000003,
		/* GP 0-7, fixed 0-2 and 4-6 (perfmon lunarlake_skymont_core.json) */
		.ca = { CA_EAX(6, 8, 48), 0, 0x77, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		.c23_ext = LEAF23_UMASK2_EQ, /* leaf 23H without arch-PEBS */
		.perf_caps = 0x76c5, /* fmt6, baseline, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x11f, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(12288, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 80, 330) },
		.source = "perfmon lunarlake_skymont_core.json (load latency on 0-1); Linux ds.c "
			  "cmt_latency_data",
	},
	/*
	 * Arrow Lake-H (06_C5): Lion Cove P, Skymont E and the low-power
	 * Crestmont E (mapfile 6-C5: hybridcore 0x40 / 0x20 native 3 / 0x20
	 * native 2 "LowPower_Atom").
	 */
	{
		.info = { "arl", "Core Ultra 2 Arrow Lake-H (06_C5): Lion Cove P, Skymont E, Crestmont LP E" },
		.cores = { "arl-p", "arl-e", "arl-lpe" },
		.source = "perfmon mapfile.csv GenuineIntel-6-C5 (three core types)",
	},
	{
		.info = { "arl-p", "Arrow Lake-H P-core Lion Cove (06_C5), fmt6" },
		.core_only = true,
		.brand = "pebsprobe simulated Arrow Lake-H P-core (06_C5)",
		.vendor = SIM_INTEL, .sig = 0x000c0652, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x40000003,
		.ca = { CA_EAX(6, 10, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		.c23_ext = LEAF23_UMASK2_EQ, /* leaf 23H without arch-PEBS */
		.perf_caps = 0xf6c5, /* fmt6, baseline, perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x114, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(10) | FIXED_PEBS(4), .frontend_mask = 0x7fff1f,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_FRONTEND | F_STLAT | F_INSTR_LAT, .dse = DSE_LNC,
		.slots_per_cycle = 8, .events = &sim_events_lnc,
		.cache = { L1D(48, 12), L2(3072, 12), L3(24576, 12), DTLB(96, 6), STLB(2048, 16),
			   LOAD_TO_USE(5, 17, 70, 320) },
		.source = "perfmon arrowlake_lioncove_core.json; Linux ds.c lnc constraints",
	},
	{
		.info = { "arl-e", "Arrow Lake-H E-core Skymont (06_C5), fmt6" },
		.core_only = true,
		.brand = "pebsprobe simulated Arrow Lake-H E-core (06_C5)",
		.vendor = SIM_INTEL, .sig = 0x000c0652, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x20000003,
		.ca = { CA_EAX(6, 8, 48), 0, 0x77, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		.c23_ext = LEAF23_UMASK2_EQ, /* leaf 23H without arch-PEBS */
		.perf_caps = 0x76c5, /* fmt6, baseline, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x114, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(24576, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 80, 330) },
		.source = "perfmon arrowlake_skymont_core.json; Linux ds.c cmt_latency_data",
	},
	{
		.info = { "arl-lpe", "Arrow Lake-H low-power E-core Crestmont (06_C5)" },
		.core_only = true,
		.brand = "pebsprobe simulated Arrow Lake-H LP E-core (06_C5)",
		.vendor = SIM_INTEL, .sig = 0x000c0652, .max_leaf = 0x23, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c1a_eax = 0x20000002,
		/* GP 0-7, fixed 0-2 (perfmon arrowlake_crestmont_core.json) */
		.ca = { CA_EAX(5, 8, 48), 0, 0x7, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		.perf_caps = 0x74c5, /* fmt4, baseline, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x114, .platform_id = 1ull << 50,
		.pebs_enable_mask = PEBS_GP(8) | FIXED_PEBS(3),
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(2048, 16), L3(0, 0), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 0, 340) },
		.source = "perfmon arrowlake_crestmont_core.json; Linux ds.c cmt_latency_data",
	},
	/* Clearwater Forest: the Darkmont arch-PEBS part above on every CPU (mapfile 6-DD). */
	{
		.info = { "cwf", "Xeon 6+ Clearwater Forest Darkmont (06_DD), arch-PEBS" },
		.cores = { "archpebs" },
		.source = "perfmon clearwaterforest_core.json, mapfile 6-DD (the archpebs row)",
	},
	/*
	 * Nova Lake (family 0x12 model 1, perfmon mapfile 18-1): Coyote Cove P +
	 * Arctic Wolf E, native model 5, arch-PEBS on both.
	 */
	{
		.info = { "nvl", "Core Ultra Nova Lake (12_01): Coyote Cove P + Arctic Wolf E, arch-PEBS" },
		.cores = { "nvl-p", "nvl-e" },
		.source = "perfmon mapfile.csv GenuineIntel-18-1 (native model 0x000005)",
	},
	{
		.info = { "nvl-p", "Nova Lake P-core Coyote Cove (12_01), arch-PEBS" },
		.core_only = true,
		.brand = "pebsprobe simulated Nova Lake P-core (12_01)",
		.vendor = SIM_INTEL, .sig = 0x00300f11, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x40000005,
		/* GP 0-7, fixed 0-3 (perfmon novalake_coyotecove_core.json) */
		.ca = { CA_EAX(6, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		/* PDIST: the PDISTCounter lists of novalake_coyotecove_core.json (GP 0,1; fixed 0) */
		/* UMASK2 (novalake_coyotecove_core.json uses UMaskExt) and EQ: PMU v6, as on LNL */
		ARCH_PEBS_LEAF23(0xff, 0x7, 0x3, 0x1),
		.perf_caps = 0xbfc5, /* arch-PEBS (PEBS_FMT 0xF), perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x10, .platform_id = 1ull << 50,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_PNC,
		.slots_per_cycle = 8, .events = &sim_events_cyc,
		.cache = { L1D(48, 12), L2(3072, 12), L3(36864, 12), DTLB(96, 6), STLB(2048, 16),
			   LOAD_TO_USE(5, 17, 70, 320) },
		.source = "perfmon novalake_coyotecove_core.json (counters); Linux ds.c pnc "
			  "constraints; arch-PEBS (CPUID.23H sub-leaves 4/5)",
	},
	{
		.info = { "nvl-e", "Nova Lake E-core Arctic Wolf (12_01), arch-PEBS" },
		.core_only = true,
		.brand = "pebsprobe simulated Nova Lake E-core (12_01)",
		.vendor = SIM_INTEL, .sig = 0x00300f11, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x20000005,
		/* GP 0-7, fixed 0-2 and 4-6 (perfmon novalake_arcticwolf_core.json) */
		.ca = { CA_EAX(6, 8, 48), 0, 0x77, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		/* PDIST: the PDISTCounter lists of novalake_arcticwolf_core.json (GP 0,1; fixed 0) */
		/* UMASK2 (novalake_arcticwolf_core.json uses UMaskExt) and EQ: PMU v6, as on LNL */
		ARCH_PEBS_LEAF23(0xff, 0x7, 0x3, 0x1),
		.perf_caps = 0x3fc5, /* arch-PEBS (PEBS_FMT 0xF), FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x10, .platform_id = 1ull << 50,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_ARW,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(36864, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 80, 330) },
		.source = "perfmon novalake_arcticwolf_core.json (counters); arch-PEBS "
			  "(CPUID.23H sub-leaves 4/5)",
	},
	/*
	 * Diamond Rapids (family 0x13 model 1, Linux intel-family.h
	 * INTEL_DIAMONDRAPIDS_X): Panther Cove, arch-PEBS; not in perfmon's
	 * mapfile yet, counters as Linux ds.c intel_pnc_pebs_event_constraints.
	 */
	{
		.info = { "dmr", "Xeon Diamond Rapids Panther Cove (13_01), arch-PEBS" },
		.brand = "pebsprobe simulated Diamond Rapids (13_01)",
		.vendor = SIM_INTEL, .sig = 0x00400f11, .max_leaf = 0x23, .max_ext = 0x80000008,
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffefbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0xf3bfa7eb, .c71_eax = 1u << 8,
		.ca = { CA_EAX(6, 8, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 160, 25000000 }, .c16_mhz = 2000,
		/* PDIST: no perfmon file and no public CPUID dump: GP 0, fixed 0 assumed */
		/* UMASK2 and EQ: PMU v6, as on LNL (no perfmon file to show UMaskExt) */
		ARCH_PEBS_LEAF23(0xff, 0x7, 0x1, 0x1),
		.perf_caps = 0xbfc5, /* arch-PEBS (PEBS_FMT 0xF), perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x10, .platform_id = 0,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_PNC,
		.slots_per_cycle = 8, .events = &sim_events_lnc,
		.cache = { L1D(48, 12), L2(4096, 16), L3(491520, 16), DTLB(96, 6), STLB(2048, 16),
			   LOAD_TO_USE(5, 17, 120, 380) },
		.source = "Linux ds.c intel_pnc_pebs_event_constraints, intel-family.h "
			  "INTEL_DIAMONDRAPIDS_X; arch-PEBS (CPUID.23H sub-leaves 4/5)",
	},
	/*
	 * Hybrid machines: one row per machine naming its core rows; each CPU
	 * takes one of them (sim.c core_of(): CPU i gets row i * rows / CPUs,
	 * so the first half of the CPUs are P-cores, the rest E-cores).
	 */
	{
		.info = { "adl", "Core i9-12900K Alder Lake (06_97): P-cores + E-cores" },
		.cores = { "adl-p", "adl-e" },
		.source = "perfmon mapfile.csv GenuineIntel-6-97 (hybridcore 0x40 Core, 0x20 Atom)",
	},
	{
		.info = { "ptl", "Core Ultra 3 Panther Lake (06_CC): Cougar Cove P + Darkmont E, arch-PEBS" },
		.cores = { "ptl-p", "ptl-e" },
		.source = "perfmon mapfile.csv GenuineIntel-6-CC (native model 0x000004)",
	},
	{
		.info = { "ptl-p", "Panther Lake P-core Cougar Cove (06_CC), arch-PEBS" },
		.core_only = true,
		.brand = "pebsprobe simulated Panther Lake P-core (06_CC)",
		.vendor = SIM_INTEL, .sig = 0x000c06c0, .max_leaf = 0x23, .max_ext = 0x80000008,
		/* not the part's: 52 bits so a host test's 47-bit heap addresses fit (as archpebs) */
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		/* 7:EDX[15] hybrid; 7.1:EAX[8] ArchPerfmonExt; 1AH: core type 40H, native model 4 */
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x40000004,
		/* GP counters 0-9, fixed 0-3 (perfmon pantherlake_cougarcove_core.json) */
		.ca = { CA_EAX(6, 10, 48), 0, 0xf, CA_EDX(4, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		/* PDIST: the PDISTCounter lists of pantherlake_cougarcove_core.json (GP 0,1; fixed 0) */
		/* UMASK2 (pantherlake_cougarcove_core.json uses UMaskExt) and EQ: PMU v6, as on LNL */
		ARCH_PEBS_LEAF23(0x3ff, 0x7, 0x3, 0x1),
		.perf_caps = 0xbfc5, /* arch-PEBS (PEBS_FMT 0xF), perf metrics, FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x114, .platform_id = 1ull << 50,
		.offcore_mask = { 0x3fffffffffull, 0x3fffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_LNC,
		.slots_per_cycle = 8, .events = &sim_events_lnc,
		.cache = { L1D(48, 12), L2(3072, 12), L3(12288, 12), DTLB(96, 6), STLB(2048, 16),
			   LOAD_TO_USE(5, 17, 70, 320) },
		.source = "perfmon pantherlake_cougarcove_core.json (counters), Linux arch-PEBS "
			  "(CPUID.23H sub-leaves 4/5)",
	},
	{
		.info = { "ptl-e", "Panther Lake E-core Darkmont (06_CC), arch-PEBS" },
		.core_only = true,
		.brand = "pebsprobe simulated Panther Lake E-core (06_CC)",
		.vendor = SIM_INTEL, .sig = 0x000c06c0, .max_leaf = 0x23, .max_ext = 0x80000008,
		/* not the part's: 52 bits so a host test's 47-bit heap addresses fit (as archpebs) */
		.phys_bits = 52,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbff, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x239ca7eb, .c7_edx = 1u << 15, .c71_eax = 1u << 8, .c1a_eax = 0x20000004,
		/* GP 0-7, fixed 0-2 and 4-6, no 3 (perfmon pantherlake_darkmont_core.json) */
		.ca = { CA_EAX(6, 8, 48), 0, 0x77, CA_EDX(3, 48, 1) },
		.c15 = { 2, 176, 38400000 }, .c16_mhz = 3300,
		/* PDIST: the PDISTCounter lists of pantherlake_darkmont_core.json (GP 0,1; fixed 0) */
		/* UMASK2 (pantherlake_darkmont_core.json uses UMaskExt) and EQ: PMU v6, as on LNL */
		ARCH_PEBS_LEAF23(0xff, 0x7, 0x3, 0x1),
		.perf_caps = 0x3fc5, /* arch-PEBS (PEBS_FMT 0xF), FW write */
		.misc_enable = MISC_DEFAULT, .microcode = 0x114, .platform_id = 1ull << 50,
		/* core.c intel_pmu_init_skt: intel_cmt_extra_regs (bit 63 in RSP0 only) */
		.offcore_mask = { 0x800ff3ffffffffffull, 0xff3ffffffffffull },
		.flags = F_LDLAT | F_STLAT | F_INSTR_LAT | F_ARCH_PEBS, .dse = DSE_CMT,
		.events = &sim_events_grt,
		.cache = { L1D(32, 8), L2(4096, 16), L3(12288, 12), DTLB(64, 4), STLB(2048, 4),
			   LOAD_TO_USE(4, 17, 75, 320) },
		.source = "perfmon pantherlake_darkmont_core.json (counters), Linux arch-PEBS "
			  "(CPUID.23H sub-leaves 4/5)",
	},
	{
		.info = { "pebs-off", "Skylake (06_5E) with IA32_MISC_ENABLE[12] set" },
		.brand = "pebsprobe simulated Skylake PEBS-unavail (06_5E)",
		.vendor = SIM_INTEL, .sig = 0x000506e3, .max_leaf = 0x16, .max_ext = 0x80000008,
		.c1_ebx = 0x00100800, .c1_ecx = 0x7ffafbbf, .c1_edx = EDX_INTEL,
		.c7_ebx = 0x029c6fbf,
		.ca = { CA_EAX(4, 4, 48), 0, 0, CA_EDX(3, 48, 0) },
		.c15 = { 3, 500, 0 }, .c16_mhz = 4000,
		.perf_caps = 0x33c5,
		.misc_enable = MISC_DEFAULT | (1ull << 11) | (1ull << 12), .microcode = 0xf0,
		.platform_id = 1ull << 51,
		.pebs_enable_mask = PEBS_GP(4) | LL_EN_0_3, .frontend_mask = 0x7fff17,
		.offcore_mask = { 0x3fffff8fffull, 0x3fffff8fffull },
		.flags = F_LDLAT | F_LL_EN | F_PDIR | F_TSX | F_FRONTEND, .dse = DSE_BIG,
		.events = &sim_events_skl,
		.cache = { L1D(32, 8), L2(256, 4), L3(8192, 16), DTLB(64, 4), STLB(1536, 12),
			   LOAD_TO_USE(4, 12, 42, 250) },
		.source = "Linux intel.c, kvm-unit-tests (MISC_ENABLE bit 12 PEBS_UNAVAIL)",
	},
	{
		.info = { "amd", "AMD EPYC 7763 Zen 3 (19_01): no Intel PMU MSRs" },
		.brand = "pebsprobe simulated AMD EPYC Zen 3 (19_01)",
		.vendor = SIM_AMD, .sig = 0x00a00f11, .max_leaf = 0x10, .max_ext = 0x80000023,
		.tsc_mhz = 2450, /* no 15H/16H: EPYC 7763, 2.45 GHz base */
		.c1_ebx = 0x00800800, .c1_ecx = 0x7ed8320b, .c1_edx = 0x178bfbff,
		.c7_ebx = 0x219c97a9,
		.microcode = 0x0a0011d1,
		.dse = DSE_NONE,
		.cache = { L1D(32, 8), L2(512, 8), L3(32768, 16), DTLB(64, 4), STLB(2048, 16),
			   LOAD_TO_USE(4, 12, 46, 300) },
		.source = "AMD APM Vol. 2 (no DS, no IA32_PEBS_*; MSR 8BH patch level)",
	},
};

/* clang-format on */

const size_t sim_model_table_len = ARRAY_SIZE(sim_model_table);
