#!/bin/bash
# Debian's 6.1 arm64 kernel on QEMU's ZynqMP ZCU102: the dmaengine mode and
# dmatest on the GDMA (ZDMA) channels, the map modes on a non-coherent device.
# The suite takes about two minutes: a hung guest fails at 10.
VM_TIMEOUT=${VM_TIMEOUT:-600} exec "$(dirname "$0")/vm-suite.sh" arm64-zcu102 direct hwdma
