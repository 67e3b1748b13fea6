// SPDX-License-Identifier: MIT
/*
 * dump.c - the raw dump file (layout in dump.h and docs/DECODER.md):
 * serialiser into a caller buffer and a bounds-checked parser.
 */
#include "dump.h"
#include "../lib/fmt.h"

enum {
	H_MAGIC = 0x00,
	H_VERSION = 0x08,
	H_HDRSIZE = 0x0a,
	H_FLAGS = 0x0c,
	H_FMT = 0x10,
	H_NCNT = 0x14,
	H_UARCH = 0x18,
	H_KIND = 0x20,
	H_DATACFG = 0x30,
	H_ENABLED = 0x38,
	H_RECLEN = 0x40,
	H_RSVD = 0x48,
	C_INDEX = 0x00,
	C_CODE = 0x08,
	C_NAME = 0x10,
};
#define UARCH_LEN   8
#define KIND_LEN    16
#define F_TIMED	    1u
#define F_ADAPTIVE  2u
#define F_SIMULATED 4u /* version 2 */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4); /* little-endian hosts and targets only */
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Copies a string into a NUL-padded field, always leaving a NUL. */
static void put_name(uint8_t *p, size_t field, const char *s)
{
	size_t n = strlen(s);

	if (n > field - 1)
		n = field - 1;
	memset(p, 0, field);
	memcpy(p, s, n);
}

bool pebs_dump_add_counter(struct pebs_dump_info *di, uint32_t index, uint64_t code,
			   const char *name)
{
	struct pebs_dump_counter *c;
	size_t n = name ? strlen(name) : 0;

	if (di->n_counters >= PEBS_DUMP_MAX_COUNTERS)
		return false;
	c = &di->counters[di->n_counters++];
	c->index = index;
	c->code = code;
	if (n > PEBS_DUMP_NAME_LEN - 1)
		n = PEBS_DUMP_NAME_LEN - 1;
	memset(c->name, 0, sizeof(c->name));
	if (n)
		memcpy(c->name, name, n);
	return true;
}

size_t pebs_dump_header_size(const struct pebs_dump_info *di)
{
	unsigned int n =
	    di->n_counters < PEBS_DUMP_MAX_COUNTERS ? di->n_counters : PEBS_DUMP_MAX_COUNTERS;

	return PEBS_DUMP_FIXED_HDR + (size_t)PEBS_DUMP_COUNTER_SIZE * n;
}

size_t pebs_dump_size(const struct pebs_dump_info *di, size_t records_len)
{
	return pebs_dump_header_size(di) + records_len;
}

size_t pebs_dump_write(const struct pebs_dump_info *di, const uint8_t *records, size_t records_len,
		       uint8_t *out, size_t out_size)
{
	size_t hs = pebs_dump_header_size(di);

	if (di->n_counters > PEBS_DUMP_MAX_COUNTERS || out_size < hs ||
	    out_size - hs < records_len || (records_len && !records) ||
	    di->cfg.uarch >= UARCH_COUNT || di->cfg.kind >= KIND_COUNT)
		return 0;
	memset(out, 0, hs);
	memcpy(out + H_MAGIC, PEBS_DUMP_MAGIC, 8);
	put16(out + H_VERSION, PEBS_DUMP_VERSION);
	put16(out + H_HDRSIZE, (uint16_t)hs);
	put32(out + H_FLAGS, (di->cfg.timed ? F_TIMED : 0) | (di->cfg.adaptive ? F_ADAPTIVE : 0) |
				 (di->simulated ? F_SIMULATED : 0));
	put32(out + H_FMT, di->cfg.fmt);
	put32(out + H_NCNT, di->n_counters);
	put_name(out + H_UARCH, UARCH_LEN, di->cfg.uarch ? pebs_uarch_name(di->cfg.uarch) : "");
	put_name(out + H_KIND, KIND_LEN, pebs_kind_name(di->cfg.kind));
	put64(out + H_DATACFG, di->cfg.data_cfg);
	put64(out + H_ENABLED, di->cfg.pebs_enabled);
	put64(out + H_RECLEN, records_len);
	for (unsigned int i = 0; i < di->n_counters; i++) {
		uint8_t *c = out + PEBS_DUMP_FIXED_HDR + PEBS_DUMP_COUNTER_SIZE * i;

		put32(c + C_INDEX, di->counters[i].index);
		put64(c + C_CODE, di->counters[i].code);
		put_name(c + C_NAME, PEBS_DUMP_NAME_LEN, di->counters[i].name);
	}
	if (records_len)
		memcpy(out + hs, records, records_len);
	return hs + records_len;
}

/* A NUL-padded name field; false if it is not NUL terminated. */
static bool get_name(const uint8_t *p, size_t field, char *out)
{
	for (size_t i = 0; i < field; i++) {
		out[i] = (char)p[i];
		if (!p[i])
			return true;
	}
	return false;
}

static int bad(char *why, size_t size, const char *what, unsigned int off)
{
	pp_snprintf(why, size, "dump header: %s at offset 0x%x", what, off);
	return -1;
}

int pebs_dump_parse_header(const uint8_t *buf, size_t len, struct pebs_dump_info *di, char *why,
			   size_t why_size)
{
	char uarch[UARCH_LEN], kind[KIND_LEN], msg[96];
	size_t hs;
	uint32_t flags;

	memset(di, 0, sizeof(*di));
	if (len < PEBS_DUMP_FIXED_HDR)
		return bad(why, why_size, "file shorter than the 0x50-byte header",
			   (unsigned int)len);
	if (memcmp(buf + H_MAGIC, PEBS_DUMP_MAGIC, 8))
		return bad(why, why_size, "bad magic (expected \"PEBSDUMP\")", H_MAGIC);
	di->version = buf[H_VERSION] | buf[H_VERSION + 1] << 8;
	if (di->version < PEBS_DUMP_VERSION_MIN || di->version > PEBS_DUMP_VERSION)
		return bad(why, why_size, "unsupported version (accepted: 1, 2)", H_VERSION);
	di->n_counters = get_le32(buf + H_NCNT);
	if (di->n_counters > PEBS_DUMP_MAX_COUNTERS)
		return bad(why, why_size, "more than 16 counters", H_NCNT);
	hs = pebs_dump_header_size(di);
	if ((size_t)(buf[H_HDRSIZE] | buf[H_HDRSIZE + 1] << 8) != hs)
		return bad(why, why_size, "header size disagrees with the counter count",
			   H_HDRSIZE);
	if (len < hs)
		return bad(why, why_size, "file ends inside the counter table", (unsigned int)len);
	flags = get_le32(buf + H_FLAGS);
	if (flags & ~(F_TIMED | F_ADAPTIVE | (di->version >= 2 ? F_SIMULATED : 0)))
		return bad(why, why_size, "unknown flag bits", H_FLAGS);
	di->cfg.timed = flags & F_TIMED;
	di->cfg.adaptive = flags & F_ADAPTIVE;
	di->simulated = flags & F_SIMULATED;
	di->cfg.fmt = get_le32(buf + H_FMT);
	if (di->cfg.fmt > 6 && di->cfg.fmt != PEBS_FMT_ARCH)
		return bad(why, why_size, "unknown record format (accepted: 0-6, 15 = arch)",
			   H_FMT);
	if (!get_name(buf + H_UARCH, UARCH_LEN, uarch))
		return bad(why, why_size, "uarch name not NUL terminated", H_UARCH);
	if (uarch[0] && !pebs_uarch_from_name(uarch, &di->cfg.uarch)) {
		/* The file's bytes go into the error line: a newline or ESC shown as '?'. */
		for (char *p = uarch; *p; p++)
			if ((uint8_t)*p < 0x20 || (uint8_t)*p > 0x7e)
				*p = '?';
		pp_snprintf(msg, sizeof(msg), "unknown uarch '%s'", uarch);
		return bad(why, why_size, msg, H_UARCH);
	}
	if (!get_name(buf + H_KIND, KIND_LEN, kind) || !pebs_kind_from_name(kind, &di->cfg.kind))
		return bad(why, why_size, "unknown event kind", H_KIND);
	di->cfg.data_cfg = get_le64(buf + H_DATACFG);
	di->cfg.pebs_enabled = get_le64(buf + H_ENABLED);
	di->records_declared = get_le64(buf + H_RECLEN);
	for (unsigned int i = 0; i < di->n_counters; i++) {
		const uint8_t *c = buf + PEBS_DUMP_FIXED_HDR + PEBS_DUMP_COUNTER_SIZE * i;

		di->counters[i].index = get_le32(c + C_INDEX);
		di->counters[i].code = get_le64(c + C_CODE);
		if (!get_name(c + C_NAME, PEBS_DUMP_NAME_LEN, di->counters[i].name))
			return bad(why, why_size, "counter name not NUL terminated",
				   (unsigned int)(PEBS_DUMP_FIXED_HDR + PEBS_DUMP_COUNTER_SIZE * i +
						  C_NAME));
	}
	return 0;
}

int pebs_dump_check_length(const struct pebs_dump_info *di, uint64_t have, char *why,
			   size_t why_size)
{
	uint64_t want = di->records_declared, end = pebs_dump_header_size(di) + have;

	if (have < want) {
		pp_snprintf(why, why_size,
			    "dump truncated: header says %llu record bytes, file has %llu (ends at "
			    "offset 0x%llx)",
			    (unsigned long long)want, (unsigned long long)have,
			    (unsigned long long)end);
		return 1;
	}
	if (have > want) {
		pp_snprintf(why, why_size,
			    "dump header says %llu record bytes (offset 0x%x), but %llu follow the "
			    "header (the file ends at offset 0x%llx): the %llu after offset 0x%llx "
			    "were not decoded",
			    (unsigned long long)want, H_RECLEN, (unsigned long long)have,
			    (unsigned long long)end, (unsigned long long)(have - want),
			    (unsigned long long)(end - (have - want)));
		return 1;
	}
	return 0;
}

int pebs_dump_parse(const uint8_t *buf, size_t len, struct pebs_dump_info *di,
		    const uint8_t **records, size_t *records_len, char *why, size_t why_size)
{
	size_t have;

	*records = NULL;
	*records_len = 0;
	if (pebs_dump_parse_header(buf, len, di, why, why_size) < 0)
		return -1;
	have = len - pebs_dump_header_size(di);
	*records = buf + pebs_dump_header_size(di);
	if (di->records_declared > have) {
		*records_len = have;
		return pebs_dump_check_length(di, have, why, why_size);
	}
	*records_len = (size_t)di->records_declared;
	return 0;
}
