#!/bin/bash
# The patched debug kernel (DMA_MEMCPY_SG and memcpy_vec restored, KASAN,
# kmemleak, lockdep, DMA-API debug, fault injection, 2 NUMA nodes) with the
# direct mapping, in the debug scope (tools/testing/guest/lib.sh's
# scope_full): the KUnit tests, the kernel's suites with one pass of each
# prep form verified instead of the matrices, every error path, soft_dma's
# personalities under lockdep, the unbinding of the provider and of the
# device mid-run, kmemleak scans; then fault injection, the ioctl fuzzer,
# and a leak and report check of the whole boot. The matrices and the tool
# suite (its output formats and upstream's tools) run on the bench kernel,
# x86-bench.t. x86-debug-iommu.t runs the map modes on the same kernel
# behind the IOMMU.
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86-debug direct \
	kunit map map_ext dmaengine numa soft_dma faults health
