// SPDX-License-Identifier: MIT
/*
 * cpurun.c - one piece of work on one CPU, the BSP waiting (cpurun.h):
 * each AP started once into a loop of ours that waits on a mailbox.
 *
 * Why not one MP services StartupThisAP per piece of work: each is a round
 * trip through the firmware (OVMF wakes a halted AP with INIT-SIPI-SIPI and
 * learns that it finished from a 100 ms timer), and under a loaded TCG
 * host its completion event came 30 s late after some kernels (issue
 * "AP stall", docs/ARCHITECTURE.md).  A mailbox in memory costs one cache
 * line and no firmware code: the AP spins on it with PAUSE, the BSP polls
 * its done field with its own timeout.
 */
#include "ap_refusal.h"
#include "cpurun.h"
#include "status.h"
#include "platform.h"
#include "report.h"

enum { CPU_CMD_RUN = 1, CPU_CMD_QUIT = 2 };
enum { MB_STOPPED = 0, MB_RUNNING, MB_LOST };

/*
 * One AP's mailbox, an allocation of its own.  The BSP writes fn, arg and cmd, then bumps seq
 * with release order; the AP reads seq with acquire order, then the rest,
 * runs the command and stores seq into done with release order, which the
 * BSP reads with acquire order before it uses what the work wrote.
 */
struct cpu_mailbox {
	void (*fn)(void *arg);
	void *arg;
	uint32_t cmd;
	uint32_t seq;  /* the BSP's: one more per command posted */
	uint32_t done; /* the AP's: seq of the last command it finished */
	/* The BSP's own, never read by the AP. */
	uint32_t state;
	uint32_t starts, releases;
	uint64_t posted_at;
};

/*
 * One pointer per CPU of plat_cpu_count(), grown if that grows (host tests
 * set the count per test); each mailbox allocated on first use and never
 * moved or freed: an AP holds its address, a lost one for ever.
 */
static struct cpu_mailbox **boxes;
static unsigned int n_boxes;
static const char *run_what = "work";

static struct cpu_mailbox *known(unsigned int cpu)
{
	return cpu && cpu < n_boxes ? boxes[cpu] : NULL;
}

static struct cpu_mailbox *box(unsigned int cpu)
{
	unsigned int n = plat_cpu_count();

	if (!cpu || cpu >= n)
		return NULL;
	if (n > n_boxes) {
		struct cpu_mailbox **more = plat_alloc(n * sizeof(*more));

		if (!more)
			return NULL;
		memset(more, 0, n * sizeof(*more));
		if (boxes)
			memcpy(more, boxes, n_boxes * sizeof(*more));
		plat_free(boxes);
		boxes = more;
		n_boxes = n;
	}
	if (!boxes[cpu]) {
		boxes[cpu] = plat_alloc(sizeof(struct cpu_mailbox));
		if (boxes[cpu])
			memset(boxes[cpu], 0, sizeof(struct cpu_mailbox));
	}
	return boxes[cpu];
}

/*
 * The AP's side: nothing here calls firmware (an AP procedure may not use
 * boot services, PI spec Vol. 2 13.4); plat_cpu_relax() is PAUSE in the app
 * (SDM Vol. 2B "PAUSE": a spin-wait hint that also saves power).
 */
static void ap_loop(void *p)
{
	struct cpu_mailbox *m = p;
	uint32_t seen = __atomic_load_n(&m->done, __ATOMIC_ACQUIRE);
	unsigned int spins = 0;

	for (;;) {
		uint32_t s = __atomic_load_n(&m->seq, __ATOMIC_ACQUIRE);

		if (s == seen) {
			plat_cpu_relax(spins);
			if (spins < 0xffffffu)
				spins++;
			continue;
		}
		spins = 0;
		seen = s;
		if (m->cmd == CPU_CMD_QUIT) {
			/* After this store the mailbox is the BSP's again: return at once. */
			__atomic_store_n(&m->done, s, __ATOMIC_RELEASE);
			return;
		}
		m->fn(m->arg);
		__atomic_store_n(&m->done, s, __ATOMIC_RELEASE);
	}
}

static void post(struct cpu_mailbox *m, uint32_t cmd, void (*fn)(void *arg), void *arg)
{
	m->fn = fn;
	m->arg = arg;
	m->cmd = cmd;
	m->posted_at = plat_time_us();
	__atomic_store_n(&m->seq, m->seq + 1, __ATOMIC_RELEASE);
}

static bool answered(const struct cpu_mailbox *m)
{
	return __atomic_load_n(&m->done, __ATOMIC_ACQUIRE) == m->seq;
}

void cpurun_run_what(const char *what)
{
	run_what = what ? what : "work";
}

bool cpurun_run_lost(unsigned int cpu)
{
	const struct cpu_mailbox *m = known(cpu);

	return m && m->state == MB_LOST;
}

unsigned int cpurun_run_starts(unsigned int cpu)
{
	const struct cpu_mailbox *m = known(cpu);

	return m ? m->starts : 0;
}

int cpurun_post(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct cpu_mailbox *m = box(cpu);

	if (!m)
		return CPU_RUN_NO_START;
	if (m->state == MB_LOST)
		return CPU_RUN_LOST;
	if (m->state == MB_STOPPED) {
		/* The only firmware call of a dispatch: the first (PI spec Vol. 2 13.4
		 * StartupThisAP). */
		if (plat_start_on_cpu(cpu, ap_loop, m) < 0)
			return CPU_RUN_NO_START;
		m->state = MB_RUNNING;
		m->starts++;
	}
	post(m, CPU_CMD_RUN, fn, arg);
	return CPU_RUN_OK;
}

/* Waits for cpu's last command; idle work and the heartbeat meanwhile. */
static int wait_box(unsigned int cpu, struct cpu_mailbox *m, uint64_t timeout_us,
		    void (*idle)(void *idle_arg), void *idle_arg)
{
	while (!answered(m)) {
		uint64_t now = plat_time_us(), quiet = report_console_at();
		char where[80];

		if (timeout_us && now - m->posted_at > timeout_us) {
			m->state = MB_LOST; /* never posted again: it may still run */
			return CPU_RUN_TIMEOUT;
		}
		/*
		 * The console quiet for a heartbeat, over this wait and the ones
		 * before it (a job of many short ones): a line, with where the job
		 * is.  report_now() marks the console as just written.
		 */
		if (now - (quiet ? quiet : m->posted_at) >= CPU_RUN_HEARTBEAT_US) {
			status_progress(now, false, where, sizeof(where));
			report_now("waiting for CPU %u: %.32s, %llu s%s%s", cpu, run_what,
				   (unsigned long long)((now - m->posted_at) / 1000000),
				   where[0] ? "; " : "", where);
		}
		/* The screen's header: elapsed time and progress while the CPU works. */
		report_tick();
		if (idle)
			idle(idle_arg);
		else
			plat_stall_us(20);
	}
	return CPU_RUN_OK;
}

/*
 * After cpu's work came back, on the BSP: names a firmware call its work
 * made, which the platform refused (lib/ap_refusal.h).
 */
static void name_refused(unsigned int cpu)
{
	static unsigned int seen;
	const char *last = NULL;
	unsigned int n = ap_refusal_count(&last);

	if (n == seen)
		return;
	seen = n;
	report_env_error("ap-call", "CPU %u called %.16s; refused", cpu, last ? last : "?");
	report_info("ap-call: an AP may call no boot service (PI spec Vol. 2 13.4)");
}

/*
 * The same for a firmware call the BSP made under page tables not the
 * firmware's (a kernel body's, pmu/paging.h): the platform refused it.
 */
static void name_refused_cr3(void)
{
	static unsigned int seen;
	const char *last = NULL;
	uint64_t cr3 = 0, fw = 0;
	unsigned int n = ap_refusal_cr3_count(&last, &cr3, &fw);

	if (n == seen)
		return;
	seen = n;
	report_env_error("fw-cr3", "%.16s called under CR3 0x%llx; refused", last ? last : "?",
			 (unsigned long long)cr3);
	report_info("fw-cr3: firmware CR3 0x%llx: CpuDxe edits the tables CR3 names",
		    (unsigned long long)fw);
}

int cpurun_wait(unsigned int cpu, uint64_t timeout_us)
{
	struct cpu_mailbox *m = known(cpu);
	int rc;

	if (!m || m->state == MB_STOPPED)
		return CPU_RUN_NO_START;
	if (m->state == MB_LOST)
		return CPU_RUN_LOST;
	rc = wait_box(cpu, m, timeout_us, NULL, NULL);
	name_refused(cpu);
	return rc;
}

int cpurun_run(unsigned int cpu, void (*fn)(void *arg), void *arg, uint64_t timeout_us,
	       void (*idle)(void *idle_arg), void *idle_arg)
{
	int rc;

	if (cpu == 0) {
		fn(arg);
		name_refused_cr3();
		return CPU_RUN_OK;
	}
	report_defer_begin();
	rc = cpurun_post(cpu, fn, arg);
	if (rc == CPU_RUN_OK)
		rc = wait_box(cpu, box(cpu), timeout_us, idle, idle_arg);
	report_defer_end();
	name_refused(cpu);
	name_refused_cr3();
	return rc;
}

/* How long a released AP has to leave our loop, and MP services to see it idle. */
#define RELEASE_TIMEOUT_US (10ULL * 1000000)

void cpurun_release(unsigned int cpu)
{
	struct cpu_mailbox *m = known(cpu);

	if (!m || m->state != MB_RUNNING)
		return;
	post(m, CPU_CMD_QUIT, NULL, NULL);
	if (wait_box(cpu, m, RELEASE_TIMEOUT_US, NULL, NULL) != CPU_RUN_OK) {
		report_env_error("cpu-release",
				 "cpu %u did not leave its dispatch loop within %llu s", cpu,
				 (unsigned long long)(RELEASE_TIMEOUT_US / 1000000));
		m->state = MB_LOST;
		return;
	}
	/*
	 * Back in the platform's code: its own bookkeeping (the MP services
	 * completion event) follows.  Late is no error of the AP's; a later
	 * start waits for it (efi/platform_efi.c).  One line per such CPU: to
	 * the log file (detail), so a loaded machine's console stays O(kernels).
	 */
	if (plat_wait_cpu(cpu, RELEASE_TIMEOUT_US) < 0)
		report_detail("cpu %u: left its dispatch loop; the platform did not see it "
			      "idle within %llu s",
			      cpu, (unsigned long long)(RELEASE_TIMEOUT_US / 1000000));
	m->state = MB_STOPPED;
	m->releases++;
}

void cpurun_release_all(void)
{
	static bool said;
	unsigned int aps = 0, starts = 0, releases = 0, lost = 0, now = 0;

	for (unsigned int c = 1; c < n_boxes; c++) {
		const struct cpu_mailbox *m = boxes[c];

		if (!m)
			continue;
		if (m->state == MB_RUNNING) {
			cpurun_release(c);
			now++;
		}
		aps += m->starts != 0;
		starts += m->starts;
		releases += m->releases;
		lost += m->state == MB_LOST;
	}
	/*
	 * Once, and again only when this call released some (a second call on
	 * exit).  Counts after each word, no plurals: the line fits 80 columns
	 * at any count (tests/host/check-width.sh).
	 */
	if (aps && (now || !said))
		report_info("APs %u: started %u, released %u, lost %u", aps, starts, releases,
			    lost);
	said = said || aps;
}
