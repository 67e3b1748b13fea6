/* SPDX-License-Identifier: MIT */
/*
 * extra_regs.h - the writable bits of MSR_OFFCORE_RSP0/1 on one CPU.  The
 * generation's row (pmu/uarch_table.c offcore_valid) gives them, except where
 * Linux chooses the valid mask by model within one generation: those models
 * have a row of their own here, naming the source.  A bit outside the mask
 * makes wrmsr raise #GP (the reason Linux keeps the masks).
 */
#ifndef PP_PMU_EXTRA_REGS_H
#define PP_PMU_EXTRA_REGS_H

#include "uarch.h"

/* Writable bits of MSR_OFFCORE_RSP<rsp> (rsp 0 or 1); 0: the register does not exist. */
uint64_t extra_regs_offcore_valid_mask(const struct uarch_info *ua, const struct cpu_info *ci,
				       unsigned int rsp);

#endif
