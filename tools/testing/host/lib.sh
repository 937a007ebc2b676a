# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the host .t scripts (sourced, not run by prove), on top of
# the shell TAP helpers they share with the guest suites
# (tools/testing/guest/tap.sh: tap_ok, tap_not_ok, tap_skip, check, ...,
# tap_end).
#
# build: builds the tool and the test binaries (make -C tools/dma
# host-tests), make's output to stderr so stdout stays TAP.
# run_c_tests BINARY ARGS...: runs a C test with --no-plan and numbers its
# tests in this script's stream, so the script can run several and add its
# own before tap_end prints the plan.
# C tests that write files for the script write them to $TEST_OUT_DIR.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
TOOL_DIR=$TOP/tools/dma
HOST_OUT=$TOOL_DIR/.host-tests
TOOL=$TOOL_DIR/dma_map_benchmark
# shellcheck source=../guest/tap.sh
. "$TOP/tools/testing/guest/tap.sh"

build() {
	mkdir -p "$HOST_OUT"
	# one build at a time, also under prove -j
	if ! flock "$HOST_OUT/.lock" make -s -C "$TOOL_DIR" dma_map_benchmark host-tests >&2; then
		echo "Bail out! make -C tools/dma host-tests failed"
		exit 1
	fi
}

run_c_tests() {
	local line out rc failed=$TAP_FAILED
	out=$("$1" --no-plan "${@:2}")
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) tap_ok "${line#ok * - }" ;;
		"not ok "*) tap_not_ok "${line#not ok * - }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <<<"$out"
	# a test that failed without saying which (it crashed, say)
	if [ "$rc" -ne 0 ] && [ "$TAP_FAILED" = "$failed" ]; then
		tap_not_ok "$(basename "$1") exited $rc"
	fi
}

# run_py_tests ARGS... < SCRIPT: runs the python3 SCRIPT, whose checks
# report through pytap.py (which says how), with the scripts' modules
# (scripts/: sweep, compare, report) on its path, and numbers its checks.
run_py_tests() {
	local line finished=
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"ok - done") finished=1 ;;
		"ok - "*) tap_ok "${line#ok - }" ;;
		"not ok - "*) tap_not_ok "${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done < <(PYTHONPATH="$TOP/tools/testing/host:$TOP/scripts${PYTHONPATH:+:$PYTHONPATH}" \
		 PYTHONDONTWRITEBYTECODE=1 python3 - "$@" 2>&1)
	if [ -z "$finished" ]; then
		tap_not_ok "the python3 checks did not run to the end"
	fi
}

# need COMMAND...: when one is missing, a skipped test and the end
need() {
	local cmd missing=
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null || missing="$missing $cmd"
	done
	[ -z "$missing" ] && return 0
	tap_skip "not installed:$missing (scripts/setup.sh installs it)"
	tap_end
}

# out_dir: a fresh TEST_OUT_DIR for the tests' files, removed at exit
out_dir() {
	TEST_OUT_DIR=$(mktemp -d)
	export TEST_OUT_DIR
	trap 'rm -rf "$TEST_OUT_DIR"' EXIT
}
