// SPDX-License-Identifier: GPL-2.0-only
/*
 * The map modes' reports from filled-in ioctl structures: the selftest
 * lines byte for byte (single and sg) and their JSON; from a filled
 * struct map_benchmark_ext, the same three lines, a line per timed
 * operation (ns resolution, sync lines only with F_SYNC) and the JSON's
 * params and results.ops. With TEST_OUT_DIR set, the lines and the JSON
 * are also written there for report.t to check with python3.
 */
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

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_map_text();
	test_map_json();
	test_map_ext_text();
	test_map_ext_json();
	capture_free(&cap);
	return tap_done();
}
