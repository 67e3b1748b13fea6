// SPDX-License-Identifier: MIT
/*
 * options_check.c - the checks one token alone cannot make (options.h
 * options_check): across options, and against the other units' tables
 * (simulator models, kernels, record sizes, the app's own file names).
 * Each refusal is one line naming what was wrong and what is accepted.
 */
#include "options.h"
#include "../lib/cpuset.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../lib/report.h"
#include "../decode/decode.h"
#include "../kernels/kernel.h"
#include "../pmu/session.h"
#include "../sim/sim.h"

static int check_model(const struct options *o, char *err, size_t err_size)
{
	unsigned int best = PP_NEAREST_MAX + 1;
	const char *near = NULL;
	size_t len = strlen(o->model);
	struct strbuf sb;

	if (!strcmp(o->model, "list"))
		return 0;
	for (size_t i = 0; i < sim_model_count(); i++) {
		const char *name = sim_model_at(i)->name;
		unsigned int d = pp_edit_distance(o->model, len, name, strlen(name));

		if (!d)
			return 0;
		if (d < best && PP_NEAR(d, len)) {
			best = d;
			near = name;
		}
	}
	strbuf_init(&sb, err, err_size);
	strbuf_printf(&sb, "option model: unknown simulator model '%s'", o->model);
	if (near)
		strbuf_printf(&sb, ", did you mean %s?", near);
	strbuf_puts(&sb, " (accepted: ");
	for (size_t i = 0; i < sim_model_count(); i++)
		strbuf_printf(&sb, "%s, ", sim_model_at(i)->name);
	strbuf_puts(&sb, "list)");
	return -1;
}

/*
 * The record format, and so the record size, is known only after the
 * capability probe reads MSRs; here the bound is the smallest record any
 * format writes (an adaptive or arch-PEBS record with the basic group
 * only), so a threshold past it cannot fit whatever the CPU.
 */
static int check_threshold(const struct options *o, char *err, size_t err_size)
{
	size_t min_rec = pebs_adaptive_record_size(0);
	uint64_t most = (uint64_t)o->job.buffer_kib * 1024 / min_rec;

	if (o->job.threshold <= most)
		return 0;
	pp_snprintf(err, err_size,
		    "option threshold: %u records do not fit in buffer=%u KiB "
		    "(accepted: 0..%llu, the buffer's size over the smallest %zu-byte record; "
		    "0 = near full)",
		    o->job.threshold, o->job.buffer_kib, (unsigned long long)most, min_rec);
	return -1;
}

/*
 * The app's own files, which an output may not replace (the next boot
 * would drop to the shell, or read a results file as its options): the
 * binary and any EFI program beside it (*.efi, BOOTX64.EFI), the config
 * file, the raw dumps (*.pebs), the temporaries files are written through
 * (*.tmp).  FAT names are case-insensitive.
 */
#define CONFIG_FILE_NAME "PEBSPROBE.CFG"
static const char *const own_suffixes[] = {".efi", ".pebs", ".tmp"};

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
		char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;

		if (x != y)
			return false;
	}
	return *a == *b;
}

static bool own_file(const char *name)
{
	size_t n = strlen(name);

	if (same_name(name, CONFIG_FILE_NAME))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(own_suffixes); i++) {
		size_t k = strlen(own_suffixes[i]);

		if (n >= k && same_name(name + n - k, own_suffixes[i]))
			return true;
	}
	return false;
}

static int check_outputs(const struct options *o, char *err, size_t err_size)
{
	const struct {
		const char *opt, *name;
	} out[] = {{"log", o->log}, {"results", o->job.results}};

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		if (!strcmp(out[i].name, "none") || !own_file(out[i].name))
			continue;
		pp_snprintf(err, err_size,
			    "option %s: '%s' is one of pebsprobe's own files (accepted: a file "
			    "name other than " CONFIG_FILE_NAME
			    ", *.efi, *.pebs and *.tmp, or none)",
			    out[i].opt, out[i].name);
		return -1;
	}
	if (strcmp(o->log, "none") && same_name(o->log, o->job.results)) {
		pp_snprintf(err, err_size,
			    "options log and results: both name '%s' (accepted: two different "
			    "file names, or none for either)",
			    o->log);
		return -1;
	}
	return 0;
}

/* size= below a chosen kernel's minimum would make the kernel meaningless. */
static int check_size(const struct options *o, char *err, size_t err_size)
{
	const struct kernel_def *worst = NULL;

	if (!o->job.size)
		return 0;
	for (size_t i = 0; i < kernel_count(); i++) {
		const struct kernel_def *d = kernel_at(i);

		if (job_kernel_chosen(&o->job, i) && o->job.size < d->min_size &&
		    (!worst || d->min_size > worst->min_size))
			worst = d;
	}
	if (!worst)
		return 0;
	pp_snprintf(err, err_size,
		    "option size: %llu bytes is below kernel %s's minimum of %llu (accepted: 0 = "
		    "per kernel, or at least %llu bytes for the kernels chosen)",
		    (unsigned long long)o->job.size, worst->name,
		    (unsigned long long)worst->min_size, (unsigned long long)worst->min_size);
	return -1;
}

/* The drained records are kept in memory allocated up front (pmu/session.h). */
static int check_memory(const struct options *o, char *err, size_t err_size)
{
	uint64_t need = session_result_bytes(o->job.buffer_kib, o->job.drain);
	uint64_t most_kib = SESSION_RESULT_MAX / 1024 /
			    (o->job.drain == PEBS_DRAIN_PMI ? SESSION_PMI_RESULT_BUFFERS
							    : SESSION_POLL_RESULT_BUFFERS);

	if (need <= SESSION_RESULT_MAX)
		return 0;
	pp_snprintf(err, err_size,
		    "option buffer: %u KiB with drain=%s keeps %llu MiB of drained records, more "
		    "than the %llu MiB limit (accepted: buffer=4..%llu with drain=%s)",
		    o->job.buffer_kib, o->job.drain == PEBS_DRAIN_PMI ? "pmi" : "poll",
		    (unsigned long long)(need >> 20),
		    (unsigned long long)(SESSION_RESULT_MAX >> 20), (unsigned long long)most_kib,
		    o->job.drain == PEBS_DRAIN_PMI ? "pmi" : "poll");
	return -1;
}

/*
 * sim-pages= shapes the simulated firmware's page tables: with pmu=hw
 * nothing reads it, so 2m or 1g is refused as a sim-fault= or sim-handoff=
 * item is; 4k, the default, asks for nothing, as sim-handoff=none does.
 */
static int check_sim_pages(const struct options *o, char *err, size_t err_size)
{
	if (o->sim_pages == OPT_SIM_PAGES_4K || o->pmu != OPT_PMU_HW)
		return 0;
	pp_snprintf(err, err_size,
		    "option sim-pages: maps a simulated machine's memory, but pmu=hw "
		    "(accepted with pmu=sim or pmu=auto)");
	return -1;
}

int options_check(const struct options *o, char *err, size_t err_size)
{
	if (check_model(o, err, err_size) || check_threshold(o, err, err_size) ||
	    check_outputs(o, err, err_size) || check_size(o, err, err_size) ||
	    check_memory(o, err, err_size) || options_check_cpus(o, err, err_size) ||
	    options_check_sim_fault(o, err, err_size) || options_check_acr(o, err, err_size) ||
	    options_check_handoff(o, err, err_size) || check_sim_pages(o, err, err_size) ||
	    options_check_sim_ids(o, err, err_size) || options_check_platform(o, err, err_size) ||
	    options_check_sim_host(o, err, err_size))
		return -1;
	return 0;
}
