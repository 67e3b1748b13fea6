/* SPDX-License-Identifier: MIT */
/*
 * platform.h - what the pure units need from their environment: memory,
 * files, time, other cores.  efi/platform_efi.c implements it with UEFI boot
 * services; host/platform_host.c with POSIX for host tests and tools.
 */
#ifndef PP_PLATFORM_H
#define PP_PLATFORM_H

#include "compat.h"

/* Page-aligned, zeroed memory (boot-services pages in the app). NULL if none. */
void *plat_alloc_pages(size_t npages);
void plat_free_pages(void *p, size_t npages);

/* Ordinary small allocations (pool memory in the app). */
void *plat_alloc(size_t size);
void plat_free(void *p);

/*
 * Checks that [addr, addr+len) is mapped present, writable, identity-mapped
 * (linear == physical) and write-back, by walking the live page tables.  On
 * failure returns false and writes the reason into why.  The host
 * implementation reports what it cannot check (no page tables to walk).
 */
bool plat_check_mapping(uint64_t addr, size_t len, char *why, size_t why_size);

/*
 * Writes a whole file beside the binary on the ESP (the app) or in the
 * output directory (host).  Written to "<name>.tmp" first and renamed, so a
 * file is never left half-written.  Returns 0 or a negative error, which
 * plat_error_text() names (the app: the EFI status; the host: errno).
 */
int plat_write_file(const char *name, const void *buf, size_t len);
/*
 * The first size (at most 64) bytes of a file beside the binary: how many
 * were read, or -1 when there is no such file or it cannot be read (a
 * directory).  plat_delete_file: 0, or a negative error.  For the run's
 * outputs (app/outputs.c).
 */
int plat_read_head(const char *name, void *buf, size_t size);
/* Bytes free where the files go (EFI_FILE_SYSTEM_INFO.FreeSpace), -1 when unknown. */
int64_t plat_free_space(void);
int plat_delete_file(const char *name);
/*
 * Hands fn the name of every plain file beside the binary (folders left
 * out), as the file system spells it, once each; names over 95 characters
 * or not ASCII are left out (pebsprobe writes none).  fn may not create or
 * delete files (collect, then act).  0, or a negative error when the
 * folder cannot be listed.
 */
#define PLAT_NAME_MAX 96
int plat_list_files(void (*fn)(void *ctx, const char *name), void *ctx);
/* "EFI_VOLUME_FULL (0x800000000000000b)", "No space left on device (errno 28)". */
const char *plat_error_text(int err, char *buf, size_t size);

/*
 * What the firmware and the machine say about themselves, for the run's
 * identity (results.json "run", docs/RESULTS.md).  An empty string is
 * absent: the host has no firmware and no SMBIOS and says so.
 */
#define PLAT_ID_TEXT 64
struct plat_identity {
	char time[24];		      /* the firmware's clock (GetTime), "YYYY-MM-DDTHH:MM:SS" */
	bool has_time_zone;	      /* EFI_TIME.TimeZone is not EFI_UNSPECIFIED_TIMEZONE */
	int time_zone;		      /* EFI_TIME.TimeZone as the firmware gives it, minutes */
	char fw_vendor[PLAT_ID_TEXT]; /* EFI_SYSTEM_TABLE.FirmwareVendor, printable ASCII */
	bool has_fw_revision;
	uint32_t fw_revision;			/* EFI_SYSTEM_TABLE.FirmwareRevision */
	unsigned int uefi_major, uefi_minor;	/* EFI_SYSTEM_TABLE.Hdr.Revision; 0.0 absent */
	char smbios_manufacturer[PLAT_ID_TEXT]; /* SMBIOS type 1 (lib/smbios.h) */
	char smbios_product[PLAT_ID_TEXT];
	char smbios_serial[PLAT_ID_TEXT];
	uint64_t seed; /* differs from run to run (clock and TSC): the run ID's source */
};
void plat_identity(struct plat_identity *id);

/* Wall-clock-ish microseconds since start, for progress lines. */
uint64_t plat_time_us(void);
void plat_stall_us(unsigned int us);

/*
 * The boot CPU's task priority level (UEFI spec 7.1 RaiseTPL/RestoreTPL):
 * plat_tpl_raise() raises it to TPL_HIGH_LEVEL, where the firmware keeps
 * interrupts off and runs no event notification (its timer's included),
 * and returns the level it had; plat_tpl_restore() puts that back (the
 * notifications that came due run then).  Nothing may print in between:
 * ConOut's OutputString is for TPL_NOTIFY and below (UEFI spec Table 7-1).
 * A kernel body holds it (kernels/kernels.c).  On an AP, which takes no
 * firmware interrupt and may call no boot service: nothing, PLAT_TPL_NONE.
 * plat_tpl_high(): the app holds TPL_HIGH_LEVEL now (the simulated firmware
 * timer, sim-platform=timer-attr, fires only when it does not).
 */
#define PLAT_TPL_NONE (~0ULL)
uint64_t plat_tpl_raise(void);
void plat_tpl_restore(uint64_t tpl);
bool plat_tpl_high(void);

/*
 * Other processors (UEFI MP services).  Returns how many CPUs are enabled,
 * whatever their number (no fixed cap; the host: $PEBSPROBE_HOST_CPUS).
 */
unsigned int plat_cpu_count(void);
/*
 * Where CPU cpu (0..count-1) sits, as the firmware names it: its package,
 * core within the package and thread within the core (the app: PI spec
 * Vol. 2 13.4 GetProcessorInfo, EFI_PROCESSOR_INFORMATION.Location; the
 * host: $PEBSPROBE_HOST_THREADS threads a core and $PEBSPROBE_HOST_CORES
 * cores a package, numbered as EDK II's MpInitLib numbers by APIC ID).
 * false when the firmware does not say.
 */
struct plat_cpu_loc {
	uint32_t package, core, thread;
};
bool plat_cpu_location(unsigned int cpu, struct plat_cpu_loc *loc);
/*
 * The processors the firmware numbers but the app leaves alone: its
 * numbers cover every processor, enabled or not (PI spec Vol. 2 13.4
 * GetNumberOfProcessors; GetProcessorInfo StatusFlag PROCESSOR_ENABLED_BIT,
 * PROCESSOR_HEALTH_STATUS_BIT), and plat_cpu_count() counts only the
 * enabled, healthy ones.  Fills up to max entries; returns how many there are.
 */
struct plat_cpu_unused {
	unsigned int number; /* the firmware's processor number */
	bool disabled;	     /* else enabled but failing its health check */
};
unsigned int plat_cpus_unused(struct plat_cpu_unused *out, unsigned int max);
/*
 * Disables the firmware's processor number (MP services EnableDisableAP,
 * PI spec Vol. 2 13.4), for sim-platform=cpuN:disabled: afterwards the
 * firmware reports it disabled, as a BIOS setup option leaves it.  Only
 * before any CPU is started.  0, or -1 with why.
 */
int plat_cpu_disable(unsigned int number, char *why, size_t why_size);
/*
 * Runs fn(arg) on the application processor number cpu (1..count-1) while
 * the caller runs its own part; plat_wait_cpu() waits for it.  Returns 0, or
 * a negative value when no second processor can be used.  lib/cpurun.c
 * starts each AP so once, into its dispatch loop, and waits at release.
 */
int plat_start_on_cpu(unsigned int cpu, void (*fn)(void *arg), void *arg);
int plat_wait_cpu(unsigned int cpu, uint64_t timeout_us);
/*
 * Which of those CPUs runs the caller: 0 on the boot processor, 1..count-1
 * on the others, numbered as plat_start_on_cpu() numbers them (the app:
 * EFI_MP_SERVICES_PROTOCOL WhoAmI, which an AP may call, PI spec Vol. 2
 * 13.4; the host: the thread plat_start_on_cpu() started).
 */
unsigned int plat_cpu_self(void);
/*
 * The calling processor stops for good and never returns: an AP that hangs
 * (sim-fault=cpuN:hang), for the tests of the timeout that the BSP puts on
 * work it hands an AP (lib/cpurun.h).  Only on an AP: the BSP would stop the
 * run.  The app: interrupts off and HLT, over and over; the host: the
 * thread sleeps until the process ends.
 */
void plat_park(void) __attribute__((noreturn));
/*
 * One turn of a spin-wait on memory another CPU writes (lib/cpurun.c's AP
 * loop), spins: the turns so far.  Safe on an AP: no firmware call.  The
 * app: PAUSE (SDM Vol. 2B); the host: yields its thread, and sleeps when
 * it has waited long (a thousand idle "CPUs" on a two-core host).
 */
void plat_cpu_relax(unsigned int spins);

#endif
