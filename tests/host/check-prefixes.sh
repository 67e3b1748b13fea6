#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-prefixes.sh - every function and object the host library exports
# (nm of $BUILD/host/obj/<unit>/<file>.o) carries its unit's prefix: the
# name starts with "<unit>_" or "<name>_" for a <unit>/<name>.c or .h (the
# small API of that file), or with one of the unit's prefixes below.  The
# generated perfmon tables ($BUILD/host/obj/gen) are pmu/'s.
#
# The exceptions, each a whole API older than the rule and named so on purpose:
#   decode/  pebs_     the decoder's API (decode.h) is named for what it decodes
#   host/    plat_     the platform seam: lib/platform.h, defined by host/ and efi/
#   lib/     pp_ strbuf_ cpu_   fmt.h's printf and string buffer, cpurun.h (cpu_run, cpu_post, ...)
#
# The check can fail: an object with an unprefixed export must be refused.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}

declare -A extra=([decode]="pebs_" [host]="plat_" [lib]="pp_ strbuf_ cpu_")

# check OBJROOT SRCROOT: one "unit/file.o: name" line per unprefixed export.
check() {
	local objroot=$1 srcroot=$2 o rel unit src allowed s p ok
	while IFS= read -r -d '' o; do
		rel=${o#"$objroot"/}
		unit=${rel%%/*}
		if [ "$unit" = gen ]; then
			unit=pmu
		else
			src=$srcroot/${rel%.o}.c
			[ -e "$src" ] || continue # left behind by a move
		fi
		allowed="${unit}_ ${extra[$unit]:-}"
		for f in "$srcroot/$unit"/*.c "$srcroot/$unit"/*.h; do
			[ -e "$f" ] || continue
			f=${f##*/}
			allowed="$allowed ${f%.*}_"
		done
		while read -r s; do
			ok=false
			for p in $allowed; do
				case $s in "$p"*) ok=true && break ;; esac
			done
			$ok || echo "$rel: $s"
		done < <(nm --defined-only -g "$o" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDRBCW]$/ { print $3 }')
	done < <(find "$objroot" -name '*.o' -print0 | sort -z)
}

if [ ! -d "$BUILD/host/obj" ]; then
	echo "FAIL: prefixes: $BUILD/host/obj is missing (make BUILD=$BUILD host)"
	exit 1
fi

# The check can fail: one unprefixed function in a copy of ds/'s objects.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-prefixes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/obj/ds" "$tmp/src/ds"
printf 'int ds_fine(void) { return 0; }\nint stray(void) { return 1; }\n' >"$tmp/src/ds/ds.c"
${HOST_CC:-cc} -c "$tmp/src/ds/ds.c" -o "$tmp/obj/ds/ds.o"
out=$(check "$tmp/obj" "$tmp/src")
if [ "$out" = "ds/ds.o: stray" ]; then
	echo "PASS: prefixes-can-fail: an unprefixed export is named ($out)"
else
	echo "FAIL: prefixes-can-fail: expected 'ds/ds.o: stray', got '$out'"
fi

out=$(check "$BUILD/host/obj" .)
n=$(nm --defined-only -g "$BUILD"/host/libpebsprobe.a 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDRBCW]$/' | wc -l)
if [ -z "$out" ]; then
	echo "PASS: prefixes: the host library's $n exports carry their unit's prefix"
else
	echo "FAIL: prefixes: $(echo "$out" | wc -l) exports without their unit's prefix: $(echo "$out" | head -n 30 | tr '\n' ' ')"
fi
