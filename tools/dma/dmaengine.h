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
int dmaengine_run(const struct bench_opts *o, const struct report_ctx *ctx);

#endif
