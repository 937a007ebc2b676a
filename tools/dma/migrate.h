/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate mode: move_pages() of anonymous folios between two NUMA nodes,
 * copied by the CPU and by the dmaengine offload of dma_migrate.ko
 * (migrate_ctl.c, Documentation/dma-migrate.rst), verified after every move.
 */
#ifndef DMABENCH_MIGRATE_H
#define DMABENCH_MIGRATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/map_benchmark.h>

#include "migrate_ctl.h"
#include "mmsys.h"
#include "options.h"
#include "report.h"
#include "stats.h"

/* What the offload could do on this machine. */
enum migrate_offload_state {
	OFFLOAD_READY,		/* START worked: the rows ran with it */
	OFFLOAD_NO_FILE,	/* dma_migrate is not loaded */
	OFFLOAD_NO_IOCTL,	/* dma_migrate has no /sys/kernel/mm/dma_migrate */
	OFFLOAD_NO_HOOK,	/* the kernel has no copy-offload hook */
	OFFLOAD_NOT_ASKED,	/* --prep-modes cpu: no offload row asked for */
};

/*
 * MIGRATE_PHASES(X): MIGRATE_STATS_PHASES (migrate_ctl.h) and "other": the
 * batch time in none of them (taking channels, sharing the folios out,
 * abandoning a failed share), so that the split adds up.
 */
#define MIGRATE_PHASES(X) \
	MIGRATE_STATS_PHASES(X) \
	X(OTHER, other, -, MOW_CLIENT)

/*
 * Whose time a phase is, so that the copy's share of a move is split by
 * what could make it smaller: the client's own work (building the
 * tables, marking the folios, the rest of the hook), the DMA API's
 * (mapping and unmapping), the dmaengine provider's calls (prep, submit,
 * issue_pending) and the engine's (from the issue until it says done).
 */
enum migrate_owner {
	MOW_NONE, MOW_CLIENT, MOW_DMA_API, MOW_DMAENGINE, MOW_ENGINE,
	MOW_NR
};

#define MPH_ENUM(e, name, field, owner)	MPH_##e,
enum migrate_phase {
	MIGRATE_PHASES(MPH_ENUM)
	MPH_NR
};
#undef MPH_ENUM

/*
 * The scales of a phase's figure: its time in a move (ms, summed over the
 * move's batches and, for the per-channel phases, over channels), and
 * that time over STATS' batches and over its folios (us)
 */
enum migrate_scale {
	MSC_MOVE, MSC_BATCH, MSC_FOLIO,
	MSC_NR
};

/*
 * migrate_phases_ns() - the phase times of the STATS answer @st into
 * @ns[MPH_NR], MPH_OTHER the batch time outside the others (negative
 * should they overlap)
 */
void migrate_phases_ns(const struct dma_migrate_offload *st, double *ns);
/* migrate_phases_known() - which of @ns STATS filled, into @known[MPH_NR] */
void migrate_phases_known(const struct dma_migrate_offload *st, bool *known);
/* migrate_phase_id() - the DMAENGINE_BENCH_PH_* of MPH_* @p (not MPH_OTHER) */
unsigned int migrate_phase_id(int p);

/**
 * struct migrate_row - a row of the report: the cpu row (the offload off)
 *	or an offload prep mode's, over its timed runs
 * @prep_mode: DMAENGINE_BENCH_MODE_* (_CPU: the cpu row)
 * @channels_used: STATS' channels_used (0 for the cpu row)
 * @folios: folios in a move (one move_pages() entry each)
 * @move_ms: move_pages()'s time a run
 * @gbps: bytes moved over that time, 10^9 bytes/s
 * @offloaded, @fallback, @declined, @batches, @declined_batches, @errors:
 *	STATS' folios_offloaded, folios_fallback, folios_declined, batches,
 *	batches_declined and errors of a run
 * @phase: STATS' phase times a run, at each enum migrate_scale: ms a move,
 *	us a batch, us a folio
 * @copy_share: ph.batch_ns over move_pages()'s time (with --movers,
 *	over the movers' move_pages() times summed)
 * @share: @copy_share split by whose time it is (enum migrate_owner;
 *	MOW_NONE unused): the phases of each owner over the same time
 * @phase_known: STATS filled the phase in every run (its ->phases, or
 *	DMA_MIGRATE_PHASES_VER3 from a kernel that does not say); "other"
 *	when all the others were
 */
struct migrate_row {
	unsigned int prep_mode;
	unsigned int channels_used;
	uint64_t folios;
	struct stat_acc move_ms, gbps;
	struct stat_acc offloaded, fallback, declined, batches;
	struct stat_acc declined_batches, errors;
	struct stat_acc phase[MSC_NR][MPH_NR];
	bool phase_known[MPH_NR];
	struct stat_acc copy_share;
	struct stat_acc share[MOW_NR];
};

/* rows: the cpu row and the three DMA prep modes */
#define MIGRATE_MAX_ROWS	4

/**
 * struct migrate_result - a finished run, all the report needs
 * @bytes, @folio_order, @src_node, @dst_node, @runs, @warmup_runs,
 *	@channels, @timeout_ms, @movers: the run's parameters (the nodes
 *	resolved; @bytes a mover's)
 * @prep_modes: DMAENGINE_BENCH_PREP_* bits of the offload's modes asked for
 * @offload: enum migrate_offload_state
 * @hook: DMA_MIGRATE_HOOK_* as the kernel said, when it answered
 * @missing: prep modes asked for that START refused (not --prep-modes:
 *	left out), DMAENGINE_BENCH_PREP_* bits
 * @missing_error: each one's enum dmaengine_bench_error
 * @thp_set: the THP controls the run set ("" none)
 * @have_size_control: see struct thp_controls
 * @no_madvise: the kernel has no madvise(): the THP controls and prctl() instead
 * @folios_end: the folios the last move found (the kernel may split some)
 * @census: the folios the kernel gave (->known false: not readable)
 * @smaps: the mapping's smaps fields after the fill
 * @fault_stats: @fault_alloc and @fault_fallback are known
 * @fault_alloc, @fault_fallback: the size's anon_fault_* during the fill
 * @nrows: entries in @rows, the cpu row first
 */
struct migrate_result {
	uint64_t bytes;
	unsigned int folio_order;
	int src_node, dst_node;
	unsigned int runs, warmup_runs, channels, timeout_ms, movers;
	unsigned int prep_modes;
	enum migrate_offload_state offload;
	unsigned int hook;
	unsigned int missing;
	unsigned int missing_error[DMAENGINE_BENCH_NR_MODES];
	char thp_set[512];
	bool have_size_control;
	bool no_madvise;
	size_t folios_end;
	struct folio_census census;
	struct smaps_vma smaps;
	bool fault_stats;
	uint64_t fault_alloc, fault_fallback;
	unsigned int nrows;
	struct migrate_row rows[MIGRATE_MAX_ROWS];
};

/**
 * struct migrate_move - a timed move of a row, by all its movers
 * @bytes: the bytes moved, every mover's
 * @wall_ns: from the first mover's move_pages() call to the last return
 * @busy_ns: the movers' move_pages() times, summed (@wall_ns for one)
 */
struct migrate_move {
	uint64_t bytes, wall_ns, busy_ns;
};

/*
 * migrate_row_add() - one timed run of @row, the move @mv: GB/s its bytes
 * over its wall time, move_ms that time, copy_share STATS' ph.batch_ns
 * over its busy time; @st the STATS answer after it (NULL for the cpu
 * row)
 */
void migrate_row_add(struct migrate_row *row, const struct migrate_move *mv,
		     const struct dma_migrate_offload *st);

/*
 * migrate_row_modes() - the prep modes (DMAENGINE_BENCH_MODE_*) of the rows
 * of a run of the offload's modes among DMAENGINE_BENCH_PREP_* @prep_modes,
 * in the report's order into @modes: the cpu row first, then the offload's
 * in prep_mode_order; returns how many
 */
unsigned int migrate_row_modes(unsigned int prep_modes, unsigned int *modes);

/* migrate_folio_bytes() - bytes of a folio of the run */
uint64_t migrate_folio_bytes(const struct migrate_result *r, long page_size);

/*
 * migrate_fell_back() - whether the kernel gave smaller folios than asked:
 * the census found folios of other orders, or (without one) smaps has less
 * AnonHugePages than the PMD-sized run asked for, or the fault statistics
 * counted fallbacks
 */
bool migrate_fell_back(const struct migrate_result *r, long page_size);

/* migrate_offload_line() - the one line on the offload's state, or NULL */
const char *migrate_offload_line(const struct migrate_result *r);

/*
 * migrate_check_nodes() - nodes that exist and have memory, --bytes within
 * the source node's free memory: @src and @dst resolved (-1: the first
 * nodes with memory); 0, or -1 after an error naming the option on @err
 */
int migrate_check_nodes(const char *root, const struct bench_opts *o,
			int *src, int *dst, FILE *err);

/*
 * migrate_check_status() - move_pages()' @status of @n entries for @pages
 * says each is on @node; 0, or -1 after saying which page (its index and
 * offset in the buffer at @base) and what was seen
 */
int migrate_check_status(const int *status, void *const *pages, size_t n,
			 int node, const void *base, const char *what,
			 FILE *err);

/*
 * migrate_fill() - the pattern of the buffer: each 8-byte word its offset
 * xor @seed; migrate_check_pattern() - 0, or -1 after saying on @err where
 * the first wrong word is, what it holds and what it should
 */
void migrate_fill(void *buf, uint64_t bytes, uint64_t seed);
int migrate_check_pattern(const void *buf, uint64_t bytes, uint64_t seed,
			  const char *what, FILE *err);

/*
 * rotation_index() - which of @n rows runs @k-th in run @run: the order
 * rotates by one each run, as the dmaengine mode's prep modes do
 * (kernel/dma/dmaengine_bench.c), so every row has each place equally often
 */
static inline unsigned int rotation_index(unsigned int run, unsigned int k,
					  unsigned int n)
{
	return (run + k) % n;
}

/* The fill's seed: any pattern a zeroed or shifted page does not match. */
#define MIGRATE_SEED	0x6d6967726174652eULL	/* "migrate." */

/*
 * migrate_run_in() - run and report, the /sys and /proc files under @root
 * ("" for the real ones); 0, 1 after saying why it failed, 2 on a bad
 * option value found against the system (a node, --bytes, the THP
 * controls)
 */
int migrate_run_in(const char *root, const struct bench_opts *o,
		   const struct report_ctx *ctx);
int migrate_run(const struct bench_opts *o, const struct report_ctx *ctx);

/* report_migrate() - text, CSV or JSON of @r, per @o->format */
void report_migrate(FILE *f, const struct report_ctx *ctx,
		    const struct bench_opts *o, const struct migrate_result *r);

#endif
