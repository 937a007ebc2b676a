#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's Xilinx ZynqMP DMA driver (GDMA/ADMA, "ZDMA"),
# drivers/dma/xilinx/zynqmp_dma.c, as an out-of-tree module for a kernel
# that does not enable it (Debian's arm64 kernels: CONFIG_XILINX_ZYNQMP_DMA
# is not set). Its one private header is drivers/dma/dmaengine.h.
#
# usage: build-zynqmp-dma.sh KDIR SRCDIR OUTDIR   (see build-in-tree-module.sh)
[ $# -eq 3 ] || { echo "usage: $0 KDIR SRCDIR OUTDIR" >&2; exit 1; }
exec "$(dirname "$0")/build-in-tree-module.sh" "$@" drivers/dma/xilinx/zynqmp_dma.c \
	CONFIG_XILINX_ZYNQMP_DMA drivers/dma/dmaengine.h
