// SPDX-License-Identifier: MIT
/*
 * options_kernels.c - kernels= (docs/OPTIONS.md), read once when the token
 * is into a mask of the kernel table (kernels/kernel.h kernel_at(); bit i
 * for row i): all (the rows of the default job), none, or kernel names
 * separated by commas.  memtest86+ does the same with testlist= (its
 * test_list[].enabled, set as the option is read).
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../kernels/kernel.h"

int options_parse_kernels(struct options *o, const char *v, char *why, size_t why_size)
{
	uint64_t mask = 0;
	char word[64], names[400];

	if (!strcmp(v, "all")) {
		for (size_t i = 0; i < kernel_count(); i++)
			mask |= (uint64_t)kernel_at(i)->in_default_job << i;
		o->job.kernels = mask;
		return 0;
	}
	if (!strcmp(v, "none")) {
		o->job.kernels = 0;
		return 0;
	}
	/* Not a list of names at all: the row's accepted text says what is. */
	for (const char *p = v; *p; p++) {
		bool name = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_';

		if ((!name && *p != ',') || (*p == ',' && (p == v || !p[1] || p[1] == ','))) {
			why[0] = 0;
			return -1;
		}
	}
	for (const char *p = v; *p;) {
		size_t len = options_item_len(p, ','), i;

		if (len >= sizeof(word)) {
			pp_snprintf(why, why_size, "no kernel name of %zu characters", len);
			return -1;
		}
		memcpy(word, p, len);
		word[len] = 0;
		/* all and none are words alone: "kernels=all,lock" is no list of kernels. */
		if (!strcmp(word, "all") || !strcmp(word, "none")) {
			pp_snprintf(why, why_size,
				    "'%s' is a word alone, not a kernel to list with others "
				    "(accepted: all, none, or kernel names separated by commas)",
				    word);
			return -1;
		}
		for (i = 0; i < kernel_count() && strcmp(kernel_at(i)->name, word); i++)
			;
		if (i == kernel_count()) {
			kernel_names(names, sizeof(names));
			pp_snprintf(why, why_size,
				    "unknown kernel '%s' (accepted: all, none, or names separated "
				    "by commas: %s)",
				    word, names);
			return -1;
		}
		mask |= 1ULL << i;
		p += len + (p[len] == ',');
	}
	o->job.kernels = mask;
	return 0;
}
