/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dma_migrate's phases: the entries of the project's one phase list
 * (DMAENGINE_BENCH_PHASES in uapi/linux/map_benchmark.h) whose @migrate
 * is 1, in the list's order. A phase added there with @migrate 1 gets its
 * DMA_MIGRATE_PH_* here, and its line in the stats file, by the list
 * alone; its measurement is the code's.
 */
#ifndef _DMA_MIGRATE_PHASES_H
#define _DMA_MIGRATE_PHASES_H

/* the one phase list */
#include "../../../uapi/linux/map_benchmark.h"

#define DMA_MIGRATE_PHASE_LIST(X)	DMAENGINE_BENCH_PHASES(X)

/* @migrate is a literal 0 or 1: the entries with 1 are the offload's */
#define DMA_MIGRATE_ENUM_0(id)
#define DMA_MIGRATE_ENUM_1(id)	DMA_MIGRATE_PH_##id,
#define DMA_MIGRATE_PH_ENUM_(id, name, unit, modes, migrate) \
	DMA_MIGRATE_ENUM_##migrate(id)

enum dma_migrate_phase {
	DMA_MIGRATE_PHASE_LIST(DMA_MIGRATE_PH_ENUM_)
	DMA_MIGRATE_NR_PH
};

/* the stats file's unit of a phase, by the list's unit */
#define DMA_MIGRATE_UNIT_NS	"ns"
#define DMA_MIGRATE_UNIT_COUNT	"count"
#define DMA_MIGRATE_UNIT_BYTES	"bytes"

#endif /* _DMA_MIGRATE_PHASES_H */
