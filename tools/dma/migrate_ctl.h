/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The migration copy offload's controls, dma_migrate.ko's module
 * parameters and /sys/kernel/mm/dma_migrate/
 * (Documentation/dma-migrate.rst), as the tool's migrate mode and the
 * guest tests' programs (tools/testing/guest/src/) drive them: a start writes
 * the parameters, then offloading=1; the counters are read from the stats
 * file (and cleared with reset); a stop writes offloading=0. The answers
 * fill a struct dma_migrate_offload, as the benchmark's former
 * DMA_MIGRATE_OFFLOAD ioctl did, so that the run and its report are the
 * same over either.
 */
#ifndef DMABENCH_MIGRATE_CTL_H
#define DMABENCH_MIGRATE_CTL_H

#include <stdbool.h>

#include <linux/map_benchmark.h>

#define DMA_MIGRATE_PARAMS	"/sys/module/dma_migrate/parameters"
#define DMA_MIGRATE_SYSFS	"/sys/kernel/mm/dma_migrate"

/*
 * MIGRATE_STATS_PHASES(X) - the offload's phases of the uapi's list
 * (DMAENGINE_BENCH_PHASES, those with migrate 1: a host test checks that
 * both have the same, of the same names), in the order the report shows
 * them, the batch time in the hook, then the phases within it in the
 * order a batch runs them; the row's figures, the report's columns
 * (report_migrate.c) and the reading of the stats file (migrate_ctl.c)
 * are made from it: X(ID of DMAENGINE_BENCH_PH_*, name, the field of
 * struct dma_migrate_offload, whose time it is: enum migrate_owner of
 * migrate.h).
 */
#define MIGRATE_STATS_PHASES(X) \
	X(BATCH, batch, ph.batch_ns, MOW_NONE) \
	X(BUILD, build, build_ns, MOW_CLIENT) \
	X(MAP, map, ph.map_ns, MOW_DMA_API) \
	X(PREP, prep, ph.prep_ns, MOW_DMAENGINE) \
	X(SUBMIT, submit, ph.submit_ns, MOW_DMAENGINE) \
	X(ISSUE, issue, ph.issue_ns, MOW_DMAENGINE) \
	X(WAIT, wait, ph.wait_ns, MOW_ENGINE) \
	X(UNMAP, unmap, ph.unmap_ns, MOW_DMA_API) \
	X(MARK, mark, mark_ns, MOW_CLIENT)

/* What the controls say before a start. */
enum migrate_ctl_state {
	MIGRATE_CTL_READY,	/* loaded, the offload off */
	MIGRATE_CTL_NOT_LOADED,	/* no /sys/module/dma_migrate */
	MIGRATE_CTL_NO_SYSFS,	/* loaded, but no /sys/kernel/mm/dma_migrate */
	MIGRATE_CTL_ON,		/* the offload is on already */
};

/*
 * migrate_ctl_state() - whether dma_migrate is loaded under @root ("" for
 * the running system) and its offload off; @hook, DMA_MIGRATE_HOOK_*, from
 * its hook file
 */
enum migrate_ctl_state migrate_ctl_state(const char *root, unsigned int *hook);

/*
 * migrate_ctl_op() - DMA_MIGRATE_OP_START (the parameters from @req:
 * prep_mode, channels, reasons, timeout_ms, min_folios, channel, device;
 * DMA_MIGRATE_F_ALLOW_FEWER in @flags; then offloading=1), _STATS (the
 * stats file; reset after it with DMA_MIGRATE_F_RESET) or _STOP
 * (offloading=0, the counters read before) through the controls under
 * @root; @a filled as the ioctl's answer, ->error from the errno of a
 * refused write. 0, or -errno; the module's last_error then in
 * migrate_ctl_last_error().
 */
int migrate_ctl_op(const char *root, unsigned int op, unsigned int flags,
		   const struct dma_migrate_offload *req,
		   struct dma_migrate_offload *a);

/*
 * migrate_ctl_param() - write dma_migrate's parameter @name under @root;
 * 0, or -errno with the module's last_error in migrate_ctl_last_error()
 */
int migrate_ctl_param(const char *root, const char *name, const char *val);

/* migrate_ctl_last_error() - the module's last_error after a refusal */
const char *migrate_ctl_last_error(void);

#endif
