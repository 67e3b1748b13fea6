/* SPDX-License-Identifier: MIT */
/*
 * errata.h - the errata table: one row per published erratum or Linux quirk
 * that takes something away from PEBS on a part (family, model, steppings,
 * a microcode bound, record formats), what it takes away and its source.
 * pmu_pebs_usable() (cpu_pebs.h) asks it for PEBS off; the job names the
 * rows that apply to each CPU (docs/ERRATA.md).
 */
#ifndef PP_PMU_ERRATA_H
#define PP_PMU_ERRATA_H

#include "cpu.h"

enum errata_effect {
	ERRATA_PEBS_OFF,	/* PEBS unusable: every PEBS verdict is a SKIP naming the row */
	ERRATA_RECORDS_DROPPED, /* some records dropped by rule: counted, expected */
};

/* What a row rests on: Linux's code alone, or a published text read as well. */
enum errata_basis {
	ERRATA_LINUX_CODE, /* the Linux function named; the spec update not read */
	ERRATA_TEXT_READ,  /* the SDM or spec-update text named was read too */
};

#define ERRATA_ANY_STEPPING 0xffffu
#define ERRATA_NO_UCODE_FIX 0xffffffffu /* no microcode revision lifts it */
#define ERRATA_ANY_FMT	    (-1)

struct errata_row {
	const char *id;	       /* short name, on the console and in results.json */
	uint8_t family, model; /* display family/model; 0: any */
	uint16_t steppings;    /* bit N: stepping N (ERRATA_ANY_STEPPING) */
	uint32_t ucode_below;  /* applies while the microcode is below it (or unknown) */
	int8_t fmt_lo, fmt_hi; /* PEBS record formats it applies to (ERRATA_ANY_FMT) */
	enum errata_effect effect;
	const char *what;   /* what it takes away, in words */
	const char *source; /* erratum IDs, Linux function, SDM section */
	enum errata_basis basis;
};

unsigned int errata_count(void);
const struct errata_row *errata_at(unsigned int i);
bool errata_applies(const struct errata_row *r, const struct cpu_info *ci);
/* The first row with this effect that applies to the CPU, or NULL. */
const struct errata_row *errata_find(const struct cpu_info *ci, enum errata_effect effect);
/* The rows that apply, bit i for errata_at(i). */
uint32_t errata_mask(const struct cpu_info *ci);
const char *errata_effect_name(enum errata_effect effect);
const char *errata_basis_name(enum errata_basis basis);

#endif
