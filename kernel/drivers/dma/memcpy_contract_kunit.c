// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the contract the dmaengine mode relies on in a provider's
 * dmaengine_prep_dma_memcpy_vec(), on whichever channel offers it
 * (soft_dma, zynqmp_dma, pl330 with the project's patches):
 *
 * - an entry the engine cannot take (zero length, or an address or length
 *   that breaks the device's copy_align) gets NULL from the prep, not a
 *   descriptor that copies something else;
 * - lists of different layouts are paired piece by piece: what comes out
 *   is what went in, byte for byte;
 * - a copy stops where the shorter list ends;
 * - an entry longer than the device's max_seg_size (which bounds sg entries,
 *   not dma_vec ones) is split by the provider or refused, never copied
 *   wrongly: on pl330 this is the driver's split at max_seg_size.
 *
 * Built as the module dmaengine_provider_kunit when the kernel has
 * KUnit; the tests run when it is loaded, on the first channel that has the
 * capability, and are skipped where the kernel lacks the API or no channel
 * has it. Results:
 * /sys/kernel/debug/kunit/dmaengine_provider_memcpy_vec/results.
 */

#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/dmaengine.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/string.h>

#include "compat.h"

/* Pages of each buffer: enough for two-entry layouts of a few pages. */
#define PK_PAGES	4
#define PK_BYTES	(PK_PAGES * PAGE_SIZE)

/**
 * struct pk_ctx - one test's channel and buffers
 * @chan: a channel with the capability under test
 * @dev: the device that maps for it
 * @src: source buffer, PK_BYTES
 * @dst: destination buffer, PK_BYTES
 * @src_dma: @src mapped to @dev
 * @dst_dma: @dst mapped to @dev
 * @lsrc: a long source buffer (pk_vec_long), or NULL
 * @ldst: a long destination buffer, or NULL
 * @lsrc_dma: @lsrc mapped, or 0
 * @ldst_dma: @ldst mapped, or 0
 */
struct pk_ctx {
	struct dma_chan *chan;
	struct device *dev;
	u8 *src;
	u8 *dst;
	dma_addr_t src_dma;
	dma_addr_t dst_dma;
	u8 *lsrc;
	u8 *ldst;
	dma_addr_t lsrc_dma;
	dma_addr_t ldst_dma;
};

/* Bytes of the long entry: more than PL330's max_seg_size of 1900800. */
#define PK_LONG_ORDER	9
#define PK_LONG_BYTES	(PAGE_SIZE << PK_LONG_ORDER)

static void pk_unmap(struct pk_ctx *x, dma_addr_t addr, size_t len,
		     enum dma_data_direction dir)
{
	if (addr && !dma_mapping_error(x->dev, addr))
		dma_unmap_single(x->dev, addr, len, dir);
}

static void pk_exit(struct kunit *test)
{
	struct pk_ctx *x = test->priv;

	if (!x || !x->chan)
		return;
	/* nothing may still be copying into what is freed */
	dmaengine_terminate_sync(x->chan);
	pk_unmap(x, x->src_dma, PK_BYTES, DMA_TO_DEVICE);
	pk_unmap(x, x->dst_dma, PK_BYTES, DMA_FROM_DEVICE);
	pk_unmap(x, x->lsrc_dma, PK_LONG_BYTES, DMA_TO_DEVICE);
	pk_unmap(x, x->ldst_dma, PK_LONG_BYTES, DMA_FROM_DEVICE);
	free_pages((unsigned long)x->src, get_order(PK_BYTES));
	free_pages((unsigned long)x->dst, get_order(PK_BYTES));
	free_pages((unsigned long)x->lsrc, PK_LONG_ORDER);
	free_pages((unsigned long)x->ldst, PK_LONG_ORDER);
	dma_release_channel(x->chan);
}

#ifdef HAVE_DMA_MEMCPY_VEC

/* A channel with @cap and mapped buffers, or the test is skipped. */
static struct pk_ctx *pk_setup(struct kunit *test,
			       enum dma_transaction_type cap)
{
	struct pk_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);
	dma_cap_mask_t mask;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, x);
	test->priv = x;
	dma_cap_zero(mask);
	dma_cap_set(cap, mask);
	x->chan = dma_request_channel(mask, NULL, NULL);
	if (!x->chan)
		kunit_skip(test, "no channel offers the capability");
	x->dev = dmaengine_get_dma_device(x->chan);
	kunit_info(test, "%s of %s (%s)\n", dma_chan_name(x->chan),
		   dev_name(x->dev), x->dev->driver ? x->dev->driver->name : "-");

	x->src = (u8 *)__get_free_pages(GFP_KERNEL, get_order(PK_BYTES));
	x->dst = (u8 *)__get_free_pages(GFP_KERNEL, get_order(PK_BYTES));
	KUNIT_ASSERT_NOT_NULL(test, x->src);
	KUNIT_ASSERT_NOT_NULL(test, x->dst);
	for (i = 0; i < PK_BYTES; i++)
		x->src[i] = (u8)(i * 7 + i / PAGE_SIZE + 1);
	memset(x->dst, 0, PK_BYTES);

	x->src_dma = dma_map_single(x->dev, x->src, PK_BYTES, DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, dma_mapping_error(x->dev, x->src_dma));
	x->dst_dma = dma_map_single(x->dev, x->dst, PK_BYTES, DMA_FROM_DEVICE);
	KUNIT_ASSERT_FALSE(test, dma_mapping_error(x->dev, x->dst_dma));
	return x;
}

/*
 * Submit, run and wait for @tx; then the CPU may read the destination.
 * dma_sync_wait() issues the pending work itself: issuing it twice would
 * find nothing to issue the second time, which pl330 warns about.
 */
static void pk_run(struct kunit *test, struct pk_ctx *x,
		   struct dma_async_tx_descriptor *tx)
{
	dma_cookie_t cookie;

	KUNIT_ASSERT_NOT_NULL_MSG(test, tx, "a valid request was refused");
	cookie = dmaengine_submit(tx);
	KUNIT_ASSERT_FALSE(test, dma_submit_error(cookie));
	KUNIT_ASSERT_EQ(test, dma_sync_wait(x->chan, cookie), DMA_COMPLETE);
	dma_sync_single_for_cpu(x->dev, x->dst_dma, PK_BYTES, DMA_FROM_DEVICE);
}

/* The destination holds the first @len source bytes, and zero after. */
static void pk_expect_copied(struct kunit *test, struct pk_ctx *x, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (x->dst[i] != x->src[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "byte %zu differs", i);
	for (i = len; i < PK_BYTES; i++)
		if (x->dst[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, (size_t)PK_BYTES,
			    "byte %zu past the copy was written", i);
}

/* The smallest offset that breaks the device's copy_align, if it has one. */
static size_t pk_misalign(struct pk_ctx *x)
{
	unsigned int align = x->chan->device->copy_align;

	return align ? (1U << align) / 2 : 0;
}

#define PK_FLAGS	(DMA_PREP_INTERRUPT | DMA_CTRL_ACK)

static struct dma_async_tx_descriptor *pk_vec(struct pk_ctx *x,
					      const struct dma_vec *dst,
					      size_t dst_n,
					      const struct dma_vec *src,
					      size_t src_n)
{
	return dmaengine_prep_dma_memcpy_vec(x->chan, dst, dst_n, src, src_n,
					     PK_FLAGS);
}

static void pk_vec_zero_length(struct kunit *test)
{
	struct pk_ctx *x = pk_setup(test, DMA_MEMCPY_VEC);
	struct dma_vec one, zero[2];

	one.addr = x->dst_dma;
	one.len = 2 * PAGE_SIZE;
	zero[0].addr = x->src_dma;
	zero[0].len = PAGE_SIZE;
	zero[1].addr = x->src_dma + PAGE_SIZE;
	zero[1].len = 0;
	KUNIT_EXPECT_NULL_MSG(test, pk_vec(x, &one, 1, zero, 2),
			      "a zero-length source entry was taken");
	KUNIT_EXPECT_NULL_MSG(test, pk_vec(x, zero, 2, &one, 1),
			      "a zero-length destination entry was taken");
	KUNIT_EXPECT_NULL_MSG(test, pk_vec(x, &one, 1, zero, 0),
			      "an empty source array was taken");
	/* nothing ran: the destination is untouched */
	pk_expect_copied(test, x, 0);
}

static void pk_vec_misaligned(struct kunit *test)
{
	struct pk_ctx *x = pk_setup(test, DMA_MEMCPY_VEC);
	size_t off = pk_misalign(x);
	struct dma_vec d, s;

	if (!off)
		kunit_skip(test, "the device has no copy_align");
	d.addr = x->dst_dma;
	d.len = PAGE_SIZE;
	s.addr = x->src_dma + off;
	s.len = PAGE_SIZE;
	KUNIT_EXPECT_NULL_MSG(test, pk_vec(x, &d, 1, &s, 1),
			      "a source address off copy_align by %zu was taken",
			      off);
	s.addr = x->src_dma;
	s.len = PAGE_SIZE - off;
	d.len = PAGE_SIZE - off;
	KUNIT_EXPECT_NULL_MSG(test, pk_vec(x, &d, 1, &s, 1),
			      "a length off copy_align by %zu was taken", off);
	pk_expect_copied(test, x, 0);
}

/* Four one-page source entries into two two-page destination entries. */
static void pk_vec_layouts(struct kunit *test)
{
	struct pk_ctx *x = pk_setup(test, DMA_MEMCPY_VEC);
	struct dma_vec s[PK_PAGES], d[PK_PAGES / 2];
	unsigned int i;

	for (i = 0; i < PK_PAGES; i++) {
		s[i].addr = x->src_dma + i * PAGE_SIZE;
		s[i].len = PAGE_SIZE;
	}
	for (i = 0; i < PK_PAGES / 2; i++) {
		d[i].addr = x->dst_dma + i * 2 * PAGE_SIZE;
		d[i].len = 2 * PAGE_SIZE;
	}
	pk_run(test, x, pk_vec(x, d, PK_PAGES / 2, s, PK_PAGES));
	pk_expect_copied(test, x, PK_BYTES);
}

/* The copy stops where the shorter array ends. */
static void pk_vec_shorter(struct kunit *test)
{
	struct pk_ctx *x = pk_setup(test, DMA_MEMCPY_VEC);
	struct dma_vec s[2], d;

	s[0].addr = x->src_dma;
	s[0].len = PAGE_SIZE;
	s[1].addr = x->src_dma + PAGE_SIZE;
	s[1].len = PAGE_SIZE;
	d.addr = x->dst_dma;
	d.len = 3 * PAGE_SIZE;
	pk_run(test, x, pk_vec(x, &d, 1, s, 2));
	pk_expect_copied(test, x, 2 * PAGE_SIZE);
}

/*
 * One entry of PK_LONG_BYTES on each side: longer than some devices'
 * max_seg_size, which bounds sg entries but not dma_vec ones.
 */
static void pk_vec_long(struct kunit *test)
{
	struct pk_ctx *x = pk_setup(test, DMA_MEMCPY_VEC);
	unsigned int max_seg = dma_get_max_seg_size(x->dev);
	struct dma_async_tx_descriptor *tx;
	struct dma_vec d, s;
	size_t i;

	x->lsrc = (u8 *)__get_free_pages(GFP_KERNEL, PK_LONG_ORDER);
	x->ldst = (u8 *)__get_free_pages(GFP_KERNEL, PK_LONG_ORDER);
	if (!x->lsrc || !x->ldst)
		kunit_skip(test, "no %lu contiguous bytes", PK_LONG_BYTES);
	for (i = 0; i < PK_LONG_BYTES; i++)
		x->lsrc[i] = (u8)(i * 13 + i / PAGE_SIZE);
	memset(x->ldst, 0, PK_LONG_BYTES);
	x->lsrc_dma = dma_map_single(x->dev, x->lsrc, PK_LONG_BYTES,
				     DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, dma_mapping_error(x->dev, x->lsrc_dma));
	x->ldst_dma = dma_map_single(x->dev, x->ldst, PK_LONG_BYTES,
				     DMA_FROM_DEVICE);
	KUNIT_ASSERT_FALSE(test, dma_mapping_error(x->dev, x->ldst_dma));

	s.addr = x->lsrc_dma;
	s.len = PK_LONG_BYTES;
	d.addr = x->ldst_dma;
	d.len = PK_LONG_BYTES;
	tx = pk_vec(x, &d, 1, &s, 1);
	if (!tx) {
		kunit_info(test, "an entry of %lu bytes (max_seg_size %u): refused\n",
			   PK_LONG_BYTES, max_seg);
		return;
	}
	pk_run(test, x, tx);
	dma_sync_single_for_cpu(x->dev, x->ldst_dma, PK_LONG_BYTES,
				DMA_FROM_DEVICE);
	for (i = 0; i < PK_LONG_BYTES; i++)
		if (x->ldst[i] != x->lsrc[i])
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, (size_t)PK_LONG_BYTES,
			    "byte %zu differs", i);
	kunit_info(test, "an entry of %lu bytes (max_seg_size %u): copied\n",
		   PK_LONG_BYTES, max_seg);
}

#else

static void pk_no_api(struct kunit *test)
{
	kunit_skip(test, "this kernel has no DMA_MEMCPY_VEC");
}

#define pk_vec_zero_length	pk_no_api
#define pk_vec_misaligned	pk_no_api
#define pk_vec_layouts		pk_no_api
#define pk_vec_shorter		pk_no_api
#define pk_vec_long		pk_no_api

#endif /* HAVE_DMA_MEMCPY_VEC */

static struct kunit_case pk_cases[] = {
	KUNIT_CASE(pk_vec_zero_length),
	KUNIT_CASE(pk_vec_misaligned),
	KUNIT_CASE(pk_vec_layouts),
	KUNIT_CASE(pk_vec_shorter),
	KUNIT_CASE(pk_vec_long),
	{}
};

static struct kunit_suite pk_suite = {
	.name = "dmaengine_provider_memcpy_vec",
	.exit = pk_exit,
	.test_cases = pk_cases,
};

kunit_test_suite(pk_suite);

MODULE_DESCRIPTION("KUnit tests of the dmaengine batch forms' provider contract");
MODULE_LICENSE("GPL");
