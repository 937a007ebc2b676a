// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA map benchmark, map modes: binding, the per-device debugfs file,
 * validation, the ioctls and the thread pool.
 *
 * Based on the kernel's DMA map benchmark, Copyright (C) 2020 HiSilicon
 * Limited.
 * The map modes live in map_*.c as ops tables; this file knows none of them
 * beyond the table below. What the dmaengine mode shares is in core.c.
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
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/topology.h>
#include <linux/uaccess.h>

#include "map_benchmark.h"

#define DRIVER_NAME	"dma_map_benchmark"

static_assert(sizeof(struct map_benchmark) == 136);
static_assert(sizeof(struct map_benchmark_ext) == DMA_MAP_BENCH_EXT_SIZE_VER1);

static const struct map_benchmark_ops *const
map_benchmark_modes[DMA_MAP_BENCH_MODE_MAX] = {
	[DMA_MAP_BENCH_SINGLE_MODE] = &dma_single_map_benchmark_ops,
	[DMA_MAP_BENCH_SG_MODE] = &dma_sg_map_benchmark_ops,
};

/**
 * struct map_benchmark_thread - one mapping thread's state
 * @map: the device under test and the request
 * @task: the kthread
 * @affinity: the CPUs it keeps to, or NULL
 * @ended: completed by a thread that stops on an error, and by the last
 *	thread to finish its iterations, to end the run
 * @running: threads still iterating
 * @stat: latencies of this thread, per DMA_MAP_BENCH_OP_*
 * @hist: histograms of the same, for percentiles, or NULL
 *
 * The timed loop writes only its own statistics; they are merged once,
 * after every thread has stopped, so no shared cache line is touched
 * between two samples.
 */
struct map_benchmark_thread {
	struct map_benchmark_data *map;
	struct task_struct *task;
	const struct cpumask *affinity;
	struct completion *ended;
	atomic_t *running;
	struct mb_stat stat[DMA_MAP_BENCH_NR_OPS];
	struct mb_hist *hist;
};

static void map_benchmark_sample(struct map_benchmark_thread *t,
				 unsigned int op, ktime_t start)
{
	u64 v = mb_elapsed_ns(start);

	/* upstream's interface: each sample truncated to units of 100 ns */
	if (t->map->p.legacy)
		v = div_u64(v, 100);
	mb_stat_add(&t->stat[op], v);
	if (t->hist)
		mb_hist_add(&t->hist[op], v);
}

static int map_benchmark_thread_fn(void *data)
{
	struct map_benchmark_thread *t = data;
	const struct map_benchmark_params *p = &t->map->p;
	const struct map_benchmark_ops *ops = p->ops;
	u32 done = 0;
	ktime_t start;
	void *mparam;
	int ret = 0;

	/* before the buffers: they come from the node it runs on */
	mb_kthread_pin(t->affinity);
	mparam = ops->prepare(t->map);
	if (!mparam) {
		ret = -ENOMEM;
		goto out;
	}

	while (!kthread_should_stop() && (!p->iterations || done < p->iterations)) {
		ops->initialize_data(mparam);

		/*
		 * The counter's windows (mb_mark()) hold the DMA API call
		 * and nothing else: not the clock reads, whose ISBs count.
		 */
		start = ktime_get();
		mb_mark(MB_MARK_MAP);
		ret = ops->do_map(mparam);
		mb_mark(MB_MARK_CLOSE);
		if (ret)
			break;
		map_benchmark_sample(t, DMA_MAP_BENCH_OP_MAP, start);
		mb_mark(MB_MARK_EMPTY);
		mb_mark(MB_MARK_CLOSE);

		if (p->sync) {
			/* the CPU looks at the data, then hands it back */
			start = ktime_get();
			mb_mark(MB_MARK_SYNC_CPU);
			ops->do_sync_for_cpu(mparam);
			mb_mark(MB_MARK_CLOSE);
			map_benchmark_sample(t, DMA_MAP_BENCH_OP_SYNC_CPU, start);
			start = ktime_get();
			mb_mark(MB_MARK_SYNC_DEVICE);
			ops->do_sync_for_device(mparam);
			mb_mark(MB_MARK_CLOSE);
			map_benchmark_sample(t, DMA_MAP_BENCH_OP_SYNC_DEVICE,
					     start);
		}

		/* Pretend DMA is transmitting */
		ndelay(p->dma_trans_ns);

		start = ktime_get();
		mb_mark(MB_MARK_UNMAP);
		ops->do_unmap(mparam);
		mb_mark(MB_MARK_CLOSE);
		map_benchmark_sample(t, DMA_MAP_BENCH_OP_UNMAP, start);
		done++;

		/*
		 * With as many threads as CPUs on a non-preemptible kernel,
		 * the thread that must stop us needs a CPU too.
		 */
		cond_resched();
	}

	ops->unprepare(mparam);
out:
	if (ret || atomic_dec_and_test(t->running))
		complete(t->ended);
	return ret;
}

/* The CPUs thread @i keeps to (mb_kthread_pin()), or NULL for any. */
static const struct cpumask *
map_benchmark_affinity(const struct map_benchmark_params *p, unsigned int i)
{
	const struct cpumask *mask;

	if (p->nr_cpus)
		return cpumask_of(p->cpus[i % p->nr_cpus]);
	if (p->node == NUMA_NO_NODE)
		return NULL;
	/* a memory-only node has no CPUs: leave such threads be */
	mask = cpumask_of_node(p->node);
	return cpumask_intersects(mask, cpu_online_mask) ? mask : NULL;
}

static void map_benchmark_reduce(struct map_benchmark_op_stat *out,
				 const struct map_benchmark_thread *threads,
				 unsigned int nr, unsigned int op,
				 struct mb_hist *hist, bool legacy)
{
	struct mb_stat stat = {};
	unsigned int i;

	for (i = 0; i < nr; i++) {
		mb_stat_merge(&stat, &threads[i].stat[op]);
		if (hist)
			mb_hist_merge(hist, &threads[i].hist[op]);
	}

	out->count = stat.n;
	out->mean_ns = mb_stat_mean(&stat);
	out->stddev_ns = legacy ? mb_stat_stddev_upstream(&stat) :
				  mb_stat_stddev(&stat);
	out->min_ns = stat.n ? stat.min : 0;
	out->max_ns = stat.max;
	if (hist) {
		/* a bucket's middle may lie outside what was seen */
		out->p50_ns = clamp(mb_hist_percentile(hist, stat.n, 50),
				    out->min_ns, out->max_ns);
		out->p90_ns = clamp(mb_hist_percentile(hist, stat.n, 90),
				    out->min_ns, out->max_ns);
		out->p99_ns = clamp(mb_hist_percentile(hist, stat.n, 99),
				    out->min_ns, out->max_ns);
	}
}

static int map_benchmark_report(struct map_benchmark_op_stat *op,
				const struct map_benchmark_thread *threads,
				const struct map_benchmark_params *p)
{
	struct mb_hist *hist = NULL;
	unsigned int i;

	if (p->histogram) {
		hist = kvmalloc_obj(*hist, GFP_KERNEL);
		if (!hist)
			return -ENOMEM;
	}
	for (i = 0; i < DMA_MAP_BENCH_NR_OPS; i++) {
		if (hist)
			memset(hist, 0, sizeof(*hist));
		map_benchmark_reduce(&op[i], threads, p->threads, i, hist,
				     p->legacy);
	}
	kvfree(hist);
	return 0;
}

static void map_benchmark_free_threads(struct map_benchmark_thread *threads,
				       unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		kvfree(threads[i].hist);
	kvfree(threads);
}

/*
 * Start the threads and wait for the end of the run: its time, its last
 * thread, an error, a signal, or the device being unbound.
 */
static int map_benchmark_wait(struct map_benchmark_data *map,
			      struct completion *ended,
			      struct map_benchmark_thread *threads)
{
	const struct map_benchmark_params *p = &map->p;
	unsigned int i;
	bool gone;
	long left;

	/* from here on, unbinding the device ends the run */
	spin_lock(&map->cancel_lock);
	gone = map->gone;
	if (!gone)
		map->ended = ended;
	spin_unlock(&map->cancel_lock);
	if (gone)
		return -ENODEV;

	for (i = 0; i < p->threads; i++)
		wake_up_process(threads[i].task);
	left = wait_for_completion_interruptible_timeout(ended,
							 p->seconds * HZ);

	spin_lock(&map->cancel_lock);
	map->ended = NULL;
	gone = map->gone;
	spin_unlock(&map->cancel_lock);
	if (gone) {
		pr_info("run ended: %s is being unbound\n", dev_name(map->dev));
		return -ENODEV;
	}
	if (left == -ERESTARTSYS) {
		pr_info("run interrupted by a signal\n");
		return -EINTR;
	}
	if (!left && p->iterations) {
		pr_err("%u iterations did not finish within %u seconds\n",
		       p->iterations, p->seconds);
		return -ETIMEDOUT;
	}
	return 0;
}

static int map_benchmark_run(struct map_benchmark_data *map,
			     struct map_benchmark_op_stat *op)
{
	const struct map_benchmark_params *p = &map->p;
	DECLARE_COMPLETION_ONSTACK(ended);
	struct map_benchmark_thread *threads;
	unsigned int created, i;
	atomic_t running;
	int ret = 0;

	threads = kvcalloc(p->threads, sizeof(*threads), GFP_KERNEL);
	if (!threads)
		return -ENOMEM;
	atomic_set(&running, p->threads);

	for (created = 0; created < p->threads; created++) {
		struct map_benchmark_thread *t = &threads[created];

		t->map = map;
		t->ended = &ended;
		t->running = &running;
		if (p->histogram) {
			t->hist = kvcalloc(DMA_MAP_BENCH_NR_OPS,
					   sizeof(*t->hist), GFP_KERNEL);
			if (!t->hist) {
				ret = -ENOMEM;
				break;
			}
		}
		t->task = kthread_create_on_node(map_benchmark_thread_fn, t,
						 p->node, "dma-map-benchmark/%u",
						 created);
		if (IS_ERR(t->task)) {
			ret = PTR_ERR(t->task);
			pr_err("cannot create thread %u: %d\n", created, ret);
			break;
		}
		/* the thread may exit on an error before we stop it */
		get_task_struct(t->task);
		t->affinity = map_benchmark_affinity(p, created);
	}

	if (!ret)
		ret = map_benchmark_wait(map, &ended, threads);

	for (i = 0; i < created; i++) {
		int thread_ret = kthread_stop(threads[i].task);

		put_task_struct(threads[i].task);
		if (thread_ret && !ret)
			ret = thread_ret;
	}

	if (!ret)
		ret = map_benchmark_report(op, threads, p);

	map_benchmark_free_threads(threads, p->threads);
	return ret;
}

/**
 * map_benchmark_alloc_pages() - the map modes' buffer pages
 * @p: the request: its node
 * @order: the allocation's order
 *
 * On @p->node only when one is given, and failing rather than invoking the
 * OOM killer: what mb_memory_bound() let through may still not
 * be there by the time a thread allocates it.
 *
 * Return: the pages, or NULL.
 */
struct page *map_benchmark_alloc_pages(const struct map_benchmark_params *p,
				       unsigned int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN;

	if (p->node == NUMA_NO_NODE)
		return alloc_pages(gfp, order);
	return alloc_pages_node(p->node, gfp | __GFP_THISNODE, order);
}

/*
 * Buffers are allocated per thread, histograms too: refuse what memory
 * cannot hold, for either ioctl, by the one policy of every mode.
 */
static int map_benchmark_check_memory(const struct map_benchmark_params *p)
{
	u64 buffer = p->ops->buffer_bytes(p);
	u64 hist = p->histogram ?
		DMA_MAP_BENCH_NR_OPS * sizeof(struct mb_hist) : 0;

	return mb_memory_bound((buffer + hist) * p->threads,
			       "entries %u x entry_size %zu x threads %u",
			       p->entries, p->entry_size,
			       p->threads);
}

/* "0 (single) or 1 (sg)": the map modes, as their ops name them */
static void map_benchmark_mode_list(char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < DMA_MAP_BENCH_MODE_MAX; i++)
		n += scnprintf(buf + n, len - n, "%s%u (%s)",
			       !i ? "" : i + 1 < DMA_MAP_BENCH_MODE_MAX ?
			       ", " : " or ", i, map_benchmark_modes[i]->name);
}

/* What both ioctls share: fills @p from the request's common fields. */
static int map_benchmark_validate_common(struct map_benchmark_params *p,
					 u32 map_mode, u32 dma_dir)
{
	if (map_mode >= DMA_MAP_BENCH_MODE_MAX) {
		char modes[64];

		map_benchmark_mode_list(modes, sizeof(modes));
		mb_refuse_err("invalid map_mode %u: must be %s\n", map_mode,
			      modes);
		return -EINVAL;
	}
	p->ops = map_benchmark_modes[map_mode];

	if (mb_check_range("threads", p->threads, 1, DMA_MAP_MAX_THREADS) ||
	    mb_check_range("seconds", p->seconds, 1, DMA_MAP_MAX_SECONDS) ||
	    mb_check_range("dma_trans_ns", p->dma_trans_ns, 0,
			   DMA_MAP_MAX_TRANS_DELAY) ||
	    mb_check_range("dma_bits", p->dma_bits, 20, 64))
		return -EINVAL;
	if (p->node != NUMA_NO_NODE &&
	    (p->node < 0 || p->node >= MAX_NUMNODES ||
	     !node_possible(p->node))) {
		mb_refuse_err("invalid node %d: not a possible NUMA node, or -1\n",
			      p->node);
		return -EINVAL;
	}

	switch (dma_dir) {
	case DMA_MAP_BIDIRECTIONAL:
		p->dir = DMA_BIDIRECTIONAL;
		break;
	case DMA_MAP_FROM_DEVICE:
		p->dir = DMA_FROM_DEVICE;
		break;
	case DMA_MAP_TO_DEVICE:
		p->dir = DMA_TO_DEVICE;
		break;
	default:
		mb_refuse_err("invalid dma_dir %u: must be 0 (bidirectional), 1 (to device) or 2 (from device)\n",
			      dma_dir);
		return -EINVAL;
	}
	if (p->ops->validate)
		return p->ops->validate(p);
	return 0;
}

static int map_benchmark_validate(const struct map_benchmark *req,
				  struct map_benchmark_params *p)
{
	unsigned int i;

	*p = (struct map_benchmark_params) {
		.threads = req->threads,
		.seconds = req->seconds,
		.node = req->node,
		.dma_bits = req->dma_bits,
		.dma_trans_ns = req->dma_trans_ns,
		.entries = req->granule,
		.entry_size = PAGE_SIZE,
		.legacy = true,
	};
	if (mb_check_range("granule", req->granule, 1,
			   DMA_MAP_MAX_GRANULE))
		return -EINVAL;
	for (i = 0; i < sizeof(req->expansion); i++) {
		if (req->expansion[i]) {
			mb_refuse_err("invalid expansion[%u] 0x%02x: reserved, must be zero\n",
				      i, req->expansion[i]);
			return -EINVAL;
		}
	}
	return map_benchmark_validate_common(p, req->map_mode, req->dma_dir);
}

static int map_benchmark_copy_cpus(struct map_benchmark_params *p,
				   const struct map_benchmark_ext *req)
{
	int ret;

	ret = mb_cpus_from_user(req->cpus_ptr, req->nr_cpus,
				DMA_MAP_MAX_CPUS, &p->cpus);
	if (!ret)
		p->nr_cpus = req->nr_cpus;
	return ret;
}

static int map_benchmark_validate_ext(const struct map_benchmark_ext *req,
				      struct map_benchmark_params *p)
{
	int ret;

	*p = (struct map_benchmark_params) {
		.threads = req->threads,
		.seconds = req->seconds,
		.iterations = req->iterations,
		.node = req->node,
		.dma_bits = req->dma_bits,
		.dma_trans_ns = req->dma_trans_ns,
		.entries = req->entries,
		.entry_size = req->entry_size ?: PAGE_SIZE,
		.sync = req->flags & DMA_MAP_BENCH_F_SYNC,
		.histogram = true,
	};
	if (mb_check_flags("flags", req->flags, DMA_MAP_BENCH_F_ALL))
		return -EINVAL;
	/* one name for the two, as the refusal has always said */
	if (mb_check_zero("reserved0/reserved_in", &req->reserved0,
			  sizeof(req->reserved0)) ||
	    mb_check_zero("reserved0/reserved_in", req->reserved_in,
			  sizeof(req->reserved_in)))
		return -EINVAL;
	if (mb_check_range("entries", req->entries, 1,
			   DMA_MAP_MAX_ENTRIES) ||
	    mb_check_range("entry_size", p->entry_size, 1,
			   PAGE_SIZE << DMA_BENCH_MAX_PAGE_ORDER) ||
	    mb_check_range("iterations", req->iterations, 0,
			   DMA_MAP_MAX_ITERATIONS))
		return -EINVAL;
	ret = map_benchmark_validate_common(p, req->map_mode, req->dma_dir);
	if (!ret)
		ret = map_benchmark_copy_cpus(p, req);
	return ret;
}

/*
 * Serialize, set the DMA mask for the run, fit the request to the device,
 * run, restore the mask. @p gets the device's limits and segments.
 */
static int map_benchmark_locked_run(struct map_benchmark_data *map,
				    struct map_benchmark_params *p,
				    struct map_benchmark_op_stat *op)
{
	u64 old_dma_mask;
	int ret;

	/* one run at a time: a second caller waits for the first to end */
	if (mutex_lock_interruptible(&map->lock))
		return -EINTR;

	old_dma_mask = dma_get_mask(map->dev);
	ret = dma_set_mask(map->dev, DMA_BIT_MASK(p->dma_bits));
	if (ret) {
		mb_refuse_err("cannot set a %u-bit DMA mask on %s: %d\n",
			      p->dma_bits, dev_name(map->dev), ret);
		ret = -EINVAL;
		goto unlock;
	}

	/* the device's limits depend on its mask: fit the request now */
	dma_bench_seg_limits_of(map->dev, &p->seg);
	ret = map_benchmark_check_memory(p);
	if (!ret)
		ret = p->ops->fit(p, map->dev);
	if (!ret) {
		map->p = *p;
		ret = map_benchmark_run(map, op);
	}

	/*
	 * Restore the mask: the architecture, ACPI or the bus set it, and the
	 * device's own driver must find it unchanged when it binds again.
	 */
	dma_set_mask(map->dev, old_dma_mask);
unlock:
	mutex_unlock(&map->lock);
	return ret;
}

static long map_benchmark_ioctl_legacy(struct map_benchmark_data *map,
				       void __user *argp)
{
	struct map_benchmark_op_stat op[DMA_MAP_BENCH_NR_OPS] = {};
	struct map_benchmark_params p;
	struct map_benchmark req;
	int ret;

	if (copy_from_user(&req, argp, sizeof(req)))
		return -EFAULT;
	ret = map_benchmark_validate(&req, &p);
	if (!ret)
		ret = map_benchmark_locked_run(map, &p, op);
	if (ret)
		return ret;

	/* p.legacy: these are in units of 100 ns already */
	req.avg_map_100ns = op[DMA_MAP_BENCH_OP_MAP].mean_ns;
	req.map_stddev = op[DMA_MAP_BENCH_OP_MAP].stddev_ns;
	req.avg_unmap_100ns = op[DMA_MAP_BENCH_OP_UNMAP].mean_ns;
	req.unmap_stddev = op[DMA_MAP_BENCH_OP_UNMAP].stddev_ns;
	if (copy_to_user(argp, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

static long map_benchmark_run_ext(void *r, void *ctx)
{
	struct map_benchmark_params p = {};
	struct map_benchmark_ext *req = r;
	int ret;

	ret = map_benchmark_validate_ext(req, &p);
	if (!ret)
		ret = map_benchmark_locked_run(ctx, &p, req->op);
	kfree(p.cpus);
	if (ret)
		return ret;

	req->segments = p.segments;
	req->max_segment = p.seg.max;
	return 0;
}

static_assert(offsetof(struct map_benchmark_ext, size) == 0);

/* A failed call writes nothing back, as upstream's ioctl. */
static const struct mb_ioctl_io map_benchmark_ext_io = {
	.size = sizeof(struct map_benchmark_ext),
	.min_size = DMA_MAP_BENCH_EXT_SIZE_VER1,
	.out_off = offsetof(struct map_benchmark_ext, op),
	.run = map_benchmark_run_ext,
};

static long map_benchmark_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	struct map_benchmark_data *map = file->private_data;
	void __user *argp = (void __user *)arg;
	/* the number's size field is the first version's: match the rest */
	bool ext = _IOC_TYPE(cmd) == _IOC_TYPE(DMA_MAP_BENCHMARK_EXT) &&
		   _IOC_NR(cmd) == _IOC_NR(DMA_MAP_BENCHMARK_EXT);
	int ret;

	if (cmd != DMA_MAP_BENCHMARK && !ext)
		return -ENOTTY;
	ret = mb_capable();
	if (ret)
		return ret;
	if (ext)
		return mb_ioctl(argp, &map_benchmark_ext_io, map);
	return map_benchmark_ioctl_legacy(map, argp);
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

/*
 * Unbinding: end the run in progress (its ioctl returns ENODEV once its
 * threads have stopped) and refuse new ones, before debugfs_remove() waits
 * for the ioctl to return.
 */
static void map_benchmark_cancel(void *data)
{
	struct map_benchmark_data *map = data;

	spin_lock(&map->cancel_lock);
	map->gone = true;
	if (map->ended)
		complete(map->ended);
	spin_unlock(&map->cancel_lock);
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
	spin_lock_init(&map->cancel_lock);

	/* one device at a time: a second probe finds the file present */
	entry = mb_debugfs_create("dma_map_benchmark", map,
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
	/* devm actions run last first: this one before the removal above */
	ret = devm_add_action(dev, map_benchmark_cancel, map);
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

int __init map_benchmark_driver_init(void)
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
		pci_unregister_driver(&map_benchmark_pci_driver);
	return ret;
}

void map_benchmark_driver_exit(void)
{
	platform_driver_unregister(&map_benchmark_platform_driver);
	pci_unregister_driver(&map_benchmark_pci_driver);
}
