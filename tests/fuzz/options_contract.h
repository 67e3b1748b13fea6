/* SPDX-License-Identifier: MIT */
/*
 * options_contract.h - what the config and LoadOptions fuzz targets assert
 * of every input once the options are parsed: a refusal is one printable
 * ERROR line; accepted options pass the app's whole check (app_select) or
 * are refused by it in one line, and then are options the rest of the app
 * takes as they are.  A broken promise aborts, which libFuzzer reports.
 */
#ifndef PP_FUZZ_OPTIONS_CONTRACT_H
#define PP_FUZZ_OPTIONS_CONTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "app/options.h"

/*
 * Both targets' libFuzzer start-up, defined here once: a quiet report sink
 * and a fixed CPU count.  Each target defines only LLVMFuzzerTestOneInput.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The options every input starts from: the defaults, as efi/main.c sets them. */
struct options *contract_fresh(void);

/* The parse returned rc (err filled when -1) and left o: judges the rest. */
void contract_options(struct options *o, int rc, const char *err);

#endif
