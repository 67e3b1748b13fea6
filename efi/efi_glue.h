/* SPDX-License-Identifier: MIT */
/*
 * efi_glue.h - what the efi/ files share among themselves (EFI types
 * allowed here and only here): the console, the ESP directory beside the
 * binary, and the exit path.
 */
#ifndef PP_EFI_GLUE_H
#define PP_EFI_GLUE_H

#include <efi.h>
#include <efilib.h>

#include "../lib/compat.h"

/*
 * platform_efi.c: true when the caller may not call the firmware now: it
 * runs on an AP, where UEFI allows no boot service (PI spec Vol. 2 13.4),
 * or under a CR3 that is not the firmware's (page tables of ours, where
 * the firmware's page-attribute changes would land).  The call what is
 * counted (lib/ap_refusal.h) and the caller must do without the firmware.
 */
bool efi_fw_refused(const char *what);

/* console.c: screens, the serial port and the log file, one ASCII line at a time. */
void con_init(void);
void con_line(const char *line, void *ctx);	    /* a report_sink_fn */
void con_console_line(const char *line, void *ctx); /* screens and serial only */
void con_log_line(const char *line, void *ctx);	    /* the log file only */
/* Opens the log file beside the binary (NULL or "none": no log) and writes
 * the lines printed so far into it.  Returns 0 or -1. */
int con_open_log(const char *name);
void con_close_log(void);
/* The screens' status header drawn anew now (the run's last lines are out). */
void con_status_refresh(void);
void con_status_tick(void); /* the header redrawn when due: lib/report.h report_tick */
/* A write to the open log failed (it was closed then); the status of the first failure. */
bool con_log_failed(void);
const char *con_log_status(void);
const char *con_describe(void); /* "screen 1, serial 1, log pebsprobe.log" */

/* esp.c: the directory the binary was loaded from, on its own file system. */
EFI_STATUS esp_init(EFI_HANDLE image);
const char *esp_dir_name(void);
/*
 * NULL when the folder can be written; else why not, as an EFI status
 * ("EFI_WRITE_PROTECTED (EFI status 0x8...8)"): the volume is read-only and
 * no writable one has \EFI\BOOT.
 */
const char *esp_write_error(void);
/*
 * Reads a whole file: EFI_NOT_FOUND if absent, EFI_ACCESS_DENIED if it is a
 * directory, EFI_BAD_BUFFER_SIZE above 1 MiB; *buf from pool memory,
 * NUL-terminated.
 */
EFI_STATUS esp_read_file(const char *name, char **buf, UINTN *len);
/* The first *len bytes of a file (*len: how many were read); EFI_ACCESS_DENIED for a directory. */
EFI_STATUS esp_read_head(const char *name, void *buf, UINTN *len);
/* Bytes free on the directory's volume (0 read-only), -1 unknown. */
int64_t esp_free_space(void);
/* Deletes a file: EFI_SUCCESS, or why not (EFI_NOT_FOUND, EFI_WRITE_PROTECTED, ...). */
EFI_STATUS esp_delete(const char *name);
/* Calls fn with the name of every plain file in the folder (lib/platform.h plat_list_files). */
EFI_STATUS esp_list(void (*fn)(void *ctx, const char *name), void *ctx);
/* Writes name.tmp, then renames it to name: never a half-written name. */
EFI_STATUS esp_write_file(const char *name, const void *buf, UINTN len);
/* Creates (truncates) a file for appending; esp_append writes and flushes. */
EFI_STATUS esp_create(const char *name, EFI_FILE_HANDLE *fh);
EFI_STATUS esp_append(EFI_FILE_HANDLE fh, const void *buf, UINTN len);
void esp_close(EFI_FILE_HANDLE fh);

/* exit.c */
/*
 * EXIT_HOW_RESET_LOST: exit=return refused because a CPU still runs our
 * code: the status through isa-debug-exit under QEMU/KVM, then a cold reset.
 */
enum efi_exit_how { EXIT_HOW_SHUTDOWN, EXIT_HOW_REBOOT, EXIT_HOW_RETURN, EXIT_HOW_RESET_LOST };
/* No hypervisor: CPUID.1:ECX[31] clear (SDM Vol. 2A CPUID: "Not Used", set by hypervisors). */
bool efi_bare_metal(void);
/* Waits for a key or `seconds` (0: not at all); returns whether it waited. */
bool efi_pause(unsigned int seconds);
/* Does not return unless how is EXIT_HOW_RETURN (or the firmware refuses). */
void efi_exit(int status, enum efi_exit_how how);

/* platform_efi.c */
void plat_efi_init(void);

/* ASCII <-> UTF-16 helpers (main.c). */
void ascii_to_ucs2(CHAR16 *dst, size_t dst_len, const char *src);

extern EFI_HANDLE efi_image;

#endif
