#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-version-rebuild.sh - a new version (a commit) rebuilds what prints
# it.  The version reaches the code as a -D flag (PP_VERSION), which make
# cannot see change; without the Makefile's version stamp an incremental
# build after a commit keeps the old banner and results.json "pebsprobe".
# Builds one object twice, into a scratch build folder, with two versions.
set -u
cd "$(dirname "$0")/../.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-version.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
users=$(grep -l PP_VERSION */*.c)
if [ -z "$users" ]; then
	echo "FAIL: version-rebuild: no source uses PP_VERSION"
	exit 1
fi
for src in $users; do
	case $src in efi/*) dir=efi ;; *) dir=host/obj ;; esac
	obj=$tmp/b/$dir/${src%.c}.o
	ok=1
	for v in pp-version-one pp-version-two; do
		if ! out=$(make -s BUILD="$tmp/b" VERSION=$v "$obj" 2>&1); then
			echo "FAIL: version-rebuild: $src: make $obj with VERSION=$v: $out"
			ok=0
			break
		fi
		if ! strings "$obj" | grep -qx "$v"; then
			echo "FAIL: version-rebuild: $src: built with VERSION=$v, the object still says" \
				"$(strings "$obj" | grep -m1 '^pp-version-' || echo 'no version')"
			ok=0
			break
		fi
	done
	[ $ok = 1 ] && echo "PASS: version-rebuild: $src follows a new version"
done
exit 0
