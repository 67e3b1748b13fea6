// SPDX-License-Identifier: MIT
/*
 * report_recap.c - the RECAP lines before RESULT: the failed and the
 * environment-error verdicts of the run, by name, read back from the
 * verdict log (report.h), within a budget of lines.
 */
#include "report_recap.h"
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

/* "name" or "name@cpuN"; was it listed already? */
static void recap_name(const struct report_entry *e, bool cpus, char *out, size_t size)
{
	if (cpus && e->has_cpu && !strchr(e->name, '@'))
		pp_snprintf(out, size, "%s@cpu%u", e->name, e->cpu);
	else
		pp_snprintf(out, size, "%s", e->name);
}

static bool recap_seen(unsigned int upto, enum report_kind kind, const char *name, bool cpus)
{
	char other[160];

	for (unsigned int j = 0; j < upto; j++) {
		if (report_log_at(j)->kind != kind)
			continue;
		recap_name(report_log_at(j), cpus, other, sizeof(other));
		if (!strcmp(other, name))
			return true;
	}
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
		recap_name(e, cpus, name, sizeof(name));
		if (recap_seen(i, kind, name, cpus))
			continue;
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
