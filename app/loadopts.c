// SPDX-License-Identifier: MIT
/*
 * loadopts.c - LoadOptions into the options (loadopts.h).  UEFI 2.10 section
 * 3.1.3 (Load Options) leaves OptionalData's format to the loader: the shell
 * passes the command line as UCS-2 text, a boot entry may pass any bytes.
 */
#include "loadopts.h"
#include "../lib/fmt.h"

/*
 * UCS-2 to ASCII up to the first NUL, tabs and line ends as spaces; *len
 * counts every character, also those past size - 1, so that a long text is
 * refused with its length instead of cut.  False when a character is not
 * printable ASCII.
 */
static bool to_ascii(const uint16_t *w, size_t n, char *out, size_t size, size_t *len)
{
	size_t i = 0;

	*len = 0;
	out[0] = 0;
	if (n && w[0] == 0xfeff)
		i = 1;
	for (; i < n && w[i]; i++) {
		uint16_t c = w[i];

		if (c == '\t' || c == '\r' || c == '\n')
			c = ' ';
		if (c < 0x20 || c > 0x7e) {
			out[0] = 0;
			return false;
		}
		if (*len + 1 < size)
			out[*len] = (char)c;
		(*len)++;
	}
	out[*len + 1 < size ? *len : 0] = 0;
	return true;
}

int loadopts_parse(struct options *o, const uint16_t *w, size_t bytes, const char *config,
		   char *line, size_t line_size, bool *ignored, char *err, size_t err_size)
{
	size_t len;

	*ignored = false;
	line[0] = 0;
	if (!w || bytes < sizeof(*w))
		return 0;
	if (!to_ascii(w, bytes / sizeof(*w), line, line_size, &len)) {
		*ignored = true;
		return 0;
	}
	if (len >= line_size) {
		line[0] = 0;
		pp_snprintf(err, err_size,
			    "LoadOptions: %zu characters, longer than the %zu accepted (put the "
			    "options in %s instead, up to %u characters a line)",
			    len, line_size - 1, config, OPT_LINE_MAX);
		return -1;
	}
	if (line[0] && options_parse_line(o, line, true, err, err_size))
		return -1;
	return 0;
}
