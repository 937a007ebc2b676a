// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migration copy offload's batch: ->offload_copy(), called by the
 * hook in the migrating task (migrate_offload.c registers it, and has the
 * whole story).
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>

/* first: the build probes' HAVE_* come with core.h */
#include "migrate_copy.h"

#ifdef DMAENGINE_MIGRATE_HAVE_HOOK
/*
 * The hook copies this folio no more: its content is the source's
 * (FOLIO_CONTENT_COPIED in its migrate_info; migrate_rfc.h has the
 * setter on either hook).
 */
static void dmaengine_migrate_mark(struct folio *dst)
{
	folio_set_content_copied(dst);
}
#else
static void dmaengine_migrate_mark(struct folio *dst)
{
}
#endif

/* ------------------------------------------------------------------ */
/* A batch                                                              */
/* ------------------------------------------------------------------ */

/*
 * A source the CPU must copy: memory failure flagged it (or a page of
 * it), and folio_mc_copy() recovers from the machine check an engine's
 * read of it may not report.
 */
static bool dmaengine_migrate_poisoned(struct folio *src)
{
	return folio_test_hwpoison(src) ||
	       (folio_test_large(src) && folio_test_has_hwpoisoned(src));
}

/* Let go of a channel taken, and wake an unbind waiting for it. */
void dmaengine_migrate_put(struct dmaengine_migrate_share *sh)
{
	clear_bit_unlock(0, &sh->busy);
	wake_up_var(&sh->busy);
}

/*
 * Take up to @max free channels, a trylock each: a batch never waits for
 * another task's, nor, when reclaim re-enters the hook, for its own
 * task's. Returns how many were taken, linked from *@first through
 * ->next (a list, not an array: a batch may take hundreds of channels,
 * and the hook runs deep in migration's stack).
 */
static unsigned int dmaengine_migrate_take(struct dmaengine_migrate *o,
					   struct dmaengine_migrate_share **first,
					   unsigned int max)
{
	struct dmaengine_migrate_share **link = first;
	unsigned int i, k = 0;

	for (i = 0; i < o->nr_shares && k < max; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		if (test_and_set_bit_lock(0, &sh->busy))
			continue;
		if (sh->retired) {
			dmaengine_migrate_put(sh);
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
 * left out. Returns the pairs left out, or -EINVAL when the lists do not
 * pair up.
 */
static int dmaengine_migrate_share_out(struct dmaengine_migrate_share *sh,
				       unsigned int k,
				       struct list_head *dst_list,
				       struct list_head *src_list,
				       unsigned int n)
{
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
		if (dmaengine_migrate_poisoned(s)) {
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

/* A share's table over the entries allocated at START. */
static int dmaengine_migrate_table(struct dmaengine_migrate_share *sh,
				   struct sg_table *sgt,
				   struct scatterlist *sgl,
				   struct folio **folios)
{
	sgt->sgl = sgl;
	sgt->orig_nents = sh->max_ents;
	return dmaengine_client_table_fill(sh->cl, sgt, folios, sh->n, 0);
}

/* Tables, and the batch mapped and started, until @deadline. */
static int dmaengine_migrate_share_start(struct dmaengine_migrate *o,
					 struct dmaengine_migrate_share *sh,
					 unsigned long deadline)
{
	ktime_t t0 = ktime_get();
	int ret;

	dmaengine_client_chan_reset(sh->cl);
	ret = dmaengine_migrate_table(sh, &sh->src_sgt, sh->src_sgl, sh->src);
	if (!ret)
		ret = dmaengine_migrate_table(sh, &sh->dst_sgt, sh->dst_sgl,
					      sh->dst);
	sh->build_ns = mb_elapsed_ns(t0);
	if (ret)
		return ret;
	return dmaengine_client_batch_start(&sh->b, o->form, &sh->src_sgt,
					    &sh->dst_sgt, deadline);
}

/*
 * Let go of a failed share's batch. Where the engine cannot stop it, its
 * descriptors are waited for, however long they take: the folios go back
 * to mm when this returns, and a descriptor still running would write
 * into a destination mm hands to the user, or read a source it frees.
 */
static void dmaengine_migrate_abandon(struct dmaengine_migrate_share *sh)
{
	while (dmaengine_client_batch_abandon(&sh->b))
		;
}

/*
 * After the wait: a failed share's descriptors are stopped or waited for
 * before its tables are unmapped; a complete one's destination folios are
 * marked. Returns the folios marked.
 */
static unsigned int dmaengine_migrate_share_end(struct dmaengine_migrate_share *sh)
{
	ktime_t t0;
	unsigned int i;

	if (sh->failed)
		dmaengine_migrate_abandon(sh);
	/* nothing, if the start failed before it mapped them */
	dmaengine_client_unmap(sh->cl, &sh->src_sgt, &sh->dst_sgt);
	if (sh->failed)
		return 0;
	t0 = ktime_get();
	for (i = 0; i < sh->n; i++)
		dmaengine_migrate_mark(sh->dst[i]);
	sh->mark_ns = mb_elapsed_ns(t0);
	return sh->n;
}

/* Add a share's figures to the counters, under ->stats_lock. */
static void dmaengine_migrate_account_share(struct dmaengine_migrate_stats *st,
					    const struct dmaengine_migrate_share *sh)
{
	const struct dmaengine_client_figures *f = &sh->cl->fig;

	if (!sh->failed)
		st->bytes += f->bytes;
	st->descriptors += f->submits;
	st->ph.map_ns += f->map_ns;
	st->ph.prep_ns += f->prep_ns;
	st->ph.submit_ns += f->submit_ns;
	st->ph.issue_ns += f->issue_ns;
	st->ph.wait_ns += f->wait_ns;
	st->ph.unmap_ns += f->unmap_ns;
	st->build_ns += sh->build_ns;
	st->mark_ns += sh->mark_ns;
}

/*
 * Count a batch: the channels from @first ran it (none: declined),
 * @offloaded of its @folios were copied, @error it failed.
 */
static void dmaengine_migrate_account(struct dmaengine_migrate *o,
				      struct dmaengine_migrate_share *first,
				      unsigned int folios,
				      unsigned int offloaded, bool error,
				      ktime_t t0)
{
	struct dmaengine_migrate_stats *st = &o->stats;
	u64 batch_ns = mb_elapsed_ns(t0);
	struct dmaengine_migrate_share *sh;

	spin_lock(&o->stats_lock);
	st->batches++;
	st->folios += folios;
	if (!first) {
		st->declined++;
		st->declined_folios += folios;
	} else {
		st->errors += error;
		st->offloaded += offloaded;
		st->fallback += folios - offloaded;
	}
	st->ph.batch_ns += batch_ns;
	for (sh = first; sh; sh = sh->next)
		if (sh->n)
			dmaengine_migrate_account_share(st, sh);
	spin_unlock(&o->stats_lock);
}

/* Start every share, then wait for each; returns the folios marked. */
static unsigned int dmaengine_migrate_run(struct dmaengine_migrate *o,
					  struct dmaengine_migrate_share *first,
					  unsigned long deadline)
{
	struct dmaengine_migrate_share *sh;
	unsigned int offloaded = 0;

	for (sh = first; sh; sh = sh->next)
		if (sh->n && dmaengine_migrate_share_start(o, sh, deadline))
			sh->failed = true;
	for (sh = first; sh; sh = sh->next)
		if (sh->n && !sh->failed &&
		    dmaengine_client_batch_finish(&sh->b, true))
			sh->failed = true;
	for (sh = first; sh; sh = sh->next)
		if (sh->n)
			offloaded += dmaengine_migrate_share_end(sh);
	return offloaded;
}

/*
 * The hook's callback, in the migrating task's context: returns 0 when
 * every folio it took was copied and marked, -EOPNOTSUPP when it declined
 * the batch, else an error; the folios not marked are copied by the CPU
 * after this returns.
 */
int dmaengine_migrate_copy(struct list_head *dst_list,
			   struct list_head *src_list, unsigned int folio_cnt)
{
	struct dmaengine_migrate *o = READ_ONCE(dmaengine_migrate_active);
	struct dmaengine_migrate_share *first = NULL, *sh, *next;
	unsigned int k = 0, offloaded = 0;
	unsigned long deadline = jiffies;
	ktime_t t0 = ktime_get();
	int ret = -EOPNOTSUPP;

	if (!o || !folio_cnt)
		return -EOPNOTSUPP;
	deadline += o->timeout;
	if (folio_cnt >= o->min_folios &&
	    folio_cnt <= DMAENGINE_MIGRATE_MAX_FOLIOS &&
	    !READ_ONCE(o->unbound))
		k = dmaengine_migrate_take(o, &first, folio_cnt);
	if (k) {
		int left_out = dmaengine_migrate_share_out(first, k, dst_list,
							   src_list, folio_cnt);

		if (left_out < 0) {
			for (sh = first; sh; sh = sh->next)
				sh->n = 0;
			ret = left_out;
		} else {
			offloaded = dmaengine_migrate_run(o, first, deadline);
			ret = 0;
			if (offloaded + left_out < folio_cnt)
				ret = READ_ONCE(o->abort) ? -ENODEV : -EIO;
		}
	}
	dmaengine_migrate_account(o, first, folio_cnt, offloaded,
				  ret && ret != -EOPNOTSUPP, t0);
	for (sh = first; sh; sh = next) {
		next = sh->next;
		dmaengine_migrate_put(sh);
	}
	return ret;
}
