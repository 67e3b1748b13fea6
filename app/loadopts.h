/* SPDX-License-Identifier: MIT */
/*
 * loadopts.h - the image's LoadOptions (UTF-16LE, as the firmware or the
 * UEFI shell hands them) into the options.  Pure C: efi/main.c hands in the
 * raw buffer, so the host's fuzz target (tests/fuzz/fuzz_loadopts.c) runs
 * the very code the firmware runs.
 */
#ifndef PP_LOADOPTS_H
#define PP_LOADOPTS_H

#include "options.h"

/* Characters of LoadOptions text accepted; longer text is refused, not cut. */
#define LOADOPTS_MAX OPT_LINE_MAX

/*
 * Parses `bytes` bytes of LoadOptions at w (UTF-16LE, an optional
 * byte-order mark, up to the first NUL) into o.  Options that are not
 * printable text (a boot entry's binary OptionalData) are not ours:
 * *ignored is set and 0 returned.  Returns 0, or -1 with err filled (one
 * line: what was wrong, what is accepted; config names the config file
 * that takes longer text).  line[] (at least LOADOPTS_MAX + 1 bytes) gets
 * the text that was parsed, for the log.
 */
int loadopts_parse(struct options *o, const uint16_t *w, size_t bytes, const char *config,
		   char *line, size_t line_size, bool *ignored, char *err, size_t err_size);

#endif
