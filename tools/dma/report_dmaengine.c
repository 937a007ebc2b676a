// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine mode's output: a table for people, CSV and JSON for scripts.
 *
 * Each output is made of rows: one per prep mode from the kernel's
 * statistics (struct dmaengine_bench_result), and with --per-channel one
 * per prep mode and channel computed here from the per-run samples.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "report.h"
#include "stats.h"
#include "units.h"

/*
 * The figures of a row, each described once, here: its name in CSV and
 * JSON, its unit and the prep modes that have it (the others print '-' in
 * the table, 0 in CSV and JSON). The JSON's "figures" member says the
 * same to scripts, which take their lists of figures from it.
 */
struct figure {
	const char *key;
	const char *unit;
	double scale;		/* the kernel's unit (ns, bytes/s) per unit */
	unsigned int prep_modes;	/* DMAENGINE_BENCH_PREP_* bits */
	size_t off;	/* of the figure in struct dmaengine_bench_result */
};

#define R(f)	offsetof(struct dmaengine_bench_result, f)
#define at_off(p, off)	((const void *)((const char *)(p) + (off)))

#define PREP_DMA	(DMAENGINE_BENCH_PREP_ALL & ~DMAENGINE_BENCH_PREP_CPU)
#define NS_PER_MS	1e6
#define BYTES_PER_GB	1e9

/*
 * One run's totals (the counts, CT_*), then the means and standard
 * deviations over the runs (the phases, PH_*): the order of CSV and JSON.
 */
enum figure_id {
	CT_BYTES, CT_PREP_CALLS, CT_SUBMITS, CT_BATCHES, CT_SEGMENTS,
	CT_NR,
	PH_RUN = CT_NR, PH_PREP, PH_SUBMIT, PH_ISSUE, PH_WAIT, PH_MAP, PH_UNMAP,
	PH_COPY, PH_CONVERT, PH_STALLS, PH_GBPS,
	FIG_NR
};

static const struct figure figures[FIG_NR] = {
	[CT_BYTES] = { "bytes", "bytes", 1, DMAENGINE_BENCH_PREP_ALL,
		       R(bytes) },
	[CT_PREP_CALLS] = { "prep_calls", "count", 1, PREP_DMA, R(prep_calls) },
	[CT_SUBMITS] = { "submits", "count", 1, PREP_DMA, R(submits) },
	[CT_BATCHES] = { "batches", "count", 1, DMAENGINE_BENCH_PREP_ALL,
			 R(batches) },
	[CT_SEGMENTS] = { "segments", "count", 1, DMAENGINE_BENCH_PREP_ALL,
			  R(segments) },
	[PH_RUN] = { "run_ms", "ms", NS_PER_MS, DMAENGINE_BENCH_PREP_ALL,
		     R(run_ns) },
	[PH_PREP] = { "prep_ms", "ms", NS_PER_MS, PREP_DMA, R(prep_ns) },
	[PH_SUBMIT] = { "submit_ms", "ms", NS_PER_MS, PREP_DMA, R(submit_ns) },
	[PH_ISSUE] = { "issue_ms", "ms", NS_PER_MS, PREP_DMA, R(issue_ns) },
	[PH_WAIT] = { "wait_ms", "ms", NS_PER_MS, PREP_DMA, R(wait_ns) },
	[PH_MAP] = { "map_ms", "ms", NS_PER_MS, PREP_DMA, R(map_ns) },
	[PH_UNMAP] = { "unmap_ms", "ms", NS_PER_MS, PREP_DMA, R(unmap_ns) },
	[PH_COPY] = { "copy_ms", "ms", NS_PER_MS, DMAENGINE_BENCH_PREP_CPU,
		      R(copy_ns) },
	[PH_CONVERT] = { "convert_ms", "ms", NS_PER_MS,
			 DMAENGINE_BENCH_PREP_MEMCPY_VEC, R(convert_ns) },
	[PH_STALLS] = { "prep_stalls", "count", 1, PREP_DMA, R(prep_stalls) },
	[PH_GBPS] = { "gbps", "GB/s", BYTES_PER_GB, DMAENGINE_BENCH_PREP_ALL,
		      R(bytes_per_sec) },
};

/*
 * A sample's fields as the JSON's "samples" name them, in its order, and
 * the figure of a per-channel row each one feeds.
 */
#define SAMPLE(f, fig)	{ #f, offsetof(struct dmaengine_bench_sample, f), fig }
static const struct {
	const char *key;
	size_t off;
	enum figure_id fig;	/* FIG_NR: none */
} sample_fields[] = {
	SAMPLE(start_ns, FIG_NR), SAMPLE(end_ns, FIG_NR),
	SAMPLE(prep_ns, PH_PREP), SAMPLE(submit_ns, PH_SUBMIT),
	SAMPLE(issue_ns, PH_ISSUE), SAMPLE(wait_ns, PH_WAIT),
	SAMPLE(map_ns, PH_MAP), SAMPLE(unmap_ns, PH_UNMAP),
	SAMPLE(copy_ns, PH_COPY), SAMPLE(convert_ns, PH_CONVERT),
	SAMPLE(bytes, CT_BYTES), SAMPLE(prep_calls, CT_PREP_CALLS),
	SAMPLE(submits, CT_SUBMITS), SAMPLE(prep_stalls, PH_STALLS),
};

#define NR_SAMPLE_FIELDS \
	(sizeof(sample_fields) / sizeof(sample_fields[0]))
#define sample_field(s, k) \
	(*(const uint64_t *)at_off(s, sample_fields[k].off))

/* each prep mode of @mask in prep_mode_order; @i counts, @mode is the mode */
#define for_each_mode_in(i, mode, mask) \
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) \
		if (mode = prep_mode_order[i], (mask) & (1U << mode))

#define NAME_MAX_LEN	DMAENGINE_BENCH_NAME_LEN

struct row {
	unsigned int prep_mode;
	char chan[NAME_MAX_LEN + 16];	/* channel count, or a channel's name */
	unsigned int channel;		/* per-channel rows: the index */
	unsigned int runs;
	bool totals;			/* batches and segments are known */
	uint64_t count[CT_NR];
	double mean[FIG_NR], stddev[FIG_NR];	/* from PH_RUN */
};

unsigned int dmaengine_channels_used(const struct dmaengine_benchmark *b)
{
	return b->channels_used ? b->channels_used : b->channels;
}

/* dmaengine_modes_run() - DMAENGINE_BENCH_PREP_* bits of the modes that ran */
static unsigned int dmaengine_modes_run(const struct dmaengine_benchmark *b)
{
	return b->prep_modes_run ? b->prep_modes_run : b->prep_modes;
}

/* channel_entries() - entries of r->channels that describe a channel */
static unsigned int channel_entries(const struct dmaengine_report *r)
{
	unsigned int n = dmaengine_channels_used(r->b);

	if (!r->channels)
		return 0;
	return n < r->b->channels ? n : r->b->channels;
}

static void channel_name(const struct dmaengine_report *r, unsigned int i,
			 char *buf, size_t len)
{
	if (i < channel_entries(r) && r->channels[i].name[0])
		snprintf(buf, len, "%.*s", NAME_MAX_LEN, r->channels[i].name);
	else
		snprintf(buf, len, "#%u", i);
}

/* cpus_text() - the --cpus list of the run, "" when not pinned */
static void cpus_text(const struct dmaengine_benchmark *b, char *buf,
		      size_t len)
{
	format_cpu_list((const uint32_t *)(uintptr_t)b->cpus_ptr,
			b->cpus_ptr ? b->nr_cpus : 0, buf, len);
}

static uint64_t report_folio_bytes(const struct dmaengine_report *r)
{
	return (uint64_t)r->opts->page_size << r->b->folio_order;
}

/* the destination folios: of ->dst_folio_order with F_DST_ORDER */
static unsigned int report_dst_order(const struct dmaengine_report *r)
{
	return r->b->flags & DMAENGINE_BENCH_F_DST_ORDER ?
	       r->b->dst_folio_order : r->b->folio_order;
}

static uint64_t report_dst_folio_bytes(const struct dmaengine_report *r)
{
	return (uint64_t)r->opts->page_size << report_dst_order(r);
}

/* whether the destination folios differ from the source's */
static bool dst_differs(const struct dmaengine_report *r)
{
	return report_dst_order(r) != r->b->folio_order;
}

/* batches in flight per channel; the ABI reads 0 as 1 */
static unsigned int report_depth(const struct dmaengine_benchmark *b)
{
	return b->depth ? b->depth : 1;
}

static void row_from_result(const struct dmaengine_report *r,
			    unsigned int mode, struct row *row)
{
	const struct dmaengine_bench_result *res = &r->b->results[mode];
	int p, k;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	snprintf(row->chan, sizeof(row->chan), "%u",
		 dmaengine_channels_used(r->b));
	row->runs = res->runs;
	row->totals = true;
	for (k = 0; k < CT_NR; k++)
		row->count[k] = *(const uint64_t *)at_off(res, figures[k].off);
	for (p = PH_RUN; p < FIG_NR; p++) {
		const struct dmaengine_bench_stat *st =
			at_off(res, figures[p].off);

		row->mean[p] = st->mean / figures[p].scale;
		row->stddev[p] = st->stddev / figures[p].scale;
	}
}

/* row_from_samples() - prep mode @mode on channel @ch; false: no samples */
static bool row_from_samples(const struct dmaengine_report *r,
			     unsigned int mode, unsigned int ch,
			     struct row *row)
{
	struct stat_acc acc[FIG_NR];
	unsigned int i;
	size_t k;
	int p;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	row->channel = ch;
	channel_name(r, ch, row->chan, sizeof(row->chan));
	for (p = PH_RUN; p < FIG_NR; p++)
		stat_init(&acc[p]);
	for (i = 0; r->samples && i < r->b->samples_written; i++) {
		const struct dmaengine_bench_sample *s = &r->samples[i];
		uint64_t run_ns;

		if (s->prep_mode != mode || s->channel != ch)
			continue;
		run_ns = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
		stat_add(&acc[PH_RUN], run_ns / NS_PER_MS);
		if (run_ns)	/* bytes per ns is GB/s */
			stat_add(&acc[PH_GBPS], (double)s->bytes / run_ns);
		for (k = 0; k < NR_SAMPLE_FIELDS; k++) {
			p = sample_fields[k].fig;
			if (p < CT_NR)
				row->count[p] = sample_field(s, k);
			else if (p != FIG_NR)
				stat_add(&acc[p], sample_field(s, k) /
						  figures[p].scale);
		}
	}
	row->runs = acc[PH_RUN].n;
	for (p = PH_RUN; p < FIG_NR; p++) {
		row->mean[p] = stat_mean(&acc[p]);
		row->stddev[p] = stat_stddev(&acc[p]);
	}
	return row->runs > 0;
}

/* per_channel_rows() - rows from the samples; returns how many (freed by caller) */
static unsigned int per_channel_rows(const struct dmaengine_report *r,
				     struct row **rows)
{
	unsigned int nch = dmaengine_channels_used(r->b), mode, ch, n = 0, i;

	*rows = calloc((size_t)nch * DMAENGINE_BENCH_NR_MODES + 1,
		       sizeof(**rows));
	if (!*rows)
		return 0;
	for_each_mode_in(i, mode, dmaengine_modes_run(r->b))
		for (ch = 0; ch < nch; ch++)
			if (row_from_samples(r, mode, ch, &(*rows)[n]))
				n++;
	return n;
}

/* ---------------------------------------------------------------- */
/* Text                                                             */
/* ---------------------------------------------------------------- */

enum column {
	C_MODE, C_CHAN, C_FOLIO, C_SGE, C_RUN, C_PREP, C_SUBMIT, C_ISSUE,
	C_WAIT, C_MAP, C_UNMAP, C_COPY, C_CALLS, C_GBPS,
	/* --verbose */
	C_CONVERT, C_STALLS, C_SUBMITS, C_BATCHES, C_SEGMENTS, C_BYTES,
	C_NR
};

/*
 * Headings and the reference table's widths (wider values widen them),
 * and the JSON key of what a column shows: a figure (mean +- stddev of a
 * phase, or a count) or the row's key. The JSON's "table" member says the
 * same to scripts, which lay their tables out by it.
 */
#define COL(h, w, k)	{ .head = h, .width = w, .key = k, .fig = FIG_NR }
#define FIG_COL(h, w, f)	{ .head = h, .width = w, .key = NULL, .fig = f }
static const struct {
	const char *head;
	int width;
	const char *key;	/* NULL: the figure's */
	enum figure_id fig;	/* FIG_NR: not a figure */
} columns[C_NR] = {
	[C_MODE] = COL("mode", 14, "prep_mode"),
	[C_CHAN] = COL("chan", 4, "chan"),
	[C_FOLIO] = COL("folio", 5, "folio_bytes"),
	[C_SGE] = COL("sge", 3, "sge"),
	[C_RUN] = FIG_COL("run_ms", 15, PH_RUN),
	[C_PREP] = FIG_COL("prep_ms", 14, PH_PREP),
	[C_SUBMIT] = FIG_COL("submit_ms", 13, PH_SUBMIT),
	[C_ISSUE] = FIG_COL("issue_ms", 11, PH_ISSUE),
	[C_WAIT] = FIG_COL("wait_ms", 17, PH_WAIT),
	[C_MAP] = FIG_COL("map_ms", 13, PH_MAP),
	[C_UNMAP] = FIG_COL("unmap_ms", 13, PH_UNMAP),
	[C_COPY] = FIG_COL("copy_ms", 15, PH_COPY),
	[C_CALLS] = FIG_COL("prep_calls", 10, CT_PREP_CALLS),
	[C_GBPS] = FIG_COL("GB/s", 11, PH_GBPS),
	[C_CONVERT] = FIG_COL("convert_ms", 13, PH_CONVERT),
	[C_STALLS] = FIG_COL("prep_stalls", 11, PH_STALLS),
	[C_SUBMITS] = FIG_COL("submits", 7, CT_SUBMITS),
	[C_BATCHES] = FIG_COL("batches", 7, CT_BATCHES),
	[C_SEGMENTS] = FIG_COL("segments", 8, CT_SEGMENTS),
	[C_BYTES] = FIG_COL("bytes", 5, CT_BYTES),
};

/* the figure column @c shows, or NULL */
static const struct figure *column_figure(int c)
{
	return columns[c].fig == FIG_NR ? NULL : &figures[columns[c].fig];
}

static bool column_verbose(int c)
{
	return c > C_GBPS;
}

/* report_display_width() - characters, not bytes: "±" is two bytes, one column */
int report_display_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void report_print_cells(FILE *f, const char *cells, unsigned int lines,
			int ncols, const int *shown, int nshown, int *width)
{
	unsigned int i;
	int c, k;

	for (i = 0; i < lines; i++)
		for (c = 0; c < ncols; c++) {
			int w = report_display_width(&cells[(i * ncols + c) *
							    CELL_LEN]);

			if (w > width[c])
				width[c] = w;
		}
	for (i = 0; i < lines; i++) {
		for (k = 0; k < nshown; k++) {
			const char *cell;

			c = shown[k];
			cell = &cells[(i * ncols + c) * CELL_LEN];
			fputs(cell, f);
			if (k < nshown - 1)
				fprintf(f, "%*s",
					width[c] - report_display_width(cell) + 1,
					"");
		}
		fputc('\n', f);
	}
}

/* count_known() - per-channel rows (no totals) have no batches, segments */
static bool count_known(const struct row *row, enum figure_id k)
{
	return row->totals || (k != CT_BATCHES && k != CT_SEGMENTS);
}

/* "4KB", or "4KB/64KB" when the destination folios differ */
static void folio_cell(const struct dmaengine_report *r, char *cell)
{
	char src[32], dst[32];

	format_size(report_folio_bytes(r), src, sizeof(src));
	format_size(report_dst_folio_bytes(r), dst, sizeof(dst));
	snprintf(cell, CELL_LEN, "%s%s%s", src, dst_differs(r) ? "/" : "",
		 dst_differs(r) ? dst : "");
}

static void row_cells(const struct dmaengine_report *r, const struct row *row,
		      char (*cells)[CELL_LEN])
{
	int c;

	snprintf(cells[C_MODE], CELL_LEN, "%s", prep_mode_name(row->prep_mode));
	snprintf(cells[C_CHAN], CELL_LEN, "%s", row->chan);
	folio_cell(r, cells[C_FOLIO]);
	snprintf(cells[C_SGE], CELL_LEN, "%u", r->b->sge);
	for (c = 0; c < C_NR; c++) {
		enum figure_id k = columns[c].fig;

		if (k == FIG_NR)
			continue;
		/* '-': a figure the row's mode lacks, or an unknown count */
		if (!(figures[k].prep_modes & (1U << row->prep_mode)) ||
		    (k < CT_NR && !count_known(row, k)))
			strcpy(cells[c], "-");
		else if (k >= PH_RUN)
			snprintf(cells[c], CELL_LEN, "%.2f \u00b1 %.2f",
				 row->mean[k], row->stddev[k]);
		else
			snprintf(cells[c], CELL_LEN, "%llu",
				 (unsigned long long)row->count[k]);
	}
}

/*
 * column_shown() - whether column @c is in a table of rows of @modes
 * (DMAENGINE_BENCH_PREP_* bits): the last six only with --verbose, and a
 * figure of one prep mode alone (copy_ms: cpu, convert_ms: memcpy_vec)
 * only when a row is that mode's
 */
static bool column_shown(int c, unsigned int modes, bool verbose)
{
	const struct figure *fig = column_figure(c);

	if (column_verbose(c) && !verbose)
		return false;
	return !fig || !is_pow2(fig->prep_modes) || (fig->prep_modes & modes);
}

/*
 * print_table() - a heading and @n rows, columns left-aligned, those of
 * column_shown(); the folio column is "folio_src/dst" when the destination
 * folios differ
 */
static void print_table(FILE *f, const struct dmaengine_report *r,
			const struct row *rows, unsigned int n,
			const char *chan_head)
{
	char (*cells)[C_NR][CELL_LEN];
	int width[C_NR], shown[C_NR], ncols = 0, c;
	unsigned int i, modes = 0;

	for (i = 0; i < n; i++)
		modes |= 1U << rows[i].prep_mode;
	for (c = 0; c < C_NR; c++)
		if (column_shown(c, modes, r->opts->verbose))
			shown[ncols++] = c;
	cells = calloc(n + 1, sizeof(*cells));
	if (!cells)
		return;
	for (c = 0; c < C_NR; c++) {
		snprintf(cells[0][c], CELL_LEN, "%s",
			 c == C_CHAN ? chan_head :
			 c == C_FOLIO && dst_differs(r) ? "folio_src/dst" :
			 columns[c].head);
		width[c] = columns[c].width;
	}
	for (i = 0; i < n; i++)
		row_cells(r, &rows[i], cells[i + 1]);
	report_print_cells(f, &cells[0][0][0], n + 1, C_NR, shown, ncols,
			   width);
	free(cells);
}

static void print_channels_line(FILE *f, const struct dmaengine_report *r)
{
	unsigned int i, n = channel_entries(r);

	if (!n || !r->channels[0].name[0]) {
		fprintf(f, "# channels: %u (not named by the kernel)\n",
			dmaengine_channels_used(r->b));
		return;
	}
	fprintf(f, "# channels:");
	for (i = 0; i < n; i++) {
		const struct dmaengine_bench_channel *ch = &r->channels[i];

		fprintf(f, "%s %.*s (%.*s, %.*s", i ? "," : "",
			NAME_MAX_LEN, ch->name, NAME_MAX_LEN, ch->device,
			NAME_MAX_LEN, ch->driver);
		if (r->opts->verbose)
			fprintf(f, "; node %d, src node %d, dst node %d, max_seg_size %u, copy_align %u, memcpy_sg %s, memcpy_vec %s, no_order %s",
				ch->node, ch->src_node, ch->dst_node,
				ch->max_seg_size, ch->copy_align,
				ch->has_memcpy_sg ? "yes" : "no",
				ch->has_memcpy_vec ? "yes" : "no",
				ch->no_order ? "yes" : "no");
		fputc(')', f);
	}
	fputc('\n', f);
}

static void print_params_line(FILE *f, const struct dmaengine_report *r)
{
	const struct dmaengine_benchmark *b = r->b;
	char bytes[32], folio[32], dst[32], dst_text[64] = "", cpus[256];

	format_size(b->bytes_per_channel, bytes, sizeof(bytes));
	format_size(report_folio_bytes(r), folio, sizeof(folio));
	format_size(report_dst_folio_bytes(r), dst, sizeof(dst));
	if (dst_differs(r))
		snprintf(dst_text, sizeof(dst_text), " into %s destination folios",
			 dst);
	cpus_text(b, cpus, sizeof(cpus));
	fprintf(f, "# %s per channel in batches of %u x %s%s; %u runs after %u warm-up; src node %d, dst node %d; prep %s; buffers %s, depth %u, cpus %s%s%s%s\n",
		bytes, b->sge, folio, dst_text, b->runs, b->warmup_runs, b->src_node,
		b->dst_node, prep_modes_name(b->prep_modes),
		buffers_name(b->flags), report_depth(b),
		cpus[0] ? cpus : "not pinned",
		b->flags & DMAENGINE_BENCH_F_VERIFY ? ", verify" : "",
		b->flags & DMAENGINE_BENCH_F_POLL ? ", poll" : "",
		b->flags & DMAENGINE_BENCH_F_ALLOW_FEWER ? ", allow fewer" : "");
}

/* the modes asked for that did not run, one '#' line each */
static void print_missing_lines(FILE *f, const struct dmaengine_report *r)
{
	unsigned int i, mode;
	unsigned int missing = r->b->prep_modes & ~dmaengine_modes_run(r->b);
	char why[256];

	for_each_mode_in(i, mode, missing) {
		dmaengine_missing_reason(why, sizeof(why), r->b, r->channels,
					 mode);
		fprintf(f, "# not run: %s: %s\n", prep_mode_name(mode), why);
	}
}

static unsigned long mhz(unsigned long khz)
{
	return (khz + 500) / 1000;
}

void report_cpufreq_line(FILE *f, const struct cpufreq_info *fi)
{
	if (!fi)
		return;
	fprintf(f, "# cpufreq:");
	if (!fi->cpus) {
		fprintf(f, " not exposed here (no /sys/devices/system/cpu/cpu*/cpufreq)");
	} else {
		fprintf(f, " governor %s", fi->governor[0] ? fi->governor : "?");
		if (fi->driver[0])
			fprintf(f, " (%s)", fi->driver);
		fprintf(f, " on %u CPU%s", fi->cpus, fi->cpus == 1 ? "" : "s");
		if (fi->cur_khz_max) {
			fprintf(f, ", now ");
			if (fi->cur_khz_min != fi->cur_khz_max)
				fprintf(f, "%lu MHz to ", mhz(fi->cur_khz_min));
			fprintf(f, "%lu MHz", mhz(fi->cur_khz_max));
		}
		if (fi->max_khz)
			fprintf(f, ", max %lu MHz", mhz(fi->max_khz));
	}
	if (fi->boost >= 0)
		fprintf(f, "; boost %s (%s)", fi->boost ? "on" : "off",
			fi->boost_source);
	fputc('\n', f);
}

void report_dmaengine_text(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r)
{
	struct row rows[DMAENGINE_BENCH_NR_MODES], *pc;
	unsigned int i, mode, n = 0;

	fprintf(f, "# " PROG_NAME " %s, kernel %s\n", ctx->version,
		ctx->kernel);
	print_channels_line(f, r);
	print_params_line(f, r);
	print_missing_lines(f, r);
	report_cpufreq_line(f, ctx->cpufreq);
	fprintf(f, "# acquire_ms %.2f\n", r->b->acquire_ns / NS_PER_MS);
	for_each_mode_in(i, mode, dmaengine_modes_run(r->b))
		row_from_result(r, mode, &rows[n++]);
	print_table(f, r, rows, n, columns[C_CHAN].head);

	if (!r->opts->per_channel)
		return;
	n = per_channel_rows(r, &pc);
	if (n) {
		fprintf(f, "# per channel, from %u samples:\n",
			r->b->samples_written);
		print_table(f, r, pc, n, "channel");
	} else {
		fprintf(f, "# per channel: the kernel returned no samples\n");
	}
	free(pc);
}

/* ---------------------------------------------------------------- */
/* CSV                                                              */
/* ---------------------------------------------------------------- */

/* report_csv_text() - @s as a CSV field: quoted when it has a comma or quote */
void report_csv_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* the CPU frequency columns, each empty when unknown */
void report_csv_cpufreq(FILE *f, const struct cpufreq_info *fi)
{
	fputc(',', f);
	if (fi && fi->governor[0])
		report_csv_text(f, fi->governor);
	fputc(',', f);
	if (fi && fi->cur_khz_max)
		fprintf(f, "%lu,%lu", fi->cur_khz_min, fi->cur_khz_max);
	else
		fputc(',', f);
	fputc(',', f);
	if (fi && fi->max_khz)
		fprintf(f, "%lu", fi->max_khz);
	fputc(',', f);
	if (fi && fi->boost >= 0)
		fprintf(f, "%d", fi->boost);
}

/* the header: the run's parameters, its figures, the CPU frequency state */
static void csv_header(FILE *f)
{
	int p, k;

	fputs("mode,chan,folio_order,folio_bytes,sge,depth,buffers,cpus,runs", f);
	for (k = 0; k < CT_NR; k++)
		fprintf(f, ",%s", figures[k].key);
	for (p = PH_RUN; p < FIG_NR; p++)
		fprintf(f, ",%s_mean,%s_stddev", figures[p].key,
			figures[p].key);
	fputs(",cpufreq_governor,cpu_cur_khz_min,cpu_cur_khz_max,cpu_max_khz,boost,dst_folio_order,dst_folio_bytes\n",
	      f);
}

void report_dmaengine_csv(FILE *f, const struct report_ctx *ctx,
			  const struct dmaengine_report *r)
{
	unsigned int i, mode;
	char cpus[4096];
	struct row row;
	int p, k;

	cpus_text(r->b, cpus, sizeof(cpus));
	csv_header(f);
	for_each_mode_in(i, mode, dmaengine_modes_run(r->b)) {
		row_from_result(r, mode, &row);
		fprintf(f, "%s,%s,%u,%llu,%u,%u,%s,", prep_mode_name(mode),
			row.chan, r->b->folio_order,
			(unsigned long long)report_folio_bytes(r), r->b->sge,
			report_depth(r->b), buffers_name(r->b->flags));
		report_csv_text(f, cpus);
		fprintf(f, ",%u", row.runs);
		for (k = 0; k < CT_NR; k++)
			fprintf(f, ",%llu", (unsigned long long)row.count[k]);
		for (p = PH_RUN; p < FIG_NR; p++)
			fprintf(f, ",%.6f,%.6f", row.mean[p], row.stddev[p]);
		report_csv_cpufreq(f, ctx->cpufreq);
		fprintf(f, ",%u,%llu\n", report_dst_order(r),
			(unsigned long long)report_dst_folio_bytes(r));
	}
}

/* ---------------------------------------------------------------- */
/* JSON                                                             */
/* ---------------------------------------------------------------- */

static void json_key_name(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string_n(j, s, NAME_MAX_LEN);
}

/* the row's counts (batches and segments only with totals), its phases */
static void json_figures_of(struct json *j, const struct row *row)
{
	int p, k;

	json_key_uint(j, "runs", row->runs);
	for (k = 0; k < CT_NR; k++)
		if (count_known(row, k))
			json_key_uint(j, figures[k].key, row->count[k]);
	for (p = PH_RUN; p < FIG_NR; p++)
		json_key_mean_stddev(j, figures[p].key, row->mean[p],
				     row->stddev[p], 6);
}

static void json_params(struct json *j, const struct dmaengine_report *r)
{
	const struct dmaengine_benchmark *b = r->b;
	const uint32_t *cpus = (const uint32_t *)(uintptr_t)b->cpus_ptr;
	unsigned int i;

	json_key(j, "params");
	json_object_begin(j);
	json_key_uint(j, "channels", b->channels);
	json_key_name(j, "channel", b->channel);
	json_key_name(j, "device", b->device);
	json_key_uint(j, "folio_order", b->folio_order);
	json_key_uint(j, "folio_bytes", report_folio_bytes(r));
	json_key_uint(j, "dst_folio_order", report_dst_order(r));
	json_key_uint(j, "dst_folio_bytes", report_dst_folio_bytes(r));
	json_key_uint(j, "page_size", r->opts->page_size);
	json_key_uint(j, "sge", b->sge);
	json_key_uint(j, "bytes_per_channel", b->bytes_per_channel);
	json_key_uint(j, "runs", b->runs);
	json_key_uint(j, "warmup_runs", b->warmup_runs);
	json_key_int(j, "src_node", b->src_node);
	json_key_int(j, "dst_node", b->dst_node);
	json_key_string(j, "prep_modes", prep_modes_name(b->prep_modes));
	json_key_bool(j, "skip_missing",
		      b->flags & DMAENGINE_BENCH_F_SKIP_MISSING);
	json_key_string(j, "buffers", buffers_name(b->flags));
	json_key_uint(j, "depth", report_depth(b));
	json_key(j, "cpus");
	json_array_begin(j);
	for (i = 0; cpus && i < b->nr_cpus; i++)
		json_uint(j, cpus[i]);
	json_array_end(j);
	json_key_bool(j, "verify", b->flags & DMAENGINE_BENCH_F_VERIFY);
	json_key_bool(j, "poll", b->flags & DMAENGINE_BENCH_F_POLL);
	json_key_bool(j, "allow_fewer", b->flags & DMAENGINE_BENCH_F_ALLOW_FEWER);
	json_key_uint(j, "timeout_ms", b->timeout_ms);
	json_object_end(j);
}

/* "prep_modes_run" and "missing": [{prep_mode, error, reason}] */
static void json_modes_run(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i, mode, run = dmaengine_modes_run(r->b);
	unsigned int missing = r->b->prep_modes & ~run;
	char why[256];

	json_key(j, "prep_modes_run");
	json_array_begin(j);
	for_each_mode_in(i, mode, run)
		json_string(j, prep_mode_name(mode));
	json_array_end(j);
	json_key(j, "missing");
	json_array_begin(j);
	for_each_mode_in(i, mode, missing) {
		unsigned int err = r->b->results[mode].missing;

		dmaengine_missing_reason(why, sizeof(why), r->b, r->channels,
					 mode);
		json_object_begin(j);
		json_key_string(j, "prep_mode", prep_mode_name(mode));
		json_key_string(j, "error",
				err == DMAENGINE_BENCH_ERR_NO_API ? "no_api" :
				err == DMAENGINE_BENCH_ERR_NO_CAP ? "no_cap" :
				"other");
		json_key_string(j, "reason", why);
		json_object_end(j);
	}
	json_array_end(j);
}

void report_json_system(struct json *j, const struct report_ctx *ctx)
{
	const struct cpufreq_info *fi = ctx->cpufreq;

	json_key(j, "system");
	json_object_begin(j);
	json_key(j, "cpufreq");
	if (!fi) {
		json_null(j);
		json_object_end(j);
		return;
	}
	json_object_begin(j);
	json_key_uint(j, "cpus", fi->cpus);
	json_key_string_or_null(j, "driver", fi->driver[0] ? fi->driver : NULL);
	json_key_string_or_null(j, "governor",
				fi->governor[0] ? fi->governor : NULL);
	json_key_uint_or_null(j, "cur_khz_min", fi->cur_khz_min,
			      fi->cur_khz_max);
	json_key_uint_or_null(j, "cur_khz_max", fi->cur_khz_max,
			      fi->cur_khz_max);
	json_key_uint_or_null(j, "max_khz", fi->max_khz, fi->max_khz);
	json_key(j, "boost");
	if (fi->boost >= 0)
		json_bool(j, fi->boost);
	else
		json_null(j);
	json_key_string_or_null(j, "boost_source", fi->boost_source);
	json_object_end(j);
	json_object_end(j);
}

static void json_channels(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i;

	json_key(j, "channels");
	json_array_begin(j);
	for (i = 0; i < channel_entries(r); i++) {
		const struct dmaengine_bench_channel *ch = &r->channels[i];

		json_object_begin(j);
		json_key_name(j, "name", ch->name);
		json_key_name(j, "device", ch->device);
		json_key_name(j, "driver", ch->driver);
		json_key_int(j, "node", ch->node);
		json_key_int(j, "src_node", ch->src_node);
		json_key_int(j, "dst_node", ch->dst_node);
		json_key_uint(j, "max_seg_size", ch->max_seg_size);
		json_key_uint(j, "copy_align", ch->copy_align);
		json_key_bool(j, "has_memcpy_sg", ch->has_memcpy_sg);
		json_key_bool(j, "has_memcpy_vec", ch->has_memcpy_vec);
		json_key_bool(j, "no_order", ch->no_order);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_results(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i, mode;
	struct row row;

	json_key(j, "results");
	json_array_begin(j);
	for_each_mode_in(i, mode, dmaengine_modes_run(r->b)) {
		row_from_result(r, mode, &row);
		json_object_begin(j);
		json_key_string(j, "prep_mode", prep_mode_name(mode));
		json_key_uint(j, "chan", dmaengine_channels_used(r->b));
		json_key_uint(j, "folio_order", r->b->folio_order);
		json_key_uint(j, "folio_bytes", report_folio_bytes(r));
		json_key_uint(j, "dst_folio_order", report_dst_order(r));
		json_key_uint(j, "dst_folio_bytes", report_dst_folio_bytes(r));
		json_key_uint(j, "sge", r->b->sge);
		json_key_uint(j, "depth", report_depth(r->b));
		json_key_string(j, "buffers", buffers_name(r->b->flags));
		json_figures_of(j, &row);
		json_key(j, "acquire_ms");
		json_double(j, r->b->acquire_ns / NS_PER_MS, 6);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_figure(struct json *j, const struct figure *fig,
			const char *kind)
{
	unsigned int i, mode;

	json_object_begin(j);
	json_key_string(j, "key", fig->key);
	json_key_string(j, "unit", fig->unit);
	json_key_string(j, "kind", kind);
	json_key(j, "prep_modes");
	json_array_begin(j);
	for_each_mode_in(i, mode, fig->prep_modes)
		json_string(j, prep_mode_name(mode));
	json_array_end(j);
	json_object_end(j);
}

/*
 * "figures": what each figure of a result is, in the results' order:
 * [{key, unit, kind (total: one run's count; mean_stddev: {mean, stddev}
 * over the runs), prep_modes (those that have it)}]; "table": the text
 * table's columns, [{key, heading, width, verbose (with -v only)}]
 */
static void json_description(struct json *j)
{
	int k, c;

	json_key(j, "figures");
	json_array_begin(j);
	for (k = 0; k < FIG_NR; k++)
		json_figure(j, &figures[k],
			    k < CT_NR ? "total" : "mean_stddev");
	json_array_end(j);
	json_key(j, "table");
	json_array_begin(j);
	for (c = 0; c < C_NR; c++) {
		const struct figure *fig = column_figure(c);

		json_object_begin(j);
		json_key_string(j, "key", fig ? fig->key : columns[c].key);
		json_key_string(j, "heading", columns[c].head);
		json_key_uint(j, "width", columns[c].width);
		json_key_bool(j, "verbose", column_verbose(c));
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_per_channel(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i, n;
	struct row *rows;

	n = per_channel_rows(r, &rows);
	json_key(j, "per_channel");
	json_array_begin(j);
	for (i = 0; i < n; i++) {
		json_object_begin(j);
		json_key_string(j, "prep_mode",
				prep_mode_name(rows[i].prep_mode));
		json_key_string(j, "channel", rows[i].chan);
		json_key_uint(j, "index", rows[i].channel);
		json_figures_of(j, &rows[i]);
		json_object_end(j);
	}
	json_array_end(j);
	free(rows);
}

static void json_samples(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i;
	size_t k;

	json_key(j, "samples");
	json_array_begin(j);
	for (i = 0; r->samples && i < r->b->samples_written; i++) {
		const struct dmaengine_bench_sample *s = &r->samples[i];
		const char *mode = prep_mode_name(s->prep_mode);

		json_object_begin(j);
		json_key(j, "prep_mode");
		if (mode)
			json_string(j, mode);
		else
			json_uint(j, s->prep_mode);
		json_key_uint(j, "run", s->run);
		json_key_uint(j, "channel", s->channel);
		for (k = 0; k < NR_SAMPLE_FIELDS; k++)
			json_key_uint(j, sample_fields[k].key,
				      sample_field(s, k));
		json_object_end(j);
	}
	json_array_end(j);
}

void report_json_begin(struct json *j, FILE *f, const struct report_ctx *ctx,
		       enum bench_mode mode)
{
	json_init(j, f);
	json_object_begin(j);
	json_key_string(j, "tool", PROG_NAME);
	json_key_string(j, "version", ctx->version);
	json_key_string(j, "kernel", ctx->kernel);
	json_key_string(j, "mode", mode_name(mode));
}

void report_dmaengine_json(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r)
{
	struct json j;

	report_json_begin(&j, f, ctx, MODE_DMAENGINE);
	json_params(&j, r);
	json_modes_run(&j, r);
	report_json_system(&j, ctx);
	json_key_uint(&j, "channels_used", dmaengine_channels_used(r->b));
	json_channels(&j, r);
	json_results(&j, r);
	json_description(&j);
	if (r->opts->per_channel)
		json_per_channel(&j, r);
	if (r->opts->samples)
		json_samples(&j, r);
	json_object_end(&j);
	fputc('\n', f);
}

void report_dmaengine(FILE *f, const struct report_ctx *ctx,
		      const struct dmaengine_report *r)
{
	switch (r->opts->format) {
	case OUT_JSON:
		report_dmaengine_json(f, ctx, r);
		break;
	case OUT_CSV:
		report_dmaengine_csv(f, ctx, r);
		break;
	case OUT_TEXT:
		report_dmaengine_text(f, ctx, r);
		break;
	}
}
