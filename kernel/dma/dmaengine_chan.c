// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode, one channel: buffers, mapping, and the batches timed
 * by phase (prep, submit, issue, wait). Verification and buffer set-up stay
 * outside every timed region.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

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
#define DEB_WAIT_SLICE	(HZ / 10)

static void deb_set_error(struct deb_chan *c, u32 error, int errno)
{
	if (!c->error) {
		c->error = error;
		c->errno = errno;
	}
}

static struct folio *deb_folio_alloc(int node, bool exact, unsigned int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_RETRY_MAYFAIL;

	if (node == NUMA_NO_NODE)
		return folio_alloc(gfp, order);
	return __folio_alloc_node(gfp | (exact ? __GFP_THISNODE : 0), order,
				  node);
}

static void deb_folios_free(struct folio **folios, unsigned int n)
{
	unsigned int i;

	if (!folios)
		return;
	for (i = 0; i < n; i++)
		if (folios[i])
			folio_put(folios[i]);
	kvfree(folios);
}

/* Allocate @n folios and an sg_table of one entry per folio. */
static struct folio **deb_buffer_alloc(struct deb_chan *c, struct sg_table *sgt,
				       int node, bool exact)
{
	const struct dmaengine_benchmark *p = c->run->p;
	struct folio **folios;
	struct scatterlist *sg;
	unsigned int i;

	folios = kvcalloc(p->sge, sizeof(*folios), GFP_KERNEL);
	if (!folios)
		return NULL;
	if (sg_alloc_table(sgt, p->sge, GFP_KERNEL))
		goto free_folios;

	for_each_sgtable_sg(sgt, sg, i) {
		folios[i] = deb_folio_alloc(node, exact, p->folio_order);
		if (!folios[i]) {
			pr_err("%s: cannot allocate folio %u of order %u on node %d\n",
			       dma_chan_name(c->chan), i, p->folio_order, node);
			goto free_table;
		}
		sg_set_page(sg, folio_page(folios[i], 0), folio_size(folios[i]),
			    0);
	}
	return folios;

free_table:
	sg_free_table(sgt);
free_folios:
	deb_folios_free(folios, p->sge);
	return NULL;
}

/*
 * The pattern names the channel, folio and word, so a copy to the wrong
 * place is caught as surely as a copy that did not happen.
 */
static u64 deb_pattern(unsigned int chan, unsigned int folio, size_t word)
{
	return ((u64)chan << 56) ^ ((u64)folio << 32) ^ word ^
	       0x5a5a5a5a00000000ULL;
}

/*
 * Fill (fill = true) or check each page of a buffer, mapping one page at a
 * time so that highmem works on 32-bit machines.
 */
static bool deb_pattern_walk(struct deb_chan *c, struct folio **folios,
			     bool fill)
{
	const size_t words = PAGE_SIZE / sizeof(u64);
	unsigned int i, pg;
	size_t w;

	for (i = 0; i < c->run->p->sge; i++) {
		for (pg = 0; pg < folio_nr_pages(folios[i]); pg++) {
			u64 *v = kmap_local_page(folio_page(folios[i], pg));
			size_t base = (size_t)pg * words;
			bool ok = true;

			for (w = 0; w < words && ok; w++) {
				u64 want = deb_pattern(c->index, i, base + w);

				if (fill)
					v[w] = want;
				else
					ok = v[w] == want;
			}
			kunmap_local(v);
			if (!ok) {
				pr_err("%s: verification failed: folio %u page %u word %zu\n",
				       dma_chan_name(c->chan), i, pg, w - 1);
				return false;
			}
			cond_resched();
		}
	}
	return true;
}

static void deb_buffer_clear(struct deb_chan *c, struct folio **folios)
{
	unsigned int i, pg;

	for (i = 0; i < c->run->p->sge; i++) {
		for (pg = 0; pg < folio_nr_pages(folios[i]); pg++)
			clear_highpage(folio_page(folios[i], pg));
		cond_resched();
	}
}

int deb_chan_setup(struct deb_chan *c)
{
	const struct dmaengine_benchmark *p = c->run->p;
	unsigned int max_seg = dma_get_max_seg_size(c->dma_dev);
	u64 batch_bytes = (u64)p->sge * c->run->folio_size;

	init_completion(&c->done);

	/* a segment must fit a descriptor and keep the device's alignment */
	c->max_seg = max_seg ? max_seg : UINT_MAX;
	if (c->chan->device->copy_align)
		c->max_seg = round_down(c->max_seg,
					1U << c->chan->device->copy_align);
	if (!c->max_seg) {
		pr_err("%s: max segment size %u is below the copy alignment of %u bytes\n",
		       dma_chan_name(c->chan), max_seg,
		       1U << c->chan->device->copy_align);
		deb_set_error(c, DMAENGINE_BENCH_ERR_LIMIT, -EINVAL);
		return -EINVAL;
	}
	/* swiotlb bounces at most dma_max_mapping_size() in one piece */
	if (c->run->folio_size > dma_max_mapping_size(c->dma_dev)) {
		pr_err("%s: folio size %zu exceeds the max mapping size %zu of %s\n",
		       dma_chan_name(c->chan), c->run->folio_size,
		       dma_max_mapping_size(c->dma_dev), dev_name(c->dma_dev));
		deb_set_error(c, DMAENGINE_BENCH_ERR_LIMIT, -EINVAL);
		return -EINVAL;
	}
	if (c->chan->device->copy_align &&
	    !IS_ALIGNED(c->run->folio_size, 1U << c->chan->device->copy_align)) {
		pr_err("%s: folio size %zu breaks the copy alignment of %u bytes\n",
		       dma_chan_name(c->chan), c->run->folio_size,
		       1U << c->chan->device->copy_align);
		deb_set_error(c, DMAENGINE_BENCH_ERR_LIMIT, -EINVAL);
		return -EINVAL;
	}

	/*
	 * Mapped segments can merge (IOMMU) but never exceed the batch; the
	 * source and destination tables each end segments independently.
	 */
	c->max_txs = 2 * p->sge + div_u64(batch_bytes, c->max_seg) + 1;
	c->txs = kvcalloc(c->max_txs, sizeof(*c->txs), GFP_KERNEL);
	c->cookies = kvcalloc(c->max_txs, sizeof(*c->cookies), GFP_KERNEL);
	if (!c->txs || !c->cookies)
		goto nomem;

	c->src = deb_buffer_alloc(c, &c->src_sgt, c->src_node,
				  p->src_node != NUMA_NO_NODE);
	if (!c->src)
		goto nomem;
	c->dst = deb_buffer_alloc(c, &c->dst_sgt, c->dst_node,
				  p->dst_node != NUMA_NO_NODE);
	if (!c->dst)
		goto nomem;

	if (p->flags & DMAENGINE_BENCH_F_VERIFY)
		deb_pattern_walk(c, c->src, true);
	return 0;

nomem:
	deb_set_error(c, DMAENGINE_BENCH_ERR_NOMEM, -ENOMEM);
	return -ENOMEM;
}

void deb_chan_teardown(struct deb_chan *c)
{
	unsigned int sge = c->run->p->sge;

	if (c->dst) {
		sg_free_table(&c->dst_sgt);
		deb_folios_free(c->dst, sge);
	}
	if (c->src) {
		sg_free_table(&c->src_sgt);
		deb_folios_free(c->src, sge);
	}
	kvfree(c->cookies);
	kvfree(c->txs);
}

static void deb_callback(void *param, const struct dmaengine_result *result)
{
	struct deb_chan *c = param;

	c->result = *result;
	complete(&c->done);
}

/* Descriptors of one batch, one per mapped segment: returns how many. */
static int deb_prep_memcpy(struct deb_chan *c, unsigned long last_flags)
{
	struct scatterlist *s = c->src_sgt.sgl, *d = c->dst_sgt.sgl;
	unsigned int s_left = c->src_sgt.nents, d_left = c->dst_sgt.nents;
	dma_addr_t s_addr = sg_dma_address(s), d_addr = sg_dma_address(d);
	unsigned int s_len = sg_dma_len(s), d_len = sg_dma_len(d);
	int n = 0;

	for (;;) {
		size_t len = min3(s_len, d_len, c->max_seg);
		bool last = s_len == len && s_left == 1;
		struct dma_async_tx_descriptor *tx;

		if (WARN_ON_ONCE(n >= c->max_txs))
			return -EOVERFLOW;
		tx = dmaengine_prep_dma_memcpy(c->chan, d_addr, s_addr, len,
					       last ? last_flags : DMA_CTRL_ACK);
		c->fig.prep_calls++;
		if (!tx)
			return -EIO;
		c->txs[n++] = tx;
		c->nprepared = n;
		if (last)
			return n;

		s_addr += len;
		s_len -= len;
		d_addr += len;
		d_len -= len;
		if (!s_len) {
			s = sg_next(s);
			s_left--;
			s_addr = sg_dma_address(s);
			s_len = sg_dma_len(s);
		}
		if (!d_len) {
			d = sg_next(d);
			d_left--;
			if (WARN_ON_ONCE(!d_left))
				return -EOVERFLOW;
			d_addr = sg_dma_address(d);
			d_len = sg_dma_len(d);
		}
	}
}

static int deb_prep_memcpy_sg(struct deb_chan *c, unsigned long flags)
{
#ifdef HAVE_DMA_MEMCPY_SG
	struct dma_async_tx_descriptor *tx;

	tx = dmaengine_prep_dma_memcpy_sg(c->chan, c->dst_sgt.sgl,
					  c->dst_sgt.nents, c->src_sgt.sgl,
					  c->src_sgt.nents, flags);
	c->fig.prep_calls++;
	if (!tx)
		return -EIO;
	c->txs[0] = tx;
	c->nprepared = 1;
	return 1;
#else
	/* refused by the ioctl's checks before any channel is touched */
	return -EOPNOTSUPP;
#endif
}

/* Wait for the batch's last descriptor, in slices so that abort is seen. */
static int deb_wait(struct deb_chan *c, dma_cookie_t cookie)
{
	unsigned long deadline = jiffies + c->run->timeout;
	bool poll = c->run->p->flags & DMAENGINE_BENCH_F_POLL;
	enum dma_status status;

	for (;;) {
		if (poll) {
			status = dmaengine_tx_status(c->chan, cookie, NULL);
			if (status == DMA_COMPLETE)
				return 0;
			if (status == DMA_ERROR) {
				deb_set_error(c, DMAENGINE_BENCH_ERR_RESULT, -EIO);
				return -EIO;
			}
			cond_resched();
		} else if (wait_for_completion_timeout(&c->done,
						       DEB_WAIT_SLICE)) {
			if (c->result.result != DMA_TRANS_NOERROR) {
				pr_err("%s: transfer completed with result %d\n",
				       dma_chan_name(c->chan), c->result.result);
				deb_set_error(c, DMAENGINE_BENCH_ERR_RESULT, -EIO);
				return -EIO;
			}
			return 0;
		}
		if (READ_ONCE(c->run->abort)) {
			deb_set_error(c, DMAENGINE_BENCH_ERR_INTR, -EINTR);
			return -EINTR;
		}
		if (time_after(jiffies, deadline)) {
			pr_err("%s: batch not complete after %u ms\n",
			       dma_chan_name(c->chan),
			       jiffies_to_msecs(c->run->timeout));
			deb_set_error(c, DMAENGINE_BENCH_ERR_TIMEOUT, -ETIMEDOUT);
			return -ETIMEDOUT;
		}
	}
}

/*
 * With verification, every descriptor's status, not just the last one's
 * callback: an error on an earlier segment must not pass unseen. Outside
 * the timed phases.
 */
static int deb_check_cookies(struct deb_chan *c, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (dmaengine_tx_status(c->chan, c->cookies[i], NULL) ==
		    DMA_ERROR) {
			pr_err("%s: descriptor %d of the batch completed with an error\n",
			       dma_chan_name(c->chan), i);
			deb_set_error(c, DMAENGINE_BENCH_ERR_RESULT, -EIO);
			return -EIO;
		}
	}
	return 0;
}

/* Callbacks are the client's to set: clear what a recycled one carries. */
static void deb_clear_callbacks(struct deb_chan *c, int n)
{
	int i;

	/*
	 * pl330 clears ->callback but not ->callback_result (fixed upstream
	 * in 2024 by "dmaengine: pl330: Clear callback_result for re-used
	 * descs", not in 6.1): a recycled descriptor would call back into a
	 * run that has ended.
	 */
	for (i = 0; i < n; i++) {
		c->txs[i]->callback = NULL;
		c->txs[i]->callback_result = NULL;
		c->txs[i]->callback_param = NULL;
	}
}

/*
 * A prep failed part way through a batch. There is no call to give back a
 * prepared descriptor but to submit it: submit those (never issued), so
 * that the terminate that follows returns them to the driver's pool.
 */
static void deb_return_prepared(struct deb_chan *c)
{
	int i;

	deb_clear_callbacks(c, c->nprepared);
	for (i = 0; i < c->nprepared; i++)
		dmaengine_submit(c->txs[i]);
}

static int deb_batch(struct deb_chan *c)
{
	bool poll = c->run->p->flags & DMAENGINE_BENCH_F_POLL;
	unsigned long last_flags = DMA_CTRL_ACK | (poll ? 0 : DMA_PREP_INTERRUPT);
	struct dma_async_tx_descriptor *last;
	dma_cookie_t cookie = 0;
	ktime_t t0, t1, t2, t3, t4;
	int n, i;

	reinit_completion(&c->done);
	c->nprepared = 0;

	t0 = ktime_get();
	if (c->run->prep == DEB_PREP_MEMCPY_SG)
		n = deb_prep_memcpy_sg(c, last_flags);
	else
		n = deb_prep_memcpy(c, last_flags);
	t1 = ktime_get();
	c->fig.prep_ns += ktime_to_ns(ktime_sub(t1, t0));
	if (n < 0) {
		pr_err("%s: %s returned NULL (call %llu of the run, after %d descriptors of the batch: the driver's descriptor pool may be exhausted)\n",
		       dma_chan_name(c->chan),
		       c->run->prep == DEB_PREP_MEMCPY_SG ?
		       "prep_dma_memcpy_sg" : "prep_dma_memcpy",
		       c->fig.prep_calls, c->nprepared);
		deb_return_prepared(c);
		deb_set_error(c, DMAENGINE_BENCH_ERR_PREP, n);
		return n;
	}

	deb_clear_callbacks(c, n);
	last = c->txs[n - 1];
	if (!poll) {
		last->callback_result = deb_callback;
		last->callback_param = c;
	}

	t1 = ktime_get();
	for (i = 0; i < n; i++) {
		cookie = dmaengine_submit(c->txs[i]);
		c->cookies[i] = cookie;
		if (dma_submit_error(cookie)) {
			pr_err("%s: dmaengine_submit of descriptor %d failed: %d\n",
			       dma_chan_name(c->chan), i, cookie);
			deb_set_error(c, DMAENGINE_BENCH_ERR_SUBMIT, -EIO);
			return -EIO;
		}
	}
	t2 = ktime_get();

	dma_async_issue_pending(c->chan);
	t3 = ktime_get();

	i = deb_wait(c, cookie);
	t4 = ktime_get();
	if (!i && c->run->verify)
		i = deb_check_cookies(c, n);

	c->fig.submit_ns += ktime_to_ns(ktime_sub(t2, t1));
	c->fig.issue_ns += ktime_to_ns(ktime_sub(t3, t2));
	c->fig.wait_ns += ktime_to_ns(ktime_sub(t4, t3));
	c->fig.submits += n;
	return i;
}

static int deb_map(struct deb_chan *c)
{
	ktime_t t0 = ktime_get();
	int ret;

	ret = dma_map_sgtable(c->dma_dev, &c->src_sgt, DMA_TO_DEVICE, 0);
	if (ret)
		goto fail;
	ret = dma_map_sgtable(c->dma_dev, &c->dst_sgt, DMA_FROM_DEVICE, 0);
	if (ret) {
		dma_unmap_sgtable(c->dma_dev, &c->src_sgt, DMA_TO_DEVICE, 0);
		goto fail;
	}
	c->fig.map_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
	return 0;

fail:
	pr_err("%s: dma_map_sgtable on %s failed: %d\n", dma_chan_name(c->chan),
	       dev_name(c->dma_dev), ret);
	deb_set_error(c, DMAENGINE_BENCH_ERR_MAP, ret);
	return ret;
}

static void deb_unmap(struct deb_chan *c)
{
	ktime_t t0 = ktime_get();

	dma_unmap_sgtable(c->dma_dev, &c->dst_sgt, DMA_FROM_DEVICE, 0);
	dma_unmap_sgtable(c->dma_dev, &c->src_sgt, DMA_TO_DEVICE, 0);
	c->fig.unmap_ns += ktime_to_ns(ktime_sub(ktime_get(), t0));
}

static u64 deb_mapped_bytes(const struct sg_table *sgt)
{
	struct scatterlist *sg;
	u64 bytes = 0;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i)
		bytes += sg_dma_len(sg);
	return bytes;
}

/* One run on one channel: map, copy every batch, unmap. */
static void deb_chan_run(struct deb_chan *c)
{
	u64 batch;
	int ret;

	memset(&c->fig, 0, sizeof(c->fig));
	c->error = 0;
	c->errno = 0;

	if (c->run->verify)
		deb_buffer_clear(c, c->dst);

	c->fig.start = ktime_get();
	if (deb_map(c))
		goto out;

	for (batch = 0; batch < c->run->batches; batch++) {
		ret = deb_batch(c);
		if (ret) {
			/* drop what is queued before the buffers are unmapped */
			dmaengine_terminate_sync(c->chan);
			break;
		}
		c->fig.batches++;
		c->fig.segments += c->src_sgt.nents;
		c->fig.bytes += deb_mapped_bytes(&c->src_sgt);
		if (READ_ONCE(c->run->abort)) {
			deb_set_error(c, DMAENGINE_BENCH_ERR_INTR, -EINTR);
			break;
		}
	}

	deb_unmap(c);
out:
	c->fig.end = ktime_get();

	if (!c->error && c->run->verify && !deb_pattern_walk(c, c->dst, false))
		deb_set_error(c, DMAENGINE_BENCH_ERR_VERIFY, -EILSEQ);
}

int deb_chan_thread(void *data)
{
	struct deb_chan *c = data;
	struct deb_run *run = c->run;
	unsigned int seen = 0;

	for (;;) {
		wait_event_idle(run->wq,
				READ_ONCE(run->gen) != seen || kthread_should_stop());
		if (kthread_should_stop())
			break;
		seen = READ_ONCE(run->gen);

		deb_chan_run(c);

		if (atomic_dec_and_test(&run->pending))
			complete(&run->run_done);
	}
	return 0;
}
