// SPDX-License-Identifier: MIT
/*
 * fuzz_loadopts.c - libFuzzer target: the input is the image's LoadOptions
 * as the firmware hands them (UTF-16LE bytes, any length), read by the
 * same loadopts_parse() efi/main.c calls, then judged by the options
 * contract (options_contract.h).  Built with clang
 * -fsanitize=fuzzer,address,undefined (tests/fuzz/build.mk).
 */
#include <stdint.h>
#include <stdlib.h>

#include "options_contract.h"
#include "app/loadopts.h"
#include "lib/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options *o;
	static char line[LOADOPTS_MAX + 1];
	char err[REPORT_LINE_MAX] = "";
	uint16_t *w;
	bool ignored;
	int rc;

	/* The firmware's buffer is CHAR16-aligned, the fuzzer's bytes may not be. */
	w = malloc(size + 1);
	if (!w)
		return 0;
	memcpy(w, data, size);
	o = contract_fresh();
	rc = loadopts_parse(o, w, size, "\\EFI\\BOOT\\PEBSPROBE.CFG", line, sizeof(line), &ignored,
			    err, sizeof(err));
	free(w);
	if (ignored && (rc || line[0]))
		abort(); /* options that are not text are ignored whole */
	contract_options(o, rc, err);
	return 0;
}
