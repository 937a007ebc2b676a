// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's prep forms: how a batch of mapped source and
 * destination tables becomes descriptors. Per-segment memcpy (one
 * descriptor per piece), memcpy_sg (one for the batch, over the tables)
 * and memcpy_vec (one for the batch, over dma_vec arrays built from the
 * tables). Whether this kernel has the APIs of the last two is decided
 * here, and only here (HAVE_DMA_MEMCPY_SG, HAVE_DMA_MEMCPY_VEC from the
 * build probes); every prep is submitted through
 * dmacopy_prep_submit(), which keeps the providers' contracts.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dmaengine.h>
#include <linux/export.h>
#include <linux/scatterlist.h>

#include "internal.h"

/* Per-segment: one descriptor per piece of the mapped tables. */
static int dmacopy_batch_pieces(struct dmacopy_batch *b)
{
	struct scatterlist *sg = b->src->sgl, *dg = b->dst->sgl;
	unsigned int s_left = b->src->nents, d_left = b->dst->nents;
	dma_addr_t s_addr = sg_dma_address(sg), d_addr = sg_dma_address(dg);
	unsigned int s_len = sg_dma_len(sg), d_len = sg_dma_len(dg);
	struct dmacopy_piece piece;
	int ret;

	for (;;) {
		bool last;

		piece.dst = d_addr;
		piece.src = s_addr;
		piece.len = min3(s_len, d_len, b->c->seg.max);
		last = s_len == piece.len && s_left == 1;
		ret = dmacopy_prep_submit(b, &piece, last);
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
dmacopy_prep_memcpy(struct dmacopy_batch *b,
		    const struct dmacopy_piece *piece,
		    unsigned long flags)
{
	return dmaengine_prep_dma_memcpy(b->c->chan, piece->dst, piece->src,
					 piece->len, flags);
}

#ifdef HAVE_DMA_MEMCPY_SG
/* One descriptor for the whole batch. */
static int dmacopy_batch_whole(struct dmacopy_batch *b)
{
	return dmacopy_prep_submit(b, NULL, true);
}

static struct dma_async_tx_descriptor *
dmacopy_prep_memcpy_sg(struct dmacopy_batch *b,
		       const struct dmacopy_piece *piece,
		       unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_sg(b->c->chan, b->dst->sgl,
					    b->dst->nents, b->src->sgl,
					    b->src->nents, flags);
}
#endif

#ifdef HAVE_DMA_MEMCPY_VEC
static void dmacopy_table_to_vecs(const struct sg_table *sgt,
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
static int dmacopy_batch_vecs(struct dmacopy_batch *b)
{
	ktime_t t0 = ktime_get();
	u64 ns;

	dmacopy_table_to_vecs(b->src, b->vecs->src);
	dmacopy_table_to_vecs(b->dst, b->vecs->dst);
	ns = dmacopy_elapsed_ns(t0);
	b->c->fig.convert_ns += ns;
	b->c->fig.prep_ns += ns;
	return dmacopy_prep_submit(b, NULL, true);
}

static struct dma_async_tx_descriptor *
dmacopy_prep_memcpy_vec(struct dmacopy_batch *b,
			const struct dmacopy_piece *piece,
			unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_vec(b->c->chan, b->vecs->dst,
					     b->dst->nents, b->vecs->src,
					     b->src->nents, flags);
}
#endif

static const struct dmacopy_form dmacopy_forms[DMACOPY_NR_FORMS] = {
	[DMACOPY_FORM_MEMCPY] = {
		.name = "prep_memcpy",
		.call = "prep_dma_memcpy",
		.have_api = true,
		.cap = DMA_MEMCPY,
		.cap_name = "DMA_MEMCPY",
		.batch = dmacopy_batch_pieces,
		.prep = dmacopy_prep_memcpy,
	},
	[DMACOPY_FORM_MEMCPY_SG] = {
		.name = "prep_memcpy_sg",
		.call = "prep_dma_memcpy_sg",
#ifdef HAVE_DMA_MEMCPY_SG
		.have_api = true,
		.cap = DMA_MEMCPY_SG,
		.batch = dmacopy_batch_whole,
		.prep = dmacopy_prep_memcpy_sg,
#endif
		.cap_name = "DMA_MEMCPY_SG",
		.api = "dmaengine_prep_dma_memcpy_sg() (removed from mainline in 6.0)",
	},
	[DMACOPY_FORM_MEMCPY_VEC] = {
		.name = "prep_memcpy_vec",
		.call = "prep_dma_memcpy_vec",
#ifdef HAVE_DMA_MEMCPY_VEC
		.have_api = true,
		.cap = DMA_MEMCPY_VEC,
		.vecs = true,
		.batch = dmacopy_batch_vecs,
		.prep = dmacopy_prep_memcpy_vec,
#endif
		.cap_name = "DMA_MEMCPY_VEC",
		.api = "dmaengine_prep_dma_memcpy_vec() (not in mainline)",
	},
};

/* The form of an id, whether or not this kernel has its API; NULL: no form. */
const struct dmacopy_form *dmacopy_form(enum dmacopy_form_id id)
{
	if ((unsigned int)id >= DMACOPY_NR_FORMS)
		return NULL;
	return &dmacopy_forms[id];
}

/* Whether a batch to be started with @forms needs dma_vec arrays. */
bool dmacopy_forms_need_vecs(u32 forms)
{
	unsigned int id;

	for (id = 0; id < DMACOPY_NR_FORMS; id++)
		if (forms & BIT(id) && dmacopy_forms[id].vecs)
			return true;
	return false;
}

/**
 * dmacopy_form_name - a form's name, as messages and the tools say it
 * @id: the form
 *
 * Return: "prep_memcpy", "prep_memcpy_sg", "prep_memcpy_vec"; NULL for an
 * unknown id.
 */
const char *dmacopy_form_name(enum dmacopy_form_id id)
{
	const struct dmacopy_form *f = dmacopy_form(id);

	return f ? f->name : NULL;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_form_name, DMACOPY_NS);

/**
 * dmacopy_form_cap_name - the capability a form needs of a channel
 * @id: the form
 *
 * Return: its name ("DMA_MEMCPY_SG"); NULL for an unknown id.
 */
const char *dmacopy_form_cap_name(enum dmacopy_form_id id)
{
	const struct dmacopy_form *f = dmacopy_form(id);

	return f ? f->cap_name : NULL;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_form_cap_name, DMACOPY_NS);

/**
 * dmacopy_form_has_api - whether this kernel has a form's prep API
 * @id: the form
 *
 * Return: true when batches of the form can run on a channel with its
 * capability; false for an unknown id.
 */
bool dmacopy_form_has_api(enum dmacopy_form_id id)
{
	const struct dmacopy_form *f = dmacopy_form(id);

	return f && f->have_api;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_form_has_api, DMACOPY_NS);

/**
 * dmacopy_form_check - refuse a form this kernel cannot run
 * @id: the form
 * @quiet: no message
 *
 * Before any channel is touched: the form's API decides, not a channel.
 *
 * Return: 0; -EINVAL, no such form; or -EOPNOTSUPP, this kernel has no
 * API for it, and a rate-limited message names the API missing.
 */
int dmacopy_form_check(enum dmacopy_form_id id, bool quiet)
{
	const struct dmacopy_form *f = dmacopy_form(id);

	if (!f)
		return -EINVAL;
	if (f->have_api)
		return 0;
	if (!quiet)
		pr_err_ratelimited("%s: this kernel has no %s; see kernel/patches/\n",
				   f->name, f->api);
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_form_check, DMACOPY_NS);
