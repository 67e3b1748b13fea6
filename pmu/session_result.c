// SPDX-License-Identifier: MIT
/*
 * session_result.c - what a session hands back: the memory the drained
 * records are kept in (allocated before arming), the records appended as
 * the flavour drains them, and at the end the events, the expected and
 * lost records and the description derived from the plan and the counts.
 */
#include "session_int.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

/*
 * The result buffer is allocated before arming: the PMI handler drains into
 * it from interrupt context, where firmware memory services must not be
 * called (UEFI: no AllocatePool above TPL_NOTIFY).  Polling needs one PEBS
 * buffer's worth (plus the forced records); PMI draining several
 * (session.h session_result_bytes).
 */
int session_result_alloc(struct sess *s, char *why, size_t why_size)
{
	struct session_result *r = s->res;
	size_t bufs = s->cfg->drain == PEBS_DRAIN_PMI ? SESSION_PMI_RESULT_BUFFERS
						      : SESSION_POLL_RESULT_BUFFERS;

	if (!s->have_ds)
		return 0; /* no PEBS buffer, no records */
	s->res_cap = s->ds.buf_size * bufs;
	s->kinds_cap = s->res_cap / s->ops->min_record(s) + 1;
	r->records = plat_alloc(s->res_cap);
	r->rec_kinds = plat_alloc(s->kinds_cap);
	if (!r->records || !r->rec_kinds) {
		session_result_free(r);
		pp_snprintf(why, why_size, "no memory for %zu bytes of drained records",
			    s->res_cap);
		return SESSION_NOMEM;
	}
	return 0;
}

void session_append(struct sess *s, const struct ds_drained *d)
{
	struct session_result *r = s->res;
	size_t i;
	uint8_t kind = s->plan.sample_precise ? REC_PRECISE : REC_NONPRECISE;

	if (d->full)
		r->buffer_full = true;
	if (!d->len)
		return;
	if (r->records_len + d->len > s->res_cap || r->n_records + d->n_records > s->kinds_cap) {
		s->dropped += d->n_records;
		return;
	}
	memcpy(r->records + r->records_len, d->start, d->len);
	for (i = 0; i < d->n_records; i++)
		r->rec_kinds[r->n_records + i] = kind;
	r->records_len += d->len;
	r->n_records += d->n_records;
}

void session_result_finish(struct sess *s)
{
	const struct pmu_plan *p = &s->plan;
	struct session_result *r = s->res;
	size_t written = r->n_records - s->forced;

	r->period = p->period;
	r->pebs_counter = p->sample_ctr;
	r->snap_gp = p->snap_gp;
	r->snap_fixed = p->snap_fixed;
	r->pebs_enable = s->ops->pebs_enable ? s->ops->pebs_enable(p) : 0;
	/*
	 * Without a counting copy (load latency, precise store, store latency,
	 * frontend: one counter per facility) the events are derived from what
	 * was written: records * period + the counter's residue.  Once the
	 * buffer filled that undercounts by the records the hardware dropped,
	 * and the counter's residue means nothing (no source says what a
	 * counter holds after an assist that found no room), so only the
	 * records are counted: a lower bound.
	 */
	if (p->sample_ctr >= 0 && !r->counted_sample)
		r->sampled_events = (uint64_t)(written + s->dropped) * p->period +
				    (r->buffer_full ? 0 : s->residue);
	r->expected_records = p->period ? r->sampled_events / p->period : 0;
	/*
	 * Lost.  Records are dropped only at the absolute maximum (arch-PEBS:
	 * FULL), so a buffer that never filled lost none.  One that filled lost
	 * events / period - written, which only a count of the event that does
	 * not come from the records can tell: the counting copy.  Without one
	 * the number is unknown, never 0.  Records drained but not kept (the
	 * result buffer was full) are lost to the caller too, and known.
	 */
	r->lost_unknown = p->sample_ctr >= 0 && r->buffer_full && !r->counted_sample;
	if (r->buffer_full && r->counted_sample && r->expected_records > written + s->dropped)
		r->lost = r->expected_records - written - s->dropped;
	r->lost += s->dropped;
	r->decode_cfg.fmt = p->fmt;
	r->decode_cfg.uarch = p->ua->uarch;
	r->decode_cfg.dsrc = p->ua->dsrc;
	r->decode_cfg.kind = p->kind;
	r->decode_cfg.data_cfg = p->adaptive ? p->data_cfg : 0;
	r->decode_cfg.adaptive = p->adaptive;
	r->decode_cfg.timed = s->ci->perf_caps & PERF_CAP_PEBS_TIMING;
	r->decode_cfg.pebs_enabled =
	    r->pebs_enable & (GENMASK_ULL(31, 0) |
			      (p->ua->layout == PEBS_EN_LAYOUT_FIXED ? GENMASK_ULL(47, 32) : 0));
	r->decode_cfg.pebs_enable_msr = r->pebs_enable;
	if (p->sample_ctr < 0)
		pp_snprintf(r->event_desc, sizeof(r->event_desc), "counting only");
	else {
		char ld[24] = "";

		if (p->use_ldlat)
			pp_snprintf(ld, sizeof(ld), " ldlat=%u", p->ldlat);
		r->pdist = p->sample_pdist;
		pp_snprintf(r->event_desc, sizeof(r->event_desc), "%s (0x%llx)%s on %s%d%s",
			    p->sample.name, (unsigned long long)(p->sample.evtsel & 0xffff), ld,
			    p->sample_ctr >= 32 ? "FIXED" : "PMC",
			    p->sample_ctr >= 32 ? p->sample_ctr - 32 : p->sample_ctr,
			    p->sample_pdist ? " (PDIST)" : "");
	}
}

void session_result_free(struct session_result *res)
{
	plat_free(res->records);
	plat_free(res->rec_kinds);
	res->records = NULL;
	res->rec_kinds = NULL;
	res->records_len = 0;
	res->n_records = 0;
}
