#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How much the benchmark's own machinery costs: soft_dma in nocopy mode
# completes descriptors without copying, so what remains is the dmaengine
# framework and the benchmark. Reports the cost per descriptor (prep,
# submit) and per batch (issue, wait) of each phase, and the share of a
# run's wall time spent outside the timed regions (target: <= 20 % for the
# default cell). A benchmark, not a test: it asserts nothing.
#
# usage: scripts/bench-overhead.sh [-m MACHINE] [TOOL_OPTIONS...]
#   default cell: 1 channel, 4 KiB folios, 512 entries, 512 MiB, 5 runs
set -euo pipefail
. "$(dirname "$0")/lib.sh"

machine=${DMA_BENCH_MACHINE:-x86-bench}
if [ "${1:-}" = -m ]; then
	machine=$2
	shift 2
fi
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(--channels 1 --sge 512 --bytes-per-channel 512M --runs 5)

"$DMA_BENCH_TOP/scripts/setup.sh" bench
make -s -C "$DMA_BENCH_TOP" all >/dev/null

json=$(mktemp)
trap 'rm -f "$json"' EXIT
say "running the cell in nocopy mode on $machine"
# the guest side: tools/testing/guest/bench/overhead.sh
"$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" -t 3600 -- \
	sh tests/bench/overhead.sh "${opts[@]}" > "$json"

# the table: scripts/report/bench.py
bench_report overhead "$json"
