/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command line: the option table, parsing, validation and --help.
 * Nothing here touches the kernel, so all of it is tested on the host.
 */
#ifndef DMABENCH_OPTIONS_H
#define DMABENCH_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/map_benchmark.h>

#define PROG_NAME	"dma_map_benchmark"

enum bench_mode {
	MODE_SINGLE = DMA_MAP_BENCH_SINGLE_MODE,
	MODE_SG = DMA_MAP_BENCH_SG_MODE,
	MODE_DMAENGINE,
	MODE_MIGRATE,
};

enum out_format {
	OUT_TEXT,
	OUT_JSON,
	OUT_CSV,
};

/* Every option, in --help order. */
enum opt_id {
	O_MODE, O_JSON, O_CSV, O_VERBOSE, O_HELP, O_VERSION,
	O_THREADS, O_SECONDS, O_NODE, O_DMA_BITS, O_DMA_DIR, O_DMA_TRANS_NS,
	O_GRANULE, O_ENTRIES, O_ENTRY_SIZE, O_ITERATIONS, O_CPUS, O_DMA_SYNC,
	O_PERCENTILES,
	O_CHANNELS, O_CHANNEL, O_DEVICE, O_FOLIO_ORDER, O_FOLIO, O_DST_FOLIO_ORDER,
	O_DST_FOLIO, O_SGE, O_BYTES_PER_CHANNEL,
	O_RUNS, O_WARMUP_RUNS, O_SRC_NODE, O_DST_NODE, O_PREP, O_BUFFERS, O_DEPTH, O_BYTES,
	O_NO_PATTERN_CHECK, O_MOVERS,
	O_VERIFY, O_POLL, O_ALLOW_FEWER, O_TIMEOUT, O_PER_CHANNEL, O_SAMPLES,
	O_SYSTEM, O_LIST_MODES, O_DRY_RUN,
	O_NR
};

/* Largest folio the tool asks for; the kernel may refuse smaller ones. */
#define FOLIO_MAX_BYTES		(1ULL << 30)
/* Largest --bytes-per-channel per channel. */
#define BYTES_MAX		(1ULL << 40)
/* Largest NUMA node number (MAX_NUMNODES is at most 1 << 10). */
#define NODE_MAX		1023
/* Largest CPU number --cpus takes. */
#define CPU_MAX			1023
/* Most processes moving at once in the migrate mode (--movers). */
#define MOVERS_MAX		64

struct bench_opts {
	enum bench_mode mode;
	enum out_format format;
	bool verbose;
	long page_size;

	/* map modes (struct map_benchmark, struct map_benchmark_ext) */
	int threads;
	int seconds;
	int node;
	int dma_bits;
	int dma_dir;
	int dma_trans_ns;
	int granule;			/* -g or --entries: 1..65536 */
	uint32_t entry_size;		/* bytes; the page size by default */
	unsigned int iterations;	/* 0: a timed run */
	uint32_t cpus[DMA_MAP_MAX_CPUS];
	unsigned int nr_cpus;		/* 0: no --cpus (also -m dmaengine) */
	bool sync;
	bool percentiles;

	/* dmaengine mode (struct dmaengine_benchmark) */
	unsigned int channels;
	char channel[DMAENGINE_BENCH_NAME_LEN];
	char device[DMAENGINE_BENCH_NAME_LEN];
	unsigned int folio_order;
	unsigned int dst_folio_order;	/* with DMAENGINE_BENCH_F_DST_ORDER */
	unsigned int sge;
	uint64_t bytes_per_channel;
	unsigned int runs;
	unsigned int warmup_runs;
	int src_node;
	int dst_node;
	unsigned int prep_modes;	/* DMAENGINE_BENCH_PREP_* */
	unsigned int flags;		/* DMAENGINE_BENCH_F_*; SKIP_MISSING without --prep-modes */
	unsigned int depth;		/* batches in flight per channel */
	unsigned int timeout_ms;
	bool per_channel;
	bool samples;
	bool dry_run;			/* print the request, run nothing */

	/* migrate mode (move_pages(), DMA_MIGRATE_OFFLOAD) */
	uint64_t bytes;			/* a whole number of folios */
	bool no_pattern_check;		/* the offload rows: nodes only */
	unsigned int movers;		/* processes moving at once */

	uint64_t given;			/* 1 << enum opt_id, from the command line */
};

enum parse_status {
	PARSE_RUN,	/* options are valid: run the benchmark */
	PARSE_DONE,	/* --help, --version, --system or --list-modes was
			 * printed: exit 0 */
	PARSE_USAGE,	/* an error was printed: exit 2 */
	PARSE_INVALID,	/* a value upstream's tool checks too is invalid
			 * (-m -t -s -n -b -d -x -g): the error was printed;
			 * exit 1, as upstream's tool does */
};

/* opts_init() - the defaults, for a system with @page_size byte pages */
void opts_init(struct bench_opts *o, long page_size);

/*
 * opts_parse() - parse and validate @argv into @o (set up by opts_init()).
 * --help and --version print to @out; errors go to @err, one line naming
 * the option and what it accepts, then a hint to run --help.
 */
enum parse_status opts_parse(struct bench_opts *o, int argc, char **argv,
			     FILE *out, FILE *err);

/*
 * map_use_ext() - whether the map modes need DMA_MAP_BENCHMARK_EXT: more
 * than DMA_MAP_MAX_GRANULE entries, or any option the upstream ioctl lacks
 */
bool map_use_ext(const struct bench_opts *o);
/* map_mode_given() - whether -m was given: Linux 7.3's header line */
bool map_mode_given(const struct bench_opts *o);

/* folio_bytes() - bytes in one folio of @o->folio_order */
uint64_t folio_bytes(const struct bench_opts *o);
/*
 * dst_folio_order(), dst_folio_bytes() - the destination folios: those of
 * --dst-folio-order (or --dst-folio), else the source's
 */
unsigned int dst_folio_order(const struct bench_opts *o);
uint64_t dst_folio_bytes(const struct bench_opts *o);

/* Names of the enum values, for reports. */
/* "single", "sg", "dmaengine", "migrate" */
const char *mode_name(enum bench_mode mode);
const char *dir_name(unsigned int dir);			/* "BIDIRECTIONAL", ... or NULL */
/*
 * "prep_memcpy", "prep_memcpy_sg", "cpu", "prep_memcpy_vec"
 * (DMAENGINE_BENCH_MODE_*) or NULL
 */
const char *prep_mode_name(unsigned int index);
/*
 * the capability a channel must advertise for the prep mode beyond
 * DMA_MEMCPY: "DMA_MEMCPY_SG", "DMA_MEMCPY_VEC", or NULL (memcpy, cpu)
 */
const char *prep_mode_cap(unsigned int index);
/*
 * prep_mode_order - DMAENGINE_BENCH_MODE_* in the order reports list them:
 * memcpy, memcpy_sg, memcpy_vec (the DMA forms), then cpu
 */
extern const unsigned int prep_mode_order[DMAENGINE_BENCH_NR_MODES];
/*
 * prep_modes_name() - --prep-modes's word for DMAENGINE_BENCH_PREP_* bits:
 * "memcpy", "memcpy_sg", "cpu", "memcpy_vec", "both", "all", or a list in
 * prep_mode_order as "memcpy,cpu"; "?" for none or unknown bits
 */
const char *prep_modes_name(unsigned int prep_modes);
/*
 * prep_modes_given() - whether --prep-modes was given: the modes named must
 * all run; without it, those the kernel or channel lacks are left out
 */
bool prep_modes_given(const struct bench_opts *o);
/* buffers_name() - "distinct" or "reuse", per DMAENGINE_BENCH_F_DISTINCT */
const char *buffers_name(unsigned int flags);

#endif
