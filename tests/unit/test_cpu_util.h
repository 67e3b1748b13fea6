/* SPDX-License-Identifier: MIT */
/*
 * test_cpu_util.h - the fake hw_ops of the cpu_probe() tests (test_pmu_cpu.c,
 * test_pmu_cpu_models.c): CPUID leaves and MSR values of a recorded CPU
 * (a profile), the MSR reads and writes counted, the report lines captured.
 */
#ifndef TEST_CPU_UTIL_H
#define TEST_CPU_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "pmu/perfmon.h"
#include "pmu/plan.h"
#include "pmu/uarch.h"
#include "test_util.h"

struct leaf {
	uint32_t leaf, sub;
	struct cpuid_regs r;
};

struct msr {
	uint32_t msr;
	uint64_t val;
};

struct profile {
	const struct leaf *leaves;
	const struct msr *msrs; /* ends with msr == 0 */
};

static pp_unused const struct profile *cur;
static pp_unused unsigned int msr_reads[0x400], msr_writes[0x400], msr_gp;

/* Four ASCII characters as CPUID returns them in a register (little-endian). */
#define S4(a, b, c, d)                                                                             \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static pp_unused void fake_cpuid(uint32_t leaf, uint32_t sub, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (const struct leaf *l = cur->leaves; l->leaf || l->r.eax || l->r.ebx; l++)
		if (l->leaf == leaf && l->sub == sub) {
			*r = l->r;
			return;
		}
}

static pp_unused enum hw_fault fake_rdmsr(uint32_t msr, uint64_t *val)
{
	if (msr < 0x400)
		msr_reads[msr]++;
	for (const struct msr *m = cur->msrs; m && m->msr; m++)
		if (m->msr == msr) {
			*val = m->val;
			return HW_OK;
		}
	msr_gp++;
	return HW_GP;
}

static pp_unused enum hw_fault fake_wrmsr(uint32_t msr, uint64_t val)
{
	if (msr < 0x400)
		msr_writes[msr]++;
	/* Only the microcode-signature reset is expected, with 0. */
	if (msr == MSR_IA32_BIOS_SIGN_ID && val == 0)
		return HW_OK;
	msr_gp++;
	return HW_GP;
}

static pp_unused uint64_t fake_rdtsc(void)
{
	return 0;
}

static pp_unused const struct hw_ops fake_ops = {
    .name = "fake",
    .cpuid = fake_cpuid,
    .rdmsr = fake_rdmsr,
    .wrmsr = fake_wrmsr,
    .rdtsc = fake_rdtsc,
};

/* A report line, whole (test_util.h captures them). */
static pp_unused bool has_line(const char *want)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (!strcmp(test_lines[i], want))
			return true;
	fprintf(stderr, "missing line: %s\ngot:\n", want);
	test_lines_dump(stderr);
	return false;
}

static pp_unused void run_probe(const struct profile *p, struct cpu_info *ci)
{
	cur = p;
	memset(msr_reads, 0, sizeof(msr_reads));
	memset(msr_writes, 0, sizeof(msr_writes));
	msr_gp = 0;
	test_lines_capture();
	hw_install(&fake_ops);
	cpu_probe(ci);
	cpu_report(ci);
}

#define VENDOR_INTEL_REGS(max)                                                                     \
	{                                                                                          \
		max, 0x756e6547 /* Genu */, 0x6c65746e /* ntel */, 0x49656e69 /* ineI */           \
	}

#endif
