#!/bin/bash
# Debian's stock 6.12 kernel, DMA configuration: iommu.
exec "$(dirname "$0")/vm-suite.sh" x86 iommu map tool dmaengine soft_dma
