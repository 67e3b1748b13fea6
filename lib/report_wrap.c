// SPDX-License-Identifier: MIT
/*
 * report_wrap.c - a console line longer than the screen, cut into pieces
 * at spaces (report.h report_wrap).
 */
#include "report.h"
#include "fmt.h"

/*
 * Continuation pieces start with REPORT_WRAP_INDENT; a simulated line's
 * " [sim]" ends its last piece only, once per line as the grammar has it.
 * Breaks at the last space that keeps the piece within width (past a
 * quarter of it); only a word longer than three quarters of the width is
 * cut, and a rejoined line then has a space there.
 */
void report_wrap(const char *line, unsigned int width, void (*out)(const char *piece, void *ctx),
		 void *ctx)
{
	static const char sim[] = " [sim]";
	size_t len = strlen(line), sim_len = sizeof(sim) - 1, indent = strlen(REPORT_WRAP_INDENT);
	bool marked = len >= sim_len && !strcmp(line + len - sim_len, sim);
	size_t mark = marked ? sim_len : 0, body = len - mark, at = 0;
	char piece[REPORT_LINE_MAX + 16];
	bool first = true;

	if (len <= width || width <= indent + sim_len + 8) {
		out(line, ctx);
		return;
	}
	while (at < body) {
		size_t room = width - (first ? 0 : indent), n = body - at, p = 0;
		bool last = n + mark <= room;

		/*
		 * Not the last piece: its break within the room, or, where the rest
		 * would fit but for the mark, within the room less the mark, so the
		 * piece after it ends the line with the mark.
		 */
		if (!last) {
			size_t lim = n <= room ? room - mark : room;

			n = lim;
			/* The last space within the limit, past its first quarter. */
			for (size_t k = lim; k > lim / 4; k--) {
				if (line[at + k] == ' ') {
					n = k;
					break;
				}
			}
		}
		if (!first) {
			memcpy(piece, REPORT_WRAP_INDENT, indent);
			p = indent;
		}
		memcpy(piece + p, line + at, n);
		p += n;
		if (last && marked) {
			memcpy(piece + p, sim, sim_len);
			p += sim_len;
		}
		piece[p] = 0;
		out(piece, ctx);
		at += n;
		while (at < body && line[at] == ' ')
			at++;
		first = false;
	}
}
