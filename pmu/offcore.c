// SPDX-License-Identifier: MIT
/*
 * offcore.c - average offcore latency as two counted events, run through
 * the session machinery in counting-only mode (so saving, restoring and
 * fault handling are the session's).
 */
#include "offcore.h"
#include "event.h"
#include "guest.h"
#include "msr.h"
#include "session.h"
#include "uarch.h"
#include "../lib/fmt.h"

/*
 * Big-core OFFCORE_REQUESTS_OUTSTANDING / OFFCORE_REQUESTS names per request
 * type, as perfmon spells them: .DEMAND_DATA_RD (SNB and later files),
 * .DEMAND.READ_DATA (NHM-EP, NHM-EX, WSM-EP files).  The first pair both of
 * which the CPU's perfmon file has is used.
 */
static const char *const big_core_types[][2] = {
    [0] = {"DEMAND_DATA_RD", "DEMAND.READ_DATA"},
    [1] = {"DEMAND_RFO", "DEMAND.RFO"},
    [2] = {"DEMAND_CODE_RD", "DEMAND.READ_CODE"},
};

static bool big_core_events(const struct perfmon_table *t, uint16_t request, char *ev0, char *ev1,
			    size_t size)
{
	static const uint16_t req[] = {OFFCORE_REQ_DMND_DATA_RD, OFFCORE_REQ_DMND_RFO,
				       OFFCORE_REQ_DMND_CODE_RD};
	struct pmu_event e;
	char why[160];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(req); i++) {
		if (req[i] != request)
			continue;
		for (j = 0; j < 2; j++) {
			pp_snprintf(ev0, size, "OFFCORE_REQUESTS_OUTSTANDING.%s",
				    big_core_types[i][j]);
			pp_snprintf(ev1, size, "OFFCORE_REQUESTS.%s", big_core_types[i][j]);
			if (!pmu_event_parse(t, ev0, &e, why, sizeof(why)) &&
			    !pmu_event_parse(t, ev1, &e, why, sizeof(why)))
				return true;
		}
	}
	return false;
}

/*
 * Counts ev0 and ev1 over the kernel: the weighted cycles and the requests.
 * Not inlined: the session's config and result beside the caller's event
 * lookup would make a frame over 1 KiB (the Makefile's -Wframe-larger-than).
 */
static __attribute__((noinline)) int count_pair(const struct cpu_info *ci, const char *ev0,
						const char *ev1, void (*kernel)(void *arg),
						void *arg, struct offcore_result *r, char *why,
						size_t why_size)
{
	struct session_cfg cfg;
	struct session_result res;
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	cfg.ci = ci;
	cfg.count_only = true;
	cfg.count_events[0] = ev0;
	cfg.count_events[1] = ev1;
	cfg.n_count_events = 2;
	rc = session_run(&cfg, kernel, arg, &res, why, why_size);
	if (rc == 0) {
		r->weighted_cycles = res.counts[0];
		r->requests = res.counts[1];
		r->avg_latency_x100 = r->requests ? r->weighted_cycles * 100 / r->requests : 0;
		pp_snprintf(r->how, sizeof(r->how), "%s / %s", res.count_desc[0],
			    res.count_desc[1]);
		session_result_free(&res);
	}
	return rc;
}

int offcore_avg_latency(const struct cpu_info *ci, uint16_t request, uint64_t snoop,
			void (*kernel)(void *arg), void *arg, struct offcore_result *r, char *why,
			size_t why_size)
{
	const struct uarch_info *ua = uarch_for_cpu(ci);
	char ev0[64], ev1[64];

	memset(r, 0, sizeof(*r));
	if (!ua || ci->n_gp < 2) {
		pp_snprintf(why, why_size,
			    "offcore latency needs a known Intel PMU with 2 counters");
		return SESSION_SKIP;
	}
	/*
	 * SDM Vol. 3B 18.6.3: both registers hold the request type and
	 * OUTSTANDING[38] / ANY_RESPONSE[16], "while setting the remaining bits
	 * to 0".  A snoop filter on RSP1 would count a subset of the requests
	 * whose cycles RSP0 weighs, and the ratio would not be the latency.
	 */
	if (!request || snoop) {
		pp_snprintf(why, why_size,
			    "offcore request 0x%x / snoop 0x%llx: the request type "
			    "must be non-zero and no snoop filter can be set (SDM 18.6.3: "
			    "all other bits 0)",
			    request, (unsigned long long)snoop);
		return SESSION_REFUSED;
	}
	if (ua->flags & UA_OFFCORE_AVG_LAT) {
		if (guest_takes(ci, GUEST_LOSS_OFFCORE, why, why_size))
			return SESSION_SKIP;
		/*
		 * SDM Vol. 3B 18.6.3: RSP0 = request | OUTSTANDING[38], the rest 0;
		 * RSP1 = the same request | ANY_RESPONSE[16].  OFFCORE_RESPONSE_0 is
		 * event B7H umask 01H, _1 is B7H umask 02H on Silvermont/Goldmont.
		 */
		pp_snprintf(ev0, sizeof(ev0), "event=0xb7,umask=0x1,offcore_rsp=0x%llx",
			    (unsigned long long)(request | OFFCORE_OUTSTANDING));
		pp_snprintf(ev1, sizeof(ev1), "event=0xb7,umask=0x2,offcore_rsp=0x%llx",
			    (unsigned long long)(request | OFFCORE_ANY_RESPONSE));
		r->atom_method = true;
	} else {
		const struct perfmon_table *t = cpu_perfmon_table(ci);

		if (!big_core_events(t, request, ev0, ev1, sizeof(ev0))) {
			pp_snprintf(
			    why, why_size,
			    "on %s only one demand request type (data read, "
			    "RFO, code read) can be measured, and only where the perfmon file "
			    "(%s) has both OFFCORE_REQUESTS and OFFCORE_REQUESTS_OUTSTANDING "
			    "for it (request 0x%x)",
			    ua->name, t ? perfmon_table_name(t) : "none", request);
			return SESSION_REFUSED;
		}
	}
	return count_pair(ci, ev0, ev1, kernel, arg, r, why, why_size);
}
