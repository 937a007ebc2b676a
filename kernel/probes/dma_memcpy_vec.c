// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_DMA_MEMCPY_VEC: the DMA_MEMCPY_VEC API (kernel/patches/v7.3 0007). */
#include <linux/dmaengine.h>

struct dma_async_tx_descriptor *probe(struct dma_chan *chan,
				      const struct dma_vec *vec);
struct dma_async_tx_descriptor *probe(struct dma_chan *chan,
				      const struct dma_vec *vec)
{
	BUILD_BUG_ON(DMA_MEMCPY_VEC == DMA_MEMCPY_SG);
	return chan->device->device_prep_dma_memcpy_vec ?
	       dmaengine_prep_dma_memcpy_vec(chan, vec, 1, vec, 1, 0) : NULL;
}
