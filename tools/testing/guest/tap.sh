# SPDX-License-Identifier: GPL-2.0-only
# The shell tests' one TAP producer: the guest suites (busybox sh, in the
# test VM, where this folder is tests/) and the host's .t scripts, lint.sh
# and vm-suite.sh (bash) source it. POSIX sh only.
#
#   tap_ok DESC, tap_not_ok DESC, tap_skip WHY    a numbered test line
#   tap_result STATUS DESC       ok when STATUS (e.g. $?) is 0
#   tap_diag [FILE...]           FILE (or stdin) as "# " lines
#   check DESC COMMAND...        ok when COMMAND exits 0, else its output
#   check_fails DESC COMMAND...  ok when COMMAND fails
#   check_output DESC PATTERN COMMAND...      exits 0, output matches
#   check_fails_with DESC PATTERN COMMAND...  fails, output matches
#   tap_end                      the plan and a summary; exit 0 when no
#                                test failed, else 1
#
# Every check compares what happened with what must happen, and keeps the
# command's output (stdout and stderr) in $TAP_OUT for a closer look.

TAP_N=${TAP_N:-0}
TAP_FAILED=${TAP_FAILED:-0}
TAP_SKIPPED=${TAP_SKIPPED:-0}
TAP_OUT=${TAP_OUT:-${TMPDIR:-/tmp}/tap-$$.out}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $*"
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	TAP_SKIPPED=$((TAP_SKIPPED + 1))
	echo "ok $TAP_N - # SKIP $*"
}

# tap_result STATUS DESC...: ok when STATUS is 0
tap_result() {
	_tap_rc=$1
	shift
	if [ "$_tap_rc" = 0 ]; then
		tap_ok "$*"
	else
		tap_not_ok "$*"
	fi
}

tap_diag() {
	sed 's/^/# /' "$@"
}

# check DESCRIPTION COMMAND...: passes when COMMAND exits 0.
check() {
	_desc=$1
	shift
	if "$@" >"$TAP_OUT" 2>&1; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
		tap_diag "$TAP_OUT"
	fi
}

# check_fails DESCRIPTION COMMAND...: passes when COMMAND exits non-zero.
check_fails() {
	_desc=$1
	shift
	if "$@" >"$TAP_OUT" 2>&1; then
		tap_not_ok "$_desc (succeeded, must fail)"
		tap_diag "$TAP_OUT"
	else
		tap_ok "$_desc"
	fi
}

# check_output DESCRIPTION PATTERN COMMAND...: COMMAND exits 0 and its
# output matches the extended regular expression PATTERN.
check_output() {
	_desc=$1
	_pat=$2
	shift 2
	if "$@" >"$TAP_OUT" 2>&1 && grep -Eq -- "$_pat" "$TAP_OUT"; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
		echo "# expected /$_pat/ in:"
		tap_diag "$TAP_OUT"
	fi
}

# check_fails_with DESCRIPTION PATTERN COMMAND...: COMMAND fails and its
# output (stdout and stderr) matches PATTERN.
check_fails_with() {
	_desc=$1
	_pat=$2
	shift 2
	if ! "$@" >"$TAP_OUT" 2>&1 && grep -Eq -- "$_pat" "$TAP_OUT"; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
		echo "# expected failure matching /$_pat/ in:"
		tap_diag "$TAP_OUT"
	fi
}

tap_end() {
	rm -f "$TAP_OUT"
	echo "1..$TAP_N"
	echo "# $((TAP_N - TAP_FAILED - TAP_SKIPPED)) passed, $TAP_FAILED failed, $TAP_SKIPPED skipped"
	[ "$TAP_FAILED" -eq 0 ]
	exit $?
}
