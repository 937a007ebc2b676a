// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate mode's output: the table for people, CSV and JSON for scripts,
 * in the dmaengine mode's shapes (report_dmaengine.c): '#' lines then a
 * row per prep mode, the cpu row first; JSON's "figures" and "table" say
 * what each figure and column is, so scripts take their lists from them.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "migrate.h"
#include "units.h"

#define PREP_CPU	DMAENGINE_BENCH_PREP_CPU
#define PREP_OFFLOAD	(DMAENGINE_BENCH_PREP_ALL & ~DMAENGINE_BENCH_PREP_CPU)
#define ROW(f)		offsetof(struct migrate_row, f)

/*
 * The tables of the text report: the row's figures a move, then, with
 * --verbose, the offload's phases a batch and a folio
 */
enum migrate_group { MG_MOVE, MG_BATCH, MG_FOLIO, MG_NR };

static const char *const group_names[MG_NR] = {
	[MG_MOVE] = "move", [MG_BATCH] = "batch", [MG_FOLIO] = "folio",
};

static const char *const group_titles[MG_NR] = {
	[MG_BATCH] = "the offload's phases a batch (us): STATS' phase times over its batches",
	[MG_FOLIO] = "the offload's phases a folio (us): STATS' phase times over its folios",
};

/*
 * The figures of a row, each described once: its key in CSV and JSON, its
 * heading in the text table, its unit, the rows that have it (the others:
 * '-' in the table, 0 in CSV and JSON), the accumulator it is read from,
 * whether the table shows it only with --verbose, and its table. All are
 * mean and standard deviation over the runs. The phases' come from
 * MIGRATE_PHASES (migrate.h), at each of its scales.
 */
static const struct migrate_figure {
	const char *key;
	const char *heading;
	const char *unit;
	unsigned int prep_modes;
	size_t off;
	bool verbose;
	enum migrate_group group;
	int phase;	/* MPH_*, -1: not a phase */
} figures[] = {
#define PHASE_FIG(e, name, field, sc, suffix, head, unit) \
	{ #name suffix, #name head, unit, PREP_OFFLOAD, \
	  ROW(phase[sc][MPH_##e]), true, (enum migrate_group)sc, MPH_##e },
#define PHASE_MOVE(e, name, field, owner) \
	PHASE_FIG(e, name, field, MSC_MOVE, "_ms", "_ms", "ms")
#define PHASE_BATCH(e, name, field, owner) \
	PHASE_FIG(e, name, field, MSC_BATCH, "_us_per_batch", "_us", "us")
#define PHASE_FOLIO(e, name, field, owner) \
	PHASE_FIG(e, name, field, MSC_FOLIO, "_us_per_folio", "_us", "us")
	{ "gbps", "GB/s", "GB/s", DMAENGINE_BENCH_PREP_ALL, ROW(gbps), false,
	  MG_MOVE, -1 },
	{ "move_ms", "move_ms", "ms", DMAENGINE_BENCH_PREP_ALL, ROW(move_ms),
	  false, MG_MOVE, -1 },
	{ "folios_offloaded", "offloaded", "count", PREP_OFFLOAD,
	  ROW(offloaded), false, MG_MOVE, -1 },
	{ "folios_fallback", "fallback", "count", PREP_OFFLOAD, ROW(fallback),
	  false, MG_MOVE, -1 },
	{ "folios_declined", "declined", "count", PREP_OFFLOAD, ROW(declined),
	  false, MG_MOVE, -1 },
	{ "batches", "batches", "count", PREP_OFFLOAD, ROW(batches), true,
	  MG_MOVE, -1 },
	{ "batches_declined", "batches_declined", "count", PREP_OFFLOAD,
	  ROW(declined_batches), true, MG_MOVE, -1 },
	{ "errors", "errors", "count", PREP_OFFLOAD, ROW(errors), true,
	  MG_MOVE, -1 },
	MIGRATE_PHASES(PHASE_MOVE)
	{ "copy_share", "copy_share", "ratio", PREP_OFFLOAD, ROW(copy_share),
	  true, MG_MOVE, -1 },
	/* copy_share split by whose time it is (enum migrate_owner) */
	{ "client_share", "client", "ratio", PREP_OFFLOAD,
	  ROW(share[MOW_CLIENT]), true, MG_MOVE, -1 },
	{ "dma_api_share", "dma_api", "ratio", PREP_OFFLOAD,
	  ROW(share[MOW_DMA_API]), true, MG_MOVE, -1 },
	{ "dmaengine_share", "dmaengine", "ratio", PREP_OFFLOAD,
	  ROW(share[MOW_DMAENGINE]), true, MG_MOVE, -1 },
	{ "engine_share", "engine", "ratio", PREP_OFFLOAD,
	  ROW(share[MOW_ENGINE]), true, MG_MOVE, -1 },
	MIGRATE_PHASES(PHASE_BATCH)
	MIGRATE_PHASES(PHASE_FOLIO)
#undef PHASE_FOLIO
#undef PHASE_BATCH
#undef PHASE_MOVE
#undef PHASE_FIG
};

_Static_assert((int)MG_BATCH == MSC_BATCH && (int)MG_FOLIO == MSC_FOLIO,
	       "a phase's table is its scale's");

#define NR_FIGURES	(sizeof(figures) / sizeof(figures[0]))

static const struct stat_acc *fig_acc(const struct migrate_row *row,
				      size_t k)
{
	return (const struct stat_acc *)((const char *)row + figures[k].off);
}

/* a figure of the row's mode */
static bool row_has(const struct migrate_row *row, size_t k)
{
	return figures[k].prep_modes & (1U << row->prep_mode);
}

/* a figure of the row's mode the kernel did not fill: null, empty, '-' */
static bool row_unfilled(const struct migrate_row *row, size_t k)
{
	return row_has(row, k) && figures[k].phase >= 0 &&
	       !row->phase_known[figures[k].phase];
}

/* the rows' prep modes, DMAENGINE_BENCH_PREP_* bits */
static unsigned int modes_run(const struct migrate_result *r)
{
	unsigned int i, modes = 0;

	for (i = 0; i < r->nrows; i++)
		modes |= 1U << r->rows[i].prep_mode;
	return modes;
}

static const char *offload_state_name(enum migrate_offload_state s)
{
	static const char *const names[] = {
		[OFFLOAD_READY] = "ready", [OFFLOAD_NO_FILE] = "no_file",
		[OFFLOAD_NO_IOCTL] = "no_ioctl", [OFFLOAD_NO_HOOK] = "no_hook",
		[OFFLOAD_NOT_ASKED] = "not_asked",
	};

	return names[s];
}

static const char *hook_name(unsigned int hook)
{
	return hook == DMA_MIGRATE_HOOK_PROJECT ? "project" :
	       hook == DMA_MIGRATE_HOOK_RFC ? "rfc" :
	       hook == DMA_MIGRATE_HOOK_NONE ? "none" : "unknown";
}

static const char *missing_reason(unsigned int error)
{
	return error == DMAENGINE_BENCH_ERR_NO_CAP ?
	       "the channel lacks its capability" :
	       "this kernel lacks its prep call";
}

/* "512 x 2MB, 3 x 64KB, 12 x 4KB": the census, largest first */
static void census_text(const struct migrate_result *r, long page_size,
			char *buf, size_t len)
{
	char size[32];
	int o;

	buf[0] = '\0';
	for (o = CENSUS_ORDERS - 1; o >= 0; o--) {
		if (!r->census.count[o])
			continue;
		format_size((uint64_t)page_size << o, size, sizeof(size));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%zu x %s",
			 buf[0] ? ", " : "", r->census.count[o], size);
	}
}

/* the '#' lines on the folios: what the kernel gave, and any fallback */
static void print_folio_lines(FILE *f, const struct migrate_result *r,
			      long page_size)
{
	char asked[32], got[512];

	format_size(migrate_folio_bytes(r, page_size), asked, sizeof(asked));
	if (r->census.known) {
		census_text(r, page_size, got, sizeof(got));
		fprintf(f, "# folios: %s (/proc/self/pagemap, /proc/kpageflags)",
			got);
	} else {
		fprintf(f, "# folios: sizes unknown: /proc/self/pagemap shows no PFNs (run as root to count them)");
	}
	if (r->smaps.found)
		fprintf(f, "; smaps AnonHugePages %llu kB of Rss %llu kB",
			(unsigned long long)r->smaps.anon_huge_kb,
			(unsigned long long)r->smaps.rss_kb);
	if (r->fault_stats)
		fprintf(f, "; %s anon_fault_alloc %llu, anon_fault_fallback %llu",
			asked, (unsigned long long)r->fault_alloc,
			(unsigned long long)r->fault_fallback);
	fputc('\n', f);
	if (r->census.known && r->folios_end &&
	    r->folios_end != r->census.folios)
		fprintf(f, "# WARNING: the kernel split folios while migrating them: %zu folios at the start, %zu at the last move; each row counts its own\n",
			r->census.folios, r->folios_end);
	if (migrate_fell_back(r, page_size))
		fprintf(f, "# WARNING: the kernel fell back to smaller folios than the %s asked for: the rows move those%s\n",
			asked, r->folio_order && !r->have_size_control ?
			" (this kernel has no THP control of that size)" :
			" (memory too fragmented? khugepaged? see the THP controls)");
}

static void print_head_lines(FILE *f, const struct report_ctx *ctx,
			     const struct bench_opts *o,
			     const struct migrate_result *r)
{
	char bytes[32], bytes_all[32], folio[32];
	const char *line = migrate_offload_line(r);
	unsigned int i, mode;

	format_size(r->bytes, bytes, sizeof(bytes));
	format_size(r->bytes * (r->movers ? r->movers : 1), bytes_all,
		    sizeof(bytes_all));
	format_size(migrate_folio_bytes(r, o->page_size), folio, sizeof(folio));
	fprintf(f, "# " PROG_NAME " %s, kernel %s\n", ctx->version,
		ctx->kernel);
	fprintf(f, "# migrate: %s in %s folios (order %u), move_pages() node %d -> node %d and back; %u runs after %u warm-up; offload prep %s, %u channel%s, timeout %u ms, reasons syscall\n",
		bytes, folio, r->folio_order, r->src_node, r->dst_node, r->runs,
		r->warmup_runs, r->prep_modes ? prep_modes_name(r->prep_modes) :
		"none", r->channels, r->channels == 1 ? "" : "s",
		r->timeout_ms ? r->timeout_ms : DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS);
	fprintf(f, "# thp: %s%s%s\n", r->thp_set[0] ? "set " : "",
		r->thp_set[0] ? r->thp_set : r->folio_order ?
		"nothing to change" : r->no_madvise ?
		"PR_SET_THP_DISABLE, nothing to change" :
		"MADV_NOHUGEPAGE, nothing to change",
		r->no_madvise ? " (this kernel has no madvise())" : "");
	if (r->movers > 1)
		fprintf(f, "# movers: %u processes at once, each moving %s of its own, started together every move: GB/s their %s over the time from the first start to the last end, move_ms that time, the offload's figures STATS' over it\n",
			r->movers, bytes, bytes_all);
	print_folio_lines(f, r, o->page_size);
	if (o->no_pattern_check)
		fprintf(f, "# --no-pattern-check: the offload rows' data is not checked, only every page's node\n");
	if (line)
		fprintf(f, "# %s\n", line);
	else if (r->offload == OFFLOAD_READY)
		fprintf(f, "# offload: hook %s\n", hook_name(r->hook));
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (r->missing & (1U << mode))
			fprintf(f, "# not run: %s: %s\n", prep_mode_name(mode),
				missing_reason(r->missing_error[mode]));
	}
	report_cpufreq_line(f, ctx->cpufreq);
}

/* cell() - a figure: "1.23 ± 0.04"; counts with no spread as integers */
static void cell(char *buf, const struct migrate_row *row, size_t k)
{
	const struct stat_acc *a = fig_acc(row, k);

	if (!row_has(row, k) || row_unfilled(row, k))
		snprintf(buf, CELL_LEN, "-");
	else if (!strcmp(figures[k].unit, "count") && !stat_stddev(a))
		snprintf(buf, CELL_LEN, "%.0f", stat_mean(a));
	else if (!strcmp(figures[k].unit, "ratio"))
		snprintf(buf, CELL_LEN, "%.1f%% \u00b1 %.1f", 100 * stat_mean(a),
			 100 * stat_stddev(a));
	else
		snprintf(buf, CELL_LEN, "%.2f \u00b1 %.2f", stat_mean(a),
			 stat_stddev(a));
}

/* the text table's columns before the figures, and their JSON keys */
enum { MC_MODE, MC_CHAN, MC_FOLIO, MC_FOLIOS, MC_FIGS };
static const struct {
	const char *key, *heading;
	int width;
} lead_columns[MC_FIGS] = {
	[MC_MODE] = { "prep_mode", "mode", 14 },
	[MC_CHAN] = { "chan", "chan", 4 },
	[MC_FOLIO] = { "folio_bytes", "folio", 5 },
	[MC_FOLIOS] = { "folios", "folios", 6 },
};
/* the reference width of a figure's column (wider cells widen it) */
#define FIG_WIDTH	11

/* row_in_group() - whether @row has a figure of @group's table */
static bool row_in_group(const struct migrate_row *row,
			 enum migrate_group group)
{
	size_t k;

	for (k = 0; k < NR_FIGURES; k++)
		if (figures[k].group == group && row_has(row, k))
			return true;
	return false;
}

/*
 * print_table() - @group's table: the lead columns and the figures of the
 * group shown (the verbose ones with -v, the offload's with an offload
 * row); the move's table has every row, the others those with a figure
 * of theirs, under their title, and none without
 */
static void print_table(FILE *f, const struct bench_opts *o,
			const struct migrate_result *r,
			enum migrate_group group)
{
	const int ncols = MC_FIGS + NR_FIGURES;
	int width[MC_FIGS + NR_FIGURES];
	int shown[MC_FIGS + NR_FIGURES], nshown = 0, c;
	char (*cells)[MC_FIGS + NR_FIGURES][CELL_LEN];
	bool offload_rows = modes_run(r) & PREP_OFFLOAD;
	unsigned int i, nlines = 1;
	size_t k;

	cells = calloc(r->nrows + 1, sizeof(*cells));
	if (!cells)
		return;
	for (c = 0; c < ncols; c++) {
		k = c - MC_FIGS;
		snprintf(cells[0][c], CELL_LEN, "%s", c < MC_FIGS ?
			 lead_columns[c].heading : figures[k].heading);
		width[c] = c < MC_FIGS ? lead_columns[c].width : FIG_WIDTH;
		/* the offload's columns only with an offload row */
		if (c < MC_FIGS || (figures[k].group == group &&
				    (!figures[k].verbose || o->verbose) &&
				    (offload_rows ||
				     figures[k].prep_modes & PREP_CPU)))
			shown[nshown++] = c;
	}
	for (i = 0; i < r->nrows; i++) {
		const struct migrate_row *row = &r->rows[i];
		char (*line)[CELL_LEN] = cells[nlines];

		if (group != MG_MOVE && !row_in_group(row, group))
			continue;
		nlines++;
		snprintf(line[MC_MODE], CELL_LEN, "%s",
			 prep_mode_name(row->prep_mode));
		if (row->prep_mode == DMAENGINE_BENCH_MODE_CPU)
			snprintf(line[MC_CHAN], CELL_LEN, "-");
		else
			snprintf(line[MC_CHAN], CELL_LEN, "%u",
				 row->channels_used);
		format_size(migrate_folio_bytes(r, o->page_size),
			    line[MC_FOLIO], CELL_LEN);
		snprintf(line[MC_FOLIOS], CELL_LEN, "%llu",
			 (unsigned long long)row->folios);
		for (k = 0; k < NR_FIGURES; k++)
			cell(line[MC_FIGS + k], row, k);
	}
	if (group == MG_MOVE || (nshown > MC_FIGS && nlines > 1)) {
		if (group_titles[group])
			fprintf(f, "# %s\n", group_titles[group]);
		report_print_cells(f, &cells[0][0][0], nlines, ncols, shown,
				   nshown, width);
	}
	free(cells);
}

static void report_migrate_text(FILE *f, const struct report_ctx *ctx,
				const struct bench_opts *o,
				const struct migrate_result *r)
{
	enum migrate_group g;

	print_head_lines(f, ctx, o, r);
	for (g = MG_MOVE; g < MG_NR; g++)
		print_table(f, o, r, g);
}

static void report_migrate_csv(FILE *f, const struct report_ctx *ctx,
			       const struct bench_opts *o,
			       const struct migrate_result *r)
{
	unsigned int i;
	size_t k;

	fputs("mode,chan,folio_order,folio_bytes,bytes,src_node,dst_node,runs,folios", f);
	for (k = 0; k < NR_FIGURES; k++)
		fprintf(f, ",%s_mean,%s_stddev", figures[k].key,
			figures[k].key);
	fputs(",cpufreq_governor,cpu_cur_khz_min,cpu_cur_khz_max,cpu_max_khz,boost,offload,movers\n",
	      f);
	for (i = 0; i < r->nrows; i++) {
		const struct migrate_row *row = &r->rows[i];

		fprintf(f, "%s,%u,%u,%llu,%llu,%d,%d,%u,%llu",
			prep_mode_name(row->prep_mode), row->channels_used,
			r->folio_order,
			(unsigned long long)migrate_folio_bytes(r, o->page_size),
			(unsigned long long)r->bytes, r->src_node, r->dst_node,
			(unsigned int)row->move_ms.n,
			(unsigned long long)row->folios);
		for (k = 0; k < NR_FIGURES; k++) {
			const struct stat_acc *a = fig_acc(row, k);
			bool has = row_has(row, k);

			if (row_unfilled(row, k))
				fputs(",,", f);
			else
				fprintf(f, ",%.6f,%.6f", has ? stat_mean(a) : 0,
					has ? stat_stddev(a) : 0);
		}
		report_csv_cpufreq(f, ctx->cpufreq);
		fprintf(f, ",%s,%u\n", offload_state_name(r->offload),
			r->movers);
	}
}

static void json_params(struct json *j, const struct bench_opts *o,
			const struct migrate_result *r)
{
	json_key(j, "params");
	json_object_begin(j);
	json_key_uint(j, "bytes", r->bytes);
	json_key_uint(j, "folio_order", r->folio_order);
	json_key_uint(j, "folio_bytes", migrate_folio_bytes(r, o->page_size));
	json_key_uint(j, "page_size", o->page_size);
	json_key_int(j, "src_node", r->src_node);
	json_key_int(j, "dst_node", r->dst_node);
	json_key_uint(j, "runs", r->runs);
	json_key_uint(j, "warmup_runs", r->warmup_runs);
	json_key_string(j, "prep_modes", r->prep_modes ?
			prep_modes_name(r->prep_modes) : "none");
	json_key_uint(j, "channels", r->channels);
	json_key_string(j, "channel", o->channel);
	json_key_string(j, "device", o->device);
	json_key_uint(j, "timeout_ms", r->timeout_ms);
	json_key_bool(j, "allow_fewer",
		      o->flags & DMAENGINE_BENCH_F_ALLOW_FEWER);
	json_key_string(j, "reasons", "syscall");
	json_key_bool(j, "pattern_check", !o->no_pattern_check);
	json_key_uint(j, "movers", r->movers);
	json_object_end(j);
}

static void json_offload(struct json *j, const struct migrate_result *r)
{
	unsigned int i, mode;

	json_key(j, "offload");
	json_object_begin(j);
	json_key_string(j, "state", offload_state_name(r->offload));
	json_key_string(j, "hook", hook_name(r->hook));
	json_key_string_or_null(j, "message", migrate_offload_line(r));
	json_object_end(j);
	json_key(j, "prep_modes_run");
	json_array_begin(j);
	for (i = 0; i < r->nrows; i++)
		json_string(j, prep_mode_name(r->rows[i].prep_mode));
	json_array_end(j);
	json_key(j, "missing");
	json_array_begin(j);
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (!(r->missing & (1U << mode)))
			continue;
		json_object_begin(j);
		json_key_string(j, "prep_mode", prep_mode_name(mode));
		json_key_string(j, "error", r->missing_error[mode] ==
				DMAENGINE_BENCH_ERR_NO_CAP ? "no_cap" : "no_api");
		json_key_string(j, "reason",
				missing_reason(r->missing_error[mode]));
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_folios(struct json *j, const struct bench_opts *o,
			const struct migrate_result *r)
{
	int ord;

	json_key(j, "folios");
	json_object_begin(j);
	json_key_string(j, "thp_set", r->thp_set);
	json_key_bool(j, "have_size_control", r->have_size_control);
	json_key_bool(j, "census_known", r->census.known);
	json_key(j, "census");
	json_array_begin(j);
	for (ord = 0; ord < CENSUS_ORDERS; ord++) {
		if (!r->census.count[ord])
			continue;
		json_object_begin(j);
		json_key_uint(j, "order", ord);
		json_key_uint(j, "bytes", (uint64_t)o->page_size << ord);
		json_key_uint(j, "count", r->census.count[ord]);
		json_object_end(j);
	}
	json_array_end(j);
	json_key_uint_or_null(j, "anon_huge_kb", r->smaps.anon_huge_kb,
			      r->smaps.found);
	json_key_uint_or_null(j, "fault_alloc", r->fault_alloc, r->fault_stats);
	json_key_uint_or_null(j, "fault_fallback", r->fault_fallback,
			      r->fault_stats);
	json_key_bool(j, "fell_back", migrate_fell_back(r, o->page_size));
	json_object_end(j);
}

static void json_results(struct json *j, const struct bench_opts *o,
			 const struct migrate_result *r)
{
	unsigned int i;
	size_t k;

	json_key(j, "results");
	json_array_begin(j);
	for (i = 0; i < r->nrows; i++) {
		const struct migrate_row *row = &r->rows[i];

		json_object_begin(j);
		json_key_string(j, "prep_mode", prep_mode_name(row->prep_mode));
		json_key_uint(j, "chan", row->channels_used);
		json_key_uint(j, "folio_order", r->folio_order);
		json_key_uint(j, "folio_bytes",
			      migrate_folio_bytes(r, o->page_size));
		json_key_uint(j, "bytes", r->bytes);
		json_key_uint(j, "runs", row->move_ms.n);
		json_key_uint(j, "folios", row->folios);
		for (k = 0; k < NR_FIGURES; k++) {
			const struct stat_acc *a = fig_acc(row, k);
			bool has = row_has(row, k);

			if (row_unfilled(row, k)) {
				json_key(j, figures[k].key);
				json_null(j);
			} else {
				json_key_mean_stddev(j, figures[k].key,
						     has ? stat_mean(a) : 0,
						     has ? stat_stddev(a) : 0,
						     6);
			}
		}
		json_object_end(j);
	}
	json_array_end(j);
}

/* "figures" and "table", as report_dmaengine_json() has them */
static void json_description(struct json *j)
{
	unsigned int i, mode;
	size_t k;

	json_key(j, "figures");
	json_array_begin(j);
	for (k = 0; k < NR_FIGURES; k++) {
		json_object_begin(j);
		json_key_string(j, "key", figures[k].key);
		json_key_string(j, "unit", figures[k].unit);
		json_key_string(j, "kind", "mean_stddev");
		json_key(j, "prep_modes");
		json_array_begin(j);
		for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
			mode = prep_mode_order[i];
			if (figures[k].prep_modes & (1U << mode))
				json_string(j, prep_mode_name(mode));
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_key(j, "table");
	json_array_begin(j);
	for (k = 0; k < MC_FIGS + NR_FIGURES; k++) {
		bool lead = k < MC_FIGS;

		json_object_begin(j);
		json_key_string(j, "key", lead ? lead_columns[k].key :
				figures[k - MC_FIGS].key);
		json_key_string(j, "heading", lead ? lead_columns[k].heading :
				figures[k - MC_FIGS].heading);
		json_key_uint(j, "width", lead ? lead_columns[k].width :
			      FIG_WIDTH);
		json_key_bool(j, "verbose", !lead && figures[k - MC_FIGS].verbose);
		/* the text table the figure is in; the lead columns: each */
		json_key_string_or_null(j, "group", lead ? NULL :
					group_names[figures[k - MC_FIGS].group]);
		json_object_end(j);
	}
	json_array_end(j);
}

static void report_migrate_json(FILE *f, const struct report_ctx *ctx,
				const struct bench_opts *o,
				const struct migrate_result *r)
{
	struct json j;

	report_json_begin(&j, f, ctx, MODE_MIGRATE);
	json_params(&j, o, r);
	json_offload(&j, r);
	report_json_system(&j, ctx);
	json_folios(&j, o, r);
	json_results(&j, o, r);
	json_description(&j);
	json_object_end(&j);
	fputc('\n', f);
}

void report_migrate(FILE *f, const struct report_ctx *ctx,
		    const struct bench_opts *o, const struct migrate_result *r)
{
	switch (o->format) {
	case OUT_JSON:
		report_migrate_json(f, ctx, o, r);
		break;
	case OUT_CSV:
		report_migrate_csv(f, ctx, o, r);
		break;
	case OUT_TEXT:
		report_migrate_text(f, ctx, o, r);
		break;
	}
}
