// SPDX-License-Identifier: MIT
/*
 * options_sources.c - the option sources in their order (docs/OPTIONS.md):
 * the config file beside the binary, then the image's LoadOptions, which
 * win.  A refusal in one stops neither: the first refusal is the one ERROR
 * line, and every option read around it still lands, so exit= and pause=
 * decide how a refused run ends wherever they were written.
 */
#include "loadopts.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

int options_read_sources(struct options *o, const struct options_sources *s, char *line,
			 size_t line_size, bool *ignored, char *err, size_t err_size)
{
	char later[REPORT_LINE_MAX];
	int rc = 0;

	if (s->config_unreadable) {
		pp_snprintf(err, err_size,
			    "config file %s: unreadable (%s); accepted: an ASCII text file of "
			    "name=value lines up to 1 MiB, or no file",
			    s->config_path, s->config_unreadable);
		rc = -1;
	} else if (s->config_text) {
		rc = options_parse_config(o, s->config_path, s->config_text, s->config_len, err,
					  err_size);
	}
	if (loadopts_parse(o, s->loadopts, s->loadopts_bytes, s->config_path, line, line_size,
			   ignored, rc ? later : err, rc ? sizeof(later) : err_size))
		rc = -1;
	return rc;
}
