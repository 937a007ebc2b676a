#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Batched cache sync, seen where it acts: the data-cache maintenance
# instructions (dc by kind) and barriers (dsb by domain and type, dmb,
# isb) that each dma_map_sg(), dma_unmap_sg(), dma_sync_sg_for_cpu() and
# _for_device() executes, and dma_map_page() etc. as the control, on
# the non-coherent platform device of QEMU's ZynqMP ZCU102 (machine
# arm64-zcu102-73), before Barry Song's "dma-mapping: arm64: support
# batched cache sync" (the arm64 debug kernel with kernel/patches/
# v7.3-nobatch: scripts/kernel/nobatch-kernel.sh) and after (7.3 as is).
#
# The guest executes the instructions; QEMU's TCG plugin
# scripts/qemu-plugin/dcount.c counts them inside the windows the
# benchmark module opens and closes around each timed call (a marker
# HINT, kernel/dma/map_benchmark.h's mb_mark()), on the CPU that opened
# the window, leaving out the handlers of exceptions taken meanwhile (the
# kernel's vector table from its System.map) and the other tasks that run
# on that CPU meanwhile (cpu_switch_to's, likewise). The idle baseline (the whole
# guest, one second, outside any window) and the empty windows are shown.
# Times are the tool's, EMULATED under TCG, where a cache operation and a
# barrier cost nothing: they say nothing about the series' gain.
#
# Cells: Barry's workload, dma_map_sg of 2560 entries of 4 KiB, 200
# iterations, one thread pinned to CPU 0 (TO_DEVICE); then the sweep,
# 1, 8, 64, 512 and 2560 entries in each direction, and dma_map_page of
# one page (sg mode and single mode, -i iterations each); every cell
# with --sync, so that the four calls are counted; each kernel booted
# twice, direct mapping and swiotlb=16384,force (32 MiB of bounce
# buffers). Both kernels are built when
# missing (the after one by build-debug-kernel.sh --arch arm64, then the
# before one from it: about as long again). Results in
# build/results/cachesync-DATE/: table.txt, results.json, results.csv,
# the guest's and the counter's raw lines.
#
# usage: scripts/bench-cachesync.sh [-i ITERATIONS] [-e "1 8 64 512 2560"]
#                                   [-d "bidirectional to_device from_device"]
#                                   [-c "direct swiotlb"] [-B ITERATIONS]
#   -i N    iterations of each sweep cell (default 20: the counts of a
#           call do not vary; min and max say so)
#   -B N    iterations of Barry's cell (default 200; 0: leave it out)
#   -e, -d, -c  the sweep's entries, directions, DMA configurations
#   -k KINDS    the kernels to boot (default "before after"), and
#   -o DIR      into DIR rather than a new directory: a run cut short
#               goes on where it stopped (a boot with a complete log is
#               kept), and the table is made of what DIR has
#   -m MACHINE  an arm64 machine of scripts/vm/machines (default
#               arm64-zcu102-73); an x86 one is refused: x86 is coherent
#               and has no markers, nothing would be counted
#
# On a real arm64 machine, the times instead (scripts/bench-cachesync-hw.sh,
# whose --help says more): once under each kernel,
#        scripts/bench-cachesync.sh --hw before|after [-D DEVICE] [...]
# Barry's workload and the sweep timed with scripts/sweep.py; the second
# run prints scripts/compare.py's before/after table with its t-test. Or
#        scripts/bench-cachesync.sh --compare BEFORE AFTER
# of two such runs, or of two results.json files.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=bench-cachesync

for a; do
	case $a in
	--hw|--compare) exec "$DMA_BENCH_TOP/scripts/bench-cachesync-hw.sh" "$@" ;;
	esac
done

machine=arm64-zcu102-73
iters=20
barry_iters=200
entries="1 8 64 512 2560"
dirs="bidirectional to_device from_device"
configs="direct swiotlb"
kinds="before after"
out=
cmdline="scripts/bench-cachesync.sh${*:+ $*}"
while [ $# -gt 0 ]; do
	case $1 in
	-i) iters=$2; shift 2 ;;
	-B) barry_iters=$2; shift 2 ;;
	-e) entries=$2; shift 2 ;;
	-d) dirs=$2; shift 2 ;;
	-c) configs=$2; shift 2 ;;
	-m) machine=$2; shift 2 ;;
	-k) kinds=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-h|--help) sed -n '4,/^set -e/{/^set -e/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[[ $iters =~ ^[1-9][0-9]*$ ]] || die "-i $iters: a positive number of iterations"
[[ $barry_iters =~ ^[0-9]+$ ]] || die "-B $barry_iters: a number of iterations"
for e in $entries; do
	[[ $e =~ ^[1-9][0-9]*$ ]] && [ "$e" -le 65536 ] || die "-e: $e entries: 1..65536"
done
for d in $dirs; do
	case $d in bidirectional|to_device|from_device) ;; *) die "-d: no direction $d" ;; esac
done
for c in $configs; do
	case $c in direct|swiotlb) ;; *) die "-c: no DMA configuration $c (direct, swiotlb)" ;; esac
done
for k in $kinds; do
	case $k in before|after) ;; *) die "-k: no kernel $k (before, after)" ;; esac
done
conf=$DMA_BENCH_TOP/scripts/vm/machines/$machine.conf
[ -f "$conf" ] || die "no machine $machine"
# shellcheck source=/dev/null
. "$conf"
arch=${VM_ARCH:-}
kind=${VM_KERNEL_KIND:-}
# shellcheck disable=SC2086 # NAME=VALUE words
mapdev=$(printf '%s\n' ${VM_GUEST_ENV:-} | sed -n 's/^HWDMA_MAP_DEVICE=//p')
[ "$arch" = arm64 ] ||
	die "machine $machine is $arch: its DMA is cache-coherent (no cache maintenance to count) and the counter counts AArch64 instructions only: nothing would be counted"
[ "$kind" = debug ] ||
	die "machine $machine boots a $kind kernel: the comparison needs the arm64 kernel this project builds (arm64-zcu102-73)"
[ -n "$mapdev" ] ||
	die "machine $machine names no non-coherent device for the map modes (HWDMA_MAP_DEVICE)"

t0=$SECONDS
"$DMA_BENCH_TOP/scripts/setup.sh" test
say "building the counter (QEMU TCG plugin)"
so=$("$DMA_BENCH_TOP/scripts/qemu-plugin/build.sh" | tail -n 1)
say "the after kernel (7.3, arm64; built once, 10-25 minutes)"
after=$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --arch arm64 | tail -n 1)
before=
case " $kinds " in
*" before "*)
	say "the before kernel (the series reverted; derived once, about as long)"
	before=$("$DMA_BENCH_TOP/scripts/kernel/nobatch-kernel.sh" "$after" | tail -n 1)
	;;
esac

[ -n "$out" ] || out=$DMA_BENCH_BUILD/results/cachesync-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
cells=()
barry=
if [ "$barry_iters" -gt 0 ]; then
	barry=sg:2560:to_device:$barry_iters
	cells+=("$barry")
fi
for d in $dirs; do
	for e in $entries; do
		cells+=("sg:$e:$d:$iters")
	done
	cells+=("single:1:$d:$iters")
done

for k in $kinds; do
	dir=$before
	[ "$k" = before ] || dir=$after
	vectors=$(awk '$3 == "vectors" { print $1; exit }' "$dir/build/System.map")
	[ -n "$vectors" ] || die "$dir/build/System.map has no symbol vectors"
	switch=$(awk '$3 == "cpu_switch_to" { print $1; exit }' "$dir/build/System.map")
	[ -n "$switch" ] || die "$dir/build/System.map has no symbol cpu_switch_to"
	for c in $configs; do
		append=
		# the vector table where System.map says it is
		! grep -qx 'CONFIG_RANDOMIZE_BASE=y' "$dir/build/.config" || append=nokaslr
		# bounce buffers for 2560 x 4 KiB: 16384 slots of 2 KiB (this
		# kernel's default on the board is 1024)
		[ "$c" = direct ] || append="$append swiotlb=16384,force"
		if [ -f "$out/$k-$c.log" ] && grep -q '^COHERENT no$' "$out/$k-$c.log" &&
			[ "$(grep -c '^JSON ' "$out/$k-$c.log")" = ${#cells[@]} ]; then
			say "$k kernel, $c: kept from an earlier run in $out"
			continue
		fi
		rm -f "$out/$k-$c.dcount"
		say "$k kernel, $c: ${#cells[@]} cells ($(cat "$dir/release"))"
		if ! DMA_BENCH_KERNEL_DIR=$dir \
			DMA_BENCH_QEMU_ARGS="-plugin $so,out=$out/$k-$c.dcount,vectors=0x$vectors,switch=0x$switch" \
			"$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" -a "$append" -t 3600 -- \
			sh tests/bench/cachesync.sh "$iters" "${cells[@]}" > "$out/$k-$c.log" 2>&1; then
			tail -n 30 "$out/$k-$c.log" >&2
			die "the $k kernel's $c boot failed (log: $out/$k-$c.log)"
		fi
		grep -q '^COHERENT no$' "$out/$k-$c.log" ||
			die "the $k kernel's $c boot did not check the device (log: $out/$k-$c.log)"
	done
done
cachesync_report() {
	PYTHONPATH="$DMA_BENCH_TOP/scripts${PYTHONPATH:+:$PYTHONPATH}" \
		PYTHONDONTWRITEBYTECODE=1 python3 -m report.cachesync "$@"
}
echo "$cmdline" > "$out/command"
cachesync_report table "$out" ${barry:+--barry "$barry"} --elapsed $((SECONDS - t0))
say "results kept in $out/ (table.txt, results.json, results.csv)"
