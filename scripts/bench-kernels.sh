#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test) of the kernel the main job measures on: the same
# soft_dma cells on the bench kernel (the patched kernel of
# scripts/kernel/build-debug-kernel.sh --flavor bench) and on Debian's
# stock 6.12 kernel, booted alternately in one session, and the ratio
# bench/stock of their throughputs. The bench kernel is built for speed
# the way Debian's is (scripts/kernel/bench.config), so the ratios should
# stay within 0.8-1.25; a cell outside is flagged and the exit status is 3.
#
# usage: scripts/bench-kernels.sh [options]
#   -r, --rounds N       boots of each kernel, alternating (default: 3)
#   -f, --folios "LIST"  folio sizes, one cell each (default: "4K 64K 2M")
#   -s, --sge N          folios in a batch (default: 63, see below)
#   -b, --bytes SIZE     bytes a run copies (default: 64M; whole batches)
#   -n, --runs N         timed runs of a cell in a boot (default: 10)
#   -m, --bench MACHINE  the bench kernel's machine (default: x86-bench)
#   -k, --stock MACHINE  the stock kernel's machine (default: x86)
#   -a, --append ARGS    extra kernel command line for both, e.g. maxcpus=1
#   -o, --output DIR     where results.json, results.csv and table.txt go
#                        (default: build/results/bench-kernels-DATE)
#
# Every cell is the project's dmaengine mode with --prep-modes memcpy on one
# soft_dma channel: one dmaengine_prep_dma_memcpy() per folio. Each timed
# run gives a GB/s (10^9 bytes/s: its bytes over its wall time); the table
# shows, per kernel and cell, the median and the best of the runs of all
# rounds, and both ratios; a ratio outside 0.8-1.25 is marked "*". A cell
# fails the check (OUTSIDE) when both of its ratios are: under TCG on
# shared cores a cell's runs fall into a fast and a slow mode at random
# (wakeups, QEMU's software TLB), which moves the median or the best,
# rarely both; a kernel that is really slower moves both.
# The batch is 63 folios, not 64: the tool allocates the source folios,
# then the destination ones, so with a power of two the source and the
# destination of a copy lie a power of two apart and share a slot of QEMU's
# direct-mapped software TLB unless it has grown past that distance, which
# depends on the guest's TLB flushes so far (Documentation/reproducing.rst).
# Numbers are CPU copies under QEMU TCG: they compare the two kernels on
# this host and say nothing about DMA hardware. The guest side is
# tools/testing/guest/bench/kernels.sh.
# Exit status: 0 every cell passes, 3 some do not (OUTSIDE), 1 an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

readonly RATIO_LO=0.8 RATIO_HI=1.25

rounds=3
folios="4K 64K 2M"
sge=63
bytes=64M
runs=10
bench=x86-bench
stock=x86
append=
output=

while [ $# -gt 0 ]; do
	case $1 in
	-r|--rounds) rounds=$2; shift 2 ;;
	-f|--folios) folios=$2; shift 2 ;;
	-s|--sge) sge=$2; shift 2 ;;
	-b|--bytes) bytes=$2; shift 2 ;;
	-n|--runs) runs=$2; shift 2 ;;
	-m|--bench) bench=$2; shift 2 ;;
	-k|--stock) stock=$2; shift 2 ;;
	-a|--append) append="$append $2"; shift 2 ;;
	-o|--output) output=$2; shift 2 ;;
	-h|--help) sed -n '4,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[[ -n $rounds && $rounds != *[!0-9]* && $rounds != 0 ]] ||
	die "--rounds takes a positive number, got '$rounds'"
for f in $folios; do
	[[ $f == [1-9]*[KMG] ]] || die "--folios takes sizes such as 4K 64K 2M, got '$f'"
done
[ -n "$folios" ] || die "--folios is empty"
for n in "$sge" "$runs"; do
	[[ $n == [1-9]* && $n != *[!0-9]* ]] ||
		die "--sge and --runs take positive numbers, got '$sge' and '$runs'"
done
[[ $bytes == [1-9]* ]] || die "--bytes takes a size such as 64M, got '$bytes'"
# the tool checks the values themselves in the guest, naming the field

"$DMA_BENCH_TOP/scripts/setup.sh" bench
stamp=$(date +%Y%m%d-%H%M%S)
output=${output:-$DMA_BENCH_BUILD/results/bench-kernels-$stamp}
mkdir -p "$output"
raw=$output/raw.txt
: > "$raw"

say "bench kernel ($bench) vs stock kernel ($stock): cells $folios," \
	"--sge $sge --bytes $bytes, $runs runs, $rounds round(s)"
[ -z "$append" ] || say "kernel command line of both: +$append"
say "(the first boot of the bench kernel builds it if it is not cached: minutes)"
say "host load (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPU(s)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# boot KIND MACHINE ROUND: one boot, its lines appended to $raw
boot() {
	local kind=$1 m=$2 r=$3
	say "round $r/$rounds: $kind kernel ($m)"
	# shellcheck disable=SC2086 # a list of folio sizes
	bench_boot "$output" "$kind" "$r" cell_line \
		"$DMA_BENCH_TOP/scripts/vm/run.sh" -m "$m" -t 3600 ${append:+-a "$append"} -- \
		sh tests/bench/kernels.sh "$sge" "$bytes" "$runs" $folios
}

# cell_line KIND ROUND FOLIO JSON: what a boot's cell gave
# shellcheck disable=SC2317 # bench_boot runs it
cell_line() {
	say "round $2/$rounds: $1 $3: $(bench_report kernels-cell "$4")"
}

r=1
while [ "$r" -le "$rounds" ]; do
	# alternate the order, so that a drift of the host load hits both
	if [ $((r % 2)) = 1 ]; then
		boot bench "$bench" "$r"
		boot stock "$stock" "$r"
	else
		boot stock "$stock" "$r"
		boot bench "$bench" "$r"
	fi
	r=$((r + 1))
done

rc=0
# the results: scripts/report/bench.py
bench_report kernels-table "$output" "$RATIO_LO" "$RATIO_HI" "$load_before" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)" "$bench" "$stock" \
	"$sge" "$bytes" "$runs" "$folios" "${append# }" || rc=$?
say "results in $output (results.json, results.csv, table.txt, raw.txt, logs)"
[ "$rc" = 0 ] || say "some bench/stock ratios are outside $RATIO_LO-$RATIO_HI"
exit "$rc"
