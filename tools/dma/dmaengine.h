/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dmaengine mode: DMAENGINE_BENCHMARK, no device binding needed.
 */
#ifndef DMABENCH_DMAENGINE_H
#define DMABENCH_DMAENGINE_H

#include <stdint.h>

#include <linux/map_benchmark.h>

#include "options.h"
#include "report.h"

/* dmaengine_samples_len() - samples a run returns: runs x modes x channels */
uint32_t dmaengine_samples_len(const struct bench_opts *o);

/*
 * dmaengine_fill_request() - the ioctl argument for @o: ->size
 * and ->sample_size the tool's, the channel array (o->channels entries),
 * the sample array (@samples_len entries, or NULL) and the CPU list
 * (o->cpus, when --cpus was given) attached, everything else zero.
 */
void dmaengine_fill_request(const struct bench_opts *o,
			    struct dmaengine_benchmark *b,
			    struct dmaengine_bench_channel *channels,
			    struct dmaengine_bench_sample *samples,
			    uint32_t samples_len);

/*
 * dmaengine_run() - run and report; 0, 1 after printing why it failed, or 2
 * when a --cpus CPU is not online
 */
/*
 * dmaengine_batches() - the batches a channel copies in a run of @b, as the
 * kernel weighs them (->batches_per_channel): ->bytes_per_channel rounded
 * up to whole batches of ->sge folios of @page_size << ->folio_order, at
 * least one. For what the kernel has not said: a dry run, and the answer
 * of a module older than ->batches_per_channel.
 */
uint64_t dmaengine_batches(const struct dmaengine_benchmark *b,
			   long page_size);

/*
 * dmaengine_dry_run() - --dry-run: the request of @o as one JSON object on
 * @f: channels, sge, folio_bytes, batch_bytes, bytes_per_channel (asked),
 * batches_per_channel and copied_per_channel (dmaengine_batches()), runs,
 * warmup_runs, prep_modes (the names, in prep_mode_order)
 */
void dmaengine_dry_run(FILE *f, const struct bench_opts *o);

int dmaengine_run(const struct bench_opts *o, const struct report_ctx *ctx);

#endif
