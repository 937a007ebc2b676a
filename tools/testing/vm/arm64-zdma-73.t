#!/bin/bash
# The patched 7.3 kernel (cross-built, KASAN, lockdep, DMA-API debug) on
# QEMU's ZynqMP ZCU102: the dmaengine mode with memcpy and memcpy_sg on
# the GDMA (ZDMA) channels, dmatest, the map modes on a non-coherent device.
# A hung guest fails at 20 minutes.
VM_TIMEOUT=${VM_TIMEOUT:-1200} exec "$(dirname "$0")/vm-suite.sh" arm64-zcu102-73 direct hwdma
