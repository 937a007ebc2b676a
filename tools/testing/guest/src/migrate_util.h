/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the guest's migration programs (move_pages_offload, migrate_async)
 * share: the copy offload's start, counters and stop, move_pages() of a
 * buffer page by page, and the pattern a buffer is filled with and
 * checked against.
 *
 * Include it first, or after defining _GNU_SOURCE and
 * __SANE_USERSPACE_TYPES__ (the uapi header's __u64 as unsigned long long).
 */
#ifndef MIGRATE_UTIL_H
#define MIGRATE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/map_benchmark.h>

/* The file whose DMA_MIGRATE_OFFLOAD ioctl starts, counts and stops */
#define MU_DMAENGINE_PATH	"/sys/kernel/debug/dmaengine_benchmark"

/*
 * DMA_MIGRATE_OFFLOAD's @op with @flags: through dma_migrate.ko's controls
 * (the tool's tools/dma/migrate_ctl.c) when @fd < 0, else as the benchmark's ioctl on @fd
 * (forwarded to dma_migrate, what older tools use). The request's fields
 * of @a (prep_mode, channels, reasons, timeout_ms, min_folios) are kept,
 * every other one is cleared first; the answer comes back in @a.
 */
int mu_offload(int fd, struct dma_migrate_offload *a, unsigned int op,
	       unsigned int flags);

/* Word @word of page @page, generation @gen: each rewrite is told apart */
uint64_t mu_pattern(unsigned long page, size_t word, unsigned int gen);
/* Fill @n pages of @psize bytes with generation @gen of the pattern */
void mu_fill(char *buf, unsigned long n, long psize, unsigned int gen);
/*
 * Whether pages @from to @n hold generation @gen; the first word that
 * differs is printed
 */
bool mu_verify(const char *buf, unsigned long n, long psize, unsigned int gen,
	       unsigned long from);

/*
 * Move the @n pages of @buf to @node; returns how many are there after,
 * -1 when move_pages() fails. A page busy elsewhere (-EBUSY, -EAGAIN:
 * compaction has it isolated, say) is moved again, up to MU_MOVE_PASSES
 * times, as the tool's migrate mode does: only a page that stays busy
 * counts as not moved.
 */
#define MU_MOVE_PASSES	10
long mu_move(char *buf, unsigned long n, long psize, int node);
/* How many of the @n pages of @buf are on @node now; -1 on an error */
long mu_pages_on(char *buf, unsigned long n, long psize, int node);

#endif
