// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode, one channel: buffers, mapping, and the batches timed
 * by phase (map, prep, submit, issue, wait, unmap), or copied by the CPU.
 *
 * The client keeps the contract of Documentation/driver-api/dmaengine/
 * client.rst for every kind of provider, not only for soft_dma:
 *
 * - Each descriptor is submitted right after its prep, before the next
 *   prep: a driver may hold a lock from prep to submit (ioat).
 * - A prep that returns NULL while descriptors are in flight is a full
 *   descriptor pool (zynqmp_dma, idxd): what is submitted is issued, the
 *   thread waits for the provider to make room and retries, counting the
 *   stall. It fails only when nothing is in flight, or when the provider
 *   makes no room within the timeout.
 * - On a channel that completes out of order (DMA_COMPLETION_NO_ORDER,
 *   idxd) every descriptor raises a callback and a batch is done when all
 *   of them have; on others the last descriptor's completion implies the
 *   earlier ones'.
 *
 * Verification and buffer set-up stay outside every timed region.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "dmaengine_bench.h"

/* How often a waiting thread looks at the abort flag. */
#define DMAENGINE_BENCH_WAIT_SLICE	(HZ / 10)
/* How long a stalled prep sleeps before it tries again, in us. */
#define DMAENGINE_BENCH_STALL_MIN_US	20
#define DMAENGINE_BENCH_STALL_MAX_US	100
/* How long a channel with nothing in flight may keep refusing preps. */
#define DMAENGINE_BENCH_IDLE_GRACE	(HZ / 10)

static void dmaengine_bench_set_error(struct dmaengine_bench_chan *c, u32 error,
				      int err)
{
	if (!c->error) {
		c->error = error;
		c->err = err;
	}
}

static u64 dmaengine_bench_elapsed(ktime_t t0)
{
	return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

/* Bytes of folios a channel holds for @batches batches a run. */
u64 dmaengine_bench_chan_buffer_bytes(const struct dmaengine_benchmark *p,
				      u64 batches)
{
	u64 sets = p->flags & DMAENGINE_BENCH_F_DISTINCT ? batches : 1;

	return 2 * sets * p->sge * (PAGE_SIZE << p->folio_order);
}

/* ------------------------------------------------------------------ */
/* Buffers                                                              */
/* ------------------------------------------------------------------ */

static struct folio *dmaengine_bench_folio_alloc(int node, bool exact,
						 unsigned int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL;

	if (node == NUMA_NO_NODE)
		return folio_alloc(gfp, order);
	return __folio_alloc_node(gfp | (exact ? __GFP_THISNODE : 0), order,
				  node);
}

static void dmaengine_bench_folios_free(struct folio **folios, unsigned long n)
{
	unsigned long i;

	if (!folios)
		return;
	for (i = 0; i < n; i++)
		if (folios[i])
			folio_put(folios[i]);
	kvfree(folios);
}

static struct folio **
dmaengine_bench_folios_alloc(struct dmaengine_bench_chan *c, unsigned long n,
			     unsigned int order, int node, bool exact)
{
	struct folio **folios;
	unsigned long i;

	folios = kvcalloc(n, sizeof(*folios), GFP_KERNEL);
	if (!folios)
		return NULL;
	for (i = 0; i < n; i++) {
		folios[i] = dmaengine_bench_folio_alloc(node, exact, order);
		if (!folios[i]) {
			pr_err("%s: cannot allocate folio %lu of order %u on node %d\n",
			       c->name, i, order, node);
			dmaengine_bench_folios_free(folios, n);
			return NULL;
		}
		cond_resched();
	}
	return folios;
}

/* Entries of a table of @n folios of @size bytes, cut at the limits. */
static unsigned long
dmaengine_bench_table_ents(const struct dmaengine_bench_chan *c,
			   unsigned long n, size_t size)
{
	return n * mb_seg_count(&c->seg, size);
}

/*
 * One entry per folio, or several where a folio is larger than what the
 * device takes in one segment or crosses its segment boundary: the DMA API
 * wants no such entries. A folio is aligned to its size (mb_seg_len()).
 */
static int dmaengine_bench_table_fill(struct dmaengine_bench_chan *c,
				      struct sg_table *sgt,
				      struct folio **folios, unsigned int n)
{
	size_t size = folio_size(folios[0]), off, len;
	struct scatterlist *sg;
	unsigned int i;

	if (sg_alloc_table(sgt, dmaengine_bench_table_ents(c, n, size), GFP_KERNEL))
		return -ENOMEM;
	sg = sgt->sgl;
	for (i = 0; i < n; i++) {
		for (off = 0; off < size; off += len) {
			len = mb_seg_len(&c->seg, off, size - off);
			sg_set_page(sg, folio_page(folios[i], off >> PAGE_SHIFT),
				    len, offset_in_page(off));
			sg = sg_next(sg);
		}
	}
	return 0;
}

static void dmaengine_bench_sets_free(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	if (!c->sets)
		return;
	for (i = 0; i < c->nsets; i++) {
		sg_free_table(&c->sets[i].src_sgt);
		sg_free_table(&c->sets[i].dst_sgt);
	}
	kvfree(c->sets);
	c->sets = NULL;
}

static int dmaengine_bench_sets_alloc(struct dmaengine_bench_chan *c)
{
	unsigned int sge = c->run->p->sge, dst_sge = c->run->dst_sge, i;

	c->sets = kvcalloc(c->nsets, sizeof(*c->sets), GFP_KERNEL);
	if (!c->sets)
		return -ENOMEM;
	for (i = 0; i < c->nsets; i++) {
		struct dmaengine_bench_set *set = &c->sets[i];

		set->src = &c->src[(unsigned long)i * sge];
		set->dst = &c->dst[(unsigned long)i * dst_sge];
		if (dmaengine_bench_table_fill(c, &set->src_sgt, set->src, sge) ||
		    dmaengine_bench_table_fill(c, &set->dst_sgt, set->dst,
					       dst_sge))
			return -ENOMEM;
		cond_resched();
	}
	return 0;
}

static void dmaengine_bench_slots_free(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	if (!c->slots)
		return;
	for (i = 0; i < c->run->depth; i++) {
		kvfree(c->slots[i].cookies);
#ifdef HAVE_DMA_MEMCPY_VEC
		kvfree(c->slots[i].src_vecs);
		kvfree(c->slots[i].dst_vecs);
#endif
	}
	kfree(c->slots);
	c->slots = NULL;
}

static int dmaengine_bench_slots_alloc(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	c->slots = kcalloc(c->run->depth, sizeof(*c->slots), GFP_KERNEL);
	if (!c->slots)
		return -ENOMEM;
	for (i = 0; i < c->run->depth; i++) {
		struct dmaengine_bench_slot *s = &c->slots[i];

		s->c = c;
		init_completion(&s->done);
		s->cookies = kvcalloc(c->max_txs, sizeof(*s->cookies),
				      GFP_KERNEL);
		if (!s->cookies)
			return -ENOMEM;
#ifdef HAVE_DMA_MEMCPY_VEC
		if (!dmaengine_bench_modes_need_vecs(c->run->modes))
			continue;
		s->src_vecs = kvcalloc(c->max_ents, sizeof(*s->src_vecs),
				       GFP_KERNEL);
		s->dst_vecs = kvcalloc(c->max_ents, sizeof(*s->dst_vecs),
				       GFP_KERNEL);
		if (!s->src_vecs || !s->dst_vecs)
			return -ENOMEM;
#endif
	}
	return 0;
}

/*
 * The pattern names the channel, page and word, so a copy to the wrong
 * place is caught as surely as a copy that did not happen. Pages count
 * from the start of the channel's buffer, whatever its folios' order, so
 * source and destination compare even when their layouts differ.
 */
static u64 dmaengine_bench_pattern(unsigned int chan, unsigned long page,
				   size_t word)
{
	return ((u64)chan << 56) ^ ((u64)page << 16) ^ word ^
	       0x5a5a5a5a00000000ULL;
}

/*
 * Fill (fill = true) or check each page of a buffer of @n folios, mapping
 * one page at a time so that highmem works on 32-bit machines.
 */
static bool dmaengine_bench_pattern_walk(struct dmaengine_bench_chan *c,
					 struct folio **folios,
					 unsigned long n, bool fill)
{
	const size_t words = PAGE_SIZE / sizeof(u64);
	unsigned long i, page = 0;
	unsigned int pg;
	size_t w;

	for (i = 0; i < n; i++) {
		for (pg = 0; pg < folio_nr_pages(folios[i]); pg++, page++) {
			u64 *v = kmap_local_page(folio_page(folios[i], pg));
			bool ok = true;

			for (w = 0; w < words && ok; w++) {
				u64 want = dmaengine_bench_pattern(c->index,
								   page, w);

				if (fill)
					v[w] = want;
				else
					ok = v[w] == want;
			}
			kunmap_local(v);
			if (!ok) {
				pr_err("%s: verification failed: page %lu (folio %lu page %u) word %zu\n",
				       c->name, page, i, pg, w - 1);
				return false;
			}
		}
		cond_resched();
	}
	return true;
}

static void dmaengine_bench_buffer_clear(struct folio **folios, unsigned long n)
{
	unsigned long i;
	unsigned int pg;

	for (i = 0; i < n; i++) {
		for (pg = 0; pg < folio_nr_pages(folios[i]); pg++)
			clear_highpage(folio_page(folios[i], pg));
		cond_resched();
	}
}

/* The channel's limits, checked before anything is allocated. */
static int dmaengine_bench_chan_limits(struct dmaengine_bench_chan *c)
{
	const struct dmaengine_bench_run *run = c->run;
	unsigned int align = c->chan->device->copy_align;
	unsigned long ents;

	/*
	 * A segment must fit a descriptor, a mapping (swiotlb bounces at
	 * most dma_max_mapping_size() in one piece), stay within the device's
	 * segment boundary and keep its alignment.
	 */
	mb_seg_limits_of(c->dma_dev, &c->seg);
	if (align)
		c->seg.max = round_down(c->seg.max, 1U << align);
	if (!c->seg.max) {
		mb_refuse_err("%s: max segment size %u (max mapping size %zu) is below the copy alignment of %u bytes\n",
			      c->name, dma_get_max_seg_size(c->dma_dev),
			      dma_max_mapping_size(c->dma_dev), 1U << align);
		return -EINVAL;
	}
	if (align && (!IS_ALIGNED(run->folio_size, 1U << align) ||
		      !IS_ALIGNED(run->dst_folio_size, 1U << align))) {
		mb_refuse_err("%s: folio size %zu/%zu (source/destination) breaks the copy alignment of %u bytes\n",
			      c->name, run->folio_size, run->dst_folio_size,
			      1U << align);
		return -EINVAL;
	}
	ents = max(dmaengine_bench_table_ents(c, run->p->sge, run->folio_size),
		   dmaengine_bench_table_ents(c, run->dst_sge,
					      run->dst_folio_size));
	if (ents > MB_MAX_TABLE_ENTS) {
		mb_refuse_err("%s: a batch would take %lu sg entries of at most %u bytes (max_seg_size of %s): more than %lu\n",
			      c->name, ents, c->seg.max, dev_name(c->dma_dev),
			      MB_MAX_TABLE_ENTS);
		return -EINVAL;
	}
	c->max_ents = ents;
	return 0;
}

int dmaengine_bench_chan_setup(struct dmaengine_bench_chan *c)
{
	const struct dmaengine_benchmark *p = c->run->p;
	u64 batch_bytes = (u64)p->sge * c->run->folio_size;

	if (dmaengine_bench_chan_limits(c)) {
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_LIMIT,
					  -EINVAL);
		return -EINVAL;
	}

	/*
	 * Mapped segments can merge (IOMMU) but never exceed the batch; the
	 * source and destination tables each end segments independently.
	 */
	c->max_txs = 2 * c->max_ents + div_u64(batch_bytes, c->seg.max) + 1;
	c->nsets = c->run->distinct ? c->run->batches : 1;
	c->nfolios = (unsigned long)c->nsets * p->sge;
	c->dst_nfolios = (unsigned long)c->nsets * c->run->dst_sge;

	if (dmaengine_bench_slots_alloc(c))
		goto nomem;
	c->src = dmaengine_bench_folios_alloc(c, c->nfolios, p->folio_order,
					      c->src_node,
					      p->src_node != NUMA_NO_NODE);
	if (!c->src)
		goto nomem;
	c->dst = dmaengine_bench_folios_alloc(c, c->dst_nfolios,
					      ilog2(c->run->dst_folio_size >>
						    PAGE_SHIFT),
					      c->dst_node,
					      p->dst_node != NUMA_NO_NODE);
	if (!c->dst)
		goto nomem;
	if (dmaengine_bench_sets_alloc(c))
		goto nomem;

	if (p->flags & DMAENGINE_BENCH_F_VERIFY)
		dmaengine_bench_pattern_walk(c, c->src, c->nfolios, true);
	return 0;

nomem:
	dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_NOMEM, -ENOMEM);
	return -ENOMEM;
}

void dmaengine_bench_chan_teardown(struct dmaengine_bench_chan *c)
{
	dmaengine_bench_sets_free(c);
	dmaengine_bench_folios_free(c->dst, c->dst_nfolios);
	c->dst = NULL;
	dmaengine_bench_folios_free(c->src, c->nfolios);
	c->src = NULL;
	dmaengine_bench_slots_free(c);
}

/* ------------------------------------------------------------------ */
/* Mapping                                                              */
/* ------------------------------------------------------------------ */

static int dmaengine_bench_map(struct dmaengine_bench_chan *c,
			       struct dmaengine_bench_set *set)
{
	ktime_t t0 = ktime_get();
	int ret;

	ret = dma_map_sgtable(c->dma_dev, &set->src_sgt, DMA_TO_DEVICE, 0);
	if (ret)
		goto fail;
	ret = dma_map_sgtable(c->dma_dev, &set->dst_sgt, DMA_FROM_DEVICE, 0);
	if (ret) {
		dma_unmap_sgtable(c->dma_dev, &set->src_sgt, DMA_TO_DEVICE, 0);
		goto fail;
	}
	c->fig.map_ns += dmaengine_bench_elapsed(t0);
	return 0;

fail:
	pr_err("%s: dma_map_sgtable on %s failed: %d\n", c->name,
	       dev_name(c->dma_dev), ret);
	dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_MAP, ret);
	return ret;
}

static void dmaengine_bench_unmap(struct dmaengine_bench_chan *c,
				  struct dmaengine_bench_set *set)
{
	ktime_t t0 = ktime_get();

	dma_unmap_sgtable(c->dma_dev, &set->dst_sgt, DMA_FROM_DEVICE, 0);
	dma_unmap_sgtable(c->dma_dev, &set->src_sgt, DMA_TO_DEVICE, 0);
	c->fig.unmap_ns += dmaengine_bench_elapsed(t0);
}

static u64 dmaengine_bench_mapped_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	u64 bytes = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		bytes += sg_dma_len(sg);
	return bytes;
}

/* ------------------------------------------------------------------ */
/* Descriptors: prep, submit, and room in a bounded pool               */
/* ------------------------------------------------------------------ */

static void dmaengine_bench_slot_put(struct dmaengine_bench_slot *s)
{
	if (atomic_dec_and_test(&s->pending))
		complete(&s->done);
}

static void dmaengine_bench_callback(void *param,
				     const struct dmaengine_result *result)
{
	struct dmaengine_bench_slot *s = param;

	/* the slot's waiter reads it after the completion */
	if (result->result != DMA_TRANS_NOERROR && !s->result)
		s->result = result->result;
	if (s->c->no_order)
		atomic_dec(&s->c->inflight);
	dmaengine_bench_slot_put(s);
}

/* Whether a descriptor submitted on the channel may still complete. */
static bool dmaengine_bench_in_flight(struct dmaengine_bench_chan *c)
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
static void dmaengine_bench_moderate_irqs(struct dmaengine_bench_chan *c)
{
	if (!c->irq_every)
		c->irq_every = max(1U, c->since_stall / 2);
}

/**
 * struct dmaengine_bench_stall - a prep that returned NULL, while it is retried
 * @deadline: when the provider must have made room
 * @idle_since: when the channel was first seen with nothing in flight
 * @stalled: the first NULL was counted and the channel issued
 * @idle: nothing has been in flight since @idle_since
 */
struct dmaengine_bench_stall {
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
static int dmaengine_bench_stall(struct dmaengine_bench_chan *c,
				 const char *call,
				 struct dmaengine_bench_stall *st)
{
	ktime_t t0;

	if (!st->stalled) {
		st->stalled = true;
		c->fig.prep_stalls++;
		dmaengine_bench_moderate_irqs(c);
		t0 = ktime_get();
		dma_async_issue_pending(c->chan);
		c->fig.issue_ns += dmaengine_bench_elapsed(t0);
	}
	if (READ_ONCE(c->run->abort)) {
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_INTR, -EINTR);
		return -EINTR;
	}
	if (dmaengine_bench_in_flight(c)) {
		st->idle = false;
	} else if (!st->idle) {
		st->idle = true;
		st->idle_since = jiffies;
	} else if (time_after(jiffies,
			      st->idle_since + DMAENGINE_BENCH_IDLE_GRACE)) {
		pr_err("%s: %s returned NULL with no descriptor in flight for %u ms (call %llu of the run)\n",
		       c->name, call, jiffies_to_msecs(DMAENGINE_BENCH_IDLE_GRACE),
		       c->fig.prep_calls + 1);
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_PREP, -EIO);
		return -EIO;
	}
	if (time_after(jiffies, st->deadline)) {
		pr_err("%s: %s returned NULL for %u ms while descriptors were in flight: the provider's descriptor pool made no room\n",
		       c->name, call, jiffies_to_msecs(c->run->timeout));
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_STALL,
					  -ENOSPC);
		return -ENOSPC;
	}
	t0 = ktime_get();
	usleep_range(DMAENGINE_BENCH_STALL_MIN_US,
		     DMAENGINE_BENCH_STALL_MAX_US);
	c->fig.wait_ns += dmaengine_bench_elapsed(t0);
	return 0;
}

/*
 * Interrupt and callback flags of the next descriptor. A batch's last one
 * completes the batch; on a NO_ORDER channel each one counts.
 */
static unsigned long dmaengine_bench_flags(struct dmaengine_bench_chan *c,
					   bool last)
{
	bool poll = c->run->p->flags & DMAENGINE_BENCH_F_POLL;
	unsigned long flags = DMA_CTRL_ACK;

	if (poll)
		return flags;
	if (last || c->no_order ||
	    (c->irq_every && ++c->since_irq >= c->irq_every)) {
		c->since_irq = 0;
		flags |= DMA_PREP_INTERRUPT;
	}
	return flags;
}

/* Submit @tx right after its prep, with the slot's callback if it needs one. */
static int dmaengine_bench_submit(struct dmaengine_bench_chan *c,
				  struct dmaengine_bench_slot *s,
				  struct dma_async_tx_descriptor *tx, bool last)
{
	bool callback = !(c->run->p->flags & DMAENGINE_BENCH_F_POLL) &&
			(last || c->no_order);
	dma_cookie_t cookie;
	ktime_t t0;

	/*
	 * Callbacks are the client's to set: a recycled descriptor may carry
	 * another client's (pl330 before "dmaengine: pl330: Clear
	 * callback_result for re-used descs" kept ->callback_result).
	 */
	tx->callback = NULL;
	tx->callback_result = callback ? dmaengine_bench_callback : NULL;
	tx->callback_param = callback ? s : NULL;
	if (callback) {
		atomic_inc(&s->pending);
		if (c->no_order)
			atomic_inc(&c->inflight);
	}

	t0 = ktime_get();
	cookie = dmaengine_submit(tx);
	c->fig.submit_ns += dmaengine_bench_elapsed(t0);
	if (dma_submit_error(cookie)) {
		pr_err("%s: dmaengine_submit of descriptor %u failed: %d\n",
		       c->name, s->ndesc, cookie);
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_SUBMIT, -EIO);
		return -EIO;
	}
	c->fig.submits++;
	s->cookies[s->ndesc++] = cookie;
	s->last = cookie;
	c->last_cookie = cookie;
	return 0;
}

#ifdef HAVE_DMA_MEMCPY_VEC
static void dmaengine_bench_table_to_vecs(const struct sg_table *sgt,
					  struct dma_vec *v)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		v[i].addr = sg_dma_address(sg);
		v[i].len = sg_dma_len(sg);
	}
}
#endif

/*
 * One prep call, timed: for a piece in per-segment form, for the whole
 * batch in the others. A kernel without a form's API never gets here:
 * the ioctl refuses the form before any channel is touched.
 */
static struct dma_async_tx_descriptor *
dmaengine_bench_prep_call(struct dmaengine_bench_chan *c,
			  struct dmaengine_bench_slot *s,
			  const struct dmaengine_bench_piece *piece,
			  unsigned long flags)
{
	struct dma_async_tx_descriptor *tx;
	ktime_t t0 = ktime_get();

	tx = dmaengine_bench_forms[c->run->prep].prep(c, s, piece, flags);
	c->fig.prep_ns += dmaengine_bench_elapsed(t0);
	return tx;
}

/* Prepare and submit one descriptor, waiting for room in a full pool. */
static int dmaengine_bench_prep_submit(struct dmaengine_bench_chan *c,
				       struct dmaengine_bench_slot *s,
				       const struct dmaengine_bench_piece *piece,
				       bool last)
{
	const char *call = dmaengine_bench_forms[c->run->prep].call;
	unsigned long flags = dmaengine_bench_flags(c, last);
	struct dmaengine_bench_stall st = { .deadline = jiffies + c->run->timeout };
	struct dma_async_tx_descriptor *tx;
	int ret;

	for (;;) {
		tx = dmaengine_bench_prep_call(c, s, piece, flags);
		if (tx)
			break;
		ret = dmaengine_bench_stall(c, call, &st);
		if (ret)
			return ret;
	}
	c->fig.prep_calls++;
	if (st.stalled)
		c->since_stall = 0;
	c->since_stall++;
	return dmaengine_bench_submit(c, s, tx, last);
}

/* Per-segment: one descriptor per piece of the mapped tables. */
static int dmaengine_bench_batch_pieces(struct dmaengine_bench_chan *c,
					struct dmaengine_bench_slot *s)
{
	struct sg_table *st = &s->set->src_sgt, *dt = &s->set->dst_sgt;
	struct scatterlist *sg = st->sgl, *dg = dt->sgl;
	unsigned int s_left = st->nents, d_left = dt->nents;
	dma_addr_t s_addr = sg_dma_address(sg), d_addr = sg_dma_address(dg);
	unsigned int s_len = sg_dma_len(sg), d_len = sg_dma_len(dg);
	struct dmaengine_bench_piece piece;
	int ret;

	for (;;) {
		bool last;

		piece.dst = d_addr;
		piece.src = s_addr;
		piece.len = min3(s_len, d_len, c->seg.max);
		last = s_len == piece.len && s_left == 1;
		if (WARN_ON_ONCE(s->ndesc >= c->max_txs))
			return -EOVERFLOW;
		ret = dmaengine_bench_prep_submit(c, s, &piece, last);
		if (ret || last)
			return ret;

		s_addr += piece.len;
		s_len -= piece.len;
		d_addr += piece.len;
		d_len -= piece.len;
		if (!s_len) {
			sg = sg_next(sg);
			s_left--;
			s_addr = sg_dma_address(sg);
			s_len = sg_dma_len(sg);
		}
		if (!d_len) {
			dg = sg_next(dg);
			if (WARN_ON_ONCE(!--d_left))
				return -EOVERFLOW;
			d_addr = sg_dma_address(dg);
			d_len = sg_dma_len(dg);
		}
	}
}

static struct dma_async_tx_descriptor *
dmaengine_bench_prep_memcpy(struct dmaengine_bench_chan *c,
			    struct dmaengine_bench_slot *s,
			    const struct dmaengine_bench_piece *piece,
			    unsigned long flags)
{
	return dmaengine_prep_dma_memcpy(c->chan, piece->dst, piece->src,
					 piece->len, flags);
}

#ifdef HAVE_DMA_MEMCPY_SG
/* One descriptor for the whole batch. */
static int dmaengine_bench_batch_whole(struct dmaengine_bench_chan *c,
				       struct dmaengine_bench_slot *s)
{
	return dmaengine_bench_prep_submit(c, s, NULL, true);
}

static struct dma_async_tx_descriptor *
dmaengine_bench_prep_memcpy_sg(struct dmaengine_bench_chan *c,
			       struct dmaengine_bench_slot *s,
			       const struct dmaengine_bench_piece *piece,
			       unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_sg(c->chan, s->set->dst_sgt.sgl,
					    s->set->dst_sgt.nents,
					    s->set->src_sgt.sgl,
					    s->set->src_sgt.nents, flags);
}
#endif

#ifdef HAVE_DMA_MEMCPY_VEC
static struct dma_async_tx_descriptor *
dmaengine_bench_prep_memcpy_vec(struct dmaengine_bench_chan *c,
				struct dmaengine_bench_slot *s,
				const struct dmaengine_bench_piece *piece,
				unsigned long flags)
{
	return dmaengine_prep_dma_memcpy_vec(c->chan, s->dst_vecs,
					     s->set->dst_sgt.nents,
					     s->src_vecs,
					     s->set->src_sgt.nents, flags);
}

/*
 * memcpy_vec takes arrays of mapped segments where memcpy_sg takes the
 * tables: building them is work only this form asks of its caller, timed
 * in the prep phase and on its own.
 */
static int dmaengine_bench_batch_vecs(struct dmaengine_bench_chan *c,
				      struct dmaengine_bench_slot *s)
{
	ktime_t t0 = ktime_get();
	u64 ns;

	dmaengine_bench_table_to_vecs(&s->set->src_sgt, s->src_vecs);
	dmaengine_bench_table_to_vecs(&s->set->dst_sgt, s->dst_vecs);
	ns = dmaengine_bench_elapsed(t0);
	c->fig.convert_ns += ns;
	c->fig.prep_ns += ns;
	return dmaengine_bench_prep_submit(c, s, NULL, true);
}
#endif

const struct dmaengine_bench_form dmaengine_bench_forms[DMAENGINE_BENCH_NR_MODES] = {
	[DMAENGINE_BENCH_MODE_MEMCPY] = {
		.name = "prep_memcpy",
		.call = "prep_dma_memcpy",
		.have_api = true,
		.cap = DMA_MEMCPY,
		.cap_name = "DMA_MEMCPY",
		.batch = dmaengine_bench_batch_pieces,
		.prep = dmaengine_bench_prep_memcpy,
	},
	[DMAENGINE_BENCH_MODE_MEMCPY_SG] = {
		.name = "prep_memcpy_sg",
		.call = "prep_dma_memcpy_sg",
#ifdef HAVE_DMA_MEMCPY_SG
		.have_api = true,
		.cap = DMA_MEMCPY_SG,
		.batch = dmaengine_bench_batch_whole,
		.prep = dmaengine_bench_prep_memcpy_sg,
#endif
		.cap_name = "DMA_MEMCPY_SG",
		.api = "dmaengine_prep_dma_memcpy_sg() (removed from mainline in 6.0)",
	},
	/* the CPU copies the folios of memcpy channels */
	[DMAENGINE_BENCH_MODE_CPU] = {
		.name = "cpu",
		.have_api = true,
		.cap = DMA_MEMCPY,
		.cap_name = "DMA_MEMCPY",
	},
	[DMAENGINE_BENCH_MODE_MEMCPY_VEC] = {
		.name = "prep_memcpy_vec",
		.call = "prep_dma_memcpy_vec",
#ifdef HAVE_DMA_MEMCPY_VEC
		.have_api = true,
		.cap = DMA_MEMCPY_VEC,
		.vecs = true,
		.batch = dmaengine_bench_batch_vecs,
		.prep = dmaengine_bench_prep_memcpy_vec,
#endif
		.cap_name = "DMA_MEMCPY_VEC",
		.api = "dmaengine_prep_dma_memcpy_vec() (not in mainline)",
	},
};

/* ------------------------------------------------------------------ */
/* Batches in flight                                                    */
/* ------------------------------------------------------------------ */

/* Batch @b of a run copies its own set, or the one set again. */
static struct dmaengine_bench_set *
dmaengine_bench_batch_set(struct dmaengine_bench_chan *c, u64 b)
{
	return &c->sets[c->run->distinct ? (unsigned int)b : 0];
}

/* Map (distinct buffers), prepare and submit, issue. */
static int dmaengine_bench_slot_start(struct dmaengine_bench_chan *c,
				      struct dmaengine_bench_slot *s,
				      struct dmaengine_bench_set *set)
{
	ktime_t t0;
	int ret;

	s->set = set;
	s->ndesc = 0;
	s->result = 0;
	atomic_set(&s->pending, 1);
	reinit_completion(&s->done);

	if (c->run->distinct) {
		ret = dmaengine_bench_map(c, set);
		if (ret)
			return ret;
	}
	s->busy = true;

	ret = dmaengine_bench_forms[c->run->prep].batch(c, s);
	if (ret)
		return ret;

	t0 = ktime_get();
	dma_async_issue_pending(c->chan);
	c->fig.issue_ns += dmaengine_bench_elapsed(t0);
	/* every descriptor is submitted: drop the submission's reference */
	dmaengine_bench_slot_put(s);
	return 0;
}

static int dmaengine_bench_poll(struct dmaengine_bench_chan *c,
				struct dmaengine_bench_slot *s)
{
	enum dma_status status = dmaengine_tx_status(c->chan, s->last, NULL);

	if (status == DMA_COMPLETE)
		return 0;
	if (status == DMA_ERROR) {
		pr_err("%s: a descriptor completed with an error\n", c->name);
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_RESULT, -EIO);
		return -EIO;
	}
	cond_resched();
	return -EAGAIN;
}

/* Wait for a slot's batch, in slices so that abort is seen. */
static int dmaengine_bench_slot_wait(struct dmaengine_bench_chan *c,
				     struct dmaengine_bench_slot *s)
{
	unsigned long deadline = jiffies + c->run->timeout;
	bool poll = c->run->p->flags & DMAENGINE_BENCH_F_POLL;
	int ret;

	for (;;) {
		if (poll) {
			ret = dmaengine_bench_poll(c, s);
			if (ret != -EAGAIN)
				return ret;
		} else if (wait_for_completion_timeout(&s->done,
						       DMAENGINE_BENCH_WAIT_SLICE)) {
			if (!s->result)
				return 0;
			pr_err("%s: transfer completed with result %d\n",
			       c->name, s->result);
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_RESULT,
						  -EIO);
			return -EIO;
		}
		if (READ_ONCE(c->run->abort)) {
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_INTR,
						  -EINTR);
			return -EINTR;
		}
		if (time_after(jiffies, deadline)) {
			pr_err("%s: batch not complete after %u ms\n", c->name,
			       jiffies_to_msecs(c->run->timeout));
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_TIMEOUT,
						  -ETIMEDOUT);
			return -ETIMEDOUT;
		}
	}
}

/*
 * With verification, every descriptor's status, not only the completion
 * of the last: an error on an earlier segment must not pass unseen. On a
 * NO_ORDER channel every descriptor's callback reported its result
 * already. Outside the timed phases.
 */
static int dmaengine_bench_slot_check(struct dmaengine_bench_chan *c,
				      struct dmaengine_bench_slot *s)
{
	unsigned int i;

	if (c->no_order)
		return 0;
	for (i = 0; i < s->ndesc; i++) {
		if (dmaengine_tx_status(c->chan, s->cookies[i], NULL) ==
		    DMA_ERROR) {
			pr_err("%s: descriptor %u of the batch completed with an error\n",
			       c->name, i);
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_RESULT,
						  -EIO);
			return -EIO;
		}
	}
	return 0;
}

/* Wait for a slot's batch, check it, unmap its buffers, count it. */
static int dmaengine_bench_slot_retire(struct dmaengine_bench_chan *c,
				       struct dmaengine_bench_slot *s)
{
	ktime_t t0 = ktime_get();
	int ret;

	ret = dmaengine_bench_slot_wait(c, s);
	c->fig.wait_ns += dmaengine_bench_elapsed(t0);
	if (!ret && c->run->verify)
		ret = dmaengine_bench_slot_check(c, s);
	if (ret)
		return ret;

	s->busy = false;
	if (c->run->distinct)
		dmaengine_bench_unmap(c, s->set);
	c->fig.batches++;
	c->fig.segments += s->set->src_sgt.nents;
	c->fig.bytes += dmaengine_bench_mapped_bytes(&s->set->src_sgt);
	return 0;
}

/*
 * After an error nothing may be left queued on buffers about to be
 * unmapped: terminate first, then unmap what the failed batches held.
 */
static void dmaengine_bench_slots_abandon(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	dmaengine_terminate_sync(c->chan);
	atomic_set(&c->inflight, 0);
	for (i = 0; i < c->run->depth; i++) {
		struct dmaengine_bench_slot *s = &c->slots[i];

		if (!s->busy)
			continue;
		s->busy = false;
		if (c->run->distinct)
			dmaengine_bench_unmap(c, s->set);
	}
}

/* Every batch of a run through the engine, up to depth of them in flight. */
static int dmaengine_bench_dma_batches(struct dmaengine_bench_chan *c)
{
	unsigned int depth = c->run->depth, next = 0, i;
	u64 b;
	int ret = 0;

	for (b = 0; b < c->run->batches && !ret; b++) {
		struct dmaengine_bench_slot *s = &c->slots[next];

		next = next + 1 == depth ? 0 : next + 1;
		if (s->busy)
			ret = dmaengine_bench_slot_retire(c, s);
		if (!ret)
			ret = dmaengine_bench_slot_start(c, s,
							 dmaengine_bench_batch_set(c, b));
		if (!ret && READ_ONCE(c->run->abort)) {
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_INTR,
						  -EINTR);
			ret = -EINTR;
		}
	}
	/* the rest, oldest first */
	for (i = 0; i < depth && !ret; i++) {
		struct dmaengine_bench_slot *s = &c->slots[next];

		next = next + 1 == depth ? 0 : next + 1;
		if (s->busy)
			ret = dmaengine_bench_slot_retire(c, s);
	}
	if (ret)
		dmaengine_bench_slots_abandon(c);
	return ret;
}

/*
 * The CPU copy of a folio, as migration makes it when nothing offloads it:
 * folio_copy(), or where the kernel does not export it (6.1), the same
 * loop of copy_highpage() that it runs.
 */
static void dmaengine_bench_folio_copy(struct folio *dst, struct folio *src)
{
#ifdef HAVE_EXPORT_FOLIO_COPY
	folio_copy(dst, src);
#else
	long i = 0, nr = folio_nr_pages(src);

	for (;;) {
		copy_highpage(folio_page(dst, i), folio_page(src, i));
		if (++i == nr)
			break;
		cond_resched();
	}
#endif
}

/*
 * A batch copied by the CPU: folio by folio, or where the destination's
 * folios have another order, page by page as folio_copy() copies.
 */
static void dmaengine_bench_cpu_copy(struct dmaengine_bench_chan *c,
				     struct dmaengine_bench_set *set)
{
	unsigned int sge = c->run->p->sge, i;
	unsigned long spp, dpp, pg, npages;

	if (c->run->dst_folio_size == c->run->folio_size) {
		for (i = 0; i < sge; i++)
			dmaengine_bench_folio_copy(set->dst[i], set->src[i]);
		return;
	}
	spp = c->run->folio_size >> PAGE_SHIFT;
	dpp = c->run->dst_folio_size >> PAGE_SHIFT;
	npages = sge * spp;
	for (pg = 0; pg < npages; pg++) {
		copy_highpage(folio_page(set->dst[pg / dpp], pg % dpp),
			      folio_page(set->src[pg / spp], pg % spp));
		cond_resched();
	}
}

/* The same batches copied by the CPU, the way migration copies a folio. */
static int dmaengine_bench_cpu_batches(struct dmaengine_bench_chan *c)
{
	unsigned int sge = c->run->p->sge;
	u64 b;

	for (b = 0; b < c->run->batches; b++) {
		struct dmaengine_bench_set *set =
			dmaengine_bench_batch_set(c, b);
		ktime_t t0 = ktime_get();

		dmaengine_bench_cpu_copy(c, set);
		c->fig.copy_ns += dmaengine_bench_elapsed(t0);

		c->fig.batches++;
		c->fig.segments += sge;
		c->fig.bytes += (u64)sge * c->run->folio_size;
		if (READ_ONCE(c->run->abort)) {
			dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_INTR,
						  -EINTR);
			return -EINTR;
		}
	}
	return 0;
}

/* One run on one channel. */
static void dmaengine_bench_chan_run(struct dmaengine_bench_chan *c)
{
	struct dmaengine_bench_run *run = c->run;
	bool by_cpu = !dmaengine_bench_forms[run->prep].batch;
	bool map_once = !by_cpu && !run->distinct;

	memset(&c->fig, 0, sizeof(c->fig));
	c->error = 0;
	c->err = 0;
	c->irq_every = 0;
	c->since_irq = 0;
	c->since_stall = 0;
	c->last_cookie = 0;
	atomic_set(&c->inflight, 0);

	if (run->verify)
		dmaengine_bench_buffer_clear(c->dst, c->dst_nfolios);

	c->fig.start = ktime_get();
	if (map_once && dmaengine_bench_map(c, &c->sets[0]))
		goto out;

	if (by_cpu)
		dmaengine_bench_cpu_batches(c);
	else
		dmaengine_bench_dma_batches(c);

	if (map_once)
		dmaengine_bench_unmap(c, &c->sets[0]);
out:
	c->fig.end = ktime_get();

	if (!c->error && run->verify &&
	    !dmaengine_bench_pattern_walk(c, c->dst, c->dst_nfolios, false))
		dmaengine_bench_set_error(c, DMAENGINE_BENCH_ERR_VERIFY,
					  -EILSEQ);
}

int dmaengine_bench_chan_thread(void *data)
{
	struct dmaengine_bench_chan *c = data;
	struct dmaengine_bench_run *run = c->run;
	unsigned int seen = 0;

	mb_kthread_pin(c->affinity);
	for (;;) {
		wait_event_idle(run->wq,
				READ_ONCE(run->gen) != seen || kthread_should_stop());
		if (kthread_should_stop())
			break;
		seen = READ_ONCE(run->gen);

		dmaengine_bench_chan_run(c);

		if (atomic_dec_and_test(&run->pending))
			complete(&run->run_done);
	}
	return 0;
}
