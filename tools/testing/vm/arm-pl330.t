#!/bin/bash
# Debian's 6.1 armmp kernel on QEMU's Exynos4210 (SMDKC210): the dmaengine
# mode and dmatest on the PL330, the map modes on a non-coherent device.
# The suite takes about two minutes: a hung guest fails at 10.
VM_TIMEOUT=${VM_TIMEOUT:-600} exec "$(dirname "$0")/vm-suite.sh" arm-exynos4210 direct hwdma
