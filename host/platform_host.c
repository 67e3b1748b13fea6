// SPDX-License-Identifier: MIT
/*
 * platform_host.c - lib/platform.h on POSIX, for host tests and tools.
 * Files go to $PEBSPROBE_OUT (default "."); a second "CPU" is a thread.
 */
#define _GNU_SOURCE
#include "../lib/platform.h"
#include "../lib/ap_refusal.h"
#include "../lib/fmt.h"
#include "../pmu/hw.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* The CPU a thread stands for: 0 the main thread, else set by run_trampoline(). */
static __thread unsigned int cpu_self;

/*
 * The app's rule for its APs (efi/platform_efi.c, PI spec Vol. 2 13.4):
 * a CPU thread gets no platform service that stands for a boot service,
 * so a unit test sees the call the app would refuse (lib/ap_refusal.h).
 */
static bool cr3_refused(const char *what);

static bool ap_refused(const char *what)
{
	if (!cpu_self)
		return cr3_refused(what);
	ap_refusal_note(what);
	return true;
}

/*
 * And the app's rule for the boot CPU's CR3 (efi/platform_efi.c
 * efi_fw_refused): no firmware service under page tables not the
 * firmware's, judged by the installed backend's CR3 (pmu/hw.h; the
 * simulator's CPU 0 in the tests).
 */
static bool cr3_refused(const char *what)
{
	uint64_t cr3, fw;

	if (!hw_current() || !hw_has_paging())
		return false;
	cr3 = hw_read_cr3();
	fw = hw_fw_cr3();
	if (!fw || !((cr3 ^ fw) & 0x000ffffffffff000ULL))
		return false;
	ap_refusal_note_cr3(what, cr3, fw);
	return true;
}

void *plat_alloc_pages(size_t npages)
{
	void *p = NULL;

	if (ap_refused("plat_alloc_pages") || posix_memalign(&p, 4096, npages * 4096))
		return NULL;
	memset(p, 0, npages * 4096);
	return p;
}

void plat_free_pages(void *p, size_t npages)
{
	(void)npages;
	if (p && !ap_refused("plat_free_pages"))
		free(p);
}

void *plat_alloc(size_t size)
{
	return ap_refused("plat_alloc") ? NULL : calloc(1, size);
}

void plat_free(void *p)
{
	if (p && !ap_refused("plat_free"))
		free(p);
}

bool plat_check_mapping(uint64_t addr, size_t len, char *why, size_t why_size)
{
	/* No page tables to walk in a Linux process: only the alignment is checked. */
	if (!addr || !len) {
		pp_snprintf(why, why_size, "empty range at 0x%llx", (unsigned long long)addr);
		return false;
	}
	return true;
}

int plat_write_file(const char *name, const void *buf, size_t len)
{
	const char *dir = getenv("PEBSPROBE_OUT");
	char path[512], tmp[520];
	FILE *f;

	if (ap_refused("plat_write_file"))
		return -EACCES;
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f)
		return errno ? -errno : -1;
	if (fwrite(buf, 1, len, f) != len || fflush(f) || fclose(f)) {
		int e = errno ? errno : EIO;

		unlink(tmp);
		return -e;
	}
	return rename(tmp, path) ? (errno ? -errno : -1) : 0;
}

static void out_path(const char *name, char *path, size_t size)
{
	const char *dir = getenv("PEBSPROBE_OUT");

	snprintf(path, size, "%s/%s", dir ? dir : ".", name);
}

int plat_read_head(const char *name, void *buf, size_t size)
{
	char path[512];
	FILE *f;
	size_t n;
	int bad;

	if (ap_refused("plat_read_head"))
		return -1;
	out_path(name, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f)
		return -1;
	n = fread(buf, 1, size, f);
	bad = ferror(f);
	fclose(f);
	return bad ? -1 : (int)n;
}

int64_t plat_free_space(void)
{
	const char *dir = getenv("PEBSPROBE_OUT");
	struct statvfs st;

	if (ap_refused("plat_free_space") || statvfs(dir ? dir : ".", &st))
		return -1;
	return (int64_t)st.f_bavail * (int64_t)st.f_frsize;
}

int plat_delete_file(const char *name)
{
	char path[512];

	if (ap_refused("plat_delete_file"))
		return -EACCES;
	out_path(name, path, sizeof(path));
	return unlink(path) ? -errno : 0;
}

int plat_list_files(void (*fn)(void *ctx, const char *name), void *ctx)
{
	const char *dir = getenv("PEBSPROBE_OUT");
	char path[512];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (ap_refused("plat_list_files"))
		return -EACCES;
	d = opendir(dir ? dir : ".");
	if (!d)
		return errno ? -errno : -1;
	while ((e = readdir(d))) {
		out_path(e->d_name, path, sizeof(path));
		if (strlen(e->d_name) >= PLAT_NAME_MAX || stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		fn(ctx, e->d_name);
	}
	closedir(d);
	return 0;
}

const char *plat_error_text(int err, char *buf, size_t size)
{
	snprintf(buf, size, "%s (errno %d)", strerror(err < 0 ? -err : err), err < 0 ? -err : err);
	return buf;
}

/* No firmware, no SMBIOS: every text absent; the seed from the clock. */
void plat_identity(struct plat_identity *id)
{
	struct timespec ts;

	memset(id, 0, sizeof(*id));
	if (ap_refused("plat_identity"))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	id->seed = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	id->seed ^= (uint64_t)getpid() << 32;
}

uint64_t plat_time_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void plat_stall_us(unsigned int us)
{
	if (!cpu_self)
		(void)cr3_refused("plat_stall_us"); /* counted; the wait still made */
	usleep(us);
}

/* The boot CPU's TPL, as the app keeps it (efi/platform_efi.c): raised by CPU 0 only. */
#define HOST_TPL_APPLICATION 4
#define HOST_TPL_HIGH_LEVEL  31
static uint64_t host_tpl = HOST_TPL_APPLICATION;

uint64_t plat_tpl_raise(void)
{
	uint64_t old = host_tpl;

	if (cpu_self || cr3_refused("plat_tpl_raise"))
		return PLAT_TPL_NONE;
	host_tpl = HOST_TPL_HIGH_LEVEL;
	return old;
}

void plat_tpl_restore(uint64_t tpl)
{
	if (tpl == PLAT_TPL_NONE || cpu_self || cr3_refused("plat_tpl_restore"))
		return;
	host_tpl = tpl;
}

bool plat_tpl_high(void)
{
	return host_tpl >= HOST_TPL_HIGH_LEVEL;
}

/*
 * $PEBSPROBE_HOST_CPUS (1..HOST_CPUS_MAX) stands for the machine's count in
 * tests (the host's own limit, not the job's).
 */
#define HOST_CPUS_MAX 8192

/* The firmware's processors: every one, enabled or not. */
static unsigned int host_processors(void)
{
	const char *env = getenv("PEBSPROBE_HOST_CPUS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	if (n > HOST_CPUS_MAX)
		n = HOST_CPUS_MAX;
	return n > 0 ? (unsigned int)n : 1;
}

/* plat_cpu_disable()'s processors, by the firmware's number: none until a test asks. */
static bool host_disabled[HOST_CPUS_MAX];
static unsigned int host_n_disabled;

/* Host tests only: every processor enabled again (plat_cpu_disable undone). */
void plat_host_enable_all(void);
void plat_host_enable_all(void)
{
	memset(host_disabled, 0, sizeof(host_disabled));
	host_n_disabled = 0;
}

unsigned int plat_cpu_count(void)
{
	unsigned int n = host_processors(), off = 0;

	for (unsigned int i = 0; i < n && off < host_n_disabled; i++)
		off += host_disabled[i];
	return n - off;
}

/* Our CPU number cpu to the firmware's: the disabled ones are skipped. */
static unsigned int host_number(unsigned int cpu)
{
	unsigned int i = 0;

	for (unsigned int seen = 0;; i++)
		if (!host_disabled[i] && seen++ == cpu)
			return i;
}

unsigned int plat_cpus_unused(struct plat_cpu_unused *out, unsigned int max)
{
	unsigned int k = 0, n = host_processors();

	for (unsigned int i = 0; i < n; i++) {
		if (!host_disabled[i])
			continue;
		if (k < max) {
			out[k].number = i;
			out[k].disabled = true;
		}
		k++;
	}
	return k;
}

int plat_cpu_disable(unsigned int number, char *why, size_t why_size)
{
	if (!number || number >= host_processors()) {
		pp_snprintf(why, why_size, "processor %u is %s", number,
			    number ? "not there" : "the boot processor");
		return -1;
	}
	if (!host_disabled[number]) {
		host_disabled[number] = true;
		host_n_disabled++;
	}
	return 0;
}

/*
 * The firmware's topology on the host: $PEBSPROBE_HOST_THREADS threads a
 * core (default 1) and $PEBSPROBE_HOST_CORES cores a package (default all
 * the CPUs), numbered as EDK II's MpInitLib numbers them, by APIC ID
 * (MpInitLib.c SortApicId), which puts a core's threads next to each other.
 */
static uint32_t host_topo(const char *name, uint32_t dflt)
{
	const char *env = getenv(name);
	long n = env ? strtol(env, NULL, 10) : 0;

	return n > 0 && n <= HOST_CPUS_MAX ? (uint32_t)n : dflt;
}

bool plat_cpu_location(unsigned int cpu, struct plat_cpu_loc *loc)
{
	uint32_t threads = host_topo("PEBSPROBE_HOST_THREADS", 1),
		 cores = host_topo("PEBSPROBE_HOST_CORES", host_processors());

	if (cpu >= plat_cpu_count())
		return false;
	cpu = host_number(cpu);
	loc->thread = cpu % threads;
	loc->core = cpu / threads % cores;
	loc->package = cpu / threads / cores;
	return true;
}

/* Bookkeeping only, a few bytes per slot: the count may change from test to test. */
static pthread_t cpu_threads[HOST_CPUS_MAX];
static bool cpu_busy[HOST_CPUS_MAX];
static unsigned int cpu_starts[HOST_CPUS_MAX];

/* Host tests only: how many threads plat_start_on_cpu() started for cpu (an MP services start). */
unsigned int plat_host_starts(unsigned int cpu);
unsigned int plat_host_starts(unsigned int cpu)
{
	return cpu < HOST_CPUS_MAX ? cpu_starts[cpu] : 0;
}

static bool slots(unsigned int cpu)
{
	return cpu && cpu < plat_cpu_count();
}

void plat_cpu_relax(unsigned int spins)
{
	if (spins < 100)
		sched_yield();
	else
		usleep(spins < 2000 ? 100 : 5000);
}

struct trampoline {
	unsigned int cpu;
	unsigned int delay_us;
	void (*fn)(void *);
	void *arg;
};

unsigned int plat_cpu_self(void)
{
	return cpu_self;
}

void plat_park(void)
{
	for (;;)
		pause();
}

static void *run_trampoline(void *p)
{
	struct trampoline t = *(struct trampoline *)p;

	cpu_self = t.cpu;
	free(p);
	if (t.delay_us)
		usleep(t.delay_us);
	t.fn(t.arg);
	return NULL;
}

/*
 * $PEBSPROBE_HOST_START_DELAY_US (0..60000000) stands for an AP that MP
 * services wake late (a loaded hypervisor, a deep C-state): each started
 * CPU sleeps that long before it runs its work.
 */
static unsigned int start_delay_us(void)
{
	const char *env = getenv("PEBSPROBE_HOST_START_DELAY_US");
	long us = env ? strtol(env, NULL, 10) : 0;

	return us > 0 && us <= 60000000 ? (unsigned int)us : 0;
}

int plat_start_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg)
{
	struct trampoline *t;

	if (!slots(cpu) || cpu_busy[cpu] || ap_refused("plat_start_on_cpu"))
		return -1;
	t = malloc(sizeof(*t));
	if (!t)
		return -1;
	t->cpu = cpu;
	t->delay_us = start_delay_us();
	t->fn = fn;
	t->arg = arg;
	if (pthread_create(&cpu_threads[cpu], NULL, run_trampoline, t)) {
		free(t);
		return -1;
	}
	cpu_busy[cpu] = true;
	cpu_starts[cpu]++;
	return 0;
}

int plat_wait_cpu(unsigned int cpu, uint64_t timeout_us)
{
	struct timespec ts;

	if (!slots(cpu) || !cpu_busy[cpu] || ap_refused("plat_wait_cpu"))
		return -1;
	if (!timeout_us) {
		pthread_join(cpu_threads[cpu], NULL);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += (time_t)(timeout_us / 1000000);
		ts.tv_nsec += (long)(timeout_us % 1000000) * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		/* Still running: the slot stays busy, as on the app's MP services. */
		if (pthread_timedjoin_np(cpu_threads[cpu], NULL, &ts))
			return -1;
	}
	cpu_busy[cpu] = false;
	return 0;
}
