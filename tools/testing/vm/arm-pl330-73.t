#!/bin/bash
# The patched 7.3 kernel (cross-built, lockdep, DMA-API debug) on QEMU's
# Exynos4210 (SMDKC210): the dmaengine mode with memcpy and memcpy_sg on the
# PL330, dmatest, the map modes on a non-coherent device.
# A hung guest fails at 20 minutes.
VM_TIMEOUT=${VM_TIMEOUT:-1200} exec "$(dirname "$0")/vm-suite.sh" arm-exynos4210-73 direct hwdma
