// SPDX-License-Identifier: MIT
/*
 * uarch.c - what the code asks of a generation row (the rows are
 * pmu/uarch_table.c, the models pmu/uarch_models.c): whether the CPU runs
 * architectural PEBS, the memory-sampling kind of
 * an event and the kind's event, and the counters a counted event may use.
 */
#include <stddef.h>

#include "uarch.h"

bool uarch_arch_pebs(const struct cpu_info *ci)
{
	return ci->arch_pebs && ci->has_perf_caps &&
	       PERF_CAP_PEBS_FMT(ci->perf_caps) == PEBS_FMT_ARCH;
}

/* SDM Vol. 3B Table 18-45: MEM_UOPS_RETIRED (0xd0) umask bit 0 loads, bit 1 stores. */
static bool datala_event(uint16_t ev, bool *store)
{
	uint8_t code = ev & 0xff, umask = ev >> 8;

	if (code == 0xd0) {
		*store = umask & 0x2;
		return umask & 0x3;
	}
	*store = false;
	return code >= 0xd1 && code <= 0xd4; /* MEM_LOAD_*_RETIRED */
}

/*
 * The memory-sampling kinds: the flag a generation's row offers each with,
 * whether it samples stores, the row's event for it, and the words a
 * refusal names it by.  Loads: load latency, else DataLA (Haswell+);
 * stores: store latency (SPR+, the E-cores), else precise store (SNB/IVB),
 * else DataLA: the first row the flags offer wins.  A DataLA row also
 * claims every event of DataLA's class (datala_event), not only its own.
 */
struct kind_row {
	enum pebs_kind kind;
	uint32_t flag;
	bool store;
	bool datala;
	size_t event; /* offsetof the uint16_t event in struct uarch_info */
	const char *what;
};

#define KIND_EVENT(field) offsetof(struct uarch_info, field)

// clang-format off
static const struct kind_row kinds[] = {
    {KIND_LDLAT,        UA_LDLAT,         false, false, KIND_EVENT(ldlat_event),
     "load latency"},
    {KIND_DATALA_LOAD,  UA_DATALA,        false, true,  KIND_EVENT(datala_load_event),
     "DataLA loads (Haswell and later)"},
    {KIND_STLAT,        UA_STLAT,         true,  false, KIND_EVENT(store_event),
     "store latency (Sapphire Rapids and later)"},
    {KIND_STORE,        UA_PRECISE_STORE, true,  false, KIND_EVENT(store_event),
     "precise store (Sandy/Ivy Bridge only; later: datala-store)"},
    {KIND_DATALA_STORE, UA_DATALA,        true,  true,  KIND_EVENT(datala_store_event),
     "DataLA stores (Haswell and later)"},
};
// clang-format on

static uint16_t kind_event(const struct uarch_info *ua, const struct kind_row *k)
{
	return *(const uint16_t *)((const char *)ua + k->event);
}

bool uarch_sampling(const struct uarch_info *ua, bool store, enum pebs_kind *kind,
		    const char **event)
{
	const char *named = store ? ua->mem_store_name : ua->mem_load_name;

	*event = NULL;
	if (named) {
		*kind = KIND_OTHER;
		*event = named;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].store == store && (ua->flags & kinds[i].flag)) {
			*kind = kinds[i].kind;
			return true;
		}
	return false;
}

bool uarch_kind_event(const struct uarch_info *ua, enum pebs_kind kind, uint16_t *event,
		      const char **what)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].kind == kind) {
			*event = ua->flags & kinds[i].flag ? kind_event(ua, &kinds[i]) : 0;
			*what = kinds[i].what;
			return true;
		}
	return false;
}

/* A row's own event first, then DataLA's class of events. */
enum pebs_kind uarch_event_kind(const struct uarch_info *ua, uint16_t evtsel)
{
	bool store;

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!kinds[i].datala && (ua->flags & kinds[i].flag) &&
		    evtsel == kind_event(ua, &kinds[i]))
			return kinds[i].kind;
	if (!datala_event(evtsel, &store))
		return KIND_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].datala && (ua->flags & kinds[i].flag) && kinds[i].store == store)
			return kinds[i].kind;
	return KIND_OTHER;
}

uint32_t uarch_count_counters(const struct uarch_info *ua, uint16_t evtsel)
{
	const struct uarch_constraint *c = constraints_find(ua->count_cons, evtsel);

	return c ? c->gp : 0xffffffffu;
}
