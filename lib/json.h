/* SPDX-License-Identifier: MIT */
/*
 * json.h - the JSON writer (RFC 8259), into a fixed buffer (no malloc):
 * the results file on the ESP (job/results.c, docs/RESULTS.md) and the
 * JSON Lines of the decoder (decode/render.c, pebs-decode --output json).
 *
 * json_put_string() is the one escaping rule: '"' and '\' get a backslash,
 * every other byte below 0x20 or from 0x7f on is written \u00XX (a byte,
 * not a decoded UTF-8 character), so the output is plain ASCII.
 *
 * struct json_out tracks nesting so commas come out right; once the buffer
 * is full it stops and says so.  The decoder lays out its own objects (one
 * per record, millions a second) with json_put_string and lib/fmt.h's
 * strbuf_put_dec/strbuf_put_hex.
 */
#ifndef PP_LIB_JSON_H
#define PP_LIB_JSON_H

#include "fmt.h"

/* A JSON string of s (NULL: ""), quotes included. */
void json_put_string(struct strbuf *sb, const char *s);

#define JSON_MAX_DEPTH 16

struct json_out {
	struct strbuf sb;
	unsigned int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json_out *j, char *buf, size_t size);
/*
 * Members without their object: "key":value,... as if inside an open
 * object (json_members_len gives the length when all is well, else 0);
 * json_put_members() puts such a piece into the object open in another
 * writer.  How the job hands its part of results.json to the writer of
 * the whole (job/results.c).
 */
void json_init_members(struct json_out *j, char *buf, size_t size);
size_t json_members_len(const struct json_out *j);
void json_put_members(struct json_out *j, const char *members, size_t len);
/* key may be NULL inside arrays and at the top level. */
void json_begin_object(struct json_out *j, const char *key);
void json_end_object(struct json_out *j);
void json_begin_array(struct json_out *j, const char *key);
void json_end_array(struct json_out *j);
void json_str(struct json_out *j, const char *key, const char *val);
void json_u64(struct json_out *j, const char *key, uint64_t val);
void json_bool(struct json_out *j, const char *key, bool val);
void json_null(struct json_out *j, const char *key);
/* Length written, or 0 when the buffer overflowed (the JSON would be cut). */
size_t json_finish(struct json_out *j);

#endif
