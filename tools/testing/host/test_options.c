// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command line: defaults, every option's valid values (short, long and
 * --opt=value forms) and invalid values (the message names the option and
 * its range, the status is PARSE_INVALID, exit status 1, for the options
 * upstream's tool checks too, else PARSE_USAGE, exit status 2), modes and
 * directions by name and number, folio/order equivalence (4K and 64K
 * pages), options of the other mode, conflicts, unknown options and
 * missing values, --help and --version, and the ioctl requests
 * built from the options. The extended map options: --entries (and -g
 * above 1024), --entry-size, --iterations (and the --seconds it implies),
 * --cpus, --sync, --percentiles; which of them need DMA_MAP_BENCHMARK_EXT,
 * and struct map_benchmark_ext filled from them. The dmaengine mode's
 * --prep-modes lists (cpu, all; SKIP_MISSING only without --prep-modes), --buffers,
 * --depth and --cpus; version 2 of struct dmaengine_benchmark filled from
 * them, and the version 1 fallback: which options forbid it, the request
 * and the answer turned back into version 2. Prep mode memcpy_vec (in
 * --prep-modes lists, all and the default) and --dst-folio-order/--dst-folio (F_DST_ORDER,
 * batches of whole destination folios, at most 65536 of them).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>

#include "dmaengine.h"
#include "map_modes.h"
#include "options.h"
#include "sysinfo.h"
#include "tap.h"

#define MAX_ARGS	32
#define HINT		"Try 'dma_map_benchmark --help' for more information.\n"

static char out_text[65536], err_text[4096];

/* parse_argv() - opts_parse() of @argv, what it prints in out_text, err_text */
static enum parse_status parse_argv(struct bench_opts *o, long page_size,
				    int argc, char **argv)
{
	struct capture out = { 0 }, err = { 0 };
	enum parse_status st;

	opts_init(o, page_size);
	st = opts_parse(o, argc, argv, capture_begin(&out), capture_begin(&err));
	snprintf(out_text, sizeof(out_text), "%s", capture_end(&out));
	snprintf(err_text, sizeof(err_text), "%s", capture_end(&err));
	capture_free(&out);
	capture_free(&err);
	return st;
}

/* parse_page() - parse the NULL-terminated arguments with @page_size pages */
static enum parse_status parse_page(struct bench_opts *o, long page_size,
				    const char *first, ...)
{
	char *argv[MAX_ARGS + 2] = { "dma_map_benchmark" };
	const char *a = first;
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (; a && argc <= MAX_ARGS; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return parse_argv(o, page_size, argc, argv);
}

/* words_page() - parse the command line @words, split at its spaces */
static enum parse_status words_page(struct bench_opts *o, long page_size,
				    const char *words)
{
	char buf[1024], *argv[MAX_ARGS + 2] = { "dma_map_benchmark" };
	int argc = split_words(buf, sizeof(buf), words, argv, 1,
			       sizeof(argv) / sizeof(argv[0]));

	return parse_argv(o, page_size, argc, argv);
}

/*
 * parse(), parse64k() - parse_page() with 4K and 64K pages; cmdline(),
 * cmdline64k() - words_page() with 4K and 64K pages
 */
#define parse(o, ...)		parse_page(o, 4096, __VA_ARGS__)
#define parse64k(o, ...)	parse_page(o, 65536, __VA_ARGS__)
#define cmdline(o, words)	words_page(o, 4096, words)
#define cmdline64k(o, words)	words_page(o, 65536, words)

/*
 * Upstream's tool exits 1 on a bad value of its own options (the sg
 * series' --mode included, and --node, which its kernel refuses).
 */
static enum parse_status bad_status(const char *name)
{
	static const char *const upstream[] = {
		"mode", "threads", "seconds", "node", "dma-bits", "dma-dir",
		"dma-trans-ns", "granule",
	};
	size_t i;

	for (i = 0; i < sizeof(upstream) / sizeof(upstream[0]); i++)
		if (!strcmp(name, upstream[i]))
			return PARSE_INVALID;
	return PARSE_USAGE;
}

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
#define MEMCPY		DMAENGINE_BENCH_PREP_MEMCPY
#define SG		DMAENGINE_BENCH_PREP_MEMCPY_SG
#define VEC		DMAENGINE_BENCH_PREP_MEMCPY_VEC
#define CPU		DMAENGINE_BENCH_PREP_CPU
#define PREP_BOTH	(MEMCPY | SG)

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
		"--dst-folio-order", "--dst-folio",
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

int main(int argc, char **argv)
{
	size_t i;

	tap_init(argc, argv);
	test_defaults();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_option_values(&cases[i]);
	test_names();
	test_flags();
	test_folio();
	test_dst();
	test_scope();
	test_conflicts();
	test_syntax();
	test_upstream_command_lines();
	test_help_version();
	test_requests();
	test_prep();
	test_cpus();
	test_ext_options();
	test_use_ext();
	test_ext_request();
	return tap_done();
}
