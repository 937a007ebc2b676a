/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uapi/linux/map_benchmark.h as a C90, C99, C11 and C++ program uses it
 * (tools/testing/host/uapi.t builds this file with each): the phase list
 * expanded into names, units and masks with no designated initializer and
 * no declaration after a statement, the layouts' sizes and offsets checked
 * at compile time (an array of negative size otherwise), and the list
 * printed for the .t to compare.
 */
#include <stddef.h>
#include <stdio.h>

#include <linux/map_benchmark.h>

#define ASSERT(name, cond)	typedef char assert_##name[(cond) ? 1 : -1]

ASSERT(size_ver1, sizeof(struct dmaengine_benchmark) == DMAENGINE_BENCH_SIZE_VER1);
ASSERT(result_ver1, sizeof(struct dmaengine_bench_result) ==
	DMAENGINE_BENCH_RESULT_SIZE_VER1);
ASSERT(results_last, offsetof(struct dmaengine_benchmark, results) +
	DMAENGINE_BENCH_MAX_PREP_MODES * sizeof(struct dmaengine_bench_result) ==
	sizeof(struct dmaengine_benchmark));
ASSERT(sample_ver1, sizeof(struct dmaengine_bench_sample) ==
	DMAENGINE_BENCH_SAMPLE_SIZE_VER1);
ASSERT(migrate_ver1, offsetof(struct dma_migrate_offload, build_ns) ==
	DMA_MIGRATE_OFFLOAD_SIZE_VER1);
ASSERT(migrate_ver2, offsetof(struct dma_migrate_offload, folios_lost) ==
	DMA_MIGRATE_OFFLOAD_SIZE_VER2);
ASSERT(migrate_ver3, offsetof(struct dma_migrate_offload, phases) ==
	DMA_MIGRATE_OFFLOAD_SIZE_VER3);
ASSERT(migrate_ver4, sizeof(struct dma_migrate_offload) ==
	DMA_MIGRATE_OFFLOAD_SIZE_VER4);
ASSERT(upstream_612_73, sizeof(struct map_benchmark) == 136);
ASSERT(masks_fit, DMAENGINE_BENCH_NR_PHASES <= 64);

#define PH_NAME(id, name, unit, modes, migrate)	name,
#define PH_UNIT(id, name, unit, modes, migrate)	DMAENGINE_BENCH_UNIT_##unit,
#define PH_MODES(id, name, unit, modes, migrate)	modes,
#define PH_MIGRATE(id, name, unit, modes, migrate)	migrate,
#define PH_ID(id, name, unit, modes, migrate)	DMAENGINE_BENCH_PH_##id,

static const char *const names[] = { DMAENGINE_BENCH_PHASES(PH_NAME) 0 };
static const int units[] = { DMAENGINE_BENCH_PHASES(PH_UNIT) 0 };
static const unsigned int modes[] = { DMAENGINE_BENCH_PHASES(PH_MODES) 0 };
static const int migrate[] = { DMAENGINE_BENCH_PHASES(PH_MIGRATE) 0 };
static const int ids[] = { DMAENGINE_BENCH_PHASES(PH_ID) 0 };

int main(void)
{
	static const char *const unit_names[] = { "ns", "count", "bytes" };
	unsigned int i;

	for (i = 0; i < DMAENGINE_BENCH_NR_PHASES; i++)
		printf("%d %s %s 0x%x %d\n", ids[i], names[i],
		       unit_names[units[i]], modes[i], migrate[i]);
	printf("nr %d units %d ver1 0x%lx migrate_ver3 0x%lx\n",
	       (int)DMAENGINE_BENCH_NR_PHASES, (int)DMAENGINE_BENCH_NR_UNITS,
	       (unsigned long)DMAENGINE_BENCH_PHASES_VER1,
	       (unsigned long)DMA_MIGRATE_PHASES_VER3);
	return 0;
}
