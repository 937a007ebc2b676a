/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dma_migrate's state, shared by its controls (control.c), its start and
 * stop (offload.c) and its batch (copy.c). Documentation/dma-migrate.rst.
 */
#ifndef _DMA_MIGRATE_H
#define _DMA_MIGRATE_H

#include <linux/mm.h>
#include <linux/huge_mm.h>
#include <linux/ktime.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* first: the build probes' HAVE_* come with the library's header */
#include "dmacopy.h"
/* the hook's interface, the RFC's calls over either hook */
#include "hook.h"
/* the configuration, the counters, what the module exports */
#include "dma_migrate_api.h"

struct dma_migrate;
struct mutex;

/*
 * The largest batch migrate_pages() hands over: NR_MAX_BATCHED_MIGRATION
 * (mm/migrate.c: HPAGE_PMD_NR where THP is built, else 512) pages' worth
 * of folios, the last folio allowed to go beyond; so at most that many
 * folios, and less than twice that many pages.
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#define DMA_MIGRATE_MAX_FOLIOS	HPAGE_PMD_NR
#else
#define DMA_MIGRATE_MAX_FOLIOS	512
#endif
#define DMA_MIGRATE_MAX_BYTES	\
	((u64)(2 * DMA_MIGRATE_MAX_FOLIOS - 1) << PAGE_SHIFT)

/*
 * The longest a MIGRATE_ASYNC caller (NUMA balancing, async compaction)
 * waits in the hook: its batch's deadline, and no drain after it. A batch
 * the engines do not copy by then is terminated (its folios go to the
 * CPU), or, on an engine that cannot be stopped, its folios are lost.
 */
#define DMA_MIGRATE_ASYNC_WAIT_MS	10
/*
 * How long a synchronous caller's batch that missed its deadline is given,
 * on an engine that cannot be stopped, to end what it issued: the
 * timeout again, and at least this. An engine merely slower than the
 * deadline finishes within it (its folios fall back to the CPU); what
 * still runs after it is taken for stuck, and its folios are lost.
 */
#define DMA_MIGRATE_DRAIN_MIN_MS	1000
/*
 * How long a stop during a provider's unbind waits, past the timeout,
 * for the provider's remove() to end a quarantine on its channels.
 */
#define DMA_MIGRATE_UNBIND_WAIT_MS	5000

/**
 * struct dma_migrate_share - a channel and its share of a batch
 * @o: the offload
 * @cl: the library's channel, the set's
 * @busy: bit 0 held by the batch that copies over the channel (a bit,
 *	not a mutex: a batch holds up to DMA_MIGRATE_MAX_CHANNELS, more
 *	locks than lockdep tracks in one task)
 * @b: the batch on it, its cookies and dma_vec arrays allocated at the start,
 *	freed with the set
 * @src_sgl: room for @src_sgt's entries, allocated at the start
 * @dst_sgl: likewise for @dst_sgt
 * @src_sgt: the share's source folios
 * @dst_sgt: its destination folios
 * @src: its source folios, room for DMA_MIGRATE_MAX_FOLIOS
 * @dst: its destination folios, likewise
 * @max_ents: room in @src_sgl and @dst_sgl
 * @n: folio pairs in the share
 * @failed: the share did not complete: none of its folios is marked
 * @quarantined: it failed on an engine that cannot stop it and was not
 *	done within the drain bound: its destinations were reported lost,
 *	and it keeps them, its batch, tables and mappings until the batch is
 *	idle (dma_migrate_unquarantine()); no batch takes the channel
 *	before
 * @retired: its provider was unbound: no batch takes the channel again
 * @next: the next channel the same batch took
 * @build_ns: this batch's time building the share's tables
 * @mark_ns: this batch's time marking the share's destination folios
 */
struct dma_migrate_share {
	struct dma_migrate *o;
	struct dmacopy_chan *cl;
	unsigned long busy;
	struct dmacopy_batch b;
	struct scatterlist *src_sgl;
	struct scatterlist *dst_sgl;
	struct sg_table src_sgt;
	struct sg_table dst_sgt;
	struct folio **src;
	struct folio **dst;
	unsigned int max_ents;
	unsigned int n;
	bool failed;
	bool quarantined;
	bool retired;
	struct dma_migrate_share *next;
	u64 build_ns;
	u64 mark_ns;
};

/**
 * struct dma_migrate - a started offload
 * @owner: who started it: NULL for the controls (offloading=1), the
 *	benchmark's file for its compatibility ioctl (migrate_compat.c),
 *	which stops only what it started
 * @form: the prep form
 * @set: the channels
 * @shares: one per channel
 * @nr_shares: entries in @shares, the channels taken at the start
 * @timeout: jiffies a whole batch may take
 * @min_folios: smaller batches are left to the CPU
 * @abort: raised by the set on an unbind: the batches in flight end
 *	within a wait slice; a provider unbound (dmacopy_set_unbound()) makes
 *	later batches decline until the stop
 * @ready: the shares are set up: an unbind waits for the batch on its
 *	channel; before, no batch can run
 * @stats_lock: guards @stats, and @ready against an unbind
 * @stats: the counters
 */
struct dma_migrate {
	const void *owner;
	enum dmacopy_form_id form;
	struct dmacopy_set set;
	struct dma_migrate_share *shares;
	unsigned int nr_shares;
	unsigned long timeout;
	unsigned int min_folios;
	bool abort;
	bool ready;
	spinlock_t stats_lock; /* guards @stats and @ready */
	struct dma_migrate_stats stats;
};

extern struct dma_migrate *dma_migrate_active;

/* Whatever started it, the controls serialize starts and stops. */
extern struct mutex dma_migrate_ctl_lock;

/* control.c: a refusal, logged and kept in last_error */
__printf(1, 2) void dma_migrate_err(const char *fmt, ...);

/* offload.c, under dma_migrate_ctl_lock */
int dma_migrate_start(const struct dma_migrate_config *cfg, const void *owner);
void dma_migrate_stop(void);
int dma_migrate_form_parse(const char *val);
const char *dma_migrate_form_short(enum dmacopy_form_id form);
int dma_migrate_reasons_parse(const char *val, unsigned long *mask);
int dma_migrate_reasons_show(char *buf, unsigned long mask);
ssize_t dma_migrate_channels_show(char *buf);
void dma_migrate_stats_read(struct dma_migrate_stats *st, bool reset);

#ifdef DMA_MIGRATE_HAVE_HOOK
int dma_migrate_copy(struct dma_migrate_req *r);
#endif
void dma_migrate_put(struct dma_migrate_share *sh);
void dma_migrate_unquarantine(struct dma_migrate_share *sh, bool unbound);

static inline u64 dma_migrate_elapsed_ns(ktime_t t0)
{
	return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

#endif /* _DMA_MIGRATE_H */
