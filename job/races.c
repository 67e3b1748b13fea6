// SPDX-License-Identifier: MIT
/*
 * races.c - a sampling's records as Linux's drain counts them below record
 * format 3 (decode/decode.h pebs_race_of; ds.c intel_pmu_drain_pebs_nhm):
 * a zero status taken as the sole PEBS event's or dropped, a collision
 * dropped and lost; the counts in the verdict's text and in results.json
 * (docs/ERRATA.md rows pebs-status-zero and pebs-collision).
 */
#include "job_int.h"
#include "../lib/fmt.h"
#include "../lib/json.h"

/*
 * The share of records dropped by rule past which the verdict says so:
 * the records-vs-events check (kernels/verdict.c KEXP_RECORDS_MATCH)
 * accepts 900..1100 per mille, so past 10% dropped the records kept could
 * not pass it alone; the dropped ones are counted as lost, so it still
 * holds, and the line names the erratum instead.
 */
#define RACE_SHARE_PM 100

static const char *const race_keys[PEBS_RACE_KINDS] = {
    [PEBS_RACE_NONE] = "kept",
    [PEBS_RACE_ZERO_SOLE] = "zero_attributed",
    [PEBS_RACE_ZERO_DROP] = "zero_dropped",
    [PEBS_RACE_COLLISION] = "collisions",
};

bool job_race_count(struct run_out *o, const struct pebs_decode_cfg *cfg,
		    const struct pebs_record *rec)
{
	enum pebs_race race = pebs_race_of(cfg, rec);

	o->race[race]++;
	return pebs_race_drops(race);
}

uint64_t job_race_dropped(const struct run_out *o)
{
	return o->race[PEBS_RACE_ZERO_DROP] + o->race[PEBS_RACE_COLLISION];
}

/* Formats 1 and 2 have the race (the status is GLOBAL_STATUS's image). */
static bool has_race(const struct session_result *res)
{
	return res->decode_cfg.fmt >= 1 && res->decode_cfg.fmt <= 2 && res->decode_cfg.pebs_enabled;
}

void job_race_text(const struct session_result *res, const struct run_out *o, char *text,
		   size_t size)
{
	uint64_t dropped = job_race_dropped(o),
		 all = dropped + o->race[PEBS_RACE_NONE] + o->race[PEBS_RACE_ZERO_SOLE];
	size_t len = strlen(text);

	if (!has_race(res) || (!dropped && !o->race[PEBS_RACE_ZERO_SOLE]))
		return;
	pp_snprintf(text + len, size - len,
		    "; status race: %llu zero-status kept as the sole PEBS event's, %llu dropped, "
		    "%llu collisions dropped as lost%s",
		    (unsigned long long)o->race[PEBS_RACE_ZERO_SOLE],
		    (unsigned long long)o->race[PEBS_RACE_ZERO_DROP],
		    (unsigned long long)o->race[PEBS_RACE_COLLISION],
		    all && dropped * 1000 > all * RACE_SHARE_PM
			? " (over 10% of the records: expected, errata pebs-status-zero, "
			  "pebs-collision)"
			: "");
}

void job_race_json(struct json_out *j, const struct session_result *res, const struct run_out *o)
{
	if (!has_race(res))
		return;
	json_begin_object(j, "status_race");
	for (unsigned int i = 0; i < PEBS_RACE_KINDS; i++)
		json_u64(j, race_keys[i], o->race[i]);
	json_end_object(j);
}
