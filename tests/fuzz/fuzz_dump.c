// SPDX-License-Identifier: MIT
/*
 * fuzz_dump.c - libFuzzer target: the input is a file handed to
 * pebs-decode.  It runs the tool's own main() (tools/pebs-decode.c, built
 * with -Dmain=pebs_decode_main and a window of a few KiB, so that the
 * header, the streamed framing, refills and growth all meet these inputs)
 * on standard input, once per output mode, and asserts its contract:
 *
 *   no PEBSDUMP magic       exit 2, one line
 *   a header decode/dump.c  exit 1, that one line, as pebs_dump_parse()
 *   refuses                 words it
 *   fewer record bytes than exit 1
 *   the header declares
 *   exit 0                  nothing on stderr
 *   always                  exit 0, 1 or 2; every stderr line names stdin
 *
 * Standard output goes to /dev/null.  Built with clang
 * -fsanitize=fuzzer,address,undefined (tests/fuzz/build.mk).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "decode/dump.h"

int pebs_decode_main(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PREFIX "pebs-decode: stdin: "

static int input = -1;
static FILE *err;
static char *err_text;
static size_t err_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY);

	if (null < 0 || dup2(null, 1) < 0)
		abort();
	close(null);
	input = memfd_create("pebs-dump", 0);
	err = open_memstream(&err_text, &err_len);
	if (input < 0 || !err)
		abort();
	return 0;
}

static void broken(const char *mode, int rc, const char *what)
{
	fprintf(stderr, "dump contract broken (%s, exit %d): %s; stderr was:\n%s", mode, rc, what,
		err_text);
	abort();
}

/* The tool's error lines: how many, each naming stdin. */
static unsigned int lines(const char *mode, int rc)
{
	unsigned int n = 0;

	for (const char *p = err_text; *p; n++) {
		const char *nl = strchr(p, '\n');

		if (!nl || strncmp(p, PREFIX, strlen(PREFIX)))
			broken(mode, rc, "a stderr line that does not start with the prefix");
		p = nl + 1;
	}
	return n;
}

static int run(const char *mode)
{
	char *argv[] = {"pebs-decode", (char *)mode, "-", NULL};
	FILE *saved = stderr;
	int rc;

	if (lseek(input, 0, SEEK_SET) || dup2(input, 0) < 0)
		abort();
	rewind(err);
	stderr = err;
	rc = pebs_decode_main(3, argv);
	stderr = saved;
	fputc(0, err);
	fflush(err);
	fflush(stdout);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const modes[] = {"--output=text", "--output=json", "--output=csv",
					    "--output=summary"};
	struct pebs_dump_info di;
	const uint8_t *recs;
	size_t rlen;
	char why[200] = "", want[256];
	bool dump = size >= 8 && !memcmp(data, PEBS_DUMP_MAGIC, 8);
	int parsed = dump ? pebs_dump_parse(data, size, &di, &recs, &rlen, why, sizeof(why)) : -1;

	if (ftruncate(input, 0) || pwrite(input, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(want, sizeof(want), PREFIX "%s\n", why);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		int rc = run(modes[m]);
		unsigned int n = lines(modes[m], rc);

		if (rc < 0 || rc > 2)
			broken(modes[m], rc, "exit status not 0, 1 or 2");
		if (!dump && (rc != 2 || n != 1))
			broken(modes[m], rc, "not a dump: want exit 2 and one line");
		if (dump && parsed < 0 && (rc != 1 || strcmp(err_text, want)))
			broken(modes[m], rc,
			       "a bad header: want exit 1 and pebs_dump_parse's line");
		if (dump && parsed == 1 && rc != 1)
			broken(modes[m], rc, "fewer record bytes than declared: want exit 1");
		if (rc == 0 && n)
			broken(modes[m], rc, "exit 0 with an error line");
	}
	return 0;
}
