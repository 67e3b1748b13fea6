#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-ap-stack.sh - an AP's deepest call chain fits 3 KiB of a 4 KiB stack
# (docs/ARCHITECTURE.md, "Stacks"): tools/ap-stack.py on the UEFI objects'
# call graphs (-fcallgraph-info=su, the Makefile's EFI_CFLAGS), and the tool
# can fail: a copy of the graphs with the #GP trap's frame made 4 KiB again
# (the old private IDT on the stack) must be refused, naming that frame.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-apstack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PY=/usr/bin/python3

if ! ls "$BUILD"/efi/efi/hw_real.ci >/dev/null 2>&1; then
	echo "FAIL: ap-stack: $BUILD/efi/efi/hw_real.ci is missing (make $BUILD/pebsprobe.efi)"
	exit 1
fi
$PY tools/ap-stack.py "$BUILD/efi"

# The check can fail: real_rdmsr with the 4 KiB IDT copy on its stack.
cp -r "$BUILD/efi" "$tmp/efi"
sed -i 's|\(efi/hw_real.c:real_rdmsr.*\\n\)[0-9]* bytes|\14144 bytes|' "$tmp/efi/efi/hw_real.ci"
if out=$($PY tools/ap-stack.py "$tmp/efi" 2>&1); then
	echo "FAIL: ap-stack-can-fail: a 4144-byte real_rdmsr frame passed: $(echo "$out" | tail -n 1)"
elif echo "$out" | grep -q "real_rdmsr" && echo "$out" | grep -q "^FAIL: ap-stack: the deepest"; then
	echo "PASS: ap-stack-can-fail: a 4144-byte real_rdmsr frame is refused, named in the chain"
else
	echo "FAIL: ap-stack-can-fail: refused without naming real_rdmsr: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi
