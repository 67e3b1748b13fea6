// SPDX-License-Identifier: MIT
/*
 * event.c - event names and raw encodings to PERFEVTSEL bits, against
 * Intel's perfmon event file of the CPU (pmu/perfmon.h).  A name is
 * perfmon's EventName; its encoding, counter mask, invert, edge, UMaskExt
 * and extra MSR value (MSRIndex/MSRValue) come from the row.  PERFEVTSEL
 * fields per SDM Vol. 3B Figure 21-6 ("Layout of IA32_PERFEVTSELx MSRs");
 * UMASK2 [47:40] per the perfmon README (UMaskExt).
 */
#include "event.h"
#include "msr.h"
#include "../lib/fmt.h"

#define TOK_MAX 64

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Unsigned number, decimal or 0x hex; whole string. */
static bool parse_num(const char *s, uint64_t *v)
{
	const char *end;
	uint64_t x;

	if (!pp_parse_u64(s, &x, &end) || *end)
		return false;
	*v = x;
	return true;
}

/* Splits s at sep into tokens of at most TOK_MAX-1 chars; returns the count or -1. */
static int split(const char *s, char sep, char tok[][TOK_MAX], int max)
{
	int n = 0;
	size_t len = 0;

	tok[0][0] = 0;
	for (;; s++) {
		if (*s == sep || !*s) {
			tok[n][len] = 0;
			n++;
			len = 0;
			if (!*s)
				return n;
			if (n >= max)
				return -1;
			continue;
		}
		if (len + 1 >= TOK_MAX)
			return -1;
		tok[n][len++] = *s;
	}
}

/* The spellings of each modifier (both syntaxes; Linux perf's for the raw ones). */
static const struct {
	const char *name;
	enum pmu_event_mod_key key;
} mod_names[] = {
    {"u", PMU_MOD_U},
    {"k", PMU_MOD_K},
    {"e", PMU_MOD_EDGE},
    {"edge", PMU_MOD_EDGE},
    {"i", PMU_MOD_INV},
    {"inv", PMU_MOD_INV},
    {"eq", PMU_MOD_EQ},
    {"c", PMU_MOD_CMASK},
    {"cmask", PMU_MOD_CMASK},
    {"ldlat", PMU_MOD_LDLAT},
    {"fe_thres", PMU_MOD_FE_THRES},
};

/* The one spelling a display name uses: the name syntax's short forms. */
static const char *const mod_spelling[] = {
    [PMU_MOD_NONE] = "",   [PMU_MOD_U] = "u",	      [PMU_MOD_K] = "k",
    [PMU_MOD_EDGE] = "e",  [PMU_MOD_INV] = "i",	      [PMU_MOD_EQ] = "eq",
    [PMU_MOD_CMASK] = "c", [PMU_MOD_LDLAT] = "ldlat", [PMU_MOD_FE_THRES] = "fe_thres",
};

/* Reads item text[at..at+len) as "key[=N]" into m. */
static void mod_read(const char *text, size_t at, size_t len, struct pmu_event_mod *m)
{
	const char *tok = text + at;
	size_t klen = 0;
	char num[TOK_MAX];
	uint64_t v = 1;

	while (klen < len && tok[klen] != '=')
		klen++;
	memset(m, 0, sizeof(*m));
	m->at = (uint8_t)at;
	m->len = (uint8_t)len;
	for (size_t i = 0; i < ARRAY_SIZE(mod_names); i++)
		if (strlen(mod_names[i].name) == klen && !memcmp(mod_names[i].name, tok, klen))
			m->key = mod_names[i].key & 0xf;
	if (klen < len) {
		size_t nlen = len - klen - 1;

		memcpy(num, tok + klen + 1, nlen);
		num[nlen] = 0;
		m->has_value = true;
		m->bad_value = !parse_num(num, &v);
	}
	m->value = v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

/*
 * A modifier's value against what any CPU accepts; item[0..len): its text
 * where there is one (the entry as read, or an EventName's item), else
 * NULL and the canonical spelling.  0, or -1 with why about event name.
 */
static int mod_check(const char *name, const struct pmu_event_mod *m, const char *item, size_t len,
		     char *why, size_t why_size)
{
	const char *key = item ? item : mod_spelling[m->key];
	size_t klen = 0;
	uint32_t v = m->value;

	while (key[klen] && key[klen] != '=' && (!item || klen < len))
		klen++;
	if (m->bad_value) {
		pp_snprintf(
		    why, why_size,
		    "event '%s': modifier '%.*s' needs a number (accepted: decimal or 0x hex)",
		    name, (int)len, item ? item : "");
		return -1;
	}
	if (m->key == PMU_MOD_CMASK && (!m->has_value || v > 255)) {
		pp_snprintf(why, why_size,
			    "event '%s': %.*s=N out of range (accepted: N in 0..255)", name,
			    (int)klen, key);
		return -1;
	}
	if (m->key == PMU_MOD_LDLAT && (!m->has_value || v < 3 || v > 0xffff)) {
		pp_snprintf(why, why_size,
			    "event '%s': ldlat=N out of range "
			    "(accepted: N in 3..65535; SDM 18.9.4.2: minimum 3)",
			    name);
		return -1;
	}
	if (m->key == PMU_MOD_FE_THRES && (!m->has_value || v > 0xfff)) {
		pp_snprintf(why, why_size,
			    "event '%s': fe_thres=N out of range (accepted: N in 0..4095)", name);
		return -1;
	}
	return 0;
}

/*
 * A modifier, checked by mod_check, applied to ev: 1, or 0 where it is none
 * (PMU_MOD_NONE, or ldlat / fe_thres on an event without that MSR).
 */
static int apply_mod(struct pmu_event *ev, const struct pmu_event_mod *m, bool allow_ldlat,
		     bool allow_fe)
{
	uint32_t v = m->value;

	switch (m->key) {
	case PMU_MOD_U:
		ev->usr = v;
		break;
	case PMU_MOD_K:
		ev->os = v;
		break;
	case PMU_MOD_EDGE:
		ev->evtsel = (ev->evtsel & ~EVTSEL_EDGE) | (v ? EVTSEL_EDGE : 0);
		break;
	case PMU_MOD_INV:
		ev->evtsel = (ev->evtsel & ~EVTSEL_INV) | (v ? EVTSEL_INV : 0);
		break;
	case PMU_MOD_EQ:
		ev->evtsel = (ev->evtsel & ~EVTSEL_EQ) | (v ? EVTSEL_EQ : 0);
		break;
	case PMU_MOD_CMASK:
		ev->evtsel = (ev->evtsel & ~EVTSEL_CMASK_MASK) | EVTSEL_CMASK(v);
		break;
	case PMU_MOD_LDLAT:
		if (!allow_ldlat)
			return 0;
		ev->has_ldlat = true;
		ev->ldlat = v;
		break;
	case PMU_MOD_FE_THRES:
		if (!allow_fe)
			return 0;
		/* MSR_PEBS_FRONTEND[19:8] latency threshold (Linux perf's frontend format,
		 * fe_thres) */
		ev->frontend = (ev->frontend & ~GENMASK_ULL(19, 8)) | ((uint64_t)v << 8);
		break;
	default:
		return 0;
	}
	return 1;
}

/*
 * The raw encoding text (an entry as read) into ev.  Not inlined: its
 * tokens beside a caller's struct pmu_event would pass 1 KiB.
 */
static __attribute__((noinline)) int parse_raw(const char *text, struct pmu_event *ev, char *why,
					       size_t why_size)
{
	char tok[12][TOK_MAX];
	int n = split(text, ',', tok, 12), i;
	bool have_event = false;
	uint64_t v;

	if (n < 0) {
		pp_snprintf(why, why_size,
			    "event '%s': too many or too long fields (accepted: at most 12 fields "
			    "separated by ',', each at most %d characters)",
			    text, TOK_MAX - 1);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *eq = strchr(tok[i], '=');

		if (!strncmp(tok[i], "umask2=", 7)) {
			if (!parse_num(eq + 1, &v) || v > 0xff) {
				pp_snprintf(
				    why, why_size,
				    "event '%s': '%s' out of range (accepted: umask2=0..0xff)",
				    text, tok[i]);
				return -1;
			}
			ev->evtsel |= EVTSEL_UMASK2(v);
			continue;
		}
		if (!strncmp(tok[i], "event=", 6) || !strncmp(tok[i], "umask=", 6) ||
		    !strncmp(tok[i], "offcore_rsp=", 12) || !strncmp(tok[i], "frontend=", 9)) {
			if (!parse_num(eq + 1, &v)) {
				pp_snprintf(
				    why, why_size,
				    "event '%s': '%s' needs a number (accepted: decimal or 0x "
				    "hex)",
				    text, tok[i]);
				return -1;
			}
			if (tok[i][0] == 'e' && v <= 0xff) {
				ev->evtsel |= EVTSEL_EVENT(v);
				have_event = true;
			} else if (tok[i][0] == 'u' && v <= 0xff) {
				ev->evtsel |= EVTSEL_UMASK(v);
			} else if (tok[i][0] == 'o') {
				ev->has_offcore = true;
				ev->offcore_rsp = v;
			} else if (tok[i][0] == 'f') {
				ev->has_frontend = true;
				ev->frontend = v;
			} else {
				pp_snprintf(why, why_size,
					    "event '%s': '%s' out of range (accepted: 0..0xff)",
					    text, tok[i]);
				return -1;
			}
			continue;
		}
		struct pmu_event_mod m;
		size_t len = strlen(tok[i]);

		mod_read(tok[i], 0, len, &m);
		if (mod_check(text, &m, tok[i], len, why, why_size))
			return -1;
		if (!apply_mod(ev, &m, true, true)) {
			pp_snprintf(why, why_size,
				    "event '%s': unknown field '%s' (accepted: event=, umask=, "
				    "umask2=, cmask=, inv, edge, eq, u, k, ldlat=, offcore_rsp=, "
				    "frontend=)",
				    text, tok[i]);
			return -1;
		}
	}
	if (!have_event) {
		pp_snprintf(why, why_size,
			    "event '%s': no event= field (accepted: event=0xNN with optional "
			    "umask=0xNN and modifiers)",
			    text);
		return -1;
	}
	return 0;
}

/* Ends sb's text with "..." where it was cut (a display name over PMU_EVENT_NAME_MAX). */
static void mark_cut(struct strbuf *sb)
{
	if (sb->truncated && sb->len >= 3)
		memcpy(sb->buf + sb->len - 3, "...", 3);
}

/*
 * A raw encoding's display name (docs/OPTIONS.md "Event names"): event and
 * umask always, the rest where set, in the order the parser lists them;
 * read again it gives the same encoding.
 */
static void raw_name(struct pmu_event *ev)
{
	struct strbuf sb;
	uint64_t e = ev->evtsel;

	strbuf_init(&sb, ev->name, sizeof(ev->name));
	strbuf_printf(&sb, "event=0x%x,umask=0x%x", (unsigned int)(e & 0xff),
		      (unsigned int)((e >> 8) & 0xff));
	if ((e >> 40) & 0xff)
		strbuf_printf(&sb, ",umask2=0x%x", (unsigned int)((e >> 40) & 0xff));
	if ((e >> 24) & 0xff)
		strbuf_printf(&sb, ",cmask=%u", (unsigned int)((e >> 24) & 0xff));
	if (e & EVTSEL_INV)
		strbuf_puts(&sb, ",inv");
	if (e & EVTSEL_EDGE)
		strbuf_puts(&sb, ",edge");
	if (e & EVTSEL_EQ)
		strbuf_puts(&sb, ",eq");
	if (ev->usr)
		strbuf_puts(&sb, ",u");
	if (ev->os)
		strbuf_puts(&sb, ",k");
	if (ev->has_ldlat)
		strbuf_printf(&sb, ",ldlat=%u", ev->ldlat);
	if (ev->has_offcore)
		strbuf_printf(&sb, ",offcore_rsp=0x%llx", (unsigned long long)ev->offcore_rsp);
	if (ev->has_frontend)
		strbuf_printf(&sb, ",frontend=0x%llx", (unsigned long long)ev->frontend);
	else if (ev->frontend)
		strbuf_printf(&sb, ",fe_thres=%u", (unsigned int)((ev->frontend >> 8) & 0xfff));
	mark_cut(&sb);
}

/* MSRIndex values pebsprobe programs (perfmon README, MSRIndex). */
#define MSR_IDX_LD_LAT	  0x3f6
#define MSR_IDX_FRONTEND  0x3f7
#define MSR_IDX_OFFCORE_0 0x1a6
#define MSR_IDX_OFFCORE_1 0x1a7

/*
 * True when the perfmon row says the event may be a PEBS event (perfmon
 * README, "Event List Field Definitions"): CollectPEBSRecord >= 1 where the
 * file has that field (GLM, GLP, SNR/EHL, ICL on); else PEBS >= 1 (files
 * before ICL); and in files with PEBScounters but neither (SLM, KNL), a
 * PEBScounters list that names a counter - there PEBS 0 only means no
 * precise IP (Linux ds.c intel_slm_pebs_event_constraints lets every event
 * PEBS on PMC0).
 */
static bool row_precise(const struct perfmon_table *t, const struct perfmon_info *in)
{
	uint32_t f = perfmon_table_fields(t);

	if (f & PERFMON_HAS_COLLECT_PEBS)
		return in->collect_pebs > 0;
	if (in->pebs > 0 || in->precise > 0)
		return true;
	return (f & PERFMON_HAS_PEBS_COUNTERS) && !(f & PERFMON_HAS_PRECISE) &&
	       (in->ctr[PERFMON_PEBS_COUNTERS].gp || in->ctr[PERFMON_PEBS_COUNTERS].fixed);
}

/* The row's counter lists into ev (docs/PERFMON.md "How each field is read"). */
static void take_lists(struct pmu_event *ev, const struct perfmon_table *t,
		       const struct perfmon_info *in)
{
	ev->pm_name = in->name;
	ev->pm_table = t;
	ev->count_ctrs = in->ctr[PERFMON_COUNTER];
	ev->pebs_list = perfmon_table_fields(t) & PERFMON_HAS_PEBS_COUNTERS;
	ev->pebs_ctrs = ev->pebs_list ? in->ctr[PERFMON_PEBS_COUNTERS] : in->ctr[PERFMON_COUNTER];
	ev->pdist_ctrs = in->ctr[PERFMON_PDIST_COUNTER];
	ev->taken_alone = in->taken_alone;
	ev->data_la = in->data_la;
}

/* The row's extra MSR (MSRIndex/MSRValue): ldlat, frontend or offcore value. */
static int take_msr(struct pmu_event *ev, const struct perfmon_info *in, char *why, size_t why_size)
{
	if (!in->n_msrs)
		return 0;
	switch (in->msr_index[0]) {
	case MSR_IDX_LD_LAT:
		ev->has_ldlat = true;
		ev->ldlat = (uint32_t)in->msr_value; /* LOAD_LATENCY_GT_N: MSRValue N */
		return 0;
	case MSR_IDX_FRONTEND:
		ev->has_frontend = true;
		ev->frontend = in->msr_value;
		return 0;
	case MSR_IDX_OFFCORE_0:
	case MSR_IDX_OFFCORE_1:
		ev->has_offcore = true;
		ev->offcore_rsp = in->msr_value;
		return 0;
	}
	pp_snprintf(why, why_size,
		    "event '%s': perfmon %s needs MSR 0x%x, which pebsprobe does not program "
		    "(accepted: 0x3f6 load latency, 0x3f7 frontend, 0x1a6/0x1a7 offcore)",
		    ev->name, in->name, in->msr_index[0]);
	return -1;
}

/*
 * Item i of s as a line shows it: a modifier in its one spelling, else the
 * item of names[0]'s EventName it is (a CPU with a shorter name reads it).
 */
static void mod_text(const struct pmu_event_spec *s, unsigned int i, struct strbuf *sb)
{
	const struct pmu_event_mod *m = &s->mods[i];

	if (m->key && !m->bad_value) {
		strbuf_puts(sb, mod_spelling[m->key]);
		if (m->has_value)
			strbuf_printf(sb, "=%u", m->value);
		return;
	}
	strbuf_put(sb, perfmon_id_name(s->names[0].id) + m->at, m->len);
}

/*
 * A named entry's display name (docs/OPTIONS.md "Event names"): name, the
 * EventName a file spells, then each item after names[k] by mod_text.
 */
static void spec_name(const struct pmu_event_spec *s, unsigned int k, const char *name, char *buf,
		      size_t size)
{
	struct strbuf sb;

	strbuf_init(&sb, buf, size);
	strbuf_puts(&sb, name);
	for (unsigned int i = s->names[k].n_items; i < s->n_items; i++) {
		strbuf_puts(&sb, ":");
		mod_text(s, i, &sb);
	}
	mark_cut(&sb);
}

/* An item of s that t's row does not take: one line naming it and what is accepted. */
static int no_mod(const struct pmu_event_spec *s, unsigned int i, const struct pmu_event *ev,
		  const char *row, char *why, size_t why_size)
{
	char item[PMU_EVENT_NAME_MAX];
	struct strbuf sb;

	strbuf_init(&sb, item, sizeof(item));
	mod_text(s, i, &sb);
	pp_snprintf(why, why_size,
		    "event '%s': '%s' is no modifier of %s (accepted: u, k, e, i, eq, c=N%s%s)",
		    ev->name, item, row, ev->has_ldlat ? ", ldlat=N" : "",
		    ev->has_frontend ? ", fe_thres=N" : "");
	return -1;
}

/*
 * The row of the longest of s's names that t has: CLX names hold ':'
 * themselves, so where the name ends is t's to say (pmu_event_spec).
 * ev->name is the entry's name until then, the row's after.
 */
static int parse_named(const struct perfmon_table *t, const struct pmu_event_spec *s,
		       struct pmu_event *ev, char *why, size_t why_size)
{
	const char *longest = perfmon_id_name(s->names[0].id);
	const struct perfmon_event *pe = NULL;
	struct perfmon_info in;
	unsigned int i, k;

	spec_name(s, 0, longest, ev->name, sizeof(ev->name));
	if (!t) {
		pp_snprintf(why, why_size,
			    "event '%s': this CPU has no perfmon event file (data/perfmon) "
			    "(accepted: raw event=0xNN,umask=0xNN only)",
			    ev->name);
		return -1;
	}
	for (k = 0; k < s->n_names && !pe; k++)
		pe = perfmon_find_id(t, s->names[k].id);
	if (!pe) {
		pp_snprintf(why, why_size,
			    "event '%s': no such EventName in perfmon %s (accepted: a perfmon "
			    "name, e.g. INST_RETIRED.ANY_P, or raw event=0xNN,umask=0xNN)",
			    ev->name, perfmon_table_name(t));
		return -1;
	}
	k--;
	perfmon_event_get(t, pe, &in);
	/* Offcore events list one code or umask per MSR_OFFCORE_RSPx: the first is RSP0. */
	ev->evtsel = EVTSEL_EVENT(in.codes[0]) | EVTSEL_UMASK(in.umasks[0]) |
		     EVTSEL_CMASK(in.cmask) | (in.inv ? EVTSEL_INV : 0) |
		     (in.edge ? EVTSEL_EDGE : 0) | (in.any_thread ? EVTSEL_ANY : 0) |
		     (in.equal ? EVTSEL_EQ : 0) | EVTSEL_UMASK2(in.umask_ext);
	ev->precise = row_precise(t, &in);
	take_lists(ev, t, &in);
	if (take_msr(ev, &in, why, why_size))
		return -1;
	if (s->n_items - s->names[k].n_items > 12) {
		pp_snprintf(why, why_size,
			    "event '%s': too many or too long modifiers (accepted: at most 12 "
			    "separated by ':', each at most %d characters)",
			    ev->name, TOK_MAX - 1);
		return -1;
	}
	for (i = s->names[k].n_items; i < s->n_items; i++) {
		const struct pmu_event_mod *m = &s->mods[i];
		const char *item = i < s->names[0].n_items ? longest + m->at : NULL;

		if (mod_check(ev->name, m, item, m->len, why, why_size))
			return -1;
		if (!apply_mod(ev, m, ev->has_ldlat, ev->has_frontend))
			return no_mod(s, i, ev, in.name, why, why_size);
	}
	spec_name(s, k, in.name, ev->name, sizeof(ev->name));
	return 0;
}

/*
 * A name's ':' items (text[0..len), the entry as read): each prefix that
 * ends at an item and is an EventName of file t (NULL: of any file),
 * longest first; the items inside the longest read from its EventName,
 * those after it from text and checked.  0, or -1 with why.  Not inlined:
 * with read_spec's raw event its frame would pass 1 KiB.
 */
static __attribute__((noinline)) int read_named(struct pmu_event_spec *s,
						const struct perfmon_table *t, const char *text,
						size_t len, char *why, size_t why_size)
{
	uint8_t ends[PMU_EVENT_ITEMS];
	const char *name;
	size_t at = 0;

	for (;;) {
		size_t n = 0;

		while (at + n < len && text[at + n] != ':')
			n++;
		if (s->n_items == PMU_EVENT_ITEMS) {
			pp_snprintf(why, why_size,
				    "event '%s': more than %u items separated by ':' (accepted: a "
				    "perfmon name and at most 12 modifiers)",
				    text, PMU_EVENT_ITEMS);
			return -1;
		}
		ends[s->n_items++] = (uint8_t)(at + n);
		if (at + n == len)
			break;
		at += n + 1;
	}
	for (unsigned int k = s->n_items; k > 0 && s->n_names < PMU_EVENT_NAMES; k--) {
		uint32_t id = perfmon_name_id(t, text, ends[k - 1]);

		if (id) {
			s->names[s->n_names].id = id;
			s->names[s->n_names++].n_items = (uint8_t)k;
		}
	}
	if (!s->n_names && t) {
		pp_snprintf(why, why_size,
			    "event '%s': no such EventName in perfmon %s (accepted: a perfmon "
			    "name, e.g. INST_RETIRED.ANY_P, or raw event=0xNN,umask=0xNN)",
			    text, perfmon_table_name(t));
		return -1;
	}
	if (!s->n_names) {
		pp_snprintf(why, why_size,
			    "event '%s': no perfmon file (data/perfmon) has an EventName it "
			    "begins with (accepted: a perfmon EventName in any case, e.g. "
			    "INST_RETIRED.ANY_P, with :u, :k, :e, :i, :eq, :c=N, :ldlat=N, "
			    ":fe_thres=N; or raw event=0xNN,umask=0xNN)",
			    text);
		return -1;
	}
	name = perfmon_id_name(s->names[0].id);
	for (unsigned int i = 0; i < s->n_items; i++) {
		struct pmu_event_mod *m = &s->mods[i];
		size_t start = i ? ends[i - 1] + 1u : 0;

		if (i < s->names[0].n_items) {
			mod_read(name, start, ends[i] - start, m);
			continue;
		}
		mod_read(text, start, ends[i] - start, m);
		if (mod_check(text, m, text + start, m->len, why, why_size))
			return -1;
		if (!m->key) {
			pp_snprintf(
			    why, why_size,
			    "event '%s': '%.*s' is no modifier of %s (accepted: u, k, e, i, "
			    "eq, c=N, ldlat=N, fe_thres=N)",
			    text, (int)m->len, text + start, name);
			return -1;
		}
		m->at = m->len = 0; /* typed: no place in any text */
	}
	return 0;
}

/*
 * A raw encoding's perfmon row: the one with the same counter mask, invert
 * and edge, else the first with the same code and umask (several names
 * share an encoding: LOAD_LATENCY_GT_4 to _GT_512 differ in MSRValue only).
 */
static void raw_row(const struct perfmon_table *t, struct pmu_event *ev)
{
	struct perfmon_key key = {
	    .code = (uint8_t)(ev->evtsel & 0xff),
	    .umask = (uint8_t)((ev->evtsel >> 8) & 0xff),
	    .umask_ext = (uint8_t)((ev->evtsel >> 40) & 0xff),
	    .match_mods = true,
	    .cmask = (uint8_t)((ev->evtsel >> 24) & 0xff),
	    .inv = ev->evtsel & EVTSEL_INV,
	    .edge = ev->evtsel & EVTSEL_EDGE,
	};
	const struct perfmon_event *pe;
	struct perfmon_info in;
	unsigned int pos = 0;

	if (!t)
		return;
	pe = perfmon_find_code(t, &key, &pos);
	if (!pe) {
		key.match_mods = false;
		pos = 0;
		pe = perfmon_find_code(t, &key, &pos);
	}
	if (!pe)
		return;
	perfmon_event_get(t, pe, &in);
	ev->precise = row_precise(t, &in);
	take_lists(ev, t, &in);
}

/*
 * Event 0x00: the fixed-counter pseudo-encodings, umask = fixed counter + 1
 * (Linux asm/perf_event.h: 0x0300 REF, 0x0400 SLOTS; perfmon
 * clearwaterforest_core.json 0x0500-0x0700 on fixed counters 4-6), for the
 * 8 fixed counters pmu/plan.h handles.
 */
static int take_fixed(struct pmu_event *ev, const char *name, char *why, size_t why_size)
{
	unsigned int umask = (ev->evtsel >> 8) & 0xff;

	if (EVTSEL_EVENT(ev->evtsel) != 0)
		return 0;
	if (umask < 1 || umask > 8) {
		pp_snprintf(why, why_size,
			    "event '%s': encodes as event 0x00 umask 0x%02x, which is no "
			    "counter (accepted: umask 0x01..0x08, fixed counter + 1, "
			    "or the perfmon name, e.g. INST_RETIRED.ANY)",
			    name, umask);
		return -1;
	}
	ev->fixed = umask - 1;
	return 0;
}

/* What a raw encoding fixes: the same fields in struct pmu_event and pmu_event_spec. */
#define COPY_RAW(to, from)                                                                         \
	do {                                                                                       \
		(to)->evtsel = (from)->evtsel;                                                     \
		(to)->usr = (from)->usr;                                                           \
		(to)->os = (from)->os;                                                             \
		(to)->has_ldlat = (from)->has_ldlat;                                               \
		(to)->ldlat = (from)->ldlat;                                                       \
		(to)->has_offcore = (from)->has_offcore;                                           \
		(to)->offcore_rsp = (from)->offcore_rsp;                                           \
		(to)->has_frontend = (from)->has_frontend;                                         \
		(to)->frontend = (from)->frontend;                                                 \
	} while (0)

/* A raw encoding needs no file: all of it is checked here (text: the entry as read). */
static int read_raw(struct pmu_event_spec *s, const char *text, char *why, size_t why_size)
{
	struct pmu_event ev;

	memset(&ev, 0, sizeof(ev));
	if (parse_raw(text, &ev, why, why_size) || take_fixed(&ev, text, why, why_size))
		return -1;
	s->raw = true;
	COPY_RAW(s, &ev);
	return 0;
}

/* pmu_event_read, its names those of file t (NULL: of any file). */
static int read_spec(const struct perfmon_table *t, const char *text, struct pmu_event_spec *s,
		     char *why, size_t why_size)
{
	char entry[PMU_EVENT_NAME_MAX];
	size_t len;

	memset(s, 0, sizeof(*s));
	while (text && is_space(*text))
		text++;
	if (!text || !*text) {
		pp_snprintf(why, why_size,
			    "empty event (accepted: a perfmon name or event=0xNN,umask=0xNN)");
		return -1;
	}
	len = strlen(text);
	while (len && is_space(text[len - 1]))
		len--;
	if (len >= sizeof(entry)) {
		pp_snprintf(why, why_size,
			    "event '%.40s...': %zu characters (accepted: at most %zu characters)",
			    text, strlen(text), sizeof(entry) - 1);
		return -1;
	}
	memcpy(entry, text, len);
	entry[len] = 0;
	if (strncmp(entry, "event=", 6))
		return read_named(s, t, entry, len, why, why_size);
	return read_raw(s, entry, why, why_size);
}

int pmu_event_read(const char *text, struct pmu_event_spec *s, char *why, size_t why_size)
{
	return read_spec(NULL, text, s, why, why_size);
}

int pmu_event_resolve(const struct perfmon_table *t, const struct pmu_event_spec *s,
		      struct pmu_event *ev, char *why, size_t why_size)
{
	memset(ev, 0, sizeof(*ev));
	ev->fixed = -1;
	if (s->raw) {
		ev->raw = true;
		ev->precise = true; /* unless the perfmon row says otherwise (raw_row) */
		COPY_RAW(ev, s);
		raw_name(ev);
		raw_row(t, ev);
	} else if (!s->n_names) {
		pp_snprintf(why, why_size, "event without a name (accepted: pmu_event_read's)");
		return -1;
	} else if (parse_named(t, s, ev, why, why_size)) {
		return -1;
	}
	if (!ev->usr && !ev->os)
		ev->usr = ev->os = true; /* neither named: both rings */
	return take_fixed(ev, ev->name, why, why_size);
}

int pmu_event_parse(const struct perfmon_table *t, const char *text, struct pmu_event *ev,
		    char *why, size_t why_size)
{
	struct pmu_event_spec s;

	memset(ev, 0, sizeof(*ev));
	ev->fixed = -1;
	/* Only t's names: the same answer as every file's, without reading them all. */
	if (read_spec(t, text, &s, why, why_size))
		return -1;
	return pmu_event_resolve(t, &s, ev, why, why_size);
}

int pmu_event_offcore_index(const struct pmu_event *ev)
{
	uint16_t c = pmu_event_code(ev);

	if (!ev->has_offcore)
		return -1;
	/* OFFCORE_RESPONSE_0: 0x01b7 (OCR 0x012a); _1: 0x01bb, 0x02b7 (Atom), 0x012b */
	if (c == 0x01b7 || c == 0x012a)
		return 0;
	if (c == 0x01bb || c == 0x02b7 || c == 0x012b)
		return 1;
	return -1;
}
