/* SPDX-License-Identifier: MIT */
/*
 * scan.h - the summary without the full decoder.  pebs_summary_scan() reads
 * only what the summary counts (the data-source field, the latency, and
 * what the decoder validates about a record) and adds each record to the
 * summary exactly as pebs_decode_next() then pebs_summary_add() would.  It
 * takes the common case only and stops at the first record it does not
 * take (an anomaly, a truncated record, a counter snapshot, an arch-PEBS
 * record, a format field other than PEBS_DATA_CFG's), leaving it to the
 * full decoder:
 *
 *   pebs_summary_scan_init(&sc, &sum, &cfg);
 *   for (;;) {
 *           pebs_summary_scan(&sc, buf, len, &off);
 *           step = pebs_decode_next(&cfg, buf, len, &off, &rec, &an);
 *           if (step != PEBS_STEP_RECORD)
 *                   break;
 *           pebs_summary_add(&sum, &rec);
 *   }
 */
#ifndef PP_DECODE_SCAN_H
#define PP_DECODE_SCAN_H

#include "decode.h"
#include "summary.h"

#define PEBS_SCAN_CACHE 256 /* data-source field -> group, direct-mapped */

/*
 * A record's shape as the scan reads it, set once from the decode config.
 * The loop is the same for every format: a check a format lacks is one
 * that always passes (mask 0), a field it lacks reads as 0.
 */
struct pebs_summary_scan {
	struct pebs_summary *s;
	struct pebs_decode_cfg cfg;
	bool on;		      /* false: the format is left to the full decoder */
	size_t size;		      /* bytes per record */
	uint64_t expect, expect_mask; /* adaptive: (word 0 & mask) == expect: size and format */
	unsigned int status;	      /* offset of the applicable counters */
	uint64_t status_check;	      /* ~0: check them against cfg.pebs_enabled; 0: do not */
	unsigned int aux;	      /* offset of the data-source field */
	uint64_t aux_mask;	      /* ~0: it names a data source; 0: every record is "n/a" */
	bool has_lat;		      /* the record has a latency ... */
	unsigned int lat;	      /* ... at this offset, */
	unsigned int lat_shift;	      /* shifted right by this, */
	uint64_t lat_mask;	      /* and masked */
	struct {
		uint64_t aux;
		struct pebs_summary_group *g; /* NULL: empty */
	} cache[PEBS_SCAN_CACHE];
};

/* Binds sc to summary s and the walk's decode config (which must not change). */
void pebs_summary_scan_init(struct pebs_summary_scan *sc, struct pebs_summary *s,
			    const struct pebs_decode_cfg *cfg);
/*
 * Adds the records from *offset on to the summary, up to the first one it
 * does not take or the end of buf[0..len); advances *offset past them.
 * Returns the number of records added.
 */
size_t pebs_summary_scan(struct pebs_summary_scan *sc, const uint8_t *buf, size_t len,
			 size_t *offset);

#endif
