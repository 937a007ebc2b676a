#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Benchmark (not a test) of what the page-migration copy-offload hook of
# kernel/patches/v7.3-migrate/ costs when no provider is registered: the
# CPU's move_pages() GB/s on the bench kernel (the hook compiled in: a
# static branch in migrate_pages_batch(), off) against the same kernel
# with CONFIG_MIGRATION_COPY_OFFLOAD=n (scripts/kernel/hookoff-kernel.sh:
# the same source and configuration otherwise; the hook's four patches put
# all of their code under that option, the v7.3-mm fix that its series
# lists first stays in both), booted alternately in one session, with the
# ratio hook/nohook and Welch's t-test of scripts/compare.py.
#
# usage: scripts/bench-hook-off.sh [options]
#   -r, --rounds N        boots of each kernel, alternating (default: 3)
#   -f, --orders "LIST"   folio orders, e.g. "0 4 9" (default: "0 9": 4K, 2M)
#   -b, --bytes SIZE      memory moved a run (default: 32M)
#   -n, --runs N          timed runs of an order in a boot (default: 10)
#   -w, --warmup-runs N   untimed runs first (default: 1)
#   -m, --machine NAME    the bench kernel's machine (default: x86-bench)
#   -a, --append ARGS     extra kernel command line for both
#   -o, --output DIR      where results.json, results.csv and table.txt go
#                         (default: build/results/bench-hook-off-DATE)
#
# Each boot (numa=fake=2) runs the tool's -m migrate with --prep-modes cpu
# and no module loaded, for each folio order: move_pages() of --bytes of
# anonymous memory node 0 -> node 1 and back, the CPU copying; GB/s is
# --bytes over one move's time (tools/testing/guest/bench/hookoff.sh).
# The guest says whether its kernel has the hook (its sysfs directory),
# and a boot of the wrong kernel is an error. The table gives, per folio
# order, the mean GB/s with and without the hook over all runs of all
# boots, their ratio, and Welch's p-value over the runs and over the
# boots' means (scripts/report/hookoff.py). Under QEMU TCG on shared cores
# the spread between runs and boots is wide: a p-value above 0.05 says no
# difference was seen at this resolution, not that there is none. The runs
# of a boot share its conditions (the host's load then), so the p over the
# boots' means is the one to read; a p below 0.05 that a second session
# does not repeat is the host's noise (Documentation/results.rst has one).
# Exit status: 0, or 1 on an error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rounds=3
orders="0 9"
bytes=32M
runs=10
warmup=1
machine=x86-bench
append=
output=

while [ $# -gt 0 ]; do
	case $1 in
	-r|--rounds) rounds=$2; shift 2 ;;
	-f|--orders) orders=$2; shift 2 ;;
	-b|--bytes) bytes=$2; shift 2 ;;
	-n|--runs) runs=$2; shift 2 ;;
	-w|--warmup-runs) warmup=$2; shift 2 ;;
	-m|--machine) machine=$2; shift 2 ;;
	-a|--append) append="$append $2"; shift 2 ;;
	-o|--output) output=$2; shift 2 ;;
	-h|--help) sed -n '4,39p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
for n in "$rounds" "$runs"; do
	[[ $n == [1-9]* && $n != *[!0-9]* ]] ||
		die "--rounds and --runs take positive numbers, got '$rounds' and '$runs'"
done
[[ -n $warmup && $warmup != *[!0-9]* ]] ||
	die "--warmup-runs takes a number, got '$warmup'"
[ -n "${orders// /}" ] || die "--orders is empty"
for o in $orders; do
	[[ $o != *[!0-9]* ]] && [ "$o" -le 20 ] ||
		die "--orders takes folio orders such as 0 4 9, got '$o'"
done
[[ $bytes == [1-9]* ]] || die "--bytes takes a size such as 32M, got '$bytes'"
# the tool checks the values themselves in the guest, naming the field

"$DMA_BENCH_TOP/scripts/setup.sh" bench
stamp=$(date +%Y%m%d-%H%M%S)
output=${output:-$DMA_BENCH_BUILD/results/bench-hook-off-$stamp}
mkdir -p "$output"
raw=$output/raw.txt
: > "$raw"
t0=$SECONDS

say "the bench kernel (the first run builds it if it is not cached: minutes)"
hook_dir=$("$DMA_BENCH_TOP/scripts/kernel/build-debug-kernel.sh" --flavor bench | tail -n 1)
say "the same kernel with CONFIG_MIGRATION_COPY_OFFLOAD=n (the first run derives it: minutes)"
nohook_dir=$("$DMA_BENCH_TOP/scripts/kernel/hookoff-kernel.sh" "$hook_dir" | tail -n 1)
say "hook: $hook_dir"
say "nohook: $nohook_dir"
say "move_pages() cpu row: folio orders $orders, --bytes $bytes, $runs runs" \
	"after $warmup warm-up, $rounds round(s)"
[ -z "$append" ] || say "kernel command line of both: +$append"
say "host load (1/5/15 min): $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPU(s)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# boot KIND ROUND: one boot of the hook or nohook kernel, its lines
# appended to $raw
boot() {
	local kind=$1 r=$2 dir
	dir=$hook_dir
	[ "$kind" = hook ] || dir=$nohook_dir
	say "round $r/$rounds: $kind kernel"
	# shellcheck disable=SC2086 # a list of orders
	bench_boot "$output" "$kind" "$r" order_line \
		env DMA_BENCH_KERNEL_DIR="$dir" "$DMA_BENCH_TOP/scripts/vm/run.sh" -q -m "$machine" \
		-t 3600 -a "numa=fake=2$append" -- \
		sh tests/bench/hookoff.sh "$bytes" "$runs" "$warmup" $orders
}

# order_line KIND ROUND ORDER JSON: what a boot's folio order gave
# shellcheck disable=SC2317 # bench_boot runs it
order_line() {
	say "round $2/$rounds: $1, folio order $3: $(hookoff_report line "$4")"
}

hookoff_report() {
	PYTHONPATH="$DMA_BENCH_TOP/scripts${PYTHONPATH:+:$PYTHONPATH}" \
		PYTHONDONTWRITEBYTECODE=1 python3 -m report.hookoff "$@"
}

r=1
while [ "$r" -le "$rounds" ]; do
	# alternate the order, so that a drift of the host load hits both
	if [ $((r % 2)) = 1 ]; then
		boot hook "$r"
		boot nohook "$r"
	else
		boot nohook "$r"
		boot hook "$r"
	fi
	r=$((r + 1))
done

rc=0
hookoff_report table "$output" --bytes "$bytes" --runs "$runs" \
	--warmup "$warmup" --orders "$orders" --machine "$machine" \
	--append "${append# }" --load-before "$load_before" \
	--load-after "$(cut -d' ' -f1-3 /proc/loadavg)" --cpus "$(nproc)" \
	--hook-kernel "$hook_dir" --nohook-kernel "$nohook_dir" || rc=$?
say "results in $output (results.json, results.csv, table.txt, compare.txt," \
	"raw.txt, logs); $((SECONDS - t0)) s"
exit "$rc"
