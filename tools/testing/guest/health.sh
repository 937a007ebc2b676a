# SPDX-License-Identifier: GPL-2.0-only
# Last suite of a debug-kernel boot: with every module of the project
# unloaded, the kernel must hold no leak (kmemleak, after forced scans),
# no DMA-API debug error, and no report anywhere in its log since boot.

KMEMLEAK=/sys/kernel/debug/kmemleak

kmemleak_clean() {
	# objects freed last need a grace period, and kmemleak two scans
	sleep 5
	echo scan > $KMEMLEAK
	sleep 2
	echo scan > $KMEMLEAK
	cat $KMEMLEAK > /tmp/kmemleak.out
	if [ -s /tmp/kmemleak.out ]; then
		head -60 /tmp/kmemleak.out
		return 1
	fi
}

suite_health() {
	sd_unload
	check "health: no project module is left loaded" \
		sh -c '! grep -Eq "^(soft_dma|dma_map_benchmark) " /proc/modules'
	if [ -e $KMEMLEAK ]; then
		check "health: kmemleak finds no leak" kmemleak_clean
	else
		tap_skip "health: no kmemleak in this kernel"
	fi
	if [ -e $DMA_API/error_count ]; then
		check_output "health: DMA-API debug counted no error" '^0$' \
			cat $DMA_API/error_count
		check_output "health: DMA-API debug is active" '^N$' \
			cat $DMA_API/disabled
	else
		tap_skip "health: no DMA-API debugging in this kernel"
	fi
	KLOG_CLEAN_MARK=0
	KLOG_CLEAN_ERRORS=0
	check_klog_clean "health: the whole boot"
}
