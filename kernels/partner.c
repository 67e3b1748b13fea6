// SPDX-License-Identifier: MIT
/*
 * partner.c - the other CPU of a two-CPU kernel, from the firmware's
 * topology (partner.h).  EDK II's MpInitLib numbers processors by APIC ID
 * (MpInitLib.c SortApicId), so with SMT on, processor 1 is the second thread
 * of core 0: the next CPU number is no partner.  Across packages a HITM is
 * a remote one (its own data-source encodings), which the sharing kernels'
 * verdicts do not judge: the partner stays in the measured CPU's package.
 */
#include "partner.h"
#include "../lib/fmt.h"

int partner_pick(unsigned int cpu, struct partner *p, char *why, size_t why_size)
{
	unsigned int n = plat_cpu_count(), other_pkg = 0;
	struct plat_cpu_loc loc;

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
		if (loc.package != p->own.package) {
			other_pkg++;
			continue;
		}
		if (loc.core == p->own.core)
			continue; /* a thread of the same core: shares L1D and L2 */
		p->cpu = c;
		p->at = loc;
		p->known = true;
		return 0;
	}
	/* The same package holds only cpu and its siblings (n - other_pkg - 1 of them). */
	pp_snprintf(why, why_size, "no other core in package %u: %s%s", p->own.package,
		    n - other_pkg - 1 ? "its other CPUs are threads of its core, which share its "
					"L1D and L2 (no HITM)"
				      : "it has one CPU",
		    other_pkg ? "; a CPU of another package would be a remote HITM, not judged"
			      : "");
	return -1;
}

void partner_text(const struct partner *p, char *buf, size_t size)
{
	if (!p->known)
		pp_snprintf(buf, size, "partner CPU %u (topology not given by the firmware)",
			    p->cpu);
	else
		pp_snprintf(buf, size, "partner CPU %u (package %u, core %u, thread %u)", p->cpu,
			    p->at.package, p->at.core, p->at.thread);
}
