/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine mode: state shared by the coordinator (dmaengine_bench.c)
 * and the per-channel threads (dmaengine_chan.c).
 */
#ifndef _KERNEL_DMA_DMAENGINE_BENCH_H
#define _KERNEL_DMA_DMAENGINE_BENCH_H

#include <linux/completion.h>
#include <linux/dmaengine.h>
#include <linux/notifier.h>
#include <linux/scatterlist.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "core.h"

/**
 * struct dmaengine_bench_figures - what one channel measured in one run
 * @start: ktime of the run's start on this channel
 * @end: ktime of the run's end on this channel
 * @prep_ns: time in prep calls, those that returned NULL included, and
 *	building the dma_vec arrays they take (memcpy_vec)
 * @submit_ns: time in dmaengine_submit()
 * @issue_ns: time in dma_async_issue_pending()
 * @wait_ns: time blocked waiting for the provider: for a batch's
 *	completion, or for room after a prep returned NULL
 * @map_ns: time mapping source and destination
 * @unmap_ns: time unmapping them
 * @copy_ns: time in the CPU copy (prep mode cpu)
 * @convert_ns: time building dma_vec arrays from the mapped tables
 * @bytes: bytes copied
 * @prep_calls: prep calls that returned a descriptor
 * @prep_stalls: prep calls that returned NULL and were retried
 * @submits: descriptors submitted
 * @batches: batches run
 * @segments: source segments copied
 */
struct dmaengine_bench_figures {
	ktime_t start;
	ktime_t end;
	u64 prep_ns;
	u64 submit_ns;
	u64 issue_ns;
	u64 wait_ns;
	u64 map_ns;
	u64 unmap_ns;
	u64 copy_ns;
	u64 convert_ns;
	u64 bytes;
	u64 prep_calls;
	u64 prep_stalls;
	u64 submits;
	u64 batches;
	u64 segments;
};

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

struct dmaengine_bench_chan;

/**
 * struct dmaengine_bench_slot - a batch in flight
 * @c: its channel
 * @set: the buffers it copies
 * @cookies: cookies of its descriptors, to check each with --verify
 * @ndesc: descriptors submitted
 * @last: cookie of the last one
 * @pending: callbacks to come, plus one while descriptors are submitted
 * @done: completed when @pending drops to zero
 * @result: the first result other than DMA_TRANS_NOERROR a callback gave
 * @busy: submitted and not yet retired
 * @src_vecs: the source table as a dma_vec array (memcpy_vec)
 * @dst_vecs: the destination table likewise
 */
struct dmaengine_bench_slot {
	struct dmaengine_bench_chan *c;
	struct dmaengine_bench_set *set;
	dma_cookie_t *cookies;
	unsigned int ndesc;
	dma_cookie_t last;
	atomic_t pending;
	struct completion done;
	int result;
	bool busy;
#ifdef HAVE_DMA_MEMCPY_VEC
	struct dma_vec *src_vecs;
	struct dma_vec *dst_vecs;
#endif
};

struct dmaengine_bench_run;

/**
 * struct dmaengine_bench_chan - one channel and the thread that drives it
 * @run: the run this channel belongs to
 * @index: position in the run's channel array
 * @chan: the DMA channel, held exclusively for the whole ioctl
 * @dma_dev: the device to map buffers for: dmaengine_get_dma_device()
 * @name: dma_chan_name(), kept: the provider may be unbound during a run,
 *	and the name with it
 * @dev_name: dev_name() of the DMA device, kept likewise
 * @task: the thread
 * @affinity: the CPUs the thread keeps to (--cpus), or NULL
 * @src_node: NUMA node of the source folios
 * @dst_node: NUMA node of the destination folios
 * @no_order: the channel completes out of order (DMA_COMPLETION_NO_ORDER):
 *	every descriptor raises a callback, and the batch is done when all did
 * @src: every source folio of the channel
 * @dst: every destination folio
 * @nfolios: folios in @src
 * @dst_nfolios: folios in @dst
 * @sets: the batches' buffers: one set per batch of a run with distinct
 *	buffers, one set copied again and again otherwise
 * @nsets: entries in @sets
 * @slots: the batches in flight: dmaengine_bench_run.depth of them, reused
 *	in turn
 * @max_txs: descriptors a batch can take at the most
 * @seg: what one sg entry, or one memcpy descriptor, may be: the device's
 *	max_seg_size, max mapping size and segment boundary, the length kept
 *	aligned
 * @max_ents: entries a batch's source or destination table can have
 * @irq_every: after a prep stalled, every @irq_every-th descriptor asks
 *	for an interrupt, so that a provider that retires descriptors only
 *	then makes room; 0: only a batch's last one asks
 * @since_irq: descriptors prepared since the last that asked for one
 * @since_stall: descriptors prepared since a prep last stalled: what the
 *	provider's pool took before it was full
 * @last_cookie: the cookie submitted last on the channel
 * @inflight: callbacks still to come, all slots (NO_ORDER channels)
 * @fig: this channel's figures for the current run
 * @error: DMAENGINE_BENCH_ERR_* of the current run, or 0
 * @err: the matching negative errno
 */
struct dmaengine_bench_chan {
	struct dmaengine_bench_run *run;
	unsigned int index;
	struct dma_chan *chan;
	struct device *dma_dev;
	char name[DMAENGINE_BENCH_NAME_LEN];
	char dev_name[DMAENGINE_BENCH_NAME_LEN];
	struct task_struct *task;
	const struct cpumask *affinity;
	int src_node;
	int dst_node;
	bool no_order;
	struct folio **src;
	struct folio **dst;
	unsigned long nfolios;
	unsigned long dst_nfolios;
	struct dmaengine_bench_set *sets;
	unsigned int nsets;
	struct dmaengine_bench_slot *slots;
	unsigned int max_txs;
	struct mb_seg_limits seg;
	unsigned int max_ents;
	unsigned int irq_every;
	unsigned int since_irq;
	unsigned int since_stall;
	dma_cookie_t last_cookie;
	atomic_t inflight;
	struct dmaengine_bench_figures fig;
	u32 error;
	int err;
};

/**
 * struct dmaengine_bench_bus_watch - a bus whose unbinding of a provider
 *	ends the run
 * @nb: the notifier block registered on the bus
 * @dev: a DMA device of the run on that bus, referenced while watched
 * @run: the run
 */
struct dmaengine_bench_bus_watch {
	struct notifier_block nb;
	struct device *dev;
	struct dmaengine_bench_run *run;
};

/**
 * struct dmaengine_bench_run - one DMAENGINE_BENCHMARK call
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
 * @watches: buses watched for the unbinding of a provider
 * @nr_watches: entries in @watches
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
struct dmaengine_bench_run {
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
	struct dmaengine_bench_bus_watch *watches;
	unsigned int nr_watches;
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

/**
 * struct dmaengine_bench_piece - what one per-segment descriptor copies
 * @dst: destination DMA address
 * @src: source DMA address
 * @len: bytes
 */
struct dmaengine_bench_piece {
	dma_addr_t dst;
	dma_addr_t src;
	size_t len;
};

/**
 * struct dmaengine_bench_form - a prep form: how a batch of mapped source
 *	and destination tables becomes descriptors
 * @name: the form's name, as the log and the tool say it ("prep_memcpy")
 * @call: its prep call, as a message names it
 * @have_api: this kernel has the form's prep API (decided at build time)
 * @cap: the capability a channel needs for it, when the kernel has the API
 * @cap_name: its name
 * @api: the API beyond DMA_MEMCPY's that the form needs, as a message
 *	names it where the kernel lacks it; NULL: every memcpy channel can
 * @vecs: a batch needs dma_vec arrays of its tables
 * @batch: prepare and submit a batch's descriptors, one prep at a time
 *	(dmaengine_bench_prep_submit()); NULL: the CPU copies the batch
 * @prep: one prep call, for @piece (per-segment) or for the whole batch
 *
 * dmaengine_bench_forms[] has one per DMAENGINE_BENCH_MODE_*.
 */
struct dmaengine_bench_form {
	const char *name;
	const char *call;
	bool have_api;
	enum dma_transaction_type cap;
	const char *cap_name;
	const char *api;
	bool vecs;
	int (*batch)(struct dmaengine_bench_chan *c,
		     struct dmaengine_bench_slot *s);
	struct dma_async_tx_descriptor *
		(*prep)(struct dmaengine_bench_chan *c,
			struct dmaengine_bench_slot *s,
			const struct dmaengine_bench_piece *piece,
			unsigned long flags);
};

extern const struct dmaengine_bench_form
	dmaengine_bench_forms[DMAENGINE_BENCH_NR_MODES];

/* Whether a form of @modes (DMAENGINE_BENCH_PREP_* bits) takes dma_vecs. */
static inline bool dmaengine_bench_modes_need_vecs(u32 modes)
{
	unsigned int m;

	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
		if (modes & BIT(m) && dmaengine_bench_forms[m].vecs)
			return true;
	return false;
}

int dmaengine_bench_chan_setup(struct dmaengine_bench_chan *c);
void dmaengine_bench_chan_teardown(struct dmaengine_bench_chan *c);
int dmaengine_bench_chan_thread(void *data);
u64 dmaengine_bench_chan_buffer_bytes(const struct dmaengine_benchmark *p,
				      u64 batches);

#endif /* _KERNEL_DMA_DMAENGINE_BENCH_H */
