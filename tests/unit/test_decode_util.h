/* SPDX-License-Identifier: MIT */
/*
 * test_decode_util.h - the record image of the decoder tests on records
 * built byte by byte (test_decode_formats.c, test_decode_arch.c): values
 * put little-endian at their offsets, and run(), which decodes the image
 * from a heap block of exactly its length (so the ASan build catches any
 * read past the end) into recs[], the anomaly into an.
 */
#ifndef TEST_DECODE_UTIL_H
#define TEST_DECODE_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "decode/decode.h"
#include "test_gen.h"

#define MAXREC 16
static pp_unused uint8_t img[8192];
static pp_unused struct pebs_record recs[MAXREC];
static pp_unused struct pebs_anomaly an;
static pp_unused unsigned int nrec;

static pp_unused void p64(size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

static pp_unused void p32(size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

/* Decodes img[0..len) from an exact-size heap copy; returns the last step. */
static pp_unused enum pebs_step run(const struct pebs_decode_cfg *cfg, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);
	size_t off = 0;
	enum pebs_step st;

	memcpy(b, img, len);
	nrec = 0;
	memset(&an, 0, sizeof(an));
	for (;;) {
		st = pebs_decode_next(cfg, b, len, &off, &recs[nrec < MAXREC ? nrec : MAXREC - 1],
				      &an);
		if (st != PEBS_STEP_RECORD)
			break;
		nrec++;
		assert_true(nrec < 1000); /* never loops forever */
	}
	free(b);
	return st;
}

#endif
