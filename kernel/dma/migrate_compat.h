/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DMA_MIGRATE_OFFLOAD on the dmaengine benchmark's debugfs file, forwarded
 * to dma_migrate.ko (migrate_compat.c).
 */
#ifndef _KERNEL_DMA_MIGRATE_COMPAT_H
#define _KERNEL_DMA_MIGRATE_COMPAT_H

#include <linux/compiler_types.h>

#include "core.h"

struct file;

long dmaengine_migrate_ioctl(struct file *file,
			     struct dma_migrate_offload __user *uarg);
void dmaengine_migrate_release(struct file *file);

#endif /* _KERNEL_DMA_MIGRATE_COMPAT_H */
