// SPDX-License-Identifier: MIT
/*
 * logbuf.c - the log file's write policy (see logbuf.h).
 */
#include "logbuf.h"

void logbuf_init(struct logbuf *lb, logbuf_write_fn write, void *ctx)
{
	lb->write = write;
	lb->ctx = ctx;
	lb->len = 0;
}

void logbuf_flush(struct logbuf *lb)
{
	if (lb->len)
		lb->write(lb->buf, lb->len, lb->ctx);
	lb->len = 0;
}

/* Progress lines may wait; anything else reaches the file at once (wrapped: by its start). */
static bool urgent(const char *line, size_t len)
{
	static const char *const progress[] = {"INFO: ", "REC: ", "MSR: "};

	for (size_t i = 0; i < ARRAY_SIZE(progress); i++) {
		size_t n = strlen(progress[i]);

		if (len >= n && !memcmp(line, progress[i], n))
			return false;
	}
	return true;
}

void logbuf_line(struct logbuf *lb, const char *line, size_t len)
{
	if (len > LOGBUF_SIZE - 1)
		len = LOGBUF_SIZE - 1;
	if (lb->len + len + 1 > LOGBUF_SIZE)
		logbuf_flush(lb);
	memcpy(lb->buf + lb->len, line, len);
	lb->buf[lb->len + len] = '\n';
	lb->len += len + 1;
	if (urgent(line, len))
		logbuf_flush(lb);
}
