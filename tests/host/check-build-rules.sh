#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-build-rules.sh - the build changes nothing it was not asked to:
# make check's recipe only checks for packages (tools/deps.sh --no-install;
# .ci/run installs them first), and no $(shell ...) runs a program while
# make reads the Makefiles but `git describe` (the version).  The check can
# fail: copies with a find and an installing deps.sh are refused.
set -u
cd "$(dirname "$0")/../.."

# shells FILE...: the $(shell) calls other than git describe, one a line.
shells() {
	grep -nH '\$(shell' "$@" | grep -v '\$(shell git describe '
}
# installs MAKEFILE: the deps.sh lines make check's recipe would run that may install.
installs() {
	awk '/^check:/ { on = 1; next } on && !/^\t/ { exit } on' "$1" |
		grep 'deps\.sh' | grep -v -- '--no-install'
}

mks=(Makefile $(git ls-files '*.mk'))
out=$(shells "${mks[@]}")
if [ -z "$out" ]; then
	echo "PASS: build-rules: no \$(shell) but git describe while make reads ${#mks[@]} files"
else
	echo "FAIL: build-rules: \$(shell) at parse time: $(echo "$out" | tr '\n' ' ')"
fi
out=$(installs Makefile)
if [ -z "$out" ] && grep -q 'deps\.sh --no-install check' Makefile; then
	echo "PASS: build-rules: make check runs tools/deps.sh --no-install (installs nothing)"
else
	echo "FAIL: build-rules: make check's recipe may install packages: '$out'"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-buildrules.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'V := $(shell git describe --always)\n-include $(shell find build -name "*.d")\ncheck:\n\ttools/deps.sh check\n' >"$tmp/Makefile"
a=$(shells "$tmp/Makefile" | wc -l) b=$(installs "$tmp/Makefile" | wc -l)
if [ "$a" = 1 ] && [ "$b" = 1 ]; then
	echo "PASS: build-rules-can-fail: a find at parse time and an installing check are found"
else
	echo "FAIL: build-rules-can-fail: found $a \$(shell) and $b installing lines, not 1 and 1"
fi
