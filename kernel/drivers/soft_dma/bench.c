// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcpy_bench: a CPU-copy reference for soft_dma's throughput. It does not
 * belong in a DMA provider and is to be removed once the benchmark has its
 * own CPU-copy row; it lives in this file alone so that it goes in one
 * step (this file, its Kbuild entry and the call in debugfs.c).
 */

#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "soft_dma.h"

/*
 * memcpy_bench: the reference for soft_dma's throughput. Write "SIZE
 * [ITERATIONS [BUFFERS]]" to memcpy() SIZE bytes ITERATIONS times, as the
 * engine does, cycling through BUFFERS source/destination pairs (the working
 * set of the client being compared); read back the result.
 */
#define SOFT_DMA_BENCH_MAX_BYTES	SZ_1G

static DEFINE_MUTEX(soft_dma_bench_mutex);

static struct {
	size_t size;
	unsigned int iterations;
	unsigned int buffers;
	u64 ns;
} soft_dma_bench;

static void soft_dma_bench_free(void **bufs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kvfree(bufs[i]);
	kfree(bufs);
}

static ssize_t soft_dma_bench_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned int iterations = 32, buffers = 1, i;
	unsigned long size;
	char buf[64];
	void **bufs;
	ktime_t start;
	int n;

	if (*ppos || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	n = sscanf(buf, "%lu %u %u", &size, &iterations, &buffers);
	if (n < 1 || !size || !iterations || iterations > 1000000 ||
	    !buffers || size > SOFT_DMA_BENCH_MAX_BYTES / 2 / buffers)
		return -EINVAL;

	bufs = kcalloc(2 * buffers, sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	for (i = 0; i < 2 * buffers; i++) {
		bufs[i] = kvmalloc(size, GFP_KERNEL);
		if (!bufs[i]) {
			soft_dma_bench_free(bufs, i);
			return -ENOMEM;
		}
		memset(bufs[i], i & 1 ? 0xa5 : 0x5a, size);
	}
	/* warm up: one pass over the working set */
	for (i = 0; i < buffers; i++)
		memcpy(bufs[2 * i + 1], bufs[2 * i], size);

	mutex_lock(&soft_dma_bench_mutex);
	start = ktime_get();
	for (i = 0; i < iterations; i++) {
		unsigned int b = i % buffers;

		memcpy(bufs[2 * b + 1], bufs[2 * b], size);
		cond_resched();
	}
	soft_dma_bench.ns = ktime_to_ns(ktime_sub(ktime_get(), start));
	soft_dma_bench.size = size;
	soft_dma_bench.iterations = iterations;
	soft_dma_bench.buffers = buffers;
	mutex_unlock(&soft_dma_bench_mutex);

	soft_dma_bench_free(bufs, 2 * buffers);
	return count;
}

static int soft_dma_bench_show(struct seq_file *m, void *unused)
{
	u64 bytes, ns, kbps = 0;

	mutex_lock(&soft_dma_bench_mutex);
	bytes = (u64)soft_dma_bench.size * soft_dma_bench.iterations;
	ns = soft_dma_bench.ns;
	if (ns)
		kbps = mul_u64_u64_div_u64(bytes >> 10, NSEC_PER_SEC, ns);
	seq_printf(m, "size %zu iterations %u buffers %u ns %llu ns_per_copy %llu KB/s %llu\n",
		   soft_dma_bench.size, soft_dma_bench.iterations,
		   soft_dma_bench.buffers, ns,
		   soft_dma_bench.iterations ?
		   div_u64(ns, soft_dma_bench.iterations) : 0, kbps);
	mutex_unlock(&soft_dma_bench_mutex);
	return 0;
}

static int soft_dma_bench_open(struct inode *inode, struct file *file)
{
	return single_open(file, soft_dma_bench_show, NULL);
}

static const struct file_operations soft_dma_bench_fops = {
	.owner = THIS_MODULE,
	.open = soft_dma_bench_open,
	.read = seq_read,
	.write = soft_dma_bench_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void soft_dma_bench_init(struct dentry *dir)
{
	debugfs_create_file("memcpy_bench", 0644, dir, NULL,
			    &soft_dma_bench_fops);
}
