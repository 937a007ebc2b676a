/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Map modes (single, sg): DMA_MAP_BENCHMARK on the bound device.
 */
#ifndef DMABENCH_MAP_MODES_H
#define DMABENCH_MAP_MODES_H

#include <linux/map_benchmark.h>

#include "options.h"
#include "report.h"

/* map_fill_request() - the ioctl argument for @o, reserved bytes zero */
void map_fill_request(const struct bench_opts *o, struct map_benchmark *m);

/* map_run() - run and report; 0, or 1 after printing why it failed */
int map_run(const struct bench_opts *o, const struct report_ctx *ctx);

#endif
