// SPDX-License-Identifier: MIT
/*
 * ap_refusal.c - the count and the latest name of the firmware calls an AP
 * made and its platform refused (ap_refusal.h).  Atomic: APs note while
 * the BSP reads (lib/cpurun.c).
 */
#include "ap_refusal.h"

static unsigned int refused_calls;
static const char *refused_last;

void ap_refusal_note(const char *what)
{
	__atomic_store_n(&refused_last, what, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&refused_calls, 1, __ATOMIC_SEQ_CST);
}

unsigned int ap_refusal_count(const char **last)
{
	if (last)
		*last = __atomic_load_n(&refused_last, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&refused_calls, __ATOMIC_SEQ_CST);
}

/* Only the boot CPU gets this far (an AP is refused before): no atomics needed. */
static unsigned int cr3_calls;
static const char *cr3_last;
static uint64_t cr3_seen, cr3_fw;

void ap_refusal_note_cr3(const char *what, uint64_t cr3, uint64_t fw)
{
	cr3_last = what;
	cr3_seen = cr3;
	cr3_fw = fw;
	cr3_calls++;
}

unsigned int ap_refusal_cr3_count(const char **last, uint64_t *cr3, uint64_t *fw)
{
	if (last)
		*last = cr3_last;
	if (cr3)
		*cr3 = cr3_seen;
	if (fw)
		*fw = cr3_fw;
	return cr3_calls;
}
