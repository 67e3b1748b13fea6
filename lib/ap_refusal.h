/* SPDX-License-Identifier: MIT */
/*
 * ap_refusal.h - the firmware calls refused because an AP made them, as
 * both platforms count them: UEFI lets the procedure MP services run on an
 * AP call no boot service but WhoAmI (PI spec Vol. 2 13.4).  A platform
 * function that would use one checks which CPU runs it and, on an AP,
 * notes the call here and does without (NULL, an error, no output;
 * plat_stall_us spins on the TSC).  The host keeps the same rule for its
 * CPU threads.  Also counted: a call made under page tables not the
 * firmware's.
 */
#ifndef PP_LIB_AP_REFUSAL_H
#define PP_LIB_AP_REFUSAL_H

#include "compat.h"

/* One more refused call; `what` (a string that lives on) is its name. */
void ap_refusal_note(const char *what);

/* How many were refused so far; *last (if last): the latest one's name. */
unsigned int ap_refusal_count(const char **last);

/*
 * The same for a firmware call the boot CPU made under a CR3 that is not
 * the firmware's (cr3, where fw is): the firmware edits the tables CR3
 * names (EDK II CpuDxe GetCurrentPagingContext), so the platform refuses
 * it.  ap_refusal_cr3_count() gives the latest one's name and CR3s.
 */
void ap_refusal_note_cr3(const char *what, uint64_t cr3, uint64_t fw);
unsigned int ap_refusal_cr3_count(const char **last, uint64_t *cr3, uint64_t *fw);

#endif
