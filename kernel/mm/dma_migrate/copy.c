// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma_migrate's batch: ->offload_copy(), called by the hook in the
 * migrating task (offload.c registers it, and has the whole story).
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

#include "dma_migrate.h"

/* Let go of a channel taken, and wake an unbind waiting for it. */
void dma_migrate_put(struct dma_migrate_share *sh)
{
	clear_bit_unlock(0, &sh->busy);
	wake_up_var(&sh->busy);
}

/**
 * dma_migrate_unquarantine - end a share's quarantine if its engine did
 * @sh: a share, held (its busy bit) or no longer reachable by a batch
 * @unbound: its provider's remove() returned (after its unbind): it
 *	stopped the device, whatever its batch's callbacks say
 *
 * Once the batch whose destinations were reported lost is idle, its
 * tables are unmapped and the destinations given back to mm; the channel
 * takes batches again (unless it was released). A share whose channel
 * was released is idle once its last callback came, or once the
 * provider's remove() returned (@unbound), which stops the device.
 */
void dma_migrate_unquarantine(struct dma_migrate_share *sh,
			      bool unbound)
{
#ifdef DMA_MIGRATE_HAVE_HOOK
	struct dma_migrate *o = sh->o;
	unsigned int i;

	if (!sh->quarantined)
		return;
	if (unbound)
		/* the provider's remove() returned: its device is stopped */
		dmacopy_batch_forget(&sh->b);
	else if (!dmacopy_batch_idle(&sh->b))
		return;
	/* idle: returns at once, the batch no longer busy, and unmapped */
	if (WARN_ON_ONCE(dmacopy_batch_end(&sh->b, 1, true)))
		return;
	for (i = 0; i < sh->n; i++)
		dma_migrate_hook_release(sh->dst[i]);
	WRITE_ONCE(sh->quarantined, false);
	/* a stop during an unbind waits for it */
	wake_up_var(&sh->quarantined);
	spin_lock(&o->stats_lock);
	o->stats.released += sh->n;
	spin_unlock(&o->stats_lock);
	pr_info("%s: the engine ended the copy of %u quarantined folio(s): released\n",
		dmacopy_chan_name(sh->cl), sh->n);
#endif
}

#ifdef DMA_MIGRATE_HAVE_HOOK
/* ------------------------------------------------------------------ */
/* A batch                                                              */
/* ------------------------------------------------------------------ */

/*
 * A source the CPU must copy: memory failure flagged it (or a page of
 * it), and folio_mc_copy() recovers from the machine check an engine's
 * read of it may not report.
 */
static bool dma_migrate_poisoned(struct folio *src)
{
	return folio_test_hwpoison(src) ||
	       (folio_test_large(src) && folio_test_has_hwpoisoned(src));
}

/*
 * Take up to @max free channels, a trylock each: a batch never waits for
 * another task's, nor, when reclaim re-enters the hook, for its own
 * task's. Returns how many were taken, linked from *@first through
 * ->next (a list, not an array: a batch may take hundreds of channels,
 * and the hook runs deep in migration's stack).
 */
static unsigned int dma_migrate_take(struct dma_migrate *o,
				     struct dma_migrate_share **first,
				     unsigned int max)
{
	struct dma_migrate_share **link = first;
	unsigned int i, k = 0;

	for (i = 0; i < o->nr_shares && k < max; i++) {
		struct dma_migrate_share *sh = &o->shares[i];

		if (test_and_set_bit_lock(0, &sh->busy))
			continue;
		dma_migrate_unquarantine(sh, false);
		if (sh->retired || sh->quarantined) {
			dma_migrate_put(sh);
			continue;
		}
		sh->n = 0;
		sh->failed = false;
		sh->build_ns = 0;
		sh->mark_ns = 0;
		*link = sh;
		link = &sh->next;
		k++;
	}
	*link = NULL;
	return k;
}

/*
 * Share the batch's folio pairs out among the @k channels taken, in list
 * order, the first channels taking one more; sources flagged hwpoison are
 * left out (the project's hook keeps them from every provider; the RFC's
 * does not). Returns the pairs left out, or -EINVAL when the lists do not
 * pair up.
 */
static int dma_migrate_share_out(struct dma_migrate_share *sh,
				 unsigned int k,
				 const struct dma_migrate_req *r)
{
	struct list_head *dst_list = r->dst_list, *src_list = r->src_list;
	unsigned int n = r->nr;
	unsigned int i, j = 0, seen = 0, left_out = 0;
	unsigned int want = n / k + !!(n % k);
	struct folio *s, *d;

	d = list_first_entry(dst_list, struct folio, lru);
	list_for_each_entry(s, src_list, lru) {
		if (seen == n || list_entry_is_head(d, dst_list, lru) ||
		    folio_size(s) != folio_size(d))
			return -EINVAL;
		if (seen++ == want) {
			sh = sh->next;
			j++;
			want += n / k + (j < n % k);
		}
		if (dma_migrate_poisoned(s)) {
			left_out++;
		} else {
			i = sh->n++;
			sh->src[i] = s;
			sh->dst[i] = d;
		}
		d = list_next_entry(d, lru);
	}
	return seen == n ? left_out : -EINVAL;
}

/* A share's table over the entries allocated at the start. */
static int dma_migrate_table(struct dma_migrate_share *sh,
			     struct sg_table *sgt,
			     struct scatterlist *sgl,
			     struct folio **folios)
{
	sgt->sgl = sgl;
	sgt->orig_nents = sh->max_ents;
	return dmacopy_table_fill(sh->cl, sgt, folios, sh->n, 0);
}

/* Tables, and the batch mapped and started, until @deadline. */
static int dma_migrate_share_start(struct dma_migrate *o,
				   struct dma_migrate_share *sh,
				   unsigned long deadline)
{
	ktime_t t0 = ktime_get();
	int ret;

	dmacopy_chan_reset(sh->cl);
	ret = dma_migrate_table(sh, &sh->src_sgt, sh->src_sgl, sh->src);
	if (!ret)
		ret = dma_migrate_table(sh, &sh->dst_sgt, sh->dst_sgl,
					sh->dst);
	sh->build_ns = dma_migrate_elapsed_ns(t0);
	if (ret)
		return ret;
	return dmacopy_batch_start(&sh->b, o->form, &sh->src_sgt,
				   &sh->dst_sgt, deadline);
}

/*
 * Let go of a share's batch: a failed one's descriptors stopped or waited
 * for until @drain_until, one bound for the whole batch past its deadline,
 * then its tables unmapped (nothing, if its start failed before it mapped
 * them). Returns false when a failed batch's descriptors may
 * still run after that: its destinations are then reported lost (mm
 * fails their migration and leaves them to the provider) and the share is
 * quarantined until its batch is idle (dma_migrate_unquarantine()). Over
 * the RFC's hook, which cannot take a lost folio, they are waited for
 * however long they take.
 */
static bool dma_migrate_end(struct dma_migrate_req *r,
			    struct dma_migrate_share *sh,
			    unsigned long drain_until)
{
	unsigned long drain = time_after(drain_until, jiffies) ?
			      drain_until - jiffies : 1;
	unsigned int i;

	while (dmacopy_batch_end(&sh->b, drain, true)) {
		if (!DMA_MIGRATE_CAN_LOSE)
			continue;
		for (i = 0; i < sh->n; i++)
			dma_migrate_hook_lost(r, sh->src[i], sh->dst[i]);
		sh->quarantined = true;
		pr_err("%s: a batch's descriptors still run past its deadline and drain, and cannot be stopped: its %u folio(s) stay where they are, their destinations quarantined until it ends\n",
		       dmacopy_chan_name(sh->cl), sh->n);
		return false;
	}
	return true;
}

/*
 * After the wait: a failed share's descriptors are stopped, or waited for
 * until @drain_until, before its tables are unmapped; a complete one's pairs
 * are reported copied. Returns the folios reported copied.
 */
static unsigned int dma_migrate_share_end(struct dma_migrate_req *r,
					  struct dma_migrate_share *sh,
					  unsigned long drain_until)
{
	ktime_t t0;
	unsigned int i;

	if (!dma_migrate_end(r, sh, drain_until) || sh->failed)
		return 0;
	t0 = ktime_get();
	for (i = 0; i < sh->n; i++)
		dma_migrate_hook_copied(r, sh->src[i], sh->dst[i]);
	sh->mark_ns = dma_migrate_elapsed_ns(t0);
	return sh->n;
}

/* Add a share's figures to the counters, under ->stats_lock. */
static void dma_migrate_account_share(struct dma_migrate_stats *st,
				      const struct dma_migrate_share *sh)
{
	const struct dmacopy_figures *f = dmacopy_chan_figures(sh->cl);

	if (!sh->failed)
		st->bytes += f->bytes;
	st->descriptors += f->submits;
	st->ph[DMA_MIGRATE_PH_MAP] += f->map_ns;
	st->ph[DMA_MIGRATE_PH_PREP] += f->prep_ns;
	st->ph[DMA_MIGRATE_PH_SUBMIT] += f->submit_ns;
	st->ph[DMA_MIGRATE_PH_ISSUE] += f->issue_ns;
	st->ph[DMA_MIGRATE_PH_WAIT] += f->wait_ns;
	st->ph[DMA_MIGRATE_PH_UNMAP] += f->unmap_ns;
	st->ph[DMA_MIGRATE_PH_BUILD] += sh->build_ns;
	st->ph[DMA_MIGRATE_PH_MARK] += sh->mark_ns;
}

/*
 * Count a batch: the channels from @first ran it (none: declined),
 * @offloaded of its @folios were copied, @error it failed.
 */
static void dma_migrate_account(struct dma_migrate *o,
				struct dma_migrate_share *first,
				unsigned int folios,
				unsigned int offloaded, bool error,
				bool async, ktime_t t0)
{
	struct dma_migrate_stats *st = &o->stats;
	u64 batch_ns = dma_migrate_elapsed_ns(t0);
	struct dma_migrate_share *sh;

	spin_lock(&o->stats_lock);
	st->batches++;
	if (async) {
		st->async_batches++;
		st->async_max_ns = max(st->async_max_ns, batch_ns);
	}
	st->folios += folios;
	if (!first) {
		st->declined++;
		st->declined_folios += folios;
	} else {
		unsigned int lost = 0;

		/* a share is quarantined here by this batch only */
		for (sh = first; sh; sh = sh->next)
			lost += sh->quarantined ? sh->n : 0;
		st->errors += error;
		st->offloaded += offloaded;
		st->lost += lost;
		st->fallback += folios - offloaded - lost;
	}
	st->ph[DMA_MIGRATE_PH_BATCH] += batch_ns;
	for (sh = first; sh; sh = sh->next)
		if (sh->n)
			dma_migrate_account_share(st, sh);
	spin_unlock(&o->stats_lock);
}

/*
 * Start every share, none after the deadline, then wait for each; returns
 * the folios reported copied.
 */
static unsigned int dma_migrate_run(struct dma_migrate *o,
				    struct dma_migrate_req *r,
				    struct dma_migrate_share *first,
				    unsigned long deadline,
				    unsigned long drain)
{
	struct dma_migrate_share *sh;
	unsigned int offloaded = 0;

	for (sh = first; sh; sh = sh->next)
		if (sh->n && (time_after_eq(jiffies, deadline) ||
			      dma_migrate_share_start(o, sh, deadline)))
			sh->failed = true;
	for (sh = first; sh; sh = sh->next)
		if (sh->n && !sh->failed &&
		    dmacopy_batch_finish(&sh->b, true))
			sh->failed = true;
	for (sh = first; sh; sh = sh->next)
		if (sh->n)
			offloaded += dma_migrate_share_end(r, sh,
							   deadline + drain);
	return offloaded;
}

/*
 * The hook's callback, in the migrating task's context: returns 0 when
 * every folio it took was copied and reported, -EOPNOTSUPP when it
 * declined the batch, else an error; the folios not reported are copied
 * by the CPU after this returns. The wait is bounded: the batch's
 * deadline (timeout_ms, DMA_MIGRATE_ASYNC_WAIT_MS at most for
 * a MIGRATE_ASYNC caller) and, on an engine that cannot be stopped, one
 * drain bound after it (as long again, DMA_MIGRATE_DRAIN_MIN_MS at
 * least; a jiffy for a MIGRATE_ASYNC caller), after which the folios
 * still being copied are lost.
 */
int dma_migrate_copy(struct dma_migrate_req *r)
{
	struct dma_migrate *o = READ_ONCE(dma_migrate_active);
	struct dma_migrate_share *first = NULL, *sh, *next;
	unsigned int k = 0, offloaded = 0, folio_cnt = r->nr;
	unsigned long deadline = jiffies, wait, drain;
	ktime_t t0 = ktime_get();
	int ret = -EOPNOTSUPP;

	if (!o || !folio_cnt)
		return -EOPNOTSUPP;
	wait = o->timeout;
	drain = max(o->timeout, msecs_to_jiffies(DMA_MIGRATE_DRAIN_MIN_MS));
	if (r->mode == MIGRATE_ASYNC) {
		wait = min(wait, msecs_to_jiffies(DMA_MIGRATE_ASYNC_WAIT_MS));
		drain = 1;
	}
	deadline += wait;
	if (folio_cnt >= o->min_folios &&
	    folio_cnt <= DMA_MIGRATE_MAX_FOLIOS &&
	    !dmacopy_set_unbound(&o->set, NULL))
		k = dma_migrate_take(o, &first, folio_cnt);
	if (k) {
		int left_out = dma_migrate_share_out(first, k, r);

		if (left_out < 0) {
			for (sh = first; sh; sh = sh->next)
				sh->n = 0;
			ret = left_out;
		} else {
			offloaded = dma_migrate_run(o, r, first, deadline,
						    drain);
			ret = 0;
			if (offloaded + left_out < folio_cnt)
				ret = READ_ONCE(o->abort) ? -ENODEV : -EIO;
		}
	}
	dma_migrate_account(o, first, folio_cnt, offloaded,
			    ret && ret != -EOPNOTSUPP,
			    r->mode == MIGRATE_ASYNC, t0);
	for (sh = first; sh; sh = next) {
		next = sh->next;
		dma_migrate_put(sh);
	}
	return ret;
}
#endif /* DMA_MIGRATE_HAVE_HOOK */
