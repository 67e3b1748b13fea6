/* SPDX-License-Identifier: MIT */
/*
 * hw_real.h - the real-instruction backend of the hw seam, as the pure app
 * sees it (no EFI types).  efi/hw_real.c implements it in the UEFI app;
 * host/hw_real_host.c is the host build's stand-in, which has no backend.
 */
#ifndef PP_HW_REAL_H
#define PP_HW_REAL_H

#include "../pmu/hw.h"

/* The real backend, or NULL where there is none (host builds). */
const struct hw_ops *hw_real_ops(void);

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
 * why on failure (always false on the host).
 */
bool hw_real_selftest_vector(char *why, size_t why_size);

#endif
