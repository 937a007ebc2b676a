#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's own DMA engine test, drivers/dma/dmatest.c, as an
# out-of-tree module for a kernel that does not ship it (Debian does not
# build CONFIG_DMATEST).
#
# usage: build-dmatest.sh KDIR SRCDIR OUTDIR   (see build-in-tree-module.sh)
[ $# -eq 3 ] || { echo "usage: $0 KDIR SRCDIR OUTDIR" >&2; exit 1; }
exec "$(dirname "$0")/build-in-tree-module.sh" "$@" drivers/dma/dmatest.c CONFIG_DMATEST
