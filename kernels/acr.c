// SPDX-License-Identifier: MIT
/*
 * acr.c - the acr-reload kernel's verdict (acr.h).
 */
#include "acr.h"
#include "../lib/fmt.h"

bool kernels_acr_judge(const struct acr_result *r, char *why, size_t why_size)
{
	uint64_t wmask = r->width >= 64 ? ~0ULL : (1ULL << r->width) - 1;
	/* Instructions since the cause counter's last reload, as each counter saw them. */
	uint64_t since_c = (r->cause + r->period) & wmask;
	uint64_t since_r = (r->reloaded - r->reload) & wmask;
	uint64_t reloads = r->total >= since_r ? (r->total - since_r) / r->period : 0;
	/*
	 * The cause counter reloads itself (its CFG_B names it): its overflow
	 * bit in IA32_PERF_GLOBAL_STATUS is never set, per the SDM as Linux
	 * 1271aeccc307 "perf/x86/intel: Disable PMI for self-reloaded ACR
	 * events" quotes it (core.c intel_pmu_enable_event clears EVTSEL.INT
	 * for such an event: no overflow bit for the PMI to find).
	 */
	bool c_ovf = r->status & BIT_ULL(r->ctr.cause);

	if (r->total < 2ULL * r->period || r->total >= r->reload) {
		pp_snprintf(why, why_size,
			    "cannot tell: the total gp%d counted %llu instructions, outside "
			    "[%u, %u) (two periods, the reload value)",
			    r->ctr.total, (unsigned long long)r->total, 2 * r->period, r->reload);
		return false;
	}
	if (since_c >= r->period) {
		pp_snprintf(why, why_size,
			    "cause gp%d did not reload itself: it holds 0x%llx, %llu past "
			    "-%u (total %llu)",
			    r->ctr.cause, (unsigned long long)r->cause, (unsigned long long)since_c,
			    r->period, (unsigned long long)r->total);
		return false;
	}
	if (r->reloaded < r->reload || since_r >= r->period) {
		pp_snprintf(why, why_size,
			    "reloaded gp%d holds %llu, not the reload value %u plus less than "
			    "%u: no reload from CFG_C on gp%d's overflow (total %llu)",
			    r->ctr.reloaded, (unsigned long long)r->reloaded, r->reload, r->period,
			    r->ctr.cause, (unsigned long long)r->total);
		return false;
	}
	if (c_ovf) {
		pp_snprintf(why, why_size,
			    "cause gp%d reloaded itself but its IA32_PERF_GLOBAL_STATUS bit is "
			    "set (0x%llx): the SDM has it never set for a self-reloaded counter "
			    "(Linux 1271aeccc307) (total %llu)",
			    r->ctr.cause, (unsigned long long)r->status,
			    (unsigned long long)r->total);
		return false;
	}
	pp_snprintf(why, why_size,
		    "gp%d = %u + %llu after %llu instructions (gp%d): reloaded from CFG_C on "
		    "each of ~%llu overflows of gp%d (period %u, %llu past its last reload, "
		    "its overflow bit clear)",
		    r->ctr.reloaded, r->reload, (unsigned long long)since_r,
		    (unsigned long long)r->total, r->ctr.total, (unsigned long long)reloads,
		    r->ctr.cause, r->period, (unsigned long long)since_c);
	return true;
}
