/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Runtime errors: why the debugfs file cannot be opened and what to do,
 * and what a failed ioctl means. Paths are taken under a root directory so
 * the tests can point the checks at a made-up /proc and /sys.
 */
#ifndef DMABENCH_DIAG_H
#define DMABENCH_DIAG_H

#include <stdio.h>

#include <linux/map_benchmark.h>

#include "options.h"

#define MAP_BENCH_PATH		"/sys/kernel/debug/dma_map_benchmark"
#define DMAENGINE_BENCH_PATH	"/sys/kernel/debug/dmaengine_benchmark"

enum open_problem {
	OPEN_PERMISSION,	/* EACCES, EPERM: not root */
	OPEN_NO_DEBUGFS,	/* debugfs not mounted at /sys/kernel/debug */
	OPEN_NO_MODULE,		/* the module's drivers are not registered */
	OPEN_NO_DEVICE,		/* map modes: no device bound to the module */
	OPEN_NO_DMAENGINE,	/* module loaded, no dmaengine_benchmark file */
	OPEN_OTHER,		/* anything else: strerror() is all we know */
};

/* diagnose_open() - why opening @mode's file under @root failed with @err */
enum open_problem diagnose_open(const char *root, enum bench_mode mode,
				int err);

/* print_open_error() - what failed, why and the commands that fix it */
void print_open_error(FILE *f, const char *path, int err,
		      enum open_problem problem);

/*
 * open_bench_file() - open @mode's debugfs file @path read-write; the file
 * descriptor, or -1 after print_open_error() on stderr
 */
int open_bench_file(const char *path, enum bench_mode mode);

/*
 * check_cpus_online() - every --cpus CPU is in the online list under @root
 * (/sys/devices/system/cpu/online); 0, or -1 after saying which is not.
 * A list that cannot be read or parsed is left to the kernel to check.
 */
int check_cpus_online(const char *root, const struct bench_opts *o,
		      FILE *err);

/* print_map_ioctl_error() - DMA_MAP_BENCHMARK failed with @err */
void print_map_ioctl_error(FILE *f, int err);

/*
 * print_map_ext_ioctl_error() - DMA_MAP_BENCHMARK_EXT failed with @err; @m
 * the request (its inputs name what to change)
 */
void print_map_ext_ioctl_error(FILE *f, int err,
			       const struct map_benchmark_ext *m);

/*
 * print_dmaengine_error() - DMAENGINE_BENCHMARK failed with @err; @b as the
 * kernel copied it back (->error, ->error_channel, ...), @channels the array
 * passed as channels_ptr (b->channels entries) or NULL.
 */
void print_dmaengine_error(FILE *f, int err,
			   const struct dmaengine_benchmark *b,
			   const struct dmaengine_bench_channel *channels,
			   const struct bench_opts *o);

/*
 * dmaengine_missing_reason() - why prep mode @mode (DMAENGINE_BENCH_MODE_*)
 * did not run: ->results[@mode].missing as a sentence, e.g. "this kernel
 * has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the
 * project" or "channel dma0chan0 lacks DMA_MEMCPY_SG". @channels as in
 * print_dmaengine_error().
 */
void dmaengine_missing_reason(char *buf, size_t len,
			      const struct dmaengine_benchmark *b,
			      const struct dmaengine_bench_channel *channels,
			      unsigned int mode);

#endif
