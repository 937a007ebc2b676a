# SPDX-License-Identifier: GPL-2.0-only
# soft_dma's personalities: the load-time parameters that make it another
# kind of provider (pool_size, no_order, prep_lock, no_terminate) and the
# interrupts a batch costs, each driven by dmatest and the project's
# dmaengine mode; then the module in use, unbound under a running dmatest,
# rebound and unloaded. Sourced by run.sh after lib.sh, after soft_dma.sh
# in the suites' lists; suite_soft_dma_personalities runs everything.
# soft_dma's channels, knobs, loading, dt_run and the checks both suites
# share are lib.sh's.

# --- composite checks (functions: check runs them in this shell) --------

sd_same_channels() {
	[ "$(sd_nchannels)" -eq "$1" ]
}

sd_refcnt() {
	cat /sys/module/soft_dma/refcnt
}

# sd_unbind_running: unbind the device under a running dmatest
sd_unbind_running() {
	dt_start iterations=0 max_channels=2 || return 1
	sleep 2
	echo "$SD_DEV" > "$SD_DRV/unbind" || return 1
	expect_value "soft_dma channels left after unbind" "$(sd_nchannels)" -eq 0
}

# sd_stop_unbound: dmatest stops on unbound channels and releases them
sd_stop_unbound() {
	echo 0 > "$DT/run" || return 1
	dt_log
	expect_value summaries "$(grep -c ': summary ' "$DT_LOG")" -eq 2 &&
		expect_value "soft_dma refcnt" "$(sd_refcnt)" -eq 0 ||
		{ cat "$DT_LOG"; return 1; }
}

sd_rebind() {
	echo "$SD_DEV" > "$SD_DRV/bind" && sd_same_channels "$1"
}

# sd_kmemleak_clean: a kmemleak scan finds nothing allocated by soft_dma or
# dmatest (run while the modules are loaded, so backtraces have names)
sd_kmemleak_clean() {
	_skl=/sys/kernel/debug/kmemleak
	echo scan > "$_skl" && echo scan > "$_skl" || return 1
	cat "$_skl" > /tmp/kmemleak.txt
	if grep -Eq 'soft_dma|dmatest' /tmp/kmemleak.txt; then
		head -80 /tmp/kmemleak.txt
		return 1
	fi
}

# --- personalities: the load-time parameters ------------------------------

# sd_reload PARAMS...: soft_dma again, 2 channels, with these parameters
sd_reload() {
	sd_unload && insmod "$MODDIR/soft_dma.ko" channels=2 "$@" && sd_knobs_reset
}

# sd_personality_done NAME: released, nothing allocated or leaked, the log
# clean, and the module unloads
sd_personality_done() {
	dt_release
	check "$1: nothing left allocated" sd_no_descriptors
	if [ -w /sys/kernel/debug/kmemleak ]; then
		check "$1: kmemleak: nothing leaked by soft_dma or dmatest" sd_kmemleak_clean
	fi
	check_klog_clean "soft_dma: $1"
	check "$1: soft_dma unloads" sd_unload
}

# sd_tool_stats ARGS...: reset the counters, run the dmaengine mode in
# nocopy mode on channel 0 (which dmatest must not hold)
sd_tool_stats() {
	dt_release
	sd_stats_reset &&
		sd_with nocopy=1 sd_tool -C "$(sd_chan 0)" "$@" > /tmp/sd_tool.out 2>&1 ||
		{ cat /tmp/sd_tool.out; return 1; }
}

# sd_interrupts_per SGE: the batches of SGE descriptors, only the last
# flagged DMA_PREP_INTERRUPT, raised one interrupt each
sd_interrupts_per() {
	_ip_c=$(sd_stat all completed)
	_ip_i=$(sd_stat all interrupts)
	# in $((...)) an empty _ip_i is 0; an empty $(...) ends the shell
	expect_value completed "$_ip_c" -gt 0 &&
		expect_value "interrupts x $1" $((_ip_i * $1)) -eq "$_ip_c" ||
		{ cat "$SD_STATS"; return 1; }
}

sd_group_interrupts() {
	if ! sd_has_tool; then
		tap_skip "interrupts per batch: no dma_map_benchmark module or tool"
		return
	fi
	check "interrupts: per-segment batches of 16, one flagged, nocopy" \
		sd_tool_stats -f 4K --sge 16 --bytes-per-channel 1M -r 2 -p memcpy
	check "interrupts: 15 unflagged + 1 flagged descriptors cost one interrupt" \
		sd_interrupts_per 16
	check "interrupts: the same batches polled" \
		sd_tool_stats -f 4K --sge 16 --bytes-per-channel 1M -r 2 -p memcpy --poll
	check "interrupts: polled, no descriptor flagged: no interrupt" \
		sd_expect_stat all interrupts -eq 0
	check "interrupts: polled: tx_status retired them all" sd_no_descriptors
	check_klog_clean "soft_dma: interrupts"
}

# sd_pool_stall_run C: 20 dmatest threads on stalled channel C, pool of 16;
# the channel is released (terminated) before the stall is lifted: dmatest
# has freed the buffers of the tests that timed out
sd_pool_stall_run() {
	sd_knob stall_channel 0 || return 1
	dt_run chan="$1" threads_per_chan=20 iterations=1 timeout=2000
	_psr=$?
	dt_release
	sd_knob stall_channel -1
	[ "$_psr" = 0 ] && dt_expect 20 1 1
}

sd_group_pool() {
	check "soft_dma: loads with pool_size=16" sd_reload pool_size=16
	check_output "pool_size=16: the parameter reads back" '^N N 16$' sd_params_show
	SD_C0=$(sd_chan 0)
	sd_stats_reset
	check "pool_size=16: 20 threads on a stalled channel: every test fails" \
		sd_pool_stall_run "$SD_C0"
	check "pool_size=16: 4 preps found the pool empty" \
		sd_expect_stat "$SD_C0" pool_empty -eq 4
	check "pool_size=16: ... 16 got a descriptor" \
		sd_expect_stat "$SD_C0" prepared -eq 16
	check "pool_size=16: dmatest saw prep errors" dt_expect_result 'prep error'
	check "pool_size=16: released descriptors went back" sd_no_descriptors
	sd_stats_reset
	check "pool_size=16: the pool refills: 2 threads x 50 tests pass" \
		dt_run_expect 2 50 0 chan="$SD_C0" threads_per_chan=2 iterations=50
	check "pool_size=16: no empty pool then" sd_expect_stat all pool_empty -eq 0
	sd_personality_done "pool_size=16"
}

sd_group_no_order() {
	klog_mark
	check "soft_dma: loads with no_order=1" sd_reload no_order=1
	check_klog_has "no_order=1: the device has DMA_COMPLETION_NO_ORDER" \
		'no_order \(DMA_COMPLETION_NO_ORDER\)'
	klog_mark
	check "no_order=1: dmatest 2 channels x 2 threads x 20, verified" \
		dt_run_expect 4 20 0 threads_per_chan=2
	check "no_order=1: dmatest polled=1 runs with interrupts instead" \
		dt_run_expect 2 10 0 iterations=10 polled=1
	check_klog_has "no_order=1: dmatest refused polling (DMA_COMPLETION_NO_ORDER)" \
		'DMA_COMPLETION_NO_ORDER, polled disabled'
	if sd_has_tool; then
		check "no_order=1: per-segment batches of 16, nocopy" \
			sd_tool_stats -f 4K --sge 16 --bytes-per-channel 1M -r 2 -p memcpy
		check "no_order=1: batches completed newest first (out_of_order)" \
			sd_expect_stat all out_of_order -gt 0
	else
		tap_skip "no_order=1: completion order: no dma_map_benchmark module or tool"
	fi
	sd_personality_done "no_order=1"
}

sd_group_prep_lock() {
	check "soft_dma: loads with prep_lock=1" sd_reload prep_lock=1
	check_output "prep_lock=1: the parameter reads back" '^Y N 0$' sd_params_show
	check "prep_lock=1: dmatest (prep, submit), 2 channels x 2 threads, verified" \
		dt_run_expect 4 20 0 threads_per_chan=2
	check "prep_lock=1: dmatest polled" dt_run_expect 2 20 0 polled=1
	sd_personality_done "prep_lock=1"
}

# sd_no_terminate_stall C: one dmatest test on stalled channel C times
# out; dmatest's dmaengine_terminate_sync() after it gets -EINVAL and
# drops nothing: while dmatest holds the channel its descriptor is still
# submitted, neither completed nor aborted. The stall stays on: lifted,
# the engine would copy into the buffers dmatest freed.
sd_no_terminate_stall() {
	sd_knob stall_channel 0 || return 1
	dt_run chan="$1" iterations=1 timeout=500 && dt_expect 1 1 1 &&
		dt_expect_result 'test timed out' &&
		sd_expect_stat "$1" submitted -eq 1 &&
		sd_expect_stat "$1" completed -eq 0 &&
		sd_expect_stat "$1" aborted -eq 0 &&
		expect_value "descriptors still allocated" "$(cat "$SD/descriptors")" -eq 1
}

# sd_no_terminate_release C: releasing C resets it: the stalled descriptor
# is dropped (aborted), nothing is left; then the stall is lifted
sd_no_terminate_release() {
	dt_release
	sd_expect_stat "$1" aborted -eq 1 && sd_no_descriptors
	_ntr=$?
	sd_knob stall_channel -1
	return $_ntr
}

sd_group_no_terminate() {
	klog_mark
	check "soft_dma: loads with no_terminate=1" sd_reload no_terminate=1
	check_klog_has "no_terminate=1: the probe says so" \
		'no_terminate \(no device_terminate_all\)'
	check_output "no_terminate=1: the parameter reads back" '^Y$' \
		cat /sys/module/soft_dma/parameters/no_terminate
	check_output "no_terminate=1: $SD_DEV reports no terminate_all (N)" '^N$' \
		cat "$SD/$SD_DEV/terminate_all"
	SD_C0=$(sd_chan 0)
	sd_stats_reset
	check "no_terminate=1: dmatest 2 channels x 2 threads x 20, verified" \
		dt_run_expect 4 20 0 threads_per_chan=2
	check "no_terminate=1: dmatest polled (its terminate_sync gets -EINVAL), verified" \
		dt_run_expect 2 20 0 polled=1
	check "no_terminate=1: every descriptor completed, none aborted" \
		sd_expect_stat all aborted -eq 0
	sd_knob delay_us 20000
	check "no_terminate=1, delay_us=20000: 10 tests pass" \
		dt_run_expect 1 10 0 chan="$SD_C0" iterations=10
	check "no_terminate=1, delay_us=20000: no faster than 50 tests/s" dt_max_iops 50
	sd_knob delay_us 0
	if sd_has_tool; then
		dt_release
		check "no_terminate=1: dmaengine mode, per-segment memcpy, verified" \
			sd_tool -c 2 -f 64K --sge 16 --bytes-per-channel 4M -r 2 -p memcpy --verify
		check "no_terminate=1: dmaengine mode, polled, verified" \
			sd_tool -c 2 -f 64K --sge 16 --bytes-per-channel 4M -r 2 -p memcpy --poll --verify
		if [ "$(cat "$SD/memcpy_sg")" = Y ]; then
			check "no_terminate=1: dmaengine mode, memcpy_sg and memcpy, verified" \
				sd_tool -c 2 -f 64K --sge 16 --bytes-per-channel 4M -r 2 -p both --verify
		fi
	else
		tap_skip "no_terminate=1: dmaengine mode: no dma_map_benchmark module or tool"
	fi
	sd_stats_reset
	check "no_terminate=1: a test times out on a stalled channel; dmatest's terminate drops nothing" \
		sd_no_terminate_stall "$SD_C0"
	check "no_terminate=1: the channel's release drops it (aborted), nothing left" \
		sd_no_terminate_release "$SD_C0"
	check "no_terminate=1: after the stall, a clean run passes" \
		dt_run_expect 2 10 0 iterations=10
	dt_release
	check_klog_clean "soft_dma: no_terminate=1"

	check "no_terminate=1: unbind while dmatest runs on it" sd_unbind_running
	sleep 1
	check "no_terminate=1: dmatest stops and releases the unbound channels" \
		sd_stop_unbound
	sleep 1
	check "no_terminate=1: no worker thread left after the unbound device was released" \
		sd_expect_workers 0
	check "no_terminate=1: rebind" sd_rebind 2
	check "no_terminate=1: after rebinding, dmatest passes" \
		dt_run_expect 2 10 0 iterations=10
	sd_personality_done "no_terminate=1"

	check "soft_dma: loads with no_terminate=1 prep_lock=1 pool_size=16" \
		sd_reload no_terminate=1 prep_lock=1 pool_size=16
	check_output "no_terminate, prep_lock, pool_size: the parameters read back" \
		'^Y N 16 Y$' sd_params_show_all
	check "no_terminate, prep_lock, pool_size: dmatest 2 channels x 2 threads, verified" \
		dt_run_expect 4 20 0 threads_per_chan=2
	sd_personality_done "no_terminate=1 prep_lock=1 pool_size=16"
}

# sd_params_show_all: prep_lock no_order pool_size no_terminate
sd_params_show_all() {
	(cd /sys/module/soft_dma/parameters &&
		cat prep_lock no_order pool_size no_terminate) | tr '\n' ' ' | sed 's/ $//'
}

sd_group_personalities() {
	sd_group_interrupts
	sd_group_pool
	sd_group_no_order
	sd_group_prep_lock
	sd_group_no_terminate
	check "soft_dma: reloads with channels=$SD_CHANNELS" sd_load
}

sd_group_unload() {
	SD_N=$(sd_nchannels)
	check "dmatest holds every channel after a run" dt_run_expect "$SD_N" 5 0 iterations=5
	check_output "soft_dma: module in use by the held channels" '^[1-9]' sd_refcnt
	# the module code refuses with EWOULDBLOCK (EAGAIN) while references are held
	check_fails_with "rmmod soft_dma refused (EAGAIN) while dmatest holds channels" \
		'temporarily unavailable' rmmod soft_dma
	check "soft_dma still registered after the refused rmmod" sd_same_channels "$SD_N"
	dt_release
	check_output "soft_dma: unused once dmatest released the channels" '^0$' sd_refcnt

	check "unbind soft_dma while dmatest runs on it" sd_unbind_running
	sleep 1
	check "dmatest stops and releases the unbound channels" sd_stop_unbound
	sleep 1
	check "no worker thread left after the unbound device was released" sd_expect_workers 0
	check "no descriptor left after the unbound device was released" sd_no_descriptors
	check_fails "the unbound device's debugfs directory is removed" \
		test -e "$SD/$SD_DEV"
	check "rebind soft_dma" sd_rebind "$SD_N"
	check "... its counters are back in $SD_DEV/stats" test -e "$SD_STATS"
	check "after rebinding: dmatest passes on every channel" \
		dt_run_expect "$SD_N" 10 0 iterations=10
	dt_release
	check_klog_clean "soft_dma: unbind"

	if [ -w /sys/kernel/debug/kmemleak ]; then
		check "kmemleak: nothing leaked by soft_dma or dmatest" sd_kmemleak_clean
	else
		tap_skip "kmemleak: not in this kernel"
	fi
	check "rmmod dmatest" rmmod dmatest
	check "rmmod soft_dma works once no channel is held" rmmod soft_dma
	check "soft_dma: debugfs directory and platform device removed" sd_gone
	check_klog_clean "soft_dma: unload"
}

suite_soft_dma_personalities() {
	if ! dt_in_image; then
		tap_not_ok "soft_dma: dmatest.ko is in the image"
		return
	fi
	# the kernel log of its own, as suite_soft_dma's; soft_dma as
	# suite_soft_dma leaves it before its end: SD_CHANNELS channels
	klog_restart "soft_dma: the kernel log before the personalities"
	sd_load || tap_not_ok "soft_dma: loads with channels=$SD_CHANNELS"
	sd_group_personalities
	sd_group_unload
	dt_release
	sd_unload
}
