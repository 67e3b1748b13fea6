#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-layers.sh - every #include and every call goes down the layers,
# never up (docs/ARCHITECTURE.md, "Layers").
#
#   tools/check-layers.sh [OBJDIR...]
#
# The layer order is read from docs/ARCHITECTURE.md: the fenced block after
# the line "<!-- layers: ... -->", one line per layer, highest first, each
# "N  unit/ unit/  words".  A unit may include and call its own layer and
# the layers below it.
#
# 1. Includes: every #include "..." in the units' .c and .h files is
#    resolved (beside the file, else from the top of the tree, as -I. does)
#    and its unit's layer compared with the including file's.
# 2. Calls: for each OBJDIR (default: $BUILD/host/obj and $BUILD/efi, where
#    they exist) laid out as OBJDIR/<unit>/<file>.o, every symbol an object
#    leaves undefined must be defined in its own layer or below, or nowhere
#    in the tree (the C library, gnu-efi, cmocka).  The exception is the
#    seam: the functions lib/platform.h declares, which efi/ and host/
#    define for the units below them.  (The app's C library, lib/efi_libc.c,
#    lies below its callers.)  Objects whose source is gone (left behind by
#    a move) are not read.
#
# 3. Within a unit of ONE_WAY_UNITS, the files call one way: the calls
#    between its objects form no loop (tsort finds one), so each file can
#    be read with only the files below it (issue: job/cpus.c and
#    job/outcome.c called each other).
#
# Each broken rule is one line "FILE:LINE: ..." (includes) or
# "OBJECT: ..." (calls) naming the rule; exit 1 if any, 0 otherwise.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
doc=docs/ARCHITECTURE.md

declare -A layer
order=()
while read -r n rest; do
	for w in $rest; do
		case $w in
		*/) layer[${w%/}]=$n order+=("${w%/}") ;;
		*) break ;;
		esac
	done
done < <(awk '/^<!-- layers:/ { want = 1; next }
	want && /^```/ { if (inside) exit; inside = 1; next }
	inside && /^ *[0-9]+ / { print }' "$doc")
if [ ${#order[@]} -eq 0 ]; then
	echo "check-layers: no layer block in $doc (a \"<!-- layers: -->\" line, then a fenced block)" >&2
	exit 2
fi

# The units whose files call one way (3. above).
ONE_WAY_UNITS="job"

bad=0
rule() { # where what
	echo "$1: $2"
	bad=$((bad + 1))
}
name() { echo "${1}/ (layer ${layer[$1]})"; }

# --- 1. includes ---------------------------------------------------------------
for unit in "${order[@]}"; do
	[ -d "$unit" ] || continue
	while IFS= read -r -d '' f; do
		dir=$(dirname "$f")
		while IFS=: read -r line inc; do
			if [ -e "$dir/$inc" ]; then
				target=$(realpath -m --relative-to=. "$dir/$inc")
			elif [ -e "$inc" ]; then
				target=$(realpath -m --relative-to=. "$inc")
			else
				rule "$f:$line" "includes \"$inc\", which is not in the tree"
				continue
			fi
			to=${target%%/*}
			[ "$to" = "$target" ] && to=.
			if [ -z "${layer[$to]+x}" ]; then
				rule "$f:$line" "includes $target, which is in no layer: $(name "$unit") may include only the units of docs/ARCHITECTURE.md's layers"
			elif [ "${layer[$to]}" -gt "${layer[$unit]}" ]; then
				rule "$f:$line" "includes $target: $(name "$unit") may not include $(name "$to"); includes go down the layers"
			fi
		done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
			sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
	done < <(find "$unit" -type f \( -name '*.c' -o -name '*.h' \) -print0 | sort -z)
done

# --- 2. calls --------------------------------------------------------------------
# The seam: lib/platform.h's functions.
seam=$(grep -oE '\bplat_[a-z0-9_]+\(' lib/platform.h | tr -d '(' | sort -u)
is_seam() { grep -qx "$1" <<<"$seam"; }

objdirs=("$@")
if [ ${#objdirs[@]} -eq 0 ]; then
	for d in "$BUILD/host/obj" "$BUILD/efi"; do
		[ -d "$d" ] && objdirs+=("$d")
	done
fi
for od in "${objdirs[@]}"; do
	declare -A def=()
	objs=()
	for unit in "${order[@]}" gen; do
		[ -d "$od/$unit" ] || continue
		while IFS= read -r -d '' o; do
			rel=${o#"$od"/}
			if [ "$unit" = gen ]; then
				src=$BUILD/gen/${rel#gen/}
			else
				src=$rel
			fi
			[ -e "${src%.o}.c" ] || continue # left behind by a move
			objs+=("$o")
		done < <(find "$od/$unit" -name '*.o' -print0 | sort -z)
	done
	# The generated perfmon tables are pmu/'s (tools/perfmon-gen.py, pmu/perfmon_data.h).
	unit_of() {
		local u=${1#"$od"/}
		u=${u%%/*}
		[ "$u" = gen ] && u=pmu
		echo "$u"
	}
	for o in "${objs[@]}"; do
		u=$(unit_of "$o")
		while read -r s; do
			def[$s]=$u
		done < <(nm --defined-only -g "$o" 2>/dev/null | awk 'NF == 3 { print $3 }')
	done
	for o in "${objs[@]}"; do
		u=$(unit_of "$o")
		while read -r s; do
			d=${def[$s]:-}
			[ -n "$d" ] || continue # the C library, gnu-efi, cmocka
			[ "${layer[$d]}" -le "${layer[$u]}" ] && continue
			is_seam "$s" && continue
			rule "$o" "calls $s, defined in $(name "$d"): $(name "$u") may call only its own layer and below (the seam lib/platform.h excepted)"
		done < <(nm -u "$o" 2>/dev/null | awk '{ print $NF }')
	done
	# 3. one way within a unit: "caller callee" pairs of its objects, for tsort
	for u in $ONE_WAY_UNITS; do
		declare -A own=()
		for o in "${objs[@]}"; do
			[ "$(unit_of "$o")" = "$u" ] || continue
			while read -r s; do
				own[$s]=$(basename "$o" .o)
			done < <(nm --defined-only -g "$o" 2>/dev/null | awk 'NF == 3 { print $3 }')
		done
		pairs=$(for o in "${objs[@]}"; do
			[ "$(unit_of "$o")" = "$u" ] || continue
			f=$(basename "$o" .o)
			while read -r s; do
				t=${own[$s]:-}
				[ -n "$t" ] && [ "$t" != "$f" ] && echo "$f $t"
			done < <(nm -u "$o" 2>/dev/null | awk '{ print $NF }')
		done | sort -u)
		if loop=$(tsort <<<"$pairs" 2>&1 >/dev/null | sed -n 's/^tsort: //p' |
			grep -v 'input contains a loop' | tr '\n' ' ') && [ -n "$loop" ]; then
			rule "$od/$u" "its files call each other in a loop (${loop% }): the files of $u/ call one way (ONE_WAY_UNITS)"
		fi
		unset own
	done
	unset def
done

if [ "$bad" -gt 0 ]; then
	echo "check-layers: $bad upward dependencies or loops (the layers: docs/ARCHITECTURE.md)"
	exit 1
fi
exit 0
