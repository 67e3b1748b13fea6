// SPDX-License-Identifier: MIT
/*
 * snapshot.c - the verdict on a run's counter-snapshot group (snapshot=on,
 * pmu/snapshot.h): every record must carry the group as programmed, and
 * each counting counter's snapshots must agree with counting itself.
 *
 * What a snapshot is (Linux ds.c __setup_pebs_counter_group, e02e9b0374c3):
 * the counter's value at the PEBS assist, from which Linux takes the event
 * count by difference with the previous one.  So, for a counter that only
 * counts (no reload):
 *   - record by record its values never go down (48-bit counters that
 *     start at 0 do not wrap in a run);
 *   - no value exceeds the count read after the counters stopped;
 *   - the counting copy of the sampled event has counted, at the k-th
 *     record kept (k from 1), at least k periods: each record is an
 *     overflow of the PEBS counter, which counts the same event from
 *     -period and reloads -period, and the two start together (one
 *     GLOBAL_CTRL write).
 * The PEBS counter's own value is shown, not judged: no public source says
 * what it holds in a record of the next occurrence (no PDIST).
 */
#include "job_int.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

/* The group's values in record order (GP counters upward, then fixed): where is counter ctr? */
static int slot_of(uint32_t gp, uint32_t fixed, int ctr)
{
	if (ctr < 32)
		return (gp >> ctr) & 1 ? popcount64(gp & (uint32_t)GENMASK_ULL(ctr, 0)) - 1 : -1;
	ctr -= 32;
	return (fixed >> ctr) & 1
		   ? popcount64(gp) + popcount64(fixed & (uint32_t)GENMASK_ULL(ctr, 0)) - 1
		   : -1;
}

/* The count read after disarming of counter ctr, if the session read one. */
static bool final_count(const struct session_result *res, const struct pmu_plan *p, int ctr,
			uint64_t *v)
{
	if (ctr >= 32) {
		if ((size_t)(ctr - 32) < ARRAY_SIZE(res->fixed) &&
		    (res->fixed_read >> (ctr - 32)) & 1) {
			*v = res->fixed[ctr - 32];
			return true;
		}
		return false;
	}
	if (ctr == res->copy_counter && res->counted_sample) {
		*v = res->sampled_events;
		return true;
	}
	for (unsigned int i = 0; i < p->n_count && i < PLAN_MAX_COUNT; i++)
		if (p->count[i].ctr == ctr && p->count[i].user_idx >= 0 &&
		    p->count[i].user_idx < SESSION_MAX_COUNT) {
			*v = res->counts[p->count[i].user_idx];
			return true;
		}
	return false;
}

static void fail(struct snap_out *so, const char *fmt, ...) pp_printf(2, 3);
static void fail(struct snap_out *so, const char *fmt, ...)
{
	va_list ap;

	if (so->bad)
		return; /* the first reason is the one said */
	so->bad = true;
	va_start(ap, fmt);
	pp_vsnprintf(so->why, sizeof(so->why), fmt, ap);
	va_end(ap);
}

static const char *ctr_name(int ctr, char *buf, size_t size)
{
	pp_snprintf(buf, size, "%s%d", ctr >= 32 ? "FIXED" : "PMC", ctr >= 32 ? ctr - 32 : ctr);
	return buf;
}

/* One counting counter across the records. */
static void judge_counter(struct snap_out *so, const struct session_result *res,
			  const struct pmu_plan *p, int ctr, const uint64_t *vals, uint64_t n)
{
	uint64_t fin;
	char name[16];

	ctr_name(ctr, name, sizeof(name));
	for (uint64_t k = 1; k < n; k++)
		if (vals[k] < vals[k - 1])
			fail(so, "%s went down from %llu to %llu at record %llu", name,
			     (unsigned long long)vals[k - 1], (unsigned long long)vals[k],
			     (unsigned long long)k);
	if (n && final_count(res, p, ctr, &fin) && vals[n - 1] > fin)
		fail(so, "%s snapshot %llu exceeds its final count %llu", name,
		     (unsigned long long)vals[n - 1], (unsigned long long)fin);
	if (ctr != res->copy_counter || !res->period)
		return;
	for (uint64_t k = 0; k < n; k++)
		if (vals[k] / res->period < k + 1) {
			fail(
			    so,
			    "counting copy %s held %llu at record %llu, below %llu periods of %llu",
			    name, (unsigned long long)vals[k], (unsigned long long)k + 1,
			    (unsigned long long)k + 1, (unsigned long long)res->period);
			break;
		}
	so->copy_checked = true;
}

void job_snapshot_judge(const struct session_result *res, const struct pmu_plan *p,
			struct snap_out *so)
{
	struct pebs_record *rec = plat_alloc(sizeof(*rec));
	uint64_t *vals = NULL, n = 0;
	struct pebs_anomaly an;
	size_t off = 0;
	unsigned int nctr = (unsigned int)(popcount64(res->snap_gp) + popcount64(res->snap_fixed));

	memset(so, 0, sizeof(*so));
	so->asked = true;
	so->gp = res->snap_gp;
	so->fixed = res->snap_fixed;
	if (!rec || !res->n_records || !nctr) {
		if (rec && !res->n_records)
			fail(so, "no records to judge");
		else if (rec)
			fail(so, "no counter-snapshot group was programmed");
		else
			fail(so, "no memory to decode the records");
		plat_free(rec);
		return;
	}
	vals = plat_alloc(sizeof(uint64_t) * nctr * res->n_records);
	if (!vals) {
		fail(so, "no memory for %zu records' snapshots", res->n_records);
		plat_free(rec);
		return;
	}
	while (n < res->n_records) {
		enum pebs_step st = pebs_decode_next(&res->decode_cfg, res->records,
						     res->records_len, &off, rec, &an);

		if (st == PEBS_STEP_END)
			break;
		if (!(rec->have & HAVE_COUNTERS)) {
			so->missing++;
			fail(so, "record %llu has no counter group", (unsigned long long)n + 1);
		} else if (rec->counters_gp_mask != res->snap_gp ||
			   rec->counters_fixed_mask != res->snap_fixed || rec->n_counters != nctr) {
			so->missing++;
			fail(so,
			     "record %llu snapshots GP 0x%x fixed 0x%x, programmed GP 0x%x fixed "
			     "0x%x",
			     (unsigned long long)n + 1, rec->counters_gp_mask,
			     rec->counters_fixed_mask, res->snap_gp, res->snap_fixed);
		} else {
			for (unsigned int i = 0; i < nctr; i++)
				vals[(size_t)i * res->n_records + n] = rec->counters[i];
		}
		n++;
		if (st == PEBS_STEP_ANOMALY)
			break; /* the decoder cannot go past it; the run's verdict says so */
	}
	so->records = n;
	if (!so->missing) {
		for (int ctr = 0; ctr < 64; ctr++) {
			int slot = slot_of(res->snap_gp, res->snap_fixed, ctr);

			if (slot < 0)
				continue;
			so->last[so->n_last].ctr = ctr;
			so->last[so->n_last++].value = vals[(size_t)slot * res->n_records + n - 1];
			if (ctr == res->pebs_counter)
				continue;
			so->judged++;
			judge_counter(so, res, p, ctr, vals + (size_t)slot * res->n_records, n);
		}
		if (!so->judged)
			fail(so, "the group holds only the PEBS counter: nothing counts beside it");
	}
	plat_free(vals);
	plat_free(rec);
}

void job_snapshot_text(const struct snap_out *so, char *buf, size_t size)
{
	if (so->bad)
		pp_snprintf(buf, size, "counter snapshot: %s", so->why);
	else
		pp_snprintf(
		    buf, size,
		    "counter snapshot: %llu records, %u counting counters rising and within "
		    "their counts%s",
		    (unsigned long long)so->records, so->judged,
		    so->copy_checked ? ", counting copy >= k periods" : "");
}

void job_snapshot_json(struct json_out *j, const struct snap_out *so)
{
	char text[192], name[16];

	if (!so->asked)
		return;
	job_snapshot_text(so, text, sizeof(text));
	json_begin_object(j, "snapshot");
	json_u64(j, "gp_mask", so->gp);
	json_u64(j, "fixed_mask", so->fixed);
	json_u64(j, "records", so->records);
	json_u64(j, "records_without_group", so->missing);
	json_str(j, "verdict", so->bad ? "FAIL" : "PASS");
	json_str(j, "why", text);
	json_begin_object(j, "last");
	for (unsigned int i = 0; i < so->n_last; i++)
		json_u64(j, ctr_name(so->last[i].ctr, name, sizeof(name)), so->last[i].value);
	json_end_object(j);
	json_end_object(j);
}

enum verdict job_snapshot_verdict(const struct pmu_plan *p, const struct session_result *res,
				  struct run_out *o, enum verdict v, char *text, size_t size)
{
	size_t len = strlen(text);

	job_snapshot_judge(res, p, &o->snap);
	if (len + 2 < size) {
		pp_snprintf(text + len, size - len, "; ");
		job_snapshot_text(&o->snap, text + len + 2, size - len - 2);
	}
	return o->snap.bad ? V_FAIL : v;
}
