/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine report tests' run (test_report_dmaengine.c,
 * test_report_dmaengine_json.c): the reference table's two rows, the cpu
 * and memcpy_vec rows added to it, a machine with cpufreq, and aligned(),
 * which checks a table's columns line up.
 */
#ifndef DMABENCH_REPORT_FIXTURE_H
#define DMABENCH_REPORT_FIXTURE_H

#include <stdint.h>
#include <string.h>

#include "options.h"
#include "report.h"
#include "tap.h"

#define MS(x)	((uint64_t)((x) * 1000000.0 + 0.5))

static inline void stat_ms(struct dmaengine_bench_stat *s, double mean,
			   double sd)
{
	s->mean = MS(mean);
	s->stddev = MS(sd);
}

/* a machine with cpufreq: two CPUs at different speeds, boost on */
static const struct cpufreq_info freq = {
	.cpus = 2, .driver = "intel_pstate", .governor = "performance",
	.cur_khz_min = 2100000, .cur_khz_max = 3200000, .max_khz = 3900000,
	.boost = 1, .boost_source = "intel_pstate/no_turbo",
};
static const struct report_ctx fctx = {
	.version = "test-version", .kernel = "6.12.0-test", .cpufreq = &freq,
};

/*
 * The reference table's two rows, one channel, version 2, distinct
 * buffers, depth 1, --prep-modes both.
 */
#define STAT_MS(mean, sd)	{ MS(mean), MS(sd) }
#define PREP_BOTH	(DMAENGINE_BENCH_PREP_MEMCPY | DMAENGINE_BENCH_PREP_MEMCPY_SG)

static inline void fill_reference(struct dmaengine_benchmark *b,
				  struct dmaengine_bench_channel *ch)
{
	*b = (struct dmaengine_benchmark){
		.size = sizeof(*b), .flags = DMAENGINE_BENCH_F_DISTINCT,
		.prep_modes = PREP_BOTH, .prep_modes_run = PREP_BOTH,
		.depth = 1, .channels = 1, .folio_order = 0, .sge = 512,
		.bytes_per_channel = 512ULL << 20, .runs = 20, .warmup_runs = 1,
		.src_node = -1, .dst_node = -1, .channels_used = 1,
		.acquire_ns = 120000,
		.results[0] = {
			.runs = 20,
			.run_ns = STAT_MS(632.86, 8.18),
			.prep_ns = STAT_MS(18.00, 6.38),
			.submit_ns = STAT_MS(4.44, 0.09),
			.issue_ns = STAT_MS(0.09, 0.04),
			.wait_ns = STAT_MS(603.54, 5.03),
			.map_ns = STAT_MS(1.20, 0.03),
			.unmap_ns = STAT_MS(0.80, 0.01),
			.bytes_per_sec = { 850000000, 10000000 },
			.bytes = 512ULL << 20, .prep_calls = 131072,
			.submits = 131072, .batches = 256, .segments = 131072,
			.prep_stalls = { 12, 3 },
		},
		.results[1] = {
			.runs = 20,
			.run_ns = STAT_MS(611.34, 13.52),
			.prep_ns = STAT_MS(0.74, 0.33),
			.submit_ns = STAT_MS(0.01, 0.00),
			.issue_ns = STAT_MS(0.08, 0.00),
			.wait_ns = STAT_MS(610.48, 13.68),
			.map_ns = STAT_MS(1.19, 0.02),
			.unmap_ns = STAT_MS(0.79, 0.01),
			.bytes_per_sec = { 880000000, 20000000 },
			.bytes = 512ULL << 20, .prep_calls = 256, .submits = 256,
			.batches = 256, .segments = 131072,
		},
	};
	*ch = (struct dmaengine_bench_channel){
		.name = "dma0chan0", .device = "soft_dma.0",
		.driver = "soft_dma", .node = -1, .src_node = 0, .dst_node = 0,
		.max_seg_size = 65536, .copy_align = 0, .has_memcpy_sg = 1,
	};
}

/*
 * REFERENCE(n) - the locals of a dmaengine report test: @n channels ch[],
 * ch[0] and b the reference run, o the defaults (4K pages), r the report
 */
#define REFERENCE(n) \
	struct dmaengine_bench_channel ch[n]; \
	struct dmaengine_benchmark b; \
	struct bench_opts o; \
	struct dmaengine_report r = reference(&o, &b, ch)

static inline struct dmaengine_report
reference(struct bench_opts *o, struct dmaengine_benchmark *b,
	  struct dmaengine_bench_channel *ch)
{
	opts_init(o, 4096);
	fill_reference(b, ch);
	return (struct dmaengine_report){ .opts = o, .b = b, .channels = ch };
}

/* the CPU copy as a third row */
static inline void add_cpu(struct dmaengine_benchmark *b)
{
	b->prep_modes |= DMAENGINE_BENCH_PREP_CPU;
	b->prep_modes_run |= DMAENGINE_BENCH_PREP_CPU;
	b->results[DMAENGINE_BENCH_MODE_CPU] = (struct dmaengine_bench_result){
		.runs = 20, .run_ns = STAT_MS(250.5, 2.25),
		.bytes_per_sec = { 2140000000, 30000000 }, .bytes = 512ULL << 20,
		.batches = 256, .segments = 131072,
		.copy_ns = STAT_MS(248.75, 2.5),
	};
}

/* dma_vec batches as a fourth row: memcpy_sg's figures, with a conversion */
static inline void add_vec(struct dmaengine_benchmark *b,
			   struct dmaengine_bench_channel *ch)
{
	struct dmaengine_bench_result *v =
		&b->results[DMAENGINE_BENCH_MODE_MEMCPY_VEC];

	b->prep_modes |= DMAENGINE_BENCH_PREP_MEMCPY_VEC;
	b->prep_modes_run |= DMAENGINE_BENCH_PREP_MEMCPY_VEC;
	*v = b->results[DMAENGINE_BENCH_MODE_MEMCPY_SG];
	stat_ms(&v->run_ns, 600.5, 10.25);
	stat_ms(&v->prep_ns, 0.9, 0.3);
	stat_ms(&v->convert_ns, 0.25, 0.05);
	ch->has_memcpy_vec = 1;
}

#define REF_HEADER \
	"mode           chan folio sge run_ms          prep_ms        submit_ms     issue_ms    wait_ms           map_ms        unmap_ms      prep_calls GB/s\n"
#define REF_ROW0 \
	"prep_memcpy    1    4KB   512 632.86 \u00b1 8.18   18.00 \u00b1 6.38   4.44 \u00b1 0.09   0.09 \u00b1 0.04 603.54 \u00b1 5.03     1.20 \u00b1 0.03   0.80 \u00b1 0.01   131072     0.85 \u00b1 0.01\n"
#define REF_ROW1 \
	"prep_memcpy_sg 1    4KB   512 611.34 \u00b1 13.52  0.74 \u00b1 0.33    0.01 \u00b1 0.00   0.08 \u00b1 0.00 610.48 \u00b1 13.68    1.19 \u00b1 0.02   0.79 \u00b1 0.01   256        0.88 \u00b1 0.02\n"
#define REF_PARAMS \
	"# 512MB per channel in batches of 512 x 4KB; 20 runs after 1 warm-up; src node -1, dst node -1; prep both; buffers distinct, depth 1, cpus not pinned\n"

/* display column of byte @p in @line */
static inline int display_col(const char *line, const char *p)
{
	int col = 0;

	for (; line < p; line++)
		if (((unsigned char)*line & 0xc0) != 0x80)
			col++;
	return col;
}

/* the byte at display column @col of the line at @line, or '\n' */
static inline char char_at(const char *line, int col)
{
	const char *p = line;

	for (; *p && *p != '\n'; p++) {
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (display_col(line, p) == col)
			return *p;
	}
	return '\n';
}

/*
 * aligned() - each column of the first table in @text (its "mode" heading
 * and @nlines - 1 rows) starts where its heading does
 */
static inline bool aligned(const char *text, int nlines)
{
	const char *line = text ? strstr(text, "\nmode ") : NULL, *p;
	int starts[32], n = 0, i, k;

	if (!line++)
		return false;

	for (p = line; *p && *p != '\n'; p++)
		if (*p != ' ' && (p == line || p[-1] == ' ') && n < 32)
			starts[n++] = display_col(line, p);
	for (i = 1; i < nlines; i++) {
		line = strchr(line, '\n');
		if (!line)
			return false;
		line++;
		for (k = 1; k < n; k++) {
			if (char_at(line, starts[k] - 1) != ' ' ||
			    char_at(line, starts[k]) == ' ') {
				printf("# line %d: column %d (at %d) not aligned\n",
				       i, k, starts[k]);
				return false;
			}
		}
	}
	return n > 10;
}


#endif
