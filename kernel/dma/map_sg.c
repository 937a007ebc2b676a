// SPDX-License-Identifier: GPL-2.0-only
/*
 * SG mode: dma_map_sg() of granule scatterlist entries of one page each,
 * or of entries x entry_size bytes through the extended ioctl. An entry
 * the bound device cannot take in one segment (longer than its
 * max_seg_size or largest mapping, or crossing its segment boundary) is
 * mapped as the segments a driver would build for it.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "map_benchmark.h"

/**
 * struct dma_sg_map_param - one thread's scatterlist
 * @sgt: @per_entry segments for each entry, in entry order
 * @dev: the bound device
 * @dir: the direction of the mapping
 * @order: the page order of one entry's allocation
 * @per_entry: segments an entry is cut into
 */
struct dma_sg_map_param {
	struct sg_table sgt;
	struct device *dev;
	enum dma_data_direction dir;
	unsigned int order;
	unsigned int per_entry;
};

/* An entry's allocation is where its first segment points. */
static void dma_sg_free_pages(struct dma_sg_map_param *params)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_sg(&params->sgt, sg, i)
		if (i % params->per_entry == 0 && sg_page(sg))
			__free_pages(sg_page(sg), params->order);
}

/*
 * Cut each entry at the device's limits, the same way for every entry:
 * its allocation is aligned to its size (dma_bench_seg_len()).
 */
static int dma_sg_map_benchmark_fit(struct map_benchmark_params *p,
				    struct device *dev)
{
	u64 segments = (u64)p->entries *
		       dma_bench_seg_count(&p->seg, p->entry_size);

	if (segments > MB_MAX_TABLE_ENTS) {
		mb_refuse_err("invalid entry_size %zu: %u entries would take %llu segments of at most %u bytes (max_seg_size and max mapping size of %s), more than %lu\n",
			      p->entry_size, p->entries, segments, p->seg.max,
			      dev_name(dev), MB_MAX_TABLE_ENTS);
		return -EINVAL;
	}
	p->segments = segments;
	return 0;
}

/* An allocation of whole pages, of a power-of-two order, per entry. */
static u64 dma_sg_map_benchmark_buffer_bytes(const struct map_benchmark_params *p)
{
	return (u64)p->entries * ((PAGE_SIZE << get_order(p->entry_size)) +
		dma_bench_seg_count(&p->seg, p->entry_size) *
		sizeof(struct scatterlist));
}

static void *dma_sg_map_benchmark_prepare(struct map_benchmark_data *map)
{
	struct dma_sg_map_param *params;
	struct scatterlist *sg;
	unsigned int i;

	params = kzalloc_obj(*params, GFP_KERNEL);
	if (!params)
		return NULL;

	params->dir = map->p.dir;
	params->dev = map->dev;
	params->order = get_order(map->p.entry_size);
	params->per_entry = map->p.segments / map->p.entries;

	/* sg_alloc_table() zeroes the entries: unfilled ones have no page */
	if (sg_alloc_table(&params->sgt, map->p.segments, GFP_KERNEL))
		goto free_params;

	sg = params->sgt.sgl;
	for (i = 0; i < map->p.entries; i++) {
		struct page *page;
		size_t off, len;

		page = map_benchmark_alloc_pages(&map->p, params->order);
		if (!page)
			goto free_pages;
		for (off = 0; off < map->p.entry_size; off += len) {
			len = dma_bench_seg_len(&map->p.seg, off,
						map->p.entry_size - off);
			sg_set_page(sg, page + (off >> PAGE_SHIFT), len,
				    offset_in_page(off));
			sg = sg_next(sg);
		}
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
	.fit = dma_sg_map_benchmark_fit,
	.buffer_bytes = dma_sg_map_benchmark_buffer_bytes,
	.prepare = dma_sg_map_benchmark_prepare,
	.unprepare = dma_sg_map_benchmark_unprepare,
	.initialize_data = dma_sg_map_benchmark_initialize_data,
	.do_map = dma_sg_map_benchmark_do_map,
	.do_unmap = dma_sg_map_benchmark_do_unmap,
	.do_sync_for_cpu = dma_sg_map_benchmark_sync_for_cpu,
	.do_sync_for_device = dma_sg_map_benchmark_sync_for_device,
};
