/* SPDX-License-Identifier: MIT */
/*
 * json.h - a small JSON writer into a fixed buffer (no malloc), for the
 * results file on the ESP (docs/RESULTS.md).  It tracks nesting so commas
 * come out right; once the buffer is full it stops and says so.
 */
#ifndef PP_LIB_JSON_H
#define PP_LIB_JSON_H

#include "fmt.h"

#define JSON_MAX_DEPTH 16

struct json_out {
	struct strbuf sb;
	unsigned int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json_out *j, char *buf, size_t size);
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
