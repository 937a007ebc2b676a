/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The map modes' internals: a validated request, the bound device and the
 * ops table of a mode. What they share with the dmaengine mode is core.h.
 */
#ifndef _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H
#define _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H

#include <linux/dma-direction.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "core.h"

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
 * @seg: the bound device's segment limits, once its mask is set for the run
 * @segments: what the mode maps at once: sg segments, or 1 buffer
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
	struct dma_bench_seg_limits seg;
	u32 segments;
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
 * @validate: refuse, with a message, a request the mode cannot map; or NULL
 * @fit: with the run's DMA mask set on the device and @p->seg filled in,
 *	after the memory bound: refuse, with a message, a request the
 *	device's DMA parameters forbid, and set @p->segments
 * @buffer_bytes: what one thread's buffers take, for the memory bound
 *	(@p->seg is filled in)
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
	int (*validate)(const struct map_benchmark_params *p);
	int (*fit)(struct map_benchmark_params *p, struct device *dev);
	u64 (*buffer_bytes)(const struct map_benchmark_params *p);
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

struct page *map_benchmark_alloc_pages(const struct map_benchmark_params *p,
				       unsigned int order);

/**
 * enum mb_mark - the windows of the cache-maintenance counter
 * @MB_MARK_MAP: around do_map
 * @MB_MARK_UNMAP: around do_unmap
 * @MB_MARK_SYNC_CPU: around do_sync_for_cpu
 * @MB_MARK_SYNC_DEVICE: around do_sync_for_device
 * @MB_MARK_EMPTY: around nothing, each iteration: the counter's baseline
 * @MB_MARK_CLOSE: closes the window
 *
 * On arm64, mb_mark() executes HINT #(0x68 + mark), an immediate the
 * architecture leaves unallocated: a NOP on hardware and in QEMU, which
 * the counter's TCG plugin (scripts/qemu-plugin/dcount.c) reads as the
 * opening or closing of a window on the CPU that runs it, and counts the
 * cache maintenance and barriers executed in between. Elsewhere it is
 * nothing. The values are the plugin's.
 */
enum mb_mark {
	MB_MARK_MAP = 0,
	MB_MARK_UNMAP = 1,
	MB_MARK_SYNC_CPU = 2,
	MB_MARK_SYNC_DEVICE = 3,
	MB_MARK_EMPTY = 4,
	MB_MARK_CLOSE = 6,
};

static __always_inline void mb_mark(enum mb_mark m)
{
#ifdef CONFIG_ARM64
	asm volatile("hint %0" : : "i" (0x68 + m) : "memory");
#endif
}

#endif /* _KERNEL_DMA_MAP_BENCHMARK_INTERNAL_H */
