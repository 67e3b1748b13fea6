// SPDX-License-Identifier: MIT
/* dump.c - one raw dump per kernel and sampling on the ESP (decode/dump.h). */
#include "job_int.h"
#include "../decode/dump.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

void write_dump(struct runner *r, const char *test, const struct session_result *res)
{
	struct pebs_dump_info di;
	char name[64];
	size_t n;
	uint8_t *out;

	memset(&di, 0, sizeof(di));
	di.cfg = res->decode_cfg;
	di.simulated = r->simulated;
	/*
	 * Which counter carried which event: the plan the session followed
	 * (built from the same request, pure), the PEBS counter first, then
	 * every counted event (the user's, the SPR aux event, the counting copy).
	 */
	if (res->pebs_counter >= 0)
		pebs_dump_add_counter(&di, (uint32_t)res->pebs_counter, r->plan->sample.evtsel,
				      r->plan->sample.name);
	for (unsigned int i = 0; i < r->plan->n_count; i++)
		pebs_dump_add_counter(&di, (uint32_t)r->plan->count[i].ctr,
				      r->plan->count[i].ev.evtsel, r->plan->count[i].ev.name);
	n = pebs_dump_size(&di, res->records_len);
	out = plat_alloc(n);
	pp_snprintf(name, sizeof(name), "%s.pebs", test);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '-';
	if (!out || pebs_dump_write(&di, res->records, res->records_len, out, n) != n) {
		report_info("%s: could not build the dump %s", test, name);
	} else if (plat_write_file(name, out, n) < 0) {
		report_info("%s: could not write %s", test, name);
	} else {
		report_info("%s: %zu records (%zu bytes) dumped to %s", test, res->n_records,
			    res->records_len, name);
	}
	if (out)
		plat_free(out);
}
