#!/bin/bash
# Debian's stock 6.12 kernel, DMA configuration: direct.
exec "$(dirname "$0")/vm-suite.sh" x86 direct map map_ext tool dmaengine soft_dma \
	soft_dma_personalities migrate_tool
