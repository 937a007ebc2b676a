// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine client as page migration's copy offload: DMA_MIGRATE_OFFLOAD
 * on /sys/kernel/debug/dmaengine_benchmark.
 *
 * DMA_MIGRATE_OP_START requests the channels and registers a struct
 * migrator with the kernel's copy-offload hook (kernel/patches/v7.3-migrate/,
 * or the RFC's interface it is shaped after). The hook calls
 * ->offload_copy() in the migrating task's context, after the batch's
 * folios are unmapped and the TLB flushed: the batch's folio pairs are
 * shared out among the channels, each share's source and destination
 * tables are built, mapped on that channel's device, copied with the prep
 * form through the dmaengine client (dmaengine_client.c), submitted on
 * every channel, then waited for on every channel, with the timeout. A
 * destination folio is marked copied only when the channel that copied it
 * completed its whole share without an error; the hook's caller copies
 * every other folio with the CPU. Nothing blocks for longer than the
 * timeout, and no folio is touched after ->offload_copy() returns.
 *
 * One batch at a time goes over the channels (dmaengine_migrate.lock): the
 * client's channel state is a single driver's. A provider being unbound
 * (the client's bus watch) aborts the batch in flight, whose folios fall
 * back to the CPU, and makes later batches decline until STOP; the
 * channels are released at STOP, or when the file that started the
 * offload is closed. The hook holds no module reference: the open file
 * holds one, and the file's release unregisters, so the module cannot be
 * unloaded while registered.
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
#include <linux/uaccess.h>

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

/**
 * struct dmaengine_migrate_stats - what STATS reads
 * @batches: batches the hook handed over
 * @folios: folios in them
 * @offloaded: folios marked copied
 * @fallback: folios left to the CPU
 * @bytes: bytes the engines copied
 * @descriptors: descriptors submitted
 * @errors: batches that failed
 * @ph: phase times
 */
struct dmaengine_migrate_stats {
	u64 batches;
	u64 folios;
	u64 offloaded;
	u64 fallback;
	u64 bytes;
	u64 descriptors;
	u64 errors;
	struct dma_migrate_offload_phases ph;
};

/**
 * struct dmaengine_migrate_share - one channel's share of a batch
 * @cl: the client's channel
 * @b: the batch on it
 * @src_sgt: the share's source folios
 * @dst_sgt: its destination folios
 * @first: index of its first folio pair in the batch
 * @n: folio pairs in it
 * @mapped: @src_sgt and @dst_sgt are mapped on @cl's device
 * @failed: the share did not complete: none of its folios is marked
 */
struct dmaengine_migrate_share {
	struct dmaengine_client_chan cl;
	struct dmaengine_client_batch b;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
	unsigned int first;
	unsigned int n;
	bool mapped;
	bool failed;
};

/**
 * struct dmaengine_migrate - a started offload
 * @file: the file that started it: STOP, STATS and its release act on it
 * @form: the prep form
 * @prep_mode: its DMAENGINE_BENCH_MODE_*
 * @shares: one per channel
 * @nr: channels
 * @min_folios: smaller batches are left to the CPU
 * @lock: one batch at a time over the channels; an unbind takes it to wait
 *	for the batch in flight
 * @abort: set by an unbind: the batch in flight ends within a wait slice
 * @unbound: a provider was unbound: batches are declined until STOP
 * @watch: the buses of the channels' providers
 * @stats_lock: guards @stats
 * @stats: the counters
 * @migrator: what the hook calls
 */
struct dmaengine_migrate {
	struct file *file;
	const struct dmaengine_bench_form *form;
	unsigned int prep_mode;
	struct dmaengine_migrate_share *shares;
	unsigned int nr;
	unsigned int min_folios;
	struct mutex lock; /* one batch at a time; the unbind waits on it */
	bool abort;
	bool unbound;
	struct dmaengine_client_watch watch;
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
 * Allocations in the hook: it may run in reclaim or compaction, so no I/O
 * nor filesystem reclaim; a failure is a batch left to the CPU.
 */
#define DMAENGINE_MIGRATE_GFP	(GFP_NOIO | __GFP_NOWARN)

/* Share out @n folio pairs: the first channels take one more. */
static void dmaengine_migrate_share_out(struct dmaengine_migrate *o,
					unsigned int n)
{
	unsigned int i, first = 0, each = n / o->nr, more = n % o->nr;

	for (i = 0; i < o->nr; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		sh->first = first;
		sh->n = each + (i < more);
		sh->mapped = false;
		sh->failed = false;
		first += sh->n;
	}
}

/* Tables, room for the descriptors, the mapping; and the batch started. */
static int dmaengine_migrate_share_start(struct dmaengine_migrate *o,
					 struct dmaengine_migrate_share *sh,
					 struct folio **src, struct folio **dst)
{
	unsigned int max_ents;
	u64 bytes = 0;
	unsigned int i;
	int ret;

	dmaengine_client_chan_reset(&sh->cl);
	ret = dmaengine_client_table_fill(&sh->cl, &sh->src_sgt,
					  &src[sh->first], sh->n,
					  DMAENGINE_MIGRATE_GFP);
	if (ret)
		return ret;
	ret = dmaengine_client_table_fill(&sh->cl, &sh->dst_sgt,
					  &dst[sh->first], sh->n,
					  DMAENGINE_MIGRATE_GFP);
	if (ret)
		goto free_src;
	for (i = 0; i < sh->n; i++)
		bytes += folio_size(src[sh->first + i]);
	max_ents = max(sh->src_sgt.orig_nents, sh->dst_sgt.orig_nents);
	ret = dmaengine_client_batch_alloc(&sh->b, &sh->cl,
					   dmaengine_client_max_txs(&sh->cl,
								    max_ents,
								    bytes),
					   max_ents, o->form->vecs,
					   DMAENGINE_MIGRATE_GFP);
	if (ret)
		goto free_batch;
	ret = dmaengine_client_map(&sh->cl, &sh->src_sgt, &sh->dst_sgt);
	if (ret)
		goto free_batch;
	sh->mapped = true;
	return dmaengine_client_batch_start(&sh->b, o->form, &sh->src_sgt,
					    &sh->dst_sgt);

free_batch:
	dmaengine_client_batch_free(&sh->b);
	sg_free_table(&sh->dst_sgt);
free_src:
	sg_free_table(&sh->src_sgt);
	return ret;
}

/*
 * After the wait: a failed share's descriptors are terminated before its
 * tables are unmapped; a complete one's destination folios are marked.
 */
static void dmaengine_migrate_share_end(struct dmaengine_migrate_share *sh,
					struct folio **dst)
{
	unsigned int i;

	if (!sh->mapped)
		return;
	if (sh->failed && sh->b.busy)
		dmaengine_client_terminate(&sh->cl);
	dmaengine_client_unmap(&sh->cl, &sh->src_sgt, &sh->dst_sgt);
	dmaengine_client_batch_free(&sh->b);
	sg_free_table(&sh->dst_sgt);
	sg_free_table(&sh->src_sgt);
	if (sh->failed)
		return;
	for (i = 0; i < sh->n; i++)
		dmaengine_migrate_mark(dst[sh->first + i]);
}

/*
 * Add a batch's figures to the counters: @ran, the channels' figures are
 * the batch's.
 */
static void dmaengine_migrate_account(struct dmaengine_migrate *o,
				      unsigned int folios, unsigned int offloaded,
				      bool error, bool ran, ktime_t t0)
{
	struct dmaengine_migrate_stats *st = &o->stats;
	u64 batch_ns = dmaengine_client_elapsed(t0);
	unsigned int i;

	spin_lock(&o->stats_lock);
	st->batches++;
	st->folios += folios;
	st->offloaded += offloaded;
	st->fallback += folios - offloaded;
	st->errors += error;
	st->ph.batch_ns += batch_ns;
	for (i = 0; i < o->nr && ran; i++) {
		const struct dmaengine_migrate_share *sh = &o->shares[i];
		const struct dmaengine_bench_figures *f = &sh->cl.fig;

		if (!sh->n)
			continue;
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
	spin_unlock(&o->stats_lock);
}

/* The folios of the two lists, paired in list order, as arrays. */
static int dmaengine_migrate_folios(struct list_head *dst_list,
				    struct list_head *src_list, unsigned int n,
				    struct folio ***src, struct folio ***dst)
{
	struct folio *s, *d;
	unsigned int i = 0;

	*src = kmalloc_array(n, sizeof(**src), DMAENGINE_MIGRATE_GFP);
	*dst = kmalloc_array(n, sizeof(**dst), DMAENGINE_MIGRATE_GFP);
	if (!*src || !*dst)
		goto fail;
	d = list_first_entry(dst_list, struct folio, lru);
	list_for_each_entry(s, src_list, lru) {
		if (i == n || list_entry_is_head(d, dst_list, lru) ||
		    folio_size(s) != folio_size(d))
			goto fail;
		(*src)[i] = s;
		(*dst)[i++] = d;
		d = list_next_entry(d, lru);
	}
	if (i == n)
		return 0;
fail:
	kfree(*src);
	kfree(*dst);
	return -EINVAL;
}

/* Share the batch out, start it on every channel, wait on every one. */
static unsigned int dmaengine_migrate_run(struct dmaengine_migrate *o,
					  struct folio **src, struct folio **dst,
					  unsigned int n)
{
	unsigned int i, offloaded = 0;

	dmaengine_migrate_share_out(o, n);
	for (i = 0; i < o->nr; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		if (sh->n && dmaengine_migrate_share_start(o, sh, src, dst))
			sh->failed = true;
	}
	for (i = 0; i < o->nr; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		if (sh->n && !sh->failed &&
		    dmaengine_client_batch_finish(&sh->b, true))
			sh->failed = true;
	}
	for (i = 0; i < o->nr; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		if (!sh->n)
			continue;
		if (!sh->mapped)
			sh->failed = true;
		dmaengine_migrate_share_end(sh, dst);
		if (!sh->failed)
			offloaded += sh->n;
	}
	return offloaded;
}

/*
 * The hook's callback, in the migrating task's context: returns 0 when
 * every folio was copied and marked, else an error; the folios not
 * marked are copied by the CPU after this returns.
 */
static int __maybe_unused dmaengine_migrate_copy(struct list_head *dst_list,
						 struct list_head *src_list,
						 unsigned int folio_cnt)
{
	struct dmaengine_migrate *o = READ_ONCE(dmaengine_migrate_active);
	unsigned int offloaded = 0;
	struct folio **src, **dst;
	ktime_t t0 = ktime_get();
	bool ran;
	int ret;

	if (!o || !folio_cnt)
		return -ENODEV;
	if (folio_cnt < o->min_folios) {
		dmaengine_migrate_account(o, folio_cnt, 0, false, false, t0);
		return -EOPNOTSUPP;
	}
	ret = dmaengine_migrate_folios(dst_list, src_list, folio_cnt, &src,
				       &dst);
	if (ret) {
		dmaengine_migrate_account(o, folio_cnt, 0, true, false, t0);
		return ret;
	}

	mutex_lock(&o->lock);
	ran = !o->unbound;
	if (!ran) {
		ret = -ENODEV;
	} else {
		offloaded = dmaengine_migrate_run(o, src, dst, folio_cnt);
		if (offloaded < folio_cnt)
			ret = READ_ONCE(o->abort) ? -ENODEV : -EIO;
	}
	dmaengine_migrate_account(o, folio_cnt, offloaded, ret, ran, t0);
	mutex_unlock(&o->lock);

	kfree(src);
	kfree(dst);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Start and stop                                                       */
/* ------------------------------------------------------------------ */

/*
 * A provider is about to be unbound from one of the offload's devices:
 * the batch in flight ends (its folios go to the CPU), later ones are
 * declined; the channels stay held until STOP.
 */
static void dmaengine_migrate_unbind(struct dmaengine_client_watch *w,
				     struct device *dev)
{
	struct dmaengine_migrate *o =
		container_of(w, struct dmaengine_migrate, watch);
	unsigned int i;

	for (i = 0; i < o->nr; i++) {
		if (o->shares[i].cl.chan->device->dev != dev)
			continue;
		pr_err("%s: its provider %s is being unbound: migration copies with the CPU until DMA_MIGRATE_OP_STOP\n",
		       o->shares[i].cl.name, o->shares[i].cl.dev_name);
		WRITE_ONCE(o->abort, true);
		/* the batch in flight, bounded by the timeout, ends first */
		mutex_lock(&o->lock);
		o->unbound = true;
		mutex_unlock(&o->lock);
		break;
	}
}

static void dmaengine_migrate_release_channels(struct dmaengine_migrate *o)
{
	unsigned int i;

	for (i = 0; i < o->nr; i++)
		dma_release_channel(o->shares[i].cl.chan);
	o->nr = 0;
}

static void dmaengine_migrate_free(struct dmaengine_migrate *o)
{
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

/* Channels with the form's capability, their limits, and the watch. */
static int dmaengine_migrate_channels(struct dmaengine_migrate *o,
				      struct dma_migrate_offload *a)
{
	struct dmaengine_client_match match = {
		.channel = a->channel,
		.device = a->device,
	};
	unsigned long timeout = msecs_to_jiffies(a->timeout_ms ?:
					DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS);
	dma_cap_mask_t mask;
	unsigned int i;
	int ret;

	dma_cap_zero(mask);
	dma_cap_set(o->form->cap, mask);
	while (o->nr < a->channels) {
		struct dma_chan *chan =
			dma_request_channel(mask, dmaengine_client_filter,
					    &match);

		if (!chan)
			break;
		dmaengine_client_chan_init(&o->shares[o->nr].cl, chan);
		o->nr++;
	}
	if (!o->nr ||
	    (o->nr < a->channels && !(a->flags & DMA_MIGRATE_F_ALLOW_FEWER))) {
		mb_refuse_err("found %u %s channels%s%s%s%s, channels asks for %u\n",
			      o->nr, o->form->cap_name,
			      a->channel[0] ? " named " : "", a->channel,
			      a->device[0] ? " on device " : "", a->device,
			      a->channels);
		a->error = DMAENGINE_BENCH_ERR_NO_CHANNEL;
		return -ENODEV;
	}
	for (i = 0; i < o->nr; i++) {
		struct dmaengine_client_chan *c = &o->shares[i].cl;

		c->timeout = timeout;
		c->abort = &o->abort;
		if (dmaengine_client_chan_limits(c)) {
			a->error = DMAENGINE_BENCH_ERR_LIMIT;
			return -EINVAL;
		}
	}
	ret = dmaengine_client_watch_start(&o->watch, o->nr,
					   dmaengine_migrate_unbind);
	for (i = 0; i < o->nr && !ret; i++)
		ret = dmaengine_client_watch_add(&o->watch,
						 o->shares[i].cl.chan->device->dev);
	if (ret) {
		dmaengine_client_watch_stop(&o->watch);
		a->error = DMAENGINE_BENCH_ERR_NOMEM;
	}
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
	o->shares = kcalloc(a->channels, sizeof(*o->shares), GFP_KERNEL);
	if (!o->shares) {
		kfree(o);
		return -ENOMEM;
	}
	o->file = file;
	o->prep_mode = a->prep_mode;
	o->form = &dmaengine_bench_forms[a->prep_mode];
	o->min_folios = a->min_folios;
	mutex_init(&o->lock);
	spin_lock_init(&o->stats_lock);

	ret = dmaengine_migrate_channels(o, a);
	if (ret)
		goto release;

	WRITE_ONCE(dmaengine_migrate_active, o);
	ret = dmaengine_migrate_hook_register(o,
					      dmaengine_migrate_reason_mask(a->reasons));
	if (ret) {
		WRITE_ONCE(dmaengine_migrate_active, NULL);
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: migrate_offload_register() failed: %d%s\n",
			      ret, ret == -EBUSY ?
			      " (another migrator is registered)" : "");
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		goto unwatch;
	}
	pr_info("migration copy offload started: %u channel(s), %s, reasons 0x%x\n",
		o->nr, o->form->name, a->reasons);
	return 0;

unwatch:
	dmaengine_client_watch_stop(&o->watch);
release:
	dmaengine_migrate_release_channels(o);
	dmaengine_migrate_free(o);
	return ret;
}

/* Unregister, wait for the calls in progress, release everything. */
static void dmaengine_migrate_stop(struct dmaengine_migrate *o)
{
	unsigned int i;

	dmaengine_migrate_hook_unregister(o);
	WRITE_ONCE(dmaengine_migrate_active, NULL);
	/* an unbind waiting for a batch returns now */
	dmaengine_client_watch_stop(&o->watch);
	for (i = 0; i < o->nr; i++)
		dmaengine_client_terminate(&o->shares[i].cl);
	dmaengine_migrate_release_channels(o);
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

	a->channels_used = o->nr;
	a->prep_mode_used = o->prep_mode;
	a->batches = st.batches;
	a->folios = st.folios;
	a->folios_offloaded = st.offloaded;
	a->folios_fallback = st.fallback;
	a->bytes = st.bytes;
	a->descriptors = st.descriptors;
	a->errors = st.errors;
	a->ph = st.ph;
}

static void dmaengine_migrate_clear_outputs(struct dma_migrate_offload *a)
{
	size_t off = offsetof(struct dma_migrate_offload, error);

	memset((char *)a + off, 0, sizeof(*a) - off);
	a->hook = DMAENGINE_MIGRATE_HOOK;
}

static int dmaengine_migrate_op(struct file *file, struct dma_migrate_offload *a)
{
	struct dmaengine_migrate *o = dmaengine_migrate_active;
	bool mine = o && o->file == file;
	int ret = 0;

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
		a->channels_used = o->nr;
		a->prep_mode_used = o->prep_mode;
	}
	return ret;
}

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
	struct dma_migrate_offload a;
	u32 usize;
	int ret;

	ret = mb_copy_in(&a, sizeof(a), uarg, &uarg->size,
			 DMA_MIGRATE_OFFLOAD_SIZE_VER1, &usize);
	if (ret)
		return ret;
	dmaengine_migrate_clear_outputs(&a);
	if (mutex_lock_interruptible(&dmaengine_migrate_lock))
		return -EINTR;
	ret = dmaengine_migrate_op(file, &a);
	mutex_unlock(&dmaengine_migrate_lock);
	if (copy_to_user(uarg, &a, min_t(size_t, usize, sizeof(a))))
		ret = -EFAULT;
	return ret;
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
