#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of scripts/bench-overhead.sh (busybox sh, in the test VM):
#   sh tests/bench/overhead.sh TOOL_OPTIONS...
# runs one dmaengine cell on soft_dma in its nocopy mode (descriptors
# complete without copying), every DMA prep mode this kernel has, and
# prints the tool's JSON.

. "$PROJECT/tests/lib.sh"
load_module dma_map_benchmark && load_module soft_dma channels=4 || exit 1
sd_knob nocopy 1 || exit 1
prep=memcpy
have_memcpy_sg && prep=$prep,memcpy_sg
have_memcpy_vec && prep=$prep,memcpy_vec
"$TOOL" -m dmaengine --prep-modes "$prep" "$@" --json
