// SPDX-License-Identifier: MIT
/*
 * report_recap.c - the RECAP lines before RESULT: the failed and the
 * environment-error verdicts of the run, by name, read back from the
 * verdict log (report.h), within a budget of lines.
 */
#include "report_recap.h"
#include "cpuset.h"
#include "fmt.h"

/* Did two verdicts of the log come from different CPUs? */
static bool log_several_cpus(void)
{
	const struct report_entry *first = report_log_at(0);

	for (unsigned int i = 1; i < report_log_count(); i++)
		if (report_log_at(i)->has_cpu && first->has_cpu &&
		    report_log_at(i)->cpu != first->cpu)
			return true;
	return false;
}

/* A verdict's name without the CPU a job on several CPUs adds ("chase-l1/load@cpu3"). */
static size_t base_len(const char *name)
{
	const char *at = strchr(name, '@');

	return at ? (size_t)(at - name) : strlen(name);
}

static bool same_base(const struct report_entry *a, const struct report_entry *b)
{
	return base_len(a->name) == base_len(b->name) &&
	       !strncmp(a->name, b->name, base_len(a->name));
}

/*
 * "name", or "name@cpu3,9,12" for every verdict of that name and kind on
 * several CPUs (ranges, cut with "+": results.json names each), so that
 * the RECAP does not grow with the CPUs that failed.
 */
static void recap_name(unsigned int i, bool cpus, char *out, size_t size)
{
	const struct report_entry *e = report_log_at(i);
	unsigned int max = 0;
	struct cpuset *set;
	char list[48];

	if (!cpus || !e->has_cpu) {
		pp_snprintf(out, size, "%.*s", (int)base_len(e->name), e->name);
		return;
	}
	for (unsigned int j = i; j < report_log_count(); j++)
		if (report_log_at(j)->has_cpu && report_log_at(j)->cpu > max)
			max = report_log_at(j)->cpu;
	set = cpuset_alloc(max + 1);
	if (!set) {
		pp_snprintf(out, size, "%.*s@cpu%u", (int)base_len(e->name), e->name, e->cpu);
		return;
	}
	for (unsigned int j = i; j < report_log_count(); j++) {
		const struct report_entry *f = report_log_at(j);

		if (f->kind == e->kind && f->has_cpu && same_base(e, f))
			cpuset_add(set, f->cpu);
	}
	cpuset_text(set, list, 32);
	cpuset_free(set);
	pp_snprintf(out, size, "%.*s@cpu%s", (int)base_len(e->name), e->name, list);
}

static bool recap_seen(unsigned int upto, enum report_kind kind, const struct report_entry *e)
{
	for (unsigned int j = 0; j < upto; j++)
		if (report_log_at(j)->kind == kind && same_base(report_log_at(j), e))
			return true;
	return false;
}

unsigned int report_recap(enum report_kind kind, const char *word, unsigned int total,
			  unsigned int budget)
{
	/* RECAP lines carry no " [sim]" mark: the RESULT line below says it. */
	size_t width = REPORT_RECAP_WIDTH;
	char line[REPORT_WIDTH + 1], name[160];
	bool cpus = log_several_cpus();
	unsigned int lines = 0, listed = 0;
	size_t len = 0;

	for (unsigned int i = 0; i < report_log_count() && budget; i++) {
		const struct report_entry *e = report_log_at(i);

		if (e->kind != kind)
			continue;
		listed++;
		if (recap_seen(i, kind, e))
			continue;
		recap_name(i, cpus, name, sizeof(name));
		if (len && len + 2 + strlen(name) > width) {
			if (lines + 1 == budget) {
				listed--;
				break;
			}
			report_line("%s", line);
			lines++;
			len = 0;
		}
		/*
		 * The last line keeps room for ", and N more (results.json)", its
		 * first name too: a long one goes to the count instead.
		 */
		if (lines + 1 == budget &&
		    (len ? len + 2 : strlen("RECAP: ") + strlen(word) + 1) + strlen(name) + 30 >
			width) {
			listed--;
			break;
		}
		if (!len)
			len =
			    (size_t)pp_snprintf(line, sizeof(line), "RECAP: %s %.60s", word, name);
		else
			len += (size_t)pp_snprintf(line + len, sizeof(line) - len, ", %.60s", name);
	}
	if (len && total > listed)
		pp_snprintf(line + len, sizeof(line) - len, ", and %u more (results.json)",
			    total - listed);
	else if (!len && total > listed && budget)
		len = (size_t)pp_snprintf(line, sizeof(line),
					  lines ? "RECAP: %s and %u more (results.json)"
						: "RECAP: %s %u, named in results.json",
					  word, total - listed);
	if (len) {
		report_line("%s", line);
		lines++;
	}
	return lines;
}
