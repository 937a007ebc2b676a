# SPDX-License-Identifier: GPL-2.0-only
# The real tool against the real module: upstream's output lines for the map
# modes, the dmaengine table, CSV and JSON, and the messages a user gets
# when something is missing or wrong.

tool_map_sg() {
	"$TOOL" -m sg -g 8 -t 2 -s 1 -d 2 > /tmp/tool.out &&
	lines_match /tmp/tool.out \
		'^dma mapping benchmark\(SG_MODE\): threads:2 seconds:1 node:-1 dir:FROM_DEVICE granule:8$' \
		'^average map latency\(us\):[0-9]+\.[0-9] standard deviation:[0-9]+\.[0-9]$' \
		'^average unmap latency\(us\):[0-9]+\.[0-9] standard deviation:[0-9]+\.[0-9]$'
}

# without -m: Linux 6.12's lines
tool_map_single() {
	"$TOOL" -g 4 -s 1 > /tmp/tool.out &&
	lines_match /tmp/tool.out \
		'^dma mapping benchmark: threads:1 seconds:1 node:-1 dir:BIDIRECTIONAL granule: 4$' \
		'^average map latency' '^average unmap latency'
}

# upstream 7.3's tool (tools/dma/, the sg series' tool merged), unchanged,
# built against 7.3's uapi header (scripts/build-upstream-tools.sh)
UPSTREAM_73=$PROJECT/bin/upstream_7.3_dma_map_benchmark

# upstream_73_lines HEADER ARGS...: 7.3's tool exits 0 and prints three
# lines: HEADER (a pattern), then the map and unmap latencies with numbers
upstream_73_lines() {
	_h=$1
	shift
	output_in /tmp/up73.out "$UPSTREAM_73" "$@" &&
	expect_value "lines" "$(wc -l < /tmp/up73.out)" -eq 3 &&
	lines_match /tmp/up73.out "$_h" \
		'^average map latency\(us\):[0-9]+\.[0-9] standard deviation:[0-9]+\.[0-9]$' \
		'^average unmap latency\(us\):[0-9]+\.[0-9] standard deviation:[0-9]+\.[0-9]$'
}

# same_lines_as_73 ARGS...: 7.3's tool and ours both succeed and print the
# same lines, latency figures aside (two runs never time the same)
same_lines_as_73() {
	output_in /tmp/up73.out "$UPSTREAM_73" "$@" &&
	output_in /tmp/ours.out "$TOOL" "$@" || return 1
	sed 's/[0-9]*\.[0-9]/N/g' /tmp/up73.out > /tmp/up73.lines
	sed 's/[0-9]*\.[0-9]/N/g' /tmp/ours.out > /tmp/ours.lines
	expect_value "7.3's lines" "$(wc -l < /tmp/up73.lines)" -eq 3 &&
	cmp /tmp/up73.lines /tmp/ours.lines
}

# upstream_73_calls MODE EVENT NOT_EVENT: 7.3's tool with -m MODE makes
# the module call EVENT (a dma trace event), and never NOT_EVENT: the
# map_mode byte reached the kernel
upstream_73_calls() {
	trace_run dma "$UPSTREAM_73" -m "$1" -g 4 -s 1 || return 1
	_n=$(grep -c " $2:" /tmp/trace.out)
	_not=$(grep -c " $3:" /tmp/trace.out)
	expect_value "$2 events" "$_n" -gt 0 && expect_value "$3 events" "$_not" -eq 0
}

# A refused value exits STATUS (1 for upstream's options, as upstream's
# tool; 2 for the others) and never reaches the kernel.
tool_refuses() {	# tool_refuses STATUS PATTERN ARGS...
	_st=$1
	_pat=$2
	shift 2
	klog_mark
	output_in /tmp/tool.out "$TOOL" "$@"
	[ $? = "$_st" ] && grep -Eq -- "$_pat" /tmp/tool.out &&
		[ -z "$(klog_since_mark | grep dma_map_benchmark)" ]
}

TOOL_DE="-m dmaengine --sge 16 --bytes-per-channel 1M --runs 3 --warmup-runs 1"

tool_dmaengine_table() {	# tool_dmaengine_table PREP ROWS ARGS...
	_prep=$1
	_rows=$2
	shift 2
	# shellcheck disable=SC2086
	output_in /tmp/tool.out "$TOOL" $TOOL_DE --prep-modes "$_prep" "$@" &&
	grep -Eq '^mode +chan folio sge run_ms +prep_ms +submit_ms +issue_ms +wait_ms +map_ms +unmap_ms +(copy_ms +)?prep_calls +GB/s' /tmp/tool.out &&
	grep -Eq '^# channels: dma[0-9]+chan[0-9]+ \(soft_dma' /tmp/tool.out &&
	[ "$(grep -Ec '^prep_memcpy(_sg)? +[0-9]+ +4KB +16 +[0-9.]+ ± [0-9.]+' /tmp/tool.out)" = "$_rows" ]
}

suite_tool() {
	check "tool: --help lists the modes" sh -c "$TOOL --help | grep -q dmaengine"
	check_output "tool: --version" '[0-9a-f]|unknown' "$TOOL" --version

	# what a user sees when something is missing
	unload_module dma_map_benchmark
	check_fails_with "tool: module not loaded: says insmod" \
		'module is not loaded: insmod dmacopy.ko, then dma_map_benchmark.ko' "$TOOL" -s 1
	load_module dma_map_benchmark
	check_fails_with "tool: no device bound: prints the binding commands" \
		'echo dma_map_benchmark > /sys/bus/pci/devices/.*/driver_override' \
		"$TOOL" -s 1
	umount /sys/kernel/debug
	check_fails_with "tool: debugfs not mounted: says how to mount it" \
		'debugfs is not mounted: mount -t debugfs none /sys/kernel/debug' \
		"$TOOL" -s 1
	mount -t debugfs debugfs /sys/kernel/debug

	# invalid values: a message naming the option, no ioctl; exit 1 for
	# upstream's options as upstream's tool, 2 for the others
	# (DESCRIPTION|STATUS|PATTERN|OPTIONS)
	while IFS='|' read -r _d _st _p _o; do
		check "tool: $_d" tool_refuses "$_st" "$_p" $_o < /dev/null
	done <<'EOF'
--threads 0 refused before the ioctl, exit 1|1|invalid --threads '0': must be 1\.\.1024|-t 0
-g 65537 refused, exit 1|1|invalid --granule '65537'|-g 65537
-m bogus refused, exit 1|1|invalid --mode 'bogus'|-m bogus
--sge 0 refused, exit 2|2|invalid --sge '0'|-m dmaengine --sge 0
--folio 3K refused, exit 2|2|invalid --folio '3K'|-m dmaengine --folio 3K
EOF

	check "tool: bind the benchmark" bind_benchmark
	check "tool: sg mode prints upstream's lines" tool_map_sg
	check "tool: without -m, upstream 6.12's lines" tool_map_single

	# upstream 7.3's tool, unchanged, against the module (6.12's: the
	# map suite); with -m our lines are its lines
	check "tool: upstream 7.3's tool, -m 1: its SG_MODE lines" \
		upstream_73_lines '^dma mapping benchmark\(SG_MODE\): threads:2 seconds:1 node:-1 dir:FROM_DEVICE granule:8$' \
		-m 1 -g 8 -t 2 -s 1 -d 2
	check "tool: upstream 7.3's tool, -m 0: its SINGLE_MODE lines" \
		upstream_73_lines '^dma mapping benchmark\(SINGLE_MODE\): threads:1 seconds:1 node:-1 dir:TO_DEVICE granule:64$' \
		-m 0 -g 64 -s 1 -d 1
	check "tool: upstream 7.3's tool without -m: SINGLE_MODE" \
		upstream_73_lines '^dma mapping benchmark\(SINGLE_MODE\): threads:1 seconds:1 node:-1 dir:BIDIRECTIONAL granule:1$' \
		-s 1
	check "tool: -m 1: our lines are upstream 7.3's tool's" \
		same_lines_as_73 -m 1 -g 8 -t 2 -s 1 -d 2
	check "tool: -m 0: our lines are upstream 7.3's tool's" \
		same_lines_as_73 -m 0 -g 4 -s 1 -d 2
	if [ -d $TRACING/events/dma ]; then
		_mp=$(map_page_event)
		check "tool: upstream 7.3's -m 1 maps with dma_map_sg, not $_mp" \
			upstream_73_calls 1 dma_map_sg "$_mp"
		check "tool: upstream 7.3's -m 0 maps with $_mp, not dma_map_sg" \
			upstream_73_calls 0 "$_mp" dma_map_sg
		trace_reset
	else
		tap_skip "tool: no dma trace events in this kernel"
	fi
	# 1024 threads of 1024 pages each (4 GiB) do not fit this guest: the
	# kernel refuses before allocating, the tool says why, nothing stays
	klog_mark
	check_fails_with "tool: -t 1024 -g 1024 refused up front with ENOMEM" \
		'DMA_MAP_BENCHMARK failed: Cannot allocate memory; .*threads x granule' \
		"$TOOL" -t 1024 -g 1024 -s 1
	check_klog_has "tool: ... the kernel log gives the sizes" \
		'threads 1024 = [0-9]+ MiB: more than 3/4 of the [0-9]+ MiB available'
	check "tool: ... and the next run works" tool_map_single
	check_output "tool: map mode --json" '"map_us": *\{ *"mean"' \
		"$TOOL" -m sg -g 4 -s 1 --json
	check "tool: the cache-sync reference command" cache_sync_reference
	check "tool: unbind" unbind_benchmark

	# the dmaengine mode needs no bound device
	check "tool: soft_dma loads" load_module soft_dma channels=4
	check "tool: dmaengine table, per-segment memcpy, 2 channels, verified" \
		tool_dmaengine_table memcpy 1 --channels 2 --verify
	# its outputs (DESCRIPTION|PATTERN|OPTIONS after $TOOL_DE)
	while IFS='|' read -r _d _p _o; do
		check_output "tool: $_d" "$_p" "$TOOL" $TOOL_DE $_o < /dev/null
	done <<'EOF'
dmaengine --csv|^prep_memcpy,1,0,4096,16,1,distinct,,3,1048576,256,|--prep-modes memcpy --csv
dmaengine --prep-modes cpu: the CPU copy's row|^cpu +1 +4KB +16 +[0-9.]+ ± [0-9.]+ +- |--prep-modes cpu
dmaengine --buffers reuse --depth 4 --cpus 0|; buffers reuse, depth 4, cpus 0$|--prep-modes memcpy --buffers reuse --depth 4 --cpus 0
dmaengine --json names the results|"prep_mode": *"prep_memcpy"|--prep-modes memcpy --json
--per-channel rows|dma[0-9]+chan[0-9]+|--prep-modes memcpy --channels 2 --per-channel
EOF
	if have_memcpy_sg; then
		check "tool: both prep modes in one table" \
			tool_dmaengine_table both 2 --channels 2 --verify
		check_output "tool: memcpy_sg makes sge times fewer prep calls" \
			'^prep_memcpy_sg,1,0,4096,16,1,distinct,,3,1048576,16,' \
			"$TOOL" $TOOL_DE --prep-modes memcpy_sg --csv
		check_output "tool: no --prep-modes: the three modes" \
			'^cpu +1 ' "$TOOL" $TOOL_DE
	else
		check_fails_with "tool: memcpy_sg on a stock kernel says why" \
			'no dmaengine_prep_dma_memcpy_sg\(\): see kernel/patches/ in the project' \
			"$TOOL" $TOOL_DE --prep-modes both
		check_output "tool: no --prep-modes on a stock kernel: memcpy and cpu, memcpy_sg said missing" \
			'^# not run: prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg\(\)' \
			"$TOOL" $TOOL_DE
	fi
	check_fails_with "tool: too many channels: says --allow-fewer" \
		'--allow-fewer' "$TOOL" $TOOL_DE --prep-modes memcpy --channels 64
	check_fails_with "tool: a stalled channel: says timeout and which channel" \
		'(time|timed out).*dma[0-9]+chan0|dma[0-9]+chan0.*(time|timed out)' \
		sd_with stall_channel=0 "$TOOL" $TOOL_DE --prep-modes memcpy --timeout-ms 300 \
		--channel "$(sd_chan 0)"
	check "tool: soft_dma unloads" unload_module soft_dma
	check "tool: benchmark unloads" unload_module dma_map_benchmark
	check_klog_clean "tool"
}
