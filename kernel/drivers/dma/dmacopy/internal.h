/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside dmacopy: the channel, the prep forms and what the library's files
 * share; its callers see dmacopy.h only.
 */
#ifndef _DMACOPY_INTERNAL_H
#define _DMACOPY_INTERNAL_H

#include <linux/ktime.h>
#include <linux/notifier.h>

#include "dmacopy.h"
#include "seg_limits.h"

#define DMACOPY_NAME_LEN	32

/**
 * struct dmacopy_chan - a channel the library copies over
 * @chan: the DMA channel, held exclusively by the set
 * @dma_dev: the device to map buffers for: dmaengine_get_dma_device()
 * @prov_dev: chan->device->dev, referenced while the set holds the
 *	channel: what an unbind names, compared without touching @chan
 * @name: dma_chan_name(), kept: the provider may be unbound while the
 *	channel is held, and the name with it
 * @dev_name: dev_name() of the DMA device, kept likewise
 * @caps: the DMA device's capabilities, kept likewise
 * @copy_align: its copy alignment, kept likewise
 * @no_order: the channel completes out of order (DMA_COMPLETION_NO_ORDER):
 *	every descriptor raises a callback, and a batch is done when all did
 * @can_terminate: the provider has device_terminate_all: issued work can
 *	be stopped (ioat, plx_dma and mv_xor cannot; their work runs to its
 *	end, and the memory it touches stays the batch's until then)
 * @released: the set let the channel go (under the set's lock)
 * @quiesced: a batch was abandoned since one was last started: the
 *	channel was stopped then, or found unstoppable, as @terminated says
 * @terminated: dmacopy_quiesce() stopped it then
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
 * @fig: the figures since dmacopy_chan_reset()
 * @fail: the step that failed first since the reset, or DMACOPY_FAIL_NONE
 * @err: its negative errno
 *
 * One task at a time drives a channel: the fields but @released (the
 * set's lock) and the atomics are that task's, unlocked.
 */
struct dmacopy_chan {
	struct dma_chan *chan;
	struct device *dma_dev;
	struct device *prov_dev;
	char name[DMACOPY_NAME_LEN];
	char dev_name[DMACOPY_NAME_LEN];
	dma_cap_mask_t caps;
	unsigned int copy_align;
	bool no_order;
	bool can_terminate;
	bool released;
	bool quiesced;
	bool terminated;
	bool poll;
	unsigned long timeout;
	const bool *abort;
	struct dma_bench_seg_limits seg;
	unsigned int irq_every;
	unsigned int since_irq;
	unsigned int since_stall;
	dma_cookie_t last_cookie;
	atomic_t inflight;
	atomic_t late_callbacks;
	struct list_head batches;
	struct dmacopy_figures fig;
	enum dmacopy_fail fail;
	int err;
};

/**
 * struct dmacopy_bus - one bus the set has a notifier on
 * @nb: the notifier block registered on the bus
 * @bus: that bus
 * @set: the set
 */
struct dmacopy_bus {
	struct notifier_block nb;
	const struct bus_type *bus;
	struct dmacopy_set *set;
};

/**
 * struct dmacopy_piece - what one per-segment descriptor copies
 * @dst: destination DMA address
 * @src: source DMA address
 * @len: bytes
 */
struct dmacopy_piece {
	dma_addr_t dst;
	dma_addr_t src;
	size_t len;
};

/**
 * struct dmacopy_form - a prep form: how a batch of mapped source and
 *	destination tables becomes descriptors
 * @name: the form's name, as the log and the tool say it ("prep_memcpy")
 * @call: its prep call, as a message names it
 * @have_api: this kernel has the form's prep API (decided at build time)
 * @cap: the capability a channel needs for it, when the kernel has the API
 * @cap_name: its name
 * @api: the API beyond DMA_MEMCPY's that the form needs, as a message
 *	names it where the kernel lacks it; NULL: every memcpy channel can
 * @vecs: a batch needs dma_vec arrays of its tables
 * @batch: prepare and submit a batch's descriptors, one prep at a time
 *	(dmacopy_prep_submit()); set where @have_api
 * @prep: one prep call, for @piece (per-segment) or for the whole batch
 */
struct dmacopy_form {
	const char *name;
	const char *call;
	bool have_api;
	enum dma_transaction_type cap;
	const char *cap_name;
	const char *api;
	bool vecs;
	int (*batch)(struct dmacopy_batch *b);
	struct dma_async_tx_descriptor *
		(*prep)(struct dmacopy_batch *b,
			const struct dmacopy_piece *piece,
			unsigned long flags);
};

#ifdef HAVE_DMA_MEMCPY_VEC
/* A batch's tables as dma_vec arrays, for memcpy_vec. */
struct dmacopy_vecs {
	struct dma_vec *src;
	struct dma_vec *dst;
};
#endif

/* forms.c */
const struct dmacopy_form *dmacopy_form(enum dmacopy_form_id id);
bool dmacopy_forms_need_vecs(u32 forms);

/* chan.c */
void dmacopy_set_fail(struct dmacopy_chan *c, enum dmacopy_fail fail,
		      int err);

/* table.c */
bool dmacopy_mapped(const struct sg_table *sgt);
int dmacopy_map(struct dmacopy_chan *c, struct sg_table *src,
		struct sg_table *dst);
u64 dmacopy_mapped_bytes(const struct sg_table *sgt);

/* batch.c */
void dmacopy_batch_free(struct dmacopy_batch *b);
void dmacopy_batch_submitted(struct dmacopy_batch *b);
int dmacopy_prep_submit(struct dmacopy_batch *b,
			const struct dmacopy_piece *piece, bool last);

/* end.c */
bool dmacopy_quiesce(struct dmacopy_chan *c);

/* Nanoseconds since @t0 (a ktime_get()). */
static inline u64 dmacopy_elapsed_ns(ktime_t t0)
{
	return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

#endif /* _DMACOPY_INTERNAL_H */
