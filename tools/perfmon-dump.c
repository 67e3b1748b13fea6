// SPDX-License-Identifier: MIT
/*
 * perfmon-dump - prints what the perfmon tables (pmu/perfmon.h) hold, through
 * the same API the app uses; tests/host/check-perfmon.sh compares it with
 * its own reading of data/perfmon.
 *
 *   perfmon-dump --tables          one line a table: name, platform, version,
 *                                  event count, the fields its file carries
 *   perfmon-dump [NAME...]         every event of the named tables (all when
 *                                  none is named), one line each
 *   perfmon-dump --map             reads "FAMILY MODEL STEPPING CORE_TYPE
 *                                  NATIVE_MODEL" lines (C numbers: 6, 0x97)
 *                                  from stdin, prints the table or "none"
 *
 * An event line is the table name, the event's index, then tab-separated
 * key=value fields (docs/PERFMON.md, "Checking the tables").  Bad usage:
 * one line on stderr naming what was wrong and what is accepted, exit 2.
 */
#include "../pmu/perfmon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	uint32_t bit;
	const char *field;
} field_names[] = {
    {PERFMON_HAS_UMASK_EXT, "UMaskExt"},
    {PERFMON_HAS_COUNTER_HT_OFF, "CounterHTOff"},
    {PERFMON_HAS_PEBS_COUNTERS, "PEBScounters"},
    {PERFMON_HAS_PDIST_COUNTER, "PDISTCounter"},
    {PERFMON_HAS_PDIR_COUNTER, "PDIR_COUNTER"},
    {PERFMON_HAS_PEBS, "PEBS"},
    {PERFMON_HAS_PRECISE, "Precise"},
    {PERFMON_HAS_COLLECT_PEBS, "CollectPEBSRecord"},
    {PERFMON_HAS_DATA_LA, "Data_LA"},
    {PERFMON_HAS_L1_HIT, "L1_Hit_Indication"},
    {PERFMON_HAS_PRECISE_STORE, "PRECISE_STORE"},
    {PERFMON_HAS_TAKEN_ALONE, "TakenAlone"},
    {PERFMON_HAS_ANY_THREAD, "AnyThread"},
    {PERFMON_HAS_EQUAL, "Equal"},
    {PERFMON_HAS_ERRATA, "Errata"},
    {PERFMON_HAS_DEPRECATED, "Deprecated"},
    {PERFMON_HAS_OFFCORE, "Offcore"},
    {PERFMON_HAS_OFFMODULE, "Offmodule"},
    {PERFMON_HAS_COUNTER_TYPE, "CounterType"},
    {PERFMON_HAS_PROG_RESTRICTION, "ProgrammingRestriction"},
};

static const char *const list_keys[PERFMON_N_CTR_LISTS] = {
    [PERFMON_COUNTER] = "counter",
    [PERFMON_COUNTER_HT_OFF] = "counter_ht_off",
    [PERFMON_PEBS_COUNTERS] = "pebs_counters",
    [PERFMON_PDIST_COUNTER] = "pdist_counter",
    [PERFMON_PDIR_COUNTER] = "pdir_counter",
};

static void print_tables(void)
{
	unsigned int i, f;

	for (i = 0; i < perfmon_n_tables(); i++) {
		const struct perfmon_table *t = perfmon_table_at(i);
		uint32_t fields = perfmon_table_fields(t);
		const char *sep = "";

		printf("%s\tplatform=%s\tversion=%s\tevents=%u\tfields=", perfmon_table_name(t),
		       perfmon_table_platform(t), perfmon_table_version(t), perfmon_n_events(t));
		for (f = 0; f < sizeof(field_names) / sizeof(field_names[0]); f++) {
			if (fields & field_names[f].bit) {
				printf("%s%s", sep, field_names[f].field);
				sep = ",";
			}
		}
		printf("\n");
	}
}

static void print_hex_list(const char *key, const unsigned int *v, unsigned int n)
{
	unsigned int i;

	printf("\t%s=", key);
	for (i = 0; i < n; i++)
		printf("%s0x%x", i ? "," : "", v[i]);
}

static void print_event(const struct perfmon_table *t, unsigned int idx)
{
	const struct perfmon_event *ev = perfmon_event_at(t, idx);
	struct perfmon_info in;
	unsigned int v[8], i;

	perfmon_event_get(t, ev, &in);
	printf("%s\t%u\tname=%s", perfmon_table_name(t), idx, in.name);
	for (i = 0; i < in.n_codes; i++)
		v[i] = in.codes[i];
	print_hex_list("codes", v, in.n_codes);
	for (i = 0; i < in.n_umasks; i++)
		v[i] = in.umasks[i];
	print_hex_list("umasks", v, in.n_umasks);
	printf("\tumask_ext=0x%x\tcmask=%u\tinv=%d\tedge=%d\tany_thread=%d\tequal=%d", in.umask_ext,
	       in.cmask, in.inv, in.edge, in.any_thread, in.equal);
	for (i = 0; i < PERFMON_N_CTR_LISTS; i++) {
		struct perfmon_counters c = perfmon_event_counters(ev, (enum perfmon_ctr_list)i);

		if (c.gp != in.ctr[i].gp || c.fixed != in.ctr[i].fixed) {
			fprintf(stderr,
				"perfmon-dump: %s %s: perfmon_event_counters and "
				"perfmon_event_get disagree\n",
				perfmon_table_name(t), in.name);
			exit(1);
		}
		printf("\t%s=gp:0x%x,fixed:0x%x", list_keys[i], in.ctr[i].gp, in.ctr[i].fixed);
	}
	printf("\tpebs=%d\tprecise=%d\tcollect_pebs=%d", in.pebs, in.precise, in.collect_pebs);
	printf("\tdata_la=%d\tl1_hit=%d\tprecise_store=%d\ttaken_alone=%d", in.data_la, in.l1_hit,
	       in.precise_store, in.taken_alone);
	printf("\tdeprecated=%d\toffcore=%d\toffmodule=%d", in.deprecated, in.offcore,
	       in.offmodule);
	printf("\tcounter_type=%s", in.counter_type == PERFMON_FIXED ? "FIXED" : "PGMABLE");
	printf("\trestriction=%s", in.restriction == PERFMON_RESTRICT_MSR_UMASK ? "MSRIndex-UMask"
				   : in.restriction == PERFMON_RESTRICT_MSR_UMASK_COUNTER
				       ? "MSRIndex-UMask-Counter"
				       : "None");
	for (i = 0; i < in.n_msrs; i++)
		v[i] = in.msr_index[i];
	print_hex_list("msr_index", v, in.n_msrs);
	printf("\tmsr_value=0x%llx\tsample_after=%u\terrata=%s\n", (unsigned long long)in.msr_value,
	       in.sample_after, in.errata);
}

static int dump_events(int argc, char **argv)
{
	unsigned int i, e;
	int a;

	for (a = 1; a < argc; a++) {
		bool found = false;

		for (i = 0; i < perfmon_n_tables(); i++)
			found |= !strcmp(perfmon_table_name(perfmon_table_at(i)), argv[a]);
		if (!found) {
			fprintf(stderr,
				"perfmon-dump: no table '%s'; accepted: a name --tables prints, "
				"e.g. ADL/alderlake_goldencove_core.json\n",
				argv[a]);
			return 2;
		}
	}
	for (i = 0; i < perfmon_n_tables(); i++) {
		const struct perfmon_table *t = perfmon_table_at(i);
		bool want = argc < 2;

		for (a = 1; a < argc; a++)
			want |= !strcmp(perfmon_table_name(t), argv[a]);
		if (!want)
			continue;
		for (e = 0; e < perfmon_n_events(t); e++)
			print_event(t, e);
	}
	return 0;
}

static int dump_map(void)
{
	char line[256];
	unsigned int n = 0;

	while (fgets(line, sizeof(line), stdin)) {
		struct perfmon_cpu cpu;
		unsigned long v[5];
		char *p = line, *end;
		const struct perfmon_table *t;
		int i;

		n++;
		for (i = 0; i < 5; i++) {
			v[i] = strtoul(p, &end, 0);
			if (end == p) {
				fprintf(stderr,
					"perfmon-dump: --map line %u: '%.*s' is not five numbers; "
					"accepted: FAMILY MODEL STEPPING CORE_TYPE NATIVE_MODEL\n",
					n, (int)strcspn(line, "\n"), line);
				return 2;
			}
			p = end;
		}
		cpu.family = (uint32_t)v[0];
		cpu.model = (uint32_t)v[1];
		cpu.stepping = (uint32_t)v[2];
		cpu.core_type = (uint32_t)v[3];
		cpu.native_model = (uint32_t)v[4];
		t = perfmon_table_for_cpu(&cpu);
		printf("%s\n", t ? perfmon_table_name(t) : "none");
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--tables")) {
		print_tables();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--map"))
		return dump_map();
	if (argc == 2 && !strcmp(argv[1], "--commit")) {
		printf("%s\n", perfmon_commit);
		return 0;
	}
	if (argc >= 2 && argv[1][0] == '-') {
		fprintf(stderr,
			"perfmon-dump: unknown option '%s'; accepted: --tables, --map, "
			"--commit, or table names\n",
			argv[1]);
		return 2;
	}
	return dump_events(argc, argv);
}
