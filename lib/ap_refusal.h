/* SPDX-License-Identifier: MIT */
/*
 * ap_refusal.h - the firmware calls refused because an AP made them, as
 * both platforms count them: UEFI lets the procedure MP services run on an
 * AP call no boot service but WhoAmI (PI spec Vol. 2 13.4).  A platform
 * function that would use one checks which CPU runs it and, on an AP,
 * notes the call here and does without (NULL, an error, no output;
 * plat_stall_us spins on the TSC).  The host keeps the same rule for its
 * CPU threads.
 */
#ifndef PP_LIB_AP_REFUSAL_H
#define PP_LIB_AP_REFUSAL_H

#include "compat.h"

/* One more refused call; `what` (a string that lives on) is its name. */
void ap_refusal_note(const char *what);

/* How many were refused so far; *last (if last): the latest one's name. */
unsigned int ap_refusal_count(const char **last);

#endif
