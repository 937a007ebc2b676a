#!/bin/bash
# The patched debug kernel (DMA_MEMCPY_SG restored, KASAN, kmemleak, lockdep,
# DMA-API debug, fault injection, 2 NUMA nodes) with the direct mapping:
# every suite, memcpy_sg included, then fault injection, the ioctl fuzzer,
# and a leak and report check of the whole boot. x86-debug-iommu.t runs the
# map modes on the same kernel behind the IOMMU.
exec "$(dirname "$0")/vm-suite.sh" x86-debug direct \
	kunit map map_ext tool dmaengine numa migrate_tool soft_dma faults health
