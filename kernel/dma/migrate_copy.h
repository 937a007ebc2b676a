/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migration copy offload's state, shared by its ioctl
 * (migrate_offload.c) and its batch (migrate_copy.c).
 */
#ifndef _KERNEL_DMA_MIGRATE_COPY_H
#define _KERNEL_DMA_MIGRATE_COPY_H

#include <linux/huge_mm.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/* first: the build probes' HAVE_* come with core.h */
#include "core.h"
#include "dmacopy.h"
/* the hook's interface, the RFC's calls over either hook */
#include "migrate_rfc.h"

struct dmaengine_migrate;

/*
 * The largest batch migrate_pages() hands over: NR_MAX_BATCHED_MIGRATION
 * (mm/migrate.c: HPAGE_PMD_NR where THP is built, else 512) pages' worth
 * of folios, the last folio allowed to go beyond; so at most that many
 * folios, and less than twice that many pages.
 */
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
#define DMAENGINE_MIGRATE_MAX_FOLIOS	HPAGE_PMD_NR
#else
#define DMAENGINE_MIGRATE_MAX_FOLIOS	512
#endif
#define DMAENGINE_MIGRATE_MAX_BYTES	\
	((u64)(2 * DMAENGINE_MIGRATE_MAX_FOLIOS - 1) << PAGE_SHIFT)

/*
 * The longest a MIGRATE_ASYNC caller (NUMA balancing, async compaction)
 * waits in the hook: its batch's deadline, and no drain after it. A batch
 * the engines do not copy by then is terminated (its folios go to the
 * CPU), or, on an engine that cannot be stopped, its folios are lost.
 */
#define DMAENGINE_MIGRATE_ASYNC_WAIT_MS	10
/*
 * How long a synchronous caller's batch that missed its deadline is given,
 * on an engine that cannot be stopped, to end what it issued: the
 * timeout again, and at least this. An engine merely slower than the
 * deadline finishes within it (its folios fall back to the CPU); what
 * still runs after it is taken for stuck, and its folios are lost.
 */
#define DMAENGINE_MIGRATE_DRAIN_MIN_MS	1000

/**
 * struct dmaengine_migrate_stats - what STATS reads
 * @batches: batches the hook handed over
 * @declined: those the offload did not take (too small, no channel free,
 *	a provider unbound): the CPU copied them as without an offload
 * @errors: those it took and that failed (an error, the deadline, an
 *	unbind), on at least one channel
 * @folios: folios in all batches
 * @declined_folios: folios in the batches declined
 * @offloaded: folios the engines copied, marked copied
 * @fallback: folios of the batches taken that the engines did not copy
 *	(a failed share, a poisoned source): the CPU copied them
 * @bytes: bytes the engines copied
 * @descriptors: descriptors submitted
 * @ph: phase times
 * @build_ns: time building the shares' tables, summed over channels
 * @mark_ns: time marking destination folios copied
 * @lost: folios of failed shares whose copy could not be stopped in
 *	time: reported lost, their destinations quarantined
 * @released: quarantined destinations given back, their engine done
 * @async_batches: batches of MIGRATE_ASYNC callers
 * @async_max_ns: the longest of those in the hook
 */
struct dmaengine_migrate_stats {
	u64 batches;
	u64 declined;
	u64 errors;
	u64 folios;
	u64 declined_folios;
	u64 offloaded;
	u64 fallback;
	u64 bytes;
	u64 descriptors;
	struct dma_migrate_offload_phases ph;
	u64 build_ns;
	u64 mark_ns;
	u64 lost;
	u64 released;
	u64 async_batches;
	u64 async_max_ns;
};

/**
 * struct dmaengine_migrate_share - a channel and its share of a batch
 * @o: the offload
 * @cl: the library's channel, the set's
 * @busy: bit 0 held by the batch that copies over the channel (a bit,
 *	not a mutex: a batch holds up to DMAENGINE_BENCH_MAX_CHANNELS, more
 *	locks than lockdep tracks in one task)
 * @b: the batch on it, its cookies and dma_vec arrays allocated at START,
 *	freed with the set
 * @src_sgl: room for @src_sgt's entries, allocated at START
 * @dst_sgl: likewise for @dst_sgt
 * @src_sgt: the share's source folios
 * @dst_sgt: its destination folios
 * @src: its source folios, room for DMAENGINE_MIGRATE_MAX_FOLIOS
 * @dst: its destination folios, likewise
 * @max_ents: room in @src_sgl and @dst_sgl
 * @n: folio pairs in the share
 * @failed: the share did not complete: none of its folios is marked
 * @quarantined: it failed on an engine that cannot stop it and was not
 *	done within the drain bound: its destinations were reported lost,
 *	and it keeps them, its batch, tables and mappings until the batch is
 *	idle (dmaengine_migrate_unquarantine()); no batch takes the channel
 *	before
 * @retired: its provider was unbound: no batch takes the channel again
 * @next: the next channel the same batch took
 * @build_ns: this batch's time building the share's tables
 * @mark_ns: this batch's time marking the share's destination folios
 */
struct dmaengine_migrate_share {
	struct dmaengine_migrate *o;
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
	struct dmaengine_migrate_share *next;
	u64 build_ns;
	u64 mark_ns;
};

/**
 * struct dmaengine_migrate - a started offload
 * @file: the file that started it: STOP, STATS and its release act on it
 * @form: the prep form
 * @prep_mode: its DMAENGINE_BENCH_MODE_*, as START named it
 * @set: the channels
 * @shares: one per channel
 * @nr_shares: entries in @shares, the channels taken at START
 * @timeout: jiffies a whole batch may take
 * @min_folios: smaller batches are left to the CPU
 * @abort: raised by the set on an unbind: the batches in flight end
 *	within a wait slice; a provider unbound (dmacopy_set_unbound()) makes
 *	later batches decline until STOP
 * @ready: the shares are set up: an unbind waits for the batch on its
 *	channel; before, no batch can run
 * @stats_lock: guards @stats, and @ready against an unbind
 * @stats: the counters
 */
struct dmaengine_migrate {
	struct file *file;
	enum dmacopy_form_id form;
	unsigned int prep_mode;
	struct dmacopy_set set;
	struct dmaengine_migrate_share *shares;
	unsigned int nr_shares;
	unsigned long timeout;
	unsigned int min_folios;
	bool abort;
	bool ready;
	spinlock_t stats_lock; /* guards @stats and @ready */
	struct dmaengine_migrate_stats stats;
};

extern struct dmaengine_migrate *dmaengine_migrate_active;

#ifdef DMAENGINE_MIGRATE_HAVE_HOOK
int dmaengine_migrate_copy(struct dmaengine_migrate_req *r);
#endif
void dmaengine_migrate_put(struct dmaengine_migrate_share *sh);
void dmaengine_migrate_unquarantine(struct dmaengine_migrate_share *sh,
				    bool unbound);

#endif /* _KERNEL_DMA_MIGRATE_COPY_H */
