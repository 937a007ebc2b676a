// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA map benchmark core: module init and exit, and what both ioctl files
 * share: their debugfs setup, the capability check, the size-versioned
 * copy-in, the range, flag, reserved-field and CPU-list checks, the memory
 * bound and the refusal rate limit, and the DMA API's segment limits. The
 * statistics are in stat.c. Module init starts the parts (core.h's list)
 * and exit stops them; past that, nothing here knows a mode.
 *
 * Based on the kernel's DMA map benchmark, Copyright (C) 2020 HiSilicon
 * Limited.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "core.h"

/* 100 refusal messages in 5 s, for both files: enough for a test suite */
DEFINE_RATELIMIT_STATE(mb_refusals, 5 * HZ, 100);

/* 0, or -EINVAL with a message naming the field, as every check reports. */
int mb_check_range(const char *field, u64 val, u64 lo, u64 hi)
{
	if (val >= lo && val <= hi)
		return 0;
	mb_refuse_err("invalid %s %llu: must be %llu..%llu\n", field, val, lo, hi);
	return -EINVAL;
}

/* Flags: no bit outside @known. */
int mb_check_flags(const char *field, u32 val, u32 known)
{
	if (!(val & ~known))
		return 0;
	mb_refuse_err("invalid %s 0x%x: unknown bits 0x%x\n", field, val,
		      val & ~known);
	return -EINVAL;
}

/* A set of choices: at least one, none outside @all. */
int mb_check_set(const char *field, u32 val, u32 all)
{
	if (val && !(val & ~all))
		return 0;
	mb_refuse_err("invalid %s 0x%x: must be a non-empty set of 0x%x\n",
		      field, val, all);
	return -EINVAL;
}

/* A name field of @len bytes: NUL-terminated within them. */
int mb_check_name(const char *field, const char *s, size_t len)
{
	if (strnlen(s, len) < len)
		return 0;
	mb_refuse_err("invalid %s: not NUL-terminated within %zu bytes\n",
		      field, len);
	return -EINVAL;
}

/* A reserved field: every byte zero. */
int mb_check_zero(const char *field, const void *p, size_t len)
{
	if (!memchr_inv(p, 0, len))
		return 0;
	mb_refuse_err("invalid %s: reserved, must be zero\n", field);
	return -EINVAL;
}

/**
 * mb_kthread_pin() - keep the calling benchmark kthread on @mask
 * @mask: the CPUs, or NULL to leave the thread's affinity as it is
 *
 * Called by the thread itself, before it does anything timed: from 6.14
 * on, the kernel gives a kthread its node's affinity at its first wake-up
 * (kthread_affine_node()), replacing one set on it before it ran, unless
 * kthread_bind_mask() bound it, which modules cannot call.
 */
void mb_kthread_pin(const struct cpumask *mask)
{
	if (mask)
		set_cpus_allowed_ptr(current, mask);
}

/*
 * Both files' ioctls pin memory, drive DMA and (map modes) change a
 * device's DMA mask: CAP_SYS_ADMIN only, whoever opened the file.
 */
int mb_capable(void)
{
	if (capable(CAP_SYS_ADMIN))
		return 0;
	mb_refuse_err("%s[%d] lacks CAP_SYS_ADMIN: the benchmark pins memory and drives DMA\n",
		      current->comm, task_pid_nr(current));
	return -EPERM;
}

/**
 * mb_memory_bound() - refuse a run whose buffers memory cannot hold
 * @bytes: what the run allocates
 * @fmt: how the request makes @bytes, for the message
 *
 * The one memory policy of every mode: a run may allocate at most 3/4 of
 * the memory available (si_mem_available()), so that it fails with ENOMEM
 * up front instead of pushing the system into reclaim and OOM kills.
 *
 * Return: 0, or -ENOMEM with a message.
 */
int mb_memory_bound(u64 bytes, const char *fmt, ...)
{
	u64 avail = (u64)si_mem_available() * PAGE_SIZE;
	struct va_format vaf;
	va_list args;

	if (bytes <= avail / 4 * 3)
		return 0;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	mb_refuse_err("%pV = %llu MiB: more than 3/4 of the %llu MiB available\n",
		      &vaf, bytes >> 20, avail >> 20);
	va_end(args);
	return -ENOMEM;
}

/*
 * Copy in a request of a size-versioned structure: a smaller structure
 * than the first version is refused; a larger one, up to a page, is
 * accepted when the fields this module does not know are zero
 * (copy_struct_from_user()). Each refusal says why in the kernel log.
 */
static int mb_copy_in(void *dst, size_t ksize, const void __user *uarg,
		      u32 min_size, u32 *usize)
{
	int ret;

	if (get_user(*usize, (const u32 __user *)uarg))
		return -EFAULT;
	if (*usize < min_size) {
		mb_refuse_err("invalid size %u: must be at least %u\n", *usize,
			      min_size);
		return -EINVAL;
	}
	/* as openat2(): no scan of a tail larger than a page */
	if (*usize > PAGE_SIZE) {
		mb_refuse_err("invalid size %u: must be at most %lu (a page)\n",
			      *usize, PAGE_SIZE);
		return -E2BIG;
	}
	ret = copy_struct_from_user(dst, ksize, uarg, *usize);
	if (ret == -E2BIG)
		mb_refuse_err("invalid size %u: the fields past %zu are unknown to this module and not zero\n",
			      *usize, ksize);
	return ret;
}

/**
 * mb_ioctl() - one call of a size-versioned ioctl, in and out
 * @uarg: the caller's structure, whose first field is its __u32 size
 * @io: the structure's layout and what runs it
 * @ctx: for @io->run
 *
 * The envelope of every extensible ioctl of the module: the request is
 * copied in by its size (mb_copy_in()), its outputs (from @io->out_off to
 * the end) cleared whatever came in there, @io->run called on the
 * module's copy, and the copy written back as far as the caller's size
 * goes: always with @io->out_always (a failed call says why in its
 * outputs), else only on success.
 *
 * Return: what @io->run returned, or -ENOMEM, -EFAULT, -EINVAL or -E2BIG.
 */
long mb_ioctl(void __user *uarg, const struct mb_ioctl_io *io, void *ctx)
{
	u32 usize;
	void *req;
	long ret;

	/* too large for the stack, some of them */
	req = kzalloc(io->size, GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	ret = mb_copy_in(req, io->size, uarg, io->min_size, &usize);
	if (ret)
		goto out;
	memset(req + io->out_off, 0, io->size - io->out_off);
	ret = io->run(req, ctx);
	if (!ret || io->out_always) {
		if (io->fit)
			io->fit(req, usize);
		if (copy_to_user(uarg, req, min_t(size_t, usize, io->size)))
			ret = -EFAULT;
	}
out:
	kfree(req);
	return ret;
}

/**
 * mb_cpus_from_user() - copy in and check a list of CPUs
 * @uptr: user pointer to @nr __u32 CPU numbers, or 0
 * @nr: entries at @uptr, 0 for none
 * @max: most entries accepted
 * @cpus: set to the kmalloc'ed list (kfree() it), or NULL for none
 *
 * Return: 0, -EINVAL (with a message naming the field), -ENOMEM or -EFAULT.
 */
int mb_cpus_from_user(u64 uptr, u32 nr, u32 max, u32 **cpus)
{
	unsigned int i;
	u32 *list;

	*cpus = NULL;
	if (!uptr != !nr) {
		mb_refuse_err("invalid cpus_ptr/nr_cpus: give both or neither\n");
		return -EINVAL;
	}
	if (!nr)
		return 0;
	if (mb_check_range("nr_cpus", nr, 1, max))
		return -EINVAL;

	list = memdup_user(u64_to_user_ptr(uptr), array_size(nr, sizeof(u32)));
	if (IS_ERR(list))
		return PTR_ERR(list);
	for (i = 0; i < nr; i++) {
		if (list[i] >= nr_cpu_ids || !cpu_online(list[i])) {
			mb_refuse_err("invalid cpus[%u] %u: not an online CPU\n",
				      i, list[i]);
			kfree(list);
			return -EINVAL;
		}
	}
	*cpus = list;
	return 0;
}

/*
 * Both files sit at the debugfs root, where upstream's was: their paths are
 * the ABI. Root only: their ioctls pin memory and drive DMA.
 */
struct dentry *mb_debugfs_create(const char *name, void *data,
				 const struct file_operations *fops)
{
	return debugfs_create_file(name, 0600, NULL, data, fops);
}

static int __init map_benchmark_init(void)
{
	int ret;

	ret = map_benchmark_driver_init();
	if (ret)
		return ret;
	ret = dmaengine_bench_init();
	if (ret)
		map_benchmark_driver_exit();
	return ret;
}

static void __exit map_benchmark_exit(void)
{
	dmaengine_bench_exit();
	map_benchmark_driver_exit();
}

module_init(map_benchmark_init);
module_exit(map_benchmark_exit);

MODULE_AUTHOR("Barry Song <song.bao.hua@hisilicon.com>");
MODULE_DESCRIPTION("DMA map and dmaengine benchmark");
MODULE_LICENSE("GPL");
