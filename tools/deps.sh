#!/bin/sh
# SPDX-License-Identifier: MIT
#
# deps.sh - makes sure the Debian/Ubuntu packages pebsprobe needs are there.
# Missing ones are installed when running as root on Debian or Ubuntu
# (apt-get update once, then apt-get install); otherwise, or with
# --no-install, the missing packages are named with the exact apt-get
# install line and the script exits 1.  Used by run-qemu.sh and .ci/run
# (which install), and by `make check` (--no-install: a build changes
# nothing it was not asked to).  Quiet when all is there.
#
#   tools/deps.sh [--no-install] [SET]
#   tools/deps.sh         what building and booting need (run-qemu.sh)
#   tools/deps.sh check   also what `make check` needs beyond that: LAVA's
#                         schema check (lava-common), headless Chromium and
#                         its WebDriver for the HTML report's browser test,
#                         hypothesis for the results readers' property test,
#                         pycodestyle for the Python style check, xmllint
#                         and prove for the CI formats' consumers test
#   tools/deps.sh lava    also lava-dispatcher (lava-run), for `make lava-check`
#                         only: it is large (libguestfs, udev, ...) and no
#                         other target needs it
set -eu
install=true
if [ "${1:-}" = --no-install ]; then
	install=false
	shift
fi

# package:a file or command that proves it is installed (@name: a probe below)
#   python3         the build (tools/perfmon-gen.py) and the test scripts
#                   (check-*.sh, test-mainjob.sh, bench) run it
#   clang-format    make check's format check (tests/host/check-format.sh)
#   libclang-rt-dev clang's libFuzzer and sanitizer runtimes: only a Recommends
#                   of clang, which --no-install-recommends leaves out, and
#                   `clang -fsanitize=fuzzer` (the decoder's fuzz target) needs it
need="
gnu-efi:/usr/lib/crt0-efi-x86_64.o
qemu-system-x86:qemu-system-x86_64
ovmf:/usr/share/OVMF/OVMF_CODE_4M.fd
mtools:mcopy
dosfstools:mkfs.fat
gdisk:sgdisk
libcmocka-dev:/usr/include/cmocka.h
gcc:gcc
clang:clang
clang-format:clang-format
libclang-rt-dev:@fuzzer-runtime
python3:python3
make:make
binutils:objcopy
"

# The extra sets (see above).  @py-MODULE: Debian's python3 imports MODULE.
need_check="
lava-common:/usr/share/lava-common/lava-schema.py
python3-yaml:@py-yaml
python3-pycodestyle:@py-pycodestyle
chromium:/usr/bin/chromium
chromium-driver:/usr/bin/chromedriver
python3-selenium:@py-selenium
python3-hypothesis:@py-hypothesis
libxml2-utils:xmllint
perl:prove
"
need_lava="
lava-dispatcher:lava-run
"
case ${1:-} in
'') ;;
check) need="$need $need_check" ;;
lava) need="$need $need_check $need_lava" ;;
*)
	echo "deps.sh: unknown set '$1' (accepted: none, check, lava)" >&2
	exit 2 ;;
esac

have() {
	case $1 in
	@py-*) /usr/bin/python3 -c "import ${1#@py-}" >/dev/null 2>&1 ;;
	/*) [ -e "$1" ] ;;
	# clang prints the library's full path when it has it, else the bare name.
	@fuzzer-runtime)
		f=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null) &&
			[ "${f#/}" != "$f" ] && [ -e "$f" ] ;;
	*) command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ] ;;
	esac
}

missing=
for item in $need; do
	pkg=${item%%:*} probe=${item#*:}
	have "$probe" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0

line="apt-get install -y --no-install-recommends$missing"
is_debian=false
if [ -r /etc/os-release ] && grep -qiE '^(ID|ID_LIKE)=.*(debian|ubuntu)' /etc/os-release; then
	is_debian=true
fi
if $install && [ "$(id -u)" = 0 ] && $is_debian && command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: installing:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing >&2
	exit 0
fi
echo "deps.sh: missing packages:$missing" >&2
echo "deps.sh: install them with:  sudo $line  (or: sudo tools/deps.sh ${1:-})" >&2
exit 1
