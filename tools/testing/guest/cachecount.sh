# SPDX-License-Identifier: GPL-2.0-only
# suite_cachecount: the guest side of the cache-maintenance counter's check
# (tools/testing/vm/arm64-zdma-73.t loads scripts/qemu-plugin/dcount.so
# into QEMU; tools/testing/vm/dcount-tap.py checks its counts on the host).
# On HWDMA_MAP_DEVICE, a platform device without dma-coherent: a 64-entry
# sg mapping of 4 KiB entries, 10 iterations with --sync, one thread on
# CPU 0, TO_DEVICE and then FROM_DEVICE, each followed by a dump of the
# counter, which this suite announces as "# cachecount DUMP N NAME" for
# the host. Without the plugin the dumps are NOPs and the host's checks
# of them fail.

cc_dev=${HWDMA_MAP_DEVICE:-}
cc_n=0

# cc_coherent_free: neither the device nor a parent says dma-coherent
cc_coherent_free() {
	_n=$(readlink -f "/sys/bus/platform/devices/$cc_dev/of_node")
	[ -n "$_n" ] || { echo "$cc_dev has no device tree node"; return 1; }
	while [ "$_n" != /sys/firmware/devicetree/base ] && [ "$_n" != / ]; do
		[ ! -e "$_n/dma-coherent" ] || { echo "$_n is dma-coherent"; return 1; }
		_n=$(dirname "$_n")
	done
}

# cc_dump NAME: dump the counter; the host's name for it in cc_named
cc_dump() {
	"$PROJECT/bin/dcount_mark" dump || return 1
	cc_n=$((cc_n + 1))
	cc_named="$cc_n $1"
}

# cc_cell NAME DIR: the mapping, then a dump named NAME
cc_cell() {
	"$TOOL" -m sg --entries 64 --entry-size 4K --iterations 10 --cpus 0 \
		-t 1 -s 120 --sync -d "$2" > /tmp/cc.out 2>&1 ||
		{ cat /tmp/cc.out; return 1; }
	cc_dump "$1"
}

# cc_announce: the last dump's number and name, for the host (a check's
# own output shows only when it fails)
cc_announce() {
	[ -z "${cc_named:-}" ] || echo "# cachecount DUMP $cc_named"
	cc_named=
}

suite_cachecount() {
	if [ -z "$cc_dev" ]; then
		tap_not_ok "cachecount: the machine names a non-coherent device (HWDMA_MAP_DEVICE)"
		return
	fi
	check "cachecount: the counter's marker program runs (arm64)" \
		"$PROJECT/bin/dcount_mark" empty
	check "cachecount: $cc_dev is not dma-coherent" cc_coherent_free
	check "cachecount: load the module" load_module dma_map_benchmark
	check "cachecount: bind $cc_dev" bind_benchmark platform "$cc_dev"
	check "cachecount: a first dump (what the boot did)" cc_dump reset
	cc_announce
	check "cachecount: 64 x 4 KiB, TO_DEVICE, map, syncs, unmap" \
		cc_cell to_device to_device
	cc_announce
	check "cachecount: 64 x 4 KiB, FROM_DEVICE, map, syncs, unmap" \
		cc_cell from_device from_device
	cc_announce
	check "cachecount: unbind $cc_dev" unbind_benchmark platform "$cc_dev"
	check_klog_clean "cachecount"
}
