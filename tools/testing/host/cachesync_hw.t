#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The hardware mode of scripts/bench.sh -C (scripts/bench-cachesync-hw.sh)
# on a made-up machine, since it needs an arm64 board: /sys, /proc/kallsyms
# and uname -m stand-ins (DMA_BENCH_HW_SYS, _KALLSYMS, _MACHINE) and
# fixtures/fake_tool.py for the tool. Its refusals (an x86 machine, a
# kernel that is not the side's, no device bound, a dma-coherent one, too
# few runs, --compare of a file and a directory); the tool's command lines
# (Barry's workload, the sweep's sg and single cells with --sync in each
# direction); a before run, then an after run whose sg map and
# sync_for_device take 35 % of the time (FAKE_TOOL_SG_FACTOR): the second
# run prints compare.py's table, Barry's map_us -65 % and significant, the
# unchanged calls and the single-buffer control within the noise; --compare
# of the two runs and of two results.json files; -D binding a device.
. "$(dirname "$0")/lib.sh"

# compare.py runs on Debian's python3, the one python3-scipy is for
PATH=/usr/bin:$PATH
need python3
if ! python3 -c 'import scipy.stats' 2>/dev/null; then
	tap_skip "not installed: python3-scipy (scripts/setup.sh installs it)"
	tap_end
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
HW=$TOP/scripts/bench.sh
FAKE=$TOP/tools/testing/host/fixtures/fake_tool.py

# a board: its non-coherent platform device bound to dma_map_benchmark
mkdir -p "$T/sys/bus/platform/devices/ff000000.map" \
	"$T/sys/bus/platform/drivers/dma_map_benchmark" "$T/sys/bus/pci/devices" \
	"$T/dt/base/soc/map"
ln -s "$T/dt/base/soc/map" "$T/sys/bus/platform/devices/ff000000.map/of_node"
ln -s "$T/sys/bus/platform/devices/ff000000.map" \
	"$T/sys/bus/platform/drivers/dma_map_benchmark/ff000000.map"
ln -s /nonexistent/module "$T/sys/bus/platform/drivers/dma_map_benchmark/module"
printf 'ffff800080010800 T vectors\n' > "$T/ksyms-before"
printf 'ffff800080010800 T vectors\nffff8000800a1234 T dcache_clean_poc_nosync\n' > "$T/ksyms-after"
export DMA_BENCH_HW_SYS=$T/sys DMA_BENCH_HW_MACHINE=aarch64
export FAKE_TOOL_COUNTER=$T/counter FAKE_TOOL_LOG=$T/argv

# hw SIDE ARGS...: a run of SIDE on its kernel, into $T/out, 2 runs a
# cell, the sweep's entries 8, 512 and 2560 in two directions (the
# defaults' 5 runs, five entries and three directions: slow here)
hw() {
	local side=$1
	shift
	DMA_BENCH_HW_KALLSYMS=$T/ksyms-$side "$HW" -C --hw "$side" -o "$T/out" -r 2 \
		-e "8 512 2560" -d "to_device from_device" --tool "$FAKE" "$@"
}
refused() {	# refused PATTERN COMMAND...: fails, saying PATTERN
	local pat=$1
	shift
	! "$@" > "$T/msg" 2>&1 || { echo "exit status 0"; cat "$T/msg"; return 1; }
	cat "$T/msg"
	grep -q -- "$pat" "$T/msg"
}

check_output "an x86 machine is refused: coherent, nothing to time" \
	'this machine is x86_64: .* cache-coherent' \
	refused 'cache-coherent' env DMA_BENCH_HW_MACHINE=x86_64 "$HW" -C --hw before
check_output "--hw before on a kernel with the series is refused" \
	'has the batched cache sync .*v7\.3-nobatch' \
	refused 'has the batched' env DMA_BENCH_HW_KALLSYMS="$T/ksyms-after" "$HW" -C --hw before
check_output "--hw after on a kernel without it is refused" \
	'has no batched cache sync' \
	refused 'has no batched' env DMA_BENCH_HW_KALLSYMS="$T/ksyms-before" "$HW" -C --hw after
check_output "a side that is neither is refused" '--hw sideways: before or after' \
	refused 'before or after' "$HW" -C --hw sideways
check_output "one run a cell is refused: the t-test needs two" \
	'-r 1: the t-test needs at least 2 runs' refused 'at least 2' hw before -r 1
mkdir -p "$T/nosys/bus/platform/drivers/dma_map_benchmark" "$T/nosys/bus/pci"
check_output "no device bound is refused, saying how to bind one" \
	'no device is bound to dma_map_benchmark: give -D DEVICE' \
	refused 'no device is bound' env DMA_BENCH_HW_SYS="$T/nosys" \
	DMA_BENCH_HW_KALLSYMS="$T/ksyms-before" "$HW" -C --hw before
touch "$T/dt/base/soc/dma-coherent"
check_output "a device under a dma-coherent node is refused" \
	'ff000000.map is dma-coherent .*: its mappings do no cache maintenance' \
	refused 'dma-coherent' hw before
rm "$T/dt/base/soc/dma-coherent"
[ ! -e "$T/out" ] || tap_not_ok "a refused run left $T/out"

check "the before run" hw before
check_fails "... leaves the comparison to the after run" test -e "$T/out/compare.txt"
argv_has() {	# argv_has WORDS...: a logged command line holds WORDS in order
	grep -q -- "$*" "$T/argv" || { cat "$T/argv"; return 1; }
}
check "Barry's workload: sg of 2560 x 4 KiB, 200 iterations, CPU 0, TO_DEVICE" \
	argv_has "-m sg -g 2560 -t 1 -s 60 --entry-size 4K --iterations 200 --cpus 0 -d to_device --json"
check "the control: single of up to 512 pages in each direction, with --sync" \
	argv_has "-m single -g 512 -t 1 -s 60 --entry-size 4K --iterations 200 --cpus 0 --sync -d from_device --json"
check "the sweep: sg of 8 entries, to_device" \
	argv_has "-m sg -g 8 -t 1 -s 60 --entry-size 4K --iterations 200 --cpus 0 --sync -d to_device --json"
cells=$(grep -c . "$T/argv")
check_output "2 runs of 1 + 2 x (3 sg + 2 single) cells" '^22$' echo "$cells"
check_fails "no single buffer of 2560 pages (above the buddy allocator's largest)" \
	grep -q -- '-m single -g 2560' "$T/argv"

rc=0
FAKE_TOOL_SG_FACTOR=0.35 hw after > "$T/after.out" 2>&1 || rc=$?
check "the after run compares, exit 0" test "$rc" = 0
check_output "... and prints compare.py's table" \
	'^== Barry.s workload: dma_map_sg\(\) of 2560 x 4 KiB' cat "$T/after.out"
check "... kept in compare.txt" cmp -s <(sed -n '/^# before: /,$p' "$T/after.out" | grep -v '^\[') "$T/out/compare.txt"
barry_row() {	# the first map_us row after Barry's title
	sed -n '/^== Barry/,/^== /p' "$T/out/compare.txt" | grep -A1 '^map_us ' | tail -n 1
}
check_output "Barry's map_us: -65 %, significant" \
	'^sg granule=2560 threads=1 +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +-6[45]\.[0-9]{2}% \(p=0\.0[0-4][0-9] n=2\+2\)$' barry_row
part() {	# part TITLE FIGURE MODE GRANULE: its row of that part's table
	sed -n "/^== $1:/,/^== /p" "$T/out/compare.txt" |
		sed -n "/^$2 /,/^\$/p" | grep "^$3 granule=$4 threads=1 "
}
check_output "from_device: sg sync_device -65 %, significant" \
	'-6[45]\.[0-9]{2}% \(p=0\.0[0-4][0-9] n=2\+2\)$' part "The sweep, from_device" sync_device_us sg 512
check_output "from_device: sg unmap unchanged: ~" '~ \(p=[0-9.]+ n=2\+2\)$' \
	part "The sweep, from_device" unmap_us sg 512
check_output "to_device: the single-buffer control unchanged: ~" '~ \(p=[0-9.]+ n=2\+2\)$' \
	part "The control, to_device" map_us single 512
check_output "the labels are the sides" '^map_us +before +after +delta$' \
	sed -n '/^== Barry/,/^== /p' "$T/out/compare.txt"

check "--compare of the two runs prints the same table" \
	cmp -s <("$HW" -C --compare "$T/out/before" "$T/out/after" 2>/dev/null) "$T/out/compare.txt"
check_output "--compare of two results.json files: compare.py's table" \
	'^sg granule=2560 threads=1 .* -6[45]\.[0-9]{2}% \(p=0\.0[0-4][0-9] n=2\+2\)$' \
	"$HW" -C --compare "$T/out/before/barry/results.json" "$T/out/after/barry/results.json"
check_output "--compare of a file and a directory is refused" \
	'must both be runs of --hw .* or both results.json files' \
	refused 'must both' "$HW" -C --compare "$T/out/before" "$T/out/after/barry/results.json"

# -D binds an unbound device through driver_override and drivers_probe
mkdir -p "$T/sys/bus/platform/devices/ff100000.other"
: > "$T/sys/bus/platform/drivers_probe"
bind_other() {
	DMA_BENCH_HW_KALLSYMS=$T/ksyms-before "$HW" -C --hw before -D ff100000.other \
		-o "$T/out2" --tool "$FAKE" -d "" -B 2 > "$T/bind.out" 2>&1 || true
	[ "$(cat "$T/sys/bus/platform/devices/ff100000.other/driver_override")" = dma_map_benchmark ] &&
		[ "$(cat "$T/sys/bus/platform/drivers_probe")" = ff100000.other ] ||
		{ cat "$T/bind.out"; return 1; }
}
check "-D DEVICE binds it: driver_override, drivers_probe" bind_other
check_output "-D of no such device is refused" '-D nosuch: no such platform or PCI device' \
	refused 'no such' env DMA_BENCH_HW_KALLSYMS="$T/ksyms-before" "$HW" -C --hw before -D nosuch
tap_end
