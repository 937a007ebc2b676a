// SPDX-License-Identifier: GPL-2.0-only
/*
 * Map modes (single, sg): DMA_MAP_BENCHMARK on the bound device.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "map_modes.h"

_Static_assert(sizeof(struct map_benchmark) == 136,
	       "struct map_benchmark must stay binary compatible with upstream");

void map_fill_request(const struct bench_opts *o, struct map_benchmark *m)
{
	memset(m, 0, sizeof(*m));
	m->threads = o->threads;
	m->seconds = o->seconds;
	m->node = o->node;
	m->dma_bits = o->dma_bits;
	m->dma_dir = o->dir;
	m->dma_trans_ns = o->xdelay;
	m->granule = o->granule;
	m->map_mode = o->mode == MODE_SG ? DMA_MAP_BENCH_SG_MODE :
					    DMA_MAP_BENCH_SINGLE_MODE;
}

int map_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	struct map_benchmark m;
	int fd, err;

	fd = open(MAP_BENCH_PATH, O_RDWR);
	if (fd < 0) {
		err = errno;
		print_open_error(stderr, MAP_BENCH_PATH, err,
				 diagnose_open("", o->mode, err));
		return 1;
	}
	map_fill_request(o, &m);
	if (ioctl(fd, DMA_MAP_BENCHMARK, &m)) {
		print_map_ioctl_error(stderr, errno);
		close(fd);
		return 1;
	}
	close(fd);
	report_map(stdout, ctx, o, &m);
	return 0;
}
