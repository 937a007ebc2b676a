// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports from filled-in ioctl structures: the map modes' selftest lines
 * byte for byte (single and sg) and their JSON; from a filled
 * struct map_benchmark_ext, the same three lines, a line per timed
 * operation (ns resolution, sync lines only with F_SYNC) and the JSON's
 * params and results.ops; the dmaengine table against the reference header
 * and rows (map_ms, unmap_ms beside the phases; the cpu row with copy_ms
 * and '-' for the DMA phases), the '#' lines (buffers, depth, cpus,
 * cpufreq, modes not run and why), --verbose
 * (prep_stalls, channel capabilities with no_order), column alignment with
 * wide values, folio labels, per-channel rows computed from samples, the
 * CSV (depth, buffers, cpus, copy_ms, prep_stalls, cpufreq columns), the
 * JSON (system, prep_modes_run, missing), the memcpy_vec row (after
 * memcpy_sg's, convert_ms with --verbose, in CSV and JSON) and destination
 * folios of another size (--dst-folio-order: '#' line, folio column,
 * dst_folio_* in JSON and CSV). The JSON is checked here for content; with
 * TEST_OUT_DIR set, it is also written there for report.t to parse with
 * python3.
 */
#include <math.h>
#include <stdint.h>

#include "options.h"
#include "report.h"
#include "tap.h"

static const struct report_ctx ctx = {
	.version = "test-version",
	.kernel = "6.12.0-test",
};

static struct capture cap;

/* ------------------------------------------------------------------ */
/* Map modes                                                          */
/* ------------------------------------------------------------------ */

/* the sg series' run: 8 threads, 30 s, granule 8, from_device */
static const struct map_benchmark map_sg = {
	.avg_map_100ns = 14, .map_stddev = 3,
	.avg_unmap_100ns = 13, .unmap_stddev = 3,
	.threads = 8, .seconds = 30, .node = -1, .dma_bits = 32,
	.dma_dir = DMA_MAP_FROM_DEVICE, .granule = 8,
	.map_mode = DMA_MAP_BENCH_SG_MODE,
};

static void test_map_text(void)
{
	struct map_benchmark m = map_sg;
	const char *text;

	text = CAPTURE(&cap, report_map_text, &m, true);
	is_str(text,
	       "dma mapping benchmark(SG_MODE): threads:8 seconds:30 node:-1 dir:FROM_DEVICE granule:8\n"
	       "average map latency(us):1.4 standard deviation:0.3\n"
	       "average unmap latency(us):1.3 standard deviation:0.3\n",
	       "-m sg: Linux 7.3's three lines, byte for byte");
	tap_out_file("map_sg_mode.txt", text);

	m = (struct map_benchmark){
		.avg_map_100ns = 5, .map_stddev = 1,
		.avg_unmap_100ns = 123, .unmap_stddev = 0,
		.threads = 1, .seconds = 20, .node = 0, .dma_bits = 64,
		.dma_dir = DMA_MAP_BIDIRECTIONAL, .granule = 1,
		.map_mode = DMA_MAP_BENCH_SINGLE_MODE,
	};
	text = CAPTURE(&cap, report_map_text, &m, false);
	is_str(text,
	       "dma mapping benchmark: threads:1 seconds:20 node:0 dir:BIDIRECTIONAL granule: 1\n"
	       "average map latency(us):0.5 standard deviation:0.1\n"
	       "average unmap latency(us):12.3 standard deviation:0.0\n",
	       "without -m: Linux 6.12's three lines, byte for byte");
	tap_out_file("map_single.txt", text);
	text = CAPTURE(&cap, report_map_text, &m, true);
	has_str(text,
		"dma mapping benchmark(SINGLE_MODE): threads:1 seconds:20 node:0 dir:BIDIRECTIONAL granule:1\n",
		"-m single: Linux 7.3's header line names the mode");
	tap_out_file("map_single_mode.txt", text);

	m.dma_dir = DMA_MAP_TO_DEVICE;
	m.threads = 1024;
	m.node = 3;
	has_str(CAPTURE(&cap, report_map_text, &m, false),
		"threads:1024 seconds:20 node:3 dir:TO_DEVICE granule: 1\n",
		"TO_DEVICE and other values in the parameter line");
}

static void test_map_json(void)
{
	struct map_benchmark m = map_sg;
	struct bench_opts o;
	const char *text;

	text = CAPTURE(&cap, report_map_json, &ctx, &m);
	is_str(text,
	       "{\"tool\":\"dma_map_benchmark\",\"version\":\"test-version\","
	       "\"kernel\":\"6.12.0-test\",\"mode\":\"sg\",\"params\":{"
	       "\"threads\":8,\"seconds\":30,\"node\":-1,\"dma_bits\":32,"
	       "\"dma_dir\":2,\"dma_trans_ns\":0,\"granule\":8},\"results\":{"
	       "\"map_us\":{\"mean\":1.4,\"stddev\":0.3},"
	       "\"unmap_us\":{\"mean\":1.3,\"stddev\":0.3}}}\n",
	       "sg mode JSON");
	tap_out_file("map_sg.json", text);

	m.map_mode = DMA_MAP_BENCH_SINGLE_MODE;
	m.dma_trans_ns = 1000;
	text = CAPTURE(&cap, report_map_json, &ctx, &m);
	ok(strstr(text, "\"mode\":\"single\"") &&
	   strstr(text, "\"dma_trans_ns\":1000"), "single mode JSON");
	tap_out_file("map_single.json", text);

	opts_init(&o, 4096);
	o.format = OUT_JSON;
	ok(CAPTURE(&cap, report_map, &ctx, &o, &m)[0] == '{', "report_map() with --json prints JSON");
	o.format = OUT_TEXT;
	ok(!strncmp(CAPTURE(&cap, report_map, &ctx, &o, &m), "dma mapping benchmark: ", 23),
	   "report_map() without --json or -m prints the selftest lines");
	o.given |= 1ULL << O_MODE;
	ok(!strncmp(CAPTURE(&cap, report_map, &ctx, &o, &m), "dma mapping benchmark(", 22),
	   "report_map() with -m prints Linux 7.3's header");
}

/* ------------------------------------------------------------------ */
/* Map modes, extended ioctl                                          */
/* ------------------------------------------------------------------ */

static const uint32_t ref_cpus[] = { 0 };

static void op_stat(struct map_benchmark_op_stat *s, uint64_t count,
		    uint64_t mean, uint64_t sd, uint64_t min, uint64_t p50,
		    uint64_t p90, uint64_t p99, uint64_t max)
{
	*s = (struct map_benchmark_op_stat){
		.count = count, .mean_ns = mean, .stddev_ns = sd,
		.min_ns = min, .p50_ns = p50, .p90_ns = p90, .p99_ns = p99,
		.max_ns = max,
	};
}

/* the cache-sync reference: sg, 2560 x 4 KiB, 200 iterations, CPU 0, sync */
static void fill_ext(struct map_benchmark_ext *m)
{
	*m = (struct map_benchmark_ext){
		.size = sizeof(*m), .flags = DMA_MAP_BENCH_F_SYNC,
		.map_mode = DMA_MAP_BENCH_SG_MODE, .threads = 1, .seconds = 300,
		.iterations = 200, .node = -1, .dma_bits = 32,
		.dma_dir = DMA_MAP_TO_DEVICE, .entries = 2560, .entry_size = 4096,
		.cpus_ptr = (uintptr_t)ref_cpus, .nr_cpus = 1,
		.segments = 2560, .max_segment = 65536,
	};
	op_stat(&m->op[DMA_MAP_BENCH_OP_MAP], 200, 123456, 5678, 110200,
		121000, 130500, 150200, 160300);
	op_stat(&m->op[DMA_MAP_BENCH_OP_UNMAP], 200, 45678, 1234, 40001,
		45000, 47000, 52000, 60999);
	op_stat(&m->op[DMA_MAP_BENCH_OP_SYNC_CPU], 200, 21000, 999, 19000,
		20800, 22000, 24000, 25000);
	op_stat(&m->op[DMA_MAP_BENCH_OP_SYNC_DEVICE], 200, 22000, 1, 20000,
		21900, 23000, 25000, 26000);
}

#define EXT_HEAD \
	"dma mapping benchmark(SG_MODE): threads:1 seconds:300 node:-1 dir:TO_DEVICE granule:2560\n" \
	"average map latency(us):123.4 standard deviation:5.6\n" \
	"average unmap latency(us):45.6 standard deviation:1.2\n"
#define EXT_MAP \
	"map         count 200 mean 123.456 us sd 5.678 min 110.200 p50 121.000 p90 130.500 p99 150.200 max 160.300\n"
#define EXT_UNMAP \
	"unmap       count 200 mean 45.678 us sd 1.234 min 40.001 p50 45.000 p90 47.000 p99 52.000 max 60.999\n"
#define EXT_SYNC \
	"sync_cpu    count 200 mean 21.000 us sd 0.999 min 19.000 p50 20.800 p90 22.000 p99 24.000 max 25.000\n" \
	"sync_device count 200 mean 22.000 us sd 0.001 min 20.000 p50 21.900 p90 23.000 p99 25.000 max 26.000\n"

static void test_map_ext_text(void)
{
	struct map_benchmark_ext m;
	struct map_benchmark legacy;
	struct bench_opts o;

	fill_ext(&m);
	is_str(CAPTURE(&cap, report_map_ext_text, &m, true),
	       EXT_HEAD EXT_MAP EXT_UNMAP EXT_SYNC,
	       "ext, --sync: upstream's three lines, then map, unmap, sync_cpu, sync_device at ns resolution");

	m.flags = 0;
	is_str(CAPTURE(&cap, report_map_ext_text, &m, true), EXT_HEAD EXT_MAP EXT_UNMAP,
	       "ext without --sync: no sync lines");

	/* entries cut into more segments: a line after the header says so */
	m.entry_size = 131072;
	m.entries = 4;
	m.segments = 8;
	has_str(CAPTURE(&cap, report_map_ext_text, &m, true),
		"standard deviation:1.2\nsegments:8 max_segment:65536 (entries of 131072 bytes cut at the device's limits)\nmap ",
		"sg entries cut at the device's limits: the segments line after upstream's three");
	m.segments = 0;
	ok(!strstr(CAPTURE(&cap, report_map_ext_text, &m, true), "segments:"),
	   "a module that does not say (segments 0): no segments line");
	m.map_mode = DMA_MAP_BENCH_SINGLE_MODE;
	m.segments = 1;
	ok(!strstr(CAPTURE(&cap, report_map_ext_text, &m, true), "segments:"),
	   "single mode: no segments line");
	fill_ext(&m);
	m.flags = 0;

	/* the three lines are what DMA_MAP_BENCHMARK gives for the same run */
	map_ext_to_legacy(&m, &legacy);
	ok(legacy.avg_map_100ns == 1234 && legacy.map_stddev == 56 &&
	   legacy.avg_unmap_100ns == 456 && legacy.unmap_stddev == 12 &&
	   legacy.granule == 2560 && legacy.threads == 1 &&
	   legacy.seconds == 300 && legacy.node == -1 &&
	   legacy.dma_dir == DMA_MAP_TO_DEVICE && legacy.dma_bits == 32 &&
	   legacy.map_mode == DMA_MAP_BENCH_SG_MODE,
	   "map_ext_to_legacy(): 100 ns units truncated; granule = entries");
	is_str(CAPTURE(&cap, report_map_text, &legacy, true), EXT_HEAD,
	       "the three lines equal report_map_text() of the legacy result");

	/* edges of the us formatting: exact, no float rounding */
	memset(&m, 0, sizeof(m));
	m.entries = 65536;
	m.map_mode = DMA_MAP_BENCH_SINGLE_MODE;
	op_stat(&m.op[DMA_MAP_BENCH_OP_MAP], 0, 0, 0, 0, 0, 0, 0, 0);
	op_stat(&m.op[DMA_MAP_BENCH_OP_UNMAP], 18446744073709551615ULL, 1, 999,
		1000, 1001, 999999, 1000000, 18446744073709551615ULL);
	is_str(CAPTURE(&cap, report_map_ext_text, &m, false),
	       "dma mapping benchmark: threads:0 seconds:0 node:0 dir:BIDIRECTIONAL granule: 65536\n"
	       "average map latency(us):0.0 standard deviation:0.0\n"
	       "average unmap latency(us):0.0 standard deviation:0.9\n"
	       "map         count 0 mean 0.000 us sd 0.000 min 0.000 p50 0.000 p90 0.000 p99 0.000 max 0.000\n"
	       "unmap       count 18446744073709551615 mean 0.001 us sd 0.999 min 1.000 p50 1.001 p90 999.999 p99 1000.000 max 18446744073709551.615\n",
	       "single mode, 65536 entries, zeros and extremes: exact to the ns (999 ns is upstream's 0.9)");

	ok(!strcmp(map_op_name(DMA_MAP_BENCH_OP_MAP), "map") &&
	   !strcmp(map_op_name(DMA_MAP_BENCH_OP_UNMAP), "unmap") &&
	   !strcmp(map_op_name(DMA_MAP_BENCH_OP_SYNC_CPU), "sync_cpu") &&
	   !strcmp(map_op_name(DMA_MAP_BENCH_OP_SYNC_DEVICE), "sync_device") &&
	   !map_op_name(DMA_MAP_BENCH_NR_OPS), "operation names");

	fill_ext(&m);
	opts_init(&o, 4096);
	o.given |= 1ULL << O_MODE;
	ok(!strncmp(CAPTURE(&cap, report_map_ext, &ctx, &o, &m), EXT_HEAD, strlen(EXT_HEAD)),
	   "report_map_ext() without --json, with -m: text");
}

static void test_map_ext_json(void)
{
	static const uint32_t cpus4[] = { 0, 2, 4, 1023 };
	struct map_benchmark_ext m;
	struct bench_opts o;
	const char *text;

	fill_ext(&m);
	text = CAPTURE(&cap, report_map_ext_json, &ctx, &m);
	tap_out_file("map_ext.json", text);
	is_str(text,
	       "{\"tool\":\"dma_map_benchmark\",\"version\":\"test-version\","
	       "\"kernel\":\"6.12.0-test\",\"mode\":\"sg\",\"params\":{"
	       "\"threads\":1,\"seconds\":300,\"node\":-1,\"dma_bits\":32,"
	       "\"dma_dir\":1,\"dma_trans_ns\":0,\"granule\":2560,"
	       "\"entries\":2560,\"entry_size\":4096,\"iterations\":200,"
	       "\"cpus\":[0],\"sync\":true,\"segments\":2560,"
	       "\"max_segment\":65536},\"results\":{"
	       "\"map_us\":{\"mean\":123.4,\"stddev\":5.6},"
	       "\"unmap_us\":{\"mean\":45.6,\"stddev\":1.2},\"ops\":{"
	       "\"map\":{\"count\":200,\"mean_ns\":123456,\"stddev_ns\":5678,\"min_ns\":110200,\"p50_ns\":121000,\"p90_ns\":130500,\"p99_ns\":150200,\"max_ns\":160300},"
	       "\"unmap\":{\"count\":200,\"mean_ns\":45678,\"stddev_ns\":1234,\"min_ns\":40001,\"p50_ns\":45000,\"p90_ns\":47000,\"p99_ns\":52000,\"max_ns\":60999},"
	       "\"sync_cpu\":{\"count\":200,\"mean_ns\":21000,\"stddev_ns\":999,\"min_ns\":19000,\"p50_ns\":20800,\"p90_ns\":22000,\"p99_ns\":24000,\"max_ns\":25000},"
	       "\"sync_device\":{\"count\":200,\"mean_ns\":22000,\"stddev_ns\":1,\"min_ns\":20000,\"p50_ns\":21900,\"p90_ns\":23000,\"p99_ns\":25000,\"max_ns\":26000}}}}\n",
	       "ext JSON with --sync: params of the new options, results.ops of all four operations");

	m.flags = 0;
	m.cpus_ptr = (uintptr_t)cpus4;
	m.nr_cpus = 4;
	m.entry_size = 65536;
	m.iterations = 0;
	m.map_mode = DMA_MAP_BENCH_SINGLE_MODE;
	text = CAPTURE(&cap, report_map_ext_json, &ctx, &m);
	tap_out_file("map_ext_nosync.json", text);
	has_str(text, "\"entry_size\":65536,\"iterations\":0,\"cpus\":[0,2,4,1023],\"sync\":false,",
		"ext JSON: four CPUs, no sync, a timed run");
	ok(strstr(text, "\"unmap\":{") && !strstr(text, "sync_cpu") &&
	   !strstr(text, "sync_device"), "ext JSON without --sync: no sync ops");

	m.cpus_ptr = 0;
	m.nr_cpus = 0;
	has_str(CAPTURE(&cap, report_map_ext_json, &ctx, &m), "\"cpus\":[],",
		"ext JSON without --cpus: an empty CPU list");

	opts_init(&o, 4096);
	o.format = OUT_JSON;
	ok(CAPTURE(&cap, report_map_ext, &ctx, &o, &m)[0] == '{', "report_map_ext() with --json prints JSON");
}

/* ------------------------------------------------------------------ */
/* dmaengine                                                          */
/* ------------------------------------------------------------------ */

#define MS(x)	((uint64_t)((x) * 1000000.0 + 0.5))

static void stat_ms(struct dmaengine_bench_stat *s, double mean, double sd)
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

static void fill_reference(struct dmaengine_benchmark *b,
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

static struct dmaengine_report reference(struct bench_opts *o,
					  struct dmaengine_benchmark *b,
					  struct dmaengine_bench_channel *ch)
{
	opts_init(o, 4096);
	fill_reference(b, ch);
	return (struct dmaengine_report){ .opts = o, .b = b, .channels = ch };
}

/* the CPU copy as a third row */
static void add_cpu(struct dmaengine_benchmark *b)
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
static void add_vec(struct dmaengine_benchmark *b,
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
static int display_col(const char *line, const char *p)
{
	int col = 0;

	for (; line < p; line++)
		if (((unsigned char)*line & 0xc0) != 0x80)
			col++;
	return col;
}

/* the byte at display column @col of the line at @line, or '\n' */
static char char_at(const char *line, int col)
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
static bool aligned(const char *text, int nlines)
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

static void test_table(void)
{
	REFERENCE(1);

	is_str(CAPTURE(&cap, report_dmaengine_text, &fctx, &r),
	       "# dma_map_benchmark test-version, kernel 6.12.0-test\n"
	       "# channels: dma0chan0 (soft_dma.0, soft_dma)\n"
	       REF_PARAMS
	       "# cpufreq: governor performance (intel_pstate) on 2 CPUs, now 2100 MHz to 3200 MHz, max 3900 MHz; boost on (intel_pstate/no_turbo)\n"
	       "# acquire_ms 0.12\n"
	       REF_HEADER REF_ROW0 REF_ROW1,
	       "text: '#' lines (params with buffers, depth, cpus; cpufreq), then the header with map_ms and unmap_ms beside the phases, and the rows");

	b.prep_modes = b.prep_modes_run = DMAENGINE_BENCH_PREP_MEMCPY_SG;
	b.flags = DMAENGINE_BENCH_F_VERIFY | DMAENGINE_BENCH_F_POLL;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(strstr(cap.buf, REF_HEADER REF_ROW1) && !strstr(cap.buf, "prep_memcpy "),
	   "--prep-modes memcpy_sg: the memcpy_sg row only");
	has_str(cap.buf, "; prep memcpy_sg; buffers reuse, depth 1, cpus not pinned, verify, poll\n",
		"the parameter line names the prep mode, buffers and flags");
	ok(!strstr(cap.buf, "# cpufreq"), "no cpufreq line when it was not read");

	/* prep_modes_run 0 (a kernel that does not set it): prep_modes */
	b.prep_modes_run = 0;
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r), REF_ROW1,
		"prep_modes_run 0: the rows of prep_modes");

	b.prep_modes = b.prep_modes_run = PREP_BOTH;
	b.flags = DMAENGINE_BENCH_F_DISTINCT;
	b.depth = 4;
	b.cpus_ptr = (uintptr_t)(const uint32_t[]){ 0, 1, 2, 3, 8 };
	b.nr_cpus = 5;
	o.format = OUT_TEXT;
	CAPTURE(&cap, report_dmaengine, &ctx, &r);
	has_str(cap.buf, REF_ROW0, "report_dmaengine() text");
	has_str(cap.buf, "; prep both; buffers distinct, depth 4, cpus 0-3,8\n",
		"the parameter line says the depth and the CPUs, as ranges");
}

static void test_cpu_row(void)
{
	REFERENCE(1);

	add_cpu(&b);
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf, "; prep memcpy,memcpy_sg,cpu; buffers distinct",
		"memcpy, memcpy_sg and cpu in the parameter line: the list, no longer all");
	has_str(cap.buf,
		"\nmode           chan folio sge run_ms          prep_ms        submit_ms     issue_ms    wait_ms           map_ms        unmap_ms      copy_ms         prep_calls GB/s\n",
		"with the cpu row: a copy_ms column after unmap_ms");
	has_str(cap.buf,
		"\nprep_memcpy_sg 1    4KB   512 611.34 \u00b1 13.52  0.74 \u00b1 0.33    0.01 \u00b1 0.00   0.08 \u00b1 0.00 610.48 \u00b1 13.68    1.19 \u00b1 0.02   0.79 \u00b1 0.01   -               256        0.88 \u00b1 0.02\n",
		"a DMA row has '-' for copy_ms");
	has_str(cap.buf,
		"\ncpu            1    4KB   512 250.50 \u00b1 2.25   -              -             -           -                 -             -             248.75 \u00b1 2.50   -          2.14 \u00b1 0.03\n",
		"the cpu row, last: run_ms, copy_ms and GB/s; '-' for the DMA phases and prep_calls");
	ok(aligned(cap.buf, 4), "the table with the cpu row is aligned");

	o.verbose = true;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(aligned(cap.buf, 4), "--verbose with the cpu row is aligned");
	has_str(cap.buf,
		"-          2.14 \u00b1 0.03 -            -       256     131072   536870912\n",
		"--verbose cpu row: '-' for prep_stalls and submits, the kernel's batches, segments, bytes");

	/* cpu alone */
	b.prep_modes = b.prep_modes_run = DMAENGINE_BENCH_PREP_CPU;
	o.verbose = false;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(strstr(cap.buf, "; prep cpu;") && strstr(cap.buf, "\ncpu ") &&
	   !strstr(cap.buf, "\nprep_memcpy"), "--prep-modes cpu: the cpu row only");
}

static void test_missing(void)
{
	REFERENCE(2);
	const char *text;

	add_cpu(&b);
	add_vec(&b, &ch[0]);
	ch[0].has_memcpy_vec = 0;
	b.flags |= DMAENGINE_BENCH_F_SKIP_MISSING;
	b.prep_modes_run = DMAENGINE_BENCH_PREP_MEMCPY | DMAENGINE_BENCH_PREP_CPU;
	b.results[1] = (struct dmaengine_bench_result){ .missing = DMAENGINE_BENCH_ERR_NO_API };
	b.results[3] = b.results[1];
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf, "; prep all; buffers distinct, depth 1, cpus not pinned\n"
		"# not run: prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project\n"
		"# not run: prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)\n",
		"a stock kernel, every mode asked for: '#' lines for memcpy_sg and memcpy_vec, with where the patches are");
	ok(strstr(cap.buf, "\nprep_memcpy ") && strstr(cap.buf, "\ncpu ") &&
	   !strstr(cap.buf, "\nprep_memcpy_sg ") &&
	   !strstr(cap.buf, "\nprep_memcpy_vec "),
	   "rows for the modes that ran only");

	/* the second channel lacks the capability */
	ch[1] = ch[0];
	strcpy(ch[1].name, "dma1chan0");
	strcpy(ch[1].driver, "ioatdma");
	ch[1].has_memcpy_sg = 0;
	ch[0].has_memcpy_vec = 1;
	ch[1].has_memcpy_vec = 0;
	b.channels = b.channels_used = 2;
	b.results[1].missing = DMAENGINE_BENCH_ERR_NO_CAP;
	b.results[3].missing = DMAENGINE_BENCH_ERR_NO_CAP;
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r),
		"# not run: prep_memcpy_sg: channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_SG\n",
		"a channel without DMA_MEMCPY_SG: named");
	has_str(cap.buf,
		"# not run: prep_memcpy_vec: channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_VEC\n",
		"a channel without DMA_MEMCPY_VEC: named");

	text = CAPTURE(&cap, report_dmaengine_json, &ctx, &r);
	tap_out_file("dmaengine_missing.json", text);
	has_str(text, "\"prep_modes_run\":[\"prep_memcpy\",\"cpu\"],\"missing\":[{\"prep_mode\":\"prep_memcpy_sg\",\"error\":\"no_cap\",\"reason\":\"channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_SG\"},{\"prep_mode\":\"prep_memcpy_vec\",\"error\":\"no_cap\",\"reason\":\"channel dma1chan0 (driver ioatdma) lacks DMA_MEMCPY_VEC\"}]",
		"JSON: prep_modes_run and missing with the reason");
	has_str(text, "\"prep_modes\":\"all\",\"skip_missing\":true,",
		"JSON params: prep all, skip_missing");
}

static void test_verbose(void)
{
	REFERENCE(1);

	o.verbose = true;
	ch->no_order = 1;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf,
		"# channels: dma0chan0 (soft_dma.0, soft_dma; node -1, src node 0, dst node 0, max_seg_size 65536, copy_align 0, memcpy_sg yes, memcpy_vec no, no_order yes)\n",
		"--verbose channel list: nodes, limits, memcpy_sg, memcpy_vec and no_order");
	ok(!strstr(cap.buf, "convert_ms"),
	   "--verbose without a memcpy_vec row: no convert_ms column");
	has_str(cap.buf,
		"map_ms        unmap_ms      prep_calls GB/s        prep_stalls  submits batches segments bytes\n",
		"--verbose header: the reference columns, then prep_stalls .. bytes");
	has_str(cap.buf,
		"131072     0.85 \u00b1 0.01 12.00 \u00b1 3.00 131072  256     131072   536870912\n",
		"--verbose prep_memcpy row: prep_stalls mean \u00b1 SD, submits, batches, segments, bytes");
	has_str(cap.buf,
		"256        0.88 \u00b1 0.02 0.00 \u00b1 0.00  256     256     131072   536870912\n",
		"--verbose prep_memcpy_sg row");

	o.verbose = false;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(!strstr(cap.buf, "prep_stalls") && !strstr(cap.buf, "no_order"),
	   "without --verbose: no prep_stalls column, no channel details");
}

/* the memcpy_vec row: after memcpy_sg, before cpu; convert_ms with -v */
static void test_vec_row(void)
{
	REFERENCE(1);
	const char *sg, *vec, *cpu;

	add_cpu(&b);
	add_vec(&b, ch);
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf, "; prep all; buffers distinct",
		"the four modes: --prep-modes all in the parameter line");
	sg = strstr(cap.buf, "\nprep_memcpy_sg ");
	vec = strstr(cap.buf, "\nprep_memcpy_vec ");
	cpu = strstr(cap.buf, "\ncpu ");
	ok(sg && vec && cpu && sg < vec && vec < cpu,
	   "rows: memcpy, memcpy_sg, memcpy_vec, then cpu");
	has_str(cap.buf,
		"\nprep_memcpy_vec 1    4KB   512 600.50 \u00b1 10.25  0.90 \u00b1 0.30    0.01 \u00b1 0.00   0.08 \u00b1 0.00 610.48 \u00b1 13.68    1.19 \u00b1 0.02   0.79 \u00b1 0.01   -               256        0.88 \u00b1 0.02\n",
		"the memcpy_vec row: its phases, '-' for copy_ms, its prep calls");
	ok(!strstr(cap.buf, "convert_ms"), "without --verbose: no convert_ms column");
	ok(aligned(cap.buf, 5), "the table of four rows is aligned");

	o.verbose = true;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf, " GB/s        convert_ms    prep_stalls  submits batches segments bytes\n",
		"--verbose with a memcpy_vec row: convert_ms first of the verbose columns");
	has_str(cap.buf, "0.88 \u00b1 0.02 0.25 \u00b1 0.05   0.00 \u00b1 0.00  256 ",
		"--verbose memcpy_vec row: convert_ms mean \u00b1 SD");
	has_str(cap.buf, "0.85 \u00b1 0.01 -             12.00 \u00b1 3.00 131072 ",
		"--verbose memcpy row: '-' for convert_ms");
	has_str(cap.buf, "memcpy_sg yes, memcpy_vec yes, no_order no)",
		"--verbose channel list: memcpy_vec yes");
	ok(aligned(cap.buf, 5), "--verbose with four rows is aligned");
	o.verbose = false;

	CAPTURE(&cap, report_dmaengine_csv, &ctx, &r);
	has_str(cap.buf, "\nprep_memcpy_vec,1,0,4096,512,1,distinct,,20,536870912,256,256,256,131072,600.500000,10.250000,0.900000,0.300000,",
		"CSV: the memcpy_vec row after memcpy_sg's");
	has_str(cap.buf, ",0.790000,0.010000,0.000000,0.000000,0.250000,0.050000,0.000000,0.000000,0.880000,",
		"CSV: memcpy_vec's convert_ms after copy_ms (0)");
	has_str(cap.buf, "\ncpu,1,0,4096,512,1,distinct,,20,536870912,0,0,256,131072,",
		"CSV: cpu still last");

	tap_out_file("dmaengine_vec.json", CAPTURE(&cap, report_dmaengine_json, &fctx, &r));
	has_str(cap.buf, "\"prep_modes_run\":[\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\",\"cpu\"]",
		"JSON: prep_modes_run in report order");
	has_str(cap.buf, "\"copy_ms\":{\"mean\":0.000000,\"stddev\":0.000000},\"convert_ms\":{\"mean\":0.250000,\"stddev\":0.050000},",
		"JSON: convert_ms of the memcpy_vec result");
	has_str(cap.buf, "\"has_memcpy_sg\":true,\"has_memcpy_vec\":true,",
		"JSON channels: has_memcpy_vec");
}

/* destination folios of another order (F_DST_ORDER) */
static void test_dst_order(void)
{
	REFERENCE(1);

	b.flags |= DMAENGINE_BENCH_F_DST_ORDER;
	b.dst_folio_order = 9;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	has_str(cap.buf, "# 512MB per channel in batches of 512 x 4KB into 2MB destination folios; 20 runs",
		"'#' line: both folio sizes");
	has_str(cap.buf, "\nmode           chan folio_src/dst sge run_ms ",
		"the folio column says src/dst");
	has_str(cap.buf, "\nprep_memcpy    1    4KB/2MB       512 632.86 ",
		"the rows: source/destination folio sizes");
	ok(aligned(cap.buf, 3), "the table with src/dst folios is aligned");

	CAPTURE(&cap, report_dmaengine_json, &ctx, &r);
	has_str(cap.buf, "\"folio_order\":0,\"folio_bytes\":4096,\"dst_folio_order\":9,\"dst_folio_bytes\":2097152,\"page_size\":4096,",
		"JSON params: dst_folio_order and dst_folio_bytes");
	has_str(cap.buf, "{\"prep_mode\":\"prep_memcpy\",\"chan\":1,\"folio_order\":0,\"folio_bytes\":4096,\"dst_folio_order\":9,\"dst_folio_bytes\":2097152,\"sge\":512,",
		"JSON results: dst_folio_order and dst_folio_bytes");
	CAPTURE(&cap, report_dmaengine_csv, &ctx, &r);
	has_str(cap.buf, "0.850000,0.010000,,,,,,9,2097152\n",
		"CSV: dst_folio_order and dst_folio_bytes, last");

	/* the same order as the source's: one size, as without the flag */
	b.dst_folio_order = 0;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(!strstr(cap.buf, "destination") && !strstr(cap.buf, "src/dst") &&
	   strstr(cap.buf, REF_HEADER), "dst order equal to the source's: one folio size");
	/* without the flag, a stray dst_folio_order is not reported */
	b.flags &= ~DMAENGINE_BENCH_F_DST_ORDER;
	b.dst_folio_order = 5;
	has_str(CAPTURE(&cap, report_dmaengine_json, &ctx, &r), "\"dst_folio_order\":0,\"dst_folio_bytes\":4096,",
		"JSON without F_DST_ORDER: the source's order");
	b.dst_folio_order = 0;
	b.folio_order = 4;
	has_str(CAPTURE(&cap, report_dmaengine_csv, &ctx, &r), ",4,65536\n",
		"CSV without F_DST_ORDER: the source's order and size");
}

static void test_cpufreq_line(void)
{
	struct cpufreq_info fi = { .boost = -1 };
	struct report_ctx c = ctx;
	REFERENCE(1);

	c.cpufreq = &fi;
	has_str(CAPTURE(&cap, report_dmaengine_text, &c, &r),
		"# cpufreq: not exposed here (no /sys/devices/system/cpu/cpu*/cpufreq)\n",
		"no cpufreq (a VM): said so");

	fi.boost = 0;
	fi.boost_source = "cpufreq/boost";
	has_str(CAPTURE(&cap, report_dmaengine_text, &c, &r),
		"# cpufreq: not exposed here (no /sys/devices/system/cpu/cpu*/cpufreq); boost off (cpufreq/boost)\n",
		"boost known without per-CPU cpufreq");

	fi = (struct cpufreq_info){
		.cpus = 1, .governor = "schedutil", .cur_khz_min = 1800000,
		.cur_khz_max = 1800000, .boost = -1,
	};
	has_str(CAPTURE(&cap, report_dmaengine_text, &c, &r),
		"# cpufreq: governor schedutil on 1 CPU, now 1800 MHz\n",
		"one CPU, no driver, max or boost: what is known");
}

static void test_wide_values(void)
{
	REFERENCE(256);
	int i;

	for (i = 1; i < 256; i++)
		ch[i] = ch[0];
	b.channels = b.channels_used = 256;
	b.sge = 65536;
	b.folio_order = 18;
	add_cpu(&b);
	b.results[0].prep_calls = 123456789012ULL;
	stat_ms(&b.results[0].run_ns, 123456.78, 1234.5);
	stat_ms(&b.results[1].wait_ns, 98765432.1, 0.5);
	stat_ms(&b.results[2].copy_ns, 7654321.25, 0.5);
	b.results[0].prep_stalls.mean = 12345678901ULL;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(aligned(cap.buf, 4),
	   "wide values (256 channels, sge 65536, 1GB folios, long numbers) widen their columns; all stay aligned");
	has_str(cap.buf, "prep_memcpy    256  1GB   65536 123456.78 \u00b1 1234.50 ",
		"wide row: chan 256, folio 1GB, sge 65536");

	o.verbose = true;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(aligned(cap.buf, 4), "wide values with --verbose stay aligned");
}

static void test_folio_labels(void)
{
	static const struct {
		long page;
		unsigned int order;
		const char *label;
	} cases[] = {
		{ 4096, 0, " 4KB " }, { 4096, 4, " 64KB " }, { 4096, 9, " 2MB " },
		{ 4096, 18, " 1GB " }, { 65536, 0, " 64KB " },
		{ 65536, 5, " 2MB " }, { 16384, 1, " 32KB " },
	};
	REFERENCE(1);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reference(&o, &b, ch);
		opts_init(&o, cases[i].page);
		b.folio_order = cases[i].order;
		CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
		has_str(strstr(cap.buf, "\nprep_memcpy "), cases[i].label,
			"page %ld, order %u: folio%s", cases[i].page,
			cases[i].order, cases[i].label);
	}
}

static void test_channels_line(void)
{
	REFERENCE(3);

	ch[1] = ch[0];
	strcpy(ch[1].name, "dma0chan1");
	ch[2] = ch[0];
	strcpy(ch[2].name, "dma1chan0");
	strcpy(ch[2].device, "0000:00:04.0");
	strcpy(ch[2].driver, "ioatdma");
	b.channels = b.channels_used = 3;
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r),
		"# channels: dma0chan0 (soft_dma.0, soft_dma), dma0chan1 (soft_dma.0, soft_dma), dma1chan0 (0000:00:04.0, ioatdma)\n",
		"channels line: name (device, driver) of each channel");

	b.channels = 4;		/* --allow-fewer: 3 of 4 */
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	ok(strstr(cap.buf, "dma1chan0 (0000:00:04.0, ioatdma)\n") &&
	   strstr(cap.buf, "\nprep_memcpy    3 "),
	   "fewer channels than asked: the used ones are named and counted");

	r.channels = NULL;
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r), "# channels: 3 (not named by the kernel)\n",
		"no channel array: the count only");

	r.channels = ch;
	memset(ch, 0, sizeof(ch));
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r), "# channels: 3 (not named by the kernel)\n",
		"empty names: the count only");

	/* names filling all 32 bytes have no NUL: print 32, not more */
	fill_reference(&b, &ch[0]);
	memset(ch[0].name, 'n', sizeof(ch[0].name));
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r),
		"# channels: nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn (soft_dma.0, soft_dma)\n",
		"a 32-byte name without NUL is cut at 32 bytes");
}

#define CSV_HEADER \
	"mode,chan,folio_order,folio_bytes,sge,depth,buffers,cpus,runs,bytes,prep_calls,submits,batches,segments,run_ms_mean,run_ms_stddev,prep_ms_mean,prep_ms_stddev,submit_ms_mean,submit_ms_stddev,issue_ms_mean,issue_ms_stddev,wait_ms_mean,wait_ms_stddev,map_ms_mean,map_ms_stddev,unmap_ms_mean,unmap_ms_stddev,copy_ms_mean,copy_ms_stddev,convert_ms_mean,convert_ms_stddev,prep_stalls_mean,prep_stalls_stddev,gbps_mean,gbps_stddev,cpufreq_governor,cpu_cur_khz_min,cpu_cur_khz_max,cpu_max_khz,boost,dst_folio_order,dst_folio_bytes\n"

static void test_csv(void)
{
	REFERENCE(1);

	add_cpu(&b);
	is_str(CAPTURE(&cap, report_dmaengine_csv, &fctx, &r),
	       CSV_HEADER
	       "prep_memcpy,1,0,4096,512,1,distinct,,20,536870912,131072,131072,256,131072,632.860000,8.180000,18.000000,6.380000,4.440000,0.090000,0.090000,0.040000,603.540000,5.030000,1.200000,0.030000,0.800000,0.010000,0.000000,0.000000,0.000000,0.000000,12.000000,3.000000,0.850000,0.010000,performance,2100000,3200000,3900000,1,0,4096\n"
	       "prep_memcpy_sg,1,0,4096,512,1,distinct,,20,536870912,256,256,256,131072,611.340000,13.520000,0.740000,0.330000,0.010000,0.000000,0.080000,0.000000,610.480000,13.680000,1.190000,0.020000,0.790000,0.010000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.880000,0.020000,performance,2100000,3200000,3900000,1,0,4096\n"
	       "cpu,1,0,4096,512,1,distinct,,20,536870912,0,0,256,131072,250.500000,2.250000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,248.750000,2.500000,0.000000,0.000000,0.000000,0.000000,2.140000,0.030000,performance,2100000,3200000,3900000,1,0,4096\n",
	       "CSV: header and one row per prep mode, cpu last with 0 for the DMA phases; depth, buffers, cpus and the cpufreq columns");

	b.prep_modes = b.prep_modes_run = DMAENGINE_BENCH_PREP_MEMCPY;
	b.folio_order = 4;
	b.channels = b.channels_used = 2;
	b.flags = 0;
	b.depth = 8;
	b.cpus_ptr = (uintptr_t)(const uint32_t[]){ 0, 2 };
	b.nr_cpus = 2;
	CAPTURE(&cap, report_dmaengine_csv, &ctx, &r);
	ok(!strncmp(cap.buf, CSV_HEADER, strlen(CSV_HEADER)) &&
	   !strncmp(cap.buf + strlen(CSV_HEADER),
		    "prep_memcpy,2,4,65536,512,8,reuse,\"0,2\",20,", 43) &&
	   !strstr(cap.buf, "prep_memcpy_sg") && !strstr(cap.buf, "\ncpu,"),
	   "CSV with --prep-modes memcpy, order 4, 2 channels, depth 8, reuse, cpus 0,2 (quoted): one row");
	ok(strstr(cap.buf, "0.850000,0.010000,,,,,,4,65536\n") != NULL,
	   "CSV without cpufreq: the cpufreq columns empty");
	b.cpus_ptr = (uintptr_t)(const uint32_t[]){ 0, 1, 2, 3 };
	b.nr_cpus = 4;
	has_str(CAPTURE(&cap, report_dmaengine_csv, &ctx, &r), ",8,reuse,0-3,20,",
		"CSV: a range of CPUs needs no quotes");

	o.format = OUT_CSV;
	ok(!strncmp(CAPTURE(&cap, report_dmaengine, &ctx, &r), CSV_HEADER, strlen(CSV_HEADER)),
	   "report_dmaengine() with --csv prints CSV only");
}

/*
 * 2 channels x 2 prep modes x 3 runs of made-up samples in @s, and @b a run
 * of 2 channels and 3 runs that returned them
 */
#define RUNS	3
static void fill_samples(struct dmaengine_benchmark *b,
			 struct dmaengine_bench_sample *s)
{
	static const double run_ms[RUNS] = { 100, 110, 120 };
	static const double prep_ms[RUNS] = { 10, 12, 14 };
	unsigned int run, mode, ch, n = 0;

	b->channels = b->channels_used = 2;
	b->runs = RUNS;
	for (run = 0; run < RUNS; run++)
		for (mode = 0; mode < 2; mode++)
			for (ch = 0; ch < 2; ch++, n++)
				s[n] = (struct dmaengine_bench_sample){
					.prep_mode = mode, .run = run,
					.channel = ch, .start_ns = MS(ch),
					.end_ns = MS(ch + run_ms[run] *
						     (mode + 1) + ch),
					.prep_ns = MS(prep_ms[run] / (mode + 1)),
					.submit_ns = MS(1), .issue_ns = MS(0.5),
					.wait_ns = MS(80), .map_ns = MS(2),
					.unmap_ns = MS(1), .bytes = 100000000,
					.prep_calls = mode ? 256 : 131072,
					.submits = mode ? 256 : 131072,
					.prep_stalls = mode ? 0 : run * 2,
				};
	b->samples_written = n;
}

static void mean_sd(const double *v, int n, double *mean, double *sd)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
}

static void test_per_channel(void)
{
	struct dmaengine_bench_sample samples[2 * 2 * RUNS];
	REFERENCE(2);
	double gbps[RUNS], mean, sd;
	char want[256];
	const char *pc;
	int i;

	o.per_channel = true;
	r.samples = samples;
	ch[1] = ch[0];
	strcpy(ch[1].name, "dma0chan1");
	fill_samples(&b, samples);
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	pc = strstr(cap.buf, "# per channel, from 12 samples:\n");
	ok(pc != NULL, "--per-channel: a second table after the first");
	has_str(pc, "\nmode           channel   folio sge run_ms",
		"per-channel header names the channel column");
	/* channel 1, memcpy: run = 100/110/120 ms + 1, prep 10/12/14 */
	has_str(pc, "\nprep_memcpy    dma0chan1 4KB   512 111.00 \u00b1 10.00  12.00 \u00b1 2.00   1.00 \u00b1 0.00   0.50 \u00b1 0.00 80.00 \u00b1 0.00      2.00 \u00b1 0.00   1.00 \u00b1 0.00   131072     ",
		"per-channel row: mean and sd over the channel's runs");
	for (i = 0; i < RUNS; i++)
		gbps[i] = 100000000 / ((100 + 10 * i) * 2 * 1e6);
	mean_sd(gbps, RUNS, &mean, &sd);
	snprintf(want, sizeof(want),
		 "\nprep_memcpy_sg dma0chan0 4KB   512 220.00 \u00b1 20.00  6.00 \u00b1 1.00    1.00 \u00b1 0.00   0.50 \u00b1 0.00 80.00 \u00b1 0.00      2.00 \u00b1 0.00   1.00 \u00b1 0.00   256        %.2f \u00b1 %.2f\n",
		 mean, sd);
	has_str(pc, want, "per-channel memcpy_sg row, GB/s = bytes / (end - start)");
	ok(aligned(pc, 5), "per-channel table aligned");

	o.verbose = true;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	pc = strstr(cap.buf, "# per channel");
	/* channel 0, memcpy: prep_stalls 0, 2, 4 over the runs */
	has_str(pc, "131072     0.91 \u00b1 0.08 2.00 \u00b1 2.00 131072  -       -        100000000\n",
		"--verbose per-channel row: prep_stalls from the samples");

	/* samples of one prep mode only */
	o.verbose = false;
	b.prep_modes = b.prep_modes_run = DMAENGINE_BENCH_PREP_MEMCPY;
	CAPTURE(&cap, report_dmaengine_text, &ctx, &r);
	pc = strstr(cap.buf, "# per channel");
	ok(pc && !strstr(pc, "prep_memcpy_sg") && strstr(pc, "dma0chan1"),
	   "per-channel rows only for the prep modes that ran");

	r.samples = NULL;
	b.samples_written = 0;
	has_str(CAPTURE(&cap, report_dmaengine_text, &ctx, &r), "# per channel: the kernel returned no samples\n",
		"per-channel without samples says so");
}

static const char json_start[] =
	"{\"tool\":\"dma_map_benchmark\",\"version\":\"test-version\",\"kernel\":\"6.12.0-test\",\"mode\":\"dmaengine\",\"params\":{";

static void test_json(void)
{
	struct dmaengine_bench_sample samples[2 * 2 * RUNS];
	REFERENCE(2);
	const char *text;

	text = CAPTURE(&cap, report_dmaengine_json, &ctx, &r);
	tap_out_file("dmaengine.json", text);
	ok(!strncmp(text, json_start, strlen(json_start)),
	   "JSON starts with tool, version, kernel, mode, params");
	has_str(text, "\"params\":{\"channels\":1,\"channel\":\"\",\"device\":\"\",\"folio_order\":0,\"folio_bytes\":4096,\"dst_folio_order\":0,\"dst_folio_bytes\":4096,\"page_size\":4096,\"sge\":512,\"bytes_per_channel\":536870912,\"runs\":20,\"warmup_runs\":1,\"src_node\":-1,\"dst_node\":-1,\"prep_modes\":\"both\",\"skip_missing\":false,\"buffers\":\"distinct\",\"depth\":1,\"cpus\":[],\"verify\":false,\"poll\":false,\"allow_fewer\":false,\"timeout_ms\":0},\"prep_modes_run\":[\"prep_memcpy\",\"prep_memcpy_sg\"],\"missing\":[],\"system\":{\"cpufreq\":null},",
		"JSON params: every parameter; prep_modes_run, missing, system");
	has_str(text, "\"channels\":[{\"name\":\"dma0chan0\",\"device\":\"soft_dma.0\",\"driver\":\"soft_dma\",\"node\":-1,\"src_node\":0,\"dst_node\":0,\"max_seg_size\":65536,\"copy_align\":0,\"has_memcpy_sg\":true,\"has_memcpy_vec\":false,\"no_order\":false}]",
		"JSON channels, with no_order");
	has_str(text, "{\"prep_mode\":\"prep_memcpy\",\"chan\":1,\"folio_order\":0,\"folio_bytes\":4096,\"dst_folio_order\":0,\"dst_folio_bytes\":4096,\"sge\":512,\"depth\":1,\"buffers\":\"distinct\",\"runs\":20,\"bytes\":536870912,\"prep_calls\":131072,\"submits\":131072,\"batches\":256,\"segments\":131072,\"run_ms\":{\"mean\":632.860000,\"stddev\":8.180000},\"prep_ms\":{\"mean\":18.000000,\"stddev\":6.380000},\"submit_ms\":{\"mean\":4.440000,\"stddev\":0.090000},\"issue_ms\":{\"mean\":0.090000,\"stddev\":0.040000},\"wait_ms\":{\"mean\":603.540000,\"stddev\":5.030000},\"map_ms\":{\"mean\":1.200000,\"stddev\":0.030000},\"unmap_ms\":{\"mean\":0.800000,\"stddev\":0.010000},\"copy_ms\":{\"mean\":0.000000,\"stddev\":0.000000},\"convert_ms\":{\"mean\":0.000000,\"stddev\":0.000000},\"prep_stalls\":{\"mean\":12.000000,\"stddev\":3.000000},\"gbps\":{\"mean\":0.850000,\"stddev\":0.010000},\"acquire_ms\":0.120000}",
		"JSON result of prep_memcpy, every field");

	add_cpu(&b);
	b.depth = 4;
	b.cpus_ptr = (uintptr_t)(const uint32_t[]){ 3, 1 };
	b.nr_cpus = 2;
	text = CAPTURE(&cap, report_dmaengine_json, &fctx, &r);
	tap_out_file("dmaengine_cpu.json", text);
	has_str(text, "\"depth\":4,\"cpus\":[3,1],", "JSON params: depth and cpus");
	has_str(text, "\"system\":{\"cpufreq\":{\"cpus\":2,\"driver\":\"intel_pstate\",\"governor\":\"performance\",\"cur_khz_min\":2100000,\"cur_khz_max\":3200000,\"max_khz\":3900000,\"boost\":true,\"boost_source\":\"intel_pstate/no_turbo\"}}",
		"JSON system.cpufreq");
	has_str(text, "{\"prep_mode\":\"cpu\",\"chan\":1,",
		"JSON: the cpu result");
	has_str(text, "\"copy_ms\":{\"mean\":248.750000,\"stddev\":2.500000}",
		"JSON: copy_ms of the cpu result");
	b.prep_modes = b.prep_modes_run = PREP_BOTH;
	b.depth = 1;
	b.cpus_ptr = 0;
	b.nr_cpus = 0;
	ok(!strstr(text, "\"samples\"") && !strstr(text, "\"per_channel\""),
	   "no samples or per_channel unless asked");
	ok(text[strlen(text) - 1] == '\n' && !strchr(text, '\n')[1],
	   "one line, newline-terminated");

	/* everything: per-channel, samples, names that need escaping */
	o.per_channel = true;
	o.samples = true;
	r.samples = samples;
	ch[1] = ch[0];
	strcpy(ch[1].name, "q\"b\\s\t\x01");
	memset(ch[1].device, 'd', sizeof(ch[1].device));	/* no NUL */
	strcpy(ch[1].driver, "caf\xc3\xa9\xff");
	strcpy(b.channel, "dma0chan0");
	b.flags = DMAENGINE_BENCH_F_ALL;
	fill_samples(&b, samples);
	text = CAPTURE(&cap, report_dmaengine_json, &ctx, &r);
	tap_out_file("dmaengine_full.json", text);
	has_str(text, "\"name\":\"q\\\"b\\\\s\\t\\u0001\"", "channel name escaped");
	has_str(text, "\"device\":\"dddddddddddddddddddddddddddddddd\",",
		"32-byte device name without NUL: 32 characters");
	has_str(text, "\"driver\":\"caf\xc3\xa9\\ufffd\"",
		"valid UTF-8 kept, invalid byte replaced");
	has_str(text, "\"per_channel\":[{\"prep_mode\":\"prep_memcpy\",\"channel\":\"dma0chan0\",\"index\":0,\"runs\":3,",
		"per_channel entries");
	has_str(text, "\"samples\":[{\"prep_mode\":\"prep_memcpy\",\"run\":0,\"channel\":0,\"start_ns\":0,\"end_ns\":100000000,\"prep_ns\":10000000,\"submit_ns\":1000000,\"issue_ns\":500000,\"wait_ns\":80000000,\"map_ns\":2000000,\"unmap_ns\":1000000,\"copy_ns\":0,\"convert_ns\":0,\"bytes\":100000000,\"prep_calls\":131072,\"submits\":131072,\"prep_stalls\":0}",
		"raw samples, every field");
	has_str(text, "\"verify\":true,\"poll\":true,\"allow_fewer\":true",
		"flags in params");

	o.format = OUT_JSON;
	b.prep_modes = b.prep_modes_run = DMAENGINE_BENCH_PREP_MEMCPY_SG;
	o.per_channel = o.samples = false;
	text = CAPTURE(&cap, report_dmaengine, &ctx, &r);
	tap_out_file("dmaengine_sg.json", text);
	ok(text[0] == '{' && !strstr(text, "\"prep_mode\":\"prep_memcpy\"") &&
	   strstr(text, "\"prep_mode\":\"prep_memcpy_sg\""),
	   "report_dmaengine() --json, --prep-modes memcpy_sg: one result");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_map_text();
	test_map_json();
	test_map_ext_text();
	test_map_ext_json();
	test_table();
	test_cpu_row();
	test_missing();
	test_verbose();
	test_vec_row();
	test_dst_order();
	test_cpufreq_line();
	test_wide_values();
	test_folio_labels();
	test_channels_line();
	test_csv();
	test_per_channel();
	test_json();
	capture_free(&cap);
	return tap_done();
}
