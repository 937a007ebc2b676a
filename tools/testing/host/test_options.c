// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command line: defaults, every option's valid values (short, long and
 * --opt=value forms) and invalid values (the message names the option and
 * its range, the status is PARSE_INVALID, exit status 1, for the options
 * upstream's tool checks too, else PARSE_USAGE, exit status 2), modes and
 * directions by name and number, options of the other mode, conflicts,
 * unknown options and missing values, --help, --version and --list-modes
 * (the names scripts/ take from the tool). The map
 * modes' extended options: test_options_map.c; the dmaengine mode's and
 * the requests: test_options_dmaengine.c.
 */
#include "options_fixture.h"

static void test_defaults(void)
{
	struct bench_opts o;

	ok(parse(&o, NULL) == PARSE_RUN && !err_text[0] && !out_text[0],
	   "no arguments: run, nothing printed");
	ok(o.mode == MODE_SINGLE && o.threads == 1 && o.seconds == 20 &&
	   o.node == -1 && o.dma_bits == 32 && o.dma_dir == DMA_MAP_BIDIRECTIONAL &&
	   o.dma_trans_ns == 0 && o.granule == 1 && o.format == OUT_TEXT,
	   "upstream defaults: single, threads 1, seconds 20, node -1, bits 32, dir 0, dma_trans_ns 0, granule 1");
	ok(o.channels == 1 && !o.channel[0] && !o.device[0] &&
	   o.folio_order == 0 && o.sge == 512 && o.bytes_per_channel == 512ULL << 20 &&
	   o.runs == 20 && o.warmup_runs == 1 && o.src_node == -1 &&
	   o.dst_node == -1 && o.prep_modes == DMAENGINE_BENCH_PREP_ALL &&
	   o.flags == (DMAENGINE_BENCH_F_DISTINCT |
		       DMAENGINE_BENCH_F_SKIP_MISSING) &&
	   o.depth == 1 && o.timeout_ms == 0 && !o.per_channel &&
	   !o.samples && !o.verbose,
	   "dmaengine defaults: 1 channel, order 0, sge 512, 512M, 20 runs, 1 warm-up, nodes -1, all prep modes skipping missing ones, distinct buffers, depth 1");
	ok(cmdline(&o, "-m dmaengine") == PARSE_RUN && o.mode == MODE_DMAENGINE && o.sge == 512,
	   "-m dmaengine alone runs with the defaults");
}

#define GETTER(field) \
	static long long get_##field(const struct bench_opts *o) \
	{ return (long long)o->field; }
GETTER(threads) GETTER(seconds) GETTER(node) GETTER(dma_bits) GETTER(dma_dir)
GETTER(dma_trans_ns) GETTER(granule) GETTER(channels) GETTER(sge) GETTER(runs)
GETTER(warmup_runs) GETTER(src_node) GETTER(dst_node) GETTER(timeout_ms)
GETTER(folio_order) GETTER(bytes_per_channel) GETTER(mode) GETTER(prep_modes)
GETTER(entry_size) GETTER(iterations) GETTER(depth) GETTER(dst_folio_order)

static long long get_distinct(const struct bench_opts *o)
{
	return !!(o->flags & DMAENGINE_BENCH_F_DISTINCT);
}

struct value {
	const char *arg;
	long long want;
};

struct opt_case {
	const char *mode;	/* the -m the option needs */
	char short_opt;		/* 0: none */
	const char *name;
	const char *accepts;	/* as the error message says it */
	long long (*get)(const struct bench_opts *o);
	struct value good[16];
	const char *bad[16];
};

/* the prep modes, as --prep-modes names them */

#define GOOD(...)	{ __VA_ARGS__, { NULL, 0 } }
#define BAD(...)	{ __VA_ARGS__, NULL }
#define NOTNUM		"abc", "1x", "", " 1", "+1", "0x10", \
			"99999999999999999999"

static const struct opt_case cases[] = {
	{ "single", 't', "threads", "1..1024", get_threads,
	  GOOD({ "1", 1 }, { "8", 8 }, { "1024", 1024 }),
	  BAD("0", "1025", "-1", NOTNUM) },
	{ "single", 's', "seconds", "1..300", get_seconds,
	  GOOD({ "1", 1 }, { "30", 30 }, { "300", 300 }),
	  BAD("0", "301", "-5", NOTNUM) },
	{ "sg", 'n', "node", "-1..1023", get_node,
	  GOOD({ "-1", -1 }, { "0", 0 }, { "1023", 1023 }),
	  BAD("-2", "1024", NOTNUM) },
	{ "single", 'b', "dma-bits", "20..64", get_dma_bits,
	  GOOD({ "20", 20 }, { "32", 32 }, { "64", 64 }),
	  BAD("19", "65", "0", NOTNUM) },
	{ "sg", 'd', "dma-dir", "0..2 or bidirectional, to_device, from_device",
	  get_dma_dir,
	  GOOD({ "0", 0 }, { "1", 1 }, { "2", 2 }, { "bidirectional", 0 },
	       { "TO_DEVICE", 1 }, { "From_Device", 2 }, { "from-device", 2 }),
	  BAD("3", "-1", "up", "to", "to_device_x", "", "00", "FROM DEVICE") },
	{ "single", 'x', "dma-trans-ns", "0..10000000", get_dma_trans_ns,
	  GOOD({ "0", 0 }, { "1000", 1000 }, { "10000000", 10000000 }),
	  BAD("-1", "10000001", NOTNUM) },
	{ "sg", 'g', "granule", "1..65536", get_granule,
	  GOOD({ "1", 1 }, { "8", 8 }, { "1024", 1024 }, { "1025", 1025 },
	       { "65536", 65536 }),
	  BAD("0", "65537", "-1", NOTNUM) },
	{ "sg", 0, "entries", "1..65536", get_granule,
	  GOOD({ "1", 1 }, { "1024", 1024 }, { "2560", 2560 },
	       { "65536", 65536 }),
	  BAD("0", "65537", "-1", NOTNUM) },
	{ "single", 0, "entry-size", "1B..1GB (suffixes K, M, G, T)",
	  get_entry_size,
	  GOOD({ "1", 1 }, { "512", 512 }, { "4K", 4096 }, { "4096", 4096 },
	       { "4kb", 4096 }, { "64K", 65536 }, { "1M", 1 << 20 },
	       { "3000", 3000 }, { "1G", 1 << 30 }),
	  BAD("0", "1025M", "2G", "4X", "1.5M", "", "-4K", "K", "1p", "4 K",
	      "99999999999999999999T") },
	{ "sg", 0, "iterations", "0..100000000", get_iterations,
	  GOOD({ "0", 0 }, { "200", 200 }, { "100000000", 100000000 }),
	  BAD("-1", "100000001", NOTNUM) },
	{ "single", 'm', "mode", "single, sg, dmaengine, migrate, 0 or 1", get_mode,
	  GOOD({ "single", MODE_SINGLE }, { "sg", MODE_SG },
	       { "dmaengine", MODE_DMAENGINE }, { "0", MODE_SINGLE },
	       { "1", MODE_SG }, { "SG", MODE_SG }, { "DMAengine", MODE_DMAENGINE }),
	  BAD("2", "-1", "dma", "map", "", "singlex") },
	{ "dmaengine", 'c', "channels", "1..256", get_channels,
	  GOOD({ "1", 1 }, { "4", 4 }, { "256", 256 }),
	  BAD("0", "257", NOTNUM) },
	{ "dmaengine", 'o', "folio-order", "0..18", get_folio_order,
	  GOOD({ "0", 0 }, { "4", 4 }, { "9", 9 }, { "18", 18 }),
	  BAD("-1", "19", NOTNUM) },
	{ "dmaengine", 'f', "folio",
	  "a power-of-two multiple of the page size, 4KB..1GB", get_folio_order,
	  GOOD({ "4K", 0 }, { "4096", 0 }, { "8K", 1 }, { "64K", 4 },
	       { "64kb", 4 }, { "2M", 9 }, { "2MiB", 9 }, { "1G", 18 }),
	  BAD("3K", "12K", "96K", "2K", "0", "2G", "4X", "", "-4K", "1.5M",
	      "99999999999999999999T") },
	/* the default batch, 512 x 4KB, fills whole folios up to 2MB */
	{ "dmaengine", 0, "dst-folio-order", "0..18", get_dst_folio_order,
	  GOOD({ "0", 0 }, { "4", 4 }, { "9", 9 }),
	  BAD("-1", "19", NOTNUM) },
	{ "dmaengine", 0, "dst-folio",
	  "a power-of-two multiple of the page size, 4KB..1GB",
	  get_dst_folio_order,
	  GOOD({ "4K", 0 }, { "8K", 1 }, { "64K", 4 }, { "2M", 9 },
	       { "2MiB", 9 }),
	  BAD("3K", "12K", "2K", "0", "2G", "4X", "", "-4K", "1.5M") },
	{ "dmaengine", 0, "sge", "1..65536", get_sge,
	  GOOD({ "1", 1 }, { "512", 512 }, { "65536", 65536 }),
	  BAD("0", "65537", NOTNUM) },
	{ "dmaengine", 0, "bytes-per-channel", "1B..1TB (suffixes K, M, G, T)",
	  get_bytes_per_channel,
	  GOOD({ "1", 1 }, { "4K", 4096 }, { "512M", 512LL << 20 },
	       { "1G", 1LL << 30 }, { "3g", 3LL << 30 }, { "1T", 1LL << 40 }),
	  BAD("0", "1025G", "4X", "1.5M", "", "-1", "K", "4KK",
	      "99999999999999999999T", "16777216T") },
	{ "dmaengine", 'r', "runs", "1..10000", get_runs,
	  GOOD({ "1", 1 }, { "20", 20 }, { "10000", 10000 }),
	  BAD("0", "10001", NOTNUM) },
	{ "dmaengine", 'w', "warmup-runs", "0..100", get_warmup_runs,
	  GOOD({ "0", 0 }, { "1", 1 }, { "100", 100 }),
	  BAD("-1", "101", NOTNUM) },
	{ "dmaengine", 0, "src-node", "-1..1023", get_src_node,
	  GOOD({ "-1", -1 }, { "0", 0 }, { "1023", 1023 }),
	  BAD("-2", "1024", NOTNUM) },
	{ "dmaengine", 0, "dst-node", "-1..1023", get_dst_node,
	  GOOD({ "-1", -1 }, { "1", 1 }, { "1023", 1023 }),
	  BAD("-2", "1024", NOTNUM) },
	{ "dmaengine", 'p', "prep-modes",
	  "memcpy, memcpy_sg, memcpy_vec, cpu, both or all, or a comma-separated list of them",
	  get_prep_modes,
	  GOOD({ "memcpy", MEMCPY }, { "memcpy_sg", SG }, { "MEMCPY-SG", SG },
	       { "memcpy_vec", VEC }, { "memcpy_sg,memcpy_vec", SG | VEC },
	       { "cpu", CPU }, { "both", PREP_BOTH },
	       { "all", DMAENGINE_BENCH_PREP_ALL },
	       { "memcpy,memcpy_sg", MEMCPY | SG }, { "memcpy,cpu", MEMCPY | CPU },
	       { "cpu,memcpy_sg", SG | CPU }, { "both,cpu", PREP_BOTH | CPU },
	       { "both,cpu,memcpy_vec", DMAENGINE_BENCH_PREP_ALL },
	       { "cpu,cpu", CPU }),
	  BAD("sg", "", "3", "gpu", "memcpy,", ",cpu", "memcpy,,cpu",
	      "memcpy;cpu", "memcpy cpu", "all,x", "vec", "memcpy_vector") },
	{ "dmaengine", 0, "buffers", "distinct or reuse", get_distinct,
	  GOOD({ "distinct", 1 }, { "reuse", 0 }, { "REUSE", 0 }),
	  BAD("", "x", "distinct,reuse", "0", "reused") },
	{ "dmaengine", 0, "depth", "1..64", get_depth,
	  GOOD({ "1", 1 }, { "4", 4 }, { "64", 64 }),
	  BAD("0", "65", "-1", NOTNUM) },
	{ "dmaengine", 0, "timeout-ms", "0..600000", get_timeout_ms,
	  GOOD({ "0", 0 }, { "100", 100 }, { "600000", 600000 }),
	  BAD("-1", "600001", NOTNUM) },
};

static void test_option_values(const struct opt_case *c)
{
	char flag[64], short_flag[3] = { '-', c->short_opt, 0 };
	char joined[128], want[512];
	const struct value *v;
	const char *const *b;
	struct bench_opts o;

	snprintf(flag, sizeof(flag), "--%s", c->name);
	for (v = c->good; v->arg; v++) {
		ok(parse(&o, "-m", c->mode, flag, v->arg, NULL) == PARSE_RUN &&
		   c->get(&o) == v->want && !err_text[0],
		   "--%s %s -> %lld", c->name, v->arg, v->want);
		snprintf(joined, sizeof(joined), "--%s=%s", c->name, v->arg);
		ok(parse(&o, "-m", c->mode, joined, NULL) == PARSE_RUN &&
		   c->get(&o) == v->want, "%s", joined);
		if (c->short_opt)
			ok(parse(&o, "-m", c->mode, short_flag, v->arg, NULL) ==
			   PARSE_RUN && c->get(&o) == v->want,
			   "-%c %s -> %lld", c->short_opt, v->arg, v->want);
	}
	for (b = c->bad; *b; b++) {
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: invalid --%s '%s': must be %s\n" HINT,
			 c->name, *b, c->accepts);
		ok(parse(&o, "-m", c->mode, flag, *b, NULL) == bad_status(c->name),
		   "--%s '%s' is %s", c->name, *b,
		   bad_status(c->name) == PARSE_USAGE ? "a usage error" :
		   "invalid, exit 1 as upstream's tool");
		is_str(err_text, want, "--%s '%s': message names the option and what it accepts",
		       c->name, *b);
		if (c->short_opt)
			ok(parse(&o, "-m", c->mode, short_flag, *b, NULL) ==
			   bad_status(c->name) && !strncmp(err_text, want, strlen(want)),
			   "-%c '%s' refused with the --%s message",
			   c->short_opt, *b, c->name);
	}
}

static void test_names(void)
{
	static const char *const names[] = { "channel", "device" };
	char max[DMAENGINE_BENCH_NAME_LEN], toolong[DMAENGINE_BENCH_NAME_LEN + 1];
	struct bench_opts o;
	char flag[32], want[256], *field;
	size_t i;

	memset(max, 'a', sizeof(max) - 1);
	max[sizeof(max) - 1] = 0;
	memset(toolong, 'b', sizeof(toolong) - 1);
	toolong[sizeof(toolong) - 1] = 0;
	for (i = 0; i < 2; i++) {
		field = i ? o.device : o.channel;
		snprintf(flag, sizeof(flag), "--%s", names[i]);
		ok(parse(&o, "-m", "dmaengine", flag, "dma0chan3", NULL) ==
		   PARSE_RUN, "%s dma0chan3", flag);
		is_str(field, "dma0chan3", "%s stored", flag);
		ok(parse(&o, "-m", "dmaengine", flag, max, NULL) == PARSE_RUN &&
		   strlen(field) == 31,
		   "%s of 31 characters fits", flag);
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: invalid --%s '%s': must be 1..31 characters\n" HINT,
			 names[i], toolong);
		ok(parse(&o, "-m", "dmaengine", flag, toolong, NULL) == PARSE_USAGE,
		   "%s of 32 characters refused", flag);
		is_str(err_text, want, "%s too long: message", flag);
		ok(parse(&o, "-m", "dmaengine", flag, "", NULL) == PARSE_USAGE &&
		   strstr(err_text, "invalid --") && strstr(err_text, names[i]),
		   "%s '' refused", flag);
	}
	ok(cmdline(&o, "-m dmaengine -C dma1chan0 -D soft_dma.0") == PARSE_RUN &&
	   !strcmp(o.channel, "dma1chan0") && !strcmp(o.device, "soft_dma.0"),
	   "-C and -D short forms");
}

static void test_flags(void)
{
	struct bench_opts o;

	const unsigned int def = DMAENGINE_BENCH_F_DISTINCT |
				 DMAENGINE_BENCH_F_SKIP_MISSING;

	ok(cmdline(&o, "-m dmaengine --verify") == PARSE_RUN &&
	   o.flags == (def | DMAENGINE_BENCH_F_VERIFY), "--verify adds F_VERIFY only");
	ok(cmdline(&o, "-m dmaengine --poll") == PARSE_RUN &&
	   o.flags == (def | DMAENGINE_BENCH_F_POLL), "--poll adds F_POLL only");
	ok(cmdline(&o, "-m dmaengine --allow-fewer") == PARSE_RUN &&
	   o.flags == (def | DMAENGINE_BENCH_F_ALLOW_FEWER),
	   "--allow-fewer adds F_ALLOW_FEWER only");
	ok(cmdline(&o, "-m dmaengine --verify --poll --allow-fewer --dst-folio-order 0") ==
	   PARSE_RUN && o.flags == DMAENGINE_BENCH_F_ALL,
	   "all flags: the three, --dst-folio-order's, distinct buffers, skip missing");
	ok(cmdline(&o, "-m dmaengine --dst-folio-order 2") == PARSE_RUN &&
	   o.flags == (def | DMAENGINE_BENCH_F_DST_ORDER) && o.dst_folio_order == 2,
	   "--dst-folio-order adds F_DST_ORDER only");
	ok(cmdline(&o, "-m dmaengine --folio-order 3") == PARSE_RUN &&
	   !(o.flags & DMAENGINE_BENCH_F_DST_ORDER) && !o.dst_folio_order,
	   "without --dst-folio-order: no F_DST_ORDER, dst_folio_order 0");
	ok(cmdline(&o, "-m dmaengine --buffers reuse --prep-modes both --verify") == PARSE_RUN &&
	   o.flags == DMAENGINE_BENCH_F_VERIFY,
	   "--buffers reuse and --prep-modes clear F_DISTINCT and F_SKIP_MISSING");
	ok(cmdline(&o, "-m dmaengine --buffers reuse --buffers distinct") == PARSE_RUN &&
	   (o.flags & DMAENGINE_BENCH_F_DISTINCT), "the last --buffers wins");
	ok(cmdline(&o, "-m dmaengine --per-channel") == PARSE_RUN && o.per_channel && !o.samples,
	   "--per-channel");
	ok(cmdline(&o, "-m dmaengine --json --samples") == PARSE_RUN && o.samples &&
	   o.format == OUT_JSON, "--json --samples");
	ok(cmdline(&o, "-m dmaengine --csv") == PARSE_RUN && o.format == OUT_CSV, "--csv");
	ok(cmdline(&o, "-m dmaengine -v") == PARSE_RUN && o.verbose, "-v");
	ok(cmdline(&o, "-m dmaengine --verbose") == PARSE_RUN && o.verbose, "--verbose");
	ok(cmdline(&o, "--json") == PARSE_RUN && o.format == OUT_JSON, "--json in a map mode");
	ok(cmdline(&o, "-m sg --json") == PARSE_RUN && o.format == OUT_JSON && o.mode == MODE_SG,
	   "-m sg --json");
	ok(cmdline(&o, "--verify=1") == PARSE_USAGE, "a flag given a value is refused");
}

static void test_scope(void)
{
	static const char *const map_only[][2] = {
		{ "--threads", "2" }, { "--seconds", "2" }, { "--node", "0" },
		{ "--dma-bits", "40" }, { "--dma-dir", "1" },
		{ "--dma-trans-ns", "5" }, { "--granule", "2" },
		{ "--entries", "2" }, { "--entry-size", "4K" },
		{ "--iterations", "5" }, { "--sync", NULL },
		{ "--percentiles", NULL },
	};
	static const char *const dmaengine_only[][2] = {
		{ "--channels", "2" }, { "--channel", "dma0chan0" },
		{ "--device", "x" }, { "--folio-order", "1" }, { "--folio", "8K" },
		{ "--sge", "4" }, { "--bytes-per-channel", "1M" }, { "--runs", "3" },
		{ "--warmup-runs", "0" }, { "--src-node", "0" }, { "--dst-node", "0" },
		{ "--prep-modes", "memcpy" }, { "--verify", NULL }, { "--poll", NULL },
		{ "--allow-fewer", NULL }, { "--timeout-ms", "5" },
		{ "--per-channel", NULL }, { "--csv", NULL }, { "--verbose", NULL },
		{ "--buffers", "reuse" }, { "--depth", "2" },
		{ "--dst-folio-order", "1" }, { "--dst-folio", "8K" },
	};
	/* of those, the ones the migrate mode shares */
	static const char copy_modes[] = " --channels --channel --device --folio-order --folio --runs --warmup-runs --src-node --dst-node --prep-modes --allow-fewer --timeout-ms --csv --verbose ";
	char line[64], want[256], word[64];
	struct bench_opts o;
	size_t i;

	for (i = 0; i < sizeof(map_only) / sizeof(map_only[0]); i++) {
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: %s applies to the map modes (-m single, -m sg) only\n" HINT,
			 map_only[i][0]);
		ok(parse(&o, "-m", "dmaengine", map_only[i][0], map_only[i][1],
			 NULL) == PARSE_USAGE, "%s refused with -m dmaengine",
		   map_only[i][0]);
		is_str(err_text, want, "%s with -m dmaengine: message",
		       map_only[i][0]);
		snprintf(line, sizeof(line), "%s %s -m dmaengine", map_only[i][0],
			 map_only[i][1] ? map_only[i][1] : "");
		ok(cmdline(&o, line) == PARSE_USAGE && !strcmp(err_text, want),
		   "%s refused also when -m dmaengine comes after it", map_only[i][0]);
	}
	for (i = 0; i < sizeof(dmaengine_only) / sizeof(dmaengine_only[0]); i++) {
		snprintf(word, sizeof(word), " %s ", dmaengine_only[i][0]);
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: %s applies to %s only\n" HINT,
			 dmaengine_only[i][0], strstr(copy_modes, word) ?
			 "-m dmaengine and -m migrate" : "-m dmaengine");
		ok(parse(&o, "-m", i % 2 ? "sg" : "single", dmaengine_only[i][0],
			 dmaengine_only[i][1], NULL) == PARSE_USAGE,
		   "%s refused in a map mode", dmaengine_only[i][0]);
		is_str(err_text, want, "%s in a map mode: message",
		       dmaengine_only[i][0]);
	}
	ok(cmdline(&o, "--samples --json") == PARSE_USAGE &&
	   strstr(err_text, "--samples applies to -m dmaengine only"),
	   "--samples refused in a map mode");
}

static void test_conflicts(void)
{
	struct bench_opts o;

	ok(cmdline(&o, "-m dmaengine --json --csv") == PARSE_USAGE, "--json --csv refused");
	is_str(err_text, "dma_map_benchmark: --json and --csv exclude each other\n" HINT,
	       "--json --csv: message");
	ok(cmdline(&o, "-m dmaengine --samples") == PARSE_USAGE,
	   "--samples without --json refused");
	is_str(err_text, "dma_map_benchmark: --samples needs --json\n" HINT,
	       "--samples without --json: message");
	ok(cmdline(&o, "-m dmaengine --samples --csv") == PARSE_USAGE &&
	   strstr(err_text, "--samples needs --json"), "--samples --csv refused");
	ok(cmdline(&o, "-m dmaengine --per-channel --csv") == PARSE_USAGE,
	   "--per-channel --csv refused");
	is_str(err_text,
	       "dma_map_benchmark: --per-channel is not available with --csv: use --json\n" HINT,
	       "--per-channel --csv: message");
	ok(cmdline(&o, "-m dmaengine --per-channel --json --samples") == PARSE_RUN,
	   "--per-channel --json --samples runs");
	ok(cmdline(&o, "-g 8 --entries 8") == PARSE_USAGE,
	   "-g with --entries refused, even when equal");
	is_str(err_text,
	       "dma_map_benchmark: --granule and --entries set the same thing: give one\n" HINT,
	       "-g with --entries: message");
}

static void test_syntax(void)
{
	struct bench_opts o;

	ok(cmdline(&o, "--frobnicate") == PARSE_USAGE, "unknown long option");
	is_str(err_text,
	       "dma_map_benchmark: unknown or ambiguous option '--frobnicate'\n" HINT,
	       "unknown long option: message");
	ok(cmdline(&o, "-z") == PARSE_USAGE, "unknown short option");
	is_str(err_text, "dma_map_benchmark: unknown option '-z'\n" HINT,
	       "unknown short option: message");
	ok(cmdline(&o, "--s 1") == PARSE_USAGE && strstr(err_text, "ambiguous option '--s'"),
	   "ambiguous abbreviation --s refused");
	ok(cmdline(&o, "--thr 3") == PARSE_RUN && o.threads == 3,
	   "unique abbreviation --thr is --threads");
	ok(cmdline(&o, "-t") == PARSE_USAGE, "-t without a value");
	is_str(err_text, "dma_map_benchmark: --threads needs a value: 1..1024\n" HINT,
	       "-t without a value: message");
	ok(cmdline(&o, "-m dmaengine --sge") == PARSE_USAGE &&
	   strstr(err_text, "--sge needs a value: 1..65536"), "--sge without a value: message");
	ok(cmdline(&o, "-t 2 extra") == PARSE_USAGE, "positional argument");
	is_str(err_text, "dma_map_benchmark: unexpected argument 'extra'\n" HINT,
	       "positional argument: message");
	ok(cmdline(&o, "-t -5") == PARSE_INVALID && strstr(err_text, "invalid --threads '-5'"),
	   "-t -5 takes -5 as the value and refuses it");
	ok(cmdline(&o, "-n -1 -t 2") == PARSE_RUN && o.node == -1 && o.threads == 2,
	   "-n -1 takes -1 as the value");
	ok(cmdline(&o, "-t4") == PARSE_RUN && o.threads == 4, "-t4 (value attached)");
	ok(cmdline(&o, "-t 4 -t 6") == PARSE_RUN && o.threads == 6,
	   "the last of a repeated option wins");
	ok(cmdline(&o, "-t 0") == PARSE_INVALID && !out_text[0],
	   "an error prints nothing on stdout");
}

static void test_upstream_command_lines(void)
{
	struct bench_opts o;

	ok(cmdline(&o, "-t 8 -s 30 -n -1 -b 32 -d 2 -x 0 -g 8 -m 1") == PARSE_RUN &&
	   o.mode == MODE_SG && o.threads == 8 && o.seconds == 30 && o.node == -1 &&
	   o.dma_bits == 32 && o.dma_dir == 2 && o.dma_trans_ns == 0 && o.granule == 8,
	   "the sg series' command line");
	ok(cmdline(&o, "-t 1 -s 1 -g 1024") == PARSE_RUN && o.mode == MODE_SINGLE &&
	   o.granule == 1024, "upstream single-mode command line");
	ok(cmdline(&o, "--threads 16 --seconds 5 --node 0 --dma-bits 64 --dma-dir to_device "
		   "--dma-trans-ns 100 --granule 4 --mode sg") == PARSE_RUN &&
	   o.threads == 16 && o.seconds == 5 && o.node == 0 && o.dma_bits == 64 &&
	   o.dma_dir == 1 && o.dma_trans_ns == 100 && o.granule == 4 && o.mode == MODE_SG,
	   "all long options");
}

static void test_help_version(void)
{
	static const char *const longs[] = {
		"--mode", "--json", "--csv", "--verbose", "--help", "--version",
		"--threads", "--seconds", "--node", "--dma-bits", "--dma-dir",
		"--dma-trans-ns", "--granule", "--channels", "--channel",
		"--device", "--folio-order", "--folio", "--sge", "--bytes-per-channel", "--runs",
		"--warmup-runs", "--src-node", "--dst-node", "--prep-modes", "--verify",
		"--poll", "--allow-fewer", "--timeout-ms", "--per-channel",
		"--samples", "--entries", "--entry-size", "--iterations",
		"--cpus", "--sync", "--percentiles", "--buffers", "--depth",
		"--dst-folio-order", "--dst-folio", "--list-modes", "--dry-run",
		"--bytes", "--no-pattern-check", "--movers",
	};
	static const char *const bits[] = {
		"[1..1024; default 1]", "[1..300; default 20]",
		"[-1..1023;", "default 32]", "default 512]", "default 512M]",
		"[0..18; default 0]", "[0..100; default 1]",
		"[0..18; default --folio-order]", "4KB..1GB; default --folio]",
		"dma_map_benchmark -m dmaengine [OPTION]...",
		"memcpy_vec: one dmaengine_prep_dma_memcpy_vec() per batch",
		"all: the four", "-v shows it alone as convert_ms",
		"--prep-modes memcpy_sg,memcpy_vec \\ --folio 4K --dst-folio 64K -v",
		"default the modes this kernel and channel have, of all]",
		"[distinct or reuse; default distinct]", "[1..64; default 1]",
		"the thread of channel i (dmaengine)",
		"default single]", "EXAMPLES", "EXIT STATUS", "SYNOPSIS",
		"-m dmaengine", "4KB..1GB",
		"beyond upstream's 1024 [1..65536; default 1]",
		"[0..100000000; default 0]", "default the page size]",
		"(at most 1024); default not pinned]", "DMA_MAP_BENCHMARK_EXT",
		"dma_map_benchmark -m sg --entries 2560 --entry-size 4K --iterations 200 \\ --cpus 0 -d to_device",
		"of 2560 x 4 KiB entries, 200 iterations, one thread on CPU 0",
		"results.ops.OP: count, mean_ns, stddev_ns, min_ns, p50_ns, p90_ns, p99_ns and max_ns.",
		"OP count N mean US us sd US min US p50 US p90 US p99 US max US",
	};
	static char flat[sizeof(out_text)];
	char want[128], *d;
	const char *s;
	struct bench_opts o;
	size_t i;
	bool all;

	ok(cmdline(&o, "--help") == PARSE_DONE && !err_text[0], "--help: done, nothing on stderr");
	/* the text wraps: compare with runs of white space made one space */
	for (s = out_text, d = flat; *s; s++)
		if (!isspace((unsigned char)*s) || (d > flat && d[-1] != ' '))
			*d++ = isspace((unsigned char)*s) ? ' ' : *s;
	*d = 0;
	for (i = 0, all = true; i < sizeof(longs) / sizeof(longs[0]); i++)
		if (!strstr(flat, longs[i])) {
			printf("# --help lacks %s\n", longs[i]);
			all = false;
		}
	ok(all, "--help names every long option");
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		has_str(flat, bits[i], "--help shows '%s'", bits[i]);
	ok(cmdline(&o, "-h") == PARSE_DONE && strstr(out_text, "--threads"), "-h is --help");
	ok(cmdline(&o, "-t 0 -h") == PARSE_INVALID, "an invalid value before -h is still an error");

	snprintf(want, sizeof(want), "dma_map_benchmark %s\n", tool_version);
	ok(cmdline(&o, "--version") == PARSE_DONE, "--version: done");
	is_str(out_text, want, "--version prints the name and version");
	ok(tool_version[0] != 0, "the version is not empty");
	ok(cmdline(&o, "-V") == PARSE_DONE && !strcmp(out_text, want), "-V is --version");
}

/* --list-modes: the names scripts/ take from the tool, as JSON */
static void test_list_modes(void)
{
	struct bench_opts o;

	ok(parse(&o, "--list-modes", NULL) == PARSE_DONE && !err_text[0],
	   "--list-modes: printed, exit 0");
	has_str(out_text, "{\"tool\":\"dma_map_benchmark\",\"version\":",
		"--list-modes: one JSON object, the tool and its version first");
	has_str(out_text,
		"\"modes\":[{\"name\":\"single\",\"kind\":\"map\",\"rows\":[]},{\"name\":\"sg\",\"kind\":\"map\",\"rows\":[]},"
		"{\"name\":\"dmaengine\",\"kind\":\"copy\",\"rows\":[\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\",\"cpu\"]},"
		"{\"name\":\"migrate\",\"kind\":\"copy\",\"rows\":[\"cpu\",\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\"]}]",
		"--list-modes: the modes, map or copy, and their reports' rows in order (migrate: the cpu row first)");
	has_str(out_text,
		"\"prep_modes\":[\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\",\"cpu\"],"
		"\"dma_prep_modes\":[\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\"],",
		"--list-modes: the prep modes in prep_mode_order, and those of a DMA channel");
	has_str(out_text,
		"\"prep_mode_words\":{\"memcpy\":[\"prep_memcpy\"],\"memcpy_sg\":[\"prep_memcpy_sg\"],"
		"\"memcpy_vec\":[\"prep_memcpy_vec\"],\"cpu\":[\"cpu\"],\"both\":[\"prep_memcpy\",\"prep_memcpy_sg\"],"
		"\"all\":[\"prep_memcpy\",\"prep_memcpy_sg\",\"prep_memcpy_vec\",\"cpu\"]},\"options\":[",
		"--list-modes: each --prep-modes word and the prep modes it names, then the options");
	has_str(out_text, "\"options\":[{\"name\":\"mode\",\"short\":\"m\",\"metavar\":\"MODE\",\"modes\":[\"single\",\"sg\",\"dmaengine\",\"migrate\"],\"accepts\":\"single, sg, dmaengine, migrate, 0 or 1\",\"default\":\"single\"},",
		"--list-modes: every option, its modes, what it accepts and its default, -m first");
	has_str(out_text, "{\"name\":\"json\",\"short\":null,\"metavar\":null,\"modes\":[\"single\",\"sg\",\"dmaengine\",\"migrate\"],\"accepts\":null,\"default\":null}",
		"--list-modes: a flag: no value, no default");
	ok(strstr(out_text, "}]}\n") && strlen(strstr(out_text, "}]}\n")) == 4,
	   "--list-modes: the options last, the object ending the output");
	has_str(out_text, "{\"name\":\"movers\",\"short\":null,\"metavar\":\"N\",\"modes\":[\"migrate\"],\"accepts\":\"1..64\",\"default\":\"1\"}",
		"--list-modes: --movers, the migrate mode's, 1..64, default 1");
	has_str(out_text, "{\"name\":\"folio\",\"short\":\"f\",\"metavar\":\"SIZE\",\"modes\":[\"dmaengine\",\"migrate\"],\"accepts\":\"a power-of-two multiple of the page size, 4KB..1GB\",\"default\":\"the page size\"}",
		"--list-modes: --folio, the copy modes', its range from the page size");
	ok(cmdline(&o, "-m migrate --list-modes --bytes 1M") == PARSE_DONE,
	   "--list-modes after other options: printed, exit 0");
}

int main(int argc, char **argv)
{
	size_t i;

	tap_init(argc, argv);
	test_defaults();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_option_values(&cases[i]);
	test_names();
	test_flags();
	test_scope();
	test_conflicts();
	test_syntax();
	test_upstream_command_lines();
	test_help_version();
	test_list_modes();
	return tap_done();
}
