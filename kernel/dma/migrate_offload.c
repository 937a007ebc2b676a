// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine client as page migration's copy offload: DMA_MIGRATE_OFFLOAD
 * on /sys/kernel/debug/dmaengine_benchmark.
 *
 * DMA_MIGRATE_OP_START requests the channels and registers a struct
 * migrator with the kernel's copy-offload hook (kernel/patches/v7.3-migrate/,
 * or the RFC's interface it is shaped after). The hook calls
 * ->offload_copy() in the migrating task's context, after the batch's
 * folios are unmapped and the TLB flushed, with the folios locked:
 *
 * - The batch takes the channels that are free (a trylock each): a batch
 *   never waits for another task's batch, nor for itself when reclaim or
 *   compaction in the migrating task re-enters the hook. With no channel
 *   free it is declined, and the CPU copies it.
 * - Its folio pairs are shared out among the channels taken; a source
 *   flagged hwpoison is left to the CPU, whose folio_mc_copy() fails it
 *   as migration without an offload would.
 * - Each share's tables are built in memory allocated at START for the
 *   largest batch migrate_pages() makes (NR_MAX_BATCHED_MIGRATION folios a
 *   channel): the hook allocates nothing, so it cannot recurse through
 *   reclaim into itself, nor fail for memory.
 * - Each share is mapped on its channel's device, copied with the prep
 *   form through the dmaengine client (dmaengine_client.c), submitted and
 *   issued on every channel, then waited for until one deadline for the
 *   whole batch (START's timeout_ms from the hook's entry). A destination
 *   folio is marked copied only when every descriptor of its share
 *   reported DMA_COMPLETE by the deadline; the hook's caller copies every
 *   other folio with the CPU.
 * - A share that failed is abandoned before its folios are let go: its
 *   descriptors are terminated, or, on an engine that cannot terminate
 *   (ioat, plx_dma, mv_xor: no device_terminate_all), waited for until
 *   they have all run (Documentation/migration.rst, "Engines that cannot
 *   stop"). No descriptor runs on a folio after ->offload_copy() returns.
 *
 * A provider being unbound (the client set's bus watch) aborts the
 * batches in flight, whose folios fall back to the CPU, and makes later
 * batches decline until STOP; the set releases that channel before the
 * provider's remove() runs, the others at STOP, or when the file that
 * started the offload is closed. The hook holds no module reference: the
 * open file holds one, and the file's release unregisters, so the module
 * cannot be unloaded while registered.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/migrate_mode.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/swiotlb.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

/* first: the build probes' HAVE_* come with core.h */
#include "dmaengine_client.h"
#include "migrate_offload.h"

#if defined(HAVE_MIGRATE_COPY_OFFLOAD) || defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#define DMAENGINE_MIGRATE_HAVE_HOOK
#include <linux/migrate_copy_offload.h>
#endif

static_assert(sizeof(struct dma_migrate_offload) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER1);

#ifdef HAVE_MIGRATE_COPY_OFFLOAD
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_PROJECT
#elif defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_RFC
#else
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_NONE
#endif

/*
 * The largest batch migrate_pages() hands over: NR_MAX_BATCHED_MIGRATION
 * (mm/migrate.c: HPAGE_PMD_NR where THP is built, else 512) pages' worth
 * of folios, the last folio allowed to go beyond; so at most that many
 * folios, and less than twice that many pages.
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#define DMAENGINE_MIGRATE_MAX_FOLIOS	HPAGE_PMD_NR
#else
#define DMAENGINE_MIGRATE_MAX_FOLIOS	512
#endif
#define DMAENGINE_MIGRATE_MAX_BYTES	\
	((u64)(2 * DMAENGINE_MIGRATE_MAX_FOLIOS - 1) << PAGE_SHIFT)

/**
 * struct dmaengine_migrate_stats - what STATS reads
 * @batches: batches the hook handed over
 * @declined: those the offload did not take (too small, no channel free,
 *	a provider unbound): the CPU copied them as without an offload
 * @errors: those it took and that failed (an error, the deadline, an
 *	unbind), on at least one channel
 * @folios: folios in all batches
 * @declined_folios: folios in the batches declined
 * @offloaded: folios the engines copied, marked copied
 * @fallback: folios of the batches taken that the engines did not copy
 *	(a failed share, a poisoned source): the CPU copied them
 * @bytes: bytes the engines copied
 * @descriptors: descriptors submitted
 * @ph: phase times
 */
struct dmaengine_migrate_stats {
	u64 batches;
	u64 declined;
	u64 errors;
	u64 folios;
	u64 declined_folios;
	u64 offloaded;
	u64 fallback;
	u64 bytes;
	u64 descriptors;
	struct dma_migrate_offload_phases ph;
};

/**
 * struct dmaengine_migrate_share - a channel and its share of a batch
 * @cl: the client's channel, the set's
 * @busy: bit 0 held by the batch that copies over the channel (a bit,
 *	not a mutex: a batch holds up to DMAENGINE_BENCH_MAX_CHANNELS, more
 *	locks than lockdep tracks in one task)
 * @b: the batch on it, its cookies and dma_vec arrays allocated at START
 * @src_sgl: room for @src_sgt's entries, allocated at START
 * @dst_sgl: likewise for @dst_sgt
 * @src_sgt: the share's source folios
 * @dst_sgt: its destination folios
 * @src: its source folios, room for DMAENGINE_MIGRATE_MAX_FOLIOS
 * @dst: its destination folios, likewise
 * @max_ents: room in @src_sgl and @dst_sgl
 * @n: folio pairs in the share
 * @mapped: @src_sgt and @dst_sgt are mapped on @cl's device
 * @failed: the share did not complete: none of its folios is marked
 * @retired: its provider was unbound: no batch takes the channel again
 */
struct dmaengine_migrate_share {
	struct dmaengine_client_chan *cl;
	unsigned long busy;
	struct dmaengine_client_batch b;
	struct scatterlist *src_sgl;
	struct scatterlist *dst_sgl;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
	struct folio **src;
	struct folio **dst;
	unsigned int max_ents;
	unsigned int n;
	bool mapped;
	bool failed;
	bool retired;
};

/**
 * struct dmaengine_migrate - a started offload
 * @file: the file that started it: STOP, STATS and its release act on it
 * @form: the prep form
 * @prep_mode: its DMAENGINE_BENCH_MODE_*
 * @set: the channels
 * @shares: one per channel
 * @nr_shares: entries in @shares, the channels taken at START
 * @timeout: jiffies a whole batch may take
 * @min_folios: smaller batches are left to the CPU
 * @abort: set by an unbind: the batches in flight end within a wait slice
 * @unbound: a provider was unbound: batches are declined until STOP
 * @stats_lock: guards @stats
 * @stats: the counters
 * @migrator: what the hook calls
 */
struct dmaengine_migrate {
	struct file *file;
	const struct dmaengine_bench_form *form;
	unsigned int prep_mode;
	struct dmaengine_client_set set;
	struct dmaengine_migrate_share *shares;
	unsigned int nr_shares;
	unsigned long timeout;
	unsigned int min_folios;
	bool abort;
	bool unbound;
	spinlock_t stats_lock; /* guards @stats */
	struct dmaengine_migrate_stats stats;
#ifdef DMAENGINE_MIGRATE_HAVE_HOOK
	struct migrator migrator;
#endif
};

/* One offload at a time: the hook takes one migrator. */
static DEFINE_MUTEX(dmaengine_migrate_lock);
/*
 * The registered offload, for ->offload_copy(), which has no argument for
 * it: set before the registration, cleared after the unregistration, which
 * waits for the calls in progress.
 */
static struct dmaengine_migrate *dmaengine_migrate_active;

/* DMA_MIGRATE_R_* and the kernel's reasons */
static const struct {
	u32 bit;
	enum migrate_reason reason;
} dmaengine_migrate_reasons[] = {
	{ DMA_MIGRATE_R_SYSCALL, MR_SYSCALL },
	{ DMA_MIGRATE_R_NUMA_MISPLACED, MR_NUMA_MISPLACED },
	{ DMA_MIGRATE_R_DEMOTION, MR_DEMOTION },
	{ DMA_MIGRATE_R_COMPACTION, MR_COMPACTION },
};

#ifdef DMAENGINE_MIGRATE_HAVE_HOOK
static int dmaengine_migrate_copy(struct list_head *dst_list,
				  struct list_head *src_list,
				  unsigned int folio_cnt);

static int dmaengine_migrate_hook_register(struct dmaengine_migrate *o,
					   unsigned long reason_mask)
{
	strscpy(o->migrator.name, KBUILD_MODNAME, sizeof(o->migrator.name));
	o->migrator.offload_copy = dmaengine_migrate_copy;
	o->migrator.owner = THIS_MODULE;
	return migrate_offload_register(&o->migrator, reason_mask);
}

static void dmaengine_migrate_hook_unregister(struct dmaengine_migrate *o)
{
	migrate_offload_unregister(&o->migrator);
}

/* The hook copies this folio no more: its content is the source's. */
static void dmaengine_migrate_mark(struct folio *dst)
{
#ifdef HAVE_MIGRATE_COPY_OFFLOAD
	folio_set_content_copied(dst);
#else
	/* the RFC's interface: the provider sets the marker itself */
	dst->migrate_info |= FOLIO_CONTENT_COPIED;
#endif
}
#else
static int dmaengine_migrate_hook_register(struct dmaengine_migrate *o,
					   unsigned long reason_mask)
{
	return -EOPNOTSUPP;
}

static void dmaengine_migrate_hook_unregister(struct dmaengine_migrate *o)
{
}

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
static void dmaengine_migrate_put(struct dmaengine_migrate_share *sh)
{
	clear_bit_unlock(0, &sh->busy);
	wake_up_var(&sh->busy);
}

/*
 * Take up to @max free channels, a trylock each: a batch never waits for
 * another task's, nor, when reclaim re-enters the hook, for its own
 * task's. Returns how many were taken; @taken lists them.
 */
static unsigned int dmaengine_migrate_take(struct dmaengine_migrate *o,
					   struct dmaengine_migrate_share **taken,
					   unsigned int max)
{
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
		sh->mapped = false;
		sh->failed = false;
		taken[k++] = sh;
	}
	return k;
}

/*
 * Share the batch's folio pairs out among the @k channels taken, in list
 * order, the first channels taking one more; sources flagged hwpoison are
 * left out. Returns the pairs left out, or -EINVAL when the lists do not
 * pair up.
 */
static int dmaengine_migrate_share_out(struct dmaengine_migrate_share **taken,
				       unsigned int k,
				       struct list_head *dst_list,
				       struct list_head *src_list,
				       unsigned int n)
{
	unsigned int i = 0, j = 0, seen = 0, left_out = 0;
	unsigned int want = n / k + !!(n % k);
	struct folio *s, *d;

	d = list_first_entry(dst_list, struct folio, lru);
	list_for_each_entry(s, src_list, lru) {
		if (seen == n || list_entry_is_head(d, dst_list, lru) ||
		    folio_size(s) != folio_size(d))
			return -EINVAL;
		if (seen++ == want) {
			j++;
			want += n / k + (j < n % k);
		}
		if (dmaengine_migrate_poisoned(s)) {
			left_out++;
		} else {
			i = taken[j]->n++;
			taken[j]->src[i] = s;
			taken[j]->dst[i] = d;
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
	unsigned long ents = dmaengine_client_folio_ents(sh->cl, folios, sh->n);

	if (WARN_ON_ONCE(ents > sh->max_ents))
		return -E2BIG;
	sg_init_table(sgl, ents);
	sgt->sgl = sgl;
	sgt->orig_nents = ents;
	sgt->nents = 0;
	dmaengine_client_table_set(sh->cl, sgt, folios, sh->n);
	return 0;
}

/* Tables, the mapping, and the batch started, until @deadline. */
static int dmaengine_migrate_share_start(struct dmaengine_migrate *o,
					 struct dmaengine_migrate_share *sh,
					 unsigned long deadline)
{
	int ret;

	dmaengine_client_chan_reset(sh->cl);
	ret = dmaengine_migrate_table(sh, &sh->src_sgt, sh->src_sgl, sh->src);
	if (!ret)
		ret = dmaengine_migrate_table(sh, &sh->dst_sgt, sh->dst_sgl,
					      sh->dst);
	if (!ret)
		ret = dmaengine_client_map(sh->cl, &sh->src_sgt, &sh->dst_sgt);
	if (ret)
		return ret;
	sh->mapped = true;
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
	bool terminated;

	if (!sh->b.busy)
		return;
	terminated = dmaengine_client_quiesce(sh->cl);
	while (dmaengine_client_batch_abandon(&sh->b, terminated,
					      dmaengine_client_drain_bound(sh->cl)))
		;
}

/*
 * After the wait: a failed share's descriptors are stopped or waited for
 * before its tables are unmapped; a complete one's destination folios are
 * marked. Returns the folios marked.
 */
static unsigned int dmaengine_migrate_share_end(struct dmaengine_migrate_share *sh)
{
	unsigned int i;

	if (sh->failed)
		dmaengine_migrate_abandon(sh);
	if (sh->mapped)
		dmaengine_client_unmap(sh->cl, &sh->src_sgt, &sh->dst_sgt);
	if (sh->failed)
		return 0;
	for (i = 0; i < sh->n; i++)
		dmaengine_migrate_mark(sh->dst[i]);
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
}

/*
 * Count a batch: @k channels of @taken ran it (0: declined), @offloaded of
 * its @folios were copied, @error it failed.
 */
static void dmaengine_migrate_account(struct dmaengine_migrate *o,
				      struct dmaengine_migrate_share **taken,
				      unsigned int k, unsigned int folios,
				      unsigned int offloaded, bool error,
				      ktime_t t0)
{
	struct dmaengine_migrate_stats *st = &o->stats;
	u64 batch_ns = dmaengine_client_elapsed(t0);
	unsigned int i;

	spin_lock(&o->stats_lock);
	st->batches++;
	st->folios += folios;
	if (!k) {
		st->declined++;
		st->declined_folios += folios;
	} else {
		st->errors += error;
		st->offloaded += offloaded;
		st->fallback += folios - offloaded;
	}
	st->ph.batch_ns += batch_ns;
	for (i = 0; i < k; i++)
		if (taken[i]->n)
			dmaengine_migrate_account_share(st, taken[i]);
	spin_unlock(&o->stats_lock);
}

/* Start every share, then wait for each; returns the folios marked. */
static unsigned int dmaengine_migrate_run(struct dmaengine_migrate *o,
					  struct dmaengine_migrate_share **taken,
					  unsigned int k, unsigned long deadline)
{
	unsigned int i, offloaded = 0;

	for (i = 0; i < k; i++)
		if (taken[i]->n &&
		    dmaengine_migrate_share_start(o, taken[i], deadline))
			taken[i]->failed = true;
	for (i = 0; i < k; i++)
		if (taken[i]->n && !taken[i]->failed &&
		    dmaengine_client_batch_finish(&taken[i]->b, true))
			taken[i]->failed = true;
	for (i = 0; i < k; i++)
		if (taken[i]->n)
			offloaded += dmaengine_migrate_share_end(taken[i]);
	return offloaded;
}

/*
 * The hook's callback, in the migrating task's context: returns 0 when
 * every folio it took was copied and marked, -EOPNOTSUPP when it declined
 * the batch, else an error; the folios not marked are copied by the CPU
 * after this returns.
 */
static int __maybe_unused dmaengine_migrate_copy(struct list_head *dst_list,
						 struct list_head *src_list,
						 unsigned int folio_cnt)
{
	struct dmaengine_migrate *o = READ_ONCE(dmaengine_migrate_active);
	struct dmaengine_migrate_share *taken[DMAENGINE_BENCH_MAX_CHANNELS];
	unsigned long deadline = jiffies;
	unsigned int i, k = 0, offloaded = 0;
	ktime_t t0 = ktime_get();
	int ret = -EOPNOTSUPP;

	if (!o || !folio_cnt)
		return -EOPNOTSUPP;
	deadline += o->timeout;
	if (folio_cnt >= o->min_folios &&
	    folio_cnt <= DMAENGINE_MIGRATE_MAX_FOLIOS &&
	    !READ_ONCE(o->unbound))
		k = dmaengine_migrate_take(o, taken, folio_cnt);
	if (k) {
		int left_out = dmaengine_migrate_share_out(taken, k, dst_list,
							   src_list, folio_cnt);

		if (left_out < 0) {
			for (i = 0; i < k; i++)
				taken[i]->n = 0;
			ret = left_out;
		} else {
			offloaded = dmaengine_migrate_run(o, taken, k, deadline);
			ret = 0;
			if (offloaded + left_out < folio_cnt)
				ret = READ_ONCE(o->abort) ? -ENODEV : -EIO;
		}
	}
	dmaengine_migrate_account(o, taken, k, folio_cnt, offloaded,
				  ret && ret != -EOPNOTSUPP, t0);
	for (i = 0; i < k; i++)
		dmaengine_migrate_put(taken[i]);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Start and stop                                                       */
/* ------------------------------------------------------------------ */

/*
 * A provider is about to be unbound from channel @index: the batches in
 * flight end (their folios go to the CPU), later ones are declined until
 * STOP; the set releases the channel when this returns, once the batch on
 * it let go of its folios.
 */
static void dmaengine_migrate_unbind(struct dmaengine_client_set *set,
				     unsigned int index)
{
	struct dmaengine_migrate *o = set->req.priv;
	struct dmaengine_migrate_share *sh = &o->shares[index];

	pr_err("%s: its provider %s is being unbound: migration copies with the CPU until DMA_MIGRATE_OP_STOP\n",
	       sh->cl->name, sh->cl->dev_name);
	WRITE_ONCE(o->unbound, true);
	WRITE_ONCE(o->abort, true);
	/* the batch on the channel, bounded by its deadline, ends first */
	wait_var_event(&sh->busy, !test_and_set_bit_lock(0, &sh->busy));
	sh->retired = true;
	dmaengine_migrate_put(sh);
}

static void dmaengine_migrate_free(struct dmaengine_migrate *o)
{
	unsigned int i;

	for (i = 0; i < o->nr_shares; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		dmaengine_client_batch_free(&sh->b);
		kvfree(sh->src_sgl);
		kvfree(sh->dst_sgl);
		kvfree(sh->src);
		kvfree(sh->dst);
	}
	kfree(o->shares);
	kfree(o);
}

static int dmaengine_migrate_validate(const struct dma_migrate_offload *a)
{
	const struct dmaengine_bench_form *f;

	if (mb_check_flags("flags", a->flags, DMA_MIGRATE_F_ALL))
		return -EINVAL;
	f = a->prep_mode < DMAENGINE_BENCH_NR_MODES ?
	    &dmaengine_bench_forms[a->prep_mode] : NULL;
	if (f && !f->have_api) {
		mb_refuse_err("prep_mode %u (%s): this kernel has no %s; see kernel/patches/\n",
			      a->prep_mode, f->name, f->api);
		return -EOPNOTSUPP;
	}
	/* the CPU's form is the offload switched off */
	if (!f || !f->batch) {
		mb_refuse_err("invalid prep_mode %u: must be %u (memcpy), %u (memcpy_sg) or %u (memcpy_vec)\n",
			      a->prep_mode, DMAENGINE_BENCH_MODE_MEMCPY,
			      DMAENGINE_BENCH_MODE_MEMCPY_SG,
			      DMAENGINE_BENCH_MODE_MEMCPY_VEC);
		return -EINVAL;
	}
	if (mb_check_set("reasons", a->reasons, DMA_MIGRATE_R_ALL) ||
	    mb_check_range("channels", a->channels, 1,
			   DMAENGINE_BENCH_MAX_CHANNELS) ||
	    mb_check_range("timeout_ms", a->timeout_ms, 0,
			   DMAENGINE_BENCH_MAX_TIMEOUT_MS) ||
	    !dmaengine_client_name_ok(a->channel, "channel") ||
	    !dmaengine_client_name_ok(a->device, "device") ||
	    mb_check_zero("reserved_in", a->reserved_in,
			  sizeof(a->reserved_in)))
		return -EINVAL;
	return 0;
}

static unsigned long dmaengine_migrate_reason_mask(u32 reasons)
{
	unsigned long mask = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dmaengine_migrate_reasons); i++)
		if (reasons & dmaengine_migrate_reasons[i].bit)
			mask |= BIT(dmaengine_migrate_reasons[i].reason);
	return mask;
}

/*
 * Mappings that would bounce through swiotlb cost three CPU copies a batch
 * and bounce slots other devices share: not an offload.
 */
static int dmaengine_migrate_check_bounce(struct dmaengine_migrate *o)
{
	unsigned int i;

	for (i = 0; i < o->set.nr; i++) {
		struct device *dev = o->set.chans[i].dma_dev;

		if (!is_swiotlb_force_bounce(dev) && !dma_addressing_limited(dev))
			continue;
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: %s maps for %s, whose mappings %s through swiotlb: no offload over it\n",
			      o->set.chans[i].name, dev_name(dev),
			      is_swiotlb_force_bounce(dev) ? "all bounce" :
			      "of memory beyond its DMA mask bounce");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Room for the largest batch on every channel, allocated once: the hook
 * allocates nothing.
 */
static int dmaengine_migrate_prealloc(struct dmaengine_migrate *o)
{
	unsigned int i, max_txs;

	o->shares = kcalloc(o->set.nr, sizeof(*o->shares), GFP_KERNEL);
	if (!o->shares)
		return -ENOMEM;
	o->nr_shares = o->set.nr;
	for (i = 0; i < o->nr_shares; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];
		unsigned int n = DMAENGINE_MIGRATE_MAX_FOLIOS;

		sh->cl = &o->set.chans[i];
		sh->max_ents = n + div_u64(DMAENGINE_MIGRATE_MAX_BYTES,
					   sh->cl->seg.max) + 1;
		sh->src_sgl = kvcalloc(sh->max_ents, sizeof(*sh->src_sgl),
				       GFP_KERNEL);
		sh->dst_sgl = kvcalloc(sh->max_ents, sizeof(*sh->dst_sgl),
				       GFP_KERNEL);
		sh->src = kvcalloc(n, sizeof(*sh->src), GFP_KERNEL);
		sh->dst = kvcalloc(n, sizeof(*sh->dst), GFP_KERNEL);
		max_txs = dmaengine_client_max_txs(sh->cl, sh->max_ents,
						   DMAENGINE_MIGRATE_MAX_BYTES);
		if (!sh->src_sgl || !sh->dst_sgl || !sh->src || !sh->dst ||
		    dmaengine_client_batch_alloc(&sh->b, sh->cl, max_txs,
						 sh->max_ents, o->form->vecs,
						 GFP_KERNEL))
			return -ENOMEM;
	}
	return 0;
}

/* Channels with the form's capability, room for batches, the watch. */
static int dmaengine_migrate_channels(struct dmaengine_migrate *o,
				      struct dma_migrate_offload *a)
{
	struct dmaengine_client_request req = {
		.channel = a->channel,
		.device = a->device,
		.caps_name = o->form->cap_name,
		.count = a->channels,
		.allow_fewer = a->flags & DMA_MIGRATE_F_ALLOW_FEWER,
		.timeout = o->timeout,
		.abort = &o->abort,
		.unbind = dmaengine_migrate_unbind,
		.priv = o,
	};
	int ret;

	dma_cap_zero(req.caps);
	dma_cap_set(o->form->cap, req.caps);
	ret = dmaengine_client_set_open(&o->set, &req, &a->error);
	if (ret)
		return ret;
	ret = dmaengine_migrate_check_bounce(o);
	if (ret) {
		a->error = DMAENGINE_BENCH_ERR_LIMIT;
		return ret;
	}
	ret = dmaengine_migrate_prealloc(o);
	if (!ret)
		ret = dmaengine_client_set_watch(&o->set);
	if (ret)
		a->error = DMAENGINE_BENCH_ERR_NOMEM;
	return ret;
}

static int dmaengine_migrate_start(struct file *file,
				   struct dma_migrate_offload *a)
{
	struct dmaengine_migrate *o;
	int ret;

	if (DMAENGINE_MIGRATE_HOOK == DMA_MIGRATE_HOOK_NONE) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: this kernel has no migration copy-offload hook (kernel/patches/v7.3-migrate/ with CONFIG_MIGRATION_COPY_OFFLOAD, or the RFC's)\n");
		a->error = DMAENGINE_BENCH_ERR_NO_API;
		return -EOPNOTSUPP;
	}
	ret = dmaengine_migrate_validate(a);
	if (ret) {
		a->error = ret == -EOPNOTSUPP ? DMAENGINE_BENCH_ERR_NO_API :
			   DMAENGINE_BENCH_ERR_INVAL;
		return ret;
	}
	if (dmaengine_migrate_active) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: an offload is started already%s: stop it first\n",
			      dmaengine_migrate_active->file == file ?
			      " on this file" : " on another file");
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		return -EBUSY;
	}

	o = kzalloc_obj(*o, GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->file = file;
	o->prep_mode = a->prep_mode;
	o->form = &dmaengine_bench_forms[a->prep_mode];
	o->min_folios = a->min_folios;
	o->timeout = msecs_to_jiffies(a->timeout_ms ?:
				      DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS);
	spin_lock_init(&o->stats_lock);

	ret = dmaengine_migrate_channels(o, a);
	if (ret)
		goto close;

	WRITE_ONCE(dmaengine_migrate_active, o);
	ret = dmaengine_migrate_hook_register(o,
					      dmaengine_migrate_reason_mask(a->reasons));
	if (ret) {
		WRITE_ONCE(dmaengine_migrate_active, NULL);
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: migrate_offload_register() failed: %d%s\n",
			      ret, ret == -EBUSY ?
			      " (another migrator is registered)" : "");
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		goto close;
	}
	pr_info("migration copy offload started: %u channel(s), %s, reasons 0x%x\n",
		o->set.nr, o->form->name, a->reasons);
	return 0;

close:
	dmaengine_client_set_close(&o->set);
	dmaengine_migrate_free(o);
	return ret;
}

/*
 * Unregister, which waits for the calls in progress: no batch holds a
 * channel after it. The set then releases the channels an unbind did not
 * release already, and touches none of those.
 */
static void dmaengine_migrate_stop(struct dmaengine_migrate *o)
{
	dmaengine_migrate_hook_unregister(o);
	WRITE_ONCE(dmaengine_migrate_active, NULL);
	dmaengine_client_set_close(&o->set);
	pr_info("migration copy offload stopped\n");
	dmaengine_migrate_free(o);
}

/* The counters and what the offload runs on, into @a. */
static void dmaengine_migrate_stats_out(struct dmaengine_migrate *o,
					struct dma_migrate_offload *a,
					bool reset)
{
	struct dmaengine_migrate_stats st;

	spin_lock(&o->stats_lock);
	st = o->stats;
	if (reset)
		memset(&o->stats, 0, sizeof(o->stats));
	spin_unlock(&o->stats_lock);

	a->channels_used = o->nr_shares;
	a->prep_mode_used = o->prep_mode;
	a->batches = st.batches;
	a->batches_declined = st.declined;
	a->folios = st.folios;
	a->folios_declined = st.declined_folios;
	a->folios_offloaded = st.offloaded;
	a->folios_fallback = st.fallback;
	a->bytes = st.bytes;
	a->descriptors = st.descriptors;
	a->errors = st.errors;
	a->ph = st.ph;
}

static int dmaengine_migrate_op(struct file *file, struct dma_migrate_offload *a)
{
	struct dmaengine_migrate *o = dmaengine_migrate_active;
	bool mine = o && o->file == file;
	int ret = 0;

	a->hook = DMAENGINE_MIGRATE_HOOK;

	switch (a->op) {
	case DMA_MIGRATE_OP_START:
		ret = dmaengine_migrate_start(file, a);
		break;
	case DMA_MIGRATE_OP_STOP:
	case DMA_MIGRATE_OP_STATS:
		if (!mine) {
			mb_refuse_err("DMA_MIGRATE_OFFLOAD: op %u: no offload started on this file\n",
				      a->op);
			a->error = DMAENGINE_BENCH_ERR_INVAL;
			ret = -EINVAL;
			break;
		}
		/* STOP reads the counters a last time */
		dmaengine_migrate_stats_out(o, a, a->flags & DMA_MIGRATE_F_RESET);
		if (a->op == DMA_MIGRATE_OP_STOP)
			dmaengine_migrate_stop(o);
		break;
	default:
		mb_refuse_err("invalid op %u: must be below %u\n", a->op,
			      DMA_MIGRATE_NR_OPS);
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		ret = -EINVAL;
		break;
	}
	/* every answer, a refusal too, says whether this file's is running */
	o = dmaengine_migrate_active;
	a->active = o && o->file == file;
	if (a->active && a->op == DMA_MIGRATE_OP_START) {
		a->channels_used = o->nr_shares;
		a->prep_mode_used = o->prep_mode;
	}
	return ret;
}

static long dmaengine_migrate_call(void *req, void *ctx)
{
	int ret;

	if (mutex_lock_interruptible(&dmaengine_migrate_lock))
		return -EINTR;
	ret = dmaengine_migrate_op(ctx, req);
	mutex_unlock(&dmaengine_migrate_lock);
	return ret;
}

static_assert(offsetof(struct dma_migrate_offload, size) == 0);

/* Every answer, a refusal too, says whether this file's offload runs. */
static const struct mb_ioctl_io dmaengine_migrate_io = {
	.size = sizeof(struct dma_migrate_offload),
	.min_size = DMA_MIGRATE_OFFLOAD_SIZE_VER1,
	.out_off = offsetof(struct dma_migrate_offload, error),
	.out_always = true,
	.run = dmaengine_migrate_call,
};

/**
 * dmaengine_migrate_ioctl - DMA_MIGRATE_OFFLOAD
 * @file: the dmaengine benchmark's file
 * @uarg: the user's struct dma_migrate_offload
 *
 * Return: 0, or a negative errno with ->error saying why where it can.
 */
long dmaengine_migrate_ioctl(struct file *file,
			     struct dma_migrate_offload __user *uarg)
{
	return mb_ioctl(uarg, &dmaengine_migrate_io, file);
}

/* The file closed: its offload, if any, stops. */
void dmaengine_migrate_release(struct file *file)
{
	mutex_lock(&dmaengine_migrate_lock);
	if (dmaengine_migrate_active && dmaengine_migrate_active->file == file) {
		pr_info("the file that started the migration copy offload was closed: stopping it\n");
		dmaengine_migrate_stop(dmaengine_migrate_active);
	}
	mutex_unlock(&dmaengine_migrate_lock);
}
