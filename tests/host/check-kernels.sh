#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-kernels.sh - build/host/pebs-kernels: its output format, its sweep,
# and one clear error line with exit status 2 for each kind of bad usage.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tool=$BUILD/host/pebs-kernels
T=$(mktemp)
trap 'rm -f "$T" "$T.err"' EXIT

if [ ! -x "$tool" ]; then
	echo "FAIL: pebs-kernels: $tool not built (make BUILD=$BUILD host)"
	exit 1
fi

line_re='^[0-9]+\.[0-9]{5} [0-9]+\.[0-9]{3}$'

# One size: one line, the size in MiB with 5 decimals.
out=$("$tool" chase --size 64K --iterations 100000 2>/dev/null)
rc=$?
if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	printf '%s\n' "$out" | grep -Eq "$line_re" &&
	[ "${out%% *}" = "0.06250" ]; then
	echo "PASS: pebs-kernels chase --size 64K: $out"
else
	echo "FAIL: pebs-kernels chase --size 64K: rc=$rc output '$out'"
fi

# --cycles: a third column, core cycles per access (Linux perf), or "-" with
# one line on stderr naming why where this process has no PMU.
out=$("$tool" chase-l1 --size 16K --iterations 100000 --cycles 2>"$T.err")
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -Eq '^0\.01562 [0-9]+\.[0-9]{3} ([0-9]+\.[0-9]{2}|-)$' &&
	{ [ "${out##* }" != "-" ] || grep -q -- '--cycles: perf_event_open: ' "$T.err"; }; then
	echo "PASS: pebs-kernels --cycles: $out"
else
	echo "FAIL: pebs-kernels --cycles: rc=$rc output '$out' $(tail -1 "$T.err")"
fi

# The sweep: 4K, 8K, ... --max, in order, every line well formed.
out=$("$tool" chase --max 256K --iterations 20000 2>/dev/null)
rc=$?
sizes=$(printf '%s\n' "$out" | awk '{print $1}' | tr '\n' ' ')
want="0.00391 0.00781 0.01562 0.03125 0.06250 0.12500 0.25000 "
if [ $rc -eq 0 ] && [ "$sizes" = "$want" ] &&
	[ "$(printf '%s\n' "$out" | grep -Ecv "$line_re")" -eq 0 ]; then
	echo "PASS: pebs-kernels sweep 4K..256K: 7 sizes"
else
	echo "FAIL: pebs-kernels sweep 4K..256K: rc=$rc sizes '$sizes' (want '$want')"
fi

# Every kernel runs on Linux (the two-core ones need 2 CPUs).
ncpu=$(getconf _NPROCESSORS_ONLN)
for k in $("$tool" --list | awk '{print $1}'); do
	case $k in
	share-hitm | false-share)
		if [ "$ncpu" -lt 2 ]; then
			echo "SKIP: pebs-kernels $k: needs 2 CPUs, $ncpu online"
			continue
		fi ;;
	esac
	size="--size 64K"
	case $k in
	chase-dram | page-walk) size="--size 16M" ;;
	esac
	out=$("$tool" "$k" $size --iterations 20000 2>&1 >/dev/null)
	rc=$?
	res=$("$tool" "$k" $size --iterations 20000 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$(printf '%s\n' "$res" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$res" | grep -Eq "$line_re"; then
		echo "PASS: pebs-kernels $k: $res"
	else
		echo "FAIL: pebs-kernels $k: rc=$rc '$res' $out"
	fi
done

# Bad usage: exit 2 and exactly one stderr line naming the problem and what is accepted.
bad() { # name expected-words args...
	local name=$1 words=$2 err rc
	shift 2
	err=$("$tool" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
		printf '%s\n' "$err" | grep -q -- "$words" &&
		printf '%s\n' "$err" | grep -q "accepted: "; then
		echo "PASS: pebs-kernels usage: $name"
	else
		echo "FAIL: pebs-kernels usage: $name: rc=$rc stderr '$err'"
	fi
}
bad "unknown kernel" "unknown kernel 'nosuch'" nosuch
bad "no kernel" "no kernel named"
bad "bad size" "--size: '12Q' is not a number" chase --size 12Q
bad "size too big" "--size: '2G' is out of range" chase --size 2G
bad "size missing" "--size needs a value" chase --size
bad "size below minimum" "'4K' is out of range, below the kernel's minimum" 4k-alias --size 4K
bad "bad iterations" "--iterations: 'x' is not a number" chase --iterations x
bad "bad passes" "--passes: '0' is out of range" chase --passes 0
bad "unknown option" "unknown option '--frob'" chase --frob
bad "two kernels" "one kernel at a time" chase lock
bad "size= empty" "--size needs a value" chase --size=
# --help: the usage on stdout, exit 0; --size=16K is --size 16K.
out=$("$tool" --help 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^usage: pebs-kernels KERNEL ' &&
	printf '%s\n' "$out" | grep -q 'chase-l1'; then
	echo "PASS: pebs-kernels --help: usage and the kernels, exit 0"
else
	echo "FAIL: pebs-kernels --help: rc=$rc '$(printf '%s\n' "$out" | head -2)'"
fi
out=$("$tool" chase --size=16K 2>&1)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -qE '^0\.01562 [0-9]+\.[0-9]{3}$'; then
	echo "PASS: pebs-kernels --size=16K: one line, $out"
else
	echo "FAIL: pebs-kernels --size=16K: '$out'"
fi
# --passes: the best of N timed passes, still one line per size
out=$("$tool" chase --size 16K --passes 3 2>/dev/null)
if [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -qE '^0\.01562 [0-9]+\.[0-9]{3}$'; then
	echo "PASS: pebs-kernels --passes 3: one line, $out"
else
	echo "FAIL: pebs-kernels --passes 3: '$out'"
fi
