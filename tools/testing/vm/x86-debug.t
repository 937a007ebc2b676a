#!/bin/bash
# The patched debug kernel (DMA_MEMCPY_SG restored, KASAN, kmemleak, lockdep,
# DMA-API debug, fault injection, 2 NUMA nodes), behind QEMU's IOMMU for
# the map modes: every suite, memcpy_sg included, then fault injection, the
# ioctl fuzzer, and a leak and report check of the whole boot.
exec "$(dirname "$0")/vm-suite.sh" x86-debug iommu \
	map map_ext tool dmaengine numa soft_dma faults health
