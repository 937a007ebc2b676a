#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Upstream's tools as the VM test bed ships them into the guest
# (scripts/build-upstream-tools.sh, run here with gcc): Linux 6.12's
# selftest and 7.3's tools/dma/ tool build unchanged against their own
# headers, and are the tools they are named for: 7.3's has -m and refuses
# -m 2 with its own message, 6.12's has no -m (getopt: exit 255). Both
# refuse -t 0 before opening the benchmark file, exit 1, and so does ours,
# as for -m 2. (The guest suites run them against the module.)
. "$(dirname "$0")/lib.sh"
build
need gcc

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
UP612=$bin/upstream_dma_map_benchmark
UP73=$bin/upstream_7.3_dma_map_benchmark

# exits STATUS PATTERN COMMAND...: COMMAND exits STATUS and its stderr
# matches PATTERN; it never got to open the benchmark file
exits() {
	local want=$1 pat=$2 rc
	shift 2
	"$@" 2>"$bin/err" >/dev/null
	rc=$?
	cat "$bin/err"
	[ "$rc" = "$want" ] || { echo "exit status $rc, want $want"; return 1; }
	grep -Eq -- "$pat" "$bin/err" && ! grep -q '^open' "$bin/err"
}

check "build-upstream-tools.sh gcc: both tools build" \
	"$TOP/scripts/build-upstream-tools.sh" gcc "$bin"
check "both tools are there, executable" \
	test -x "$UP612" -a -x "$UP73"
check "7.3's tool has -m: -m 2 refused with its message, exit 1" \
	exits 1 '^invalid map mode, SINGLE_MODE:0, SG_MODE: 1$' "$UP73" -m 2
check "6.12's tool has no -m: exit 255" exits 255 '' "$UP612" -m 1
check "7.3's tool: -t 0 refused, exit 1" \
	exits 1 '^invalid number of threads, must be in 1-1024$' "$UP73" -t 0
check "6.12's tool: -t 0 refused, exit 1" \
	exits 1 '^invalid number of threads, must be in 1-1024$' "$UP612" -t 0
check "ours: -t 0 refused, exit 1, as upstream's" \
	exits 1 "invalid --threads '0'" "$TOOL" -t 0
check "ours: -m 2 refused, exit 1, as 7.3's" \
	exits 1 "invalid --mode '2'" "$TOOL" -m 2
tap_end
