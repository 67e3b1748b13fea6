#!/bin/sh
# SPDX-License-Identifier: MIT
# mkesp.sh APP.efi OUT.img [CONFIG] - a FAT image holding \EFI\BOOT\BOOTX64.EFI
# and \EFI\BOOT\PEBSPROBE.CFG (the config file removable-media boot needs,
# since it passes no LoadOptions).  No root: mkfs.fat -C + mtools.
set -eu
app=$1 out=$2 cfg=${3:-}
size_kib=${ESP_SIZE_KIB:-65536}
tmp=$out.tmp
rm -f "$tmp"
mkfs.fat -C -n PEBSPROBE "$tmp" "$size_kib" >/dev/null
mmd -i "$tmp" ::/EFI ::/EFI/BOOT
mcopy -i "$tmp" "$app" ::/EFI/BOOT/BOOTX64.EFI
if [ -n "$cfg" ]; then
	mcopy -i "$tmp" "$cfg" ::/EFI/BOOT/PEBSPROBE.CFG
fi
mv "$tmp" "$out"
