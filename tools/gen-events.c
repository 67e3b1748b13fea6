// SPDX-License-Identifier: MIT
/*
 * gen-events - host program run by the build: walks every Intel core PMU
 * libpfm4 knows and writes the event catalogue (pmu/catalogue.h) as C.
 *
 *   gen-events OUT.c
 *
 * Each umask is encoded by libpfm4 itself (pfm_get_os_event_encoding with
 * PFM_OS_NONE), so the PERFEVTSEL bits (event, umask, edge, inv, cmask) are
 * libpfm4's, not ours.  Netburst is left out: its ESCR/CCCR encoding is not a
 * PERFEVTSEL value and it has no DS-based PEBS of the kind pebsprobe drives.
 * Names are stored once in a string pool to keep the EFI binary small.
 */
#include <perfmon/pfmlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pmu/catalogue.h"

#define EVTSEL_KEEP 0xffa4ffffULL /* drop USR16 OS17 PC19 INT20 EN22 */

static char *pool;
static size_t pool_len, pool_cap;

struct str_ent {
	char *s;
	uint32_t off;
	struct str_ent *next;
};
static struct str_ent *hash[8192];

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static uint32_t pool_add(const char *s)
{
	uint32_t h = str_hash(s) % 8192;
	struct str_ent *e;
	size_t n = strlen(s) + 1;

	for (e = hash[h]; e; e = e->next)
		if (!strcmp(e->s, s))
			return e->off;
	if (pool_len + n > pool_cap) {
		pool_cap = (pool_cap + n) * 2;
		pool = realloc(pool, pool_cap);
		if (!pool)
			exit(1);
	}
	memcpy(pool + pool_len, s, n);
	e = calloc(1, sizeof(*e));
	if (!e)
		exit(1);
	e->s = strdup(s);
	e->off = (uint32_t)pool_len;
	e->next = hash[h];
	hash[h] = e;
	pool_len += n;
	return e->off;
}

#define MAX_ROWS 65536
static struct cat_pmu pmus[256];
static struct cat_event events[MAX_ROWS];
static struct cat_umask umasks[4 * MAX_ROWS];
static unsigned int n_pmus, n_events, n_umasks;

static bool intel_core_pmu(const pfm_pmu_info_t *pi)
{
	if (pi->type != PFM_PMU_TYPE_CORE || strncmp(pi->desc, "Intel", 5))
		return false;
	return strncmp(pi->name, "netburst", 8) != 0;
}

/* libpfm4's own encoding of "pmu::event[:umask]"; 0 codes on failure. */
static int encode(const char *pmu, const char *ev, const char *um, uint64_t *c0, uint64_t *c1)
{
	char str[512];
	pfm_pmu_encode_arg_t arg;
	int r;

	snprintf(str, sizeof(str), "%s::%s%s%s", pmu, ev, um ? ":" : "", um ? um : "");
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	*c0 = *c1 = 0;
	if (r != PFM_SUCCESS)
		return r;
	if (arg.count > 0)
		*c0 = arg.codes[0];
	if (arg.count > 1)
		*c1 = arg.codes[1];
	free(arg.codes);
	return 0;
}

static uint64_t extras[MAX_ROWS];
static unsigned int n_extras = 1; /* 0 = none */

static uint16_t extra_add(uint64_t v)
{
	unsigned int i;

	if (!v)
		return 0;
	for (i = 1; i < n_extras; i++)
		if (extras[i] == v)
			return (uint16_t)i;
	if (n_extras >= 65535) {
		fprintf(stderr, "gen-events: too many extra values\n");
		exit(1);
	}
	extras[n_extras] = v;
	return (uint16_t)n_extras++;
}

static void add_umask(const char *name, uint64_t c0, uint64_t extra, uint8_t flags)
{
	struct cat_umask *u = &umasks[n_umasks++];
	uint32_t off = pool_add(name);

	if (n_umasks >= ARRAY_SIZE(umasks)) {
		fprintf(stderr, "gen-events: too many umasks\n");
		exit(1);
	}
	if (off > 0xffff) {
		fprintf(stderr, "gen-events: string pool over 64 KiB\n");
		exit(1);
	}
	u->name = (uint16_t)off;
	u->evtsel = (uint32_t)(c0 & EVTSEL_KEEP);
	u->extra = extra_add(extra);
	u->flags = flags;
}

static void add_event(const pfm_pmu_info_t *pi, int idx)
{
	pfm_event_info_t ei;
	pfm_event_attr_info_t ai;
	struct cat_event *ce;
	uint64_t c0, c1;
	int a, n_um = 0;

	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return;
	ce = &events[n_events++];
	ce->name = pool_add(ei.name);
	ce->code = (uint16_t)ei.code;
	ce->first_umask = n_umasks;
	ce->flags = ei.is_precise ? CAT_EV_PRECISE : 0;
	for (a = 0; a < ei.nattrs; a++) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS)
			continue;
		if (ai.type == PFM_ATTR_MOD_INTEGER && !strcmp(ai.name, "ldlat"))
			ce->flags |= CAT_EV_LDLAT;
		if (ai.type == PFM_ATTR_MOD_INTEGER && !strcmp(ai.name, "fe_thres"))
			ce->flags |= CAT_EV_FRONTEND;
	}
	for (a = 0; a < ei.nattrs; a++) {
		uint8_t fl;
		uint64_t extra = 0;

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		fl = (ai.is_precise ? CAT_UM_PRECISE : 0) | (ai.is_dfl ? CAT_UM_DEFAULT : 0);
		if (encode(pi->name, ei.name, ai.name, &c0, &c1)) {
			/* Not encodable alone (needs a companion umask): libpfm4's raw codes. */
			c0 = (ei.code & 0xff) | ((ai.code & 0xff) << 8);
			c1 = 0;
		}
		if (c1 && !(ce->flags & (CAT_EV_LDLAT | CAT_EV_FRONTEND))) {
			ce->flags |= CAT_EV_OFFCORE;
			extra = ai.code; /* the attribute's own RSP bits, to be OR-ed */
		} else if (ce->flags & CAT_EV_FRONTEND) {
			extra = c1;
		}
		add_umask(ai.name, c0, extra, fl);
		n_um++;
	}
	if (!n_um) {
		if (encode(pi->name, ei.name, NULL, &c0, &c1))
			c0 = ei.code & 0xffff;
		add_umask("", c0, 0, (ei.is_precise ? CAT_UM_PRECISE : 0) | CAT_UM_DEFAULT);
		n_um = 1;
	}
	ce->n_umasks = (uint16_t)n_um;
}

static void add_pmu(const pfm_pmu_info_t *pi)
{
	struct cat_pmu *cp = &pmus[n_pmus++];
	int e;

	cp->name = pool_add(pi->name);
	cp->desc = pool_add(pi->desc);
	cp->first_event = n_events;
	cp->n_gp = (uint8_t)pi->num_cntrs;
	cp->n_fixed = (uint8_t)pi->num_fixed_cntrs;
	for (e = pi->first_event; e != -1; e = pfm_get_event_next(e))
		add_event(pi, e);
	cp->n_events = (uint16_t)(n_events - cp->first_event);
}

static void emit(FILE *f)
{
	unsigned int i, col = 0;

	fprintf(f, "/* Generated by tools/gen-events.c from libpfm4 %d.%d: do not edit. */\n",
		PFM_MAJ_VERSION(pfm_get_version()), PFM_MIN_VERSION(pfm_get_version()));
	fprintf(f, "#include \"pmu/catalogue.h\"\n\nconst char cat_pool[] =\n\t\"");
	for (i = 0; i < pool_len; i++) {
		/* "\000", never "\0": a name may start with a digit ("4K_ALIAS"). */
		if (pool[i])
			fputc(pool[i], f);
		else
			fputs(i + 1 < pool_len && !(++col % 6) ? "\\000\"\n\t\"" : "\\000", f);
	}
	fprintf(f, "\";\n\nconst uint32_t cat_n_pmus = %u;\n", n_pmus);
	fprintf(f, "const struct cat_pmu cat_pmus[] = {\n");
	for (i = 0; i < n_pmus; i++)
		fprintf(f, "\t{ %u, %u, %u, %u, %u, %u },\n", pmus[i].name, pmus[i].desc,
			pmus[i].first_event, pmus[i].n_events, pmus[i].n_gp, pmus[i].n_fixed);
	fprintf(f, "};\n\nconst struct cat_event cat_events[] = {\n");
	for (i = 0; i < n_events; i++)
		fprintf(f, "\t{ %u, %u, %u, 0x%x, 0x%x },\n", events[i].name, events[i].first_umask,
			events[i].n_umasks, events[i].code, events[i].flags);
	fprintf(f, "};\n\nconst struct cat_umask cat_umasks[] = {\n");
	for (i = 0; i < n_umasks; i++)
		fprintf(f, "\t{ 0x%x, %u, %u, 0x%x },\n", umasks[i].evtsel, umasks[i].name,
			umasks[i].extra, umasks[i].flags);
	fprintf(f, "};\n\nconst uint64_t cat_extras[] = {\n");
	for (i = 0; i < n_extras; i++)
		fprintf(f, "\t0x%llxULL,\n", (unsigned long long)extras[i]);
	fprintf(f, "};\n");
}

int main(int argc, char **argv)
{
	pfm_pmu_info_t pi;
	FILE *f;
	int p;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-events OUT.c\n");
		return 2;
	}
	/* Encode for PMUs that are not the host's own (libpfm4 env switch). */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (pfm_initialize() != PFM_SUCCESS) {
		fprintf(stderr, "gen-events: pfm_initialize failed\n");
		return 1;
	}
	pool_add("");
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && intel_core_pmu(&pi) &&
		    pi.nevents > 0)
			add_pmu(&pi);
	}
	if (!n_pmus) {
		fprintf(stderr, "gen-events: libpfm4 knows no Intel core PMU\n");
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	emit(f);
	if (fclose(f))
		return 1;
	fprintf(stderr, "gen-events: %u PMUs, %u events, %u umasks, %zu bytes of names\n", n_pmus,
		n_events, n_umasks, pool_len);
	return 0;
}
