// SPDX-License-Identifier: MIT
/*
 * partner.c - the other CPU of a two-CPU kernel, from the firmware's
 * topology (partner.h).  EDK II's MpInitLib numbers processors by APIC ID
 * (MpInitLib.c SortApicId), so with SMT on, processor 1 is the second thread
 * of core 0: the next CPU number is no partner.  A core of the same package
 * comes first; where the package has no other core, a CPU of another
 * package, whose modified line is a remote HITM (partner.h).
 */
#include "partner.h"
#include "../lib/fmt.h"

int partner_pick(unsigned int cpu, struct partner *p, char *why, size_t why_size)
{
	unsigned int n = plat_cpu_count(), other_pkg = 0, remote = 0;
	struct plat_cpu_loc loc, remote_loc = {0};

	memset(p, 0, sizeof(*p));
	if (n < 2) {
		pp_snprintf(why, why_size, "needs 2 CPUs, 1 available (QEMU: --smp 2)");
		return -1;
	}
	if (!plat_cpu_location(cpu, &p->own)) {
		/* The firmware names no location: the lowest other CPU, said so in the text. */
		p->cpu = cpu ? 0 : 1;
		return 0;
	}
	for (unsigned int c = 0; c < n; c++) {
		if (c == cpu || !plat_cpu_location(c, &loc))
			continue;
		if (!memcmp(&loc, &p->own, sizeof(loc))) {
			/*
			 * Two CPUs at one location: EDK II's GetProcessorLocationByApicId
			 * (BaseXApicLib.c) names every CPU package 0, core 0, thread 0 where
			 * CPUID.1:EDX.HTT is clear.  The locations say nothing: as if none.
			 */
			memset(p, 0, sizeof(*p));
			p->cpu = cpu ? 0 : 1;
			p->alike = true;
			return 0;
		}
		if (loc.package != p->own.package) {
			if (!other_pkg++) {
				remote = c;
				remote_loc = loc;
			}
			continue;
		}
		if (loc.core == p->own.core)
			continue; /* a thread of the same core: shares L1D and L2 */
		p->cpu = c;
		p->at = loc;
		p->known = true;
		return 0;
	}
	if (other_pkg) {
		p->cpu = remote;
		p->at = remote_loc;
		p->known = true;
		return 0;
	}
	/* One package, holding only cpu and the other threads of its core. */
	pp_snprintf(why, why_size,
		    "no other core in package %u and no other package: its other CPUs are "
		    "threads of its core, which share its L1D and L2 (no HITM)",
		    p->own.package);
	return -1;
}

bool partner_remote(const struct partner *p)
{
	return p->known && p->at.package != p->own.package;
}

void partner_text(const struct partner *p, char *buf, size_t size)
{
	if (!p->known)
		pp_snprintf(buf, size, "partner CPU %u (topology not given by the firmware%s)",
			    p->cpu, p->alike ? ": one location for every CPU" : "");
	else
		pp_snprintf(buf, size, "partner CPU %u (package %u, core %u, thread %u)", p->cpu,
			    p->at.package, p->at.core, p->at.thread);
}
