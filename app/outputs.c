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
#include "../job/job.h"
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

/* Whether s ends with suffix; if so, *len is s's length without it. */
static bool ends_with(const char *s, const char *suffix, size_t *len)
{
	size_t n = strlen(s), k = strlen(suffix);

	if (n < k || strcmp(s + n - k, suffix))
		return false;
	*len = n - k;
	return true;
}

/*
 * Whether name (lower case) is one job/dump.c writes, or its temporary:
 * "<kernel>-<sampling>.pebs" for the boot CPU, "...-cpuN.pebs" for CPU N,
 * 1..OUT_CPU_NAME_MAX-1, whatever this machine's count (a stick moved here
 * from a machine with more CPUs), the kernel's '/' written '-'.
 */
#define OUT_CPU_NAME_MAX 1000000 /* no machine's count: any CPU number job/dump.c writes */

static bool dump_name(const char *name)
{
	char base[PLAT_NAME_MAX], want[PLAT_NAME_MAX];
	size_t len;
	char *cpu;

	if (!ends_with(name, ".pebs", &len) && !ends_with(name, ".pebs.tmp", &len))
		return false;
	memcpy(base, name, len);
	base[len] = 0;
	/* The last "-cpu" followed by a number 1..OUT_CPU_NAME_MAX-1 is the CPU's. */
	for (cpu = len >= 4 ? base + len - 4 : base; cpu > base && memcmp(cpu, "-cpu", 4); cpu--)
		;
	if (len >= 4 && !memcmp(cpu, "-cpu", 4) && cpu[4] >= '1' && cpu[4] <= '9') {
		const char *d;
		unsigned int n = 0;

		for (d = cpu + 4; *d >= '0' && *d <= '9' && n < OUT_CPU_NAME_MAX; d++)
			n = n * 10 + (unsigned int)(*d - '0');
		if (*d || n >= OUT_CPU_NAME_MAX)
			return false;
		*cpu = 0;
	}
	for (size_t i = 0; i < kernel_count(); i++) {
		for (size_t s = 0; s < ARRAY_SIZE(dump_samplings); s++) {
			pp_snprintf(want, sizeof(want), "%s-%s", kernel_at(i)->name,
				    dump_samplings[s]);
			for (char *p = want; *p; p++)
				if (*p == '/')
					*p = '-';
			if (!strcmp(base, want))
				return true;
		}
	}
	return false;
}

/* The dump names the folder holds, as spelt there: a growing list (plat_alloc). */
struct found {
	char (*name)[PLAT_NAME_MAX];
	size_t n, cap;
	bool no_memory;
};

static void found_one(void *ctx, const char *name)
{
	struct found *f = ctx;
	char lower[PLAT_NAME_MAX];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(lower); i++)
		lower[i] = name[i] >= 'A' && name[i] <= 'Z' ? (char)(name[i] - 'A' + 'a') : name[i];
	lower[i] = 0;
	if (!dump_name(lower))
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		char(*grown)[PLAT_NAME_MAX] = plat_alloc(cap * PLAT_NAME_MAX);

		if (!grown) {
			f->no_memory = true;
			return;
		}
		if (f->n)
			memcpy(grown, f->name, f->n * PLAT_NAME_MAX);
		plat_free(f->name);
		f->name = grown;
		f->cap = cap;
	}
	pp_snprintf(f->name[f->n++], PLAT_NAME_MAX, "%s", name);
}

unsigned int app_clear_previous(const struct options *o)
{
	const char *const results[] = {"results.json", o->job.results};
	const char *const logs[] = {"pebsprobe.log", o->log};
	struct found f = {0};
	unsigned int n = 0;

	/*
	 * The dumps: the folder is listed once, and a file whose name the job
	 * can write (any CPU number it can measure) and whose first bytes are
	 * a dump's is deleted.  A folder that cannot be listed keeps its dumps.
	 */
	plat_list_files(found_one, &f);
	for (size_t i = 0; i < f.n; i++)
		if (starts_with(f.name[i], PEBS_DUMP_MAGIC) && !plat_delete_file(f.name[i]))
			n++;
	plat_free(f.name);
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
