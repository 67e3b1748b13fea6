// SPDX-License-Identifier: MIT
/*
 * cpu_pebs.c - whether this CPU can do PEBS at all, and why not: vendor,
 * architectural PMU, Debug Store, MISC_ENABLE, record format, the
 * generation table, errata and microcode (cpu_pebs.h).
 */
#include "cpu_pebs.h"
#include "errata.h"
#include "guest.h"
#include "plan.h"
#include "uarch.h"
#include "../lib/fmt.h"

/*
 * A PMU the CPU does not show: under a hypervisor that usually means it is
 * not passed through, and the reason says so (QEMU TCG emulates none).
 */
static bool absent(const struct cpu_info *ci, char *why, size_t why_size, const char *fmt, ...)
    pp_printf(4, 5);
static bool absent(const struct cpu_info *ci, char *why, size_t why_size, const char *fmt, ...)
{
	const char *hint = ci->hypervisor == HV_TCG    ? " (QEMU TCG emulates no PMU)"
			   : ci->hypervisor != HV_NONE ? " (hypervisor: is the PMU passed through?)"
						       : "";
	struct strbuf sb;
	char reason[160];
	va_list ap;

	va_start(ap, fmt);
	pp_vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	strbuf_init(&sb, why, why_size);
	strbuf_puts(&sb, reason);
	strbuf_puts(&sb, hint);
	return false;
}

/*
 * IA32_PERF_GLOBAL_CTRL, _STATUS and _OVF_CTRL, which every session writes,
 * exist from architectural PMU version 2 (SDM Vol. 3B 18.2.2; Linux core.c
 * intel_pmu_reset touches them only with version >= 2; kvm-unit-tests
 * pmu_pebs.c wants version 2 for PEBS).
 */
bool cpu_pebs_has_global_ctrl(const struct cpu_info *ci, char *why, size_t why_size)
{
	if (ci->pmu_version >= 2)
		return true;
	pp_snprintf(why, why_size,
		    "architectural PMU version %u: IA32_PERF_GLOBAL_CTRL/STATUS exist from "
		    "version 2 (CPUID.0AH:EAX[7:0])",
		    ci->pmu_version);
	return false;
}

bool pmu_pebs_usable(const struct cpu_info *ci, char *why, size_t why_size)
{
	const struct uarch_info *ua;
	const struct errata_row *err;
	bool arch = uarch_arch_pebs(ci);
	int fmt;

	/* What the hypervisor takes away, named with its source (pmu/guest.c). */
	if (guest_takes(ci, GUEST_LOSS_PMU, why, why_size) ||
	    guest_takes(ci, GUEST_LOSS_PEBS, why, why_size))
		return false;
	if (ci->vendor != VENDOR_INTEL)
		return absent(ci, why, why_size, "not an Intel CPU (vendor '%s'): no PEBS",
			      ci->vendor_str);
	if (ci->pmu_version < 1 || !ci->n_gp)
		return absent(ci, why, why_size,
			      "no architectural PMU (CPUID.0AH version %u, %u counters)",
			      ci->pmu_version, ci->n_gp);
	if (!cpu_pebs_has_global_ctrl(ci, why, why_size))
		return false;
	if (!arch && !ci->ds)
		return absent(ci, why, why_size, "no Debug Store (CPUID.1:EDX[21] DS clear)");
	if (!arch && !ci->dtes64)
		return absent(
		    ci, why, why_size,
		    "no 64-bit DS save area (CPUID.1:ECX[2] DTES64 clear; Linux refuses too)");
	if (!ci->has_misc_enable)
		return absent(ci, why, why_size,
			      "IA32_MISC_ENABLE unreadable: cannot tell if PEBS is available");
	if (ci->misc_enable & MISC_ENABLE_PEBS_UNAVAIL)
		return absent(ci, why, why_size, "IA32_MISC_ENABLE[12] set: PEBS unavailable");
	fmt = plan_pebs_format(ci);
	if (fmt < 0) {
		if (ci->has_perf_caps)
			pp_snprintf(why, why_size,
				    "PEBS record format %u unknown (PERF_CAPABILITIES[11:8])",
				    (unsigned int)PERF_CAP_PEBS_FMT(ci->perf_caps));
		else
			pp_snprintf(why, why_size,
				    "no IA32_PERF_CAPABILITIES (CPUID.1:ECX[15] PDCM clear): PEBS "
				    "format unknown");
		return false;
	}
	ua = uarch_for_cpu(ci);
	if (!ua) {
		pp_snprintf(
		    why, why_size,
		    "family %u model 0x%x (core type 0x%x) is not in the microarchitecture table",
		    ci->family, ci->model, ci->core_type);
		return false;
	}
	if (ci->hybrid && (ci->core_type == CORE_TYPE_NONE || !ua->pebs_gp)) {
		pp_snprintf(why, why_size, "hybrid core type 0x%x has no PEBS", ci->core_type);
		return false;
	}
	/* A published erratum or Linux quirk that turns PEBS off here (pmu/errata.c). */
	err = errata_find(ci, ERRATA_PEBS_OFF);
	if (err) {
		pp_snprintf(why, why_size, "erratum %s: %s, microcode 0x%x, stepping %u (%s)",
			    err->id, err->what, ci->microcode, ci->stepping, err->source);
		return false;
	}
	return true;
}
