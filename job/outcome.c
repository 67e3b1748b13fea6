// SPDX-License-Identifier: MIT
/*
 * outcome.c - the one way a run's verdict is written: its PASS, FAIL or
 * SKIP line on the console and its object in results.json's "runs", from
 * the same words, together.
 */
#include "job_int.h"
#include "../lib/fmt.h"
#include "../lib/report.h"

static const char *const verdict_words[] = {
    [V_PASS] = "PASS",
    [V_FAIL] = "FAIL",
    [V_SKIP] = "SKIP",
};

/*
 * The console's form of a reason (lib/report.h report_verdict): its first
 * clauses ("; "-separated, the deciding one first: kernels/expect.c puts
 * what failed or went unchecked first) that fit the line, then how many
 * more the log file and results.json hold.  A first clause too long for
 * one line may take a second; longer, it is cut with "...".
 */
static void job_brief(const char *line_start, const char *why, char *out, size_t size)
{
	size_t room = REPORT_WIDTH - strlen(line_start) - (report_is_simulated() ? 6 : 0);
	size_t len = 0, more = 0, two = room + REPORT_WIDTH - 8;
	const char *at = why, *end;

	out[0] = 0;
	for (; *at; at = *end ? end + 2 : end) {
		size_t n;

		for (end = at; *end && !(end[0] == ';' && end[1] == ' '); end++)
			;
		n = (size_t)(end - at);
		if (len && (more || len + 2 + n + 12 > room)) {
			more++;
			continue;
		}
		len += (size_t)pp_snprintf(out + len, size - len, "%s%.*s", len ? "; " : "", (int)n,
					   at);
		if (len >= size)
			len = size - 1;
	}
	/*
	 * One clause over two lines' room: cut at the last space, never inside
	 * a word or a test name ("chase-l1/loa..."); the log file has it whole.
	 */
	if (len > two && size > two) {
		size_t cut = two - 3;

		while (cut > two / 2 && out[cut] != ' ')
			cut--;
		if (out[cut] != ' ')
			cut = two - 3;
		while (cut && (out[cut - 1] == ' ' || out[cut - 1] == ',' || out[cut - 1] == ':'))
			cut--;
		memcpy(out + cut, "...", 4);
	}
	if (more)
		pp_snprintf(out + strlen(out), size - strlen(out), "; +%zu more", more);
}

/*
 * A PASS's reason without its parenthesized detail ("(187 of 187)",
 * "(expected 0.50..any)"): the console's brief where the whole would wrap,
 * so that a passing line fits one 80-column line; a FAIL or SKIP keeps
 * its parentheses, which say what went wrong.
 */
static void without_parens(const char *in, char *out, size_t size)
{
	size_t o = 0;
	int depth = 0;

	for (; *in && o + 1 < size; in++) {
		if (*in == '(' && o && out[o - 1] == ' ') {
			depth++;
			o--;
		} else if (depth && *in == ')') {
			depth--;
		} else if (!depth) {
			out[o++] = *in;
		}
	}
	out[o] = 0;
}

/*
 * The verdict's line: the brief on the console (a PASS's without its
 * parentheses where it would wrap), the whole in the log file.  Each of
 * its line buffers in a frame of its own: the UEFI build keeps frames to
 * 1 KiB (docs/ARCHITECTURE.md "Stacks").
 */
static __attribute__((noinline)) void brief_without_parens(const char *start, const char *full,
							   char *brief, size_t size)
{
	char shorter[REPORT_LINE_MAX];

	without_parens(full, shorter, sizeof(shorter));
	job_brief(start, shorter, brief, size);
}

static __attribute__((noinline)) void verdict_line(enum report_kind kind, bool pass,
						   const char *name, const char *start,
						   const char *full, const char *tag)
{
	char brief[REPORT_LINE_MAX];

	job_brief(start, full, brief, sizeof(brief));
	if (pass && strlen(start) + strlen(brief) + (report_is_simulated() ? 6 : 0) > REPORT_WIDTH)
		brief_without_parens(start, full, brief, sizeof(brief));
	report_verdict(kind, name, brief, "%s%s", full, tag);
}

void job_verdict(struct runner *r, const char *test, enum verdict v, const char *prefix,
		 const char *why)
{
	static const enum report_kind kinds[] = {
	    [V_PASS] = REPORT_PASS,
	    [V_FAIL] = REPORT_FAIL,
	    [V_SKIP] = REPORT_SKIP,
	};
	char name[TEST_NAME_MAX + 16], start[TEST_NAME_MAX + 32], full[REPORT_LINE_MAX];

	json_str(&r->job.json, "verdict", verdict_words[v]);
	json_str(&r->job.json, "why", why);
	if (!prefix)
		prefix = "";
	/* Several CPUs measured: each CPU's verdict a case of its own (docs/OUTPUT.md). */
	if (r->cpu.tally && r->job.n_measured > 1)
		pp_snprintf(name, sizeof(name), "%s@cpu%u", test, r->cpu.at.cpu);
	else
		pp_snprintf(name, sizeof(name), "%s", test);
	pp_snprintf(start, sizeof(start), "%s: %s: ", verdict_words[v], name);
	pp_snprintf(full, sizeof(full), "%s%s", prefix, why);
	job_cpu_tally_verdict(r->cpu.tally, test, v, full);
	verdict_line(kinds[v], v == V_PASS, name, start, full, r->cpu.tag);
}

void job_json_run_cpu(struct json_out *j, const struct run_cpu *where)
{
	json_u64(j, "cpu", where->cpu);
	json_u64(j, "apic_id", where->apic_id);
	json_str(j, "core_type", where->core_type);
}

void job_outcome(struct runner *r, const struct run_ref *run, enum verdict v, const char *prefix,
		 const char *why)
{
	struct json_out *j = &r->job.json;

	json_begin_object(j, NULL);
	json_str(j, "test", run->test);
	json_str(j, "sampling", run->sampling);
	if (run->kind_unknown)
		json_null(j, "kind");
	else
		json_str(j, "kind", pebs_kind_name(run->kind));
	job_verdict(r, run->test, v, prefix, why);
	job_json_run_cpu(j, run->where ? run->where : &r->cpu.at);
	if (run->res) {
		job_cpu_tally_measured(r->cpu.tally, &r->job.now->summary, run->o);
		job_json_run_fields(&r->job, run->res, run->o);
	}
	json_end_object(j);
}
