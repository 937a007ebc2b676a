#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench-soft-dma.sh (busybox sh, in the test VM):
#   sh tests/bench/soft-dma.sh ROUNDS ITERATIONS
# prints "RESULT 0 cpus N", then per round "RESULT ROUND NAME KB/s" for
# ref1, dmatest, ref16, tool, engine, tool2 and tool4 (the host script
# says what each measures).

. "$PROJECT/tests/lib.sh"
ROUNDS=$1
ITER=$2
SIZE=2097152
BUF=$((SIZE + 4096))

# cpu_kbps ITERATIONS BUFFERS: KB/s of the benchmark's CPU copy of
# ITERATIONS 2 MiB folios, cycling through BUFFERS pairs
cpu_kbps() {
	tool_kbps cpu 1 "$2" $(($1 * SIZE))
}

# the dmatest threads' KB/s, summed
dt_kbps() {
	grep -o '[0-9]* KB/s' "$DT_LOG" | awk '{ s += $1 } END { print s + 0 }'
}

# soft_dma's copy rate from its stats (columns found by name): KB/s
engine_kbps() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ b += $c["bytes"]; t += $c["busy_ns"] }
		END { printf "%d\n", t ? b / 1024 / (t / 1e9) : 0 }' "$SD_STATS"
}

# tool_kbps PREP CHANNELS SGE BYTES: aggregate KB/s of the dmaengine mode,
# one batch of SGE 2 MiB folios reused
tool_kbps() {
	"$TOOL" -m dmaengine -D "$SD_DEV" -p "$1" -c "$2" -f 2M --sge "$3" \
		--bytes-per-channel "$4" --buffers reuse -r 2 -w 1 --csv > /tmp/tool.csv || {
		echo "tool failed" >&2
		cat /tmp/tool.csv >&2
		return 1
	}
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%d\n", $c["gbps_mean"] * 1e9 / 1024 }' /tmp/tool.csv
}

sd_load || exit 1
load_module dma_map_benchmark || exit 1
echo "RESULT 0 cpus $(nproc)"
c0=$(sd_chan 0)
r=1
while [ "$r" -le "$ROUNDS" ]; do
	echo "RESULT $r ref1 $(cpu_kbps "$ITER" 1)"
	if ! dt_run chan="$c0" iterations="$ITER" noverify=1 norandom=1 \
		test_buf_size="$BUF" transfer_size="$SIZE" >/dev/null ||
	   ! dt_expect 1 "$ITER" 0 >/dev/null; then
		echo "dmatest failed"
		cat "$DT_LOG"
		exit 1
	fi
	echo "RESULT $r dmatest $(dt_kbps)"
	dt_release
	echo "RESULT $r ref16 $(cpu_kbps 128 16)"
	sd_stats_reset
	kb=$(tool_kbps memcpy 1 16 128M) || exit 1
	echo "RESULT $r tool $kb"
	echo "RESULT $r engine $(engine_kbps)"
	for ch in 2 4; do
		kb=$(tool_kbps memcpy "$ch" 16 128M) || exit 1
		echo "RESULT $r tool$ch $kb"
	done
	r=$((r + 1))
done
sd_unload
