/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What one scatterlist segment may be on a device, in the DMA API's terms:
 * shared by the benchmark's map modes and the dmacopy library, which both
 * cut buffers into segments a device takes.
 */
#ifndef _DMA_BENCH_SEG_LIMITS_H
#define _DMA_BENCH_SEG_LIMITS_H

#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/types.h>

/**
 * struct dma_bench_seg_limits - what one scatterlist segment may be
 * @max: its largest length: the device's max_seg_size (an unsigned int, as
 *	the DMA API has it), and no more than one mapping may take (swiotlb
 *	bounces at most dma_max_mapping_size())
 * @boundary: the device's segment boundary mask: no segment may cross a
 *	multiple of @boundary + 1
 *
 * The DMA API's terms for a scatterlist handed to dma_map_sg(); the
 * DMA-API debugging checks both for every segment it maps.
 */
struct dma_bench_seg_limits {
	unsigned int max;
	unsigned long boundary;
};

/**
 * dma_bench_seg_limits_of() - the segment limits of a device, as it is now
 * @dev: the device that maps the segments
 * @l: filled in
 *
 * dma_max_mapping_size() depends on the DMA mask: call this after the
 * mask is set.
 */
static inline void dma_bench_seg_limits_of(struct device *dev,
					   struct dma_bench_seg_limits *l)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);

	l->max = min_t(size_t, max_seg ?: UINT_MAX, dma_max_mapping_size(dev));
	l->boundary = dma_get_seg_boundary(dev);
}

/**
 * dma_bench_seg_len() - the length of the segment at @off of a buffer
 * @l: the device's limits
 * @off: offset in the buffer
 * @left: bytes of the buffer from @off on, at least 1
 *
 * The buffer must be aligned to a power of two no smaller than its size, as
 * a buddy allocation or a folio is: then where a DMA address of the buffer
 * crosses a boundary depends on @off alone, and every buffer of a size is
 * cut the same way.
 *
 * Return: the length, 1..min(@left, @l->max).
 */
static inline size_t dma_bench_seg_len(const struct dma_bench_seg_limits *l,
				       size_t off, size_t left)
{
	size_t len = min_t(size_t, left, l->max);
	unsigned long to_boundary = l->boundary - (off & l->boundary);

	/* to_boundary + 1 bytes to the boundary: it overflows for ~0UL */
	if (len - 1 > to_boundary)
		len = to_boundary + 1;
	return len;
}

/* Segments dma_bench_seg_len() cuts a buffer of @size bytes into. */
static inline unsigned long
dma_bench_seg_count(const struct dma_bench_seg_limits *l, size_t size)
{
	unsigned long n = 0;
	size_t off;

	for (off = 0; off < size; off += dma_bench_seg_len(l, off, size - off))
		n++;
	return n;
}

#endif /* _DMA_BENCH_SEG_LIMITS_H */
