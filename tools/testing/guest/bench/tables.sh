#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench.sh (busybox sh, in the test VM):
#   sh tests/bench/tables.sh [-n] "CHANNELS" "DEPTHS" TOOL_OPTIONS...
# prints the tool's dmaengine table for each depth and channel count, on
# soft_dma (-n: in its nocopy mode) or, on a board whose machine names
# HWDMA_DRIVER, on that driver's channels (HWDMA_DEVICE's if it names one).
# Without --prep-modes in TOOL_OPTIONS the tool runs every mode the kernel has
# and names those it lacks.

. "$PROJECT/tests/lib.sh"
nocopy=0
if [ "$1" = -n ]; then
	nocopy=1
	shift
fi
chans=$1
depths=$2
shift 2

load_module dma_map_benchmark || exit 1
dev=
if [ -n "${HWDMA_DRIVER:-}" ]; then
	# a built-in driver may still be probing
	hw_load_modules || exit 1
	dev=${HWDMA_DEVICE:+-D $HWDMA_DEVICE}
	echo "# $HWDMA_DRIVER${HWDMA_DEVICE:+ on $HWDMA_DEVICE}"
	[ "$nocopy" = 0 ] || echo '# -n ignored: the engine of a board copies'
else
	# shellcheck disable=SC2086 # a list of channel counts
	load_module soft_dma "channels=$(largest $chans)" || exit 1
	if [ "$nocopy" = 1 ]; then
		sd_knob nocopy 1 || exit 1
		echo '# soft_dma nocopy'
	fi
fi
for d in $depths; do
	for c in $chans; do
		# shellcheck disable=SC2086
		"$TOOL" -m dmaengine --channels "$c" $dev --depth "$d" "$@" || exit 1
		echo
	done
done
