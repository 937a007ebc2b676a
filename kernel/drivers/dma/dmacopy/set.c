// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's channel set: the channels a caller copies over, held from
 * dmacopy_set_open() to dmacopy_set_close(). The set requests them (by
 * name, device and the capabilities of the forms asked), says once why
 * too few were found, learns what each can do (its segment limits, its
 * completion order, whether its work can be stopped), watches the buses
 * of their providers, and lets each go exactly once: at close, or before
 * its provider's remove() when that provider is unbound. The memory of
 * the batches allocated on its channels goes with the set, at close.
 *
 * An unbind is heard of on the provider's bus (BUS_NOTIFY_UNBIND_DRIVER)
 * before its remove() runs. The caller's ->unbind() stops using the
 * channel first; the set then terminates and releases it, so that
 * nothing of the caller's touches a provider that may free its channels
 * when remove() returns (one without device_release frees them with its
 * devm memory). The device is compared by the pointer kept at open, never
 * through a channel that may be gone.
 *
 * Locking: the set's lock serializes the release of a channel (its
 * ->released), an unbind's notifier against the close; it is held only
 * around the release, never around the caller's callbacks, which may
 * sleep and wait for the caller's tasks. The close waits for a notifier in
 * progress (bus_unregister_notifier()): a callback must not wait for the
 * task that closes the set.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/export.h>
#include <linux/kmemleak.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/* dma_request_channel()'s filter, @param the request */
static bool dmacopy_filter(struct dma_chan *chan, void *param)
{
	const struct dmacopy_request *req = param;

	if (req->channel[0] && strcmp(dma_chan_name(chan), req->channel))
		return false;
	if (req->device[0] && strcmp(dev_name(chan->device->dev), req->device))
		return false;
	return true;
}

/*
 * Take a requested channel in: keep its names (the provider may go away,
 * and its names with it), its device, what it can do.
 */
static void dmacopy_chan_init(struct dmacopy_chan *c,
			      struct dma_chan *chan,
			      const struct dmacopy_request *req)
{
	c->chan = chan;
	c->prov_dev = get_device(chan->device->dev);
	strscpy(c->name, dma_chan_name(chan), sizeof(c->name));
	strscpy(c->dev_name, dev_name(chan->device->dev), sizeof(c->dev_name));
	c->caps = chan->device->cap_mask;
	c->copy_align = chan->device->copy_align;
	c->no_order = dma_has_cap(DMA_COMPLETION_NO_ORDER, c->caps);
	c->can_terminate = chan->device->device_terminate_all;
	c->dma_dev = dmaengine_get_dma_device(chan);
	c->poll = req->poll;
	c->timeout = req->timeout;
	c->abort = req->abort;
	INIT_LIST_HEAD(&c->batches);
}

/*
 * What one segment may be on the channel: it must fit a descriptor, a
 * mapping (swiotlb bounces at most dma_max_mapping_size() in one piece),
 * stay within the device's segment boundary and keep its copy alignment.
 */
static int dmacopy_chan_limits(struct dmacopy_chan *c)
{
	unsigned int align = c->copy_align;

	dma_bench_seg_limits_of(c->dma_dev, &c->seg);
	if (align)
		c->seg.max = round_down(c->seg.max, 1U << align);
	if (!c->seg.max) {
		pr_err_ratelimited("%s: max segment size %u (max mapping size %zu) is below the copy alignment of %u bytes\n",
				   c->name, dma_get_max_seg_size(c->dma_dev),
				   dma_max_mapping_size(c->dma_dev), 1U << align);
		return -EINVAL;
	}
	return 0;
}

/* Terminate what is queued and release the channel, once. */
static void dmacopy_chan_release_locked(struct dmacopy_set *set,
					struct dmacopy_chan *c)
{
	lockdep_assert_held(&set->lock);
	if (c->released)
		return;
	dmacopy_quiesce(c);
	dma_release_channel(c->chan);
	WRITE_ONCE(c->released, true);
}

static void dmacopy_chan_release(struct dmacopy_set *set,
				 struct dmacopy_chan *c)
{
	mutex_lock(&set->lock);
	dmacopy_chan_release_locked(set, c);
	mutex_unlock(&set->lock);
}

/*
 * Free the memory of the channel's batches, now that nothing runs on it;
 * a batch still busy (its descriptors outlived dmacopy_batch_end()
 * on an engine that cannot stop them) keeps its memory for good. Returns
 * whether one did.
 */
static bool dmacopy_chan_free_batches(struct dmacopy_chan *c)
{
	struct dmacopy_batch *b, *tmp;
	bool kept = false;

	list_for_each_entry_safe(b, tmp, &c->batches, node) {
		list_del(&b->node);
		if (!b->busy)
			dmacopy_batch_free(b);
		else
			kept = true;
	}
	return kept;
}

static void dmacopy_set_release(struct dmacopy_set *set)
{
	unsigned int i;

	mutex_lock(&set->lock);
	for (i = 0; i < set->nr; i++)
		dmacopy_chan_release_locked(set, &set->chans[i]);
	mutex_unlock(&set->lock);
}

/*
 * The provider of channel @index is being unbound: say so, once per
 * channel, raise the caller's abort flag, and remember the first.
 */
static void dmacopy_set_unbinding(struct dmacopy_set *set, unsigned int index)
{
	const struct dmacopy_chan *c = &set->chans[index];

	pr_err("%s: its provider %s is being unbound: the channel is released\n",
	       c->name, c->dev_name);
	if (!READ_ONCE(set->unbound))
		WRITE_ONCE(set->unbound_index, index);
	/* the index before the flag: dmacopy_set_unbound() reads them so */
	smp_store_release(&set->unbound, true);
	if (set->req.abort)
		WRITE_ONCE(*set->req.abort, true);
}

/*
 * A device of a watched bus is being unbound from its driver, or deleted:
 * every channel of the set that it provides is let go before its remove().
 */
static int dmacopy_bus_event(struct notifier_block *nb,
			     unsigned long action, void *data)
{
	struct dmacopy_bus *bus =
		container_of(nb, struct dmacopy_bus, nb);
	struct dmacopy_set *set = bus->set;
	struct device *dev = data;
	unsigned int i;

	if (action == BUS_NOTIFY_UNBOUND_DRIVER) {
		/* its remove() returned: the driver stopped the device's DMA */
		for (i = 0; i < set->nr; i++)
			if (set->chans[i].prov_dev == dev &&
			    READ_ONCE(set->chans[i].released) && set->req.unbound)
				set->req.unbound(set, i);
		return NOTIFY_DONE;
	}
	if (action != BUS_NOTIFY_UNBIND_DRIVER &&
	    action != BUS_NOTIFY_DEL_DEVICE)
		return NOTIFY_DONE;
	for (i = 0; i < set->nr; i++) {
		struct dmacopy_chan *c = &set->chans[i];

		if (c->prov_dev != dev || READ_ONCE(c->released))
			continue;
		dmacopy_set_unbinding(set, i);
		if (set->req.unbind)
			set->req.unbind(set, i);
		dmacopy_chan_release(set, c);
		if (set->req.released)
			set->req.released(set, i);
	}
	return NOTIFY_DONE;
}

/*
 * Hear of the unbinding of the providers: each bus of the set's providers
 * gets one notifier, and from the first one on the request's ->unbind()
 * may be called. On an error the buses already watched stay so until
 * dmacopy_set_close().
 */
static int dmacopy_set_watch(struct dmacopy_set *set)
{
	unsigned int i, j;
	int ret;

	set->buses = kcalloc(set->nr, sizeof(*set->buses), GFP_KERNEL);
	if (!set->buses)
		return -ENOMEM;
	for (i = 0; i < set->nr; i++) {
		const struct bus_type *bt = set->chans[i].prov_dev->bus;
		struct dmacopy_bus *bus;

		if (!bt)
			continue;
		for (j = 0; j < set->nr_buses; j++)
			if (set->buses[j].bus == bt)
				break;
		if (j < set->nr_buses)
			continue;
		bus = &set->buses[set->nr_buses];
		bus->bus = bt;
		bus->set = set;
		bus->nb.notifier_call = dmacopy_bus_event;
		ret = dma_bench_bus_register_notifier(bt, &bus->nb);
		if (ret)
			return ret;
		set->nr_buses++;
	}
	return 0;
}

static void dmacopy_set_unwatch(struct dmacopy_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr_buses; i++)
		dma_bench_bus_unregister_notifier(set->buses[i].bus,
						  &set->buses[i].nb);
	set->nr_buses = 0;
	kfree(set->buses);
	set->buses = NULL;
}

/*
 * The capabilities of the request's forms, and their names as a refusal
 * says them: those beyond DMA_MEMCPY, or DMA_MEMCPY.
 */
static void dmacopy_set_caps(struct dmacopy_set *set, dma_cap_mask_t *caps)
{
	unsigned int id;

	dma_cap_zero(*caps);
	set->caps_name[0] = 0;
	for (id = 0; id < DMACOPY_NR_FORMS; id++) {
		const struct dmacopy_form *f = dmacopy_form(id);

		if (!(set->req.forms & BIT(id)) || !f->have_api)
			continue;
		dma_cap_set(f->cap, *caps);
		if (!f->api)
			continue;
		if (set->caps_name[0])
			strlcat(set->caps_name, " and ", sizeof(set->caps_name));
		strlcat(set->caps_name, f->cap_name, sizeof(set->caps_name));
	}
	if (!set->caps_name[0])
		strscpy(set->caps_name, "DMA_MEMCPY", sizeof(set->caps_name));
}

/**
 * dmacopy_set_open - request the channels of a set
 * @set: the set, zeroed by the caller
 * @req: which channels, and how they are to be used; copied
 *
 * Takes up to @req->count channels with the capabilities of @req->forms,
 * each matching the names asked, and checks each one's segment limits.
 * Too few channels is refused with a message naming what was asked
 * (unless @req->quiet), as is a channel whose limits leave no segment.
 * Last, the buses of the channels' providers are watched: from then on,
 * before this returns, @req->unbind may be called for a provider being
 * unbound.
 *
 * Return: 0 with the channels held (dmacopy_set_count()); or with nothing
 * held -EOPNOTSUPP (a form's API is missing: dmacopy_form_check()),
 * -ENODEV (too few channels), -EINVAL (a channel's limits leave no
 * segment, or no form), -ENOMEM or the error of bus_register_notifier().
 */
int dmacopy_set_open(struct dmacopy_set *set, const struct dmacopy_request *req)
{
	dma_cap_mask_t caps;
	unsigned int i;
	int ret;

	set->req = *req;
	mutex_init(&set->lock);
	for (i = 0; i < DMACOPY_NR_FORMS; i++) {
		ret = req->forms & BIT(i) ? dmacopy_form_check(i, req->quiet) : 0;
		if (ret)
			return ret;
	}
	if (!req->forms || req->forms & ~(BIT(DMACOPY_NR_FORMS) - 1))
		return -EINVAL;
	dmacopy_set_caps(set, &caps);
	set->chans = kcalloc(req->count, sizeof(*set->chans), GFP_KERNEL);
	if (!set->chans)
		return -ENOMEM;
	while (set->nr < req->count) {
		struct dma_chan *chan = dma_request_channel(caps, dmacopy_filter,
							    &set->req);

		if (!chan)
			break;
		dmacopy_chan_init(&set->chans[set->nr++], chan, req);
	}
	if (!set->nr || (set->nr < req->count && !req->allow_fewer)) {
		if (!req->quiet)
			pr_err_ratelimited("found %u %s channels%s%s%s%s, channels asks for %u\n",
					   set->nr, set->caps_name,
					   req->channel[0] ? " named " : "",
					   req->channel,
					   req->device[0] ? " on device " : "",
					   req->device, req->count);
		dmacopy_set_close(set);
		return -ENODEV;
	}
	for (i = 0; i < set->nr; i++) {
		if (dmacopy_chan_limits(&set->chans[i])) {
			dmacopy_set_close(set);
			return -EINVAL;
		}
	}
	ret = dmacopy_set_watch(set);
	if (ret)
		dmacopy_set_close(set);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_open, DMACOPY_NS);

/**
 * dmacopy_set_close - let every channel go
 * @set: the set, opened (whether or not the open succeeded)
 *
 * Terminates what each channel still has queued where the provider can
 * (the caller has abandoned its failed batches already), releases the
 * channels not released on an unbind, frees the memory of the batches
 * allocated on them (dmacopy_batch_alloc()) but for a batch still
 * busy, whose channels then stay allocated too (its callbacks read its
 * channel), and stops watching. Waits for an ->unbind() in progress: that must
 * not wait for the caller of this.
 */
void dmacopy_set_close(struct dmacopy_set *set)
{
	bool kept = false;
	unsigned int i;

	might_sleep();
	/* an ->unbind() that closes its own set would wait for itself */
	lockdep_assert_not_held(&set->lock);
	dmacopy_set_release(set);
	/* no ->unbind() runs after this */
	dmacopy_set_unwatch(set);
	for (i = 0; i < set->nr; i++) {
		kept |= dmacopy_chan_free_batches(&set->chans[i]);
		put_device(set->chans[i].prov_dev);
	}
	set->nr = 0;
	if (kept) {
		/* a busy batch's callback reads its channel: keep them all */
		pr_err("a batch's descriptors still run after its channel was released: the set's channels stay allocated\n");
		kmemleak_not_leak(set->chans);
	} else {
		kfree(set->chans);
	}
	set->chans = NULL;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_close, DMACOPY_NS);

/**
 * dmacopy_set_count - the channels the set holds
 * @set: the set, open
 *
 * Return: their number, at least 1 after a successful open.
 */
unsigned int dmacopy_set_count(const struct dmacopy_set *set)
{
	return set->nr;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_count, DMACOPY_NS);

/**
 * dmacopy_set_chan - one of the set's channels
 * @set: the set, open
 * @index: 0..dmacopy_set_count() - 1
 *
 * Return: the channel, valid until the set's close (even once released).
 */
struct dmacopy_chan *dmacopy_set_chan(struct dmacopy_set *set,
				      unsigned int index)
{
	if (WARN_ON_ONCE(index >= set->nr))
		return NULL;
	return &set->chans[index];
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_chan, DMACOPY_NS);

/**
 * dmacopy_set_priv - the request's @priv, for its callbacks
 * @set: the set
 *
 * Return: the pointer the request gave.
 */
void *dmacopy_set_priv(const struct dmacopy_set *set)
{
	return set->req.priv;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_priv, DMACOPY_NS);

/**
 * dmacopy_set_unbound - whether a provider of the set's channels was unbound
 * @set: the set
 * @index: set to the first such channel's index, if one was; may be NULL
 *
 * Return: true once a provider began to unbind, from its ->unbind() on.
 */
bool dmacopy_set_unbound(const struct dmacopy_set *set, unsigned int *index)
{
	/* pairs with dmacopy_set_unbinding()'s release: the index is set */
	if (!smp_load_acquire(&set->unbound))
		return false;
	if (index)
		*index = READ_ONCE(set->unbound_index);
	return true;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_set_unbound, DMACOPY_NS);

MODULE_DESCRIPTION("dmacopy: a dmaengine memory-to-memory copy client library");
MODULE_LICENSE("GPL");
