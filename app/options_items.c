// SPDX-License-Identifier: MIT
/*
 * options_items.c - the one walk over a list option's items (sim-fault=,
 * sim-handoff=, sim-platform=): every separator ends an item, so an empty
 * item, between two commas or after the last, reaches the item's parser
 * and is refused there, as cpus= and kernels= refuse theirs.
 */
#include "options.h"

int options_each_item(const char *v, char sep, options_item_fn fn, void *ctx, char *why,
		      size_t why_size)
{
	if (!*v)
		return 0; /* an empty list: no item */
	for (const char *p = v;; p++) {
		size_t len = options_item_len(p, sep);

		if (fn(p, len, ctx, why, why_size))
			return -1;
		p += len;
		if (!*p)
			return 0;
	}
}
