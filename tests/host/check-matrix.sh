#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-matrix.sh - build/host/pebs-matrix, the run matrix runner, on a
# four-entry matrix (tests/matrix/check_matrix.py): parallel runs, a
# non-zero expected status, a wrong expectation reported as FAIL, the
# summary table, and JUnit checked against each entry's console.
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
if ! make -s BUILD="$BUILD" esp "$BUILD/host/pebs-matrix" >/dev/null 2>&1; then
	echo "FAIL: check-matrix: make esp $BUILD/host/pebs-matrix failed"
	exit 1
fi
exec /usr/bin/python3 tests/matrix/check_matrix.py "$BUILD"
