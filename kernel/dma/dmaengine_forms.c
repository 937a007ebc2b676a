// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine client's prep forms: how a batch of mapped source and
 * destination tables becomes descriptors. Per-segment memcpy (one
 * descriptor per piece), memcpy_sg (one for the batch, over the tables)
 * and memcpy_vec (one for the batch, over dma_vec arrays built from the
 * tables). Whether this kernel has the APIs of the last two is decided
 * here, and only here (HAVE_DMA_MEMCPY_SG, HAVE_DMA_MEMCPY_VEC from the
 * build probes); every prep is submitted through
 * dmaengine_client_prep_submit(), which keeps the providers' contracts.
 */

#include <linux/dmaengine.h>
#include <linux/scatterlist.h>

#include "dmaengine_client_priv.h"

/* Per-segment: one descriptor per piece of the mapped tables. */
static int dmaengine_client_batch_pieces(struct dmaengine_client_batch *b)
{
	struct scatterlist *sg = b->src->sgl, *dg = b->dst->sgl;
	unsigned int s_left = b->src->nents, d_left = b->dst->nents;
	dma_addr_t s_addr = sg_dma_address(sg), d_addr = sg_dma_address(dg);
	unsigned int s_len = sg_dma_len(sg), d_len = sg_dma_len(dg);
	struct dmaengine_client_piece piece;
	int ret;

	for (;;) {
		bool last;

		piece.dst = d_addr;
		piece.src = s_addr;
		piece.len = min3(s_len, d_len, b->c->seg.max);
		last = s_len == piece.len && s_left == 1;
		ret = dmaengine_client_prep_submit(b, &piece, last);
		if (ret || last)
			return ret;

		s_addr += piece.len;
		s_len -= piece.len;
		d_addr += piece.len;
		d_len -= piece.len;
		if (!s_len) {
			sg = sg_next(sg);
			s_left--;
			s_addr = sg_dma_address(sg);
			s_len = sg_dma_len(sg);
		}
		if (!d_len) {
			dg = sg_next(dg);
			if (WARN_ON_ONCE(!--d_left))
				return -EOVERFLOW;
			d_addr = sg_dma_address(dg);
			d_len = sg_dma_len(dg);
		}
	}
}

static struct dma_async_tx_descriptor *
dmaengine_client_prep_memcpy(struct dmaengine_client_batch *b,
			     const struct dmaengine_client_piece *piece,
			     unsigned long flags)
{
	return dmaengine_prep_dma_memcpy(b->c->chan, piece->dst, piece->src,
					 piece->len, flags);
}

#ifdef HAVE_DMA_MEMCPY_SG
/* One descriptor for the whole batch. */
static int dmaengine_client_batch_whole(struct dmaengine_client_batch *b)
{
	return dmaengine_client_prep_submit(b, NULL, true);
}

static struct dma_async_tx_descriptor *
dmaengine_client_prep_memcpy_sg(struct dmaengine_client_batch *b,
				const struct dmaengine_client_piece *piece,
				unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_sg(b->c->chan, b->dst->sgl,
					    b->dst->nents, b->src->sgl,
					    b->src->nents, flags);
}
#endif

#ifdef HAVE_DMA_MEMCPY_VEC
static void dmaengine_client_table_to_vecs(const struct sg_table *sgt,
					   struct dma_vec *v)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		v[i].addr = sg_dma_address(sg);
		v[i].len = sg_dma_len(sg);
	}
}

/*
 * memcpy_vec takes arrays of mapped segments where memcpy_sg takes the
 * tables: building them is work only this form asks of its caller, timed
 * in the prep phase and on its own.
 */
static int dmaengine_client_batch_vecs(struct dmaengine_client_batch *b)
{
	ktime_t t0 = ktime_get();
	u64 ns;

	dmaengine_client_table_to_vecs(b->src, b->src_vecs);
	dmaengine_client_table_to_vecs(b->dst, b->dst_vecs);
	ns = mb_elapsed_ns(t0);
	b->c->fig.convert_ns += ns;
	b->c->fig.prep_ns += ns;
	return dmaengine_client_prep_submit(b, NULL, true);
}

static struct dma_async_tx_descriptor *
dmaengine_client_prep_memcpy_vec(struct dmaengine_client_batch *b,
				 const struct dmaengine_client_piece *piece,
				 unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_vec(b->c->chan, b->dst_vecs,
					     b->dst->nents, b->src_vecs,
					     b->src->nents, flags);
}
#endif

static const struct dmaengine_client_form dmaengine_client_forms[DMAENGINE_BENCH_NR_MODES] = {
	[DMAENGINE_BENCH_MODE_MEMCPY] = {
		.name = "prep_memcpy",
		.call = "prep_dma_memcpy",
		.have_api = true,
		.cap = DMA_MEMCPY,
		.cap_name = "DMA_MEMCPY",
		.batch = dmaengine_client_batch_pieces,
		.prep = dmaengine_client_prep_memcpy,
	},
	[DMAENGINE_BENCH_MODE_MEMCPY_SG] = {
		.name = "prep_memcpy_sg",
		.call = "prep_dma_memcpy_sg",
#ifdef HAVE_DMA_MEMCPY_SG
		.have_api = true,
		.cap = DMA_MEMCPY_SG,
		.batch = dmaengine_client_batch_whole,
		.prep = dmaengine_client_prep_memcpy_sg,
#endif
		.cap_name = "DMA_MEMCPY_SG",
		.api = "dmaengine_prep_dma_memcpy_sg() (removed from mainline in 6.0)",
	},
	[DMAENGINE_BENCH_MODE_MEMCPY_VEC] = {
		.name = "prep_memcpy_vec",
		.call = "prep_dma_memcpy_vec",
#ifdef HAVE_DMA_MEMCPY_VEC
		.have_api = true,
		.cap = DMA_MEMCPY_VEC,
		.vecs = true,
		.batch = dmaengine_client_batch_vecs,
		.prep = dmaengine_client_prep_memcpy_vec,
#endif
		.cap_name = "DMA_MEMCPY_VEC",
		.api = "dmaengine_prep_dma_memcpy_vec() (not in mainline)",
	},
};

/**
 * dmaengine_client_form - the prep form of a DMAENGINE_BENCH_MODE_*
 * @mode: the mode
 *
 * Return: the form, whether or not this kernel has its API (->have_api);
 * NULL for a mode that is not a prep form (the CPU's copy) or unknown.
 */
const struct dmaengine_client_form *dmaengine_client_form(unsigned int mode)
{
	if (mode >= DMAENGINE_BENCH_NR_MODES ||
	    !dmaengine_client_forms[mode].name)
		return NULL;
	return &dmaengine_client_forms[mode];
}

