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
 * dmaengine_fill_request() - the ioctl argument for @o, version 2: ->size
 * and ->sample_size the tool's, the channel array (o->channels entries),
 * the sample array (@samples_len entries, or NULL) and the CPU list
 * (o->cpus, when --cpus was given) attached, everything else zero.
 */
void dmaengine_fill_request(const struct bench_opts *o,
			    struct dmaengine_benchmark *b,
			    struct dmaengine_bench_channel *channels,
			    struct dmaengine_bench_sample *samples,
			    uint32_t samples_len);

/* What a version 1 request cannot ask for (dmaengine_v1_blockers()). */
enum dmaengine_v1_blocker {
	V1_NEEDS_CPU = 1 << 0,		/* prep mode cpu or memcpy_vec
					 * (also: no --prep-modes) */
	V1_NEEDS_DEPTH = 1 << 1,	/* --depth above 1 */
	V1_NEEDS_CPUS = 1 << 2,		/* --cpus */
	V1_NEEDS_DISTINCT = 1 << 3,	/* --buffers distinct (the default) */
	V1_NEEDS_DST_ORDER = 1 << 4,	/* --dst-folio-order or --dst-folio */
};

/* dmaengine_v1_blockers() - enum dmaengine_v1_blocker bits; 0: v1 can run @o */
unsigned int dmaengine_v1_blockers(const struct bench_opts *o);

/*
 * dmaengine_v1_request() - turn @b, from dmaengine_fill_request(), into the
 * version 1 request an older module takes: ->size DMAENGINE_BENCH_SIZE_VER1
 * and the version 2 tail zero. Only when dmaengine_v1_blockers() is 0.
 */
void dmaengine_v1_request(struct dmaengine_benchmark *b);

/*
 * dmaengine_from_v1() - after a version 1 call, the answer as version 2
 * has it: ->results[].r from ->result[], ->prep_modes_run, and @samples
 * (->samples_written entries of DMAENGINE_BENCH_SAMPLE_SIZE_VER1 bytes as
 * the kernel wrote them) spread to struct dmaengine_bench_sample, the new
 * fields zero. The report then reads one layout.
 */
void dmaengine_from_v1(struct dmaengine_benchmark *b,
		       struct dmaengine_bench_sample *samples);

/*
 * dmaengine_run() - run and report; 0, 1 after printing why it failed, or 2
 * when a --cpus CPU is not online
 */
int dmaengine_run(const struct bench_opts *o, const struct report_ctx *ctx);

#endif
