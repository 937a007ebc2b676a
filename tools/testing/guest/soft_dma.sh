# SPDX-License-Identifier: GPL-2.0-only
# soft_dma: the software dmaengine provider, driven by the kernel's own
# dmatest and the project's dmaengine mode. Sourced by run.sh after lib.sh;
# suite_soft_dma runs its loading, dmatest through it, the faults its
# run-time knobs inject, the dmaengine mode on it, copy_align and
# max_seg_size, and several devices with their own knobs. Its load-time
# personalities and the module's unbinding and unloading are
# soft_dma_personalities.sh's. Runs keep dmatest's summary and result
# lines in $DT_LOG (lib.sh) and assert on them. Its channels, knobs,
# loading, dt_run and the checks both suites share are lib.sh's: the
# benchmarks use them too.

# --- dmatest --------------------------------------------------------------

# dt_every_channel: every soft_dma channel has a summary line
dt_every_channel() {
	for _c in $(sd_channels); do
		grep -q "dmatest: $_c-copy[0-9]*: summary" "$DT_LOG" || {
			echo "no summary line for $_c"
			cat "$DT_LOG"
			return 1
		}
	done
}

# --- composite checks (functions: check runs them in this shell) --------

# sd_knobs_show: the five run-time knobs' values on one line
sd_knobs_show() {
	for _k in $SD_KNOBS; do
		cat "$SD/${_k%%=*}"
	done | tr '\n' ' ' | sed 's/ $//'
}

# sd_dev_knobs_show DEVICE: the five run-time knobs of one device
sd_dev_knobs_show() {
	for _k in $SD_KNOBS; do
		cat "$SD/$1/${_k%%=*}"
	done | tr '\n' ' ' | sed 's/ $//'
}

# the run-time knobs are debugfs files only, not module parameters
sd_knobs_not_params() {
	for _k in $SD_KNOBS; do
		[ -e "/sys/module/soft_dma/parameters/${_k%%=*}" ] && return 1
	done
	return 0
}

sd_driver_name() {
	basename "$(readlink -f "/sys/bus/platform/devices/$SD_DEV/driver")"
}

# sd_all_done N: N descriptors completed without error, all freed
sd_all_done() {
	sd_expect_stat all completed -eq "$1" && sd_expect_stat all errors -eq 0 &&
	sd_no_descriptors
}

sd_polled_done() {
	sd_expect_stat all callbacks -eq 0 && sd_expect_stat all interrupts -eq 0 &&
	sd_all_done "$1"
}

# sd_stall_run C0 C1: C0 stalled, C1 not
sd_stall_run() {
	dt_run chan="$1" chan="$2" iterations=3 timeout=300 || return 1
	grep -q "$1-copy0: summary 3 tests, 3 failures " "$DT_LOG" &&
	grep -q "$2-copy0: summary 3 tests, 0 failures " "$DT_LOG" && return 0
	cat "$DT_LOG"
	return 1
}

# sd_unstall_run C: a test waits on stalled C until the stall is lifted
sd_unstall_run() {
	dt_start chan="$1" iterations=3 timeout=30000 || return 1
	sleep 2
	sd_knob stall_channel -1 && dt_finish 60 && dt_expect 1 3 0
}

# sd_swiotlb_used: swiotlb handed out bounce buffers (nothing else in the
# VM does DMA)
sd_swiotlb_used() {
	expect_value io_tlb_used_hiwater \
		"$(cat /sys/kernel/debug/swiotlb/io_tlb_used_hiwater)" -gt 0
}

# --- groups ---------------------------------------------------------------

# sd_group_params: each load-time parameter's refusal, the most channels:
# the full scope's
sd_group_params() {
	for _p in channels=0 channels=257 max_seg_size=1000 pool_size=65537 \
		dma_bits=31 dma_bits=65 \
		prep_lock=2 no_order=x devices=0 devices=17; do
		_d=$_p
		[ "$_p" != max_seg_size=1000 ] || _d="max_seg_size below a page"
		check_fails "soft_dma: $_d refused" insmod "$MODDIR/soft_dma.ko" "$_p"
	done
	check "soft_dma: loads with channels=64" insmod "$MODDIR/soft_dma.ko" channels=64
	check_output "soft_dma: 64 channels registered" '^64$' sd_nchannels
	check "soft_dma: unloads" rmmod soft_dma
}

sd_group_load() {
	sd_unload
	scope_full && sd_group_params

	check "soft_dma: loads with channels=$SD_CHANNELS" sd_load
	check_output "soft_dma: $SD_CHANNELS channels registered" "^$SD_CHANNELS\$" sd_nchannels
	check_output "soft_dma: device $SD_DEV bound to driver soft_dma" '^soft_dma$' sd_driver_name
	check_output "soft_dma: channels are named dmaNchanM" '^dma[0-9]+chan0$' sd_chan 0
	check_output "soft_dma: knobs in debugfs with their defaults" '^N 0 0 0 -1$' \
		sd_knobs_show
	check_output "soft_dma: $SD_DEV's own knobs in its directory, the same" \
		'^N 0 0 0 -1$' sd_dev_knobs_show "$SD_DEV"
	check "soft_dma: run-time knobs are not module parameters" sd_knobs_not_params
	check_output "soft_dma: prep_lock, no_order, pool_size default to N N 0" '^N N 0$' \
		sd_params_show
	check_output "soft_dma: no_terminate defaults to N" '^N$' \
		cat /sys/module/soft_dma/parameters/no_terminate
	check_output "soft_dma: $SD_DEV has device_terminate_all (terminate_all Y)" \
		'^Y$' cat "$SD/$SD_DEV/terminate_all"
	check_fails "soft_dma: knob out of range refused (stall_channel=256)" sd_knob stall_channel 256
	check_fails "soft_dma: knob out of range refused (stall_channel=-2)" sd_knob stall_channel -2
	check_output "soft_dma: nocopy=2 is not a boolean: nocopy stays N" '^N$' \
		sh -c "echo 2 > $SD/nocopy; cat $SD/nocopy"
	check_fails "soft_dma: knob out of range refused (delay_us=-1)" sd_knob delay_us -1
	check_output "soft_dma: max_seg_size 4 MiB by default" '^4194304$' \
		cat /sys/module/soft_dma/parameters/max_seg_size
	check "soft_dma: no worker threads while no channel is held" sd_expect_workers 0
	check_klog_clean "soft_dma: load"
}

# dmatest's iterations: the debug scope runs a fifth of them, each copy
# still verified, for KASAN, lockdep and kmemleak to watch
sd_group_dmatest() {
	SD_N=$(sd_nchannels)
	_it=$(scope_pick 50 10)
	_pit=$(scope_pick 100 20)
	sd_stats_reset
	check "dmatest: interrupt completion, $SD_N channels x 2 threads x $_it tests, verified" \
		dt_run_expect $((SD_N * 2)) "$_it" 0 threads_per_chan=2 iterations="$_it"
	check "dmatest: every soft_dma channel was tested" dt_every_channel
	check "soft_dma: one callback per descriptor (DMA_PREP_INTERRUPT)" \
		sd_expect_stat all callbacks -eq $((SD_N * 2 * _it))
	check "soft_dma: one interrupt per DMA_PREP_INTERRUPT descriptor" \
		sd_expect_stat all interrupts -eq $((SD_N * 2 * _it))
	check "soft_dma: all completed without error, acked descriptors freed" \
		sd_all_done $((SD_N * 2 * _it))
	check "soft_dma: a worker thread per held channel" sd_expect_workers "$SD_N"

	# polled dmatest terminates the channel after each test, which aborts
	# the other threads' transfers: one thread per channel
	sd_stats_reset
	check "dmatest: polled completion (polled=1), $SD_N channels x $_pit tests" \
		dt_run_expect "$SD_N" "$_pit" 0 iterations="$_pit" polled=1
	check "dmatest: polled run covered every channel" dt_every_channel
	check "soft_dma: polled: no interrupt, no callback without DMA_PREP_INTERRUPT, all freed" \
		sd_polled_done $((SD_N * _pit))

	if [ "$(dma_config)" = swiotlb ]; then
		# swiotlb maps at most 256 KiB at once
		tap_skip "dmatest: 2 MiB copies: swiotlb cannot map dmatest's 3 MiB buffers"
		check "dmatest: 255 KiB copies through swiotlb bounce buffers, verified" \
			dt_run_expect 2 8 0 max_channels=2 iterations=8 \
			test_buf_size=262144 transfer_size=261632
		check "swiotlb: the copies went through bounce buffers" sd_swiotlb_used
	else
		check "dmatest: 2 MiB + 512 byte copies (chunked), 2 channels, verified" \
			dt_run_expect 2 4 0 max_channels=2 iterations=4 \
			test_buf_size=3145728 transfer_size=2097664
	fi
	check "dmatest: fixed offsets and lengths (norandom), 4 threads on one channel" \
		dt_run_expect 4 20 0 chan="$(sd_chan 0)" threads_per_chan=4 norandom=1
	dt_release
	check "soft_dma: worker threads stop when the channels are released" sd_expect_workers 0
	check "soft_dma: nothing left allocated" sd_no_descriptors
	check_klog_clean "soft_dma: dmatest"
}

sd_group_faults() {
	SD_N=$(sd_nchannels)
	SD_C0=$(sd_chan 0)
	SD_C1=$(sd_chan 1)

	sd_stats_reset
	sd_knob fail_prep_every 4
	check "fail_prep_every=4: every channel fails 5 of 20 preps" \
		dt_run_expect "$SD_N" 20 5
	check "fail_prep_every=4: dmatest saw prep errors" dt_expect_result 'prep error'
	check "fail_prep_every=4: counted in stats" sd_expect_stat "$SD_C0" prep_failed -eq 5
	sd_knob fail_prep_every 0

	sd_stats_reset
	sd_knob error_every 5
	check "error_every=5 (interrupt): every channel fails 4 of 20 transfers" \
		dt_run_expect "$SD_N" 20 4
	check "error_every=5: dmatest saw DMA_ERROR status" \
		dt_expect_result 'completion error status'
	check "error_every=5: counted in stats" sd_expect_stat all errors -eq $((SD_N * 4))
	check "error_every=5 (polled): every channel fails 4 of 20 transfers" \
		dt_run_expect "$SD_N" 20 4 polled=1
	sd_knob error_every 0
	check "after prep and transfer faults: a clean run passes" \
		dt_run_expect "$SD_N" 20 0
	dt_release
	check "after faults: no descriptor leaked" sd_no_descriptors
	check_klog_clean "soft_dma: fail_prep_every, error_every"

	sd_stats_reset
	sd_knob nocopy 1
	check "nocopy=1, noverify: completes without failures" \
		dt_run_expect "$SD_N" 20 0 noverify=1
	check "nocopy=1: no byte copied" sd_expect_stat all bytes -eq 0
	check "nocopy=1 with verification: every test is a data error" \
		dt_run_expect 1 10 10 chan="$SD_C0" iterations=10
	check "nocopy=1: dmatest saw the data errors" dt_expect_result 'data error'
	sd_knob nocopy 0

	sd_knob delay_us 20000
	for _p in '' polled=1; do
		_d="delay_us=20000${_p:+ (polled)}"
		check "$_d: 10 tests pass" \
			dt_run_expect 1 10 0 chan="$SD_C0" iterations=10 $_p
		check "$_d: no faster than 50 tests/s" dt_max_iops 50
	done
	sd_knob delay_us 0
	check_klog_clean "soft_dma: nocopy, delay_us"

	sd_stats_reset
	sd_knob stall_channel 0
	check "stall_channel=0: its 3 tests time out, the other channel passes" \
		sd_stall_run "$SD_C0" "$SD_C1"
	check "stall_channel=0: dmatest reported timeouts" dt_expect_result 'test timed out'
	check "stall_channel=0: terminate_all dropped the stalled descriptors" \
		sd_expect_stat "$SD_C0" aborted -ge 3
	check "stall_channel=0: nothing completed on it" \
		sd_expect_stat "$SD_C0" completed -eq 0
	check "stall_channel=0 (polled): dma_sync_wait times out, 1 of 1 fails" \
		dt_run_expect 1 1 1 chan="$SD_C0" iterations=1 polled=1
	dt_release
	check "stall_channel=0: no descriptor left after terminate" sd_no_descriptors
	check "stall lifted while a test waits: it completes" sd_unstall_run "$SD_C0"
	sd_knob stall_channel -1
	check "after the stall: a clean run passes on every channel" \
		dt_run_expect "$SD_N" 20 0
	check_klog_clean "soft_dma: stall_channel"

	dt_release
	check "faults: nothing left allocated" sd_no_descriptors
	check_klog_clean "soft_dma: faults"
}

# The dmaengine mode submits whole batches and issues them at once.
sd_group_tool() {
	if ! sd_has_tool; then
		tap_skip "dmaengine mode on soft_dma: no dma_map_benchmark module or tool"
		return
	fi
	check "dmaengine mode: per-segment memcpy, 4 channels, 64 x 64 KiB batches, verified" \
		sd_tool -c 4 -f 64K --sge 64 --bytes-per-channel 16M -r 2 -p memcpy --verify
	# swiotlb bounces at most 256 KiB at once
	SD_BIG=2M
	[ "$(dma_config)" = swiotlb ] && SD_BIG=256K
	# 64 MiB copied in large folios: the full scope's (one pass of each
	# form, in 64 KiB folios, is the debug scope's)
	scope_full && check "dmaengine mode: per-segment memcpy of $SD_BIG folios, polled, verified" \
		sd_tool -c 2 -f "$SD_BIG" --sge 4 --bytes-per-channel 32M -r 2 -p memcpy --poll --verify
	if [ "$(cat "$SD/memcpy_sg")" = Y ]; then
		check "dmaengine mode: memcpy_sg and memcpy alternating, 64 KiB folios, verified" \
			sd_tool -c 4 -f 64K --sge 64 --bytes-per-channel 16M -r 2 -p both --verify
		scope_full && check "dmaengine mode: memcpy_sg of $SD_BIG folios, polled, verified" \
			sd_tool -c 2 -f "$SD_BIG" --sge 8 --bytes-per-channel 32M -r 2 -p memcpy_sg --poll --verify
		check "dmaengine mode: memcpy_sg of 256 one-page folios, verified" \
			sd_tool -c 1 -f 4K --sge 256 --bytes-per-channel 4M -r 2 -p memcpy_sg --verify
	else
		tap_skip "dmaengine mode with memcpy_sg: the kernel has no DMA_MEMCPY_SG"
	fi
	# a NULL prep with descriptors in flight is retried; with none, fatal
	_one="-f 64K -r 1 -p memcpy"
	check "dmaengine mode: fail_prep_every=10: the NULL preps are retried, verified" \
		sd_with fail_prep_every=10 sd_tool $_one --sge 64 --bytes-per-channel 4M --verify
	# faults the tool must report (DESCRIPTION|PATTERN|KNOB|OPTIONS after $_one)
	while IFS='|' read -r _d _p _k _o; do
		check_fails_with "dmaengine mode: $_d" "$_p" \
			sd_with "$_k" sd_tool $_one $_o < /dev/null
	done <<EOF
fail_prep_every=1 makes every prep return NULL|prep call returned NULL|fail_prep_every=1|--sge 64 --bytes-per-channel 4M
error_every=1 fails the batch|completed with an error|error_every=1|--sge 16 --bytes-per-channel 4M
error_every=1, polled: DMA_ERROR status|completed with an error|error_every=1|--sge 16 --bytes-per-channel 4M --poll
nocopy=1 fails verification|differs|nocopy=1|--sge 16 --bytes-per-channel 4M --verify
a stalled channel times out|did not complete|stall_channel=0|-C $(sd_chan 0) --sge 4 --bytes-per-channel 1M --timeout-ms 500
EOF
	check "dmaengine mode: delay_us=1000, polled" sd_with delay_us=1000 \
		sd_tool $_one --sge 16 --bytes-per-channel 1M --poll --verify
	check "dmaengine mode: a clean run passes after the faults" \
		sd_tool -c 2 -f 64K --sge 64 --bytes-per-channel 8M -r 2 -p memcpy --verify
	check "dmaengine mode: nothing left allocated" sd_no_descriptors
	check_klog_clean "soft_dma: dmaengine mode"
}

sd_group_limits() {
	sd_unload
	check "soft_dma: loads with copy_align=6 max_seg_size=8192" \
		insmod "$MODDIR/soft_dma.ko" channels=2 copy_align=6 max_seg_size=8192
	check "copy_align=6: dmatest aligns to it and passes" \
		dt_run_expect 2 20 0 test_buf_size=8192
	check "copy_align=6: a 100-byte copy is refused" \
		dt_run_expect 2 5 5 iterations=5 transfer_size=100
	check "max_seg_size=8192: a 12288-byte copy is refused" \
		dt_run_expect 2 5 5 iterations=5 transfer_size=12288
	check "copy_align, max_seg_size: refusals are prep errors" \
		dt_expect_result 'prep error'
	check "max_seg_size=8192: an 8192-byte copy passes" \
		dt_run_expect 2 5 0 iterations=5 test_buf_size=16384 transfer_size=8192
	dt_release
	sd_unload
	check "soft_dma: reloads with channels=$SD_CHANNELS" sd_load
	check_klog_clean "soft_dma: copy_align, max_seg_size"
}

# --- several devices, each with its own knobs -----------------------------

SD_DEV1=soft_dma.1

# sd_dev_channels DEVICE: that soft_dma device's channels, one a line
sd_dev_channels() {
	for _c in /sys/class/dma/*; do
		[ -e "$_c/device" ] || continue
		[ "$(basename "$(readlink -f "$_c/device")")" = "$1" ] &&
			basename "$_c"
	done
}

# sd_dev_chan DEVICE INDEX: name of that device's channel with that index
sd_dev_chan() {
	sd_dev_channels "$1" | sed -n "$(($2 + 1))p"
}

# sd_dev_knob DEVICE NAME VALUE: set a run-time knob of one device
sd_dev_knob() {
	echo "$3" > "$SD/$1/$2"
}

# sd_knob_everywhere NAME: the knob's top-level value, then soft_dma.0's
# and soft_dma.1's, on one line
sd_knob_everywhere() {
	cat "$SD/$1" "$SD/$SD_DEV/$1" "$SD/$SD_DEV1/$1" | tr '\n' ' ' | sed 's/ $//'
}

# sd_dev_stat DEVICE CHANNEL|all COLUMN: sd_stat of one device
sd_dev_stat() {
	awk -v c="$2" -v k="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		c == "all" || $1 == c { s += $col[k]; n++ }
		END { if (n || c == "all") print s + 0 }' "$SD/$1/stats"
}

# sd_dev_expect_stat DEVICE CHANNEL|all COLUMN OP VALUE
sd_dev_expect_stat() {
	expect_value "$1 stats $2 $3" "$(sd_dev_stat "$1" "$2" "$3")" "$4" "$5" ||
		{ cat "$SD/$1/stats"; return 1; }
}

# sd_dev_stats_reset: both devices' counters
sd_dev_stats_reset() {
	echo 0 > "$SD/$SD_DEV/stats" && echo 0 > "$SD/$SD_DEV1/stats"
}

# sd_dev_nocopy_done DEVICE N: N descriptors completed on DEVICE, no byte
# copied
sd_dev_nocopy_done() {
	sd_dev_expect_stat "$1" all completed -eq "$2" &&
		sd_dev_expect_stat "$1" all bytes -eq 0
}

# sd_dev_run_expect DEVICE THREADS TESTS FAILURES ARGS...: dmatest on one
# device's channels, and its summaries
sd_dev_run_expect() {
	_dre_d=$1 _dre_t=$2 _dre_n=$3 _dre_f=$4
	shift 4
	dt_start_on "$_dre_d" transfer_size=0 alignment=-1 nobounce=0 "$@" &&
		dt_finish && dt_expect "$_dre_t" "$_dre_n" "$_dre_f"
}

# sd_dev_stall_run DEVICE C0 C1: on DEVICE, C0 stalled, C1 not
sd_dev_stall_run() {
	dt_start_on "$1" transfer_size=0 alignment=-1 nobounce=0 chan="$2" \
		chan="$3" iterations=3 timeout=300 && dt_finish || return 1
	grep -q "$2-copy0: summary 3 tests, 3 failures " "$DT_LOG" &&
	grep -q "$3-copy0: summary 3 tests, 0 failures " "$DT_LOG" && return 0
	cat "$DT_LOG"
	return 1
}

sd_dev_bound() {
	[ "$(basename "$(readlink -f "/sys/bus/platform/devices/$1/driver")")" = soft_dma ] &&
		[ "$(sd_dev_channels "$1" | wc -l)" -eq "$2" ]
}

# Two devices (devices=2): each device's knobs act on it alone, the
# top-level files on both, and are what a device binds with.
sd_group_devices() {
	sd_unload
	check "soft_dma: loads with devices=2 channels=2" \
		insmod "$MODDIR/soft_dma.ko" devices=2 channels=2
	check "devices=2: $SD_DEV bound, 2 channels" sd_dev_bound "$SD_DEV" 2
	check "devices=2: $SD_DEV1 bound, 2 channels of its own" sd_dev_bound "$SD_DEV1" 2
	check_output "devices=2: $SD_DEV1 has its knobs, at the defaults" \
		'^N 0 0 0 -1$' sd_dev_knobs_show "$SD_DEV1"
	_d0c0=$(sd_dev_chan "$SD_DEV" 0)
	_d1c0=$(sd_dev_chan "$SD_DEV1" 0)
	_d1c1=$(sd_dev_chan "$SD_DEV1" 1)

	# A data error makes dmatest log dozens of lines, and the suites
	# find their lines in the 128 KiB kernel log by counting: one
	# verified test shows it, runs without verification count the rest.
	sd_dev_stats_reset
	sd_dev_knob "$SD_DEV1" nocopy 1
	check_output "$SD_DEV1/nocopy=1: the top-level and $SD_DEV's nocopy stay N" \
		'^N N Y$' sd_knob_everywhere nocopy
	check "$SD_DEV1/nocopy=1: dmatest on $SD_DEV copies, verified" \
		sd_dev_run_expect "$SD_DEV" 2 10 0 iterations=10
	check "$SD_DEV1/nocopy=1: a verified dmatest test on $SD_DEV1 is a data error" \
		sd_dev_run_expect "$SD_DEV1" 1 1 1 chan="$_d1c0" iterations=1
	check "$SD_DEV1/nocopy=1: dmatest saw the data error" dt_expect_result 'data error'
	check "$SD_DEV1/nocopy=1: dmatest on $SD_DEV1 without verification passes" \
		sd_dev_run_expect "$SD_DEV1" 2 10 0 iterations=10 noverify=1
	check "$SD_DEV1/nocopy=1: $SD_DEV copied bytes" \
		sd_dev_expect_stat "$SD_DEV" all bytes -gt 0
	check "$SD_DEV1/nocopy=1: $SD_DEV1 copied none" \
		sd_dev_expect_stat "$SD_DEV1" all bytes -eq 0
	check "$SD_DEV1/nocopy=1: ... and completed its 21 descriptors" \
		sd_dev_expect_stat "$SD_DEV1" all completed -eq 21
	sd_dev_knob "$SD_DEV1" nocopy 0
	dt_release

	sd_dev_knob "$SD_DEV1" stall_channel 0
	check_output "$SD_DEV1/stall_channel=0: the top-level and $SD_DEV's stay -1" \
		'^-1 -1 0$' sd_knob_everywhere stall_channel
	check "$SD_DEV1/stall_channel=0: channel 0 of $SD_DEV ($_d0c0) runs" \
		sd_dev_run_expect "$SD_DEV" 1 3 0 chan="$_d0c0" iterations=3
	check "$SD_DEV1/stall_channel=0: $_d1c0 stalls, $_d1c1 runs" \
		sd_dev_stall_run "$SD_DEV1" "$_d1c0" "$_d1c1"
	dt_release
	sd_dev_knob "$SD_DEV1" stall_channel -1
	check "$SD_DEV1/stall_channel=-1: $_d1c0 runs again" \
		sd_dev_run_expect "$SD_DEV1" 1 3 0 chan="$_d1c0" iterations=3
	dt_release
	check_fails "$SD_DEV1/stall_channel=2 refused: it has 2 channels" \
		sd_dev_knob "$SD_DEV1" stall_channel 2
	check_fails "$SD_DEV1/stall_channel=-2 refused" \
		sd_dev_knob "$SD_DEV1" stall_channel -2
	check_fails "$SD_DEV1/delay_us=-1 refused" sd_dev_knob "$SD_DEV1" delay_us -1
	check_fails "$SD_DEV1/nocopy=2 refused: not a boolean" \
		sd_dev_knob "$SD_DEV1" nocopy 2
	check_output "$SD_DEV1: the refused writes changed nothing" \
		'^N 0 0 0 -1$' sd_dev_knobs_show "$SD_DEV1"

	# the top-level files: every bound device, and the default
	sd_dev_knob "$SD_DEV1" delay_us 5
	sd_knob delay_us 1000
	check_output "top-level delay_us=1000 sets it on both devices" \
		'^1000 1000 1000$' sd_knob_everywhere delay_us
	sd_dev_knob "$SD_DEV1" delay_us 0
	check_output "$SD_DEV1/delay_us=0 leaves the default and $SD_DEV alone" \
		'^1000 1000 0$' sd_knob_everywhere delay_us
	sd_knob delay_us 0
	sd_dev_stats_reset
	sd_knob nocopy 1
	check "top-level nocopy=1: dmatest on $SD_DEV1, without verification" \
		sd_dev_run_expect "$SD_DEV1" 2 5 0 iterations=5 noverify=1
	check "top-level nocopy=1: and on $SD_DEV" \
		sd_dev_run_expect "$SD_DEV" 2 5 0 iterations=5 noverify=1
	dt_release
	sd_knob nocopy 0
	check "top-level nocopy=1: $SD_DEV1 completed 10, copied nothing" \
		sd_dev_nocopy_done "$SD_DEV1" 10
	check "top-level nocopy=1: $SD_DEV completed 10, copied nothing" \
		sd_dev_nocopy_done "$SD_DEV" 10
	sd_knob stall_channel 1
	check_output "top-level stall_channel=1 reaches both devices" \
		'^1 1 1$' sd_knob_everywhere stall_channel
	sd_knob stall_channel -1

	# a device binds with the defaults; its own settings go with it
	sd_knob error_every 7
	sd_dev_knob "$SD_DEV1" nocopy 1
	check "unbind $SD_DEV1: $SD_DEV stays" sh -c "echo $SD_DEV1 > $SD_DRV/unbind"
	check_fails "... $SD_DEV1's directory is gone" test -e "$SD/$SD_DEV1"
	check "... dmatest on $SD_DEV still passes" \
		sd_dev_run_expect "$SD_DEV" 2 5 0 iterations=5
	dt_release
	check "rebind $SD_DEV1" sh -c "echo $SD_DEV1 > $SD_DRV/bind"
	check "... bound again, 2 channels" sd_dev_bound "$SD_DEV1" 2
	check_output "... with the defaults: error_every 7, nocopy N again" \
		'^N 0 0 7 -1$' sd_dev_knobs_show "$SD_DEV1"
	check "top-level files at their defaults again: both devices too" \
		sd_knobs_reset_all
	check "devices=2: nothing left allocated" sd_no_descriptors
	check_klog_clean "soft_dma: devices=2, per-device knobs"
	check "devices=2: soft_dma unloads" sd_unload
	check "devices=2: both devices are gone" sd_gone_all
	check "soft_dma: reloads with channels=$SD_CHANNELS" sd_load
}

sd_gone_all() {
	sd_gone && [ ! -e "/sys/bus/platform/devices/$SD_DEV1" ]
}

# sd_knobs_reset_all: sd_knobs_reset, and both devices' knobs follow
sd_knobs_reset_all() {
	sd_knobs_reset || return 1
	for _d in "$SD_DEV" "$SD_DEV1"; do
		expect_value "$_d's knobs" "$(sd_dev_knobs_show "$_d")" = "N 0 0 0 -1" ||
			return 1
	done
}

suite_soft_dma() {
	if ! dt_in_image; then
		tap_not_ok "soft_dma: dmatest.ko is in the image"
		return
	fi
	# the suites before this one filled the kernel log, and this one
	# fills it more: each suite counts its lines in a log of its own
	klog_restart "soft_dma: the kernel log before the suite"
	sd_group_load
	sd_group_dmatest
	sd_group_faults
	sd_group_tool
	sd_group_limits
	sd_group_devices
	dt_release
	sd_unload
}
