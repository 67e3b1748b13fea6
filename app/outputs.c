// SPDX-License-Identifier: MIT
/*
 * outputs.c - every run leaves only its own files (app.h app_outputs): an
 * earlier run's results, log and dumps are deleted before this run writes
 * anything, and an output never replaces a file pebsprobe did not write.
 *
 * A file is pebsprobe's when its name is one pebsprobe writes and its
 * first bytes are what pebsprobe writes there: a dump starts with the
 * dump's magic (decode/dump.h), results.json with {"results_version":, the
 * log with its banner "INFO: pebsprobe ".  Nothing else is read, deleted
 * or overwritten.
 */
#include "app.h"
#include "../decode/dump.h"
#include "../kernels/kernel.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"

#define RESULTS_HEAD "{\"results_version\":"
#define LOG_HEAD     "INFO: pebsprobe "

/* The samplings a dump is named after (job/: load, store, other, nonprecise, event1..8). */
static const char *const dump_samplings[] = {
    "load",   "store",	"other",  "nonprecise", "event1", "event2",
    "event3", "event4", "event5", "event6",	"event7", "event8",
};

/* Whether name exists and starts with head; false when absent or not readable. */
static bool starts_with(const char *name, const char *head)
{
	char buf[32];
	size_t n = strlen(head);
	int got = plat_read_head(name, buf, n);

	return got == (int)n && !memcmp(buf, head, n);
}

/* Deletes name and name.tmp where they start with head; counts them. */
static unsigned int clear_one(const char *name, const char *head)
{
	char tmp[96];
	unsigned int n = 0;

	pp_snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	if (starts_with(name, head) && !plat_delete_file(name))
		n++;
	if (starts_with(tmp, head) && !plat_delete_file(tmp))
		n++;
	return n;
}

unsigned int app_clear_previous(const struct options *o)
{
	const char *const results[] = {"results.json", o->job.results};
	const char *const logs[] = {"pebsprobe.log", o->log};
	unsigned int n = 0;
	char name[96];

	/*
	 * The boot CPU's dumps, then every other CPU's (job/dump.c names them
	 * "-cpuN"), for the CPUs this machine has: a stick moved here from a
	 * machine with more CPUs keeps those CPUs' dumps (docs/OUTPUT.md).
	 */
	for (unsigned int cpu = 0; cpu < plat_cpu_count(); cpu++) {
		for (size_t i = 0; i < kernel_count(); i++) {
			for (size_t s = 0; s < ARRAY_SIZE(dump_samplings); s++) {
				if (cpu)
					pp_snprintf(name, sizeof(name), "%s-%s-cpu%u.pebs",
						    kernel_at(i)->name, dump_samplings[s], cpu);
				else
					pp_snprintf(name, sizeof(name), "%s-%s.pebs",
						    kernel_at(i)->name, dump_samplings[s]);
				n += clear_one(name, PEBS_DUMP_MAGIC);
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(results); i++)
		if (strcmp(results[i], "none") && (!i || strcmp(results[i], results[0])))
			n += clear_one(results[i], RESULTS_HEAD);
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++)
		if (strcmp(logs[i], "none") && (!i || strcmp(logs[i], logs[0])))
			n += clear_one(logs[i], LOG_HEAD);
	return n;
}

int app_check_outputs(const struct options *o, char *err, size_t err_size)
{
	const struct {
		const char *opt, *name, *head;
	} out[] = {{"results", o->job.results, RESULTS_HEAD}, {"log", o->log, LOG_HEAD}};
	char buf[4];

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		if (!strcmp(out[i].name, "none") || plat_read_head(out[i].name, buf, 1) < 0 ||
		    starts_with(out[i].name, out[i].head))
			continue;
		pp_snprintf(err, err_size,
			    "option %s: a file '%s' is there that pebsprobe did not write; it is "
			    "not replaced (accepted: a name no file has, or one of pebsprobe's "
			    "earlier %s files)",
			    out[i].opt, out[i].name, out[i].opt);
		return -1;
	}
	return 0;
}
