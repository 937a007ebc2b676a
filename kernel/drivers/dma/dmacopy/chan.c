// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmacopy's channels, as their callers see them: what a channel is and
 * can do, what it measured, and which step of a batch failed on it.
 */

#include <linux/dmaengine.h>
#include <linux/export.h>
#include <linux/string.h>

#include "internal.h"

/* Record the first failure since the reset: the step, and its errno. */
void dmacopy_set_fail(struct dmacopy_chan *c, enum dmacopy_fail fail, int err)
{
	if (!c->fail) {
		c->fail = fail;
		c->err = err;
	}
}

/**
 * dmacopy_chan_reset - start the channel's figures and failure afresh
 * @c: the channel, with nothing in flight
 */
void dmacopy_chan_reset(struct dmacopy_chan *c)
{
	memset(&c->fig, 0, sizeof(c->fig));
	c->fail = DMACOPY_FAIL_NONE;
	c->err = 0;
	c->irq_every = 0;
	c->since_irq = 0;
	c->since_stall = 0;
	c->last_cookie = 0;
	atomic_set(&c->inflight, 0);
	atomic_set(&c->late_callbacks, 0);
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_reset, DMACOPY_NS);

/**
 * dmacopy_chan_fail - which step of a batch failed first since the reset
 * @c: the channel
 * @err: set to its negative errno (0 with DMACOPY_FAIL_NONE); may be NULL
 *
 * Return: the step, DMACOPY_FAIL_NONE when none failed.
 */
enum dmacopy_fail dmacopy_chan_fail(const struct dmacopy_chan *c, int *err)
{
	if (err)
		*err = c->err;
	return c->fail;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_fail, DMACOPY_NS);

/**
 * dmacopy_chan_figures - what the channel measured since its reset
 * @c: the channel
 *
 * Return: its figures, read by the task that drives it.
 */
const struct dmacopy_figures *dmacopy_chan_figures(const struct dmacopy_chan *c)
{
	return &c->fig;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_figures, DMACOPY_NS);

/**
 * dmacopy_chan_name - the channel's dma_chan_name(), kept past an unbind
 * @c: the channel
 *
 * Return: the name.
 */
const char *dmacopy_chan_name(const struct dmacopy_chan *c)
{
	return c->name;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_name, DMACOPY_NS);

/**
 * dmacopy_chan_dev_name - its DMA device's dev_name(), kept past an unbind
 * @c: the channel
 *
 * Return: the name.
 */
const char *dmacopy_chan_dev_name(const struct dmacopy_chan *c)
{
	return c->dev_name;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_dev_name, DMACOPY_NS);

/**
 * dmacopy_chan_provider - the device of the channel's provider
 * @c: the channel
 *
 * Return: chan->device->dev, referenced while the set holds the channel.
 */
struct device *dmacopy_chan_provider(const struct dmacopy_chan *c)
{
	return c->prov_dev;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_provider, DMACOPY_NS);

/**
 * dmacopy_chan_dma_dev - the device the channel's buffers are mapped for
 * @c: the channel
 *
 * Return: dmaengine_get_dma_device() of the channel.
 */
struct device *dmacopy_chan_dma_dev(const struct dmacopy_chan *c)
{
	return c->dma_dev;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_dma_dev, DMACOPY_NS);

/**
 * dmacopy_chan_has_form - whether batches of a form can run on the channel
 * @c: the channel
 * @id: the form
 *
 * Return: true when this kernel has the form's API and the channel its
 * capability.
 */
bool dmacopy_chan_has_form(const struct dmacopy_chan *c,
			   enum dmacopy_form_id id)
{
	const struct dmacopy_form *f = dmacopy_form(id);

	return f && f->have_api && test_bit(f->cap, c->caps.bits);
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_has_form, DMACOPY_NS);

/**
 * dmacopy_chan_no_order - whether the channel completes out of order
 * @c: the channel
 *
 * Return: true for DMA_COMPLETION_NO_ORDER: its tx_status cannot say a
 * batch is done, so its batches cannot be polled for.
 */
bool dmacopy_chan_no_order(const struct dmacopy_chan *c)
{
	return c->no_order;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_no_order, DMACOPY_NS);

/**
 * dmacopy_chan_copy_align - the provider's copy alignment
 * @c: the channel
 *
 * Return: the dma_device's copy_align: a copy's addresses and length are
 * multiples of 1 << it.
 */
unsigned int dmacopy_chan_copy_align(const struct dmacopy_chan *c)
{
	return c->copy_align;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_copy_align, DMACOPY_NS);

/**
 * dmacopy_chan_seg_max - the largest segment a table entry may have
 * @c: the channel
 *
 * Return: the length: the device's max_seg_size and max mapping size,
 * rounded down to the copy alignment.
 */
unsigned int dmacopy_chan_seg_max(const struct dmacopy_chan *c)
{
	return c->seg.max;
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_seg_max, DMACOPY_NS);

/**
 * dmacopy_chan_ents - table entries a folio takes on the channel
 * @c: the channel
 * @size: the folio's size (a buffer aligned to its size)
 *
 * Return: the entries dmacopy_table_fill() cuts it into.
 */
unsigned long dmacopy_chan_ents(const struct dmacopy_chan *c, size_t size)
{
	return dma_bench_seg_count(&c->seg, size);
}
EXPORT_SYMBOL_NS_GPL(dmacopy_chan_ents, DMACOPY_NS);
