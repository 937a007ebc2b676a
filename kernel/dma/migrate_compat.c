// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA_MIGRATE_OFFLOAD on /sys/kernel/debug/dmaengine_benchmark, for the
 * project's tools built before the migration copy offload became a module
 * of its own (dma_migrate.ko, kernel/mm/dma_migrate/,
 * Documentation/dma-migrate.rst): START, STATS and STOP are forwarded to
 * dma_migrate when it is loaded, taken by symbol_get() so that the
 * benchmark neither depends on it nor keeps it loaded between calls. An
 * offload a file started is its own: STATS and STOP act on it alone, and
 * the file's close stops it. Without dma_migrate, START fails with
 * ENODEV and a message saying to load it.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/migrate_mode.h>
#include <linux/module.h>
#include <linux/string.h>

#include "core.h"
#include "dma_migrate_api.h"
#include "migrate_compat.h"

#ifdef DMA_MIGRATE_OFFLOAD_SIZE_VER4
static_assert(sizeof(struct dma_migrate_offload) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER4);

/* the phases STATS fills: the shared list's with migrate 1 */
#define MIGRATE_COMPAT_PH_BIT(id, name, unit, modes, migrate) \
	| ((migrate) ? DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_##id) : 0)
#define MIGRATE_COMPAT_PHASES \
	(0 DMAENGINE_BENCH_PHASES(MIGRATE_COMPAT_PH_BIT))
#else
static_assert(sizeof(struct dma_migrate_offload) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER3);
#endif
static_assert(offsetof(struct dma_migrate_offload, build_ns) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER1);
static_assert(offsetof(struct dma_migrate_offload, folios_lost) ==
	      DMA_MIGRATE_OFFLOAD_SIZE_VER2);
static_assert(offsetof(struct dma_migrate_offload, size) == 0);

/* DMA_MIGRATE_R_* and the kernel's reasons */
static const struct {
	u32 bit;
	enum migrate_reason reason;
} migrate_compat_reasons[] = {
	{ DMA_MIGRATE_R_SYSCALL, MR_SYSCALL },
	{ DMA_MIGRATE_R_NUMA_MISPLACED, MR_NUMA_MISPLACED },
	{ DMA_MIGRATE_R_DEMOTION, MR_DEMOTION },
	{ DMA_MIGRATE_R_COMPACTION, MR_COMPACTION },
};

/* The dmacopy form of a prep_mode; DMACOPY_NR_FORMS for none. */
static enum dmacopy_form_id migrate_compat_form(u32 prep_mode)
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

/* START's fields, checked as the benchmark checks its own */
static int migrate_compat_config(const struct dma_migrate_offload *a,
				 struct dma_migrate_config *cfg)
{
	unsigned int i;

	cfg->form = migrate_compat_form(a->prep_mode);
	if (cfg->form == DMACOPY_NR_FORMS) {
		mb_refuse_err("invalid prep_mode %u: must be %u (memcpy), %u (memcpy_sg) or %u (memcpy_vec)\n",
			      a->prep_mode, DMAENGINE_BENCH_MODE_MEMCPY,
			      DMAENGINE_BENCH_MODE_MEMCPY_SG,
			      DMAENGINE_BENCH_MODE_MEMCPY_VEC);
		return -EINVAL;
	}
	if (mb_check_flags("flags", a->flags, DMA_MIGRATE_F_ALL) ||
	    mb_check_set("reasons", a->reasons, DMA_MIGRATE_R_ALL) ||
	    mb_check_range("channels", a->channels, 1,
			   DMAENGINE_BENCH_MAX_CHANNELS) ||
	    mb_check_range("timeout_ms", a->timeout_ms, 0,
			   DMAENGINE_BENCH_MAX_TIMEOUT_MS) ||
	    mb_check_name("channel", a->channel, sizeof(a->channel)) ||
	    mb_check_name("device", a->device, sizeof(a->device)) ||
	    mb_check_zero("reserved_in", a->reserved_in,
			  sizeof(a->reserved_in)))
		return -EINVAL;
	cfg->nr_chan = a->channels;
	cfg->allow_fewer = a->flags & DMA_MIGRATE_F_ALLOW_FEWER;
	cfg->timeout_ms = a->timeout_ms;
	cfg->min_folios = a->min_folios;
	cfg->reasons = 0;
	for (i = 0; i < ARRAY_SIZE(migrate_compat_reasons); i++)
		if (a->reasons & migrate_compat_reasons[i].bit)
			cfg->reasons |= BIT(migrate_compat_reasons[i].reason);
	strscpy(cfg->channel, a->channel, sizeof(cfg->channel));
	strscpy(cfg->device, a->device, sizeof(cfg->device));
	return 0;
}

static u32 migrate_compat_hook(void)
{
	typeof(dma_migrate_hook_name) *hook_name;
	const char *name;

	hook_name = symbol_get(dma_migrate_hook_name);
	if (!hook_name)
		return DMA_MIGRATE_HOOK_NONE;
	name = hook_name();
	symbol_put(dma_migrate_hook_name);
	if (!strcmp(name, "project"))
		return DMA_MIGRATE_HOOK_PROJECT;
	if (!strcmp(name, "rfc"))
		return DMA_MIGRATE_HOOK_RFC;
	return DMA_MIGRATE_HOOK_NONE;
}

/* The counters into the ioctl's structure. */
static void migrate_compat_stats_out(const struct dma_migrate_stats *st,
				     struct dma_migrate_offload *a)
{
	a->batches = st->batches;
	a->batches_declined = st->declined;
	a->folios = st->folios;
	a->folios_declined = st->declined_folios;
	a->folios_offloaded = st->offloaded;
	a->folios_fallback = st->fallback;
	a->bytes = st->bytes;
	a->descriptors = st->descriptors;
	a->errors = st->errors;
	a->ph.batch_ns = st->ph[DMA_MIGRATE_PH_BATCH];
	a->ph.map_ns = st->ph[DMA_MIGRATE_PH_MAP];
	a->ph.prep_ns = st->ph[DMA_MIGRATE_PH_PREP];
	a->ph.submit_ns = st->ph[DMA_MIGRATE_PH_SUBMIT];
	a->ph.issue_ns = st->ph[DMA_MIGRATE_PH_ISSUE];
	a->ph.wait_ns = st->ph[DMA_MIGRATE_PH_WAIT];
	a->ph.unmap_ns = st->ph[DMA_MIGRATE_PH_UNMAP];
	a->build_ns = st->ph[DMA_MIGRATE_PH_BUILD];
	a->mark_ns = st->ph[DMA_MIGRATE_PH_MARK];
	a->folios_lost = st->lost;
	a->folios_released = st->released;
	a->async_batches = st->async_batches;
	a->async_max_ns = st->async_max_ns;
#ifdef DMA_MIGRATE_OFFLOAD_SIZE_VER4
	a->phases = MIGRATE_COMPAT_PHASES;
#endif
}

/* The benchmark's error of a refused start, by its errno. */
static u32 migrate_compat_error(int err)
{
	switch (err) {
	case -ENODEV:
		return DMAENGINE_BENCH_ERR_NO_CHANNEL;
	case -EOPNOTSUPP:
		return DMAENGINE_BENCH_ERR_NO_API;
	case -ENOMEM:
		return DMAENGINE_BENCH_ERR_NOMEM;
	case -EBUSY:
		return DMAENGINE_BENCH_OK;
	default:
		return DMAENGINE_BENCH_ERR_INVAL;
	}
}

static int migrate_compat_start(struct file *file,
				struct dma_migrate_offload *a)
{
	int (*start)(const void *owner, const struct dma_migrate_config *cfg);
	struct dma_migrate_config cfg = { };
	int ret;

	ret = migrate_compat_config(a, &cfg);
	if (ret) {
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		return ret;
	}
	start = symbol_get(dma_migrate_owner_start);
	if (!start) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: the migration copy offload is dma_migrate.ko now: load it (insmod dma_migrate.ko, after dmacopy.ko) and use /sys/kernel/mm/dma_migrate/ and its parameters (Documentation/dma-migrate.rst)\n");
		a->error = DMAENGINE_BENCH_ERR_NO_API;
		return -ENODEV;
	}
	ret = start(file, &cfg);
	symbol_put(dma_migrate_owner_start);
	if (ret) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: START refused by dma_migrate (%d): see /sys/kernel/mm/dma_migrate/last_error\n",
			      ret);
		a->error = migrate_compat_error(ret);
		return ret;
	}
	a->active = 1;
	a->channels_used = cfg.nr_chan;
	a->prep_mode_used = a->prep_mode;
	return 0;
}

/* STATS or STOP of this file's offload. */
static int migrate_compat_read(struct file *file,
			       struct dma_migrate_offload *a, bool stop)
{
	int (*stats)(const void *owner, struct dma_migrate_stats *st,
		     bool reset, unsigned int *nr_chan);
	int (*stopf)(const void *owner, struct dma_migrate_stats *st);
	struct dma_migrate_stats st;
	unsigned int nr_chan = 0;
	int ret = -ESRCH;

	stats = symbol_get(dma_migrate_owner_stats);
	if (stats) {
		ret = stats(file, &st, false, &nr_chan);
		if (!ret && !stop && (a->flags & DMA_MIGRATE_F_RESET))
			ret = stats(file, &st, true, &nr_chan);
		symbol_put(dma_migrate_owner_stats);
	}
	if (!ret && stop) {
		stopf = symbol_get(dma_migrate_owner_stop);
		ret = stopf ? stopf(file, &st) : -ESRCH;
		if (stopf)
			symbol_put(dma_migrate_owner_stop);
	}
	if (ret) {
		mb_refuse_err("DMA_MIGRATE_OFFLOAD: op %u: no offload started on this file\n",
			      a->op);
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		return -EINVAL;
	}
	migrate_compat_stats_out(&st, a);
	a->channels_used = nr_chan;
	a->active = !stop;
	return 0;
}

static long migrate_compat_call(void *req, void *ctx)
{
	struct dma_migrate_offload *a = req;
	struct file *file = ctx;

	a->hook = migrate_compat_hook();
	a->active = 0;
	switch (a->op) {
	case DMA_MIGRATE_OP_START:
		return migrate_compat_start(file, a);
	case DMA_MIGRATE_OP_STOP:
	case DMA_MIGRATE_OP_STATS:
		return migrate_compat_read(file, a, a->op == DMA_MIGRATE_OP_STOP);
	default:
		mb_refuse_err("invalid op %u: must be below %u\n", a->op,
			      DMA_MIGRATE_NR_OPS);
		a->error = DMAENGINE_BENCH_ERR_INVAL;
		return -EINVAL;
	}
}

/* Every answer, a refusal too, says whether this file's offload runs. */
static const struct mb_ioctl_io migrate_compat_io = {
	.size = sizeof(struct dma_migrate_offload),
	.min_size = DMA_MIGRATE_OFFLOAD_SIZE_VER1,
	.out_off = offsetof(struct dma_migrate_offload, error),
	.out_always = true,
	.run = migrate_compat_call,
};

/**
 * dmaengine_migrate_ioctl - DMA_MIGRATE_OFFLOAD, forwarded to dma_migrate
 * @file: the dmaengine benchmark's file
 * @uarg: the user's struct dma_migrate_offload
 *
 * Return: 0, or a negative errno with ->error saying why where it can.
 */
long dmaengine_migrate_ioctl(struct file *file,
			     struct dma_migrate_offload __user *uarg)
{
	return mb_ioctl(uarg, &migrate_compat_io, file);
}

/* The file closed: the offload it started, if any, stops. */
void dmaengine_migrate_release(struct file *file)
{
	int (*stop)(const void *owner, struct dma_migrate_stats *st);
	struct dma_migrate_stats st;

	/* dma_migrate is loaded while an offload of this file runs */
	stop = symbol_get(dma_migrate_owner_stop);
	if (!stop)
		return;
	if (!stop(file, &st))
		pr_info("the file that started the migration copy offload was closed: stopped it\n");
	symbol_put(dma_migrate_owner_stop);
}
