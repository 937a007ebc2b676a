#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench-cachesync.sh (busybox sh, in the arm64
# VM, under QEMU with the cache-maintenance counter's plugin loaded):
#   sh tests/bench/cachesync.sh ITERATIONS CELL...
# CELL is MODE:ENTRIES:DIR[:ITERATIONS] (sg:2560:to_device:200; MODE sg or
# single, DIR bidirectional, to_device or from_device). It binds the
# benchmark to the non-coherent platform device HWDMA_MAP_DEVICE, then
# prints "KERNEL release version", "CONFIG direct|swiotlb" and "COHERENT
# no", dumps the counter (the boot so far), loads the module, binds the
# device and dumps again, sleeps a second and dumps again (the idle
# baseline: what the whole guest executes in a second outside any
# window), then per cell runs the tool pinned to CPU 0 with
# --sync (map, sync_for_cpu, sync_for_device, unmap: each in the
# module's windows), dumps, and prints "DUMP N CELL" and the tool's JSON as
# "JSON CELL {...}". Dump N is the plugin's dump number N.

. "$PROJECT/tests/lib.sh"
iterations=$1
shift

dev=${HWDMA_MAP_DEVICE:-}
[ -n "$dev" ] || { echo "cachesync: this machine names no HWDMA_MAP_DEVICE (a non-coherent platform device)" >&2; exit 1; }
mark=$PROJECT/bin/dcount_mark
"$mark" dump || exit 1
ndump=1
echo "DUMP $ndump boot"

# the device must be non-coherent: else dma_map_*() does no cache
# maintenance and the counter has nothing to count
n=$(readlink -f "/sys/bus/platform/devices/$dev/of_node")
while [ -n "$n" ] && [ "$n" != /sys/firmware/devicetree/base ] && [ "$n" != / ]; do
	if [ -e "$n/dma-coherent" ]; then
		echo "cachesync: $dev is dma-coherent ($n): its mappings do no cache maintenance, so there is nothing to count" >&2
		exit 1
	fi
	n=$(dirname "$n")
done
echo "KERNEL $(uname -r) $(uname -v)"
case " $(cat /proc/cmdline) " in
*" swiotlb=force "*|*" swiotlb="*",force "*) echo "CONFIG swiotlb" ;;
*) echo "CONFIG direct" ;;
esac
echo "COHERENT no"

load_module dma_map_benchmark || exit 1
bind_benchmark platform "$dev" || { echo "cachesync: cannot bind $dev" >&2; exit 1; }
"$mark" dump
ndump=$((ndump + 1))
echo "DUMP $ndump setup"

sleep 1
"$mark" dump
ndump=$((ndump + 1))
echo "DUMP $ndump idle"

for cell; do
	IFS=: read -r mode entries dir iters <<EOC
$cell
EOC
	[ -n "$iters" ] || iters=$iterations
	if ! "$TOOL" -m "$mode" --entries "$entries" --entry-size 4K \
		--iterations "$iters" --cpus 0 -t 1 -s 300 --sync -d "$dir" \
		--json > /tmp/cell.json 2>&1; then
		echo "cell $cell failed:"
		cat /tmp/cell.json
		exit 1
	fi
	"$mark" dump
	ndump=$((ndump + 1))
	echo "DUMP $ndump $mode:$entries:$dir:$iters"
	echo "JSON $mode:$entries:$dir:$iters $(tr -d '\n' < /tmp/cell.json)"
done
unbind_benchmark platform "$dev"
