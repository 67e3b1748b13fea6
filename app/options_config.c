// SPDX-License-Identifier: MIT
/*
 * options_config.c - the config file's text (PEBSPROBE.CFG, docs/OPTIONS.md)
 * into options: line by line through options_parse_line, each error named
 * by its file and line, or by the "#@source" name the lines came from; a
 * byte-order mark, an over-long line or a control byte refused as such.
 */
#include "options.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

/*
 * "#@source NAME": the lines after it came from NAME, counted from 1 again
 * (run-qemu.sh merges a --config file and its -- options into one
 * PEBSPROBE.CFG), so an error names what the user wrote, not the merge.
 * To every other reader it is a comment.
 */
#define SOURCE_MARK	"#@source "
#define SOURCE_NAME_MAX 96

static bool source_mark(const char *line, char *name)
{
	size_t n = strlen(line), k = sizeof(SOURCE_MARK) - 1;

	if (strncmp(line, SOURCE_MARK, k))
		return false;
	if (n && line[n - 1] == '\r')
		n--;
	n -= k;
	if (n >= SOURCE_NAME_MAX)
		n = SOURCE_NAME_MAX - 1;
	memcpy(name, line + k, n);
	name[n] = 0;
	/* An error line names it: a control byte would split or colour that line. */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)name[i] < 0x20 || (unsigned char)name[i] > 0x7e)
			name[i] = '?';
	return true;
}

/* Where a config line is, for its error: "FILE: config line N" or "SOURCE line N". */
static void config_where(char *out, size_t size, const char *file, const char *source,
			 unsigned int lineno)
{
	if (source[0])
		pp_snprintf(out, size, "%s line %u", source, lineno);
	else if (file)
		pp_snprintf(out, size, "%s: config line %u", file, lineno);
	else
		pp_snprintf(out, size, "config line %u", lineno);
}

/*
 * Tabs separate, a CR ends a Windows line; other control bytes (ESC) are
 * refused.  False with err filled (when err is not NULL) at the first.
 */
static bool plain_text(const char *line, size_t n, const char *where, char *err, size_t err_size)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = (uint8_t)line[i];

		if (c == '\t' || (c == '\r' && i + 1 == n))
			continue;
		if (c < 0x20 || c > 0x7e) {
			if (err)
				pp_snprintf(
				    err, err_size,
				    "%s: not plain ASCII text (byte 0x%02x at column "
				    "%zu; accepted: printable ASCII, tabs, CR LF line ends)",
				    where, c, i + 1);
			return false;
		}
	}
	return true;
}

int options_parse_config(struct options *o, const char *file, const char *text, size_t len,
			 char *err, size_t err_size)
{
	static char line[OPT_LINE_MAX + 1]; /* a line long: not on the stack */
	char source[SOURCE_NAME_MAX] = "", where[SOURCE_NAME_MAX + 160];
	size_t pos = 0;
	unsigned int lineno = 0;
	int rc = 0;

	/*
	 * A refused line is the error (the first one), but the lines after it
	 * are still read, as the tokens after a refused one are: exit= and
	 * pause= written below a typo still decide how the run ends.
	 */
	while (pos < len) {
		size_t n = 0;
		char inner[REPORT_LINE_MAX];
		const uint8_t *u = (const uint8_t *)text + pos;

		lineno++;
		config_where(where, sizeof(where), file, source, lineno);
		/*
		 * A file's first line may start with a byte-order mark: UTF-8's
		 * (a Windows editor's) is skipped; UTF-16's (Notepad's "Unicode")
		 * makes every other byte 0, so it is named, not read as bytes.
		 */
		if (lineno == 1 && len - pos >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
			pos += 3;
			u += 3;
		}
		if (lineno == 1 && len - pos >= 2 &&
		    ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff))) {
			pp_snprintf(err, err_size,
				    "%s: UTF-16 text (byte-order mark 0x%02x 0x%02x; accepted: "
				    "ASCII text, saved as ANSI or UTF-8)",
				    where, u[0], u[1]);
			return -1;
		}
		while (pos + n < len && text[pos + n] != '\n')
			n++;
		if (n >= sizeof(line)) {
			if (!rc++)
				pp_snprintf(err, err_size,
					    "%s: longer than %u characters (accepted: lines of "
					    "at most %u characters; more lines for more options)",
					    where, (unsigned int)sizeof(line) - 1,
					    (unsigned int)sizeof(line) - 1);
			pos += n + 1;
			continue;
		}
		memcpy(line, text + pos, n);
		line[n] = 0;
		pos += n + 1;
		if (!plain_text(line, n, where, rc ? NULL : err, err_size)) {
			rc = 1;
			continue;
		}
		if (source_mark(line, source)) {
			lineno = 0;
			continue;
		}
		if (options_parse_line(o, line, false, inner, sizeof(inner)) && !rc++)
			pp_snprintf(err, err_size, "%s: %s", where, inner);
	}
	return rc ? -1 : 0;
}
