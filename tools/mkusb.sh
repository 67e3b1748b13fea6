#!/bin/sh
# SPDX-License-Identifier: MIT
# mkusb.sh ESP.img OUT.img - a GPT disk image with one EFI System Partition
# (type EF00) starting at 1 MiB that holds ESP.img's file system; ready to
# dd to a USB stick.  No root: sgdisk (or sfdisk) on a plain file, then the
# FAT image copied in at the partition's offset.
set -eu
esp=$1 out=$2
tmp=$out.tmp
esp_bytes=$(stat -c %s "$esp")
esp_sectors=$(( (esp_bytes + 511) / 512 ))
start=2048
# 1 MiB before, the ESP, 1 MiB after for the backup GPT.
total=$(( start + esp_sectors + 2048 ))
rm -f "$tmp"
truncate -s $(( total * 512 )) "$tmp"
if command -v sgdisk >/dev/null 2>&1; then
	sgdisk -o -n 1:$start:+$esp_sectors -t 1:EF00 -c 1:"EFI System" "$tmp" >/dev/null 2>&1
else
	printf 'label: gpt\nstart=%s, size=%s, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name="EFI System"\n' \
		$start $esp_sectors | sfdisk -q "$tmp" >/dev/null 2>&1
fi
# Check the table really is there: a tool that failed quietly must not leave a blank disk.
if command -v sgdisk >/dev/null 2>&1 && ! sgdisk -p "$tmp" 2>/dev/null | grep -q 'EF00'; then
	echo "mkusb.sh: no EFI System Partition in $tmp" >&2
	exit 1
fi
dd if="$esp" of="$tmp" bs=512 seek=$start conv=notrunc status=none
mv "$tmp" "$out"
