// SPDX-License-Identifier: MIT
/*
 * dump.c - one raw dump per kernel and sampling on the ESP (decode/dump.h).
 * A dump that would leave less than DUMP_KEEP_FREE plus the results so far
 * is not written (an environment error: exit 99), so a full ESP never
 * costs results.json or the log.
 */
#include "job_int.h"
#include "../decode/dump.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"

/*
 * Room a dump leaves free on the ESP for what must land: results.json (the
 * job's part so far, plus this much for the rest of it) and the log's
 * remaining lines.
 */
#define DUMP_KEEP_FREE (256 * 1024)

void write_dump(struct runner *r, const char *test, const struct session_result *res)
{
	struct pebs_dump_info di;
	char name[64], err[96];
	size_t n, keep;
	uint8_t *out;
	int64_t avail;
	int rc;

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
	/* The boot CPU's as before; another CPU's with its number (cpus=). */
	if (r->ci->cpu)
		pp_snprintf(name, sizeof(name), "%s-cpu%u.pebs", test, r->ci->cpu);
	else
		pp_snprintf(name, sizeof(name), "%s.pebs", test);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '-';
	avail = plat_free_space();
	keep = DUMP_KEEP_FREE + json_members_len(&r->json);
	if (!out) {
		report_env_error(test, "no memory for the dump %s (%zu bytes)", name, n);
	} else if (pebs_dump_write(&di, res->records, res->records_len, out, n) != n) {
		report_fail(test, "the dump %s could not be laid out (%zu bytes)", name, n);
	} else if (avail >= 0 && (uint64_t)avail < n + keep) {
		/* results.json and the rest of the log come first: the dump gives way. */
		report_env_error(test,
				 "dump %s (%zu bytes) not written: the ESP has %lld bytes free and "
				 "%zu are kept for results.json and the log",
				 name, n, (long long)avail, keep);
	} else if ((rc = plat_write_file(name, out, n)) < 0) {
		report_env_error(test, "could not write the dump %s: %s", name,
				 plat_error_text(rc, err, sizeof(err)));
	} else {
		report_info("%s: %zu records (%zu bytes) dumped to %s", test, res->n_records,
			    res->records_len, name);
	}
	if (out)
		plat_free(out);
}
