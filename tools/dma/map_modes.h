/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Map modes (single, sg): DMA_MAP_BENCHMARK on the bound device, or
 * DMA_MAP_BENCHMARK_EXT when map_use_ext() says so.
 */
#ifndef DMABENCH_MAP_MODES_H
#define DMABENCH_MAP_MODES_H

#include <linux/map_benchmark.h>

#include "options.h"
#include "report.h"

/* map_fill_request() - the ioctl argument for @o, reserved bytes zero */
void map_fill_request(const struct bench_opts *o, struct map_benchmark *m);

/*
 * map_fill_ext_request() - the extended ioctl's argument for @o: size set,
 * reserved bytes and results zero, cpus_ptr pointing at @o->cpus
 */
void map_fill_ext_request(const struct bench_opts *o,
			  struct map_benchmark_ext *m);

/*
 * map_run() - run and report; 0, 1 after printing why it failed, or 2 when a
 * --cpus CPU is not online
 */
int map_run(const struct bench_opts *o, const struct report_ctx *ctx);

#endif
