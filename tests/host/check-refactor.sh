#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-refactor.sh [BASE] - the house-keeping changes kept the behaviour:
# the same job on the simulator, built from BASE (a pinned revision from
# before them) and from this tree, gives the same exit status, the same
# (verdict, CPU, outcome) set and the same results.json keys per object
# (tests/refactor/compare.py).  Cases as run-qemu.sh's boots: the default
# (one CPU, no options) and --smp 4 -- model=ptl.  BASE is unpacked with
# git archive into $BUILD/refactor/ and its host library built there once
# (half a minute on two busy cores; later runs reuse it).  In `make check`,
# and alone as `make check-refactor`.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
# 3225a8c: main before the round of changes of docs/ARCHITECTURE.md's split
# (build lists, generation tables, plan tests as tables, flavour files).
BASE=${1:-3225a8cfd600f3f60f714c5b2ae067624d0a79c5}
CFLAGS="-std=gnu11 -O2 -Wall -Wextra -Werror -DPP_HOST"

# name  CPUs  options
CASES="default 1 -
ptl-smp4 4 model=ptl"

if ! full=$(git rev-parse -q --verify "$BASE^{commit}" 2>/dev/null); then
	echo "SKIP: refactor: no git history with $BASE here (a tarball?): nothing to compare with"
	exit 0
fi
[ -f "$BUILD/host/libpebsprobe.a" ] || {
	echo "FAIL: refactor: $BUILD/host/libpebsprobe.a is missing: build it first (make host)"
	exit 1
}
work=$BUILD/refactor
base=$work/base-$full
if [ ! -f "$base/build/host/libpebsprobe.a" ]; then
	rm -rf "$base" && mkdir -p "$base"
	git archive "$full" | tar -x -C "$base"
	if ! make -C "$base" -j2 host >"$work/base-build.log" 2>&1; then
		echo "FAIL: refactor: the baseline's host library did not build" \
			"($work/base-build.log: $(tail -n 1 "$work/base-build.log"))"
		exit 1
	fi
	# The Makefile includes every *.d under $(BUILD): the baseline's would
	# add its own headers to this tree's objects.
	find "$base" -name '*.d' -delete
fi

# One side: sim_run built against tree $1's library, every case run into $2.
side() {
	local tree=$1 out=$2 name cpus opts
	rm -rf "$out" && mkdir -p "$out"
	# shellcheck disable=SC2086
	cc $CFLAGS -I"$tree" -I"$tree/build/gen" tests/refactor/sim_run.c \
		"$tree/build/host/libpebsprobe.a" -lm -lpthread -o "$out/sim_run" || return 1
	while read -r name cpus opts; do
		[ "$opts" = - ] && opts=
		mkdir -p "$out/$name"
		# shellcheck disable=SC2086
		(cd "$out/$name" && PEBSPROBE_OUT=. PEBSPROBE_HOST_CPUS=$cpus \
			timeout 600 ../sim_run $opts >console.txt 2>&1
		echo $? >rc)
	done <<<"$CASES"
}
side "$base" "$work/old" || { echo "FAIL: refactor: sim_run does not build against $BASE"; exit 1; }
side . "$work/new" || { echo "FAIL: refactor: sim_run does not build against this tree"; exit 1; }
# shellcheck disable=SC2046
python3 tests/refactor/compare.py "$work/old" "$work/new" $(echo "$CASES" | cut -d' ' -f1)
