#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lib/efi_libc.c's memcpy, memset and memmove (rep movsq/stosq, the tail by
# rep movsb/stosb), built with the UEFI build's compiler flags into a host program
# (build/efihost/test-efi-libc; tests/efihost/test_efi_libc.c says what it checks).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
t=$BUILD/efihost/test-efi-libc
if [ ! -x "$t" ]; then
	echo "FAIL: efi-libc: $t not built (make BUILD=$BUILD $t)"
	exit 1
fi
# The program must define the three itself, or it would test libc's.
for f in memcpy memset memmove; do
	if nm "$t" | grep -qE " T $f\$"; then echo "PASS: efi-libc: $t defines $f"
	else echo "FAIL: efi-libc: $t does not define $f (libc's would be tested)"; fi
done
"$t"
