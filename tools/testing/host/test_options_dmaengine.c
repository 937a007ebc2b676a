// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copy modes' folios: folio/order equivalence (4K and 64K pages) and
 * --dst-folio-order/--dst-folio (F_DST_ORDER, batches of whole
 * destination folios, at most 65536 of them); the ioctl requests built
 * from the options (the map request, struct dmaengine_benchmark); the
 * dmaengine mode's --prep-modes lists (cpu, memcpy_vec, all and the
 * default; SKIP_MISSING only without --prep-modes), --buffers, --depth
 * and --cpus; --dry-run and the batches it says (dmaengine_batches()).
 */
#include "options_fixture.h"

static void test_folio(void)
{
	static const struct {
		const char *folio, *order;
	} same[] = {
		{ "4K", "0" }, { "8K", "1" }, { "64K", "4" }, { "2M", "9" },
		{ "4M", "10" }, { "1G", "18" },
	};
	struct bench_opts a, b;
	size_t i;

	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		ok(parse(&a, "-m", "dmaengine", "--folio", same[i].folio, NULL) ==
		   PARSE_RUN &&
		   parse(&b, "-m", "dmaengine", "--folio-order", same[i].order, NULL) ==
		   PARSE_RUN && a.folio_order == b.folio_order &&
		   folio_bytes(&a) == folio_bytes(&b),
		   "--folio %s is --folio-order %s", same[i].folio, same[i].order);
	ok(cmdline(&a, "-m dmaengine -f 2M") == PARSE_RUN && folio_bytes(&a) == 2 << 20,
	   "folio_bytes() of -f 2M is 2 MiB");

	/* 64K pages: the same sizes are other orders */
	ok(cmdline64k(&a, "-m dmaengine --folio 64K") == PARSE_RUN && a.folio_order == 0,
	   "64K pages: --folio 64K is order 0");
	ok(cmdline64k(&a, "-m dmaengine --folio 2M") == PARSE_RUN && a.folio_order == 5,
	   "64K pages: --folio 2M is order 5");
	ok(cmdline64k(&a, "-m dmaengine --folio 4K") == PARSE_USAGE,
	   "64K pages: --folio 4K refused (below the page size)");
	is_str(err_text,
	       "dma_map_benchmark: invalid --folio '4K': must be a power-of-two multiple of the page size, 64KB..1GB\n" HINT,
	       "64K pages: the message names the page size");
	ok(cmdline64k(&a, "-m dmaengine --folio-order 14") == PARSE_RUN &&
	   folio_bytes(&a) == 1ULL << 30, "64K pages: order 14 is 1 GiB");
	ok(cmdline64k(&a, "-m dmaengine --folio-order 15") == PARSE_USAGE &&
	   strstr(err_text, "invalid --folio-order '15': must be 0..14\n"),
	   "64K pages: order 15 refused, range 0..14");

	ok(cmdline(&a, "-m dmaengine --folio-order 2 --folio 16K") == PARSE_USAGE,
	   "--folio-order with --folio refused, even when equal");
	is_str(err_text,
	       "dma_map_benchmark: --folio-order and --folio set the same thing: give one\n" HINT,
	       "--folio-order with --folio: message");
}

/* --dst-folio-order, --dst-folio: destination folios of another size */
static void test_dst(void)
{
	struct dmaengine_benchmark b;
	struct bench_opts a, o;

	ok(cmdline(&o, "-m dmaengine --folio-order 3") == PARSE_RUN && dst_folio_order(&o) == 3 &&
	   dst_folio_bytes(&o) == 32768,
	   "no --dst-folio-order: the destination folios are the source's");
	dmaengine_fill_request(&o, &b, NULL, NULL, 0);
	ok(!b.dst_folio_order && !(b.flags & DMAENGINE_BENCH_F_DST_ORDER),
	   "no --dst-folio-order: request dst_folio_order 0, no F_DST_ORDER");
	ok(cmdline(&o, "-m dmaengine --folio 4K --sge 16 --dst-folio-order 4") == PARSE_RUN &&
	   dst_folio_order(&o) == 4 && dst_folio_bytes(&o) == 65536 && o.folio_order == 0,
	   "--dst-folio-order 4 with 4K folios: 64K destination folios");
	dmaengine_fill_request(&o, &b, NULL, NULL, 0);
	ok(b.dst_folio_order == 4 && b.folio_order == 0 &&
	   (b.flags & DMAENGINE_BENCH_F_DST_ORDER),
	   "--dst-folio-order 4: request dst_folio_order 4 with F_DST_ORDER");
	ok(cmdline(&a, "-m dmaengine --sge 16 --dst-folio 64K") == PARSE_RUN &&
	   a.dst_folio_order == o.dst_folio_order && a.flags == o.flags,
	   "--dst-folio 64K is --dst-folio-order 4");
	ok(cmdline(&o, "-m dmaengine --folio-order 9 --sge 16 --dst-folio-order 0") == PARSE_RUN &&
	   dst_folio_order(&o) == 0 && o.folio_order == 9,
	   "smaller destination folios: 16 x 2M into 4K");
	ok(cmdline(&o, "-m dmaengine --folio-order 2 --dst-folio-order 2") == PARSE_RUN &&
	   (o.flags & DMAENGINE_BENCH_F_DST_ORDER),
	   "--dst-folio-order equal to --folio-order is accepted");
	ok(cmdline64k(&o, "-m dmaengine --dst-folio 2M") == PARSE_RUN && o.dst_folio_order == 5,
	   "64K pages: --dst-folio 2M is order 5");
	ok(cmdline64k(&o, "-m dmaengine --dst-folio-order 15") == PARSE_USAGE &&
	   strstr(err_text, "invalid --dst-folio-order '15': must be 0..14\n"),
	   "64K pages: --dst-folio-order 15 refused, range 0..14");

	ok(cmdline(&o, "-m dmaengine --dst-folio-order 4 --dst-folio 64K") == PARSE_USAGE,
	   "--dst-folio-order with --dst-folio refused");
	is_str(err_text,
	       "dma_map_benchmark: --dst-folio-order and --dst-folio set the same thing: give one\n" HINT,
	       "--dst-folio-order with --dst-folio: message");
	ok(cmdline(&o, "-m dmaengine --sge 16 --dst-folio-order 9") == PARSE_USAGE,
	   "a batch of 64K into 2M folios refused");
	is_str(err_text,
	       "dma_map_benchmark: --dst-folio-order: a batch of --sge 16 x 4KB folios (64KB) is not a whole number of 2MB destination folios: give --sge a multiple of 512, a larger --folio or a smaller --dst-folio-order\n" HINT,
	       "a batch of part of a destination folio: message with the --sge to give");
	ok(cmdline(&o, "-m dmaengine --dst-folio 4M") == PARSE_USAGE &&
	   strstr(err_text, "--dst-folio: a batch of --sge 512 x 4KB folios (2MB) is not a whole number of 4MB destination folios: give --sge a multiple of 1024, a larger --folio or a smaller --dst-folio\n"),
	   "--dst-folio 4M with the default batch: refused naming --dst-folio");
	ok(cmdline(&o, "-m dmaengine --sge 1024 --dst-folio 4M") == PARSE_RUN,
	   "--sge 1024 fills 4M destination folios");
	ok(cmdline(&o, "-m dmaengine --folio-order 4 --sge 65536 --dst-folio-order 0") ==
	   PARSE_USAGE, "65536 x 64K into 4K folios: too many destination folios, refused");
	is_str(err_text,
	       "dma_map_benchmark: --dst-folio-order: a batch of --sge 65536 folios would take 1048576 destination folios of 4KB, more than 65536: lower --sge or give larger destination folios\n" HINT,
	       "too many destination folios: message");
	ok(cmdline(&o, "-m dmaengine --folio-order 4 --sge 4096 --dst-folio-order 0") == PARSE_RUN,
	   "4096 x 64K into 65536 4K folios: accepted, the kernel's limit");
}

/* Options given to the mode they do not apply to. */
static void test_requests(void)
{
	struct dmaengine_bench_channel channels[4];
	struct dmaengine_bench_sample samples[8];
	struct dmaengine_benchmark b;
	struct map_benchmark m;
	struct bench_opts o;
	size_t i;
	bool zero;

	cmdline(&o, "-m sg -t 8 -s 30 -n 1 -b 48 -d from_device -x 100 -g 16");
	memset(&m, 0xaa, sizeof(m));
	map_fill_request(&o, &m);
	ok(m.threads == 8 && m.seconds == 30 && m.node == 1 &&
	   m.dma_bits == 48 && m.dma_dir == DMA_MAP_FROM_DEVICE &&
	   m.dma_trans_ns == 100 && m.granule == 16 &&
	   m.map_mode == DMA_MAP_BENCH_SG_MODE, "map request from -m sg options");
	for (i = 0, zero = true; i < sizeof(m.expansion); i++)
		zero &= !m.expansion[i];
	ok(zero && !m.avg_map_100ns && !m.map_stddev, "map request: reserved and outputs zero");
	parse(&o, NULL);
	map_fill_request(&o, &m);
	ok(m.map_mode == DMA_MAP_BENCH_SINGLE_MODE && m.threads == 1 &&
	   m.seconds == 20 && m.node == -1 && m.dma_bits == 32 && m.granule == 1,
	   "map request from the defaults");

	cmdline(&o, "-m dmaengine -c 4 -C dma0chan1 -D soft_dma.0 -f 64K --sge 128 "
		"--bytes-per-channel 1G -r 5 -w 2 --src-node 0 --dst-node 1 -p memcpy_sg "
		"--verify --poll --timeout-ms 500 --depth 4 --cpus 2,3");
	memset(&b, 0xaa, sizeof(b));
	dmaengine_fill_request(&o, &b, channels, samples, 8);
	ok(b.size == sizeof(b) && b.size == DMAENGINE_BENCH_SIZE_VER1,
	   "dmaengine request: size is sizeof, the first version (2176)");
	ok(b.sample_size == sizeof(samples[0]) &&
	   b.sample_size == DMAENGINE_BENCH_SAMPLE_SIZE_VER1,
	   "dmaengine request: sample_size is sizeof(struct dmaengine_bench_sample)");
	ok(b.channels == 4 && !strcmp(b.channel, "dma0chan1") &&
	   !strcmp(b.device, "soft_dma.0") && b.folio_order == 4 &&
	   b.sge == 128 && b.bytes_per_channel == 1ULL << 30 && b.runs == 5 &&
	   b.warmup_runs == 2 && b.src_node == 0 && b.dst_node == 1 &&
	   b.prep_modes == DMAENGINE_BENCH_PREP_MEMCPY_SG &&
	   b.flags == (DMAENGINE_BENCH_F_VERIFY | DMAENGINE_BENCH_F_POLL |
		       DMAENGINE_BENCH_F_DISTINCT) &&
	   b.timeout_ms == 500 && b.depth == 4,
	   "dmaengine request: every input field; --prep-modes given: no SKIP_MISSING");
	ok(b.nr_cpus == 2 && b.cpus_ptr == (uintptr_t)o.cpus &&
	   o.cpus[0] == 2 && o.cpus[1] == 3, "dmaengine request: the CPU list");
	ok(b.channels_ptr == (uintptr_t)channels &&
	   b.samples_ptr == (uintptr_t)samples && b.samples_len == 8,
	   "dmaengine request: array pointers and samples_len");
	ok(!b.reserved_in[0] && !b.reserved_in[3] && !b.dst_folio_order,
	   "dmaengine request: reserved inputs zero");
	for (i = offsetof(struct dmaengine_benchmark, error), zero = true;
	     i < sizeof(b); i++)
		zero &= !((const unsigned char *)&b)[i];
	ok(zero, "dmaengine request: every output zero, from ->error to the end");
	dmaengine_fill_request(&o, &b, channels, NULL, 0);
	ok(!b.samples_ptr && !b.samples_len && b.channels_ptr,
	   "no sample array: samples_ptr and samples_len both 0");

	ok(dmaengine_samples_len(&o) == 5 * 1 * 4,
	   "samples_len: runs x 1 mode x channels");
	cmdline(&o, "-m dmaengine -c 3 -r 7 -p both");
	ok(dmaengine_samples_len(&o) == 7 * 2 * 3,
	   "samples_len: runs x 2 modes x channels");
	cmdline(&o, "-m dmaengine -c 3 -r 7");
	ok(dmaengine_samples_len(&o) == 7 * 4 * 3,
	   "samples_len without --prep-modes: runs x 4 modes x channels");
	cmdline(&o, "-m dmaengine -c 3 -r 7 -p memcpy_sg,memcpy_vec");
	ok(dmaengine_samples_len(&o) == 7 * 2 * 3,
	   "samples_len of --prep-modes memcpy_sg,memcpy_vec: runs x 2 modes x channels");
	cmdline(&o, "-m dmaengine -c 256 -r 10000");
	ok(dmaengine_samples_len(&o) == 10000U * 4 * 256,
	   "samples_len at the maxima does not overflow");

	cmdline(&o, "-m dmaengine");
	dmaengine_fill_request(&o, &b, channels, NULL, 0);
	ok(b.prep_modes == DMAENGINE_BENCH_PREP_ALL &&
	   (b.prep_modes & DMAENGINE_BENCH_PREP_MEMCPY_VEC) &&
	   b.flags == (DMAENGINE_BENCH_F_DISTINCT |
		       DMAENGINE_BENCH_F_SKIP_MISSING) &&
	   b.depth == 1 && !b.cpus_ptr && !b.nr_cpus && !b.dst_folio_order,
	   "dmaengine request from the defaults: all modes (memcpy_vec too), SKIP_MISSING, distinct, depth 1, no CPUs, no dst order");
}

/* --prep-modes: which modes, and whether the missing ones may be left out */
static void test_prep(void)
{
	static const char *const explicit[] = {
		"all", "both", "memcpy", "memcpy_sg", "cpu", "memcpy,cpu",
		"memcpy_vec", "memcpy_sg,memcpy_vec",
	};
	static const struct {
		unsigned int modes;
		const char *name;
	} words[] = {
		{ DMAENGINE_BENCH_PREP_ALL, "all" }, { PREP_BOTH, "both" },
		{ CPU, "cpu" }, { MEMCPY | CPU, "memcpy,cpu" },
		{ SG | CPU, "memcpy_sg,cpu" }, { VEC, "memcpy_vec" },
		{ 0, "?" }, { 16, "?" }, { DMAENGINE_BENCH_PREP_ALL | 16, "?" },
	}, lists[] = {
		{ SG | VEC, "memcpy_sg,memcpy_vec" },
		{ PREP_BOTH | CPU, "memcpy,memcpy_sg,cpu" },
		{ CPU | VEC, "memcpy_vec,cpu" },
		{ MEMCPY | VEC, "memcpy,memcpy_vec" },
		{ SG | VEC, "memcpy_sg,memcpy_vec" },
	};
	struct bench_opts o;
	size_t i;
	bool all;

	ok(cmdline(&o, "-m dmaengine") == PARSE_RUN && o.prep_modes == DMAENGINE_BENCH_PREP_ALL &&
	   (o.flags & DMAENGINE_BENCH_F_SKIP_MISSING),
	   "no --prep-modes: all four modes, the missing ones left out");
	for (i = 0; i < sizeof(explicit) / sizeof(explicit[0]); i++)
		ok(parse(&o, "-m", "dmaengine", "--prep-modes", explicit[i], NULL) ==
		   PARSE_RUN && !(o.flags & DMAENGINE_BENCH_F_SKIP_MISSING),
		   "--prep-modes %s: the modes named must run (no SKIP_MISSING)",
		   explicit[i]);
	ok(cmdline(&o, "-m dmaengine -p x") == PARSE_USAGE,
	   "an invalid --prep-modes is an error, not a default");
	for (i = 0, all = true; i < sizeof(words) / sizeof(words[0]); i++)
		all &= !strcmp(prep_modes_name(words[i].modes), words[i].name);
	ok(all, "prep_modes_name(): each set of modes by --prep-modes's words");
	for (i = 0, all = true; i < sizeof(lists) / sizeof(lists[0]); i++)
		all &= !strcmp(prep_modes_name(lists[i].modes), lists[i].name);
	ok(all, "prep_modes_name(): other lists in report order (DMA forms, then cpu), the same twice");
	ok(!strcmp(prep_mode_name(DMAENGINE_BENCH_MODE_MEMCPY), "prep_memcpy") &&
	   !strcmp(prep_mode_name(DMAENGINE_BENCH_MODE_MEMCPY_SG),
		   "prep_memcpy_sg") &&
	   !strcmp(prep_mode_name(DMAENGINE_BENCH_MODE_CPU), "cpu") &&
	   !strcmp(prep_mode_name(DMAENGINE_BENCH_MODE_MEMCPY_VEC),
		   "prep_memcpy_vec") &&
	   DMAENGINE_BENCH_NR_MODES == 4 &&
	   !prep_mode_name(DMAENGINE_BENCH_NR_MODES),
	   "prep_mode_name(): the row names");
	ok(prep_mode_order[0] == DMAENGINE_BENCH_MODE_MEMCPY &&
	   prep_mode_order[1] == DMAENGINE_BENCH_MODE_MEMCPY_SG &&
	   prep_mode_order[2] == DMAENGINE_BENCH_MODE_MEMCPY_VEC &&
	   prep_mode_order[3] == DMAENGINE_BENCH_MODE_CPU,
	   "prep_mode_order: memcpy, memcpy_sg, memcpy_vec, then cpu");
	ok(!strcmp(buffers_name(DMAENGINE_BENCH_F_DISTINCT), "distinct") &&
	   !strcmp(buffers_name(0), "reuse"), "buffers_name()");
	ok(cmdline(&o, "-m dmaengine --cpus 0-3") == PARSE_RUN && o.nr_cpus == 4 && o.cpus[3] == 3,
	   "--cpus with -m dmaengine: the map modes' parser");
	ok(cmdline(&o, "-m dmaengine --cpus 1024") == PARSE_USAGE &&
	   strstr(err_text, "invalid --cpus '1024'"), "--cpus with -m dmaengine: the same refusal");
}

/* --dry-run: the request as JSON, the batches as the kernel rounds them */
static void test_dry_run(void)
{
	struct capture cap = { 0 };
	struct dmaengine_benchmark b;
	struct bench_opts o;

	ok(cmdline(&o, "-m dmaengine --dry-run") == PARSE_RUN && o.dry_run,
	   "--dry-run: parsed, main() prints instead of running");
	ok(cmdline(&o, "-m migrate --dry-run") == PARSE_USAGE &&
	   strstr(err_text, "--dry-run applies to -m dmaengine only"),
	   "--dry-run: -m dmaengine only");
	cmdline(&o, "-m dmaengine --folio-order 9 --sge 512 --bytes-per-channel 1M -c 2 -p both --dry-run");
	is_str(CAPTURE(&cap, dmaengine_dry_run, &o),
	       "{\"tool\":\"dma_map_benchmark\",\"mode\":\"dmaengine\",\"channels\":2,\"sge\":512,"
	       "\"folio_bytes\":2097152,\"batch_bytes\":1073741824,\"bytes_per_channel\":1048576,"
	       "\"batches_per_channel\":1,\"copied_per_channel\":1073741824,\"runs\":20,"
	       "\"warmup_runs\":1,\"prep_modes\":[\"prep_memcpy\",\"prep_memcpy_sg\"]}\n",
	       "--dry-run: the request, 1M rounded up to one batch of 512 x 2MB");
	cmdline(&o, "-m dmaengine --sge 512 --bytes-per-channel 3M");
	dmaengine_fill_request(&o, &b, NULL, NULL, 0);
	is_int(dmaengine_batches(&b, o.page_size), 2,
	       "dmaengine_batches(): 3M in batches of 2MB is two");
	b.bytes_per_channel = 4ULL << 20;
	is_int(dmaengine_batches(&b, o.page_size), 2,
	       "dmaengine_batches(): 4M is two batches of 2MB, not three");
	b.bytes_per_channel = 0;
	is_int(dmaengine_batches(&b, o.page_size), 1,
	       "dmaengine_batches(): at least one");
	capture_free(&cap);
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_folio();
	test_dst();
	test_requests();
	test_prep();
	test_dry_run();
	return tap_done();
}
