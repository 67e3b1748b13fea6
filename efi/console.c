// SPDX-License-Identifier: MIT
/*
 * console.c - every report line goes to three places, each exactly once:
 *
 *   screens: every Simple Text Output device whose device path has no UART
 *            node (the firmware's graphics or VGA text console);
 *   serial:  the first EFI_SERIAL_IO_PROTOCOL device, written directly as
 *            "line\r\n" - never through ConOut, whose terminal driver adds
 *            cursor moves and colour escapes;
 *   log:     the log file on the ESP (ASCII, "line\n"), written and flushed
 *            at each verdict, not every line (lib/logbuf.h: the policy).
 *
 * Writing to ConOut (the splitter) would send each line to the serial
 * terminal as well, so the serial transcript would hold it twice and with
 * escapes.  Only when neither a screen nor a serial port is found does the
 * text go to ConOut itself.
 */
#include "efi_glue.h"
#include "../lib/colour.h"
#include "../lib/fmt.h"
#include "../lib/logbuf.h"
#include "../lib/platform.h"
#include "../lib/report.h"

#define MAX_SCREENS 8

static SIMPLE_TEXT_OUTPUT_INTERFACE *screens[MAX_SCREENS];
static unsigned int n_screens;
static EFI_SERIAL_IO_PROTOCOL *serial;
static EFI_FILE_HANDLE log_fh;
static char log_name[64];
/* The first failure of the log file: creating it or a write (con_log_status). */
static EFI_STATUS log_status;
static struct logbuf log_buf;
static bool log_write_failed;

/* Lines printed before the log file is open, written into it when it opens. */
#define EARLY_MAX 16384
static char early[EARLY_MAX];
static size_t early_len;
static bool early_done;

static bool path_has_uart(EFI_DEVICE_PATH *dp)
{
	for (; !IsDevicePathEnd(dp); dp = NextDevicePathNode(dp))
		if (DevicePathType(dp) == MESSAGING_DEVICE_PATH &&
		    DevicePathSubType(dp) == MSG_UART_DP)
			return true;
	return false;
}

static void find_screens(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &TextOutProtocol,
					NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n && n_screens < MAX_SCREENS; i++) {
		EFI_DEVICE_PATH *dp = NULL;
		SIMPLE_TEXT_OUTPUT_INTERFACE *out = NULL;

		/* The splitter's virtual handles have no device path: skip them. */
		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i],
						&DevicePathProtocol, (void **)&dp)) ||
		    !dp || path_has_uart(dp))
			continue;
		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i], &TextOutProtocol,
						(void **)&out)) ||
		    !out)
			continue;
		screens[n_screens++] = out;
	}
	FreePool(handles);
}

static void find_serial(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &SerialIoProtocol,
					NULL, &n, &handles)))
		return;
	if (n)
		uefi_call_wrapper(BS->HandleProtocol, 3, handles[0], &SerialIoProtocol,
				  (void **)&serial);
	FreePool(handles);
}

static void serial_write(const char *s, size_t len)
{
	UINTN n = len;

	if (serial)
		uefi_call_wrapper(serial->Write, 3, serial, &n, (void *)s);
}

void con_init(void)
{
	find_screens();
	/* A fresh screen: the firmware's logo and boot text would show through the lines. */
	for (unsigned int i = 0; i < n_screens; i++)
		uefi_call_wrapper(screens[i]->ClearScreen, 1, screens[i]);
	find_serial();
	/* The firmware's terminal may have left the cursor mid-line: start a fresh one. */
	serial_write("\r\n", 2);
}

/*
 * On a screen only, a line's leading PASS is green and FAIL red (UEFI 2.x
 * 12.4 SetAttribute: EFI_LIGHTGREEN, EFI_LIGHTRED on the screen's own
 * background), the rest in the screen's colours.  Serial and the log stay
 * plain ASCII.
 */
// clang-format off
static const UINTN kind_colour[] = {
    [COLOUR_PASS]  = EFI_LIGHTGREEN,
    [COLOUR_FAIL]  = EFI_LIGHTRED,
    [COLOUR_SKIP]  = EFI_YELLOW,
    [COLOUR_ERROR] = EFI_LIGHTMAGENTA,
};
// clang-format on

/* Text from line[from] to line[to] in the current attribute. */
static void screen_text(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *line, size_t from, size_t to)
{
	CHAR16 buf[REPORT_LINE_MAX + 3];
	size_t n = to - from < REPORT_LINE_MAX ? to - from : REPORT_LINE_MAX;
	char part[REPORT_LINE_MAX + 1];

	if (!n)
		return;
	memcpy(part, line + from, n);
	part[n] = 0;
	ascii_to_ucs2(buf, REPORT_LINE_MAX, part);
	uefi_call_wrapper(out->OutputString, 2, out, buf);
}

/* A line with its verdict words coloured (lib/colour.h): on a screen only. */
static void screen_write(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *line, bool colour)
{
	UINTN attr = out->Mode ? (UINTN)out->Mode->Attribute : EFI_LIGHTGRAY;
	struct colour_span span[16];
	size_t n = colour ? colour_spans(line, span, ARRAY_SIZE(span)) : 0, at = 0;

	for (size_t i = 0; i < n; i++) {
		screen_text(out, line, at, span[i].start);
		uefi_call_wrapper(out->SetAttribute, 2, out,
				  kind_colour[span[i].kind] | (attr & 0x70));
		screen_text(out, line, span[i].start, span[i].start + span[i].len);
		uefi_call_wrapper(out->SetAttribute, 2, out, attr);
		at = span[i].start + span[i].len;
	}
	screen_text(out, line, at, strlen(line));
	uefi_call_wrapper(out->OutputString, 2, out, L"\r\n");
}

static void early_add(const char *line, size_t len)
{
	if (early_done || early_len + len + 1 > EARLY_MAX)
		return;
	memcpy(early + early_len, line, len);
	early[early_len + len] = '\n';
	early_len += len + 1;
}

/* A log write failed: keep its status for the end (efi/main.c) and stop writing. */
static void log_write_broke(EFI_STATUS st)
{
	log_status = st;
	log_write_failed = true;
	uefi_call_wrapper(log_fh->Close, 1, log_fh);
	log_fh = NULL;
}

/*
 * One Write and one Flush per batch of lines (a Flush costs milliseconds on
 * FAT).  A full or failing ESP: stop writing, say so at the end (efi/main.c).
 */
static void log_write(const char *buf, size_t len, void *ctx)
{
	EFI_STATUS st;

	(void)ctx;
	if (!log_fh)
		return;
	st = esp_append(log_fh, buf, len);
	if (EFI_ERROR(st))
		log_write_broke(st);
}

/* Where con_put() writes a line (lib/report.h report_init_routes). */
enum con_to {
	TO_CONSOLE = 1, /* screens and serial (ConOut when neither) */
	TO_LOG = 2,	/* the log file */
	TO_ALL = TO_CONSOLE | TO_LOG,
};
static enum con_to con_to = TO_ALL;

/* One physical line, at most REPORT_WIDTH columns, to every place con_to names. */
static void con_put(const char *line, void *ctx)
{
	size_t len = strlen(line);

	(void)ctx;
	if (!(con_to & TO_CONSOLE))
		goto log;
	for (unsigned int i = 0; i < n_screens; i++)
		screen_write(screens[i], line, true);
	if (serial) {
		serial_write(line, len);
		serial_write("\r\n", 2);
	}
	/* ConOut may include a serial terminal: no colour there. */
	if (!n_screens && !serial)
		screen_write(ST->ConOut, line, false);
log:
	if (!(con_to & TO_LOG))
		return;
	if (log_fh)
		logbuf_line(&log_buf, line, len);
	else
		early_add(line, len);
}

/* Every line fits an 80-column screen: longer ones go on indented continuation lines. */
void con_line(const char *line, void *ctx)
{
	/* A line an AP prints goes nowhere (the BSP names the AP, lib/cpurun.c). */
	if (efi_ap_refused("the console"))
		return;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
}

/* The brief form of a verdict: screens and serial, not the log file. */
void con_console_line(const char *line, void *ctx)
{
	con_to = TO_CONSOLE;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
	con_to = TO_ALL;
}

/* Detail and full verdicts: the log file (docs/OUTPUT.md "The log file"). */
void con_log_line(const char *line, void *ctx)
{
	con_to = TO_LOG;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
	con_to = TO_ALL;
}

int con_open_log(const char *name)
{
	EFI_STATUS st;

	early_done = true;
	if (!name || !strcmp(name, "none"))
		return 0;
	st = esp_create(name, &log_fh);
	if (EFI_ERROR(st)) {
		log_status = st;
		log_fh = NULL;
		return -1;
	}
	pp_snprintf(log_name, sizeof(log_name), "%s", name);
	logbuf_init(&log_buf, log_write, NULL);
	st = esp_append(log_fh, early, early_len);
	if (EFI_ERROR(st)) {
		log_write_broke(st);
		return -1;
	}
	return 0;
}

/* Writes what waits first, so that a failed write is known now. */
bool con_log_failed(void)
{
	logbuf_flush(&log_buf);
	return log_write_failed;
}

const char *con_log_status(void)
{
	static char buf[64];
	int code = (log_status & 0xffff) ? -(int)(log_status & 0xffff) : -1;

	return plat_error_text(code, buf, sizeof(buf));
}

void con_close_log(void)
{
	logbuf_flush(&log_buf);
	if (log_fh)
		esp_close(log_fh);
	log_fh = NULL;
}

const char *con_describe(void)
{
	static char buf[128];

	pp_snprintf(buf, sizeof(buf), "screens %u, serial %s, log %s", n_screens,
		    serial ? "yes" : "no", log_fh ? log_name : "none");
	return buf;
}
