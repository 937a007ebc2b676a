# SPDX-License-Identifier: GPL-2.0-only
# The map modes (single, sg): ABI compatibility with upstream's tool, kernel
# validation of every field, serialization, signals, binding and unloading,
# and proof through the dma trace events that each mode calls its API.

# concurrent_large_maps: two threads map 64-page buffers, FROM_DEVICE then
# bidirectionally, and DMA-API debugging counts no new error
concurrent_large_maps() {
	_cl_before=$(dma_api_errors)
	"$MBIOCTL" map threads=2 seconds=2 dma_dir=2 granule=64 || return 1
	"$MBIOCTL" map threads=2 seconds=1 granule=64 || return 1
	_cl_after=$(dma_api_errors)
	echo "DMA-API errors: $_cl_before before, $_cl_after after"
	[ "$_cl_after" = "$_cl_before" ]
}

trace_has() {
	grep -q " $1:" /tmp/trace.out
}

# same_lines_as_upstream ARGS...: both tools succeed and print the same
# lines, latency figures aside (two runs never time the same)
same_lines_as_upstream() {
	"$UPSTREAM" "$@" > /tmp/up.out && "$TOOL" "$@" > /tmp/ours.out || return 1
	sed 's/[0-9]*\.[0-9]/N/g' /tmp/up.out > /tmp/up.lines
	sed 's/[0-9]*\.[0-9]/N/g' /tmp/ours.out > /tmp/ours.lines
	cat /tmp/up.out /tmp/ours.out
	[ "$(wc -l < /tmp/up.lines)" = 3 ] && cmp /tmp/up.lines /tmp/ours.lines
}

# 500 refused calls in a row log at most the module's burst (100)
refusals_ratelimited() {
	klog_mark
	"$MBIOCTL" map threads=0 repeat=500
	_n=$(klog_since_mark | grep -c 'invalid threads 0')
	echo "500 refusals, $_n messages"
	# let the budget refill for the checks that follow
	sleep 5
	[ "$_n" -ge 1 ] && [ "$_n" -le 100 ]
}

# A run in progress when its device is unbound ends with ENODEV at once,
# not when its time is up (upstream: up to 300 s, hung-task warnings).
# Timed with shell builtins only: with both vCPUs mapping, every fork is
# slow under TCG. Under a second on a quiet host; the bound is
# 10 s of a 120 s run, because under TCG on a loaded host the unbind path
# before the driver's devres actions alone took 4.3 s.
unbind_ends_run() {
	_dev=$(edu_device) || return 1
	"$MBIOCTL" map threads=2 seconds=120 > /tmp/unbind.out 2>&1 &
	_p=$!
	# the run has started once its threads exist
	_tries=0
	while ! grep -qs '^Name:.*dma-map-bench' /proc/[0-9]*/status &&
	      [ "$_tries" -lt 100 ]; do
		sleep 0.1
		_tries=$((_tries + 1))
	done
	read -r _t0 _ < /proc/uptime
	echo "$_dev" > "/sys/bus/pci/devices/$_dev/driver/unbind"
	# shellcheck disable=SC2320 # the echo's status is the unbind's
	_rc=$?
	read -r _t1 _ < /proc/uptime
	wait $_p
	echo > "/sys/bus/pci/devices/$_dev/driver_override"
	cat /tmp/unbind.out
	echo "the unbind, which ended the run, took $(awk "BEGIN { print $_t1 - $_t0 }") s"
	[ "$_rc" = 0 ] && grep -q '^errno=ENODEV$' /tmp/unbind.out &&
		[ ! -e /sys/kernel/debug/dma_map_benchmark ] &&
		awk "BEGIN { exit !($_t1 - $_t0 < 10) }"
}

suite_map() {
	check "map: module loads" load_module dma_map_benchmark
	check "map: dmaengine file exists without a bound device" \
		test -e /sys/kernel/debug/dmaengine_benchmark
	check_fails_with "map: no file before a device is bound" 'open=ENOENT' \
		"$MBIOCTL" map
	check "map: bind the edu device through driver_override" bind_benchmark
	check "map: a second device cannot be bound at once" \
		second_bind_refused

	# upstream's own tool, unchanged, against the module
	check_output "map: upstream tool prints its latency lines" \
		'^average map latency\(us\):[0-9.]+ standard deviation:[0-9.]+$' \
		"$UPSTREAM" -s 1 -t 2 -g 4
	check_output "map: upstream tool, TO_DEVICE, granule 64" \
		'^average unmap latency\(us\):[0-9.]+ standard deviation:[0-9.]+$' \
		"$UPSTREAM" -s 1 -d 1 -g 64
	check "map: without -m, our tool's lines are upstream's tool's" \
		same_lines_as_upstream -s 1 -t 2 -g 4 -d 2

	# every field, one by one, and the hardening: the full scope's (the
	# debug kernel's fuzzers send random and boundary structures)
	scope_full && map_refusals
	check "map: unbinding during a 120 s run ends it within 10 s" \
		unbind_ends_run
	grep '^the unbind' "$TAP_OUT" | tap_diag
	check "map: bind again after the unbind" bind_benchmark
	map_runs
}

# map_refusals: each field refused by name, the capability, the size, the
# memory bound, rate-limited messages
map_refusals() {
	check_refused map threads=0 'invalid threads 0: must be 1\.\.1024'
	check_refused map threads=1025 'invalid threads 1025'
	check_refused map seconds=0 'invalid seconds 0: must be 1\.\.300'
	check_refused map seconds=301 'invalid seconds 301'
	check_refused map dma_trans_ns=10000001 'invalid dma_trans_ns 10000001'
	check_refused map node=-2 'invalid node -2'
	check_refused map node=4096 'invalid node 4096'
	check_refused map dma_bits=19 'invalid dma_bits 19: must be 20\.\.64'
	check_refused map dma_bits=65 'invalid dma_bits 65'
	check_refused map dma_dir=3 'invalid dma_dir 3'
	check_refused map granule=0 'invalid granule 0: must be 1\.\.1024'
	check_refused map granule=1025 'invalid granule 1025'
	check_refused map map_mode=2 'invalid map_mode 2'
	check_refused map map_mode=255 'invalid map_mode 255'
	check_refused map 'expansion[0]=1' 'invalid expansion\[0\] 0x01: reserved'
	check_refused map 'expansion[74]=255' 'invalid expansion\[74\] 0xff'
	check_klog_clean "map: refused requests"

	# hardening: capability, size, memory, rate-limited messages
	for _io in map mapext dmaengine; do
		klog_mark
		check_fails_with "map: $_io ioctl without CAP_SYS_ADMIN: EPERM" \
			'^errno=EPERM' "$MBIOCTL" $_io uid=65534
		check_klog_has "map: $_io: the log says CAP_SYS_ADMIN is needed" \
			'mbioctl\[[0-9]+\] lacks CAP_SYS_ADMIN'
	done
	for _io in mapext dmaengine; do
		klog_mark
		check_fails_with "map: $_io: a size above a page is E2BIG, its tail unread" \
			'^errno=E2BIG' "$MBIOCTL" $_io size=1048576
		check_klog_has "map: $_io: size 1048576 refused by name" \
			'invalid size 1048576: must be at most [0-9]+ \(a page\)'
	done
	klog_mark
	check_fails_with "map: 1024 threads x 1024 pages: ENOMEM up front" \
		'^errno=ENOMEM$' "$MBIOCTL" map threads=1024 granule=1024
	check_klog_has "map: ... by the 3/4 rule, with the numbers" \
		'entries 1024 x entry_size 4096 x threads 1024 = [0-9]+ MiB: more than 3/4 of the [0-9]+ MiB available'
	check "map: refusal messages are rate-limited" refusals_ratelimited
}

# map_runs: runs in every mode and direction, the API each calls, the DMA
# configuration, concurrency, signals, unbind, rebind and unload
map_runs() {
	# plausible results in every mode and direction
	for mode in 0 1; do
		for dir in 0 1 2; do
			check "map: mode $mode dir $dir: results plausible" \
				map_plausible map_mode=$mode dma_dir=$dir \
				granule=16 threads=2
		done
	done
	check "map: sg mode, 1024 entries, node 0" \
		map_plausible map_mode=1 granule=1024 node=0

	# the trace events prove which API each mode calls
	if [ -d $TRACING/events/dma ]; then
		check "map: sg mode runs with dma events on" \
			trace_run dma "$MBIOCTL" map map_mode=1 granule=8
		check "map: sg mode calls dma_map_sg" trace_has dma_map_sg
		check "map: sg mode calls dma_unmap_sg" trace_has dma_unmap_sg
		_mp=$(map_page_event)
		check_fails "map: sg mode does not call $_mp" trace_has "$_mp"
		check "map: single mode runs with dma events on" \
			trace_run dma "$MBIOCTL" map map_mode=0 granule=8
		check "map: single mode calls $_mp" trace_has "$_mp"
		check_fails "map: single mode does not call dma_map_sg" \
			trace_has dma_map_sg
		trace_reset
	else
		tap_skip "map: no dma trace events in this kernel"
	fi

	# the DMA configuration is what the VM claims it is
	case $(dma_config) in
	swiotlb)
		# the whole log since boot
		KLOG_MARK=0
		check_klog_has "map: swiotlb forced" 'software IO TLB|swiotlb'
		if [ -d $TRACING/events/swiotlb ]; then
			trace_run swiotlb "$MBIOCTL" map map_mode=1 granule=8
			check "map: mappings bounce through swiotlb" \
				trace_has swiotlb_bounced
			trace_reset
		fi
		# 4 MiB in one piece is more than swiotlb bounces at once: the
		# module refuses it before mapping (dma_max_mapping_size())
		check_refused map granule=1024 \
			'invalid entries x entry_size 4194304: .* maps at most 262144 bytes at once'
		check "map: and the next run works" map_plausible granule=4
		;;
	iommu)
		check "map: the device is behind an IOMMU" \
			test -e "/sys/bus/pci/devices/$(edu_device)/iommu_group"
		;;
	direct)
		check_fails "map: the device is not behind an IOMMU" \
			test -e "/sys/bus/pci/devices/$(edu_device)/iommu_group"
		;;
	esac

	# Threads mapping buffers too large for the IOVA caches on one device:
	# behind a strict IOMMU, dma-debug without the v6.12-dma-debug fix
	# pairs the unmaps with the wrong entries and counts errors.
	if [ -e $DMA_API/error_count ]; then
		check "map: two threads, 64-page FROM_DEVICE and bidirectional buffers" \
			concurrent_large_maps
		check_klog_clean "map: concurrent large mappings"
	else
		tap_skip "map: no DMA-API debugging in this kernel"
	fi

	# two concurrent ioctls are serialized, and both succeed
	_t0=$(date +%s)
	"$MBIOCTL" map seconds=2 > /tmp/c1.out &
	_p1=$!
	"$MBIOCTL" map seconds=2 map_mode=1 > /tmp/c2.out &
	_p2=$!
	wait $_p1
	_r1=$?
	wait $_p2
	_r2=$?
	_t1=$(date +%s)
	check "map: two concurrent ioctls both succeed" \
		test "$_r1" = 0 -a "$_r2" = 0
	check "map: concurrent ioctls ran one after the other (>= 4 s)" \
		test $((_t1 - _t0)) -ge 4

	# a signal ends a run early and cleanly
	klog_mark
	_t0=$(date +%s)
	"$MBIOCTL" map seconds=60 threads=2 > /tmp/sig.out &
	_p=$!
	sleep 1
	kill -TERM $_p
	wait $_p
	_t1=$(date +%s)
	check "map: SIGTERM ends a 60 s run within 10 s" \
		test $((_t1 - _t0)) -lt 10
	check_klog_has "map: the module saw the signal" \
		'run interrupted by a signal'
	check "map: the next run works" map_plausible granule=4

	# unbind, rebind, unload
	check "map: unbind" unbind_benchmark
	check "map: rebind" bind_benchmark
	check "map: run after rebind" map_plausible map_mode=1 granule=4
	check "map: unbind again" unbind_benchmark
	check "map: module unloads" unload_module dma_map_benchmark
	check_fails "map: the dmaengine file is gone" \
		test -e /sys/kernel/debug/dmaengine_benchmark
	check "map: module loads again" load_module dma_map_benchmark
	check "map: bind after reload" bind_benchmark
	check "map: run after reload" map_plausible granule=2
	check "map: final unbind" unbind_benchmark
	check "map: final unload" unload_module dma_map_benchmark
	check_klog_clean "map"
}

# The VM has two edu devices: binding the second must fail while the first
# holds the debugfs file, and leave the first working.
second_bind_refused() {
	_second=$(edu_devices | sed -n 2p)
	[ -n "$_second" ] || return 1
	echo dma_map_benchmark > "/sys/bus/pci/devices/$_second/driver_override"
	echo "$_second" > /sys/bus/pci/drivers_probe 2>/dev/null
	_bound=$([ -e "/sys/bus/pci/devices/$_second/driver" ] && echo yes)
	echo > "/sys/bus/pci/devices/$_second/driver_override"
	[ -z "$_bound" ] && "$MBIOCTL" map > /dev/null
}
