#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's Xilinx ZynqMP DMA driver (GDMA/ADMA, "ZDMA"),
# drivers/dma/xilinx/zynqmp_dma.c, as an out-of-tree module for a kernel
# that does not enable it (Debian's arm64 kernels: CONFIG_XILINX_ZYNQMP_DMA
# is not set). Its one private header is drivers/dma/dmaengine.h.
#
# usage: build-zynqmp-dma.sh KDIR SRCDIR OUTDIR   (see build-in-tree-module.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || die "usage: $0 KDIR SRCDIR OUTDIR"
exec "$(dirname "$0")/build-in-tree-module.sh" "$@" drivers/dma/xilinx/zynqmp_dma.c \
	CONFIG_XILINX_ZYNQMP_DMA drivers/dma/dmaengine.h
