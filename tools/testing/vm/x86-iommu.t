#!/bin/bash
# Debian's stock 6.12 kernel behind QEMU's Intel IOMMU, in the debug scope:
# the map suites, whose device (the edu PCI device) the IOMMU translates.
# The dmaengine and soft_dma suites do not run here: soft_dma is a
# platform device, which the IOMMU does not translate (soft_dma refuses a
# translated device), so they would repeat x86-direct.t's on the same
# kernel and mappings; x86-swiotlb.t runs them with bounce buffers, which
# do change their mappings.
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86 iommu \
	map map_ext
