#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# test-results-tools.sh - pebs-results and pebs-report on the results.json
# the app writes now (nhm: SKIPs and the offcore contrast run; glm: its
# non-precise samplings): JUnit against the console's verdicts of the same
# boot (tests/results/check_live.py).
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
if ! make -s BUILD="$BUILD" esp "$BUILD/host/pebs-results" "$BUILD/host/pebs-report" >/dev/null 2>&1; then
	echo "FAIL: results-tools: build failed"
	exit 1
fi
exec /usr/bin/python3 tests/results/check_live.py "$BUILD" nhm glm
