// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmacopy library as page migration's copy offload: DMA_MIGRATE_OFFLOAD
 * on /sys/kernel/debug/dmaengine_benchmark.
 *
 * DMA_MIGRATE_OP_START requests the channels and registers a struct
 * migrator with the kernel's copy-offload hook (kernel/patches/v7.3-migrate/,
 * or the RFC's interface it is shaped after, whose calls migrate_rfc.h
 * offers over either). The hook calls
 * ->offload_copy() in the migrating task's context, after the batch's
 * folios are unmapped and the TLB flushed, with the folios locked:
 *
 * - The batch takes the channels that are free (a trylock each): a batch
 *   never waits for another task's batch, nor for itself when reclaim or
 *   compaction in the migrating task re-enters the hook. With no channel
 *   free it is declined, and the CPU copies it.
 * - Its folio pairs are shared out among the channels taken; a source
 *   flagged hwpoison is left to the CPU, whose folio_mc_copy() fails it
 *   as migration without an offload would.
 * - Each share's tables are built in memory allocated at START for the
 *   largest batch migrate_pages() makes (NR_MAX_BATCHED_MIGRATION folios a
 *   channel): the hook allocates nothing, so it cannot recurse through
 *   reclaim into itself, nor fail for memory.
 * - Each share is mapped on its channel's device, copied with the prep
 *   form through the dmacopy library (dmacopy.h), submitted and
 *   issued on every channel, then waited for until one deadline for the
 *   whole batch (START's timeout_ms from the hook's entry). A destination
 *   folio is marked copied only when every descriptor of its share
 *   reported DMA_COMPLETE by the deadline; the hook's caller copies every
 *   other folio with the CPU.
 * - A share that failed is abandoned before its folios are let go: its
 *   descriptors are terminated, or, on an engine that cannot terminate
 *   (ioat, plx_dma, mv_xor: no device_terminate_all), waited for one
 *   drain bound past the deadline, after which its pairs are reported
 *   lost and the share quarantined until its batch is idle
 *   (Documentation/migration.rst, "Engines that cannot stop"). No
 *   descriptor runs on a folio after ->offload_copy() returns, but on
 *   the destinations reported lost, which mm leaves to the provider.
 *
 * A provider being unbound (the dmacopy set's bus watch) aborts the
 * batches in flight, whose folios fall back to the CPU, and makes later
 * batches decline until STOP; the set releases that channel before the
 * provider's remove() runs, the others at STOP, or when the file that
 * started the offload is closed. The hook holds no module reference: the
 * open file holds one, and the file's release unregisters, so the module
 * cannot be unloaded while registered.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/fs.h>
#include <linux/kmemleak.h>
#include <linux/list.h>
#include <linux/migrate_mode.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/swiotlb.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>

/* first: the build probes' HAVE_* come with core.h */
#include "migrate_copy.h"
#include "migrate_offload.h"
#include "dmacopy_errors.h"

MODULE_IMPORT_NS(DMACOPY_NS);

static_assert(sizeof(struct dma_migrate_offload) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER4);
static_assert(offsetof(struct dma_migrate_offload, phases) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER3);
static_assert(offsetof(struct dma_migrate_offload, build_ns) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER1);
static_assert(offsetof(struct dma_migrate_offload, folios_lost) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER2);

#ifdef HAVE_MIGRATE_COPY_OFFLOAD
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_PROJECT
#elif defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_RFC
#else
#define DMAENGINE_MIGRATE_HOOK	DMA_MIGRATE_HOOK_NONE
#endif

/* One offload at a time: the hook takes one migrator. */
static DEFINE_MUTEX(dmaengine_migrate_lock);
/*
 * The registered offload, for ->offload_copy(), which has no argument for
 * it: set before the registration, cleared after the unregistration, which
 * waits for the calls in progress.
 */
struct dmaengine_migrate *dmaengine_migrate_active;

/* DMA_MIGRATE_R_* and the kernel's reasons */
static const struct {
	u32 bit;
	enum migrate_reason reason;
} dmaengine_migrate_reasons[] = {
	{ DMA_MIGRATE_R_SYSCALL, MR_SYSCALL },
	{ DMA_MIGRATE_R_NUMA_MISPLACED, MR_NUMA_MISPLACED },
	{ DMA_MIGRATE_R_DEMOTION, MR_DEMOTION },
	{ DMA_MIGRATE_R_COMPACTION, MR_COMPACTION },
};

#ifdef DMAENGINE_MIGRATE_HAVE_HOOK
/*
 * What the hook calls, with the RFC's calls (migrate_rfc.h): one migrator,
 * the offload it copies for is dmaengine_migrate_active.
 */
#ifdef HAVE_MIGRATE_COPY_OFFLOAD
static int dmaengine_migrate_offload_copy(struct migrate_offload_batch *batch)
{
	struct dmaengine_migrate_req r = {
		.src_list = batch->src_list,
		.dst_list = batch->dst_list,
		.nr = batch->nr,
		.mode = batch->mode,
		.hook = batch,
	};

	return dmaengine_migrate_copy(&r);
}
#else
/* The RFC's hook tells no mode: its callers are taken to allow sleeping */
static int dmaengine_migrate_offload_copy(struct list_head *dst_list,
					  struct list_head *src_list,
					  unsigned int folio_cnt)
{
	struct dmaengine_migrate_req r = {
		.src_list = src_list,
		.dst_list = dst_list,
		.nr = folio_cnt,
		.mode = MIGRATE_SYNC,
	};

	return dmaengine_migrate_copy(&r);
}
#endif

static const struct migrator dmaengine_migrator = {
	.name = KBUILD_MODNAME,
	.offload_copy = dmaengine_migrate_offload_copy,
};

static int dmaengine_migrate_hook_register(unsigned long reason_mask)
{
	return migrate_offload_register(&dmaengine_migrator, reason_mask);
}

static void dmaengine_migrate_hook_unregister(void)
{
	migrate_offload_unregister(&dmaengine_migrator);
}
#else
static int dmaengine_migrate_hook_register(unsigned long reason_mask)
{
	return -EOPNOTSUPP;
}

static void dmaengine_migrate_hook_unregister(void)
{
}
#endif

/* ------------------------------------------------------------------ */
/* Start and stop                                                       */
/* ------------------------------------------------------------------ */

/*
 * A provider is about to be unbound from channel @index: the batches in
 * flight end (their folios go to the CPU), later ones are declined until
 * STOP; the set releases the channel when this returns, once the batch on
 * it let go of its folios. It may come while START is still setting up,
 * from the set's open on: until the shares are ready no batch can run,
 * and once the set says it was unbound (it raised ->abort and marked
 * itself before this call) none will (dmaengine_migrate_copy()).
 */
static void dmaengine_migrate_unbind(struct dmacopy_set *set,
				     unsigned int index)
{
	struct dmaengine_migrate *o = dmacopy_set_priv(set);
	struct dmaengine_migrate_share *sh;
	bool ready;

	pr_err("%s: migration copies with the CPU until DMA_MIGRATE_OP_STOP\n",
	       dmacopy_chan_name(dmacopy_set_chan(set, index)));
	spin_lock(&o->stats_lock);
	ready = o->ready;
	spin_unlock(&o->stats_lock);
	if (!ready)
		return;
	sh = &o->shares[index];
	/*
	 * The batch on the channel ends first: within its deadline and one
	 * drain bound, its folios given back, lost ones included. A share
	 * still quarantined then waits for the channel's release
	 * (dmaengine_migrate_released()) or the provider's remove()
	 * (dmaengine_migrate_unbound()).
	 */
	wait_var_event(&sh->busy, !test_and_set_bit_lock(0, &sh->busy));
	dmaengine_migrate_unquarantine(sh, false);
	sh->retired = true;
	dmaengine_migrate_put(sh);
}

/*
 * End a share's quarantine if it can end, holding the share against a
 * batch, an unbind's notifier and STOP alike.
 */
static void dmaengine_migrate_unquarantine_held(struct dmaengine_migrate_share *sh,
						bool unbound)
{
	wait_var_event(&sh->busy, !test_and_set_bit_lock(0, &sh->busy));
	dmaengine_migrate_unquarantine(sh, unbound);
	dmaengine_migrate_put(sh);
}

static void dmaengine_migrate_ended(struct dmacopy_set *set,
				    unsigned int index, bool unbound)
{
	struct dmaengine_migrate *o = dmacopy_set_priv(set);
	bool ready;

	spin_lock(&o->stats_lock);
	ready = o->ready;
	spin_unlock(&o->stats_lock);
	if (!ready)
		return;
	/* retired since the unbind: no batch holds the bit long, if at all */
	dmaengine_migrate_unquarantine_held(&o->shares[index], unbound);
}

/*
 * The set released channel @index after its unbind: a batch quarantined on
 * it may have ended with the release (its last callback came): give its
 * folios back now, before the provider's remove() finds their mappings.
 */
static void dmaengine_migrate_released(struct dmacopy_set *set,
				       unsigned int index)
{
	dmaengine_migrate_ended(set, index, false);
}

/*
 * The provider's remove() returned: a driver stops its device's DMA
 * there, so a share still quarantined on the channel ends now.
 */
static void dmaengine_migrate_unbound(struct dmacopy_set *set,
				      unsigned int index)
{
	dmaengine_migrate_ended(set, index, true);
}

/*
 * Free the offload, unless a share is still quarantined: a descriptor
 * that may still run names its batch, tables and channel, which then stay
 * (the set keeps its channels too), and the module with them, whose
 * callback it would call.
 */
static void dmaengine_migrate_free(struct dmaengine_migrate *o)
{
	unsigned int i, kept = 0;

	for (i = 0; i < o->nr_shares; i++) {
		dmaengine_migrate_unquarantine(&o->shares[i], false);
		kept += o->shares[i].quarantined;
	}
	if (kept) {
		pr_err("%u channel(s) still hold quarantined destination folios: their memory, and the module, stay\n",
		       kept);
		__module_get(THIS_MODULE);
		kmemleak_not_leak(o);
		return;
	}
	for (i = 0; i < o->nr_shares; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];

		kvfree(sh->src_sgl);
		kvfree(sh->dst_sgl);
		kvfree(sh->src);
		kvfree(sh->dst);
	}
	kfree(o->shares);
	kfree(o);
}

/*
 * The dmacopy form of a prep_mode (DMAENGINE_BENCH_MODE_*); the CPU's copy
 * is the offload switched off: no form, DMACOPY_NR_FORMS.
 */
static enum dmacopy_form_id dmaengine_migrate_form(u32 prep_mode)
{
	switch (prep_mode) {
	case DMAENGINE_BENCH_MODE_MEMCPY:
		return DMACOPY_FORM_MEMCPY;
	case DMAENGINE_BENCH_MODE_MEMCPY_SG:
		return DMACOPY_FORM_MEMCPY_SG;
	case DMAENGINE_BENCH_MODE_MEMCPY_VEC:
		return DMACOPY_FORM_MEMCPY_VEC;
	default:
		return DMACOPY_NR_FORMS;
	}
}

static int dmaengine_migrate_validate(const struct dma_migrate_offload *a)
{
	enum dmacopy_form_id form = dmaengine_migrate_form(a->prep_mode);

	if (mb_check_flags("flags", a->flags, DMA_MIGRATE_F_ALL))
		return -EINVAL;
	if (form != DMACOPY_NR_FORMS && dmacopy_form_check(form, false))
		return -EOPNOTSUPP;
	if (form == DMACOPY_NR_FORMS) {
		mb_refuse_err("invalid prep_mode %u: must be %u (memcpy), %u (memcpy_sg) or %u (memcpy_vec)\n",
			      a->prep_mode, DMAENGINE_BENCH_MODE_MEMCPY,
			      DMAENGINE_BENCH_MODE_MEMCPY_SG,
			      DMAENGINE_BENCH_MODE_MEMCPY_VEC);
		return -EINVAL;
	}
	if (mb_check_set("reasons", a->reasons, DMA_MIGRATE_R_ALL) ||
	    mb_check_range("channels", a->channels, 1,
			   DMAENGINE_BENCH_MAX_CHANNELS) ||
	    mb_check_range("timeout_ms", a->timeout_ms, 0,
			   DMAENGINE_BENCH_MAX_TIMEOUT_MS) ||
	    mb_check_name("channel", a->channel, sizeof(a->channel)) ||
	    mb_check_name("device", a->device, sizeof(a->device)) ||
	    mb_check_zero("reserved_in", a->reserved_in,
			  sizeof(a->reserved_in)))
		return -EINVAL;
	return 0;
}

static unsigned long dmaengine_migrate_reason_mask(u32 reasons)
{
	unsigned long mask = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dmaengine_migrate_reasons); i++)
		if (reasons & dmaengine_migrate_reasons[i].bit)
			mask |= BIT(dmaengine_migrate_reasons[i].reason);
	return mask;
}

/*
 * Mappings that would bounce through swiotlb cost three CPU copies a batch
 * and bounce slots other devices share: not an offload.
 */
static int dmaengine_migrate_check_bounce(struct dmaengine_migrate *o)
{
	unsigned int i;

	for (i = 0; i < dmacopy_set_count(&o->set); i++) {
		struct dmacopy_chan *c = dmacopy_set_chan(&o->set, i);
		struct device *dev = dmacopy_chan_dma_dev(c);

		if (!is_swiotlb_force_bounce(dev) && !dma_addressing_limited(dev))
			continue;
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: %s maps for %s, whose mappings %s through swiotlb: no offload over it\n",
			      dmacopy_chan_name(c), dev_name(dev),
			      is_swiotlb_force_bounce(dev) ? "all bounce" :
			      "of memory beyond its DMA mask bounce");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Room for the largest batch on every channel, allocated once: the hook
 * allocates nothing.
 */
static int dmaengine_migrate_prealloc(struct dmaengine_migrate *o)
{
	unsigned int i;

	o->shares = kcalloc(dmacopy_set_count(&o->set), sizeof(*o->shares),
			    GFP_KERNEL);
	if (!o->shares)
		return -ENOMEM;
	o->nr_shares = dmacopy_set_count(&o->set);
	for (i = 0; i < o->nr_shares; i++) {
		struct dmaengine_migrate_share *sh = &o->shares[i];
		unsigned int n = DMAENGINE_MIGRATE_MAX_FOLIOS;

		sh->o = o;
		sh->cl = dmacopy_set_chan(&o->set, i);
		sh->max_ents = n + div_u64(DMAENGINE_MIGRATE_MAX_BYTES,
					   dmacopy_chan_seg_max(sh->cl)) + 1;
		sh->src_sgl = kvcalloc(sh->max_ents, sizeof(*sh->src_sgl),
				       GFP_KERNEL);
		sh->dst_sgl = kvcalloc(sh->max_ents, sizeof(*sh->dst_sgl),
				       GFP_KERNEL);
		sh->src = kvcalloc(n, sizeof(*sh->src), GFP_KERNEL);
		sh->dst = kvcalloc(n, sizeof(*sh->dst), GFP_KERNEL);
		if (!sh->src_sgl || !sh->dst_sgl || !sh->src || !sh->dst ||
		    dmacopy_batch_alloc(&sh->b, sh->cl, sh->max_ents,
					DMAENGINE_MIGRATE_MAX_BYTES,
					BIT(o->form), GFP_KERNEL))
			return -ENOMEM;
	}
	return 0;
}

/* Channels with the form's capability, watched, and room for batches. */
static int dmaengine_migrate_channels(struct dmaengine_migrate *o,
				      struct dma_migrate_offload *a)
{
	struct dmacopy_request req = {
		.channel = a->channel,
		.device = a->device,
		.forms = BIT(o->form),
		.count = a->channels,
		.allow_fewer = a->flags & DMA_MIGRATE_F_ALLOW_FEWER,
		.timeout = o->timeout,
		.abort = &o->abort,
		.unbind = dmaengine_migrate_unbind,
		.released = dmaengine_migrate_released,
		.unbound = dmaengine_migrate_unbound,
		.priv = o,
	};
	int ret;

	ret = dmacopy_set_open(&o->set, &req);
	if (ret) {
		a->error = dmacopy_open_error(ret);
		return ret;
	}
	ret = dmaengine_migrate_check_bounce(o);
	if (ret) {
		a->error = DMAENGINE_BENCH_ERR_LIMIT;
		return ret;
	}
	ret = dmaengine_migrate_prealloc(o);
	if (ret) {
		a->error = DMAENGINE_BENCH_ERR_NOMEM;
		return ret;
	}
	/* an unbind from here on waits for the batch on its channel */
	spin_lock(&o->stats_lock);
	o->ready = true;
	spin_unlock(&o->stats_lock);
	return 0;
}

static int dmaengine_migrate_start(struct file *file,
				   struct dma_migrate_offload *a)
{
	struct dmaengine_migrate *o;
	unsigned long reason_mask;
	int ret;

	if (DMAENGINE_MIGRATE_HOOK == DMA_MIGRATE_HOOK_NONE) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: this kernel has no migration copy-offload hook (kernel/patches/v7.3-migrate/ with CONFIG_MIGRATION_COPY_OFFLOAD, or the RFC's)\n");
		a->error = DMAENGINE_BENCH_ERR_NO_API;
		return -EOPNOTSUPP;
	}
	ret = dmaengine_migrate_validate(a);
	if (ret) {
		a->error = ret == -EOPNOTSUPP ? DMAENGINE_BENCH_ERR_NO_API :
			   DMAENGINE_BENCH_ERR_INVAL;
		return ret;
	}
	if (dmaengine_migrate_active) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: an offload is started already%s: stop it first\n",
			      dmaengine_migrate_active->file == file ?
			      " on this file" : " on another file");
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		return -EBUSY;
	}

	o = kzalloc_obj(*o, GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->file = file;
	o->prep_mode = a->prep_mode;
	o->form = dmaengine_migrate_form(a->prep_mode);
	o->min_folios = a->min_folios;
	o->timeout = msecs_to_jiffies(a->timeout_ms ?:
				      DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS);
	spin_lock_init(&o->stats_lock);

	ret = dmaengine_migrate_channels(o, a);
	if (ret)
		goto close;

	WRITE_ONCE(dmaengine_migrate_active, o);
	reason_mask = dmaengine_migrate_reason_mask(a->reasons);
	ret = dmaengine_migrate_hook_register(reason_mask);
	if (ret) {
		WRITE_ONCE(dmaengine_migrate_active, NULL);
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: migrate_offload_register() failed: %d%s\n",
			      ret, ret == -EBUSY ?
			      " (another migrator is registered)" : "");
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		goto close;
	}
	pr_info("migration copy offload started: %u channel(s), %s, reasons 0x%x\n",
		dmacopy_set_count(&o->set), dmacopy_form_name(o->form),
		a->reasons);
	return 0;

close:
	dmacopy_set_close(&o->set);
	dmaengine_migrate_free(o);
	return ret;
}

/*
 * Unregister, which waits for the calls in progress: no batch holds a
 * channel after it. The set then releases the channels an unbind did not
 * release already, and touches none of those.
 */
static void dmaengine_migrate_stop(struct dmaengine_migrate *o)
{
	unsigned int i;

	dmaengine_migrate_hook_unregister();
	WRITE_ONCE(dmaengine_migrate_active, NULL);
	/*
	 * No batch runs: a quarantine whose engine ended ends, its channel
	 * still held; an unbind's notifier may be at it too
	 */
	for (i = 0; i < o->nr_shares; i++)
		dmaengine_migrate_unquarantine_held(&o->shares[i], false);
	dmacopy_set_close(&o->set);
	pr_info("migration copy offload stopped\n");
	dmaengine_migrate_free(o);
}

/* the phases STATS fills: the uapi list's with migrate 1 */
#define DMAENGINE_MIGRATE_PH_BIT(id, name, unit, modes, migrate) \
	| ((migrate) ? DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_##id) : 0)
#define DMAENGINE_MIGRATE_PHASES \
	(0 DMAENGINE_BENCH_PHASES(DMAENGINE_MIGRATE_PH_BIT))
static_assert((DMAENGINE_MIGRATE_PHASES & DMA_MIGRATE_PHASES_VER3) ==
	      DMA_MIGRATE_PHASES_VER3);

/* The counters and what the offload runs on, into @a. */
static void dmaengine_migrate_stats_out(struct dmaengine_migrate *o,
					struct dma_migrate_offload *a,
					bool reset)
{
	struct dmaengine_migrate_stats st;

	spin_lock(&o->stats_lock);
	st = o->stats;
	if (reset)
		memset(&o->stats, 0, sizeof(o->stats));
	spin_unlock(&o->stats_lock);

	a->channels_used = o->nr_shares;
	a->prep_mode_used = o->prep_mode;
	a->batches = st.batches;
	a->batches_declined = st.declined;
	a->folios = st.folios;
	a->folios_declined = st.declined_folios;
	a->build_ns = st.build_ns;
	a->mark_ns = st.mark_ns;
	a->folios_offloaded = st.offloaded;
	a->folios_fallback = st.fallback;
	a->bytes = st.bytes;
	a->descriptors = st.descriptors;
	a->errors = st.errors;
	a->ph = st.ph;
	a->folios_lost = st.lost;
	a->folios_released = st.released;
	a->async_batches = st.async_batches;
	a->async_max_ns = st.async_max_ns;
	a->phases = DMAENGINE_MIGRATE_PHASES;
}

static int dmaengine_migrate_op(struct file *file, struct dma_migrate_offload *a)
{
	struct dmaengine_migrate *o = dmaengine_migrate_active;
	bool mine = o && o->file == file;
	int ret = 0;

	a->hook = DMAENGINE_MIGRATE_HOOK;

	switch (a->op) {
	case DMA_MIGRATE_OP_START:
		ret = dmaengine_migrate_start(file, a);
		break;
	case DMA_MIGRATE_OP_STOP:
	case DMA_MIGRATE_OP_STATS:
		if (!mine) {
			mb_refuse_err("DMA_MIGRATE_OFFLOAD: op %u: no offload started on this file\n",
				      a->op);
			a->error = DMAENGINE_BENCH_ERR_INVAL;
			ret = -EINVAL;
			break;
		}
		/* STOP reads the counters a last time */
		dmaengine_migrate_stats_out(o, a, a->flags & DMA_MIGRATE_F_RESET);
		if (a->op == DMA_MIGRATE_OP_STOP)
			dmaengine_migrate_stop(o);
		break;
	default:
		mb_refuse_err("invalid op %u: must be below %u\n", a->op,
			      DMA_MIGRATE_NR_OPS);
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		ret = -EINVAL;
		break;
	}
	/* every answer, a refusal too, says whether this file's is running */
	o = dmaengine_migrate_active;
	a->active = o && o->file == file;
	if (a->active && a->op == DMA_MIGRATE_OP_START) {
		a->channels_used = o->nr_shares;
		a->prep_mode_used = o->prep_mode;
	}
	return ret;
}

static long dmaengine_migrate_call(void *req, void *ctx)
{
	int ret;

	if (mutex_lock_interruptible(&dmaengine_migrate_lock))
		return -EINTR;
	ret = dmaengine_migrate_op(ctx, req);
	mutex_unlock(&dmaengine_migrate_lock);
	return ret;
}

static_assert(offsetof(struct dma_migrate_offload, size) == 0);

/* Every answer, a refusal too, says whether this file's offload runs. */
static const struct mb_ioctl_io dmaengine_migrate_io = {
	.size = sizeof(struct dma_migrate_offload),
	.min_size = DMA_MIGRATE_OFFLOAD_SIZE_VER1,
	.out_off = offsetof(struct dma_migrate_offload, error),
	.out_always = true,
	.run = dmaengine_migrate_call,
};

/**
 * dmaengine_migrate_ioctl - DMA_MIGRATE_OFFLOAD
 * @file: the dmaengine benchmark's file
 * @uarg: the user's struct dma_migrate_offload
 *
 * Return: 0, or a negative errno with ->error saying why where it can.
 */
long dmaengine_migrate_ioctl(struct file *file,
			     struct dma_migrate_offload __user *uarg)
{
	return mb_ioctl(uarg, &dmaengine_migrate_io, file);
}

/* The file closed: its offload, if any, stops. */
void dmaengine_migrate_release(struct file *file)
{
	mutex_lock(&dmaengine_migrate_lock);
	if (dmaengine_migrate_active && dmaengine_migrate_active->file == file) {
		pr_info("the file that started the migration copy offload was closed: stopping it\n");
		dmaengine_migrate_stop(dmaengine_migrate_active);
	}
	mutex_unlock(&dmaengine_migrate_lock);
}
