# SPDX-License-Identifier: GPL-2.0-only
# soft_dma's personalities: the load-time parameters that make it another
# kind of provider (pool_size, no_order, prep_lock, no_terminate,
# stall_ms, no_synchronize) and the interrupts a batch costs, each driven
# by dmatest and the project's dmaengine mode, and submissions failed by
# fail_submit_every; then the module in use, unbound under a running
# dmatest, rebound and unloaded. Sourced by run.sh after lib.sh, after soft_dma.sh
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

# sd_personality_done NAME [no-kmemleak]: released, nothing allocated or
# leaked, the log clean, and the module unloads. no-kmemleak leaves the
# kmemleak scan (18 s on the debug kernel under TCG) to a later group's
# and to the health suite's; a descriptor left allocated fails the first
# check, and the destruction of soft_dma's descriptor cache at the unload
# would log it too.
sd_personality_done() {
	dt_release
	check "$1: nothing left allocated" sd_no_descriptors
	if [ "$2" != no-kmemleak ] && [ -w /sys/kernel/debug/kmemleak ]; then
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

# --- stall_ms, no_synchronize, fail_submit_every ---------------------------

# uptime_ms: milliseconds since boot
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# sd_busy_ms CHANNEL: the channel's engine time (busy_ns) in ms
sd_busy_ms() {
	echo $(($(sd_stat "$1" busy_ns) / 1000000))
}

# sd_wait_stat CHANNEL COLUMN VALUE SECONDS: wait until the counter is at
# least VALUE
sd_wait_stat() {
	_ws_n=$(($4 * 10))
	while [ "$(sd_stat "$1" "$2")" -lt "$3" ]; do
		_ws_n=$((_ws_n - 1))
		if [ "$_ws_n" -le 0 ]; then
			echo "stats $1 $2 did not reach $3 in $4 s:"
			cat "$SD_STATS"
			return 1
		fi
		usleep 100000
	done
}

# sd_tool_times_out ARGS...: the dmaengine mode with a 200 ms timeout, one
# 4 KiB descriptor (with its callback) a batch, fails with a timeout
sd_tool_times_out() {
	if sd_tool -f 4K --sge 1 --bytes-per-channel 16K -r 1 -w 0 -p memcpy \
		--timeout-ms 200 "$@" > /tmp/sd_tool.out 2>&1; then
		cat /tmp/sd_tool.out
		echo "the run did not fail"
		return 1
	fi
	grep -q 'did not complete' /tmp/sd_tool.out || {
		cat /tmp/sd_tool.out
		echo "the run did not fail with a timeout"
		return 1
	}
}

sd_group_new_params() {
	sd_unload
	klog_mark
	check_fails "soft_dma: stall_ms=600001 refused" \
		insmod "$MODDIR/soft_dma.ko" stall_ms=600001
	check_klog_has "stall_ms=600001: the log names it and its range" \
		'soft_dma: stall_ms=600001: out of range \(0\.\.600000 ms\)'
	klog_mark
	check_fails "soft_dma: no_synchronize=2 refused" \
		insmod "$MODDIR/soft_dma.ko" no_synchronize=2
	check_klog_has "no_synchronize=2: the log names it" \
		"invalid for parameter .no_synchronize"
}

# sd_stall_abort C MS: dmatest's one test on C times out (300 ms) in the
# stall; dmatest's dmaengine_terminate_sync() at the end of its thread
# aborts the stalled descriptor: the engine let go of it after less than
# MS, nothing completed (dmatest still holds the channel: its release has
# not reset it)
sd_stall_abort() {
	dt_run chan="$1" iterations=1 timeout=300 && dt_expect 1 1 1 &&
		dt_expect_result 'test timed out' &&
		sd_expect_stat "$1" stalls -eq 1 &&
		sd_expect_stat "$1" aborted -eq 1 &&
		sd_expect_stat "$1" completed -eq 0 &&
		expect_value "ms the engine held it" "$(sd_busy_ms "$1")" -lt "$2"
}

# sd_stall_runs_out C0 C1 MS: dmatest's one test on C0 (timeout 30 s)
# waits out the stall while the dmaengine mode copies and verifies on C1
# and ends first: the stall holds C0's engine alone; then the test passes,
# verified, the engine having held it at least MS
sd_stall_runs_out() {
	dt_start chan="$1" iterations=1 timeout=30000 || return 1
	sd_wait_stat "$1" stalls 1 20 || return 1
	if sd_has_tool; then
		sd_tool -C "$2" -f 4K --sge 4 --bytes-per-channel 64K -r 1 -w 0 \
			-p memcpy --verify > /tmp/sd_tool.out 2>&1 ||
			{ cat /tmp/sd_tool.out; return 1; }
		sd_expect_stat "$1" completed -eq 0 || return 1
		sd_expect_stat "$2" completed -gt 0 || return 1
	fi
	dt_finish 60 && dt_expect 1 1 0 &&
		sd_expect_stat "$1" stalls -eq 1 &&
		sd_expect_stat "$1" aborted -eq 0 &&
		sd_expect_stat "$1" completed -eq 1 &&
		expect_value "ms the engine held it" "$(sd_busy_ms "$1")" -ge "$3"
}

sd_group_stall() {
	klog_mark
	check "soft_dma: loads with stall_ms=3000" sd_reload stall_ms=3000
	check_klog_has "stall_ms=3000: the probe says so" 'stall_ms 3000$'
	SD_C0=$(sd_chan 0)
	SD_C1=$(sd_chan 1)
	sd_stats_reset
	check "stall_ms=3000: a test times out in the stall; dmatest's terminate aborts it at once" \
		sd_stall_abort "$SD_C1" 2000
	check "stall_ms=3000: a test waits out the stall and passes; another channel runs meanwhile" \
		sd_stall_runs_out "$SD_C0" "$SD_C1" 2700
	check "stall_ms=3000: after the stalls, dmatest 2 channels x 2 passes" \
		dt_run_expect 2 2 0 iterations=2
	check "stall_ms=3000: one stall a channel" sd_expect_stat all stalls -eq 2
	sd_personality_done "stall_ms=3000" no-kmemleak
}

# sd_stall_runs_to_end C MS: no_terminate: the dmaengine mode's batch on C
# times out in the stall, its terminate gets -EINVAL, and it waits for its
# descriptor: the engine held it at least MS, then copied it (4 KiB) and
# completed it; nothing aborted
sd_stall_runs_to_end() {
	sd_stats_reset
	sd_tool_times_out -C "$1" &&
		sd_expect_stat "$1" stalls -eq 1 &&
		sd_expect_stat "$1" aborted -eq 0 &&
		sd_expect_stat "$1" completed -eq 1 &&
		sd_expect_stat "$1" bytes -eq 4096 &&
		expect_value "ms the engine held it" "$(sd_busy_ms "$1")" -ge "$2"
}

# sd_unbind_stalled C MS: dmatest's one test (timeout 60 s) in C's stall,
# which a client cannot end with no_terminate; the unbind aborts the
# stall: within MS of it the unbind returned and dmatest's test ended
# (its summary), the descriptor aborted (DMA_ERROR, not a pass)
sd_unbind_stalled() {
	dt_start chan="$1" iterations=1 timeout=60000 || return 1
	sd_wait_stat "$1" stalls 1 20 || return 1
	_us_t0=$(uptime_ms)
	echo "$SD_DEV" > "$SD_DRV/unbind" || return 1
	_us_ms=$(($(uptime_ms) - _us_t0))
	while [ "$(dt_summaries)" -lt 1 ] &&
		[ "$(($(uptime_ms) - _us_t0))" -lt 30000 ]; do
		usleep 50000
	done
	_us_end=$(($(uptime_ms) - _us_t0))
	dt_finish 30 || return 1
	expect_value "ms the unbind took" "$_us_ms" -lt "$2" &&
		expect_value "ms until dmatest's test ended" "$_us_end" -lt "$2" &&
		dt_expect 1 1 1 && dt_expect_result 'completion error status'
}

# sd_release_unbound: dmatest releases the unbound channel
sd_release_unbound() {
	echo 0 > "$DT/run" || return 1
	expect_value "soft_dma refcnt" "$(sd_refcnt)" -eq 0
}

sd_group_stall_no_terminate() {
	check "soft_dma: loads with no_terminate=1 stall_ms=4000" \
		sd_reload no_terminate=1 stall_ms=4000
	SD_C0=$(sd_chan 0)
	SD_C1=$(sd_chan 1)
	if sd_has_tool; then
		check "no_terminate=1, stall_ms=4000: a batch times out; the stalled descriptor runs to its end" \
			sd_stall_runs_to_end "$SD_C0" 3600
		check "no_terminate=1, stall_ms=4000: then the channel copies, verified" \
			sd_tool -C "$SD_C0" -f 64K --sge 4 --bytes-per-channel 1M -r 1 -p memcpy --verify
	else
		tap_skip "no_terminate=1, stall_ms=4000: dmaengine mode: no dma_map_benchmark module or tool"
	fi
	check "no_terminate=1, stall_ms=4000: an unbind in the stall returns at once and aborts it" \
		sd_unbind_stalled "$SD_C1" 3000
	check "no_terminate=1, stall_ms=4000: dmatest releases the unbound channels" \
		sd_release_unbound
	sleep 1
	check "no_terminate=1, stall_ms=4000: no worker thread left" sd_expect_workers 0
	sd_personality_done "no_terminate=1 stall_ms=4000" no-kmemleak
}

# sd_late_callback C: no_synchronize: the dmaengine mode's batch on C
# times out in the stall; its dmaengine_terminate_sync() aborts the
# stalled descriptor and returns, and the descriptor's callback still
# comes after it (late_callbacks); nothing completed
sd_late_callback() {
	sd_stats_reset
	sd_tool_times_out -C "$1" &&
		sd_expect_stat "$1" stalls -eq 1 &&
		sd_expect_stat "$1" aborted -eq 1 &&
		sd_expect_stat "$1" completed -eq 0 &&
		sd_expect_stat "$1" late_callbacks -eq 1 &&
		sd_expect_stat "$1" callbacks -eq 1 &&
		sd_no_descriptors
}

sd_group_no_synchronize() {
	klog_mark
	check "soft_dma: loads with no_synchronize=1 stall_ms=3000" \
		sd_reload no_synchronize=1 stall_ms=3000
	check_klog_has "no_synchronize=1: the probe says so" \
		'no_synchronize \(no device_synchronize\)'
	check_output "no_synchronize=1: $SD_DEV has terminate_all (Y)" '^Y$' \
		cat "$SD/$SD_DEV/terminate_all"
	check_output "no_synchronize=1: ... and no synchronize (N)" '^N$' \
		cat "$SD/$SD_DEV/synchronize"
	SD_C0=$(sd_chan 0)
	if sd_has_tool; then
		check "no_synchronize=1: a callback comes after dmaengine_terminate_sync() returned" \
			sd_late_callback "$SD_C0"
		check "no_synchronize=1: then the channel copies, verified" \
			sd_tool -C "$SD_C0" -f 64K --sge 4 --bytes-per-channel 1M -r 1 -p memcpy --verify
		check "no_synchronize=1: ... and no other callback came late" \
			sd_expect_stat "$SD_C0" late_callbacks -eq 1
	else
		tap_skip "no_synchronize=1: dmaengine mode: no dma_map_benchmark module or tool"
	fi
	sd_personality_done "no_synchronize=1 stall_ms=3000" no-kmemleak
}

# sd_fail_submit C: fail_submit_every=2, pool_size=2: 4 of dmatest's 8
# submits on C fail, and their descriptors go back to the pool at once
# (none found it empty: two kept would have emptied it); nothing is left
# allocated while dmatest still holds the channel
sd_fail_submit() {
	sd_knob fail_submit_every 2 || return 1
	dt_run chan="$1" iterations=8
	_fs=$?
	sd_knob fail_submit_every 0
	[ "$_fs" = 0 ] && dt_expect 1 8 4 && dt_expect_result 'submit error' &&
		sd_expect_stat "$1" submit_failed -eq 4 &&
		sd_expect_stat "$1" submitted -eq 4 &&
		sd_expect_stat "$1" prepared -eq 8 &&
		sd_expect_stat "$1" pool_empty -eq 0 &&
		sd_no_descriptors
}

# sd_fail_submit_tool C: fail_submit_every=3: the dmaengine mode reports
# the failed submit, and nothing is left allocated
sd_fail_submit_tool() {
	sd_stats_reset
	sd_knob fail_submit_every 3 || return 1
	sd_tool -C "$1" -f 4K --sge 16 --bytes-per-channel 64K -r 1 -w 0 \
		-p memcpy > /tmp/sd_tool.out 2>&1
	_fst=$?
	sd_knob fail_submit_every 0
	cat /tmp/sd_tool.out
	expect_value "the tool's exit status" "$_fst" -ne 0 &&
		grep -q 'dmaengine_submit() failed' /tmp/sd_tool.out &&
		sd_expect_stat "$1" submit_failed -eq 1 &&
		sd_no_descriptors
}

sd_group_fail_submit() {
	check "soft_dma: loads with pool_size=2 prep_lock=1" \
		sd_reload pool_size=2 prep_lock=1
	check_output "fail_submit_every: $SD_DEV's knob, 0 by default" '^0$' \
		cat "$SD/$SD_DEV/fail_submit_every"
	check_fails "fail_submit_every=-1 refused" sd_knob fail_submit_every -1
	SD_C0=$(sd_chan 0)
	SD_C1=$(sd_chan 1)
	sd_stats_reset
	check "fail_submit_every=2: half of dmatest's submits fail, their descriptors reclaimed at once" \
		sd_fail_submit "$SD_C0"
	if sd_has_tool; then
		dt_release
		check "fail_submit_every=3: the dmaengine mode reports the failed submit" \
			sd_fail_submit_tool "$SD_C1"
		check "fail_submit_every=0: then the dmaengine mode copies, verified" \
			sd_tool -c 2 -f 64K --sge 4 --bytes-per-channel 1M -r 1 -p memcpy --verify
	else
		tap_skip "fail_submit_every: dmaengine mode: no dma_map_benchmark module or tool"
	fi
	check "fail_submit_every=0: dmatest 2 channels x 5 passes" \
		dt_run_expect 2 5 0 iterations=5
	sd_personality_done "fail_submit_every, pool_size=2 prep_lock=1" no-kmemleak
}

sd_group_personalities() {
	sd_group_interrupts
	sd_group_pool
	sd_group_no_order
	sd_group_prep_lock
	sd_group_no_terminate
	sd_group_new_params
	# a few seconds of stalls each: once, on the patched debug kernel
	# (KASAN, kmemleak; x86-debug-dmaengine.t), the cheapest that shows
	# what they test
	case $(uname -r) in
	*-dmabench)
		sd_group_stall
		sd_group_stall_no_terminate
		sd_group_no_synchronize
		sd_group_fail_submit
		;;
	*)
		tap_skip "soft_dma: stall_ms, no_synchronize, fail_submit_every: on the patched debug kernel only (x86-debug-dmaengine.t)"
		;;
	esac
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
