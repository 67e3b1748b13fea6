// SPDX-License-Identifier: MIT
/*
 * render.c - a decoded record as key=value text, a JSON Lines object or a
 * CSV row, into a strbuf.  No format strings: pebs-decode must write JSON
 * at >= 2M records/s, so fields go out through lib/fmt.h's appenders and
 * strings through the one JSON writer's json_put_string (lib/json.h).
 */
#include "render.h"
#include "../lib/json.h"

static const char *const tsx_words[8] = {
    "hle",   "rtm",	 "instruction",	   "non_instruction",
    "retry", "conflict", "capacity_write", "capacity_read",
};

void pebs_render_tsx_flags(uint32_t flags, struct strbuf *sb)
{
	bool first = true;

	for (unsigned int i = 0; i < 8; i++) {
		if (!(flags & (1u << i)))
			continue;
		if (!first)
			strbuf_put(sb, ",", 1);
		strbuf_puts(sb, tsx_words[i]);
		first = false;
	}
}

/*
 * perf's words for a data_src, memoised: a run has few distinct values and
 * building the words is most of the cost of a JSON line.
 */
#define WORDS_CACHE 256 /* slots; a value is looked for in WORDS_PROBE consecutive ones */
#define WORDS_PROBE 8
static struct {
	uint64_t ds;
	bool valid, has_json;
	struct pebs_mem_words w;
	bool has_csv;
	size_t json_len, csv_len;
	char json[256]; /* the rendered "mem" object (at most ~200 bytes) */
	char csv[232];	/* ",op,level,snoop,tlb,lock,blocked" (at most 6 + 218 bytes) */
} words_cache[WORDS_CACHE];

static unsigned int words_slot(uint64_t ds)
{
	unsigned int h = (unsigned int)((ds * 0x9e3779b97f4a7c15ULL) >> 56), i = h;

	for (unsigned int k = 0; k < WORDS_PROBE; k++) {
		i = (h + k) % WORDS_CACHE;
		if (!words_cache[i].valid || words_cache[i].ds == ds)
			break;
	}
	/* found, a free slot, or (all taken) the last one probed is replaced */
	if (!words_cache[i].valid || words_cache[i].ds != ds) {
		pebs_mem_describe(ds, &words_cache[i].w);
		words_cache[i].ds = ds;
		words_cache[i].valid = true;
		words_cache[i].has_json = false;
		words_cache[i].has_csv = false;
	}
	return i;
}

static const struct pebs_mem_words *words_for(uint64_t ds)
{
	return &words_cache[words_slot(ds)].w;
}

/* ---- key=value ---- */

static void kv_hex(struct strbuf *sb, const char *k, uint64_t v)
{
	strbuf_put(sb, " ", 1);
	strbuf_puts(sb, k);
	strbuf_put(sb, "=", 1);
	strbuf_put_hex(sb, v);
}

static void kv_dec(struct strbuf *sb, const char *k, uint64_t v)
{
	strbuf_put(sb, " ", 1);
	strbuf_puts(sb, k);
	strbuf_put(sb, "=", 1);
	strbuf_put_dec(sb, v);
}

static void kv_word(struct strbuf *sb, const char *k, const char *v)
{
	strbuf_put(sb, " ", 1);
	strbuf_puts(sb, k);
	strbuf_put(sb, "=", 1);
	if (strchr(v, ' ') || strchr(v, ',')) {
		strbuf_put(sb, "\"", 1);
		strbuf_puts(sb, v);
		strbuf_put(sb, "\"", 1);
	} else {
		strbuf_puts(sb, v);
	}
}

void pebs_render_kv(const struct pebs_record *r, struct strbuf *sb)
{
	uint64_t h = r->have;

	strbuf_puts(sb, "offset=");
	strbuf_put_hex(sb, r->offset);
	kv_dec(sb, "size", r->size);
	if (h & HAVE_IP)
		kv_hex(sb, "ip", r->ip);
	if (h & HAVE_APPLICABLE)
		kv_hex(sb, "applicable_counters", r->applicable_counters);
	if (h & HAVE_DLA)
		kv_hex(sb, "data_la", r->data_la);
	if (h & HAVE_DSE)
		kv_hex(sb, "dse", r->dse);
	if (h & HAVE_LATENCY)
		kv_dec(sb, "latency", r->latency);
	if (h & HAVE_INSTR_LATENCY)
		kv_dec(sb, "instr_latency", r->instr_latency);
	if (h & HAVE_RETIRE_LATENCY)
		kv_dec(sb, "retire_latency", r->retire_latency);
	if (h & HAVE_TSC)
		kv_hex(sb, "tsc", r->tsc);
	if (h & HAVE_MEM) {
		const struct pebs_mem_words *w = words_for(r->data_src);

		kv_hex(sb, "data_src", r->data_src);
		kv_word(sb, "op", w->op);
		kv_word(sb, "level", w->level);
		kv_word(sb, "snoop", w->snoop);
		kv_word(sb, "tlb", w->tlb);
		kv_word(sb, "lock", w->lock);
		kv_word(sb, "blocked", w->blocked);
	} else if (h & HAVE_MEM_NA) {
		kv_word(sb, "level", "not available");
	}
	if ((h & HAVE_TSX) && (r->tsx.cycles || r->tsx.flags)) {
		kv_dec(sb, "tsx_cycles", r->tsx.cycles);
		strbuf_put(sb, " tsx_flags=", 11);
		if (r->tsx.flags)
			pebs_render_tsx_flags(r->tsx.flags, sb);
		else
			strbuf_put(sb, "none", 4);
		if (r->tsx.has_xabort)
			kv_hex(sb, "xabort", r->tsx.xabort);
	}
	if (h & HAVE_LBR)
		kv_dec(sb, "lbr", r->n_lbr);
	if (h & HAVE_COUNTERS)
		kv_dec(sb, "counters", r->n_counters);
}

/*
 * ---- JSON Lines and CSV ----
 *
 * Written straight into the caller's buffer through a cursor, with no room
 * check per field: one check per record against the most a record can
 * take (RENDER_MAX), else through a local buffer.  Constant text goes out
 * as one literal per key ("LIT"), numbers through fmt_hex/fmt_dec.
 */
#define LIT(p, s) (memcpy(p, s, sizeof(s) - 1), (p) + sizeof(s) - 1)

/*
 * Bound: 20 fixed fields of at most 40 bytes, the regs and SSP (19 x 30),
 * tsx (160), the cached mem object (256), 64 LBR entries of 84 bytes and 66
 * counters of 21: 7,784 bytes.
 */
#define RENDER_MAX 8192

static char *put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* The JSON keys of the regs object, in REG_* order, as literal text with their quotes. */
static const struct {
	char s[16];
	unsigned char n;
} reg_keys[REG_COUNT] = {
#define K(s)                                                                                       \
	{                                                                                          \
		s, sizeof(s) - 1                                                                   \
	}
    [REG_RFLAGS] = K("\"rflags\":\""), [REG_RIP] = K(",\"rip\":\""), [REG_RAX] = K(",\"rax\":\""),
    [REG_RBX] = K(",\"rbx\":\""),      [REG_RCX] = K(",\"rcx\":\""), [REG_RDX] = K(",\"rdx\":\""),
    [REG_RSI] = K(",\"rsi\":\""),      [REG_RDI] = K(",\"rdi\":\""), [REG_RBP] = K(",\"rbp\":\""),
    [REG_RSP] = K(",\"rsp\":\""),      [REG_R8] = K(",\"r8\":\""),   [REG_R9] = K(",\"r9\":\""),
    [REG_R10] = K(",\"r10\":\""),      [REG_R11] = K(",\"r11\":\""), [REG_R12] = K(",\"r12\":\""),
    [REG_R13] = K(",\"r13\":\""),      [REG_R14] = K(",\"r14\":\""), [REG_R15] = K(",\"r15\":\""),
#undef K
};

static char *json_regs(const struct pebs_record *r, char *p)
{
	p = LIT(p, ",\"regs\":{");
	for (unsigned int i = 0; i < REG_COUNT; i++) {
		/* all 16 bytes (a fixed-size copy, inlined), then only the key's length counts */
		memcpy(p, reg_keys[i].s, sizeof(reg_keys[i].s));
		p += reg_keys[i].n;
		p = fmt_hex(p, r->regs[i]);
		*p++ = '"';
	}
	/* arch-PEBS: the shadow stack pointer, in the GPR group after r15 (decode.c) */
	if (r->have & HAVE_SSP) {
		p = LIT(p, ",\"ssp\":\"");
		p = fmt_hex(p, r->ssp);
		*p++ = '"';
	}
	*p++ = '}';
	return p;
}

static char *json_tsx(const struct pebs_record *r, char *p)
{
	bool first = true;

	p = LIT(p, ",\"tsx\":{\"cycles\":");
	p = fmt_dec(p, r->tsx.cycles);
	p = LIT(p, ",\"flags\":[");
	for (unsigned int i = 0; i < 8; i++) {
		if (!(r->tsx.flags & (1u << i)))
			continue;
		if (!first)
			*p++ = ',';
		*p++ = '"';
		p = put_str(p, tsx_words[i], strlen(tsx_words[i])); /* plain words: no escapes */
		*p++ = '"';
		first = false;
	}
	*p++ = ']';
	if (r->tsx.has_xabort) {
		p = LIT(p, ",\"xabort\":");
		p = fmt_dec(p, r->tsx.xabort);
	}
	*p++ = '}';
	return p;
}

static void json_mem_object(uint64_t ds, const struct pebs_mem_words *w, struct strbuf *sb)
{
	strbuf_put(sb, "{\"data_src\":\"", 13);
	strbuf_put_hex(sb, ds);
	strbuf_put(sb, "\",\"op\":", 7);
	json_put_string(sb, w->op);
	strbuf_put(sb, ",\"level\":", 9);
	json_put_string(sb, w->level);
	strbuf_put(sb, ",\"snoop\":", 9);
	json_put_string(sb, w->snoop);
	strbuf_put(sb, ",\"tlb\":", 7);
	json_put_string(sb, w->tlb);
	strbuf_put(sb, ",\"lock\":", 8);
	json_put_string(sb, w->lock);
	strbuf_put(sb, ",\"blocked\":", 11);
	json_put_string(sb, w->blocked);
	strbuf_put(sb, "}", 1);
}

/* The "mem" object, rendered once per data-source value and cached. */
static char *json_mem(const struct pebs_record *r, char *p)
{
	unsigned int i;

	p = LIT(p, ",\"mem\":");
	if (!(r->have & HAVE_MEM))
		return LIT(p, "{\"level\":\"not available\"}");
	i = words_slot(r->data_src);
	if (!words_cache[i].has_json) {
		struct strbuf m;

		strbuf_init(&m, words_cache[i].json, sizeof(words_cache[i].json));
		json_mem_object(r->data_src, &words_cache[i].w, &m);
		words_cache[i].json_len = m.len; /* perf's words: at most ~200 bytes, never cut */
		words_cache[i].has_json = true;
	}
	return put_str(p, words_cache[i].json, words_cache[i].json_len);
}

static char *json_lists(const struct pebs_record *r, char *p)
{
	if (r->have & HAVE_LBR) {
		p = LIT(p, ",\"lbr\":[");
		for (unsigned int i = 0; i < r->n_lbr; i++) {
			if (i)
				*p++ = ',';
			p = LIT(p, "{\"from\":\"");
			p = fmt_hex(p, r->lbr[i].from);
			p = LIT(p, "\",\"to\":\"");
			p = fmt_hex(p, r->lbr[i].to);
			p = LIT(p, "\",\"info\":\"");
			p = fmt_hex(p, r->lbr[i].info);
			p = LIT(p, "\"}");
		}
		*p++ = ']';
	}
	if (r->have & HAVE_COUNTERS) {
		p = LIT(p, ",\"counters\":[");
		for (unsigned int i = 0; i < r->n_counters; i++) {
			if (i)
				*p++ = ',';
			*p++ = '"';
			p = fmt_hex(p, r->counters[i]);
			*p++ = '"';
		}
		*p++ = ']';
	}
	return p;
}

#define J_HEX(p, key, v) (p = LIT(p, ",\"" key "\":\""), p = fmt_hex(p, v), *p++ = '"')
#define J_DEC(p, key, v) (p = LIT(p, ",\"" key "\":"), p = fmt_dec(p, v))

static char *json_record(const struct pebs_record *r, char *p)
{
	uint64_t h = r->have;

	p = LIT(p, "{\"offset\":");
	p = fmt_dec(p, r->offset);
	J_DEC(p, "size", r->size);
	if (h & HAVE_IP)
		J_HEX(p, "ip", r->ip);
	if (h & HAVE_APPLICABLE)
		J_HEX(p, "applicable_counters", r->applicable_counters);
	if (h & HAVE_DLA)
		J_HEX(p, "data_la", r->data_la);
	if (h & HAVE_DSE)
		J_HEX(p, "dse", r->dse);
	if (h & HAVE_LATENCY)
		J_DEC(p, "latency", r->latency);
	if (h & HAVE_INSTR_LATENCY)
		J_DEC(p, "instr_latency", r->instr_latency);
	if (h & HAVE_RETIRE_LATENCY)
		J_DEC(p, "retire_latency", r->retire_latency);
	if (h & HAVE_TSC)
		J_HEX(p, "tsc", r->tsc);
	if (h & HAVE_REGS)
		p = json_regs(r, p);
	if (h & HAVE_TSX)
		p = json_tsx(r, p);
	if (h & (HAVE_MEM | HAVE_MEM_NA))
		p = json_mem(r, p);
	p = json_lists(r, p);
	*p++ = '}';
	return p;
}

/* Renders with fn straight into sb when RENDER_MAX bytes fit, else through a buffer of ours. */
static void render_into(const struct pebs_record *r, struct strbuf *sb,
			char *(*fn)(const struct pebs_record *, char *))
{
	/* Not on the stack (8 KiB; UEFI frames <= 1 KiB): one render at a time, as words_cache. */
	static char tmp[RENDER_MAX];

	if (sb->size && sb->size - 1 - sb->len >= RENDER_MAX) {
		sb->len += (size_t)(fn(r, sb->buf + sb->len) - (sb->buf + sb->len));
		sb->buf[sb->len] = '\0';
	} else {
		strbuf_put(sb, tmp, (size_t)(fn(r, tmp) - tmp));
	}
}

void pebs_render_json(const struct pebs_record *r, struct strbuf *sb)
{
	render_into(r, sb, json_record);
}

/* ---- CSV ---- */

static const char csv_header[] =
    "offset,size,ip,applicable_counters,data_la,dse,latency,instr_latency,retire_latency,"
    "tsc,data_src,op,level,snoop,tlb,lock,blocked,tsx_cycles,tsx_flags,xabort";

void pebs_render_csv_header(struct strbuf *sb)
{
	strbuf_put(sb, csv_header, sizeof(csv_header) - 1);
}

static char *c_hex(char *p, bool have, uint64_t v)
{
	*p++ = ',';
	return have ? fmt_hex(p, v) : p;
}

static char *c_dec(char *p, bool have, uint64_t v)
{
	*p++ = ',';
	return have ? fmt_dec(p, v) : p;
}

/* ",op,level,snoop,tlb,lock,blocked" for a data source, rendered once and cached. */
static char *csv_words(const struct pebs_record *r, char *p)
{
	unsigned int i;

	if (!(r->have & HAVE_MEM))
		return (r->have & HAVE_MEM_NA) ? LIT(p, ",,not available,,,,") : LIT(p, ",,,,,,");
	i = words_slot(r->data_src);
	if (!words_cache[i].has_csv) {
		const struct pebs_mem_words *w = &words_cache[i].w;
		const char *words[6] = {w->op, w->level, w->snoop, w->tlb, w->lock, w->blocked};
		char *q = words_cache[i].csv;

		for (unsigned int k = 0; k < 6; k++) {
			*q++ = ',';
			q = put_str(q, words[k],
				    strlen(words[k])); /* perf's words: no comma or quote */
		}
		words_cache[i].csv_len = (size_t)(q - words_cache[i].csv);
		words_cache[i].has_csv = true;
	}
	return put_str(p, words_cache[i].csv, words_cache[i].csv_len);
}

static char *csv_record(const struct pebs_record *r, char *p)
{
	uint64_t h = r->have;
	bool tsx = h & HAVE_TSX;

	p = fmt_dec(p, r->offset);
	p = c_dec(p, true, r->size);
	p = c_hex(p, h & HAVE_IP, r->ip);
	p = c_hex(p, h & HAVE_APPLICABLE, r->applicable_counters);
	p = c_hex(p, h & HAVE_DLA, r->data_la);
	p = c_hex(p, h & HAVE_DSE, r->dse);
	p = c_dec(p, h & HAVE_LATENCY, r->latency);
	p = c_dec(p, h & HAVE_INSTR_LATENCY, r->instr_latency);
	p = c_dec(p, h & HAVE_RETIRE_LATENCY, r->retire_latency);
	p = c_hex(p, h & HAVE_TSC, r->tsc);
	p = c_hex(p, h & HAVE_MEM, r->data_src);
	p = csv_words(r, p);
	p = c_dec(p, tsx, r->tsx.cycles);
	*p++ = ',';
	if (tsx && r->tsx.flags) {
		struct strbuf fl;

		*p++ = '"';
		strbuf_init(&fl, p, 120); /* eight words, 77 bytes with their commas */
		pebs_render_tsx_flags(r->tsx.flags, &fl);
		p += fl.len;
		*p++ = '"';
	}
	return c_hex(p, r->tsx.has_xabort, r->tsx.xabort);
}

void pebs_render_csv(const struct pebs_record *r, struct strbuf *sb)
{
	render_into(r, sb, csv_record);
}
