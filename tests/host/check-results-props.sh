#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-results-props.sh - the property test of the results readers
# (tests/results/check_props.py, docs/FUZZING.md): pebs-results and
# pebs-report on documents hypothesis makes, valid and broken, write their
# output or exit 2 with one line; and the test catches a broken reader.
set -u
cd "$(dirname "$0")/../.." || exit 1
if ! /usr/bin/python3 -c 'import hypothesis' 2>/dev/null; then
	echo "FAIL: results-readers-property: python3-hypothesis missing (tools/deps.sh check)"
	exit 1
fi
exec /usr/bin/python3 tests/results/check_props.py
