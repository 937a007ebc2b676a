# SPDX-License-Identifier: GPL-2.0-only
# Fault injection on the debug kernel: make the 1st, 2nd, ... allocation of
# an ioctl fail (failslab and fail_page_alloc through fail-nth), until a run
# makes no more allocations than that. Every run must fail cleanly or
# succeed; the module must stay usable; KASAN, kmemleak and lockdep must
# stay silent. Then an ioctl fuzzer with random and boundary structures.

FAULT_MAX=${FAULT_MAX:-400}

faults_available() {
	[ -e /proc/self/fail-nth ] && [ -d /sys/kernel/debug/failslab ]
}

faults_setup() {
	for _a in failslab fail_page_alloc; do
		_d=/sys/kernel/debug/$_a
		[ -d "$_d" ] || continue
		# GFP_KERNEL allocations are what the benchmark makes
		echo N > "$_d/ignore-gfp-wait"
		[ -e "$_d/ignore-gfp-highmem" ] && echo N > "$_d/ignore-gfp-highmem"
		[ -e "$_d/min-order" ] && echo 0 > "$_d/min-order"
		# no stack dump per injected fault: the log must stay readable
		echo 0 > "$_d/verbose"
		echo 0 > "$_d/probability"
		echo -1 > "$_d/times"
	done
}

# fault_walk NAME ARGS...: fail the n-th allocation for n = 1.. until the
# call completes without consuming the fault. Each must end in success or
# in ENOMEM (ENODEV when the failed allocation was inside
# dma_request_channel(), which reports no reason), and the next plain
# call must succeed.
fault_walk() {
	_name=$1
	shift
	_n=1
	_bad=0
	_done=0
	while [ "$_n" -le "$FAULT_MAX" ]; do
		"$MBIOCTL" "$@" fail_nth=$_n > /tmp/fault.out 2>&1
		if ! grep -Eq '^(rc=0|errno=ENOMEM|errno=ENODEV error=2 )' /tmp/fault.out; then
			echo "fail_nth=$_n: $(cat /tmp/fault.out | tr '\n' ' ')"
			_bad=$((_bad + 1))
		fi
		if grep -q '^injected=0' /tmp/fault.out; then
			_done=1
			break
		fi
		_n=$((_n + 1))
	done
	echo "$_name: walked $_n allocation sites"
	[ "$_done" = 1 ] && [ "$_bad" = 0 ] && "$MBIOCTL" "$@" > /dev/null
}

# fuzz_clean SECONDS SEED [contend|map]: the fuzzer ran (contended, or the map
# ioctls only, if asked)
# and named no call after which DMA-API debugging counted an error
fuzz_clean() {
	"$MBIOCTL" fuzz "$@" > /tmp/fuzz.out 2>&1
	_fz_rc=$?
	grep '^fuzz:' /tmp/fuzz.out
	case ${3:-} in
	contend) _fz_pat='contended' ;;
	map) _fz_pat='map ioctls only' ;;
	*) _fz_pat= ;;
	esac
	[ "$_fz_rc" = 0 ] && grep -q "^fuzz: [0-9]* calls.*$_fz_pat" /tmp/fuzz.out &&
		! grep -q 'raised the DMA-API error count' /tmp/fuzz.out
}

# The fuzzer under contention: both vCPUs kept busy by other processes,
# soft_dma slowed down, a signal every 1.5 s interrupting calls, and
# dmaengine timeouts short enough to expire: the paths where a slow
# provider, an expiring timeout and a signal meet.
fuzz_contended() {
	_knob=/sys/kernel/debug/soft_dma/delay_us
	[ -w "$_knob" ] || { echo "no $_knob"; return 1; }
	sh -c 'while :; do :; done' &
	_h1=$!
	sh -c 'while :; do :; done' &
	_h2=$!
	echo 200 > "$_knob"
	fuzz_clean "$1" "$2" contend
	_rc=$?
	echo 0 > "$_knob"
	kill $_h1 $_h2
	wait $_h1 $_h2 2>/dev/null
	return $_rc
}

suite_faults() {
	if ! faults_available; then
		tap_skip "faults: this kernel has no fault injection (fail-nth)"
		return
	fi
	faults_setup
	check "faults: benchmark loads" load_module dma_map_benchmark
	check "faults: soft_dma loads" load_module soft_dma channels=4
	check "faults: bind the benchmark" bind_benchmark

	check "faults: map sg mode survives each allocation failing" \
		fault_walk map-sg map map_mode=1 granule=16 threads=2 seconds=1
	check "faults: map single mode survives each allocation failing" \
		fault_walk map-single map granule=4 seconds=1
	# the dmaengine mode maps on soft_dma, a platform device that no
	# IOMMU translates: its walks behind the IOMMU would repeat the
	# direct configuration's
	if [ "$(dma_config)" = iommu ]; then
		tap_skip "faults: dmaengine walks: soft_dma is not behind the IOMMU, the direct configuration walks them (x86-debug.t)"
	else
		check "faults: dmaengine memcpy survives each allocation failing" \
			fault_walk dmaengine dmaengine channels=2 sge=4 runs=1 flags=1
		if have_memcpy_sg; then
			check "faults: dmaengine memcpy_sg survives each allocation failing" \
				fault_walk dmaengine-sg dmaengine channels=2 sge=4 \
				runs=1 prep_modes=3 flags=1 src_node=0 dst_node=1
		fi
	fi
	check_klog_clean "faults: fail-nth walks"

	# random and boundary structures, bounded in time; behind the IOMMU
	# the map ioctls alone (the dmaengine one maps on soft_dma, which it
	# does not translate), as many of them as in 60 s of all three
	_seed=${FUZZ_SEED:-$(date +%s)}
	if [ "$(dma_config)" = iommu ]; then
		check "faults: map ioctl fuzzer, ${FUZZ_SECONDS:-40} s, seed $_seed, no DMA-API error" \
			fuzz_clean "${FUZZ_SECONDS:-40}" "$_seed" map
	else
		check "faults: ioctl fuzzer, ${FUZZ_SECONDS:-60} s, seed $_seed, no DMA-API error" \
			fuzz_clean "${FUZZ_SECONDS:-60}" "$_seed"
	fi
	_seed=$((_seed + 1))
	# its paths are soft_dma's and the dmaengine mode's (a slow
	# provider, expiring timeouts, signals), the same behind the IOMMU
	if [ "$(dma_config)" = iommu ]; then
		tap_skip "faults: fuzzer under contention: soft_dma is not behind the IOMMU, the direct configuration runs it (x86-debug.t)"
	else
		check "faults: fuzzer under contention (busy vCPUs, slow soft_dma, signals, short timeouts), ${FUZZ_CONTENDED_SECONDS:-30} s, seed $_seed" \
			fuzz_contended "${FUZZ_CONTENDED_SECONDS:-30}" "$_seed"
		grep '^fuzz:' /tmp/fuzz.out | tap_diag
		check_klog_clean "faults: contended fuzzer"
	fi
	check "faults: the module is usable after fuzzing" \
		"$MBIOCTL" dmaengine channels=2 flags=1
	check "faults: map mode usable after fuzzing" "$MBIOCTL" map
	check "faults: unbind" unbind_benchmark
	check_klog_clean "faults: fuzzer"
}
