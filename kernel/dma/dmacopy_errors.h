/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The uapi's DMAENGINE_BENCH_ERR_* of what the dmacopy library returns:
 * an errno of dmacopy_set_open(), or the step a batch failed at
 * (enum dmacopy_fail). The library knows nothing of the uapi; the
 * benchmark and the migration offload say its errors in the uapi's terms
 * here, once.
 */
#ifndef _KERNEL_DMA_DMACOPY_ERRORS_H
#define _KERNEL_DMA_DMACOPY_ERRORS_H

#include <linux/errno.h>

#include "core.h"
#include "dmacopy.h"

/* The error of a failed dmacopy_set_open(), by its errno. */
static inline u32 dmacopy_open_error(int err)
{
	switch (err) {
	case -ENODEV:
		return DMAENGINE_BENCH_ERR_NO_CHANNEL;
	case -EINVAL:
		return DMAENGINE_BENCH_ERR_LIMIT;
	case -EOPNOTSUPP:
		return DMAENGINE_BENCH_ERR_NO_API;
	default:
		return DMAENGINE_BENCH_ERR_NOMEM;
	}
}

/* The error of the step a channel's batch failed at; 0 for none. */
static inline u32 dmacopy_fail_error(enum dmacopy_fail fail)
{
	static const u32 errors[] = {
		[DMACOPY_FAIL_NONE] = 0,
		[DMACOPY_FAIL_MAP] = DMAENGINE_BENCH_ERR_MAP,
		[DMACOPY_FAIL_PREP] = DMAENGINE_BENCH_ERR_PREP,
		[DMACOPY_FAIL_STALL] = DMAENGINE_BENCH_ERR_STALL,
		[DMACOPY_FAIL_SUBMIT] = DMAENGINE_BENCH_ERR_SUBMIT,
		[DMACOPY_FAIL_RESULT] = DMAENGINE_BENCH_ERR_RESULT,
		[DMACOPY_FAIL_TIMEOUT] = DMAENGINE_BENCH_ERR_TIMEOUT,
		[DMACOPY_FAIL_ABORT] = DMAENGINE_BENCH_ERR_INTR,
	};

	BUILD_BUG_ON(ARRAY_SIZE(errors) != DMACOPY_NR_FAILS);
	return (unsigned int)fail < DMACOPY_NR_FAILS ? errors[fail] :
	       DMAENGINE_BENCH_ERR_RESULT;
}

#endif /* _KERNEL_DMA_DMACOPY_ERRORS_H */
