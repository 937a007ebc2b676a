// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's end of a batch: a finished one unmapped, a failed one
 * abandoned first. The channel is stopped where its provider can
 * (device_terminate_all), once for all its batches; where it cannot (ioat,
 * plx_dma, mv_xor), the batch's issued descriptors are waited for up to a
 * drain bound, and a batch whose descriptors outlive it keeps its memory
 * (-EBUSY) until dmacopy_batch_idle(), or until its provider's remove()
 * returned (dmacopy_batch_forget()). Run by the task that drives the
 * channel, as the rest of a batch's life (batch.c).
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/sched.h>

#include "internal.h"

/* Twice a second, a channel whose work cannot be stopped is looked at. */
#define DMACOPY_DRAIN_SLICE	(HZ / 2)
/* The least time its issued work is given to run to its end. */
#define DMACOPY_DRAIN_MIN	(30 * HZ)

/*
 * Stop whatever the channel has queued. True when no descriptor of the
 * channel can run any more, nor any callback of it: its batches' memory
 * may be let go. False when the provider cannot terminate (no
 * device_terminate_all, as ioat, plx_dma and mv_xor in 7.3) or failed to:
 * then each busy batch's descriptors must be waited for.
 */
bool dmacopy_quiesce(struct dmacopy_chan *c)
{
	int ret;

	if (!c->can_terminate)
		return false;
	ret = dmaengine_terminate_sync(c->chan);
	if (ret) {
		pr_warn("%s: dmaengine_terminate_sync failed: %d: its issued work is waited for\n",
			c->name, ret);
		return false;
	}
	atomic_set(&c->inflight, 0);
	return true;
}

/*
 * How long a batch that failed is given to finish its issued work on a
 * channel that cannot stop it, unless its caller says: well beyond its
 * deadline.
 */
static unsigned long dmacopy_drain_bound(const struct dmacopy_chan *c)
{
	return max_t(unsigned long, 10 * c->timeout, DMACOPY_DRAIN_MIN);
}

/**
 * dmacopy_batch_idle - whether an abandoned batch's work ended
 * @b: a batch that dmacopy_batch_end() left busy
 *
 * Return: true when the batch's descriptors have all run and their
 * callbacks, which name the batch, have all returned: its memory may go.
 * On a channel the set released, only a callback can tell: the last
 * descriptor's, in order, or every one's on a NO_ORDER channel.
 */
bool dmacopy_batch_idle(struct dmacopy_batch *b)
{
	struct dmacopy_chan *c = b->c;
	enum dma_status status;

	if (atomic_read(&b->pending))
		return false;
	if (c->no_order || !b->ndesc)
		return true;
	if (READ_ONCE(c->released))
		return b->last_callback;
	/* the last may have no callback: its prep or submit did not follow */
	status = dmaengine_tx_status(c->chan, b->last, NULL);
	return status == DMA_COMPLETE || status == DMA_ERROR;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_idle, DMACOPY_NS);

/**
 * dmacopy_batch_forget - let go of a batch whose engine is gone
 * @b: a busy batch on a channel released on its provider's unbind
 *
 * For the end of a quarantine once the provider's remove() returned:
 * the driver has stopped its device, so nothing of the batch runs any
 * more, and no callback of it comes (a late one would find the
 * generation changed).
 */
void dmacopy_batch_forget(struct dmacopy_batch *b)
{
	if (WARN_ON_ONCE(!READ_ONCE(b->c->released)))
		return;
	WRITE_ONCE(b->gen, b->gen + 1);
	b->submitting = false;
	atomic_set(&b->pending, 0);
	b->busy = false;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_forget, DMACOPY_NS);

/**
 * dmacopy_batch_abandon - let go of a batch that failed
 * @b: the batch
 * @drain: jiffies its issued work may take to end where the channel cannot
 *	stop it; DMACOPY_DRAIN_DEFAULT: ten timeouts, at least 30 s
 *
 * The channel is stopped first (once for all its batches, until one is
 * started again): then nothing of the batch runs any more, and a callback
 * that its provider still delivers after the stop (no device_synchronize)
 * finds the batch's generation changed and touches nothing. On a channel
 * that cannot be stopped, what was submitted is issued and waited for, up
 * to @drain: until it has all run the batch's tables, mappings and memory
 * are the engine's, and the batch's struct its callbacks'.
 *
 * Return: 0, the batch is idle (or was not busy) and its memory the
 * caller's again; or -EBUSY: its descriptors still run after the bound,
 * and the caller must keep the batch, its mappings and its memory
 * (quarantine) until dmacopy_batch_idle(), or call again to wait
 * longer.
 */
static int dmacopy_batch_abandon(struct dmacopy_batch *b,
				 unsigned long drain)
{
	struct dmacopy_chan *c = b->c;
	unsigned long bound = drain == DMACOPY_DRAIN_DEFAULT ?
			      dmacopy_drain_bound(c) : drain;
	unsigned long until = jiffies + bound;

	if (!b->busy)
		return 0;
	if (!c->quiesced) {
		c->terminated = dmacopy_quiesce(c);
		c->quiesced = true;
	}
	if (c->terminated) {
		/*
		 * Nothing runs any more; a callback may still come where the
		 * provider has no device_synchronize: it is of an old
		 * generation from now on, and the ones counted are forgotten.
		 */
		WRITE_ONCE(b->gen, b->gen + 1);
		b->submitting = false;
		atomic_set(&b->pending, 0);
		b->busy = false;
		return 0;
	}
	pr_info_ratelimited("%s: a failed batch cannot be terminated: waiting for its descriptors, up to %u ms\n",
			    c->name, jiffies_to_msecs(bound));
	if (b->submitting) {
		/* submitted descriptors would run with the next issue anyway */
		dma_async_issue_pending(c->chan);
		dmacopy_batch_submitted(b);
	}
	while (!dmacopy_batch_idle(b)) {
		long left = (long)(until - jiffies);

		if (left < 0) {
			pr_err("%s: the batch's descriptors still run %u ms after it failed, and cannot be terminated: its memory stays theirs\n",
			       c->name, jiffies_to_msecs(bound));
			return -EBUSY;
		}
		/* the bound to the jiffy, not to the slice */
		if (c->poll || !atomic_read(&b->pending))
			schedule_timeout_uninterruptible(1);
		else
			wait_for_completion_timeout(&b->done,
						    clamp_t(long, left, 1,
							    DMACOPY_DRAIN_SLICE));
	}
	b->busy = false;
	return 0;
}

/**
 * dmacopy_batch_end - let go of a batch: abandoned if it failed, unmapped
 * @b: the batch: finished (dmacopy_batch_finish()), or busy after a failure
 * @drain: jiffies a failed batch's issued work may take to end where the
 *	channel cannot stop it; DMACOPY_DRAIN_DEFAULT: ten timeouts, at least
 *	30 s
 * @unmap: unmap its tables too (not when the caller maps them once for
 *	several batches, and unmaps them itself: dmacopy_tables_unmap())
 *
 * A busy batch is abandoned first: see dmacopy_batch_abandon().
 *
 * Return: 0, the batch is idle and its memory the caller's again; or
 * -EBUSY: its descriptors still run after @drain on a channel that cannot
 * stop them, nothing was unmapped, and the caller must keep the batch, its
 * tables and their memory (quarantine) until dmacopy_batch_idle(), or call
 * again to wait longer.
 */
int dmacopy_batch_end(struct dmacopy_batch *b, unsigned long drain, bool unmap)
{
	if (b->busy && dmacopy_batch_abandon(b, drain))
		return -EBUSY;
	if (unmap && b->src)
		dmacopy_tables_unmap(b->c, b->src, b->dst);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_end, DMACOPY_NS);

/**
 * dmacopy_batch_busy - whether a batch was started and not yet let go of
 * @b: the batch
 *
 * Return: true from dmacopy_batch_start()'s mapping on, until
 * dmacopy_batch_finish() succeeds or dmacopy_batch_end() returns 0.
 */
bool dmacopy_batch_busy(const struct dmacopy_batch *b)
{
	return b->busy;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_busy, DMACOPY_NS);
