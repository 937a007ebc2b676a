// SPDX-License-Identifier: GPL-2.0-only
/*
 * One table describes every option: its names, what it accepts, its default
 * and its help line. Parsing, the error messages, the defaults and --help
 * are all driven by it, so they cannot disagree: the table and what each
 * option accepts are here, with the names of the values; parsing in
 * options_parse.c, --help in options_help.c.
 */
#include <string.h>

#include "opt_table.h"
#include "units.h"

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
	{ "memcpy_vec", DMAENGINE_BENCH_PREP_MEMCPY_VEC },
	{ "cpu", DMAENGINE_BENCH_PREP_CPU },
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

const struct opt_desc opt_table[O_NR] = {
	[O_MODE] = { .name = "mode", .short_opt = 'm', .metavar = "MODE",
		.kind = K_CHOICE, .choices = mode_choices, FIELD(mode),
		.accepts = "single, sg, dmaengine, migrate, 0 or 1", .scope = SC_ALL,
		.def = "single",
		.upstream = true,
		.help = "single: dma_map_single() of --granule pages (--entries x --entry-size bytes); sg: dma_map_sg() of --granule one-page entries (--entries of --entry-size); dmaengine: dmaengine_prep_dma_memcpy() per segment vs dmaengine_prep_dma_memcpy_sg() or dmaengine_prep_dma_memcpy_vec() per batch vs a CPU copy; migrate: move_pages() of --bytes of anonymous folios from --src-node to --dst-node, copied by the CPU and by the dmaengine offload of dma_migrate.ko with each prep mode" },
	[O_JSON] = { .name = "json", .kind = K_FLAG, FIELD(format),
		.value = OUT_JSON, .scope = SC_ALL,
		.help = "print one JSON object instead of text" },
	[O_CSV] = { .name = "csv", .kind = K_FLAG, FIELD(format),
		.value = OUT_CSV, .scope = SC_COPY,
		.help = "print CSV: a header row and one row per prep mode (migrate: and the cpu row)" },
	[O_VERBOSE] = { .name = "verbose", .short_opt = 'v', BOOL_OPT(verbose),
		.scope = SC_COPY,
		.help = "add convert_ms (with a memcpy_vec row), prep_stalls, submits, batches, segments and bytes columns to the table, and each channel's limits and capabilities to the '#' lines; migrate: the offload's phase times a move (batch_ms, the time in the hook, split into build_ms, map_ms, prep_ms, submit_ms, issue_ms, wait_ms, unmap_ms, mark_ms and other_ms, the rest; summed over batches and channels), copy_share, batch_ms of the move's time, split into client (build, mark, other), dma_api (map, unmap), dmaengine (prep, submit, issue) and engine (wait), and the same phases a batch and a folio in us, in two more tables" },
	[O_HELP] = { .name = "help", .short_opt = 'h', .kind = K_ACTION,
		.scope = SC_ALL, .help = "print this help and exit" },
	[O_VERSION] = { .name = "version", .short_opt = 'V', .kind = K_ACTION,
		.scope = SC_ALL, .help = "print the version and exit" },
	[O_LIST_MODES] = { .name = "list-modes", .kind = K_ACTION,
		.scope = SC_ALL,
		.help = "print the modes, the prep modes and the --prep-modes words as one JSON object and exit: what scripts take their names from" },
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
	[O_DRY_RUN] = { .name = "dry-run", BOOL_OPT(dry_run),
		.scope = SC_DMAENGINE,
		.help = "check the options, print the request as one JSON object (with the batches a channel copies: --bytes-per-channel rounded up to whole batches, at least one) and exit without running" },
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
	[O_MOVERS] = { .name = "movers", .metavar = "N",
		INT_OPT(1, MOVERS_MAX, movers, SC_MIGRATE, "1"),
		.help = "processes moving at once: each maps, fills and moves a buffer of --bytes of its own, all of them started together for every move and each move verified page by page; a row's GB/s is then the movers' bytes over the time from the first start to the last end, its move_ms that time, and the offload's figures (offloaded, fallback, declined, the phases) STATS' over the whole of it; --bytes x N must fit in each node's free memory" },
};

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

unsigned int opt_max_order(const struct bench_opts *o)
{
	return ilog2_u64(FOLIO_MAX_BYTES / (uint64_t)o->page_size);
}

void opt_accepts(const struct bench_opts *o, enum opt_id id, char *buf,
		 size_t len)
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
		snprintf(buf, len, "0..%u", opt_max_order(o));
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
