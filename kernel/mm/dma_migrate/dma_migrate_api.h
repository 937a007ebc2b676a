/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What dma_migrate exports (symbol namespace DMA_MIGRATE): its
 * configuration, its counters, and a start and stop by an owner, for the
 * benchmark's DMA_MIGRATE_OFFLOAD compatibility ioctl
 * (kernel/dma/migrate_compat.c), which takes them by symbol_get() so
 * that the benchmark loads without it. Everyone else uses the controls
 * (Documentation/dma-migrate.rst).
 */
#ifndef _DMA_MIGRATE_API_H
#define _DMA_MIGRATE_API_H

#include <linux/bits.h>
#include <linux/migrate_mode.h>
#include <linux/types.h>

#include "dmacopy.h"
/* the shared phase list, DMAENGINE_BENCH_PHASES where the header has it */
#include "../../../uapi/linux/map_benchmark.h"
#include "phases.h"

/* The symbol namespace: a bare identifier up to 6.12, a string from 6.13. */
#ifdef HAVE_SYMBOL_NS_IDENTIFIER
#define DMA_MIGRATE_NS	DMA_MIGRATE
#else
#define DMA_MIGRATE_NS	"DMA_MIGRATE"
#endif

/* The longest timeout_ms, and the one of timeout_ms 0 */
#define DMA_MIGRATE_MAX_TIMEOUT_MS	600000
#define DMA_MIGRATE_DEFAULT_TIMEOUT_MS	10000
/* The most channels, as the dmacopy library takes them */
#define DMA_MIGRATE_MAX_CHANNELS	256
/* channel= and device=: names shorter than this */
#define DMA_MIGRATE_NAME_LEN		32
/* reason_mask's default: move_pages() and migrate_pages() */
#define DMA_MIGRATE_REASONS_DEFAULT	BIT(MR_SYSCALL)

/**
 * struct dma_migrate_config - what a start takes (the module parameters)
 * @form: the prep form
 * @nr_chan: channels to copy over
 * @allow_fewer: start on fewer channels when not that many are free
 * @reasons: the migrations to offload, BIT(enum migrate_reason) each
 * @timeout_ms: how long a batch may take; 0: DMA_MIGRATE_DEFAULT_TIMEOUT_MS
 * @min_folios: smaller batches are left to the CPU
 * @channel: only the channel of this name; empty: any
 * @device: only channels of the DMA device of this name; empty: any
 */
struct dma_migrate_config {
	enum dmacopy_form_id form;
	unsigned int nr_chan;
	bool allow_fewer;
	unsigned long reasons;
	unsigned int timeout_ms;
	unsigned int min_folios;
	char channel[DMA_MIGRATE_NAME_LEN];
	char device[DMA_MIGRATE_NAME_LEN];
};

/**
 * struct dma_migrate_stats - the counters, what the stats file reads
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
 * @ph: phase times (DMA_MIGRATE_PH_*), summed over batches, and over
 *	channels for the per-channel phases (all but batch): in the hook
 *	(batch), building the shares' tables (build), mapping (map), prep
 *	calls (prep), dmaengine_submit() (submit), issue_pending (issue),
 *	waiting for the descriptors (wait), unmapping (unmap), marking the
 *	destinations copied (mark)
 * @lost: folios of failed shares whose copy could not be stopped in
 *	time: reported lost, their destinations quarantined
 * @released: quarantined destinations given back, their engine done
 * @async_batches: batches of MIGRATE_ASYNC callers
 * @async_max_ns: the longest of those in the hook
 */
struct dma_migrate_stats {
	u64 batches;
	u64 declined;
	u64 errors;
	u64 folios;
	u64 declined_folios;
	u64 offloaded;
	u64 fallback;
	u64 bytes;
	u64 descriptors;
	u64 ph[DMA_MIGRATE_NR_PH];
	u64 lost;
	u64 released;
	u64 async_batches;
	u64 async_max_ns;
};

const char *dma_migrate_hook_name(void);
int dma_migrate_owner_start(const void *owner,
			    const struct dma_migrate_config *cfg);
int dma_migrate_owner_stop(const void *owner, struct dma_migrate_stats *st);
int dma_migrate_owner_stats(const void *owner, struct dma_migrate_stats *st,
			    bool reset, unsigned int *nr_chan);

#endif /* _DMA_MIGRATE_API_H */
