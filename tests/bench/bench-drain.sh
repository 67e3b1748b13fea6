#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench-drain.sh - the app's work per record after a drain (append, decode,
# statistics: tests/bench/bench_drain.c) in TSC ticks, built with the UEFI
# build's flags and lib/efi_libc.c (bench-drain-efi) and as a plain host
# program with glibc (bench-drain-host), for format-3 and adaptive (fmt4)
# records.  Each program prints the median of 21 timed rounds; the two run
# in turn BENCH_ROUNDS times (default 5) and the medians are shown with
# their ratio.  Target: <= 150 ticks per record in the EFI build.
. "$(dirname "$0")/lib.sh"
E=$BUILD/bench/bench-drain-efi H=$BUILD/bench/bench-drain-host
if [ ! -x "$E" ] || [ ! -x "$H" ]; then
	echo "bench-drain: $E or $H missing (make BUILD=$BUILD bench)"
	exit 1
fi
rc=0
echo "bench drain: TSC ticks per record, medians of $ROUNDS interleaved runs"
for f in fmt3 fmt4; do
	e=() h=()
	for _ in $(seq "$ROUNDS"); do
		v=$("$E" "$f") || rc=1
		e+=("$v")
		v=$("$H" "$f") || rc=1
		h+=("$v")
	done
	me=$(median "${e[@]}") mh=$(median "${h[@]}")
	echo "  $f: EFI build $me ticks/record (runs: ${e[*]}), host build $mh, EFI/host $(ratio "$me" "$mh")"
	target "EFI drain+decode+statistics ($f)" "$me" "<=" 150 " ticks"
done
exit $rc
