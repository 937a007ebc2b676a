#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test) of soft_dma, the software DMA engine, in the test
# VM: how close one channel gets to a plain in-kernel memcpy() of the same
# working set, and how the throughput of several channels scales with the
# VM's CPUs.
#
# usage: scripts/bench-soft-dma.sh [options]
#   -r, --rounds N       rounds of every measurement (default: 15)
#   -n, --iterations N   2 MiB copies per dmatest run (default: 150)
#   -p, --cpus "LIST"    online CPU counts to boot the VM with (maxcpus=),
#                        each at most the machine's -smp (default: "1 2")
#   -m, --machine NAME   machine of scripts/vm/run.sh (default: x86)
#   -c, --dma CONFIG     DMA configuration (default: direct; swiotlb cannot
#                        map 2 MiB buffers)
#   -o, --output FILE    also write the raw result lines to FILE
#
# The guest side is tools/testing/guest/bench/soft-dma.sh. Every copy is
# 2 MiB between page-aligned buffers; throughputs are in
# MB/s (10^6 bytes/s). Each round measures:
#   ref1      CPU-copy reference: the benchmark's cpu mode (folio_copy()),
#             one 2 MiB source/destination pair copied back to back
#   dmatest   the kernel's dmatest on one channel, one thread, no
#             verification: one copy in flight, its buffer pair reused
#             (dmatest's own KB/s, which leaves out its buffer filling)
#   ref16     the cpu mode cycling through 16 pairs: the working set of
#   tool      the project's dmaengine mode on one channel: batches of 16
#             2 MiB folios, one dmaengine_prep_dma_memcpy() per folio, one
#             issue_pending per batch (needs the dma_map_benchmark module)
#   engine    soft_dma's own copy time during "tool" (debugfs stats)
#   toolN     the same on N channels at once (aggregate), for scaling
# dmatest is compared with ref1, tool and engine with ref16, toolN with
# tool, two ways: the median over the rounds of the ratio within a round,
# and the ratio of the best round of each (on a loaded host the fastest run
# is the least disturbed one). Numbers are CPU copies under QEMU TCG: they
# say nothing about DMA hardware, and they move with the load of the host,
# which is printed. Under TCG a wakeup across vCPUs costs about a
# millisecond, so the single-channel ratios are meaningful with one online
# CPU, the scaling with several.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=15
iterations=150
cpus="1 2"
machine=x86
dma=direct
output=

while [ $# -gt 0 ]; do
	case $1 in
	-r|--rounds) rounds=$2; shift 2 ;;
	-n|--iterations) iterations=$2; shift 2 ;;
	-p|--cpus) cpus=$2; shift 2 ;;
	-m|--machine) machine=$2; shift 2 ;;
	-c|--dma) dma=$2; shift 2 ;;
	-o|--output) output=$2; shift 2 ;;
	-h|--help) sed -n '4,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
case $rounds$iterations in
*[!0-9]*) die "--rounds and --iterations take numbers" ;;
esac

raw=$(mktemp "${TMPDIR:-/tmp}/bench-soft-dma.XXXXXX")
trap 'rm -f "$raw" "$raw.out"' EXIT

for n in $cpus; do
	say "soft_dma benchmark: $machine/$dma, $n CPU(s), $rounds round(s)"
	if ! "$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" -c "$dma" -t 3600 \
		-a "maxcpus=$n" -- sh tests/bench/soft-dma.sh "$rounds" "$iterations" \
		> "$raw.out" 2>&1; then
		cat "$raw.out" >&2
		die "the benchmark failed in the VM"
	fi
	grep '^RESULT ' "$raw.out" | sed "s/^RESULT /$n /" >> "$raw"
done
[ -z "$output" ] || cp "$raw" "$output"

# Lines: cpus round name KB/s. Per (cpus, name): median and best; ratios
# per round (median) and of the bests: scripts/report/bench.py
bench_report soft-dma "$raw"
echo
echo "Host load after measuring (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) host CPU(s)"
