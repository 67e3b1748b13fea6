// SPDX-License-Identifier: MIT
/*
 * drain_efi_stubs.c - linked into bench-drain-efi only, which takes the
 * app's objects one by one (tests/bench/build.mk).  kernels/kstats.o names
 * kernel_insns() for the skid statistics; its definition (kernels/kernels.c)
 * brings the kernels' runtime, the CPU dispatch and the platform along.
 * The drain path never asks for skid (kstats_precision() is not
 * called), so here the kernels have no instructions to find.
 */
#include "kernels/kernel.h"

size_t kernel_insns(uint64_t lo, uint64_t hi, struct kernel_insn *out, size_t max)
{
	(void)lo;
	(void)hi;
	(void)out;
	(void)max;
	return 0;
}
