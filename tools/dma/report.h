/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output: the map modes' selftest lines and JSON; the dmaengine table, CSV
 * and JSON. Everything is formatted from the ioctl structures alone, so it
 * is tested on the host with filled-in structures.
 */
#ifndef DMABENCH_REPORT_H
#define DMABENCH_REPORT_H

#include <stdio.h>

#include <linux/map_benchmark.h>

#include "options.h"

/* Where the run happened, for the report headers. */
struct report_ctx {
	const char *version;	/* tool_version */
	const char *kernel;	/* kernel_release() */
};

/* The selftest's four lines, byte for byte. */
void report_map_text(FILE *f, const struct map_benchmark *m);
void report_map_json(FILE *f, const struct report_ctx *ctx,
		     const struct map_benchmark *m);
/* report_map() - text or JSON, per @o->format */
void report_map(FILE *f, const struct report_ctx *ctx,
		const struct bench_opts *o, const struct map_benchmark *m);

/*
 * A finished DMAENGINE_BENCHMARK: @b as the kernel returned it, the
 * channel array it filled (NULL if none was passed) and its samples (NULL,
 * or b->samples_written entries).
 */
struct dmaengine_report {
	const struct bench_opts *opts;	/* page size, --verbose, --per-channel */
	const struct dmaengine_benchmark *b;
	const struct dmaengine_bench_channel *channels;
	const struct dmaengine_bench_sample *samples;
};

/* CSV header line, without the newline */
extern const char dmaengine_csv_header[];

void report_dmaengine_text(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r);
void report_dmaengine_csv(FILE *f, const struct dmaengine_report *r);
void report_dmaengine_json(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r);
/* report_dmaengine() - text, CSV or JSON, per r->opts->format */
void report_dmaengine(FILE *f, const struct report_ctx *ctx,
		      const struct dmaengine_report *r);

/* dmaengine_channels_used() - channels the run used, as far as known */
unsigned int dmaengine_channels_used(const struct dmaengine_benchmark *b);

#endif
