/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal interfaces of the DMA map benchmark: the map-mode ops table,
 * per-thread statistics and the dmaengine mode's entry points.
 */
#ifndef _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H
#define _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H

#include <linux/dma-direction.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/*
 * The ABI header lives in the project's uapi/ directory; a kernel may carry
 * an older include/linux/map_benchmark.h of its own, so name ours by path.
 */
#include "../../uapi/linux/map_benchmark.h"
#include "../compat.h"

struct completion;
struct dentry;
struct device;
struct page;

/**
 * struct map_benchmark_params - a validated request, from either ioctl
 * @ops: the map mode
 * @threads: threads mapping in parallel
 * @seconds: duration; with @iterations, the most the run may take
 * @iterations: map/unmap cycles per thread, 0 for a timed run
 * @node: NUMA node of the threads and buffers, or NUMA_NO_NODE
 * @dma_bits: DMA mask width for the run
 * @dir: DMA direction
 * @dma_trans_ns: pretend-transfer delay between map and unmap
 * @entries: sg entries, or entries of the single buffer
 * @entry_size: bytes an entry
 * @sync: also time dma_sync_*_for_cpu() and _for_device()
 * @histogram: keep latency histograms, for percentiles
 * @legacy: upstream's figures: each sample truncated to units of 100 ns,
 *	the standard deviation derived as upstream's module derives it
 * @cpus: CPUs to pin thread i to, cpus[i % nr_cpus], or NULL
 * @nr_cpus: entries in @cpus
 */
struct map_benchmark_params {
	const struct map_benchmark_ops *ops;
	u32 threads;
	u32 seconds;
	u32 iterations;
	int node;
	u32 dma_bits;
	enum dma_data_direction dir;
	u32 dma_trans_ns;
	u32 entries;
	size_t entry_size;
	bool sync;
	bool histogram;
	bool legacy;
	u32 *cpus;
	u32 nr_cpus;
};

/**
 * struct map_benchmark_data - a device bound to the benchmark driver
 * @dev: the bound device, whose DMA ops are measured
 * @debugfs: the dma_map_benchmark file
 * @lock: serializes runs: one ioctl at a time measures this device
 * @p: the request of the run in progress
 * @cancel_lock: protects @ended and @gone
 * @ended: the completion that ends the run in progress, or NULL
 * @gone: the device is being unbound: end the run, refuse new ones
 */
struct map_benchmark_data {
	struct device *dev;
	struct dentry *debugfs;
	struct mutex lock;	/* one run at a time on this device */
	struct map_benchmark_params p;
	spinlock_t cancel_lock;	/* @ended and @gone */
	struct completion *ended;
	bool gone;
};

/**
 * struct map_benchmark_ops - one map mode
 * @name: the mode's name, as the tool prints it
 * @prepare: allocate a thread's buffers; returns the mode's private data
 * @unprepare: free what @prepare allocated
 * @initialize_data: touch the buffers before each map (outside timing)
 * @do_map: the timed map operation
 * @do_unmap: the timed unmap operation
 * @do_sync_for_cpu: the timed dma_sync_*_for_cpu() of the mapping
 * @do_sync_for_device: the timed dma_sync_*_for_device() of the mapping
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
	void (*do_sync_for_cpu)(void *mparam);
	void (*do_sync_for_device)(void *mparam);
};

extern const struct map_benchmark_ops dma_single_map_benchmark_ops;
extern const struct map_benchmark_ops dma_sg_map_benchmark_ops;

/* An unsigned 128-bit integer, portable to 32-bit kernels. */
struct mb_u128 {
	u64 hi;
	u64 lo;
};

/*
 * Mean and variance of nanosecond samples from exact sums, in any order:
 * threads keep their own and merge (add) them at the end.
 */
struct mb_stat {
	u64 n;
	u64 sum;
	struct mb_u128 sum_sq;
	u64 min;
	u64 max;
};

/*
 * Log-linear latency histogram: exact below 16 ns, then 16 buckets per
 * power of two, so a percentile is within 1/16 of its true value.
 */
#define MB_HIST_SUB_BITS	4
#define MB_HIST_BUCKETS		(61 << MB_HIST_SUB_BITS)

struct mb_hist {
	u64 count[MB_HIST_BUCKETS];
};

void mb_hist_add(struct mb_hist *h, u64 x);
void mb_hist_merge(struct mb_hist *dst, const struct mb_hist *src);
u64 mb_hist_percentile(const struct mb_hist *h, u64 n, unsigned int pct);

void mb_stat_add(struct mb_stat *s, u64 x);
void mb_stat_merge(struct mb_stat *dst, const struct mb_stat *src);
u64 mb_stat_mean(const struct mb_stat *s);
u64 mb_stat_stddev(const struct mb_stat *s);
u64 mb_stat_stddev_upstream(const struct mb_stat *s);

/* Mean and sample standard deviation of a few values (runs). */
void mb_mean_stddev(const u64 *v, unsigned int n, u64 *mean, u64 *stddev);

/*
 * Refusal messages, naming the field and why, share one rate limit: a
 * caller looping on a bad request cannot flood the log.
 */
extern struct ratelimit_state map_benchmark_refusals;
#define mb_refuse_err(fmt, ...)						\
	do {								\
		if (__ratelimit(&map_benchmark_refusals))		\
			pr_err(fmt, ##__VA_ARGS__);			\
	} while (0)

int map_benchmark_range(const char *field, u64 val, u64 lo, u64 hi);
int map_benchmark_cpus_from_user(u64 uptr, u32 nr, u32 max, u32 **cpus);
int map_benchmark_copy_in(void *dst, size_t ksize, const void __user *uarg,
			  const u32 __user *usizep, u32 min_size, u32 *usize);
int map_benchmark_capable(void);
__printf(2, 3)
int map_benchmark_memory_bound(u64 bytes, const char *fmt, ...);
struct page *map_benchmark_alloc_pages(const struct map_benchmark_params *p,
				       unsigned int order);

/* The dmaengine mode: its own debugfs file, independent of any binding. */
int dmaengine_bench_init(void);
void dmaengine_bench_exit(void);

#endif /* _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H */
