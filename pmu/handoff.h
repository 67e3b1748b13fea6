/* SPDX-License-Identifier: MIT */
/*
 * handoff.h - what the firmware (or whatever ran before) left in the PMU of
 * one CPU, read before pebsprobe writes anything there, and the findings it
 * makes: one table row per kind (pmu/handoff.c), each with its MSR, its
 * bits, its words and its source.  Pure C through the hw seam: it reads,
 * never writes, and calls no firmware (it runs on the CPU it reads).
 */
#ifndef PP_HANDOFF_H
#define PP_HANDOFF_H

#include "../lib/compat.h"
#include "cpu.h"

/* MSR_SMI_COUNT (SDM Vol. 4, Nehalem and later tables; Linux msr-index.h MSR_SMI_COUNT). */
#define MSR_SMI_COUNT 0x34
/* IA32_PERF_GLOBAL_INUSE, PMU v4+ (SDM Vol. 3B 18.2.4.3). */
#define MSR_IA32_PERF_GLOBAL_INUSE 0x392
#define HANDOFF_MAX_MSRS	   96

struct handoff_msr {
	uint32_t msr;
	bool read; /* false: the read raised #GP (the value is 0) */
	uint64_t val;
};

/* One CPU's PMU as it was found. */
struct handoff_state {
	unsigned int cpu;
	bool valid; /* handoff_read() ran */
	unsigned int n;
	struct handoff_msr msr[HANDOFF_MAX_MSRS];
	uint32_t lvtpc;
	bool has_smi;		   /* MSR_SMI_COUNT read (handoff_smi_present) */
	uint64_t smi;		   /* its value at hand-off */
	uint64_t found;		   /* bit k: finding kind k (handoff_kind_at) was seen */
	uint64_t status_set;	   /* what STATUS_SET can set back (handoff_status_set_bits) */
	uint32_t pmc_unrestorable; /* GP counters a write cannot put back (handoff_pmc_fits) */
};

/*
 * Reads every PMU MSR this CPU has (from ci: the capabilities cpu_probe()
 * found on the same CPU) and LVTPC, and classifies them.  Reads only.
 */
void handoff_read(const struct cpu_info *ci, struct handoff_state *st);

/* The value read for msr, or false when it was not read. */
bool handoff_value(const struct handoff_state *st, uint32_t msr, uint64_t *val);

/*
 * Finding kinds, in table order: the name (results.json, tests), the words
 * of the console line, whether it counts for the firmware-handoff verdict
 * (warn: state left behind) or is a note (a reset value or a capability
 * that still changes what a measurement means), and its source.
 */
struct handoff_kind {
	const char *name;
	const char *words;
	bool warn;
	const char *src;
};
unsigned int handoff_kind_count(void);
const struct handoff_kind *handoff_kind_at(unsigned int k);

/*
 * MSR_SMI_COUNT: present on Intel PMU v3 and later (Linux arch/x86/events/
 * msr.c test_intel lists Nehalem, the first v3 part, and later; Core 2 has
 * none) whose read does not #GP.  Reads it now; false when absent.
 */
bool handoff_smi_read(const struct cpu_info *ci, uint64_t *count);

/*
 * The GLOBAL_STATUS bits IA32_PERF_GLOBAL_STATUS_SET defines on this CPU,
 * which software can set back: none before PMU v4; then the overflow bits
 * of the counters present, 55 and 58-62 (SDM Vol. 4 Table 2-2, 391H; read
 * in the pre-2024 edition, Vol. 3C Table 35-2, which lists 54:35 and 63
 * reserved).  No source read here defines 54 (the arch-PEBS threshold).
 */
uint64_t handoff_status_set_bits(const struct cpu_info *ci);

/*
 * Whether a GP counter value can be written back: through IA32_A_PMCx where
 * PERF_CAPABILITIES[13] says full-width writes work, else only a value
 * that is the sign extension of its bits 31:0 to the counter's width, as
 * a write to IA32_PMCx makes it (SDM Vol. 3B 18.2.6 "Full-Width Writes to
 * Performance Counter Registers").  0x80000000 comes back 0xffff80000000.
 */
bool handoff_pmc_fits(const struct cpu_info *ci, uint64_t value);
/* Bit i: GP counter i held such a value at hand-off and holds another now. */
uint32_t handoff_pmc_lost(const struct handoff_state *st, const struct handoff_state *now);

/*
 * GLOBAL_STATUS bits set at hand-off, clear now, that STATUS_SET does not
 * define (handoff_status_set_bits at hand-off): once the session acked them
 * nothing can set them back, so they are reported, not compared.
 */
uint64_t handoff_unrestorable(const struct handoff_state *st, const struct handoff_state *now);

/*
 * After the run, on the same CPU: `now` read again as `st` was.  Every MSR
 * read at hand-off must hold the same value, except the count of a counter
 * that was counting then (it still counts), GLOBAL_STATUS's overflow bits
 * of such counters, its bits no write can set back
 * (handoff_unrestorable), and the GP counters whose value a write cannot
 * put back (st->pmc_unrestorable, handoff_pmc_fits).  Returns the number of MSRs that differ; the
 * first is described in why ("MSR 0x1d9: 0xc0 at hand-off, 0x0 now").
 */
unsigned int handoff_compare(const struct handoff_state *st, const struct handoff_state *now,
			     char *why, size_t why_size);

#endif
