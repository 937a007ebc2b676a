/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every kernel-version difference the project's modules depend on, decided
 * by compiling probes against the target tree (kernel/probes/, run by the
 * top-level Makefile), never by comparing version numbers.
 */
#ifndef _DMA_BENCH_COMPAT_H
#define _DMA_BENCH_COMPAT_H

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mmzone.h>
#include <linux/slab.h>

#include "generated/probes.h"

/*
 * The largest page order the buddy allocator hands out. MAX_ORDER was
 * exclusive up to 6.3, inclusive from 6.4 and renamed in 6.8; the size of
 * the free-area array is NR_PAGE_ORDERS in all of them.
 */
#define DMA_BENCH_MAX_PAGE_ORDER \
	(ARRAY_SIZE(((struct zone *)NULL)->free_area) - 1)

/* Whether this kernel has the DMA_MEMCPY_SG API, for use in C code. */
static inline bool dma_bench_have_memcpy_sg(void)
{
#ifdef HAVE_DMA_MEMCPY_SG
	return true;
#else
	return false;
#endif
}

/* Whether this kernel has the DMA_MEMCPY_VEC API, for use in C code. */
static inline bool dma_bench_have_memcpy_vec(void)
{
#ifdef HAVE_DMA_MEMCPY_VEC
	return true;
#else
	return false;
#endif
}

/* platform_driver::remove returns void from 6.11; 6.1 has remove_new. */
#ifdef HAVE_PLATFORM_REMOVE_VOID
#define DMA_BENCH_PLATFORM_REMOVE(fn)	.remove = (fn)
#else
#define DMA_BENCH_PLATFORM_REMOVE(fn)	.remove_new = (fn)
#endif

/*
 * kmalloc_obj(), kzalloc_obj() and kvmalloc_obj() (7.x, and backported to
 * Debian's 6.12; checkpatch asks for them): an object of the type of the
 * first argument, as a pointer of that type. The callers always give the
 * GFP flags, which the kernel's forms default to GFP_KERNEL and these
 * need.
 */
#ifndef HAVE_KMALLOC_OBJ
#define kmalloc_obj(obj, gfp) \
	({ typeof(obj) *__obj = kmalloc(sizeof(obj), gfp); __obj; })
#define kzalloc_obj(obj, gfp) \
	({ typeof(obj) *__obj = kzalloc(sizeof(obj), gfp); __obj; })
#define kvmalloc_obj(obj, gfp) \
	({ typeof(obj) *__obj = kvmalloc(sizeof(obj), gfp); __obj; })
#endif

/*
 * A device's bus, to watch it: struct device::bus and the bus notifier
 * calls became const together (6.4); before, the bus a device names is not
 * const, and the calls take it so.
 */
static inline int dma_bench_bus_register_notifier(const struct bus_type *bus,
						  struct notifier_block *nb)
{
	return bus_register_notifier((typeof_member(struct device, bus))bus, nb);
}

static inline int dma_bench_bus_unregister_notifier(const struct bus_type *bus,
						    struct notifier_block *nb)
{
	return bus_unregister_notifier((typeof_member(struct device, bus))bus,
				       nb);
}

#endif /* _DMA_BENCH_COMPAT_H */
