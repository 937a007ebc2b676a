#!/bin/bash
# The patched debug kernel behind QEMU's Intel IOMMU in strict mode, in the
# debug scope (as x86-debug.t): the map modes and the extended map
# interface under DMA-API debugging, KASAN, kmemleak and lockdep, fault
# injection and the ioctl fuzzer, then a leak and report check of the whole
# boot (the tool suite runs on the stock kernel behind the IOMMU,
# x86-iommu.t, and on the bench kernel). This kernel carries
# kernel/patches/v7.3-dma-debug: without it, dma-debug reports "cacheline
# tracking EEXIST" for concurrent mappings of more than 32 pages here (the
# map suite checks for exactly that).
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86-debug iommu \
	map map_ext faults health
