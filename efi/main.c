// SPDX-License-Identifier: MIT
/*
 * main.c - the UEFI entry point: console, options (config file beside the
 * binary, then LoadOptions), the checks across options and the backend
 * choice (app_select: options_check, then CPUID only), log file,
 * app_run(), exit.  Bad options
 * stop here with one ERROR line and status 2, before any MSR is touched:
 * no backend is chosen until they are all good.  Nothing is printed until
 * the backend is chosen, so that every line of a simulated run, the banner
 * first, ends with " [sim]"; what reading the options has to say is kept
 * in notes[] until then.
 */
#include "efi_glue.h"
#include "hw_real.h"
#include "../app/app.h"
#include "../app/loadopts.h"
#include "../lib/cpurun.h"
#include "../lib/fmt.h"
#include "../lib/platform.h"
#include "../app/options.h"
#include "../lib/report.h"

#define CONFIG_NAME "PEBSPROBE.CFG"

EFI_HANDLE efi_image;

static char notes[3][REPORT_LINE_MAX - 64];
static unsigned int n_notes;

static void note(const char *fmt, ...) pp_printf(1, 2);
static void note(const char *fmt, ...)
{
	va_list ap;

	if (n_notes >= ARRAY_SIZE(notes))
		return;
	va_start(ap, fmt);
	pp_vsnprintf(notes[n_notes++], sizeof(notes[0]), fmt, ap);
	va_end(ap);
}

void ascii_to_ucs2(CHAR16 *dst, size_t dst_len, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < dst_len; i++)
		dst[i] = (uint8_t)src[i];
	dst[i] = 0;
}

static const char *read_error(EFI_STATUS st)
{
	static char buf[48];

	if (st == EFI_ACCESS_DENIED)
		return "a directory, not a file";
	if (st == EFI_BAD_BUFFER_SIZE)
		return "larger than 1 MiB";
	if (st == EFI_DEVICE_ERROR)
		return "device error";
	pp_snprintf(buf, sizeof(buf), "EFI status 0x%llx", (unsigned long long)st);
	return buf;
}

/*
 * Config file then LoadOptions (app/options_sources.c); on a refusal err
 * holds the first and -1 is returned, with every other option applied.
 */
static int read_options(struct options *o, char *err, size_t err_size)
{
	EFI_LOADED_IMAGE *li = NULL;
	static char line[LOADOPTS_MAX + 1]; /* a line long: not on the stack */
	char *text = NULL, path[160];
	struct options_sources s = {.config_path = path};
	UINTN len = 0;
	bool ignored;
	EFI_STATUS st;
	int rc;

	options_defaults(o);
	pp_snprintf(path, sizeof(path), "%s%s", esp_dir_name(), CONFIG_NAME);
	st = esp_read_file(CONFIG_NAME, &text, &len);
	if (st == EFI_SUCCESS) {
		s.config_text = text;
		s.config_len = len;
	} else if (st != EFI_NOT_FOUND && st != EFI_NOT_READY) {
		s.config_unreadable = read_error(st);
	}
	if (!EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, efi_image, &LoadedImageProtocol,
					 (void **)&li))) {
		s.loadopts = li->LoadOptions;
		s.loadopts_bytes = li->LoadOptionsSize;
	}
	rc = options_read_sources(o, &s, line, sizeof(line), &ignored, err, err_size);
	if (text)
		FreePool(text);
	if (s.config_text)
		note("options: config file %s read", path);
	if (ignored)
		note("options: LoadOptions are not text, ignored");
	if (line[0])
		note("options: LoadOptions \"%s\"", line);
	return rc;
}

static const char *firmware_vendor(void)
{
	static char buf[64];
	size_t i = 0;

	for (; ST->FirmwareVendor && ST->FirmwareVendor[i] && i + 1 < sizeof(buf); i++) {
		CHAR16 c = ST->FirmwareVendor[i];

		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[i] = 0;
	return buf;
}

static const enum efi_exit_how exit_how[] = {
    [OPT_EXIT_SHUTDOWN] = EXIT_HOW_SHUTDOWN,
    [OPT_EXIT_REBOOT] = EXIT_HOW_REBOOT,
    [OPT_EXIT_RETURN] = EXIT_HOW_RETURN,
};

/* "CPU 1" or "CPUs 1, 3" (up to size): the APs that never came back from work; 0 if none. */
static unsigned int lost_cpus(unsigned int *first)
{
	unsigned int n = 0, count = plat_cpu_count();

	*first = 0;
	for (unsigned int c = 1; c < count; c++) {
		if (!cpurun_run_lost(c))
			continue;
		if (!n++)
			*first = c;
	}
	return n;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static struct options opts, used;
	/* The real backend and its self tests, as the pure app takes them. */
	static struct app_real real = {
	    .gp_trapped = hw_real_gp_trapped,
	    .idt_intact = hw_real_idt_intact,
	    .selftest_vector = hw_real_selftest_vector,
	    .selftest_dirty_regs = hw_real_selftest_dirty_regs,
	    .selftest_ap_interrupt = hw_real_selftest_ap_interrupt,
	};
	char err[REPORT_LINE_MAX];
	unsigned int n_lost, first_lost;
	enum efi_exit_how how;
	const char *ro;
	unsigned int cleared;
	bool pause;
	int status;

	InitializeLib(image, systab);
	efi_image = image;
	/* The firmware's 5-minute watchdog would reset the machine mid-run. */
	uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
	/* The clock first: the console's status header reads it from its first line on. */
	plat_efi_init();
	con_init();
	report_init(con_line, NULL);
	report_init_routes(con_console_line, con_log_line, NULL);
	report_set_tick(con_status_tick);
	esp_init(image);
	ro = esp_write_error();
	real.ops = hw_real_ops();

	if (read_options(&opts, err, sizeof(err)) || app_select(&opts, &real, err, sizeof(err)) ||
	    app_check_outputs(&opts, err, sizeof(err))) {
		/*
		 * The files are the defaults': a refused option names none.  exit=
		 * and pause= as read (a refusal stops no option around it, in the
		 * config file or LoadOptions): exit=return hands the status to a
		 * UEFI Shell script.
		 */
		options_defaults(&used);
		used.exit_mode = opts.exit_mode;
		used.pause = opts.pause;
		if (!ro)
			app_clear_previous(&used);
		report_banner("pebsprobe %s", PP_VERSION);
		report_line("ERROR: %s", err);
		if (!ro)
			con_open_log(used.log);
		status = EXIT_USAGE;
	} else if (ro) {
		/*
		 * A write-protected ESP: no log, results.json or dump could land,
		 * so nothing is run and nothing is written or deleted; one line
		 * says why (docs/OUTPUT.md).
		 */
		used = opts;
		report_banner("pebsprobe %s", PP_VERSION);
		report_env_error("esp",
				 "%s cannot be written: %s; nothing was run (a run needs a "
				 "writable ESP for its log, results.json and dumps)",
				 esp_dir_name(), ro);
		status = EXIT_ENVIRONMENT;
	} else {
		used = opts;
		report_set_verbose(opts.verbose);
		/* Nothing of an earlier run is left to be read as this one's (docs/OUTPUT.md). */
		cleared = app_clear_previous(&used);
		report_banner("pebsprobe %s", PP_VERSION);
		for (unsigned int i = 0; i < n_notes; i++)
			report_info("%s", notes[i]);
		if (cleared)
			report_info("outputs: %u files an earlier run left (results, log, dumps) "
				    "deleted",
				    cleared);
		if (con_open_log(opts.log))
			report_env_error("log", "cannot create %s%s on the ESP: %s", esp_dir_name(),
					 opts.log, con_log_status());
		report_info("firmware: %s rev 0x%x, UEFI %u.%u; output: %s", firmware_vendor(),
			    ST->FirmwareRevision, ST->Hdr.Revision >> 16,
			    (ST->Hdr.Revision & 0xffff) / 10, con_describe());
		status = app_run(&opts, &real);
	}
	/* No AP left in its dispatch loop, whichever way app_run() ended (lib/cpurun.h). */
	cpurun_release_all();
	how = exit_how[used.exit_mode];
	if (how == EXIT_HOW_RETURN && (n_lost = lost_cpus(&first_lost))) {
		/* The firmware would unload the image under it (DxeMpLib.c
		 * MpInitChangeApLoopCallback). */
		report_env_error("exit",
				 "exit=return: CPU %u still runs pebsprobe's code: no return",
				 first_lost);
		report_info("exit: %u CPU%s in our code: no return to the firmware; reset", n_lost,
			    n_lost == 1 ? "" : "s");
		how = EXIT_HOW_RESET_LOST;
		if (status != EXIT_USAGE)
			status = EXIT_ENVIRONMENT;
	}
	/* Every ending but a write-protected ESP writes results.json: the options as read, the
	 * files the defaults' on refusal. */
	if (!ro)
		status = app_finish(&opts, used.job.results, status);
	if (con_log_failed()) {
		report_env_error("log", "writing %s%s failed: %s; the log is incomplete",
				 esp_dir_name(), used.log, con_log_status());
		if (status == EXIT_PASS || status == EXIT_ALL_SKIPPED)
			status = EXIT_ENVIRONMENT;
	}
	report_info("exit status %d (exit=%s)", status,
		    how == EXIT_HOW_RESET_LOST		? "return refused: reset"
		    : used.exit_mode == OPT_EXIT_RETURN ? "return"
		    : used.exit_mode == OPT_EXIT_REBOOT ? "reboot"
							: "shutdown");
	/* At a bench the verdict must stay readable: not under a hypervisor (docs/OUTPUT.md). */
	pause = how != EXIT_HOW_RETURN && used.pause && efi_bare_metal();
	if (pause)
		report_info("press a key, or wait %u seconds (pause=), to %s", used.pause,
			    how == EXIT_HOW_SHUTDOWN		? "power off"
			    : used.exit_mode == OPT_EXIT_REBOOT ? "reboot"
								: "reset");
	/* The last screen: what failed, then one word, whatever scrolled away. */
	report_result(status);
	con_status_refresh();
	if (pause)
		efi_pause(used.pause);
	con_close_log();
	efi_exit(status, how);
	return (EFI_STATUS)status;
}
