#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-format.sh - no clang-format drift: every tracked .c and .h file is
# as .clang-format lays it out (clang-format --dry-run -Werror).  Tables
# laid out for reading sit between /* clang-format off */ and on.  To fix:
#   git ls-files '*.c' '*.h' | xargs clang-format -i
# The layout depends on the clang-format version: the tree follows Debian
# 12's (clang-format 14, tools/deps.sh).
set -u
cd "$(dirname "$0")/../.."

if ! command -v clang-format >/dev/null 2>&1; then
	echo "FAIL: format: clang-format is missing (tools/deps.sh installs it)"
	exit 1
fi
echo "INFO: $(clang-format --version)"
STYLE="clang-format --dry-run -Werror"
. tests/host/style.sh
# The check can fail: a file off the layout (two spaces, no tab) must be refused.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-format.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp .clang-format "$tmp/"
printf 'int f(void)\n{\n  return  0;\n}\n' >"$tmp/drift.c"
style_can_fail format "$tmp/drift.c"
style_files format ".c and .h files (as .clang-format lays them out)" '*.c' '*.h'
