// SPDX-License-Identifier: MIT
/*
 * perfmon.c - lookups in the perfmon tables (pmu/perfmon_data.h).  The
 * tables are small enough (at most a few thousand events a file) that a
 * linear scan answers every question; nothing is sorted or cached, so there
 * is nothing to get out of step with the data.
 */
#include "perfmon_data.h"

/* The row size docs/PERFMON.md and pmu/perfmon_data.h promise. */
_Static_assert(sizeof(struct perfmon_event) == 16, "perfmon_event grew");

static const char *pool_str(uint32_t off)
{
	return perfmon_pool + off;
}

unsigned int perfmon_n_tables(void)
{
	return perfmon_table_count;
}

const struct perfmon_table *perfmon_table_at(unsigned int i)
{
	return i < perfmon_table_count ? &perfmon_tables[i] : NULL;
}

const char *perfmon_table_name(const struct perfmon_table *t)
{
	return pool_str(t->name);
}

const char *perfmon_table_platform(const struct perfmon_table *t)
{
	return pool_str(t->platform);
}

const char *perfmon_table_version(const struct perfmon_table *t)
{
	return pool_str(t->version);
}

uint32_t perfmon_table_fields(const struct perfmon_table *t)
{
	return t->fields;
}

static bool map_matches(const struct perfmon_map *m, const struct perfmon_cpu *cpu)
{
	if (m->family != cpu->family || m->model != cpu->model)
		return false;
	if (m->stepping != PERFMON_ANY_STEPPING && m->stepping != cpu->stepping)
		return false;
	/* A hybrid row names the core type and native model ID it is for. */
	if (m->core_type &&
	    (m->core_type != cpu->core_type || m->native_model != cpu->native_model))
		return false;
	return true;
}

const struct perfmon_table *perfmon_table_for_cpu(const struct perfmon_cpu *cpu)
{
	const struct perfmon_table *found = NULL;
	unsigned int i;

	for (i = 0; i < perfmon_n_maps; i++) {
		const struct perfmon_map *m = &perfmon_maps[i];

		if (!map_matches(m, cpu))
			continue;
		if (found && found != &perfmon_tables[m->table])
			return NULL; /* two files fit: not enough said to choose */
		found = &perfmon_tables[m->table];
	}
	return found;
}

unsigned int perfmon_n_events(const struct perfmon_table *t)
{
	return t->n_events;
}

const struct perfmon_event *perfmon_event_at(const struct perfmon_table *t, unsigned int i)
{
	if (i >= t->n_events)
		return NULL;
	return &perfmon_rows[perfmon_table_rows[t->first + i]];
}

const char *perfmon_event_name(const struct perfmon_event *ev)
{
	return pool_str(ev->name);
}

static char ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (ascii_upper(*a) != ascii_upper(*b))
			return false;
	return *a == *b;
}

const struct perfmon_event *perfmon_find_name(const struct perfmon_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->n_events; i++) {
		const struct perfmon_event *ev = perfmon_event_at(t, i);

		if (same_name(pool_str(ev->name), name))
			return ev;
	}
	return NULL;
}

/* same_name against the first len characters of b. */
static bool same_name_n(const char *a, const char *b, size_t len)
{
	for (; len && *a; a++, b++, len--)
		if (ascii_upper(*a) != ascii_upper(*b))
			return false;
	return !len && !*a;
}

/* The id is the name's offset in the pool: every file's rows share it, 0 is "". */
uint32_t perfmon_name_id(const struct perfmon_table *t, const char *name, size_t len)
{
	unsigned int i = t ? (unsigned int)(t - perfmon_tables) : 0;
	unsigned int end = t ? i + 1 : perfmon_table_count;

	for (; len && i < end; i++) {
		const struct perfmon_table *f = &perfmon_tables[i];

		for (unsigned int e = 0; e < f->n_events; e++) {
			uint32_t off = perfmon_event_at(f, e)->name;

			if (same_name_n(pool_str(off), name, len))
				return off;
		}
	}
	return 0;
}

const struct perfmon_event *perfmon_find_id(const struct perfmon_table *t, uint32_t id)
{
	return id ? perfmon_find_name(t, pool_str(id)) : NULL;
}

const char *perfmon_id_name(uint32_t id)
{
	return pool_str(id);
}

static const struct perfmon_lists *lists_of(const struct perfmon_event *ev)
{
	return &perfmon_lists[perfmon_extras[ev->extra].lists];
}

static bool key_matches(const struct perfmon_event *ev, const struct perfmon_key *k)
{
	const struct perfmon_lists *x = lists_of(ev);
	bool code = ev->code == k->code, umask = ev->umask == k->umask;
	unsigned int i;

	for (i = 0; i < x->n_more_codes; i++)
		code |= x->more_codes[i] == k->code;
	for (i = 0; i < x->n_more_umasks; i++)
		umask |= x->more_umasks[i] == k->umask;
	if (!code || !umask || ev->umask_ext != k->umask_ext)
		return false;
	if (!k->match_mods)
		return true;
	return ev->cmask == k->cmask && !!(ev->flags & PMR_INV) == k->inv &&
	       !!(ev->flags & PMR_EDGE) == k->edge && !!(ev->flags & PMR_ANY) == k->any;
}

const struct perfmon_event *perfmon_find_code(const struct perfmon_table *t,
					      const struct perfmon_key *key, unsigned int *pos)
{
	unsigned int i;

	for (i = *pos; i < t->n_events; i++) {
		const struct perfmon_event *ev = perfmon_event_at(t, i);

		if (key_matches(ev, key)) {
			*pos = i + 1;
			return ev;
		}
	}
	*pos = t->n_events;
	return NULL;
}

struct perfmon_counters perfmon_event_counters(const struct perfmon_event *ev,
					       enum perfmon_ctr_list which)
{
	struct perfmon_counters none = {0, 0};

	/* A list the file lacks is stored empty. */
	if ((unsigned int)which >= PERFMON_N_CTR_LISTS)
		return none;
	return perfmon_ctrsets[ev->ctrs].ctr[which];
}

void perfmon_event_get(const struct perfmon_table *t, const struct perfmon_event *ev,
		       struct perfmon_info *out)
{
	const struct perfmon_extra *e = &perfmon_extras[ev->extra];
	const struct perfmon_lists *x = lists_of(ev);
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->name = pool_str(ev->name);
	out->n_codes = 1 + x->n_more_codes;
	out->codes[0] = ev->code;
	for (i = 0; i < x->n_more_codes; i++)
		out->codes[1 + i] = x->more_codes[i];
	out->n_umasks = 1 + x->n_more_umasks;
	out->umasks[0] = ev->umask;
	for (i = 0; i < x->n_more_umasks; i++)
		out->umasks[1 + i] = x->more_umasks[i];
	out->umask_ext = ev->umask_ext;
	out->cmask = ev->cmask;
	out->inv = ev->flags & PMR_INV;
	out->edge = ev->flags & PMR_EDGE;
	out->any_thread = ev->flags & PMR_ANY;
	out->equal = ev->flags & PMR_EQUAL;
	for (i = 0; i < PERFMON_N_CTR_LISTS; i++)
		out->ctr[i] = perfmon_ctrsets[ev->ctrs].ctr[i];
	out->pebs = (t->fields & PERFMON_HAS_PEBS) ? (int8_t)PMR_PEBS(ev->pebs) : -1;
	out->precise = (t->fields & PERFMON_HAS_PRECISE) ? (int8_t)PMR_PRECISE(ev->pebs) : -1;
	out->collect_pebs =
	    (t->fields & PERFMON_HAS_COLLECT_PEBS) ? (int8_t)PMR_COLLECT(ev->pebs) : -1;
	out->data_la = ev->flags & PMR_DATA_LA;
	out->l1_hit = ev->flags & PMR_L1_HIT;
	out->precise_store = ev->flags & PMR_PRECISE_STORE;
	out->taken_alone = ev->flags & PMR_TAKEN_ALONE;
	out->deprecated = ev->flags & PMR_DEPRECATED;
	out->offcore = ev->flags & PMR_OFFCORE;
	out->offmodule = ev->flags & PMR_OFFMODULE;
	out->counter_type = (ev->flags & PMR_FIXED_TYPE) ? PERFMON_FIXED : PERFMON_PGMABLE;
	out->restriction =
	    (enum perfmon_restriction)((ev->flags & PMR_RESTRICT_MASK) >> PMR_RESTRICT_SHIFT);
	out->n_msrs = x->n_msrs;
	for (i = 0; i < x->n_msrs; i++)
		out->msr_index[i] = x->msr_index[i];
	out->msr_value = (uint64_t)e->msr_value_hi << 32 | e->msr_value_lo;
	out->sample_after = perfmon_savs[ev->sav];
	out->errata = pool_str(perfmon_errata[ev->errata]);
}
