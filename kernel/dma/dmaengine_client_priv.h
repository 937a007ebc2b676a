/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the dmaengine client: what its own files (dmaengine_client.c,
 * dmaengine_forms.c, dmaengine_set.c) share and its callers never call.
 */
#ifndef _KERNEL_DMA_DMAENGINE_CLIENT_PRIV_H
#define _KERNEL_DMA_DMAENGINE_CLIENT_PRIV_H

#include "dmaengine_client.h"

bool dmaengine_client_quiesce(struct dmaengine_client_chan *c);
void dmaengine_client_batch_free(struct dmaengine_client_batch *b);

/*
 * For a prep form's ->batch: prepare one descriptor (@piece, or the whole
 * batch with NULL) and submit it, the last of the batch with @last.
 */
int dmaengine_client_prep_submit(struct dmaengine_client_batch *b,
				 const struct dmaengine_client_piece *piece,
				 bool last);

#endif /* _KERNEL_DMA_DMAENGINE_CLIENT_PRIV_H */
