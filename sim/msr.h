/* SPDX-License-Identifier: MIT */
/*
 * msr.h - the simulated MSR file's rows, shared by sim/msr.c (the lookup,
 * the counters and the global controls) and sim/msr_pebs.c (the PEBS and
 * DS MSRs).  An MSR is found in the first row whose range holds it; the
 * rows of the two tables do not overlap (sim_msr_first_shared() finds one
 * that would; test_sim_msr checks it).
 */
#ifndef PP_SIM_MSR_H
#define PP_SIM_MSR_H

#include "sim_int.h"

enum msr_count { ONE, PER_GP, PER_FIXED, PER_FIXED_LEGACY, PAIR };

struct msr_def {
	uint32_t base;
	enum msr_count count;
	uint32_t stride;
	const char *name;
	bool (*present)(const struct sim_cpu *c, unsigned int i);
	enum hw_fault (*rd)(struct sim_cpu *c, unsigned int i, uint64_t *v);
	enum hw_fault (*wr)(struct sim_cpu *c, unsigned int i, uint64_t v);
};

/* A write with a bit outside `writable` set: #GP (SDM Vol. 4, reserved bits). */
static inline enum hw_fault sim_msr_check(uint64_t v, uint64_t writable)
{
	return (v & ~writable) ? HW_GP : HW_OK;
}

#define SIMPLE_REG(field)                                                                          \
	static enum hw_fault rd_##field(struct sim_cpu *c, unsigned int i, uint64_t *v)            \
	{                                                                                          \
		*v = c->field;                                                                     \
		return HW_OK;                                                                      \
	}

/* The PEBS and DS MSRs' rows (sim/msr_pebs.c). */
extern const struct msr_def sim_msr_pebs_table[];
extern const size_t sim_msr_pebs_count;

/* CPUID.1:EDX.DS[21]: IA32_DS_AREA exists. */
bool sim_msr_has_ds(const struct sim_cpu *c, unsigned int i);
/* Arch-PEBS enumerated (CPUID.23H): PEBS_BASE, PEBS_INDEX and CFG_C exist. */
bool sim_msr_has_arch_pebs(const struct sim_cpu *c, unsigned int i);

#endif
