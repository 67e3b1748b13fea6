// SPDX-License-Identifier: MIT
/*
 * scan.c - the summary's fast path (scan.h).  Per record it reads the
 * fields the summary counts and the ones the decoder validates, at the
 * offsets of layout.h, and nothing else: no GPRs, TSX, LBRs or rendering.
 * Which records it takes, and what each adds, follow decode.c's
 * decode_legacy() and decode_adaptive() rule by rule; a record that
 * breaks any of them is left to pebs_decode_next(), which says what is
 * wrong with it.
 */
#include "scan.h"
#include "layout.h"

/* The memory latency field at off: split on ADL/SPR and later (layout_load_latency()). */
static void shape_latency(struct pebs_summary_scan *sc, unsigned int off, bool split)
{
	sc->has_lat = true;
	sc->lat = off;
	sc->lat_shift = split ? 32 : 0;
	sc->lat_mask = split ? 0xffff : ~0ULL;
}

/* Legacy formats 0..3: the fields of decode_legacy(). */
static void shape_legacy(struct pebs_summary_scan *sc, enum layout_mem mem)
{
	const struct pebs_decode_cfg *cfg = &sc->cfg;
	bool reserved = pebs_dsrc_reserved(cfg->dsrc);

	sc->size = pebs_legacy_record_size(cfg->fmt);
	if (cfg->fmt == 0)
		return; /* no data-source slot, no latency: group "n/a" */
	if (reserved && mem == LAYOUT_MEM_VALUE) {
		sc->on = false; /* the decoder reads no field for it: leave it to it */
		return;
	}
	if (!reserved) {
		sc->aux = LEG_DSE;
		sc->aux_mask = mem == LAYOUT_MEM_VALUE ? ~0ULL : 0;
		/* As decode_legacy(): a latency for the load-latency event only. */
		if (cfg->kind == KIND_LDLAT)
			shape_latency(sc, LEG_LAT, false);
	}
	/* decode_legacy() checks the applicable counters of fmt3 only */
	if (cfg->fmt == 3 && cfg->pebs_enabled) {
		sc->status = LEG_STATUS;
		sc->status_check = ~0ULL;
	}
}

/*
 * Adaptive formats: a record is taken when its size and format field are
 * exactly PEBS_DATA_CFG's record (or a basic-only record when PEBS_DATA_CFG
 * is 0), which passes every size and format check of decode_adaptive().
 * Counter snapshots size themselves from their own header: left to the
 * decoder.
 */
static void shape_adaptive(struct pebs_summary_scan *sc, enum layout_mem mem)
{
	const struct pebs_decode_cfg *cfg = &sc->cfg;
	uint64_t fmt_mask = pebs_basic_format_mask(cfg);
	uint64_t fmt = cfg->data_cfg & fmt_mask;

	if (fmt & (CFG_CNTR | CFG_METRICS)) {
		sc->on = false;
		return;
	}
	sc->size = pebs_adaptive_record_size(fmt);
	sc->expect = (uint64_t)sc->size << 48 | fmt;
	sc->expect_mask = GENMASK_ULL(63, 48) | fmt_mask;
	sc->status = BASIC_APPLICABLE;
	sc->status_check = cfg->pebs_enabled ? ~0ULL : 0;
	if (fmt & CFG_MEMINFO) {
		sc->aux = BASIC_SIZE + MEMINFO_AUX;
		sc->aux_mask = mem == LAYOUT_MEM_VALUE ? ~0ULL : 0;
		shape_latency(sc, BASIC_SIZE + MEMINFO_LATENCY, pebs_dsrc_instr_latency(cfg->dsrc));
	} else if (cfg->timed) {
		/* retire latency, basic group word 0 bits 47:32 */
		shape_latency(sc, BASIC_FORMAT_SIZE, true);
	}
}

void pebs_summary_scan_init(struct pebs_summary_scan *sc, struct pebs_summary *s,
			    const struct pebs_decode_cfg *cfg)
{
	enum layout_mem mem = layout_mem(cfg);

	memset(sc, 0, sizeof(*sc));
	sc->s = s;
	sc->cfg = *cfg;
	sc->on = true;
	if (cfg->fmt <= 3)
		shape_legacy(sc, mem);
	else if (cfg->fmt <= 6)
		shape_adaptive(sc, mem);
	else
		sc->on = false; /* arch-PEBS fragments, unknown formats */
}

/* A data-source field not in the cache: its group, kept in slot i. */
static __attribute__((noinline)) struct pebs_summary_group *group_miss(struct pebs_summary_scan *sc,
								       unsigned int i, uint64_t aux)
{
	bool mem = sc->aux_mask != 0;

	sc->cache[i].aux = aux;
	sc->cache[i].g = pebs_summary_group_of(
	    sc->s, mem, mem ? pebs_data_src(sc->cfg.dsrc, sc->cfg.kind, aux) : 0);
	return sc->cache[i].g;
}

/* The group of a record whose data-source field is aux (0 when it names none). */
static inline __attribute__((always_inline)) struct pebs_summary_group *
group(struct pebs_summary_scan *sc, uint64_t aux)
{
	unsigned int i = (unsigned int)((aux * 0x9e3779b97f4a7c15ULL) >> 56);

	if (__builtin_expect(sc->cache[i].g && sc->cache[i].aux == aux, 1))
		return sc->cache[i].g;
	return group_miss(sc, i, aux);
}

/*
 * The loop, built once per pair of (check the applicable counters, has a
 * latency), so neither is tested per record.  Returns the first record it
 * does not take, or the first one past `last`.
 */
static inline __attribute__((always_inline)) const uint8_t *
scan_loop(struct pebs_summary_scan *sc, const uint8_t *p, const uint8_t *last, const bool check,
	  const bool has_lat)
{
	/* Locals, so the stores into the groups do not make the loop reload them. */
	const uint64_t enabled = sc->cfg.pebs_enabled, expect = sc->expect;
	const uint64_t mask = sc->expect_mask, aux_mask = sc->aux_mask, lat_mask = sc->lat_mask;
	const size_t size = sc->size;
	const unsigned int status = sc->status, aux = sc->aux, lat = sc->lat;
	const unsigned int shift = sc->lat_shift;

	for (; p <= last; p += size) {
		struct pebs_summary_group *g;

		if ((get_le64(p) & mask) != expect)
			break;
		if (check) {
			uint64_t app = get_le64(p + status);

			/* decode.c check_applicable(): inside the PEBS-enabled mask, not empty */
			if (!(app & enabled) || (app & ~enabled))
				break;
		}
		g = group(sc, get_le64(p + aux) & aux_mask);
		g->count++;
		if (has_lat)
			pebs_summary_latency(g, (get_le64(p + lat) >> shift) & lat_mask);
	}
	return p;
}

size_t pebs_summary_scan(struct pebs_summary_scan *sc, const uint8_t *buf, size_t len,
			 size_t *offset)
{
	const uint8_t *from, *last, *to;
	size_t n;

	if (!sc->on || !buf || *offset > len || len - *offset < sc->size)
		return 0;
	from = buf + *offset;
	last = buf + len - sc->size;
	if (sc->status_check && sc->has_lat)
		to = scan_loop(sc, from, last, true, true);
	else if (sc->status_check)
		to = scan_loop(sc, from, last, true, false);
	else if (sc->has_lat)
		to = scan_loop(sc, from, last, false, true);
	else
		to = scan_loop(sc, from, last, false, false);
	n = (size_t)(to - from) / sc->size;
	sc->s->total += n;
	*offset += (size_t)(to - from);
	return n;
}
