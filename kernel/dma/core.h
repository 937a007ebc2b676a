/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The benchmark's core, shared by the map modes and the dmaengine mode:
 * request checks, the memory bound, the refusal rate limit, the statistics
 * and the module's parts. Each mode depends on this, not on the other.
 */
#ifndef _KERNEL_DMA_CORE_H
#define _KERNEL_DMA_CORE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/types.h>

/*
 * The ABI header lives in the project's uapi/ directory; a kernel may carry
 * an older include/linux/map_benchmark.h of its own, so name ours by path.
 */
#include "../../uapi/linux/map_benchmark.h"
#include "../compat.h"
#include "../seg_limits.h"

struct cpumask;
struct dentry;
struct device;

/* An unsigned 128-bit integer, portable to 32-bit kernels. */
struct mb_u128 {
	u64 hi;
	u64 lo;
};

/*
 * Mean and variance of nanosecond samples from exact sums, in any order:
 * threads keep their own and merge (add) them at the end.
 */
struct mb_stat {
	u64 n;
	u64 sum;
	struct mb_u128 sum_sq;
	u64 min;
	u64 max;
};

/*
 * Log-linear latency histogram: exact below 16 ns, then 16 buckets per
 * power of two, so a percentile is within 1/16 of its true value.
 */
#define MB_HIST_SUB_BITS	4
#define MB_HIST_BUCKETS		(61 << MB_HIST_SUB_BITS)

struct mb_hist {
	u64 count[MB_HIST_BUCKETS];
};

void mb_hist_add(struct mb_hist *h, u64 x);
void mb_hist_merge(struct mb_hist *dst, const struct mb_hist *src);
u64 mb_hist_percentile(const struct mb_hist *h, u64 n, unsigned int pct);

void mb_stat_add(struct mb_stat *s, u64 x);
void mb_stat_merge(struct mb_stat *dst, const struct mb_stat *src);
u64 mb_stat_mean(const struct mb_stat *s);
u64 mb_stat_stddev(const struct mb_stat *s);
u64 mb_stat_stddev_upstream(const struct mb_stat *s);

/* Nanoseconds since @t0 (a ktime_get()). */
static inline u64 mb_elapsed_ns(ktime_t t0)
{
	return ktime_to_ns(ktime_sub(ktime_get(), t0));
}

/* Mean and sample standard deviation of a few values (runs). */
void mb_mean_stddev(const u64 *v, unsigned int n, u64 *mean, u64 *stddev);

/*
 * Refusal messages, naming the field and why, share one rate limit: a
 * caller looping on a bad request cannot flood the log.
 */
extern struct ratelimit_state mb_refusals;
#define mb_refuse_err(fmt, ...)						\
	do {								\
		if (__ratelimit(&mb_refusals))				\
			pr_err(fmt, ##__VA_ARGS__);			\
	} while (0)

int mb_check_range(const char *field, u64 val, u64 lo, u64 hi);
int mb_check_flags(const char *field, u32 val, u32 known);
int mb_check_set(const char *field, u32 val, u32 all);
int mb_check_zero(const char *field, const void *p, size_t len);
int mb_check_name(const char *field, const char *s, size_t len);
int mb_cpus_from_user(u64 uptr, u32 nr, u32 max, u32 **cpus);
/**
 * struct mb_ioctl_io - an extensible ioctl's structure, for mb_ioctl()
 * @size: the module's sizeof() of it
 * @min_size: the size of its first published version
 * @out_off: offset of its first output: outputs follow the inputs
 * @out_always: a failed call copies out too: its outputs say why
 * @run: runs the request, in the module's copy; returns 0 or -errno
 * @fit: or NULL: lays the module's copy out for a caller of size @usize
 *	(a structure whose last member is an array of growing entries),
 *	before it is copied out
 */
struct mb_ioctl_io {
	size_t size;
	u32 min_size;
	size_t out_off;
	bool out_always;
	long (*run)(void *req, void *ctx);
	void (*fit)(void *req, u32 usize);
};

long mb_ioctl(void __user *uarg, const struct mb_ioctl_io *io, void *ctx);
int mb_capable(void);
void mb_kthread_pin(const struct cpumask *mask);
__printf(2, 3)
int mb_memory_bound(u64 bytes, const char *fmt, ...);
struct dentry *mb_debugfs_create(const char *name, void *data,
				 const struct file_operations *fops);

/* Entries one sg_table of the benchmark may have: a finer cut is refused. */
#define MB_MAX_TABLE_ENTS	BIT(20)

/* The module's parts, started by core.c in this order, stopped in reverse. */
int map_benchmark_driver_init(void);
void map_benchmark_driver_exit(void);
int dmaengine_bench_init(void);
void dmaengine_bench_exit(void);

#endif /* _KERNEL_DMA_CORE_H */
