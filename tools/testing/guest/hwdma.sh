# SPDX-License-Identifier: GPL-2.0-only
# Real DMA providers: the dmaengine mode on a hardware driver's channels
# (per-segment memcpy, verified, within the driver's limits), the kernel's
# dmatest on the same channels as a cross-check, and the map modes on a
# platform device the kernel treats as non-coherent, with the architecture's
# cache maintenance shown by the function tracer.
#
# The machine says what to test (scripts/vm/machines/*.conf, VM_GUEST_ENV):
#   HWDMA_DRIVER      name of the dmaengine driver under test (dma-pl330)
#   HWDMA_MODULES     modules of $MODDIR to load first, comma-separated
#                     (drivers the kernel lacks: zynqmp_dma)
#   HWDMA_DEVICE      the DMA device whose channels to use; empty: every
#                     device of HWDMA_DRIVER
#   HWDMA_CHANNELS    channels expected there
#   HWDMA_MAX_SEG     the max_seg_size the driver gives its device
#   HWDMA_ORDERS      folio orders to copy, comma-separated
#   HWDMA_DESC_POOL   descriptors a channel can have prepared and not yet
#                     freed, or empty when the driver allocates more on need
#   HWDMA_MEMCPY_SG   1 when the driver implements device_prep_dma_memcpy_sg
#                     and device_prep_dma_memcpy_vec (the patched 6.12
#                     kernels); empty: they are refused
#   HWDMA_MAP_DEVICE  a platform device without a driver, for the map modes
# (lib.sh lists and loads the channels: hw_channels, hw_load_modules; and
# runs the dmaengine ioctl: de_run, de_field, de_calls, de_error_is.)

HW_OUT=/tmp/hw.out

hw_channels_released() {
	channels_released $(hw_channels)
}

# --- the dmaengine mode ---------------------------------------------------

# hw_run FIELD=VALUE...: the dmaengine ioctl on the channels under test (of
# HWDMA_DEVICE, if the machine names one)
hw_run() {
	de_run ${HWDMA_DEVICE:+device="$HWDMA_DEVICE"} "$@"
}

# hw_segs ORDER: descriptors one folio of that order takes (the benchmark
# splits a folio at the device's max segment size)
hw_segs() {
	_f=$((4096 << $1))
	echo $(((_f + HWDMA_MAX_SEG - 1) / HWDMA_MAX_SEG))
}

# hw_sge ORDER: folios per batch, at most 8, so that a batch's descriptors
# fit the driver's pool: half of it, as the previous batch's descriptors
# are freed only after its completion is seen (the callback runs first)
hw_sge() {
	_s=8
	if [ -n "$HWDMA_DESC_POOL" ]; then
		_m=$((HWDMA_DESC_POOL / 2 / $(hw_segs "$1")))
		[ "$_m" -lt "$_s" ] && _s=$_m
	fi
	echo "$_s"
}

# hw_counts_exact CHANNELS BYTES ORDER SGE [MODE]: bytes, prep calls and
# submits are what the request implies: for memcpy (mode 0, the default)
# one a segment, folios split at the max segment size; for memcpy_sg
# (mode 1) and memcpy_vec (mode 3) one a batch
hw_counts_exact() {
	_mode=${5:-0}
	_f=$((4096 << $3))
	_batch=$(($4 * _f))
	_batches=$((($2 + _batch - 1) / _batch))
	_want_bytes=$(($1 * _batches * _batch))
	_want_calls=$(($1 * _batches))
	[ "$_mode" != 0 ] || _want_calls=$((_want_calls * $4 * $(hw_segs "$3")))
	de_calls "$_mode" "$_want_calls" "$_want_bytes"
}

# hw_tool_all PREP STRING...: the tool's JSON of a short verified run of
# PREP on every channel under test has each STRING once a channel (the
# channels' driver and limits, their capabilities)
hw_tool_all() {
	output_in "$HW_OUT" "$TOOL" -m dmaengine -c "$HWDMA_CHANNELS" \
		${HWDMA_DEVICE:+-D "$HWDMA_DEVICE"} --sge 4 --bytes-per-channel 64K \
		-r 1 -w 0 -p "$1" --verify --json || return 1
	shift
	echo
	for _s in "$@"; do
		expect_value "channels with $_s" "$(grep -o "$_s" "$HW_OUT" | wc -l)" \
			-eq "$HWDMA_CHANNELS" || return 1
	done
}

# hw_tool_table CHANNELS ORDER SGE [PREP]: the tool's table, verified, with
# --prep-modes PREP (default memcpy; both: the memcpy_sg row too)
hw_tool_table() {
	_prep=${4:-memcpy}
	output_in "$HW_OUT" "$TOOL" -m dmaengine -c "$1" ${HWDMA_DEVICE:+-D "$HWDMA_DEVICE"} -o "$2" \
		--sge "$3" --bytes-per-channel 1M -r 2 -w 1 -p "$_prep" --verify &&
		grep -Eq "^# channels: dma[0-9]+chan[0-9]+ \([^,]*, $HWDMA_DRIVER\)" "$HW_OUT" &&
		grep -Eq "^prep_memcpy +$1 +[0-9]+[KM]B +$3 " "$HW_OUT" &&
		{ [ "$_prep" != both ] ||
		  grep -Eq "^prep_memcpy_sg +$1 +[0-9]+[KM]B +$3 " "$HW_OUT"; }
}

hw_dmaengine() {
	check "hwdma: the tool reports $HWDMA_CHANNELS channels of $HWDMA_DRIVER, max_seg_size $HWDMA_MAX_SEG" \
		hw_tool_all memcpy "\"driver\":\"$HWDMA_DRIVER\"" \
		"\"max_seg_size\":$HWDMA_MAX_SEG,"
	check "hwdma: the tool's table, 2 channels, verified" hw_tool_table 2 0 8

	_max=$HWDMA_CHANNELS
	# memcpy, and memcpy_sg on the same buffers where the driver has it
	_pm=1
	[ "${HWDMA_MEMCPY_SG:-}" = 1 ] && _pm=3
	for _ch in 1 4 $_max; do
		for _order in $(echo "$HWDMA_ORDERS" | tr , ' '); do
			_sge=$(hw_sge "$_order")
			# two batches per channel at least, 2 MiB at most
			_bytes=$((2 * _sge * (4096 << _order)))
			[ $_bytes -gt $((2 << 20)) ] && _bytes=$((2 << 20))
			[ $_ch = $_max ] && [ "$_order" != 0 ] && continue
			check "hwdma: $_ch ch, order $_order, sge $_sge ($(hw_segs "$_order") segments a folio): memcpy${HWDMA_MEMCPY_SG:+ and memcpy_sg} verified" \
				hw_run channels=$_ch folio_order=$_order sge=$_sge \
				bytes_per_channel=$_bytes runs=2 flags=1 \
				prep_modes=$_pm
			check "hwdma: ... prep calls and submits: one per segment" \
				hw_counts_exact $_ch $_bytes $_order $_sge
			[ "${HWDMA_MEMCPY_SG:-}" = 1 ] || continue
			check "hwdma: ... memcpy_sg: one prep call and submit per batch" \
				hw_counts_exact $_ch $_bytes $_order $_sge 1
		done
	done
	check "hwdma: polled completion, 2 ch, verified" \
		hw_run channels=2 folio_order=0 sge=4 bytes_per_channel=65536 \
		runs=2 flags=3 prep_modes=1
	check "hwdma: warm-up runs and 3 timed runs, verified" \
		hw_run channels=2 folio_order=0 sge=4 bytes_per_channel=65536 \
		runs=3 warmup_runs=2 flags=1 prep_modes=1
	check "hwdma: channels released after the runs" hw_channels_released

	if [ "${HWDMA_MEMCPY_SG:-}" = 1 ]; then
		hw_memcpy_sg
	else
		# memcpy_sg and memcpy_vec: the stock drivers never had them;
		# 6.1 lacks the API itself (and struct dma_vec)
		for _p in sg:2 vec:8; do
			_err=$ERR_NO_API
			have_memcpy_${_p%:*} && _err=$ERR_NO_CAP
			check_fails "hwdma: prep_memcpy_${_p%:*} refused" \
				hw_run prep_modes=${_p#*:}
			check "hwdma: ... EOPNOTSUPP, error $_err" \
				de_error_is EOPNOTSUPP $_err
		done
	fi
	check_klog_clean "hwdma: dmaengine mode"
}

# The driver's device_prep_dma_memcpy_sg: the channels advertise it, and
# one descriptor per batch copies what one per segment does, verified, for
# batches of 1 to 512 entries, and alone, polled, with the largest folios.
# (The benchmark maps a folio larger than max_seg_size as several sg
# entries, as the DMA API asks: no entry is longer, and the drivers'
# splitting of longer pieces, at max_seg_size or the engine's limit, is
# not exercised; hw_layouts gives them lists of different layouts.)
hw_memcpy_sg() {
	_top=$(echo "$HWDMA_ORDERS" | tr , '\n' | sort -n | tail -n 1)
	check "hwdma: the tool reports DMA_MEMCPY_SG on all $HWDMA_CHANNELS channels" \
		hw_tool_all memcpy_sg '"has_memcpy_sg":true'
	check "hwdma: the tool's table, --prep-modes both, 4 channels, verified" \
		hw_tool_table 4 0 16 both
	# memcpy_vec, where the kernel has it, on the same runs: one
	# descriptor per batch from dma_vec arrays, verified beside memcpy_sg
	_modes=3 _names="memcpy and memcpy_sg"
	if have_memcpy_vec; then
		_modes=11 _names="memcpy, memcpy_sg and memcpy_vec"
	fi
	for _sge in 1 2 31 64 512; do
		_bytes=$((2 * _sge * 4096))
		check "hwdma: 1 ch, order 0, sge $_sge: $_names verified" \
			hw_run channels=1 folio_order=0 sge=$_sge \
			bytes_per_channel=$_bytes runs=2 flags=1 prep_modes=$_modes
		check "hwdma: ... memcpy: one prep call per segment" \
			hw_counts_exact 1 $_bytes 0 $_sge
		check "hwdma: ... memcpy_sg: one per batch" \
			hw_counts_exact 1 $_bytes 0 $_sge 1
		[ $_modes = 3 ] ||
			check "hwdma: ... memcpy_vec: one per batch" \
				hw_counts_exact 1 $_bytes 0 $_sge 3
	done
	check "hwdma: 4 ch at once, sge 512: $_names verified" \
		hw_run channels=4 folio_order=0 sge=512 bytes_per_channel=$((2 << 20)) \
		runs=1 flags=1 prep_modes=$_modes
	check "hwdma: ... memcpy_sg: one per batch" \
		hw_counts_exact 4 $((2 << 20)) 0 512 1
	[ $_modes = 3 ] ||
		check "hwdma: ... memcpy_vec: one per batch" \
			hw_counts_exact 4 $((2 << 20)) 0 512 3
	_bytes=$((2 * 4 * (4096 << _top)))
	check "hwdma: memcpy_sg alone, polled, 2 ch, order $_top, sge 4, verified" \
		hw_run channels=2 folio_order=$_top sge=4 bytes_per_channel=$_bytes \
		runs=1 flags=3 prep_modes=2
	check "hwdma: ... one per batch" hw_counts_exact 2 $_bytes $_top 4 1
	check "hwdma: channels released after the memcpy_sg runs" hw_channels_released
	hw_memcpy_vec
	hw_layouts
}

# The driver's device_prep_dma_memcpy_vec (its copies run with memcpy_sg's
# in hw_memcpy_sg): the channels advertise it, and its provider contract,
# called directly.
hw_memcpy_vec() {
	if ! have_memcpy_vec; then
		check_fails "hwdma: prep_memcpy_vec refused without the API" \
			hw_run prep_modes=8
		check "hwdma: ... EOPNOTSUPP, error $ERR_NO_API" \
			de_error_is EOPNOTSUPP $ERR_NO_API
		return
	fi
	check "hwdma: the tool reports DMA_MEMCPY_VEC on all $HWDMA_CHANNELS channels" \
		hw_tool_all memcpy_vec '"has_memcpy_vec":true'
	# the driver's contract, called directly: zero-length entries refused,
	# layouts paired, a copy ending with the shorter array (the engines
	# here have no copy_align: that case is skipped)
	if [ -d /sys/kernel/debug/kunit ]; then
		kunit_module dmaengine_provider_kunit dmaengine_provider_memcpy_vec 5 1
		check_output "hwdma: ... the KUnit cases ran on $HWDMA_DRIVER" \
			"# .*dma[0-9]+chan[0-9]+ of .*\\($HWDMA_DRIVER\\)" \
			cat /tmp/kunit.out
		check_output "hwdma: ... the layouts case ran, not skipped" \
			'^[[:space:]]+ok [0-9]+ pk_vec_layouts$' cat /tmp/kunit.out
		# max_seg_size bounds sg entries, not dma_vec ones: PL330
		# splits a longer entry at it, ZDMA takes it whole
		check_output "hwdma: ... a 2 MiB dma_vec entry, over max_seg_size $HWDMA_MAX_SEG, copied" \
			"pk_vec_long: an entry of 2097152 bytes \\(max_seg_size $HWDMA_MAX_SEG\\): copied" \
			cat /tmp/kunit.out
	else
		tap_not_ok "hwdma: the patched kernel has KUnit for the memcpy_vec contract tests"
	fi
}

# hw_pieces BYTES SRC_FOLIO DST_FOLIO: the pieces per-segment memcpy cuts
# a copy of BYTES into: a piece ends where an entry of either list ends,
# folios being split into entries of at most HWDMA_MAX_SEG bytes
hw_pieces() {
	awk -v total="$1" -v sf="$2" -v df="$3" -v m="$HWDMA_MAX_SEG" '
	function cuts(f,   pos, off, len) {
		for (pos = 0; pos < total; ) {
			for (off = 0; off < f; off += len) {
				len = f - off < m ? f - off : m
				cut[pos + off + len] = 1
			}
			pos += f
		}
	}
	BEGIN { cuts(sf); cuts(df); for (c in cut) n++; print n }'
}

# Lists of different layouts: destination folios of another order than
# the source's, among them folios larger than max_seg_size (taken as
# several entries). Every form verified; per-segment memcpy makes one
# call per piece both lists agree on, the batch forms one per batch.
hw_layouts() {
	_big=0
	while [ $((4096 << _big)) -le "$HWDMA_MAX_SEG" ]; do
		_big=$((_big + 1))
	done
	_modes=3
	have_memcpy_vec && _modes=11
	# source order, sge, destination order
	for _l in "0 64 4" "4 4 0" "$_big 1 0" "0 64 $_big" \
		"$((_big - 1)) 4 $_big"; do
		# shellcheck disable=SC2086
		set -- $_l
		_sf=$((4096 << $1)) _df=$((4096 << $3))
		_batch=$(($2 * _sf))
		[ $((_batch % _df)) = 0 ] || continue
		check "hwdma: layouts: $2 x order $1 into order $3, 2 ch, verified" \
			hw_run channels=2 folio_order=$1 sge=$2 \
			flags=$((F_VERIFY | F_DST_ORDER)) dst_folio_order=$3 \
			bytes_per_channel=$_batch runs=1 prep_modes=$_modes
		check "hwdma: ... memcpy: one call per piece" \
			de_calls 0 $((2 * $(hw_pieces $_batch $_sf $_df)))
		check "hwdma: ... memcpy_sg: one per batch" de_calls 1 2
		[ $_modes = 3 ] ||
			check "hwdma: ... memcpy_vec: one per batch" de_calls 3 2
	done
	check "hwdma: channels released after the layouts" hw_channels_released
}

# The driver's descriptor pool: a batch beyond it makes the driver's prep
# return NULL, and the benchmark issues what it submitted, waits for room
# and retries (prep_stalls), so the batch completes; a driver that
# allocates on need takes a large batch without stalling.
hw_limits() {
	# the benchmark waits for room and retries: a batch of 512
	# per-segment descriptors runs on a pool of 32
	_what="one batch of 512 descriptors (the pool grows)"
	[ -z "$HWDMA_DESC_POOL" ] ||
		_what="512 descriptors a batch on a pool of $HWDMA_DESC_POOL"
	check "hwdma: $_what, verified" hw_run channels=1 folio_order=0 sge=512 \
		bytes_per_channel=$((2 << 20)) runs=1 flags=1 prep_modes=1
	check "hwdma: ... 512 prep calls" hw_counts_exact 1 $((2 << 20)) 0 512
	if [ -n "$HWDMA_DESC_POOL" ]; then
		check "hwdma: ... the full pool stalled preps, which were retried" \
			de_stalls 0
		check "hwdma: ... channels released" hw_channels_released
		check_output "hwdma: ... the tool too, on 4 channels at 512 entries, verified" \
			'^prep_memcpy +4 ' \
			"$TOOL" -m dmaengine -c 4 ${HWDMA_DEVICE:+-D "$HWDMA_DEVICE"} \
			--sge 512 --bytes-per-channel 2M -r 1 -w 0 -p memcpy --verify
	fi
	check_klog_clean "hwdma: limits"
}

# --- dmatest on the same channels -----------------------------------------

# hw_dmatest N [PARAM=VALUE]...: dmatest on the first N channels under
# test; every thread must end with 20 tests and 0 failures
hw_dmatest() {
	_n=$1
	shift
	dt_start_on "$HWDMA_DEVICE" timeout=5000 \
		$(hw_channels | head -n "$_n" | sed 's/^/chan=/') "$@" || return 1
	dt_finish || return 1
	dt_release
	dt_expect "$_n" 20 0
}

hw_dmatest_suite() {
	check "hwdma: dmatest, 1 channel, 20 tests, 0 failures" hw_dmatest 1
	check "hwdma: dmatest, 4 channels at once, 0 failures" hw_dmatest 4
	check "hwdma: dmatest polled, 2 channels, 0 failures" hw_dmatest 2 polled=1
	check "hwdma: dmatest unloads" unload_module dmatest
	check "hwdma: channels released after dmatest" hw_channels_released
	check_klog_clean "hwdma: dmatest"
}

# --- map modes on a non-coherent platform device --------------------------

hw_map_dev=/sys/bus/platform/devices/$HWDMA_MAP_DEVICE

hw_map_bind() {
	[ -e "$hw_map_dev" ] || { echo "no $hw_map_dev"; return 1; }
	[ ! -e "$hw_map_dev/driver" ] || { echo "$HWDMA_MAP_DEVICE has a driver"; return 1; }
	bind_benchmark platform "$HWDMA_MAP_DEVICE"
}

# Neither the device nor a parent bus says dma-coherent: the kernel must
# clean and invalidate caches around each transfer.
hw_map_not_coherent() {
	_n=$(readlink -f "$hw_map_dev/of_node")
	[ -n "$_n" ] || { echo "$HWDMA_MAP_DEVICE has no device tree node"; return 1; }
	while [ "$_n" != /sys/firmware/devicetree/base ] && [ "$_n" != / ]; do
		[ ! -e "$_n/dma-coherent" ] || { echo "$_n is dma-coherent"; return 1; }
		_n=$(dirname "$_n")
	done
}

# hw_ftrace COMMAND...: run COMMAND with the function tracer on the
# architecture's cache maintenance entry points; the trace in /tmp/ftrace
hw_ftrace() {
	echo 0 > $TRACING/tracing_on
	echo nop > $TRACING/current_tracer
	echo > $TRACING/trace
	echo 'arch_sync_dma_for_device arch_sync_dma_for_cpu' > $TRACING/set_ftrace_filter || {
		echo "cannot trace arch_sync_dma_for_*"
		return 1
	}
	echo function > $TRACING/current_tracer
	echo 1 > $TRACING/tracing_on
	"$@" > /dev/null
	_rc=$?
	echo 0 > $TRACING/tracing_on
	cp $TRACING/trace /tmp/ftrace
	echo nop > $TRACING/current_tracer
	echo > $TRACING/set_ftrace_filter
	echo > $TRACING/trace
	return $_rc
}

# hw_ftrace_has FUNCTION COMM: the trace has calls of FUNCTION by COMM
hw_ftrace_has() {
	expect_value "calls of $1 by $2*" \
		"$(grep -cE "^ *$2[^ ]*-[0-9]+ .* $1 " /tmp/ftrace)" -gt 0 ||
		{ grep -v '^#' /tmp/ftrace | head -20; return 1; }
}

hw_map() {
	check "hwdma: $HWDMA_MAP_DEVICE is not dma-coherent" hw_map_not_coherent
	check "hwdma: bind $HWDMA_MAP_DEVICE through driver_override" hw_map_bind
	check_output "hwdma: upstream's tool on it" \
		'^average map latency\(us\):[0-9.]+ standard deviation:[0-9.]+$' \
		"$UPSTREAM" -s 1 -t 1 -g 4
	for _mode in 0 1; do
		for _dir in 0 1 2; do
			check "hwdma: map mode $_mode dir $_dir: results" \
				map_plausible map_mode=$_mode dma_dir=$_dir \
				granule=8 threads=1 seconds=1
		done
	done
	# the cache-sync reference (timings mean nothing under TCG; that it
	# runs, with cache maintenance, does)
	check "hwdma: the cache-sync reference command" cache_sync_reference -s 300
	if [ -e $TRACING/set_ftrace_filter ]; then
		check "hwdma: sg mode FROM_DEVICE under the function tracer" \
			hw_ftrace "$MBIOCTL" map map_mode=1 dma_dir=2 granule=4 seconds=1
		check "hwdma: ... maps clean the caches (arch_sync_dma_for_device)" \
			hw_ftrace_has arch_sync_dma_for_device dma-map-bench
		check "hwdma: ... unmaps invalidate them (arch_sync_dma_for_cpu)" \
			hw_ftrace_has arch_sync_dma_for_cpu dma-map-bench
		check "hwdma: the dmaengine mode under the function tracer" \
			hw_ftrace hw_run channels=1 folio_order=0 sge=4 \
			bytes_per_channel=16384 runs=1 flags=1 prep_modes=1
		check "hwdma: ... maps the buffers with cache maintenance too" \
			hw_ftrace_has arch_sync_dma_for_device dmaengine-bench
	else
		tap_skip "hwdma: no function tracer in this kernel"
	fi
	check "hwdma: unbind $HWDMA_MAP_DEVICE" \
		unbind_benchmark platform "$HWDMA_MAP_DEVICE"
	check_klog_clean "hwdma: map modes"
}

# The drivers' own complaints, beyond lib.sh's generic ones: runtime PM
# imbalance, channel faults, errors and timeouts, in the lines of the
# driver under test, the benchmark and dmatest (others, e.g. a PCIe host
# bridge giving up on a clock, are the board's).
HW_KLOG_BAD='underflow|[Ff]ault|has errors|[Ee]rror|[Tt]imeout|not complete'

hw_klog_quiet() {
	klog_since_mark |
		grep -E "^(\[[ 0-9.]*\] )?($HWDMA_DRIVER|dma_map_benchmark|dmatest)" |
		grep -E "$HW_KLOG_BAD" | grep -v 'prep_dma_memcpy returned NULL' |
		grep -v 'this kernel has no dmaengine_prep_dma_memcpy_sg' > /tmp/hwklog
	[ ! -s /tmp/hwklog ] || { cat /tmp/hwklog; return 1; }
}

suite_hwdma() {
	if [ -z "${HWDMA_DRIVER:-}" ]; then
		tap_skip "hwdma: this machine names no DMA driver to test (HWDMA_DRIVER)"
		return 0
	fi
	klog_mark
	check "hwdma: $HWDMA_DRIVER has $HWDMA_CHANNELS channels${HWDMA_DEVICE:+ on $HWDMA_DEVICE}" \
		hw_load_modules
	echo "# channels under test: $(hw_channels | tr '\n' ' ')"
	check "hwdma: benchmark module loads" load_module dma_map_benchmark
	hw_dmaengine
	hw_limits
	hw_dmatest_suite
	hw_map
	check "hwdma: benchmark unloads" unload_module dma_map_benchmark
	# the whole log since the suite began (nothing here marks again)
	check "hwdma: no driver error, fault or timeout in the kernel log" hw_klog_quiet
	check_klog_clean "hwdma"
}
