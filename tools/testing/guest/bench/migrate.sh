#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench.sh -g (busybox sh, in the test VM):
#   sh tests/bench/migrate.sh "CHANNELS" "ORDERS" "SOFT_DMA_MODES" TOOL_OPTIONS...
# the tool's -m migrate (move_pages() node 0 -> node 1, the cpu row and a
# row per prep mode of the offload) for each soft_dma mode (copy: it
# copies; nocopy: it completes without copying, what the offload path
# itself costs), folio order and channel count: a line
# "@migrate SOFT_DMA_MODE JSON" each, the tool's JSON on one line, and the
# cell on stderr as it starts. Needs the hook (kernel/patches/v7.3-migrate,
# the x86 bench kernel) and two NUMA nodes (numa=fake=2).

. "$PROJECT/tests/lib.sh"
chans=$1
orders=$2
sdmodes=$3
shift 3

if [ ! -d /sys/devices/system/node/node1 ]; then
	echo "migrate: this VM has one NUMA node; boot it with numa=fake=2" >&2
	exit 1
fi
load_module dma_map_benchmark || exit 1
# shellcheck disable=SC2086 # a list of channel counts
load_module soft_dma "channels=$(largest $chans)" || exit 1
for sm in $sdmodes; do
	check=
	case $sm in
	copy) sd_knob nocopy 0 ;;
	# the data is not copied: only the pages' nodes can be checked
	nocopy) sd_knob nocopy 1 && check=--no-pattern-check ;;
	*) echo "migrate: soft_dma mode $sm: copy or nocopy" >&2; exit 2 ;;
	esac || exit 1
	for o in $orders; do
		for c in $chans; do
			echo "[bench] soft_dma $sm, folio order $o, $c channel(s)" >&2
			out=$("$TOOL" -m migrate --folio-order "$o" --channels "$c" \
			      $check --json "$@") || exit 1
			printf '@migrate %s %s\n' "$sm" "$(printf '%s' "$out" | tr -d '\n')"
		done
	done
done
