#!/bin/bash
# Debian's stock 6.12 kernel, DMA configuration: swiotlb.
exec "$(dirname "$0")/vm-suite.sh" x86 swiotlb map map_ext tool dmaengine soft_dma
