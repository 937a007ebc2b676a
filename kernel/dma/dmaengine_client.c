// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine client's batches: a pair of sg_tables mapped on a channel's
 * device, copied with a prep form (per-segment memcpy, memcpy_sg,
 * memcpy_vec), waited for until one deadline, every phase timed (map,
 * prep, submit, issue, wait, unmap). The channels themselves are a set's
 * (dmaengine_set.c). The benchmark's threads (dmaengine_chan.c) and the
 * migration copy offload (migrate_offload.c) copy through it.
 *
 * The client keeps the contract of Documentation/driver-api/dmaengine/
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

#include "dmaengine_client_priv.h"

/* How often a waiting caller looks at the abort flag. */
#define DMAENGINE_BENCH_WAIT_SLICE	(HZ / 10)
/* How long a stalled prep sleeps before it tries again, in us. */
#define DMAENGINE_BENCH_STALL_MIN_US	20
#define DMAENGINE_BENCH_STALL_MAX_US	100
/* How long a channel with nothing in flight may keep refusing preps. */
#define DMAENGINE_BENCH_IDLE_GRACE	(HZ / 10)

static void dmaengine_client_set_error(struct dmaengine_client_chan *c,
				       u32 error, int err)
{
	if (!c->error) {
		c->error = error;
		c->err = err;
	}
}

static bool dmaengine_client_aborted(const struct dmaengine_client_chan *c)
{
	return READ_ONCE(*c->abort);
}

/* ------------------------------------------------------------------ */
/* The channel                                                          */
/* ------------------------------------------------------------------ */

/**
 * dmaengine_client_chan_reset - start the channel's figures afresh
 * @c: the channel, with nothing in flight
 */
void dmaengine_client_chan_reset(struct dmaengine_client_chan *c)
{
	memset(&c->fig, 0, sizeof(c->fig));
	c->error = 0;
	c->err = 0;
	c->irq_every = 0;
	c->since_irq = 0;
	c->since_stall = 0;
	c->last_cookie = 0;
	atomic_set(&c->inflight, 0);
	atomic_set(&c->late_callbacks, 0);
}

/* Entries of a table of @n folios of any sizes, cut at the limits. */
static unsigned long dmaengine_client_folio_ents(const struct dmaengine_client_chan *c,
						 struct folio **folios,
						 unsigned int n)
{
	unsigned long ents = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		ents += mb_seg_count(&c->seg, folio_size(folios[i]));
	return ents;
}

/*
 * One entry per folio, or several where a folio is larger than what the
 * device takes in one segment or crosses its segment boundary: the DMA API
 * wants no such entries. A folio is aligned to its size (mb_seg_len()).
 */
static void dmaengine_client_table_set(const struct dmaengine_client_chan *c,
				       struct sg_table *sgt,
				       struct folio **folios, unsigned int n)
{
	struct scatterlist *sg = sgt->sgl;
	size_t off, len, size;
	unsigned int i;

	/* nents counts the mapped entries: none yet */
	sgt->nents = 0;
	for (i = 0; i < n; i++) {
		size = folio_size(folios[i]);
		for (off = 0; off < size; off += len) {
			len = mb_seg_len(&c->seg, off, size - off);
			sg_set_page(sg, folio_page(folios[i], off >> PAGE_SHIFT),
				    len, offset_in_page(off));
			sg = sg_next(sg);
		}
	}
}

/*
 * The table over entries the caller allocated, in one pass over the
 * folios: each entry used is cleared as it is set, the others are not
 * touched, and the last one ends the table.
 */
static int dmaengine_client_table_lay(const struct dmaengine_client_chan *c,
				      struct sg_table *sgt,
				      struct folio **folios, unsigned int n)
{
	unsigned int i, ents = 0, max = sgt->orig_nents;
	struct scatterlist *sg = NULL;
	size_t off, len, size;

	for (i = 0; i < n; i++) {
		size = folio_size(folios[i]);
		for (off = 0; off < size; off += len) {
			if (WARN_ON_ONCE(ents == max))
				return -E2BIG;
			len = mb_seg_len(&c->seg, off, size - off);
			sg = &sgt->sgl[ents++];
			memset(sg, 0, sizeof(*sg));
			sg_set_page(sg, folio_page(folios[i], off >> PAGE_SHIFT),
				    len, offset_in_page(off));
		}
	}
	if (WARN_ON_ONCE(!sg))
		return -EINVAL;
	sg_mark_end(sg);
	sgt->orig_nents = ents;
	sgt->nents = 0;
	return 0;
}

/**
 * dmaengine_client_table_fill - a table of folios for the channel
 * @c: the channel, its limits known
 * @sgt: the table: allocated here, or with @gfp 0 laid over the entries
 *	the caller allocated, @sgt->sgl, @sgt->orig_nents of them
 * @folios: the folios, of any sizes
 * @n: entries in @folios
 * @gfp: how to allocate the table; 0: it is allocated already (a caller
 *	that must not allocate, such as the migration hook)
 *
 * Return: 0; -ENOMEM, nothing allocated; -E2BIG, the entries the caller
 * allocated are too few; or -EINVAL, no folio.
 */
int dmaengine_client_table_fill(const struct dmaengine_client_chan *c,
				struct sg_table *sgt, struct folio **folios,
				unsigned int n, gfp_t gfp)
{
	unsigned long ents;

	if (!gfp)
		return dmaengine_client_table_lay(c, sgt, folios, n);
	ents = dmaengine_client_folio_ents(c, folios, n);
	if (ents > MB_MAX_TABLE_ENTS || sg_alloc_table(sgt, ents, gfp))
		return -ENOMEM;
	dmaengine_client_table_set(c, sgt, folios, n);
	return 0;
}

/*
 * Descriptors a batch of tables of at most @max_ents entries and @bytes
 * can take: mapped segments can merge (IOMMU) but never exceed the batch;
 * the source and destination tables each end segments independently.
 */
static unsigned int dmaengine_client_max_txs(const struct dmaengine_client_chan *c,
					     unsigned int max_ents, u64 bytes)
{
	return 2 * max_ents + div_u64(bytes, c->seg.max) + 1;
}

/* ------------------------------------------------------------------ */
/* Mapping                                                              */
/* ------------------------------------------------------------------ */

/*
 * A table is mapped while its nents, the entries mapped, is not 0:
 * dmaengine_client_table_fill() and dmaengine_client_unmap() leave it 0.
 */
static bool dmaengine_client_mapped(const struct sg_table *sgt)
{
	return sgt->nents;
}

/*
 * Map a batch's tables on the channel's device, @src DMA_TO_DEVICE, @dst
 * DMA_FROM_DEVICE. Returns 0, or the error of dma_map_sgtable(), with
 * nothing mapped.
 */
static int dmaengine_client_map(struct dmaengine_client_chan *c,
				struct sg_table *src, struct sg_table *dst)
{
	ktime_t t0 = ktime_get();
	int ret;

	ret = dma_map_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
	if (ret)
		goto fail;
	ret = dma_map_sgtable(c->dma_dev, dst, DMA_FROM_DEVICE, 0);
	if (ret) {
		dma_unmap_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
		src->nents = 0;
		goto fail;
	}
	c->fig.map_ns += mb_elapsed_ns(t0);
	return 0;

fail:
	pr_err("%s: dma_map_sgtable on %s failed: %d\n", c->name,
	       dev_name(c->dma_dev), ret);
	dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_MAP, ret);
	return ret;
}

/**
 * dmaengine_client_unmap - unmap a batch's tables from the channel's device
 * @c: the channel
 * @src: source table, as dmaengine_client_batch_start() mapped it
 * @dst: destination table, likewise
 *
 * Timed as the unmap phase. Tables that are not mapped (the start failed
 * before it mapped them, or they were unmapped already) are left as they
 * are, untimed. A batch that failed is abandoned first
 * (dmaengine_client_batch_abandon()).
 */
void dmaengine_client_unmap(struct dmaengine_client_chan *c,
			    struct sg_table *src, struct sg_table *dst)
{
	ktime_t t0;

	if (!dmaengine_client_mapped(src))
		return;
	t0 = ktime_get();
	dma_unmap_sgtable(c->dma_dev, dst, DMA_FROM_DEVICE, 0);
	dma_unmap_sgtable(c->dma_dev, src, DMA_TO_DEVICE, 0);
	c->fig.unmap_ns += mb_elapsed_ns(t0);
	src->nents = 0;
	dst->nents = 0;
}

static u64 dmaengine_client_mapped_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	u64 bytes = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		bytes += sg_dma_len(sg);
	return bytes;
}

/* ------------------------------------------------------------------ */
/* A batch's memory                                                     */
/* ------------------------------------------------------------------ */

/**
 * dmaengine_client_batch_alloc - room for a batch's cookies (and vecs)
 * @b: the batch, zeroed by the caller, kept by it until the set's close
 * @c: the channel it runs on
 * @max_ents: entries its tables may have
 * @bytes: bytes it may copy
 * @vecs: it is run with a form that takes dma_vec arrays
 * @gfp: how to allocate
 *
 * Not concurrently with another batch_alloc on @c.
 * Return: 0 or -ENOMEM; either way dmaengine_client_set_close() frees what
 * was allocated.
 */
int dmaengine_client_batch_alloc(struct dmaengine_client_batch *b,
				 struct dmaengine_client_chan *c,
				 unsigned int max_ents, u64 bytes, bool vecs,
				 gfp_t gfp)
{
	b->c = c;
	list_add_tail(&b->node, &c->batches);
	init_completion(&b->done);
	b->max_txs = dmaengine_client_max_txs(c, max_ents, bytes);
	b->cookies = kvcalloc(b->max_txs, sizeof(*b->cookies), gfp);
	if (!b->cookies)
		return -ENOMEM;
#ifdef HAVE_DMA_MEMCPY_VEC
	if (vecs) {
		b->src_vecs = kvcalloc(max_ents, sizeof(*b->src_vecs), gfp);
		b->dst_vecs = kvcalloc(max_ents, sizeof(*b->dst_vecs), gfp);
		if (!b->src_vecs || !b->dst_vecs)
			return -ENOMEM;
	}
#endif
	return 0;
}

/* What dmaengine_client_batch_alloc() allocated, at the set's close. */
void dmaengine_client_batch_free(struct dmaengine_client_batch *b)
{
	kvfree(b->cookies);
	b->cookies = NULL;
#ifdef HAVE_DMA_MEMCPY_VEC
	kvfree(b->src_vecs);
	b->src_vecs = NULL;
	kvfree(b->dst_vecs);
	b->dst_vecs = NULL;
#endif
}

/* ------------------------------------------------------------------ */
/* Descriptors: prep, submit, and room in a bounded pool               */
/* ------------------------------------------------------------------ */

static void dmaengine_client_batch_put(struct dmaengine_client_batch *b)
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
 * DMAENGINE_CLIENT_GEN_MASK + 1 generations (4 or 8) would still match: a
 * late callback runs within the provider's tasklet, long before that many
 * batches ran.
 */
#define DMAENGINE_CLIENT_GEN_MASK	\
	((unsigned long)__alignof__(struct dmaengine_client_batch) - 1)
static_assert(DMAENGINE_CLIENT_GEN_MASK >= 3);

static void *dmaengine_client_token(struct dmaengine_client_batch *b)
{
	return (void *)((unsigned long)b | (b->gen & DMAENGINE_CLIENT_GEN_MASK));
}

static void dmaengine_client_callback(void *param,
				      const struct dmaengine_result *result)
{
	unsigned long token = (unsigned long)param;
	struct dmaengine_client_batch *b;

	b = (void *)(token & ~DMAENGINE_CLIENT_GEN_MASK);
	if ((token & DMAENGINE_CLIENT_GEN_MASK) !=
	    (READ_ONCE(b->gen) & DMAENGINE_CLIENT_GEN_MASK)) {
		/* a descriptor of an abandoned batch: not the batch's now */
		atomic_inc(&b->c->late_callbacks);
		return;
	}
	/* the batch's waiter reads it after the completion */
	if (result->result != DMA_TRANS_NOERROR && !b->result)
		b->result = result->result;
	if (b->c->no_order)
		atomic_dec(&b->c->inflight);
	dmaengine_client_batch_put(b);
}

/* Whether a descriptor submitted on the channel may still complete. */
static bool dmaengine_client_in_flight(struct dmaengine_client_chan *c)
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
static void dmaengine_client_moderate_irqs(struct dmaengine_client_chan *c)
{
	if (!c->irq_every)
		c->irq_every = max(1U, c->since_stall / 2);
}

/**
 * struct dmaengine_client_stall - a prep that returned NULL, while it is
 *	retried
 * @deadline: when the provider must have made room
 * @idle_since: when the channel was first seen with nothing in flight
 * @stalled: the first NULL was counted and the channel issued
 * @idle: nothing has been in flight since @idle_since
 */
struct dmaengine_client_stall {
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
 * only a channel idle for DMAENGINE_BENCH_IDLE_GRACE makes a NULL a failure
 * rather than a full pool. Returns 0 when it is time to retry, or an error.
 */
static int dmaengine_client_stall(struct dmaengine_client_chan *c,
				  const char *call,
				  struct dmaengine_client_stall *st)
{
	ktime_t t0;

	if (!st->stalled) {
		st->stalled = true;
		c->fig.prep_stalls++;
		dmaengine_client_moderate_irqs(c);
		t0 = ktime_get();
		dma_async_issue_pending(c->chan);
		c->fig.issue_ns += mb_elapsed_ns(t0);
	}
	if (dmaengine_client_aborted(c)) {
		dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_INTR, -EINTR);
		return -EINTR;
	}
	if (dmaengine_client_in_flight(c)) {
		st->idle = false;
	} else if (!st->idle) {
		st->idle = true;
		st->idle_since = jiffies;
	} else if (time_after(jiffies,
			      st->idle_since + DMAENGINE_BENCH_IDLE_GRACE)) {
		pr_err("%s: %s returned NULL with no descriptor in flight for %u ms (prep call %llu on the channel)\n",
		       c->name, call, jiffies_to_msecs(DMAENGINE_BENCH_IDLE_GRACE),
		       c->fig.prep_calls + 1);
		dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_PREP, -EIO);
		return -EIO;
	}
	if (time_after(jiffies, st->deadline)) {
		pr_err("%s: %s returned NULL for %u ms while descriptors were in flight: the provider's descriptor pool made no room\n",
		       c->name, call, jiffies_to_msecs(c->timeout));
		dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_STALL,
					   -ENOSPC);
		return -ENOSPC;
	}
	t0 = ktime_get();
	usleep_range(DMAENGINE_BENCH_STALL_MIN_US,
		     DMAENGINE_BENCH_STALL_MAX_US);
	c->fig.wait_ns += mb_elapsed_ns(t0);
	return 0;
}

/*
 * Interrupt and callback flags of the next descriptor. A batch's last one
 * completes the batch; on a NO_ORDER channel each one counts.
 */
static unsigned long dmaengine_client_flags(struct dmaengine_client_chan *c,
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
static int dmaengine_client_submit(struct dmaengine_client_batch *b,
				   struct dma_async_tx_descriptor *tx,
				   bool last)
{
	struct dmaengine_client_chan *c = b->c;
	bool callback = !c->poll && (last || c->no_order);
	dma_cookie_t cookie;
	ktime_t t0;

	/*
	 * Callbacks are the client's to set: a recycled descriptor may carry
	 * another client's (pl330 before "dmaengine: pl330: Clear
	 * callback_result for re-used descs" kept ->callback_result).
	 */
	tx->callback = NULL;
	tx->callback_result = callback ? dmaengine_client_callback : NULL;
	tx->callback_param = callback ? dmaengine_client_token(b) : NULL;
	if (callback) {
		atomic_inc(&b->pending);
		if (c->no_order)
			atomic_inc(&c->inflight);
	}

	t0 = ktime_get();
	cookie = dmaengine_submit(tx);
	c->fig.submit_ns += mb_elapsed_ns(t0);
	if (dma_submit_error(cookie)) {
		/* no callback will come for it: the submission's hold stays */
		if (callback) {
			atomic_dec(&b->pending);
			if (c->no_order)
				atomic_dec(&c->inflight);
		}
		pr_err("%s: dmaengine_submit of descriptor %u failed: %d\n",
		       c->name, b->ndesc, cookie);
		dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_SUBMIT, -EIO);
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
dmaengine_client_prep_call(struct dmaengine_client_batch *b,
			   const struct dmaengine_client_piece *piece,
			   unsigned long flags)
{
	struct dma_async_tx_descriptor *tx;
	ktime_t t0 = ktime_get();

	tx = b->form->prep(b, piece, flags);
	b->c->fig.prep_ns += mb_elapsed_ns(t0);
	return tx;
}

/**
 * dmaengine_client_prep_submit - prepare and submit one descriptor
 * @b: the batch
 * @piece: what it copies (per-segment), or NULL: the whole batch
 * @last: the batch's last descriptor
 *
 * Waits for room in a full pool (dmaengine_client_stall()); nothing else
 * runs between the prep that returned a descriptor and its submit.
 * Return: 0, or an error recorded in the channel.
 */
int dmaengine_client_prep_submit(struct dmaengine_client_batch *b,
				 const struct dmaengine_client_piece *piece,
				 bool last)
{
	struct dmaengine_client_chan *c = b->c;
	unsigned long flags = dmaengine_client_flags(c, last);
	struct dmaengine_client_stall st = { .deadline = b->deadline };
	struct dma_async_tx_descriptor *tx;
	int ret;

	if (WARN_ON_ONCE(b->ndesc >= b->max_txs))
		return -EOVERFLOW;
	for (;;) {
		tx = dmaengine_client_prep_call(b, piece, flags);
		if (tx)
			break;
		ret = dmaengine_client_stall(c, b->form->call, &st);
		if (ret)
			return ret;
	}
	c->fig.prep_calls++;
	if (st.stalled)
		c->since_stall = 0;
	c->since_stall++;
	return dmaengine_client_submit(b, tx, last);
}

/* ------------------------------------------------------------------ */
/* A batch in flight                                                    */
/* ------------------------------------------------------------------ */

/* Every descriptor is submitted and issued: drop the submission's hold. */
static void dmaengine_client_batch_submitted(struct dmaengine_client_batch *b)
{
	if (b->submitting) {
		b->submitting = false;
		dmaengine_client_batch_put(b);
	}
}

/**
 * dmaengine_client_batch_start - map, prepare, submit and issue a batch
 * @b: the batch, not busy
 * @form: the prep form, one with ->batch, whose API the kernel has
 * @src: the source table (dmaengine_client_table_fill()), mapped here
 *	DMA_TO_DEVICE on the channel's device unless it is mapped already
 *	(an earlier batch over the same tables)
 * @dst: the destination table, likewise DMA_FROM_DEVICE
 * @deadline: jiffies by which it must have completed, prep stalls
 *	included; 0: the channel's timeout from now
 *
 * The mapping is timed as the map phase, and stays until
 * dmaengine_client_unmap(). Once mapped, the batch is busy: finished by
 * dmaengine_client_batch_finish(), or after a failure (of this or of the
 * finish) abandoned with dmaengine_client_batch_abandon() before its
 * memory is let go.
 *
 * Return: 0, or an error recorded in the channel; a mapping that failed
 * leaves nothing mapped and the batch not busy.
 */
int dmaengine_client_batch_start(struct dmaengine_client_batch *b,
				 const struct dmaengine_client_form *form,
				 struct sg_table *src, struct sg_table *dst,
				 unsigned long deadline)
{
	struct dmaengine_client_chan *c = b->c;
	ktime_t t0;
	int ret;

	if (WARN_ON_ONCE(b->busy || atomic_read(&b->pending)))
		return -EBUSY;
	if (!dmaengine_client_mapped(src)) {
		ret = dmaengine_client_map(c, src, dst);
		if (ret)
			return ret;
	}
	b->form = form;
	b->src = src;
	b->dst = dst;
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
	c->fig.issue_ns += mb_elapsed_ns(t0);
	dmaengine_client_batch_submitted(b);
	return 0;
}

static int dmaengine_client_poll(struct dmaengine_client_batch *b)
{
	struct dmaengine_client_chan *c = b->c;
	enum dma_status status = dmaengine_tx_status(c->chan, b->last, NULL);

	if (status == DMA_COMPLETE)
		return 0;
	if (status == DMA_ERROR) {
		pr_err("%s: a descriptor completed with an error\n", c->name);
		dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_RESULT, -EIO);
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
static int dmaengine_client_batch_wait(struct dmaengine_client_batch *b)
{
	struct dmaengine_client_chan *c = b->c;
	int ret;

	for (;;) {
		long left = (long)(b->deadline - jiffies);

		if (left <= 0) {
			pr_err("%s: batch not complete by its deadline (%u ms)\n",
			       c->name, jiffies_to_msecs(c->timeout));
			dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_TIMEOUT,
						   -ETIMEDOUT);
			return -ETIMEDOUT;
		}
		if (c->poll) {
			ret = dmaengine_client_poll(b);
			if (ret != -EAGAIN)
				return ret;
		} else if (wait_for_completion_timeout(&b->done,
						       min_t(long, left,
							     DMAENGINE_BENCH_WAIT_SLICE))) {
			if (time_after_eq(jiffies, b->deadline))
				continue;
			if (!b->result)
				return 0;
			pr_err("%s: transfer completed with result %d\n",
			       c->name, b->result);
			dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_RESULT,
						   -EIO);
			return -EIO;
		}
		if (dmaengine_client_aborted(c)) {
			dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_INTR,
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
static int dmaengine_client_batch_check(struct dmaengine_client_batch *b)
{
	struct dmaengine_client_chan *c = b->c;
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
			dmaengine_client_set_error(c, DMAENGINE_BENCH_ERR_RESULT,
						   -EIO);
			return -EIO;
		}
	}
	return 0;
}

/**
 * dmaengine_client_batch_finish - wait for a started batch and count it
 * @b: the batch, busy
 * @check: check every descriptor's status too (outside the timed phases)
 *
 * Waits at most the channel's timeout, less when it is aborted. On success
 * the batch is no longer busy, and its copy is complete: on a NO_ORDER
 * channel every descriptor's callback came, on others the last one's
 * completion implies the others'. Its tables stay mapped.
 * Return: 0, or an error recorded in the channel; the batch stays busy.
 */
int dmaengine_client_batch_finish(struct dmaengine_client_batch *b,
				  bool check)
{
	struct dmaengine_client_chan *c = b->c;
	ktime_t t0 = ktime_get();
	int ret;

	ret = dmaengine_client_batch_wait(b);
	c->fig.wait_ns += mb_elapsed_ns(t0);
	if (!ret && check)
		ret = dmaengine_client_batch_check(b);
	if (ret)
		return ret;

	b->busy = false;
	c->fig.batches++;
	c->fig.segments += b->src->nents;
	c->fig.bytes += dmaengine_client_mapped_bytes(b->src);
	return 0;
}

/* Twice a second, a channel whose work cannot be stopped is looked at. */
#define DMAENGINE_CLIENT_DRAIN_SLICE	(HZ / 2)
/* The least time its issued work is given to run to its end. */
#define DMAENGINE_CLIENT_DRAIN_MIN	(30 * HZ)

/*
 * Stop whatever the channel has queued. True when no descriptor of the
 * channel can run any more, nor any callback of it: its batches' memory
 * may be let go. False when the provider cannot terminate (no
 * device_terminate_all, as ioat, plx_dma and mv_xor in 7.3) or failed to:
 * then each busy batch's descriptors must be waited for.
 */
bool dmaengine_client_quiesce(struct dmaengine_client_chan *c)
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
static unsigned long dmaengine_client_drain_bound(const struct dmaengine_client_chan *c)
{
	return max_t(unsigned long, 10 * c->timeout, DMAENGINE_CLIENT_DRAIN_MIN);
}

/**
 * dmaengine_client_batch_idle - whether an abandoned batch's work ended
 * @b: a batch that dmaengine_client_batch_abandon() left busy
 *
 * Return: true when the batch's descriptors have all run and their
 * callbacks, which name the batch, have all returned: its memory may go.
 * On a channel the set released, only a callback can tell: the last
 * descriptor's, in order, or every one's on a NO_ORDER channel.
 */
bool dmaengine_client_batch_idle(struct dmaengine_client_batch *b)
{
	struct dmaengine_client_chan *c = b->c;
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

/**
 * dmaengine_client_batch_forget - let go of a batch whose engine is gone
 * @b: a busy batch on a channel released on its provider's unbind
 *
 * For the end of a quarantine once the provider's remove() returned:
 * the driver has stopped its device, so nothing of the batch runs any
 * more, and no callback of it comes (a late one would find the
 * generation changed).
 */
void dmaengine_client_batch_forget(struct dmaengine_client_batch *b)
{
	if (WARN_ON_ONCE(!READ_ONCE(b->c->released)))
		return;
	WRITE_ONCE(b->gen, b->gen + 1);
	b->submitting = false;
	atomic_set(&b->pending, 0);
	b->busy = false;
}

/**
 * dmaengine_client_batch_abandon - let go of a batch that failed
 * @b: the batch
 * @drain: jiffies its issued work may take to end where the channel cannot
 *	stop it; DMAENGINE_CLIENT_DRAIN_DEFAULT: ten timeouts, at least 30 s
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
 * (quarantine) until dmaengine_client_batch_idle(), or call again to wait
 * longer.
 */
int dmaengine_client_batch_abandon(struct dmaengine_client_batch *b,
				   unsigned long drain)
{
	struct dmaengine_client_chan *c = b->c;
	unsigned long bound = drain == DMAENGINE_CLIENT_DRAIN_DEFAULT ?
			      dmaengine_client_drain_bound(c) : drain;
	unsigned long until = jiffies + bound;

	if (!b->busy)
		return 0;
	if (!c->quiesced) {
		c->terminated = dmaengine_client_quiesce(c);
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
		dmaengine_client_batch_submitted(b);
	}
	while (!dmaengine_client_batch_idle(b)) {
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
							    DMAENGINE_CLIENT_DRAIN_SLICE));
	}
	b->busy = false;
	return 0;
}
