#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's own DMA engine test, drivers/dma/dmatest.c, as an
# out-of-tree module for a kernel that does not ship it (Debian does not
# build CONFIG_DMATEST).
#
# usage: build-dmatest.sh KDIR SRCDIR OUTDIR   (see build-in-tree-module.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: $0 KDIR SRCDIR OUTDIR"
exec "$(dirname "$0")/build-in-tree-module.sh" "$@" drivers/dma/dmatest.c CONFIG_DMATEST
