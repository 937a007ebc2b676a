// SPDX-License-Identifier: GPL-2.0-only
/*
 * --help: the manual page, its OPTIONS laid out from opt_table, a group
 * per scope, each option's help line, what it accepts and its default;
 * and --list-modes, the names of the modes for scripts, as JSON.
 */
#include <string.h>

#include "json.h"
#include "migrate.h"
#include "opt_table.h"
#include "sysinfo.h"

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
void opts_usage(const struct bench_opts *o, FILE *f)
{
	fprintf(f,
"NAME\n"
"    " PROG_NAME " - DMA map/unmap latency and dmaengine memcpy benchmark\n"
"\n"
"SYNOPSIS\n"
"    " PROG_NAME " [-m single|sg] [OPTION]...\n"
"    " PROG_NAME " -m dmaengine [OPTION]...\n"
"    " PROG_NAME " -m migrate [OPTION]...\n"
"    " PROG_NAME " --system | --list-modes | --help | --version\n"
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
"    prep mode of --prep-modes (dma_migrate.ko; it needs a kernel with\n"
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
"    phases a move, a batch and a folio, and other, the batch time outside\n"
"    them; with --movers N, GB/s is the N buffers' bytes over the time\n"
"    from the first mover's start to the last one's end, and the offload's\n"
"    figures are STATS' over that time (Documentation/migrate-mode.rst).\n"
"\n"
"    --list-modes: one JSON object, the names scripts/ take from the tool:\n"
"    \"modes\", [{name, kind (map or copy), rows (its report's prep modes,\n"
"    in order)}]; \"prep_modes\", the prep modes in the order of the\n"
"    reports; \"dma_prep_modes\", those a DMA channel runs (not the CPU\n"
"    copy); \"prep_mode_words\", {--prep-modes word: [the prep modes it\n"
"    names]}; \"options\", [{name, short, metavar, modes (those taking\n"
"    it), accepts, default}], every option, null where it has none.\n"
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
"        --prep-modes memcpy,memcpy_sg --src-node 0 --dst-node 1 -r 10\n"
"    # four processes moving 32 MB each at once over the offload's 4\n"
"    # channels, each phase of its batches a move, a batch and a folio:\n"
"    " PROG_NAME " -m migrate --movers 4 --bytes 32M --channels 4 \\\n"
"        --prep-modes memcpy_sg -v\n",
		o->page_size);
}

/* json_prep_modes() - the names of the prep modes @modes[@n] as an array */
static void json_prep_modes(struct json *j, const unsigned int *modes,
			    unsigned int n)
{
	unsigned int i;

	json_array_begin(j);
	for (i = 0; i < n; i++)
		json_string(j, prep_mode_name(modes[i]));
	json_array_end(j);
}

/* the prep modes of DMAENGINE_BENCH_PREP_* @bits in prep_mode_order */
static unsigned int modes_of(unsigned int bits, unsigned int *modes)
{
	unsigned int i, n = 0;

	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++)
		if (bits & (1U << prep_mode_order[i]))
			modes[n++] = prep_mode_order[i];
	return n;
}

/*
 * json_options() - "options": each option as opt_table has it, its names,
 * the modes that take it, what it accepts and its default (null: none)
 */
static void json_options(struct json *j, const struct bench_opts *o)
{
	char accepts[128], short_name[2] = "";
	int id, mode;

	json_key(j, "options");
	json_array_begin(j);
	for (id = 0; id < O_NR; id++) {
		const struct opt_desc *d = &opt_table[id];
		bool value = d->kind != K_FLAG && d->kind != K_ACTION;

		short_name[0] = (char)d->short_opt;
		opt_accepts(o, id, accepts, sizeof(accepts));
		json_object_begin(j);
		json_key_string(j, "name", d->name);
		json_key_string_or_null(j, "short",
					d->short_opt ? short_name : NULL);
		json_key_string_or_null(j, "metavar", d->metavar);
		json_key(j, "modes");
		json_array_begin(j);
		for (mode = MODE_SINGLE; mode <= MODE_MIGRATE; mode++)
			if (d->scope & opt_mode_scope(mode))
				json_string(j, mode_name(mode));
		json_array_end(j);
		json_key_string_or_null(j, "accepts", value ? accepts : NULL);
		json_key_string_or_null(j, "default",
					d->def ? d->def : d->def_help);
		json_object_end(j);
	}
	json_array_end(j);
}

void opts_list_modes(const struct bench_opts *o, FILE *f)
{
	const struct choice *c;
	unsigned int modes[DMAENGINE_BENCH_NR_MODES], n;
	struct json j;
	int mode;

	json_init(&j, f);
	json_object_begin(&j);
	json_key_string(&j, "tool", PROG_NAME);
	json_key_string(&j, "version", tool_version);
	json_key(&j, "modes");
	json_array_begin(&j);
	for (mode = MODE_SINGLE; mode <= MODE_MIGRATE; mode++) {
		enum opt_scope scope = opt_mode_scope(mode);

		json_object_begin(&j);
		json_key_string(&j, "name", mode_name(mode));
		json_key_string(&j, "kind", scope == SC_MAP ? "map" : "copy");
		json_key(&j, "rows");
		if (scope == SC_MIGRATE)
			n = migrate_row_modes(DMAENGINE_BENCH_PREP_ALL, modes);
		else if (scope == SC_DMAENGINE)
			n = modes_of(DMAENGINE_BENCH_PREP_ALL, modes);
		else
			n = 0;
		json_prep_modes(&j, modes, n);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "prep_modes");
	json_prep_modes(&j, prep_mode_order, DMAENGINE_BENCH_NR_MODES);
	json_key(&j, "dma_prep_modes");
	json_prep_modes(&j, modes, modes_of(DMAENGINE_BENCH_PREP_ALL &
					    ~DMAENGINE_BENCH_PREP_CPU, modes));
	json_key(&j, "prep_mode_words");
	json_object_begin(&j);
	for (c = opt_table[O_PREP].choices; c->name; c++) {
		json_key(&j, c->name);
		json_prep_modes(&j, modes, modes_of(c->value, modes));
	}
	json_object_end(&j);
	json_options(&j, o);
	json_object_end(&j);
	fputc('\n', f);
}
