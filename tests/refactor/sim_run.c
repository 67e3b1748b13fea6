// SPDX-License-Identifier: MIT
/*
 * sim_run.c - one run of the app on the simulator, as efi/main.c runs it
 * on firmware: the options as one LoadOptions line, app_run() (which
 * chooses the backend: the simulator, the host having no real one) and
 * app_finish(), which writes results.json under $PEBSPROBE_OUT.  Every
 * report line goes to stdout; the exit status is the app's.
 *
 * tests/host/check-refactor.sh builds it against two trees' host
 * libraries, a baseline revision's and this one's, and compares what the
 * two say.  So it uses only API both have: options_defaults(),
 * options_parse_line(), app_run(), app_finish() and report_init().
 */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/options.h"
#include "lib/report.h"

static void out(const char *line, void *ctx)
{
	(void)ctx;
	printf("%s\n", line);
}

int main(int argc, char **argv)
{
	static struct options o;
	char line[1024] = "", err[REPORT_LINE_MAX];
	int status;

	for (int i = 1; i < argc; i++) {
		if (strlen(line) + strlen(argv[i]) + 2 > sizeof(line)) {
			fprintf(stderr, "sim_run: options longer than %zu bytes\n", sizeof(line));
			return 2;
		}
		if (line[0])
			strcat(line, " ");
		strcat(line, argv[i]);
	}
	report_init(out, NULL);
	options_defaults(&o);
	if (options_parse_line(&o, line, false, err, sizeof(err))) {
		report_line("ERROR: %s", err);
		status = EXIT_USAGE;
	} else {
		status = app_run(&o, NULL);
	}
	return app_finish(&o, o.job.results, status);
}
