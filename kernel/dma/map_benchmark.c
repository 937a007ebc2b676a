// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA map benchmark: binding, debugfs, ioctl, thread pool and statistics.
 *
 * Based on the kernel's DMA map benchmark, Copyright (C) 2020 HiSilicon
 * Limited.
 * The map modes live in map_*.c as ops tables; this file knows none of them
 * beyond the table below. The dmaengine mode lives in dmaengine_bench.c.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include "map_benchmark.h"

#define DRIVER_NAME	"dma_map_benchmark"

static_assert(sizeof(struct map_benchmark) == 136);

static const struct map_benchmark_ops *const
map_benchmark_modes[DMA_MAP_BENCH_MODE_MAX] = {
	[DMA_MAP_BENCH_SINGLE_MODE] = &dma_single_map_benchmark_ops,
	[DMA_MAP_BENCH_SG_MODE] = &dma_sg_map_benchmark_ops,
};

/**
 * struct map_benchmark_thread - one mapping thread's state
 * @map: the device under test and the request
 * @ops: the map mode
 * @task: the kthread
 * @failed: completed by a thread that stops on an error, to end the run
 * @map_ns: map latencies of this thread
 * @unmap_ns: unmap latencies of this thread
 *
 * The timed loop writes only its own statistics; they are merged once,
 * after every thread has stopped, so no shared cache line is touched
 * between two samples.
 */
struct map_benchmark_thread {
	struct map_benchmark_data *map;
	const struct map_benchmark_ops *ops;
	struct task_struct *task;
	struct completion *failed;
	struct mb_stat map_ns;
	struct mb_stat unmap_ns;
};

static int map_benchmark_thread_fn(void *data)
{
	struct map_benchmark_thread *t = data;
	const struct map_benchmark_ops *ops = t->ops;
	u32 trans_ns = t->map->bparam.dma_trans_ns;
	void *mparam;
	int ret = 0;

	mparam = ops->prepare(t->map);
	if (!mparam) {
		ret = -ENOMEM;
		goto out;
	}

	while (!kthread_should_stop()) {
		ktime_t map_start, map_end, unmap_start, unmap_end;

		ops->initialize_data(mparam);

		map_start = ktime_get();
		ret = ops->do_map(mparam);
		map_end = ktime_get();
		if (ret)
			break;

		/* Pretend DMA is transmitting */
		ndelay(trans_ns);

		unmap_start = ktime_get();
		ops->do_unmap(mparam);
		unmap_end = ktime_get();

		mb_stat_add(&t->map_ns, ktime_to_ns(ktime_sub(map_end,
							      map_start)));
		mb_stat_add(&t->unmap_ns, ktime_to_ns(ktime_sub(unmap_end,
								unmap_start)));

		/*
		 * With as many threads as CPUs on a non-preemptible kernel,
		 * the thread that must stop us needs a CPU too.
		 */
		cond_resched();
	}

	ops->unprepare(mparam);
out:
	if (ret)
		complete(t->failed);
	return ret;
}

static void map_benchmark_bind_node(struct task_struct *task, int node)
{
	const struct cpumask *mask;

	if (node == NUMA_NO_NODE)
		return;
	/*
	 * kthread_bind_mask() is not exported; set_cpus_allowed_ptr() is, and
	 * does the same for a thread that has not run yet. A memory-only node
	 * has no CPUs: leave such threads to the scheduler.
	 */
	mask = cpumask_of_node(node);
	if (cpumask_intersects(mask, cpu_online_mask))
		set_cpus_allowed_ptr(task, mask);
}

static void map_benchmark_report(struct map_benchmark *p,
				 const struct map_benchmark_thread *threads,
				 unsigned int nr)
{
	struct mb_stat map_ns = {}, unmap_ns = {};
	unsigned int i;

	for (i = 0; i < nr; i++) {
		mb_stat_merge(&map_ns, &threads[i].map_ns);
		mb_stat_merge(&unmap_ns, &threads[i].unmap_ns);
	}

	p->avg_map_100ns = div_u64(mb_stat_mean(&map_ns), 100);
	p->map_stddev = div_u64(mb_stat_stddev(&map_ns), 100);
	p->avg_unmap_100ns = div_u64(mb_stat_mean(&unmap_ns), 100);
	p->unmap_stddev = div_u64(mb_stat_stddev(&unmap_ns), 100);
}

static int map_benchmark_run(struct map_benchmark_data *map)
{
	const struct map_benchmark_ops *ops =
		map_benchmark_modes[map->bparam.map_mode];
	unsigned int nr = map->bparam.threads;
	DECLARE_COMPLETION_ONSTACK(failed);
	struct map_benchmark_thread *threads;
	unsigned int created, i;
	long left;
	int ret = 0;

	threads = kcalloc(nr, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;

	for (created = 0; created < nr; created++) {
		struct map_benchmark_thread *t = &threads[created];

		t->map = map;
		t->ops = ops;
		t->failed = &failed;
		t->task = kthread_create_on_node(map_benchmark_thread_fn, t,
						 map->bparam.node,
						 "dma-map-benchmark/%u",
						 created);
		if (IS_ERR(t->task)) {
			ret = PTR_ERR(t->task);
			pr_err("cannot create thread %u: %d\n", created, ret);
			break;
		}
		/* the thread may exit on an error before we stop it */
		get_task_struct(t->task);
		map_benchmark_bind_node(t->task, map->bparam.node);
	}

	if (!ret) {
		for (i = 0; i < nr; i++)
			wake_up_process(threads[i].task);

		left = wait_for_completion_interruptible_timeout(&failed,
								 map->bparam.seconds * HZ);
		if (left == -ERESTARTSYS) {
			pr_info("run interrupted by a signal\n");
			ret = -EINTR;
		}
	}

	for (i = 0; i < created; i++) {
		int thread_ret = kthread_stop(threads[i].task);

		put_task_struct(threads[i].task);
		if (thread_ret && !ret)
			ret = thread_ret;
	}

	if (!ret)
		map_benchmark_report(&map->bparam, threads, nr);

	kfree(threads);
	return ret;
}

static int map_benchmark_validate(const struct map_benchmark *p,
				  enum dma_data_direction *dir)
{
	unsigned int i;

	if (p->map_mode >= DMA_MAP_BENCH_MODE_MAX) {
		pr_err("invalid map_mode %u: must be 0 (single) or 1 (sg)\n",
		       p->map_mode);
		return -EINVAL;
	}
	if (p->threads == 0 || p->threads > DMA_MAP_MAX_THREADS) {
		pr_err("invalid threads %u: must be 1..%u\n", p->threads,
		       DMA_MAP_MAX_THREADS);
		return -EINVAL;
	}
	if (p->seconds == 0 || p->seconds > DMA_MAP_MAX_SECONDS) {
		pr_err("invalid seconds %u: must be 1..%u\n", p->seconds,
		       DMA_MAP_MAX_SECONDS);
		return -EINVAL;
	}
	if (p->dma_trans_ns > DMA_MAP_MAX_TRANS_DELAY) {
		pr_err("invalid dma_trans_ns %u: must be 0..%ld\n",
		       p->dma_trans_ns, DMA_MAP_MAX_TRANS_DELAY);
		return -EINVAL;
	}
	if (p->node != NUMA_NO_NODE &&
	    (p->node < 0 || p->node >= MAX_NUMNODES ||
	     !node_possible(p->node))) {
		pr_err("invalid node %d: not a possible NUMA node, or -1\n",
		       p->node);
		return -EINVAL;
	}
	if (p->dma_bits < 20 || p->dma_bits > 64) {
		pr_err("invalid dma_bits %u: must be 20..64\n", p->dma_bits);
		return -EINVAL;
	}
	if (p->granule < 1 || p->granule > DMA_MAP_MAX_GRANULE) {
		pr_err("invalid granule %u: must be 1..%u\n", p->granule,
		       DMA_MAP_MAX_GRANULE);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(p->expansion); i++) {
		if (p->expansion[i]) {
			pr_err("invalid expansion[%u] 0x%02x: reserved, must be zero\n",
			       i, p->expansion[i]);
			return -EINVAL;
		}
	}

	switch (p->dma_dir) {
	case DMA_MAP_BIDIRECTIONAL:
		*dir = DMA_BIDIRECTIONAL;
		break;
	case DMA_MAP_FROM_DEVICE:
		*dir = DMA_FROM_DEVICE;
		break;
	case DMA_MAP_TO_DEVICE:
		*dir = DMA_TO_DEVICE;
		break;
	default:
		pr_err("invalid dma_dir %u: must be 0 (bidirectional), 1 (to device) or 2 (from device)\n",
		       p->dma_dir);
		return -EINVAL;
	}

	return 0;
}

static int map_benchmark_do_ioctl(struct map_benchmark_data *map,
				  struct map_benchmark *req)
{
	enum dma_data_direction dir;
	u64 old_dma_mask;
	int ret;

	ret = map_benchmark_validate(req, &dir);
	if (ret)
		return ret;

	/* one run at a time: a second caller waits for the first to end */
	if (mutex_lock_interruptible(&map->lock))
		return -EINTR;

	map->bparam = *req;
	map->dir = dir;

	old_dma_mask = dma_get_mask(map->dev);
	ret = dma_set_mask(map->dev, DMA_BIT_MASK(req->dma_bits));
	if (ret) {
		pr_err("cannot set a %u-bit DMA mask on %s: %d\n",
		       req->dma_bits, dev_name(map->dev), ret);
		ret = -EINVAL;
		goto unlock;
	}

	ret = map_benchmark_run(map);

	/*
	 * Restore the mask: the architecture, ACPI or the bus set it, and the
	 * device's own driver must find it unchanged when it binds again.
	 */
	dma_set_mask(map->dev, old_dma_mask);
	*req = map->bparam;
unlock:
	mutex_unlock(&map->lock);
	return ret;
}

static long map_benchmark_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct map_benchmark_data *map = file->private_data;
	void __user *argp = (void __user *)arg;
	struct map_benchmark req;
	int ret;

	if (cmd != DMA_MAP_BENCHMARK)
		return -ENOTTY;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;

	ret = map_benchmark_do_ioctl(map, &req);
	if (ret)
		return ret;

	if (copy_to_user(argp, &req, sizeof(req)))
		return -EFAULT;

	return 0;
}

static const struct file_operations map_benchmark_fops = {
	.owner			= THIS_MODULE,
	.open			= simple_open,
	.unlocked_ioctl		= map_benchmark_ioctl,
	.compat_ioctl		= compat_ptr_ioctl,
};

static void map_benchmark_remove_debugfs(void *data)
{
	struct map_benchmark_data *map = data;

	debugfs_remove(map->debugfs);
}

static int map_benchmark_probe(struct device *dev)
{
	struct map_benchmark_data *map;
	struct dentry *entry;
	int ret;

	map = devm_kzalloc(dev, sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	map->dev = dev;
	mutex_init(&map->lock);

	/* one device at a time: a second probe finds the file present */
	entry = debugfs_create_file("dma_map_benchmark", 0600, NULL, map,
				    &map_benchmark_fops);
	if (IS_ERR(entry)) {
		dev_err(dev, "cannot create debugfs file dma_map_benchmark: %ld (is another device bound?)\n",
			PTR_ERR(entry));
		return PTR_ERR(entry);
	}
	map->debugfs = entry;

	ret = devm_add_action_or_reset(dev, map_benchmark_remove_debugfs, map);
	if (ret)
		return ret;

	dev_info(dev, "bound to %s\n", DRIVER_NAME);
	return 0;
}

static int map_benchmark_platform_probe(struct platform_device *pdev)
{
	return map_benchmark_probe(&pdev->dev);
}

static struct platform_driver map_benchmark_platform_driver = {
	.driver = {
		.name = DRIVER_NAME,
	},
	.probe = map_benchmark_platform_probe,
};

static int map_benchmark_pci_probe(struct pci_dev *pdev,
				   const struct pci_device_id *id)
{
	return map_benchmark_probe(&pdev->dev);
}

/* No id table: devices are bound only through driver_override. */
static struct pci_driver map_benchmark_pci_driver = {
	.name = DRIVER_NAME,
	.probe = map_benchmark_pci_probe,
};

static int __init map_benchmark_init(void)
{
	int ret;

	ret = pci_register_driver(&map_benchmark_pci_driver);
	if (ret) {
		if (ret == -EBUSY)
			pr_err("a driver named %s is registered already: is the kernel's own CONFIG_DMA_MAP_BENCHMARK built in? Use a kernel without it\n",
			       DRIVER_NAME);
		return ret;
	}

	ret = platform_driver_register(&map_benchmark_platform_driver);
	if (ret)
		goto unregister_pci;

	ret = dmaengine_bench_init();
	if (ret)
		goto unregister_platform;

	return 0;

unregister_platform:
	platform_driver_unregister(&map_benchmark_platform_driver);
unregister_pci:
	pci_unregister_driver(&map_benchmark_pci_driver);
	return ret;
}

static void __exit map_benchmark_exit(void)
{
	dmaengine_bench_exit();
	platform_driver_unregister(&map_benchmark_platform_driver);
	pci_unregister_driver(&map_benchmark_pci_driver);
}

module_init(map_benchmark_init);
module_exit(map_benchmark_exit);

MODULE_AUTHOR("Barry Song <song.bao.hua@hisilicon.com>");
MODULE_DESCRIPTION("DMA map and dmaengine benchmark");
MODULE_LICENSE("GPL");
