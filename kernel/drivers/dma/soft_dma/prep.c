// SPDX-License-Identifier: GPL-2.0-only
/*
 * soft_dma descriptors: prep, tx_submit and the descriptor pool.
 *
 * Addresses: the platform device has no IOMMU and no DMA range offsets (the
 * probe refuses to bind otherwise), so the DMA address of a buffer mapped for
 * it is the physical address, whether dma-direct mapped it in place or
 * bounced it through swiotlb. Only addresses of valid RAM pfns are accepted.
 */

#include <linux/bug.h>
#include <linux/dma-mapping.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "compat.h"
#include "soft_dma.h"

#ifdef CONFIG_SPARSEMEM
/* pfn_valid() is decided per subsection */
#define SOFT_DMA_PFN_STEP	PAGES_PER_SUBSECTION
#endif

static struct kmem_cache *soft_dma_desc_cache;
/* descriptors allocated and not yet freed, all devices: a leak check */
static atomic_long_t soft_dma_descs = ATOMIC_LONG_INIT(0);

long soft_dma_live_descs(void)
{
	return atomic_long_read(&soft_dma_descs);
}

/* ------------------------------------------------------------------ */
/* prep_lock: ioat's prep-to-submit lock                               */
/* ------------------------------------------------------------------ */

/*
 * With prep_lock=1 a prep call takes the channel's prep_lock with bottom
 * halves off and returns with it held; tx_submit() of that descriptor
 * releases it (ioat_check_space_lock() and ioat_tx_submit_unlock()). A
 * client that preps again before submitting would spin on its own lock
 * for ever: that is reported -- to lockdep as the recursive acquisition
 * it is, and with a warning -- and the prep returns NULL instead.
 *
 * For sparse the lock is not held across the calls: it belongs to the
 * descriptor, not to a function.
 */
static bool soft_dma_prep_lock_take(struct soft_dma_chan *sc)
{
	if (READ_ONCE(sc->prep_owner) == current) {
#ifdef CONFIG_DEBUG_LOCK_ALLOC
		spin_acquire(&sc->prep_lock.dep_map, 0, 0, _RET_IP_);
		spin_release(&sc->prep_lock.dep_map, _RET_IP_);
#endif
		WARN_ONCE(1, "%s: prep called again before tx_submit() of the previous descriptor: with prep_lock (ioat's contract) this deadlocks; prep refused\n",
			  sc->name);
		return false;
	}
	spin_lock_bh(&sc->prep_lock);
	__release(&sc->prep_lock);
	WRITE_ONCE(sc->prep_owner, current);
	return true;
}

static void soft_dma_prep_lock_drop(struct soft_dma_chan *sc)
{
	WRITE_ONCE(sc->prep_owner, NULL);
	__acquire(&sc->prep_lock);
	spin_unlock_bh(&sc->prep_lock);
}

/* ------------------------------------------------------------------ */
/* Descriptors                                                         */
/* ------------------------------------------------------------------ */

/* Free a descriptor that never took a slot of the pool. */
static void soft_dma_desc_destroy(struct soft_dma_desc *d)
{
	struct soft_dma_block *b, *next;

	for (b = d->blocks; b; b = next) {
		next = b->next;
		kfree(b);
	}
	kmem_cache_free(soft_dma_desc_cache, d);
	atomic_long_dec(&soft_dma_descs);
}

void soft_dma_desc_free(struct soft_dma_desc *d)
{
	atomic_dec(&to_soft_chan(d->txd.chan)->descs);
	soft_dma_desc_destroy(d);
}

void soft_dma_free_list(struct list_head *head)
{
	struct soft_dma_desc *d, *n;

	list_for_each_entry_safe(d, n, head, node) {
		list_del(&d->node);
		soft_dma_desc_free(d);
	}
}

/* Count a submit of the channel: whether fail_submit_every fails it. */
static bool soft_dma_submit_fails(struct soft_dma_chan *sc, unsigned int every)
{
	lockdep_assert_held(&sc->lock);
	sc->submit_count++;
	return every && !(sc->submit_count % every);
}

/*
 * Queue a prepared descriptor and give it its cookie, or refuse it with a
 * negative cookie: -ENODEV once the device is unbound, -EBUSY for a
 * descriptor submitted already, and -EIO for every Nth submit of the
 * channel (fail_submit_every). A descriptor whose submission failed that
 * way is freed here, its pool slot returned, as idxd's tx_submit frees
 * one it could not queue: a client has no call that would free it.
 */
static dma_cookie_t soft_dma_tx_submit(struct dma_async_tx_descriptor *txd)
{
	struct soft_dma_chan *sc = to_soft_chan(txd->chan);
	struct soft_dma_desc *d = to_soft_desc(txd);
	unsigned int every = READ_ONCE(sc->sd->knobs.fail_submit_every);
	bool unlock, failed = false;
	dma_cookie_t cookie;
	unsigned long flags;

	spin_lock_irqsave(&sc->lock, flags);
	unlock = d->prep_locked;
	d->prep_locked = false;
	if (sc->dead) {
		cookie = -ENODEV;
	} else if (d->state != SOFT_DMA_ALLOCATED) {
		cookie = -EBUSY;
	} else if (soft_dma_submit_fails(sc, every)) {
		cookie = -EIO;
		list_del_init(&d->node);
		sc->stats.submit_failed++;
		failed = true;
	} else {
		/* dma_cookie_assign() */
		cookie = sc->chan.cookie + 1;
		if (cookie < DMA_MIN_COOKIE)
			cookie = DMA_MIN_COOKIE;
		txd->cookie = cookie;
		sc->chan.cookie = cookie;
		d->state = SOFT_DMA_QUEUED;
		list_move_tail(&d->node, &sc->submitted);
		sc->stats.submitted++;
	}
	spin_unlock_irqrestore(&sc->lock, flags);
	if (unlock)
		soft_dma_prep_lock_drop(sc);
	if (failed)
		soft_dma_desc_free(d);

	if (cookie < 0)
		dev_dbg_ratelimited(soft_chan_dev(sc), "%s: submit refused: %d%s\n",
				    sc->name, cookie,
				    failed ? " (failure injected)" : "");
	return cookie;
}

/*
 * Begin a prep call: take the prep lock (prep_lock=1), as ioat does
 * first, and allocate the descriptor. NULL, with nothing held, on failure.
 */
static struct soft_dma_desc *soft_dma_prep_begin(struct soft_dma_chan *sc,
						 unsigned long flags)
{
	struct soft_dma_desc *d;

	if (soft_dma_prep_lock && !soft_dma_prep_lock_take(sc))
		return NULL;
	d = kmem_cache_zalloc(soft_dma_desc_cache, GFP_NOWAIT | __GFP_NOWARN);
	if (!d) {
		if (soft_dma_prep_lock)
			soft_dma_prep_lock_drop(sc);
		return NULL;
	}
	atomic_long_inc(&soft_dma_descs);

	dma_async_tx_descriptor_init(&d->txd, &sc->chan);
	d->txd.flags = flags;
	d->txd.tx_submit = soft_dma_tx_submit;
	d->state = SOFT_DMA_ALLOCATED;
	d->prep_locked = soft_dma_prep_lock;
	INIT_LIST_HEAD(&d->node);
	return d;
}

/* A prep call that failed after soft_dma_prep_begin(). */
static struct dma_async_tx_descriptor *
soft_dma_prep_abort(struct soft_dma_chan *sc, struct soft_dma_desc *d,
		    const char *why)
{
	bool unlock = d->prep_locked;

	soft_dma_desc_destroy(d);
	if (unlock)
		soft_dma_prep_lock_drop(sc);
	dev_dbg_ratelimited(soft_chan_dev(sc), "%s: prep refused: %s\n",
			    sc->name, why);
	return NULL;
}

/*
 * Hand a prepared descriptor to the client, with the prep lock held,
 * unless the device is gone, a failure is injected (fail_prep_every) or
 * the pool is empty (pool_size).
 */
static struct dma_async_tx_descriptor *
soft_dma_prep_end(struct soft_dma_chan *sc, struct soft_dma_desc *d)
{
	unsigned int every = READ_ONCE(sc->sd->knobs.fail_prep_every);
	const char *why = NULL;
	unsigned long flags;

	spin_lock_irqsave(&sc->lock, flags);
	sc->prep_count++;
	if (sc->dead) {
		why = "the device is unbound";
	} else if (every && !(sc->prep_count % every)) {
		why = "failure injected";
		sc->stats.prep_failed++;
	} else if (!soft_dma_pool_size) {
		atomic_inc(&sc->descs);
	} else if (!atomic_add_unless(&sc->descs, 1, soft_dma_pool_size)) {
		why = "descriptor pool empty";
		sc->stats.pool_empty++;
	}
	if (!why) {
		list_add_tail(&d->node, &sc->allocated);
		sc->stats.prepared++;
	}
	spin_unlock_irqrestore(&sc->lock, flags);

	return why ? soft_dma_prep_abort(sc, d, why) : &d->txd;
}

/* ------------------------------------------------------------------ */
/* Address checks                                                      */
/* ------------------------------------------------------------------ */

static bool soft_dma_pfns_valid(unsigned long pfn, unsigned long last)
{
	if (!pfn_valid(pfn) || !pfn_valid(last))
		return false;
#ifdef SOFT_DMA_PFN_STEP
	for (pfn = ALIGN(pfn + 1, SOFT_DMA_PFN_STEP); pfn < last;
	     pfn += SOFT_DMA_PFN_STEP)
		if (!pfn_valid(pfn))
			return false;
#endif
	return true;
}

/* The DMA address is a physical one: RAM with a struct page throughout. */
static bool soft_dma_addr_ok(dma_addr_t addr, size_t len)
{
	phys_addr_t phys = (phys_addr_t)addr;

	if ((dma_addr_t)phys != addr || phys + len - 1 < phys)
		return false;
	return soft_dma_pfns_valid(PHYS_PFN(phys), PHYS_PFN(phys + len - 1));
}

/* Check one segment against the channel's limits. */
static bool soft_dma_seg_ok(struct soft_dma_chan *sc, dma_addr_t dst,
			    dma_addr_t src, size_t len)
{
	struct device *dev = soft_chan_dev(sc);
	const char *why;

	if (!len)
		why = "zero length";
	else if (len > dma_get_max_seg_size(dev))
		why = "longer than max_seg_size";
	else if (!is_dma_copy_aligned(&sc->sd->dma, src, dst, len))
		why = "misaligned for copy_align";
	else if (!soft_dma_addr_ok(src, len))
		why = "source is not RAM";
	else if (!soft_dma_addr_ok(dst, len))
		why = "destination is not RAM";
	else
		return true;

	dev_dbg_ratelimited(dev, "%s: refused %pad -> %pad len %zu: %s\n",
			    sc->name, &src, &dst, len, why);
	return false;
}

/* ------------------------------------------------------------------ */
/* Prep                                                                */
/* ------------------------------------------------------------------ */

struct dma_async_tx_descriptor *
soft_dma_prep_memcpy(struct dma_chan *chan, dma_addr_t dst, dma_addr_t src,
		     size_t len, unsigned long flags)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_desc *d;

	if (!soft_dma_seg_ok(sc, dst, src, len))
		return NULL;
	d = soft_dma_prep_begin(sc, flags);
	if (!d)
		return NULL;

	d->seg.dst = dst;
	d->seg.src = src;
	d->seg.len = len;
	d->len = len;
	return soft_dma_prep_end(sc, d);
}

#if defined(HAVE_DMA_MEMCPY_SG) || defined(HAVE_DMA_MEMCPY_VEC)
/* Append a segment; the first one is inline in the descriptor. */
static bool soft_dma_add_seg(struct soft_dma_desc *d,
			     struct soft_dma_block **tail, unsigned int *nr,
			     dma_addr_t dst, dma_addr_t src, size_t len)
{
	struct soft_dma_block *b = *tail;
	struct soft_dma_seg *s;

	if (!*nr) {
		s = &d->seg;
	} else {
		if (!b || b->nr == SOFT_DMA_BLOCK_SEGS) {
			struct soft_dma_block *nb;

			nb = kmalloc_obj(*nb, GFP_NOWAIT | __GFP_NOWARN);
			if (!nb)
				return false;
			nb->next = NULL;
			nb->nr = 0;
			if (b)
				b->next = nb;
			else
				d->blocks = nb;
			*tail = nb;
			b = nb;
		}
		s = &b->seg[b->nr++];
	}
	s->dst = dst;
	s->src = src;
	s->len = len;
	d->len += len;
	(*nr)++;
	return true;
}

/*
 * A cursor over the entries of one side of a copy: a mapped scatterlist
 * (memcpy_sg) or an array of dma_vec (memcpy_vec). Both forms go through
 * the same loads, checks and pairing, so neither prep mode is cheaper per
 * piece than the other for reasons a hardware engine would not share.
 *
 * @sg: the next unread scatterlist entry, or NULL (end of the list, or an
 *	array cursor)
 * @vec: the next unread dma_vec entry, or NULL (a scatterlist cursor)
 * @nents: entries left to read
 * @addr: the next byte of the current entry
 * @left: bytes left in the current entry
 */
struct soft_dma_cursor {
	struct scatterlist *sg;
#ifdef HAVE_DMA_MEMCPY_VEC
	const struct dma_vec *vec;
#endif
	size_t nents;
	dma_addr_t addr;
	size_t left;
};

/* Read the next entry into @addr and @left; false at the end. */
static bool soft_dma_cursor_read(struct soft_dma_cursor *cur)
{
	if (!cur->nents)
		return false;
	if (cur->sg) {
		cur->addr = sg_dma_address(cur->sg);
		cur->left = sg_dma_len(cur->sg);
		cur->sg = sg_next(cur->sg);
#ifdef HAVE_DMA_MEMCPY_VEC
	} else if (cur->vec) {
		cur->addr = cur->vec->addr;
		cur->left = cur->vec->len;
		cur->vec++;
#endif
	} else {
		return false;
	}
	cur->nents--;
	return true;
}

/*
 * Load the next non-empty entry. Returns 1 with @addr and @left set, 0 at
 * the end, -EINVAL for an entry the channel cannot copy: longer than
 * max_seg_size, misaligned for copy_align, or not RAM. Empty entries are
 * skipped here (a mapped scatterlist may have them); memcpy_vec refuses
 * them before the first load.
 */
static int soft_dma_cursor_load(struct soft_dma_chan *sc,
				struct soft_dma_cursor *cur)
{
	struct device *dev = soft_chan_dev(sc);

	while (soft_dma_cursor_read(cur)) {
		if (!cur->left)
			continue;
		if (cur->left > dma_get_max_seg_size(dev) ||
		    !is_dma_copy_aligned(&sc->sd->dma, cur->addr, 0, cur->left) ||
		    !soft_dma_addr_ok(cur->addr, cur->left)) {
			dev_dbg_ratelimited(dev, "%s: refused entry %pad len %zu\n",
					    sc->name, &cur->addr, cur->left);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/*
 * Fill @d with the pieces of a copy between two cursors, which need not
 * have the same layout: a piece ends where the current entry of either side
 * ends, and the copy stops when either side is exhausted. One descriptor,
 * one slot of the pool, whatever the number of segments.
 */
static struct dma_async_tx_descriptor *
soft_dma_prep_pairs(struct soft_dma_chan *sc, struct soft_dma_desc *d,
		    struct soft_dma_cursor *dst, struct soft_dma_cursor *src,
		    const char *why)
{
	struct soft_dma_block *tail = NULL;
	unsigned int nr = 0;
	int ret;

	if (soft_dma_cursor_load(sc, dst) <= 0 ||
	    soft_dma_cursor_load(sc, src) <= 0)
		goto refuse;

	for (;;) {
		size_t len = min(dst->left, src->left);

		if (!soft_dma_add_seg(d, &tail, &nr, dst->addr, src->addr, len))
			goto refuse;
		dst->addr += len;
		src->addr += len;
		dst->left -= len;
		src->left -= len;
		if (!dst->left) {
			ret = soft_dma_cursor_load(sc, dst);
			if (ret < 0)
				goto refuse;
			if (!ret)
				break;
		}
		if (!src->left) {
			ret = soft_dma_cursor_load(sc, src);
			if (ret < 0)
				goto refuse;
			if (!ret)
				break;
		}
	}
	return soft_dma_prep_end(sc, d);

refuse:
	return soft_dma_prep_abort(sc, d, why);
}
#endif /* HAVE_DMA_MEMCPY_SG || HAVE_DMA_MEMCPY_VEC */

#ifdef HAVE_DMA_MEMCPY_SG
/* Empty entries of the mapped lists are skipped. */
struct dma_async_tx_descriptor *
soft_dma_prep_memcpy_sg(struct dma_chan *chan,
			struct scatterlist *dst_sg, unsigned int dst_nents,
			struct scatterlist *src_sg, unsigned int src_nents,
			unsigned long flags)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_cursor dst = { .sg = dst_sg, .nents = dst_nents };
	struct soft_dma_cursor src = { .sg = src_sg, .nents = src_nents };
	struct soft_dma_desc *d;

	d = soft_dma_prep_begin(sc, flags);
	if (!d)
		return NULL;
	return soft_dma_prep_pairs(sc, d, &dst, &src, "scatterlist refused");
}
#endif /* HAVE_DMA_MEMCPY_SG */

#ifdef HAVE_DMA_MEMCPY_VEC
/*
 * Unlike a mapped scatterlist, a dma_vec array is the client's own: an
 * empty entry is a client error, and refuses the copy wherever it is in
 * either array, as zynqmp_dma and pl330 refuse it. The other checks are
 * the scatterlist's, on the entries the copy reaches.
 */
static bool soft_dma_vecs_nonempty(struct soft_dma_chan *sc,
				   const struct dma_vec *vecs, size_t nents)
{
	size_t i;

	for (i = 0; i < nents; i++) {
		if (!vecs[i].len) {
			dev_dbg_ratelimited(soft_chan_dev(sc),
					    "%s: dma_vec %zu is empty\n",
					    sc->name, i);
			return false;
		}
	}
	return true;
}

struct dma_async_tx_descriptor *
soft_dma_prep_memcpy_vec(struct dma_chan *chan,
			 const struct dma_vec *dst_vecs, size_t dst_nents,
			 const struct dma_vec *src_vecs, size_t src_nents,
			 unsigned long flags)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_cursor dst = { .vec = dst_vecs, .nents = dst_nents };
	struct soft_dma_cursor src = { .vec = src_vecs, .nents = src_nents };
	struct soft_dma_desc *d;

	d = soft_dma_prep_begin(sc, flags);
	if (!d)
		return NULL;
	if ((dst_vecs && !soft_dma_vecs_nonempty(sc, dst_vecs, dst_nents)) ||
	    (src_vecs && !soft_dma_vecs_nonempty(sc, src_vecs, src_nents)))
		return soft_dma_prep_abort(sc, d, "empty dma_vec entry");
	return soft_dma_prep_pairs(sc, d, &dst, &src, "dma_vec array refused");
}
#endif /* HAVE_DMA_MEMCPY_VEC */

int soft_dma_prep_init(void)
{
	soft_dma_desc_cache = KMEM_CACHE(soft_dma_desc, 0);
	return soft_dma_desc_cache ? 0 : -ENOMEM;
}

void soft_dma_prep_exit(void)
{
	kmem_cache_destroy(soft_dma_desc_cache);
}
