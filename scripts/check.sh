#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The test command (README, `make check`, CI): set up, build, then run every
# test with prove: first the fast tier (`make check-host`: host unit tests
# and static checks, stopping here if they fail), then the suites inside
# the VMs (stock 6.12 in three DMA configurations, the patched debug
# kernel, the arm boards). Ends with prove's summary.
#
# usage: scripts/check.sh [PROVE_ARGS] [TEST.t...]
#   with TEST.t arguments, runs only those (no fast tier first)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$DMA_BENCH_TOP/scripts/setup.sh" test

say "building the modules and the tool"
make -s -C "$DMA_BENCH_TOP" all >/dev/null

cd "$DMA_BENCH_TOP"
tests=()
args=()
for a in "$@"; do
	case $a in
	*.t) tests+=("$a") ;;
	*) args+=("$a") ;;
	esac
done
if [ ${#tests[@]} = 0 ]; then
	say "the fast tier: make check-host"
	make -s -C "$DMA_BENCH_TOP" check-host ||
		die "make check-host failed: fix it before the VM tests"
	tests=(tools/testing/vm/*.t)
fi

# prove's summary is the last thing printed: CI reads it.
exec prove --timer "${args[@]}" "${tests[@]}"
