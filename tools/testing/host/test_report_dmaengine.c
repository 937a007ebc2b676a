// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine table from filled-in ioctl structures: the reference
 * header and rows (map_ms, unmap_ms beside the phases; the cpu row with
 * copy_ms and '-' for the DMA phases), the '#' lines (buffers, depth,
 * cpus, cpufreq, modes not run and why), --verbose (prep_stalls, channel
 * capabilities with no_order), column alignment with wide values, folio
 * labels, the memcpy_vec row (after memcpy_sg's, convert_ms with
 * --verbose) and destination folios of another size (--dst-folio-order:
 * '#' line, folio column). CSV and JSON: test_report_dmaengine_json.c.
 */
#include <math.h>
#include <stdint.h>

#include "report_fixture.h"

static const struct report_ctx ctx = {
	.version = "test-version",
	.kernel = "6.12.0-test",
};

static struct capture cap;

static void test_table(void)
{
	REFERENCE(1);

	is_str(CAPTURE(&cap, report_dmaengine_text, &fctx, &r),
	       "# dma_map_benchmark test-version, kernel 6.12.0-test\n"
	       "# channels: dma0chan0 (soft_dma.0, soft_dma)\n"
	       REF_PARAMS
	       "# cpufreq: governor performance (intel_pstate) on 2 CPUs, now 2100 MHz to 3200 MHz, max 3900 MHz; boost on (intel_pstate/no_turbo)\n"
	       "# acquire_ms 0.12\n"
	       "# allocation: the client's tables, dma_vec arrays and cookies before the runs, in no phase; prep_ms holds the provider's own descriptor allocation\n"
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

int main(int argc, char **argv)
{
	tap_init(argc, argv);
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
	capture_free(&cap);
	return tap_done();
}
