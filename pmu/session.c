// SPDX-License-Identifier: MIT
/*
 * session.c - one PEBS measurement (see session.h).  Initial placeholder so
 * the main job links; the real implementation follows.
 */
#include "session.h"
#include "../lib/fmt.h"

bool session_pebs_usable(const struct cpu_info *ci, char *why, size_t why_size)
{
	pp_snprintf(why, why_size, "PEBS session not implemented yet");
	return false;
}

int session_run(const struct session_cfg *cfg, void (*kernel)(void *arg), void *arg,
		struct session_result *res, char *why, size_t why_size)
{
	memset(res, 0, sizeof(*res));
	pp_snprintf(why, why_size, "PEBS session not implemented yet");
	return SESSION_SKIP;
}

void session_result_free(struct session_result *res)
{
	memset(res, 0, sizeof(*res));
}
