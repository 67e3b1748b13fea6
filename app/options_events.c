// SPDX-License-Identifier: MIT
/*
 * options_events.c - events= (docs/OPTIONS.md), read once when the token
 * is into struct job_events: entries separated by ';', each a perfmon
 * name with modifiers or a raw event=0x.. encoding, at most JOB_MAX_EVENTS
 * of at most PMU_EVENT_NAME_MAX - 1 characters.  pmu_event_read turns
 * each entry into typed values here, refusing what no CPU could accept (a
 * name no perfmon file has); the entry keeps no text.  A name is resolved
 * per CPU against its perfmon file (job/check.c, before any PMU
 * programming): where a name ends is the file's to say (pmu/event.h).
 */
#include "options.h"
#include "../lib/fmt.h"

/*
 * Each entry of v into out[] (NULL: only checked); the number of entries,
 * or -1 with why.  Checked first, then kept: a refused value leaves the
 * option as it was, and no list of specs need sit on the stack.
 */
static int read_events(const char *v, struct pmu_event_spec *out, char *why, size_t why_size)
{
	struct pmu_event_spec one;
	char item[PMU_EVENT_NAME_MAX];
	unsigned int n = 0;

	for (const char *p = v; *p;) {
		size_t len = options_item_len(p, ';');

		if (len && n >= JOB_MAX_EVENTS) {
			pp_snprintf(why, why_size, "more than %u events", JOB_MAX_EVENTS);
			return -1;
		}
		if (len >= sizeof(item)) {
			pp_snprintf(why, why_size, "event '%.24s...': longer than %zu characters",
				    p, sizeof(item) - 1);
			return -1;
		}
		if (len) {
			memcpy(item, p, len);
			item[len] = 0;
			if (pmu_event_read(item, out ? &out[n] : &one, why, why_size))
				return -1;
			n++;
		}
		p += len + (p[len] == ';');
	}
	return (int)n;
}

int options_parse_events(struct options *o, const char *v, char *why, size_t why_size)
{
	int n = read_events(v, NULL, why, why_size);

	if (n < 0)
		return -1;
	memset(&o->job.events, 0, sizeof(o->job.events));
	o->job.events.n = (unsigned int)read_events(v, o->job.events.ev, why, why_size);
	return 0;
}
