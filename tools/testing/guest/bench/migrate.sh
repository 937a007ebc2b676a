#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench.sh -g (busybox sh, in the test VM):
#   sh tests/bench/migrate.sh "CHANNELS" "ORDERS" "SOFT_DMA_MODES" \
#       "MOVERS" MOVER_BYTES TOOL_OPTIONS...
# the tool's -m migrate (move_pages() node 0 -> node 1, the cpu row and a
# row per prep mode of the offload) for each soft_dma mode (copy: it
# copies; nocopy: it completes without copying, what the offload path
# itself costs), folio order and channel count: a line
# "@migrate SOFT_DMA_MODE JSON" each, the tool's JSON on one line, and the
# cell on stderr as it starts. Then, in the first soft_dma mode, the
# concurrent migrations: for each count of MOVERS ("" none), --movers
# that many, each moving MOVER_BYTES of 4 KB folios of its own, over 4
# channels: a line "@movers SOFT_DMA_MODE JSON" each. After each table,
# "@time TAG SECONDS": how long its cells took in the guest (what a
# longer run's time is estimated from). Needs the hook
# (kernel/patches/v7.3-migrate, the x86 bench kernel) and two NUMA nodes
# (numa=fake=2).

. "$PROJECT/tests/lib.sh"
chans=$1
orders=$2
sdmodes=$3
movers=$4
mover_bytes=$5
shift 5
# the concurrent migrations' channels
mchans=4

if [ ! -d /sys/devices/system/node/node1 ]; then
	echo "migrate: this VM has one NUMA node; boot it with numa=fake=2" >&2
	exit 1
fi
# the offload the tool drives: dma_migrate.ko (after dmacopy.ko)
load_module dma_migrate || exit 1
# shellcheck disable=SC2086 # a list of channel counts
load_module soft_dma "channels=$(largest $chans ${movers:+$mchans})" || exit 1

# sd_mode MODE: soft_dma copying or not; the tool's option for it in $check
sd_mode() {
	check=
	case $1 in
	copy) sd_knob nocopy 0 ;;
	# the data is not copied: only the pages' nodes can be checked
	nocopy) sd_knob nocopy 1 && check=--no-pattern-check ;;
	*) echo "migrate: soft_dma mode $1: copy or nocopy" >&2; exit 2 ;;
	esac || exit 1
}

# cell TAG SOFT_DMA_MODE TOOL_ARGS...: a "@TAG SOFT_DMA_MODE JSON" line
cell() {
	_tag=$1
	_sm=$2
	shift 2
	out=$("$TOOL" -m migrate "$@") || exit 1
	printf '@%s %s %s\n' "$_tag" "$_sm" "$(printf '%s' "$out" | tr -d '\n')"
}

t0=$(date +%s)
for sm in $sdmodes; do
	sd_mode "$sm"
	for o in $orders; do
		for c in $chans; do
			echo "[bench] soft_dma $sm, folio order $o, $c channel(s)" >&2
			cell migrate "$sm" --folio-order "$o" --channels "$c" \
				$check --json "$@"
		done
	done
done
echo "@time migrate $(($(date +%s) - t0))"
# the concurrent migrations, in the first soft_dma mode; --bytes a mover's
sm=${sdmodes%% *}
[ -z "$movers" ] || sd_mode "$sm"
t0=$(date +%s)
for m in $movers; do
	echo "[bench] soft_dma $sm, $m mover(s) of $mover_bytes, $mchans channels" >&2
	cell movers "$sm" --folio-order 0 --channels "$mchans" $check --json \
		"$@" --bytes "$mover_bytes" --movers "$m"
done
[ -z "$movers" ] || echo "@time movers $(($(date +%s) - t0))"
