/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine mode: state shared by the coordinator (dmaengine_bench.c)
 * and the per-channel threads (dmaengine_chan.c).
 */
#ifndef _KERNEL_DMA_DMAENGINE_BENCH_H
#define _KERNEL_DMA_DMAENGINE_BENCH_H

#include <linux/completion.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "dmaengine_client.h"

/**
 * struct dmaengine_bench_set - the buffers of one batch
 * @src: its source folios
 * @dst: its destination folios (of another order with an odd layout)
 * @src_sgt: source table, mapped DMA_TO_DEVICE while in use
 * @dst_sgt: destination table, mapped DMA_FROM_DEVICE while in use
 */
struct dmaengine_bench_set {
	struct folio **src;
	struct folio **dst;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
};

/**
 * struct dmaengine_bench_slot - a batch in flight
 * @b: the client's batch
 * @set: the buffers it copies
 */
struct dmaengine_bench_slot {
	struct dmaengine_client_batch b;
	struct dmaengine_bench_set *set;
};

struct dmaengine_bench_job;

/**
 * struct dmaengine_bench_chan - one channel and the thread that drives it
 * @cl: the client's channel, the job's set's, held for the whole ioctl
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
 * @sets: the batches' buffers: one set per batch of a run with distinct
 *	buffers, one set copied again and again otherwise
 * @nsets: entries in @sets
 * @slots: the batches in flight: dmaengine_bench_job.depth of them, reused
 *	in turn; freed with the job, after the set's close
 * @max_ents: entries a batch's source or destination table can have
 * @quarantined: a failed batch's descriptors still ran after the drain
 *	bound on an engine that cannot stop them: the buffers, their
 *	mappings and the slots are never let go
 * @start: ktime of the run's start on the channel
 * @end: ktime of its end
 * @fig: what the benchmark measured itself, beside the client's
 *	figures (@cl->fig): the CPU's copy (prep mode cpu)
 * @error: DMAENGINE_BENCH_ERR_* of the benchmark's own first failure in
 *	the run (limits, memory, verification, a signal), or 0
 * @err: the matching negative errno
 */
struct dmaengine_bench_chan {
	struct dmaengine_client_chan *cl;
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
	struct dmaengine_bench_set *sets;
	unsigned int nsets;
	struct dmaengine_bench_slot *slots;
	unsigned int max_ents;
	bool quarantined;
	ktime_t start;
	ktime_t end;
	struct dmaengine_client_figures fig;
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
 * @set: the channels
 * @caps_name: the capabilities the modes asked for, as a refusal names them
 * @unbound: set when a provider of the run's channels is unbound
 * @unbound_channel: the first channel whose provider was unbound
 * @quiesced: completed when the run has let go of every device; an unbind
 *	waits for it before the provider's remove() runs
 * @wq: where the threads wait for the next run
 * @gen: run generation; a thread runs once each time it advances
 * @prep: prep mode of the current generation, DMAENGINE_BENCH_MODE_*
 * @verify: check the destination after this run
 * @abort: set to make the threads end the current run early
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
	struct dmaengine_client_set set;
	char caps_name[64];
	bool unbound;
	unsigned int unbound_channel;
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
const struct dmaengine_client_form *dmaengine_bench_mode(unsigned int mode);
int dmaengine_bench_runs(struct dmaengine_bench_job *job,
			 struct dmaengine_benchmark *p);
u64 dmaengine_bench_chan_buffer_bytes(const struct dmaengine_benchmark *p,
				      u64 batches);

#endif /* _KERNEL_DMA_DMAENGINE_BENCH_H */
