# SPDX-License-Identifier: GPL-2.0-only
# The extended map interface (DMA_MAP_BENCHMARK_EXT): entries beyond 1024,
# entry sizes, iteration counts, CPU pinning, sync timing, percentiles.
# The cache-sync reference: 2560 x 4 KiB entries, 200 iterations, one CPU.

# ext_stat OP FIELD: a figure of the last mbioctl mapext output
ext_stat() {
	sed -n "s/^$1 \(.* \)\{0,1\}$2=\([0-9]*\).*/\2/p" /tmp/ext.out
}

ext_run() {
	output_in /tmp/ext.out "$MBIOCTL" mapext "$@"
}

# ext_count OP COUNT: the run timed OP COUNT times. (The figures' values
# are checked on known series by the KUnit tests of stat.c, kunit.sh:
# ordering percentiles of a real run would hold by construction.)
ext_count() {
	_count=$(ext_stat "$1" count)
	grep "^$1 " /tmp/ext.out
	[ "$_count" = "$2" ]
}

# sg_split SIZE: 4 sg entries of SIZE bytes are mapped as the segments the
# bound device takes (edu, as any PCI device, has the default max_seg_size
# of 64 KiB; its boundary, 4 GiB, is beyond any entry): 4 x
# ceil(SIZE / 64 KiB), and DMA-API debugging counts no error for them
sg_split() {
	_sp_before=$(dma_api_errors)
	ext_run map_mode=1 entries=4 entry_size="$1" iterations=5 seconds=60 ||
		return 1
	_sp_segs=$(sed -n 's/^segments=\([0-9]*\) .*/\1/p' /tmp/ext.out)
	_sp_max=$(sed -n 's/^segments=.* max_segment=\([0-9]*\)$/\1/p' /tmp/ext.out)
	_sp_want=$((4 * (($1 + 65535) / 65536)))
	_sp_after=$(dma_api_errors)
	echo "entry_size $1: $_sp_segs segments of at most $_sp_max bytes (expected $_sp_want of at most 65536); DMA-API errors ${_sp_before:-n/a} before, ${_sp_after:-n/a} after"
	[ "$_sp_segs" = "$_sp_want" ] && [ "$_sp_max" = 65536 ] &&
		[ "$_sp_after" = "$_sp_before" ]
}

suite_map_ext() {
	check "map_ext: module loads" load_module dma_map_benchmark
	check "map_ext: bind" bind_benchmark
	# each field refused by name: the full scope's (the debug kernel's
	# fuzzers send random and boundary structures)
	scope_full && map_ext_refusals
	map_ext_runs
}

map_ext_refusals() {
	check_refused mapext entries=0 'invalid entries 0: must be 1\.\.65536'
	check_refused mapext entries=65537 'invalid entries 65537'
	check_refused mapext iterations=100000001 'invalid iterations 100000001'
	check_refused mapext entry_size=1073741824 'invalid entry_size 1073741824'
	check_refused mapext flags=2 'invalid flags 0x2: unknown bits 0x2'
	check_refused mapext map_mode=2 'invalid map_mode 2'
	check_refused mapext threads=0 'invalid threads 0'
	check_refused mapext reserved0=1 'invalid reserved0/reserved_in'
	check_refused mapext nr_cpus=2 'invalid cpus_ptr/nr_cpus'
	check_refused mapext cpus=0,4095 'invalid cpus\[1\] 4095: not an online CPU'
	check_refused mapext entries=2048 'single mode maps one contiguous buffer'
	check_refused mapext size=100 'invalid size 100'
	check_fails_with "map_ext: an unknown nonzero tail is refused with E2BIG" \
		'^errno=E2BIG$' "$MBIOCTL" mapext tail=4
	check_fails_with "map_ext: more than memory holds: ENOMEM" \
		'^errno=ENOMEM$' "$MBIOCTL" mapext map_mode=1 entries=65536 \
		entry_size=4194304
	check_klog_clean "map_ext: refused requests"
}

map_ext_runs() {
	# the cache-sync reference measurement (the debug scope: a tenth of
	# its iterations, each of its 2560 entries still synced)
	_it=$(scope_pick 200 20)
	check "map_ext: 2560 x 4 KiB sg entries, $_it iterations, CPU 0, sync" \
		ext_run map_mode=1 entries=2560 entry_size=4096 iterations=$_it \
		cpus=0 flags=1 dma_dir=1 seconds=120
	for _op in map unmap sync_cpu sync_device; do
		check "map_ext: $_op: $_it samples" ext_count $_op $_it
	done
	check "map_ext: single mode, 32 x 4 KiB, 2 threads x 50, sync" \
		ext_run map_mode=0 entries=32 iterations=50 threads=2 flags=1 \
		seconds=60
	check "map_ext: ... 100 map samples" ext_count map 100
	check "map_ext: ... 100 sync_device samples" ext_count sync_device 100
	check "map_ext: without sync, no sync samples" \
		sh -c "\"$MBIOCTL\" mapext iterations=10 seconds=60 | grep -q '^sync_cpu count=0 '"
	check "map_ext: 512-byte entries in sg mode" \
		ext_run map_mode=1 entries=100 entry_size=512 iterations=20 \
		seconds=60
	check "map_ext: 64 KiB entries in sg mode" \
		ext_run map_mode=1 entries=16 entry_size=65536 iterations=20 \
		seconds=60
	# entries longer than the device takes in one segment, and sizes that
	# are no page multiple: cut into conforming segments (map-modes.rst)
	for _sz in 65537 131072 1048576 4194304 100000 470339; do
		check "map_ext: 4 sg entries of $_sz bytes map as 64 KiB segments" \
			sg_split $_sz
	done
	check "map_ext: one-page entries are one segment each" sg_split 4096
	check_output "map_ext: the tool says how it cut 128K entries" \
		'^segments:8 max_segment:65536 ' \
		"$TOOL" -m sg --entries 4 --entry-size 128K -s 1
	check "map_ext: entries of the device's size: no segments line" \
		sh -c "\"$TOOL\" -m sg --entries 4 --entry-size 64K -s 1 > /tmp/t64.out && cat /tmp/t64.out && ! grep -q '^segments:' /tmp/t64.out"
	# one dma_map_single() may map at most the device's largest mapping:
	# swiotlb bounces 256 KiB at once
	case $(dma_config) in
	swiotlb)
		check_refused mapext map_mode=0 entries=1 entry_size=1048576 \
			'invalid entries x entry_size 1048576: .* maps at most 262144 bytes at once'
		;;
	*)
		# a 64-bit mask: with 32 bits, memory above 4 GiB (the q35
		# machine puts some there) is bounced, 256 KiB at once
		check "map_ext: a 1 MiB single buffer is one mapping" \
			sh -c "\"$MBIOCTL\" mapext entries=1 entry_size=1048576 dma_bits=64 iterations=5 seconds=60 | grep -q '^segments=1 '"
		;;
	esac
	# a thread pinned with cpus=N may run on CPU N alone: the
	# scheduler's part, the full scope's
	scope_full && check "map_ext: threads pinned to the CPU asked for" \
		pinned_run dma-map-bench 1 "$MBIOCTL" mapext map_mode=1 \
		entries=64 iterations=100000000 seconds=300 cpus=1

	if [ -d $TRACING/events/dma ]; then
		trace_run dma "$MBIOCTL" mapext map_mode=1 entries=8 \
			iterations=2 flags=1 seconds=60
		check "map_ext: the sg mode's trace shows dma_map_sg" \
			grep -q ' dma_map_sg:' /tmp/trace.out
		case $(dma_config) in
		swiotlb)
			# bounce buffers must be synced: the calls reach the core
			check "map_ext: sync mode calls dma_sync_sg_for_cpu" \
				grep -q ' dma_sync_sg_for_cpu:' /tmp/trace.out
			check "map_ext: sync mode calls dma_sync_sg_for_device" \
				grep -q ' dma_sync_sg_for_device:' /tmp/trace.out
			;;
		direct)
			if [ -d $DMA_API ]; then
				# DMA-API debugging must see every sync
				check "map_ext: with DMA-API debug, sync reaches the core" \
					grep -q ' dma_sync_sg_for_cpu:' /tmp/trace.out
			else
				# a coherent device with the direct mapping needs
				# no sync: dma_dev_need_sync() skips the call
				check_fails "map_ext: direct coherent mapping skips sync" \
					grep -q ' dma_sync_sg_for_cpu:' /tmp/trace.out
			fi
			;;
		esac
		trace_reset
	else
		tap_skip "map_ext: no dma trace events in this kernel"
	fi

	check "map_ext: upstream's ioctl still works" "$MBIOCTL" map granule=4
	check "map_ext: unbind" unbind_benchmark
	check "map_ext: unload" unload_module dma_map_benchmark
	check_klog_clean "map_ext"
}
