# SPDX-License-Identifier: GPL-2.0-only
# The guest's library (busybox sh, in the test VM, in $PROJECT/tests): what
# the kernel offers, the project's modules, the edu device, dmatest, and
# the checks of the suites (with tap.sh's TAP helpers). The suites (run.sh
# sources them) and the benchmarks' and sweeps' guest scripts source it.

PROJECT=${PROJECT:-/opt/dma-bench}
. "$PROJECT/tests/tap.sh"
TOOL=${TOOL:-$PROJECT/bin/dma_map_benchmark}
MODDIR=${MODDIR:-$PROJECT/modules}
# the raw ioctl client (src/mbioctl.c)
MBIOCTL=$PROJECT/bin/mbioctl
# upstream's tool, built from the kernel's selftest source
UPSTREAM=$PROJECT/bin/upstream_dma_map_benchmark
TRACING=/sys/kernel/tracing
# DMA-API debugging (CONFIG_DMA_API_DEBUG), on the debug kernel only
DMA_API=/sys/kernel/debug/dma-api

# What the kernel the VM runs offers, as the module build's probes found it
# (kernel/probes/): memcpy_sg and memcpy_vec need the project's patches.
have_memcpy_sg() {
	grep -q 'HAVE_DMA_MEMCPY_SG 1' "$MODDIR/probes.h" 2>/dev/null
}
have_memcpy_vec() {
	grep -q 'HAVE_DMA_MEMCPY_VEC 1' "$MODDIR/probes.h" 2>/dev/null
}
# the migration copy-offload hook (kernel/patches/v7.3-migrate)
have_migrate_hook() {
	grep -Eq 'HAVE_MIGRATE_COPY_OFFLOAD(_RFC)? 1' "$MODDIR/probes.h" 2>/dev/null
}

# migrate_ready: the kernel can move pages between two nodes through the
# offload; else why not, on stderr, and how to get a kernel that can
migrate_ready() {
	_mr_rc=0
	if ! have_migrate_hook; then
		echo "migrate: kernel $(uname -r) has no migration copy-offload hook (kernel/patches/v7.3-migrate): boot the kernel scripts/kernel/build-debug-kernel.sh builds (machines x86-bench, x86-debug, arm64-zcu102-73)" >&2
		_mr_rc=1
	fi
	if [ ! -d /sys/devices/system/node/node1 ]; then
		echo "migrate: this VM has one NUMA node (kernel $(uname -r), command line: $(cat /proc/cmdline)): migration needs a second one: boot with numa=fake=2 a kernel with CONFIG_NUMA_EMU (the project's x86 and arm64 7.3 kernels)" >&2
		_mr_rc=1
	fi
	return $_mr_rc
}

# json_string [FILE...]: the text of FILE (or stdin) as one JSON string,
# without a newline: '\', '"' and control characters escaped, lines joined
# with \n, the last newline dropped. For short texts (messages): busybox
# awk's gsub takes seconds on a megabyte of quotes.
json_string() {
	awk 'BEGIN { printf "\"" }
	{
		gsub(/\\/, "\\\\")
		gsub(/"/, "\\\"")
		gsub(/\t/, "\\t")
		gsub(/\r/, "\\r")
		if ($0 ~ /[\001-\037]/)
			for (c = 1; c < 32; c++)
				gsub(sprintf("%c", c), sprintf("\\u%04x", c))
		printf "%s%s", (NR > 1 ? "\\n" : ""), $0
	}
	END { printf "\"" }' "$@"
}

# Kernel log: klog_mark marks a position for klog_since_mark and
# check_klog_has. check_klog_clean keeps marks of its own, KLOG_CLEAN_MARK and
# KLOG_CLEAN_ERRORS (run.sh sets them at the start): each call covers the
# whole log, and every DMA-API error counted, since the last, whatever
# klog_marks came between.
KLOG_BAD='WARNING:|BUG:|Oops|general protection|KASAN|kmemleak:.*(new suspected|unreferenced)|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|Call Trace:|list_add corruption|refcount_t:|UBSAN'

klog_mark() {
	KLOG_MARK=$(dmesg | wc -l)
}

# klog_since_mark: print kernel log lines since klog_mark
klog_since_mark() {
	dmesg | tail -n +$((${KLOG_MARK:-0} + 1))
}

# dma_api_errors: DMA-API debugging's error count, empty without it
dma_api_errors() {
	cat $DMA_API/error_count 2>/dev/null
}

# check_klog_clean DESCRIPTION: no WARNING/BUG/Oops/KASAN/lockdep/DMA-API
# report in the kernel log since the last check_klog_clean, and, with
# DMA-API debugging, no error counted since then: it WARN()s only for the
# boot's first error (num_errors), and counts the others silently.
check_klog_clean() {
	dmesg | tail -n +$((${KLOG_CLEAN_MARK:-0} + 1)) > /tmp/klog.new
	KLOG_CLEAN_MARK=$((${KLOG_CLEAN_MARK:-0} + $(wc -l < /tmp/klog.new)))
	_kc_errors=$(dma_api_errors)
	if grep -Eq "$KLOG_BAD" /tmp/klog.new; then
		tap_not_ok "$1: kernel log clean"
		grep -E -A 20 "$KLOG_BAD" /tmp/klog.new | head -60 | tap_diag
	elif [ -n "$_kc_errors" ] && [ "$_kc_errors" != "${KLOG_CLEAN_ERRORS:-0}" ]; then
		tap_not_ok "$1: kernel log clean"
		echo "# DMA-API debugging counted $((_kc_errors - ${KLOG_CLEAN_ERRORS:-0})) new errors ($_kc_errors in all):"
		grep -E 'DMA-API' /tmp/klog.new | head -20 | tap_diag
	else
		tap_ok "$1: kernel log clean"
	fi
	KLOG_CLEAN_ERRORS=${_kc_errors:-0}
}

# check_klog_lacks DESCRIPTION PATTERN: no line since the mark matches.
check_klog_lacks() {
	if klog_since_mark | grep -Eq -- "$2"; then
		tap_not_ok "$1"
		echo "# /$2/ in the kernel log since the mark:"
		klog_since_mark | grep -E -A 10 -- "$2" | head -30 | tap_diag
	else
		tap_ok "$1"
	fi
}

# check_klog_has DESCRIPTION PATTERN: the log since the mark matches.
check_klog_has() {
	if klog_since_mark | grep -Eq -- "$2"; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		echo "# expected /$2/ in the kernel log since the mark:"
		klog_since_mark | tail -20 | tap_diag
	fi
}

# check_refused IOCTL FIELD=VALUE... PATTERN: mbioctl IOCTL (map, mapext,
# dmaengine) with these fields fails with EINVAL, and a kernel message
# since then matches PATTERN (the last argument): it names the field.
check_refused() {
	_cr_ioctl=$1
	shift
	_cr_fields=
	while [ $# -gt 1 ]; do
		_cr_fields="${_cr_fields:+$_cr_fields }$1"
		shift
	done
	# mbioctl adds the ABI's error fields for the dmaengine ioctl only
	case $_cr_ioctl in
	dmaengine) _cr_errno='^errno=EINVAL error=' ;;
	*) _cr_errno='^errno=EINVAL$' ;;
	esac
	klog_mark
	# shellcheck disable=SC2086
	check_fails_with "$_cr_ioctl: $_cr_fields refused with EINVAL" \
		"$_cr_errno" "$MBIOCTL" "$_cr_ioctl" $_cr_fields
	check_klog_has "$_cr_ioctl: $_cr_fields: the kernel message names it" "$1"
}

# map_page_event: the dma trace event of a dma_map_single()/_page():
# dma_map_phys from Linux 7.x on (they map through dma_map_phys()),
# dma_map_page before
map_page_event() {
	if [ -d $TRACING/events/dma/dma_map_phys ]; then
		echo dma_map_phys
	else
		echo dma_map_page
	fi
}

# trace_run EVENTS COMMAND...: COMMAND (its output dropped) with the trace
# events EVENTS (dma, dma/dma_map_sg, ...) on; the trace in /tmp/trace.out
trace_run() {
	_tr_ev=$TRACING/events/$1/enable
	shift
	trace_reset
	echo 1 > "$_tr_ev"
	echo 1 > $TRACING/tracing_on
	"$@" > /dev/null
	_tr_rc=$?
	echo 0 > $TRACING/tracing_on
	echo 0 > "$_tr_ev"
	cat $TRACING/trace > /tmp/trace.out
	return $_tr_rc
}

trace_reset() {
	echo 0 > $TRACING/tracing_on
	# Without record-cmd, enabling an event leaves sched_switch's probe
	# alone: its static key in __schedule(), which every CPU runs, is not
	# live-patched, and TCG's stale translations of live-patched code
	# (Documentation/testing.rst) have no hot site to hit. The suites
	# read the events, not the task names.
	[ -w $TRACING/options/record-cmd ] &&
		echo 0 > $TRACING/options/record-cmd
	echo > $TRACING/trace
	echo 0 > $TRACING/events/enable
}

# pinned_run NAME CPU COMMAND...: while COMMAND, a run pinned to CPU, lasts
# in the background, its kernel threads NAME (dma-map-bench,
# dmaengine-bench) appear, each allowed only on CPU; then a signal ends
# it. A thread exists before it is pinned, and a loaded host may take
# seconds to start and pin them: look for 30 s.
pinned_run() {
	_pr_name=$1 _pr_cpu=$2
	shift 2
	"$@" > /tmp/pinned.out 2>&1 &
	_pr_p=$!
	_pr_t=0
	_pr_rc=1
	: > /tmp/threads.out
	while kill -0 $_pr_p 2>/dev/null && [ $_pr_t -lt 30 ]; do
		if threads_now_on "$_pr_name" "$_pr_cpu" > /tmp/threads.out; then
			_pr_rc=0
			break
		fi
		sleep 1
		_pr_t=$((_pr_t + 1))
	done
	kill -TERM $_pr_p
	wait $_pr_p
	[ $_pr_rc = 0 ] && return 0
	cat /tmp/threads.out
	echo "no $_pr_name thread seen, or one not on CPU $_pr_cpu, in $_pr_t s; the command said:"
	cat /tmp/pinned.out
	dmesg | tail -n 5
	return 1
}

# threads_now_on NAME CPU: there are kernel threads NAME, each on CPU only
threads_now_on() {
	_tn_n=0
	for _s in /proc/[0-9]*/status; do
		grep -q "^Name:.*$1" "$_s" 2>/dev/null || continue
		_tn_n=$((_tn_n + 1))
		grep "^Cpus_allowed_list:" "$_s"
		grep -q "^Cpus_allowed_list:[[:space:]]*$2\$" "$_s" || return 1
	done
	[ $_tn_n -gt 0 ]
}

# --- the dmaengine ioctl (dmaengine.sh on soft_dma, hwdma.sh on boards) ---

# The ABI's error enum, its flags and prep modes, by name.
ERR_NO_CHANNEL=2 ERR_NO_API=3 ERR_NO_CAP=4 ERR_NOMEM=5 ERR_PREP=7
ERR_RESULT=9 ERR_TIMEOUT=10 ERR_VERIFY=11 ERR_STALL=14 ERR_POLL=15
ERR_UNBOUND=16
F_VERIFY=1 F_POLL=2 F_DISTINCT=8 F_SKIP_MISSING=16 F_DST_ORDER=32
PREP_CPU=4 PREP_MEMCPY_VEC=8
DE_OUT=/tmp/deb.out

# de_run FIELD=VALUE...: mbioctl dmaengine; its output printed and in $DE_OUT
de_run() {
	output_in "$DE_OUT" "$MBIOCTL" dmaengine "$@"
}

# de_field MODE FIELD: a figure of the last run
de_field() {
	sed -n "s/^mode$1 .* $2=\([0-9]*\).*/\1/p" "$DE_OUT"
}

# de_error_is ERRNO ERROR: the last run failed with this errno and error
de_error_is() {
	cat "$DE_OUT"
	grep -q "^errno=$1 error=$2 " "$DE_OUT"
}

# de_calls MODE CALLS [BYTES]: the last run's mode MODE made CALLS prep
# calls and as many submits, and copied BYTES (when given)
de_calls() {
	_dc_b=$(de_field "$1" bytes)
	_dc_c=$(de_field "$1" prep_calls)
	_dc_s=$(de_field "$1" submits)
	echo "mode$1: bytes=$_dc_b (want ${3:-any}) prep_calls=$_dc_c submits=$_dc_s (want $2)"
	[ "$_dc_c" = "$2" ] && [ "$_dc_s" = "$2" ] && { [ -z "$3" ] || [ "$_dc_b" = "$3" ]; }
}

# de_stalls MODE: prep stalls of the last run were counted
de_stalls() {
	expect_value prep_stalls "$(de_field "$1" prep_stalls)" -gt 0
}

# channels_released [CHANNEL...]: no dmaengine channel (of these) is held
channels_released() {
	[ $# -gt 0 ] || set -- $(ls /sys/class/dma)
	for _c in "$@"; do
		[ "$(cat "/sys/class/dma/$_c/in_use")" = 0 ] || {
			echo "$_c is still in use"
			return 1
		}
	done
}

# --- the kernel's dmatest ------------------------------------------------
#
# dmatest prints one line per thread when it ends:
#   dmatest: dma0chan3-copy0: summary 20 tests, 0 failures 812.34 iops ...
# and one "result" line per failed test; dt_log keeps those of the last run
# in $DT_LOG.

DT=/sys/module/dmatest/parameters
DT_LOG=/tmp/dt.log

dt_set() {
	for _kv in "$@"; do
		echo "${_kv#*=}" > "$DT/${_kv%%=*}" || {
			echo "dmatest: cannot set $_kv"
			return 1
		}
	done
}

# dt_release: end the last run, release its channels, clear the channel list
dt_release() {
	[ -d "$DT" ] || return 0
	cat "$DT/run" > /dev/null
	cat "$DT/channel" > /dev/null
}

# dt_start_on DEVICE [chan=NAME]... [PARAM=VALUE]...: start dmatest on
# DEVICE's channels (chan=, repeatable, limits it to those): 20 verified
# tests a thread, one thread a channel, unless PARAM=VALUE says otherwise
dt_start_on() {
	_dts_dev=$1
	shift
	load_module dmatest || return 1
	dt_release
	_chans=
	dt_set iterations=20 threads_per_chan=1 max_channels=0 timeout=3000 \
		noverify=0 norandom=0 polled=0 test_buf_size=16384 verbose=0 \
		dmatest=0 device="$_dts_dev" || return 1
	for _kv in "$@"; do
		case $_kv in
		chan=*) _chans="$_chans ${_kv#chan=}" ;;
		*) dt_set "$_kv" || return 1 ;;
		esac
	done
	for _c in $_chans; do
		echo "$_c" > "$DT/channel" || {
			echo "dmatest: cannot add channel $_c"
			return 1
		}
	done
	DT_MARK=$(dmesg | wc -l)
	echo 1 > "$DT/run"
}

# dt_log: dmatest's kernel log lines since dt_start, into $DT_LOG
dt_log() {
	dmesg | tail -n +$((${DT_MARK:-0} + 1)) | grep 'dmatest' > "$DT_LOG"
}

# largest N...: the largest of the numbers, 1 for none or smaller ones
largest() {
	_lg=1
	for _n in "$@"; do
		[ "$_n" -gt "$_lg" ] && _lg=$_n
	done
	echo "$_lg"
}

# dt_summaries: the threads' summary lines since the last dt_start
dt_summaries() {
	dmesg | tail -n +$((DT_MARK + 1)) | grep -c ': summary '
}

# dt_finish [SECONDS]: wait for the threads to end (default 300 s); keep
# the channels held ("wait" does not release them)
dt_finish() {
	_end=$(($(cut -d. -f1 /proc/uptime) + ${1:-300}))
	# "wait" blocks uninterruptibly: poll for the summary lines instead.
	# dmatest starts a channel's threads after the previous channel's: on
	# a loaded host the first ones can finish before the last start, so
	# the count is taken again half a second after it was met
	while :; do
		while [ "$(dt_summaries)" -lt "$(dt_threads)" ]; do
			if [ "$(cut -d. -f1 /proc/uptime)" -ge "$_end" ]; then
				dt_log
				echo "dmatest did not finish in ${1:-300} s"
				cat "$DT_LOG"
				return 1
			fi
			usleep 200000
		done
		usleep 500000
		[ "$(dt_summaries)" -lt "$(dt_threads)" ] || break
	done
	cat "$DT/wait" > /dev/null
	dt_log
}

# dt_threads: threads started by the last dt_start
dt_threads() {
	dmesg | tail -n +$((DT_MARK + 1)) |
		awk '/dmatest: Started [0-9]+ threads/ { n += $(NF - 3) } END { print n + 0 }'
}

# Modules of the project, built for the running kernel. The benchmark and
# the migration offload (dma_migrate) and the dmacopy KUnit test import
# the dmacopy library: it is loaded first.
load_module() {
	case $1 in
	dma_map_benchmark | dma_migrate | dmacopy_kunit)
		insmod_once dmacopy || return 1
		;;
	esac
	insmod_once "$@"
}

# insmod_once MODULE [PARAM...]: insmod it unless it is loaded
insmod_once() {
	_m=$1
	shift
	grep -q "^$_m " /proc/modules || insmod "$MODDIR/$_m.ko" "$@"
}

unload_module() {
	! grep -q "^$1 " /proc/modules || rmmod "$1"
}

# Bind the VM's spare PCI device (QEMU's edu, 1234:11e8) to the benchmark,
# exactly as upstream's documentation describes it.
edu_devices() {
	for _d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$_d/vendor")" = 0x1234 ] &&
		   [ "$(cat "$_d/device")" = 0x11e8 ]; then
			basename "$_d"
		fi
	done
}

edu_device() {
	_e=$(edu_devices | head -n 1)
	[ -n "$_e" ] && echo "$_e"
}

# bind_benchmark [BUS DEVICE]: bind DEVICE (default: the edu PCI device)
bind_benchmark() {
	_bus=${1:-pci}
	_dev=${2:-$(edu_device)} || return 1
	echo dma_map_benchmark > "/sys/bus/$_bus/devices/$_dev/driver_override"
	echo "$_dev" > "/sys/bus/$_bus/drivers_probe"
	[ -e /sys/kernel/debug/dma_map_benchmark ]
}

unbind_benchmark() {	# unbind_benchmark [BUS DEVICE]
	_bus=${1:-pci}
	_dev=${2:-$(edu_device)} || return 1
	if [ -e "/sys/bus/$_bus/devices/$_dev/driver" ]; then
		echo "$_dev" > "/sys/bus/$_bus/devices/$_dev/driver/unbind"
	fi
	echo > "/sys/bus/$_bus/devices/$_dev/driver_override"
	[ ! -e /sys/kernel/debug/dma_map_benchmark ]
}

# map_plausible FIELD=VALUE...: a map-mode run (mbioctl map) whose result
# line, avg_map_100ns=N ..., is within sane bounds (printed, for the test's
# diagnostics): some mapping took time, and no mean is above 10 s, which
# only a garbled figure reaches (a 1024-entry dma_map_sg takes 85 ms on
# the debug kernel under TCG on a quiet host; beside a kernel build and
# another debug VM its unmap took 1.2 s)
map_plausible() {
	output_in /tmp/map.out "$MBIOCTL" map "$@" || return 1
	awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		exit !(v["avg_map_100ns"] + v["avg_unmap_100ns"] > 0 &&
		       v["avg_map_100ns"] < 100000000 && v["avg_unmap_100ns"] < 100000000)
	}' /tmp/map.out
}

# output_in FILE COMMAND...: COMMAND's output (stdout and stderr) kept in
# FILE and printed; COMMAND's status
output_in() {
	_oi_f=$1
	shift
	"$@" > "$_oi_f" 2>&1
	_oi_rc=$?
	cat "$_oi_f"
	return $_oi_rc
}

# expect_value WHAT VALUE OP WANT: VALUE OP WANT holds (test's -eq, -gt,
# ...), else a line says what WHAT was and what it should be
expect_value() {
	test "${2:-x}" "$3" "$4" 2>/dev/null && return 0
	echo "$1 = ${2:-none}, expected $3 $4"
	return 1
}

# lines_match FILE PATTERN...: line i of FILE matches PATTERN i
lines_match() {
	_f=$1
	shift
	_i=1
	for _pat in "$@"; do
		sed -n "${_i}p" "$_f" | grep -Eq -- "$_pat" || {
			echo "line $_i does not match /$_pat/:"
			cat "$_f"
			return 1
		}
		_i=$((_i + 1))
	done
}

# cache_sync_reference [OPTION...]: the cache-sync reference command, 10 MiB
# in 4 KiB entries, 200 iterations, one CPU: upstream's lines, then
# map/unmap/sync means and percentiles
cache_sync_reference() {
	"$TOOL" -m sg --entries 2560 --entry-size 4K --iterations 200 --cpus 0 \
		--sync -d to_device "$@" > /tmp/tool.out || { cat /tmp/tool.out; return 1; }
	cat /tmp/tool.out
	lines_match /tmp/tool.out \
		'^dma mapping benchmark\(SG_MODE\): .* granule:2560$' \
		'^average map latency' \
		'^average unmap latency' \
		'^map +count 200 mean [0-9.]+ us sd [0-9.]+ min [0-9.]+ p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ max [0-9.]+$' \
		'^unmap +count 200 ' '^sync_cpu +count 200 ' '^sync_device +count 200 '
}

# --- soft_dma, the software provider (soft_dma*.sh test it) --------------

SD=/sys/kernel/debug/soft_dma
SD_DEV=soft_dma.0
# the device's counters: a directory of its own per bound device
SD_STATS=$SD/$SD_DEV/stats
SD_DRV=/sys/bus/platform/drivers/soft_dma
SD_CHANNELS=8
# its run-time knobs, each with its default: debugfs files in $SD, not
# module parameters
SD_KNOBS="nocopy=0 delay_us=0 fail_prep_every=0 error_every=0 stall_channel=-1"

# sd_channels: the soft_dma channels, e.g. dma0chan0, one a line
sd_channels() {
	for _c in /sys/class/dma/*; do
		[ -e "$_c/device" ] || continue
		[ "$(basename "$(readlink -f "$_c/device")")" = "$SD_DEV" ] &&
			basename "$_c"
	done
}

sd_nchannels() {
	sd_channels | wc -l
}

# sd_chan INDEX: name of the soft_dma channel with that index
sd_chan() {
	sd_channels | sed -n "$(($1 + 1))p"
}

# sd_knob NAME VALUE: set a run-time knob
sd_knob() {
	echo "$2" > "$SD/$1"
}

# sd_is_knob WORD: WORD (NAME or NAME=VALUE) names a run-time knob
sd_is_knob() {
	case " $SD_KNOBS " in
	*" ${1%%=*}="*) return 0 ;;
	esac
	return 1
}

sd_knobs_reset() {
	for _kr in $SD_KNOBS; do
		sd_knob "${_kr%%=*}" "${_kr#*=}" || return 1
	done
}

# sd_stat CHANNEL|all COLUMN: a counter of soft_dma's stats, of one channel
# (nothing when there is no such channel) or summed over all
sd_stat() {
	awk -v c="$1" -v k="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		c == "all" || $1 == c { s += $col[k]; n++ }
		END { if (n || c == "all") print s + 0 }' "$SD_STATS"
}

# sd_with KNOB=VALUE COMMAND...: COMMAND with that run-time knob set; every
# knob at its default after
sd_with() {
	sd_knob "${1%%=*}" "${1#*=}" || return 1
	shift
	"$@"
	_sw_rc=$?
	sd_knobs_reset
	return $_sw_rc
}

sd_stats_reset() {
	echo 0 > "$SD_STATS"
}

# sd_expect_stat CHANNEL|all COLUMN OP VALUE: e.g. sd_expect_stat all errors -eq 0
sd_expect_stat() {
	expect_value "stats $1 $2" "$(sd_stat "$1" "$2")" "$3" "$4" ||
		{ cat "$SD_STATS"; return 1; }
}

# sd_no_descriptors: every descriptor soft_dma allocated was freed
sd_no_descriptors() {
	expect_value "descriptors still allocated" "$(cat "$SD/descriptors")" -eq 0 ||
		{ cat "$SD_STATS"; return 1; }
}

# sd_expect_workers N: N soft_dma worker threads
sd_expect_workers() {
	expect_value "soft_dma worker threads" "$(ps | grep -c '[[]sdma/')" -eq "$1" ||
		{ ps | grep '[[]sdma/'; return 1; }
}

# sd_params_show: the load-time parameters prep_lock no_order pool_size
sd_params_show() {
	(cd /sys/module/soft_dma/parameters && cat prep_lock no_order pool_size) |
		tr '\n' ' ' | sed 's/ $//'
}

# sd_gone: soft_dma's debugfs directory and platform device are removed
sd_gone() {
	[ ! -e "$SD" ] && [ ! -e "/sys/bus/platform/devices/$SD_DEV" ]
}

sd_load() {
	load_module soft_dma "channels=$SD_CHANNELS" && sd_knobs_reset
}

# soft_reload PARAM...: soft_dma again, SD_CHANNELS channels and these
# load-time parameters (its personalities: no_order=1, pool_size=N, ...)
soft_reload() {
	unload_module soft_dma && load_module soft_dma "channels=$SD_CHANNELS" "$@"
}

sd_unload() {
	unload_module dmatest
	unload_module dma_map_benchmark
	unload_module dma_migrate
	unload_module soft_dma
}

# sd_tool ARGS...: the project's dmaengine mode on soft_dma
sd_tool() {
	"$TOOL" -m dmaengine -D "$SD_DEV" "$@"
}

# sd_has_tool: the project's module loaded, its debugfs file, the tool
sd_has_tool() {
	load_module dma_map_benchmark 2>/dev/null &&
		[ -e /sys/kernel/debug/dmaengine_benchmark ] && [ -x "$TOOL" ]
}

# dt_start [chan=NAME]... [PARAM=VALUE]...: dt_start_on soft_dma, with
# every size, alignment and bounce knob of dmatest at its default
dt_start() {
	dt_start_on "$SD_DEV" transfer_size=0 alignment=-1 nobounce=0 "$@"
}

# dt_run ARGS...: dt_start ARGS and wait for the end
dt_run() {
	dt_start "$@" && dt_finish
}

# dt_expect THREADS TESTS FAILURES: THREADS summary lines, each with TESTS
# tests and FAILURES failures
dt_expect() {
	_dte_n=$(grep -c ': summary ' "$DT_LOG")
	_dte_ok=$(grep -c ": summary $2 tests, $3 failures " "$DT_LOG")
	if [ "$_dte_n" -eq "$1" ] && [ "$_dte_ok" -eq "$1" ]; then
		return 0
	fi
	echo "expected $1 threads with '$2 tests, $3 failures', got $_dte_ok of $_dte_n:"
	grep -E 'summary|result|Started|Added' "$DT_LOG" | head -40
	return 1
}

# dt_run_expect THREADS TESTS FAILURES ARGS...: run and check the summaries
dt_run_expect() {
	_dtr_t=$1 _dtr_n=$2 _dtr_f=$3
	shift 3
	dt_run "$@" && dt_expect "$_dtr_t" "$_dtr_n" "$_dtr_f"
}

# dt_expect_result PATTERN: a failed test's result line matches
dt_expect_result() {
	grep -q "result #[0-9]*: '$1'" "$DT_LOG" && return 0
	echo "no result line '$1':"
	head -40 "$DT_LOG"
	return 1
}

# dt_max_iops LIMIT: no thread ran faster than LIMIT tests per second
dt_max_iops() {
	awk -v lim="$1" '/: summary / {
			for (i = 1; i <= NF; i++) if ($(i + 1) == "iops") iops = $i
			if (iops + 0 > lim) { bad = 1; print "too fast: " $0 }
		} END { exit bad }' "$DT_LOG"
}

# dt_in_image: the kernel's dmatest is in the image (a module or built in)
dt_in_image() {
	[ -f "$MODDIR/dmatest.ko" ] || modinfo dmatest > /dev/null 2>&1
}

# --- a board's DMA driver (hwdma.sh tests it) -----------------------------
#
# The machine names it (scripts/vm/machines/*.conf, VM_GUEST_ENV; hwdma.sh
# says what each means): HWDMA_DRIVER, HWDMA_MODULES, HWDMA_DEVICE,
# HWDMA_CHANNELS.

# hw_channels: the channels under test, one a line, in dmaengine's order
hw_channels() {
	for _c in /sys/class/dma/dma*chan*; do
		[ -e "$_c/device/driver" ] || continue
		[ "$(basename "$(readlink -f "$_c/device/driver")")" = "$HWDMA_DRIVER" ] ||
			continue
		[ -z "$HWDMA_DEVICE" ] ||
			[ "$(basename "$(readlink -f "$_c/device")")" = "$HWDMA_DEVICE" ] ||
			continue
		basename "$_c"
	done | sort -V
}

hw_nchannels() {
	hw_channels | wc -l
}

# hw_load_modules: HWDMA_MODULES, then wait for HWDMA_CHANNELS channels
hw_load_modules() {
	for _m in $(echo "$HWDMA_MODULES" | tr , ' '); do
		load_module "$_m" || return 1
	done
	# a driver module probes its devices as it loads; give it a moment
	_i=0
	while [ "$(hw_nchannels)" -lt "$HWDMA_CHANNELS" ] && [ $_i -lt 50 ]; do
		usleep 100000
		_i=$((_i + 1))
	done
	[ "$(hw_nchannels)" -ge "$HWDMA_CHANNELS" ] || {
		echo "$(hw_nchannels) channels of $HWDMA_DRIVER, expected $HWDMA_CHANNELS:"
		ls -l /sys/class/dma/
		return 1
	}
}

# The DMA configuration the VM was booted with: direct, swiotlb or iommu.
dma_config() {
	echo "${DMA_BENCH_CONFIG:-direct}"
}

# The scope of the run, GUEST_SCOPE (the VM's .t sets it, through
# vm-suite.sh): "full" (the default) runs every matrix of the suites (prep
# forms x channels x orders x layouts x depths, sizes, output formats);
# "debug", on the debug kernel, one pass of each with verification, for
# KASAN, kmemleak, lockdep and DMA-API debugging to watch, and leaves the
# matrices to a kernel that runs them faster (x86-bench.t).
scope_full() {
	[ "${GUEST_SCOPE:-full}" != debug ]
}

# scope_pick FULL DEBUG: the list of a matrix's axis for this scope
scope_pick() {
	if scope_full; then echo "$1"; else echo "$2"; fi
}

# kunit_module MODULE SUITE CASES SKIPS_ALLOWED: load MODULE, check SUITE's
# results: CASES cases, all ok, none skipped unless SKIPS_ALLOWED is 1
kunit_module() {
	_results=/sys/kernel/debug/kunit/$2/results
	check "kunit: $1.ko was built for this kernel" test -f "$MODDIR/$1.ko"
	unload_module "$1"
	check "kunit: loading $1 runs its tests" insmod "$MODDIR/$1.ko"
	if ! cat "$_results" > /tmp/kunit.out 2>&1; then
		tap_not_ok "kunit: $_results exists"
		return
	fi
	# the cases, indented one level under the suite's own result line
	_pass=$(grep -cE '^[[:space:]]+ok [0-9]+ ' /tmp/kunit.out)
	_fail=$(grep -cE '^[[:space:]]+not ok [0-9]+ ' /tmp/kunit.out)
	_skip=$(grep -cE '^[[:space:]]+ok [0-9]+ .*# SKIP' /tmp/kunit.out)
	sed -nE 's/^[[:space:]]+(ok [0-9]+ .*)/# kunit: \1/p
		s/^[[:space:]]+(not ok [0-9]+ .*)/# kunit: FAILED: \1/p' /tmp/kunit.out
	# what the tests measured or saw (kunit_info), as TAP comments
	grep -E '^[[:space:]]+# .*: ' /tmp/kunit.out | sed 's/^[[:space:]]*/# kunit: /'
	check_output "kunit: $2 plans $3 test cases" \
		"^[[:space:]]+1\\.\\.$3\$" cat /tmp/kunit.out
	if [ "$_pass" = "$3" ] && [ "$_fail" = 0 ]; then
		tap_ok "kunit: all $3 test cases of $2 passed"
	else
		tap_not_ok "kunit: all $3 test cases of $2 passed ($_pass passed, $_fail failed)"
		tap_diag /tmp/kunit.out
	fi
	if [ "$4" = 1 ]; then
		tap_ok "kunit: $2: $_skip skipped, as this kernel allows"
	elif [ "$_skip" = 0 ]; then
		tap_ok "kunit: $2: no test case skipped"
	else
		tap_not_ok "kunit: $2: $_skip test cases skipped"
	fi
	check_output "kunit: $2's own result is ok" \
		"^ok [0-9]+ $2\$" cat /tmp/kunit.out
	unload_module "$1"
}

# klog_restart DESCRIPTION: check_klog_clean DESCRIPTION, then empty the
# kernel log (dmesg -c) and start the counts of klog_mark, check_klog_clean
# and dt_start from there. They find their lines by counting the lines
# dmesg prints, which stops working once the ring wraps (128 KiB on
# Debian's kernels, CONFIG_LOG_BUF_SHIFT=17): every later mark then points
# past the end. A suite that logs much (dmatest's data errors dump dozens
# of lines each) calls this between its groups; nothing is lost unchecked,
# and the serial console keeps the whole log.
klog_restart() {
	check_klog_clean "$1"
	dmesg -c > /dev/null
	KLOG_MARK=0
	KLOG_CLEAN_MARK=0
	DT_MARK=0
}
