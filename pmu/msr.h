/* SPDX-License-Identifier: MIT */
/*
 * msr.h - architectural and model-specific PMU MSRs and their fields, as
 * pmu/ and ds/ program them.  Numbers and bits: SDM Vol. 4 (MSR tables) and
 * Vol. 3B ch. 18 (figures named beside each field); cross-checked against
 * Linux arch/x86/include/asm/msr-index.h and perf_event.h.
 */
#ifndef PP_PMU_MSR_H
#define PP_PMU_MSR_H

#include "../lib/compat.h"

#define MSR_IA32_PMC0			0xc1  /* legacy: writes sign-extend bit 31 */
#define MSR_IA32_A_PMC0			0x4c1 /* full width, PERF_CAPABILITIES[13] */
#define MSR_IA32_PERFEVTSEL0		0x186
#define MSR_IA32_FIXED_CTR0		0x309
#define MSR_IA32_FIXED_CTR_CTRL		0x38d
#define MSR_PERF_METRICS		0x329 /* PERF_CAPABILITIES[15]: topdown fractions of SLOTS */
#define MSR_IA32_PERF_GLOBAL_STATUS	0x38e
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38f
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x390 /* STATUS_RESET: write 1 to clear */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET 0x391 /* v4+: write 1 to set (SDM 18.2.4.2) */
#define MSR_IA32_PEBS_ENABLE		0x3f1
#define MSR_PEBS_DATA_CFG		0x3f2
#define MSR_IA32_PEBS_BASE		0x3f4 /* arch-PEBS */
#define MSR_IA32_PEBS_INDEX		0x3f5 /* arch-PEBS */
#define MSR_PEBS_LD_LAT_THRESHOLD	0x3f6
#define MSR_PEBS_FRONTEND		0x3f7
#define MSR_IA32_DS_AREA		0x600
#define MSR_IA32_DEBUGCTL		0x1d9
#define MSR_OFFCORE_RSP0		0x1a6
#define MSR_OFFCORE_RSP1		0x1a7
/* PMU v6 per-counter MSRs, + 4 * n (Linux msr-index.h MSR_IA32_PMC_V6_*) */
#define MSR_IA32_PMC_GP0_CFG_B 0x1902 /* ACR: the counters that reload it */
#define MSR_IA32_PMC_GP0_CFG_C 0x1903 /* arch-PEBS controls; [31:0] the reload */
#define MSR_IA32_PMC_FX0_CTR   0x1980
#define MSR_IA32_PMC_FX0_CFG_B 0x1982
#define MSR_IA32_PMC_FX0_CFG_C 0x1983
#define MSR_V6_STEP	       4

/*
 * Fixed counter n.  0-3 at IA32_FIXED_CTR0-3 (309H-30CH, SDM Vol. 4 Table
 * 2-2; fixed counter 3 is TOPDOWN.SLOTS, Linux perf_event.h
 * MSR_ARCH_PERFMON_FIXED_CTR3).  No public source here documents a legacy
 * address for n >= 4; PMU version 6 has every fixed counter at
 * IA32_PMC_FXn_CTR 1980H + 4n, and Linux uses those on v6 (commit
 * 149fd4712bcd "Support Perfmon MSRs aliasing", x86_pmu_fixed_ctr_addr).
 * So n >= 4 is addressed there, and only on v6 (pmu/plan.c plan_init).
 */
#define MSR_FIXED_LEGACY_N 4
static inline uint32_t msr_fixed_ctr(unsigned int n)
{
	return n < MSR_FIXED_LEGACY_N ? MSR_IA32_FIXED_CTR0 + n
				      : MSR_IA32_PMC_FX0_CTR + MSR_V6_STEP * n;
}

/* IA32_PERFEVTSELx (SDM Vol. 3B Figure 18-6; bit 34 adaptive: Linux perf_event.h
 * ICL_EVENTSEL_ADAPTIVE). */
#define EVTSEL_EVENT(x)	  ((uint64_t)(x)&0xff)
#define EVTSEL_UMASK(x)	  (((uint64_t)(x)&0xff) << 8)
#define EVTSEL_USR	  BIT_ULL(16)
#define EVTSEL_OS	  BIT_ULL(17)
#define EVTSEL_EDGE	  BIT_ULL(18)
#define EVTSEL_PC	  BIT_ULL(19)
#define EVTSEL_INT	  BIT_ULL(20)
#define EVTSEL_ANY	  BIT_ULL(21)
#define EVTSEL_EN	  BIT_ULL(22)
#define EVTSEL_INV	  BIT_ULL(23)
#define EVTSEL_CMASK(x)	  (((uint64_t)(x)&0xff) << 24)
#define EVTSEL_CMASK_MASK GENMASK_ULL(31, 24)
#define EVTSEL_ADAPTIVE	  BIT_ULL(34)
/*
 * The PERFEVTSEL extension, where CPUID.23H.0:EBX enumerates it: EQ (bit 36,
 * the counter-mask compare is "equal" instead of "greater or equal") and
 * UMASK2 [47:40] (Linux perf_event.h ARCH_PERFMON_EVENTSEL_EQ / _UMASK2,
 * commit dce0c74d2d18 "Support PERFEVTSEL extension").
 */
#define EVTSEL_EQ	   BIT_ULL(36)
#define EVTSEL_UMASK2(x)   (((uint64_t)(x)&0xff) << 40)
#define EVTSEL_UMASK2_MASK GENMASK_ULL(47, 40)

/* IA32_FIXED_CTR_CTRL: 4 bits per counter, adaptive at 32+4i (Linux perf_event.h
 * ICL_FIXED_0_ADAPTIVE). */
#define FIXED_CTRL_OS(i)       BIT_ULL(4 * (i))
#define FIXED_CTRL_USR(i)      BIT_ULL(4 * (i) + 1)
#define FIXED_CTRL_PMI(i)      BIT_ULL(4 * (i) + 3)
#define FIXED_CTRL_FIELD(i)    (0xfULL << (4 * (i)))
#define FIXED_CTRL_ADAPTIVE(i) BIT_ULL(32 + 4 * (i))

/* GLOBAL_CTRL / GLOBAL_STATUS / PEBS_ENABLE: GP i at bit i, fixed i at 32+i. */
#define GLOBAL_FIXED(i)		 BIT_ULL(32 + (i))
#define GLOBAL_STATUS_ARCH_PEBS	 BIT_ULL(54)
#define GLOBAL_STATUS_LBR_FRZ	 BIT_ULL(58) /* v4+ (SDM 18.2.4.1) */
#define GLOBAL_STATUS_CTR_FRZ	 BIT_ULL(59) /* v4+: FREEZE_PERFMON_ON_PMI froze the counters */
#define GLOBAL_STATUS_BUFFER_OVF BIT_ULL(62)
#define GLOBAL_STATUS_COND_CHG	 BIT_ULL(63)

/*
 * IA32_DEBUGCTL (SDM Vol. 3B 17.4.1 "IA32_DEBUGCTL MSR", Figure 17-3): TR and
 * BTS send branch records to the DS save area (17.4.9); FREEZE_PERFMON_ON_PMI
 * freezes the counters on a PMI request (18.2.4).
 */
#define DEBUGCTL_TR		       BIT_ULL(6)
#define DEBUGCTL_BTS		       BIT_ULL(7)
#define DEBUGCTL_FREEZE_PERFMON_ON_PMI BIT_ULL(12)

/* IA32_PEBS_ENABLE (SDM Vol. 3B Figure 18-35 "Layout of IA32_PEBS_ENABLE MSR"; pre-ICL LL_EN at
 * 32+i). */
#define PEBS_EN_PMC(i)	 BIT_ULL(i)
#define PEBS_LL_EN(i)	 BIT_ULL(32 + (i))
#define PEBS_EN_FIXED(i) BIT_ULL(32 + (i))
#define PEBS_PS_EN	 BIT_ULL(63)

/* Arch-PEBS CFG_C (Linux arch-PEBS series, d21954c8a0ff); the IA32_PEBS_INDEX fields are in
 * ds/ds.h. */
#define CFG_C_RELOAD(x) ((uint64_t)(x)&0xffffffffULL)
/*
 * Counter-snapshot group (Linux msr-index.h ARCH_PEBS_CNTR_*, "perf/x86/intel:
 * Add counter group support for arch-PEBS"): ALLOW on every counter of the
 * group, GP / FIXED / METRICS on the PEBS counter (core.c intel_pmu_enable_event_ext).
 */
#define CFG_C_CNTR_ALLOW   BIT_ULL(35)
#define CFG_C_CNTR_GP	   BIT_ULL(36)
#define CFG_C_CNTR_FIXED   BIT_ULL(37)
#define CFG_C_CNTR_METRICS BIT_ULL(38)
#define CFG_C_GPR	   BIT_ULL(61)
#define CFG_C_AUX	   BIT_ULL(62)
#define CFG_C_EN	   BIT_ULL(63)

/* MSR_OFFCORE_RSPx (SDM Vol. 3B 18.6.3 and Table 18-17, Silvermont/Goldmont). */
#define OFFCORE_ANY_RESPONSE BIT_ULL(16)
#define OFFCORE_SNOOP_MASK   GENMASK_ULL(37, 31)
#define OFFCORE_OUTSTANDING  BIT_ULL(38)
#define OFFCORE_REQ_MASK     GENMASK_ULL(15, 0)

/* Local APIC (SDM Vol. 3A 11.5.1): LVT performance counter register. */
#define APIC_LVTPC 0x340
#define APIC_EOI   0xb0
#define APIC_TPR   0x80
/* Spurious-interrupt vector register: bit 8 the APIC software enable (SDM Vol. 3A 11.9). */
#define APIC_SVR	0xf0
#define APIC_SVR_ENABLE BIT_ULL(8)
/* In-service and interrupt-request registers: vector v is bit v % 32 of reg + 0x10 * (v / 32)
 * (SDM Vol. 3A 11.8.4, Figure 11-20 "IRR, ISR and TMR Registers"). */
#define APIC_ISR      0x100
#define APIC_IRR      0x200
#define APIC_LVT_MASK BIT_ULL(16)
/*
 * LVT LINT0 (SDM Vol. 3A 11.5.1, Figure 11-8): its writable bits (vector,
 * delivery mode, polarity, trigger mode, mask; delivery status and remote
 * IRR are read-only) and the delivery modes TPR holds or not.
 */
#define APIC_LVT_LINT0	 0x350
#define APIC_LVT_LINT_RW 0x1a7ffu
#define APIC_LVT_DM(v)	 (((v) >> 8) & 7)
#define APIC_DM_FIXED	 0
#define APIC_DM_EXTINT	 7

#endif
