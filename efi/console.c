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
#include "../lib/status.h"

#define MAX_SCREENS 8

static SIMPLE_TEXT_OUTPUT_INTERFACE *screens[MAX_SCREENS];
static unsigned int n_screens;
/* Each screen's size, and whether it keeps the status header (room for it). */
static UINTN screen_cols[MAX_SCREENS], screen_rows[MAX_SCREENS];
static bool screen_header[MAX_SCREENS];
static char header_text[STATUS_ROWS][STATUS_WIDTH + 1];
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

/*
 * The status header (lib/status.h) on a screen's top STATUS_ROWS rows, white
 * on blue.  Simple Text Output has no scroll region: OutputString scrolls
 * the whole screen, header too, when the cursor passes the last row (UEFI
 * 2.10 12.4, EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL.OutputString).  So a screen
 * with a header never scrolls: before a line that would, the rows below the
 * header are written again with SetCursorPosition from the last lines kept
 * (screen_page), half of them, and the lines go on below; the header is
 * never moved, so it never has to be put back.
 */
#define HEADER_ATTR (EFI_WHITE | EFI_BACKGROUND_BLUE)

static void header_draw(unsigned int i)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = screens[i];
	INT32 col = out->Mode->CursorColumn, row = out->Mode->CursorRow;
	UINTN attr = (UINTN)out->Mode->Attribute;
	/* Never the last column: writing it would move the cursor to the next row. */
	size_t w = screen_cols[i] > STATUS_WIDTH ? STATUS_WIDTH : screen_cols[i] - 1;

	uefi_call_wrapper(out->SetAttribute, 2, out, HEADER_ATTR);
	for (UINTN r = 0; r < STATUS_ROWS; r++) {
		CHAR16 buf[STATUS_WIDTH + 1];
		char part[STATUS_WIDTH + 1];

		memcpy(part, header_text[r], w);
		part[w] = 0;
		ascii_to_ucs2(buf, STATUS_WIDTH + 1, part);
		uefi_call_wrapper(out->SetCursorPosition, 3, out, 0, r);
		uefi_call_wrapper(out->OutputString, 2, out, buf);
	}
	uefi_call_wrapper(out->SetAttribute, 2, out, attr);
	uefi_call_wrapper(out->SetCursorPosition, 3, out, (UINTN)col, (UINTN)row);
}

/* A screen with room for the header and the lines: its rows reserved, the header drawn. */
static void header_init(unsigned int i)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = screens[i];
	UINTN cols = 0, rows = 0;

	if (!out->Mode || EFI_ERROR(uefi_call_wrapper(out->QueryMode, 4, out,
						      (UINTN)out->Mode->Mode, &cols, &rows)))
		return;
	/* Only where the run's last lines (the recap, RESULT) fit below it. */
	if (!status_screen_fits((unsigned int)cols, (unsigned int)rows))
		return;
	screen_cols[i] = cols;
	screen_rows[i] = rows;
	screen_header[i] = true;
	uefi_call_wrapper(out->SetCursorPosition, 3, out, 0, STATUS_ROWS);
	header_draw(i);
}

void con_init(void)
{
	find_screens();
	status_due(plat_time_us());
	status_rows(plat_time_us(), header_text);
	/* A fresh screen: the firmware's logo and boot text would show through the lines. */
	for (unsigned int i = 0; i < n_screens; i++) {
		uefi_call_wrapper(screens[i]->ClearScreen, 1, screens[i]);
		header_init(i);
	}
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

/*
 * Text from line[from] to line[to] (at most a report line) in the current
 * attribute, SCREEN_CHUNK characters per OutputString: a line's UCS-2 copy
 * on the stack would be over 1 KiB (the Makefile's -Wframe-larger-than).
 */
#define SCREEN_CHUNK 128
static void screen_text(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *line, size_t from, size_t to)
{
	CHAR16 buf[SCREEN_CHUNK + 1];
	size_t end = from + (to - from < REPORT_LINE_MAX - 1 ? to - from : REPORT_LINE_MAX - 1);

	while (from < end && line[from]) {
		size_t n = 0;

		for (; n < SCREEN_CHUNK && from < end && line[from]; n++, from++)
			buf[n] = (uint8_t)line[from];
		buf[n] = 0;
		uefi_call_wrapper(out->OutputString, 2, out, buf);
	}
}

/* A line with its verdict words coloured (lib/colour.h), no line end: on a screen only. */
static void screen_colour_text(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *line, bool colour)
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
}

static void screen_write(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *line, bool colour)
{
	screen_colour_text(out, line, colour);
	uefi_call_wrapper(out->OutputString, 2, out, L"\r\n");
}

/* The last lines the screens showed, for a screen that pages (screen_page). */
#define RING_LINES 128
static char ring[RING_LINES][REPORT_WIDTH + 1];
static unsigned int ring_n; /* lines ever kept */

/* The n-th newest line kept, 0 the newest. */
static const char *ring_back(unsigned int n)
{
	return ring[(ring_n - 1 - n) % RING_LINES];
}

/* Rows a line takes on screen i: a line as wide as the screen wraps once more. */
static UINTN line_rows(unsigned int i, const char *line)
{
	return status_line_rows(strlen(line), (unsigned int)screen_cols[i]);
}

/* Row r below the header: the line, then blanks up to the last column but one. */
static void body_row(unsigned int i, UINTN r, const char *line)
{
	static CHAR16 blanks[65];
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = screens[i];
	size_t len = strlen(line), w = screen_cols[i] - 1;

	if (!blanks[0])
		for (unsigned int k = 0; k < ARRAY_SIZE(blanks) - 1; k++)
			blanks[k] = L' ';
	uefi_call_wrapper(out->SetCursorPosition, 3, out, 0, r);
	screen_colour_text(out, line, true);
	for (len %= screen_cols[i]; len < w;) {
		size_t n = w - len < ARRAY_SIZE(blanks) - 1 ? w - len : ARRAY_SIZE(blanks) - 1;

		uefi_call_wrapper(out->OutputString, 2, out, blanks + (ARRAY_SIZE(blanks) - 1 - n));
		len += n;
	}
}

/*
 * The rows below the header written again: the newest lines kept that fit
 * in keep rows, then blank rows to the bottom; the cursor after the lines.
 * The screen's last row only ever holds the cursor, so no line end scrolls.
 */
static void screen_page(unsigned int i, UINTN keep)
{
	unsigned int n = 0;
	UINTN used = 0, r = STATUS_ROWS;

	while (n < ring_n && n < RING_LINES && used + line_rows(i, ring_back(n)) <= keep)
		used += line_rows(i, ring_back(n++));
	while (n--) {
		body_row(i, r, ring_back(n));
		r += line_rows(i, ring_back(n));
	}
	for (; r < screen_rows[i]; r++)
		body_row(i, r, "");
	uefi_call_wrapper(screens[i]->SetCursorPosition, 3, screens[i], 0, STATUS_ROWS + used);
}

/*
 * The log's part of the report line being written: its wrapped pieces
 * joined by newlines, handed to the log as one (log_commit), so that a
 * verdict's continuation pieces reach the file in the same write as its
 * first piece and an INFO line's pieces all wait (lib/logbuf.h).
 */
static char log_pieces[2 * REPORT_LINE_MAX];
static size_t log_pieces_len;
static unsigned int log_pieces_n; /* an empty line is one piece too */

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
	/* The header's text anew when the progress moved, else a few times a second. */
	bool due;

	(void)ctx;
	if (!(con_to & TO_CONSOLE))
		goto log;
	due = n_screens && status_due(plat_time_us());
	if (due)
		status_rows(plat_time_us(), header_text);
	for (unsigned int i = 0; i < n_screens; i++) {
		/* The line's end would scroll the screen: page instead, half the rows kept. */
		if (screen_header[i] &&
		    (UINTN)screens[i]->Mode->CursorRow + line_rows(i, line) > screen_rows[i] - 1)
			screen_page(i, (screen_rows[i] - STATUS_ROWS - 1) / 2);
		screen_write(screens[i], line, true);
		if (screen_header[i] && due)
			header_draw(i);
	}
	if (n_screens) {
		pp_snprintf(ring[ring_n % RING_LINES], sizeof(ring[0]), "%s", line);
		ring_n++;
	}
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
	if (log_pieces_len + 1 + len > sizeof(log_pieces))
		return; /* not reached: a report line wraps into far less */
	if (log_pieces_n++)
		log_pieces[log_pieces_len++] = '\n';
	memcpy(log_pieces + log_pieces_len, line, len);
	log_pieces_len += len;
}

/* The pieces of the report line just wrapped, to the log file (or kept for it). */
static void log_commit(void)
{
	if (!log_pieces_n)
		return;
	if (log_fh)
		logbuf_line(&log_buf, log_pieces, log_pieces_len);
	else
		early_add(log_pieces, log_pieces_len);
	log_pieces_len = 0;
	log_pieces_n = 0;
}

/* Every line fits an 80-column screen: longer ones go on indented continuation lines. */
void con_line(const char *line, void *ctx)
{
	/* A line an AP prints goes nowhere (the BSP names the AP, lib/cpurun.c). */
	if (efi_fw_refused("the console"))
		return;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
	log_commit();
}

/* The brief form of a verdict: screens and serial, not the log file. */
void con_console_line(const char *line, void *ctx)
{
	if (efi_fw_refused("the console"))
		return;
	con_to = TO_CONSOLE;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
	con_to = TO_ALL;
}

/* Detail and full verdicts: the log file (docs/OUTPUT.md "The log file"). */
void con_log_line(const char *line, void *ctx)
{
	if (efi_fw_refused("the console"))
		return;
	con_to = TO_LOG;
	report_wrap(line, REPORT_WIDTH, con_put, ctx);
	log_commit();
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

void con_status_refresh(void)
{
	status_rows(plat_time_us(), header_text);
	for (unsigned int i = 0; i < n_screens; i++) {
		if (!screen_header[i])
			continue;
		/* The last screen full of the run's last lines, as a scrolled one would be. */
		screen_page(i, screen_rows[i] - STATUS_ROWS - 1);
		header_draw(i);
	}
}

/*
 * The BSP waits for another CPU (lib/cpurun.c, report_tick): the header's
 * elapsed time and progress redrawn when due (lib/status.h STATUS_REDRAW_US),
 * no line written, so the screen moves while the CPUs' verdicts go to the
 * log file.
 */
void con_status_tick(void)
{
	if (!n_screens || !status_due(plat_time_us()) || efi_fw_refused("the status header"))
		return;
	status_rows(plat_time_us(), header_text);
	for (unsigned int i = 0; i < n_screens; i++)
		if (screen_header[i])
			header_draw(i);
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
