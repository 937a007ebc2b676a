// SPDX-License-Identifier: GPL-2.0-only
/*
 * Map modes' output: the selftest's lines (with the sg series' mode line),
 * or one JSON object.
 */
#include "json.h"
#include "report.h"

static const char *map_mode_enum_name(unsigned int mode)
{
	switch (mode) {
	case DMA_MAP_BENCH_SINGLE_MODE: return "DMA_MAP_BENCH_SINGLE_MODE";
	case DMA_MAP_BENCH_SG_MODE: return "DMA_MAP_BENCH_SG_MODE";
	default: return "DMA_MAP_BENCH_UNKNOWN_MODE";
	}
}

void report_map_text(FILE *f, const struct map_benchmark *m)
{
	const char *dir = dir_name(m->dma_dir);

	fprintf(f, "dma mapping mode: %s\n", map_mode_enum_name(m->map_mode));
	fprintf(f, "dma mapping benchmark: threads:%d seconds:%d node:%d dir:%s granule/sg_nents: %d\n",
		(int)m->threads, (int)m->seconds, (int)m->node,
		dir ? dir : "UNKNOWN", (int)m->granule);
	fprintf(f, "average map latency(us):%.1f standard deviation:%.1f\n",
		m->avg_map_100ns / 10.0, m->map_stddev / 10.0);
	fprintf(f, "average unmap latency(us):%.1f standard deviation:%.1f\n",
		m->avg_unmap_100ns / 10.0, m->unmap_stddev / 10.0);
}

void report_map_json(FILE *f, const struct report_ctx *ctx,
		     const struct map_benchmark *m)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j);
	json_key(&j, "tool");
	json_string(&j, PROG_NAME);
	json_key(&j, "version");
	json_string(&j, ctx->version);
	json_key(&j, "kernel");
	json_string(&j, ctx->kernel);
	json_key(&j, "mode");
	json_string(&j, mode_name(m->map_mode == DMA_MAP_BENCH_SG_MODE ?
				  MODE_SG : MODE_SINGLE));
	json_key(&j, "params");
	json_object_begin(&j);
	json_key(&j, "threads");
	json_uint(&j, m->threads);
	json_key(&j, "seconds");
	json_uint(&j, m->seconds);
	json_key(&j, "node");
	json_int(&j, m->node);
	json_key(&j, "dma_bits");
	json_uint(&j, m->dma_bits);
	json_key(&j, "dir");
	json_uint(&j, m->dma_dir);
	json_key(&j, "trans_delay_ns");
	json_uint(&j, m->dma_trans_ns);
	json_key(&j, "granule");
	json_uint(&j, m->granule);
	json_object_end(&j);
	json_key(&j, "results");
	json_object_begin(&j);
	json_key_mean_sd(&j, "map_us", m->avg_map_100ns / 10.0,
		     m->map_stddev / 10.0, 1);
	json_key_mean_sd(&j, "unmap_us", m->avg_unmap_100ns / 10.0,
		     m->unmap_stddev / 10.0, 1);
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
		report_map_text(f, m);
}
