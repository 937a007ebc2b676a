// SPDX-License-Identifier: GPL-2.0-only
/*
 * One table describes every option: its names, what it accepts, its default
 * and its help line. Parsing, the error messages, the defaults and --help
 * are all driven by it, so they cannot disagree.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "options.h"
#include "sysinfo.h"
#include "units.h"

enum opt_kind {
	K_INT,		/* integer in [min, max] */
	K_SIZE,		/* byte count with K/M/G/T suffix, in [min, max] */
	K_ORDER,	/* folio order, 0..order of FOLIO_MAX_BYTES */
	K_FOLIO,	/* folio size, a power-of-two multiple of the page */
	K_CHOICE,	/* one of ->choices */
	K_CHOICES,	/* ->choices separated by commas: their values or'ed */
	K_NAME,		/* a channel or device name */
	K_CPUS,		/* a CPU list: 0, 0-3, 0,2,4 */
	K_FLAG,		/* no argument */
	K_ACTION,	/* no argument, prints and exits */
};

enum opt_scope {
	SC_MAP = 1 << 0,	/* -m single, -m sg */
	SC_DMAENGINE = 1 << 1,	/* -m dmaengine */
	SC_MIGRATE = 1 << 2,	/* -m migrate */
	SC_COPY = SC_DMAENGINE | SC_MIGRATE,	/* both copy modes */
	SC_MAP_DMAENGINE = SC_MAP | SC_DMAENGINE,
	SC_ALL = SC_MAP | SC_COPY,
};

struct choice {
	const char *name;
	int value;
};

struct opt_desc {
	const char *name;
	int short_opt;		/* 0: long form only */
	const char *metavar;	/* NULL: takes no argument */
	enum opt_kind kind;
	long long min, max;	/* K_INT, K_SIZE */
	const struct choice *choices;	/* K_CHOICE(S), NULL-terminated */
	const char *accepts;	/* K_CHOICE(S): what to say it accepts */
	enum opt_scope scope;
	const char *def;	/* default, as typed; NULL: none */
	const char *help;
	const char *def_help;	/* --help's default when ->def is NULL */
	size_t off, width;	/* the bench_opts field set; width 0: none */
	int value;		/* K_FLAG: what the field is set to */
	unsigned int flag;	/* DMAENGINE_BENCH_F_* bit set in ->flags */
	/*
	 * upstream's tool checks the value itself (7.3's -m included), or
	 * passes it to the kernel to check (-n): it exits 1 when the value is
	 * invalid, and so does this tool. Other command-line errors exit 2.
	 */
	bool upstream;
};

static const struct choice mode_choices[] = {
	{ "single", MODE_SINGLE }, { "sg", MODE_SG },
	{ "dmaengine", MODE_DMAENGINE }, { "migrate", MODE_MIGRATE },
	{ "0", MODE_SINGLE }, { "1", MODE_SG },
	{ NULL, 0 }
};

static const struct choice dir_choices[] = {
	{ "0", DMA_MAP_BIDIRECTIONAL }, { "1", DMA_MAP_TO_DEVICE },
	{ "2", DMA_MAP_FROM_DEVICE },
	{ "bidirectional", DMA_MAP_BIDIRECTIONAL },
	{ "to_device", DMA_MAP_TO_DEVICE },
	{ "from_device", DMA_MAP_FROM_DEVICE },
	{ NULL, 0 }
};

static const struct choice prep_choices[] = {
	{ "memcpy", DMAENGINE_BENCH_PREP_MEMCPY },
	{ "memcpy_sg", DMAENGINE_BENCH_PREP_MEMCPY_SG },
	{ "cpu", DMAENGINE_BENCH_PREP_CPU },
	{ "memcpy_vec", DMAENGINE_BENCH_PREP_MEMCPY_VEC },
	{ "both", DMAENGINE_BENCH_PREP_MEMCPY | DMAENGINE_BENCH_PREP_MEMCPY_SG },
	{ "all", DMAENGINE_BENCH_PREP_ALL },
	{ NULL, 0 }
};

static const struct choice buffers_choices[] = {
	{ "distinct", DMAENGINE_BENCH_F_DISTINCT },
	{ "reuse", 0 },
	{ NULL, 0 }
};

#define FIELD(f)	.off = offsetof(struct bench_opts, f), \
			.width = sizeof(((struct bench_opts *)0)->f)
#define INT_OPT(lo, hi, f, sc, d) \
	.kind = K_INT, .min = (lo), .max = (hi), FIELD(f), .scope = (sc), \
	.def = (d)
#define MAP_INT(lo, hi, f, d)	INT_OPT(lo, hi, f, SC_MAP, d)
#define DE_INT(lo, hi, f, d)	INT_OPT(lo, hi, f, SC_DMAENGINE, d)
#define COPY_INT(lo, hi, f, d)	INT_OPT(lo, hi, f, SC_COPY, d)
#define BOOL_OPT(f)	.kind = K_FLAG, FIELD(f), .value = true
#define FLAG_OPT(bit)	.kind = K_FLAG, .flag = (bit)

static const struct opt_desc opt_table[O_NR] = {
	[O_MODE] = { .name = "mode", .short_opt = 'm', .metavar = "MODE",
		.kind = K_CHOICE, .choices = mode_choices, FIELD(mode),
		.accepts = "single, sg, dmaengine, migrate, 0 or 1", .scope = SC_ALL,
		.def = "single",
		.upstream = true,
		.help = "single: dma_map_single() of --granule pages (--entries x --entry-size bytes); sg: dma_map_sg() of --granule one-page entries (--entries of --entry-size); dmaengine: dmaengine_prep_dma_memcpy() per segment vs dmaengine_prep_dma_memcpy_sg() or dmaengine_prep_dma_memcpy_vec() per batch vs a CPU copy; migrate: move_pages() of --bytes of anonymous folios from --src-node to --dst-node, copied by the CPU and by the dmaengine offload of DMA_MIGRATE_OFFLOAD with each prep mode" },
	[O_JSON] = { .name = "json", .kind = K_FLAG, FIELD(format),
		.value = OUT_JSON, .scope = SC_ALL,
		.help = "print one JSON object instead of text" },
	[O_CSV] = { .name = "csv", .kind = K_FLAG, FIELD(format),
		.value = OUT_CSV, .scope = SC_COPY,
		.help = "print CSV: a header row and one row per prep mode (migrate: and the cpu row)" },
	[O_VERBOSE] = { .name = "verbose", .short_opt = 'v', BOOL_OPT(verbose),
		.scope = SC_COPY,
		.help = "add convert_ms (with a memcpy_vec row), prep_stalls, submits, batches, segments and bytes columns to the table, and each channel's limits and capabilities to the '#' lines; migrate: the offload's phase times (batch_ms, map_ms, prep_ms, submit_ms, issue_ms, wait_ms, unmap_ms, summed over batches and channels) and copy_share, batch_ms of the move's time" },
	[O_HELP] = { .name = "help", .short_opt = 'h', .kind = K_ACTION,
		.scope = SC_ALL, .help = "print this help and exit" },
	[O_VERSION] = { .name = "version", .short_opt = 'V', .kind = K_ACTION,
		.scope = SC_ALL, .help = "print the version and exit" },
	[O_SYSTEM] = { .name = "system", .kind = K_ACTION, .scope = SC_ALL,
		.help = "print the machine as one JSON object (kernel, CPU, NUMA nodes, command line, IOMMUs, page size, version) and exit" },

	[O_THREADS] = { .name = "threads", .short_opt = 't', .metavar = "N",
		MAP_INT(1, DMA_MAP_MAX_THREADS, threads, "1"),
		.upstream = true,
		.help = "threads mapping in parallel" },
	[O_SECONDS] = { .name = "seconds", .short_opt = 's', .metavar = "N",
		MAP_INT(1, DMA_MAP_MAX_SECONDS, seconds, "20"),
		.upstream = true,
		.help = "duration of the run; with --iterations, the most the run may take, default then 300" },
	[O_NODE] = { .name = "node", .short_opt = 'n', .metavar = "N",
		MAP_INT(-1, NODE_MAX, node, "-1"),
		.upstream = true,
		.help = "NUMA node to run the threads on; -1: any" },
	[O_DMA_BITS] = { .name = "dma-bits", .short_opt = 'b', .metavar = "N",
		MAP_INT(20, 64, dma_bits, "32"),
		.upstream = true,
		.help = "DMA mask width set on the device for the run" },
	[O_DMA_DIR] = { .name = "dma-dir", .short_opt = 'd', .metavar = "DIR",
		.kind = K_CHOICE, .choices = dir_choices, FIELD(dma_dir),
		.accepts = "0..2 or bidirectional, to_device, from_device",
		.scope = SC_MAP, .def = "0",
		.upstream = true,
		.help = "DMA direction: 0 bidirectional, 1 to_device, 2 from_device" },
	[O_DMA_TRANS_NS] = { .name = "dma-trans-ns", .short_opt = 'x',
		.metavar = "NS",
		MAP_INT(0, DMA_MAP_MAX_TRANS_DELAY, dma_trans_ns, "0"),
		.upstream = true,
		.help = "pretend-transfer delay between map and unmap" },
	[O_GRANULE] = { .name = "granule", .short_opt = 'g', .metavar = "N",
		MAP_INT(1, DMA_MAP_MAX_ENTRIES, granule, "1"),
		.upstream = true,
		.help = "pages per mapping (single) or one-page sg entries (sg); the same setting as --entries" },
	[O_ENTRIES] = { .name = "entries", .metavar = "N",
		MAP_INT(1, DMA_MAP_MAX_ENTRIES, granule, "1"),
		.help = "entries of --entry-size bytes: sg entries (sg) or parts of the one buffer (single); -g by another name, beyond upstream's 1024" },
	[O_ENTRY_SIZE] = { .name = "entry-size", .metavar = "SIZE",
		.kind = K_SIZE, FIELD(entry_size), .min = 1, .max = FOLIO_MAX_BYTES,
		.scope = SC_MAP, .def_help = "the page size",
		.help = "bytes an entry, e.g. 4K, 64K, 1M; the kernel refuses more than its largest contiguous allocation (4MB with 4K pages on x86-64)" },
	[O_ITERATIONS] = { .name = "iterations", .metavar = "N",
		MAP_INT(0, DMA_MAP_MAX_ITERATIONS, iterations, "0"),
		.help = "map/unmap cycles per thread, then stop (--seconds, default then 300, is the most the run may take); 0: run for --seconds" },
	[O_CPUS] = { .name = "cpus", .metavar = "LIST", .kind = K_CPUS,
		FIELD(nr_cpus), .scope = SC_MAP_DMAENGINE,
		.def_help = "not pinned",
		.help = "pin thread i (map modes) or the thread of channel i (dmaengine) to CPU i of LIST, cycling: 0 pins every thread to CPU 0; 0-3 or 0,2,4,6 spread them" },
	[O_DMA_SYNC] = { .name = "sync", BOOL_OPT(sync), .scope = SC_MAP,
		.help = "also time dma_sync_*_for_cpu() and dma_sync_*_for_device(), once each between map and unmap" },
	[O_PERCENTILES] = { .name = "percentiles", BOOL_OPT(percentiles),
		.scope = SC_MAP,
		.help = "use the extended interface, for count, min, max and p50/p90/p99 in ns, even without the options above" },

	[O_CHANNELS] = { .name = "channels", .short_opt = 'c', .metavar = "N",
		COPY_INT(1, DMAENGINE_BENCH_MAX_CHANNELS, channels, "1"),
		.help = "DMA_MEMCPY channels copying in parallel (migrate: the offload's)" },
	[O_CHANNEL] = { .name = "channel", .short_opt = 'C', .metavar = "NAME",
		.kind = K_NAME, FIELD(channel), .scope = SC_COPY,
		.def_help = "any",
		.help = "only the channel of this name, e.g. dma0chan3" },
	[O_DEVICE] = { .name = "device", .short_opt = 'D', .metavar = "NAME",
		.kind = K_NAME, FIELD(device), .scope = SC_COPY,
		.def_help = "any",
		.help = "only channels of this DMA device (dev_name), e.g. soft_dma.0" },
	[O_FOLIO_ORDER] = { .name = "folio-order", .short_opt = 'o',
		.metavar = "N", .kind = K_ORDER, FIELD(folio_order),
		.scope = SC_COPY,
		.def = "0", .help = "folio order: each folio is the page size << N bytes" },
	[O_FOLIO] = { .name = "folio", .short_opt = 'f', .metavar = "SIZE",
		.kind = K_FOLIO, FIELD(folio_order), .scope = SC_COPY,
		.def_help = "the page size",
		.help = "folio size, e.g. 4K, 64K, 2M; the same setting as --folio-order" },
	[O_DST_FOLIO_ORDER] = { .name = "dst-folio-order", .metavar = "N",
		.kind = K_ORDER, FIELD(dst_folio_order),
		.flag = DMAENGINE_BENCH_F_DST_ORDER, .scope = SC_DMAENGINE,
		.def_help = "--folio-order",
		.help = "destination folio order, when it differs from the source's: the source and destination tables then have entries of different sizes; a batch (--sge x --folio) must fill whole destination folios" },
	[O_DST_FOLIO] = { .name = "dst-folio", .metavar = "SIZE",
		.kind = K_FOLIO, FIELD(dst_folio_order),
		.flag = DMAENGINE_BENCH_F_DST_ORDER, .scope = SC_DMAENGINE,
		.def_help = "--folio",
		.help = "destination folio size, e.g. 64K, 2M; the same setting as --dst-folio-order" },
	[O_SGE] = { .name = "sge", .metavar = "N",
		DE_INT(1, DMAENGINE_BENCH_MAX_SGE, sge, "512"),
		.help = "folios (sg entries) in a batch" },
	[O_BYTES_PER_CHANNEL] = { .name = "bytes-per-channel",
		.metavar = "SIZE", .kind = K_SIZE, FIELD(bytes_per_channel),
		.min = 1, .max = BYTES_MAX, .scope = SC_DMAENGINE,
		.def = "512M",
		.help = "bytes each channel copies in a run, rounded up to whole batches" },
	[O_RUNS] = { .name = "runs", .short_opt = 'r', .metavar = "N",
		COPY_INT(1, DMAENGINE_BENCH_MAX_RUNS, runs, "20"),
		.help = "timed runs of each prep mode (migrate: of each row, the cpu row too)" },
	[O_WARMUP_RUNS] = { .name = "warmup-runs", .short_opt = 'w',
		.metavar = "N",
		COPY_INT(0, DMAENGINE_BENCH_MAX_WARMUP, warmup_runs, "1"),
		.help = "untimed runs of each prep mode first (migrate: of each row)" },
	[O_SRC_NODE] = { .name = "src-node", .metavar = "N",
		COPY_INT(-1, NODE_MAX, src_node, "-1"),
		.help = "NUMA node of the source folios; -1: the channel's node (migrate: the first node with memory)" },
	[O_DST_NODE] = { .name = "dst-node", .metavar = "N",
		COPY_INT(-1, NODE_MAX, dst_node, "-1"),
		.help = "NUMA node of the destination folios; -1: the channel's node (migrate: the first node with memory other than --src-node's)" },
	[O_PREP] = { .name = "prep-modes", .short_opt = 'p', .metavar = "PREP",
		.kind = K_CHOICES, .choices = prep_choices, FIELD(prep_modes),
		.accepts = "memcpy, memcpy_sg, memcpy_vec, cpu, both or all, or a comma-separated list of them",
		.scope = SC_COPY,
		.def_help = "the modes this kernel and channel have, of all",
		.help = "memcpy: one dmaengine_prep_dma_memcpy() per segment; memcpy_sg: one dmaengine_prep_dma_memcpy_sg() per batch; memcpy_vec: one dmaengine_prep_dma_memcpy_vec() per batch, over dma_vec arrays built from the mapped tables (their building is part of prep, and -v shows it alone as convert_ms); cpu: the channel's thread copies the same batches with the CPU; both: memcpy and memcpy_sg; all: the four. With several, runs alternate between them in a rotating order. A mode named here that the kernel or a channel lacks is an error; without --prep-modes the missing ones are left out and the '#' lines say why. migrate: the modes of the offload's rows (memcpy, memcpy_sg, memcpy_vec); the cpu row, the offload off, is always there" },
	[O_BUFFERS] = { .name = "buffers", .metavar = "KIND",
		.kind = K_CHOICE, .choices = buffers_choices, FIELD(flags),
		.accepts = "distinct or reuse", .scope = SC_DMAENGINE,
		.def = "distinct",
		.help = "distinct: each batch copies its own folios, mapped before its prep and unmapped after its completion (--bytes-per-channel of each side per channel); reuse: one batch of folios copied again and again, mapped once per run" },
	[O_DEPTH] = { .name = "depth", .metavar = "N",
		DE_INT(1, DMAENGINE_BENCH_MAX_DEPTH, depth, "1"),
		.help = "batches in flight per channel: prepare and submit the next batch while earlier ones run, wait when N are outstanding" },
	[O_VERIFY] = { .name = "verify", FLAG_OPT(DMAENGINE_BENCH_F_VERIFY),
		.scope = SC_DMAENGINE,
		.help = "write a pattern to the source and check the destination" },
	[O_POLL] = { .name = "poll", FLAG_OPT(DMAENGINE_BENCH_F_POLL),
		.scope = SC_DMAENGINE,
		.help = "poll the transfer status instead of waiting for a callback" },
	[O_ALLOW_FEWER] = { .name = "allow-fewer",
		FLAG_OPT(DMAENGINE_BENCH_F_ALLOW_FEWER),
		.scope = SC_COPY,
		.help = "run on the channels found when there are fewer than --channels" },
	[O_TIMEOUT] = { .name = "timeout-ms", .metavar = "MS",
		COPY_INT(0, DMAENGINE_BENCH_MAX_TIMEOUT_MS, timeout_ms, "0"),
		.help = "how long one batch may take (migrate: before its folios fall back to the CPU copy); 0: the kernel's 10 s" },
	[O_PER_CHANNEL] = { .name = "per-channel", BOOL_OPT(per_channel),
		.scope = SC_DMAENGINE,
		.help = "also report each channel, computed from the per-run samples" },
	[O_SAMPLES] = { .name = "samples", BOOL_OPT(samples),
		.scope = SC_DMAENGINE,
		.help = "include every run of every channel in the JSON (needs --json)" },

	[O_BYTES] = { .name = "bytes", .metavar = "SIZE",
		.kind = K_SIZE, FIELD(bytes), .min = 1, .max = BYTES_MAX,
		.scope = SC_MIGRATE, .def = "1G",
		.help = "anonymous memory to move a run, a whole number of --folio folios; at most the source node's free memory" },
	[O_NO_PATTERN_CHECK] = { .name = "no-pattern-check",
		BOOL_OPT(no_pattern_check), .scope = SC_MIGRATE,
		.help = "the offload rows: check that every page moved to its node, not the data: for a provider that completes without copying (soft_dma's nocopy knob), to time the offload path alone; the cpu row's data is checked still" },
};

/* Values of getopt_long() for the options without a short form. */
#define LONG_ONLY_BASE	256

/* choice_name() - the first name of @value in @c, or NULL */
static const char *choice_name(const struct choice *c, unsigned int value)
{
	for (; c->name; c++)
		if ((unsigned int)c->value == value)
			return c->name;
	return NULL;
}

const char *mode_name(enum bench_mode mode)
{
	const char *name = choice_name(mode_choices, mode);

	return name ? name : "?";
}

const char *dir_name(unsigned int dir)
{
	static const char *const names[] = {
		[DMA_MAP_BIDIRECTIONAL] = "BIDIRECTIONAL",
		[DMA_MAP_TO_DEVICE] = "TO_DEVICE",
		[DMA_MAP_FROM_DEVICE] = "FROM_DEVICE",
	};

	return dir < sizeof(names) / sizeof(names[0]) ? names[dir] : NULL;
}

/* Each prep mode's name in the output and the capability beyond DMA_MEMCPY it needs. */
static const struct {
	const char *name;
	const char *cap;
} prep_modes[DMAENGINE_BENCH_NR_MODES] = {
	[DMAENGINE_BENCH_MODE_MEMCPY] = { "prep_memcpy", NULL },
	[DMAENGINE_BENCH_MODE_MEMCPY_SG] = { "prep_memcpy_sg", "DMA_MEMCPY_SG" },
	[DMAENGINE_BENCH_MODE_CPU] = { "cpu", NULL },
	[DMAENGINE_BENCH_MODE_MEMCPY_VEC] = { "prep_memcpy_vec", "DMA_MEMCPY_VEC" },
};

const char *prep_mode_name(unsigned int index)
{
	return index < DMAENGINE_BENCH_NR_MODES ? prep_modes[index].name : NULL;
}

const char *prep_mode_cap(unsigned int index)
{
	return index < DMAENGINE_BENCH_NR_MODES ? prep_modes[index].cap : NULL;
}

const unsigned int prep_mode_order[DMAENGINE_BENCH_NR_MODES] = {
	DMAENGINE_BENCH_MODE_MEMCPY, DMAENGINE_BENCH_MODE_MEMCPY_SG,
	DMAENGINE_BENCH_MODE_MEMCPY_VEC, DMAENGINE_BENCH_MODE_CPU,
};

const char *prep_modes_name(unsigned int prep_modes)
{
	/* the lists, made once each: "memcpy,cpu", "memcpy_sg,memcpy_vec" */
	static char lists[DMAENGINE_BENCH_PREP_ALL + 1][64];
	const char *name = choice_name(prep_choices, prep_modes);
	unsigned int i, bit;
	char *list;

	if (name)
		return name;
	if (!prep_modes || prep_modes & ~DMAENGINE_BENCH_PREP_ALL)
		return "?";
	list = lists[prep_modes];
	if (list[0])
		return list;
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		bit = 1U << prep_mode_order[i];
		if (prep_modes & bit)
			snprintf(list + strlen(list),
				 sizeof(lists[0]) - strlen(list), "%s%s",
				 list[0] ? "," : "",
				 choice_name(prep_choices, bit));
	}
	return list;
}

const char *buffers_name(unsigned int flags)
{
	return flags & DMAENGINE_BENCH_F_DISTINCT ? "distinct" : "reuse";
}

uint64_t folio_bytes(const struct bench_opts *o)
{
	return (uint64_t)o->page_size << o->folio_order;
}

unsigned int dst_folio_order(const struct bench_opts *o)
{
	return o->flags & DMAENGINE_BENCH_F_DST_ORDER ? o->dst_folio_order :
							  o->folio_order;
}

uint64_t dst_folio_bytes(const struct bench_opts *o)
{
	return (uint64_t)o->page_size << dst_folio_order(o);
}

static unsigned int max_order(const struct bench_opts *o)
{
	return ilog2_u64(FOLIO_MAX_BYTES / (uint64_t)o->page_size);
}

/* opt_accepts() - what option @id accepts, for errors and --help */
static void opt_accepts(const struct bench_opts *o, enum opt_id id,
			char *buf, size_t len)
{
	const struct opt_desc *d = &opt_table[id];
	char lo[32], hi[32];

	switch (d->kind) {
	case K_INT:
		snprintf(buf, len, "%lld..%lld", d->min, d->max);
		break;
	case K_SIZE:
		format_size(d->min, lo, sizeof(lo));
		format_size(d->max, hi, sizeof(hi));
		snprintf(buf, len, "%s..%s (suffixes K, M, G, T)", lo, hi);
		break;
	case K_ORDER:
		snprintf(buf, len, "0..%u", max_order(o));
		break;
	case K_FOLIO:
		format_size(o->page_size, lo, sizeof(lo));
		format_size(FOLIO_MAX_BYTES, hi, sizeof(hi));
		snprintf(buf, len,
			 "a power-of-two multiple of the page size, %s..%s",
			 lo, hi);
		break;
	case K_CHOICE:
	case K_CHOICES:
		snprintf(buf, len, "%s", d->accepts);
		break;
	case K_NAME:
		snprintf(buf, len, "1..%d characters",
			 DMAENGINE_BENCH_NAME_LEN - 1);
		break;
	case K_CPUS:
		snprintf(buf, len,
			 "a list of CPUs 0..%d such as 0, 0-3 or 0,2,4 (at most %d)",
			 CPU_MAX, DMA_MAP_MAX_CPUS);
		break;
	default:
		snprintf(buf, len, "given without a value");
		break;
	}
}

static void usage_hint(FILE *err)
{
	fprintf(err, "Try '" PROG_NAME " --help' for more information.\n");
}

/* usage_error() - PROG_NAME ": " and the message, the hint; PARSE_USAGE */
__attribute__((format(printf, 2, 3)))
static enum parse_status usage_error(FILE *err, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG_NAME ": ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	fputc('\n', err);
	usage_hint(err);
	return PARSE_USAGE;
}

static int bad_value(const struct bench_opts *o, enum opt_id id,
		     const char *arg, FILE *err)
{
	char accepts[128];

	if (err) {
		opt_accepts(o, id, accepts, sizeof(accepts));
		fprintf(err, PROG_NAME ": invalid --%s '%s': must be %s\n",
			opt_table[id].name, arg, accepts);
	}
	return -1;
}

/* Case-insensitive, and '-' matches '_': "From-Device" is "from_device". */
static bool choice_matches(const char *name, const char *arg)
{
	for (; *name && *arg; name++, arg++) {
		char a = *arg == '-' ? '_' : tolower((unsigned char)*arg);

		if (a != *name)
			return false;
	}
	return !*name && !*arg;
}

static int parse_choice(const struct choice *c, const char *arg, long long *out)
{
	for (; c->name; c++) {
		if (choice_matches(c->name, arg)) {
			*out = c->value;
			return 0;
		}
	}
	return -1;
}

/* parse_choices() - "a,b": the values of each, or'ed; no empty item */
static int parse_choices(const struct choice *c, const char *arg,
			 long long *out)
{
	char item[64];
	long long v;

	*out = 0;
	do {
		size_t len = strcspn(arg, ",");

		if (!len || len >= sizeof(item))
			return -1;
		memcpy(item, arg, len);
		item[len] = '\0';
		if (parse_choice(c, item, &v))
			return -1;
		*out |= v;
		arg += len;
	} while (*arg++ == ',');
	return 0;
}

/* set_field() - @v into the field of @o that @d names, if any */
static void set_field(struct bench_opts *o, const struct opt_desc *d,
		      long long v)
{
	char *p = (char *)o + d->off;

	if (d->width == sizeof(bool))
		*(bool *)p = v;
	else if (d->width == sizeof(uint32_t))
		*(uint32_t *)p = v;
	else if (d->width == sizeof(uint64_t))
		*(uint64_t *)p = v;
}

/* store() - parse @arg for option @id into @o; -1 after saying why */
static int store(struct bench_opts *o, enum opt_id id, const char *arg,
		 FILE *err)
{
	const struct opt_desc *d = &opt_table[id];
	long long v = 0;	/* what the field is set to */
	uint64_t size;

	switch (d->kind) {
	case K_INT:
		if (parse_int(arg, d->min, d->max, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_SIZE:
		if (parse_size(arg, &size) || size < (uint64_t)d->min ||
		    size > (uint64_t)d->max)
			return bad_value(o, id, arg, err);
		v = size;
		break;
	case K_ORDER:
		if (parse_int(arg, 0, max_order(o), &v))
			return bad_value(o, id, arg, err);
		break;
	case K_FOLIO:
		if (parse_size(arg, &size) || !is_pow2(size) ||
		    size < (uint64_t)o->page_size || size > FOLIO_MAX_BYTES)
			return bad_value(o, id, arg, err);
		v = ilog2_u64(size / (uint64_t)o->page_size);
		break;
	case K_CHOICE:
		if (parse_choice(d->choices, arg, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_CHOICES:
		if (parse_choices(d->choices, arg, &v))
			return bad_value(o, id, arg, err);
		break;
	case K_NAME:
		if (!*arg || strlen(arg) >= DMAENGINE_BENCH_NAME_LEN)
			return bad_value(o, id, arg, err);
		break;
	case K_CPUS:
		v = parse_cpu_list(arg, CPU_MAX, o->cpus, DMA_MAP_MAX_CPUS);
		if (v < 0) {
			o->nr_cpus = 0;
			return bad_value(o, id, arg, err);
		}
		break;
	case K_FLAG:
	case K_ACTION:
		break;
	}

	if (id == O_BUFFERS)	/* the other flags stay */
		v |= o->flags & ~DMAENGINE_BENCH_F_DISTINCT;
	if (d->kind == K_NAME)
		strcpy((char *)o + d->off, arg);
	else
		set_field(o, d, d->kind == K_FLAG ? d->value : v);
	o->flags |= d->flag;
	return 0;
}

void opts_init(struct bench_opts *o, long page_size)
{
	int id;

	memset(o, 0, sizeof(*o));
	o->page_size = page_size;
	o->entry_size = page_size;
	/* no --prep-modes: every mode, those this kernel lacks left out */
	o->prep_modes = DMAENGINE_BENCH_PREP_ALL;
	o->flags = DMAENGINE_BENCH_F_SKIP_MISSING;
	for (id = 0; id < O_NR; id++)
		if (opt_table[id].def)
			store(o, id, opt_table[id].def, NULL);
}

static bool given(const struct bench_opts *o, enum opt_id id)
{
	return o->given & (1ULL << id);
}

bool map_mode_given(const struct bench_opts *o)
{
	return given(o, O_MODE);
}

bool map_use_ext(const struct bench_opts *o)
{
	static const enum opt_id ext_only[] = {
		O_ENTRIES, O_ENTRY_SIZE, O_ITERATIONS, O_CPUS, O_DMA_SYNC,
		O_PERCENTILES,
	};
	size_t i;

	if (o->granule > DMA_MAP_MAX_GRANULE)
		return true;
	for (i = 0; i < sizeof(ext_only) / sizeof(ext_only[0]); i++)
		if (given(o, ext_only[i]))
			return true;
	return false;
}

static enum opt_scope mode_scope(enum bench_mode mode)
{
	switch (mode) {
	case MODE_DMAENGINE:
		return SC_DMAENGINE;
	case MODE_MIGRATE:
		return SC_MIGRATE;
	default:
		return SC_MAP;
	}
}

/* scope_name() - the modes of @scope, for "--opt applies to ... only" */
static const char *scope_name(enum opt_scope scope)
{
	switch (scope) {
	case SC_DMAENGINE:
		return "-m dmaengine";
	case SC_MIGRATE:
		return "-m migrate";
	case SC_COPY:
		return "-m dmaengine and -m migrate";
	case SC_MAP_DMAENGINE:
		return "the map modes and -m dmaengine";
	default:
		return "the map modes (-m single, -m sg)";
	}
}

/*
 * validate_migrate() - -m migrate: whole folios, two distinct nodes, the
 * offload's prep modes (the nodes' existence and memory are checked when
 * the run starts, against the running system)
 */
static enum parse_status validate_migrate(const struct bench_opts *o,
					  FILE *err)
{
	const char *folio_opt = given(o, O_FOLIO) ? "folio" : "folio-order";
	char bytes[32], folio[32];

	format_size(o->bytes, bytes, sizeof(bytes));
	format_size(folio_bytes(o), folio, sizeof(folio));
	if (o->bytes % folio_bytes(o))
		return usage_error(err, "--bytes %s is not a whole number of --%s %s folios: give a multiple of %s",
				   bytes, folio_opt, folio, folio);
	if (o->src_node >= 0 && o->src_node == o->dst_node)
		return usage_error(err, "--dst-node %d is --src-node's: move_pages() must move the folios to another node",
				   o->dst_node);
	return PARSE_RUN;
}

bool prep_modes_given(const struct bench_opts *o)
{
	return given(o, O_PREP);
}

/* validate() - what no single option can check alone */
static enum parse_status validate(const struct bench_opts *o, FILE *err)
{
	static const enum opt_id same[][2] = {	/* two names of one setting */
		{ O_FOLIO_ORDER, O_FOLIO }, { O_DST_FOLIO_ORDER, O_DST_FOLIO },
		{ O_GRANULE, O_ENTRIES },
	};
	enum opt_scope scope = mode_scope(o->mode);
	const char *dst_opt = given(o, O_DST_FOLIO) ? "dst-folio" :
						      "dst-folio-order";
	uint64_t folio = folio_bytes(o), dst_folio = dst_folio_bytes(o);
	uint64_t batch = (uint64_t)o->sge * folio;
	char batch_s[32], src[32], dst[32];
	size_t i;
	int id;

	for (id = 0; id < O_NR; id++)
		if (given(o, id) && !(opt_table[id].scope & scope))
			return usage_error(err, "--%s applies to %s only",
					   opt_table[id].name,
					   scope_name(opt_table[id].scope));
	if (given(o, O_JSON) && given(o, O_CSV))
		return usage_error(err, "--json and --csv exclude each other");
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (given(o, same[i][0]) && given(o, same[i][1]))
			return usage_error(err, "--%s and --%s set the same thing: give one",
					   opt_table[same[i][0]].name,
					   opt_table[same[i][1]].name);
	if (o->samples && o->format != OUT_JSON)
		return usage_error(err, "--samples needs --json");
	if (o->per_channel && o->format == OUT_CSV)
		return usage_error(err, "--per-channel is not available with --csv: use --json");
	if (o->mode == MODE_MIGRATE)
		return validate_migrate(o, err);
	if (o->mode != MODE_DMAENGINE)
		return PARSE_RUN;
	format_size(batch, batch_s, sizeof(batch_s));
	format_size(folio, src, sizeof(src));
	format_size(dst_folio, dst, sizeof(dst));
	/* a batch must be a whole number of destination folios */
	if (batch % dst_folio)
		return usage_error(err, "--%s: a batch of --sge %u x %s folios (%s) is not a whole number of %s destination folios: give --sge a multiple of %llu, a larger --folio or a smaller --%s",
				   dst_opt, o->sge, src, batch_s, dst,
				   (unsigned long long)(dst_folio / folio),
				   dst_opt);
	if (batch / dst_folio > DMAENGINE_BENCH_MAX_SGE)
		return usage_error(err, "--%s: a batch of --sge %u folios would take %llu destination folios of %s, more than %u: lower --sge or give larger destination folios",
				   dst_opt, o->sge,
				   (unsigned long long)(batch / dst_folio),
				   dst, DMAENGINE_BENCH_MAX_SGE);
	return PARSE_RUN;
}

/* Joins two words that must stay on one line of --help. */
#define NBSP	'\x1f'

/* print_wrapped() - @text from column @col, wrapped at 79, indent @indent */
static void print_wrapped(FILE *f, const char *text, int col, int indent)
{
	bool line_start = true;

	while (*text) {
		int len = strcspn(text, " ");

		if (!line_start && col + 1 + len > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			line_start = true;
		}
		if (!line_start) {
			fputc(' ', f);
			col++;
		}
		for (int i = 0; i < len; i++)
			fputc(text[i] == NBSP ? ' ' : text[i], f);
		col += len;
		line_start = false;
		text += len;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

static void usage_options(const struct bench_opts *o, FILE *f,
			  enum opt_scope scope)
{
	const int help_col = 26;
	char accepts[128], text[1024];
	int id, col;

	for (id = 0; id < O_NR; id++) {
		const struct opt_desc *d = &opt_table[id];

		if (d->scope != scope)
			continue;
		if (d->short_opt)
			col = fprintf(f, "    -%c, ", d->short_opt);
		else
			col = fprintf(f, "        ");
		col += fprintf(f, "--%s%s%s", d->name, d->metavar ? " " : "",
			       d->metavar ? d->metavar : "");
		if (col >= help_col) {
			fputc('\n', f);
			col = 0;
		}
		col += fprintf(f, "%*s", help_col - col, "");
		if (d->kind == K_FLAG || d->kind == K_ACTION) {
			snprintf(text, sizeof(text), "%s", d->help);
		} else {
			const char *def = d->def ? d->def : d->def_help;

			opt_accepts(o, id, accepts, sizeof(accepts));
			if (def)
				snprintf(text, sizeof(text), "%s [%s; default%c%s]",
					 d->help, accepts, NBSP, def);
			else
				snprintf(text, sizeof(text), "%s [%s]", d->help,
					 accepts);
		}
		print_wrapped(f, text, col, help_col);
	}
}

/* opts_usage() - the --help text */
static void opts_usage(const struct bench_opts *o, FILE *f)
{
	fprintf(f,
"NAME\n"
"    " PROG_NAME " - DMA map/unmap latency and dmaengine memcpy benchmark\n"
"\n"
"SYNOPSIS\n"
"    " PROG_NAME " [-m single|sg] [OPTION]...\n"
"    " PROG_NAME " -m dmaengine [OPTION]...\n"
"    " PROG_NAME " -m migrate [OPTION]...\n"
"    " PROG_NAME " --system | --help | --version\n"
"\n"
"DESCRIPTION\n"
"    The map modes (single, sg) time dma_map_*()/dma_unmap_*() in kernel\n"
"    threads on the device bound to the dma_map_benchmark module; their\n"
"    options, defaults and output are upstream's tool's (tools/dma/).\n"
"    The options beyond upstream's (--entries, --entry-size, --iterations,\n"
"    --cpus, --sync, --percentiles, -g above 1024) go through the module's\n"
"    extended interface, DMA_MAP_BENCHMARK_EXT; without them the request is\n"
"    upstream's, byte for byte (Documentation/map-modes.rst).\n"
"    The dmaengine mode copies --bytes-per-channel per channel in batches\n"
"    of --sge folios with each prep mode of --prep-modes, and times each\n"
"    phase (Documentation/dmaengine-mode.rst).\n"
"    The migrate mode moves --bytes of anonymous memory in folios of\n"
"    --folio with move_pages() from --src-node to --dst-node and back,\n"
"    copied by the CPU (the cpu row) and by the dmaengine offload with each\n"
"    prep mode of --prep-modes (DMA_MIGRATE_OFFLOAD; it needs a kernel with\n"
"    the project's kernel/patches/v7.3-migrate/), verifying every move\n"
"    (Documentation/migrate-mode.rst). Every value is checked before the\n"
"    kernel is asked.\n"
"\n"
"OPTIONS\n");
	usage_options(o, f, SC_ALL);
	fprintf(f, "\n  Map modes (-m single, -m sg):\n");
	usage_options(o, f, SC_MAP);
	fprintf(f, "\n  Copy modes (-m dmaengine, -m migrate):\n");
	usage_options(o, f, SC_COPY);
	fprintf(f, "\n  Map modes and -m dmaengine:\n");
	usage_options(o, f, SC_MAP_DMAENGINE);
	fprintf(f, "\n  dmaengine mode (-m dmaengine):\n");
	usage_options(o, f, SC_DMAENGINE);
	fprintf(f, "\n  migrate mode (-m migrate):\n");
	usage_options(o, f, SC_MIGRATE);
	fprintf(f,
"\n"
"    Long options take their value as --opt VALUE or --opt=VALUE. Sizes are\n"
"    bytes with an optional K, M, G or T suffix (powers of 1024); the page\n"
"    size here is %ld bytes.\n"
"\n"
"OUTPUT\n"
"    Map modes: upstream's three lines, Linux 6.12's, or with -m 7.3's\n"
"    (Documentation/map-modes.rst); with the extended interface a line per\n"
"    timed operation follows (map, unmap, and with --sync sync_cpu and\n"
"    sync_device):\n"
"      OP count N mean US us sd US min US p50 US p90 US p99 US max US\n"
"    in microseconds to the nanosecond; count is over all threads, sd the\n"
"    standard deviation, p50/p90/p99 percentiles from a log-linear\n"
"    histogram. --json adds results.ops.OP: count, mean_ns, stddev_ns,\n"
"    min_ns, p50_ns, p90_ns, p99_ns and max_ns.\n"
"\n"
"    dmaengine: '#' lines (the kernel, the channels, the parameters, the\n"
"    prep modes left out and why, the CPU frequency state), then a row per\n"
"    prep mode: mean +- standard deviation over the runs of each phase in\n"
"    ms, summed over channels ('-' where the row's mode has no such phase),\n"
"    the prep calls of a run and GB/s (10^9 bytes/s); --csv and --json give\n"
"    the same numbers for scripts (Documentation/dmaengine-mode.rst).\n"
"\n"
"    migrate: '#' lines (the kernel, the nodes, the THP controls set, the\n"
"    folio sizes the kernel gave, the offload's state), then the cpu row and\n"
"    a row per prep mode: GB/s (10^9 bytes/s, --bytes over move_pages()'s\n"
"    time) and move_ms mean +- standard deviation over the runs, the folios\n"
"    moved, offloaded and fallen back to the CPU a run; -v the offload's\n"
"    phases (Documentation/migrate-mode.rst).\n"
"\n"
"EXIT STATUS\n"
"    0 success; 1 the benchmark could not run or failed (open, ioctl), or\n"
"    an invalid value of an option upstream's tool has (-m -t -s -n -b -d\n"
"    -x -g), as upstream's tool exits; 2 any other invalid command line,\n"
"    or a --cpus CPU that is not online.\n"
"\n"
"FILES\n"
"    /sys/kernel/debug/dma_map_benchmark    map modes (a device bound)\n"
"    /sys/kernel/debug/dmaengine_benchmark  dmaengine mode, migrate offload\n"
"    /sys/kernel/mm/transparent_hugepage/   migrate: set for the run, restored\n"
"\n"
"EXAMPLES\n"
"    " PROG_NAME " -t 8 -s 30 -d from_device -g 8 -m sg\n"
"    # the batched cache-sync series' workload (its 64.61%%): dma_map_sg()\n"
"    # of 2560 x 4 KiB entries, 200 iterations, one thread on CPU 0:\n"
"    " PROG_NAME " -m sg --entries 2560 --entry-size 4K --iterations 200 \\\n"
"        --cpus 0 -d to_device\n"
"    " PROG_NAME " -m dmaengine --channels 4 --folio 64K --sge 512 \\\n"
"        --bytes-per-channel 1G\n"
"    " PROG_NAME " -m dmaengine --prep-modes all --depth 4 --cpus 0-3 -c 4 \\\n"
"        --src-node 0 --dst-node 1\n"
"    " PROG_NAME " -m dmaengine --prep-modes memcpy --poll --verify\n"
"    " PROG_NAME " -m dmaengine --prep-modes memcpy_sg,memcpy_vec \\\n"
"        --folio 4K --dst-folio 64K -v\n"
"    " PROG_NAME " -m dmaengine --json --samples > run.json\n"
"    " PROG_NAME " -m dmaengine --device soft_dma.0 --csv > run.csv\n"
"    # the mail's table, one cell: 1 GB of 2 MB folios, node 0 to 1:\n"
"    " PROG_NAME " -m migrate --bytes 1G --folio 2M --channels 4 \\\n"
"        --prep-modes memcpy,memcpy_sg --src-node 0 --dst-node 1 -r 10\n",
		o->page_size);
}

static enum opt_id id_of_val(int val)
{
	int id;

	if (val >= LONG_ONLY_BASE)
		return val - LONG_ONLY_BASE;
	for (id = 0; id < O_NR; id++)
		if (opt_table[id].short_opt == val)
			return id;
	return O_NR;
}

enum parse_status opts_parse(struct bench_opts *o, int argc, char **argv,
			     FILE *out, FILE *err)
{
	struct option longopts[O_NR + 1];
	char shortopts[2 + 2 * O_NR];
	char *s = shortopts;
	int id, c;

	*s++ = ':';	/* report a missing value as ':' */
	for (id = 0; id < O_NR; id++) {
		const struct opt_desc *d = &opt_table[id];

		longopts[id] = (struct option){
			.name = d->name,
			.has_arg = d->metavar ? required_argument : no_argument,
			.val = d->short_opt ? d->short_opt : LONG_ONLY_BASE + id,
		};
		if (d->short_opt) {
			*s++ = d->short_opt;
			if (d->metavar)
				*s++ = ':';
		}
	}
	*s = '\0';
	memset(&longopts[O_NR], 0, sizeof(longopts[O_NR]));

	optind = 0;	/* start over, also when called again (tests) */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' && optopt && optopt < LONG_ONLY_BASE &&
		    id_of_val(optopt) == O_NR)
			return usage_error(err, "unknown option '-%c'", optopt);
		if (c == '?')
			return usage_error(err, "unknown or ambiguous option '%s'",
					   argv[optind - 1]);
		id = id_of_val(c == ':' ? optopt : c);
		if (id >= O_NR)
			return usage_error(err, "unknown option");
		if (c == ':') {
			char accepts[128];

			opt_accepts(o, id, accepts, sizeof(accepts));
			return usage_error(err, "--%s needs a value: %s",
					   opt_table[id].name, accepts);
		}
		if (id == O_HELP) {
			opts_usage(o, out);
			return PARSE_DONE;
		}
		if (id == O_VERSION) {
			fprintf(out, PROG_NAME " %s\n", tool_version);
			return PARSE_DONE;
		}
		if (id == O_SYSTEM) {
			report_system_json(out, "");
			return PARSE_DONE;
		}
		if (store(o, id, optarg, err)) {
			usage_hint(err);
			return opt_table[id].upstream ? PARSE_INVALID : PARSE_USAGE;
		}
		o->given |= 1ULL << id;
		if (id == O_PREP)	/* the modes named must all run */
			o->flags &= ~DMAENGINE_BENCH_F_SKIP_MISSING;
	}
	if (optind < argc)
		return usage_error(err, "unexpected argument '%s'",
				   argv[optind]);
	/* a run of N iterations may take up to the kernel's limit */
	if (o->iterations && !given(o, O_SECONDS))
		o->seconds = DMA_MAP_MAX_SECONDS;
	return validate(o, err);
}
