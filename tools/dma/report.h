/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output: the map modes' selftest lines and JSON; the dmaengine table, CSV
 * and JSON. Everything is formatted from the ioctl structures alone, so it
 * is tested on the host with filled-in structures.
 */
#ifndef DMABENCH_REPORT_H
#define DMABENCH_REPORT_H

#include <stdio.h>

#include <linux/map_benchmark.h>

#include "json.h"
#include "options.h"
#include "sysinfo.h"

/* Where the run happened, for the report headers. */
struct report_ctx {
	const char *version;	/* tool_version */
	const char *kernel;	/* kernel_release() */
	/* dmaengine: the CPUs' frequency state (read_cpufreq()), or NULL */
	const struct cpufreq_info *cpufreq;
};

/*
 * Upstream's three lines, byte for byte: Linux 6.12's tool's
 * (tools/testing/selftests/dma/dma_map_benchmark.c), or with @with_mode (-m
 * given) Linux 7.3's (tools/dma/dma_map_benchmark.c, the sg series'), whose
 * header line names the mode.
 */
void report_map_text(FILE *f, const struct map_benchmark *m, bool with_mode);
void report_map_json(FILE *f, const struct report_ctx *ctx,
		     const struct map_benchmark *m);
/* report_map() - text or JSON, per @o->format */
void report_map(FILE *f, const struct report_ctx *ctx,
		const struct bench_opts *o, const struct map_benchmark *m);

/*
 * A finished DMA_MAP_BENCHMARK_EXT. map_ext_to_legacy() is what
 * DMA_MAP_BENCHMARK would have returned for the run: means and standard
 * deviations of map and unmap in 100 ns units, granule = entries. (The
 * ns figures truncated: DMA_MAP_BENCHMARK truncates each sample instead,
 * as upstream's module does, so the two may differ by a unit.)
 */
void map_ext_to_legacy(const struct map_benchmark_ext *e,
		       struct map_benchmark *m);
/* map_op_name() - "map", "unmap", "sync_cpu", "sync_device", or NULL */
const char *map_op_name(unsigned int op);
/*
 * report_map_ext_text() - report_map_text()'s lines, then a line per timed
 * operation (sync_cpu and sync_device only with DMA_MAP_BENCH_F_SYNC):
 * "map         count 200 mean 123.456 us sd 5.600 min 110.200 p50 ..."
 * in us with 3 decimals, exact to the ns
 */
void report_map_ext_text(FILE *f, const struct map_benchmark_ext *m,
			 bool with_mode);
/*
 * report_map_ext_json() - report_map_json()'s object, params gaining
 * entries, entry_size, iterations, cpus (read at m->cpus_ptr) and sync,
 * results gaining ops.{map,unmap[,sync_cpu,sync_device]}
 */
void report_map_ext_json(FILE *f, const struct report_ctx *ctx,
			 const struct map_benchmark_ext *m);
void report_map_ext(FILE *f, const struct report_ctx *ctx,
		    const struct bench_opts *o,
		    const struct map_benchmark_ext *m);

/*
 * A finished DMAENGINE_BENCHMARK: @b as the kernel returned it, the
 * channel array it filled (NULL if none was passed) and its samples (NULL,
 * or b->samples_written entries).
 *
 * Rows: one per prep mode of ->prep_modes_run, in prep_mode_order, from
 * ->results[]; a figure a row's mode does not have (report_dmaengine.c's
 * figures[] says which) is '-' in the table, the kernel's 0 in CSV and
 * JSON. With DMAENGINE_BENCH_F_DST_ORDER and another destination folio
 * order, the '#' line and the table's folio column name both sizes; JSON
 * (params and results) and CSV always carry dst_folio_order and
 * dst_folio_bytes (the source's without the flag).
 */
struct dmaengine_report {
	const struct bench_opts *opts;	/* page size, --verbose, --per-channel */
	const struct dmaengine_benchmark *b;
	const struct dmaengine_bench_channel *channels;
	const struct dmaengine_bench_sample *samples;
};

void report_dmaengine_text(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r);
void report_dmaengine_csv(FILE *f, const struct report_ctx *ctx,
			  const struct dmaengine_report *r);
void report_dmaengine_json(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r);
/* report_dmaengine() - text, CSV or JSON, per r->opts->format */
void report_dmaengine(FILE *f, const struct report_ctx *ctx,
		      const struct dmaengine_report *r);

/*
 * result_of() - prep mode @mode's entry of ->results, ->result_size apart
 * (DMAENGINE_BENCH_RESULT_SIZE_VER1 from a kernel that does not say)
 */
const struct dmaengine_bench_result *result_of(const struct dmaengine_benchmark *b,
					       unsigned int mode);

/* dmaengine_channels_used() - channels the run used, as far as known */
unsigned int dmaengine_channels_used(const struct dmaengine_benchmark *b);

/*
 * What the copy modes' reports share (report_dmaengine.c): the '#' line of
 * the CPU frequency state, the JSON "system" member, CSV fields, and the
 * text table's layout.
 */
void report_cpufreq_line(FILE *f, const struct cpufreq_info *fi);
/*
 * report_json_begin() - a copy mode's JSON object opened on @f: "tool",
 * "version", "kernel" and "mode" (@mode's name)
 */
void report_json_begin(struct json *j, FILE *f, const struct report_ctx *ctx,
		       enum bench_mode mode);
void report_json_system(struct json *j, const struct report_ctx *ctx);
/* report_csv_text() - @s as a CSV field: quoted when it has a comma or quote */
void report_csv_text(FILE *f, const char *s);
/* report_csv_cpufreq() - ",governor,cur_min,cur_max,max,boost", each empty if unknown */
void report_csv_cpufreq(FILE *f, const struct cpufreq_info *fi);
/* report_display_width() - characters, not bytes ("±" is one column) */
int report_display_width(const char *s);

/* A text table's cell: cells[line][column] of this many bytes. */
#define CELL_LEN	64
/*
 * report_print_cells() - @lines lines of @ncols cells (the heading first)
 * as a table: the columns @shown (@nshown of them), left-aligned, one space
 * apart, each as wide as @width[] or its widest cell (@width is widened)
 */
void report_print_cells(FILE *f, const char *cells, unsigned int lines,
			int ncols, const int *shown, int nshown, int *width);

#endif
