#!/bin/bash
# Debian's stock 6.12 kernel, DMA configuration: iommu.
exec "$(dirname "$0")/vm-suite.sh" x86 iommu map map_ext tool dmaengine soft_dma
