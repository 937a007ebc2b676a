#!/bin/bash
# The patched 7.3 arm64 kernel (the ZCU102 board's, with MTE, NUMA
# emulation and the migration hook) on QEMU's virt machine with MTE: page
# migration of PROT_MTE memory with the copy offload on soft_dma. A hung
# guest fails at 15 minutes.
VM_TIMEOUT=${VM_TIMEOUT:-900} exec "$(dirname "$0")/vm-suite.sh" arm64-virt-mte-73 direct mte
