// SPDX-License-Identifier: GPL-2.0-only
/*
 * Single mode: dma_map_single() of one contiguous buffer: granule pages,
 * or entries x entry_size bytes through the extended ioctl.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "map_benchmark.h"

struct dma_single_map_param {
	struct device *dev;
	dma_addr_t addr;
	void *xbuf;
	size_t size;
	enum dma_data_direction dir;
};

/* The buddy allocator's largest block bounds one contiguous buffer. */
static int dma_single_map_benchmark_validate(const struct map_benchmark_params *p)
{
	u64 size = (u64)p->entries * p->entry_size;

	if (size <= (PAGE_SIZE << DMA_BENCH_MAX_PAGE_ORDER))
		return 0;
	mb_refuse_err("invalid entries x entry_size %llu: single mode maps one contiguous buffer of at most %lu bytes\n",
		      size, PAGE_SIZE << DMA_BENCH_MAX_PAGE_ORDER);
	return -EINVAL;
}

/*
 * One buffer is one mapping: the device's largest mapping bounds it
 * (swiotlb bounces at most dma_max_mapping_size() at once). max_seg_size
 * bounds the segments of a scatterlist, not a dma_map_single().
 */
static int dma_single_map_benchmark_fit(struct map_benchmark_params *p,
					struct device *dev)
{
	u64 size = (u64)p->entries * p->entry_size;
	size_t max = dma_max_mapping_size(dev);

	p->seg.max = min_t(size_t, max, UINT_MAX);
	p->segments = 1;
	if (size <= max)
		return 0;
	mb_refuse_err("invalid entries x entry_size %llu: %s maps at most %zu bytes at once (dma_max_mapping_size)\n",
		      size, dev_name(dev), max);
	return -EINVAL;
}

/* One allocation of whole pages, of a power-of-two order. */
static u64 dma_single_map_benchmark_buffer_bytes(const struct map_benchmark_params *p)
{
	return PAGE_SIZE << get_order((u64)p->entries * p->entry_size);
}

static void *dma_single_map_benchmark_prepare(struct map_benchmark_data *map)
{
	struct dma_single_map_param *params;
	struct page *page;

	params = kzalloc_obj(*params, GFP_KERNEL);
	if (!params)
		return NULL;

	params->size = (size_t)map->p.entries * map->p.entry_size;
	params->dir = map->p.dir;
	params->dev = map->dev;
	page = map_benchmark_alloc_pages(&map->p, get_order(params->size));
	params->xbuf = page ? page_address(page) : NULL;
	if (!params->xbuf) {
		kfree(params);
		return NULL;
	}

	return params;
}

static void dma_single_map_benchmark_unprepare(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	free_pages((unsigned long)params->xbuf, get_order(params->size));
	kfree(params);
}

static void dma_single_map_benchmark_initialize_data(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	/*
	 * For a non-coherent device, dirty the buffer in the cache, or the
	 * cost of BIDIRECTIONAL and TO_DEVICE mappings is underestimated.
	 */
	if (params->dir != DMA_FROM_DEVICE)
		memset(params->xbuf, 0x66, params->size);
}

static int dma_single_map_benchmark_do_map(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	params->addr = dma_map_single(params->dev, params->xbuf, params->size,
				      params->dir);
	if (unlikely(dma_mapping_error(params->dev, params->addr))) {
		pr_err("dma_map_single failed on %s\n", dev_name(params->dev));
		return -ENOMEM;
	}

	return 0;
}

static void dma_single_map_benchmark_do_unmap(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	dma_unmap_single(params->dev, params->addr, params->size, params->dir);
}

static void dma_single_map_benchmark_sync_for_cpu(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	dma_sync_single_for_cpu(params->dev, params->addr, params->size,
				params->dir);
}

static void dma_single_map_benchmark_sync_for_device(void *mparam)
{
	struct dma_single_map_param *params = mparam;

	dma_sync_single_for_device(params->dev, params->addr, params->size,
				   params->dir);
}

const struct map_benchmark_ops dma_single_map_benchmark_ops = {
	.name = "single",
	.validate = dma_single_map_benchmark_validate,
	.fit = dma_single_map_benchmark_fit,
	.buffer_bytes = dma_single_map_benchmark_buffer_bytes,
	.prepare = dma_single_map_benchmark_prepare,
	.unprepare = dma_single_map_benchmark_unprepare,
	.initialize_data = dma_single_map_benchmark_initialize_data,
	.do_map = dma_single_map_benchmark_do_map,
	.do_unmap = dma_single_map_benchmark_do_unmap,
	.do_sync_for_cpu = dma_single_map_benchmark_sync_for_cpu,
	.do_sync_for_device = dma_single_map_benchmark_sync_for_device,
};
