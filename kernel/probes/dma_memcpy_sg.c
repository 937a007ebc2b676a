// SPDX-License-Identifier: GPL-2.0-only
/* HAVE_DMA_MEMCPY_SG: the DMA_MEMCPY_SG API (removed from mainline in 6.0). */
#include <linux/dmaengine.h>

struct dma_async_tx_descriptor *probe(struct dma_chan *chan,
				      struct scatterlist *sg);
struct dma_async_tx_descriptor *probe(struct dma_chan *chan,
				      struct scatterlist *sg)
{
	BUILD_BUG_ON(DMA_MEMCPY_SG == DMA_MEMCPY);
	return chan->device->device_prep_dma_memcpy_sg ?
	       dmaengine_prep_dma_memcpy_sg(chan, sg, 1, sg, 1, 0) : NULL;
}
