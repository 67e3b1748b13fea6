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
	m->key_len = (uint8_t)klen;
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
 * A modifier read by mod_read applied to ev (label: the text it lies in);
 * 1 if it was one, 0 if it is none, -1 with why.
 */
static int apply_mod(struct pmu_event *ev, const char *label, const struct pmu_event_mod *m,
		     bool allow_ldlat, bool allow_fe, char *why, size_t why_size)
{
	uint32_t v = m->value;

	if (m->bad_value) {
		pp_snprintf(
		    why, why_size,
		    "event '%s': modifier '%.*s' needs a number (accepted: decimal or 0x hex)",
		    ev->name, m->len, label + m->at);
		return -1;
	}
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
		if (!m->has_value || v > 255) {
			pp_snprintf(why, why_size,
				    "event '%s': %.*s=N out of range (accepted: N in 0..255)",
				    ev->name, m->key_len, label + m->at);
			return -1;
		}
		ev->evtsel = (ev->evtsel & ~EVTSEL_CMASK_MASK) | EVTSEL_CMASK(v);
		break;
	case PMU_MOD_LDLAT:
		if (!allow_ldlat)
			return 0;
		if (!m->has_value || v < 3 || v > 0xffff) {
			pp_snprintf(why, why_size,
				    "event '%s': ldlat=N out of range "
				    "(accepted: N in 3..65535; SDM 18.9.4.2: minimum 3)",
				    ev->name);
			return -1;
		}
		ev->has_ldlat = true;
		ev->ldlat = v;
		break;
	case PMU_MOD_FE_THRES:
		if (!allow_fe)
			return 0;
		if (!m->has_value || v > 0xfff) {
			pp_snprintf(why, why_size,
				    "event '%s': fe_thres=N out of range (accepted: N in 0..4095)",
				    ev->name);
			return -1;
		}
		/* MSR_PEBS_FRONTEND[19:8] latency threshold (Linux perf's frontend format,
		 * fe_thres) */
		ev->frontend = (ev->frontend & ~GENMASK_ULL(19, 8)) | ((uint64_t)v << 8);
		break;
	default:
		return 0;
	}
	return 1;
}

/* Not inlined: its tokens beside a caller's struct pmu_event would pass 1 KiB. */
static __attribute__((noinline)) int parse_raw(const char *text, struct pmu_event *ev, char *why,
					       size_t why_size)
{
	char tok[12][TOK_MAX];
	int n = split(text, ',', tok, 12), i, r;
	bool have_event = false;
	uint64_t v;

	if (n < 0) {
		pp_snprintf(why, why_size,
			    "event '%s': too many or too long fields (accepted: at most 12 fields "
			    "separated by ',', each at most %d characters)",
			    ev->name, TOK_MAX - 1);
		return -1;
	}
	ev->raw = true;
	ev->precise = true; /* unless the perfmon row says otherwise (raw_row) */
	for (i = 0; i < n; i++) {
		const char *eq = strchr(tok[i], '=');

		if (!strncmp(tok[i], "umask2=", 7)) {
			if (!parse_num(eq + 1, &v) || v > 0xff) {
				pp_snprintf(
				    why, why_size,
				    "event '%s': '%s' out of range (accepted: umask2=0..0xff)",
				    ev->name, tok[i]);
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
				    ev->name, tok[i]);
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
					    ev->name, tok[i]);
				return -1;
			}
			continue;
		}
		struct pmu_event_mod m;

		mod_read(tok[i], 0, strlen(tok[i]), &m);
		r = apply_mod(ev, tok[i], &m, true, true, why, why_size);
		if (r < 0)
			return -1;
		if (!r) {
			pp_snprintf(why, why_size,
				    "event '%s': unknown field '%s' (accepted: event=, umask=, "
				    "umask2=, cmask=, inv, edge, eq, u, k, ldlat=, offcore_rsp=, "
				    "frontend=)",
				    ev->name, tok[i]);
			return -1;
		}
	}
	if (!have_event) {
		pp_snprintf(why, why_size,
			    "event '%s': no event= field (accepted: event=0xNN with optional "
			    "umask=0xNN and modifiers)",
			    ev->name);
		return -1;
	}
	return 0;
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
 * The row of the longest of s's names that t has: CLX names hold ':'
 * themselves, so where the name ends is t's to say (pmu_event_spec).
 */
static int parse_named(const struct perfmon_table *t, const struct pmu_event_spec *s,
		       struct pmu_event *ev, char *why, size_t why_size)
{
	const struct perfmon_event *pe = NULL;
	struct perfmon_info in;
	unsigned int i, first;
	int r;

	if (!t) {
		pp_snprintf(why, why_size,
			    "event '%s': this CPU has no perfmon event file (data/perfmon) "
			    "(accepted: raw event=0xNN,umask=0xNN only)",
			    ev->name);
		return -1;
	}
	for (i = 0; i < s->n_names && !pe; i++)
		pe = perfmon_find_id(t, s->names[i].id);
	if (!pe) {
		pp_snprintf(why, why_size,
			    "event '%s': no such EventName in perfmon %s (accepted: a perfmon "
			    "name, e.g. INST_RETIRED.ANY_P, or raw event=0xNN,umask=0xNN)",
			    ev->name, perfmon_table_name(t));
		return -1;
	}
	first = s->names[i - 1].n_items;
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
	if (s->n_items - first > 12) {
		pp_snprintf(why, why_size,
			    "event '%s': too many or too long modifiers (accepted: at most 12 "
			    "separated by ':', each at most %d characters)",
			    ev->name, TOK_MAX - 1);
		return -1;
	}
	for (i = first; i < s->n_items; i++) {
		const struct pmu_event_mod *m = &s->mods[i];

		r = apply_mod(ev, s->label, m, ev->has_ldlat, ev->has_frontend, why, why_size);
		if (r < 0)
			return -1;
		if (!r) {
			pp_snprintf(
			    why, why_size,
			    "event '%s': '%.*s' is no modifier of %s (accepted: u, k, e, i, eq, "
			    "c=N%s%s)",
			    ev->name, m->len, s->label + m->at, in.name,
			    ev->has_ldlat ? ", ldlat=N" : "",
			    ev->has_frontend ? ", fe_thres=N" : "");
			return -1;
		}
	}
	return 0;
}

/*
 * A name's ':' items: each read as a modifier, and each prefix that ends
 * at an item and is an EventName of file t (NULL: of any file), longest first.
 * Not inlined: with read_spec's raw event its frame would pass 1 KiB.
 */
static __attribute__((noinline)) void read_named(struct pmu_event_spec *s,
						 const struct perfmon_table *t)
{
	size_t at = 0, len = strlen(s->label);
	uint8_t ends[PMU_EVENT_ITEMS];

	for (;;) {
		size_t n = 0;

		while (at + n < len && s->label[at + n] != ':')
			n++;
		mod_read(s->label, at, n, &s->mods[s->n_items]);
		ends[s->n_items++] = (uint8_t)(at + n);
		if (at + n == len)
			break;
		at += n + 1;
	}
	for (unsigned int k = s->n_items; k > 0 && s->n_names < PMU_EVENT_NAMES; k--) {
		uint32_t id = perfmon_name_id(t, s->label, ends[k - 1]);

		if (id) {
			s->names[s->n_names].id = id;
			s->names[s->n_names++].n_items = (uint8_t)k;
		}
	}
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
static int take_fixed(struct pmu_event *ev, char *why, size_t why_size)
{
	unsigned int umask = (ev->evtsel >> 8) & 0xff;

	if (EVTSEL_EVENT(ev->evtsel) != 0)
		return 0;
	if (umask < 1 || umask > 8) {
		pp_snprintf(why, why_size,
			    "event '%s': encodes as event 0x00 umask 0x%02x, which is no "
			    "counter (accepted: umask 0x01..0x08, fixed counter + 1, "
			    "or the perfmon name, e.g. INST_RETIRED.ANY)",
			    ev->name, umask);
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

static void event_init(struct pmu_event *ev, const char *name)
{
	memset(ev, 0, sizeof(*ev));
	ev->fixed = -1;
	memcpy(ev->name, name, sizeof(ev->name));
}

/* A raw encoding needs no file: all of it is checked here. */
static int read_raw(struct pmu_event_spec *s, char *why, size_t why_size)
{
	struct pmu_event ev;

	event_init(&ev, s->label);
	if (parse_raw(s->label, &ev, why, why_size) || take_fixed(&ev, why, why_size))
		return -1;
	s->raw = true;
	COPY_RAW(s, &ev);
	return 0;
}

/* pmu_event_read, its names those of file t (NULL: of any file). */
static int read_spec(const struct perfmon_table *t, const char *text, struct pmu_event_spec *s,
		     char *why, size_t why_size)
{
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
	if (len >= sizeof(s->label)) {
		pp_snprintf(why, why_size,
			    "event '%.40s...': %zu characters (accepted: at most %zu characters)",
			    text, strlen(text), sizeof(s->label) - 1);
		return -1;
	}
	memcpy(s->label, text, len);
	if (strncmp(s->label, "event=", 6)) {
		read_named(s, t);
		return 0;
	}
	return read_raw(s, why, why_size);
}

int pmu_event_read(const char *text, struct pmu_event_spec *s, char *why, size_t why_size)
{
	return read_spec(NULL, text, s, why, why_size);
}

int pmu_event_resolve(const struct perfmon_table *t, const struct pmu_event_spec *s,
		      struct pmu_event *ev, char *why, size_t why_size)
{
	event_init(ev, s->label);
	if (s->raw) {
		ev->raw = true;
		ev->precise = true; /* unless the perfmon row says otherwise (raw_row) */
		COPY_RAW(ev, s);
		raw_row(t, ev);
	} else if (parse_named(t, s, ev, why, why_size)) {
		return -1;
	}
	if (!ev->usr && !ev->os)
		ev->usr = ev->os = true; /* neither named: both rings */
	return take_fixed(ev, why, why_size);
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
