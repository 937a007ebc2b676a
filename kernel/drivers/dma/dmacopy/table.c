// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's tables: folios of any sizes as an sg_table cut at a channel's
 * segment limits (built by the caller's allocation or in entries it
 * allocated up front), and their mapping on the channel's device, timed.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "internal.h"

/* Entries of a table of @n folios of any sizes, cut at the limits. */
static unsigned long dmacopy_folio_ents(const struct dmacopy_chan *c,
					struct folio **folios,
					unsigned int n)
{
	unsigned long ents = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		ents += dma_bench_seg_count(&c->seg, folio_size(folios[i]));
	return ents;
}

/*
 * One entry per folio, or several where a folio is larger than what the
 * device takes in one segment or crosses its segment boundary: the DMA API
 * wants no such entries. A folio is aligned to its size (dma_bench_seg_len()).
 */
static void dmacopy_table_set(const struct dmacopy_chan *c,
			      struct sg_table *sgt,
			      struct folio **folios, unsigned int n)
{
	struct scatterlist *sg = sgt->sgl;
	size_t off, len, size;
	unsigned int i;

	/* nents counts the mapped entries: none yet */
	sgt->nents = 0;
	for (i = 0; i < n; i++) {
		size = folio_size(folios[i]);
		for (off = 0; off < size; off += len) {
			len = dma_bench_seg_len(&c->seg, off, size - off);
			sg_set_page(sg, folio_page(folios[i], off >> PAGE_SHIFT),
				    len, offset_in_page(off));
			sg = sg_next(sg);
		}
	}
}

/*
 * The table over entries the caller allocated, in one pass over the
 * folios: each entry used is cleared as it is set, the others are not
 * touched, and the last one ends the table.
 */
static int dmacopy_table_lay(const struct dmacopy_chan *c,
			     struct sg_table *sgt,
			     struct folio **folios, unsigned int n)
{
	unsigned int i, ents = 0, max = sgt->orig_nents;
	struct scatterlist *sg = NULL;
	size_t off, len, size;

	for (i = 0; i < n; i++) {
		size = folio_size(folios[i]);
		for (off = 0; off < size; off += len) {
			if (WARN_ON_ONCE(ents == max))
				return -E2BIG;
			len = dma_bench_seg_len(&c->seg, off, size - off);
			sg = &sgt->sgl[ents++];
			memset(sg, 0, sizeof(*sg));
			sg_set_page(sg, folio_page(folios[i], off >> PAGE_SHIFT),
				    len, offset_in_page(off));
		}
	}
	if (WARN_ON_ONCE(!sg))
		return -EINVAL;
	sg_mark_end(sg);
	sgt->orig_nents = ents;
	sgt->nents = 0;
	return 0;
}

/**
 * dmacopy_table_fill - a table of folios for the channel
 * @c: the channel, its limits known
 * @sgt: the table: allocated here, or with @gfp 0 laid over the entries
 *	the caller allocated, @sgt->sgl, @sgt->orig_nents of them
 * @folios: the folios, of any sizes
 * @n: entries in @folios
 * @gfp: how to allocate the table; 0: it is allocated already (a caller
 *	that must not allocate, such as the migration hook)
 *
 * Return: 0; -ENOMEM, nothing allocated; -E2BIG, the entries the caller
 * allocated are too few; or -EINVAL, no folio.
 */
int dmacopy_table_fill(const struct dmacopy_chan *c,
		       struct sg_table *sgt, struct folio **folios,
		       unsigned int n, gfp_t gfp)
{
	unsigned long ents;

	if (!gfp)
		return dmacopy_table_lay(c, sgt, folios, n);
	ents = dmacopy_folio_ents(c, folios, n);
	if (ents > DMACOPY_MAX_TABLE_ENTS || sg_alloc_table(sgt, ents, gfp))
		return -ENOMEM;
	dmacopy_table_set(c, sgt, folios, n);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_table_fill, DMACOPY_NS);

/* ------------------------------------------------------------------ */
/* Mapping                                                              */
/* ------------------------------------------------------------------ */

/*
 * A table is mapped while its nents, the entries mapped, is not 0:
 * dmacopy_table_fill() and dmacopy_tables_unmap() leave it 0.
 */
bool dmacopy_mapped(const struct sg_table *sgt)
{
	return sgt->nents;
}

/*
 * Map a batch's tables on the channel's device, @src DMA_TO_DEVICE, @dst
 * DMA_FROM_DEVICE. Returns 0, or the error of dma_map_sgtable(), with
 * nothing mapped.
 */
int dmacopy_map(struct dmacopy_chan *c,
		struct sg_table *src, struct sg_table *dst)
{
	ktime_t t0 = ktime_get();
	int ret;

	ret = dma_map_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
	if (ret)
		goto fail;
	ret = dma_map_sgtable(c->dma_dev, dst, DMA_FROM_DEVICE, 0);
	if (ret) {
		dma_unmap_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
		src->nents = 0;
		goto fail;
	}
	c->fig.map_ns += dmacopy_elapsed_ns(t0);
	return 0;

fail:
	pr_err("%s: dma_map_sgtable on %s failed: %d\n", c->name,
	       dev_name(c->dma_dev), ret);
	dmacopy_set_fail(c, DMACOPY_FAIL_MAP, ret);
	return ret;
}

/**
 * dmacopy_tables_unmap - unmap a batch's tables from the channel's device
 * @c: the channel
 * @src: source table, as dmacopy_batch_start() mapped it
 * @dst: destination table, likewise
 *
 * Timed as the unmap phase. Tables that are not mapped (the start failed
 * before it mapped them, or they were unmapped already) are left as they
 * are, untimed. A batch that failed is abandoned first
 * (dmacopy_batch_abandon()).
 */
void dmacopy_tables_unmap(struct dmacopy_chan *c,
			  struct sg_table *src, struct sg_table *dst)
{
	ktime_t t0;

	if (!dmacopy_mapped(src))
		return;
	t0 = ktime_get();
	dma_unmap_sgtable(c->dma_dev, dst, DMA_FROM_DEVICE, 0);
	dma_unmap_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
	c->fig.unmap_ns += dmacopy_elapsed_ns(t0);
	src->nents = 0;
	dst->nents = 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_tables_unmap, DMACOPY_NS);

u64 dmacopy_mapped_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	u64 bytes = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		bytes += sg_dma_len(sg);
	return bytes;
}
