#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-prefixes.sh - every function and object the host library exports
# (nm of $BUILD/host/obj/<unit>/<file>.o) says where it lives: its name
# starts with
#   <unit>_        the unit's own prefix (job_, pmu_, ...), or
#   <file>_        its own file's name (pmu/handoff.c: handoff_), or
#   <api>_         for a <unit>/<api>_<part>.c, the API <unit>/<api>.h it
#                  implements part of (pmu/plan_counters.c: plan_),
# or it is one of the documented API exceptions below.  A bare <file>_ or
# <api>_ prefix belongs to the lowest unit (docs/ARCHITECTURE.md's layers)
# with a file of that name: job/handoff.c's exports are job_handoff_,
# pmu/handoff.c's handoff_.  The generated perfmon tables ($BUILD/host/obj/gen)
# are pmu/perfmon's.
#
# The exceptions, each a whole API named so on purpose:
#   decode/*           pebs_          the decoder's API (decode.h) is named for what it decodes
#   host/*             plat_          the platform seam lib/platform.h (host/ and efi/ define it)
#   lib/fmt.c          pp_ strbuf_    freestanding printf (pp_*) and the string buffer
#   kernels/kernels.c  kernel_ kbody_ the kernels' API kernel.h, the bodies of kbody.h
#
# The check can fail: a planted stray and a planted collision are refused.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}

declare -A unit_extra=([decode]="pebs_" [host]="plat_")
declare -A file_extra=([lib/fmt]="pp_ strbuf_" [kernels/kernels]="kernel_ kbody_")

# The layer of each unit, highest first in the block (as tools/check-layers.sh reads it).
declare -A layer
while read -r n rest; do
	for w in $rest; do
		case $w in */) layer[${w%/}]=$n ;; *) break ;; esac
	done
done < <(awk '/^<!-- layers:/ { want = 1; next }
	want && /^```/ { if (inside) exit; inside = 1; next }
	inside && /^ *[0-9]+ / { print }' docs/ARCHITECTURE.md)

# owner SRCROOT NAME: the lowest unit with a NAME.c or NAME.h.
owner() {
	local best= bl=99 u
	for u in "${!layer[@]}"; do
		if [ -e "$1/$u/$2.c" ] || [ -e "$1/$u/$2.h" ]; then
			if [ "${layer[$u]}" -lt "$bl" ]; then bl=${layer[$u]} best=$u; fi
		fi
	done
	echo "$best"
}

# check OBJROOT SRCROOT: one "unit/file.o: name" line per export that says
# nowhere where it lives.
check() {
	local objroot=$1 srcroot=$2 o rel unit stem allowed s p ok api
	while IFS= read -r -d '' o; do
		rel=${o#"$objroot"/}
		unit=${rel%%/*}
		stem=${rel#*/}
		stem=${stem%.o}
		if [ "$unit" = gen ]; then
			unit=pmu stem=perfmon
		else
			[ -e "$srcroot/${rel%.o}.c" ] || continue # left behind by a move
		fi
		allowed="${unit}_ ${unit_extra[$unit]:-} ${file_extra[$unit/$stem]:-}"
		[ "$(owner "$srcroot" "$stem")" = "$unit" ] && allowed="$allowed ${stem}_"
		api=${stem%%_*}
		if [ "$api" != "$stem" ] && [ -e "$srcroot/$unit/$api.h" ] &&
			[ "$(owner "$srcroot" "$api")" = "$unit" ]; then
			allowed="$allowed ${api}_"
		fi
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

# The check can fail: an export named for no file (ds/ds.c: stray), and one
# named for a file of a lower unit (job/handoff.c: handoff_x, pmu/ has a
# handoff.c), in copies of small objects.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-prefixes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/obj/ds" "$tmp/src/ds" "$tmp/obj/job" "$tmp/src/job" "$tmp/src/pmu"
printf 'int ds_fine(void) { return 0; }\nint stray(void) { return 1; }\n' >"$tmp/src/ds/ds.c"
printf 'int job_handoff_fine(void) { return 0; }\nint handoff_x(void) { return 1; }\n' \
	>"$tmp/src/job/handoff.c"
: >"$tmp/src/pmu/handoff.c"
${HOST_CC:-cc} -c "$tmp/src/ds/ds.c" -o "$tmp/obj/ds/ds.o"
${HOST_CC:-cc} -c "$tmp/src/job/handoff.c" -o "$tmp/obj/job/handoff.o"
out=$(check "$tmp/obj" "$tmp/src" | tr '\n' ' ')
if [ "$out" = "ds/ds.o: stray job/handoff.o: handoff_x " ]; then
	echo "PASS: prefixes-can-fail: a stray and a lower unit's file prefix are named ($out)"
else
	echo "FAIL: prefixes-can-fail: expected 'ds/ds.o: stray job/handoff.o: handoff_x', got '$out'"
fi

out=$(check "$BUILD/host/obj" .)
n=$(nm --defined-only -g "$BUILD"/host/libpebsprobe.a 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDRBCW]$/' | wc -l)
if [ -z "$out" ]; then
	echo "PASS: prefixes: the host library's $n exports say where they live"
else
	echo "FAIL: prefixes: $(echo "$out" | wc -l) exports named for no file of theirs: $(echo "$out" | head -n 30 | tr '\n' ' ')"
fi
