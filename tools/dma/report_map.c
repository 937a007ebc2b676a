// SPDX-License-Identifier: GPL-2.0-only
/*
 * Map modes' output: upstream's lines (6.12's, or 7.3's naming the mode),
 * or one JSON object; from the extended ioctl, the same plus a line (a JSON
 * member) per timed operation with count, min, max and percentiles in ns.
 */
#include <stdint.h>
#include <string.h>

#include "json.h"
#include "report.h"

/*
 * The mode's name in Linux 7.3's header line (the sg series'): its tool's
 * mode[] table (tools/dma/dma_map_benchmark.c), indexed by map_mode.
 */
static const char *map_mode_enum_name(unsigned int mode)
{
	switch (mode) {
	case DMA_MAP_BENCH_SINGLE_MODE: return "SINGLE_MODE";
	case DMA_MAP_BENCH_SG_MODE: return "SG_MODE";
	default: return "UNKNOWN_MODE";
	}
}

void report_map_text(FILE *f, const struct map_benchmark *m, bool with_mode)
{
	const char *dir = dir_name(m->dma_dir);

	if (with_mode)
		fprintf(f, "dma mapping benchmark(%s): threads:%d seconds:%d node:%d dir:%s granule:%d\n",
			map_mode_enum_name(m->map_mode), (int)m->threads,
			(int)m->seconds, (int)m->node, dir ? dir : "UNKNOWN",
			(int)m->granule);
	else
		fprintf(f, "dma mapping benchmark: threads:%d seconds:%d node:%d dir:%s granule: %d\n",
			(int)m->threads, (int)m->seconds, (int)m->node,
			dir ? dir : "UNKNOWN", (int)m->granule);
	fprintf(f, "average map latency(us):%.1f standard deviation:%.1f\n",
		m->avg_map_100ns / 10.0, m->map_stddev / 10.0);
	fprintf(f, "average unmap latency(us):%.1f standard deviation:%.1f\n",
		m->avg_unmap_100ns / 10.0, m->unmap_stddev / 10.0);
}

/* map_json_head() - {tool, ..., "params":{... granule, params left open */
static void map_json_head(struct json *j, const struct report_ctx *ctx,
			  const struct map_benchmark *m)
{
	json_object_begin(j);
	json_key_string(j, "tool", PROG_NAME);
	json_key_string(j, "version", ctx->version);
	json_key_string(j, "kernel", ctx->kernel);
	json_key_string(j, "mode",
			mode_name(m->map_mode == DMA_MAP_BENCH_SG_MODE ?
				  MODE_SG : MODE_SINGLE));
	json_key(j, "params");
	json_object_begin(j);
	json_key_uint(j, "threads", m->threads);
	json_key_uint(j, "seconds", m->seconds);
	json_key_int(j, "node", m->node);
	json_key_uint(j, "dma_bits", m->dma_bits);
	json_key_uint(j, "dma_dir", m->dma_dir);
	json_key_uint(j, "dma_trans_ns", m->dma_trans_ns);
	json_key_uint(j, "granule", m->granule);
}

/* map_json_results() - "results":{map_us, unmap_us, results left open */
static void map_json_results(struct json *j, const struct map_benchmark *m)
{
	json_key(j, "results");
	json_object_begin(j);
	json_key_mean_stddev(j, "map_us", m->avg_map_100ns / 10.0,
			     m->map_stddev / 10.0, 1);
	json_key_mean_stddev(j, "unmap_us", m->avg_unmap_100ns / 10.0,
			     m->unmap_stddev / 10.0, 1);
}

void report_map_json(FILE *f, const struct report_ctx *ctx,
		     const struct map_benchmark *m)
{
	struct json j;

	json_init(&j, f);
	map_json_head(&j, ctx, m);
	json_object_end(&j);
	map_json_results(&j, m);
	json_object_end(&j);
	json_object_end(&j);
	fputc('\n', f);
}

void report_map(FILE *f, const struct report_ctx *ctx,
		const struct bench_opts *o, const struct map_benchmark *m)
{
	if (o->format == OUT_JSON)
		report_map_json(f, ctx, m);
	else
		report_map_text(f, m, map_mode_given(o));
}

void map_ext_to_legacy(const struct map_benchmark_ext *e,
		       struct map_benchmark *m)
{
	const struct map_benchmark_op_stat *map = &e->op[DMA_MAP_BENCH_OP_MAP];
	const struct map_benchmark_op_stat *unmap =
		&e->op[DMA_MAP_BENCH_OP_UNMAP];

	memset(m, 0, sizeof(*m));
	m->avg_map_100ns = map->mean_ns / 100;
	m->map_stddev = map->stddev_ns / 100;
	m->avg_unmap_100ns = unmap->mean_ns / 100;
	m->unmap_stddev = unmap->stddev_ns / 100;
	m->threads = e->threads;
	m->seconds = e->seconds;
	m->node = e->node;
	m->dma_bits = e->dma_bits;
	m->dma_dir = e->dma_dir;
	m->dma_trans_ns = e->dma_trans_ns;
	m->granule = e->entries;
	m->map_mode = e->map_mode;
}

const char *map_op_name(unsigned int op)
{
	static const char *const names[DMA_MAP_BENCH_NR_OPS] = {
		[DMA_MAP_BENCH_OP_MAP] = "map",
		[DMA_MAP_BENCH_OP_UNMAP] = "unmap",
		[DMA_MAP_BENCH_OP_SYNC_CPU] = "sync_cpu",
		[DMA_MAP_BENCH_OP_SYNC_DEVICE] = "sync_device",
	};

	return op < DMA_MAP_BENCH_NR_OPS ? names[op] : NULL;
}

/* the operations @m timed: map and unmap, and the syncs with F_SYNC */
static unsigned int map_ops_timed(const struct map_benchmark_ext *m)
{
	return m->flags & DMA_MAP_BENCH_F_SYNC ? DMA_MAP_BENCH_NR_OPS :
						 DMA_MAP_BENCH_OP_SYNC_CPU;
}

/*
 * Whether the module mapped @m's sg entries as more segments than entries:
 * some were longer than the device takes in one, or crossed its boundary.
 */
static bool map_ext_split(const struct map_benchmark_ext *m)
{
	return m->map_mode == DMA_MAP_BENCH_SG_MODE &&
	       m->segments > m->entries;
}

/* us3() - @ns as microseconds with 3 decimals, exactly: 123456 -> 123.456 */
static const char *us3(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
	return buf;
}

void report_map_ext_text(FILE *f, const struct map_benchmark_ext *m,
			 bool with_mode)
{
	char mean[32], sd[32], min[32], p50[32], p90[32], p99[32], max[32];
	struct map_benchmark legacy;
	unsigned int op;

	map_ext_to_legacy(m, &legacy);
	report_map_text(f, &legacy, with_mode);
	if (map_ext_split(m))
		fprintf(f, "segments:%u max_segment:%u (entries of %u bytes cut at the device's limits)\n",
			m->segments, m->max_segment, m->entry_size);
	for (op = 0; op < map_ops_timed(m); op++) {
		const struct map_benchmark_op_stat *s = &m->op[op];

		fprintf(f, "%-11s count %llu mean %s us sd %s min %s p50 %s p90 %s p99 %s max %s\n",
			map_op_name(op), (unsigned long long)s->count,
			us3(mean, sizeof(mean), s->mean_ns),
			us3(sd, sizeof(sd), s->stddev_ns),
			us3(min, sizeof(min), s->min_ns),
			us3(p50, sizeof(p50), s->p50_ns),
			us3(p90, sizeof(p90), s->p90_ns),
			us3(p99, sizeof(p99), s->p99_ns),
			us3(max, sizeof(max), s->max_ns));
	}
}

void report_map_ext_json(FILE *f, const struct report_ctx *ctx,
			 const struct map_benchmark_ext *m)
{
	const uint32_t *cpus = (const uint32_t *)(uintptr_t)m->cpus_ptr;
	struct map_benchmark legacy;
	unsigned int i, op;
	struct json j;

	map_ext_to_legacy(m, &legacy);
	json_init(&j, f);
	map_json_head(&j, ctx, &legacy);
	json_key_uint(&j, "entries", m->entries);
	json_key_uint(&j, "entry_size", m->entry_size);
	json_key_uint(&j, "iterations", m->iterations);
	json_key(&j, "cpus");
	json_array_begin(&j);
	for (i = 0; cpus && i < m->nr_cpus; i++)
		json_uint(&j, cpus[i]);
	json_array_end(&j);
	json_key_bool(&j, "sync", m->flags & DMA_MAP_BENCH_F_SYNC);
	/* null from a module older than these results */
	json_key_uint_or_null(&j, "segments", m->segments, m->segments);
	json_key_uint_or_null(&j, "max_segment", m->max_segment,
			      m->segments);
	json_object_end(&j);

	map_json_results(&j, &legacy);
	json_key(&j, "ops");
	json_object_begin(&j);
	for (op = 0; op < map_ops_timed(m); op++) {
		const struct map_benchmark_op_stat *s = &m->op[op];

		json_key(&j, map_op_name(op));
		json_object_begin(&j);
		json_key_uint(&j, "count", s->count);
		json_key_uint(&j, "mean_ns", s->mean_ns);
		json_key_uint(&j, "stddev_ns", s->stddev_ns);
		json_key_uint(&j, "min_ns", s->min_ns);
		json_key_uint(&j, "p50_ns", s->p50_ns);
		json_key_uint(&j, "p90_ns", s->p90_ns);
		json_key_uint(&j, "p99_ns", s->p99_ns);
		json_key_uint(&j, "max_ns", s->max_ns);
		json_object_end(&j);
	}
	json_object_end(&j);
	json_object_end(&j);
	json_object_end(&j);
	fputc('\n', f);
}

void report_map_ext(FILE *f, const struct report_ctx *ctx,
		    const struct bench_opts *o,
		    const struct map_benchmark_ext *m)
{
	if (o->format == OUT_JSON)
		report_map_ext_json(f, ctx, m);
	else
		report_map_ext_text(f, m, map_mode_given(o));
}
