#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-layers.sh - the layering rule (docs/ARCHITECTURE.md, "Layers") holds
# in the tree, and tools/check-layers.sh can fail: on a copy of the tree
# with one upward #include, and on objects with one upward call, it must
# exit 1 naming the file, the line and the rule.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pebsprobe-layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# 1. The tree as it is: includes, and the calls of the host and EFI objects.
for d in "$BUILD/host/obj" "$BUILD/efi"; do
	[ -d "$d" ] || { fail "layers-objects" "$d is missing: build it first (make all host)"; continue; }
done
if out=$(tools/check-layers.sh 2>&1); then
	pass "layers: every include and call of the tree goes down"
else
	fail "layers" "$(echo "$out" | head -n 5 | tr '\n' ' ')"
fi

# A copy of what the check reads: the units' sources, the layer list, the check.
mkdir -p "$tmp/tree/tools" "$tmp/tree/docs"
cp tools/check-layers.sh "$tmp/tree/tools/"
cp docs/ARCHITECTURE.md "$tmp/tree/docs/"
for u in lib decode ds pmu sim kernels job app efi host; do
	cp -r "$u" "$tmp/tree/"
done

# 2. One upward include: ds/ (layer 2) includes app/app.h (layer 7).
line=$(($(wc -l <"$tmp/tree/ds/ds.c") + 1))
echo '#include "../app/app.h"' >>"$tmp/tree/ds/ds.c"
out=$(cd "$tmp/tree" && tools/check-layers.sh /nonexistent 2>&1)
rc=$?
want="ds/ds.c:$line: includes app/app.h: ds/ (layer 2) may not include app/ (layer 7)"
if [ "$rc" -eq 1 ] && grep -qF "$want" <<<"$out"; then
	pass "layers-upward-include: refused with '$want'"
else
	fail "layers-upward-include" "exit $rc, expected 1 and the line '$want'; got: $out"
fi
sed -i '$d' "$tmp/tree/ds/ds.c"

# 3. An include of the unit's own layer or below is not refused (decode/ and ds/ share one).
echo '#include "../decode/decode.h"' >>"$tmp/tree/ds/ds.c"
if out=$(cd "$tmp/tree" && tools/check-layers.sh /nonexistent 2>&1); then
	pass "layers-same-layer-include: ds/ may include decode/"
else
	fail "layers-same-layer-include" "refused: $out"
fi
sed -i '$d' "$tmp/tree/ds/ds.c"

# 4. One upward call: an object of lib/ that calls app_run() of app/.
mkdir -p "$tmp/obj/lib" "$tmp/obj/app"
cat >"$tmp/tree/lib/zz_up.c" <<'C'
int app_run(const void *opts, const void *real);
int zz_up(void) { return app_run(0, 0); }
C
cp "$BUILD/host/obj/app/app.o" "$tmp/obj/app/app.o"
${HOST_CC:-cc} -c "$tmp/tree/lib/zz_up.c" -o "$tmp/obj/lib/zz_up.o"
out=$(cd "$tmp/tree" && tools/check-layers.sh "$tmp/obj" 2>&1)
rc=$?
want="calls app_run, defined in app/ (layer 7): lib/ (layer 1) may call only its own layer and below"
if [ "$rc" -eq 1 ] && grep -qF "$want" <<<"$out"; then
	pass "layers-upward-call: refused with '$want'"
else
	fail "layers-upward-call" "exit $rc, expected 1 and '$want'; got: $out"
fi

# 5. The platform seam is the one way up: ds/ calls plat_alloc_pages(), which host/ defines.
rm "$tmp/obj/lib/zz_up.o" "$tmp/tree/lib/zz_up.c"
mkdir -p "$tmp/obj/ds" "$tmp/obj/host"
cp "$BUILD/host/obj/ds/ds.o" "$tmp/obj/ds/"
cp "$BUILD/host/obj/host/platform_host.o" "$tmp/obj/host/"
if ! nm -u "$tmp/obj/ds/ds.o" | grep -qw plat_alloc_pages; then
	fail "layers-platform-seam" "ds.o does not call plat_alloc_pages: the case tests nothing"
elif out=$(cd "$tmp/tree" && tools/check-layers.sh "$tmp/obj" 2>&1); then
	pass "layers-platform-seam: ds/ may call plat_alloc_pages, which host/ defines"
else
	fail "layers-platform-seam" "refused: $out"
fi

# 6. Two files of job/ that call each other (ONE_WAY_UNITS): refused, naming both.
rm -rf "$tmp/obj" && mkdir -p "$tmp/obj/job"
printf 'void zz_b(void);\nvoid zz_a(void) { zz_b(); }\n' >"$tmp/tree/job/zz_a.c"
printf 'void zz_a(void);\nvoid zz_b(void) { zz_a(); }\n' >"$tmp/tree/job/zz_b.c"
for f in zz_a zz_b; do
	${HOST_CC:-cc} -c "$tmp/tree/job/$f.c" -o "$tmp/obj/job/$f.o"
done
out=$(cd "$tmp/tree" && tools/check-layers.sh "$tmp/obj" 2>&1)
rc=$?
want="its files call each other in a loop (zz_a zz_b): the files of job/ call one way"
if [ "$rc" -eq 1 ] && grep -qF "$want" <<<"$out"; then
	pass "layers-one-way: refused with '$want'"
else
	fail "layers-one-way" "exit $rc, expected 1 and '$want'; got: $out"
fi
