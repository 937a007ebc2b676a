// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine mode's table for people: '#' lines (the kernel, the channels,
 * the parameters, the modes not run, the CPU frequency state), then a
 * row per prep mode, and with --per-channel a row per prep mode and
 * channel. The copy modes share its table layout and cpufreq line.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report_dmaengine.h"
#include "units.h"

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
		/*
		 * '-': a figure the row's mode lacks, one the kernel did not
		 * fill, or an unknown count
		 */
		if (!(figures[k].prep_modes & (1U << row->prep_mode)) ||
		    !row->known[k] || (k < CT_NR && !count_known(row, k)))
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

	if ((column_verbose(c) && !verbose) || (fig && !fig->prep_modes))
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
	fputs("# allocation: the client's tables, dma_vec arrays and cookies before the runs, in no phase; prep_ms holds the provider's own descriptor allocation\n",
	      f);
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

