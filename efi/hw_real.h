/* SPDX-License-Identifier: MIT */
/*
 * hw_real.h - the real-instruction backend of the hw seam (no EFI types).
 * efi/hw_real.c implements it; efi/main.c hands it to the app as struct
 * app_real (app/app.h), and efi/platform_efi.c reads the page tables and
 * MTRRs through it.
 */
#ifndef PP_HW_REAL_H
#define PP_HW_REAL_H

#include "../pmu/hw.h"

/* The real backend. */
const struct hw_ops *hw_real_ops(void);

/*
 * The MSR trap's private IDTs, one per CPU (4 KiB each: off the stack, which
 * on an AP may be 4 KiB in all).  Called on the BSP before any AP starts,
 * with the number of CPUs that may run; 0, or -1 when no memory.  Until
 * then only the BSP has one, and an AP's MSR access is refused (HW_GP,
 * counted by hw_real_trap_refused()).
 */
int hw_real_trap_init(unsigned int ncpus);
/* The calling CPU's local APIC ID (x2APIC ID where CPUID leaf 0BH is enumerated). */
uint32_t hw_real_apic_id(void);
unsigned long hw_real_trap_refused(void);

/* How many #GP faults the MSR trap caught and resumed from since start. */
unsigned long hw_real_gp_trapped(void);

/*
 * Whether the firmware's IDT (IDTR base and limit, and its #GP entry) is the
 * same as when the backend was first used: the trap must leave it untouched.
 * On failure why says what differs.
 */
bool hw_real_idt_intact(char *why, size_t why_size);

/*
 * Fires the PMI vector in software (INT 0xee, the vector pmu/session.c
 * programs into LVTPC) with a test handler installed through
 * set_pmi_handler, and checks that the handler ran once, that the
 * interrupted code's caller-saved registers and xmm0 came back unchanged,
 * and that removing the handler restored the firmware's IDT.  False with
 * why on failure.
 */
bool hw_real_selftest_vector(char *why, size_t why_size);

/*
 * On the CPU that calls it (an AP, through StartupThisAP): installs a test
 * handler on the PMI vector through set_pmi_handler, fires the local APIC
 * timer once on that vector (an LVT entry with fixed delivery, as LVTPC),
 * and checks that the interrupt reached the handler while it was
 * installed (RFLAGS.IF set by the install), then that removing it put back
 * the CPU's interrupt flag, IDTR and timer.  No firmware call.  True with
 * why saying the interrupt flag before and after; false with why.
 */
bool hw_real_selftest_ap_interrupt(char *why, size_t why_size);

/*
 * Calls the RDMSR and WRMSR accesses with garbage in rax, rcx, rdx and
 * r8-r11 (several patterns, r8 = 1 among them: the value gp_stub sets on a
 * fault): RDMSR IA32_APIC_BASE must succeed with the value a clean call
 * reads and no fault trapped, WRMSR IA32_PKRS with reserved bit 32 must
 * report #GP with exactly one fault trapped.  False with why on failure.
 */
bool hw_real_selftest_dirty_regs(char *why, size_t why_size);

#endif
