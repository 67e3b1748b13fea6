/* SPDX-License-Identifier: MIT */
/*
 * hw.h - the one seam between pebsprobe and the processor.
 *
 * pmu/, ds/ and kernels/ reach the machine only through these calls.  Two
 * backends implement struct hw_ops: the real instructions with a #GP trap
 * (efi/hw_real.c, x86 only) and the simulated PMU (sim/).  Neither pmu/ nor
 * ds/ nor kernels/ knows which one is installed.
 *
 * Every MSR access goes through hw_rdmsr()/hw_wrmsr(), which print the
 * trace=msr lines ("MSR: wrmsr 0x<msr> 0x<value>") and return a fault status
 * instead of hanging the machine on a #GP.
 */
#ifndef PP_HW_H
#define PP_HW_H

#include "../lib/compat.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Fault status of an MSR access. */
enum hw_fault {
	HW_OK = 0,
	HW_GP = 1, /* the access raised #GP (unknown MSR, reserved bits, rule) */
};

/* Kinds of memory access a kernel reports to the simulator. */
enum hw_access_kind {
	HW_LOAD = 1,
	HW_STORE = 2,
	HW_LOCKED = 4, /* part of a locked read-modify-write */
	/*
	 * The load's address is the value of the previous load (a pointer
	 * chase): nothing after it can start before its data arrive.
	 */
	HW_DEPENDENT = 8,
};

/* Called with interrupts as the firmware left them, on a PMI. */
typedef void (*hw_pmi_fn)(void *ctx);

struct hw_ops {
	const char *name; /* "hw" or "sim" */
	bool simulated;
	void (*cpuid)(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
	enum hw_fault (*rdmsr)(uint32_t msr, uint64_t *val);
	enum hw_fault (*wrmsr)(uint32_t msr, uint64_t val);
	uint64_t (*rdtsc)(void);
	/* Local APIC registers by offset (0x340 LVTPC, 0xB0 EOI); xAPIC or x2APIC. */
	uint32_t (*apic_read)(uint32_t reg);
	void (*apic_write)(uint32_t reg, uint32_t val);
	/* Installs fn as the handler of the PMI vector; NULL removes it. */
	int (*set_pmi_handler)(uint8_t vector, hw_pmi_fn fn, void *ctx);
	/*
	 * Interrupts enabled for one instruction, then as they were: an
	 * interrupt the local APIC holds (IRR) is taken now, by the handler
	 * installed now.  NULL: nothing.
	 */
	void (*irq_window)(void);
	/*
	 * Simulator only (NULL on real hardware): a kernel reports one retired
	 * memory access at instruction address ip (ip_next: the instruction
	 * after it, 0 if not known), and instructions retired without a
	 * memory access.  The real kernels never call these: see
	 * kernels/kernel.h for the instrumented build of each kernel.
	 */
	void (*mem_access)(uint64_t ip, uint64_t ip_next, uint64_t addr, uint32_t size,
			   uint32_t kind);
	void (*retire)(uint64_t ip, uint64_t n_instructions);
	/*
	 * Simulator only: the other CPU's access of a two-CPU kernel, reported
	 * to that CPU's simulated core (kernels/kernel.h kernel_partner_access).
	 */
	void (*mem_access_cpu)(unsigned int cpu, uint64_t ip, uint64_t addr, uint32_t size,
			       uint32_t kind);
	/*
	 * The paging control registers of the calling CPU (SDM Vol. 3A 2.5):
	 * CR3, the root of the page tables with its PCID or PWT/PCD bits, and
	 * CR4 (PAE, PGE, PCIDE, LA57).  NULL: the backend has no paging, and
	 * pmu/paging.c builds no tables.
	 */
	uint64_t (*read_cr3)(void);
	void (*write_cr3)(uint64_t cr3);
	uint64_t (*read_cr4)(void);
	/*
	 * Simulator only (NULL on real hardware, whose firmware has mapped all
	 * memory before the app starts): the simulated firmware maps
	 * [addr, addr + len) into its page tables, identity, with its page size.
	 */
	void (*fw_map)(uint64_t addr, uint64_t len);
	/*
	 * The CR3 the firmware runs under on the boot CPU: its own page
	 * tables, the only ones a firmware call may find loaded (the platform
	 * checks, lib/platform.h).  NULL or 0: not known.
	 */
	uint64_t (*fw_cr3)(void);
};

/* Installs a backend; returns the previous one. */
const struct hw_ops *hw_install(const struct hw_ops *ops);
const struct hw_ops *hw_current(void);
bool hw_is_simulated(void);

void hw_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
enum hw_fault hw_rdmsr(uint32_t msr, uint64_t *val);
enum hw_fault hw_wrmsr(uint32_t msr, uint64_t val);
uint64_t hw_rdtsc(void);
uint32_t hw_apic_read(uint32_t reg);
void hw_apic_write(uint32_t reg, uint32_t val);
int hw_set_pmi_handler(uint8_t vector, hw_pmi_fn fn, void *ctx);
void hw_irq_window(void);

/*
 * CR3 and CR4 through the backend (0 where it has no paging), and the
 * simulated firmware's mapping (nothing on real hardware).  hw_write_cr3
 * prints "MSR: wrcr3 0x<value> (was 0x<old>)" with the trace on: it shows which
 * page tables a kernel ran under and that the firmware's came back.
 */
bool hw_has_paging(void);
uint64_t hw_read_cr3(void);
void hw_write_cr3(uint64_t cr3);
uint64_t hw_read_cr4(void);
void hw_fw_map(uint64_t addr, uint64_t len);
uint64_t hw_fw_cr3(void); /* hw_ops.fw_cr3, 0 where not known */

/* trace=msr: print every MSR access (and CR3 write) through report_line(). */
void hw_set_msr_trace(bool on);

/*
 * Fault injection for tests: the n-th MSR access from now (1 = the next one)
 * fails with #GP whatever the backend would do.  0 disables.  Counts rdmsr
 * and wrmsr alike.
 */
void hw_inject_fault_at(unsigned long n);
/* How many MSR accesses went through the seam since the last reset. */
unsigned long hw_msr_access_count(void);
void hw_reset_msr_access_count(void);

#endif
