/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine mode: state shared by the coordinator (dmaengine_bench.c)
 * and the per-channel threads (dmaengine_chan.c).
 */
#ifndef _KERNEL_DMA_DMAENGINE_BENCH_H
#define _KERNEL_DMA_DMAENGINE_BENCH_H

#include <linux/completion.h>
#include <linux/dmaengine.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "map_benchmark.h"

/* Index of a prep mode in results and samples. */
enum deb_prep {
	DEB_PREP_MEMCPY,
	DEB_PREP_MEMCPY_SG,
};

/**
 * struct deb_figures - what one channel measured in one run
 * @start: ktime of the run's start on this channel
 * @end: ktime of the run's end on this channel
 * @prep_ns: time in prep calls
 * @submit_ns: time in dmaengine_submit()
 * @issue_ns: time in dma_async_issue_pending()
 * @wait_ns: time waiting for completion
 * @map_ns: time mapping source and destination
 * @unmap_ns: time unmapping them
 * @bytes: bytes copied
 * @prep_calls: prep calls made
 * @submits: descriptors submitted
 * @batches: batches run
 * @segments: source segments copied
 */
struct deb_figures {
	ktime_t start;
	ktime_t end;
	u64 prep_ns;
	u64 submit_ns;
	u64 issue_ns;
	u64 wait_ns;
	u64 map_ns;
	u64 unmap_ns;
	u64 bytes;
	u64 prep_calls;
	u64 submits;
	u64 batches;
	u64 segments;
};

struct deb_run;

/**
 * struct deb_chan - one channel and the thread that drives it
 * @run: the run this channel belongs to
 * @index: position in the run's channel array
 * @chan: the DMA channel, held exclusively for the whole ioctl
 * @dma_dev: the device to map buffers for: dmaengine_get_dma_device()
 * @task: the thread
 * @src_node: NUMA node of the source folios
 * @dst_node: NUMA node of the destination folios
 * @src: source folios, one per sg entry
 * @dst: destination folios
 * @src_sgt: source table, mapped DMA_TO_DEVICE during a run
 * @dst_sgt: destination table, mapped DMA_FROM_DEVICE during a run
 * @txs: descriptors of the current batch
 * @cookies: their cookies, kept apart: a completed descriptor may be reused
 * @max_txs: room in @txs
 * @nprepared: descriptors of the current batch prepared so far
 * @max_seg: largest segment one memcpy descriptor may carry
 * @done: completed by the callback of a batch's last descriptor
 * @result: the result that callback reported
 * @fig: this channel's figures for the current run
 * @error: DMAENGINE_BENCH_ERR_* of the current run, or 0
 * @errno: the matching negative errno
 */
struct deb_chan {
	struct deb_run *run;
	unsigned int index;
	struct dma_chan *chan;
	struct device *dma_dev;
	struct task_struct *task;
	int src_node;
	int dst_node;
	struct folio **src;
	struct folio **dst;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
	struct dma_async_tx_descriptor **txs;
	dma_cookie_t *cookies;
	unsigned int max_txs;
	int nprepared;
	unsigned int max_seg;
	struct completion done;
	struct dmaengine_result result;
	struct deb_figures fig;
	u32 error;
	int errno;
};

/**
 * struct deb_run - one DMAENGINE_BENCHMARK call
 * @p: the validated request
 * @chans: the channels
 * @nr: number of channels
 * @folio_size: bytes in one folio
 * @batches: batches each channel runs per run
 * @timeout: jiffies one batch may take
 * @wq: where the threads wait for the next run
 * @gen: run generation; a thread runs once each time it advances
 * @prep: prep mode of the current generation
 * @verify: check the destination after this run
 * @abort: set to make the threads end the current run early
 * @pending: threads still in the current run
 * @run_done: completed by the last thread to finish the current run
 */
struct deb_run {
	const struct dmaengine_benchmark *p;
	struct deb_chan *chans;
	unsigned int nr;
	size_t folio_size;
	u64 batches;
	unsigned long timeout;
	wait_queue_head_t wq;
	unsigned int gen;
	enum deb_prep prep;
	bool verify;
	bool abort;
	atomic_t pending;
	struct completion run_done;
};

int deb_chan_setup(struct deb_chan *c);
void deb_chan_teardown(struct deb_chan *c);
int deb_chan_thread(void *data);

#endif /* _KERNEL_DMA_DMAENGINE_BENCH_H */
