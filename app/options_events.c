// SPDX-License-Identifier: MIT
/*
 * options_events.c - events= (docs/OPTIONS.md), read once when the token
 * is into struct job_events: entries separated by ';', each a perfmon
 * name with modifiers or a raw event=0x.. encoding (pmu/event.h), at most
 * JOB_MAX_EVENTS of at most JOB_EVENT_MAX - 1 characters.  Each entry is
 * resolved per CPU against its perfmon file (job/check.c, before any PMU
 * programming): where a name ends is the file's to say.
 */
#include "options.h"
#include "../lib/fmt.h"

int options_parse_events(struct options *o, const char *v, char *why, size_t why_size)
{
	struct job_events ev;

	memset(&ev, 0, sizeof(ev));
	for (const char *p = v; *p;) {
		size_t len = options_item_len(p, ';');

		if (len && ev.n >= JOB_MAX_EVENTS) {
			pp_snprintf(why, why_size, "more than %u events", JOB_MAX_EVENTS);
			return -1;
		}
		if (len >= JOB_EVENT_MAX) {
			pp_snprintf(why, why_size, "event '%.24s...': longer than %u characters", p,
				    JOB_EVENT_MAX - 1);
			return -1;
		}
		if (len) {
			memcpy(ev.ev[ev.n].spec, p, len);
			ev.ev[ev.n++].spec[len] = 0;
		}
		p += len + (p[len] == ';');
	}
	o->job.events = ev;
	return 0;
}
