// SPDX-License-Identifier: MIT
/* runner.c - placeholder until the kernels land (issue 6). */
#include "runner.h"
#include "../lib/report.h"

void runner_main_job(const struct options *opts, const struct cpu_info *ci)
{
	(void)opts;
	(void)ci;
	report_info("main job: no kernels built yet");
}
