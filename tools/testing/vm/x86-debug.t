#!/bin/bash
# The patched debug kernel (DMA_MEMCPY_SG and memcpy_vec restored, KASAN,
# kmemleak, lockdep, DMA-API debug, fault injection, 2 NUMA nodes) with the
# direct mapping, in the debug scope (tools/testing/guest/lib.sh's
# scope_full): the KUnit tests, the map modes and the extended map
# interface, the NUMA suite, page migration's copy offload (dma_migrate.ko
# under KASAN, lockdep and DMA-API debugging), fault injection and the
# ioctl fuzzer, then a leak and report check of the whole boot.
# x86-debug-dmaengine.t runs the dmaengine mode and soft_dma on the same
# kernel in a VM of its own, so that the two halves run side by side
# (scripts/check.sh: two VMs at once); the matrices, the tool suite, the
# tool's migrate mode (userspace, which these checkers do not watch; its
# refusal without THP is migrate.t's) and the ABI suite (tools against
# modules, which no checker here adds to) run on the bench kernel,
# x86-bench.t; x86-debug-iommu.t runs the map modes behind the IOMMU.
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86-debug direct \
	kunit map map_ext numa migrate faults health
