// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's batches: a pair of sg_tables mapped on a channel's device
 * (table.c), copied with a prep form (forms.c: per-segment memcpy,
 * memcpy_sg, memcpy_vec), waited for until one deadline, every phase timed
 * (map, prep, submit, issue, wait, unmap). The channels themselves are a
 * set's (set.c).
 *
 * One task at a time drives a channel and its batches: the functions here
 * but a descriptor's callback run in that task, and take no lock. A
 * callback touches only the batch's atomics, its result before the
 * completion, and the channel's atomics.
 *
 * The library keeps the contract of Documentation/driver-api/dmaengine/
 * client.rst for every kind of provider, not only for soft_dma:
 *
 * - Each descriptor is submitted right after its prep, before the next
 *   prep: a driver may hold a lock from prep to submit (ioat).
 * - A prep that returns NULL while descriptors are in flight is a full
 *   descriptor pool (zynqmp_dma, idxd): what is submitted is issued, the
 *   caller waits for the provider to make room and retries, counting the
 *   stall. It fails only when nothing is in flight, or when the provider
 *   makes no room within the timeout.
 * - On a channel that completes out of order (DMA_COMPLETION_NO_ORDER,
 *   idxd) every descriptor raises a callback and a batch is done when all
 *   of them have; on others the last descriptor's completion implies the
 *   earlier ones'.
 * - A batch is done when every descriptor of it reports DMA_COMPLETE, by
 *   its deadline. A batch that failed is abandoned: its descriptors are
 *   terminated where the provider can (device_terminate_all), and where
 *   it cannot (ioat, plx_dma, mv_xor) they are waited for: until they
 *   have all run, the batch's memory is not given back to anyone, and its
 *   struct, which their callbacks name, is not reused.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/* How often a waiting caller looks at the abort flag. */
#define DMACOPY_WAIT_SLICE	(HZ / 10)
/* How long a stalled prep sleeps before it tries again, in us. */
#define DMACOPY_STALL_MIN_US	20
#define DMACOPY_STALL_MAX_US	100
/* How long a channel with nothing in flight may keep refusing preps. */
#define DMACOPY_IDLE_GRACE	(HZ / 10)

static bool dmacopy_aborted(const struct dmacopy_chan *c)
{
	return READ_ONCE(*c->abort);
}

/*
 * Descriptors a batch of tables of at most @max_ents entries and @bytes
 * can take: mapped segments can merge (IOMMU) but never exceed the batch;
 * the source and destination tables each end segments independently.
 */
static unsigned int dmacopy_max_txs(const struct dmacopy_chan *c,
				    unsigned int max_ents, u64 bytes)
{
	return 2 * max_ents + div_u64(bytes, c->seg.max) + 1;
}

/* ------------------------------------------------------------------ */
/* A batch's memory                                                     */
/* ------------------------------------------------------------------ */

/**
 * dmacopy_batch_alloc - room for a batch's cookies (and vecs)
 * @b: the batch, zeroed by the caller, kept by it until the set's close
 * @c: the channel it runs on
 * @max_ents: entries its tables may have
 * @bytes: bytes it may copy
 * @forms: BIT(DMACOPY_FORM_*) of the forms it will be started with
 * @gfp: how to allocate
 *
 * By the task that drives @c.
 * Return: 0 or -ENOMEM; either way dmacopy_set_close() frees what
 * was allocated.
 */
int dmacopy_batch_alloc(struct dmacopy_batch *b,
			struct dmacopy_chan *c,
			unsigned int max_ents, u64 bytes, u32 forms,
			gfp_t gfp)
{
	b->c = c;
	list_add_tail(&b->node, &c->batches);
	init_completion(&b->done);
	b->max_txs = dmacopy_max_txs(c, max_ents, bytes);
	b->cookies = kvcalloc(b->max_txs, sizeof(*b->cookies), gfp);
	if (!b->cookies)
		return -ENOMEM;
#ifdef HAVE_DMA_MEMCPY_VEC
	if (dmacopy_forms_need_vecs(forms)) {
		b->vecs = kzalloc_obj(*b->vecs, gfp);
		if (!b->vecs)
			return -ENOMEM;
		b->vecs->src = kvcalloc(max_ents, sizeof(*b->vecs->src), gfp);
		b->vecs->dst = kvcalloc(max_ents, sizeof(*b->vecs->dst), gfp);
		if (!b->vecs->src || !b->vecs->dst)
			return -ENOMEM;
	}
#endif
	return 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_alloc, DMACOPY_NS);

/* What dmacopy_batch_alloc() allocated, at the set's close. */
void dmacopy_batch_free(struct dmacopy_batch *b)
{
	kvfree(b->cookies);
	b->cookies = NULL;
#ifdef HAVE_DMA_MEMCPY_VEC
	if (b->vecs) {
		kvfree(b->vecs->src);
		kvfree(b->vecs->dst);
		kfree(b->vecs);
		b->vecs = NULL;
	}
#endif
}

/* ------------------------------------------------------------------ */
/* Descriptors: prep, submit, and room in a bounded pool               */
/* ------------------------------------------------------------------ */

static void dmacopy_batch_put(struct dmacopy_batch *b)
{
	if (atomic_dec_and_test(&b->pending))
		complete(&b->done);
}

/*
 * A descriptor's callback parameter: its batch, with the low bits of the
 * batch's generation in the pointer's alignment. A batch abandoned on a
 * provider that has device_terminate_all but no device_synchronize (pl330
 * and dw in 7.3) may see a callback of its old descriptors after
 * dmaengine_terminate_sync() returned, when it runs again already: the
 * generation tells such a late callback from one of the batch's current
 * descriptors, and it touches nothing. A callback late by a multiple of
 * DMACOPY_GEN_MASK + 1 generations (4 or 8) would still match: a
 * late callback runs within the provider's tasklet, long before that many
 * batches ran.
 */
#define DMACOPY_GEN_MASK	\
	((unsigned long)__alignof__(struct dmacopy_batch) - 1)
static_assert(DMACOPY_GEN_MASK >= 3);

static void *dmacopy_token(struct dmacopy_batch *b)
{
	return (void *)((unsigned long)b | (b->gen & DMACOPY_GEN_MASK));
}

static void dmacopy_callback(void *param,
			     const struct dmaengine_result *result)
{
	unsigned long token = (unsigned long)param;
	struct dmacopy_batch *b;

	b = (void *)(token & ~DMACOPY_GEN_MASK);
	if ((token & DMACOPY_GEN_MASK) !=
	    (READ_ONCE(b->gen) & DMACOPY_GEN_MASK)) {
		/* a descriptor of an abandoned batch: not the batch's now */
		atomic_inc(&b->c->late_callbacks);
		return;
	}
	/* the batch's waiter reads it after the completion */
	if (result->result != DMA_TRANS_NOERROR && !b->result)
		b->result = result->result;
	if (b->c->no_order)
		atomic_dec(&b->c->inflight);
	dmacopy_batch_put(b);
}

/* Whether a descriptor submitted on the channel may still complete. */
static bool dmacopy_in_flight(struct dmacopy_chan *c)
{
	enum dma_status status;

	if (c->no_order)
		return atomic_read(&c->inflight) > 0;
	if (!c->last_cookie)
		return false;
	/* also gives a provider that cleans up in tx_status (ioat) a call */
	status = dmaengine_tx_status(c->chan, c->last_cookie, NULL);
	return status != DMA_COMPLETE && status != DMA_ERROR;
}

/*
 * A stalled provider may retire descriptors only on an interrupt: from the
 * first stall on, ask for one every half of what the pool held.
 */
static void dmacopy_moderate_irqs(struct dmacopy_chan *c)
{
	if (!c->irq_every)
		c->irq_every = max(1U, c->since_stall / 2);
}

/**
 * struct dmacopy_stall - a prep that returned NULL, while it is
 *	retried
 * @deadline: when the provider must have made room
 * @idle_since: when the channel was first seen with nothing in flight
 * @stalled: the first NULL was counted and the channel issued
 * @idle: nothing has been in flight since @idle_since
 */
struct dmacopy_stall {
	unsigned long deadline;
	unsigned long idle_since;
	bool stalled;
	bool idle;
};

/*
 * A prep returned NULL. With descriptors in flight the provider's pool is
 * full: issue what is submitted and wait, in short sleeps timed as waiting,
 * for room. A completed descriptor may return to the pool a little after
 * its cookie completes (zynqmp_dma frees it once its callback has run), so
 * only a channel idle for DMACOPY_IDLE_GRACE makes a NULL a failure
 * rather than a full pool. Returns 0 when it is time to retry, or an error.
 */
static int dmacopy_stall(struct dmacopy_chan *c,
			 const char *call,
			 struct dmacopy_stall *st)
{
	ktime_t t0;

	if (!st->stalled) {
		st->stalled = true;
		c->fig.prep_stalls++;
		dmacopy_moderate_irqs(c);
		t0 = ktime_get();
		dma_async_issue_pending(c->chan);
		c->fig.issue_ns += dmacopy_elapsed_ns(t0);
	}
	if (dmacopy_aborted(c)) {
		dmacopy_set_fail(c, DMACOPY_FAIL_ABORT, -EINTR);
		return -EINTR;
	}
	if (dmacopy_in_flight(c)) {
		st->idle = false;
	} else if (!st->idle) {
		st->idle = true;
		st->idle_since = jiffies;
	} else if (time_after(jiffies,
			      st->idle_since + DMACOPY_IDLE_GRACE)) {
		pr_err("%s: %s returned NULL with no descriptor in flight for %u ms (prep call %llu on the channel)\n",
		       c->name, call, jiffies_to_msecs(DMACOPY_IDLE_GRACE),
		       c->fig.prep_calls + 1);
		dmacopy_set_fail(c, DMACOPY_FAIL_PREP, -EIO);
		return -EIO;
	}
	if (time_after(jiffies, st->deadline)) {
		pr_err("%s: %s returned NULL for %u ms while descriptors were in flight: the provider's descriptor pool made no room\n",
		       c->name, call, jiffies_to_msecs(c->timeout));
		dmacopy_set_fail(c, DMACOPY_FAIL_STALL,
				 -ENOSPC);
		return -ENOSPC;
	}
	t0 = ktime_get();
	usleep_range(DMACOPY_STALL_MIN_US,
		     DMACOPY_STALL_MAX_US);
	c->fig.wait_ns += dmacopy_elapsed_ns(t0);
	return 0;
}

/*
 * Interrupt and callback flags of the next descriptor. A batch's last one
 * completes the batch; on a NO_ORDER channel each one counts.
 */
static unsigned long dmacopy_flags(struct dmacopy_chan *c,
				   bool last)
{
	unsigned long flags = DMA_CTRL_ACK;

	if (c->poll)
		return flags;
	if (last || c->no_order ||
	    (c->irq_every && ++c->since_irq >= c->irq_every)) {
		c->since_irq = 0;
		flags |= DMA_PREP_INTERRUPT;
	}
	return flags;
}

/* Submit @tx right after its prep, with the batch's callback if it needs one. */
static int dmacopy_submit(struct dmacopy_batch *b,
			  struct dma_async_tx_descriptor *tx,
			  bool last)
{
	struct dmacopy_chan *c = b->c;
	bool callback = !c->poll && (last || c->no_order);
	dma_cookie_t cookie;
	ktime_t t0;

	/*
	 * Callbacks are the client's to set: a recycled descriptor may carry
	 * another client's (pl330 before "dmaengine: pl330: Clear
	 * callback_result for re-used descs" kept ->callback_result).
	 */
	tx->callback = NULL;
	tx->callback_result = callback ? dmacopy_callback : NULL;
	tx->callback_param = callback ? dmacopy_token(b) : NULL;
	if (callback) {
		atomic_inc(&b->pending);
		if (c->no_order)
			atomic_inc(&c->inflight);
	}

	t0 = ktime_get();
	cookie = dmaengine_submit(tx);
	c->fig.submit_ns += dmacopy_elapsed_ns(t0);
	if (dma_submit_error(cookie)) {
		/* no callback will come for it: the submission's hold stays */
		if (callback) {
			atomic_dec(&b->pending);
			if (c->no_order)
				atomic_dec(&c->inflight);
		}
		pr_err("%s: dmaengine_submit of descriptor %u failed: %d\n",
		       c->name, b->ndesc, cookie);
		dmacopy_set_fail(c, DMACOPY_FAIL_SUBMIT, -EIO);
		return -EIO;
	}
	c->fig.submits++;
	b->last_callback = callback;
	b->cookies[b->ndesc++] = cookie;
	b->last = cookie;
	c->last_cookie = cookie;
	return 0;
}

/*
 * One prep call, timed: for a piece in per-segment form, for the whole
 * batch in the others. A kernel without a form's API never gets here:
 * its callers refuse the form before any channel is touched.
 */
static struct dma_async_tx_descriptor *
dmacopy_prep_call(struct dmacopy_batch *b,
		  const struct dmacopy_piece *piece,
		  unsigned long flags)
{
	struct dma_async_tx_descriptor *tx;
	ktime_t t0 = ktime_get();

	tx = b->form->prep(b, piece, flags);
	b->c->fig.prep_ns += dmacopy_elapsed_ns(t0);
	return tx;
}

/**
 * dmacopy_prep_submit - prepare and submit one descriptor
 * @b: the batch
 * @piece: what it copies (per-segment), or NULL: the whole batch
 * @last: the batch's last descriptor
 *
 * Waits for room in a full pool (dmacopy_stall()); nothing else
 * runs between the prep that returned a descriptor and its submit.
 * Return: 0, or an error recorded in the channel.
 */
int dmacopy_prep_submit(struct dmacopy_batch *b,
			const struct dmacopy_piece *piece,
			bool last)
{
	struct dmacopy_chan *c = b->c;
	unsigned long flags = dmacopy_flags(c, last);
	struct dmacopy_stall st = { .deadline = b->deadline };
	struct dma_async_tx_descriptor *tx;
	int ret;

	if (WARN_ON_ONCE(b->ndesc >= b->max_txs))
		return -EOVERFLOW;
	for (;;) {
		tx = dmacopy_prep_call(b, piece, flags);
		if (tx)
			break;
		ret = dmacopy_stall(c, b->form->call, &st);
		if (ret)
			return ret;
	}
	c->fig.prep_calls++;
	if (st.stalled)
		c->since_stall = 0;
	c->since_stall++;
	return dmacopy_submit(b, tx, last);
}

/* ------------------------------------------------------------------ */
/* A batch in flight                                                    */
/* ------------------------------------------------------------------ */

/* Every descriptor is submitted and issued: drop the submission's hold. */
void dmacopy_batch_submitted(struct dmacopy_batch *b)
{
	if (b->submitting) {
		b->submitting = false;
		dmacopy_batch_put(b);
	}
}

/**
 * dmacopy_batch_start - map, prepare, submit and issue a batch
 * @b: the batch, not busy
 * @id: the prep form: one this kernel has the API of and the channel the
 *	capability of (dmacopy_chan_has_form()), given to its alloc
 * @src: the source table (dmacopy_table_fill()), mapped here
 *	DMA_TO_DEVICE on the channel's device unless it is mapped already
 *	(an earlier batch over the same tables)
 * @dst: the destination table, likewise DMA_FROM_DEVICE
 * @deadline: jiffies by which it must have completed, prep stalls
 *	included; 0: the channel's timeout from now
 *
 * The mapping is timed as the map phase, and stays until
 * dmacopy_batch_end() or dmacopy_tables_unmap(). Once mapped, the batch is
 * busy: finished by dmacopy_batch_finish(), and after a failure (of this or
 * of the finish) ended with dmacopy_batch_end() before its memory is let
 * go.
 *
 * Return: 0, or an error recorded in the channel; a mapping that failed
 * leaves nothing mapped and the batch not busy.
 */
int dmacopy_batch_start(struct dmacopy_batch *b, enum dmacopy_form_id id,
			struct sg_table *src, struct sg_table *dst,
			unsigned long deadline)
{
	const struct dmacopy_form *form = dmacopy_form(id);
	struct dmacopy_chan *c = b->c;
	ktime_t t0;
	int ret;

	if (WARN_ON_ONCE(!form || !form->batch ||
			 (form->vecs && !b->vecs)))
		return -EINVAL;
	if (WARN_ON_ONCE(b->busy || atomic_read(&b->pending)))
		return -EBUSY;
	/* the tables before the mapping: a failed one is found unmapped */
	b->src = src;
	b->dst = dst;
	if (!dmacopy_mapped(src)) {
		ret = dmacopy_map(c, src, dst);
		if (ret)
			return ret;
	}
	b->form = form;
	b->ndesc = 0;
	b->last = 0;
	b->result = 0;
	b->deadline = deadline ?: jiffies + c->timeout;
	b->last_callback = false;
	/* callbacks of the batch's earlier descriptors are late from now */
	WRITE_ONCE(b->gen, b->gen + 1);
	atomic_set(&b->pending, 1);
	b->submitting = true;
	reinit_completion(&b->done);
	b->busy = true;
	c->quiesced = false;

	ret = form->batch(b);
	if (ret)
		return ret;

	t0 = ktime_get();
	dma_async_issue_pending(c->chan);
	c->fig.issue_ns += dmacopy_elapsed_ns(t0);
	dmacopy_batch_submitted(b);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_start, DMACOPY_NS);

static int dmacopy_poll(struct dmacopy_batch *b)
{
	struct dmacopy_chan *c = b->c;
	enum dma_status status = dmaengine_tx_status(c->chan, b->last, NULL);

	if (status == DMA_COMPLETE)
		return 0;
	if (status == DMA_ERROR) {
		pr_err("%s: a descriptor completed with an error\n", c->name);
		dmacopy_set_fail(c, DMACOPY_FAIL_RESULT, -EIO);
		return -EIO;
	}
	cond_resched();
	return -EAGAIN;
}

/*
 * Wait for a batch until its deadline, in slices so that abort is seen. A
 * batch seen complete only after its deadline has not met it: the
 * deadline is honoured to the jiffy, not to the slice.
 */
static int dmacopy_batch_wait(struct dmacopy_batch *b)
{
	struct dmacopy_chan *c = b->c;
	int ret;

	for (;;) {
		long left = (long)(b->deadline - jiffies);

		if (left <= 0) {
			pr_err("%s: batch not complete by its deadline (%u ms)\n",
			       c->name, jiffies_to_msecs(c->timeout));
			dmacopy_set_fail(c, DMACOPY_FAIL_TIMEOUT,
					 -ETIMEDOUT);
			return -ETIMEDOUT;
		}
		if (c->poll) {
			ret = dmacopy_poll(b);
			if (ret != -EAGAIN)
				return ret;
		} else if (wait_for_completion_timeout(&b->done,
						       min_t(long, left,
							     DMACOPY_WAIT_SLICE))) {
			if (time_after_eq(jiffies, b->deadline))
				continue;
			if (!b->result)
				return 0;
			pr_err("%s: transfer completed with result %d\n",
			       c->name, b->result);
			dmacopy_set_fail(c, DMACOPY_FAIL_RESULT,
					 -EIO);
			return -EIO;
		}
		if (dmacopy_aborted(c)) {
			dmacopy_set_fail(c, DMACOPY_FAIL_ABORT,
					 -EINTR);
			return -EINTR;
		}
	}
}

/*
 * Every descriptor's status, not only the completion of the last: an
 * error on an earlier segment must not pass unseen, nor one still in
 * progress. On a NO_ORDER channel every descriptor's callback reported its
 * result already.
 */
static int dmacopy_batch_check(struct dmacopy_batch *b)
{
	struct dmacopy_chan *c = b->c;
	enum dma_status status;
	unsigned int i;

	if (c->no_order)
		return 0;
	for (i = 0; i < b->ndesc; i++) {
		status = dmaengine_tx_status(c->chan, b->cookies[i], NULL);
		if (status != DMA_COMPLETE) {
			pr_err("%s: descriptor %u of the batch %s\n", c->name, i,
			       status == DMA_ERROR ?
			       "completed with an error" : "is not complete");
			dmacopy_set_fail(c, DMACOPY_FAIL_RESULT,
					 -EIO);
			return -EIO;
		}
	}
	return 0;
}

/**
 * dmacopy_batch_finish - wait for a started batch and count it
 * @b: the batch, busy
 * @check: check every descriptor's status too (outside the timed phases)
 *
 * Waits at most the channel's timeout, less when it is aborted. On success
 * the batch is no longer busy, and its copy is complete: on a NO_ORDER
 * channel every descriptor's callback came, on others the last one's
 * completion implies the others'. Its tables stay mapped.
 * Return: 0, or an error recorded in the channel; the batch stays busy.
 */
int dmacopy_batch_finish(struct dmacopy_batch *b,
			 bool check)
{
	struct dmacopy_chan *c = b->c;
	ktime_t t0 = ktime_get();
	int ret;

	ret = dmacopy_batch_wait(b);
	c->fig.wait_ns += dmacopy_elapsed_ns(t0);
	if (!ret && check)
		ret = dmacopy_batch_check(b);
	if (ret)
		return ret;

	b->busy = false;
	c->fig.batches++;
	c->fig.segments += b->src->nents;
	c->fig.bytes += dmacopy_mapped_bytes(b->src);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_batch_finish, DMACOPY_NS);
