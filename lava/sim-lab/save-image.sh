#!/bin/sh
# SPDX-License-Identifier: MIT
# save-image.sh JOBDIR LABEL DEST - a LAVA user command for make lava-check:
# copies the image a QEMU job booted (JOBDIR/*/LABEL/*, LAVA's download of
# the deploy image LABEL) to DEST before lava-run deletes JOBDIR, so that
# the results.json of that very boot can be read.
set -eu
jobdir=$1 label=$2 dest=$3
n=0
for f in "$jobdir"/*/"$label"/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	src=$f
done
if [ "$n" -ne 1 ]; then
	echo "save-image.sh: $n files under $jobdir/*/$label/ (expected 1)" >&2
	exit 1
fi
cp "$src" "$dest"
