/* SPDX-License-Identifier: MIT */
/*
 * colour.h - which words of a console line a screen shows in colour
 * (docs/OUTPUT.md "Colour"): a verdict line's leading word, the word after
 * RESULT: and RECAP:, and every verdict cell of the closing table (a line
 * without a grammar prefix).  Pure: efi/console.c sets the attributes;
 * serial and the log never see colour.
 */
#ifndef PP_COLOUR_H
#define PP_COLOUR_H

#include "compat.h"

enum colour_kind {
	COLOUR_PASS,  /* green */
	COLOUR_FAIL,  /* red */
	COLOUR_SKIP,  /* yellow */
	COLOUR_ERROR, /* magenta */
};

struct colour_span {
	size_t start, len;
	enum colour_kind kind;
};

/* Fills at most max spans of line, in order, not overlapping; returns how many. */
size_t colour_spans(const char *line, struct colour_span *out, size_t max);

#endif
