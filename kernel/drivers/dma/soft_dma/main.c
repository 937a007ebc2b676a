// SPDX-License-Identifier: GPL-2.0-only
/*
 * soft_dma: a dmaengine provider whose "hardware" is the CPU.
 *
 * It registers a memcpy DMA device (DMA_MEMCPY, and DMA_MEMCPY_SG and
 * DMA_MEMCPY_VEC where the kernel has those APIs) with a number of channels
 * on each of its platform devices (devices=N). Load-time parameters give
 * it the behaviours of real engines (ioat's prep lock, idxd's completions
 * out of order, a bounded descriptor pool, no terminate_all as on ioat,
 * plx_dma and mv_xor, terminate_all without synchronize as on pl330 and
 * dw, an engine stuck on a descriptor); debugfs knobs, per device, inject
 * the faults a real engine can have. See Documentation/soft_dma.rst.
 *
 * This file: parameters, the platform driver, probe and remove, and the
 * device's lifetime after an unbind.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cc_platform.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "soft_dma.h"

#define SOFT_DMA_MAX_POOL	65536

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices,
		 "Platform devices soft_dma.0.., each a DMA device, 1..16 (default: 1)");

unsigned int soft_dma_channels = 4;
module_param_named(channels, soft_dma_channels, uint, 0444);
MODULE_PARM_DESC(channels, "Number of DMA channels, 1..256 (default: 4)");

static unsigned int max_seg_size = SZ_4M;
module_param(max_seg_size, uint, 0444);
MODULE_PARM_DESC(max_seg_size,
		 "Largest segment in bytes, 4096..4294967295 (default: 4 MiB)");

static unsigned int dma_bits = 64;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits,
		 "Width of the DMA mask, 32..64, as an engine addressing 32 bits (default: 64)");

static unsigned int copy_align;
module_param(copy_align, uint, 0444);
MODULE_PARM_DESC(copy_align,
		 "log2 of the address and length alignment, 0..12 (default: 0)");

bool soft_dma_prep_lock;
module_param_named(prep_lock, soft_dma_prep_lock, bool, 0444);
MODULE_PARM_DESC(prep_lock,
		 "Hold a channel lock from prep to tx_submit, as ioat (default: 0)");

bool soft_dma_no_order;
module_param_named(no_order, soft_dma_no_order, bool, 0444);
MODULE_PARM_DESC(no_order,
		 "DMA_COMPLETION_NO_ORDER: complete issued work newest first, as idxd may (default: 0)");

unsigned int soft_dma_pool_size;
module_param_named(pool_size, soft_dma_pool_size, uint, 0444);
MODULE_PARM_DESC(pool_size,
		 "Descriptors per channel, 1..65536; 0: unbounded (default: 0)");

bool soft_dma_no_terminate;
module_param_named(no_terminate, soft_dma_no_terminate, bool, 0444);
MODULE_PARM_DESC(no_terminate,
		 "No device_terminate_all: clients cannot cancel issued work, as on ioat, plx_dma and mv_xor (default: 0)");

bool soft_dma_no_synchronize;
module_param_named(no_synchronize, soft_dma_no_synchronize, bool, 0444);
MODULE_PARM_DESC(no_synchronize,
		 "device_terminate_all without device_synchronize, as pl330 and dw: the callback of the descriptor running at terminate comes after it returned (default: 0)");

unsigned int soft_dma_stall_ms;
module_param_named(stall_ms, soft_dma_stall_ms, uint, 0444);
MODULE_PARM_DESC(stall_ms,
		 "The first descriptor each channel runs is held this long before it completes (an engine stuck on it); terminate_all aborts it, 0..600000; 0: never (default: 0)");

/* Serializes soft_dma_devs and the devices' knobs against knob writes. */
DEFINE_MUTEX(soft_dma_mutex);
LIST_HEAD(soft_dma_devs);

static struct platform_device *soft_dma_pdevs[SOFT_DMA_MAX_DEVICES];

/* ------------------------------------------------------------------ */
/* Release: the device outlives its unbinding while clients hold it    */
/* ------------------------------------------------------------------ */

/* Released devices wait here to be freed. */
static DEFINE_SPINLOCK(soft_dma_reap_lock);
static LIST_HEAD(soft_dma_reap_list);

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
/* Platform driver                                                     */
/* ------------------------------------------------------------------ */

static void soft_dma_set_ops(struct dma_device *dma)
{
	dma_cap_set(DMA_MEMCPY, dma->cap_mask);
	/* for clients that ask for it: never in the public channel table */
	dma_cap_set(DMA_PRIVATE, dma->cap_mask);
	if (soft_dma_no_order)
		dma_cap_set(DMA_COMPLETION_NO_ORDER, dma->cap_mask);
	dma->device_prep_dma_memcpy = soft_dma_prep_memcpy;
#ifdef HAVE_DMA_MEMCPY_SG
	dma_cap_set(DMA_MEMCPY_SG, dma->cap_mask);
	dma->device_prep_dma_memcpy_sg = soft_dma_prep_memcpy_sg;
#endif
#ifdef HAVE_DMA_MEMCPY_VEC
	dma_cap_set(DMA_MEMCPY_VEC, dma->cap_mask);
	dma->device_prep_dma_memcpy_vec = soft_dma_prep_memcpy_vec;
#endif
	dma->copy_align = copy_align;
	dma->directions = BIT(DMA_MEM_TO_MEM);
	dma->residue_granularity = DMA_RESIDUE_GRANULARITY_DESCRIPTOR;
	dma->device_alloc_chan_resources = soft_dma_alloc_chan_resources;
	dma->device_free_chan_resources = soft_dma_free_chan_resources;
	dma->device_tx_status = soft_dma_tx_status;
	dma->device_issue_pending = soft_dma_issue_pending;
	/*
	 * no_terminate: as ioat, plx_dma and mv_xor, neither callback, so
	 * that dmaengine_terminate_async() and _sync() return -EINVAL from
	 * the core and never reach soft_dma, and dmaengine_synchronize() does
	 * nothing. The channel's release still resets it (engine.c).
	 */
	if (!soft_dma_no_terminate) {
		dma->device_terminate_all = soft_dma_terminate_all;
		/*
		 * no_synchronize: as pl330 and dw, terminate_all alone;
		 * dmaengine_synchronize() and the second half of
		 * dmaengine_terminate_sync() then do nothing.
		 */
		if (!soft_dma_no_synchronize)
			dma->device_synchronize = soft_dma_synchronize;
	}
	dma->device_release = soft_dma_release;
}

static int soft_dma_probe(struct platform_device *pdev)
{
	unsigned int i, n = soft_dma_channels;
	struct device *dev = &pdev->dev;
	struct soft_dma_dev *sd;
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
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(dma_bits));
	if (ret)
		return ret;
	dma_set_max_seg_size(dev, max_seg_size);

	sd = kzalloc(struct_size(sd, chans, n), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->pdev = pdev;
	sd->nr_chans = n;
	get_device(dev);

	sd->dma.dev = dev;
	INIT_LIST_HEAD(&sd->dma.channels);
	soft_dma_set_ops(&sd->dma);
	for (i = 0; i < n; i++)
		soft_dma_chan_init(sd, i);

	/*
	 * The device binds with the top-level knobs. It joins the list in the
	 * same step, before a client can take a channel: a top-level write
	 * from then on reaches it too, and none is lost in between.
	 */
	mutex_lock(&soft_dma_mutex);
	sd->knobs = soft_dma_knob_defaults;
	list_add_tail(&sd->node, &soft_dma_devs);
	mutex_unlock(&soft_dma_mutex);

	ret = dma_async_device_register(&sd->dma);
	if (ret) {
		dev_err(dev, "dma_async_device_register: %d\n", ret);
		goto err_list;
	}

	for (i = 0; i < n; i++)
		strscpy(sd->chans[i].name, dma_chan_name(&sd->chans[i].chan),
			sizeof(sd->chans[i].name));
	platform_set_drvdata(pdev, sd);
	sd->debugfs = soft_dma_debugfs_add_dev(sd);

	dev_info(dev, "%u channels %s..%s, max_seg_size %u, copy_align %u, dma_bits %u%s%s%s%s%s%s, pool_size %u, stall_ms %u\n",
		 n, sd->chans[0].name, sd->chans[n - 1].name,
		 dma_get_max_seg_size(dev), copy_align, dma_bits,
		 dma_bench_have_memcpy_sg() ? ", memcpy_sg" : "",
		 dma_bench_have_memcpy_vec() ? ", memcpy_vec" : "",
		 soft_dma_prep_lock ? ", prep_lock" : "",
		 soft_dma_no_order ? ", no_order (DMA_COMPLETION_NO_ORDER)" : "",
		 soft_dma_no_terminate ? ", no_terminate (no device_terminate_all)" : "",
		 !soft_dma_no_terminate && soft_dma_no_synchronize ?
		 ", no_synchronize (no device_synchronize)" : "",
		 soft_dma_pool_size, soft_dma_stall_ms);
	return 0;

err_list:
	mutex_lock(&soft_dma_mutex);
	list_del(&sd->node);
	mutex_unlock(&soft_dma_mutex);
	put_device(dev);
	kfree(sd);
	return ret;
}

static void soft_dma_remove(struct platform_device *pdev)
{
	struct soft_dma_dev *sd = platform_get_drvdata(pdev);
	unsigned int i;

	debugfs_remove(sd->debugfs);
	mutex_lock(&soft_dma_mutex);
	list_del_init(&sd->node);
	mutex_unlock(&soft_dma_mutex);

	/*
	 * Clients may still hold channels: refuse new work and let the
	 * engines abort what is queued (DMA_TRANS_ABORTED) in order, each
	 * cookie then reported as DMA_ERROR. A descriptor held by stall_ms is
	 * aborted too, not waited for, with or without no_terminate: a real
	 * driver's remove stops its engines (pl330_remove() terminates every
	 * channel, ioat resets them as it frees them), so the unbind returns
	 * at once.
	 */
	for (i = 0; i < sd->nr_chans; i++) {
		struct soft_dma_chan *sc = &sd->chans[i];

		spin_lock_irq(&sc->lock);
		WRITE_ONCE(sc->dead, true);
		soft_dma_abort_cookies(sc);
		spin_unlock_irq(&sc->lock);
		soft_dma_kick(sc);
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

/* Unregister the platform devices soft_dma.0 .. soft_dma.(@n - 1). */
static void soft_dma_del_devices(unsigned int n)
{
	while (n--) {
		platform_device_unregister(soft_dma_pdevs[n]);
		soft_dma_pdevs[n] = NULL;
	}
}

/*
 * Register the platform devices soft_dma.0 .. soft_dma.(devices - 1); the
 * driver binds each as it is registered. The load fails unless all bound.
 */
static int soft_dma_add_devices(void)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	for (i = 0; i < devices; i++) {
		pdev = platform_device_register_simple(SOFT_DMA_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto err;
		}
		if (!platform_get_drvdata(pdev)) {
			/* the probe failed, and said why */
			ret = -ENODEV;
			goto err_unregister;
		}
		soft_dma_pdevs[i] = pdev;
	}
	return 0;

err_unregister:
	platform_device_unregister(pdev);
err:
	soft_dma_del_devices(i);
	return ret;
}

static int __init soft_dma_init(void)
{
	int ret;

	if (!devices || devices > SOFT_DMA_MAX_DEVICES ||
	    !soft_dma_channels || soft_dma_channels > SOFT_DMA_MAX_CHANNELS ||
	    max_seg_size < PAGE_SIZE || copy_align > PAGE_SHIFT ||
	    dma_bits < 32 || dma_bits > 64 ||
	    soft_dma_pool_size > SOFT_DMA_MAX_POOL) {
		pr_err("devices=%u (1..%u) channels=%u (1..%u) max_seg_size=%u (%lu..) copy_align=%u (0..%u) dma_bits=%u (32..64) pool_size=%u (0..%u): out of range\n",
		       devices, SOFT_DMA_MAX_DEVICES,
		       soft_dma_channels, SOFT_DMA_MAX_CHANNELS, max_seg_size,
		       PAGE_SIZE, copy_align, PAGE_SHIFT, dma_bits,
		       soft_dma_pool_size, SOFT_DMA_MAX_POOL);
		return -EINVAL;
	}
	if (soft_dma_stall_ms > SOFT_DMA_MAX_STALL_MS) {
		pr_err("stall_ms=%u: out of range (0..%u ms)\n",
		       soft_dma_stall_ms, SOFT_DMA_MAX_STALL_MS);
		return -EINVAL;
	}
	if (soft_dma_no_terminate && soft_dma_no_synchronize)
		pr_info("no_synchronize has no effect with no_terminate: neither device_terminate_all nor device_synchronize is registered\n");

	ret = soft_dma_prep_init();
	if (ret)
		return ret;
	soft_dma_debugfs_init();

	ret = platform_driver_register(&soft_dma_driver);
	if (ret)
		goto err_debugfs;

	ret = soft_dma_add_devices();
	if (ret)
		goto err_driver;
	return 0;

err_driver:
	platform_driver_unregister(&soft_dma_driver);
	flush_work(&soft_dma_reap_work);
err_debugfs:
	soft_dma_debugfs_exit();
	soft_dma_prep_exit();
	return ret;
}
module_init(soft_dma_init);

static void __exit soft_dma_exit(void)
{
	soft_dma_del_devices(devices);
	platform_driver_unregister(&soft_dma_driver);
	/* devices released by the last client are freed by the reaper */
	flush_work(&soft_dma_reap_work);
	soft_dma_debugfs_exit();
	soft_dma_prep_exit();
}
module_exit(soft_dma_exit);

MODULE_DESCRIPTION("Software DMA engine: memcpy channels that copy with the CPU");
MODULE_LICENSE("GPL");
