// SPDX-License-Identifier: MIT
/*
 * test_pmu_uarch.c - the invariants of the generation table (pmu/uarch_table.c)
 * against Intel's perfmon data (data/perfmon) and the decoder's ids:
 *   - every model row names a generation row, and the perfmon platforms it
 *     names are exactly those mapfile.csv gives the model (any stepping,
 *     the row's core type), none where it says none;
 *   - every generation row names a data-source decoder that exists, one
 *     with a data source exactly where the generation samples a kind that
 *     has one, and a source for the AnyThread/Edge/Invert/CMask rule
 *     exactly where PEBS is not on every event;
 *   - every perfmon name a row gives (the kernels' counted events, the
 *     Goldmont load/store events) resolves in the file of every model of
 *     the generation, on a general-purpose counter;
 *   - the load-latency event of every row with load latency resolves there
 *     too, as an event that programs MSR_PEBS_LD_LAT_THRESHOLD (3F6H);
 *   - what the kernels count on every model is an event of the model's
 *     file (a raw encoding without a row would be refused or mean another
 *     event).
 * A wrong row fails one of these with the row, the model and the name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "decode/decode.h"
#include "kernels/verdict.h"
#include "pmu/event.h"
#include "pmu/perfmon.h"
#include "pmu/uarch.h"

#define MSR_PEBS_LD_LAT_THRESHOLD 0x3f6

/* The perfmon tables mapfile.csv gives model row m: any stepping, any native model ID. */
static unsigned int model_tables(const struct uarch_model *m, const struct perfmon_table **out,
				 unsigned int max)
{
	unsigned int n = 0;

	for (uint32_t step = 0; step < 16; step++) {
		for (uint32_t native = 0; native < 16; native++) {
			struct perfmon_cpu pc = {m->family, m->model, step, m->core, native};
			const struct perfmon_table *t = perfmon_table_for_cpu(&pc);
			unsigned int i;

			for (i = 0; t && i < n; i++)
				if (out[i] == t)
					break;
			if (t && i == n && n < max)
				out[n++] = t;
		}
	}
	return n;
}

/* Whether the space-separated list names platform p. */
static bool lists(const char *list, const char *p)
{
	size_t len = strlen(p);

	for (const char *s = list; s && *s;) {
		const char *e = strchr(s, ' ');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == len && !strncmp(s, p, n))
			return true;
		s = e ? e + 1 : NULL;
	}
	return false;
}

static void test_models_name_rows_and_files(void **state)
{
	for (unsigned int i = 0; i < uarch_n_models(); i++) {
		const struct uarch_model *m = uarch_model_at(i);
		const struct perfmon_table *t[8];
		unsigned int n = model_tables(m, t, 8);
		const struct uarch_info *ua = uarch_get(m->uarch);

		if (!ua || ua->uarch != m->uarch)
			fail_msg("%02X_%02XH %s: no generation row", m->family, m->model, m->what);
		if (!m->perfmon && n)
			fail_msg("%02X_%02XH %s: says no perfmon file, mapfile.csv gives %s",
				 m->family, m->model, m->what, perfmon_table_name(t[0]));
		if (m->perfmon && !n)
			fail_msg("%02X_%02XH %s: names perfmon %s, mapfile.csv gives none",
				 m->family, m->model, m->what, m->perfmon);
		for (unsigned int k = 0; k < n; k++)
			if (!lists(m->perfmon, perfmon_table_platform(t[k])))
				fail_msg("%02X_%02XH %s: mapfile.csv gives %s, the row names %s",
					 m->family, m->model, m->what, perfmon_table_name(t[k]),
					 m->perfmon);
		/* each platform the row names is one mapfile.csv gives */
		for (const char *s = m->perfmon; s && *s;) {
			const char *e = strchr(s, ' ');
			char p[16];
			bool found = false;

			snprintf(p, sizeof(p), "%.*s", e ? (int)(e - s) : (int)strlen(s), s);
			for (unsigned int k = 0; k < n; k++)
				found |= !strcmp(perfmon_table_platform(t[k]), p);
			if (!found)
				fail_msg(
				    "%02X_%02XH %s: names perfmon %s, which mapfile.csv does not "
				    "give it",
				    m->family, m->model, m->what, p);
			s = e ? e + 1 : NULL;
		}
	}
}

/* The kinds whose records carry a data source (decode/datasrc.c reads them). */
#define DATA_SOURCE_KINDS (UA_LDLAT | UA_STLAT | UA_DATALA | UA_PRECISE_STORE)

static void test_rows_name_decoders(void **state)
{
	assert_true(uarch_n_rows() > 0);
	for (unsigned int i = 0; i < uarch_n_rows(); i++) {
		const struct uarch_info *ua = uarch_row_at(i);
		bool sampled = ua->flags & DATA_SOURCE_KINDS;

		assert_ptr_equal(uarch_get(ua->uarch), ua);
		if (ua->dsrc == DSRC_UNKNOWN || ua->dsrc >= DSRC_COUNT)
			fail_msg("%s: data-source decoder %d is not one of decode/'s", ua->name,
				 (int)ua->dsrc);
		if (sampled != pebs_dsrc_has_data_src(ua->dsrc))
			fail_msg("%s: samples %s data source, its decoder '%s' %s", ua->name,
				 sampled ? "kinds with a" : "no kind with a",
				 pebs_dsrc_name(ua->dsrc), sampled ? "reads none" : "reads one");
		assert_non_null(ua->source);
		/*
		 * The AnyThread/Edge/Invert/CMask rule has a source exactly where
		 * PEBS is not on every event: legacy formats 0..3 (Linux ds.c
		 * intel_ds_init sets PMU_FL_PEBS_ALL from format 4 with baseline).
		 */
		if ((ua->fmt >= 0 && ua->fmt < 4) != (ua->pebs_flags_src != NULL))
			fail_msg("%s (fmt %d): AnyThread/Edge/Invert/CMask rule %s", ua->name,
				 ua->fmt, ua->pebs_flags_src ? ua->pebs_flags_src : "missing");
	}
}

/* A perfmon name of row ua resolves in t on a general-purpose counter. */
static void resolves(const struct uarch_info *ua, const struct uarch_model *m,
		     const struct perfmon_table *t, const char *name)
{
	const struct perfmon_event *ev = perfmon_find_name(t, name);

	if (!ev)
		fail_msg("%s (%02X_%02XH %s): %s has no such event", ua->name, m->family, m->model,
			 perfmon_table_name(t), name);
	if (!perfmon_event_counters(ev, PERFMON_COUNTER).gp)
		fail_msg("%s (%02X_%02XH %s): %s has no general-purpose counter", ua->name,
			 m->family, m->model, perfmon_table_name(t), name);
}

static bool programs_ldlat(const struct perfmon_table *t, const struct perfmon_event *ev)
{
	struct perfmon_info in;

	perfmon_event_get(t, ev, &in);
	for (unsigned int k = 0; k < in.n_msrs; k++)
		if (in.msr_index[k] == MSR_PEBS_LD_LAT_THRESHOLD)
			return true;
	return false;
}

/* The load-latency event of ua: its encoding's row in t programs MSR_PEBS_LD_LAT_THRESHOLD. */
static void ldlat_resolves(const struct uarch_info *ua, const struct uarch_model *m,
			   const struct perfmon_table *t)
{
	struct perfmon_key key = {.code = ua->ldlat_event & 0xff, .umask = ua->ldlat_event >> 8};
	const struct perfmon_event *ev;
	unsigned int pos = 0, in_file = 0;

	while ((ev = perfmon_find_code(t, &key, &pos)))
		if (programs_ldlat(t, ev))
			return;
	for (unsigned int i = 0; i < perfmon_n_events(t); i++)
		in_file += programs_ldlat(t, perfmon_event_at(t, i));
	/*
	 * A file with no load-latency event at all (the pinned NVL Arctic Wolf
	 * file has none) cannot confirm the row: its event must then come from
	 * Linux ds.c, and the row must say so.  Printed, not skipped.
	 */
	if (!in_file && strstr(ua->source, "ds.c")) {
		printf("NOTE: %s (%s): the file has no load-latency event; the row's 0x%04x is "
		       "from its source: %s\n",
		       ua->name, perfmon_table_name(t), ua->ldlat_event, ua->source);
		return;
	}
	fail_msg("%s (%02X_%02XH %s): load-latency event 0x%04x is no event with MSRIndex 0x3F6",
		 ua->name, m->family, m->model, perfmon_table_name(t), ua->ldlat_event);
}

typedef unsigned int (*file_check)(const struct uarch_model *m, const struct uarch_info *ua,
				   const struct perfmon_table *t);

/* fn on every (model, its generation row, each perfmon file mapfile.csv gives it); checks done. */
static unsigned int each_model_file(file_check fn)
{
	unsigned int checked = 0;

	for (unsigned int i = 0; i < uarch_n_models(); i++) {
		const struct uarch_model *m = uarch_model_at(i);
		const struct perfmon_table *t[8];
		unsigned int n = model_tables(m, t, 8);

		for (unsigned int k = 0; k < n; k++)
			checked += fn(m, uarch_get(m->uarch), t[k]);
	}
	return checked;
}

static unsigned int named_events(const struct uarch_model *m, const struct uarch_info *ua,
				 const struct perfmon_table *t)
{
	unsigned int checked = 0;

	for (unsigned int c = 0; c < UA_COUNT_N; c++)
		if (ua->count_ev[c])
			resolves(ua, m, t, ua->count_ev[c]), checked++;
	if (ua->mem_load_name)
		resolves(ua, m, t, ua->mem_load_name), checked++;
	if (ua->mem_store_name)
		resolves(ua, m, t, ua->mem_store_name), checked++;
	if (ua->flags & UA_LDLAT)
		ldlat_resolves(ua, m, t), checked++;
	return checked;
}

static void test_named_events_resolve(void **state)
{
	assert_true(each_model_file(named_events) > 100);
}

/*
 * The HSW11/BDM11/BDM55 period limit (pmu/plan.c) is keyed on UA_HSW11_EVENT:
 * in the file of every model whose row has the limit, that encoding is an
 * INST_RETIRED event, and the Broadwell files name the errata on it.
 */
static unsigned int hsw11_event(const struct uarch_model *m, const struct uarch_info *ua,
				const struct perfmon_table *t)
{
	struct perfmon_key key = {.code = UA_HSW11_EVENT & 0xff, .umask = UA_HSW11_EVENT >> 8};
	const struct perfmon_event *ev;
	struct perfmon_info in;
	unsigned int pos = 0;

	if (!(ua->flags & UA_INST_RETIRED_128))
		return 0;
	ev = perfmon_find_code(t, &key, &pos);
	if (!ev)
		fail_msg("%s (%s): no event 0x%04x", ua->name, perfmon_table_name(t),
			 UA_HSW11_EVENT);
	perfmon_event_get(t, ev, &in);
	if (strncmp(in.name, "INST_RETIRED.", 13))
		fail_msg("%s (%s): 0x%04x is %s, not INST_RETIRED", ua->name, perfmon_table_name(t),
			 UA_HSW11_EVENT, in.name);
	return strstr(in.errata, "BDM11") && strstr(in.errata, "BDM55") ? 1000 : 1;
}

static void test_hsw11_event(void **state)
{
	unsigned int n = each_model_file(hsw11_event);

	/* Some files checked, and at least one (Broadwell) cites both errata on it. */
	assert_true(n % 1000 > 0 && n >= 1000);
}

/* What the kernels count on a model: each an event of its perfmon file, placed by its row. */
static unsigned int kernel_counts(const struct uarch_model *m, const struct uarch_info *ua,
				  const struct perfmon_table *t)
{
	unsigned int checked = 0;

	for (size_t d = 0; d < kernel_count(); d++) {
		const struct kernel_def *def = kernel_at(d);
		const char *names[8];
		unsigned int nn = verdict_count_events(def, def->samplings, ua, true, names, 8);

		for (unsigned int e = 0; e < nn; e++, checked++) {
			struct pmu_event ev;
			char why[160];

			if (pmu_event_parse(t, names[e], &ev, why, sizeof(why)))
				fail_msg("%s on %02X_%02XH (%s): %s", def->name, m->family,
					 m->model, perfmon_table_name(t), why);
			if (!ev.pm_name)
				fail_msg("%s on %02X_%02XH: counted %s has no row in %s", def->name,
					 m->family, m->model, names[e], perfmon_table_name(t));
		}
	}
	return checked;
}

static void test_kernel_counts_are_perfmon_events(void **state)
{
	assert_true(each_model_file(kernel_counts) > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_models_name_rows_and_files),
	    cmocka_unit_test(test_rows_name_decoders),
	    cmocka_unit_test(test_named_events_resolve),
	    cmocka_unit_test(test_hsw11_event),
	    cmocka_unit_test(test_kernel_counts_are_perfmon_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
