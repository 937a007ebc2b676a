// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode: per-segment dmaengine_prep_dma_memcpy() against one
 * dmaengine_prep_dma_memcpy_sg() per batch, timed by phase.
 *
 * /sys/kernel/debug/dmaengine_benchmark takes DMAENGINE_BENCHMARK with a
 * struct dmaengine_benchmark. The ioctl validates the request, requests the
 * channels, starts one thread per channel (dmaengine_chan.c), drives the
 * runs, alternating prep modes when both are asked for, and reduces the
 * per-run figures to mean and standard deviation.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/dmaengine.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dmaengine_bench.h"

#define DEB_DEFAULT_TIMEOUT_MS	10000
#define DEB_MAX_BYTES		BIT_ULL(40)

static_assert(sizeof(struct dmaengine_benchmark) == DMAENGINE_BENCH_SIZE_VER1);

/* Figures reduced over runs, in the order of struct dmaengine_bench_result. */
enum deb_field {
	DEB_RUN_NS,
	DEB_PREP_NS,
	DEB_SUBMIT_NS,
	DEB_ISSUE_NS,
	DEB_WAIT_NS,
	DEB_MAP_NS,
	DEB_UNMAP_NS,
	DEB_BYTES_PER_SEC,
	DEB_NR_FIELDS,
};

static struct dentry *deb_debugfs;
/* One run at a time: channels, memory and CPUs are the system's. */
static DEFINE_MUTEX(deb_lock);

static const char *const deb_prep_names[DMAENGINE_BENCH_NR_PREP_MODES] = {
	[DEB_PREP_MEMCPY] = "prep_memcpy",
	[DEB_PREP_MEMCPY_SG] = "prep_memcpy_sg",
};

static bool deb_string_ok(const char *s, const char *field)
{
	if (strnlen(s, DMAENGINE_BENCH_NAME_LEN) < DMAENGINE_BENCH_NAME_LEN)
		return true;
	mb_refuse_err("invalid %s: not NUL-terminated within %d bytes\n", field,
		      DMAENGINE_BENCH_NAME_LEN);
	return false;
}

static bool deb_node_ok(int node, const char *field)
{
	if (node == NUMA_NO_NODE ||
	    (node >= 0 && node < MAX_NUMNODES && node_state(node, N_MEMORY)))
		return true;
	mb_refuse_err("invalid %s %d: not a NUMA node with memory, or -1\n", field,
		      node);
	return false;
}

static bool deb_zero(const void *p, size_t len, const char *field)
{
	if (!memchr_inv(p, 0, len))
		return true;
	mb_refuse_err("invalid %s: reserved, must be zero\n", field);
	return false;
}

static int deb_validate(struct dmaengine_benchmark *p)
{
	if (p->flags & ~DMAENGINE_BENCH_F_ALL) {
		mb_refuse_err("invalid flags 0x%x: unknown bits 0x%x\n", p->flags,
			      p->flags & ~DMAENGINE_BENCH_F_ALL);
		return -EINVAL;
	}
	if (!p->prep_modes || p->prep_modes & ~DMAENGINE_BENCH_PREP_ALL) {
		mb_refuse_err("invalid prep_modes 0x%x: must be a non-empty set of 0x%x\n",
			      p->prep_modes, DMAENGINE_BENCH_PREP_ALL);
		return -EINVAL;
	}
	if (map_benchmark_range("channels", p->channels, 1,
				DMAENGINE_BENCH_MAX_CHANNELS) ||
	    map_benchmark_range("folio_order", p->folio_order, 0,
				DMA_BENCH_MAX_PAGE_ORDER) ||
	    map_benchmark_range("sge", p->sge, 1, DMAENGINE_BENCH_MAX_SGE) ||
	    map_benchmark_range("bytes_per_channel", p->bytes_per_channel, 1,
				DEB_MAX_BYTES) ||
	    map_benchmark_range("runs", p->runs, 1, DMAENGINE_BENCH_MAX_RUNS) ||
	    map_benchmark_range("warmup_runs", p->warmup_runs, 0,
				DMAENGINE_BENCH_MAX_WARMUP) ||
	    map_benchmark_range("timeout_ms", p->timeout_ms, 0,
				DMAENGINE_BENCH_MAX_TIMEOUT_MS))
		return -EINVAL;
	if (!deb_node_ok(p->src_node, "src_node") ||
	    !deb_node_ok(p->dst_node, "dst_node") ||
	    !deb_string_ok(p->channel, "channel") ||
	    !deb_string_ok(p->device, "device") ||
	    !deb_zero(&p->reserved0, sizeof(p->reserved0), "reserved0") ||
	    !deb_zero(&p->reserved1, sizeof(p->reserved1), "reserved1") ||
	    !deb_zero(p->reserved_in, sizeof(p->reserved_in), "reserved_in"))
		return -EINVAL;
	if (!p->samples_ptr != !p->samples_len) {
		mb_refuse_err("invalid samples_ptr/samples_len: give both or neither\n");
		return -EINVAL;
	}
	return 0;
}

/* Buffers are pinned for the whole call: refuse what memory cannot hold. */
static int deb_check_memory(const struct dmaengine_benchmark *p)
{
	return map_benchmark_memory_bound((u64)p->sge *
					  (PAGE_SIZE << p->folio_order) * 2 *
					  p->channels,
					  "sge %u x folio %lu bytes x 2 x %u channels",
					  p->sge, PAGE_SIZE << p->folio_order,
					  p->channels);
}

static bool deb_filter(struct dma_chan *chan, void *param)
{
	const struct dmaengine_benchmark *p = param;

	if (p->channel[0] && strcmp(dma_chan_name(chan), p->channel))
		return false;
	if (p->device[0] && strcmp(dev_name(chan->device->dev), p->device))
		return false;
	return true;
}

static void deb_release_channels(struct deb_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++)
		dma_release_channel(run->chans[i].chan);
	run->nr = 0;
}

static int deb_request_channels(struct deb_run *run,
				struct dmaengine_benchmark *p)
{
	dma_cap_mask_t mask;
	ktime_t start = ktime_get();

	dma_cap_zero(mask);
	dma_cap_set(DMA_MEMCPY, mask);

	while (run->nr < p->channels) {
		struct dma_chan *chan = dma_request_channel(mask, deb_filter, p);

		if (!chan)
			break;
		run->chans[run->nr++].chan = chan;
	}
	p->acquire_ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	if (!run->nr ||
	    (run->nr < p->channels &&
	     !(p->flags & DMAENGINE_BENCH_F_ALLOW_FEWER))) {
		pr_err("found %u DMA_MEMCPY channels%s%s%s%s, channels asks for %u\n",
		       run->nr, p->channel[0] ? " named " : "", p->channel,
		       p->device[0] ? " on device " : "", p->device,
		       p->channels);
		p->error = DMAENGINE_BENCH_ERR_NO_CHANNEL;
		deb_release_channels(run);
		return -ENODEV;
	}
	return 0;
}

/* Before any channel is touched: does this kernel have the API at all? */
static int deb_check_memcpy_sg_api(struct dmaengine_benchmark *p)
{
	if (!(p->prep_modes & DMAENGINE_BENCH_PREP_MEMCPY_SG) ||
	    dma_bench_have_memcpy_sg())
		return 0;
	pr_err("prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg() (removed from mainline in 6.0); see kernel/patches/\n");
	p->error = DMAENGINE_BENCH_ERR_NO_API;
	return -EOPNOTSUPP;
}

/* Every channel must advertise the capability for a memcpy_sg run. */
static int deb_check_memcpy_sg_cap(struct deb_run *run,
				   struct dmaengine_benchmark *p)
{
#ifdef HAVE_DMA_MEMCPY_SG
	unsigned int i;

	if (!(p->prep_modes & DMAENGINE_BENCH_PREP_MEMCPY_SG))
		return 0;
	for (i = 0; i < run->nr; i++) {
		struct dma_chan *chan = run->chans[i].chan;

		if (!dma_has_cap(DMA_MEMCPY_SG, chan->device->cap_mask)) {
			pr_err("prep_memcpy_sg: %s (%s) has no DMA_MEMCPY_SG capability\n",
			       dma_chan_name(chan), dev_name(chan->device->dev));
			p->error = DMAENGINE_BENCH_ERR_NO_CAP;
			p->error_channel = i;
			return -EOPNOTSUPP;
		}
	}
#endif
	return 0;
}

static int deb_node_or(int node, int fallback)
{
	return node == NUMA_NO_NODE ? fallback : node;
}

static void deb_channel_info(const struct deb_chan *c,
			     struct dmaengine_bench_channel *info)
{
	struct device *dev = c->chan->device->dev;

	memset(info, 0, sizeof(*info));
	strscpy(info->name, dma_chan_name(c->chan), sizeof(info->name));
	strscpy(info->device, dev_name(dev), sizeof(info->device));
	if (dev->driver)
		strscpy(info->driver, dev->driver->name, sizeof(info->driver));
	info->node = dev_to_node(dev);
	info->src_node = c->src_node;
	info->dst_node = c->dst_node;
	info->max_seg_size = dma_get_max_seg_size(c->dma_dev);
	info->copy_align = c->chan->device->copy_align;
#ifdef HAVE_DMA_MEMCPY_SG
	info->has_memcpy_sg = dma_has_cap(DMA_MEMCPY_SG,
					  c->chan->device->cap_mask);
#endif
}

static int deb_copy_channels(const struct deb_run *run,
			     const struct dmaengine_benchmark *p)
{
	struct dmaengine_bench_channel __user *uinfo =
		u64_to_user_ptr(p->channels_ptr);
	struct dmaengine_bench_channel info;
	unsigned int i;

	if (!p->channels_ptr)
		return 0;
	for (i = 0; i < run->nr; i++) {
		deb_channel_info(&run->chans[i], &info);
		if (copy_to_user(&uinfo[i], &info, sizeof(info)))
			return -EFAULT;
	}
	return 0;
}

/* Which device maps each channel's buffers, and the nodes they come from. */
static void deb_init_channels(struct deb_run *run,
			      const struct dmaengine_benchmark *p)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++) {
		struct deb_chan *c = &run->chans[i];
		int node;

		c->run = run;
		c->index = i;
		c->dma_dev = dmaengine_get_dma_device(c->chan);
		node = dev_to_node(c->dma_dev);
		c->src_node = deb_node_or(p->src_node, node);
		c->dst_node = deb_node_or(p->dst_node, node);
	}
}

/* Buffers and threads for each channel; undone by deb_stop_channels(). */
static int deb_start_channels(struct deb_run *run,
			      struct dmaengine_benchmark *p)
{
	unsigned int i;
	int ret;

	for (i = 0; i < run->nr; i++) {
		struct deb_chan *c = &run->chans[i];

		ret = deb_chan_setup(c);
		if (ret)
			goto fail;

		c->task = kthread_create_on_node(deb_chan_thread, c,
						 dev_to_node(c->dma_dev),
						 "dmaengine-bench/%u", i);
		if (IS_ERR(c->task)) {
			ret = PTR_ERR(c->task);
			c->task = NULL;
			goto fail;
		}
		get_task_struct(c->task);
		wake_up_process(c->task);
	}
	return 0;

fail:
	p->error = run->chans[i].error ?: DMAENGINE_BENCH_ERR_NOMEM;
	p->error_channel = i;
	return ret;
}

static void deb_stop_channels(struct deb_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr; i++) {
		struct deb_chan *c = &run->chans[i];

		if (c->task) {
			kthread_stop(c->task);
			put_task_struct(c->task);
		}
		/* nothing may be left queued on memory about to be freed */
		dmaengine_terminate_sync(c->chan);
		deb_chan_teardown(c);
	}
}

/*
 * One run of one prep mode on every channel at once. Returns 0, or the
 * first channel's error, which is recorded in @p.
 */
static int deb_run_once(struct deb_run *run, struct dmaengine_benchmark *p,
			enum deb_prep prep, unsigned int run_nr)
{
	unsigned int i;

	run->prep = prep;
	run->verify = p->flags & DMAENGINE_BENCH_F_VERIFY;
	atomic_set(&run->pending, run->nr);
	reinit_completion(&run->run_done);
	WRITE_ONCE(run->gen, run->gen + 1);
	wake_up_all(&run->wq);

	if (wait_for_completion_interruptible(&run->run_done)) {
		/* the threads see abort within a wait slice and end the run */
		WRITE_ONCE(run->abort, true);
		wait_for_completion(&run->run_done);
		p->error = DMAENGINE_BENCH_ERR_INTR;
		p->error_run = run_nr;
		p->error_prep_mode = prep;
		pr_info("run interrupted by a signal\n");
		return -EINTR;
	}

	for (i = 0; i < run->nr; i++) {
		const struct deb_chan *c = &run->chans[i];

		if (c->error) {
			p->error = c->error;
			p->error_channel = i;
			p->error_run = run_nr;
			p->error_prep_mode = prep;
			return c->errno;
		}
	}
	return 0;
}

/* The run's figures: phases summed over channels, wall time overall. */
static void deb_collect(const struct deb_run *run, u64 *v[DEB_NR_FIELDS],
			struct dmaengine_bench_result *res, unsigned int r)
{
	ktime_t start = run->chans[0].fig.start, end = run->chans[0].fig.end;
	u64 run_ns;
	unsigned int i;

	res->bytes = 0;
	res->prep_calls = 0;
	res->submits = 0;
	res->batches = 0;
	res->segments = 0;
	for (i = 0; i < DEB_NR_FIELDS; i++)
		v[i][r] = 0;

	for (i = 0; i < run->nr; i++) {
		const struct deb_figures *f = &run->chans[i].fig;

		start = ktime_before(f->start, start) ? f->start : start;
		end = ktime_after(f->end, end) ? f->end : end;
		v[DEB_PREP_NS][r] += f->prep_ns;
		v[DEB_SUBMIT_NS][r] += f->submit_ns;
		v[DEB_ISSUE_NS][r] += f->issue_ns;
		v[DEB_WAIT_NS][r] += f->wait_ns;
		v[DEB_MAP_NS][r] += f->map_ns;
		v[DEB_UNMAP_NS][r] += f->unmap_ns;
		res->bytes += f->bytes;
		res->prep_calls += f->prep_calls;
		res->submits += f->submits;
		res->batches += f->batches;
		res->segments += f->segments;
	}
	run_ns = max_t(u64, ktime_to_ns(ktime_sub(end, start)), 1);
	v[DEB_RUN_NS][r] = run_ns;
	v[DEB_BYTES_PER_SEC][r] = mul_u64_u64_div_u64(res->bytes, NSEC_PER_SEC,
						      run_ns);
}

static int deb_copy_samples(const struct deb_run *run,
			    struct dmaengine_benchmark *p,
			    enum deb_prep prep, unsigned int r)
{
	struct dmaengine_bench_sample __user *usamples =
		u64_to_user_ptr(p->samples_ptr);
	ktime_t start = run->chans[0].fig.start;
	struct dmaengine_bench_sample s;
	unsigned int i;

	for (i = 0; i < run->nr; i++)
		if (ktime_before(run->chans[i].fig.start, start))
			start = run->chans[i].fig.start;

	for (i = 0; i < run->nr && p->samples_written < p->samples_len; i++) {
		const struct deb_figures *f = &run->chans[i].fig;

		memset(&s, 0, sizeof(s));
		s.prep_mode = prep;
		s.run = r;
		s.channel = i;
		s.start_ns = ktime_to_ns(ktime_sub(f->start, start));
		s.end_ns = ktime_to_ns(ktime_sub(f->end, start));
		s.prep_ns = f->prep_ns;
		s.submit_ns = f->submit_ns;
		s.issue_ns = f->issue_ns;
		s.wait_ns = f->wait_ns;
		s.map_ns = f->map_ns;
		s.unmap_ns = f->unmap_ns;
		s.bytes = f->bytes;
		s.prep_calls = f->prep_calls;
		s.submits = f->submits;
		if (copy_to_user(&usamples[p->samples_written], &s, sizeof(s)))
			return -EFAULT;
		p->samples_written++;
	}
	return 0;
}

static void deb_reduce(struct dmaengine_bench_result *res,
		       u64 *v[DEB_NR_FIELDS], unsigned int runs)
{
	struct dmaengine_bench_stat *stat = &res->run_ns;
	unsigned int f;

	/* the stats of struct dmaengine_bench_result follow enum deb_field */
	for (f = 0; f < DEB_NR_FIELDS; f++)
		mb_mean_stddev(v[f], runs, &stat[f].mean, &stat[f].stddev);
	res->runs = runs;
}

/* Warm-up runs, then timed runs, alternating prep modes run by run. */
static int deb_runs(struct deb_run *run, struct dmaengine_benchmark *p)
{
	u64 *vals[DMAENGINE_BENCH_NR_PREP_MODES][DEB_NR_FIELDS];
	u64 *store;
	unsigned int total = p->warmup_runs + p->runs, r, m, f;
	int ret = 0;

	store = kvcalloc(array_size(DMAENGINE_BENCH_NR_PREP_MODES *
				    DEB_NR_FIELDS, p->runs),
			 sizeof(*store), GFP_KERNEL);
	if (!store)
		return -ENOMEM;
	for (m = 0; m < DMAENGINE_BENCH_NR_PREP_MODES; m++)
		for (f = 0; f < DEB_NR_FIELDS; f++)
			vals[m][f] = store +
				(m * DEB_NR_FIELDS + f) * (size_t)p->runs;

	for (r = 0; r < total && !ret; r++) {
		for (m = 0; m < DMAENGINE_BENCH_NR_PREP_MODES && !ret; m++) {
			unsigned int timed = r - p->warmup_runs;

			if (!(p->prep_modes & BIT(m)))
				continue;
			ret = deb_run_once(run, p, m, r);
			if (ret || r < p->warmup_runs)
				continue;
			deb_collect(run, vals[m], &p->result[m], timed);
			if (p->samples_ptr)
				ret = deb_copy_samples(run, p, m, timed);
		}
	}

	if (!ret)
		for (m = 0; m < DMAENGINE_BENCH_NR_PREP_MODES; m++)
			if (p->prep_modes & BIT(m))
				deb_reduce(&p->result[m], vals[m], p->runs);
	kvfree(store);
	return ret;
}

static int deb_benchmark(struct dmaengine_benchmark *p)
{
	struct deb_run *run;
	int ret;

	ret = deb_check_memcpy_sg_api(p);
	if (ret)
		return ret;

	ret = deb_check_memory(p);
	if (ret) {
		p->error = DMAENGINE_BENCH_ERR_NOMEM;
		return ret;
	}

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->chans = kcalloc(p->channels, sizeof(*run->chans), GFP_KERNEL);
	if (!run->chans) {
		kfree(run);
		return -ENOMEM;
	}
	run->p = p;
	run->folio_size = PAGE_SIZE << p->folio_order;
	run->batches = max_t(u64, 1, div64_u64(p->bytes_per_channel +
					       (u64)p->sge * run->folio_size - 1,
					       (u64)p->sge * run->folio_size));
	run->timeout = msecs_to_jiffies(p->timeout_ms ?: DEB_DEFAULT_TIMEOUT_MS);
	init_waitqueue_head(&run->wq);
	init_completion(&run->run_done);

	ret = deb_request_channels(run, p);
	if (ret)
		goto free;
	p->channels_used = run->nr;
	deb_init_channels(run, p);

	/* name the channels first: errors from here on can refer to them */
	ret = deb_copy_channels(run, p);
	if (!ret)
		ret = deb_check_memcpy_sg_cap(run, p);
	if (ret)
		goto release;

	ret = deb_start_channels(run, p);
	if (!ret)
		ret = deb_runs(run, p);

	deb_stop_channels(run);
release:
	deb_release_channels(run);
free:
	kfree(run->chans);
	kfree(run);
	return ret;
}

/* Results are outputs: whatever came in is overwritten. */
static void deb_clear_outputs(struct dmaengine_benchmark *p)
{
	p->error = 0;
	p->error_channel = 0;
	p->error_run = 0;
	p->error_prep_mode = 0;
	p->channels_used = 0;
	p->samples_written = 0;
	p->acquire_ns = 0;
	memset(p->result, 0, sizeof(p->result));
	memset(p->reserved_out, 0, sizeof(p->reserved_out));
}

static long deb_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct dmaengine_benchmark __user *uarg = (void __user *)arg;
	struct dmaengine_benchmark p;
	u32 usize;
	int ret;

	/* the number's size field is the first version's: match the rest */
	if (_IOC_TYPE(cmd) != _IOC_TYPE(DMAENGINE_BENCHMARK) ||
	    _IOC_NR(cmd) != _IOC_NR(DMAENGINE_BENCHMARK))
		return -ENOTTY;
	ret = map_benchmark_capable();
	if (ret)
		return ret;

	ret = map_benchmark_copy_in(&p, sizeof(p), uarg, &uarg->size,
				    DMAENGINE_BENCH_SIZE_VER1, &usize);
	if (ret)
		return ret;

	deb_clear_outputs(&p);

	ret = deb_validate(&p);
	if (ret) {
		p.error = DMAENGINE_BENCH_ERR_INVAL;
	} else if (mutex_lock_interruptible(&deb_lock)) {
		p.error = DMAENGINE_BENCH_ERR_INTR;
		ret = -EINTR;
	} else {
		ret = deb_benchmark(&p);
		mutex_unlock(&deb_lock);
	}

	if (ret)
		pr_debug("%s failed: error %u, channel %u, run %u\n",
			 deb_prep_names[p.error_prep_mode & 1], p.error,
			 p.error_channel, p.error_run);

	/* even a failed run reports why, and where */
	if (copy_to_user(uarg, &p, min_t(size_t, usize, sizeof(p))))
		return -EFAULT;
	return ret;
}

static const struct file_operations deb_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.unlocked_ioctl	= deb_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

int dmaengine_bench_init(void)
{
	deb_debugfs = debugfs_create_file("dmaengine_benchmark", 0600, NULL,
					  NULL, &deb_fops);
	if (IS_ERR(deb_debugfs)) {
		pr_err("cannot create debugfs file dmaengine_benchmark: %ld\n",
		       PTR_ERR(deb_debugfs));
		return PTR_ERR(deb_debugfs);
	}
	return 0;
}

void dmaengine_bench_exit(void)
{
	debugfs_remove(deb_debugfs);
}
