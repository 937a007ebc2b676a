/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migration copy offload (migrate_offload.c), on the dmaengine
 * benchmark's debugfs file.
 */
#ifndef _KERNEL_DMA_MIGRATE_OFFLOAD_H
#define _KERNEL_DMA_MIGRATE_OFFLOAD_H

#include <linux/compiler_types.h>

#include "core.h"

struct file;

long dmaengine_migrate_ioctl(struct file *file,
			     struct dma_migrate_offload __user *uarg);
void dmaengine_migrate_release(struct file *file);

#endif /* _KERNEL_DMA_MIGRATE_OFFLOAD_H */
