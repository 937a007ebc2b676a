// SPDX-License-Identifier: GPL-2.0-only
/*
 * SG mode: dma_map_sg() of granule scatterlist entries of one page each,
 * or of entries x entry_size bytes through the extended ioctl.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "map_benchmark.h"

struct dma_sg_map_param {
	struct sg_table sgt;
	struct device *dev;
	enum dma_data_direction dir;
	unsigned int order;
};

static void dma_sg_free_pages(struct dma_sg_map_param *params)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&params->sgt, sg, i)
		if (sg_page(sg))
			__free_pages(sg_page(sg), params->order);
}

/* An allocation of whole pages, of a power-of-two order, per entry. */
static u64 dma_sg_map_benchmark_buffer_bytes(const struct map_benchmark_params *p)
{
	return (u64)p->entries * (PAGE_SIZE << get_order(p->entry_size));
}

static void *dma_sg_map_benchmark_prepare(struct map_benchmark_data *map)
{
	struct dma_sg_map_param *params;
	struct scatterlist *sg;
	unsigned int i;

	params = kzalloc(sizeof(*params), GFP_KERNEL);
	if (!params)
		return NULL;

	params->dir = map->p.dir;
	params->dev = map->dev;
	params->order = get_order(map->p.entry_size);

	/* sg_alloc_table() zeroes the entries: unfilled ones have no page */
	if (sg_alloc_table(&params->sgt, map->p.entries, GFP_KERNEL))
		goto free_params;

	for_each_sgtable_sg(&params->sgt, sg, i) {
		struct page *page;

		page = map_benchmark_alloc_pages(&map->p, params->order);
		if (!page)
			goto free_pages;
		sg_set_page(sg, page, map->p.entry_size, 0);
	}

	return params;

free_pages:
	dma_sg_free_pages(params);
	sg_free_table(&params->sgt);
free_params:
	kfree(params);
	return NULL;
}

static void dma_sg_map_benchmark_unprepare(void *mparam)
{
	struct dma_sg_map_param *params = mparam;

	dma_sg_free_pages(params);
	sg_free_table(&params->sgt);
	kfree(params);
}

static void dma_sg_map_benchmark_initialize_data(void *mparam)
{
	struct dma_sg_map_param *params = mparam;
	struct scatterlist *sg;
	unsigned int i;

	if (params->dir == DMA_FROM_DEVICE)
		return;

	for_each_sgtable_sg(&params->sgt, sg, i)
		memset(sg_virt(sg), 0x66, sg->length);
}

static int dma_sg_map_benchmark_do_map(void *mparam)
{
	struct dma_sg_map_param *params = mparam;
	int ret;

	ret = dma_map_sgtable(params->dev, &params->sgt, params->dir, 0);
	if (unlikely(ret)) {
		pr_err("dma_map_sg failed on %s: %d\n", dev_name(params->dev),
		       ret);
		return ret;
	}

	return 0;
}

static void dma_sg_map_benchmark_do_unmap(void *mparam)
{
	struct dma_sg_map_param *params = mparam;

	dma_unmap_sgtable(params->dev, &params->sgt, params->dir, 0);
}

static void dma_sg_map_benchmark_sync_for_cpu(void *mparam)
{
	struct dma_sg_map_param *params = mparam;

	dma_sync_sgtable_for_cpu(params->dev, &params->sgt, params->dir);
}

static void dma_sg_map_benchmark_sync_for_device(void *mparam)
{
	struct dma_sg_map_param *params = mparam;

	dma_sync_sgtable_for_device(params->dev, &params->sgt, params->dir);
}

const struct map_benchmark_ops dma_sg_map_benchmark_ops = {
	.name = "sg",
	.buffer_bytes = dma_sg_map_benchmark_buffer_bytes,
	.prepare = dma_sg_map_benchmark_prepare,
	.unprepare = dma_sg_map_benchmark_unprepare,
	.initialize_data = dma_sg_map_benchmark_initialize_data,
	.do_map = dma_sg_map_benchmark_do_map,
	.do_unmap = dma_sg_map_benchmark_do_unmap,
	.do_sync_for_cpu = dma_sg_map_benchmark_sync_for_cpu,
	.do_sync_for_device = dma_sg_map_benchmark_sync_for_device,
};
