// SPDX-License-Identifier: MIT
/*
 * errata.c - the errata table (errata.h, docs/ERRATA.md).  Rows keep the
 * shape of their source: Linux arch/x86/events/intel/core.c (the quirks and
 * the pebs_ucodes table, read as x86_match_min_microcode_rev reads it) and
 * ds.c (intel_pmu_drain_pebs_nhm's status handling).
 */
#include "errata.h"

#define STEP(n) ((uint16_t)(1u << (n)))
#define ALWAYS	ERRATA_NO_UCODE_FIX
#define ANY	ERRATA_ANY_STEPPING
#define FMT_ANY ERRATA_ANY_FMT, ERRATA_ANY_FMT

/*
 * core.c intel_clovertown_quirk (installed by intel_pmu_init for Core 2
 * Merom, 06_0F, only): its comment names AJ67 (CPL leaks), AJ68 (the PMI one
 * event late), AJ69 (GLOBAL_STATUS[62] only with DEBUGCTL[12]) and AJ106
 * (FREEZE_LBRS_ON_PMI with PEBS), and it sets x86_pmu.pebs = 0.
 *
 * core.c pebs_ucodes / intel_snb_pebs_broken (intel_sandybridge_quirk):
 * x86_match_min_microcode_rev() matches family, model and stepping; a
 * stepping with no row finds nothing and PEBS stays broken whatever the
 * microcode, so each model has a row for its listed steppings' minimums and
 * one for the others.
 *
 * ds.c intel_pmu_drain_pebs_nhm: below record format 3 a record's status
 * (masked with PEBS_ENABLE) may be zero, "PEBS is racing with clearing of
 * GLOBAL_STATUS" (attributed to the sole PEBS event, else dropped), or name
 * several PEBS counters, a collision (dropped, perf_log_lost_samples); from
 * format 3 each set bit counts.  SDM Vol. 3B 18.13.1.1 (Skylake): with
 * format 0010b the status at 90H may name several overflowed PEBS counters
 * and "software cannot correlate"; format 0011b's 90H is the applicable
 * counters field.
 */
// clang-format off
static const struct errata_row rows[] = {
	{"core2-merom", 6, 0x0f, ANY, ALWAYS, FMT_ANY, ERRATA_PEBS_OFF,
	 "PEBS unreliable: CPL leaks, PMI one event late, GLOBAL_STATUS[62] only "
	 "with DEBUGCTL[12], no LBR freeze with PEBS",
	 "AJ67/AJ68/AJ69/AJ106 as Linux core.c intel_clovertown_quirk names them",
	 ERRATA_LINUX_CODE},
	{"snb-ucode", 6, 0x2a, STEP(7), 0x28, FMT_ANY, ERRATA_PEBS_OFF,
	 "PEBS broken below microcode 0x28 (stepping 7)",
	 "Linux core.c pebs_ucodes, intel_snb_pebs_broken", ERRATA_LINUX_CODE},
	{"snb-stepping", 6, 0x2a, (uint16_t)~STEP(7), ALWAYS, FMT_ANY, ERRATA_PEBS_OFF,
	 "PEBS broken on a stepping no microcode is listed for (only 7 is)",
	 "Linux core.c pebs_ucodes, x86_match_min_microcode_rev", ERRATA_LINUX_CODE},
	{"snbep-c1-ucode", 6, 0x2d, STEP(6), 0x618, FMT_ANY, ERRATA_PEBS_OFF,
	 "PEBS broken below microcode 0x618 (stepping 6)",
	 "Linux core.c pebs_ucodes, intel_snb_pebs_broken", ERRATA_LINUX_CODE},
	{"snbep-c2-ucode", 6, 0x2d, STEP(7), 0x70c, FMT_ANY, ERRATA_PEBS_OFF,
	 "PEBS broken below microcode 0x70c (stepping 7)",
	 "Linux core.c pebs_ucodes, intel_snb_pebs_broken", ERRATA_LINUX_CODE},
	{"snbep-stepping", 6, 0x2d, (uint16_t)~(STEP(6) | STEP(7)), ALWAYS, FMT_ANY,
	 ERRATA_PEBS_OFF,
	 "PEBS broken on a stepping no microcode is listed for (only 6 and 7 are)",
	 "Linux core.c pebs_ucodes, x86_match_min_microcode_rev", ERRATA_LINUX_CODE},
	{"pebs-status-zero", 0, 0, ANY, ALWAYS, 1, 2, ERRATA_RECORDS_DROPPED,
	 "a record's status may be zero: the sole PEBS event's, else dropped",
	 "Linux ds.c intel_pmu_drain_pebs_nhm (formats below 3)", ERRATA_LINUX_CODE},
	{"pebs-collision", 0, 0, ANY, ALWAYS, 1, 2, ERRATA_RECORDS_DROPPED,
	 "a record naming several PEBS counters is a collision: dropped, lost",
	 "Linux ds.c intel_pmu_drain_pebs_nhm; SDM Vol. 3B 18.13.1.1 (format 2 vs 3)",
	 ERRATA_TEXT_READ},
};
// clang-format on

unsigned int errata_count(void)
{
	return ARRAY_SIZE(rows);
}

const struct errata_row *errata_at(unsigned int i)
{
	return i < ARRAY_SIZE(rows) ? &rows[i] : NULL;
}

/* PERF_CAPABILITIES[11:8], -1 where the CPU has none (no PDCM). */
static int pebs_format(const struct cpu_info *ci)
{
	return ci->has_perf_caps ? (int)PERF_CAP_PEBS_FMT(ci->perf_caps) : -1;
}

bool errata_applies(const struct errata_row *r, const struct cpu_info *ci)
{
	int fmt = pebs_format(ci);

	if (ci->vendor != VENDOR_INTEL)
		return false;
	if (r->family && (r->family != ci->family || r->model != ci->model))
		return false;
	if (ci->stepping > 15 || !(r->steppings & STEP(ci->stepping)))
		return false;
	if (r->fmt_lo != ERRATA_ANY_FMT && (fmt < r->fmt_lo || fmt > r->fmt_hi))
		return false;
	/* A bound applies while the revision is below it, or unknown (Linux: 0 < any). */
	return r->ucode_below == ALWAYS || !ci->has_microcode || ci->microcode < r->ucode_below;
}

const struct errata_row *errata_find(const struct cpu_info *ci, enum errata_effect effect)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (rows[i].effect == effect && errata_applies(&rows[i], ci))
			return &rows[i];
	return NULL;
}

uint32_t errata_mask(const struct cpu_info *ci)
{
	uint32_t m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (errata_applies(&rows[i], ci))
			m |= 1u << i;
	return m;
}

const char *errata_effect_name(enum errata_effect effect)
{
	return effect == ERRATA_PEBS_OFF ? "pebs-off" : "records-dropped";
}

const char *errata_basis_name(enum errata_basis basis)
{
	return basis == ERRATA_LINUX_CODE ? "linux-code" : "text-read";
}
