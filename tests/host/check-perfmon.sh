#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-perfmon.sh - the perfmon tables (data/perfmon -> tools/perfmon-gen.py
# -> pmu/perfmon.h), checked from outside:
#   - tools/perfmon-import.py on the pinned perfmon copy (../shared/perfmon)
#     reproduces data/perfmon byte for byte;
#   - every event of every table, read through the C API (perfmon-dump),
#     equals tests/host/perfmon-check.py's own reading of the JSON, field by
#     field, and that comparison does fail on a changed value;
#   - every mapfile.csv row resolves to its file through the C API, and CPUs
#     no row fits resolve to none;
#   - the generator and the importer stop, naming the problem, on a spelling
#     or a field they do not know.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
dump=$BUILD/host/perfmon-dump
check=tests/host/perfmon-check.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [ ! -x "$dump" ]; then
	echo "FAIL: perfmon: $dump not built (make BUILD=$BUILD host)"
	exit 1
fi

# 1. The import is reproducible from the pinned copy.
if [ -d ../shared/perfmon ]; then
	if out=$(tools/perfmon-import.py ../shared/perfmon --out "$T/import" 2>&1) &&
		diff -r data/perfmon "$T/import" >"$T/import.diff" 2>&1; then
		echo "PASS: perfmon-import ../shared/perfmon gives data/perfmon unchanged"
	else
		echo "FAIL: perfmon-import ../shared/perfmon differs from data/perfmon: $out" \
			"$(head -5 "$T/import.diff")"
	fi
else
	echo "SKIP: perfmon-import reproducibility: ../shared/perfmon (the pinned perfmon" \
		"copy beside the clone) is not there to import from"
fi

# 2. Every event, through the C API, against an independent reading of
# data/perfmon, and of the pinned perfmon files themselves where they are
# (so an importer that dropped or changed something is caught too).
"$dump" --tables >"$T/tables" && "$dump" >"$T/dump"
python3 "$check" events data/perfmon "$T/tables" "$T/dump"
if [ -d ../shared/perfmon ]; then
	python3 "$check" events ../shared/perfmon "$T/tables" "$T/dump" >"$T/upstream.out"
	n=$(grep -c '^PASS: ' "$T/upstream.out")
	if grep -q '^FAIL: ' "$T/upstream.out"; then
		sed 's/^FAIL: perfmon round trip/FAIL: perfmon round trip (pinned files)/' "$T/upstream.out" | grep '^FAIL: '
	else
		echo "PASS: perfmon round trip against the pinned files in ../shared/perfmon: $n tables"
	fi
else
	echo "SKIP: perfmon round trip against the pinned files: ../shared/perfmon is not there"
fi

# The comparison notices a changed value (here one PEBS counter list).
line=$(grep -n 'MEM_TRANS_RETIRED.LOAD_LATENCY_GT_32' "$T/dump" | tail -1 | cut -d: -f1)
sed "${line}s/pebs_counters=gp:0x/pebs_counters=gp:0x1/" "$T/dump" >"$T/dump.bad"
if python3 "$check" events data/perfmon "$T/tables" "$T/dump.bad" >"$T/bad.out" 2>&1; then
	echo "FAIL: perfmon round trip: a changed PEBScounters value went unnoticed"
elif grep -q "^FAIL: .*pebs_counters is" "$T/bad.out"; then
	echo "PASS: perfmon round trip notices a changed PEBScounters value"
else
	echo "FAIL: perfmon round trip on a changed value: $(head -3 "$T/bad.out")"
fi

# The commit the tables say they come from is the one PROVENANCE.md names.
want=$(grep -oE 'commit [0-9a-f]{40}' data/perfmon/PROVENANCE.md | head -1 | cut -d' ' -f2)
got=$("$dump" --commit)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	echo "PASS: perfmon tables name commit $got"
else
	echo "FAIL: perfmon tables name commit '$got', PROVENANCE.md '$want'"
fi

# 3. The CPU-to-file map, from data/perfmon's mapfile.csv and from the
# pinned one (whose other rows, uncore and metrics, are left out).
python3 "$check" map data/perfmon >"$T/map"
cut -f1 "$T/map" | "$dump" --map >"$T/map.out"
python3 "$check" map-compare "$T/map" "$T/map.out"
if [ -d ../shared/perfmon ]; then
	python3 "$check" map ../shared/perfmon >"$T/map2"
	cut -f1 "$T/map2" | "$dump" --map >"$T/map2.out"
	python3 "$check" map-compare "$T/map2" "$T/map2.out" |
		sed 's/^\(PASS\|FAIL\): perfmon mapfile/\1: perfmon mapfile (pinned ..\/shared\/perfmon)/'
else
	echo "SKIP: perfmon mapfile (pinned): ../shared/perfmon is not there"
fi

# 4. The generator refuses what it cannot read.  A small data directory of
# three Alder Lake P-core events, then one change at a time.
mini() { # dir
	mkdir -p "$1/ADL/events"
	cp data/perfmon/PROVENANCE.md "$1/"
	grep -E '^Family-model|^GenuineIntel-6-97,.*goldencove' data/perfmon/mapfile.csv \
		>"$1/mapfile.csv"
	python3 - data/perfmon/ADL/events/alderlake_goldencove_core.json \
		"$1/ADL/events/alderlake_goldencove_core.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["Events"] = d["Events"][:3]
json.dump(d, open(sys.argv[2], "w"))
PY
}
edit() { # dir python-expression-on-d (d: the JSON document)
	python3 - "$1/ADL/events/alderlake_goldencove_core.json" "$2" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
f = d["Fields"]
exec(sys.argv[2])
json.dump(d, open(p, "w"))
PY
}
gen_rejects() { # name expected-message-part dir
	if out=$(python3 tools/perfmon-gen.py "$3" "$T/out.c" 2>&1); then
		echo "FAIL: perfmon-gen accepts $1"
	elif printf '%s' "$out" | grep -qF -- "$2"; then
		echo "PASS: perfmon-gen refuses $1: $out"
	else
		echo "FAIL: perfmon-gen on $1: '$out' does not say '$2'"
	fi
}

mini "$T/ok"
if out=$(python3 tools/perfmon-gen.py "$T/ok" "$T/ok.c" 2>&1) && grep -q 'INST_RETIRED.ANY' "$T/ok.c"; then
	echo "PASS: perfmon-gen reads the three-event sample the refusals start from"
else
	echo "FAIL: perfmon-gen on the three-event sample: $out"
fi

mini "$T/range"
edit "$T/range" 'd["Events"][2][f.index("Counter")] = "0-3"'
gen_rejects "a Counter range '0-3'" "unknown Counter spelling '0-3'" "$T/range"

mini "$T/fixed"
edit "$T/fixed" 'd["Events"][0][f.index("PEBScounters")] = "Fixed counter 0"'
gen_rejects "'Fixed counter 0' in PEBScounters" \
	"unknown PEBScounters spelling 'Fixed counter 0'" "$T/fixed"

mini "$T/wide"
edit "$T/wide" 'd["Events"][2][f.index("UMask")] = "0x1FF"'
gen_rejects "a UMask over 8 bits" "UMask: '0x1FF' does not fit 8 bits" "$T/wide"

mini "$T/pebs"
edit "$T/pebs" 'd["Events"][2][f.index("CollectPEBSRecord")] = "4"'
gen_rejects "CollectPEBSRecord 4" "CollectPEBSRecord: '4' is outside 0..3" "$T/pebs"

mini "$T/errata"
edit "$T/errata" 'd["Events"][2][f.index("Errata")] = "see note"'
gen_rejects "an Errata value that is no erratum ID" "unknown Errata spelling 'see note'" \
	"$T/errata"

mini "$T/partial"
edit "$T/partial" 'd["Events"][1][f.index("Data_LA")] = None'
gen_rejects "a field some events of a file lack" "field Data_LA is on some events" \
	"$T/partial"

mini "$T/field"
edit "$T/field" 'f.append("UMask2"); [e.append("0x00") for e in d["Events"]]'
gen_rejects "a field it does not read (UMask2)" "field 'UMask2' is not read" "$T/field"

mini "$T/glob"
sed -i 's/^GenuineIntel-6-97,/GenuineIntel-6-9*,/' "$T/glob/mapfile.csv"
gen_rejects "a mapfile pattern with '*'" "'*' cannot be expanded" "$T/glob"

mini "$T/overlap"
grep '^GenuineIntel' "$T/overlap/mapfile.csv" |
	sed 's/^GenuineIntel-6-97,/GenuineIntel-6-97-[0-3],/' >"$T/overlap.rows"
cat "$T/overlap.rows" >>"$T/overlap/mapfile.csv"
gen_rejects "a stepping row beside an any-stepping row" "overlaps" "$T/overlap"

# A character class with a range expands to each stepping: built into a
# dump tool of its own, [0-3] resolves steppings 0 to 3 and nothing else.
mini "$T/class"
sed -i 's/^GenuineIntel-6-97,/GenuineIntel-6-97-[0-3],/' "$T/class/mapfile.csv"
if python3 tools/perfmon-gen.py "$T/class" "$T/class.c" 2>"$T/class.err" &&
	${HOST_CC:-cc} -std=gnu11 -I. -DPP_HOST tools/perfmon-dump.c pmu/perfmon.c "$T/class.c" \
		-o "$T/class-dump" 2>>"$T/class.err"; then
	got=$(printf '6 0x97 %d 0x40 0x1\n' 0 3 4 15 | "$T/class-dump" --map | tr '\n' ' ')
	want="ADL/alderlake_goldencove_core.json ADL/alderlake_goldencove_core.json none none "
	if [ "$got" = "$want" ]; then
		echo "PASS: perfmon mapfile class [0-3]: steppings 0 and 3 map, 4 and 15 do not"
	else
		echo "FAIL: perfmon mapfile class [0-3]: steppings 0 3 4 15 -> '$got', want '$want'"
	fi
else
	echo "FAIL: perfmon mapfile class [0-3]: $(head -3 "$T/class.err")"
fi

# 5. The importer: a field it neither keeps nor drops stops it, and it does
# not replace a directory it did not write.
mkdir -p "$T/pm/ADL/events"
printf 'Family-model,Version,Filename,EventType,Core Type,Native Model ID,Core Role Name\n' \
	>"$T/pm/mapfile.csv"
printf 'GenuineIntel-6-97,V1,/ADL/events/x_core.json,core,,,\n' >>"$T/pm/mapfile.csv"
printf '{"Header": {"Version": "1"}, "Events": [{"EventName": "X", "UMask2": "0x00"}]}\n' \
	>"$T/pm/ADL/events/x_core.json"
cp data/perfmon/LICENSE "$T/pm/"
out=$(tools/perfmon-import.py "$T/pm" --out "$T/pm-out" --commit \
	0123456789abcdef0123456789abcdef01234567 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "field 'UMask2' is neither kept nor dropped" &&
	[ ! -e "$T/pm-out" ]; then
	echo "PASS: perfmon-import refuses an unknown field: $out"
else
	echo "FAIL: perfmon-import on an unknown field: rc=$rc '$out'"
fi

mkdir -p "$T/mine" && echo keep >"$T/mine/notes.txt"
out=$(tools/perfmon-import.py "$T/pm" --out "$T/mine" --commit \
	0123456789abcdef0123456789abcdef01234567 2>&1)
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$T/mine/notes.txt")" = keep ] &&
	printf '%s' "$out" | grep -q "not an earlier import"; then
	echo "PASS: perfmon-import leaves a directory it did not write alone: $out"
else
	echo "FAIL: perfmon-import over a foreign directory: rc=$rc '$out'"
fi
