// SPDX-License-Identifier: MIT
/*
 * test_pmu_plan_counters.c - plan_build() cases for the counters and the
 * extra MSRs: offcore response bits by generation, MSR_PEBS_FRONTEND,
 * DATA_CFG and arch-PEBS groups, arch-PEBS latency events by core type,
 * counting constraints, fixed counters, TakenAlone events, PDIST.  One row
 * a case (struct plan_case, test_plan_util.h), values worked out by hand
 * from the SDM bit layouts as test_pmu_plan.c says.
 */
#include "test_plan_util.h"

// clang-format off
static const struct plan_case plan_counter_cases[] = {
    /*
     * MSR_OFFCORE_RSPx writable bits differ between the client and server
     * Sandy/Ivy Bridge: core.c intel_pmu_init takes intel_snbep_extra_regs
     * (0x3fffff8fff) for SANDYBRIDGE_X / IVYBRIDGE_X, intel_snb_extra_regs
     * (0x3f807f8fff) for the others: bits 23-30 pass on the servers only.
     */
    {.what = "snb-ep OFFCORE REMOTE_DRAM", .model = 0x2d, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM"}},
    {.what = "ivb-ep OFFCORE REMOTE_DRAM", .model = 0x3e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_CODE_RD.LLC_MISS.REMOTE_DRAM"}},
    {.what = "snb-ep rsp bit 23", .model = 0x2d, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rsp0 = W(0x800001)},
    {.what = "ivb-ep rsp bit 23", .model = 0x3e, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rsp0 = W(0x800001)},
    {.what = "snb rsp bit 23", SNB, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rc = SESSION_REFUSED},
    {.what = "ivb rsp bit 23", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x800001"}, .rc = SESSION_REFUSED},
    {.what = "ivb rsp bit 16", .model = 0x3a, .fmt = 1, .n_gp = 4, .version = 3,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10001"}, .rsp0 = W(0x10001)},
    /* NHM: perfmon's MSRValue, request DMND_DATA_RD bit 0 and every location [15:8] */
    {.what = "nhm OFFCORE ANY_LOCATION", NHM, .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE_0.DEMAND_DATA.ANY_LOCATION"}, .rsp0 = W(0xff03)},
    /* NHM: bit 16 is outside the valid 0xffff (core.c intel_nehalem_extra_regs) */
    {.what = "nhm rsp bit 16", NHM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP0"}},
    /* SKL: request [15:0], ANY_RESPONSE bit 16: perfmon's MSRValue 0x10001 */
    {.what = "skl OFFCORE ANY_RESPONSE", SKL, .kind = KIND_OTHER, .count_only = true,
     .count = {"OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE"}, .rsp0 = W(0x10001)},
    /* Goldmont: SNP_NONE bit 31 and request bit 6 not writable (0x760005ffbf); RSP1 no bit 38 */
    {.what = "glm rsp bit 31", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x80010001"}, .rc = SESSION_REFUSED},
    {.what = "glm rsp bit 6", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x10040"}, .rc = SESSION_REFUSED},
    {.what = "glm rsp0 bit 38", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x1,offcore_rsp=0x4000000001"}, .rsp0 = W(0x4000000001)},
    {.what = "glm rsp1 bit 38", GLM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x2,offcore_rsp=0x4000000001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP1"}},
    /*
     * Crestmont E-core (MTL 06_AA, core type 0x20, native model 2): bit 63
     * is in MSR_OFFCORE_RSP0 only (core.c intel_cmt_extra_regs: RSP_0
     * 0x800ff3ffffffffff, RSP_1 0xff3ffffffffff).  Darkmont (PTL 06_CC,
     * native model 4) has the same masks (intel_pmu_init_skt); perfmon
     * PTL/pantherlake_darkmont_core.json OCR.DEMAND_DATA_RD.L3_MISS is 0x13FBFC00001.
     */
    {.what = "cmt rsp1 bit 63", .model = 0xaa, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5,
     .hybrid = true, .core_type = CORE_TYPE_ATOM, .native = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001"},
     .rc = SESSION_REFUSED, .refusal = {"MSR_OFFCORE_RSP1"}},
    {.what = "cmt rsp0 bit 63", .model = 0xaa, .fmt = 5, .baseline = true, .n_gp = 8, .version = 5,
     .hybrid = true, .core_type = CORE_TYPE_ATOM, .native = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xb7,umask=0x1,offcore_rsp=0x8000000000010001"},
     .rsp0 = W(0x8000000000010001)},
    {.what = "dkm OCR L3_MISS", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .kind = KIND_OTHER, .count_only = true,
     .count = {"OCR.DEMAND_DATA_RD.L3_MISS"}, .rsp0 = W(0x13fbfc00001)},
    {.what = "dkm rsp1 bit 63", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb7,umask=0x2,offcore_rsp=0x8000000000010001"}, .rc = SESSION_REFUSED},
    /* MSR_PEBS_FRONTEND within 0x7fff17 on SKL (bit 3 reserved); FRONTEND_RETIRED needs a value */
    {.what = "skl frontend bit 23", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x800011",
     .rc = SESSION_REFUSED, .refusal = {"0x7fff17"}},
    {.what = "skl frontend bit 3", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x8", .rc = SESSION_REFUSED},
    {.what = "skl frontend missing", SKL, .kind = KIND_OTHER, .event = "event=0xc6,umask=0x1",
     .rc = SESSION_REFUSED, .refusal = {"MSR_PEBS_FRONTEND"}},
    {.what = "skl frontend all bits", SKL, .kind = KIND_OTHER,
     .event = "event=0xc6,umask=0x1,frontend=0x7fff17", .frontend = W(0x7fff17)},
    /*
     * DATA_CFG counter-snapshot bits (4, 5, 47:32, 55:48) exist from fmt 6
     * only; LBR, which needs more than DATA_CFG, is refused.  Load latency
     * adds MEMINFO (bit 0) itself.
     */
    {.what = "icx data_cfg bit 4", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(4),
     .rc = SESSION_REFUSED},
    {.what = "icx data_cfg bit 32", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(32),
     .rc = SESSION_REFUSED},
    {.what = "icx data_cfg LBR", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(3) | 3ULL << 24,
     .rc = SESSION_REFUSED, .refusal = {"does not set up"}},
    {.what = "icx data_cfg GP XMM", ICX, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(1) | BIT_ULL(2),
     .data_cfg_out = W(0x7)},
    {.what = "spr data_cfg bit 5", SPR, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(5),
     .rc = SESSION_REFUSED},
    {.what = "lnc data_cfg snapshots", .model = 0xbd, .fmt = 6, .baseline = true, .n_gp = 8,
     .version = 6, .hybrid = true, .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .data_cfg = BIT_ULL(4) | BIT_ULL(32), .data_cfg_out = W(0x1 | BIT_ULL(4) | BIT_ULL(32))},
    /* arch-PEBS: MEMINFO and GP become CFG_C AUX/GPR; LBR is refused, not dropped */
    {.what = "arch data_cfg GP", .model = 0xdd, .n_gp = 8, .version = 6, .arch_gp = 0xff,
     .arch_caps = 0xffffffff, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(1)},
    {.what = "arch data_cfg LBR", .model = 0xdd, .n_gp = 8, .version = 6, .arch_gp = 0xff,
     .arch_caps = 0xffffffff, .kind = KIND_LDLAT, .data_cfg = BIT_ULL(3),
     .rc = SESSION_REFUSED, .refusal = {"does not set up"}},
    /* a raw load-latency event gets the threshold, PEBS_EN_PMC0 | LL_EN_PMC0, no counting copy */
    {.what = "skl raw ldlat", SKL, .kind = KIND_OTHER, .event = "event=0xcd,umask=0x1", .ldlat = 50,
     .kind_out = W(KIND_LDLAT), .use_ldlat = W(true), .ldlat_out = W(50),
     .pebs_enable = W(0x100000001), .copy_idx = W(-1)},
    /* ldlat=0: SDM 18.9.4.2's minimum 3 */
    {.what = "skl raw ldlat=0", SKL, .kind = KIND_OTHER, .event = "event=0xcd,umask=0x1",
     .ldlat_zero = true, .ldlat_out = W(3)},
    /* SNB: event 0xcd counts on PMC3 only (core.c intel_snb_event_constraints) */
    {.what = "snb 0xcd counted", SNB, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xcd,umask=0x1"}, .count0_ctr = W(3)},
    /* a v5 fixed-counter bitmap with a hole: fixed 1 absent, never programmed */
    {.what = "icx fixed bitmap 0x5", ICX, .n_fixed = 3, .fixed_mask = 0x5, .kind = KIND_LDLAT,
     .fixed_used = W(0x5), .global_fixed = W(0x5), .fixed_ctrl = W(0x303)},
    /* asking for fixed counter 1 (CPU_CLK_UNHALTED.CORE pseudo-encoding 0x0200) there */
    {.what = "icx fixed 1 absent", ICX, .n_fixed = 3, .fixed_mask = 0x5, .kind = KIND_LDLAT,
     .count = {"event=0x00,umask=0x02"}, .rc = SESSION_REFUSED, .refusal = {"0x5"}},
    /* arch-PEBS latency events by CPUID.1AH core type; none without one */
    {.what = "arch E-core ldlat", ARCH_DE, .core_type = CORE_TYPE_ATOM, .kind = KIND_LDLAT,
     .code = W(0x05d0)},
    {.what = "arch P-core ldlat", ARCH_DE, .core_type = CORE_TYPE_CORE, .kind = KIND_LDLAT,
     .code = W(0x01cd)},
    {.what = "arch P-core stlat", ARCH_DE, .core_type = CORE_TYPE_CORE, .kind = KIND_STLAT,
     .code = W(0x02cd)},
    {.what = "arch no core type ldlat", ARCH_DE, .kind = KIND_LDLAT, .rc = SESSION_REFUSED},
    {.what = "arch no core type default", ARCH_DE, .kind = KIND_OTHER, .code = W(0x00c0)},
    /* 06_DD (Clearwater Forest, Linux INTEL_ATOM_DARKMONT_X) is an E-core by its model */
    {.what = "arch 06_DD ldlat", .model = 0xdd, .fmt = 4, .baseline = true, .n_gp = 8, .version = 6,
     .arch_gp = 0xff, .kind = KIND_LDLAT, .code = W(0x05d0)},
    /* counting constraints, the constrained event placed first: WSM 0x60 on PMC0 only */
    {.what = "wsm 0x60 on PMC0", WSM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0x3c,umask=0x0", "event=0x60,umask=0x1"}, .ctr_u = {W(1), W(0)}},
    {.what = "wsm two PMC0-only", WSM, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xb3,umask=0x1", "event=0x60,umask=0x1"}, .rc = SESSION_REFUSED},
    /* Ice Lake: MEM_INST_RETIRED (0xd0) counts on PMC0-3 only; ldlat samples on PMC0 */
    {.what = "icx 0xd0 on PMC0-3", ICX, .kind = KIND_LDLAT,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xd0,umask=0x81"}, .ctr = W(0), .ctr_u = {[3] = W(1)}},
    /*
     * Arch-PEBS P-cores: load latency on PMC2 and up, never PMC0.
     * PTL/events/pantherlake_cougarcove_core.json (06_CC, 06_D5, 06_E5):
     * MEM_TRANS_RETIRED.LOAD_LATENCY_* Counter and PEBScounters 2-9;
     * NVL/events/novalake_coyotecove_core.json (family 0x12): 2-7; Linux ds.c
     * intel_lnc_pebs_event_constraints 0x01cd on 0x3fc.  CPUID enumerating
     * PEBS on PMC0-1 only: refused, naming the rule.
     */
    {.what = "ptl 06_CC ldlat", .model = 0xcc, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_D5 ldlat", .model = 0xd5, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_E5 ldlat", .model = 0xe5, .n_gp = 10, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff, .kind = KIND_LDLAT,
     .code = W(0x01cd), .ctr = W(2)},
    {.what = "nvl 12_01 ldlat", .family = 0x12, .model = 0x01, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 5, .arch_gp = 0xff,
     .kind = KIND_LDLAT, .code = W(0x01cd), .ctr = W(2)},
    {.what = "ptl 06_CC ldlat, PEBS on PMC0-1", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3, .kind = KIND_LDLAT,
     .rc = SESSION_REFUSED, .refusal = {"PEBScounters (perfmon ", ") PMC2-", "CPUID.23H"}},
    {.what = "nvl 12_01 ldlat, PEBS on PMC0-1", .family = 0x12, .model = 0x01, .n_gp = 10,
     .version = 6, .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 5, .arch_gp = 0x3,
     .kind = KIND_LDLAT,
     .rc = SESSION_REFUSED, .refusal = {"PEBScounters (perfmon ", ") PMC2-", "CPUID.23H"}},
    /*
     * INST_RETIRED.PREC_DIST (0x01c0) counts on PMC1 only on Haswell and
     * Skylake (HSW/events/haswell_core.json, SKL/events/skylake_core.json:
     * Counter "1"; core.c intel_hsw/skl_event_constraints 0x01c0 on 0x2):
     * no counting copy of it on another counter; counted alone, PMC1.
     */
    {.what = "hsw PREC_DIST, no copy", HSW, .kind = KIND_OTHER,
     .code = W(0x01c0), .ctr = W(1), .copy_idx = W(-1)},
    {.what = "hsw PREC_DIST counted", HSW, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xc0,umask=0x1"}, .count0_ctr = W(1)},
    {.what = "skl PREC_DIST, no copy", SKL, .kind = KIND_OTHER,
     .code = W(0x01c0), .ctr = W(1), .copy_idx = W(-1)},
    {.what = "skl PREC_DIST counted", SKL, .kind = KIND_OTHER, .count_only = true,
     .count = {"event=0xc0,umask=0x1"}, .count0_ctr = W(1)},
    /*
     * Golden Cove / Lion Cove counting constraints.  ADL/events/
     * alderlake_goldencove_core.json: TOPDOWN.BAD_SPEC_SLOTS (0x04a4) Counter
     * "0", INST_DECODED.DECODERS (0x0175) "0,1,2,3"; LNL/events/
     * lunarlake_lioncove_core.json: INST_DECODED.DECODERS and L1D_PENDING.LOAD
     * (0x0148) "2".  Linux core.c intel_glc_event_constraints (0x04a4, 0x08a4,
     * 0xce on PMC0) and intel_lnc_event_constraints (0x0148, 0x0175 on PMC2)
     * agree.  0xce has no row in the files: the Linux table applies.
     * INST_RETIRED.ANY_P samples on PMC1 (PEBScounters 1-7) on ADL, PMC0 on LNL.
     */
    {.what = "adl 0x04a4 on PMC0", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xa4,umask=0x4"}, .ctr = W(1), .ctr_u = {[3] = W(0)}},
    {.what = "adl DECODERS on PMC0-3", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "INST_DECODED.DECODERS"}, .ctr_u_in = {[3] = 0xf}},
    {.what = "adl 0xce on PMC0", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "event=0x3c,umask=0x0",
               "event=0xce,umask=0x1"}, .ctr_u = {[3] = W(0)}},
    {.what = "adl two PMC0-only", ADL_P, .kind = KIND_OTHER,
     .count = {"event=0x3c,umask=0x0", "event=0x3c,umask=0x0", "TOPDOWN.BR_MISPREDICT_SLOTS",
               "event=0xa4,umask=0x4"},
     .rc = SESSION_REFUSED,
     .refusal = {"Counter (perfmon ADL/alderlake_goldencove_core.json", ") PMC0;"}},
    {.what = "lnl 0x0175 on PMC2", LNL_P, .kind = KIND_OTHER, .count = {"event=0x75,umask=0x1"},
     .ctr = W(0), .ctr_u = {W(2)}},
    {.what = "lnl 0x0148 on PMC2", LNL_P, .kind = KIND_OTHER, .count = {"event=0x48,umask=0x1"},
     .ctr_u = {W(2)}},
    /*
     * UMASK2 (PERFEVTSEL[47:40]) and EQ (bit 36) only where CPUID.23H.0:EBX
     * enumerates them (bit 0, bit 1; core.c update_pmu_cap, perf_event.h
     * ARCH_PERFMON_EVENTSEL_UMASK2 / _EQ): elsewhere the write would #GP.
     * ITLB_MISSES.STLB_HIT of lunarlake_lioncove_core.json is EventCode
     * 0x11, UMask 0x20, UMaskExt 0x01.
     */
    {.what = "lnl UMASK2, no leaf 23H", LNL_P, .kind = KIND_OTHER, .count_only = true,
     .count = {"ITLB_MISSES.STLB_HIT"}, .rc = SESSION_REFUSED,
     .refusal = {"UMASK2 (PERFEVTSEL[47:40], perfmon UMaskExt)", "CPUID.23H.0:EBX[0] clear"}},
    {.what = "lnl UMASK2, EQ only", LNL_P, .ext_valid = true, .ext = PMEXT_EQ,
     .kind = KIND_OTHER, .count_only = true, .count = {"ITLB_MISSES.STLB_HIT"},
     .rc = SESSION_REFUSED, .refusal = {"CPUID.23H.0:EBX[0] clear"}},
    {.what = "lnl UMASK2 by name", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"ITLB_MISSES.STLB_HIT"},
     .count0_evtsel = W(0x0000010000432011)},
    {.what = "lnl UMASK2 raw", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x11,umask=0x20,umask2=0x1"},
     .count0_evtsel = W(0x0000010000432011)},
    {.what = "lnl EQ not enumerated", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x3c,umask=0x0,cmask=2,eq"},
     .rc = SESSION_REFUSED,
     .refusal = {"EQ (PERFEVTSEL[36], perfmon Equal)", "CPUID.23H.0:EBX[1] clear"}},
    {.what = "lnl EQ", LNL_P, .ext_valid = true, .ext = PMEXT_UMASK2 | PMEXT_EQ,
     .kind = KIND_OTHER, .count_only = true, .count = {"event=0x3c,umask=0x0,cmask=2,eq"},
     .count0_evtsel = W(BIT_ULL(36) | 0x0243003c)},
    /* a sampled event is checked too, before any counter is chosen */
    {.what = "lnl sampled UMASK2", LNL_P, .ext_valid = true, .kind = KIND_OTHER,
     .event = "event=0xc0,umask=0x0,umask2=0x2", .rc = SESSION_REFUSED,
     .refusal = {"CPUID.23H.0:EBX[0] clear or leaf 23H absent"}},
    /*
     * Fixed counters past 3: pantherlake_darkmont_core.json puts
     * TOPDOWN_BAD_SPECULATION.ALL on fixed counter 4, TOPDOWN_RETIRING.ALL on
     * 6 (CPUID.0AH ECX 0x77).  PMU v6 programs them (FIXED_CTR_CTRL 19:16 and
     * 27:24, GLOBAL_CTRL bits 36 and 38; every enumerated one counts, none at
     * the hole 3); below v6 they have no address (pmu/msr.h): refused.
     */
    {.what = "dkm fixed 4 and 6", .model = 0xcc, .n_gp = 8, .version = 6, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .n_fixed = 7, .fixed_mask = 0x77,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_RETIRING.ALL"},
     .ctr_u = {W(32 + 4), W(32 + 6)}, .fixed_ctrl = W(0x03330333), .global_fixed = W(0x77)},
    {.what = "dkm fixed 4 and 6, PMU v5", .model = 0xcc, .n_gp = 8, .version = 5, .hybrid = true,
     .core_type = CORE_TYPE_ATOM, .native = 4, .n_fixed = 7, .fixed_mask = 0x77,
     .kind = KIND_OTHER, .count_only = true,
     .count = {"TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_RETIRING.ALL"}, .rc = SESSION_REFUSED,
     .refusal = {"needs fixed counter 4", "4 and up only with PMU version 6"}},
    /*
     * TakenAlone (perfmon README: "can only be sampled or counted by itself"):
     * SPR/events/sapphirerapids_core.json has it on MEM_TRANS_RETIRED.LOAD_LATENCY_*
     * and FRONTEND_RETIRED.*, not on MEM_INST_RETIRED.ALL_LOADS or on Linux's
     * mem-loads-aux 0x8203, which the plan still counts beside load latency.
     */
    {.what = "spr two TakenAlone", SPR, .kind = KIND_LDLAT,
     .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", .count = {"FRONTEND_RETIRED.DSB_MISS"},
     .rc = SESSION_REFUSED,
     .refusal = {"'MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4' and 'FRONTEND_RETIRED.DSB_MISS' are "
                 "both TakenAlone in perfmon SPR/sapphirerapids_core.json"}},
    {.what = "spr two TakenAlone counted", SPR, .kind = KIND_OTHER, .count_only = true,
     .count = {"FRONTEND_RETIRED.DSB_MISS", "FRONTEND_RETIRED.ITLB_MISS"},
     .rc = SESSION_REFUSED, .refusal = {"TakenAlone"}},
    {.what = "spr TakenAlone beside ALL_LOADS", SPR, .kind = KIND_LDLAT,
     .event = "MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", .count = {"MEM_INST_RETIRED.ALL_LOADS"},
     .n_count = W(2) /* ALL_LOADS and 0x8203 */},
    /*
     * PDIST (perfmon PDISTCounter): SPR MEM_INST_RETIRED.ALL_LOADS "0",
     * INST_RETIRED.PREC_DIST "32" (fixed counter 0), load latency "NA".  A
     * VMM's bitmap without PMC0 moves it to PMC1, without PDIST.  With
     * arch-PEBS the counter must also be in CPUID.23H.5 EBX (GP) / EDX (fixed).
     */
    {.what = "spr ALL_LOADS PDIST", SPR, .n_fixed = 4, .kind = KIND_OTHER,
     .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(0), .pdist = W(true)},
    {.what = "spr ALL_LOADS without PMC0", SPR, .n_fixed = 4, .gp_mask = 0xfe, .kind = KIND_OTHER,
     .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(1), .pdist = W(false)},
    {.what = "spr PREC_DIST PDIST", SPR, .n_fixed = 4, .kind = KIND_OTHER,
     .event = "INST_RETIRED.PREC_DIST", .ctr = W(32), .pdist = W(true)},
    {.what = "spr ldlat no PDIST", SPR, .n_fixed = 4, .kind = KIND_LDLAT, .pdist = W(false)},
    {.what = "ptl ALL_LOADS, no 23H.5 PDIST", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff,
     .kind = KIND_OTHER, .event = "MEM_INST_RETIRED.ALL_LOADS", .ctr = W(0), .pdist = W(false)},
    {.what = "ptl ALL_LOADS, 23H.5 PDIST", .model = 0xcc, .n_gp = 10, .version = 6,
     .hybrid = true, .core_type = CORE_TYPE_CORE, .native = 4, .arch_gp = 0x3ff,
     .arch_pdist_gp = 0x3, .kind = KIND_OTHER, .event = "MEM_INST_RETIRED.ALL_LOADS",
     .pdist = W(true)},
    /*
     * Core 2 has no perfmon file: counted events placed by core.c
     * intel_core2_event_constraints (MEM_LOAD_RETIRED 0xcb on PMC0, DIV 0x13
     * on PMC1); the PEBS event takes PMC0 (ds.c intel_core2_pebs_event_constraints).
     */
    {.what = "core2 counted", .model = 0x17, .n_gp = 2, .version = 2, .kind = KIND_OTHER,
     .count_only = true, .count = {"event=0xcb,umask=0x1", "event=0x13,umask=0x0"},
     .ctr_u = {W(0), W(1)}},
    {.what = "core2 0xcb beside PEBS", .model = 0x17, .n_gp = 2, .version = 2,
     .kind = KIND_OTHER, .count = {"event=0xcb,umask=0x1"}, .rc = SESSION_REFUSED,
     .refusal = {"no perfmon row; Linux core.c event constraints: PMC0"}},
};
// clang-format on

static void test_plan_counter_cases(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(plan_counter_cases); i++)
		run_plan_case(&plan_counter_cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_counter_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
