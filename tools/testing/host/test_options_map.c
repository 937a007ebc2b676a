// SPDX-License-Identifier: GPL-2.0-only
/*
 * The map modes' extended options: --entries (and -g above 1024),
 * --entry-size, --iterations (and the --seconds it implies), --cpus,
 * --sync, --percentiles; which of them need DMA_MAP_BENCHMARK_EXT, and
 * struct map_benchmark_ext filled from them.
 */
#include "options_fixture.h"

#define CPUS_ACCEPTS \
	"a list of CPUs 0..1023 such as 0, 0-3 or 0,2,4 (at most 1024)"

static void test_cpus(void)
{
	static const char *const bad[] = {
		"", "x", "-1", "1024", "0-1024", "3-1", "0,", ",0", "0,,1",
		"0 1", "0-", "0-1023,5", "1.5", "0x1",
	};
	struct bench_opts o;
	char want[512];
	size_t i;

	ok(parse(&o, NULL) == PARSE_RUN && o.nr_cpus == 0,
	   "no --cpus: no CPU list");
	ok(cmdline(&o, "-m sg --cpus 0") == PARSE_RUN && o.nr_cpus == 1 && o.cpus[0] == 0,
	   "--cpus 0");
	ok(cmdline(&o, "--cpus 0-3") == PARSE_RUN && o.nr_cpus == 4 && o.cpus[0] == 0 &&
	   o.cpus[3] == 3, "--cpus 0-3: four CPUs");
	ok(cmdline(&o, "--cpus=0,2,4") == PARSE_RUN && o.nr_cpus == 3 && o.cpus[0] == 0 &&
	   o.cpus[1] == 2 && o.cpus[2] == 4, "--cpus=0,2,4");
	ok(cmdline(&o, "--cpus 6,1-2") == PARSE_RUN && o.nr_cpus == 3 && o.cpus[0] == 6 &&
	   o.cpus[1] == 1 && o.cpus[2] == 2, "--cpus 6,1-2: in the order given");
	ok(cmdline(&o, "--cpus 0-1023") == PARSE_RUN && o.nr_cpus == 1024 && o.cpus[1023] == 1023,
	   "--cpus 0-1023: 1024 CPUs");
	ok(cmdline(&o, "--cpus 0-3 --cpus 5") == PARSE_RUN && o.nr_cpus == 1 && o.cpus[0] == 5,
	   "the last --cpus wins");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: invalid --cpus '%s': must be " CPUS_ACCEPTS "\n" HINT,
			 bad[i]);
		ok(parse(&o, "-m", "sg", "--cpus", bad[i], NULL) == PARSE_USAGE,
		   "--cpus '%s' is a usage error", bad[i]);
		is_str(err_text, want, "--cpus '%s': message", bad[i]);
	}
	ok(cmdline(&o, "--cpus") == PARSE_USAGE, "--cpus without a value");
	is_str(err_text,
	       "dma_map_benchmark: --cpus needs a value: " CPUS_ACCEPTS "\n" HINT,
	       "--cpus without a value: message");
}

static void test_ext_options(void)
{
	struct bench_opts o;

	ok(parse(&o, NULL) == PARSE_RUN && o.entry_size == 4096 &&
	   o.iterations == 0 && !o.sync && !o.percentiles && o.nr_cpus == 0,
	   "defaults: entry size the page size, no iterations, sync or percentiles");
	ok(parse64k(&o, NULL) == PARSE_RUN && o.entry_size == 65536,
	   "64K pages: the default entry size is 64K");
	ok(cmdline(&o, "--sync") == PARSE_RUN && o.sync && !o.percentiles, "--sync");
	ok(cmdline(&o, "-m sg --percentiles") == PARSE_RUN && o.percentiles && !o.sync,
	   "--percentiles");
	ok(cmdline(&o, "--sync=1") == PARSE_USAGE, "--sync takes no value");

	ok(cmdline(&o, "--iterations 200") == PARSE_RUN && o.iterations == 200 && o.seconds == 300,
	   "--iterations without --seconds: at most 300 s");
	ok(cmdline(&o, "--iterations 200 -s 30") == PARSE_RUN && o.seconds == 30,
	   "--iterations with -s 30: 30 s");
	ok(cmdline(&o, "-s 20 --iterations 200") == PARSE_RUN && o.seconds == 20,
	   "-s 20 before --iterations: 20 s, even the default value");
	ok(cmdline(&o, "--iterations 0") == PARSE_RUN && o.seconds == 20,
	   "--iterations 0 is a timed run: 20 s");

	ok(cmdline(&o, "-g 1025") == PARSE_RUN && o.granule == 1025, "-g 1025 accepted");
	ok(cmdline(&o, "--entries 2560") == PARSE_RUN && o.granule == 2560,
	   "--entries sets the granule");
}

static void test_use_ext(void)
{
	static const char *const ext[] = {
		"--entries 1", "--entries 1024", "--entry-size 4K", "--iterations 0",
		"--iterations 10", "--cpus 0", "--sync", "--percentiles", "-g 1025",
		"-g 65536",
	};
	static const char *const legacy[] = {
		"-g 1", "-g 1024", "-t 8", "-s 30", "-n 0", "-b 64", "-d 1", "-x 100",
		"--json", "-m sg",
	};
	struct bench_opts o;
	char line[64];
	size_t i;

	ok(parse(&o, NULL) == PARSE_RUN && !map_use_ext(&o),
	   "defaults: upstream's DMA_MAP_BENCHMARK");
	for (i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++)
		ok(cmdline(&o, legacy[i]) == PARSE_RUN && !map_use_ext(&o),
		   "%s: DMA_MAP_BENCHMARK", legacy[i]);
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(line, sizeof(line), "-m sg %s", ext[i]);
		ok(cmdline(&o, line) == PARSE_RUN && map_use_ext(&o),
		   "%s: DMA_MAP_BENCHMARK_EXT", ext[i]);
	}
}

static void test_ext_request(void)
{
	struct map_benchmark_ext m;
	struct bench_opts o;
	size_t i;
	bool zero;

	/* the cache-sync reference command line */
	ok(cmdline(&o, "-m sg --entries 2560 --entry-size 4K --iterations 200 --cpus 0 --sync "
		   "-d to_device") == PARSE_RUN, "the reference command line parses");
	memset(&m, 0xaa, sizeof(m));
	map_fill_ext_request(&o, &m);
	ok(m.size == sizeof(m) && m.size == DMA_MAP_BENCH_EXT_SIZE_VER1,
	   "ext request: size is sizeof, 384");
	ok(m.map_mode == DMA_MAP_BENCH_SG_MODE && m.entries == 2560 &&
	   m.entry_size == 4096 && m.iterations == 200 && m.seconds == 300 &&
	   m.flags == DMA_MAP_BENCH_F_SYNC && m.dma_dir == DMA_MAP_TO_DEVICE &&
	   m.threads == 1 && m.node == -1 && m.dma_bits == 32 &&
	   m.dma_trans_ns == 0,
	   "ext request: sg, 2560 x 4096 bytes, 200 iterations within 300 s, F_SYNC, to_device");
	ok(m.nr_cpus == 1 && m.cpus_ptr == (uintptr_t)o.cpus &&
	   ((const uint32_t *)(uintptr_t)m.cpus_ptr)[0] == 0,
	   "ext request: cpus_ptr points at the one CPU, 0");
	for (i = 0, zero = true; i < sizeof(m.op) / sizeof(m.op[0]); i++)
		zero &= !m.op[i].count && !m.op[i].mean_ns && !m.op[i].p99_ns &&
			!m.op[i].max_ns;
	ok(zero && !m.reserved0 && !m.reserved_in[0] && !m.reserved_in[3] &&
	   !m.segments && !m.max_segment && !m.reserved_out[0] &&
	   !m.reserved_out[2],
	   "ext request: reserved fields and results zero");

	cmdline(&o, "-t 16 -s 5 -n 1 -b 48 -d 2 -x 100 -g 4096 --cpus 0-3");
	map_fill_ext_request(&o, &m);
	ok(m.map_mode == DMA_MAP_BENCH_SINGLE_MODE && m.threads == 16 &&
	   m.seconds == 5 && m.node == 1 && m.dma_bits == 48 &&
	   m.dma_dir == DMA_MAP_FROM_DEVICE && m.dma_trans_ns == 100 &&
	   m.entries == 4096 && m.entry_size == 4096 && !m.iterations &&
	   !m.flags && m.nr_cpus == 4,
	   "ext request: every upstream field, -g 4096 as entries, four CPUs");

	cmdline(&o, "--percentiles");
	map_fill_ext_request(&o, &m);
	ok(m.entries == 1 && m.entry_size == 4096 && !m.cpus_ptr &&
	   !m.nr_cpus && !m.flags && !m.iterations && m.seconds == 20,
	   "ext request from --percentiles alone: the defaults, no CPU list");
	cmdline64k(&o, "--percentiles");
	map_fill_ext_request(&o, &m);
	ok(m.entry_size == 65536, "ext request, 64K pages: entry_size 65536");
	cmdline(&o, "--entry-size 1M --entries 65536");
	map_fill_ext_request(&o, &m);
	ok(m.entry_size == 1 << 20 && m.entries == 65536,
	   "ext request: 65536 entries of 1M");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_cpus();
	test_ext_options();
	test_use_ext();
	test_ext_request();
	return tap_done();
}
