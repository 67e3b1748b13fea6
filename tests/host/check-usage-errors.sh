#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-usage-errors.sh - every host tool refuses a user's mistake the same
# way: exit 2, one line on stderr that names what was wrong and what is
# accepted ("accepted: ..."), nothing on stdout.  One row per mistake, for
# pebs-decode, pebs-kernels, perfmon-dump, pebs-results, pebs-report and
# pebs-matrix (run-qemu.sh's own: tests/qemu/test-exit.sh; the app's:
# tests/unit/test_app_errors.c).
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
H=$BUILD/host
for t in pebs-decode pebs-kernels perfmon-dump pebs-results pebs-report pebs-matrix; do
	if [ ! -x "$H/$t" ]; then
		echo "FAIL: usage-build: $H/$t missing (make BUILD=$BUILD host)"
		exit 0
	fi
done
T=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-usage.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir "$T/dir"
printf 'not a dump' >"$T/junk.bin"
printf '{"results_version":2}' >"$T/r.json"

# row NAME WHAT-REGEX TOOL ARGS...: exit 2, one stderr line matching
# WHAT-REGEX and "accepted: ", stdout empty.
row() {
	local name=$1 what=$2 tool=$3 rc n
	shift 3
	"$H/$tool" "$@" >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	n=$(wc -l <"$T/err")
	if [ "$rc" = 2 ] && [ "$n" = 1 ] && [ ! -s "$T/out" ] && grep -qE -- "$what" "$T/err" &&
		grep -q 'accepted: ' "$T/err"; then
		echo "PASS: $tool $name"
	else
		echo "FAIL: $tool $name: exit $rc, $n stderr lines: $(head -c 300 "$T/err" | tr '\n' '|')"
	fi
}

row bad-format "--format '7'" pebs-decode --format 7 "$T/junk.bin"
row bad-uarch "--uarch 'zen4'" pebs-decode --format 3 --uarch zen4 "$T/junk.bin"
row bad-kind "--kind 'load'" pebs-decode --format 3 --kind load "$T/junk.bin"
row bad-data-cfg "--data-cfg 'zz': not a number" pebs-decode --format 4 --data-cfg zz "$T/junk.bin"
row big-data-cfg "--data-cfg '0x1ffffffffffffffff': out of range" pebs-decode --format 4 --data-cfg 0x1ffffffffffffffff "$T/junk.bin"
row bad-pebs-enabled "--pebs-enabled 'x': not a number" pebs-decode --format 4 --pebs-enabled x "$T/junk.bin"
row negative-pebs-enabled "--pebs-enabled '-1': out of range" pebs-decode --format 4 --pebs-enabled -1 "$T/junk.bin"
row bad-output "--output 'xml'" pebs-decode --format 3 --output xml "$T/junk.bin"
row unknown-option "unknown option '--frob'" pebs-decode --frob "$T/junk.bin"
row no-file "no FILE given" pebs-decode --format 3
row missing-value "option '--uarch' needs a value" pebs-decode --format 3 --uarch
row two-files "more than one FILE" pebs-decode "$T/junk.bin" "$T/junk.bin"
row missing-file "nonexistent.bin: No such file" pebs-decode --format 3 "$T/nonexistent.bin"
row directory "is a directory" pebs-decode --format 3 "$T/dir"
row not-a-dump "junk.bin: offset 0x0: not a pebs dump .*--format" pebs-decode "$T/junk.bin"
row empty-stdin "stdin: offset 0x0: not a pebs dump" pebs-decode -

# --uarch's accepted list: every generation of enum pebs_uarch (lib/types.h),
# each one a name --uarch takes, none left out and none extra.
want=$(sed -n 's/^\tUARCH_\([A-Z0-9]*\)\b.*/\1/p' lib/types.h | tr 'A-Z' 'a-z' |
	grep -vx 'none\|count' | sort | tr '\n' ' ')
got=$("$H/pebs-decode" --format 3 --uarch zen4 "$T/junk.bin" 2>&1 |
	sed -n 's/.*(accepted: \(.*\))$/\1/p' | tr ' ' '\n' | sort | tr '\n' ' ')
refused=
for u in $got; do
	"$H/pebs-decode" --format 3 --uarch "$u" "$T/junk.bin" >/dev/null 2>&1
	[ $? = 2 ] && refused="$refused $u"
done
if [ -n "$want" ] && [ "$got" = "$want" ] && [ -z "$refused" ]; then
	echo "PASS: pebs-decode uarch-list: --uarch names every enum pebs_uarch generation"
else
	echo "FAIL: pebs-decode uarch-list: accepted '$got', enum pebs_uarch '$want', refused '$refused'"
fi

row no-value "--size needs a value" pebs-kernels chase-l1 --size
row bad-size "--size: '3X' is not a number" pebs-kernels chase-l1 --size 3X
row big-size "--size: '2G' is out of range" pebs-kernels chase-l1 --size 2G
row overflow-size "--size: '99999999999999999999' is out of range" pebs-kernels chase-l1 --size 99999999999999999999
row bad-iterations "--iterations: '0' is out of range" pebs-kernels chase-l1 --iterations 0
row bad-passes "--passes: 'x' is not a number" pebs-kernels chase-l1 --passes x
row unknown-option "unknown option '--frob'" pebs-kernels chase-l1 --frob
row unknown-kernel "unknown kernel 'nope'" pebs-kernels nope
row two-kernels "one kernel at a time" pebs-kernels chase-l1 chase-l2
row no-kernel "no kernel named" pebs-kernels
row below-minimum "--size: '4K' is out of range, below the kernel's minimum" pebs-kernels chase-dram --size 4K

row unknown-table "no table 'nope'" perfmon-dump nope
row unknown-option "unknown option '--frob'" perfmon-dump --frob

row unknown-option "unknown option '--frob'" pebs-results --frob "$T/r.json"
row no-file "expected one results file, got 0" pebs-results --tap
row two-outputs "write to stdout" pebs-results --tap --junit - "$T/r.json"
row takes-no-value "option --tap takes no value" pebs-results --tap=1 "$T/r.json"
row twice "option --median-pct given twice" pebs-results --median-pct 5 --median-pct 6 "$T/r.json"
row bad-number "option --median-pct: 'x' is not a number" pebs-results --median-pct x "$T/r.json"
row out-of-range "option --median-pct: 0 is out of range" pebs-results --median-pct 0 "$T/r.json"
row not-json "junk.bin: not JSON" pebs-results --tap "$T/junk.bin"
row directory "is a directory" pebs-results --tap "$T/dir"

row no-output "missing -o FILE" pebs-report "$T/r.json"
row no-input "no results file" pebs-report -o "$T/x.html"
row output-is-input "is one of the inputs" pebs-report -o "$T/r.json" "$T/r.json"

row unknown-option "unknown option '--frob'" pebs-matrix --frob
row no-entry "no entry matches" pebs-matrix --list nope
row bad-jobs "option -j: 'x' is not a number" pebs-matrix -j x --list
exit 0
