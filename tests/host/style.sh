# SPDX-License-Identifier: MIT
#
# style.sh - sourced by check-format.sh and check-pystyle.sh: the two
# halves every style check has.  $STYLE is the checker's command line (it
# takes a file and exits non-zero on drift).
#
#   style_can_fail NAME FILE   FILE is off the style: PASS only if refused
#   style_files NAME WHAT PATTERN...
#                              every tracked file of PATTERN passes $STYLE:
#                              one FAIL line per file that does not (its
#                              first complaint), one PASS naming WHAT

style_can_fail() {
	if $STYLE "$2" >/dev/null 2>&1; then
		echo "FAIL: $1-can-fail: a file off the style was not refused"
	else
		echo "PASS: $1-can-fail: a file off the style is refused"
	fi
}

style_files() {
	local name=$1 what=$2 n=0 bad=0 f out
	shift 2
	while IFS= read -r -d '' f; do
		n=$((n + 1))
		if ! out=$($STYLE "$f" 2>&1); then
			bad=$((bad + 1))
			echo "FAIL: $name: $f: $(echo "$out" | head -n 1 | sed 's/^[^ ]* //')" \
				"($(echo "$out" | grep -c -E '^[^ ]+:[0-9]+:') in all)"
		fi
	done < <(git ls-files -z "$@")
	if [ "$n" -eq 0 ]; then
		echo "FAIL: $name: no tracked $what found"
	elif [ "$bad" -eq 0 ]; then
		echo "PASS: $name: $n tracked $what pass"
	fi
}
