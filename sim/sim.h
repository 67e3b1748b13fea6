/* SPDX-License-Identifier: MIT */
/*
 * sim.h - the simulated PMU: a model of the SDM's rules, not of pebsprobe's
 * code.  It implements struct hw_ops (pmu/hw.h) for a chosen CPU model: the
 * CPUID leaves and MSR file of a real part of that generation, #GP where the
 * hardware raises it, the SDM's PEBS rules, and a PEBS engine that writes
 * records into the DS buffer when a counter overflows.
 *
 * Used by the app (pmu=sim model=NAME) and host tests.
 */
#ifndef PP_SIM_H
#define PP_SIM_H

#include "../pmu/hw.h"

struct sim_model_info {
	const char *name;	 /* model=NAME, e.g. "skl" */
	const char *description; /* e.g. "Skylake client (06_5E), PEBS fmt3" */
};

size_t sim_model_count(void);
const struct sim_model_info *sim_model_at(size_t i);

/* Selects a model and resets the simulated CPU to its power-on state. 0 or -1. */
int sim_select(const char *name);
const char *sim_current_model(void);
/* The backend to hw_install() once a model is selected. */
const struct hw_ops *sim_hw_ops(void);

/*
 * A broken SDM rule: reported through the handler (default: report_fail with
 * name "sim-rule") and counted.  rule is a short id ("pebs-counter",
 * "ldlat-min", ...), text names the rule and its source (SDM section/table).
 */
typedef void (*sim_violation_fn)(const char *rule, const char *text, void *ctx);
void sim_set_violation_handler(sim_violation_fn fn, void *ctx);
unsigned int sim_violation_count(void);

/*
 * (sim addition) What the simulator did since sim_select()/sim_reset(), for
 * tests and the app's summary.  Counts only; the records themselves are in
 * the DS buffer the caller gave the simulated CPU.
 */
struct sim_stats {
	uint64_t records;	  /* PEBS records written */
	uint64_t records_dropped; /* assists that found no room (index + size > absolute max) */
	uint64_t pmis;		  /* PMIs delivered to the handler */
	uint64_t pmis_masked;	  /* PMIs not delivered: LVTPC masked before the APIC took them */
	uint64_t instructions;	  /* instructions the kernels reported retired */
	uint64_t loads, stores;
	/* records of the event after the overflow: a counter outside its PDISTCounter list */
	uint64_t records_shadowed;
	uint64_t acr_reloads; /* counters reloaded by auto counter reload (sim_set_acr) */
	/* hw_ops.irq_window calls (interrupts on for one instruction); of those, with TPR not 0 */
	uint64_t irq_windows, irq_windows_tpr;
	uint64_t timer_ticks; /* the firmware's timer taken (sim-platform=timer-attr) */
};
void sim_get_stats(struct sim_stats *st);
/* (sim addition) The same for CPU cpu (the platform's number); zeros past the last. */
void sim_get_cpu_stats(unsigned int cpu, struct sim_stats *st);
/*
 * (sim addition) Whether the PMI handler installed through set_pmi_handler
 * is running now (the simulator calls it synchronously): tests use it to
 * prove that nothing on the PMI path prints.
 */
bool sim_pmi_running(void);
/*
 * (sim addition) CPUID.0AH ECX (the fixed-counter bitmap) and EDX[4:0]
 * (the number of contiguous fixed counters) as a hypervisor may give them
 * to its guest: Linux KVM lets the VMM set both, and a guest then has
 * fixed counter i only if ECX[i] || EDX[4:0] > i, the rule of SDM Vol. 3B
 * 20.2.5 (KVM pmu_intel.c; "KVM: x86/pmu: Add Intel PMU supported fixed
 * counters bit mask", LKML 2023), so holes can be anywhere.  For the
 * selected model, version 5 or later, until the next sim_select(); resets
 * the simulated CPU.  0, or -1 if the model's PMU is older than version 5.
 */
int sim_set_fixed_enum(uint32_t ecx, uint32_t edx_count);
/*
 * (sim addition) CPUID.0AH:EDX[12:5], the bit width of the fixed counters,
 * as a hypervisor may report it to its guest, narrower than the GP
 * counters' (EAX[23:16]): the fixed counters are then that wide (a write
 * above it #GPs).  Until the next sim_select(); resets the simulated CPU.
 * 0, or -1 outside 1..64.
 */
int sim_set_fixed_width(uint32_t bits);
/*
 * (sim addition) sim-ucode= and sim-stepping=: the microcode revision
 * IA32_BIOS_SIGN_ID[63:32] reports and the stepping of CPUID.1:EAX[3:0], on
 * every simulated CPU, in place of the model's, so that each row of the
 * errata table (pmu/errata.c) can be made to apply or not.  Until the next
 * sim_select(); resets the simulated CPUs.  0, or -1 for a stepping above 15.
 */
int sim_set_microcode(uint32_t rev);
int sim_set_stepping(uint32_t stepping);
/*
 * (sim addition) A PMI is delivered only after this many more instructions
 * retire (default 0: right after the one that requested it).  On hardware
 * the interrupt is handled some time after the request: the SDM asks for
 * the PEBS interrupt threshold to be "several records short of the PEBS
 * absolute maximum address to allow a pending interrupt to be handled"
 * (Vol. 3B 17.4.9), and until then records are still written.  Tests use it
 * to put records between the threshold and the absolute maximum.  Until the
 * next sim_select() or sim_reset().
 */
void sim_set_pmi_delay(uint64_t instructions);
/*
 * (sim addition) Interrupts off (RFLAGS.IF = 0) on the calling CPU, as
 * firmware may run an AP: a PMI the local APIC accepted waits in its IRR
 * (SDM Vol. 3A 11.8.4) and is delivered when they are on again - to the
 * handler installed then.  Delivered to none (the firmware's IDT), its ISR
 * bit stays set: a firmware default handler sends no EOI (rule pmi-no-eoi).
 */
void sim_set_irq_off(bool off);
/*
 * (sim addition) The same for CPU cpu, set from any CPU before a job: an AP
 * the firmware runs with interrupts off.  Until sim_select() or sim_reset().
 */
void sim_set_cpu_irq_off(unsigned int cpu, bool off);
/* Power-on reset of the selected model (MSRs, APIC, caches, TSC, counts), every CPU. */
void sim_reset(void);

/*
 * (sim addition) The machine has one simulated CPU per processor of the
 * platform (lib/platform.h plat_cpu_count(), any count), each with its own
 * PMU, MSRs, local APIC, caches and DS area; the calling CPU
 * (plat_cpu_self()) uses its own.  On a hybrid model each CPU is one of the
 * machine's core types (docs/SIM.md "Machines").  sim_cpu_model(): that
 * CPU's core row name.
 */
unsigned int sim_cpu_count(void);
const char *sim_cpu_model(unsigned int cpu);

/*
 * (sim addition) sim-fault=cpuN:KIND breaks one simulated CPU, for tests
 * that the broken CPU, and only it, is named:
 *   no-records     the PEBS assist writes no record (the counter still
 *                  overflows and reloads);
 *   wrong-latency  every record's latency field is off (latency + 1000
 *                  cycles: outside every expectation);
 *   gp-on-enable   the IA32_PERF_GLOBAL_CTRL write that starts a counter
 *                  with PEBS armed raises #GP;
 *   hang           that write never returns: the CPU stops for good in it
 *                  (lib/platform.h plat_park), an AP that does not come
 *                  back.  APs only: the boot CPU (0) is refused.
 *   latency-bias   every record's latency field is skewed by arg percent
 *                  (latency * (100 + arg) / 100, to the nearest cycle);
 *                  the modelled cycles are
 *                  not: what latency calibration must catch.
 *   skid           every record's IP is one instruction late: the eventing
 *                  IP is the instruction after the access, a trap-like
 *                  R/EIP the next instruction the kernel reports (at least
 *                  one more); nothing else of the record changes.  What
 *                  the precision check must catch.
 *   cr3-kept       a write to CR3 is lost: the CPU stays on the page
 *                  tables it had (the firmware's), whatever pebsprobe
 *                  builds (pmu/paging.h).
 *   own-cr3        the CPU runs on page tables of its own: another CR3
 *                  (a second top-level table, its entries kept equal to
 *                  the firmware's, so the same mappings), as firmware may
 *                  leave an AP.  Tables copied from another CPU's CR3 are
 *                  not its own: what pmu/paging.c must not switch to.
 *   apic-off       the local APIC is software-disabled (SVR bit 8 clear, as
 *                  firmware may leave an AP): LVTPC stays masked whatever
 *                  is written (SDM Vol. 3A 11.4.7.2), so no PMI comes.
 *   unmapped-cr3   the CPU runs on page tables of its own that map none of
 *                  the memory the app allocates (firmware built them before
 *                  it ran): its DS area and PEBS buffer are not there.
 *   latency-offset every load's latency field is arg cycles longer (a
 *                  longer dispatch-to-writeback, SDM Vol. 3B 20.3.1.1.2),
 *                  the threshold seeing it too; the modelled cycles are
 *                  not: what the calibration window must allow at L1.
 *   status-zero    every 4th record's status (0x90) is zero, as when PEBS
 *                  races with the clearing of GLOBAL_STATUS (Linux ds.c
 *                  intel_pmu_drain_pebs_nhm); record formats 1 and 2 only,
 *                  where 0x90 is GLOBAL_STATUS's image (from format 3 it is
 *                  the applicable counters, SDM Vol. 3B 18.13.1.1).
 *   collision      every 4th record's status also names the counters whose
 *                  PEBS_ENABLE bit is set besides the one that took the
 *                  assist, and the lowest other GP counter if there is none,
 *                  as when two PEBS counters overflow close together;
 *                  formats 1 and 2 only.
 * arg: the percentage of latency-bias, the cycles of latency-offset, 0 for
 * the others.
 * Until the next sim_select().  0, or -1 with no such CPU (or a hung CPU 0).
 */
enum sim_fault {
	SIM_FAULT_NONE,
	SIM_FAULT_NO_RECORDS,
	SIM_FAULT_WRONG_LATENCY,
	SIM_FAULT_GP_ON_ENABLE,
	SIM_FAULT_HANG,
	SIM_FAULT_LATENCY_BIAS,
	SIM_FAULT_SKID,
	SIM_FAULT_CR3_KEPT,
	SIM_FAULT_OWN_CR3,
	SIM_FAULT_APIC_OFF,
	SIM_FAULT_UNMAPPED_CR3,
	SIM_FAULT_LATENCY_OFFSET,
	SIM_FAULT_STATUS_ZERO,
	SIM_FAULT_COLLISION,
};
int sim_set_fault(unsigned int cpu, enum sim_fault f, int32_t arg);
/*
 * (sim addition) sim-acr=: auto counter reload, CPUID.23H sub-leaf 2 as
 * given (EAX: GP counters that may be reloaded, EBX: fixed ones; ECX / EDX:
 * those whose overflow may cause a reload), on every CPU whose row has
 * leaf 23H (PMU v6), with IA32_PMC_*_CFG_B and the reload from CFG_C
 * (sim/acr.c).  No model claims ACR by itself: no public source gives a
 * part's masks.  All four 0: none.  Until the next sim_select(); resets the
 * simulated CPUs.  Returns 0.
 */
int sim_set_acr(uint32_t reload_gp, uint32_t reload_fixed, uint32_t cause_gp, uint32_t cause_fixed);
/*
 * (sim addition) sim-handoff=cpuN:KIND leaves PMU state behind on one
 * simulated CPU, as firmware or an earlier program would, before the app
 * starts (sim/handoff.c, docs/SIM.md "Firmware hand-off"):
 *   counter        PERFEVTSEL0 enabled (INST_RETIRED.ANY_P) with a count;
 *   bts            IA32_DEBUGCTL TR and BTS on, DS_AREA at a DS save area
 *                  whose BTS buffer the simulator owns;
 *   ctr-frz        IA32_PERF_GLOBAL_STATUS CTR_FRZ (59) set (PMU v4+);
 *   cfg-b          a CFG_B naming the lowest counter that may cause a reload,
 *                  on the lowest other one ACR may reload (sim-acr=);
 *   no-smm-freeze  FREEZE_WHILE_SMM off (with any sim-handoff= item, every
 *                  other CPU that supports it has it on);
 *   smi            n SMIs per sampling: MSR_SMI_COUNT (34H) advances by n
 *                  each time a PEBS buffer is armed there;
 *   lost-restore   what counter leaves, and the write that puts PERFEVTSEL0
 *                  back to it, after another value, is lost (the register
 *                  keeps what it had), so handoff-restored must FAIL;
 *   arch-pebs-ovf  IA32_PERF_GLOBAL_STATUS bit 54 (arch-PEBS threshold) set
 *                  (arch-PEBS parts);
 *   counter=V      PMC0 holds V (n), PERFEVTSEL0 the same event stopped (EN
 *                  clear): a count firmware left, that the session's
 *                  writes of PMC0 must put back;
 *   no-set-54      IA32_PERF_GLOBAL_STATUS_SET refuses bit 54 (#GP), as the
 *                  SDM edition read lists it reserved (by default the
 *                  simulator accepts it: no source settles which);
 *   counter-int    PMC0 counting INST_RETIRED with INT set and enabled in
 *                  GLOBAL_CTRL, near overflow: it overflows (a PMI) the
 *                  first time LVTPC is unmasked while it still counts so.
 * Until the next sim_select(); kept across sim_reset().  Returns 0, or -1
 * with why filled (the CPU lacks what the kind needs).
 */
enum sim_handoff_kind {
	SIM_HANDOFF_COUNTER,
	SIM_HANDOFF_BTS,
	SIM_HANDOFF_CTR_FRZ,
	SIM_HANDOFF_CFG_B,
	SIM_HANDOFF_NO_SMM_FREEZE,
	SIM_HANDOFF_SMI,
	SIM_HANDOFF_LOST_RESTORE,
	SIM_HANDOFF_ARCH_PEBS_OVF,
	SIM_HANDOFF_NO_SET_54,
	SIM_HANDOFF_COUNT_LEFT,
	SIM_HANDOFF_COUNTER_INT,
	SIM_HANDOFF_KINDS,
};
int sim_set_handoff(unsigned int cpu, enum sim_handoff_kind k, uint64_t n, char *why,
		    size_t why_size);
/* KIND by name: 0, or -1; a kind's name; the accepted names, for an error line. */
int sim_handoff_parse(const char *name, enum sim_handoff_kind *k);
const char *sim_handoff_name(enum sim_handoff_kind k);
#define SIM_HANDOFF_ACCEPTED                                                                       \
	"counter, counter-int, bts, ctr-frz, cfg-b, no-smm-freeze, lost-restore, "                 \
	"arch-pebs-ovf, no-set-54, smi, smiN or counter=V"
/*
 * (sim addition) sim-pages=: the simulated firmware maps memory with pages
 * of this size (4096, 2 MiB or 1 GiB; default 4096), identity, in page
 * tables every CPU's CR3 points at after reset (sim/paging.c).  The TLB
 * model takes each access's page size from the tables under the CPU's CR3.
 * Until the next sim_select(); resets the simulated CPUs.  0, or -1 for
 * another size.
 */
int sim_set_pages(uint64_t page_size);
/*
 * sim-platform=cet: every CPU comes out of reset with CR4.CET (bit 23) set,
 * supervisor shadow stacks on, as firmware built with CET leaves it
 * (SDM Vol. 1 18 "Control-flow Enforcement Technology"); an MSR access
 * that #GPs is then a #CP (docs/SIM.md "The platform").  Until the next
 * sim_select().
 */
void sim_set_cet(bool on);
/* How many MSR accesses #GP'd under CR4.CET since sim_select(): each a #CP on a real part. */
unsigned int sim_cet_faults(void);
/*
 * sim-platform=timer-attr: the firmware's timer interrupts the boot CPU
 * every 1024 of its hw calls while the app does not hold TPL_HIGH_LEVEL
 * (lib/platform.h plat_tpl_high), and its notification sets XD on the page
 * of that CPU's last data access through the CR3 loaded then, as EDK II's
 * CpuDxe edits whatever tables CR3 names (sim/timer.c).  How it reaches the
 * CPU: SIM_TIMER_LAPIC the local APIC timer, fixed delivery, held by TPR;
 * SIM_TIMER_EXTINT (sim-platform=timer-extint) the 8254 through the 8259
 * on LVT LINT0, held by LINT0's mask bit only.  Until the next
 * sim_set_timer_attr().  sim_timer_attr_check(), at the end of the run:
 * one violation (rule timer-attr) naming the changes the firmware's own
 * tables did not get, and their number; sim_timer_attr_ticks(): how many
 * ticks changed a page.
 */
enum sim_timer_via { SIM_TIMER_OFF, SIM_TIMER_LAPIC, SIM_TIMER_EXTINT };
void sim_set_timer_attr(enum sim_timer_via via);
unsigned int sim_timer_attr_check(void);
unsigned int sim_timer_attr_ticks(void);

/*
 * (sim addition) sim-host=: the machine as a guest of this host sees it,
 * built from Linux KVM's rules (sim/kvm.c, docs/KVM.md): CPUID.1:ECX[31]
 * and leaf 40000000H "KVMKVMKVM", PERF_CAPABILITIES as KVM masks it, PEBS
 * only on a host with EPT-friendly PEBS, no vPMU on a hybrid host, #GP on
 * the MSRs KVM does not handle (3F6H, 3F7H, 1A6H/1A7H).  SIM_HOST_KVM is a
 * host from Linux 6.9 on (no adaptive PEBS, commit 9e985cbf2942);
 * SIM_HOST_KVM_6_8 one before it.  Until the next sim_select(); resets the
 * simulated CPUs.  Returns 0.
 */
enum sim_host { SIM_HOST_NONE, SIM_HOST_KVM, SIM_HOST_KVM_6_8 };
int sim_set_host(enum sim_host h);

/* KIND by name (not "none"): 0, or -1; and a kind's name. */
int sim_fault_parse(const char *name, enum sim_fault *f);
const char *sim_fault_name(enum sim_fault f);

#endif
