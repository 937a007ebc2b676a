#!/bin/bash
# The patched debug kernel with the direct mapping, in the debug scope: the
# dmaengine mode (one pass of each prep form verified, every error path,
# the unbinding of the provider mid-run) and soft_dma (its personalities
# under lockdep, its knobs), then a leak and report check of the whole
# boot. The other half of the debug kernel's suites is x86-debug.t.
GUEST_SCOPE=${GUEST_SCOPE:-debug} exec "$(dirname "$0")/vm-suite.sh" x86-debug direct \
	dmaengine soft_dma soft_dma_personalities health
