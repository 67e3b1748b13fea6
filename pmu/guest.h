/* SPDX-License-Identifier: MIT */
/*
 * guest.h - what a hypervisor takes away from its guest's PMU, as table
 * rows read from the hypervisor's source (pmu/guest.c; docs/KVM.md): a
 * verdict a guest cannot have is a SKIP naming the row, never a FAIL of
 * the machine.
 */
#ifndef PP_PMU_GUEST_H
#define PP_PMU_GUEST_H

#include "cpu.h"

/* What a row takes away. */
enum guest_loss {
	GUEST_LOSS_PMU,	     /* no architectural PMU at all */
	GUEST_LOSS_PEBS,     /* no PEBS (PERF_CAPABILITIES format 0, DS clear) */
	GUEST_LOSS_ADAPTIVE, /* no adaptive PEBS: basic records only */
	GUEST_LOSS_LDLAT,    /* MSR_PEBS_LD_LAT_THRESHOLD (3F6H) #GPs */
	GUEST_LOSS_FRONTEND, /* MSR_PEBS_FRONTEND (3F7H) #GPs */
	GUEST_LOSS_OFFCORE,  /* MSR_OFFCORE_RSP_0/1 (1A6H/1A7H) #GP */
};

struct guest_rule {
	const char *id; /* short name: "kvm-no-ldlat" */
	enum cpu_hypervisor hv;
	enum guest_loss loss;
	bool (*applies)(const struct cpu_info *ci);
	const char *what;   /* what the guest lacks, in words */
	const char *source; /* the hypervisor's function, file and commit */
	const char *basis;  /* "code": read in the code; "code+commit": and its commit text */
};

size_t guest_rule_count(void);
const struct guest_rule *guest_rule_at(size_t i);
bool guest_rule_applies(const struct guest_rule *g, const struct cpu_info *ci);

/*
 * The row that takes loss away on this CPU, or NULL (bare metal, another
 * hypervisor, or a guest that has it).
 */
const struct guest_rule *guest_rule_for(const struct cpu_info *ci, enum guest_loss loss);

/*
 * true when a row takes loss away, with why = "KVM guest: WHAT (rule ID;
 * SOURCE)", the SKIP reason; false and why untouched otherwise.
 */
bool guest_takes(const struct cpu_info *ci, enum guest_loss loss, char *why, size_t why_size);

/* INFO lines: each row that applies, for the capability report. */
void guest_report(const struct cpu_info *ci);

#endif
