// SPDX-License-Identifier: MIT
/*
 * fuzz_config.c - libFuzzer target: the input is PEBSPROBE.CFG, read as
 * efi/main.c reads it (options_parse_config over the defaults), then judged
 * by the options contract (options_contract.h).  Built with clang
 * -fsanitize=fuzzer,address,undefined (tests/fuzz/build.mk).
 */
#include <stdint.h>

#include "options_contract.h"
#include "lib/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options *o = contract_fresh();
	char err[REPORT_LINE_MAX] = "";
	int rc;

	rc = options_parse_config(o, "PEBSPROBE.CFG", (const char *)data, size, err, sizeof(err));
	contract_options(o, rc, err);
	return 0;
}
