// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode, one channel: buffers, and the batches of a run timed
 * by phase (map, prep, submit, issue, wait, unmap), or copied by the CPU.
 *
 * The batches go through the dmacopy library, which keeps the providers'
 * contracts; this file keeps the benchmark's part: the buffers, the
 * batches in flight at a depth, the runs, the CPU's copy. The thread is
 * the one task that drives its channel, as the library asks.
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

/* Bytes of folios a channel holds for @batches batches a run. */
u64 dmaengine_bench_chan_buffer_bytes(const struct dmaengine_benchmark *p,
				      u64 batches)
{
	u64 nbufs = p->flags & DMAENGINE_BENCH_F_DISTINCT ? batches : 1;

	return 2 * nbufs * p->sge * (PAGE_SIZE << p->folio_order);
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
			       dmacopy_chan_name(c->cl), i, order, node);
			dmaengine_bench_folios_free(folios, n);
			return NULL;
		}
		cond_resched();
	}
	return folios;
}

static void dmaengine_bench_bufs_free(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	if (!c->bufs)
		return;
	for (i = 0; i < c->nbufs; i++) {
		sg_free_table(&c->bufs[i].src_sgt);
		sg_free_table(&c->bufs[i].dst_sgt);
	}
	kvfree(c->bufs);
	c->bufs = NULL;
}

static int dmaengine_bench_bufs_alloc(struct dmaengine_bench_chan *c)
{
	unsigned int sge = c->job->p->sge, dst_sge = c->job->dst_sge, i;

	c->bufs = kvcalloc(c->nbufs, sizeof(*c->bufs), GFP_KERNEL);
	if (!c->bufs)
		return -ENOMEM;
	for (i = 0; i < c->nbufs; i++) {
		struct dmaengine_bench_bufs *bufs = &c->bufs[i];

		bufs->src = &c->src[(unsigned long)i * sge];
		bufs->dst = &c->dst[(unsigned long)i * dst_sge];
		if (dmacopy_table_fill(c->cl, &bufs->src_sgt, bufs->src, sge,
				       GFP_KERNEL) ||
		    dmacopy_table_fill(c->cl, &bufs->dst_sgt, bufs->dst,
				       dst_sge, GFP_KERNEL))
			return -ENOMEM;
		cond_resched();
	}
	return 0;
}

/*
 * The slots' batches: their memory goes with the set's close, the slots
 * themselves with the job (dmaengine_bench_job_free()).
 */
static int dmaengine_bench_slots_alloc(struct dmaengine_bench_chan *c,
				       u64 batch_bytes)
{
	u32 forms = dmaengine_bench_forms(c->job->modes &
					  ~DMAENGINE_BENCH_PREP_CPU);
	unsigned int i;

	c->slots = kcalloc(c->job->depth, sizeof(*c->slots), GFP_KERNEL);
	if (!c->slots)
		return -ENOMEM;
	for (i = 0; i < c->job->depth; i++)
		if (dmacopy_batch_alloc(&c->slots[i].b, c->cl, c->max_ents,
					batch_bytes, forms, GFP_KERNEL))
			return -ENOMEM;
	return 0;
}

/* The benchmark's own first failure in the channel's run. */
static void dmaengine_bench_chan_error(struct dmaengine_bench_chan *c,
				       u32 error, int err)
{
	if (!c->error) {
		c->error = error;
		c->err = err;
	}
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
				       dmacopy_chan_name(c->cl), page, i, pg, w - 1);
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

/*
 * The run's folios against the channel's limits (the set checked that
 * some segment fits), before anything is allocated.
 */
static int dmaengine_bench_chan_limits(struct dmaengine_bench_chan *c)
{
	const struct dmaengine_bench_job *job = c->job;
	unsigned int align = dmacopy_chan_copy_align(c->cl);
	unsigned long ents;

	if (align && (!IS_ALIGNED(job->folio_size, 1U << align) ||
		      !IS_ALIGNED(job->dst_folio_size, 1U << align))) {
		mb_refuse_err("%s: folio size %zu/%zu (source/destination) breaks the copy alignment of %u bytes\n",
			      dmacopy_chan_name(c->cl), job->folio_size, job->dst_folio_size,
			      1U << align);
		return -EINVAL;
	}
	ents = max((unsigned long)job->p->sge *
		   dmacopy_chan_ents(c->cl, job->folio_size),
		   (unsigned long)job->dst_sge *
		   dmacopy_chan_ents(c->cl, job->dst_folio_size));
	if (ents > MB_MAX_TABLE_ENTS) {
		mb_refuse_err("%s: a batch would take %lu sg entries of at most %u bytes (max_seg_size of %s): more than %lu\n",
			      dmacopy_chan_name(c->cl), ents,
			      dmacopy_chan_seg_max(c->cl),
			      dev_name(dmacopy_chan_dma_dev(c->cl)),
			      MB_MAX_TABLE_ENTS);
		return -EINVAL;
	}
	c->max_ents = ents;
	return 0;
}

int dmaengine_bench_chan_setup(struct dmaengine_bench_chan *c)
{
	const struct dmaengine_benchmark *p = c->job->p;
	u64 batch_bytes = (u64)p->sge * c->job->folio_size;

	if (dmaengine_bench_chan_limits(c)) {
		dmaengine_bench_chan_error(c, DMAENGINE_BENCH_ERR_LIMIT,
					   -EINVAL);
		return -EINVAL;
	}

	c->nbufs = c->job->distinct ? c->job->batches : 1;
	c->nfolios = (unsigned long)c->nbufs * p->sge;
	c->dst_nfolios = (unsigned long)c->nbufs * c->job->dst_sge;

	if (dmaengine_bench_slots_alloc(c, batch_bytes))
		goto nomem;
	c->src = dmaengine_bench_folios_alloc(c, c->nfolios, p->folio_order,
					      c->src_node,
					      p->src_node != NUMA_NO_NODE);
	if (!c->src)
		goto nomem;
	c->dst = dmaengine_bench_folios_alloc(c, c->dst_nfolios,
					      ilog2(c->job->dst_folio_size >>
						    PAGE_SHIFT),
					      c->dst_node,
					      p->dst_node != NUMA_NO_NODE);
	if (!c->dst)
		goto nomem;
	if (dmaengine_bench_bufs_alloc(c))
		goto nomem;

	if (p->flags & DMAENGINE_BENCH_F_VERIFY)
		dmaengine_bench_pattern_walk(c, c->src, c->nfolios, true);
	return 0;

nomem:
	dmaengine_bench_chan_error(c, DMAENGINE_BENCH_ERR_NOMEM, -ENOMEM);
	return -ENOMEM;
}

void dmaengine_bench_chan_teardown(struct dmaengine_bench_chan *c)
{
	if (c->quarantined) {
		/* better a leak than a descriptor writing into freed memory */
		pr_err("%s: its engine still runs descriptors of a failed batch: %lu folios and their mappings stay allocated\n",
		       dmacopy_chan_name(c->cl), c->nfolios + c->dst_nfolios);
		return;
	}
	dmaengine_bench_bufs_free(c);
	dmaengine_bench_folios_free(c->dst, c->dst_nfolios);
	c->dst = NULL;
	dmaengine_bench_folios_free(c->src, c->nfolios);
	c->src = NULL;
}

/* ------------------------------------------------------------------ */
/* Batches in flight                                                    */
/* ------------------------------------------------------------------ */

/* Batch @b of a run copies its own buffers, or the one batch's again. */
static struct dmaengine_bench_bufs *
dmaengine_bench_batch_bufs(struct dmaengine_bench_chan *c, u64 b)
{
	return &c->bufs[c->job->distinct ? (unsigned int)b : 0];
}

/*
 * Map (distinct buffers: every batch; else the run's first batch maps the
 * one batch's buffers for the run), prepare and submit, issue.
 */
static int dmaengine_bench_slot_start(struct dmaengine_bench_chan *c,
				      struct dmaengine_bench_slot *s,
				      struct dmaengine_bench_bufs *bufs)
{
	s->bufs = bufs;
	return dmacopy_batch_start(&s->b, dmaengine_bench_form(c->job->prep),
				   &bufs->src_sgt, &bufs->dst_sgt, 0);
}

/*
 * Wait for a slot's batch, check it (with verification: every
 * descriptor's status, outside the timed phases), unmap its buffers.
 */
static int dmaengine_bench_slot_retire(struct dmaengine_bench_chan *c,
				       struct dmaengine_bench_slot *s)
{
	int ret;

	ret = dmacopy_batch_finish(&s->b, c->job->verify);
	if (ret)
		return ret;
	/* finished: nothing to abandon, and no drain */
	return dmacopy_batch_end(&s->b, DMACOPY_DRAIN_DEFAULT,
				 c->job->distinct);
}

/*
 * After an error nothing may be left queued on buffers about to be
 * unmapped: terminate first, or where the engine cannot, wait for what it
 * runs; then unmap what the failed batches held. Buffers an engine still
 * writes after the wait are quarantined: kept, mapped, until the module's
 * end (dmaengine_bench_chan_teardown()).
 */
static void dmaengine_bench_slots_abandon(struct dmaengine_bench_chan *c)
{
	unsigned int i;

	for (i = 0; i < c->job->depth; i++) {
		struct dmaengine_bench_slot *s = &c->slots[i];

		if (dmacopy_batch_busy(&s->b) &&
		    dmacopy_batch_end(&s->b, DMACOPY_DRAIN_DEFAULT,
				      c->job->distinct))
			c->quarantined = true;
	}
}

/* Every batch of a run through the engine, up to depth of them in flight. */
static int dmaengine_bench_dma_batches(struct dmaengine_bench_chan *c)
{
	unsigned int depth = c->job->depth, next = 0, i;
	u64 b;
	int ret = 0;

	for (b = 0; b < c->job->batches && !ret; b++) {
		struct dmaengine_bench_slot *s = &c->slots[next];

		next = next + 1 == depth ? 0 : next + 1;
		if (dmacopy_batch_busy(&s->b))
			ret = dmaengine_bench_slot_retire(c, s);
		if (!ret)
			ret = dmaengine_bench_slot_start(c, s,
							 dmaengine_bench_batch_bufs(c, b));
		if (!ret && READ_ONCE(c->job->abort)) {
			dmaengine_bench_chan_error(c,
						   DMAENGINE_BENCH_ERR_INTR,
						   -EINTR);
			ret = -EINTR;
		}
	}
	/* the rest, oldest first */
	for (i = 0; i < depth && !ret; i++) {
		struct dmaengine_bench_slot *s = &c->slots[next];

		next = next + 1 == depth ? 0 : next + 1;
		if (dmacopy_batch_busy(&s->b))
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
				     struct dmaengine_bench_bufs *bufs)
{
	unsigned int sge = c->job->p->sge, i;
	unsigned long spp, dpp, pg, npages;

	if (c->job->dst_folio_size == c->job->folio_size) {
		for (i = 0; i < sge; i++)
			dmaengine_bench_folio_copy(bufs->dst[i], bufs->src[i]);
		return;
	}
	spp = c->job->folio_size >> PAGE_SHIFT;
	dpp = c->job->dst_folio_size >> PAGE_SHIFT;
	npages = sge * spp;
	for (pg = 0; pg < npages; pg++) {
		copy_highpage(folio_page(bufs->dst[pg / dpp], pg % dpp),
			      folio_page(bufs->src[pg / spp], pg % spp));
		cond_resched();
	}
}

/* The same batches copied by the CPU, the way migration copies a folio. */
static int dmaengine_bench_cpu_batches(struct dmaengine_bench_chan *c)
{
	unsigned int sge = c->job->p->sge;
	u64 b;

	for (b = 0; b < c->job->batches; b++) {
		struct dmaengine_bench_bufs *bufs =
			dmaengine_bench_batch_bufs(c, b);
		ktime_t t0 = ktime_get();

		dmaengine_bench_cpu_copy(c, bufs);
		c->cpu.copy_ns += mb_elapsed_ns(t0);

		c->cpu.batches++;
		c->cpu.segments += sge;
		c->cpu.bytes += (u64)sge * c->job->folio_size;
		if (READ_ONCE(c->job->abort)) {
			dmaengine_bench_chan_error(c,
						   DMAENGINE_BENCH_ERR_INTR,
						   -EINTR);
			return -EINTR;
		}
	}
	return 0;
}

/* One run on one channel. */
static void dmaengine_bench_chan_run(struct dmaengine_bench_chan *c)
{
	struct dmaengine_bench_job *job = c->job;
	bool by_cpu = job->prep == DMAENGINE_BENCH_MODE_CPU;
	bool map_once = !by_cpu && !job->distinct;

	dmacopy_chan_reset(c->cl);
	memset(&c->cpu, 0, sizeof(c->cpu));
	c->error = 0;
	c->err = 0;

	if (job->verify)
		dmaengine_bench_buffer_clear(c->dst, c->dst_nfolios);

	c->start = ktime_get();
	if (by_cpu)
		dmaengine_bench_cpu_batches(c);
	else
		dmaengine_bench_dma_batches(c);

	/* the one batch's buffers, mapped by the run's first batch, if so */
	if (map_once && !c->quarantined)
		dmacopy_tables_unmap(c->cl, &c->bufs[0].src_sgt,
				     &c->bufs[0].dst_sgt);
	c->end = ktime_get();

	if (!c->error && !dmacopy_chan_fail(c->cl, NULL) && job->verify &&
	    !dmaengine_bench_pattern_walk(c, c->dst, c->dst_nfolios, false))
		dmaengine_bench_chan_error(c, DMAENGINE_BENCH_ERR_VERIFY,
					   -EILSEQ);
}

int dmaengine_bench_chan_thread(void *data)
{
	struct dmaengine_bench_chan *c = data;
	struct dmaengine_bench_job *job = c->job;
	unsigned int seen = 0;

	mb_kthread_pin(c->affinity);
	for (;;) {
		wait_event_idle(job->wq,
				READ_ONCE(job->gen) != seen || kthread_should_stop());
		if (kthread_should_stop())
			break;
		seen = READ_ONCE(job->gen);

		dmaengine_bench_chan_run(c);

		if (atomic_dec_and_test(&job->pending))
			complete(&job->run_done);
	}
	return 0;
}
