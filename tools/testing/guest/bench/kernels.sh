#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench-kernels.sh (busybox sh, in the test VM):
#   sh tests/bench/kernels.sh SGE BYTES RUNS FOLIO...
# prints "KERNEL release", then "JSON folio {...}" per cell as each cell
# ends: the tool's JSON with every run's sample, on one line. Each cell is
# the dmaengine mode with --prep-modes memcpy on one soft_dma channel.

. "$PROJECT/tests/lib.sh"
sge=$1
bytes=$2
runs=$3
shift 3

load_module dma_map_benchmark && load_module soft_dma channels=1 || exit 1
echo "KERNEL $(uname -r)"
for f in "$@"; do
	if ! "$TOOL" -m dmaengine -D "$SD_DEV" -c 1 -p memcpy -f "$f" \
		--sge "$sge" --bytes-per-channel "$bytes" -r "$runs" -w 1 \
		--json --samples > /tmp/cell.json 2>&1; then
		echo "the $f cell failed:"
		cat /tmp/cell.json
		exit 1
	fi
	echo "JSON $f $(tr -d '\n' < /tmp/cell.json)"
done
