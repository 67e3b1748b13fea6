// SPDX-License-Identifier: MIT
/*
 * status.c - the screen's status header (status.h): where the run is, kept
 * from what the app and the job say, made into fixed-width rows.  Laid out
 * after memtest86+'s screen (app/display.c: a fixed block of rows at the
 * top, only the region below it scrolls, the time shown refreshed on a
 * timer rather than at every change).
 */
#include "status.h"
#include "fmt.h"
#include "report.h"

static struct {
	char brand[49], uarch[40], core_type[16], kernel[24], sampling[16];
	unsigned int pmu_version;
	bool simulated, have_machine, in_job, job_done;
	uint64_t start_us, end_us, last_due_us;
	bool due_once, changed;
	unsigned int cpus, kernels, cpu_n, cpu, kernel_k;
	uint64_t done;
} st;

static void copy(char *dst, size_t size, const char *src)
{
	pp_snprintf(dst, size, "%s", src ? src : "");
}

void status_reset(void)
{
	memset(&st, 0, sizeof(st));
}

void status_machine(const char *brand, const char *uarch, unsigned int pmu_version, bool simulated)
{
	copy(st.brand, sizeof(st.brand), brand);
	copy(st.uarch, sizeof(st.uarch), uarch);
	st.pmu_version = pmu_version;
	st.simulated = simulated;
	st.have_machine = true;
	st.changed = true;
}

void status_job_begin(uint64_t now_us, unsigned int cpus, unsigned int kernels)
{
	st.start_us = now_us;
	st.cpus = cpus;
	st.kernels = kernels;
	st.cpu_n = st.kernel_k = st.done = 0;
	st.kernel[0] = st.sampling[0] = st.core_type[0] = 0;
	st.in_job = true;
	st.job_done = false;
	st.changed = true;
}

void status_cpu(unsigned int n, unsigned int cpu, const char *core_type, const char *uarch)
{
	copy(st.uarch, sizeof(st.uarch), uarch);
	st.cpu_n = n;
	st.cpu = cpu;
	copy(st.core_type, sizeof(st.core_type), core_type);
	st.kernel_k = 0;
	st.kernel[0] = st.sampling[0] = 0;
	st.changed = true;
}

void status_kernel(unsigned int k, const char *name)
{
	st.kernel_k = k;
	copy(st.kernel, sizeof(st.kernel), name);
	st.sampling[0] = 0;
	st.changed = true;
}

void status_sampling(const char *name)
{
	copy(st.sampling, sizeof(st.sampling), name);
	st.changed = true;
}

void status_step_done(void)
{
	st.done++;
}

void status_job_end(uint64_t now_us)
{
	st.job_done = true;
	st.done = (uint64_t)st.cpus * st.kernels;
	st.end_us = now_us;
	st.changed = true;
}

void status_duration(char *buf, size_t size, uint64_t us)
{
	uint64_t s = us / 1000000;

	if (s >= 3600)
		pp_snprintf(buf, size, "%llu:%02u:%02u", (unsigned long long)(s / 3600),
			    (unsigned int)(s / 60 % 60), (unsigned int)(s % 60));
	else
		pp_snprintf(buf, size, "%u:%02u", (unsigned int)(s / 60), (unsigned int)(s % 60));
}

void status_eta(char *buf, size_t size, uint64_t elapsed_us, uint64_t done, uint64_t total)
{
	uint64_t ms = elapsed_us / 1000, left = total - done;
	char d[24];

	if (done >= total) {
		pp_snprintf(buf, size, "ETA 0:00");
		return;
	}
	/* In ms, so that a step's share is not cut to whole seconds; no overflow. */
	if (!done || (ms && left > UINT64_MAX / ms)) {
		pp_snprintf(buf, size, "ETA --:--");
		return;
	}
	status_duration(d, sizeof(d), ms * left / done * 1000);
	pp_snprintf(buf, size, "ETA %s", d);
}

/* Row text, cut or padded with spaces to exactly STATUS_WIDTH columns. */
static void pad(char *row)
{
	size_t n = strlen(row);

	memset(row + n, ' ', STATUS_WIDTH - n);
	row[STATUS_WIDTH] = 0;
}

static void row_machine(char *row)
{
	const char *sim = st.simulated ? "SIMULATED PMU" : "";

	/* The brand is 48 characters at most (CPUID 80000002H-80000004H). */
	pp_snprintf(row, STATUS_WIDTH + 1, " %-48.48s %29s ",
		    st.have_machine ? st.brand : "pebsprobe: probing the CPU", sim);
}

static void row_uarch(char *row)
{
	if (st.have_machine)
		pp_snprintf(row, STATUS_WIDTH + 1, " %s, PMU v%u",
			    st.uarch[0] ? st.uarch : "unknown uarch", st.pmu_version);
	else
		row[0] = 0;
}

static void row_progress(char *row)
{
	struct strbuf sb;

	strbuf_init(&sb, row, STATUS_WIDTH + 1);
	if (!st.in_job) {
		strbuf_puts(&sb, " main job not started");
		return;
	}
	if (st.job_done) {
		strbuf_printf(&sb, " main job done: %u CPU%s, %u kernel%s each", st.cpus,
			      st.cpus == 1 ? "" : "s", st.kernels, st.kernels == 1 ? "" : "s");
		return;
	}
	/* The core type on a hybrid part only ("none" elsewhere, pmu/cpu.c). */
	if (st.cpu_n && st.core_type[0] && strcmp(st.core_type, "none"))
		strbuf_printf(&sb, " CPU %u of %u (cpu %u, %s)", st.cpu_n, st.cpus, st.cpu,
			      st.core_type);
	else if (st.cpu_n)
		strbuf_printf(&sb, " CPU %u of %u (cpu %u)", st.cpu_n, st.cpus, st.cpu);
	else
		strbuf_printf(&sb, " %u CPU%s", st.cpus, st.cpus == 1 ? "" : "s");
	if (st.kernel_k)
		strbuf_printf(&sb, "  kernel %u of %u %s", st.kernel_k, st.kernels, st.kernel);
	else
		strbuf_printf(&sb, "  %u kernel%s", st.kernels, st.kernels == 1 ? "" : "s");
	if (st.sampling[0])
		strbuf_printf(&sb, "  sampling %s", st.sampling);
}

static void row_time(char *row, uint64_t now_us)
{
	struct report_counts c;
	uint64_t end = st.job_done ? st.end_us : now_us;
	uint64_t el = st.in_job && end > st.start_us ? end - st.start_us : 0;
	char d[24], eta[32];

	report_get_counts(&c);
	status_duration(d, sizeof(d), el);
	if (st.in_job)
		status_eta(eta, sizeof(eta), el, st.done, (uint64_t)st.cpus * st.kernels);
	else
		pp_snprintf(eta, sizeof(eta), "ETA --:--");
	pp_snprintf(row, STATUS_WIDTH + 1, " elapsed %s  %s   PASS %u  FAIL %u  SKIP %u  ERROR %u",
		    d, eta, c.tests - c.failures - c.skipped, c.failures, c.skipped, c.env_errors);
}

void status_progress(uint64_t now_us, bool cpu_done, char *buf, size_t size)
{
	struct report_counts c;
	struct strbuf sb;
	char d[24];

	buf[0] = 0;
	if (!st.in_job || st.job_done || !st.cpu_n)
		return;
	report_get_counts(&c);
	status_duration(d, sizeof(d), now_us > st.start_us ? now_us - st.start_us : 0);
	strbuf_init(&sb, buf, size);
	strbuf_printf(&sb, "cpu %u of %u", st.cpu_n, st.cpus);
	if (cpu_done)
		strbuf_puts(&sb, " done");
	else if (st.kernel_k)
		strbuf_printf(&sb, ", kernel %u of %u", st.kernel_k, st.kernels);
	strbuf_printf(&sb, ": %u PASS %u FAIL, %s elapsed", c.tests - c.failures - c.skipped,
		      c.failures, d);
}

void status_rows(uint64_t now_us, char rows[STATUS_ROWS][STATUS_WIDTH + 1])
{
	row_machine(rows[0]);
	row_uarch(rows[1]);
	row_progress(rows[2]);
	row_time(rows[3], now_us);
	for (unsigned int i = 0; i < STATUS_ROWS; i++)
		pad(rows[i]);
}

bool status_due(uint64_t now_us)
{
	if (!st.changed && st.due_once && now_us - st.last_due_us < STATUS_REDRAW_US)
		return false;
	st.changed = false;
	st.due_once = true;
	st.last_due_us = now_us;
	return true;
}

unsigned int status_line_rows(size_t len, unsigned int cols)
{
	return cols ? (unsigned int)(len / cols) + 1 : 1;
}

bool status_screen_fits(unsigned int cols, unsigned int rows)
{
	/* RESULT's longest form: the widest int for a status. */
	static const char result[] = "RESULT: ERROR (exit -2147483648) [sim]";
	unsigned int need =
	    (REPORT_RESULT_LINES_MAX - 1) * status_line_rows(REPORT_RECAP_WIDTH, cols) +
	    status_line_rows(sizeof(result) - 1, cols);

	return cols >= 40 && rows >= STATUS_ROWS + 1 + need;
}
