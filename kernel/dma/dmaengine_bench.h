/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine mode: state shared by the coordinator (dmaengine_bench.c),
 * the runs (dmaengine_runs.c) and the per-channel threads
 * (dmaengine_thread.c). The copies go through the dmacopy library.
 */
#ifndef _KERNEL_DMA_DMAENGINE_BENCH_H
#define _KERNEL_DMA_DMAENGINE_BENCH_H

#include <linux/completion.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "core.h"
#include "dmacopy.h"

/**
 * struct dmaengine_bench_bufs - the buffers of one batch
 * @src: its source folios
 * @dst: its destination folios (of another order with an odd layout)
 * @src_sgt: source table, mapped DMA_TO_DEVICE while in use
 * @dst_sgt: destination table, mapped DMA_FROM_DEVICE while in use
 */
struct dmaengine_bench_bufs {
	struct folio **src;
	struct folio **dst;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
};

/**
 * struct dmaengine_bench_slot - a batch in flight
 * @b: the library's batch
 * @bufs: the buffers it copies
 */
struct dmaengine_bench_slot {
	struct dmacopy_batch b;
	struct dmaengine_bench_bufs *bufs;
};

/**
 * struct dmaengine_bench_cpu_fig - what the CPU's copy measured (prep
 *	mode cpu), beside the library's figures of the DMA modes
 * @copy_ns: time in the CPU copy
 * @bytes: bytes copied
 * @batches: batches run
 * @segments: source folios copied
 */
struct dmaengine_bench_cpu_fig {
	u64 copy_ns;
	u64 bytes;
	u64 batches;
	u64 segments;
};

struct dmaengine_bench_job;

/**
 * struct dmaengine_bench_chan - one channel and the thread that drives it
 * @cl: the library's channel, the job's set's, held for the whole ioctl
 * @job: the DMAENGINE_BENCHMARK call this channel belongs to
 * @index: position in the run's channel array
 * @task: the thread
 * @affinity: the CPUs the thread keeps to (--cpus), or NULL
 * @src_node: NUMA node of the source folios
 * @dst_node: NUMA node of the destination folios
 * @src: every source folio of the channel
 * @dst: every destination folio
 * @nfolios: folios in @src
 * @dst_nfolios: folios in @dst
 * @bufs: the batches' buffers: one per batch of a run with distinct
 *	buffers, one copied again and again otherwise
 * @nbufs: entries in @bufs
 * @slots: the batches in flight: dmaengine_bench_job.depth of them, reused
 *	in turn; freed with the job, after the set's close
 * @max_ents: entries a batch's source or destination table can have
 * @quarantined: a failed batch's descriptors still ran after the drain
 *	bound on an engine that cannot stop them: the buffers, their
 *	mappings and the slots are never let go
 * @start: ktime of the run's start on the channel
 * @end: ktime of its end
 * @cpu: what the benchmark measured itself, beside the library's
 *	figures (dmacopy_chan_figures()): the CPU's copy (prep mode cpu)
 * @error: DMAENGINE_BENCH_ERR_* of the benchmark's own first failure in
 *	the run (limits, memory, verification, a signal), or 0
 * @err: the matching negative errno
 */
struct dmaengine_bench_chan {
	struct dmacopy_chan *cl;
	struct dmaengine_bench_job *job;
	unsigned int index;
	struct task_struct *task;
	const struct cpumask *affinity;
	int src_node;
	int dst_node;
	struct folio **src;
	struct folio **dst;
	unsigned long nfolios;
	unsigned long dst_nfolios;
	struct dmaengine_bench_bufs *bufs;
	unsigned int nbufs;
	struct dmaengine_bench_slot *slots;
	unsigned int max_ents;
	bool quarantined;
	ktime_t start;
	ktime_t end;
	struct dmaengine_bench_cpu_fig cpu;
	u32 error;
	int err;
};

/**
 * struct dmaengine_bench_job - one DMAENGINE_BENCHMARK call, all its runs
 * @p: the validated request
 * @chans: the channels
 * @nr: number of channels
 * @modes: prep modes that run: the request's, less those left out
 * @depth: batches in flight per channel
 * @distinct: every batch of a run has its own buffers
 * @cpus: CPUs to pin the threads to, or NULL
 * @nr_cpus: entries in @cpus
 * @folio_size: bytes in one source folio
 * @dst_folio_size: bytes in one destination folio
 * @dst_sge: destination folios in a batch
 * @batches: batches each channel runs per run
 * @timeout: jiffies one batch may take, and a stalled prep may wait
 * @set: the channels; dmacopy_set_unbound() says whether a provider of
 *	them was unbound, and the first channel
 * @quiesced: completed when the run has let go of every device; an unbind
 *	waits for it before the provider's remove() runs
 * @wq: where the threads wait for the next run
 * @gen: run generation; a thread runs once each time it advances
 * @prep: prep mode of the current generation, DMAENGINE_BENCH_MODE_*
 * @verify: check the destination after this run
 * @abort: set to make the threads end the current run early (by the set
 *	too, when a provider is being unbound)
 * @pending: threads still in the current run
 * @run_done: completed by the last thread to finish the current run
 */
struct dmaengine_bench_job {
	const struct dmaengine_benchmark *p;
	struct dmaengine_bench_chan *chans;
	unsigned int nr;
	u32 modes;
	unsigned int depth;
	bool distinct;
	u32 *cpus;
	unsigned int nr_cpus;
	size_t folio_size;
	size_t dst_folio_size;
	unsigned int dst_sge;
	u64 batches;
	unsigned long timeout;
	struct dmacopy_set set;
	struct completion quiesced;
	wait_queue_head_t wq;
	unsigned int gen;
	unsigned int prep;
	bool verify;
	bool abort;
	atomic_t pending;
	struct completion run_done;
};

int dmaengine_bench_chan_setup(struct dmaengine_bench_chan *c);
void dmaengine_bench_chan_teardown(struct dmaengine_bench_chan *c);
int dmaengine_bench_chan_thread(void *data);
enum dmacopy_form_id dmaengine_bench_form(unsigned int mode);
u32 dmaengine_bench_forms(u32 modes);
const char *dmaengine_bench_mode_name(unsigned int mode);
u32 dmaengine_bench_fail_error(const struct dmaengine_bench_chan *c, int *err);
int dmaengine_bench_runs(struct dmaengine_bench_job *job,
			 struct dmaengine_benchmark *p);
u64 dmaengine_bench_chan_buffer_bytes(const struct dmaengine_benchmark *p,
				      u64 batches);

#endif /* _KERNEL_DMA_DMAENGINE_BENCH_H */
