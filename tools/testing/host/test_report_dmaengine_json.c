// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine report for scripts, from filled-in ioctl structures: the
 * CSV (depth, buffers, cpus, copy_ms, prep_stalls, cpufreq columns),
 * per-channel rows computed from samples, and the JSON (system,
 * prep_modes_run, missing; the memcpy_vec row; dst_folio_* with
 * --dst-folio-order). The JSON is checked here for content; with
 * TEST_OUT_DIR set, it is also written there for report.t to parse with
 * python3.
 */
#include <math.h>
#include <stdint.h>

#include "report_fixture.h"

static const struct report_ctx ctx = {
	.version = "test-version",
	.kernel = "6.12.0-test",
};

static struct capture cap;

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
	test_csv();
	test_per_channel();
	test_json();
	capture_free(&cap);
	return tap_done();
}
