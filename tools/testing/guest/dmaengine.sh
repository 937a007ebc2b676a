# SPDX-License-Identifier: GPL-2.0-only
# The dmaengine mode against soft_dma: both prep modes with verification on
# several channel counts and folio orders, exact prep-call counts, every
# error path (each must unwind: channels released, module usable), and
# kernel validation of every field.

SOFT=/sys/kernel/debug/soft_dma

# What the kernel the VM runs can do: memcpy_sg needs the restore patch.
have_memcpy_sg() {
	grep -q 'HAVE_DMA_MEMCPY_SG 1' "$MODDIR/probes.h" 2>/dev/null
}

soft_knob() {	# soft_knob NAME VALUE
	echo "$2" > "$SOFT/$1"
}

soft_knobs_reset() {
	for _k in nocopy delay_us fail_prep_every error_every; do
		[ -e "$SOFT/$_k" ] && echo 0 > "$SOFT/$_k"
	done
	[ -e "$SOFT/stall_channel" ] && echo -1 > "$SOFT/stall_channel"
	return 0
}

# No soft_dma channel may stay held after a run, failed or not.
channels_released() {
	for _c in /sys/class/dma/dma*chan*; do
		[ -e "$_c/in_use" ] || continue
		[ "$(cat "$_c/in_use")" = 0 ] || return 1
	done
	return 0
}

# deb_field MODE FIELD: a figure from the last mbioctl output
deb_field() {
	sed -n "s/^mode$1 .* $2=\([0-9]*\).*/\1/p" /tmp/deb.out
}

deb_run() {
	"$MBIOCTL" dmaengine "$@" > /tmp/deb.out 2>&1
}

# deb_counts_exact MODE BYTES SEG SGE: prep calls, submits and bytes are
# exactly what the request implies: one call per segment, or per batch.
deb_counts_exact() {
	# busybox sh has no locals: these names are this function's alone
	_ce_bytes=$(deb_field "$1" bytes)
	_ce_calls=$(deb_field "$1" prep_calls)
	_ce_submits=$(deb_field "$1" submits)
	if [ "$1" = 0 ]; then
		_ce_want=$(($2 / $3))
	else
		_ce_want=$(($2 / ($3 * $4)))
	fi
	echo "bytes=$_ce_bytes (want $2) prep_calls=$_ce_calls submits=$_ce_submits (want $_ce_want)"
	[ "$_ce_bytes" = "$2" ] && [ "$_ce_calls" = "$_ce_want" ] &&
		[ "$_ce_submits" = "$_ce_want" ]
}

# deb_error_is ERRNO ERROR: the last run failed with this errno and error
deb_error_is() {
	cat /tmp/deb.out
	grep -q "^errno=$1 error=$2 " /tmp/deb.out
}

# The error enum of the ABI, by name.
ERR_INVAL=1 ERR_NO_CHANNEL=2 ERR_NO_API=3 ERR_NO_CAP=4 ERR_NOMEM=5
ERR_PREP=7 ERR_RESULT=9 ERR_TIMEOUT=10 ERR_VERIFY=11 ERR_LIMIT=13

deb_matrix() {
	_modes=1
	have_memcpy_sg && _modes=3
	for _ch in 1 2 4; do
		for _order in 0 4 9; do
			_seg=$((4096 << _order))
			# 8 MiB per channel at order 9, else 1 MiB: TCG is slow
			_sge=8
			_bytes=$((1 << 20))
			[ "$_order" = 9 ] && { _sge=2; _bytes=$((8 << 20)); }
			if [ "$_order" = 9 ] && [ "$(dma_config)" = swiotlb ]; then
				# a 2 MiB folio cannot bounce in one piece
				check_fails "dmaengine: $_ch ch, order 9 under swiotlb refused" \
					deb_run channels=$_ch folio_order=9 sge=2
				check "dmaengine: ... as a limit of the device" \
					deb_error_is EINVAL $ERR_LIMIT
				continue
			fi
			check "dmaengine: $_ch ch, order $_order, prep_modes $_modes, verified" \
				deb_run channels=$_ch folio_order=$_order sge=$_sge \
				bytes_per_channel=$_bytes runs=2 flags=1 \
				prep_modes=$_modes
			check "dmaengine: $_ch ch, order $_order: per-segment prep calls exact" \
				deb_counts_exact 0 $((_bytes * _ch)) $_seg $_sge
			if have_memcpy_sg; then
				check "dmaengine: $_ch ch, order $_order: memcpy_sg prep calls exact" \
					deb_counts_exact 1 $((_bytes * _ch)) $_seg $_sge
			fi
		done
	done
	check "dmaengine: the reference shape: 512 entries, memcpy_sg 512x fewer preps" \
		deb_run channels=1 folio_order=0 sge=512 \
		bytes_per_channel=$((4 << 20)) runs=1 prep_modes=$_modes
	check "dmaengine: 4 MiB in 4 KiB segments: 1024 prep calls" \
		deb_counts_exact 0 $((4 << 20)) 4096 512
	if have_memcpy_sg; then
		check "dmaengine: 4 MiB in batches of 512: 2 prep calls" \
			deb_counts_exact 1 $((4 << 20)) 4096 512
	fi
	check "dmaengine: polled completion, verified" \
		deb_run channels=2 sge=16 flags=3 runs=2 prep_modes=$_modes
	check "dmaengine: channels released after the runs" channels_released
}

deb_errors() {
	# fewer channels than asked, and allowed fewer
	check "dmaengine: 300 channels refused" deb_field_refused_q channels=300
	check_fails "dmaengine: 64 channels asked of 8: ENODEV" \
		deb_run channels=64
	check "dmaengine: ... the error says no channel" \
		deb_error_is ENODEV $ERR_NO_CHANNEL
	check "dmaengine: --allow-fewer runs on the channels found" \
		deb_run channels=64 flags=4
	check_output "dmaengine: ... and uses all 8" 'channels_used=8' \
		cat /tmp/deb.out
	check_fails "dmaengine: no channel of that name: ENODEV" \
		deb_run channel=dma99chan99
	check "dmaengine: a channel chosen by name" \
		deb_run channel="$(first_soft_chan)"
	check_fails "dmaengine: no device of that name: ENODEV" \
		deb_run device=nonexistent.0

	# memory
	klog_mark
	check_fails "dmaengine: 64 GiB of buffers refused before allocating" \
		deb_run channels=8 folio_order=9 sge=65536
	check "dmaengine: ... with ENOMEM and the memory error" \
		deb_error_is ENOMEM $ERR_NOMEM
	check_klog_has "dmaengine: ... and a message with the sizes" \
		'more than 3/4 of the [0-9]+ MiB available'

	# memcpy_sg on a kernel without the API
	if ! have_memcpy_sg; then
		check_fails "dmaengine: memcpy_sg without the API fails" \
			deb_run prep_modes=2
		check "dmaengine: ... with EOPNOTSUPP and NO_API" \
			deb_error_is EOPNOTSUPP $ERR_NO_API
		check "dmaengine: per-segment memcpy still works" \
			deb_run prep_modes=1 flags=1
	fi

	# prep returns NULL
	soft_knob fail_prep_every 5
	check_fails "dmaengine: a prep returning NULL fails the run" \
		deb_run channels=2 sge=16
	check "dmaengine: ... with EIO and the prep error" \
		deb_error_is EIO $ERR_PREP
	soft_knobs_reset
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" deb_run channels=2 flags=1

	# a transfer completes with an error result
	soft_knob error_every 1
	check_fails "dmaengine: an error result fails the run" \
		deb_run channels=1 sge=8
	check "dmaengine: ... with EIO and the result error" \
		deb_error_is EIO $ERR_RESULT
	soft_knobs_reset
	check "dmaengine: ... and the next run works" deb_run flags=1

	# an error on a descriptor before the last: --verify checks every one
	soft_knob error_every 3
	check_fails "dmaengine: an error mid-batch fails a verified run" \
		deb_run channels=1 sge=8 flags=1
	check "dmaengine: ... with EIO and the result error" \
		deb_error_is EIO $ERR_RESULT
	soft_knobs_reset
	check "dmaengine: ... and the next run works" deb_run flags=1

	# a stalled channel: timeout, terminate, clean
	soft_knob stall_channel 0
	check_fails "dmaengine: a stalled channel times out" \
		deb_run channel="$(first_soft_chan)" timeout_ms=300
	check "dmaengine: ... with ETIMEDOUT and the timeout error" \
		deb_error_is ETIMEDOUT $ERR_TIMEOUT
	soft_knobs_reset
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" \
		deb_run channel="$(first_soft_chan)" flags=1

	# verification catches a copy that did not happen
	soft_knob nocopy 1
	check_fails "dmaengine: verification catches missing data" \
		deb_run flags=1
	check "dmaengine: ... with EILSEQ and the verify error" \
		deb_error_is EILSEQ $ERR_VERIFY
	soft_knobs_reset

	# a signal ends a long run cleanly
	soft_knob delay_us 20000
	klog_mark
	"$MBIOCTL" dmaengine channels=2 sge=4 runs=1000 > /tmp/sig.out &
	_p=$!
	sleep 2
	kill -TERM $_p
	_t0=$(date +%s)
	wait $_p
	_t1=$(date +%s)
	soft_knobs_reset
	check "dmaengine: SIGTERM ends a long run within 5 s" \
		test $((_t1 - _t0)) -lt 5
	check_klog_has "dmaengine: ... the module saw it" \
		'run interrupted by a signal'
	check "dmaengine: ... channels released" channels_released
	check "dmaengine: ... and the next run works" deb_run flags=1
}

deb_field_refused_q() {
	"$MBIOCTL" dmaengine "$@" | grep -q '^errno=EINVAL error=1 '
}

# The first channel of soft_dma, whose sysfs path runs through its device.
first_soft_chan() {
	for _c in /sys/class/dma/dma*chan*; do
		if readlink -f "$_c" | grep -q '/soft_dma'; then
			basename "$_c"
			return 0
		fi
	done
	return 1
}

deb_validation() {
	check_refused dmaengine size=100 'invalid size 100: must be at least'
	klog_mark
	check_fails_with "dmaengine: unknown nonzero tail refused with E2BIG" \
		'^errno=E2BIG' "$MBIOCTL" dmaengine tail=8
	check_klog_has "dmaengine: ... kernel message says why" \
		'fields past [0-9]+ are unknown to this module and not zero'
	check "dmaengine: a larger structure with a zero tail is accepted" \
		"$MBIOCTL" dmaengine size=700
	check_refused dmaengine flags=8 'invalid flags 0x8: unknown bits 0x8'
	check_refused dmaengine prep_modes=0 'invalid prep_modes 0x0'
	check_refused dmaengine prep_modes=4 'invalid prep_modes 0x4'
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
	check_refused dmaengine reserved0=1 'invalid reserved0: reserved'
	check_refused dmaengine reserved1=1 'invalid reserved1: reserved'
	check_refused dmaengine 'reserved_in[3]=1' 'invalid reserved_in: reserved'
	check_refused dmaengine channel=! 'invalid channel: not NUL-terminated'
	check_refused dmaengine device=! 'invalid device: not NUL-terminated'
	check_refused dmaengine samples_len=4 'invalid samples_ptr/samples_len'
	check_fails_with "dmaengine: a bad samples pointer gives EFAULT" \
		'^errno=EFAULT' "$MBIOCTL" dmaengine samples_ptr=16 samples_len=4
	check "dmaengine: ... channels released" channels_released
}

suite_dmaengine() {
	klog_mark
	check "dmaengine: benchmark module loads" load_module dma_map_benchmark
	check "dmaengine: soft_dma loads with 8 channels" \
		load_module soft_dma channels=8
	soft_knobs_reset
	deb_validation
	check_klog_clean "dmaengine: validation"
	deb_matrix
	check_klog_clean "dmaengine: matrix"
	deb_errors
	check_klog_clean "dmaengine: errors"
	check "dmaengine: soft_dma unloads" unload_module soft_dma
	check_fails "dmaengine: without providers: ENODEV" deb_run
	check "dmaengine: benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "dmaengine"
}
