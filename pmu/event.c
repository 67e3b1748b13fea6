// SPDX-License-Identifier: MIT
/*
 * event.c - event names and raw encodings to PERFEVTSEL bits, against the
 * catalogue generated from libpfm4.  Modifiers follow libpfm4's spelling
 * (u, k, e, i, c, ldlat, fe_thres); PERFEVTSEL fields per SDM Fig. 18-6.
 */
#include "event.h"
#include "catalogue.h"
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

static bool ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;

		if (x >= 'a' && x <= 'z')
			x -= 32;
		if (y >= 'a' && y <= 'z')
			y -= 32;
		if (x != y)
			return false;
	}
	return !*a && !*b;
}

static const struct cat_pmu *find_pmu(const char *name)
{
	uint32_t i;

	for (i = 0; i < cat_n_pmus; i++)
		if (!strcmp(cat_str(cat_pmus[i].name), name))
			return &cat_pmus[i];
	return NULL;
}

static const struct cat_event *find_event(const struct cat_pmu *p, const char *name)
{
	uint32_t i;

	for (i = p->first_event; i < p->first_event + p->n_events; i++)
		if (ieq(cat_str(cat_events[i].name), name))
			return &cat_events[i];
	return NULL;
}

static const struct cat_umask *find_umask(const struct cat_event *e, const char *name)
{
	uint32_t i;

	for (i = e->first_umask; i < e->first_umask + e->n_umasks; i++)
		if (cat_umasks[i].name && ieq(cat_str(cat_umasks[i].name), name))
			return &cat_umasks[i];
	return NULL;
}

static const struct cat_umask *default_umask(const struct cat_event *e)
{
	uint32_t i;

	for (i = e->first_umask; i < e->first_umask + e->n_umasks; i++)
		if (cat_umasks[i].flags & CAT_UM_DEFAULT)
			return &cat_umasks[i];
	return e->n_umasks == 1 ? &cat_umasks[e->first_umask] : NULL;
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

/* A modifier "name[=value]" shared by both syntaxes; true if it was one. */
static int apply_modifier(struct pmu_event *ev, const char *tok, bool allow_ldlat, bool allow_fe,
			  char *why, size_t why_size)
{
	char key[TOK_MAX];
	const char *eq = strchr(tok, '=');
	size_t klen = eq ? (size_t)(eq - tok) : strlen(tok);
	uint64_t v = 1;

	memcpy(key, tok, klen);
	key[klen] = 0;
	if (eq && !parse_num(eq + 1, &v)) {
		pp_snprintf(why, why_size,
			    "event '%s': modifier '%s' needs a number (decimal or 0x hex)",
			    ev->name, tok);
		return -1;
	}
	if (!strcmp(key, "u")) {
		ev->usr = v;
	} else if (!strcmp(key, "k")) {
		ev->os = v;
	} else if (!strcmp(key, "e") || !strcmp(key, "edge")) {
		ev->evtsel = (ev->evtsel & ~EVTSEL_EDGE) | (v ? EVTSEL_EDGE : 0);
	} else if (!strcmp(key, "i") || !strcmp(key, "inv")) {
		ev->evtsel = (ev->evtsel & ~EVTSEL_INV) | (v ? EVTSEL_INV : 0);
	} else if (!strcmp(key, "c") || !strcmp(key, "cmask")) {
		if (!eq || v > 255) {
			pp_snprintf(why, why_size, "event '%s': %s=N needs N in 0..255", ev->name,
				    key);
			return -1;
		}
		ev->evtsel = (ev->evtsel & ~EVTSEL_CMASK_MASK) | EVTSEL_CMASK(v);
	} else if (!strcmp(key, "ldlat") && allow_ldlat) {
		if (!eq || v < 3 || v > 0xffff) {
			pp_snprintf(
			    why, why_size,
			    "event '%s': ldlat=N needs N in 3..65535 (SDM 18.9.4.2: minimum 3)",
			    ev->name);
			return -1;
		}
		ev->has_ldlat = true;
		ev->ldlat = (uint32_t)v;
	} else if (!strcmp(key, "fe_thres") && allow_fe) {
		if (!eq || v > 0xfff) {
			pp_snprintf(why, why_size, "event '%s': fe_thres=N needs N in 0..4095",
				    ev->name);
			return -1;
		}
		/* MSR_PEBS_FRONTEND[19:8] latency threshold (libpfm4 fe_thres) */
		ev->frontend = (ev->frontend & ~GENMASK_ULL(19, 8)) | (v << 8);
	} else {
		return 0;
	}
	return 1;
}

static int parse_raw(const char *text, struct pmu_event *ev, char *why, size_t why_size)
{
	char tok[12][TOK_MAX];
	int n = split(text, ',', tok, 12), i, r;
	bool have_event = false;
	uint64_t v;

	if (n < 0) {
		pp_snprintf(why, why_size, "event '%s': too many or too long fields", ev->name);
		return -1;
	}
	ev->raw = true;
	ev->precise = true; /* the uarch table's constraints still apply */
	for (i = 0; i < n; i++) {
		const char *eq = strchr(tok[i], '=');

		if (!strncmp(tok[i], "event=", 6) || !strncmp(tok[i], "umask=", 6) ||
		    !strncmp(tok[i], "offcore_rsp=", 12) || !strncmp(tok[i], "frontend=", 9)) {
			if (!parse_num(eq + 1, &v)) {
				pp_snprintf(why, why_size, "event '%s': '%s' needs a number",
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
				pp_snprintf(why, why_size, "event '%s': '%s' out of range 0..0xff",
					    ev->name, tok[i]);
				return -1;
			}
			continue;
		}
		r = apply_modifier(ev, tok[i], true, true, why, why_size);
		if (r < 0)
			return -1;
		if (!r) {
			pp_snprintf(why, why_size,
				    "event '%s': unknown field '%s' (accepted: event=, umask=, "
				    "cmask=, inv, "
				    "edge, u, k, ldlat=, offcore_rsp=, frontend=)",
				    ev->name, tok[i]);
			return -1;
		}
	}
	if (!have_event) {
		pp_snprintf(why, why_size, "event '%s': raw events need event=0xNN", ev->name);
		return -1;
	}
	return 0;
}

static int parse_named(const struct cat_pmu *p, const char *text, struct pmu_event *ev, char *why,
		       size_t why_size)
{
	char tok[12][TOK_MAX];
	const struct cat_event *ce;
	const struct cat_umask *um = NULL, *u;
	int n, i, r;
	unsigned int n_um = 0;
	char buf[TOK_MAX * 4];
	char *dot;

	/* "EVENT.UMASK" (SDM spelling) is "EVENT:UMASK" (libpfm4 spelling). */
	pp_snprintf(buf, sizeof(buf), "%s", text);
	dot = strchr(buf, '.');
	if (dot && (!strchr(buf, ':') || dot < strchr(buf, ':')))
		*dot = ':';
	n = split(buf, ':', tok, 12);
	if (n < 0) {
		pp_snprintf(why, why_size, "event '%s': too many or too long fields", ev->name);
		return -1;
	}
	ce = find_event(p, tok[0]);
	if (!ce) {
		pp_snprintf(why, why_size,
			    "event '%s': not in libpfm4's '%s' table (a libpfm4 name, or raw "
			    "event=0xNN,umask=0xNN)",
			    ev->name, cat_str(p->name));
		return -1;
	}
	for (i = 1; i < n; i++) {
		u = find_umask(ce, tok[i]);
		if (u) {
			if (n_um && !(ce->flags & CAT_EV_OFFCORE)) {
				pp_snprintf(why, why_size, "event '%s': one unit mask at a time",
					    ev->name);
				return -1;
			}
			if (!n_um)
				um = u;
			if (u->extra)
				ev->offcore_rsp |= cat_extras[u->extra];
			n_um++;
			continue;
		}
		r = apply_modifier(ev, tok[i], ce->flags & CAT_EV_LDLAT,
				   ce->flags & CAT_EV_FRONTEND, why, why_size);
		if (r < 0)
			return -1;
		if (!r) {
			pp_snprintf(why, why_size,
				    "event '%s': '%s' is neither a unit mask of %s nor a modifier "
				    "(u, k, e, i, c=N%s%s)",
				    ev->name, tok[i], cat_str(ce->name),
				    ce->flags & CAT_EV_LDLAT ? ", ldlat=N" : "",
				    ce->flags & CAT_EV_FRONTEND ? ", fe_thres=N" : "");
			return -1;
		}
	}
	if (!um)
		um = default_umask(ce);
	if (!um) {
		pp_snprintf(why, why_size, "event '%s': %s needs a unit mask", ev->name,
			    cat_str(ce->name));
		return -1;
	}
	/* Modifiers applied so far sit on top of libpfm4's own encoding. */
	ev->evtsel |= um->evtsel;
	ev->precise = um->flags & CAT_UM_PRECISE;
	if (ce->flags & CAT_EV_LDLAT)
		ev->has_ldlat = true; /* ldlat 0: not given, the session's threshold applies */
	if (ce->flags & CAT_EV_FRONTEND) {
		ev->has_frontend = true;
		ev->frontend |= um->extra ? cat_extras[um->extra] : 0;
	} else if (ce->flags & CAT_EV_OFFCORE) {
		/* "Any response" is added by the plan, which knows the generation's layout. */
		ev->has_offcore = true;
	} else {
		ev->offcore_rsp = 0;
	}
	return 0;
}

int pmu_event_parse(const char *pfm_pmu, const char *text, struct pmu_event *ev, char *why,
		    size_t why_size)
{
	const struct cat_pmu *p;
	const char *sep;
	size_t len;

	memset(ev, 0, sizeof(*ev));
	ev->fixed = -1;
	while (text && is_space(*text))
		text++;
	if (!text || !*text) {
		pp_snprintf(why, why_size, "empty event (a libpfm4 name or event=0xNN,umask=0xNN)");
		return -1;
	}
	len = strlen(text);
	while (len && is_space(text[len - 1]))
		len--;
	if (len >= sizeof(ev->name)) {
		pp_snprintf(why, why_size, "event '%.40s...': longer than %zu characters", text,
			    sizeof(ev->name) - 1);
		return -1;
	}
	memcpy(ev->name, text, len);
	ev->name[len] = 0;
	if (!strncmp(ev->name, "event=", 6)) {
		if (parse_raw(ev->name, ev, why, why_size))
			return -1;
	} else {
		char pmu_name[16];

		sep = strchr(ev->name, ':');
		if (sep && sep[1] == ':' && (size_t)(sep - ev->name) < sizeof(pmu_name)) {
			memcpy(pmu_name, ev->name, sep - ev->name);
			pmu_name[sep - ev->name] = 0;
			pfm_pmu = pmu_name;
			text = sep + 2;
		} else {
			text = ev->name;
		}
		p = pfm_pmu ? find_pmu(pfm_pmu) : NULL;
		if (!p) {
			pp_snprintf(why, why_size,
				    "event '%s': no libpfm4 table '%s' in the catalogue", ev->name,
				    pfm_pmu ? pfm_pmu : "(none)");
			return -1;
		}
		if (parse_named(p, text, ev, why, why_size))
			return -1;
	}
	if (!ev->usr && !ev->os)
		ev->usr = ev->os = true; /* neither named: both rings, as libpfm4's default */
	/* Event 0x00: the fixed-counter pseudo-encodings (Linux asm/perf_event.h: 0x0300 REF,
	 * 0x0400 SLOTS). */
	if (EVTSEL_EVENT(ev->evtsel) == 0) {
		unsigned int umask = (ev->evtsel >> 8) & 0xff;

		if (umask < 1 || umask > 4) {
			pp_snprintf(
			    why, why_size,
			    "event '%s': encodes as event 0x00 umask 0x%02x, which is no "
			    "counter; use the architectural name (e.g. UNHALTED_CORE_CYCLES)",
			    ev->name, umask);
			return -1;
		}
		ev->fixed = umask - 1;
	}
	return 0;
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
