#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# with-load.sh - runs a command while a second QEMU boot loops beside it, the
# way a busy CI machine runs make check: `make check-load` is
#   tools/with-load.sh env TESTS=tests/qemu/ tests/run-all.sh
#
#   tools/with-load.sh COMMAND [ARGS...]
#
# The load is `./run-qemu.sh --smp 2` (the default job on two CPUs), booted
# again as soon as it ends, from before COMMAND starts until it exits; its
# own transcripts are thrown away, and one line per boot ("with-load.sh:
# load boot N: exit S, T s") goes to stderr so a log shows it ran the whole
# time; a load boot that failed adds run-qemu.sh's lines (on a timeout, its
# last console lines).  Exits with COMMAND's status.
# Environment: BUILD; LOAD_ARGS (run-qemu.sh's arguments for the load boot,
# default "--smp 2"); LOAD_TIMEOUT (its --timeout, default 600).
set -u
cd "$(dirname "$0")/.." || exit 1
if [ $# -eq 0 ]; then
	echo "with-load.sh: no command (accepted: tools/with-load.sh COMMAND [ARGS...])" >&2
	exit 2
fi
BUILD=${BUILD:-build}
# The load needs the image built before the first boot, not while COMMAND builds it.
env -u MAKEFLAGS -u MFLAGS make -s BUILD="$BUILD" esp >&2 || exit 99
read -r -a load_args <<<"${LOAD_ARGS:---smp 2}"

# The loop runs in its own process group, so stopping it stops the boot
# inside it too (and nothing else).
err=$(mktemp "${TMPDIR:-/tmp}/with-load.XXXXXX")
set -m
(
	n=0
	while :; do
		n=$((n + 1))
		s=$(date +%s)
		BUILD=$BUILD ./run-qemu.sh --timeout "${LOAD_TIMEOUT:-600}" "${load_args[@]}" \
			2>&1 >/dev/null | tail -n 12 >"$err"
		rc=${PIPESTATUS[0]}
		echo "with-load.sh: load boot $n: exit $rc, $(($(date +%s) - s)) s" >&2
		# A load boot that failed says why (on a timeout: its last console lines).
		[ "$rc" -eq 0 ] || sed 's/^/    /' "$err" >&2
	done
) &
loader=$!
set +m
trap 'kill -TERM -- -"$loader" 2>/dev/null; wait "$loader" 2>/dev/null; rm -f "$err"' EXIT
echo "with-load.sh: load: ./run-qemu.sh ${load_args[*]} looping (process group $loader)" >&2
"$@"
rc=$?
exit "$rc"
