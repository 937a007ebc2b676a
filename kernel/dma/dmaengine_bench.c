// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode: per-segment dmaengine_prep_dma_memcpy() against one
 * dmaengine_prep_dma_memcpy_sg() or dmaengine_prep_dma_memcpy_vec() per
 * batch, and the CPU's copy of the same folios, timed by phase.
 *
 * /sys/kernel/debug/dmaengine_benchmark takes DMAENGINE_BENCHMARK with a
 * struct dmaengine_benchmark. The ioctl validates the request, requests the
 * channels, starts one thread per channel (dmaengine_thread.c), drives the
 * runs, alternating prep modes in an order that rotates from run to run,
 * and reduces the per-run figures to mean and standard deviation. A
 * provider unbound during a run ends it: the channels' names are kept, and
 * a bus notifier tells the threads to stop.
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
#include <linux/notifier.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "dmaengine_bench.h"
#include "dmacopy_errors.h"
#include "migrate_compat.h"

/* beyond a batch's timeout, what an unbind waits for the run to end */
#define DMAENGINE_BENCH_QUIESCE_SLACK		(5 * HZ)
#define DMAENGINE_BENCH_MAX_BYTES		BIT_ULL(40)

#define DMAENGINE_BENCH_MAX_SAMPLE_SIZE	4096

static_assert(sizeof(struct dmaengine_benchmark) == DMAENGINE_BENCH_SIZE_VER1);
static_assert(sizeof(struct dmaengine_bench_sample) ==
	      DMAENGINE_BENCH_SAMPLE_SIZE_VER1);
/* the number of the layout before this one, no longer answered */
#define DMAENGINE_BENCH_OLD_NR	3

MODULE_IMPORT_NS(DMACOPY_NS);

/*
 * The dmacopy form of each DMAENGINE_BENCH_MODE_*. The CPU's copy is the
 * benchmark's own mode, no form of the library: it copies the folios of
 * memcpy channels, so it names the form whose capability it needs.
 */
static const enum dmacopy_form_id dmaengine_bench_mode_form[] = {
	[DMAENGINE_BENCH_MODE_MEMCPY] = DMACOPY_FORM_MEMCPY,
	[DMAENGINE_BENCH_MODE_MEMCPY_SG] = DMACOPY_FORM_MEMCPY_SG,
	[DMAENGINE_BENCH_MODE_CPU] = DMACOPY_FORM_MEMCPY,
	[DMAENGINE_BENCH_MODE_MEMCPY_VEC] = DMACOPY_FORM_MEMCPY_VEC,
};

static_assert(ARRAY_SIZE(dmaengine_bench_mode_form) == DMAENGINE_BENCH_NR_MODES);

/* The form of a mode's batches, or of the capability the CPU's needs. */
enum dmacopy_form_id dmaengine_bench_form(unsigned int mode)
{
	return dmaengine_bench_mode_form[mode];
}

/* BIT(DMACOPY_FORM_*) of the forms of @modes. */
u32 dmaengine_bench_forms(u32 modes)
{
	unsigned int m;
	u32 forms = 0;

	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
		if (modes & BIT(m))
			forms |= BIT(dmaengine_bench_form(m));
	return forms;
}

/* A mode's name, as the log says it: its form's, or "cpu". */
const char *dmaengine_bench_mode_name(unsigned int mode)
{
	return mode == DMAENGINE_BENCH_MODE_CPU ? "cpu" :
	       dmacopy_form_name(dmaengine_bench_form(mode));
}

/*
 * A channel's first failure in the run as the uapi says it: the
 * benchmark's own (verification, a signal), else the step of a batch that
 * failed in the library; 0 when none did. @err: its errno.
 */
u32 dmaengine_bench_fail_error(const struct dmaengine_bench_chan *c, int *err)
{
	if (c->error) {
		*err = c->err;
		return c->error;
	}
	return dmacopy_fail_error(dmacopy_chan_fail(c->cl, err));
}

static struct dentry *dmaengine_bench_debugfs;
/* One run at a time: channels, memory and CPUs are the system's. */
static DEFINE_MUTEX(dmaengine_bench_lock);

/* prep modes that need an API, and a capability, beyond DMA_MEMCPY */
static u32 dmaengine_bench_batch_modes(void)
{
	u32 modes = 0;
	unsigned int m;

	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
		if (dmaengine_bench_form(m) != DMACOPY_FORM_MEMCPY)
			modes |= BIT(m);
	return modes;
}

static bool dmaengine_bench_node_ok(int node, const char *field)
{
	if (node == NUMA_NO_NODE ||
	    (node >= 0 && node < MAX_NUMNODES && node_state(node, N_MEMORY)))
		return true;
	mb_refuse_err("invalid %s %d: not a NUMA node with memory, or -1\n", field,
		      node);
	return false;
}

/* Destination folios of another order: they must tile a batch exactly. */
static int dmaengine_bench_validate_dst_order(const struct dmaengine_benchmark *p)
{
	u64 batch_bytes;

	if (!(p->flags & DMAENGINE_BENCH_F_DST_ORDER)) {
		if (p->dst_folio_order) {
			mb_refuse_err("invalid dst_folio_order %u: set flag DST_ORDER (0x%x) to use it\n",
				      p->dst_folio_order,
				      DMAENGINE_BENCH_F_DST_ORDER);
			return -EINVAL;
		}
		return 0;
	}
	if (mb_check_range("dst_folio_order", p->dst_folio_order, 0,
			   DMA_BENCH_MAX_PAGE_ORDER))
		return -EINVAL;
	batch_bytes = (u64)p->sge * (PAGE_SIZE << p->folio_order);
	if (!IS_ALIGNED(batch_bytes, PAGE_SIZE << p->dst_folio_order)) {
		mb_refuse_err("invalid dst_folio_order %u: a batch of %u folios of order %u (%llu bytes) does not fill whole destination folios of %lu bytes\n",
			      p->dst_folio_order, p->sge, p->folio_order,
			      batch_bytes, PAGE_SIZE << p->dst_folio_order);
		return -EINVAL;
	}
	if (batch_bytes >> (PAGE_SHIFT + p->dst_folio_order) >
	    DMAENGINE_BENCH_MAX_SGE) {
		mb_refuse_err("invalid dst_folio_order %u: a batch of %llu bytes would take more than %u destination folios\n",
			      p->dst_folio_order, batch_bytes,
			      DMAENGINE_BENCH_MAX_SGE);
		return -EINVAL;
	}
	return 0;
}

static int dmaengine_bench_validate(struct dmaengine_benchmark *p)
{
	if (mb_check_flags("flags", p->flags, DMAENGINE_BENCH_F_ALL) ||
	    mb_check_set("prep_modes", p->prep_modes,
			 DMAENGINE_BENCH_PREP_ALL) ||
	    mb_check_range("channels", p->channels, 1,
			   DMAENGINE_BENCH_MAX_CHANNELS) ||
	    mb_check_range("folio_order", p->folio_order, 0,
			   DMA_BENCH_MAX_PAGE_ORDER) ||
	    mb_check_range("sge", p->sge, 1, DMAENGINE_BENCH_MAX_SGE) ||
	    mb_check_range("bytes_per_channel", p->bytes_per_channel, 1,
			   DMAENGINE_BENCH_MAX_BYTES) ||
	    mb_check_range("runs", p->runs, 1, DMAENGINE_BENCH_MAX_RUNS) ||
	    mb_check_range("warmup_runs", p->warmup_runs, 0,
			   DMAENGINE_BENCH_MAX_WARMUP) ||
	    mb_check_range("timeout_ms", p->timeout_ms, 0,
			   DMAENGINE_BENCH_MAX_TIMEOUT_MS) ||
	    mb_check_range("depth", p->depth, 0,
			   DMAENGINE_BENCH_MAX_DEPTH))
		return -EINVAL;
	if (p->sample_size &&
	    mb_check_range("sample_size", p->sample_size,
			   DMAENGINE_BENCH_SAMPLE_SIZE_VER1,
			   DMAENGINE_BENCH_MAX_SAMPLE_SIZE))
		return -EINVAL;
	if (!dmaengine_bench_node_ok(p->src_node, "src_node") ||
	    !dmaengine_bench_node_ok(p->dst_node, "dst_node") ||
	    mb_check_name("channel", p->channel, sizeof(p->channel)) ||
	    mb_check_name("device", p->device, sizeof(p->device)) ||
	    mb_check_zero("reserved_in", p->reserved_in,
			  sizeof(p->reserved_in)))
		return -EINVAL;
	if (!p->samples_ptr != !p->samples_len) {
		mb_refuse_err("invalid samples_ptr/samples_len: give both or neither\n");
		return -EINVAL;
	}
	return dmaengine_bench_validate_dst_order(p);
}

/* Buffers are pinned for the whole call: refuse what memory cannot hold. */
static int dmaengine_bench_check_memory(const struct dmaengine_benchmark *p)
{
	if (p->flags & DMAENGINE_BENCH_F_DISTINCT)
		return mb_memory_bound(p->buffer_bytes,
				       "buffers of %u channel(s) with distinct folios for every batch (reuse one batch's buffers, or copy fewer bytes_per_channel)",
				       p->channels);
	return mb_memory_bound(p->buffer_bytes,
			       "buffers of %u channel(s) with one batch of folios reused",
			       p->channels);
}

static void dmaengine_bench_unbind(struct dmacopy_set *set,
				   unsigned int index);

/*
 * Channels with what every asked mode needs. Channels that have DMA_MEMCPY
 * but not DMA_MEMCPY_SG or DMA_MEMCPY_VEC are taken only to say which one
 * lacks it, or, with SKIP_MISSING, to run the other modes on them.
 */
static int dmaengine_bench_acquire(struct dmaengine_bench_job *job,
				   struct dmaengine_benchmark *p)
{
	u32 batch_modes = dmaengine_bench_batch_modes();
	u32 others = job->modes & ~batch_modes;
	struct dmacopy_request req = {
		.channel = p->channel,
		.device = p->device,
		.forms = dmaengine_bench_forms(job->modes),
		.count = p->channels,
		.allow_fewer = p->flags & DMAENGINE_BENCH_F_ALLOW_FEWER,
		.quiet = job->modes & batch_modes,
		.poll = p->flags & DMAENGINE_BENCH_F_POLL,
		.timeout = job->timeout,
		.abort = &job->abort,
		.unbind = dmaengine_bench_unbind,
		.priv = job,
	};
	ktime_t start = ktime_get();
	unsigned int i;
	int ret;

	ret = dmacopy_set_open(&job->set, &req);
	if (ret == -ENODEV && req.quiet) {
		req.quiet = false;
		req.forms = dmaengine_bench_forms(others ?:
						  DMAENGINE_BENCH_PREP_MEMCPY);
		ret = dmacopy_set_open(&job->set, &req);
	}
	p->acquire_ns += mb_elapsed_ns(start);
	if (ret) {
		p->error = dmacopy_open_error(ret);
		return ret;
	}
	job->nr = dmacopy_set_count(&job->set);
	for (i = 0; i < job->nr; i++)
		job->chans[i].cl = dmacopy_set_chan(&job->set, i);
	return 0;
}

/* A mode asked for but missing: left out with SKIP_MISSING, else fatal. */
static int dmaengine_bench_missing(struct dmaengine_bench_job *job,
				   struct dmaengine_benchmark *p,
				   unsigned int mode, u32 error)
{
	if (p->flags & DMAENGINE_BENCH_F_SKIP_MISSING &&
	    job->modes & ~BIT(mode)) {
		job->modes &= ~BIT(mode);
		p->results[mode].missing = error;
		pr_info("%s left out: %s %s\n", dmaengine_bench_mode_name(mode),
			error == DMAENGINE_BENCH_ERR_NO_API ?
			"this kernel has no" : "a channel lacks",
			dmacopy_form_cap_name(dmaengine_bench_form(mode)));
		return 0;
	}
	p->error = error;
	p->error_prep_mode = mode;
	return -EOPNOTSUPP;
}

/*
 * Before anything is allocated or any channel touched: does this kernel
 * have the batch APIs asked for at all?
 */
static int dmaengine_bench_check_apis(struct dmaengine_bench_job *job,
				      struct dmaengine_benchmark *p)
{
	unsigned int m;
	int ret;

	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++) {
		if (!(job->modes & BIT(m)) ||
		    !dmacopy_form_check(dmaengine_bench_form(m),
					p->flags & DMAENGINE_BENCH_F_SKIP_MISSING))
			continue;
		ret = dmaengine_bench_missing(job, p, m,
					      DMAENGINE_BENCH_ERR_NO_API);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every channel has the capability of a mode that is to run. */
static int dmaengine_bench_check_cap(struct dmaengine_bench_job *job,
				     struct dmaengine_benchmark *p,
				     unsigned int mode)
{
	enum dmacopy_form_id form = dmaengine_bench_form(mode);
	unsigned int i;
	int ret;

	for (i = 0; i < job->nr && job->modes & BIT(mode); i++) {
		struct dmaengine_bench_chan *c = &job->chans[i];

		if (dmacopy_chan_has_form(c->cl, form))
			continue;
		if (!(p->flags & DMAENGINE_BENCH_F_SKIP_MISSING))
			mb_refuse_err("%s: %s (%s) has no %s capability\n",
				      dmaengine_bench_mode_name(mode),
				      dmacopy_chan_name(c->cl),
				      dmacopy_chan_dev_name(c->cl),
				      dmacopy_form_cap_name(form));
		p->error_channel = i;
		ret = dmaengine_bench_missing(job, p, mode,
					      DMAENGINE_BENCH_ERR_NO_CAP);
		if (ret)
			return ret;
		p->error_channel = 0;
	}
	return 0;
}

/*
 * What the channels can do against what was asked: DMA_MEMCPY_SG for
 * memcpy_sg, DMA_MEMCPY_VEC for memcpy_vec; polling only where the last
 * completion implies the others.
 */
static int dmaengine_bench_check_channels(struct dmaengine_bench_job *job,
					  struct dmaengine_benchmark *p)
{
	unsigned int i;
	int ret;

	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		ret = dmaengine_bench_check_cap(job, p, i);
		if (ret)
			return ret;
	}
	for (i = 0; i < job->nr; i++) {
		struct dmaengine_bench_chan *c = &job->chans[i];

		if (!dmacopy_chan_no_order(c->cl) ||
		    !(p->flags & DMAENGINE_BENCH_F_POLL))
			continue;
		mb_refuse_err("%s (%s) completes out of order (DMA_COMPLETION_NO_ORDER): its tx_status cannot say a batch is done; run without polling\n",
			      dmacopy_chan_name(c->cl), dmacopy_chan_dev_name(c->cl));
		p->error = DMAENGINE_BENCH_ERR_POLL;
		p->error_channel = i;
		return -EOPNOTSUPP;
	}
	return 0;
}

static int dmaengine_bench_node_or(int node, int fallback)
{
	return node == NUMA_NO_NODE ? fallback : node;
}

static void dmaengine_bench_channel_info(const struct dmaengine_bench_chan *c,
					 struct dmaengine_bench_channel *info)
{
	struct device *dev = dmacopy_chan_provider(c->cl);

	memset(info, 0, sizeof(*info));
	strscpy(info->name, dmacopy_chan_name(c->cl), sizeof(info->name));
	strscpy(info->device, dmacopy_chan_dev_name(c->cl),
		sizeof(info->device));
	if (dev->driver)
		strscpy(info->driver, dev->driver->name, sizeof(info->driver));
	info->node = dev_to_node(dev);
	info->src_node = c->src_node;
	info->dst_node = c->dst_node;
	info->max_seg_size = dma_get_max_seg_size(dmacopy_chan_dma_dev(c->cl));
	info->copy_align = dmacopy_chan_copy_align(c->cl);
	info->has_memcpy_sg = dmacopy_chan_has_form(c->cl,
						    DMACOPY_FORM_MEMCPY_SG);
	info->has_memcpy_vec = dmacopy_chan_has_form(c->cl,
						     DMACOPY_FORM_MEMCPY_VEC);
	info->no_order = dmacopy_chan_no_order(c->cl);
}

static int dmaengine_bench_copy_channels(const struct dmaengine_bench_job *job,
					 const struct dmaengine_benchmark *p)
{
	struct dmaengine_bench_channel __user *uinfo =
		u64_to_user_ptr(p->channels_ptr);
	struct dmaengine_bench_channel info;
	unsigned int i;

	if (!p->channels_ptr)
		return 0;
	for (i = 0; i < job->nr; i++) {
		dmaengine_bench_channel_info(&job->chans[i], &info);
		if (copy_to_user(&uinfo[i], &info, sizeof(info)))
			return -EFAULT;
	}
	return 0;
}

/* Which device maps each channel's buffers, and the nodes they come from. */
static void dmaengine_bench_init_channels(struct dmaengine_bench_job *job,
					  const struct dmaengine_benchmark *p)
{
	unsigned int i;

	for (i = 0; i < job->nr; i++) {
		struct dmaengine_bench_chan *c = &job->chans[i];
		int node;

		c->job = job;
		c->index = i;
		node = dev_to_node(dmacopy_chan_dma_dev(c->cl));
		c->src_node = dmaengine_bench_node_or(p->src_node, node);
		c->dst_node = dmaengine_bench_node_or(p->dst_node, node);
	}
}

/*
 * Buffers and threads for each channel; undone by
 * dmaengine_bench_stop_channels().
 */
static int dmaengine_bench_start_channels(struct dmaengine_bench_job *job,
					  struct dmaengine_benchmark *p)
{
	unsigned int i;
	int ret;

	for (i = 0; i < job->nr; i++) {
		struct dmaengine_bench_chan *c = &job->chans[i];

		ret = dmaengine_bench_chan_setup(c);
		if (ret)
			goto fail;

		c->task = kthread_create_on_node(dmaengine_bench_chan_thread, c,
						 dev_to_node(dmacopy_chan_dma_dev(c->cl)),
						 "dmaengine-bench/%u", i);
		if (IS_ERR(c->task)) {
			ret = PTR_ERR(c->task);
			c->task = NULL;
			goto fail;
		}
		get_task_struct(c->task);
		if (job->nr_cpus)
			c->affinity = cpumask_of(job->cpus[i % job->nr_cpus]);
		wake_up_process(c->task);
	}
	return 0;

fail:
	p->error = job->chans[i].error ?: DMAENGINE_BENCH_ERR_NOMEM;
	p->error_channel = i;
	return ret;
}

static void dmaengine_bench_stop_channels(struct dmaengine_bench_job *job)
{
	unsigned int i;

	for (i = 0; i < job->nr; i++) {
		struct dmaengine_bench_chan *c = &job->chans[i];

		if (c->task) {
			kthread_stop(c->task);
			put_task_struct(c->task);
		}
		/* a failed run abandoned its batches already */
		dmaengine_bench_chan_teardown(c);
	}
}

/*
 * A provider is about to be unbound from channel @index: the run must end
 * and let go of what it queued there before the set releases the channel
 * and the provider's remove() runs. It may come as soon as the set is
 * open, before any thread runs: it touches only what the job has from
 * dmaengine_bench_job_alloc() on, and the abort the set raised ends
 * whatever starts later; @job->quiesced is completed once nothing of the run is
 * left on the devices, on every path after the open.
 */
static void dmaengine_bench_unbind(struct dmacopy_set *set,
				   unsigned int index)
{
	struct dmaengine_bench_job *job = dmacopy_set_priv(set);

	/* the set raised job->abort: the run ends */
	if (!wait_for_completion_timeout(&job->quiesced,
					 job->timeout +
					 DMAENGINE_BENCH_QUIESCE_SLACK))
		pr_warn("%s: the run did not end within %u ms of the unbind\n",
			dmacopy_chan_name(dmacopy_set_chan(set, index)),
			jiffies_to_msecs(job->timeout +
					 DMAENGINE_BENCH_QUIESCE_SLACK));
}

/* After the set's close, which freed the memory of the batches. */
static void dmaengine_bench_job_free(struct dmaengine_bench_job *job)
{
	unsigned int i;

	if (!job)
		return;
	for (i = 0; i < job->nr; i++)
		if (!job->chans[i].quarantined)
			kfree(job->chans[i].slots);
	kfree(job->cpus);
	kfree(job->chans);
	kfree(job);
}

static struct dmaengine_bench_job *
dmaengine_bench_job_alloc(struct dmaengine_benchmark *p)
{
	struct dmaengine_bench_job *job;
	u64 batch_bytes;

	job = kzalloc_obj(*job, GFP_KERNEL);
	if (!job)
		return NULL;
	job->chans = kcalloc(p->channels, sizeof(*job->chans), GFP_KERNEL);
	if (!job->chans) {
		dmaengine_bench_job_free(job);
		return NULL;
	}
	job->p = p;
	job->modes = p->prep_modes;
	job->depth = p->depth ?: 1;
	job->distinct = p->flags & DMAENGINE_BENCH_F_DISTINCT;
	job->folio_size = PAGE_SIZE << p->folio_order;
	job->dst_folio_size = p->flags & DMAENGINE_BENCH_F_DST_ORDER ?
			      PAGE_SIZE << p->dst_folio_order : job->folio_size;
	batch_bytes = (u64)p->sge * job->folio_size;
	/* validated: whole destination folios, at most MAX_SGE of them */
	job->dst_sge = div64_u64(batch_bytes, job->dst_folio_size);
	job->batches = max_t(u64, 1, div64_u64(p->bytes_per_channel +
					       batch_bytes - 1, batch_bytes));
	job->timeout = msecs_to_jiffies(p->timeout_ms ?:
					DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS);
	init_waitqueue_head(&job->wq);
	init_completion(&job->run_done);
	init_completion(&job->quiesced);
	return job;
}

static int dmaengine_bench_measure(struct dmaengine_benchmark *p)
{
	struct dmaengine_bench_job *job;
	int ret;

	job = dmaengine_bench_job_alloc(p);
	if (!job)
		return -ENOMEM;

	ret = dmaengine_bench_check_apis(job, p);
	if (ret)
		goto free;
	p->batches_per_channel = job->batches;
	p->buffer_bytes = dmaengine_bench_chan_buffer_bytes(p, job->batches) *
			  p->channels;
	ret = dmaengine_bench_check_memory(p);
	if (ret) {
		p->error = DMAENGINE_BENCH_ERR_NOMEM;
		goto free;
	}
	ret = mb_cpus_from_user(p->cpus_ptr, p->nr_cpus,
				DMAENGINE_BENCH_MAX_CPUS, &job->cpus);
	if (ret) {
		p->error = DMAENGINE_BENCH_ERR_INVAL;
		goto free;
	}
	job->nr_cpus = p->nr_cpus;

	ret = dmaengine_bench_acquire(job, p);
	if (ret)
		goto free;
	p->channels_used = job->nr;
	dmaengine_bench_init_channels(job, p);

	/* name the channels first: errors from here on can refer to them */
	ret = dmaengine_bench_copy_channels(job, p);
	if (!ret)
		ret = dmaengine_bench_check_channels(job, p);
	if (ret)
		goto close;

	ret = dmaengine_bench_start_channels(job, p);
	if (!ret)
		ret = dmaengine_bench_runs(job, p);
	dmaengine_bench_stop_channels(job);
close:
	if (ret && dmacopy_set_unbound(&job->set, &p->error_channel)) {
		p->error = DMAENGINE_BENCH_ERR_UNBOUND;
		ret = -ENODEV;
	}
	/* nothing of the run is left on the devices: an unbind may go on */
	complete_all(&job->quiesced);
	dmacopy_set_close(&job->set);
free:
	dmaengine_bench_job_free(job);
	return ret;
}

static long dmaengine_bench_run(void *req, void *ctx)
{
	struct dmaengine_benchmark *p = req;
	int ret;

	ret = dmaengine_bench_validate(p);
	if (ret) {
		p->error = DMAENGINE_BENCH_ERR_INVAL;
	} else if (mutex_lock_interruptible(&dmaengine_bench_lock)) {
		p->error = DMAENGINE_BENCH_ERR_INTR;
		ret = -EINTR;
	} else {
		ret = dmaengine_bench_measure(p);
		mutex_unlock(&dmaengine_bench_lock);
	}
	if (ret)
		pr_debug("%s failed: error %u, channel %u, run %u\n",
			 dmaengine_bench_mode_name(p->error_prep_mode %
						   DMAENGINE_BENCH_NR_MODES),
			 p->error, p->error_channel, p->error_run);
	return ret;
}

static_assert(offsetof(struct dmaengine_benchmark, size) == 0);
static_assert(sizeof(struct dmaengine_bench_result) ==
	      DMAENGINE_BENCH_RESULT_SIZE_VER1);
static_assert(sizeof(struct dmaengine_benchmark) ==
	      offsetof(struct dmaengine_benchmark, results) +
	      DMAENGINE_BENCH_MAX_PREP_MODES *
	      sizeof(struct dmaengine_bench_result));

/*
 * ->results is the last member and grows by its entries: a caller built
 * with smaller entries (a smaller ->size) has them at its own stride, each
 * cut to its size; ->result_size says how much of each entry was written.
 */
static void dmaengine_bench_fit(void *req, u32 usize)
{
	struct dmaengine_benchmark *p = req;
	size_t off = offsetof(struct dmaengine_benchmark, results);
	size_t stride = sizeof(p->results[0]);
	unsigned int m;

	if (usize < sizeof(*p)) {
		size_t ustride = (usize - off) / DMAENGINE_BENCH_MAX_PREP_MODES;

		stride = min(stride, ustride & ~(size_t)7);
	}
	p->result_size = stride;
	if (stride == sizeof(p->results[0]))
		return;
	for (m = 1; m < DMAENGINE_BENCH_MAX_PREP_MODES; m++)
		memmove((void *)p->results + m * stride, &p->results[m],
			stride);
}

/* Even a failed run reports why, and where. */
static const struct mb_ioctl_io dmaengine_bench_io = {
	.size = sizeof(struct dmaengine_benchmark),
	.min_size = DMAENGINE_BENCH_SIZE_VER1,
	.out_off = offsetof(struct dmaengine_benchmark, error),
	.out_always = true,
	.run = dmaengine_bench_run,
	.fit = dmaengine_bench_fit,
};

static long dmaengine_bench_ioctl(struct file *file, unsigned int cmd,
				  unsigned long arg)
{
	int ret;

	/* type and number only: ->size says the version, not the number */
	if (_IOC_TYPE(cmd) != _IOC_TYPE(DMAENGINE_BENCHMARK))
		return -ENOTTY;
	if (_IOC_NR(cmd) == _IOC_NR(DMA_MIGRATE_OFFLOAD)) {
		ret = mb_capable();
		return ret ?: dmaengine_migrate_ioctl(file, (void __user *)arg);
	}
	if (_IOC_NR(cmd) == DMAENGINE_BENCH_OLD_NR) {
		pr_notice_ratelimited("ioctl %u is the earlier layout of struct dmaengine_benchmark, no longer answered: rebuild the tool against this module's uapi header\n",
				      DMAENGINE_BENCH_OLD_NR);
		return -ENOTTY;
	}
	if (_IOC_NR(cmd) != _IOC_NR(DMAENGINE_BENCHMARK))
		return -ENOTTY;
	ret = mb_capable();
	return ret ?: mb_ioctl((void __user *)arg, &dmaengine_bench_io, NULL);
}

/* The file that started a migration copy offload stops it when closed. */
static int dmaengine_bench_release(struct inode *inode, struct file *file)
{
	dmaengine_migrate_release(file);
	return 0;
}

/*
 * An open file holds the module: a started migration offload, which only
 * an open file has, keeps it loaded until STOP or the file's release.
 */
static const struct file_operations dmaengine_bench_fops = {
	.owner		= THIS_MODULE,
	.open		= simple_open,
	.release	= dmaengine_bench_release,
	.unlocked_ioctl	= dmaengine_bench_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

int __init dmaengine_bench_init(void)
{
	dmaengine_bench_debugfs =
		mb_debugfs_create("dmaengine_benchmark", NULL,
				  &dmaengine_bench_fops);
	if (IS_ERR(dmaengine_bench_debugfs)) {
		pr_err("cannot create debugfs file dmaengine_benchmark: %ld\n",
		       PTR_ERR(dmaengine_bench_debugfs));
		return PTR_ERR(dmaengine_bench_debugfs);
	}
	return 0;
}

void dmaengine_bench_exit(void)
{
	debugfs_remove(dmaengine_bench_debugfs);
}
