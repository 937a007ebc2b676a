// SPDX-License-Identifier: GPL-2.0-only
/*
 * soft_dma: a dmaengine provider whose "hardware" is the CPU.
 *
 * It registers a memcpy DMA device (DMA_MEMCPY, and DMA_MEMCPY_SG where the
 * kernel has that API) with a number of channels on a platform device of its
 * own. Each channel is an in-order engine: descriptors are queued by
 * tx_submit(), handed to the engine by issue_pending() and copied by a
 * kernel thread per channel; completions are reported from a tasklet per
 * channel, as interrupt-driven hardware drivers do. Knobs inject the faults
 * a real engine can have. See Documentation/soft_dma.rst.
 *
 * Addresses: the platform device has no IOMMU and no DMA range offsets (the
 * probe refuses to bind otherwise), so the DMA address of a buffer mapped for
 * it is the physical address, whether dma-direct mapped it in place or
 * bounced it through swiotlb. Only addresses of valid RAM pfns are accepted.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cc_platform.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmaengine.h>
#include <linux/fault-inject.h>
#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "../compat.h"

#define SOFT_DMA_NAME		"soft_dma"
#define SOFT_DMA_MAX_CHANNELS	256
#define SOFT_DMA_MAX_DELAY_US	(10 * USEC_PER_SEC)
/* cookies of the last failed transfers tx_status() reports as DMA_ERROR */
#define SOFT_DMA_ERR_RING	64
/* a copy is split in chunks of this size to notice terminate_all() */
#define SOFT_DMA_CHUNK		SZ_1M
/*
 * A polling client (tx_status) runs the engine itself when the channel's
 * thread has made no progress for this long: on a kernel without preemption
 * a client spinning on every CPU would otherwise starve the thread.
 */
#define SOFT_DMA_HELP_NS	(1 * NSEC_PER_MSEC)

/* debugfs "memcpy_sg": whether the channels offer DMA_MEMCPY_SG */
#ifdef HAVE_DMA_MEMCPY_SG
static bool soft_dma_has_memcpy_sg = true;
#else
static bool soft_dma_has_memcpy_sg;
#endif

#ifdef CONFIG_SPARSEMEM
/* pfn_valid() is decided per subsection */
#define SOFT_DMA_PFN_STEP	PAGES_PER_SUBSECTION
#endif

/* ------------------------------------------------------------------ */
/* Parameters and run-time knobs                                       */
/* ------------------------------------------------------------------ */

static unsigned int channels = 4;
module_param(channels, uint, 0444);
MODULE_PARM_DESC(channels, "Number of DMA channels, 1..256 (default: 4)");

static unsigned int max_seg_size = SZ_4M;
module_param(max_seg_size, uint, 0444);
MODULE_PARM_DESC(max_seg_size,
		 "Largest segment in bytes, 4096..4294967295 (default: 4 MiB)");

static unsigned int copy_align;
module_param(copy_align, uint, 0444);
MODULE_PARM_DESC(copy_align,
		 "log2 of the address and length alignment, 0..12 (default: 0)");

enum soft_dma_knob_id {
	SOFT_DMA_NOCOPY,
	SOFT_DMA_DELAY_US,
	SOFT_DMA_FAIL_PREP_EVERY,
	SOFT_DMA_ERROR_EVERY,
	SOFT_DMA_STALL_CHANNEL,
	SOFT_DMA_NR_KNOBS
};

/**
 * struct soft_dma_knob - a knob settable at load time and at run time
 * @name: parameter and debugfs file name
 * @val: current value
 * @min: smallest accepted value
 * @max: largest accepted value
 * @is_bool: also accept y/n/on/off
 */
struct soft_dma_knob {
	const char *name;
	int val;
	int min;
	int max;
	bool is_bool;
};

static struct soft_dma_knob soft_dma_knobs[SOFT_DMA_NR_KNOBS] = {
	[SOFT_DMA_NOCOPY] = {
		.name = "nocopy", .min = 0, .max = 1, .is_bool = true,
	},
	[SOFT_DMA_DELAY_US] = {
		.name = "delay_us", .min = 0, .max = SOFT_DMA_MAX_DELAY_US,
	},
	[SOFT_DMA_FAIL_PREP_EVERY] = {
		.name = "fail_prep_every", .min = 0, .max = INT_MAX,
	},
	[SOFT_DMA_ERROR_EVERY] = {
		.name = "error_every", .min = 0, .max = INT_MAX,
	},
	[SOFT_DMA_STALL_CHANNEL] = {
		.name = "stall_channel", .val = -1, .min = -1,
		.max = SOFT_DMA_MAX_CHANNELS - 1,
	},
};

static inline int soft_dma_knob(enum soft_dma_knob_id id)
{
	return READ_ONCE(soft_dma_knobs[id].val);
}

static int soft_dma_knob_set(struct soft_dma_knob *k, const char *buf);
static int soft_dma_knob_get(char *buf, size_t size, struct soft_dma_knob *k);

static int soft_dma_param_set(const char *val, const struct kernel_param *kp)
{
	return soft_dma_knob_set(kp->arg, val);
}

static int soft_dma_param_get(char *buf, const struct kernel_param *kp)
{
	return soft_dma_knob_get(buf, PAGE_SIZE, kp->arg);
}

static const struct kernel_param_ops soft_dma_knob_ops = {
	.set = soft_dma_param_set,
	.get = soft_dma_param_get,
};

module_param_cb(nocopy, &soft_dma_knob_ops,
		&soft_dma_knobs[SOFT_DMA_NOCOPY], 0644);
MODULE_PARM_DESC(nocopy, "Complete transfers without copying, 0/1 (default: 0)");
module_param_cb(delay_us, &soft_dma_knob_ops,
		&soft_dma_knobs[SOFT_DMA_DELAY_US], 0644);
MODULE_PARM_DESC(delay_us,
		 "Extra time each descriptor takes, 0..10000000 us (default: 0)");
module_param_cb(fail_prep_every, &soft_dma_knob_ops,
		&soft_dma_knobs[SOFT_DMA_FAIL_PREP_EVERY], 0644);
MODULE_PARM_DESC(fail_prep_every,
		 "Every Nth prep call of a channel returns NULL, 0: never (default: 0)");
module_param_cb(error_every, &soft_dma_knob_ops,
		&soft_dma_knobs[SOFT_DMA_ERROR_EVERY], 0644);
MODULE_PARM_DESC(error_every,
		 "Every Nth transfer of a channel fails, 0: never (default: 0)");
module_param_cb(stall_channel, &soft_dma_knob_ops,
		&soft_dma_knobs[SOFT_DMA_STALL_CHANNEL], 0644);
MODULE_PARM_DESC(stall_channel,
		 "Index of a channel that never completes, -1: none (default: -1)");

#ifdef CONFIG_FAULT_INJECTION
static DECLARE_FAULT_ATTR(soft_dma_fail_prep_attr);
static DECLARE_FAULT_ATTR(soft_dma_fail_xfer_attr);
#endif

/* ------------------------------------------------------------------ */
/* Device, channel and descriptor                                      */
/* ------------------------------------------------------------------ */

/**
 * struct soft_dma_seg - one contiguous piece of a copy
 * @dst: destination physical address
 * @src: source physical address
 * @len: bytes
 */
struct soft_dma_seg {
	phys_addr_t dst;
	phys_addr_t src;
	size_t len;
};

#define SOFT_DMA_BLOCK_SEGS \
	((PAGE_SIZE - 2 * sizeof(void *)) / sizeof(struct soft_dma_seg))

/**
 * struct soft_dma_block - further segments of a scatter-gather descriptor
 * @next: next block, or NULL
 * @nr: segments used in @seg
 * @seg: the segments
 */
struct soft_dma_block {
	struct soft_dma_block *next;
	unsigned int nr;
	struct soft_dma_seg seg[SOFT_DMA_BLOCK_SEGS];
};

/*
 * Where a descriptor is. ALLOCATED: prepared (or reusable and idle), on
 * ->allocated; QUEUED: submitted or issued; ACTIVE: the engine copies it;
 * DONE: complete, callback pending, on ->completed; UNACKED: complete, the
 * client has not acked it yet, on ->unacked.
 */
enum soft_dma_desc_state {
	SOFT_DMA_ALLOCATED,
	SOFT_DMA_QUEUED,
	SOFT_DMA_ACTIVE,
	SOFT_DMA_DONE,
	SOFT_DMA_UNACKED,
};

/**
 * struct soft_dma_desc - a descriptor
 * @txd: the dmaengine descriptor
 * @node: on one of the channel's lists
 * @state: enum soft_dma_desc_state
 * @started: the engine started the delay_us clock for it
 * @aborted: terminated while the engine was copying it
 * @result: how the transfer ended
 * @due: when the engine may copy it (delay_us)
 * @len: bytes to copy
 * @done: bytes copied so far
 * @blocks: segments after @seg (memcpy_sg), or NULL
 * @seg: the first segment
 */
struct soft_dma_desc {
	struct dma_async_tx_descriptor txd;
	struct list_head node;
	enum soft_dma_desc_state state;
	bool started;
	bool aborted;
	enum dmaengine_tx_result result;
	ktime_t due;
	size_t len;
	size_t done;
	struct soft_dma_block *blocks;
	struct soft_dma_seg seg;
};

/**
 * struct soft_dma_stats - per-channel counters, under the channel lock
 * @prepared: descriptors prepared
 * @prep_failed: prep calls refused by fault injection
 * @submitted: descriptors submitted
 * @completed: descriptors completed, with or without error
 * @errors: descriptors completed with an error result
 * @aborted: descriptors dropped by terminate_all
 * @callbacks: completion callbacks invoked
 * @bytes: bytes copied
 * @busy_ns: time the engine spent on descriptors (copying or not)
 */
struct soft_dma_stats {
	u64 prepared;
	u64 prep_failed;
	u64 submitted;
	u64 completed;
	u64 errors;
	u64 aborted;
	u64 callbacks;
	u64 bytes;
	u64 busy_ns;
};

struct soft_dma_dev;

/**
 * struct soft_dma_chan - a channel and its engine
 * @chan: the dmaengine channel
 * @sd: the device
 * @index: channel index in the device
 * @name: dma_chan_name() at registration, valid after unregistration
 * @lock: protects everything below except @worker and @tasklet
 * @allocated: prepared descriptors, and idle reusable ones
 * @submitted: submitted, not issued
 * @issued: issued, waiting for the engine
 * @completed: complete, waiting for the tasklet
 * @unacked: complete, waiting for the client's ack
 * @active: the descriptor the engine copies, or NULL
 * @aborting: @active was terminated and the engine still holds it
 * @cb_running: the tasklet is completing descriptors
 * @dead: the device was unbound; no new work, queued work is aborted
 * @issued_cookie: the last cookie handed to the engine
 * @last_progress: when the engine last started or finished a descriptor,
 *	or got work while idle
 * @prep_count: prep calls, for fail_prep_every
 * @xfer_count: transfers, for error_every
 * @err_count: injected errors
 * @err_ring: the last failed cookies and their residue
 * @err_head: next slot of @err_ring
 * @err_nr: used slots of @err_ring
 * @abort_first: first cookie of the last terminated range
 * @abort_last: last cookie of the last terminated range
 * @abort_valid: @abort_first and @abort_last are set
 * @stats: counters
 * @work_wq: the worker waits here for issued work
 * @idle_wq: synchronize waits here for @aborting and @cb_running to clear
 * @worker: the channel's thread, while a client holds the channel
 * @tasklet: completes descriptors
 */
struct soft_dma_chan {
	struct dma_chan chan;
	struct soft_dma_dev *sd;
	unsigned int index;
	char name[32];

	spinlock_t lock;		/* the engine's state, lists, counters */
	struct list_head allocated;
	struct list_head submitted;
	struct list_head issued;
	struct list_head completed;
	struct list_head unacked;
	struct soft_dma_desc *active;
	bool aborting;
	bool cb_running;
	bool dead;
	dma_cookie_t issued_cookie;
	ktime_t last_progress;
	unsigned long prep_count;
	unsigned long xfer_count;
	unsigned long err_count;
	struct {
		dma_cookie_t cookie;
		u32 residue;
	} err_ring[SOFT_DMA_ERR_RING];
	unsigned int err_head;
	unsigned int err_nr;
	dma_cookie_t abort_first;
	dma_cookie_t abort_last;
	bool abort_valid;
	struct soft_dma_stats stats;

	wait_queue_head_t work_wq;
	wait_queue_head_t idle_wq;
	struct task_struct *worker;
	struct tasklet_struct tasklet;
};

/**
 * struct soft_dma_dev - a soft_dma device
 * @dma: the dmaengine device; freed by its device_release
 * @pdev: the platform device (a reference is held until release)
 * @node: on soft_dma_devs while bound
 * @reap_node: on soft_dma_reap_list after release
 * @stats: debugfs statistics file
 * @nr_chans: entries in @chans
 * @chans: the channels
 */
struct soft_dma_dev {
	struct dma_device dma;
	struct platform_device *pdev;
	struct list_head node;
	struct list_head reap_node;
	struct dentry *stats;
	unsigned int nr_chans;
	struct soft_dma_chan chans[];
};

/* Serializes soft_dma_devs against knob writes and the memcpy benchmark. */
static DEFINE_MUTEX(soft_dma_mutex);
static LIST_HEAD(soft_dma_devs);

/* Released devices wait here to be freed. */
static DEFINE_SPINLOCK(soft_dma_reap_lock);
static LIST_HEAD(soft_dma_reap_list);

static struct kmem_cache *soft_dma_desc_cache;
/* descriptors allocated and not yet freed, all devices: a leak check */
static atomic_long_t soft_dma_live_descs = ATOMIC_LONG_INIT(0);
static struct dentry *soft_dma_debugfs;
static struct platform_device *soft_dma_pdev;

static inline struct soft_dma_chan *to_soft_chan(struct dma_chan *chan)
{
	return container_of(chan, struct soft_dma_chan, chan);
}

static inline struct soft_dma_desc *to_soft_desc(struct dma_async_tx_descriptor *txd)
{
	return container_of(txd, struct soft_dma_desc, txd);
}

static inline struct device *soft_chan_dev(struct soft_dma_chan *sc)
{
	return sc->sd->dma.dev;
}

/* ------------------------------------------------------------------ */
/* Descriptors                                                         */
/* ------------------------------------------------------------------ */

static void soft_dma_desc_free(struct soft_dma_desc *d)
{
	struct soft_dma_block *b, *next;

	for (b = d->blocks; b; b = next) {
		next = b->next;
		kfree(b);
	}
	kmem_cache_free(soft_dma_desc_cache, d);
	atomic_long_dec(&soft_dma_live_descs);
}

static void soft_dma_free_list(struct list_head *head)
{
	struct soft_dma_desc *d, *n;

	list_for_each_entry_safe(d, n, head, node) {
		list_del(&d->node);
		soft_dma_desc_free(d);
	}
}

/* A descriptor goes back to the client for reuse, or to @free. */
static void soft_dma_desc_retire(struct soft_dma_chan *sc,
				 struct soft_dma_desc *d,
				 struct list_head *free)
{
	lockdep_assert_held(&sc->lock);

	if (dmaengine_desc_test_reuse(&d->txd)) {
		d->state = SOFT_DMA_ALLOCATED;
		d->started = false;
		d->aborted = false;
		d->result = DMA_TRANS_NOERROR;
		d->done = 0;
		list_move_tail(&d->node, &sc->allocated);
	} else {
		list_move_tail(&d->node, free);
	}
}

static dma_cookie_t soft_dma_tx_submit(struct dma_async_tx_descriptor *txd)
{
	struct soft_dma_chan *sc = to_soft_chan(txd->chan);
	struct soft_dma_desc *d = to_soft_desc(txd);
	dma_cookie_t cookie;
	unsigned long flags;

	spin_lock_irqsave(&sc->lock, flags);
	if (sc->dead) {
		cookie = -ENODEV;
	} else if (d->state != SOFT_DMA_ALLOCATED) {
		cookie = -EBUSY;
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

	if (cookie < 0)
		dev_dbg_ratelimited(soft_chan_dev(sc), "%s: submit refused: %d\n",
				    sc->name, cookie);
	return cookie;
}

/* dma_async_tx_descriptor::desc_free, for reusable descriptors */
static int soft_dma_tx_desc_free(struct dma_async_tx_descriptor *txd)
{
	struct soft_dma_chan *sc = to_soft_chan(txd->chan);
	struct soft_dma_desc *d = to_soft_desc(txd);
	unsigned long flags;

	spin_lock_irqsave(&sc->lock, flags);
	if (d->state != SOFT_DMA_ALLOCATED) {
		spin_unlock_irqrestore(&sc->lock, flags);
		return -EBUSY;
	}
	list_del(&d->node);
	spin_unlock_irqrestore(&sc->lock, flags);

	soft_dma_desc_free(d);
	return 0;
}

static bool soft_dma_should_fail_prep(size_t len)
{
#ifdef CONFIG_FAULT_INJECTION
	return should_fail(&soft_dma_fail_prep_attr, len);
#else
	return false;
#endif
}

static bool soft_dma_should_fail_xfer(size_t len)
{
#ifdef CONFIG_FAULT_INJECTION
	return should_fail(&soft_dma_fail_xfer_attr, len);
#else
	return false;
#endif
}

static struct soft_dma_desc *soft_dma_desc_alloc(struct soft_dma_chan *sc,
						 unsigned long flags)
{
	struct soft_dma_desc *d;

	d = kmem_cache_zalloc(soft_dma_desc_cache, GFP_NOWAIT | __GFP_NOWARN);
	if (!d)
		return NULL;
	atomic_long_inc(&soft_dma_live_descs);

	dma_async_tx_descriptor_init(&d->txd, &sc->chan);
	d->txd.flags = flags;
	d->txd.tx_submit = soft_dma_tx_submit;
	d->txd.desc_free = soft_dma_tx_desc_free;
	d->state = SOFT_DMA_ALLOCATED;
	INIT_LIST_HEAD(&d->node);
	return d;
}

/*
 * Hand a prepared descriptor to the client, unless the channel is gone or a
 * prep failure is injected: then it is freed and NULL returned.
 */
static struct dma_async_tx_descriptor *
soft_dma_prep_finish(struct soft_dma_chan *sc, struct soft_dma_desc *d)
{
	unsigned int every = soft_dma_knob(SOFT_DMA_FAIL_PREP_EVERY);
	bool inject = soft_dma_should_fail_prep(d->len);
	unsigned long flags;
	bool dead;

	spin_lock_irqsave(&sc->lock, flags);
	dead = sc->dead;
	sc->prep_count++;
	if (every && !(sc->prep_count % every))
		inject = true;
	if (dead || inject) {
		if (inject)
			sc->stats.prep_failed++;
		spin_unlock_irqrestore(&sc->lock, flags);
		dev_dbg_ratelimited(soft_chan_dev(sc), "%s: prep %s\n", sc->name,
				    dead ? "on an unbound device" :
				    "failure injected");
		soft_dma_desc_free(d);
		return NULL;
	}
	list_add_tail(&d->node, &sc->allocated);
	sc->stats.prepared++;
	spin_unlock_irqrestore(&sc->lock, flags);

	return &d->txd;
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

/*
 * A DMA address of the platform device is a physical address (see the top of
 * the file); it must be RAM with a struct page for the whole length.
 */
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

static struct dma_async_tx_descriptor *
soft_dma_prep_memcpy(struct dma_chan *chan, dma_addr_t dst, dma_addr_t src,
		     size_t len, unsigned long flags)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_desc *d;

	if (!soft_dma_seg_ok(sc, dst, src, len))
		return NULL;

	d = soft_dma_desc_alloc(sc, flags);
	if (!d)
		return NULL;

	d->seg.dst = dst;
	d->seg.src = src;
	d->seg.len = len;
	d->len = len;
	return soft_dma_prep_finish(sc, d);
}

#ifdef HAVE_DMA_MEMCPY_SG
/* Append a segment; the first one is inline in the descriptor. */
static bool soft_dma_add_seg(struct soft_dma_desc *d,
			     struct soft_dma_block **tail, unsigned int *nr,
			     dma_addr_t dst, dma_addr_t src, size_t len)
{
	struct soft_dma_seg *s;
	struct soft_dma_block *b = *tail;

	if (!*nr) {
		s = &d->seg;
	} else {
		if (!b || b->nr == SOFT_DMA_BLOCK_SEGS) {
			struct soft_dma_block *nb;

			nb = kmalloc(sizeof(*nb), GFP_NOWAIT | __GFP_NOWARN);
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
 * Load the next non-empty entry of a mapped scatterlist: *sg is the next
 * unread entry and *nents the mapped entries left. Returns 1 with *addr and
 * *left set, 0 at the end of the list, -EINVAL for an entry the channel
 * cannot copy.
 */
static int soft_dma_sg_load(struct soft_dma_chan *sc, struct scatterlist **sg,
			    unsigned int *nents, dma_addr_t *addr, size_t *left)
{
	struct device *dev = soft_chan_dev(sc);

	while (*sg && *nents) {
		struct scatterlist *cur = *sg;

		*sg = sg_next(cur);
		(*nents)--;
		*addr = sg_dma_address(cur);
		*left = sg_dma_len(cur);
		if (!*left)
			continue;
		if (*left > dma_get_max_seg_size(dev) ||
		    !is_dma_copy_aligned(&sc->sd->dma, *addr, 0,
					  *left) ||
		    !soft_dma_addr_ok(*addr, *left)) {
			dev_dbg_ratelimited(dev,
					    "%s: refused sg entry %pad len %zu\n",
					    sc->name, addr, *left);
			return -EINVAL;
		}
		return 1;
	}
	return 0;
}

/*
 * The lists need not have the same layout: the copy pairs them up piece by
 * piece and stops when either is exhausted.
 */
static struct dma_async_tx_descriptor *
soft_dma_prep_memcpy_sg(struct dma_chan *chan,
			struct scatterlist *dst_sg, unsigned int dst_nents,
			struct scatterlist *src_sg, unsigned int src_nents,
			unsigned long flags)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_block *tail = NULL;
	size_t dst_left, src_left;
	struct soft_dma_desc *d;
	dma_addr_t dst, src;
	unsigned int nr = 0;
	int ret;

	d = soft_dma_desc_alloc(sc, flags);
	if (!d)
		return NULL;

	if (soft_dma_sg_load(sc, &dst_sg, &dst_nents, &dst, &dst_left) <= 0 ||
	    soft_dma_sg_load(sc, &src_sg, &src_nents, &src, &src_left) <= 0)
		goto refuse;

	for (;;) {
		size_t len = min(dst_left, src_left);

		if (!soft_dma_add_seg(d, &tail, &nr, dst, src, len))
			goto refuse;
		dst += len;
		src += len;
		dst_left -= len;
		src_left -= len;
		if (!dst_left) {
			ret = soft_dma_sg_load(sc, &dst_sg, &dst_nents, &dst,
					       &dst_left);
			if (ret < 0)
				goto refuse;
			if (!ret)
				break;
		}
		if (!src_left) {
			ret = soft_dma_sg_load(sc, &src_sg, &src_nents, &src,
					       &src_left);
			if (ret < 0)
				goto refuse;
			if (!ret)
				break;
		}
	}
	return soft_dma_prep_finish(sc, d);

refuse:
	soft_dma_desc_free(d);
	return NULL;
}
#endif /* HAVE_DMA_MEMCPY_SG */

/* ------------------------------------------------------------------ */
/* The engine                                                          */
/* ------------------------------------------------------------------ */

static bool soft_dma_stalled(struct soft_dma_chan *sc)
{
	return !sc->dead &&
	       soft_dma_knob(SOFT_DMA_STALL_CHANNEL) == (int)sc->index;
}

/*
 * Take the descriptor at the head of the issued queue for the engine, if
 * the engine is free, the channel not stalled and its delay_us is over.
 * *wait is set to the time the head becomes due, if it is not yet.
 */
static struct soft_dma_desc *soft_dma_claim(struct soft_dma_chan *sc,
					    ktime_t *wait)
{
	struct soft_dma_desc *d;
	unsigned int every;

	lockdep_assert_held(&sc->lock);

	if (sc->active || soft_dma_stalled(sc))
		return NULL;
	d = list_first_entry_or_null(&sc->issued, struct soft_dma_desc, node);
	if (!d)
		return NULL;

	if (!d->started) {
		unsigned int delay = soft_dma_knob(SOFT_DMA_DELAY_US);

		d->started = true;
		d->due = delay && !sc->dead ? ktime_add_us(ktime_get(), delay) : 0;
	}
	if (d->due) {
		ktime_t now = ktime_get();

		if (ktime_before(now, d->due)) {
			*wait = d->due;
			return NULL;
		}
	}

	list_del_init(&d->node);
	d->state = SOFT_DMA_ACTIVE;
	sc->active = d;
	sc->last_progress = ktime_get();

	sc->xfer_count++;
	every = soft_dma_knob(SOFT_DMA_ERROR_EVERY);
	if (sc->dead) {
		d->result = DMA_TRANS_ABORTED;
	} else if (every && !(sc->xfer_count % every)) {
		sc->err_count++;
		d->result = sc->err_count & 1 ? DMA_TRANS_READ_FAILED :
						DMA_TRANS_WRITE_FAILED;
	}
	return d;
}

static void soft_dma_copy_phys(phys_addr_t dst, phys_addr_t src, size_t len)
{
#ifdef CONFIG_HIGHMEM
	while (len) {
		size_t n = min3(len, PAGE_SIZE - offset_in_page(dst),
				PAGE_SIZE - offset_in_page(src));
		void *d = kmap_local_pfn(PHYS_PFN(dst));
		void *s = kmap_local_pfn(PHYS_PFN(src));

		memcpy(d + offset_in_page(dst), s + offset_in_page(src), n);
		kunmap_local(s);
		kunmap_local(d);
		dst += n;
		src += n;
		len -= n;
	}
#else
	memcpy(phys_to_virt(dst), phys_to_virt(src), len);
#endif
}

/* Copy one segment in chunks; false if the descriptor was terminated. */
static bool soft_dma_copy_seg(struct soft_dma_desc *d,
			      const struct soft_dma_seg *s, bool may_sleep)
{
	size_t off = 0;

	while (off < s->len) {
		size_t n = min_t(size_t, s->len - off, SOFT_DMA_CHUNK);

		if (READ_ONCE(d->aborted))
			return false;
		soft_dma_copy_phys(s->dst + off, s->src + off, n);
		off += n;
		WRITE_ONCE(d->done, d->done + n);
		if (may_sleep)
			cond_resched();
	}
	return true;
}

static void soft_dma_copy_desc(struct soft_dma_desc *d, bool may_sleep)
{
	struct soft_dma_block *b;
	unsigned int i;

	if (!soft_dma_copy_seg(d, &d->seg, may_sleep))
		return;
	for (b = d->blocks; b; b = b->next)
		for (i = 0; i < b->nr; i++)
			if (!soft_dma_copy_seg(d, &b->seg[i], may_sleep))
				return;
}

static void soft_dma_record_error(struct soft_dma_chan *sc, dma_cookie_t cookie,
				  size_t residue)
{
	sc->err_ring[sc->err_head].cookie = cookie;
	sc->err_ring[sc->err_head].residue = min_t(size_t, residue, U32_MAX);
	sc->err_head = (sc->err_head + 1) % SOFT_DMA_ERR_RING;
	if (sc->err_nr < SOFT_DMA_ERR_RING)
		sc->err_nr++;
}

/*
 * Run a claimed descriptor to its end: copy it (unless a failure was
 * injected or nocopy is set), complete its cookie and queue it for the
 * tasklet. Called without the channel lock, by the worker (may_sleep) or by
 * a polling client.
 */
static void soft_dma_run(struct soft_dma_chan *sc, struct soft_dma_desc *d,
			 bool may_sleep)
{
	LIST_HEAD(free);
	unsigned long flags;
	ktime_t start = ktime_get();
	bool copy = !soft_dma_knob(SOFT_DMA_NOCOPY);
	size_t copied = 0;
	bool more;

	if (d->result == DMA_TRANS_NOERROR && soft_dma_should_fail_xfer(d->len))
		d->result = DMA_TRANS_READ_FAILED;

	if (d->result == DMA_TRANS_NOERROR) {
		if (copy) {
			soft_dma_copy_desc(d, may_sleep);
			copied = READ_ONCE(d->done);
		} else {
			WRITE_ONCE(d->done, d->len);
		}
	}

	spin_lock_irqsave(&sc->lock, flags);
	sc->active = NULL;
	sc->last_progress = ktime_get();
	sc->stats.busy_ns += ktime_to_ns(ktime_sub(sc->last_progress, start));
	sc->stats.bytes += copied;
	if (d->aborted) {
		/* terminate_all() took its cookie; no completion, no callback */
		sc->aborting = false;
		soft_dma_desc_retire(sc, d, &free);
		spin_unlock_irqrestore(&sc->lock, flags);
		wake_up_all(&sc->idle_wq);
		soft_dma_free_list(&free);
		return;
	}

	/* dma_cookie_complete() */
	sc->chan.completed_cookie = d->txd.cookie;
	if (d->result != DMA_TRANS_NOERROR) {
		soft_dma_record_error(sc, d->txd.cookie, d->len - d->done);
		sc->stats.errors++;
	}
	d->txd.cookie = 0;
	d->state = SOFT_DMA_DONE;
	list_add_tail(&d->node, &sc->completed);
	sc->stats.completed++;
	more = !list_empty(&sc->issued);
	spin_unlock_irqrestore(&sc->lock, flags);

	if (may_sleep) {
		/*
		 * The channel's thread, like an interrupt handler: the tasklet
		 * runs when bottom halves are enabled again, on this CPU,
		 * without a trip through ksoftirqd.
		 */
		local_bh_disable();
		tasklet_schedule(&sc->tasklet);
		local_bh_enable();
	} else {
		/*
		 * A polling client, maybe holding its own locks: the tasklet
		 * must not run from here, only as after an interrupt.
		 */
		tasklet_schedule(&sc->tasklet);
		if (more)
			wake_up(&sc->work_wq);
	}
}

static bool soft_dma_has_work(struct soft_dma_chan *sc)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&sc->lock, flags);
	ret = !sc->active && !list_empty(&sc->issued) && !soft_dma_stalled(sc);
	spin_unlock_irqrestore(&sc->lock, flags);
	return ret;
}

static int soft_dma_worker(void *arg)
{
	struct soft_dma_chan *sc = arg;

	while (!kthread_should_stop()) {
		struct soft_dma_desc *d;
		ktime_t wait = 0;

		spin_lock_irq(&sc->lock);
		d = soft_dma_claim(sc, &wait);
		spin_unlock_irq(&sc->lock);

		if (d) {
			soft_dma_run(sc, d, true);
			cond_resched();
		} else if (wait) {
			/* delay_us: kthread_stop() wakes us early */
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop())
				schedule_hrtimeout(&wait, HRTIMER_MODE_ABS);
			__set_current_state(TASK_RUNNING);
		} else {
			wait_event_interruptible(sc->work_wq,
						 soft_dma_has_work(sc) ||
						 kthread_should_stop());
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Completion                                                          */
/* ------------------------------------------------------------------ */

static void soft_dma_tasklet(struct tasklet_struct *t)
{
	struct soft_dma_chan *sc = from_tasklet(sc, t, tasklet);
	struct soft_dma_desc *d, *n;
	LIST_HEAD(done);
	LIST_HEAD(free);

	spin_lock_irq(&sc->lock);
	list_splice_tail_init(&sc->completed, &done);
	sc->cb_running = true;
	spin_unlock_irq(&sc->lock);

	list_for_each_entry_safe(d, n, &done, node) {
		struct dmaengine_result res = {
			.result = d->result,
			.residue = min_t(size_t, d->len - d->done, U32_MAX),
		};
		dma_async_tx_callback_result cb_result = NULL;
		dma_async_tx_callback cb = NULL;
		void *cb_param = NULL;
		bool reuse, release;

		if (d->txd.flags & DMA_PREP_INTERRUPT) {
			cb_result = d->txd.callback_result;
			cb = d->txd.callback;
			cb_param = d->txd.callback_param;
		}

		/*
		 * Decide where the descriptor goes before the callback: a
		 * reusable one may be submitted again from its own callback.
		 */
		spin_lock_irq(&sc->lock);
		reuse = dmaengine_desc_test_reuse(&d->txd);
		release = !reuse && async_tx_test_ack(&d->txd);
		if (reuse) {
			soft_dma_desc_retire(sc, d, &free);
		} else if (release) {
			list_del(&d->node);
		} else {
			d->state = SOFT_DMA_UNACKED;
			list_move_tail(&d->node, &sc->unacked);
		}
		if (cb_result || cb)
			sc->stats.callbacks++;
		spin_unlock_irq(&sc->lock);

		/* dmaengine_desc_callback_invoke() */
		if (cb_result)
			cb_result(cb_param, &res);
		else if (cb)
			cb(cb_param);

		if (release) {
			dma_run_dependencies(&d->txd);
			soft_dma_desc_free(d);
		}
	}

	/* Free what the client acked since it completed. */
	spin_lock_irq(&sc->lock);
	list_for_each_entry_safe(d, n, &sc->unacked, node)
		if (async_tx_test_ack(&d->txd))
			list_move_tail(&d->node, &free);
	sc->cb_running = false;
	spin_unlock_irq(&sc->lock);
	wake_up_all(&sc->idle_wq);

	list_for_each_entry(d, &free, node)
		dma_run_dependencies(&d->txd);
	soft_dma_free_list(&free);
}

/* ------------------------------------------------------------------ */
/* dma_device operations                                               */
/* ------------------------------------------------------------------ */

static void soft_dma_issue_pending(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	unsigned long flags;
	bool wake = false;

	spin_lock_irqsave(&sc->lock, flags);
	if (!list_empty(&sc->submitted)) {
		if (!sc->active && list_empty(&sc->issued))
			sc->last_progress = ktime_get();
		list_splice_tail_init(&sc->submitted, &sc->issued);
		sc->issued_cookie = chan->cookie;
		wake = true;
	}
	spin_unlock_irqrestore(&sc->lock, flags);

	if (wake)
		wake_up(&sc->work_wq);
}

static bool soft_dma_cookie_in(dma_cookie_t cookie, dma_cookie_t first,
			       dma_cookie_t last)
{
	if (first <= last)
		return cookie >= first && cookie <= last;
	return cookie >= first || cookie <= last;	/* wrapped */
}

static size_t soft_dma_residue(struct soft_dma_chan *sc, dma_cookie_t cookie)
{
	struct soft_dma_desc *d;

	if (sc->active && sc->active->txd.cookie == cookie)
		return sc->active->len - READ_ONCE(sc->active->done);
	list_for_each_entry(d, &sc->issued, node)
		if (d->txd.cookie == cookie)
			return d->len;
	list_for_each_entry(d, &sc->submitted, node)
		if (d->txd.cookie == cookie)
			return d->len;
	return 0;
}

static enum dma_status soft_dma_status(struct soft_dma_chan *sc,
				       dma_cookie_t cookie,
				       struct dma_tx_state *state)
{
	dma_cookie_t last, used;
	enum dma_status status;
	unsigned long flags;
	size_t residue = 0;
	size_t in_flight = 0;
	unsigned int i;

	spin_lock_irqsave(&sc->lock, flags);
	last = sc->chan.completed_cookie;
	used = sc->chan.cookie;
	status = dma_async_is_complete(cookie, last, used);
	if (status == DMA_COMPLETE) {
		for (i = 0; i < sc->err_nr; i++) {
			if (sc->err_ring[i].cookie == cookie) {
				status = DMA_ERROR;
				residue = sc->err_ring[i].residue;
				break;
			}
		}
		if (status == DMA_COMPLETE && sc->abort_valid &&
		    soft_dma_cookie_in(cookie, sc->abort_first, sc->abort_last))
			status = DMA_ERROR;
	} else if (state) {
		residue = soft_dma_residue(sc, cookie);
		if (sc->active)
			in_flight = sc->active->len - READ_ONCE(sc->active->done);
	}
	spin_unlock_irqrestore(&sc->lock, flags);

	if (state) {
		state->last = last;
		state->used = used;
		state->residue = min_t(size_t, residue, U32_MAX);
		state->in_flight_bytes = min_t(size_t, in_flight, U32_MAX);
	}
	return status;
}

/*
 * A polling client may run the engine itself: only for a cookie it issued,
 * when the channel's thread made no progress for SOFT_DMA_HELP_NS, and never
 * from hard interrupt context or with interrupts off.
 */
static struct soft_dma_desc *soft_dma_claim_for_poller(struct soft_dma_chan *sc,
						       dma_cookie_t cookie)
{
	struct soft_dma_desc *d = NULL;
	unsigned long flags;
	ktime_t wait = 0;

	spin_lock_irqsave(&sc->lock, flags);
	if (dma_async_is_complete(cookie, sc->chan.completed_cookie,
				  sc->issued_cookie) == DMA_IN_PROGRESS &&
	    ktime_to_ns(ktime_sub(ktime_get(), sc->last_progress)) >
	    SOFT_DMA_HELP_NS)
		d = soft_dma_claim(sc, &wait);
	spin_unlock_irqrestore(&sc->lock, flags);
	return d;
}

static enum dma_status soft_dma_tx_status(struct dma_chan *chan,
					  dma_cookie_t cookie,
					  struct dma_tx_state *state)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	enum dma_status status;
	struct soft_dma_desc *d;

	status = soft_dma_status(sc, cookie, state);
	if (status != DMA_IN_PROGRESS || in_hardirq() || in_nmi() ||
	    irqs_disabled())
		return status;

	while ((d = soft_dma_claim_for_poller(sc, cookie))) {
		soft_dma_run(sc, d, false);
		status = soft_dma_status(sc, cookie, state);
		if (status != DMA_IN_PROGRESS)
			break;
	}
	return status;
}

static int soft_dma_terminate_all(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_desc *d, *n;
	unsigned long flags;
	LIST_HEAD(head);
	LIST_HEAD(free);

	spin_lock_irqsave(&sc->lock, flags);
	list_splice_tail_init(&sc->submitted, &head);
	list_splice_tail_init(&sc->issued, &head);
	/* completed, callback not run yet: the callback is dropped too */
	list_splice_tail_init(&sc->completed, &head);
	if (sc->active) {
		WRITE_ONCE(sc->active->aborted, true);
		sc->aborting = true;
		sc->stats.aborted++;
	}
	/* whatever did not complete will not: report it as DMA_ERROR */
	if (chan->cookie != chan->completed_cookie) {
		sc->abort_first = chan->completed_cookie + 1;
		if (sc->abort_first < DMA_MIN_COOKIE)
			sc->abort_first = DMA_MIN_COOKIE;
		sc->abort_last = chan->cookie;
		sc->abort_valid = true;
		chan->completed_cookie = chan->cookie;
	}
	sc->issued_cookie = chan->cookie;
	list_for_each_entry_safe(d, n, &head, node) {
		if (d->state == SOFT_DMA_QUEUED)
			sc->stats.aborted++;
		soft_dma_desc_retire(sc, d, &free);
	}
	spin_unlock_irqrestore(&sc->lock, flags);

	soft_dma_free_list(&free);
	return 0;
}

static bool soft_dma_quiescent(struct soft_dma_chan *sc)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&sc->lock, flags);
	ret = !sc->aborting && !sc->cb_running;
	spin_unlock_irqrestore(&sc->lock, flags);
	return ret;
}

/*
 * After terminate_all(): wait until the engine let go of a terminated
 * descriptor and no callback runs any more.
 */
static void soft_dma_synchronize(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);

	might_sleep();
	wait_event(sc->idle_wq, soft_dma_quiescent(sc));
}

static int soft_dma_alloc_chan_resources(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct task_struct *worker;

	worker = kthread_create_on_node(soft_dma_worker, sc,
					dev_to_node(soft_chan_dev(sc)),
					"sdma/%s", sc->name);
	if (IS_ERR(worker))
		return PTR_ERR(worker);

	spin_lock_irq(&sc->lock);
	if (sc->dead) {
		spin_unlock_irq(&sc->lock);
		kthread_stop(worker);
		return -ENODEV;
	}
	/* dma_cookie_init() */
	chan->cookie = DMA_MIN_COOKIE;
	chan->completed_cookie = DMA_MIN_COOKIE;
	sc->issued_cookie = DMA_MIN_COOKIE;
	sc->err_head = 0;
	sc->err_nr = 0;
	sc->abort_valid = false;
	sc->prep_count = 0;
	sc->xfer_count = 0;
	sc->err_count = 0;
	sc->worker = worker;
	spin_unlock_irq(&sc->lock);

	wake_up_process(worker);
	return 0;
}

static void soft_dma_free_chan_resources(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	LIST_HEAD(free);

	soft_dma_terminate_all(chan);
	soft_dma_synchronize(chan);
	kthread_stop(sc->worker);
	sc->worker = NULL;
	tasklet_kill(&sc->tasklet);

	spin_lock_irq(&sc->lock);
	list_splice_tail_init(&sc->allocated, &free);
	list_splice_tail_init(&sc->unacked, &free);
	list_splice_tail_init(&sc->completed, &free);
	spin_unlock_irq(&sc->lock);
	soft_dma_free_list(&free);
}

/* ------------------------------------------------------------------ */
/* Release: the device outlives its unbinding while clients hold it    */
/* ------------------------------------------------------------------ */

static bool soft_dma_filter_none(struct dma_chan *chan, void *param)
{
	return false;
}

static void soft_dma_reap(struct work_struct *work)
{
	struct soft_dma_dev *sd, *n;
	dma_cap_mask_t mask;
	struct dma_chan *chan;
	LIST_HEAD(reap);

	spin_lock(&soft_dma_reap_lock);
	list_splice_init(&soft_dma_reap_list, &reap);
	spin_unlock(&soft_dma_reap_lock);
	if (list_empty(&reap))
		return;

	/*
	 * device_release runs under the dmaengine core's dma_list_mutex, and
	 * dma_release_channel() still writes to the channel after it returns,
	 * under that mutex. A channel request that matches nothing takes and
	 * drops the mutex, so the channels are freed after that.
	 */
	dma_cap_zero(mask);
	dma_cap_set(DMA_MEMCPY, mask);
	chan = dma_request_channel(mask, soft_dma_filter_none, NULL);
	if (WARN_ON_ONCE(chan))
		dma_release_channel(chan);

	list_for_each_entry_safe(sd, n, &reap, reap_node) {
		list_del(&sd->reap_node);
		put_device(&sd->pdev->dev);
		kfree(sd);
	}
}

static DECLARE_WORK(soft_dma_reap_work, soft_dma_reap);

/* dma_device::device_release: the last reference to the device is gone. */
static void soft_dma_release(struct dma_device *dma)
{
	struct soft_dma_dev *sd = container_of(dma, struct soft_dma_dev, dma);

	spin_lock(&soft_dma_reap_lock);
	list_add_tail(&sd->reap_node, &soft_dma_reap_list);
	spin_unlock(&soft_dma_reap_lock);
	schedule_work(&soft_dma_reap_work);
}

/* ------------------------------------------------------------------ */
/* debugfs                                                             */
/* ------------------------------------------------------------------ */

static int soft_dma_stats_show(struct seq_file *m, void *unused)
{
	struct soft_dma_dev *sd = m->private;
	unsigned int i;

	seq_puts(m, "channel prepared prep_failed submitted completed errors aborted callbacks bytes busy_ns\n");
	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];
		struct soft_dma_stats s;

		spin_lock_irq(&sc->lock);
		s = sc->stats;
		spin_unlock_irq(&sc->lock);
		seq_printf(m, "%s %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
			   sc->name, s.prepared, s.prep_failed, s.submitted,
			   s.completed, s.errors, s.aborted, s.callbacks,
			   s.bytes, s.busy_ns);
	}
	return 0;
}

static int soft_dma_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, soft_dma_stats_show, inode->i_private);
}

/* Any write resets the counters. */
static ssize_t soft_dma_stats_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct soft_dma_dev *sd = file_inode(file)->i_private;
	unsigned int i;

	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];

		spin_lock_irq(&sc->lock);
		memset(&sc->stats, 0, sizeof(sc->stats));
		spin_unlock_irq(&sc->lock);
	}
	return count;
}

static const struct file_operations soft_dma_stats_fops = {
	.owner = THIS_MODULE,
	.open = soft_dma_stats_open,
	.read = seq_read,
	.write = soft_dma_stats_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int soft_dma_knob_get(char *buf, size_t size, struct soft_dma_knob *k)
{
	return scnprintf(buf, size, "%d\n", READ_ONCE(k->val));
}

/* A knob changed: restart the fault counters, wake stalled engines. */
static void soft_dma_knob_changed(struct soft_dma_knob *k)
{
	struct soft_dma_dev *sd;
	unsigned int i;

	mutex_lock(&soft_dma_mutex);
	list_for_each_entry(sd, &soft_dma_devs, node) {
		for (i = 0; i < sd->nr_chans; i++) {
			struct soft_dma_chan *sc = &sd->chans[i];

			spin_lock_irq(&sc->lock);
			if (k == &soft_dma_knobs[SOFT_DMA_FAIL_PREP_EVERY])
				sc->prep_count = 0;
			if (k == &soft_dma_knobs[SOFT_DMA_ERROR_EVERY]) {
				sc->xfer_count = 0;
				sc->err_count = 0;
			}
			spin_unlock_irq(&sc->lock);
			wake_up(&sc->work_wq);
		}
	}
	mutex_unlock(&soft_dma_mutex);
}

static int soft_dma_knob_set(struct soft_dma_knob *k, const char *buf)
{
	bool b;
	int v;

	if (kstrtoint(buf, 0, &v)) {
		if (!k->is_bool || kstrtobool(buf, &b))
			return -EINVAL;
		v = b;
	}
	if (v < k->min || v > k->max)
		return -EINVAL;
	WRITE_ONCE(k->val, v);
	soft_dma_knob_changed(k);
	return 0;
}

static ssize_t soft_dma_knob_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char buf[16];
	int len = soft_dma_knob_get(buf, sizeof(buf), file->private_data);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t soft_dma_knob_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[16];
	int ret;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	ret = soft_dma_knob_set(file->private_data, strim(buf));
	return ret ? ret : count;
}

static const struct file_operations soft_dma_knob_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = soft_dma_knob_read,
	.write = soft_dma_knob_write,
	.llseek = default_llseek,
};

/*
 * memcpy_bench: the reference for soft_dma's throughput. Write "SIZE
 * [ITERATIONS [BUFFERS]]" to memcpy() SIZE bytes ITERATIONS times, as the
 * engine does, cycling through BUFFERS source/destination pairs (the working
 * set of the client being compared); read back the result.
 */
#define SOFT_DMA_BENCH_MAX_BYTES	SZ_1G

static struct {
	size_t size;
	unsigned int iterations;
	unsigned int buffers;
	u64 ns;
} soft_dma_bench;

static void soft_dma_bench_free(void **bufs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kvfree(bufs[i]);
	kfree(bufs);
}

static ssize_t soft_dma_bench_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int iterations = 32, buffers = 1, i;
	unsigned long size;
	char buf[64];
	void **bufs;
	ktime_t start;
	int n;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	n = sscanf(buf, "%lu %u %u", &size, &iterations, &buffers);
	if (n < 1 || !size || !iterations || iterations > 1000000 ||
	    !buffers || size > SOFT_DMA_BENCH_MAX_BYTES / 2 / buffers)
		return -EINVAL;

	bufs = kcalloc(2 * buffers, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	for (i = 0; i < 2 * buffers; i++) {
		bufs[i] = kvmalloc(size, GFP_KERNEL);
		if (!bufs[i]) {
			soft_dma_bench_free(bufs, i);
			return -ENOMEM;
		}
		memset(bufs[i], i & 1 ? 0xa5 : 0x5a, size);
	}
	/* warm up: one pass over the working set */
	for (i = 0; i < buffers; i++)
		memcpy(bufs[2 * i + 1], bufs[2 * i], size);

	mutex_lock(&soft_dma_mutex);
	start = ktime_get();
	for (i = 0; i < iterations; i++) {
		unsigned int b = i % buffers;

		memcpy(bufs[2 * b + 1], bufs[2 * b], size);
		cond_resched();
	}
	soft_dma_bench.ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	soft_dma_bench.size = size;
	soft_dma_bench.iterations = iterations;
	soft_dma_bench.buffers = buffers;
	mutex_unlock(&soft_dma_mutex);

	soft_dma_bench_free(bufs, 2 * buffers);
	return count;
}

static int soft_dma_bench_show(struct seq_file *m, void *unused)
{
	u64 bytes, ns, kbps = 0;

	mutex_lock(&soft_dma_mutex);
	bytes = (u64)soft_dma_bench.size * soft_dma_bench.iterations;
	ns = soft_dma_bench.ns;
	if (ns)
		kbps = mul_u64_u64_div_u64(bytes >> 10, NSEC_PER_SEC, ns);
	seq_printf(m, "size %zu iterations %u buffers %u ns %llu ns_per_copy %llu KB/s %llu\n",
		   soft_dma_bench.size, soft_dma_bench.iterations,
		   soft_dma_bench.buffers, ns,
		   soft_dma_bench.iterations ?
		   div_u64(ns, soft_dma_bench.iterations) : 0, kbps);
	mutex_unlock(&soft_dma_mutex);
	return 0;
}

static int soft_dma_bench_open(struct inode *inode, struct file *file)
{
	return single_open(file, soft_dma_bench_show, NULL);
}

static const struct file_operations soft_dma_bench_fops = {
	.owner = THIS_MODULE,
	.open = soft_dma_bench_open,
	.read = seq_read,
	.write = soft_dma_bench_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int soft_dma_descs_get(void *data, u64 *val)
{
	*val = atomic_long_read(&soft_dma_live_descs);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(soft_dma_descs_fops, soft_dma_descs_get, NULL,
			 "%llu\n");

static void soft_dma_debugfs_init(void)
{
	unsigned int i;

	soft_dma_debugfs = debugfs_create_dir(SOFT_DMA_NAME, NULL);
	for (i = 0; i < SOFT_DMA_NR_KNOBS; i++)
		debugfs_create_file(soft_dma_knobs[i].name, 0644,
				    soft_dma_debugfs, &soft_dma_knobs[i],
				    &soft_dma_knob_fops);
	debugfs_create_file("memcpy_bench", 0644, soft_dma_debugfs, NULL,
			    &soft_dma_bench_fops);
	debugfs_create_file_unsafe("descriptors", 0444, soft_dma_debugfs, NULL,
				   &soft_dma_descs_fops);
	debugfs_create_bool("memcpy_sg", 0444, soft_dma_debugfs,
			    &soft_dma_has_memcpy_sg);
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	fault_create_debugfs_attr("fail_prep", soft_dma_debugfs,
				  &soft_dma_fail_prep_attr);
	fault_create_debugfs_attr("fail_transfer", soft_dma_debugfs,
				  &soft_dma_fail_xfer_attr);
#endif
}

/* ------------------------------------------------------------------ */
/* Platform driver                                                     */
/* ------------------------------------------------------------------ */

static void soft_dma_chan_init(struct soft_dma_dev *sd, unsigned int index)
{
	struct soft_dma_chan *sc = &sd->chans[index];

	sc->sd = sd;
	sc->index = index;
	spin_lock_init(&sc->lock);
	INIT_LIST_HEAD(&sc->allocated);
	INIT_LIST_HEAD(&sc->submitted);
	INIT_LIST_HEAD(&sc->issued);
	INIT_LIST_HEAD(&sc->completed);
	INIT_LIST_HEAD(&sc->unacked);
	init_waitqueue_head(&sc->work_wq);
	init_waitqueue_head(&sc->idle_wq);
	tasklet_setup(&sc->tasklet, soft_dma_tasklet);
	sc->chan.device = &sd->dma;
	list_add_tail(&sc->chan.device_node, &sd->dma.channels);
}

static int soft_dma_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct soft_dma_dev *sd;
	struct dma_device *dma;
	unsigned int i;
	int ret;

	/* The copy engine reads DMA addresses as physical addresses. */
	if (device_iommu_mapped(dev) || dev->dma_range_map) {
		dev_err(dev, "DMA addresses are translated for this device: not supported\n");
		return -ENODEV;
	}
	if (cc_platform_has(CC_ATTR_MEM_ENCRYPT)) {
		dev_err(dev, "memory encryption is active: not supported\n");
		return -ENODEV;
	}
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	dma_set_max_seg_size(dev, max_seg_size);

	sd = kzalloc(struct_size(sd, chans, channels), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->pdev = pdev;
	sd->nr_chans = channels;
	INIT_LIST_HEAD(&sd->node);
	get_device(dev);

	dma = &sd->dma;
	dma->dev = dev;
	INIT_LIST_HEAD(&dma->channels);
	dma_cap_set(DMA_MEMCPY, dma->cap_mask);
	/* for clients that ask for it: never in the public channel table */
	dma_cap_set(DMA_PRIVATE, dma->cap_mask);
	dma->device_prep_dma_memcpy = soft_dma_prep_memcpy;
#ifdef HAVE_DMA_MEMCPY_SG
	dma_cap_set(DMA_MEMCPY_SG, dma->cap_mask);
	dma->device_prep_dma_memcpy_sg = soft_dma_prep_memcpy_sg;
#endif
	dma->copy_align = copy_align;
	dma->directions = BIT(DMA_MEM_TO_MEM);
	dma->residue_granularity = DMA_RESIDUE_GRANULARITY_SEGMENT;
	dma->descriptor_reuse = true;
	dma->device_alloc_chan_resources = soft_dma_alloc_chan_resources;
	dma->device_free_chan_resources = soft_dma_free_chan_resources;
	dma->device_tx_status = soft_dma_tx_status;
	dma->device_issue_pending = soft_dma_issue_pending;
	dma->device_terminate_all = soft_dma_terminate_all;
	dma->device_synchronize = soft_dma_synchronize;
	dma->device_release = soft_dma_release;

	for (i = 0; i < channels; i++)
		soft_dma_chan_init(sd, i);

	ret = dma_async_device_register(dma);
	if (ret) {
		dev_err(dev, "dma_async_device_register: %d\n", ret);
		put_device(dev);
		kfree(sd);
		return ret;
	}

	for (i = 0; i < channels; i++)
		strscpy(sd->chans[i].name, dma_chan_name(&sd->chans[i].chan),
			sizeof(sd->chans[i].name));
	platform_set_drvdata(pdev, sd);

	mutex_lock(&soft_dma_mutex);
	list_add_tail(&sd->node, &soft_dma_devs);
	mutex_unlock(&soft_dma_mutex);
	sd->stats = debugfs_create_file("stats", 0644, soft_dma_debugfs, sd,
					&soft_dma_stats_fops);

	dev_info(dev, "%u channels %s..%s, max_seg_size %u, copy_align %u%s\n",
		 channels, sd->chans[0].name, sd->chans[channels - 1].name,
		 dma_get_max_seg_size(dev), copy_align,
		 soft_dma_has_memcpy_sg ? ", memcpy_sg" : "");
	return 0;
}

static void soft_dma_remove(struct platform_device *pdev)
{
	struct soft_dma_dev *sd = platform_get_drvdata(pdev);
	unsigned int i;

	debugfs_remove(sd->stats);
	mutex_lock(&soft_dma_mutex);
	list_del_init(&sd->node);
	mutex_unlock(&soft_dma_mutex);

	/*
	 * Clients may still hold channels: refuse new work and let the
	 * engines abort what is queued (DMA_TRANS_ABORTED) in order.
	 */
	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];

		spin_lock_irq(&sc->lock);
		sc->dead = true;
		spin_unlock_irq(&sc->lock);
		wake_up(&sc->work_wq);
	}

	/* frees sd through soft_dma_release() once no client holds it */
	dma_async_device_unregister(&sd->dma);
}

static struct platform_driver soft_dma_driver = {
	.driver = {
		.name = SOFT_DMA_NAME,
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
	},
	.probe = soft_dma_probe,
	DMA_BENCH_PLATFORM_REMOVE(soft_dma_remove),
};

static int __init soft_dma_init(void)
{
	int ret;

	if (!channels || channels > SOFT_DMA_MAX_CHANNELS ||
	    max_seg_size < PAGE_SIZE || copy_align > PAGE_SHIFT) {
		pr_err("channels=%u max_seg_size=%u copy_align=%u out of range\n",
		       channels, max_seg_size, copy_align);
		return -EINVAL;
	}

	soft_dma_desc_cache = KMEM_CACHE(soft_dma_desc, 0);
	if (!soft_dma_desc_cache)
		return -ENOMEM;
	soft_dma_debugfs_init();

	ret = platform_driver_register(&soft_dma_driver);
	if (ret)
		goto err_debugfs;

	soft_dma_pdev = platform_device_register_simple(SOFT_DMA_NAME, 0,
							NULL, 0);
	if (IS_ERR(soft_dma_pdev)) {
		ret = PTR_ERR(soft_dma_pdev);
		goto err_driver;
	}
	if (!platform_get_drvdata(soft_dma_pdev)) {
		ret = -ENODEV;
		goto err_device;
	}
	return 0;

err_device:
	platform_device_unregister(soft_dma_pdev);
err_driver:
	platform_driver_unregister(&soft_dma_driver);
	flush_work(&soft_dma_reap_work);
err_debugfs:
	debugfs_remove_recursive(soft_dma_debugfs);
	kmem_cache_destroy(soft_dma_desc_cache);
	return ret;
}
module_init(soft_dma_init);

static void __exit soft_dma_exit(void)
{
	platform_device_unregister(soft_dma_pdev);
	platform_driver_unregister(&soft_dma_driver);
	/* devices released by the last client are freed by the reaper */
	flush_work(&soft_dma_reap_work);
	debugfs_remove_recursive(soft_dma_debugfs);
	kmem_cache_destroy(soft_dma_desc_cache);
}
module_exit(soft_dma_exit);

MODULE_DESCRIPTION("Software DMA engine: memcpy channels that copy with the CPU");
MODULE_LICENSE("GPL");
