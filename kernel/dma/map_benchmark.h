/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces of the DMA map benchmark: the map-mode ops table,
 * per-thread statistics and the dmaengine mode's entry points.
 */
#ifndef _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H
#define _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H

#include <linux/dma-direction.h>
#include <linux/mutex.h>
#include <linux/types.h>

/*
 * The ABI header lives in the project's uapi/ directory; a kernel may carry
 * an older include/linux/map_benchmark.h of its own, so name ours by path.
 */
#include "../../uapi/linux/map_benchmark.h"
#include "../compat.h"

struct dentry;
struct device;

/**
 * struct map_benchmark_data - a device bound to the benchmark driver
 * @bparam: the validated request of the run in progress
 * @dev: the bound device, whose DMA ops are measured
 * @debugfs: the dma_map_benchmark file
 * @dir: @bparam.dma_dir as an enum dma_data_direction
 * @lock: serializes runs: one ioctl at a time measures this device
 */
struct map_benchmark_data {
	struct map_benchmark bparam;
	struct device *dev;
	struct dentry *debugfs;
	enum dma_data_direction dir;
	struct mutex lock;	/* one run at a time on this device */
};

/**
 * struct map_benchmark_ops - one map mode
 * @name: the mode's name, as the tool prints it
 * @prepare: allocate a thread's buffers; returns the mode's private data
 * @unprepare: free what @prepare allocated
 * @initialize_data: touch the buffers before each map (outside timing)
 * @do_map: the timed map operation
 * @do_unmap: the timed unmap operation
 *
 * A mode is an ops table: the thread loop in map_benchmark.c knows no mode,
 * so a new mode slots in without touching the others.
 */
struct map_benchmark_ops {
	const char *name;
	void *(*prepare)(struct map_benchmark_data *map);
	void (*unprepare)(void *mparam);
	void (*initialize_data)(void *mparam);
	int (*do_map)(void *mparam);
	void (*do_unmap)(void *mparam);
};

extern const struct map_benchmark_ops dma_single_map_benchmark_ops;
extern const struct map_benchmark_ops dma_sg_map_benchmark_ops;

/*
 * Streaming mean and variance of nanosecond samples. The sums are kept
 * relative to the first sample so that squares stay far from overflow
 * over millions of samples; threads keep their own and merge at the end.
 */
struct mb_stat {
	u64 n;
	u64 shift;
	s64 sum;
	u64 sum_sq;
	u64 min;
	u64 max;
};

void mb_stat_add(struct mb_stat *s, u64 x);
void mb_stat_merge(struct mb_stat *dst, const struct mb_stat *src);
u64 mb_stat_mean(const struct mb_stat *s);
u64 mb_stat_stddev(const struct mb_stat *s);

/* Mean and sample standard deviation of a few values (runs). */
void mb_mean_stddev(const u64 *v, unsigned int n, u64 *mean, u64 *stddev);

/* The dmaengine mode: its own debugfs file, independent of any binding. */
int dmaengine_bench_init(void);
void dmaengine_bench_exit(void);

#endif /* _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H */
