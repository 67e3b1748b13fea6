// SPDX-License-Identifier: MIT
/*
 * pebs_count.c - the session without PEBS: only the counted events and the
 * fixed counters are programmed (session_cfg.count_only; pmu/offcore.c).
 * No buffer, no PEBS MSR, no PMI: every hook is absent (session_int.h).
 */
#include "session_int.h"

const struct pebs_ops pebs_count_ops = {
    .stale_status = 0,
};

/*
 * No records, no PEBS MSR.  As the CPU's flavour (DS PEBS unavailable):
 * the hand-off audit reads GLOBAL_STATUS the legacy way, and DATA_CFG where
 * PERF_CAPABILITIES enumerates baseline (it exists then, SDM Vol. 4 2.1).
 */
const struct pebs_flavour pebs_count_flavour = {
    .name = "counting only",
    .ops = &pebs_count_ops,
    .counter_source = "CPUID GP counters",
    .groups = PEBS_GROUPS_NONE,
    .handoff_data_cfg = true,
    .handoff_rows = PEBS_HANDOFF_LEGACY,
};
