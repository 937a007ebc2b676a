/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine client: a set of channels held for their whole life
 * (dmaengine_set.c: request, limits, the unbind watch, release), and the
 * batches copied over them: a pair of mapped sg_tables, a prep form, one
 * deadline, every phase accounted (dmaengine_client.c). Driven by the
 * benchmark's per-channel threads (dmaengine_chan.c) and by the migration
 * copy offload (migrate_offload.c).
 */
#ifndef _KERNEL_DMA_DMAENGINE_CLIENT_H
#define _KERNEL_DMA_DMAENGINE_CLIENT_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/dmaengine.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

#include "core.h"

/**
 * struct dmaengine_client_figures - what one channel measured
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
struct dmaengine_client_figures {
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
 * struct dmaengine_client_chan - a channel the client copies over
 * @chan: the DMA channel, held exclusively by the set
 * @dma_dev: the device to map buffers for: dmaengine_get_dma_device()
 * @prov_dev: chan->device->dev, referenced while the set holds the
 *	channel: what an unbind names, compared without touching @chan
 * @name: dma_chan_name(), kept: the provider may be unbound while the
 *	channel is held, and the name with it
 * @dev_name: dev_name() of the DMA device, kept likewise
 * @no_order: the channel completes out of order (DMA_COMPLETION_NO_ORDER):
 *	every descriptor raises a callback, and a batch is done when all did
 * @can_terminate: the provider has device_terminate_all: issued work can
 *	be stopped (ioat, plx_dma and mv_xor cannot; their work runs to its
 *	end, and the memory it touches stays the batch's until then)
 * @released: the set let the channel go (its provider was unbound)
 * @quiesced: a batch was abandoned since one was last started: the
 *	channel was stopped then, or found unstoppable, as @terminated says
 * @terminated: dmaengine_client_quiesce() stopped it then
 * @poll: batches are waited for by polling tx_status, without callbacks
 * @timeout: jiffies one batch may take, its prep stalls included
 * @abort: the caller's flag that ends what the channel does early
 * @seg: what one sg entry, or one memcpy descriptor, may be: the device's
 *	max_seg_size, max mapping size and segment boundary, the length kept
 *	aligned to the copy alignment
 * @irq_every: after a prep stalled, every @irq_every-th descriptor asks
 *	for an interrupt, so that a provider that retires descriptors only
 *	then makes room; 0: only a batch's last one asks
 * @since_irq: descriptors prepared since the last that asked for one
 * @since_stall: descriptors prepared since a prep last stalled: what the
 *	provider's pool took before it was full
 * @last_cookie: the cookie submitted last on the channel
 * @inflight: callbacks still to come, all batches (NO_ORDER channels)
 * @late_callbacks: callbacks of abandoned batches' descriptors that came
 *	after the abandon (a provider without device_synchronize), ignored
 * @batches: the batches allocated on the channel, freed with the set
 * @fig: the figures since dmaengine_client_chan_reset()
 * @error: DMAENGINE_BENCH_ERR_* of the first failure since the reset, or 0
 * @err: the matching negative errno
 *
 * One task at a time drives a channel: the fields are not locked.
 */
struct dmaengine_client_chan {
	struct dma_chan *chan;
	struct device *dma_dev;
	struct device *prov_dev;
	char name[DMAENGINE_BENCH_NAME_LEN];
	char dev_name[DMAENGINE_BENCH_NAME_LEN];
	bool no_order;
	bool can_terminate;
	bool released;
	bool quiesced;
	bool terminated;
	bool poll;
	unsigned long timeout;
	const bool *abort;
	struct mb_seg_limits seg;
	unsigned int irq_every;
	unsigned int since_irq;
	unsigned int since_stall;
	dma_cookie_t last_cookie;
	atomic_t inflight;
	atomic_t late_callbacks;
	struct list_head batches;
	struct dmaengine_client_figures fig;
	u32 error;
	int err;
};

struct dmaengine_client_form;

/**
 * struct dmaengine_client_batch - a batch: two mapped tables, in flight
 * @c: its channel
 * @node: in @c's batches
 * @form: the prep form it is copied with
 * @src: source table, mapped DMA_TO_DEVICE on @c's device
 * @dst: destination table, mapped DMA_FROM_DEVICE
 * @cookies: cookies of its descriptors, to check each of them
 * @max_txs: entries in @cookies
 * @ndesc: descriptors submitted
 * @last: cookie of the last one
 * @deadline: jiffies by which the whole batch, prep stalls included, must
 *	have completed; one that completes later failed
 * @pending: callbacks to come, plus one until every descriptor is issued
 * @submitting: that one is still held
 * @done: completed when @pending drops to zero
 * @result: the first result other than DMA_TRANS_NOERROR a callback gave
 * @busy: started and not yet finished: after a failure it is abandoned
 *	(dmaengine_client_batch_abandon()) before its memory is let go
 * @gen: its generation, counted up at each start and abandon: a callback
 *	of another generation's descriptor is late, and ignored
 * @last_callback: its last descriptor was submitted with a callback
 * @src_vecs: the source table as a dma_vec array (memcpy_vec)
 * @dst_vecs: the destination table likewise
 */
struct dmaengine_client_batch {
	struct dmaengine_client_chan *c;
	struct list_head node;
	const struct dmaengine_client_form *form;
	struct sg_table *src;
	struct sg_table *dst;
	dma_cookie_t *cookies;
	unsigned int max_txs;
	unsigned int ndesc;
	dma_cookie_t last;
	unsigned long deadline;
	atomic_t pending;
	bool submitting;
	struct completion done;
	int result;
	bool busy;
	unsigned long gen;
	bool last_callback;
#ifdef HAVE_DMA_MEMCPY_VEC
	struct dma_vec *src_vecs;
	struct dma_vec *dst_vecs;
#endif
};

/**
 * struct dmaengine_client_piece - what one per-segment descriptor copies
 * @dst: destination DMA address
 * @src: source DMA address
 * @len: bytes
 */
struct dmaengine_client_piece {
	dma_addr_t dst;
	dma_addr_t src;
	size_t len;
};

/**
 * struct dmaengine_client_form - a prep form: how a batch of mapped source
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
 *	(dmaengine_client_prep_submit()), keeping the provider contracts:
 *	nothing between a prep and its submit, room made when the pool is
 *	full; NULL: the CPU copies the batch (the benchmark's cpu mode)
 * @prep: one prep call, for @piece (per-segment) or for the whole batch
 *
 * dmaengine_forms.c has one per DMAENGINE_BENCH_MODE_* that copies with
 * an engine: dmaengine_client_form().
 */
struct dmaengine_client_form {
	const char *name;
	const char *call;
	bool have_api;
	enum dma_transaction_type cap;
	const char *cap_name;
	const char *api;
	bool vecs;
	int (*batch)(struct dmaengine_client_batch *b);
	struct dma_async_tx_descriptor *
		(*prep)(struct dmaengine_client_batch *b,
			const struct dmaengine_client_piece *piece,
			unsigned long flags);
};

const struct dmaengine_client_form *dmaengine_client_form(unsigned int mode);

struct dmaengine_client_set;

/**
 * struct dmaengine_client_request - which channels a set takes, and how
 * @channel: only the channel of this dma_chan_name(), empty: any
 * @device: only channels of the DMA device of this dev_name(), empty: any
 * @caps: the capabilities every channel must have
 * @caps_name: their names, as the refusal says them ("DMA_MEMCPY")
 * @count: channels wanted
 * @allow_fewer: fewer than @count (at least one) will do
 * @quiet: too few is no refusal: the caller asks again otherwise
 * @poll: the set's batches are polled for, without callbacks
 * @timeout: jiffies a batch may take
 * @abort: the caller's flag that ends what the channels do early
 * @unbind: called, from the bus notifier, when the provider of channel
 *	@index is about to be unbound: it returns once the caller no longer
 *	touches the channel, nor memory its batches hold; the set then
 *	terminates and releases the channel before the provider's remove()
 *	runs. NULL: the set only releases it. It may be called from the end
 *	of dmaengine_client_set_open() on, before that returns: what it
 *	stops need not have started yet (it then finds nothing to stop, and
 *	makes sure nothing starts).
 * @released: called, from the bus notifier, once the set released channel
 *	@index after @unbind (still before the provider's remove()): a
 *	batch the caller keeps quarantined on it may have ended with the
 *	release (dmaengine_client_batch_idle()); NULL: nothing to do
 * @unbound: called, from the bus notifier, once the provider's remove()
 *	returned for a channel released on its unbind: a driver stops its
 *	device's DMA in remove(), so what the caller kept quarantined there
 *	may go (dmaengine_client_batch_forget()); NULL: nothing to do
 * @priv: the caller's, for @unbind, @released and @unbound
 */
struct dmaengine_client_request {
	const char *channel;
	const char *device;
	dma_cap_mask_t caps;
	const char *caps_name;
	unsigned int count;
	bool allow_fewer;
	bool quiet;
	bool poll;
	unsigned long timeout;
	const bool *abort;
	void (*unbind)(struct dmaengine_client_set *set, unsigned int index);
	void (*released)(struct dmaengine_client_set *set, unsigned int index);
	void (*unbound)(struct dmaengine_client_set *set, unsigned int index);
	void *priv;
};

/**
 * struct dmaengine_client_bus - one bus the set has a notifier on
 * @nb: the notifier block registered on the bus
 * @bus: that bus
 * @set: the set
 */
struct dmaengine_client_bus {
	struct notifier_block nb;
	const struct bus_type *bus;
	struct dmaengine_client_set *set;
};

/**
 * struct dmaengine_client_set - channels held from open to close
 * @chans: the channels, @nr of them
 * @nr: channels held
 * @req: the request they were taken for
 * @buses: the buses of their providers, watched for an unbind
 * @nr_buses: entries in @buses
 * @lock: serializes releasing a channel: an unbind against the close
 */
struct dmaengine_client_set {
	struct dmaengine_client_chan *chans;
	unsigned int nr;
	struct dmaengine_client_request req;
	struct dmaengine_client_bus *buses;
	unsigned int nr_buses;
	struct mutex lock; /* releasing a channel */
};

int dmaengine_client_set_open(struct dmaengine_client_set *set,
			      const struct dmaengine_client_request *req,
			      u32 *error);
void dmaengine_client_set_close(struct dmaengine_client_set *set);

void dmaengine_client_chan_reset(struct dmaengine_client_chan *c);
int dmaengine_client_table_fill(const struct dmaengine_client_chan *c,
				struct sg_table *sgt, struct folio **folios,
				unsigned int n, gfp_t gfp);
void dmaengine_client_unmap(struct dmaengine_client_chan *c,
			    struct sg_table *src, struct sg_table *dst);

int dmaengine_client_batch_alloc(struct dmaengine_client_batch *b,
				 struct dmaengine_client_chan *c,
				 unsigned int max_ents, u64 bytes, bool vecs,
				 gfp_t gfp);
int dmaengine_client_batch_start(struct dmaengine_client_batch *b,
				 const struct dmaengine_client_form *form,
				 struct sg_table *src, struct sg_table *dst,
				 unsigned long deadline);
int dmaengine_client_batch_finish(struct dmaengine_client_batch *b,
				  bool check);
/* dmaengine_client_batch_abandon()'s drain: the channel's own bound */
#define DMAENGINE_CLIENT_DRAIN_DEFAULT	0UL
int dmaengine_client_batch_abandon(struct dmaengine_client_batch *b,
				   unsigned long drain);
bool dmaengine_client_batch_idle(struct dmaengine_client_batch *b);
void dmaengine_client_batch_forget(struct dmaengine_client_batch *b);

#endif /* _KERNEL_DMA_DMAENGINE_CLIENT_H */
