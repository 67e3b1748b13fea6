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
