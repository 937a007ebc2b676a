// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of dmacopy over soft_dma: a set opened and refused, a batch
 * of each form the channel has, copied and checked byte for byte, a
 * started batch abandoned and the batch run again, and soft_dma's device
 * unbound while a set holds its channel.
 *
 * Built as the module dmacopy_kunit when the kernel has KUnit; soft_dma
 * must be loaded first (its device soft_dma.0, one channel at least), and
 * dmacopy. The tests run when it is loaded. Results:
 * /sys/kernel/debug/kunit/dmacopy/results.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include "dmacopy.h"

MODULE_IMPORT_NS(DMACOPY_NS);

#define DK_DEVICE	"soft_dma.0"
#define DK_TIMEOUT_MS	5000
/* A batch: folios of orders 0, 0, 2 and 1, one of each size and a pair. */
static const unsigned int dk_orders[] = { 0, 0, 2, 1 };
#define DK_FOLIOS	ARRAY_SIZE(dk_orders)

/**
 * struct dk_ctx - one test's set, batch and buffers
 * @set: the set, of one channel of DK_DEVICE
 * @c: its channel
 * @b: the batch
 * @src: source folios
 * @dst: destination folios, of the same orders
 * @src_sgt: their table
 * @dst_sgt: likewise
 * @abort: the set's abort flag
 * @unbinds: ->unbind() calls
 * @unbind_index: the index the last one named
 * @released: ->released() calls
 * @open: the set is open
 */
struct dk_ctx {
	struct dmacopy_set set;
	struct dmacopy_chan *c;
	struct dmacopy_batch b;
	struct folio *src[DK_FOLIOS];
	struct folio *dst[DK_FOLIOS];
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
	bool abort;
	unsigned int unbinds;
	unsigned int unbind_index;
	unsigned int released;
	bool open;
};

static void dk_unbind(struct dmacopy_set *set, unsigned int index)
{
	struct dk_ctx *x = dmacopy_set_priv(set);

	x->unbinds++;
	x->unbind_index = index;
}

static void dk_released(struct dmacopy_set *set, unsigned int index)
{
	struct dk_ctx *x = dmacopy_set_priv(set);

	x->released++;
}

static void dk_request(struct dk_ctx *x, struct dmacopy_request *req,
		       u32 forms)
{
	memset(req, 0, sizeof(*req));
	req->channel = "";
	req->device = DK_DEVICE;
	req->forms = forms;
	req->count = 1;
	req->timeout = msecs_to_jiffies(DK_TIMEOUT_MS);
	req->abort = &x->abort;
	req->unbind = dk_unbind;
	req->released = dk_released;
	req->priv = x;
}

/* A set of one memcpy channel of soft_dma.0, or the test is skipped. */
static struct dk_ctx *dk_open(struct kunit *test)
{
	struct dk_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct dmacopy_request req;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, x);
	test->priv = x;
	dk_request(x, &req, BIT(DMACOPY_FORM_MEMCPY));
	ret = dmacopy_set_open(&x->set, &req);
	if (ret == -ENODEV)
		kunit_skip(test, "no channel of " DK_DEVICE ": load soft_dma first");
	KUNIT_ASSERT_EQ(test, ret, 0);
	x->open = true;
	KUNIT_ASSERT_EQ(test, dmacopy_set_count(&x->set), 1U);
	x->c = dmacopy_set_chan(&x->set, 0);
	KUNIT_ASSERT_NOT_NULL(test, x->c);
	return x;
}

/* Folios with a pattern, the destination zeroed, and their tables. */
static void dk_buffers(struct kunit *test, struct dk_ctx *x)
{
	unsigned int i;
	size_t j;

	for (i = 0; i < DK_FOLIOS; i++) {
		x->src[i] = folio_alloc(GFP_KERNEL, dk_orders[i]);
		x->dst[i] = folio_alloc(GFP_KERNEL | __GFP_ZERO, dk_orders[i]);
		KUNIT_ASSERT_NOT_NULL(test, x->src[i]);
		KUNIT_ASSERT_NOT_NULL(test, x->dst[i]);
		for (j = 0; j < folio_size(x->src[i]); j++)
			((u8 *)folio_address(x->src[i]))[j] = (u8)(j * 13 + i);
	}
	KUNIT_ASSERT_EQ(test, dmacopy_table_fill(x->c, &x->src_sgt, x->src,
						 DK_FOLIOS, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, dmacopy_table_fill(x->c, &x->dst_sgt, x->dst,
						 DK_FOLIOS, GFP_KERNEL), 0);
}

static u64 dk_bytes(const struct dk_ctx *x)
{
	u64 bytes = 0;
	unsigned int i;

	for (i = 0; i < DK_FOLIOS; i++)
		bytes += folio_size(x->src[i]);
	return bytes;
}

static void dk_batch_alloc(struct kunit *test, struct dk_ctx *x)
{
	unsigned long ents = 0;
	unsigned int i;

	for (i = 0; i < DK_FOLIOS; i++)
		ents += dmacopy_chan_ents(x->c, folio_size(x->src[i]));
	KUNIT_ASSERT_EQ(test, dmacopy_batch_alloc(&x->b, x->c, ents,
						  dk_bytes(x),
						  BIT(DMACOPY_NR_FORMS) - 1,
						  GFP_KERNEL), 0);
}

/* The destination is the source, byte for byte, then zeroed again. */
static void dk_expect_copied(struct kunit *test, struct dk_ctx *x)
{
	unsigned int i;

	for (i = 0; i < DK_FOLIOS; i++) {
		KUNIT_EXPECT_EQ(test, memcmp(folio_address(x->dst[i]),
					     folio_address(x->src[i]),
					     folio_size(x->src[i])), 0);
		memset(folio_address(x->dst[i]), 0, folio_size(x->dst[i]));
	}
}

static void dk_exit(struct kunit *test)
{
	struct dk_ctx *x = test->priv;
	unsigned int i;

	if (!x)
		return;
	if (x->open) {
		/* a batch the test left busy is let go before its memory */
		if (x->c)
			KUNIT_EXPECT_EQ(test, dmacopy_batch_end(&x->b, 0, true),
					0);
		dmacopy_set_close(&x->set);
	}
	sg_free_table(&x->src_sgt);
	sg_free_table(&x->dst_sgt);
	for (i = 0; i < DK_FOLIOS; i++) {
		if (x->src[i])
			folio_put(x->src[i]);
		if (x->dst[i])
			folio_put(x->dst[i]);
	}
}

/* What a caller reads of a set and its channel. */
static void dk_set_open(struct kunit *test)
{
	struct dk_ctx *x = dk_open(test);

	kunit_info(test, "%s of %s, segments of at most %u bytes, copy_align %u\n",
		   dmacopy_chan_name(x->c), dmacopy_chan_dev_name(x->c),
		   dmacopy_chan_seg_max(x->c), dmacopy_chan_copy_align(x->c));
	KUNIT_EXPECT_STREQ(test, dmacopy_chan_dev_name(x->c), DK_DEVICE);
	KUNIT_EXPECT_TRUE(test, dmacopy_chan_has_form(x->c, DMACOPY_FORM_MEMCPY));
	KUNIT_EXPECT_GT(test, dmacopy_chan_seg_max(x->c), 0U);
	KUNIT_EXPECT_NOT_NULL(test, dmacopy_chan_provider(x->c));
	KUNIT_EXPECT_NOT_NULL(test, dmacopy_chan_dma_dev(x->c));
	KUNIT_EXPECT_EQ(test, dmacopy_chan_fail(x->c, NULL), DMACOPY_FAIL_NONE);
	KUNIT_EXPECT_FALSE(test, dmacopy_set_unbound(&x->set, NULL));
}

/* Too few channels, no form, an unknown form: refused, nothing held. */
static void dk_set_refused(struct kunit *test)
{
	struct dk_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	struct dmacopy_request req;

	KUNIT_ASSERT_NOT_NULL(test, x);
	dk_request(x, &req, BIT(DMACOPY_FORM_MEMCPY));
	req.channel = "dmacopy-kunit-no-such-channel";
	req.quiet = true;
	KUNIT_EXPECT_EQ(test, dmacopy_set_open(&x->set, &req), -ENODEV);
	KUNIT_EXPECT_EQ(test, dmacopy_set_count(&x->set), 0U);
	dk_request(x, &req, 0);
	KUNIT_EXPECT_EQ(test, dmacopy_set_open(&x->set, &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, dmacopy_form_check(DMACOPY_NR_FORMS, true),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, dmacopy_form_name(DMACOPY_NR_FORMS));
}

/* A batch of each form the channel has: copied, counted, unmapped. */
static void dk_forms(struct kunit *test)
{
	struct dk_ctx *x = dk_open(test);
	const struct dmacopy_figures *f = dmacopy_chan_figures(x->c);
	enum dmacopy_form_id id;
	unsigned int ran = 0;

	dk_buffers(test, x);
	dk_batch_alloc(test, x);
	for (id = 0; id < DMACOPY_NR_FORMS; id++) {
		if (!dmacopy_chan_has_form(x->c, id)) {
			kunit_info(test, "%s: %s\n", dmacopy_form_name(id),
				   dmacopy_form_has_api(id) ?
				   "the channel lacks its capability" :
				   "this kernel has no API for it");
			continue;
		}
		dmacopy_chan_reset(x->c);
		KUNIT_ASSERT_EQ(test, dmacopy_batch_start(&x->b, id, &x->src_sgt,
							  &x->dst_sgt, 0), 0);
		KUNIT_EXPECT_TRUE(test, dmacopy_batch_busy(&x->b));
		KUNIT_ASSERT_EQ(test, dmacopy_batch_finish(&x->b, true), 0);
		KUNIT_EXPECT_FALSE(test, dmacopy_batch_busy(&x->b));
		KUNIT_EXPECT_EQ(test, dmacopy_batch_end(&x->b, 0, true), 0);
		KUNIT_EXPECT_EQ(test, f->batches, 1ULL);
		KUNIT_EXPECT_EQ(test, f->bytes, dk_bytes(x));
		KUNIT_EXPECT_GE(test, f->submits, 1ULL);
		KUNIT_EXPECT_EQ(test, dmacopy_chan_fail(x->c, NULL),
				DMACOPY_FAIL_NONE);
		dk_expect_copied(test, x);
		kunit_info(test, "%s: %llu descriptor(s), %llu bytes\n",
			   dmacopy_form_name(id), f->submits, f->bytes);
		ran++;
	}
	KUNIT_EXPECT_GE(test, ran, 1U);
}

/* A started batch abandoned: idle at once, and the batch runs again. */
static void dk_abandon(struct kunit *test)
{
	struct dk_ctx *x = dk_open(test);

	dk_buffers(test, x);
	dk_batch_alloc(test, x);
	KUNIT_ASSERT_EQ(test, dmacopy_batch_start(&x->b, DMACOPY_FORM_MEMCPY,
						  &x->src_sgt, &x->dst_sgt, 0), 0);
	KUNIT_EXPECT_TRUE(test, dmacopy_batch_busy(&x->b));
	KUNIT_EXPECT_EQ(test, dmacopy_batch_end(&x->b, 0, true), 0);
	KUNIT_EXPECT_FALSE(test, dmacopy_batch_busy(&x->b));

	dmacopy_chan_reset(x->c);
	KUNIT_ASSERT_EQ(test, dmacopy_batch_start(&x->b, DMACOPY_FORM_MEMCPY,
						  &x->src_sgt, &x->dst_sgt, 0), 0);
	KUNIT_ASSERT_EQ(test, dmacopy_batch_finish(&x->b, true), 0);
	KUNIT_EXPECT_EQ(test, dmacopy_batch_end(&x->b, 0, true), 0);
	dk_expect_copied(test, x);
}

/* A batch with its deadline passed fails as TIMEOUT, and ends cleanly. */
static void dk_deadline(struct kunit *test)
{
	struct dk_ctx *x = dk_open(test);
	int err = 0;

	dk_buffers(test, x);
	dk_batch_alloc(test, x);
	KUNIT_ASSERT_EQ(test, dmacopy_batch_start(&x->b, DMACOPY_FORM_MEMCPY,
						  &x->src_sgt, &x->dst_sgt,
						  jiffies - 1), 0);
	KUNIT_EXPECT_NE(test, dmacopy_batch_finish(&x->b, true), 0);
	KUNIT_EXPECT_EQ(test, dmacopy_chan_fail(x->c, &err),
			DMACOPY_FAIL_TIMEOUT);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	KUNIT_EXPECT_TRUE(test, dmacopy_batch_busy(&x->b));
	KUNIT_EXPECT_EQ(test, dmacopy_batch_end(&x->b, 0, true), 0);
	KUNIT_EXPECT_FALSE(test, dmacopy_batch_busy(&x->b));
}

/*
 * soft_dma.0 unbound while the set holds its channel: the caller hears of
 * it, its abort flag is raised, the set releases the channel and says
 * which; the device is bound again after.
 */
static void dk_unbind_provider(struct kunit *test)
{
	struct dk_ctx *x = dk_open(test);
	struct device *dev = dmacopy_chan_provider(x->c);
	unsigned int index = ~0U;
	int ret;

	get_device(dev);
	device_release_driver(dev);
	KUNIT_EXPECT_EQ(test, x->unbinds, 1U);
	KUNIT_EXPECT_EQ(test, x->unbind_index, 0U);
	KUNIT_EXPECT_EQ(test, x->released, 1U);
	KUNIT_EXPECT_TRUE(test, x->abort);
	KUNIT_EXPECT_TRUE(test, dmacopy_set_unbound(&x->set, &index));
	KUNIT_EXPECT_EQ(test, index, 0U);
	/* the names stay, the provider gone */
	KUNIT_EXPECT_STREQ(test, dmacopy_chan_dev_name(x->c), DK_DEVICE);
	dmacopy_set_close(&x->set);
	x->open = false;
	ret = device_attach(dev);
	put_device(dev);
	KUNIT_EXPECT_EQ(test, ret, 1);
}

static struct kunit_case dk_cases[] = {
	KUNIT_CASE(dk_set_open),
	KUNIT_CASE(dk_set_refused),
	KUNIT_CASE(dk_forms),
	KUNIT_CASE(dk_abandon),
	KUNIT_CASE(dk_deadline),
	KUNIT_CASE(dk_unbind_provider),
	{}
};

static struct kunit_suite dk_suite = {
	.name = "dmacopy",
	.exit = dk_exit,
	.test_cases = dk_cases,
};

kunit_test_suite(dk_suite);

MODULE_DESCRIPTION("KUnit tests of the dmacopy library over soft_dma");
MODULE_LICENSE("GPL");
