# SPDX-License-Identifier: GPL-2.0-only
# The dmaengine mode against soft_dma: every prep mode with verification on
# several channel counts, folio orders, depths and both buffer layouts,
# exact prep-call counts, the contracts of real providers (soft_dma's
# personalities: ioat's prep lock, idxd's out-of-order completion, bounded
# descriptor pools), every error path (each must unwind: channels
# released, module usable), the unbinding of the provider mid-run, and
# kernel validation of every field. (The runs, their figures and the ABI's
# names are lib.sh's de_*: hwdma.sh runs them on boards.)

# dmaengine_counts_exact MODE BYTES SEG SGE: prep calls, submits and bytes are
# exactly what the request implies: one call per segment, or per batch.
dmaengine_counts_exact() {
	_ce_per=$3
	[ "$1" = 0 ] || _ce_per=$(($3 * $4))
	de_calls "$1" $(($2 / _ce_per)) "$2"
}

# de_batch_exact HEAD TAIL BYTES SEG SGE: "HEADmemcpy_sgTAIL" and
# "HEADmemcpy_vecTAIL", where the kernel has them: one call per batch
de_batch_exact() {
	for _be in sg:1 vec:3; do
		have_memcpy_${_be%:*} || continue
		check "$1memcpy_${_be%:*}$2" \
			dmaengine_counts_exact ${_be#*:} "$3" "$4" "$5"
	done
}

# de_fails DESC ERRNO WHAT ERROR [KNOB=VALUE] FIELD=VALUE...: the run fails
# ("dmaengine: DESC") with ERRNO and the ABI's ERROR ("... the WHAT
# error"), with that soft_dma knob set for it; every knob reset after
de_fails() {
	_df_d=$1 _df_e=$2 _df_w=$3 _df_n=$4
	shift 4
	if sd_is_knob "$1"; then
		sd_knob "${1%%=*}" "${1#*=}"
		shift
	fi
	check_fails "dmaengine: $_df_d" de_run "$@"
	check "dmaengine: ... with $_df_e and the $_df_w error" \
		de_error_is "$_df_e" "$_df_n"
	sd_knobs_reset
}

# The prep modes this kernel has, without and with the CPU copy.
dma_modes() {
	_dm=1
	have_memcpy_sg && _dm=$((_dm | 2))
	have_memcpy_vec && _dm=$((_dm | PREP_MEMCPY_VEC))
	echo $_dm
}
all_modes() {
	echo $(($(dma_modes) | PREP_CPU))
}

# The debug scope (lib.sh's scope_full) runs one cell of each matrix:
# every prep form, verified, under the debug kernel's checkers.
dmaengine_matrix() {
	_modes=$(dma_modes)
	for _ch in $(scope_pick "1 2 4" 2); do
		for _order in $(scope_pick "0 4 9" 4); do
			_seg=$((4096 << _order))
			# 8 MiB per channel at order 9, else 1 MiB: TCG is slow
			_sge=8
			_bytes=$((1 << 20))
			[ "$_order" = 9 ] && { _sge=2; _bytes=$((8 << 20)); }
			# swiotlb bounces at most 256 KiB in one piece: a
			# 2 MiB folio takes 8 entries, and 8 memcpy calls
			_mseg=$_seg
			[ "$_order" = 9 ] && [ "$(dma_config)" = swiotlb ] &&
				_mseg=$((256 << 10))
			check "dmaengine: $_ch ch, order $_order, prep_modes $_modes, verified" \
				de_run channels=$_ch folio_order=$_order sge=$_sge \
				bytes_per_channel=$_bytes runs=2 flags=1 \
				prep_modes=$_modes
			check "dmaengine: $_ch ch, order $_order: per-segment prep calls exact" \
				dmaengine_counts_exact 0 $((_bytes * _ch)) $_mseg $_sge
			de_batch_exact "dmaengine: $_ch ch, order $_order: " \
				" prep calls exact" $((_bytes * _ch)) $_seg $_sge
		done
	done
	scope_full && dmaengine_reference_shape
	check "dmaengine: polled completion, verified" \
		de_run channels=2 sge=16 flags=3 runs=2 prep_modes=$_modes
	check "dmaengine: channels released after the runs" channels_released
}

# the reference shape: counts, no verification (the full scope's)
dmaengine_reference_shape() {
	check "dmaengine: the reference shape: 512 entries, memcpy_sg 512x fewer preps" \
		de_run channels=1 folio_order=0 sge=512 \
		bytes_per_channel=$((4 << 20)) runs=1 prep_modes=$_modes
	check "dmaengine: 4 MiB in 4 KiB segments: 1024 prep calls" \
		dmaengine_counts_exact 0 $((4 << 20)) 4096 512
	have_memcpy_sg && check "dmaengine: 4 MiB in batches of 512: 2 prep calls" \
		dmaengine_counts_exact 1 $((4 << 20)) 4096 512
	if have_memcpy_vec; then
		check "dmaengine: ... memcpy_vec too: 2 prep calls" \
			dmaengine_counts_exact 3 $((4 << 20)) 4096 512
		check_output "dmaengine: ... its dma_vec arrays were built, in prep time" \
			'^mode3 .* convert_ns=[1-9]' cat "$DE_OUT"
	fi
}

# The migration-shaped workload: distinct or reused buffers, batches in
# flight, the CPU copy beside the engine.
dmaengine_workload() {
	_all=$(all_modes)
	for _ch in $(scope_pick "1 4" 4); do
		for _depth in $(scope_pick "1 4" 4); do
			for _buf in $(scope_pick "reuse distinct" distinct); do
				_f=$F_VERIFY
				[ $_buf = distinct ] && _f=$((_f | F_DISTINCT))
				check "dmaengine: $_ch ch, depth $_depth, $_buf buffers, prep_modes $_all, verified" \
					de_run channels=$_ch depth=$_depth sge=16 \
					bytes_per_channel=$((1 << 20)) runs=2 \
					flags=$_f prep_modes=$_all
				check "dmaengine: ... per-segment prep calls exact" \
					dmaengine_counts_exact 0 $((_ch << 20)) 4096 16
				check_output "dmaengine: ... the CPU copied every byte, in CPU time" \
					"^mode2 .* bytes=$((_ch << 20)) .* copy_ns=[1-9]" \
					cat "$DE_OUT"
			done
		done
	done

	# one map per batch with distinct buffers, one per run reused
	if [ -d $TRACING/events/dma ]; then
		check "dmaengine: distinct buffers map each of 8 batches" \
			dmaengine_trace_maps 16 $F_DISTINCT
		check "dmaengine: reused buffers map once a run" \
			dmaengine_trace_maps 2 0
	else
		tap_skip "dmaengine: map counts: no dma trace events in this kernel"
	fi

	# distinct buffers are all allocated: refused before anything is
	klog_mark
	de_fails "8 GiB of distinct buffers refused" ENOMEM memory $ERR_NOMEM \
		channels=1 bytes_per_channel=$((4 << 30)) flags=$F_DISTINCT
	check "dmaengine: ... before any channel was taken" \
		grep -q ' channels_used=0$' "$DE_OUT"
	check "dmaengine: ... the answer weighs them: 131072 batches, 8 GiB held" \
		grep -q " batches_per_channel=131072 buffer_bytes=$((8 << 30)) " "$DE_OUT"
	# bytes_per_channel rounded up to whole batches (8 x 4 KiB), at least one
	check_output "dmaengine: 3 1/2 batches of bytes_per_channel: 4 whole ones" \
		' batches_per_channel=4 buffer_bytes=262144$' \
		"$MBIOCTL" dmaengine sge=8 bytes_per_channel=$((28 << 12)) flags=$F_DISTINCT
	check_output "dmaengine: ... one byte: one batch, reused buffers: one batch held" \
		' batches_per_channel=1 buffer_bytes=65536$' \
		"$MBIOCTL" dmaengine sge=8 bytes_per_channel=1
	check_klog_has "dmaengine: ... the message gives the size and the way out" \
		'buffers of 1 channel\(s\) with distinct folios for every batch \(reuse one batch.* = 8192 MiB: more than 3/4'
	# the same bytes through one reused batch (nocopy: TCG is slow;
	# swiotlb bounces at most 256 KiB in one piece)
	_order=9 _sge=8
	[ "$(dma_config)" = swiotlb ] && { _order=6; _sge=64; }
	check "dmaengine: ... the same bytes through one reused batch run" \
		sd_with nocopy=1 de_run channels=1 bytes_per_channel=$((4 << 30)) \
		sge=$_sge folio_order=$_order runs=1 prep_modes=$(dma_modes) \
		flags=0 timeout_ms=60000

	# a kernel without memcpy_sg runs what it has when asked to
	if ! have_memcpy_sg; then
		check "dmaengine: SKIP_MISSING runs the modes there are" \
			de_run prep_modes=15 flags=$F_SKIP_MISSING
		check_output "dmaengine: ... memcpy and cpu ran" \
			'prep_modes_run=5' cat "$DE_OUT"
		check_output "dmaengine: ... memcpy_sg is missing for want of the API" \
			"^mode1 .* missing=$ERR_NO_API" cat "$DE_OUT"
	fi
	if ! have_memcpy_vec; then
		check "dmaengine: SKIP_MISSING without memcpy_vec runs the rest" \
			de_run prep_modes=$((PREP_MEMCPY_VEC | 5)) \
			flags=$F_SKIP_MISSING
		check_output "dmaengine: ... memcpy_vec is missing for want of the API" \
			"^mode3 .* missing=$ERR_NO_API" cat "$DE_OUT"
	fi

	# the modes take turns going first: samples come in run order
	check "dmaengine: each run starts with the next mode (memcpy_sg skipped where missing)" \
		dmaengine_rotation
	check "dmaengine: ... with two modes too" dmaengine_rotation memcpy,cpu

	# threads pinned as asked: the scheduler's part, the full scope's
	scope_full && check "dmaengine: cpus=1 pins every channel thread to CPU 1" \
		pinned_run dmaengine-bench 1 \
		"$MBIOCTL" dmaengine channels=2 sge=4 runs=2000 cpus=1
}

# dmaengine_rotation [PREP]: over 4 runs on one channel, run r starts with mode
# r modulo the modes that ran, in their order (memcpy, memcpy_sg, cpu)
dmaengine_rotation() {
	"$TOOL" -m dmaengine -D "$SD_DEV" -c 1 --sge 8 --bytes-per-channel 64K -r 4 -w 0 \
		${1:+-p "$1"} --samples --json > /tmp/rot.json || return 1
	tr '{' '\n' < /tmp/rot.json |
		sed -n 's/^"prep_mode":"\([a-z_]*\)","run":\([0-9]*\),.*/\2 \1/p' \
		> /tmp/rot.seq
	_modes=$(awk '!seen[$2]++ { print $2 }' /tmp/rot.seq)
	_n=$(echo "$_modes" | wc -l)
	_firsts=$(awk '!seen[$1]++ { print $2 }' /tmp/rot.seq | tr '\n' ' ')
	_want=
	for _r in 0 1 2 3; do
		_want="$_want$(echo "$_modes" | sed -n "$((_r % _n + 1))p") "
	done
	echo "first mode of each run: $_firsts(want $_want)"
	[ "$_n" -ge 2 ] && [ "$_firsts" = "$_want" ]
}

# dmaengine_trace_maps N FLAGS: a run of 8 batches of 16 pages, with
# these flags, maps exactly N sg tables
dmaengine_trace_maps() {
	trace_run dma/dma_map_sg de_run prep_modes=1 runs=1 channels=1 sge=16 \
		bytes_per_channel=$((512 << 10)) flags="$2" || return 1
	# soft_dma's alone: another driver's mappings are not the run's
	expect_value "dma_map_sg events" \
		"$(grep -c ' dma_map_sg: soft_dma\.[0-9]* ' /tmp/trace.out)" -eq "$1"
}

# Each personality of soft_dma models a real driver's contract.
dmaengine_contracts() {
	_modes=$(dma_modes)
	# verified batches of 64 in distinct buffers, several in flight
	_run="sge=64 bytes_per_channel=$((1 << 20)) runs=2 flags=$((F_VERIFY | F_DISTINCT)) prep_modes=$_modes"

	# ioat: a prep lock held from prep until submit
	check "dmaengine: soft_dma with ioat's prep lock" \
		soft_reload prep_lock=1
	check "dmaengine: prep lock: 4 ch, depth 2, both modes, verified" \
		de_run channels=4 depth=2 $_run
	check_klog_clean "dmaengine: prep lock: no lockdep report"

	# idxd: completions out of order
	check "dmaengine: soft_dma completing out of order (idxd)" \
		soft_reload no_order=1
	sd_stats_reset
	check "dmaengine: NO_ORDER: 2 ch, depth 4, both modes, verified" \
		de_run channels=2 depth=4 $_run
	check "dmaengine: ... and the descriptors did complete out of order" \
		test "$(sd_stat all out_of_order)" -gt 0
	klog_mark
	de_fails "NO_ORDER: polling refused" EOPNOTSUPP poll $ERR_POLL \
		flags=$((F_VERIFY | F_POLL))
	check_klog_has "dmaengine: ... the message names the capability" \
		'completes out of order \(DMA_COMPLETION_NO_ORDER\)'
	check "dmaengine: ... channels released" channels_released

	# zynqmp_dma, idxd: a bounded descriptor pool
	check "dmaengine: soft_dma with 16 descriptors a channel" \
		soft_reload pool_size=16
	check "dmaengine: pool of 16, 512 entries a batch, verified" \
		de_run channels=2 sge=512 bytes_per_channel=$((4 << 20)) \
		runs=2 flags=$((F_VERIFY | F_DISTINCT)) prep_modes=$_modes
	check "dmaengine: ... per-segment preps stalled and were retried" \
		de_stalls 0
	check "dmaengine: ... prep calls still exact" \
		dmaengine_counts_exact 0 $((8 << 20)) 4096 512
	check "dmaengine: pool of 16, depth 4, polled, verified" \
		de_run channels=1 sge=64 bytes_per_channel=$((1 << 20)) \
		runs=1 depth=4 flags=$((F_VERIFY | F_POLL)) prep_modes=$_modes
	klog_mark
	de_fails "a full pool that never drains fails the run" ENOSPC stall \
		$ERR_STALL stall_channel=0 channel="$(sd_chan 0)" sge=64 timeout_ms=500
	check_klog_has "dmaengine: ... the message names the pool" \
		"returned NULL for 500 ms while descriptors were in flight: the provider's descriptor pool made no room"
	check "dmaengine: ... channels released" channels_released

	check "dmaengine: soft_dma in order again" soft_reload
	sd_knobs_reset
}

# The provider unbound during a run: the run ends, nothing is used after
# it is freed, and everything works again once it is bound again.
dmaengine_unbind() {
	sd_knob delay_us 2000
	klog_mark
	"$MBIOCTL" dmaengine channels=2 sge=64 \
		bytes_per_channel=$((4 << 20)) runs=3 > /tmp/unbind.out &
	_p=$!
	sleep 3
	_t0=$(date +%s)
	echo "$SD_DEV" > "$SD_DRV/unbind"
	wait $_p
	_t1=$(date +%s)
	check "dmaengine: unbinding the provider ends the run within 2 s" \
		test $((_t1 - _t0)) -le 2
	check "dmaengine: ... with ENODEV and the unbound error" \
		grep -q "^errno=ENODEV error=$ERR_UNBOUND " /tmp/unbind.out
	check_klog_has "dmaengine: ... the message names the channel and the provider" \
		'dma[0-9]+chan[0-9]+: its provider soft_dma\.0 is being unbound'
	check "dmaengine: the provider binds again" \
		sh -c "echo $SD_DEV > $SD_DRV/bind"
	sd_knobs_reset
	check "dmaengine: ... and the next run works" de_run flags=1
	check "dmaengine: ... channels released" channels_released
}

dmaengine_errors() {
	# fewer channels than asked, and allowed fewer
	check_fails_with "dmaengine: 300 channels refused" '^errno=EINVAL error=1 ' \
		"$MBIOCTL" dmaengine channels=300
	check_fails "dmaengine: 64 channels asked of 8: ENODEV" de_run channels=64
	check "dmaengine: ... the error says no channel" \
		de_error_is ENODEV $ERR_NO_CHANNEL
	check "dmaengine: --allow-fewer runs on the channels found" \
		de_run channels=64 flags=4
	check_output "dmaengine: ... and uses all 8" 'channels_used=8' \
		cat "$DE_OUT"
	check_fails "dmaengine: no channel of that name: ENODEV" \
		de_run channel=dma99chan99
	check "dmaengine: a channel chosen by name" \
		de_run channel="$(sd_chan 0)"
	check_fails "dmaengine: no device of that name: ENODEV" \
		de_run device=nonexistent.0

	# memory
	klog_mark
	de_fails "64 GiB of buffers refused before allocating" ENOMEM memory \
		$ERR_NOMEM channels=8 folio_order=9 sge=65536
	check_klog_has "dmaengine: ... and a message with the sizes" \
		'more than 3/4 of the [0-9]+ MiB available'

	# memcpy_sg and memcpy_vec on a kernel without their API
	if ! have_memcpy_sg; then
		check_fails "dmaengine: memcpy_sg without the API fails" \
			de_run prep_modes=2
		check "dmaengine: ... with EOPNOTSUPP and NO_API" \
			de_error_is EOPNOTSUPP $ERR_NO_API
		check "dmaengine: per-segment memcpy still works" \
			de_run prep_modes=1 flags=1
	fi
	if ! have_memcpy_vec; then
		klog_mark
		check_fails "dmaengine: memcpy_vec without the API fails" \
			de_run prep_modes=$PREP_MEMCPY_VEC
		check "dmaengine: ... with EOPNOTSUPP and NO_API" \
			de_error_is EOPNOTSUPP $ERR_NO_API
		check_klog_has "dmaengine: ... the message names the call and the patches" \
			'prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec\(\).*see kernel/patches/'
		check "dmaengine: ... channels released" channels_released
	fi

	# prep returns NULL: retried while descriptors are in flight
	check "dmaengine: a prep returning NULL mid-batch is retried, verified" \
		sd_with fail_prep_every=5 de_run channels=2 sge=16 flags=1 \
		prep_modes=$(dma_modes)
	check "dmaengine: ... and counted as a stall" de_stalls 0
	de_fails "a prep that fails with nothing in flight fails the run" EIO \
		prep $ERR_PREP fail_prep_every=1 channels=2 sge=16
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" de_run channels=2 flags=1

	# a transfer completes with an error result
	de_fails "an error result fails the run" EIO result $ERR_RESULT \
		error_every=1 channels=1 sge=8
	check "dmaengine: ... and the next run works" de_run flags=1

	# an error on a descriptor before the last: --verify checks every one
	de_fails "an error mid-batch fails a verified run" EIO result \
		$ERR_RESULT error_every=3 channels=1 sge=8 flags=1
	check "dmaengine: ... and the next run works" de_run flags=1

	# a stalled channel: timeout, terminate, clean
	de_fails "a stalled channel times out" ETIMEDOUT timeout $ERR_TIMEOUT \
		stall_channel=0 channel="$(sd_chan 0)" timeout_ms=300
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" \
		de_run channel="$(sd_chan 0)" flags=1

	# verification catches a copy that did not happen
	de_fails "verification catches missing data" EILSEQ verify \
		$ERR_VERIFY nocopy=1 flags=1

	# memcpy_vec under the same faults: one descriptor a batch, so each
	# fault is the whole batch's
	if have_memcpy_vec; then
		de_fails "memcpy_vec: an error result fails the run" EIO result \
			$ERR_RESULT error_every=1 channels=1 sge=8 \
			prep_modes=$PREP_MEMCPY_VEC
		de_fails "memcpy_vec: verification catches missing data" EILSEQ \
			verify $ERR_VERIFY nocopy=1 flags=1 prep_modes=$PREP_MEMCPY_VEC
		de_fails "memcpy_vec: a stalled channel times out" ETIMEDOUT \
			timeout $ERR_TIMEOUT stall_channel=0 channel="$(sd_chan 0)" \
			timeout_ms=300 prep_modes=$PREP_MEMCPY_VEC
		check "dmaengine: ... channels released" channels_released
		check "dmaengine: ... and the next memcpy_vec run works, verified" \
			de_run flags=1 prep_modes=$PREP_MEMCPY_VEC
	fi

	# an engine that cannot stop its work (ioat, plx_dma and mv_xor have
	# no device_terminate_all): a batch that timed out is waited for
	# before its buffers are unmapped and freed (KASAN and DMA-API
	# debugging watch it on the debug kernel), and the run says so
	check "dmaengine: soft_dma without device_terminate_all (no_terminate=1)" \
		soft_reload no_terminate=1
	klog_mark
	de_fails "no_terminate: 64 descriptors of 20 ms against a 100 ms timeout" \
		ETIMEDOUT timeout $ERR_TIMEOUT delay_us=20000 channels=1 sge=64 \
		timeout_ms=100
	check_klog_has "dmaengine: ... its descriptors were waited for, not cut short" \
		'cannot be terminated: waiting for its descriptors'
	check "dmaengine: ... nothing left allocated" \
		expect_value "soft_dma descriptors still allocated" "$(cat "$SD/descriptors")" -eq 0
	check "dmaengine: ... and the next run works, verified" \
		de_run channels=2 sge=16 flags=1 prep_modes=$(dma_modes)
	check "dmaengine: soft_dma as loaded first" soft_reload

	# a signal ends a long run cleanly
	sd_knob delay_us 20000
	klog_mark
	"$MBIOCTL" dmaengine channels=2 sge=4 runs=1000 > /tmp/sig.out &
	_p=$!
	sleep 2
	kill -TERM $_p
	_t0=$(date +%s)
	wait $_p
	_t1=$(date +%s)
	sd_knobs_reset
	check "dmaengine: SIGTERM ends a long run within 5 s" \
		test $((_t1 - _t0)) -lt 5
	check_klog_has "dmaengine: ... the module saw it" \
		'run interrupted by a signal'
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" de_run flags=1
}

dmaengine_validation() {
	check_refused dmaengine size=100 'invalid size 100: must be at least'
	# a caller of the earlier layout (ioctl 3, 608 or 2624 bytes) is
	# not answered, and told why
	klog_mark
	check_fails_with "dmaengine: the earlier layout's ioctl number: ENOTTY" \
		'^errno=ENOTTY' "$MBIOCTL" dmaengine nr=3 size=2624
	check_klog_has "dmaengine: ... the kernel says to rebuild the tool" \
		'ioctl 3 is the earlier layout of struct dmaengine_benchmark, no longer answered'
	check_refused dmaengine size=608 'invalid size 608: must be at least 2176'
	check_refused dmaengine size=2175 'invalid size 2175: must be at least 2176'
	klog_mark
	check_fails_with "dmaengine: unknown nonzero tail refused with E2BIG" \
		'^errno=E2BIG' "$MBIOCTL" dmaengine tail=8
	check_klog_has "dmaengine: ... kernel message says why" \
		'fields past [0-9]+ are unknown to this module and not zero'
	check "dmaengine: a larger structure with a zero tail is accepted" \
		"$MBIOCTL" dmaengine size=2700
	check "dmaengine: ... outputs the caller left set are not refused" \
		"$MBIOCTL" dmaengine error=7 result_size=1 'reserved_out[0]=1'
	check_refused dmaengine flags=64 'invalid flags 0x40: unknown bits 0x40'
	check_refused dmaengine prep_modes=0 'invalid prep_modes 0x0'
	check_refused dmaengine prep_modes=16 'invalid prep_modes 0x10'
	check_refused dmaengine channels=0 'invalid channels 0: must be 1\.\.256'
	check_refused dmaengine channels=257 'invalid channels 257'
	check_refused dmaengine folio_order=64 'invalid folio_order 64: must be 0\.\.'
	check_refused dmaengine sge=0 'invalid sge 0: must be 1\.\.65536'
	check_refused dmaengine sge=65537 'invalid sge 65537'
	check_refused dmaengine bytes_per_channel=0 'invalid bytes_per_channel 0'
	check_refused dmaengine runs=0 'invalid runs 0: must be 1\.\.10000'
	check_refused dmaengine runs=10001 'invalid runs 10001'
	check_refused dmaengine warmup_runs=101 'invalid warmup_runs 101'
	check_refused dmaengine src_node=-2 'invalid src_node -2'
	check_refused dmaengine dst_node=64 'invalid dst_node 64'
	check_refused dmaengine timeout_ms=600001 'invalid timeout_ms 600001'
	check_refused dmaengine 'reserved_in[3]=1' 'invalid reserved_in: reserved'
	check_refused dmaengine channel=! 'invalid channel: not NUL-terminated'
	check_refused dmaengine device=! 'invalid device: not NUL-terminated'
	check_refused dmaengine samples_len=4 'invalid samples_ptr/samples_len'
	check_refused dmaengine depth=65 'invalid depth 65: must be 0\.\.64'
	check_refused dmaengine sample_size=8 'invalid sample_size 8: must be 152\.\.'
	check_refused dmaengine dst_folio_order=1 \
		'invalid dst_folio_order 1: set flag DST_ORDER \(0x20\)'
	check_refused dmaengine flags=$F_DST_ORDER dst_folio_order=64 \
		'invalid dst_folio_order 64: must be 0\.\.'
	check_refused dmaengine flags=$F_DST_ORDER sge=1 dst_folio_order=1 \
		'invalid dst_folio_order 1: a batch of 1 folios of order 0 \(4096 bytes\) does not fill whole destination folios of 8192 bytes'
	check_refused dmaengine flags=$F_DST_ORDER sge=65536 folio_order=1 \
		dst_folio_order=0 'would take more than 65536 destination folios'
	check_refused dmaengine nr_cpus=1 'invalid cpus_ptr/nr_cpus'
	check_refused dmaengine cpus=4096 'invalid cpus\[0\] 4096: not an online CPU'
	check_fails_with "dmaengine: a bad samples pointer gives EFAULT" \
		'^errno=EFAULT' "$MBIOCTL" dmaengine samples_ptr=16 samples_len=4
	check "dmaengine: ... channels released" channels_released
}

# dmaengine_convert_in_prep: memcpy_vec's dma_vec arrays were built, and that
# time is a part of its prep time
dmaengine_convert_in_prep() {
	_cv=$(de_field 3 convert_ns)
	_pp=$(de_field 3 prep_ns)
	echo "mode3 convert_ns=$_cv prep_ns=$_pp"
	[ "${_cv:-0}" -gt 0 ] && [ "$_cv" -le "$_pp" ]
}

# Odd layouts: destination folios of another order than the source, so
# the two tables have entries of different sizes. Every mode is verified;
# per-segment memcpy makes one call per piece both tables agree on, the
# batch forms one call per batch.
dmaengine_layouts() {
	_modes=$(all_modes)
	# source order, sge, destination order
	for _l in "0 512 9" "9 2 0" "2 8 3" "3 8 2" "4 3 0"; do
		# the debug scope: the two small ones, smaller folios either side
		scope_full || [ "$_l" = "2 8 3" ] || [ "$_l" = "3 8 2" ] || continue
		# shellcheck disable=SC2086
		set -- $_l
		_sseg=$((4096 << $1)) _dseg=$((4096 << $3))
		_batch=$(($2 * _sseg))
		_piece=$_sseg
		[ $_dseg -lt $_piece ] && _piece=$_dseg
		[ "$(dma_config)" = swiotlb ] && [ $_piece -gt $((256 << 10)) ] &&
			_piece=$((256 << 10))
		check "dmaengine: odd layout: $2 x order $1 into order $3, 2 ch, prep_modes $_modes, verified" \
			de_run channels=2 folio_order=$1 sge=$2 \
			flags=$((F_VERIFY | F_DST_ORDER)) dst_folio_order=$3 \
			bytes_per_channel=$_batch runs=2 prep_modes=$_modes
		check "dmaengine: ... per-segment: one call per $_piece-byte piece" \
			dmaengine_counts_exact 0 $((2 * _batch)) $_piece $2
		de_batch_exact "dmaengine: ... " ": one call per batch" \
			$((2 * _batch)) $_sseg $2
		have_memcpy_vec && check "dmaengine: ... its conversion is timed within prep" \
			dmaengine_convert_in_prep
		check_output "dmaengine: ... the CPU copied every byte" \
			"^mode2 .* bytes=$((2 * _batch)) " cat "$DE_OUT"
	done
	check "dmaengine: odd layout, distinct buffers, depth 4, verified" \
		de_run channels=2 folio_order=0 sge=64 depth=4 \
		flags=$((F_VERIFY | F_DISTINCT | F_DST_ORDER)) dst_folio_order=4 \
		bytes_per_channel=$((2 << 20)) runs=2 prep_modes=$_modes
	# a copy that lands in the wrong place is caught across layouts too
	de_fails "odd layout: verification catches missing data" EILSEQ verify \
		$ERR_VERIFY nocopy=1 folio_order=2 sge=8 \
		flags=$((F_VERIFY | F_DST_ORDER)) dst_folio_order=0 prep_modes=$(dma_modes)
	check "dmaengine: ... channels released" channels_released
}

suite_dmaengine() {
	check "dmaengine: benchmark module loads" load_module dma_map_benchmark
	check "dmaengine: soft_dma loads with 8 channels" \
		load_module soft_dma channels=8
	sd_knobs_reset
	# every field's refusal: the full scope's (the debug kernel's
	# fuzzers send random and boundary structures instead)
	if scope_full; then
		dmaengine_validation
		check_klog_clean "dmaengine: validation"
	fi
	dmaengine_matrix
	check_klog_clean "dmaengine: matrix"
	dmaengine_layouts
	check_klog_clean "dmaengine: odd layouts"
	dmaengine_errors
	check_klog_clean "dmaengine: errors"
	dmaengine_workload
	check_klog_clean "dmaengine: workload"
	dmaengine_contracts
	check_klog_clean "dmaengine: contracts"
	dmaengine_unbind
	check_klog_clean "dmaengine: unbind"
	check "dmaengine: soft_dma unloads" unload_module soft_dma
	check_fails "dmaengine: without providers: ENODEV" de_run
	check "dmaengine: benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "dmaengine"
}
