# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the host .t scripts (sourced, not run by prove).
#
# build: builds the tool and the test binaries (make -C tools/dma
# host-tests), make's output to stderr so stdout stays TAP.
# run_c_tests BINARY ARGS...: runs a C test with --no-plan and counts its
# tests, so the script can add its own before tap_end prints the plan.
# C tests that write files for the script write them to $TEST_OUT_DIR.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
TOOL_DIR=$TOP/tools/dma
HOST_OUT=$TOOL_DIR/.host-tests
TOOL=$TOOL_DIR/dma_map_benchmark
tap_n=0
tap_failed=0

build() {
	mkdir -p "$HOST_OUT"
	# one build at a time, also under prove -j
	if ! flock "$HOST_OUT/.lock" make -s -C "$TOOL_DIR" dma_map_benchmark host-tests >&2; then
		echo "Bail out! make -C tools/dma host-tests failed"
		exit 1
	fi
}

tap_ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

tap_not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=1
	echo "not ok $tap_n - $*"
}

tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - # SKIP $*"
}

# tap_check DESC COMMAND...: ok when COMMAND exits 0; its output as diagnostics
tap_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_not_ok "$desc"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
}

run_c_tests() {
	local out rc
	out=$("$1" --no-plan "${@:2}")
	rc=$?
	printf '%s\n' "$out"
	tap_n=$((tap_n + $(printf '%s\n' "$out" | grep -cE '^(not )?ok ')))
	if [ "$rc" -ne 0 ]; then
		tap_failed=1
	fi
}

# run_py_tests ARGS... < SCRIPT: runs the python3 SCRIPT, which prints
# "ok - DESC" or "not ok - DESC" per check (anything else becomes a "#"
# line), and numbers its checks; a script that stops early fails. The
# script imports check(), close() and done() from pytap.py.
run_py_tests() {
	local line finished=
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"ok - done") finished=1 ;;
		"ok - "*) tap_ok "${line#ok - }" ;;
		"not ok - "*) tap_not_ok "${line#not ok - }" ;;
		*) echo "#   $line" ;;
		esac
	done < <(PYTHONPATH="$TOP/tools/testing/host${PYTHONPATH:+:$PYTHONPATH}" \
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

# out_dir: a fresh TEST_OUT_DIR for the C tests' files, removed at exit
out_dir() {
	TEST_OUT_DIR=$(mktemp -d)
	export TEST_OUT_DIR
	trap 'rm -rf "$TEST_OUT_DIR"' EXIT
}

tap_end() {
	echo "1..$tap_n"
	exit "$tap_failed"
}
