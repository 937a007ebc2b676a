#!/bin/bash
# The patched kernel built for speed (build-debug-kernel.sh --flavor bench:
# DMA_MEMCPY_SG and memcpy_vec, no KASAN, kmemleak, lockdep or DMA-API
# debugging; the main job's machine, x86-bench) with the direct mapping
# and two emulated NUMA nodes: the functional matrices of the patched API
# in the full scope, every prep form (memcpy_sg and memcpy_vec included)
# x channels x folio orders x layouts x depths x buffers, the soft_dma
# knobs and personalities, the tool's output formats, the numa suite
# across the two nodes, and of page migration's copy offload what only
# this kernel shows (the hook of kernel/patches/v7.3-migrate, with THP and
# NUMA balancing: the tool's offload rows at folio orders 4 and 9,
# migrate_balancing), after soft_dma's suites (run before them, the
# migrate suites left soft_dma's rebind check with dmatest on 3 of 8
# channels, twice: not understood yet, Documentation/testing.rst); then a
# report check of the whole boot; the ABI suite (the tool of the first
# results layout against this module, this tool against that layout's
# module). The debug kernel (x86-debug.t) runs one pass of each of the
# kernel's suites with its checkers, and the whole migrate suite.
VM_EXTRA_APPEND=numa=fake=2 exec "$(dirname "$0")/vm-suite.sh" x86-bench direct \
	map map_ext tool dmaengine numa soft_dma soft_dma_personalities \
	migrate_balancing migrate_tool abi health
