#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The test command (README, `make check`, CI): set up, build, then run every
# test with prove: host unit tests, static checks, and the suites inside
# the VMs (stock 6.12 in three DMA configurations, the patched debug
# kernel). Ends with prove's summary.
#
# usage: scripts/check.sh [PROVE_ARGS] [TEST.t...]
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
[ ${#tests[@]} -gt 0 ] ||
	tests=(tools/testing/host/*.t tools/testing/vm/*.t)

# prove's summary is the last thing printed: CI reads it.
exec prove --timer "${args[@]}" "${tests[@]}"
