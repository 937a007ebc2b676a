// SPDX-License-Identifier: GPL-2.0-only
/*
 * The soft_dma engine: issue, the channel's copy thread, completion and
 * retirement, tx_status, terminate.
 *
 * A channel is modelled on a ring-based engine. issue_pending() hands what
 * was submitted to the channel's thread, which copies one descriptor at a
 * time and completes its cookie. Only a descriptor prepared with
 * DMA_PREP_INTERRUPT raises an "interrupt" when it completes: the channel's
 * tasklet then retires everything completed so far, in completion order,
 * calling the callbacks they carry. The others retire lazily: at the next
 * interrupt, or when the client asks tx_status(), which retires the
 * completed descriptors that carry no callback, and never copies.
 *
 * stall_ms holds the first descriptor a channel's engine runs that long
 * (soft_dma_stall()); no_synchronize delivers the callback of the
 * descriptor the engine held at terminate_all after terminate_all returned
 * (soft_dma_late_irq()).
 */

#include <linux/highmem.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "soft_dma.h"

/* a copy is split in chunks of this size to notice terminate_all() */
#define SOFT_DMA_CHUNK		SZ_1M

static void soft_dma_tasklet(struct tasklet_struct *t);

void soft_dma_chan_init(struct soft_dma_dev *sd, unsigned int index)
{
	struct soft_dma_chan *sc = &sd->chans[index];

	sc->sd = sd;
	sc->index = index;
	/* one lock class for every channel's prep_lock, as ioat's */
	spin_lock_init(&sc->prep_lock);
	spin_lock_init(&sc->lock);
	INIT_LIST_HEAD(&sc->allocated);
	INIT_LIST_HEAD(&sc->submitted);
	INIT_LIST_HEAD(&sc->issued);
	INIT_LIST_HEAD(&sc->completed);
	INIT_LIST_HEAD(&sc->unacked);
	INIT_LIST_HEAD(&sc->late);
	sc->stall_armed = soft_dma_stall_ms != 0;
	init_waitqueue_head(&sc->work_wq);
	init_waitqueue_head(&sc->idle_wq);
	tasklet_setup(&sc->tasklet, soft_dma_tasklet);
	sc->chan.device = &sd->dma;
	list_add_tail(&sc->chan.device_node, &sd->dma.channels);
}

/* ------------------------------------------------------------------ */
/* The channel's thread                                                */
/* ------------------------------------------------------------------ */

static bool soft_dma_stalled(struct soft_dma_chan *sc)
{
	return !sc->dead &&
	       READ_ONCE(sc->sd->knobs.stall_channel) == (int)sc->index;
}

/*
 * Take the descriptor at the head of the issued queue, if the channel is
 * not stalled and its delay_us is over; *wait is set to the time the head
 * becomes due, if it is not yet.
 */
static struct soft_dma_desc *soft_dma_claim(struct soft_dma_chan *sc,
					    ktime_t *wait)
{
	struct soft_dma_desc *d;
	unsigned int every;

	lockdep_assert_held(&sc->lock);

	if (soft_dma_stalled(sc))
		return NULL;
	d = list_first_entry_or_null(&sc->issued, struct soft_dma_desc, node);
	if (!d)
		return NULL;

	if (!d->started) {
		unsigned int delay = READ_ONCE(sc->sd->knobs.delay_us);

		d->started = true;
		d->due = delay && !sc->dead ? ktime_add_us(ktime_get(), delay) : 0;
	}
	if (d->due && ktime_before(ktime_get(), d->due)) {
		*wait = d->due;
		return NULL;
	}

	list_del_init(&d->node);
	d->state = SOFT_DMA_ACTIVE;
	sc->active = d;

	sc->xfer_count++;
	every = READ_ONCE(sc->sd->knobs.error_every);
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
			      const struct soft_dma_seg *s)
{
	size_t off = 0;

	while (off < s->len) {
		size_t n = min_t(size_t, s->len - off, SOFT_DMA_CHUNK);

		if (READ_ONCE(d->aborted))
			return false;
		soft_dma_copy_phys(s->dst + off, s->src + off, n);
		off += n;
		WRITE_ONCE(d->done, d->done + n);
		cond_resched();
	}
	return true;
}

/* The same path for a descriptor of memcpy (one segment) and memcpy_sg. */
static void soft_dma_copy_desc(struct soft_dma_desc *d)
{
	struct soft_dma_block *b;
	unsigned int i;

	if (!soft_dma_copy_seg(d, &d->seg))
		return;
	for (b = d->blocks; b; b = b->next)
		for (i = 0; i < b->nr; i++)
			if (!soft_dma_copy_seg(d, &b->seg[i]))
				return;
}

/*
 * stall_ms: the first descriptor the channel runs is held that long before
 * it is copied and completes, as by an engine stuck on it. terminate_all
 * (the client's, or the reset of the channel's release) and the device's
 * unbind end the stall at once; with no_terminate a client has no
 * terminate_all, and the descriptor runs to its end. The stall holds this
 * channel's thread only: the other channels run on. The thread sleeps
 * interruptibly, so a stall of minutes is no hung task.
 */
static void soft_dma_stall(struct soft_dma_chan *sc, struct soft_dma_desc *d)
{
	bool stall;

	/* only the channel's thread reads and clears it */
	if (!sc->stall_armed)
		return;
	sc->stall_armed = false;

	spin_lock_irq(&sc->lock);
	stall = !sc->dead && !d->aborted;
	if (stall)
		sc->stats.stalls++;
	spin_unlock_irq(&sc->lock);
	if (!stall)
		return;

	wait_event_interruptible_timeout(sc->work_wq,
					 READ_ONCE(d->aborted) ||
					 READ_ONCE(sc->dead) ||
					 kthread_should_stop(),
					 msecs_to_jiffies(soft_dma_stall_ms));
	/* unbound meanwhile: it completes without copying, as queued work */
	if (READ_ONCE(sc->dead) && d->result == DMA_TRANS_NOERROR)
		d->result = DMA_TRANS_ABORTED;
}

/*
 * no_synchronize: a descriptor terminated while the engine held it, whose
 * callback the driver had taken already, as pl330's tasklet takes a
 * completed descriptor's callback under the channel lock and calls it
 * after dropping the lock, where pl330_terminate_all() cannot stop it.
 * Its interrupt comes SOFT_DMA_LATE_CB_MS after the terminate_all, and the
 * tasklet calls its callback then, with DMA_TRANS_ABORTED: after
 * terminate_all, and a dmaengine_terminate_sync() that has nothing to
 * synchronize with, returned. The engine waits for it (the channel's next
 * descriptor as well), so that the window is the same every time.
 */
static void soft_dma_late_irq(struct soft_dma_chan *sc, ktime_t due)
{
	while (ktime_before(ktime_get(), due)) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout(&due, HRTIMER_MODE_ABS);
		__set_current_state(TASK_RUNNING);
	}
	local_bh_disable();
	tasklet_schedule(&sc->tasklet);
	local_bh_enable();
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
 * injected or nocopy is set), complete its cookie, and raise an interrupt
 * if it asked for one.
 */
static void soft_dma_run(struct soft_dma_chan *sc, struct soft_dma_desc *d)
{
	ktime_t start = ktime_get();
	ktime_t late_due = 0;
	size_t copied = 0;
	bool interrupt;

	soft_dma_stall(sc, d);
	if (d->result == DMA_TRANS_NOERROR) {
		if (!READ_ONCE(sc->sd->knobs.nocopy)) {
			soft_dma_copy_desc(d);
			copied = READ_ONCE(d->done);
		} else if (!READ_ONCE(d->aborted)) {
			WRITE_ONCE(d->done, d->len);
		}
	}

	spin_lock_irq(&sc->lock);
	sc->active = NULL;
	sc->stats.busy_ns += ktime_to_ns(ktime_sub(ktime_get(), start));
	sc->stats.bytes += copied;
	if (d->aborted) {
		/* terminate_all() took its cookie: no completion */
		sc->aborting = false;
		if (d->late) {
			/* no_synchronize: but its callback is still to come */
			d->result = DMA_TRANS_ABORTED;
			d->state = SOFT_DMA_DONE;
			list_add_tail(&d->node, &sc->late);
			late_due = d->late_due;
		}
		spin_unlock_irq(&sc->lock);
		wake_up_all(&sc->idle_wq);
		if (late_due)
			soft_dma_late_irq(sc, late_due);
		else
			soft_dma_desc_free(d);
		return;
	}

	/* dma_cookie_complete(), for the whole group when out of order */
	if (!soft_dma_no_order)
		sc->chan.completed_cookie = d->txd.cookie;
	else if (d->group_last)
		sc->chan.completed_cookie = d->group_last;
	else
		sc->stats.out_of_order++;
	if (d->result != DMA_TRANS_NOERROR) {
		soft_dma_record_error(sc, d->txd.cookie, d->len - d->done);
		sc->stats.errors++;
	}
	d->txd.cookie = 0;
	d->state = SOFT_DMA_DONE;
	list_add_tail(&d->node, &sc->completed);
	sc->stats.completed++;
	interrupt = d->txd.flags & DMA_PREP_INTERRUPT;
	if (interrupt)
		sc->stats.interrupts++;
	spin_unlock_irq(&sc->lock);

	if (interrupt) {
		/*
		 * The thread stands for the hardware and its interrupt
		 * handler: the tasklet runs when bottom halves are enabled
		 * again, on this CPU.
		 */
		local_bh_disable();
		tasklet_schedule(&sc->tasklet);
		local_bh_enable();
	}
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
			soft_dma_run(sc, d);
			cond_resched();
		} else if (wait) {
			/* delay_us: kthread_stop() wakes us early */
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop())
				schedule_hrtimeout(&wait, HRTIMER_MODE_ABS);
			__set_current_state(TASK_RUNNING);
		} else {
			wait_event_interruptible(sc->work_wq,
						 (!list_empty(&sc->issued) &&
						  !soft_dma_stalled(sc)) ||
						 kthread_should_stop());
		}
	}
	return 0;
}

/* A knob changed: let the engine look at its queue again. */
void soft_dma_kick(struct soft_dma_chan *sc)
{
	wake_up(&sc->work_wq);
}

/* ------------------------------------------------------------------ */
/* Retirement                                                          */
/* ------------------------------------------------------------------ */

static bool soft_dma_has_callback(struct soft_dma_desc *d)
{
	return d->txd.callback || d->txd.callback_result;
}

static void soft_dma_free_retired(struct list_head *free)
{
	struct soft_dma_desc *d;

	list_for_each_entry(d, free, node)
		dma_run_dependencies(&d->txd);
	soft_dma_free_list(free);
}

/*
 * Retire completed descriptors in completion order: call the callbacks
 * they carry, free the acked ones. From the tasklet (@irq) all of them;
 * from tx_status() only those at the head that carry no callback:
 * callbacks run only after an interrupt. What retired before a callback is
 * freed before it is called: the client the callback wakes does not pay
 * for the cleanup of its last batch in its next one.
 */
static void soft_dma_retire(struct soft_dma_chan *sc, bool irq)
{
	struct soft_dma_desc *d, *n;
	unsigned long flags;
	LIST_HEAD(free);

	spin_lock_irqsave(&sc->lock, flags);
	if (sc->cb_running) {
		spin_unlock_irqrestore(&sc->lock, flags);
		return;
	}
	sc->cb_running = irq;
	/*
	 * no_synchronize: terminated descriptors whose callbacks still come,
	 * each at its time: an interrupt of an earlier descriptor does not
	 * bring it forward (soft_dma_late_irq() schedules this then)
	 */
	while (irq && (d = list_first_entry_or_null(&sc->late,
						    struct soft_dma_desc, node))) {
		struct dmaengine_result res = {
			.result = d->result,
			.residue = min_t(size_t, d->len - d->done, U32_MAX),
		};

		if (ktime_before(ktime_get(), d->late_due))
			break;
		list_del_init(&d->node);
		sc->stats.callbacks++;
		sc->stats.late_callbacks++;
		spin_unlock_irqrestore(&sc->lock, flags);

		if (d->txd.callback_result)
			d->txd.callback_result(d->txd.callback_param, &res);
		else
			d->txd.callback(d->txd.callback_param);
		soft_dma_desc_free(d);
		spin_lock_irqsave(&sc->lock, flags);
	}
	while ((d = list_first_entry_or_null(&sc->completed,
					     struct soft_dma_desc, node))) {
		struct dmaengine_result res = {
			.result = d->result,
			.residue = min_t(size_t, d->len - d->done, U32_MAX),
		};
		dma_async_tx_callback_result cb_result;
		dma_async_tx_callback cb;
		void *cb_param;
		bool release;

		if (!irq && soft_dma_has_callback(d))
			break;
		release = async_tx_test_ack(&d->txd);
		if (release) {
			list_del_init(&d->node);
		} else {
			d->state = SOFT_DMA_UNACKED;
			list_move_tail(&d->node, &sc->unacked);
		}
		if (!soft_dma_has_callback(d)) {
			if (release)
				list_add_tail(&d->node, &free);
			continue;
		}
		sc->stats.callbacks++;
		cb_result = d->txd.callback_result;
		cb = d->txd.callback;
		cb_param = d->txd.callback_param;
		spin_unlock_irqrestore(&sc->lock, flags);

		soft_dma_free_retired(&free);
		/* dmaengine_desc_callback_invoke() */
		if (cb_result)
			cb_result(cb_param, &res);
		else
			cb(cb_param);
		if (release) {
			dma_run_dependencies(&d->txd);
			soft_dma_desc_free(d);
		}
		spin_lock_irqsave(&sc->lock, flags);
	}
	if (irq) {
		/* free what the client acked since it was retired */
		list_for_each_entry_safe(d, n, &sc->unacked, node)
			if (async_tx_test_ack(&d->txd))
				list_move_tail(&d->node, &free);
		sc->cb_running = false;
	}
	spin_unlock_irqrestore(&sc->lock, flags);
	if (irq)
		wake_up_all(&sc->idle_wq);
	soft_dma_free_retired(&free);
}

static void soft_dma_tasklet(struct tasklet_struct *t)
{
	struct soft_dma_chan *sc = from_tasklet(sc, t, tasklet);

	soft_dma_retire(sc, true);
}

/* ------------------------------------------------------------------ */
/* dma_device operations                                               */
/* ------------------------------------------------------------------ */

/*
 * Hand what was submitted to the engine. no_order: the engine runs the
 * group newest first, and its oldest descriptor, which completes last,
 * completes the cookies of the whole group.
 */
void soft_dma_issue_pending(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	struct soft_dma_desc *d, *n;
	unsigned long flags;
	bool wake = false;
	LIST_HEAD(group);

	spin_lock_irqsave(&sc->lock, flags);
	if (!list_empty(&sc->submitted)) {
		if (soft_dma_no_order) {
			d = list_first_entry(&sc->submitted,
					     struct soft_dma_desc, node);
			d->group_last = chan->cookie;
			list_for_each_entry_safe(d, n, &sc->submitted, node)
				list_move(&d->node, &group);
			list_splice_tail(&group, &sc->issued);
		} else {
			list_splice_tail_init(&sc->submitted, &sc->issued);
		}
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

static bool soft_dma_cookie_failed(struct soft_dma_chan *sc,
				   dma_cookie_t cookie, size_t *residue)
{
	unsigned int i;

	for (i = 0; i < sc->err_nr; i++) {
		if (sc->err_ring[i].cookie == cookie) {
			*residue = sc->err_ring[i].residue;
			return true;
		}
	}
	return false;
}

static enum dma_status soft_dma_status(struct soft_dma_chan *sc,
				       dma_cookie_t cookie,
				       struct dma_tx_state *state)
{
	size_t residue = 0;
	dma_cookie_t last, used;
	enum dma_status status;
	unsigned long flags;

	spin_lock_irqsave(&sc->lock, flags);
	last = sc->chan.completed_cookie;
	used = sc->chan.cookie;
	status = dma_async_is_complete(cookie, last, used);
	if (soft_dma_cookie_failed(sc, cookie, &residue)) {
		status = DMA_ERROR;
	} else if (status == DMA_COMPLETE) {
		if (sc->abort_valid &&
		    soft_dma_cookie_in(cookie, sc->abort_first, sc->abort_last))
			status = DMA_ERROR;
	} else if (soft_dma_no_order) {
		/* idxd: whatever is not known complete is out of order */
		status = DMA_OUT_OF_ORDER;
	}
	spin_unlock_irqrestore(&sc->lock, flags);

	/* DMA_RESIDUE_GRANULARITY_DESCRIPTOR: a failed one's only */
	if (state) {
		state->last = last;
		state->used = used;
		state->residue = residue;
		state->in_flight_bytes = 0;
	}
	return status;
}

/*
 * Report, retire what completed without a callback (as ioat's cleanup in
 * tx_status), never copy. The engine is a thread: a client spinning here
 * (dma_sync_wait() does) on a kernel without preemption would keep it off
 * the CPU for ever, so where the caller may sleep the CPU is offered to
 * the scheduler while the cookie is not complete.
 */
enum dma_status soft_dma_tx_status(struct dma_chan *chan, dma_cookie_t cookie,
				   struct dma_tx_state *state)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	enum dma_status status;

	if (!list_empty(&sc->completed))
		soft_dma_retire(sc, false);
	status = soft_dma_status(sc, cookie, state);
	if ((status == DMA_IN_PROGRESS || status == DMA_OUT_OF_ORDER) &&
	    preemptible() && !rcu_preempt_depth())
		cond_resched();
	return status;
}

/*
 * Whatever was submitted and has not completed will not complete well:
 * tx_status() reports DMA_ERROR for it once its cookie is complete.
 */
void soft_dma_abort_cookies(struct soft_dma_chan *sc)
{
	struct dma_chan *chan = &sc->chan;

	lockdep_assert_held(&sc->lock);
	if (chan->cookie == chan->completed_cookie)
		return;
	sc->abort_first = chan->completed_cookie + 1;
	if (sc->abort_first < DMA_MIN_COOKIE)
		sc->abort_first = DMA_MIN_COOKIE;
	sc->abort_last = chan->cookie;
	sc->abort_valid = true;
}

/*
 * Drop everything submitted, issued or completed and not retired, and stop
 * the descriptor being copied at its next chunk (or held by stall_ms, at
 * once): device_terminate_all, and the reset of a channel at its release.
 * @late (terminate_all with no_synchronize): the callback of the
 * descriptor the engine holds still comes, after this returned.
 */
static void soft_dma_drop_all(struct soft_dma_chan *sc, bool late)
{
	struct dma_chan *chan = &sc->chan;
	struct soft_dma_desc *d;
	unsigned long flags;
	bool wake = false;
	LIST_HEAD(head);

	spin_lock_irqsave(&sc->lock, flags);
	list_splice_tail_init(&sc->submitted, &head);
	list_splice_tail_init(&sc->issued, &head);
	/* completed, not retired yet: no callback for them either */
	list_splice_tail_init(&sc->completed, &head);
	d = sc->active;
	if (d && !d->aborted) {
		WRITE_ONCE(d->aborted, true);
		sc->aborting = true;
		sc->stats.aborted++;
		if (late && soft_dma_has_callback(d)) {
			d->late = true;
			d->late_due = ktime_add_ms(ktime_get(),
						   SOFT_DMA_LATE_CB_MS);
		}
		wake = true;
	}
	soft_dma_abort_cookies(sc);
	chan->completed_cookie = chan->cookie;
	list_for_each_entry(d, &head, node)
		if (d->state == SOFT_DMA_QUEUED)
			sc->stats.aborted++;
	spin_unlock_irqrestore(&sc->lock, flags);

	/* a stalled engine notices at once */
	if (wake)
		wake_up(&sc->work_wq);
	soft_dma_free_list(&head);
}

/*
 * Not registered with no_terminate: the core returns -EINVAL instead.
 * With no_synchronize the callback of the descriptor the engine holds
 * still comes (soft_dma_late_irq()).
 */
int soft_dma_terminate_all(struct dma_chan *chan)
{
	soft_dma_drop_all(to_soft_chan(chan), soft_dma_no_synchronize);
	return 0;
}

static bool soft_dma_quiescent(struct soft_dma_chan *sc)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&sc->lock, flags);
	ret = !sc->aborting && !sc->cb_running && list_empty(&sc->late);
	spin_unlock_irqrestore(&sc->lock, flags);
	return ret;
}

/*
 * After soft_dma_drop_all(): wait until the engine let go of a dropped
 * descriptor and no callback runs any more, nor is still to come
 * (no_synchronize: at most SOFT_DMA_LATE_CB_MS).
 */
static void soft_dma_wait_quiescent(struct soft_dma_chan *sc)
{
	might_sleep();
	wait_event(sc->idle_wq, soft_dma_quiescent(sc));
}

/*
 * device_synchronize; not registered with no_terminate, as on ioat, nor
 * with no_synchronize, as on pl330 and dw.
 */
void soft_dma_synchronize(struct dma_chan *chan)
{
	soft_dma_wait_quiescent(to_soft_chan(chan));
}

int soft_dma_alloc_chan_resources(struct dma_chan *chan)
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
	sc->err_head = 0;
	sc->err_nr = 0;
	sc->abort_valid = false;
	sc->prep_count = 0;
	sc->submit_count = 0;
	sc->xfer_count = 0;
	sc->err_count = 0;
	sc->worker = worker;
	spin_unlock_irq(&sc->lock);

	wake_up_process(worker);
	return 0;
}

/*
 * Releasing a channel resets it, with or without device_terminate_all:
 * so do the drivers no_terminate models (ioat_free_chan_resources() resets
 * the channel, plx_dma_free_chan_resources() stops the engine and aborts
 * its ring). What a client left queued is dropped, nothing copies after
 * dma_release_channel() returned, and the thread can be stopped: on a
 * stalled channel the queue would otherwise never drain. A descriptor held
 * by stall_ms is aborted too; a callback still to come from an earlier
 * terminate_all (no_synchronize) is waited for, as pl330's
 * free_chan_resources waits in tasklet_kill() for its tasklet.
 */
void soft_dma_free_chan_resources(struct dma_chan *chan)
{
	struct soft_dma_chan *sc = to_soft_chan(chan);
	LIST_HEAD(free);

	soft_dma_drop_all(sc, false);
	soft_dma_wait_quiescent(sc);
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
