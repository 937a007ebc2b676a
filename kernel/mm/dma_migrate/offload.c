// SPDX-License-Identifier: GPL-2.0-only
/*
 * dma_migrate: the dmacopy library as page migration's copy offload. Its
 * controls (control.c, Documentation/dma-migrate.rst) start and stop it.
 *
 * dma_migrate_start() requests the channels and registers a struct
 * migrator with the kernel's copy-offload hook (kernel/patches/v7.3-migrate/,
 * or the RFC's interface it is shaped after, whose calls hook.h offers
 * over either). The hook calls ->offload_copy() (copy.c) in the migrating
 * task's context, after the batch's folios are unmapped and the TLB
 * flushed, with the folios locked:
 *
 * - The batch takes the channels that are free (a trylock each): a batch
 *   never waits for another task's batch, nor for itself when reclaim or
 *   compaction in the migrating task re-enters the hook. With no channel
 *   free it is declined, and the CPU copies it.
 * - Its folio pairs are shared out among the channels taken; a source
 *   flagged hwpoison is left to the CPU, whose folio_mc_copy() fails it
 *   as migration without an offload would.
 * - Each share's tables are built in memory allocated at the start for
 *   the largest batch migrate_pages() makes (NR_MAX_BATCHED_MIGRATION
 *   folios a channel): the hook allocates nothing, so it cannot recurse
 *   through reclaim into itself, nor fail for memory.
 * - Each share is mapped on its channel's device, copied with the prep
 *   form through the dmacopy library (dmacopy.h), submitted and
 *   issued on every channel, then waited for until one deadline for the
 *   whole batch (timeout_ms from the hook's entry). A destination
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
 * batches decline until the stop; the set releases that channel before
 * the provider's remove() runs, the others at the stop. The hook holds no
 * module reference: a running offload holds one (control.c), so the
 * module cannot be unloaded while registered.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
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
#include <linux/sysfs.h>
#include <linux/wait_bit.h>

#include "dma_migrate.h"

MODULE_IMPORT_NS(DMACOPY_NS);

/*
 * The registered offload, for ->offload_copy(), which has no argument for
 * it: set before the registration, cleared after the unregistration, which
 * waits for the calls in progress.
 */
struct dma_migrate *dma_migrate_active;
/* the counters of the offload last stopped */
static struct dma_migrate_stats dma_migrate_last_stats;

/* reason_mask's names, and the kernel's reasons */
static const struct {
	const char *name;
	enum migrate_reason reason;
} dma_migrate_reasons[] = {
	{ "syscall", MR_SYSCALL },
	{ "numa_misplaced", MR_NUMA_MISPLACED },
	{ "demotion", MR_DEMOTION },
	{ "compaction", MR_COMPACTION },
};

#ifdef DMA_MIGRATE_HAVE_HOOK
/*
 * What the hook calls, with the RFC's calls (migrate_rfc.h): one migrator,
 * the offload it copies for is dma_migrate_active.
 */
#ifdef HAVE_MIGRATE_COPY_OFFLOAD
static int dma_migrate_offload_copy(struct migrate_offload_batch *batch)
{
	struct dma_migrate_req r = {
		.src_list = batch->src_list,
		.dst_list = batch->dst_list,
		.nr = batch->nr,
		.mode = batch->mode,
		.hook = batch,
	};

	return dma_migrate_copy(&r);
}
#else
/* The RFC's hook tells no mode: its callers are taken to allow sleeping */
static int dma_migrate_offload_copy(struct list_head *dst_list,
				    struct list_head *src_list,
				    unsigned int folio_cnt)
{
	struct dma_migrate_req r = {
		.src_list = src_list,
		.dst_list = dst_list,
		.nr = folio_cnt,
		.mode = MIGRATE_SYNC,
	};

	return dma_migrate_copy(&r);
}
#endif

static const struct migrator dma_migrate_migrator = {
	.name = KBUILD_MODNAME,
	.offload_copy = dma_migrate_offload_copy,
};

static int dma_migrate_hook_register(unsigned long reason_mask)
{
	return migrate_offload_register(&dma_migrate_migrator, reason_mask);
}

static void dma_migrate_hook_unregister(void)
{
	migrate_offload_unregister(&dma_migrate_migrator);
}
#else
static int dma_migrate_hook_register(unsigned long reason_mask)
{
	return -EOPNOTSUPP;
}

static void dma_migrate_hook_unregister(void)
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
 * itself before this call) none will (dma_migrate_copy()).
 */
static void dma_migrate_unbind(struct dmacopy_set *set,
			       unsigned int index)
{
	struct dma_migrate *o = dmacopy_set_priv(set);
	struct dma_migrate_share *sh;
	bool ready;

	pr_err("%s: migration copies with the CPU until offloading=0\n",
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
	 * (dma_migrate_released()) or the provider's remove()
	 * (dma_migrate_unbound()).
	 */
	wait_var_event(&sh->busy, !test_and_set_bit_lock(0, &sh->busy));
	dma_migrate_unquarantine(sh, false);
	WRITE_ONCE(sh->retired, true);
	dma_migrate_put(sh);
}

/*
 * End a share's quarantine if it can end, holding the share against a
 * batch, an unbind's notifier and STOP alike.
 */
static void dma_migrate_unquarantine_held(struct dma_migrate_share *sh,
					  bool unbound)
{
	wait_var_event(&sh->busy, !test_and_set_bit_lock(0, &sh->busy));
	dma_migrate_unquarantine(sh, unbound);
	dma_migrate_put(sh);
}

static void dma_migrate_ended(struct dmacopy_set *set,
			      unsigned int index, bool unbound)
{
	struct dma_migrate *o = dmacopy_set_priv(set);
	bool ready;

	spin_lock(&o->stats_lock);
	ready = o->ready;
	spin_unlock(&o->stats_lock);
	if (!ready)
		return;
	/* retired since the unbind: no batch holds the bit long, if at all */
	dma_migrate_unquarantine_held(&o->shares[index], unbound);
}

/*
 * The set released channel @index after its unbind: a batch quarantined on
 * it may have ended with the release (its last callback came): give its
 * folios back now, before the provider's remove() finds their mappings.
 */
static void dma_migrate_released(struct dmacopy_set *set,
				 unsigned int index)
{
	dma_migrate_ended(set, index, false);
}

/*
 * The provider's remove() returned: a driver stops its device's DMA
 * there, so a share still quarantined on the channel ends now.
 */
static void dma_migrate_unbound(struct dmacopy_set *set,
				unsigned int index)
{
	dma_migrate_ended(set, index, true);
}

/*
 * Free the offload, unless a share is still quarantined: a descriptor
 * that may still run names its batch, tables and channel, which then stay
 * (the set keeps its channels too), and the module with them, whose
 * callback it would call.
 */
static void dma_migrate_free(struct dma_migrate *o)
{
	unsigned int i, kept = 0;

	for (i = 0; i < o->nr_shares; i++) {
		dma_migrate_unquarantine(&o->shares[i], false);
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
		struct dma_migrate_share *sh = &o->shares[i];

		kvfree(sh->src_sgl);
		kvfree(sh->dst_sgl);
		kvfree(sh->src);
		kvfree(sh->dst);
	}
	kfree(o->shares);
	kfree(o);
}

/*
 * Mappings that would bounce through swiotlb cost three CPU copies a batch
 * and bounce slots other devices share: not an offload.
 */
static int dma_migrate_check_bounce(struct dma_migrate *o)
{
	unsigned int i;

	for (i = 0; i < dmacopy_set_count(&o->set); i++) {
		struct dmacopy_chan *c = dmacopy_set_chan(&o->set, i);
		struct device *dev = dmacopy_chan_dma_dev(c);

		if (!is_swiotlb_force_bounce(dev) && !dma_addressing_limited(dev))
			continue;
		dma_migrate_err("offloading: %s maps for %s, whose mappings %s through swiotlb: no offload over it",
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
static int dma_migrate_prealloc(struct dma_migrate *o)
{
	unsigned int i;

	o->shares = kcalloc(dmacopy_set_count(&o->set), sizeof(*o->shares),
			    GFP_KERNEL);
	if (!o->shares)
		return -ENOMEM;
	o->nr_shares = dmacopy_set_count(&o->set);
	for (i = 0; i < o->nr_shares; i++) {
		struct dma_migrate_share *sh = &o->shares[i];
		unsigned int n = DMA_MIGRATE_MAX_FOLIOS;

		sh->o = o;
		sh->cl = dmacopy_set_chan(&o->set, i);
		sh->max_ents = n + div_u64(DMA_MIGRATE_MAX_BYTES,
					   dmacopy_chan_seg_max(sh->cl)) + 1;
		sh->src_sgl = kvcalloc(sh->max_ents, sizeof(*sh->src_sgl),
				       GFP_KERNEL);
		sh->dst_sgl = kvcalloc(sh->max_ents, sizeof(*sh->dst_sgl),
				       GFP_KERNEL);
		sh->src = kvcalloc(n, sizeof(*sh->src), GFP_KERNEL);
		sh->dst = kvcalloc(n, sizeof(*sh->dst), GFP_KERNEL);
		if (!sh->src_sgl || !sh->dst_sgl || !sh->src || !sh->dst ||
		    dmacopy_batch_alloc(&sh->b, sh->cl, sh->max_ents,
					DMA_MIGRATE_MAX_BYTES,
					BIT(o->form), GFP_KERNEL))
			return -ENOMEM;
	}
	return 0;
}

/* Channels with the form's capability, watched, and room for batches. */
/* ------------------------------------------------------------------ */
/* The controls' values                                                 */
/* ------------------------------------------------------------------ */

/* Which hook this build registers with: the hook file's line. */
const char *dma_migrate_hook_name(void)
{
#ifdef HAVE_MIGRATE_COPY_OFFLOAD
	return "project";
#elif defined(HAVE_MIGRATE_COPY_OFFLOAD_RFC)
	return "rfc";
#else
	return "none";
#endif
}
EXPORT_SYMBOL_NS_GPL(dma_migrate_hook_name, DMA_MIGRATE_NS);

/*
 * prep_form's value: "memcpy", "memcpy_sg" or "memcpy_vec" (the library's
 * names without their "prep_"). Returns the form, or -EINVAL with the
 * refusal said.
 */
int dma_migrate_form_parse(const char *val)
{
	size_t len = strcspn(val, "\n");
	unsigned int i;

	for (i = 0; i < DMACOPY_NR_FORMS; i++) {
		const char *name = dmacopy_form_name(i);

		if (str_has_prefix(name, "prep_"))
			name += strlen("prep_");
		if (strlen(name) == len && !strncmp(val, name, len))
			return i;
	}
	dma_migrate_err("prep_form: '%.*s' is not memcpy, memcpy_sg or memcpy_vec",
			(int)min_t(size_t, len, 32), val);
	return -EINVAL;
}

const char *dma_migrate_form_short(enum dmacopy_form_id form)
{
	const char *name = dmacopy_form_name(form);

	return name && str_has_prefix(name, "prep_") ?
	       name + strlen("prep_") : name;
}

/*
 * reason_mask's value: names of reasons, comma-separated ("syscall,
 * numa_misplaced"), "all", "none", or a number, a mask of
 * BIT(enum migrate_reason) of the reasons this module knows.
 */
int dma_migrate_reasons_parse(const char *val, unsigned long *mask)
{
	char buf[96], *p = buf, *tok;
	unsigned long known = 0, m = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dma_migrate_reasons); i++)
		known |= BIT(dma_migrate_reasons[i].reason);
	if (strscpy(buf, val, sizeof(buf)) < 0) {
		dma_migrate_err("reason_mask: too long");
		return -EINVAL;
	}
	strim(buf);
	if (!kstrtoul(buf, 0, &m)) {
		if (m & ~known) {
			dma_migrate_err("reason_mask: 0x%lx has bits of no reason this module offloads (0x%lx: syscall, numa_misplaced, demotion, compaction)",
					m, known);
			return -EINVAL;
		}
		*mask = m;
		return 0;
	}
	if (!strcmp(buf, "all")) {
		*mask = known;
		return 0;
	}
	if (!strcmp(buf, "none")) {
		*mask = 0;
		return 0;
	}
	while ((tok = strsep(&p, ","))) {
		tok = strim(tok);
		for (i = 0; i < ARRAY_SIZE(dma_migrate_reasons); i++)
			if (!strcmp(tok, dma_migrate_reasons[i].name))
				break;
		if (i == ARRAY_SIZE(dma_migrate_reasons)) {
			dma_migrate_err("reason_mask: '%s' is not a reason: syscall, numa_misplaced, demotion, compaction, all, none or a mask",
					tok);
			return -EINVAL;
		}
		m |= BIT(dma_migrate_reasons[i].reason);
	}
	*mask = m;
	return 0;
}

/* reason_mask as it reads: the names, comma-separated, or "none". */
int dma_migrate_reasons_show(char *buf, unsigned long mask)
{
	int len = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dma_migrate_reasons); i++)
		if (mask & BIT(dma_migrate_reasons[i].reason))
			len += sysfs_emit_at(buf, len, "%s%s", len ? "," : "",
					     dma_migrate_reasons[i].name);
	return len + sysfs_emit_at(buf, len, "%s\n", len ? "" : "none");
}

/* ------------------------------------------------------------------ */
/* Start and stop, under dma_migrate_ctl_lock                           */
/* ------------------------------------------------------------------ */

/* Channels with the form's capability, watched, and room for batches. */
static int dma_migrate_channels(struct dma_migrate *o,
				const struct dma_migrate_config *cfg)
{
	struct dmacopy_request req = {
		.channel = cfg->channel,
		.device = cfg->device,
		.forms = BIT(o->form),
		.count = cfg->nr_chan,
		.allow_fewer = cfg->allow_fewer,
		.timeout = o->timeout,
		.abort = &o->abort,
		.unbind = dma_migrate_unbind,
		.released = dma_migrate_released,
		.unbound = dma_migrate_unbound,
		.priv = o,
	};
	int ret;

	ret = dmacopy_set_open(&o->set, &req);
	if (ret) {
		if (ret == -ENODEV)
			dma_migrate_err("offloading: found fewer than nr_dma_chan=%u DMA_MEMCPY channels with %s%s%s%s%s (allow_fewer=1 starts on those found; ls /sys/class/dma)",
					cfg->nr_chan,
					   dmacopy_form_name(o->form),
					   cfg->channel[0] ? ", named " : "",
					   cfg->channel,
					   cfg->device[0] ? ", of device " : "",
					   cfg->device);
		else
			dma_migrate_err("offloading: the channels could not be opened: %d",
					ret);
		return ret;
	}
	ret = dma_migrate_check_bounce(o);
	if (ret)
		return ret;
	ret = dma_migrate_prealloc(o);
	if (ret) {
		dma_migrate_err("offloading: no memory for the batches' tables of %u channel(s)",
				dmacopy_set_count(&o->set));
		return ret;
	}
	/* an unbind from here on waits for the batch on its channel */
	spin_lock(&o->stats_lock);
	o->ready = true;
	spin_unlock(&o->stats_lock);
	return 0;
}

/**
 * dma_migrate_start - request the channels and register with the hook
 * @cfg: the configuration
 * @owner: who starts it (NULL: the controls)
 *
 * Under dma_migrate_ctl_lock. Return: 0, or a negative errno with the
 * refusal said (last_error).
 */
int dma_migrate_start(const struct dma_migrate_config *cfg, const void *owner)
{
	struct dma_migrate *o;
	int ret;

	lockdep_assert_held(&dma_migrate_ctl_lock);
	if (!strcmp(dma_migrate_hook_name(), "none")) {
		dma_migrate_err("offloading: this kernel has no migration copy-offload hook (kernel/patches/v7.3-migrate/ with CONFIG_MIGRATION_COPY_OFFLOAD, or the RFC's)");
		return -EOPNOTSUPP;
	}
	if (dma_migrate_active) {
		dma_migrate_err("offloading: the offload runs already%s",
				dma_migrate_active->owner ?
				   " (started by the benchmark's DMA_MIGRATE_OFFLOAD)" : "");
		return -EBUSY;
	}
	ret = dmacopy_form_check(cfg->form, true);
	if (ret) {
		dma_migrate_err("prep_form: %s: this kernel has no %s",
				dma_migrate_form_short(cfg->form),
				   dmacopy_form_cap_name(cfg->form));
		return ret;
	}
	if (!cfg->reasons) {
		dma_migrate_err("reason_mask: none: name at least one reason to offload");
		return -EINVAL;
	}

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->owner = owner;
	o->form = cfg->form;
	o->min_folios = cfg->min_folios;
	o->timeout = msecs_to_jiffies(cfg->timeout_ms ?:
				      DMA_MIGRATE_DEFAULT_TIMEOUT_MS);
	spin_lock_init(&o->stats_lock);

	ret = dma_migrate_channels(o, cfg);
	if (ret)
		goto close;

	WRITE_ONCE(dma_migrate_active, o);
	ret = dma_migrate_hook_register(cfg->reasons);
	if (ret) {
		WRITE_ONCE(dma_migrate_active, NULL);
		dma_migrate_err("offloading: migrate_offload_register() failed: %d%s",
				ret, ret == -EBUSY ?
				   " (another migrator is registered)" : "");
		goto close;
	}
	pr_info("migration copy offload started: %u channel(s), %s, reasons 0x%lx\n",
		dmacopy_set_count(&o->set), dmacopy_form_name(o->form),
		cfg->reasons);
	return 0;

close:
	dmacopy_set_close(&o->set);
	dma_migrate_free(o);
	return ret;
}

/**
 * dma_migrate_stop - unregister, and release the channels
 *
 * Under dma_migrate_ctl_lock, the offload running. Unregistering waits
 * for the calls in progress: no batch holds a channel after it. The set
 * then releases the channels an unbind did not release already, and
 * touches none of those.
 */
void dma_migrate_stop(void)
{
	struct dma_migrate *o = dma_migrate_active;
	unsigned int i;

	lockdep_assert_held(&dma_migrate_ctl_lock);
	if (WARN_ON_ONCE(!o))
		return;
	dma_migrate_hook_unregister();
	WRITE_ONCE(dma_migrate_active, NULL);
	/*
	 * No batch runs: a quarantine whose engine ended ends, its channel
	 * still held; an unbind's notifier may be at it too
	 */
	for (i = 0; i < o->nr_shares; i++)
		dma_migrate_unquarantine_held(&o->shares[i], false);
	/*
	 * A share still quarantined on a provider being unbound (retired by
	 * its unbind) ends when the provider's remove() returns, which the
	 * set tells (dma_migrate_unbound()) only while it watches. Give that
	 * a bound before the set stops watching, else the share's folios,
	 * and the module, stay for good.
	 */
	for (i = 0; i < o->nr_shares; i++)
		if (READ_ONCE(o->shares[i].retired))
			wait_var_event_timeout(&o->shares[i].quarantined,
					       !READ_ONCE(o->shares[i].quarantined),
					       o->timeout +
					       msecs_to_jiffies(DMA_MIGRATE_UNBIND_WAIT_MS));
	/* the counters of the last run stay readable */
	spin_lock(&o->stats_lock);
	dma_migrate_last_stats = o->stats;
	spin_unlock(&o->stats_lock);
	dmacopy_set_close(&o->set);
	pr_info("migration copy offload stopped\n");
	dma_migrate_free(o);
}

/**
 * dma_migrate_stats_read - the counters
 * @st: filled: the running offload's, else the last one's (zero before)
 * @reset: clear them after reading
 *
 * Under dma_migrate_ctl_lock.
 */
void dma_migrate_stats_read(struct dma_migrate_stats *st, bool reset)
{
	struct dma_migrate *o = dma_migrate_active;

	lockdep_assert_held(&dma_migrate_ctl_lock);
	if (!o) {
		*st = dma_migrate_last_stats;
		if (reset)
			memset(&dma_migrate_last_stats, 0,
			       sizeof(dma_migrate_last_stats));
		return;
	}
	spin_lock(&o->stats_lock);
	*st = o->stats;
	if (reset)
		memset(&o->stats, 0, sizeof(o->stats));
	spin_unlock(&o->stats_lock);
}

/* The channels file: one line a channel, while running. */
ssize_t dma_migrate_channels_show(char *buf)
{
	struct dma_migrate *o = dma_migrate_active;
	ssize_t len = 0;
	unsigned int i;

	lockdep_assert_held(&dma_migrate_ctl_lock);
	if (!o)
		return 0;
	for (i = 0; i < o->nr_shares; i++) {
		struct dmacopy_chan *c = o->shares[i].cl;

		len += sysfs_emit_at(buf, len, "%s %s %s%s\n",
				     dmacopy_chan_name(c),
				     dmacopy_chan_dev_name(c),
				     dma_migrate_form_short(o->form),
				     o->shares[i].retired ? " unbound" : "");
	}
	return len;
}
