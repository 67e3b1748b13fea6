// SPDX-License-Identifier: MIT
/*
 * colour.c - the coloured words of a console line (colour.h).  A verdict
 * word is PASS, FAIL, SKIP or ERROR standing alone, or a table cell's
 * "FAIL@3" (the word and the CPUs that gave it).
 */
#include "colour.h"

static const struct {
	const char *word;
	enum colour_kind kind;
} words[] = {
    {"PASS", COLOUR_PASS},
    {"FAIL", COLOUR_FAIL},
    {"SKIP", COLOUR_SKIP},
    {"ERROR", COLOUR_ERROR},
};

/* The grammar's prefixes (docs/OUTPUT.md): lines with one are no table row. */
static const char *const prefixes[] = {
    "INFO:", "PASS:",	 "FAIL:",     "SKIP:",	"ERROR:",  "MSR:",
    "REC:",  "SUMMARY:", "VERDICTS:", "RECAP:", "RESULT:", "other:"};

static bool starts(const char *s, const char *w)
{
	return !strncmp(s, w, strlen(w));
}

/* The verdict word at p, ending at a space, ':', ',' or the line's end (or '@' in a cell). */
static int word_at(const char *p, bool cell, size_t *len)
{
	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);
		char end;

		/* Compared first: p may be shorter than the word, and ends at its NUL. */
		if (strncmp(p, words[i].word, n))
			continue;
		end = p[n];
		if (cell && end == '@') {
			while (p[n] && p[n] != ' ')
				n++;
		} else if (end && end != ' ' && end != ':' && end != ',') {
			continue;
		}
		*len = n;
		return (int)i;
	}
	return -1;
}

size_t colour_spans(const char *line, struct colour_span *out, size_t max)
{
	size_t n = 0, len;
	int w;

	if (!max)
		return 0;
	/* A verdict or ERROR line: its leading word. */
	if ((w = word_at(line, false, &len)) >= 0 && line[len] == ':') {
		out[n++] = (struct colour_span){0, len, words[w].kind};
		return n;
	}
	/* RESULT: and RECAP: colour the word after them. */
	if (starts(line, "RESULT: ") || starts(line, "RECAP: ")) {
		const char *p = strchr(line, ' ') + 1;

		if ((w = word_at(p, false, &len)) >= 0)
			out[n++] = (struct colour_span){(size_t)(p - line), len, words[w].kind};
		return n;
	}
	if (starts(line, "    "))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (starts(line, prefixes[i]))
			return 0;
	/* A table row: every cell's verdict word. */
	for (const char *p = line; *p && n < max; p++) {
		if (p != line && p[-1] != ' ')
			continue;
		if ((w = word_at(p, true, &len)) < 0)
			continue;
		out[n++] = (struct colour_span){(size_t)(p - line), len, words[w].kind};
		p += len - 1;
	}
	return n;
}
