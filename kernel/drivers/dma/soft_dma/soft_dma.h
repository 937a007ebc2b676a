/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * soft_dma: a dmaengine provider whose "hardware" is the CPU. The parts:
 *   main.c     parameters, platform driver, probe/remove, device lifetime
 *   prep.c     descriptors, prep and tx_submit, the descriptor pool
 *   engine.c   issue, the channel's copy thread, completion, tx_status,
 *              terminate
 *   debugfs.c  run-time knobs and counters
 *
 * What an out-of-tree build forces, said here once: a module built against
 * a distribution's headers package (Debian's linux-headers-*) has neither
 * drivers/dma/dmaengine.h nor drivers/dma/virt-dma.h, so the cookie and
 * callback helpers of the one and the descriptor lists of the other are
 * written out here (prep.c, engine.c) in their terms; the dmaengine core's
 * dma_list_mutex is not exported, so the release path takes and drops it
 * through a channel request that matches nothing before freeing a device
 * (main.c, soft_dma_reap()); and Debian's kernels are built without
 * CONFIG_FAULT_INJECTION, so the injected failures are every-Nth counters
 * (fail_prep_every, fail_submit_every, error_every) rather than a struct
 * fault_attr. In tree,
 * each of these would be the kernel's own.
 */
#ifndef _SOFT_DMA_H
#define _SOFT_DMA_H

#include <linux/dmaengine.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "compat.h"

#define SOFT_DMA_NAME		"soft_dma"
#define SOFT_DMA_MAX_CHANNELS	256
#define SOFT_DMA_MAX_DEVICES	16
/* cookies of the last failed transfers tx_status() reports as DMA_ERROR */
#define SOFT_DMA_ERR_RING	64
/* the longest stall_ms: ten minutes */
#define SOFT_DMA_MAX_STALL_MS	600000
/*
 * no_synchronize: how long after terminate_all the callback of the
 * descriptor the engine held then comes, at the least
 */
#define SOFT_DMA_LATE_CB_MS	20

/* Load-time parameters (main.c). */
extern unsigned int soft_dma_channels;
extern bool soft_dma_prep_lock;
extern bool soft_dma_no_order;
extern unsigned int soft_dma_pool_size;
extern bool soft_dma_no_terminate;
extern bool soft_dma_no_synchronize;
extern unsigned int soft_dma_stall_ms;

/**
 * struct soft_dma_knobs - run-time knobs, debugfs files (debugfs.c)
 * @nocopy: complete descriptors without copying
 * @delay_us: time a descriptor waits at the head of its channel
 * @fail_prep_every: every Nth prep call of a channel returns NULL
 * @fail_submit_every: every Nth tx_submit() of a channel fails with -EIO
 * @error_every: every Nth transfer of a channel fails
 * @stall_channel: index of a channel that completes nothing, or -1
 *
 * Each bound device has its own (soft_dma_dev::knobs), read by its engines
 * and prep calls with READ_ONCE(). soft_dma_knob_defaults, the top-level
 * files, is what a device starts with when it binds.
 */
struct soft_dma_knobs {
	bool nocopy;
	u32 delay_us;
	u32 fail_prep_every;
	u32 fail_submit_every;
	u32 error_every;
	int stall_channel;
};

/* the top-level debugfs files: the knobs a device binds with (debugfs.c) */
extern struct soft_dma_knobs soft_dma_knob_defaults;

/* Which knob a debugfs file is: the fields of struct soft_dma_knobs. */
enum soft_dma_knob {
	SOFT_DMA_KNOB_NOCOPY,
	SOFT_DMA_KNOB_DELAY_US,
	SOFT_DMA_KNOB_FAIL_PREP_EVERY,
	SOFT_DMA_KNOB_FAIL_SUBMIT_EVERY,
	SOFT_DMA_KNOB_ERROR_EVERY,
	SOFT_DMA_KNOB_STALL_CHANNEL,
	SOFT_DMA_NR_KNOBS,
};

struct soft_dma_dev;

/**
 * struct soft_dma_knob_file - what a knob's debugfs file sets
 * @sd: the device, or NULL for a top-level file (the defaults, and every
 *	bound device)
 * @knob: which knob
 */
struct soft_dma_knob_file {
	struct soft_dma_dev *sd;
	enum soft_dma_knob knob;
};

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
 * Where a descriptor is. ALLOCATED: prepared, on ->allocated; QUEUED:
 * submitted or issued; ACTIVE: the engine copies it; DONE: complete, not
 * retired yet, on ->completed; UNACKED: retired, the client has not acked
 * it yet, on ->unacked. A terminated descriptor whose callback still comes
 * (no_synchronize) is DONE on ->late.
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
 * @late: no_synchronize: terminated while the engine held it, and its
 *	callback still comes, at @late_due or when the engine lets go of it
 * @prep_locked: prep returned with the channel's prep_lock held for it
 * @result: how the transfer ended
 * @group_last: no_order: on the oldest descriptor of an issued group, the
 *	newest cookie of the group (all of it is complete when this one is)
 * @due: when the engine may copy it (delay_us)
 * @late_due: @late: the earliest time its callback comes
 * @len: bytes to copy
 * @done: bytes copied so far
 * @blocks: segments after @seg (memcpy_sg, memcpy_vec), or NULL
 * @seg: the first segment
 */
struct soft_dma_desc {
	struct dma_async_tx_descriptor txd;
	struct list_head node;
	enum soft_dma_desc_state state;
	bool started;
	bool aborted;
	bool late;
	bool prep_locked;
	enum dmaengine_tx_result result;
	dma_cookie_t group_last;
	ktime_t due;
	ktime_t late_due;
	size_t len;
	size_t done;
	struct soft_dma_block *blocks;
	struct soft_dma_seg seg;
};

/**
 * struct soft_dma_stats - per-channel counters, under the channel lock
 * @prepared: descriptors prepared
 * @prep_failed: prep calls failed by fail_prep_every
 * @pool_empty: prep calls refused because pool_size descriptors were out
 * @submitted: descriptors submitted
 * @completed: descriptors completed, with or without error
 * @errors: descriptors completed with an error result
 * @aborted: descriptors dropped by terminate_all
 * @interrupts: interrupts raised: completions of DMA_PREP_INTERRUPT ones
 * @callbacks: completion callbacks invoked
 * @out_of_order: completions before an older descriptor of the channel
 * @bytes: bytes copied
 * @busy_ns: time the engine spent on descriptors (copying or not)
 * @submit_failed: tx_submit() calls failed by fail_submit_every
 * @stalls: descriptors held stall_ms by the engine (at most one a channel)
 * @late_callbacks: no_synchronize: callbacks of terminated descriptors,
 *	called after terminate_all returned
 */
struct soft_dma_stats {
	u64 prepared;
	u64 prep_failed;
	u64 pool_empty;
	u64 submitted;
	u64 completed;
	u64 errors;
	u64 aborted;
	u64 interrupts;
	u64 callbacks;
	u64 out_of_order;
	u64 bytes;
	u64 busy_ns;
	u64 submit_failed;
	u64 stalls;
	u64 late_callbacks;
};

/**
 * struct soft_dma_chan - a channel and its engine
 * @chan: the dmaengine channel
 * @sd: the device
 * @index: channel index in the device
 * @name: dma_chan_name() at registration, valid after unregistration
 * @prep_lock: prep_lock=1: held from prep to that descriptor's tx_submit
 * @prep_owner: the task holding @prep_lock
 * @descs: descriptors allocated on the channel (pool_size)
 * @lock: protects everything below except @worker and @tasklet
 * @allocated: prepared descriptors
 * @submitted: submitted, not issued
 * @issued: issued, waiting for the engine
 * @completed: complete, waiting to be retired
 * @unacked: retired, waiting for the client's ack
 * @late: terminated, their callbacks still to come (no_synchronize)
 * @active: the descriptor the engine copies, or NULL
 * @aborting: @active was terminated and the engine still holds it
 * @cb_running: the tasklet is retiring descriptors
 * @dead: the device was unbound; no new work, queued work is aborted
 * @stall_armed: stall_ms: the next descriptor the engine runs stalls; set
 *	when the device binds, cleared by the first descriptor
 * @prep_count: prep calls, for fail_prep_every
 * @submit_count: tx_submit() calls, for fail_submit_every
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
 *	and @late to empty
 * @worker: the channel's thread, while a client holds the channel
 * @tasklet: the interrupt's bottom half: retires completed descriptors
 */
struct soft_dma_chan {
	struct dma_chan chan;
	struct soft_dma_dev *sd;
	unsigned int index;
	char name[32];

	spinlock_t prep_lock;		/* see @prep_lock above */
	struct task_struct *prep_owner;
	atomic_t descs;

	spinlock_t lock;		/* the engine's state, lists, counters */
	struct list_head allocated;
	struct list_head submitted;
	struct list_head issued;
	struct list_head completed;
	struct list_head unacked;
	struct list_head late;
	struct soft_dma_desc *active;
	bool aborting;
	bool cb_running;
	bool dead;
	bool stall_armed;
	unsigned long prep_count;
	unsigned long submit_count;
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
 * @reap_node: on the reap list after release
 * @debugfs: the device's debugfs directory, soft_dma/<dev_name>/, with its
 *	"stats" and its knobs: each bound device has its own
 * @knobs: the device's run-time knobs; set under soft_dma_mutex
 * @knob_files: what each of the device's knob files sets
 * @nr_chans: entries in @chans
 * @chans: the channels
 */
struct soft_dma_dev {
	struct dma_device dma;
	struct platform_device *pdev;
	struct list_head node;
	struct list_head reap_node;
	struct dentry *debugfs;
	struct soft_dma_knobs knobs;
	struct soft_dma_knob_file knob_files[SOFT_DMA_NR_KNOBS];
	unsigned int nr_chans;
	struct soft_dma_chan chans[];
};

/* main.c: bound devices, and every device's knobs, under soft_dma_mutex */
extern struct mutex soft_dma_mutex;
extern struct list_head soft_dma_devs;

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

/* prep.c */
int soft_dma_prep_init(void);
void soft_dma_prep_exit(void);
long soft_dma_live_descs(void);
void soft_dma_desc_free(struct soft_dma_desc *d);
void soft_dma_free_list(struct list_head *head);
struct dma_async_tx_descriptor *
soft_dma_prep_memcpy(struct dma_chan *chan, dma_addr_t dst, dma_addr_t src,
		     size_t len, unsigned long flags);
struct dma_async_tx_descriptor *
soft_dma_prep_memcpy_sg(struct dma_chan *chan,
			struct scatterlist *dst_sg, unsigned int dst_nents,
			struct scatterlist *src_sg, unsigned int src_nents,
			unsigned long flags);
#ifdef HAVE_DMA_MEMCPY_VEC
struct dma_async_tx_descriptor *
soft_dma_prep_memcpy_vec(struct dma_chan *chan,
			 const struct dma_vec *dst_vecs, size_t dst_nents,
			 const struct dma_vec *src_vecs, size_t src_nents,
			 unsigned long flags);
#endif

/* engine.c */
void soft_dma_chan_init(struct soft_dma_dev *sd, unsigned int index);
void soft_dma_issue_pending(struct dma_chan *chan);
enum dma_status soft_dma_tx_status(struct dma_chan *chan, dma_cookie_t cookie,
				   struct dma_tx_state *state);
void soft_dma_abort_cookies(struct soft_dma_chan *sc);
int soft_dma_terminate_all(struct dma_chan *chan);
void soft_dma_synchronize(struct dma_chan *chan);
int soft_dma_alloc_chan_resources(struct dma_chan *chan);
void soft_dma_free_chan_resources(struct dma_chan *chan);
void soft_dma_kick(struct soft_dma_chan *sc);

/* debugfs.c */
void soft_dma_debugfs_init(void);
void soft_dma_debugfs_exit(void);
struct dentry *soft_dma_debugfs_add_dev(struct soft_dma_dev *sd);

#endif /* _SOFT_DMA_H */
