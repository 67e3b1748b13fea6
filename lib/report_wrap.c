// SPDX-License-Identifier: MIT
/*
 * report_wrap.c - a console line longer than the screen, cut into pieces
 * at spaces (report.h report_wrap).
 */
#include "report.h"
#include "fmt.h"

/*
 * Continuation pieces start with REPORT_WRAP_INDENT; a simulated line's
 * " [sim]" ends every piece.  Breaks at the last space that keeps the piece
 * within width (past a quarter of it); only a word longer than three
 * quarters of the width is cut, and a rejoined line then has a space there.
 */
void report_wrap(const char *line, unsigned int width, void (*out)(const char *piece, void *ctx),
		 void *ctx)
{
	static const char sim[] = " [sim]";
	size_t len = strlen(line), sim_len = sizeof(sim) - 1, indent = strlen(REPORT_WRAP_INDENT);
	bool marked = len >= sim_len && !strcmp(line + len - sim_len, sim);
	size_t body = marked ? len - sim_len : len, at = 0;
	char piece[REPORT_LINE_MAX + 16];
	bool first = true;

	if (len <= width || width <= indent + sim_len + 8) {
		out(line, ctx);
		return;
	}
	while (at < body) {
		size_t room = width - (marked ? sim_len : 0) - (first ? 0 : indent);
		size_t n = body - at, p = 0;

		if (n > room) {
			n = room;
			/* The last space within the room, past its first quarter. */
			for (size_t k = room; k > room / 4; k--) {
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
		if (marked) {
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
