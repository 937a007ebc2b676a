#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job: set up, build everything, boot a throwaway VM running the
# kernel with DMA_MEMCPY_SG restored, load soft_dma, and print the
# per-segment memcpy, memcpy_sg and CPU-copy table for 1 and 4 channels,
# one batch in flight and four, distinct folios every batch. The tables
# are also kept in build/results/ (scripts/sweep.py gives CSV and JSON).
# On a board (a machine whose VM_GUEST_ENV names HWDMA_DRIVER) the table
# is the hardware driver's, on HWDMA_DEVICE's channels if it names one.
#
# With -g, the migration table instead, shaped like the mail's first:
# move_pages() of anonymous folios from node 0 to node 1 (the machine
# booted with numa=fake=2), GB/s of the CPU copy and of the copy offload
# (kernel/patches/v7.3-migrate) with each prep mode, per folio order (0,
# 4, 8 and 9) and channel count (1, 4, 8 and 16; soft_dma loaded with
# the most), with soft_dma copying and in nocopy mode, every move
# verified, and the copy's share of the move; the offload's phases a
# batch and a folio (phases.txt; printed with -v); then the concurrency
# table: 1, 2 and 4 processes moving at once (the tool's --movers), each
# its own buffer of 4 KB folios, over 4 channels: the aggregate GB/s of
# the cpu row and of each prep mode, and the folios the offload declined
# and let fall back (tools/testing/guest/bench/migrate.sh; the tables,
# phases.txt and results.json/.csv in build/results/migrate-DATE/). The
# default is short (16 MB a move, 3 runs: 129 s on 2 quiet cores);
# --mail (-G) is the mail's own size, 1 GB a move and 10 runs, about 4.5
# hours under TCG by that run's estimate (each -g run prints one).
# On a board (arm64-zcu102-73: ZDMA, the patched 7.3 debug kernel booted
# with numa=fake=2, two nodes of about 850 MB) -g moves through the
# machine's engine (VM_GUEST_ENV's HWDMA_DRIVER), no soft_dma and no
# nocopy table: folio orders 0, 4 and 9, channels 1, 4 and 8 (each GDMA
# channel a DMA device of its own), the same 16 MB a move, 2 MB a mover
# (four movers are four busy processes on the board's four emulated
# CPUs: 16 MB each took more than 20 minutes under TCG).
# -g refuses a machine whose kernel has no migration hook (Debian's, the
# stock one, the 32-bit arm one) and the guest one that gives no second
# node.
#
# With -C (--cache-sync), the batched cache sync's table instead, the
# rest of the arguments scripts/bench-cachesync.sh's: per DMA API call
# (dma_map_sg, dma_unmap_sg, dma_sync_sg_for_cpu/_for_device, and
# dma_map_page as the control) on the ZCU102's non-coherent device, the
# data-cache operations by kind and the barriers the guest executed,
# counted by a QEMU TCG plugin, before (kernel/patches/v7.3-nobatch) and
# after (7.3) Barry Song's "dma-mapping: arm64: support batched cache
# sync", for his workload (2560 x 4 KiB, 200 iterations, one pinned
# thread) and a sweep (1 to 2560 entries, three directions, direct and
# swiotlb=force); both kernels built when missing. On a real arm64
# machine, -C --hw before and, under the other kernel, -C --hw after time
# the same workload and sweep instead, and the second prints compare.py's
# before/after table with Welch's t-test (scripts/bench-cachesync-hw.sh).
#
# usage: scripts/bench.sh [-m MACHINE] [-c CHANNELS...] [-d DEPTHS...]
#                         [-n] [-M MEMORY] [-- TOOL_OPTIONS...]
#        scripts/bench.sh -C|--cache-sync [bench-cachesync.sh's options]
#        scripts/bench.sh -C --hw before|after [-D DEVICE] [...]
#        scripts/bench.sh -C --compare BEFORE AFTER
#        scripts/bench.sh -g|-G|--mail [-m MACHINE] [-c CHANNELS...]
#                         [-o ORDERS...] [-P MOVERS...] [-b BYTES] [-n] [-v]
#                         [-M MEMORY] [-- TOOL_OPTIONS...]
#   -m MACHINE   a file of scripts/vm/machines (default: x86-bench, the
#                patched kernel without debug options; arm64-zcu102-73:
#                ZDMA, arm-exynos4210-73: PL330)
#   -c "1 4"     channel counts, one table each (default: 1 4)
#   -d "1 4"     batches in flight, one table each (default: 1 4)
#   -n           soft_dma completes without copying (its nocopy knob): the
#                framework's and the driver's cost alone, for comparing the
#                prep forms; the cpu row still copies
#   -M 12G       guest RAM instead of the machine's (large folios x sge)
#   TOOL_OPTIONS replace the defaults: --sge 512 --bytes-per-channel 32M --runs 10
#   -g           the migration table (x86 bench kernel: it has the hook)
#   -G, --mail   -g at the mail's size: TOOL_OPTIONS --bytes 1G --runs 10
#                --warmup-runs 1, -M 4G (1 GB must fit in each node's free
#                memory), a VM timeout of a day
#   -c "1 4 8 16" -g: channel counts, a column each (default: 1 4 8 16;
#                on a board 1 4 8)
#   -o "0 4 8 9" -g: folio orders, lines each (default: 0 4 8 9; on a
#                board 0 4 9)
#   -n           with -g: only the nocopy table (default: copying, then
#                nocopy; refused on a board, whose engine copies)
#   -v           with -g: print the phase tables too (always in phases.txt)
#   -P "1 2 4"   -g: the concurrency table's counts of movers ("": none)
#   -b 16M       -g: the bytes each mover of the concurrency table moves
#                (default 16M; on a board 2M)
#   TOOL_OPTIONS with -g replace: --bytes 16M --runs 3 --warmup-runs 1
#                (the concurrency table: --bytes is -b's)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

machine=${DMA_BENCH_MACHINE:-x86-bench}
cmdline="scripts/bench.sh${*:+ $*}"
chans=
depths="1 4"
nflag=
migrate=
mail=
verbose=
orders=
movers="1 2 4"
mover_bytes=
memory=()
while [ $# -gt 0 ]; do
	case $1 in
	-C|--cache-sync) shift; exec "$DMA_BENCH_TOP/scripts/bench-cachesync.sh" "$@" ;;
	-m) machine=$2; shift 2 ;;
	-c) chans=$2; shift 2 ;;
	-d) depths=$2; shift 2 ;;
	-n) nflag=-n; shift ;;
	-g) migrate=1; shift ;;
	-G|--mail) migrate=1; mail=1; shift ;;
	-v) verbose=-v; shift ;;
	-o) orders=$2; shift 2 ;;
	-P) movers=$2; shift 2 ;;
	-b) mover_bytes=$2; shift 2 ;;
	-M) memory=(-M "$2"); shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '4,/^set -e/{/^set -e/!p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
opts=("$@")
conf=$DMA_BENCH_TOP/scripts/vm/machines/$machine.conf
[ -f "$conf" ] || die "no machine $machine (scripts/vm/machines/)"
# what -g needs of the machine: a kernel of this project's (the hook,
# kernel/patches/v7.3-migrate) that emulates NUMA; its engine, on a board
# shellcheck disable=SC1090,SC2086 # a machine file; NAME=VALUE words
read -r m_arch m_kind hwdrv < <(. "$conf"; printf '%s %s %s\n' \
	"${VM_ARCH:-?}" "${VM_KERNEL_KIND:-?}" \
	"$(printf '%s\n' ${VM_GUEST_ENV:-} | sed -n 's/^HWDMA_DRIVER=//p')")
if [ -n "$migrate" ]; then
	hook_machines="x86-bench (soft_dma) or -m arm64-zcu102-73 (ZDMA)"
	case $m_kind in
	debug|bench) ;;
	*) die "-g: machine $machine boots a $m_kind kernel, which has no migration copy-offload hook (kernel/patches/v7.3-migrate): use -m $hook_machines, whose kernels this project builds with it" ;;
	esac
	[ "$m_arch" != arm ] ||
		die "-g: machine $machine's 32-bit arm kernel has no NUMA, so no second node (and no kernel/patches/v7.3-migrate): use -m $hook_machines, whose kernels emulate two nodes (NUMA_EMU, numa=fake=2)"
	if [ -n "$hwdrv" ]; then
		[ -z "$nflag" ] ||
			die "-g -n: machine $machine's engine ($hwdrv) copies; nocopy is soft_dma's (-m x86-bench)"
		[ -n "$orders" ] || orders="0 4 9"
		[ -n "$chans" ] || chans="1 4 8"
		[ -n "$mover_bytes" ] || mover_bytes=2M
	fi
fi
[ -n "$orders" ] || orders="0 4 8 9"
[ -n "$mover_bytes" ] || mover_bytes=16M
# the --mail preset: the mail's own size (its time: each -g run's estimate)
mail_bytes=1G
mail_bytes_n=$((1 << 30))	# the same, for the estimate
mail_runs=10
mail_warmup_runs=1
mail_memory=4G
vm_timeout=7200
if [ -n "$mail" ]; then
	[ ${#opts[@]} -gt 0 ] || opts=(--bytes "$mail_bytes" --runs "$mail_runs"
		--warmup-runs "$mail_warmup_runs")
	[ ${#memory[@]} -gt 0 ] || memory=(-M "$mail_memory")
	vm_timeout=86400
elif [ -n "$migrate" ]; then
	[ ${#opts[@]} -gt 0 ] || opts=(--bytes 16M --runs 3 --warmup-runs 1)
else
	[ ${#opts[@]} -gt 0 ] || opts=(--sge 512 --bytes-per-channel 32M --runs 10 --warmup-runs 1)
fi
if [ -z "$chans" ]; then
	chans="1 4"
	[ -z "$migrate" ] || chans="1 4 8 16"
fi

"$DMA_BENCH_TOP/scripts/setup.sh" bench
say "building the modules and the tool"
make -s -C "$DMA_BENCH_TOP" all >/dev/null

results=$DMA_BENCH_BUILD/results
mkdir -p "$results"
stamp=$(date +%Y%m%d-%H%M%S)

say "booting $machine: the first run builds its kernel (minutes), later runs reuse it"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ -n "$migrate" ]; then
	# soft_dma's modes, or the board's engine (hw: no soft_dma)
	sdmodes="copy nocopy"
	[ -z "$nflag" ] || sdmodes=nocopy
	[ -z "$hwdrv" ] || sdmodes=hw
	# the guest side: tools/testing/guest/bench/migrate.sh, a JSON line a cell
	# (its progress lines shown, the JSON kept)
	if "$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" -a numa=fake=2 \
		${memory[@]+"${memory[@]}"} -t "$vm_timeout" -- \
		sh tests/bench/migrate.sh "'$chans'" "'$orders'" "'$sdmodes'" \
		"'$movers'" "$mover_bytes" "${opts[@]}" | tee "$out" |
		{ grep --line-buffered -Ev '^@(migrate|movers) ' || :; }
	then
		rc=0
	else
		rc=${PIPESTATUS[0]}
	fi
	[ "$rc" = 0 ] || die "the migration benchmark failed in the VM (exit $rc)"
	dir=$results/migrate-$stamp
	# the preset's cells: 4 orders x 4 channel counts x copy and nocopy
	# (a board: 3 orders x 3 channel counts, its engine)
	est=()
	ncells=32
	[ -z "$hwdrv" ] || ncells=9
	[ -n "$mail" ] || est=(--estimate mail "$mail_bytes_n" \
		"$mail_runs" "$mail_warmup_runs" "$ncells")
	bench_report migrate-table "$out" "$dir" --elapsed "$SECONDS" \
		"--command=$cmdline" ${est[@]+"${est[@]}"} $verbose
	say "results kept in $dir/ (table.txt, phases.txt, results.json, results.csv)"
	exit 0
fi
# One boot: the guest (tools/testing/guest/bench/tables.sh) prints a table
# per depth and channel count.
if "$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" ${memory[@]+"${memory[@]}"} -t 3600 -- \
	sh tests/bench/tables.sh $nflag "'$chans'" "'$depths'" "${opts[@]}" | tee "$out"
then
	rc=0
else
	rc=${PIPESTATUS[0]}
fi
[ "$rc" = 0 ] || die "the benchmark failed in the VM (exit $rc)"
cp "$out" "$results/bench-$stamp.txt"
say "results kept in $results/bench-$stamp.txt"
