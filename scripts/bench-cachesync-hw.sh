#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The hardware mode of scripts/bench.sh -C: Barry Song's "dma-mapping:
# arm64: support batched cache sync" timed on a real arm64 machine, before
# and after, with scripts/compare.py's table and Welch's t-test. Under
# QEMU's TCG (the VM mode, scripts/bench-cachesync.sh) a cache operation
# and a barrier cost nothing, so only the counts show there; here the
# times are real.
#
# One run a kernel, on the same machine, device and settings:
#   1. boot the kernel without the series (your 7.3 tree with
#      kernel/patches/v7.3-nobatch/ applied), load the module and run
#        scripts/bench.sh -C --hw before -D DEVICE
#   2. boot the same tree without those patches and run
#        scripts/bench.sh -C --hw after -D DEVICE
#      which, finding the before run in the same directory, compares the
#      two and prints the table (also in DIR/compare.txt).
# Or compare two runs (or two results.json files) made elsewhere:
#        scripts/bench.sh -C --compare BEFORE AFTER
#
# Each run times, with scripts/sweep.py here (not in a VM), one thread
# pinned to CPU 0 on the device bound to dma_map_benchmark, 4 KiB
# entries, RUNS invocations a cell:
#   barry/      Barry's workload: dma_map_sg() of 2560 entries, 200
#               iterations, TO_DEVICE (his 64.61 % is map_us of this cell)
#   DIRECTION/  the sweep, a directory per direction (bidirectional,
#               to_device, from_device): sg of 1, 8, 64, 512 and 2560
#               entries, with --sync, so that the four calls are timed
#               (map_us, unmap_us, sync_cpu_us, sync_device_us)
#   DIRECTION-single/  the control: dma_map_single() of as many pages in
#               one buffer (as much cache maintenance, with one barrier
#               on both kernels), up to 512 (2560 x 4 KiB is more than
#               the buddy allocator's largest block), with --sync
# each a results.json, results.csv and table.txt under DIR/SIDE/, and
# DIR/SIDE/kernel (uname -r -v). The comparison is compare.py's of each
# directory, B (after) against A (before): mean +- SD over the runs, the
# change, and "~" where Welch's t-test finds no significant difference.
#
# usage: scripts/bench.sh -C --hw before|after [options]
#        scripts/bench.sh -C --compare BEFORE AFTER [--alpha A] [-o DIR]
#   --hw SIDE       time this machine's kernel as SIDE
#   -D DEVICE       bind DEVICE (a platform device's name, or a PCI
#                   address) to the module first (default: the device
#                   bound to dma_map_benchmark already)
#   -o DIR          the two runs' directory (default build/results/
#                   cachesync-hw: both runs find it); with --compare,
#                   where compare.txt goes (default: print only)
#   -r RUNS         invocations a cell (default 5)
#   -i N            iterations of each sweep cell (default 200)
#   -B N            iterations of Barry's cell (default 200; 0: leave it out)
#   -e "1 8 ..."    the sweep's entries (default 1 8 64 512 2560)
#   -d "..."        its directions (default bidirectional to_device
#                   from_device; "": no sweep)
#   -s SECONDS      the most a run may last (default 60)
#   --alpha A       the t-test's significance level (default 0.05)
#   --tool PATH     the tool (default: sweep.py's)
#   --any-kernel    do not check that the kernel is SIDE's
# The kernel check: 7.3's series added dcache_clean_poc_nosync(); the
# before kernel must not have it in /proc/kallsyms, the after kernel must.
# An x86 machine, or a dma-coherent device, is refused with the reason:
# their mappings do no cache maintenance, which is all the series changes.
# (DMA_BENCH_HW_MACHINE, DMA_BENCH_HW_KALLSYMS and DMA_BENCH_HW_SYS stand
# for uname -m, /proc/kallsyms and /sys in the host tests.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh's say() prefixes its lines with it
SAY_AS=bench-cachesync

side=
compare=()
device=
out=
runs=5
iters=200
barry_iters=200
entries="1 8 64 512 2560"
dirs="bidirectional to_device from_device"
seconds=60
alpha=0.05
tool=()
any_kernel=
while [ $# -gt 0 ]; do
	case $1 in
	--hw|-D|-o|-r|-i|-B|-e|-d|-s|--alpha|--tool)
		[ $# -ge 2 ] || die "$1 needs a value (see --help)" ;;
	esac
	case $1 in
	--hw) side=$2; shift 2 ;;
	--compare) [ $# -ge 3 ] || die "--compare needs two runs (directories) or two results.json files"
		compare=("$2" "$3"); shift 3 ;;
	-D) device=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-r) runs=$2; shift 2 ;;
	-i) iters=$2; shift 2 ;;
	-B) barry_iters=$2; shift 2 ;;
	-e) entries=$2; shift 2 ;;
	-d) dirs=$2; shift 2 ;;
	-s) seconds=$2; shift 2 ;;
	--alpha) alpha=$2; shift 2 ;;
	--tool) tool=(--tool "$2"); shift 2 ;;
	--any-kernel) any_kernel=1; shift ;;
	-h|--help) sed -n '4,/^set -e/{/^set -e/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done

compare_py() {
	"$DMA_BENCH_TOP/scripts/compare.py" --alpha "$alpha" "$@"
}

# the parts of a run, in the order of the comparison, and their titles
PARTS="barry bidirectional bidirectional-single to_device to_device-single
	from_device from_device-single"
title() {
	case $1 in
	barry) echo "Barry's workload: dma_map_sg() of 2560 x 4 KiB, one thread on CPU 0, TO_DEVICE (the series' figure: map_us -64.61 % on his phone SoC)" ;;
	*-single) echo "The control, ${1%-single}: dma_map_single() of one buffer, 4 KiB pages, one thread on CPU 0, --sync (the series changes nothing here)" ;;
	*) echo "The sweep, $1: dma_map_sg() of 4 KiB entries, one thread on CPU 0, --sync" ;;
	esac
}

# compare_runs A B: compare.py of each part both runs have, a title each;
# its status the worst of compare.py's
compare_runs() {
	local a=$1 b=$2 p n=0 rc=0 st
	if [ -f "$a" ] && [ -f "$b" ]; then
		compare_py "$a" "$b" || rc=$?
		return "$rc"
	fi
	[ -d "$a" ] && [ -d "$b" ] ||
		die "--compare: $a and $b must both be runs of --hw (directories) or both results.json files"
	for f in "$a/kernel" "$b/kernel"; do
		[ ! -f "$f" ] || echo "# $(basename "$(dirname "$f")"): kernel $(cat "$f")"
	done
	for p in $PARTS; do
		[ -f "$a/$p/results.json" ] && [ -f "$b/$p/results.json" ] || continue
		n=$((n + 1))
		echo
		echo "== $(title "$p")"
		st=0
		compare_py "$a/$p/results.json" "$b/$p/results.json" || st=$?
		[ "$st" -le "$rc" ] || rc=$st
	done
	[ "$n" -gt 0 ] || die "--compare: $a and $b have no part in common (barry/, bidirectional/, to_device/, from_device/ and their -single/)"
	return "$rc"
}

if [ ${#compare[@]} -gt 0 ]; then
	[ -z "$side" ] || die "--hw and --compare are two modes: give one"
	rc=0
	if [ -n "$out" ]; then
		mkdir -p "$out"
		compare_runs "${compare[@]}" | tee "$out/compare.txt" || rc=${PIPESTATUS[0]}
		say "the comparison is in $out/compare.txt"
	else
		compare_runs "${compare[@]}" || rc=$?
	fi
	exit "$rc"
fi

case $side in
before|after) ;;
"") die "the hardware mode needs --hw before or --hw after (or --compare BEFORE AFTER)" ;;
*) die "--hw $side: before or after" ;;
esac
for n in "$runs" "$iters" "$seconds"; do
	[[ $n =~ ^[1-9][0-9]*$ ]] || die "-r, -i and -s take positive numbers, got '$runs', '$iters', '$seconds'"
done
[ "$runs" -ge 2 ] || die "-r $runs: the t-test needs at least 2 runs a cell"
[[ $barry_iters =~ ^[0-9]+$ ]] || die "-B $barry_iters: a number of iterations"
for e in $entries; do
	[[ $e =~ ^[1-9][0-9]*$ ]] && [ "$e" -le 65536 ] || die "-e: $e entries: 1..65536"
done
for d in $dirs; do
	case $d in bidirectional|to_device|from_device) ;; *) die "-d: no direction $d" ;; esac
done
[ -n "${entries// /}" ] || [ -z "${dirs// /}" ] || die "-e is empty"
[ "$barry_iters" -gt 0 ] || [ -n "${dirs// /}" ] || die "-B 0 and -d \"\": nothing to time"

sys=${DMA_BENCH_HW_SYS:-/sys}
kallsyms=${DMA_BENCH_HW_KALLSYMS:-/proc/kallsyms}
machine=${DMA_BENCH_HW_MACHINE:-$(uname -m)}
case $machine in
aarch64|arm64) ;;
*) die "this machine is $machine: the series changes arm64's cache maintenance only (on x86 DMA is cache-coherent: a mapping does none), so there is nothing to time here; run it on an arm64 machine, or count the instructions in the VM: scripts/bench.sh -C" ;;
esac

# the kernel is SIDE's: 7.3's series added dcache_clean_poc_nosync()
if [ -z "$any_kernel" ]; then
	[ -r "$kallsyms" ] && [ -s "$kallsyms" ] ||
		die "cannot read $kallsyms to tell whether this kernel has the series (--any-kernel: skip the check)"
	if grep -qw dcache_clean_poc_nosync "$kallsyms"; then
		[ "$side" = after ] ||
			die "this kernel ($(uname -r)) has the batched cache sync (dcache_clean_poc_nosync in $kallsyms): the before run wants the same tree with kernel/patches/v7.3-nobatch/ applied (--any-kernel: skip the check)"
	else
		[ "$side" = before ] ||
			die "this kernel ($(uname -r)) has no batched cache sync (no dcache_clean_poc_nosync in $kallsyms): the after run wants a kernel with the series (every 7.1 or later; without kernel/patches/v7.3-nobatch/) (--any-kernel: skip the check)"
	fi
fi

if [ -n "$device" ]; then
	bus=
	for b in platform pci; do
		[ ! -e "$sys/bus/$b/devices/$device" ] || { bus=$b; break; }
	done
	[ -n "$bus" ] || die "-D $device: no such platform or PCI device in $sys/bus"
	if [ ! -e "$sys/bus/$bus/drivers/dma_map_benchmark/$device" ]; then
		[ -d "$sys/bus/$bus/drivers/dma_map_benchmark" ] ||
			die "the module is not loaded: modprobe dma_map_benchmark (or insmod kernel/dma/dma_map_benchmark.ko)"
		[ ! -e "$sys/bus/$bus/devices/$device/driver" ] ||
			die "$device is bound to $(basename "$(readlink -f "$sys/bus/$bus/devices/$device/driver")"): unbind it first (echo $device > $sys/bus/$bus/devices/$device/driver/unbind)"
		say "binding $device to dma_map_benchmark"
		echo dma_map_benchmark > "$sys/bus/$bus/devices/$device/driver_override"
		echo "$device" > "$sys/bus/$bus/drivers_probe"
	fi
fi
bound=()
for b in platform pci; do
	for d in "$sys/bus/$b/drivers/dma_map_benchmark"/*; do
		# its devices are symlinks, and so is its module
		[ -L "$d" ] && [ "$(basename "$d")" != module ] || continue
		bound+=("$b:$(basename "$d")")
	done
done
[ ${#bound[@]} -gt 0 ] ||
	die "no device is bound to dma_map_benchmark: give -D DEVICE (a non-coherent platform device), or bind one (Documentation/reproducing.rst)"
[ ${#bound[@]} = 1 ] ||
	die "${#bound[@]} devices are bound to dma_map_benchmark (${bound[*]}): the tool measures one; unbind the others"
dev=${bound[0]#*:}
bus=${bound[0]%%:*}
# the device must be non-coherent: else there is no cache maintenance
node=$(readlink -f "$sys/bus/$bus/devices/$dev/of_node" 2>/dev/null || true)
if [ -n "$node" ] && [ -d "$node" ]; then
	n=$node
	while [ "$n" != / ] && [ "$n" != . ] && [ "$(basename "$n")" != base ]; do
		[ ! -e "$n/dma-coherent" ] ||
			die "$dev is dma-coherent ($n): its mappings do no cache maintenance, which is all the series changes; bind a device without dma-coherent"
		n=$(dirname "$n")
	done
else
	say "$dev has no device tree node: whether it is coherent is the firmware's (ACPI _CCA); the counts in the VM mode say what a non-coherent one does"
fi
out_given=$out
[ -n "$out" ] || out=$DMA_BENCH_BUILD/results/cachesync-hw
mkdir -p "$out/$side"
{ uname -r; uname -v; } | paste -sd ' ' > "$out/$side/kernel"
say "$side: kernel $(cat "$out/$side/kernel"), device $bus:$dev, results in $out/$side/"

sweep() {
	local name=$1
	shift
	say "$side: $(title "$name")"
	python3 "$DMA_BENCH_TOP/scripts/sweep.py" ${tool[@]+"${tool[@]}"} --map --threads 1 \
		--seconds "$seconds" --runs "$runs" --label "$side" --force -q \
		-o "$out/$side/$name" "$@" > "$out/$side/$name.log" 2>&1 ||
		{ tail -n 20 "$out/$side/$name.log" >&2; die "the $name sweep failed (log: $out/$side/$name.log)"; }
	[ -f "$out/$side/$name/results.json" ] ||
		die "the $name sweep wrote no results.json (log: $out/$side/$name.log)"
}
t0=$SECONDS
if [ "$barry_iters" -gt 0 ]; then
	sweep barry --map-modes sg --granules 2560 \
		"--tool-args=--entry-size 4K --iterations $barry_iters --cpus 0 -d to_device"
fi
# shellcheck disable=SC2086 # the entries, a word each
sg_granules=$(printf '%s\n' $entries | paste -sd ,)
# shellcheck disable=SC2086
single_granules=$(printf '%s\n' $entries | awk '$1 <= 512' | paste -sd ,)
for d in $dirs; do
	sweep "$d" --map-modes sg --granules "$sg_granules" \
		"--tool-args=--entry-size 4K --iterations $iters --cpus 0 --sync -d $d"
	[ -z "$single_granules" ] ||
		sweep "$d-single" --map-modes single --granules "$single_granules" \
			"--tool-args=--entry-size 4K --iterations $iters --cpus 0 --sync -d $d"
done
say "$side: done in $((SECONDS - t0)) s"

other=before
[ "$side" = after ] || other=after
if [ -d "$out/$other" ]; then
	rc=0
	compare_runs "$out/before" "$out/after" | tee "$out/compare.txt" || rc=${PIPESTATUS[0]}
	say "the comparison is in $out/compare.txt"
	exit "$rc"
fi
say "now boot the $other kernel and run: scripts/bench.sh -C --hw $other${device:+ -D $device}${out_given:+ -o $out_given}"
