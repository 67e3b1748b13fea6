/* SPDX-License-Identifier: MIT */
/*
 * partner.h - the other CPU of a two-CPU kernel (share-hitm, false-share),
 * chosen from the firmware's topology (lib/platform.h plat_cpu_location).
 */
#ifndef PP_KERNELS_PARTNER_H
#define PP_KERNELS_PARTNER_H

#include "../lib/compat.h"
#include "../lib/platform.h"

struct partner {
	unsigned int cpu;	     /* the partner's CPU number (lib/platform.h numbering) */
	bool known;		     /* both locations came from the firmware */
	bool alike;		     /* the firmware gave another CPU the measured one's location */
	struct plat_cpu_loc at, own; /* the partner's and the measured CPU's */
};

/*
 * The partner of the kernel measured on cpu: the lowest-numbered CPU of the
 * same package on another core.  Threads of one core share its L1D and L2
 * (SDM Vol. 3A, "Intel Hyper-Threading Technology Architecture": the
 * logical processors of a core share its caches): a store by a sibling is
 * no snoop away, so no HITM.  Where the package has no other core, the
 * lowest CPU of another package: its modified line reaches cpu by a cross-
 * package snoop, a remote HITM (partner_remote).  0, or -1 with why, the
 * reason to SKIP (one CPU, or one core in the only package).
 */
int partner_pick(unsigned int cpu, struct partner *p, char *why, size_t why_size);
/* The partner is in another package than the measured CPU (both known). */
bool partner_remote(const struct partner *p);
/* "partner CPU 2 (package 0, core 1, thread 0)" into buf. */
void partner_text(const struct partner *p, char *buf, size_t size);

#endif
