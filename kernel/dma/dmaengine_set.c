// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine client's channel set: the channels a caller copies over,
 * held from dmaengine_client_set_open() to dmaengine_client_set_close().
 * The set requests them (by name, device and capabilities), says once why
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
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/kmemleak.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "dmaengine_client_priv.h"

/* dma_request_channel()'s filter, @param the request */
static bool dmaengine_client_filter(struct dma_chan *chan, void *param)
{
	const struct dmaengine_client_request *req = param;

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
static void dmaengine_client_chan_init(struct dmaengine_client_chan *c,
				       struct dma_chan *chan,
				       const struct dmaengine_client_request *req)
{
	c->chan = chan;
	c->prov_dev = get_device(chan->device->dev);
	strscpy(c->name, dma_chan_name(chan), sizeof(c->name));
	strscpy(c->dev_name, dev_name(chan->device->dev), sizeof(c->dev_name));
	c->no_order = dma_has_cap(DMA_COMPLETION_NO_ORDER,
				  chan->device->cap_mask);
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
static int dmaengine_client_chan_limits(struct dmaengine_client_chan *c)
{
	unsigned int align = c->chan->device->copy_align;

	mb_seg_limits_of(c->dma_dev, &c->seg);
	if (align)
		c->seg.max = round_down(c->seg.max, 1U << align);
	if (!c->seg.max) {
		mb_refuse_err("%s: max segment size %u (max mapping size %zu) is below the copy alignment of %u bytes\n",
			      c->name, dma_get_max_seg_size(c->dma_dev),
			      dma_max_mapping_size(c->dma_dev), 1U << align);
		return -EINVAL;
	}
	return 0;
}

/* Terminate what is queued and release the channel, once. */
static void dmaengine_client_chan_release(struct dmaengine_client_set *set,
					  struct dmaengine_client_chan *c)
{
	mutex_lock(&set->lock);
	if (!c->released) {
		dmaengine_client_quiesce(c);
		dma_release_channel(c->chan);
		c->released = true;
	}
	mutex_unlock(&set->lock);
}

/*
 * Free the memory of the channel's batches, now that nothing runs on it;
 * a batch still busy (its descriptors outlived dmaengine_client_batch_abandon()
 * on an engine that cannot stop them) keeps its memory for good. Returns
 * whether one did.
 */
static bool dmaengine_client_chan_free_batches(struct dmaengine_client_chan *c)
{
	struct dmaengine_client_batch *b, *tmp;
	bool kept = false;

	list_for_each_entry_safe(b, tmp, &c->batches, node) {
		list_del(&b->node);
		if (!b->busy)
			dmaengine_client_batch_free(b);
		else
			kept = true;
	}
	return kept;
}

static void dmaengine_client_set_release(struct dmaengine_client_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++)
		dmaengine_client_chan_release(set, &set->chans[i]);
}

/*
 * A device of a watched bus is being unbound from its driver, or deleted:
 * every channel of the set that it provides is let go before its remove().
 */
static int dmaengine_client_bus_event(struct notifier_block *nb,
				      unsigned long action, void *data)
{
	struct dmaengine_client_bus *bus =
		container_of(nb, struct dmaengine_client_bus, nb);
	struct dmaengine_client_set *set = bus->set;
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
		struct dmaengine_client_chan *c = &set->chans[i];

		if (c->prov_dev != dev || READ_ONCE(c->released))
			continue;
		if (set->req.unbind)
			set->req.unbind(set, i);
		dmaengine_client_chan_release(set, c);
		if (set->req.released)
			set->req.released(set, i);
	}
	return NOTIFY_DONE;
}

/*
 * Hear of the unbinding of the providers: each bus of the set's providers
 * gets one notifier, and from the first one on the request's ->unbind()
 * may be called. On an error the buses already watched stay so until
 * dmaengine_client_set_close().
 */
static int dmaengine_client_set_watch(struct dmaengine_client_set *set)
{
	unsigned int i, j;
	int ret;

	set->buses = kcalloc(set->nr, sizeof(*set->buses), GFP_KERNEL);
	if (!set->buses)
		return -ENOMEM;
	for (i = 0; i < set->nr; i++) {
		const struct bus_type *bt = set->chans[i].prov_dev->bus;
		struct dmaengine_client_bus *bus;

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
		bus->nb.notifier_call = dmaengine_client_bus_event;
		ret = dma_bench_bus_register_notifier(bt, &bus->nb);
		if (ret)
			return ret;
		set->nr_buses++;
	}
	return 0;
}

static void dmaengine_client_set_unwatch(struct dmaengine_client_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr_buses; i++)
		dma_bench_bus_unregister_notifier(set->buses[i].bus,
						  &set->buses[i].nb);
	set->nr_buses = 0;
	kfree(set->buses);
	set->buses = NULL;
}

/**
 * dmaengine_client_set_open - request the channels of a set
 * @set: the set, zeroed by the caller
 * @req: which channels, and how they are to be used; copied
 * @error: set to DMAENGINE_BENCH_ERR_* when the open fails
 *
 * Takes up to @req->count channels with @req->caps, each matching the
 * names asked, and checks each one's segment limits. Too few channels is
 * refused with a message naming what was asked (unless @req->quiet), as
 * is a channel whose limits leave no segment. Last, the buses of the
 * channels' providers are watched: from then on, before this returns,
 * @req->unbind may be called for a provider being unbound.
 *
 * Return: 0 with the channels in @set->chans, or -ENODEV, -EINVAL,
 * -ENOMEM or the error of bus_register_notifier() with nothing held.
 */
int dmaengine_client_set_open(struct dmaengine_client_set *set,
			      const struct dmaengine_client_request *req,
			      u32 *error)
{
	unsigned int i;
	int ret;

	set->req = *req;
	mutex_init(&set->lock);
	set->chans = kcalloc(req->count, sizeof(*set->chans), GFP_KERNEL);
	if (!set->chans) {
		*error = DMAENGINE_BENCH_ERR_NOMEM;
		return -ENOMEM;
	}
	while (set->nr < req->count) {
		struct dma_chan *chan = dma_request_channel(req->caps,
							    dmaengine_client_filter,
							    &set->req);

		if (!chan)
			break;
		dmaengine_client_chan_init(&set->chans[set->nr++], chan, req);
	}
	if (!set->nr || (set->nr < req->count && !req->allow_fewer)) {
		if (!req->quiet)
			mb_refuse_err("found %u %s channels%s%s%s%s, channels asks for %u\n",
				      set->nr, req->caps_name,
				      req->channel[0] ? " named " : "",
				      req->channel,
				      req->device[0] ? " on device " : "",
				      req->device, req->count);
		*error = DMAENGINE_BENCH_ERR_NO_CHANNEL;
		dmaengine_client_set_close(set);
		return -ENODEV;
	}
	for (i = 0; i < set->nr; i++) {
		if (dmaengine_client_chan_limits(&set->chans[i])) {
			*error = DMAENGINE_BENCH_ERR_LIMIT;
			dmaengine_client_set_close(set);
			return -EINVAL;
		}
	}
	ret = dmaengine_client_set_watch(set);
	if (ret) {
		*error = DMAENGINE_BENCH_ERR_NOMEM;
		dmaengine_client_set_close(set);
	}
	return ret;
}

/**
 * dmaengine_client_set_close - let every channel go
 * @set: the set, opened (whether or not the open succeeded)
 *
 * Terminates what each channel still has queued where the provider can
 * (the caller has abandoned its failed batches already), releases the
 * channels not released on an unbind, frees the memory of the batches
 * allocated on them (dmaengine_client_batch_alloc()) but for a batch still
 * busy, whose channels then stay allocated too (its callbacks read its
 * channel), and stops watching. Waits for an ->unbind() in progress: that must
 * not wait for the caller of this.
 */
void dmaengine_client_set_close(struct dmaengine_client_set *set)
{
	bool kept = false;
	unsigned int i;

	dmaengine_client_set_release(set);
	/* no ->unbind() runs after this */
	dmaengine_client_set_unwatch(set);
	for (i = 0; i < set->nr; i++) {
		kept |= dmaengine_client_chan_free_batches(&set->chans[i]);
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
