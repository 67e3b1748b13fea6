// SPDX-License-Identifier: MIT
/*
 * test_job_buffer.c - what the main job says about a full PEBS buffer and
 * about fixed counters CPUID.0AH does not enumerate: the console line, the
 * verdict and results.json (docs/RESULTS.md), on the simulated Skylake and
 * Ice Lake-SP.
 *
 *  - a full buffer without a counting copy (load latency): lost is unknown,
 *    never 0: "lost": null, the verdict fails, and the console line says
 *    "lost unknown" - or gives the number inferred from the kernel's own
 *    accesses when every load is an event (ldlat=3), marked as such;
 *  - a full buffer with a counting copy (DataLA stores): lost is counted,
 *    and the line, the verdict and "buffer_full" say the buffer filled;
 *  - a buffer that did not fill: "lost": 0, "buffer_full": false;
 *  - a guest without fixed counter 1: "fixed": [N, null, N];
 *  - PMU v6 fixed counters 4-6 beside a missing 3: "fixed": [N, N, N, null, N, N, N].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/app.h"
#include "job/job.h"
#include "lib/report.h"
#include "pmu/cpu.h"
#include "pmu/hw.h"
#include "sim/sim.h"
#include "test_options.h"
#include "test_util.h"

static char outdir[] = "/tmp/pebsprobe-jobbuf-XXXXXX";
static char json[1 << 20];

static void setup(const char *model, struct options *o, struct cpu_info *ci)
{
	test_lines_clear();
	assert_int_equal(sim_select(model), 0);
	hw_install(sim_hw_ops());
	report_reset();
	report_set_simulated(true);
	cpu_probe(ci);
	options_defaults(&*o);
}

static void read_results(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/results.json", outdir);
	assert_true(test_read_file(path, json, sizeof(json)) >= 0);
}

/* The results.json run object of `test` (up to the next run), as a string in json[]. */
static const char *run_object(const char *test)
{
	char want[96];
	char *at, *end;

	snprintf(want, sizeof(want), "{\"test\":\"%s\"", test);
	at = strstr(json, want);
	assert_non_null(at);
	end = strstr(at + 1, "{\"test\":");
	if (end)
		*end = 0;
	return at;
}

/* A line holding both texts, or NULL. */
static const char *find_text(const char *a, const char *b)
{
	for (unsigned int i = 0; i < test_n_lines; i++)
		if (strstr(test_lines[i], a) && (!b || strstr(test_lines[i], b)))
			return test_lines[i];
	return NULL;
}

/* Load latency on Skylake has no counting copy: 4 KiB hold 20 of 187 records. */
static void full_without_copy(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l, *run;

	setup("skl", &o, &ci);
	test_option(&o, "kernels=chase-l1");
	o.job.buffer_kib = 4;
	o.job.period = 32;
	test_job_run(&o, &ci);
	l = find_text("chase-l1/load: records drained", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "the PEBS buffer filled"));
	l = find_text("FAIL: chase-l1/load: ", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, "the PEBS buffer filled"));
	assert_non_null(strstr(l, "how many were lost is unknown"));
	read_results();
	run = run_object("chase-l1/load");
	assert_non_null(strstr(run, "\"lost\":null"));
	assert_non_null(strstr(run, "\"buffer_full\":true"));
}

/*
 * ldlat=64: not every load qualifies, so the kernel's accesses cannot stand
 * in for a count either: the line says "lost unknown".
 */
static void full_unknown(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l, *run;

	setup("skl", &o, &ci);
	test_option(&o, "kernels=chase-dram");
	o.job.buffer_kib = 4;
	o.job.period = 32;
	o.job.ldlat = 64;
	test_job_run(&o, &ci);
	l = find_text("chase-dram/load: records drained", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, ", lost unknown (the PEBS buffer filled; no count of the event "
				  "beside the records), "));
	assert_non_null(find_text("FAIL: chase-dram/load: ", "how many were lost is unknown"));
	read_results();
	run = run_object("chase-dram/load");
	assert_non_null(strstr(run, "\"lost\":null"));
	assert_non_null(strstr(run, "\"buffer_full\":true"));
}

/* DataLA stores on Skylake have a counting copy: the records lost are counted. */
static void full_with_copy(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l, *run;
	unsigned long long lost = 0;

	setup("skl", &o, &ci);
	test_option(&o, "kernels=stream-store");
	o.job.buffer_kib = 4;
	o.job.period = 32;
	test_job_run(&o, &ci);
	l = find_text("stream-store/store: records drained", NULL);
	assert_non_null(l);
	printf("# %s\n", l);
	assert_non_null(strstr(l, " (the PEBS buffer filled)"));
	assert_int_equal(sscanf(strstr(l, "lost "), "lost %llu", &lost), 1);
	assert_true(lost > 100);
	l = find_text("PASS: stream-store/store: ", NULL);
	if (!l) {
		test_lines_dump(stdout);
		fail();
		return;
	}
	printf("# %s\n", l);
	assert_non_null(strstr(l, "(the PEBS buffer filled)"));
	read_results();
	run = run_object("stream-store/store");
	assert_non_null(strstr(run, "\"buffer_full\":true"));
	assert_null(strstr(run, "\"lost\":null"));
	assert_null(strstr(run, "\"lost\":0,"));
}

/* The default 64 KiB hold them all: nothing lost, and that is known. */
static void not_full(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *l, *run;

	setup("skl", &o, &ci);
	test_option(&o, "kernels=chase-l1");
	test_job_run(&o, &ci);
	l = find_text("chase-l1/load: records drained", NULL);
	assert_non_null(l);
	assert_null(strstr(l, "filled"));
	assert_non_null(strstr(l, ", lost 0, "));
	read_results();
	run = run_object("chase-l1/load");
	assert_non_null(strstr(run, "\"lost\":0,"));
	assert_non_null(strstr(run, "\"buffer_full\":false"));
}

/*
 * drain=pmi with period=32: CPU 0 holds TPL_HIGH_LEVEL, so a PMI waits for
 * the chunk's end, and a chunk of 1024 stores would write 32 records.  The
 * chunk is cut to what the threshold leaves free (kernel_pmi_chunk): the
 * default, one record per GP counter (pebs_ds_pmi_reserve: 4 of a 4 KiB
 * buffer's 20 records), or threshold=101's one of 20 KiB's 102 (a chunk of
 * 5 records would cross it at 101 and end at 105); arch-PEBS (dmr) with
 * threshold=30: of a 4 KiB buffer's 32 128-byte records (header, basic and
 * aux: Linux d21954c8a0ff struct arch_pebs_*) 2 past the 30th, fewer than
 * one per GP counter.  None lost, and the counting copy says so.
 */
static void pmi_chunk_within_reserve(void **state)
{
	static const struct {
		const char *model;
		uint32_t buffer_kib, threshold;
	} rows[] = {{"skl", 4, 0}, {"skl", 20, 101}, {"dmr", 4, 30}};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct options o;
		struct cpu_info ci;
		const char *l;

		setup(rows[i].model, &o, &ci);
		test_option(&o, "kernels=stream-store");
		o.job.buffer_kib = rows[i].buffer_kib;
		o.job.period = 32;
		o.job.drain = PEBS_DRAIN_PMI;
		o.job.threshold = rows[i].threshold;
		test_job_run(&o, &ci);
		l = find_text("stream-store/store: records drained", NULL);
		if (!l || !(strstr(l, ", lost 0 ") || strstr(l, ", lost 0,")) ||
		    !find_text("PASS: stream-store/store: ", NULL)) {
			test_lines_dump(stdout);
			fail_msg("%s drain=pmi period=32 buffer=%u threshold=%u: %s", rows[i].model,
				 rows[i].buffer_kib, rows[i].threshold, l ? l : "no records line");
		}
		printf("# %s buffer=%u threshold=%u: %s\n", rows[i].model, rows[i].buffer_kib,
		       rows[i].threshold, l);
	}
}

/* A guest whose VMM enumerates fixed counters 0 and 2 only (CPUID.0AH ECX 0x5, EDX[4:0] 1). */
static void fixed_hole_in_results(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *run;
	unsigned long long f0, f2;

	setup("icx", &o, &ci);
	assert_int_equal(sim_set_fixed_enum(0x5, 1), 0);
	cpu_probe(&ci);
	test_option(&o, "kernels=chase-l1");
	test_job_run(&o, &ci);
	assert_non_null(find_text("PASS: chase-l1/load: ", NULL));
	read_results();
	run = run_object("chase-l1/load");
	assert_non_null(strstr(run, "\"fixed\":["));
	assert_int_equal(sscanf(strstr(run, "\"fixed\":["), "\"fixed\":[%llu,null,%llu]", &f0, &f2),
			 2);
	assert_true(f0 > 0 && f2 > 0);
	assert_null(find_text("#GP", NULL));
}

/*
 * PMU v6 with fixed counters 0-2 and 4-6, none 3 (the simulated arch-PEBS
 * E-core: CPUID.0AH ECX 0x77, EDX[4:0] 3): "fixed" holds all seven places,
 * 3 null, 4-6 counted at IA32_PMC_FX4_CTR.. (SDM Vol. 3B 20.2.5).
 */
static void fixed_beyond_3_in_results(void **state)
{
	struct options o;
	struct cpu_info ci;
	const char *run;
	unsigned long long f[7];
	char tail;

	setup("archpebs", &o, &ci);
	assert_int_equal(ci.fixed_mask, 0x77);
	test_option(&o, "kernels=chase-l1");
	test_job_run(&o, &ci);
	read_results();
	run = run_object("chase-l1/load");
	assert_non_null(strstr(run, "\"fixed\":["));
	assert_int_equal(sscanf(strstr(run, "\"fixed\":["),
				"\"fixed\":[%llu,%llu,%llu,null,%llu,%llu,%llu%c", &f[0], &f[1],
				&f[2], &f[4], &f[5], &f[6], &tail),
			 7);
	assert_int_equal(tail, ']');
	for (unsigned int i = 0; i < 7; i++)
		assert_true(i == 3 || f[i] > 0);
	assert_null(find_text("#GP", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(full_without_copy),	cmocka_unit_test(full_unknown),
	    cmocka_unit_test(full_with_copy),		cmocka_unit_test(not_full),
	    cmocka_unit_test(fixed_hole_in_results),	cmocka_unit_test(fixed_beyond_3_in_results),
	    cmocka_unit_test(pmi_chunk_within_reserve),
	};

	if (!mkdtemp(outdir))
		return 1;
	setenv("PEBSPROBE_OUT", outdir, 1);
	test_lines_echo = getenv("JOBBUF_VERBOSE") != NULL;
	test_lines_capture();
	/* One host CPU, whatever the machine: cpus=all measures it (test_job_cpus.c: several). */
	setenv("PEBSPROBE_HOST_CPUS", "1", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
