#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-ap-stack.sh - an AP's deepest call chain fits 3 KiB of a 4 KiB stack
# (docs/ARCHITECTURE.md, "Stacks"): tools/ap-stack.py on the UEFI objects'
# call graphs (-fcallgraph-info=su, the Makefile's EFI_CFLAGS), and the tool
# can fail: a copy of the graphs with the #GP trap's frame made 4 KiB again
# (the old private IDT on the stack) must be refused, naming that frame.
# Then no function's frame is over 1 KiB (the Makefile's -Wframe-larger-than);
# it can fail too.
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

# Every frame of the UEFI objects' -fstack-usage files (*.su) over FRAME_MAX,
# "file:line:col:function bytes (object)".
FRAME_MAX=1024
frames_over() {
	local dir=$1
	find "$dir" -name '*.su' | sort | while read -r su; do
		obj=${su#"$dir"/}
		obj=${obj%.su}
		awk -F'\t' -v max=$FRAME_MAX -v obj="$obj" \
			'$2 + 0 > max { print $1 " " $2 " bytes (" obj ")" }' "$su"
	done
}

n=$(find "$BUILD/efi" -name '*.su' | wc -l)
over=$(frames_over "$BUILD/efi")
if [ "$n" -eq 0 ]; then
	echo "FAIL: efi-frames: no stack-usage files (*.su) under $BUILD/efi (-fstack-usage)"
elif [ -n "$over" ]; then
	echo "$over" | sed "s/^/FAIL: efi-frames: over $FRAME_MAX bytes: /"
else
	echo "PASS: efi-frames: no frame over $FRAME_MAX bytes in $n UEFI objects"
fi

# The check can fail: real_rdmsr (efi/hw_real) with 1040 bytes.
sed -i 's|\(:real_rdmsr\t\)[0-9]*|\11040|' "$tmp/efi/efi/hw_real.su"
over=$(frames_over "$tmp/efi")
if echo "$over" | grep -q "real_rdmsr 1040 bytes (efi/hw_real)"; then
	echo "PASS: efi-frames-can-fail: a 1040-byte real_rdmsr frame is refused, named"
else
	echo "FAIL: efi-frames-can-fail: a 1040-byte real_rdmsr frame passed: ${over:-none over}"
fi
