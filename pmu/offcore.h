/* SPDX-License-Identifier: MIT */
/*
 * offcore.h - average offcore request latency (SDM Vol. 3B 18.6.3 "Average
 * Offcore Request Latency Measurement"):
 *   Silvermont/Goldmont: weighted cycles of outstanding requests through
 *   MSR_OFFCORE_RSP0 with OUTSTANDING[38] on one counter, the requests
 *   through MSR_OFFCORE_RSP1 with ANY_RESPONSE[16] on the other; latency =
 *   weighted cycles / requests.
 *   Big cores (Nehalem and later): the same ratio from
 *   OFFCORE_REQUESTS_OUTSTANDING.<type> / OFFCORE_REQUESTS.<type>.
 */
#ifndef PP_PMU_OFFCORE_H
#define PP_PMU_OFFCORE_H

#include "cpu.h"

/* MSR_OFFCORE_RSPx request types (bits 15:0), SDM Table 18-16/18-17 family. */
#define OFFCORE_REQ_DMND_DATA_RD 0x0001
#define OFFCORE_REQ_DMND_RFO	 0x0002
#define OFFCORE_REQ_DMND_CODE_RD 0x0004

/* Snoop-info bits of MSR_OFFCORE_RSPx (SDM Table 18-17); not usable for the average. */
#define OFFCORE_SNP_NONE   (1ULL << 31)
#define OFFCORE_SNOOP_MISS (1ULL << 33)
#define OFFCORE_SNOOP_HIT  (1ULL << 34)
#define OFFCORE_HITM	   (1ULL << 36)
#define OFFCORE_NON_DRAM   (1ULL << 37)

struct offcore_result {
	uint64_t weighted_cycles; /* sum over cycles of outstanding requests */
	uint64_t requests;
	uint64_t avg_latency_x100; /* weighted_cycles * 100 / requests, 0 if no requests */
	bool atom_method;	   /* RSP0.OUTSTANDING / RSP1.ANY_RESPONSE (SDM 18.6.3) */
	char how[200];		   /* the two events as programmed */
};

/*
 * Runs kernel(arg) once counting the two events.  request: bits 15:0 of
 * the request type (OFFCORE_REQ_*); snoop: must be 0 (SDM 18.6.3 wants every
 * other bit of both registers 0; non-zero is refused).  Returns 0 or a SESSION_* value
 * (pmu/session.h) with why filled; every MSR is restored either way.
 */
int offcore_avg_latency(const struct cpu_info *ci, uint16_t request, uint64_t snoop,
			void (*kernel)(void *arg), void *arg, struct offcore_result *r, char *why,
			size_t why_size);

#endif
