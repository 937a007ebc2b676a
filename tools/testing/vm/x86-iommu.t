#!/bin/bash
# Debian's stock 6.12 kernel, DMA configuration: iommu, in the debug scope
# (one cell of each dmaengine and soft_dma matrix, which is what the DMA
# configuration changes: the mappings of the buffers; the matrices run on
# the stock kernel in x86-direct.t and on the bench kernel in x86-bench.t,
# the tool suite there too).
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86 iommu \
	map map_ext dmaengine soft_dma soft_dma_personalities
