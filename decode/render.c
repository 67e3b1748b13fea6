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

static const char *const reg_names[REG_COUNT] = {
    [REG_RFLAGS] = "rflags", [REG_RIP] = "rip", [REG_RAX] = "rax", [REG_RBX] = "rbx",
    [REG_RCX] = "rcx",	     [REG_RDX] = "rdx", [REG_RSI] = "rsi", [REG_RDI] = "rdi",
    [REG_RBP] = "rbp",	     [REG_RSP] = "rsp", [REG_R8] = "r8",   [REG_R9] = "r9",
    [REG_R10] = "r10",	     [REG_R11] = "r11", [REG_R12] = "r12", [REG_R13] = "r13",
    [REG_R14] = "r14",	     [REG_R15] = "r15",
};

/*
 * perf's words for a data_src, memoised: a run has few distinct values and
 * building the words is most of the cost of a JSON line.
 */
#define WORDS_CACHE 128
static struct {
	uint64_t ds;
	bool valid, has_json;
	struct pebs_mem_words w;
	size_t json_len;
	char json[256]; /* the rendered "mem" object (at most ~200 bytes) */
} words_cache[WORDS_CACHE];

static unsigned int words_slot(uint64_t ds)
{
	unsigned int i = (unsigned int)((ds * 0x9e3779b97f4a7c15ULL) >> 57);

	if (!words_cache[i].valid || words_cache[i].ds != ds) {
		pebs_mem_describe(ds, &words_cache[i].w);
		words_cache[i].ds = ds;
		words_cache[i].valid = true;
		words_cache[i].has_json = false;
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

/* ---- JSON Lines ---- */

static void j_key(struct strbuf *sb, const char *k)
{
	strbuf_put(sb, ",\"", 2);
	strbuf_puts(sb, k);
	strbuf_put(sb, "\":", 2);
}

static void j_hex(struct strbuf *sb, const char *k, uint64_t v)
{
	j_key(sb, k);
	strbuf_put(sb, "\"", 1);
	strbuf_put_hex(sb, v);
	strbuf_put(sb, "\"", 1);
}

static void j_dec(struct strbuf *sb, const char *k, uint64_t v)
{
	j_key(sb, k);
	strbuf_put_dec(sb, v);
}

static void json_regs(const struct pebs_record *r, struct strbuf *sb)
{
	j_key(sb, "regs");
	strbuf_put(sb, "{", 1);
	for (unsigned int i = 0; i < REG_COUNT; i++) {
		if (i)
			strbuf_put(sb, ",", 1);
		strbuf_put(sb, "\"", 1);
		strbuf_puts(sb, reg_names[i]);
		strbuf_put(sb, "\":\"", 3);
		strbuf_put_hex(sb, r->regs[i]);
		strbuf_put(sb, "\"", 1);
	}
	strbuf_put(sb, "}", 1);
}

static void json_tsx(const struct pebs_record *r, struct strbuf *sb)
{
	bool first = true;

	j_key(sb, "tsx");
	strbuf_put(sb, "{\"cycles\":", 10);
	strbuf_put_dec(sb, r->tsx.cycles);
	strbuf_put(sb, ",\"flags\":[", 10);
	for (unsigned int i = 0; i < 8; i++) {
		if (!(r->tsx.flags & (1u << i)))
			continue;
		if (!first)
			strbuf_put(sb, ",", 1);
		json_put_string(sb, tsx_words[i]);
		first = false;
	}
	strbuf_put(sb, "]", 1);
	if (r->tsx.has_xabort) {
		strbuf_put(sb, ",\"xabort\":", 10);
		strbuf_put_dec(sb, r->tsx.xabort);
	}
	strbuf_put(sb, "}", 1);
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

static void json_mem(const struct pebs_record *r, struct strbuf *sb)
{
	unsigned int i;

	j_key(sb, "mem");
	if (!(r->have & HAVE_MEM)) {
		strbuf_put(sb, "{\"level\":\"not available\"}", 25);
		return;
	}
	i = words_slot(r->data_src);
	if (!words_cache[i].has_json) {
		struct strbuf m;

		strbuf_init(&m, words_cache[i].json, sizeof(words_cache[i].json));
		json_mem_object(r->data_src, &words_cache[i].w, &m);
		if (m.truncated) { /* cannot happen with perf's words; stay correct */
			json_mem_object(r->data_src, &words_cache[i].w, sb);
			return;
		}
		words_cache[i].json_len = m.len;
		words_cache[i].has_json = true;
	}
	strbuf_put(sb, words_cache[i].json, words_cache[i].json_len);
}

void pebs_render_json(const struct pebs_record *r, struct strbuf *sb)
{
	uint64_t h = r->have;

	strbuf_put(sb, "{\"offset\":", 10);
	strbuf_put_dec(sb, r->offset);
	j_dec(sb, "size", r->size);
	if (h & HAVE_IP)
		j_hex(sb, "ip", r->ip);
	if (h & HAVE_APPLICABLE)
		j_hex(sb, "applicable_counters", r->applicable_counters);
	if (h & HAVE_DLA)
		j_hex(sb, "data_la", r->data_la);
	if (h & HAVE_DSE)
		j_hex(sb, "dse", r->dse);
	if (h & HAVE_LATENCY)
		j_dec(sb, "latency", r->latency);
	if (h & HAVE_INSTR_LATENCY)
		j_dec(sb, "instr_latency", r->instr_latency);
	if (h & HAVE_RETIRE_LATENCY)
		j_dec(sb, "retire_latency", r->retire_latency);
	if (h & HAVE_TSC)
		j_hex(sb, "tsc", r->tsc);
	if (h & HAVE_REGS)
		json_regs(r, sb);
	if (h & HAVE_TSX)
		json_tsx(r, sb);
	if (h & (HAVE_MEM | HAVE_MEM_NA))
		json_mem(r, sb);
	if (h & HAVE_LBR) {
		j_key(sb, "lbr");
		strbuf_put(sb, "[", 1);
		for (unsigned int i = 0; i < r->n_lbr; i++) {
			strbuf_put(sb, i ? ",{\"from\":\"" : "{\"from\":\"", i ? 10 : 9);
			strbuf_put_hex(sb, r->lbr[i].from);
			strbuf_put(sb, "\",\"to\":\"", 8);
			strbuf_put_hex(sb, r->lbr[i].to);
			strbuf_put(sb, "\",\"info\":\"", 10);
			strbuf_put_hex(sb, r->lbr[i].info);
			strbuf_put(sb, "\"}", 2);
		}
		strbuf_put(sb, "]", 1);
	}
	if (h & HAVE_COUNTERS) {
		j_key(sb, "counters");
		strbuf_put(sb, "[", 1);
		for (unsigned int i = 0; i < r->n_counters; i++) {
			strbuf_put(sb, i ? ",\"" : "\"", i ? 2 : 1);
			strbuf_put_hex(sb, r->counters[i]);
			strbuf_put(sb, "\"", 1);
		}
		strbuf_put(sb, "]", 1);
	}
	strbuf_put(sb, "}", 1);
}

/* ---- CSV ---- */

static const char csv_header[] =
    "offset,size,ip,applicable_counters,data_la,dse,latency,instr_latency,retire_latency,"
    "tsc,data_src,op,level,snoop,tlb,lock,blocked,tsx_cycles,tsx_flags,xabort";

void pebs_render_csv_header(struct strbuf *sb)
{
	strbuf_put(sb, csv_header, sizeof(csv_header) - 1);
}

static void c_hex(struct strbuf *sb, bool have, uint64_t v)
{
	strbuf_put(sb, ",", 1);
	if (have)
		strbuf_put_hex(sb, v);
}

static void c_dec(struct strbuf *sb, bool have, uint64_t v)
{
	strbuf_put(sb, ",", 1);
	if (have)
		strbuf_put_dec(sb, v);
}

void pebs_render_csv(const struct pebs_record *r, struct strbuf *sb)
{
	uint64_t h = r->have;
	const struct pebs_mem_words *w;
	const char *words[6];
	bool tsx = h & HAVE_TSX;

	strbuf_put_dec(sb, r->offset);
	c_dec(sb, true, r->size);
	c_hex(sb, h & HAVE_IP, r->ip);
	c_hex(sb, h & HAVE_APPLICABLE, r->applicable_counters);
	c_hex(sb, h & HAVE_DLA, r->data_la);
	c_hex(sb, h & HAVE_DSE, r->dse);
	c_dec(sb, h & HAVE_LATENCY, r->latency);
	c_dec(sb, h & HAVE_INSTR_LATENCY, r->instr_latency);
	c_dec(sb, h & HAVE_RETIRE_LATENCY, r->retire_latency);
	c_hex(sb, h & HAVE_TSC, r->tsc);
	c_hex(sb, h & HAVE_MEM, r->data_src);
	if (h & HAVE_MEM) {
		w = words_for(r->data_src);
		words[0] = w->op, words[1] = w->level, words[2] = w->snoop;
		words[3] = w->tlb, words[4] = w->lock, words[5] = w->blocked;
	} else {
		for (unsigned int i = 0; i < 6; i++)
			words[i] = "";
		if (h & HAVE_MEM_NA)
			words[1] = "not available";
	}
	for (unsigned int i = 0; i < 6; i++) {
		strbuf_put(sb, ",", 1);
		strbuf_puts(sb, words[i]); /* perf's words hold no comma or quote */
	}
	c_dec(sb, tsx, r->tsx.cycles);
	strbuf_put(sb, ",", 1);
	if (tsx && r->tsx.flags) {
		strbuf_put(sb, "\"", 1);
		pebs_render_tsx_flags(r->tsx.flags, sb);
		strbuf_put(sb, "\"", 1);
	}
	c_hex(sb, r->tsx.has_xabort, r->tsx.xabort);
}
