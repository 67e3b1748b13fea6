// SPDX-License-Identifier: MIT
/* json.c - the JSON writer (RFC 8259 strings and numbers; json.h). */
#include "json.h"

void json_init(struct json_out *j, char *buf, size_t size)
{
	memset(j, 0, sizeof(*j));
	strbuf_init(&j->sb, buf, size);
}

void json_init_members(struct json_out *j, char *buf, size_t size)
{
	json_init(j, buf, size);
	j->depth = 1;
}

size_t json_members_len(const struct json_out *j)
{
	return j->sb.truncated || j->depth != 1 ? 0 : j->sb.len;
}

void json_put_members(struct json_out *j, const char *members, size_t len)
{
	if (!len)
		return;
	if (j->need_comma[j->depth])
		strbuf_puts(&j->sb, ",");
	j->need_comma[j->depth] = true;
	strbuf_put(&j->sb, members, len);
}

void json_put_string(struct strbuf *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run;

	if (!s)
		s = "";
	strbuf_put(sb, "\"", 1);
	/* Runs of bytes that need no escape go out in one piece. */
	for (run = s; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			continue;
		strbuf_put(sb, run, (size_t)(s - run));
		run = s + 1;
		/* Control bytes and non-ASCII: \u escapes keep the output plain ASCII. */
		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			strbuf_put(sb, esc, 2);
		} else {
			strbuf_put(sb, esc, 6);
		}
	}
	strbuf_put(sb, run, (size_t)(s - run));
	strbuf_put(sb, "\"", 1);
}

/* A comma before every member but the first, then the key. */
static void member(struct json_out *j, const char *key)
{
	if (j->need_comma[j->depth])
		strbuf_puts(&j->sb, ",");
	j->need_comma[j->depth] = true;
	if (key) {
		json_put_string(&j->sb, key);
		strbuf_puts(&j->sb, ":");
	}
}

static void open_level(struct json_out *j, const char *key, const char *bracket)
{
	member(j, key);
	strbuf_puts(&j->sb, bracket);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	else
		j->sb.truncated = true; /* too deep: refuse to write broken JSON */
	j->need_comma[j->depth] = false;
}

static void close_level(struct json_out *j, const char *bracket)
{
	if (j->depth)
		j->depth--;
	strbuf_puts(&j->sb, bracket);
}

void json_begin_object(struct json_out *j, const char *key)
{
	open_level(j, key, "{");
}

void json_end_object(struct json_out *j)
{
	close_level(j, "}");
}

void json_begin_array(struct json_out *j, const char *key)
{
	open_level(j, key, "[");
}

void json_end_array(struct json_out *j)
{
	close_level(j, "]");
}

void json_str(struct json_out *j, const char *key, const char *val)
{
	member(j, key);
	json_put_string(&j->sb, val);
}

void json_u64(struct json_out *j, const char *key, uint64_t val)
{
	member(j, key);
	strbuf_put_dec(&j->sb, val);
}

void json_bool(struct json_out *j, const char *key, bool val)
{
	member(j, key);
	strbuf_puts(&j->sb, val ? "true" : "false");
}

void json_null(struct json_out *j, const char *key)
{
	member(j, key);
	strbuf_puts(&j->sb, "null");
}

size_t json_finish(struct json_out *j)
{
	strbuf_puts(&j->sb, "\n");
	if (j->sb.truncated || j->depth)
		return 0;
	return j->sb.len;
}
