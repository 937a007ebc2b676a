#!/bin/bash
# The patched debug kernel behind QEMU's Intel IOMMU in strict mode: the
# map modes, the extended map interface and the tool under DMA-API
# debugging, KASAN, kmemleak and lockdep, fault injection and the ioctl
# fuzzer, then a leak and report check of the whole boot. This kernel carries kernel/patches/v6.12-dma-debug: without
# it, dma-debug reports "cacheline tracking EEXIST" for concurrent mappings
# of more than 32 pages here (the map suite checks for exactly that).
exec "$(dirname "$0")/vm-suite.sh" x86-debug iommu map map_ext tool faults health
