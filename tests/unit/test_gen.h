/* SPDX-License-Identifier: MIT */
/*
 * test_gen.h - the data-source decoder a generation's row names
 * (pmu/uarch_table.c): the decode tests check a generation's records through the
 * row, so a row naming the wrong decoder fails them too.
 */
#ifndef PP_TEST_GEN_H
#define PP_TEST_GEN_H

#include "pmu/uarch.h"

static inline enum pebs_dsrc gen_dsrc(enum pebs_uarch u)
{
	const struct uarch_info *ua = uarch_get(u);

	return ua ? ua->dsrc : DSRC_UNKNOWN;
}

#endif
