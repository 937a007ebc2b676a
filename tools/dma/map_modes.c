// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "map_modes.h"

_Static_assert(sizeof(struct map_benchmark) == 136,
	       "struct map_benchmark must stay binary compatible with upstream");
_Static_assert(sizeof(struct map_benchmark_ext) == DMA_MAP_BENCH_EXT_SIZE_VER1,
	       "struct map_benchmark_ext must match the published size");

void map_fill_ext_request(const struct bench_opts *o,
			  struct map_benchmark_ext *m)
{
	memset(m, 0, sizeof(*m));
	m->size = sizeof(*m);
	m->flags = o->sync ? DMA_MAP_BENCH_F_SYNC : 0;
	m->map_mode = o->mode == MODE_SG ? DMA_MAP_BENCH_SG_MODE :
					    DMA_MAP_BENCH_SINGLE_MODE;
	m->threads = o->threads;
	m->seconds = o->seconds;
	m->iterations = o->iterations;
	m->node = o->node;
	m->dma_bits = o->dma_bits;
	m->dma_dir = o->dma_dir;
	m->dma_trans_ns = o->dma_trans_ns;
	m->entries = o->granule;
	m->entry_size = o->entry_size;
	if (o->nr_cpus) {
		m->cpus_ptr = (uintptr_t)o->cpus;
		m->nr_cpus = o->nr_cpus;
	}
}

/* the extended request's fields, as DMA_MAP_BENCHMARK has them */
void map_fill_request(const struct bench_opts *o, struct map_benchmark *m)
{
	struct map_benchmark_ext e;

	map_fill_ext_request(o, &e);
	map_ext_to_legacy(&e, m);
}

int map_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	struct map_benchmark_ext e;
	struct map_benchmark m;
	int fd, ret = 0;

	if (check_cpus_online("", o, stderr))
		return 2;
	fd = open_bench_file(MAP_BENCH_PATH, o->mode);
	if (fd < 0)
		return 1;
	if (map_use_ext(o)) {
		map_fill_ext_request(o, &e);
		if (ioctl(fd, DMA_MAP_BENCHMARK_EXT, &e)) {
			print_map_ext_ioctl_error(stderr, errno, &e);
			ret = 1;
		} else {
			report_map_ext(stdout, ctx, o, &e);
		}
	} else {
		map_fill_request(o, &m);
		if (ioctl(fd, DMA_MAP_BENCHMARK, &m)) {
			print_map_ioctl_error(stderr, errno);
			ret = 1;
		} else {
			report_map(stdout, ctx, o, &m);
		}
	}
	close(fd);
	return ret;
}
