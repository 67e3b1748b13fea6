#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The status header on a screen (docs/OUTPUT.md "The screen"), seen as a
# person sees it: one boot with a VGA screen and a QEMU monitor, a
# `screendump` mid-run (once the first kernel starts) and one at the end
# (the guest shut down, QEMU stopped with -no-shutdown and no isa-debug-exit,
# so the last screen stays).  tests/qemu/screenshot.py reads them: the
# header's rows on blue at the top, its progress line mid-run and at the
# end, its counts against SUMMARY, the closing table's cells in their
# colours; and it must refuse known-bad screens made from these.  The
# screenshots stay in $BUILD/test-logs/screenshots/ (PNG), with the
# console lines they were read against.
. "$(dirname "$0")/lib.sh"

KERNELS=chase-l1,chase-l2,stream-store
# A calibration FAIL on the simulated CPU 0, so the table has red cells too;
# 8 times the default iterations, so a kernel lasts a second or more under
# TCG and the screen is dumped before the run has moved on.
OPTS="pmu=sim kernels=$KERNELS sim-fault=cpu0:wrong-latency iterations=50000 verbose=1"
OUT=$BUILD/test-logs/screenshots
mkdir -p "$OUT"
rm -f "$OUT"/*.png "$OUT"/*.ppm "$OUT"/console.txt
make -s BUILD="$BUILD" esp >&2 || { fail "screenshot" "make esp failed"; exit 1; }
cp "$BUILD/esp.img" "$T/disk.img"
cp "${OVMF_VARS:-/usr/share/OVMF/OVMF_VARS_4M.fd}" "$T/vars.fd"
echo "$OPTS" >"$T/PEBSPROBE.CFG"
mcopy -o -i "$T/disk.img" "$T/PEBSPROBE.CFG" ::/EFI/BOOT/PEBSPROBE.CFG

qemu_noop_init
limit=$(qemu_limit "$BOOT_FACTOR")
s=$(date +%s)
timeout -k 5 "$limit" "${QEMU:-qemu-system-x86_64}" -machine q35 -m 2048M -smp 1 -net none \
	-display none -vga std -no-shutdown -monitor "unix:$T/mon.sock,server,nowait" \
	-serial "file:$T/serial" -cpu "${TCG_CPU:-max}" \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.fd}" \
	-drive "if=pflash,format=raw,unit=1,file=$T/vars.fd" \
	-drive "if=none,id=esp,format=raw,file=$T/disk.img" -device "virtio-blk-pci,drive=esp" &
qemu=$!
python3 tests/qemu/screenshot.py run "$T/mon.sock" "$T/serial" '^INFO: kernel chase-l1: start' \
	"$T" "$OUT" "$limit"
wait "$qemu"
echo "INFO: boot screenshot: $(($(date +%s) - s)) s of $limit s"
tr -d '\r' <"$T/serial" | sed -e 's/\x1b\[[0-9;?=]*[A-Za-z]//g' -e 's/\x1b[()][A-Z0-9]//g' |
	sed -n '/^INFO: pebsprobe /,$p' >"$OUT/console.txt"
if [ ! -s "$T/mid.ppm" ] || [ ! -s "$T/end.ppm" ]; then
	fail "screenshots" "mid.ppm or end.ppm not taken; serial ends: $(tail -3 "$OUT/console.txt" | tr '\n' '|')"
	exit 1
fi
pass "screenshots taken: $OUT/mid.png, end.png"
python3 tests/qemu/screenshot.py check "$T/mid.ppm" "$T/end.ppm" "$OUT/console.txt" "$KERNELS"
