// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine mode's output: a table for people, CSV and JSON for scripts.
 *
 * Each output is made of rows: one per prep mode from the kernel's
 * statistics (struct dmaengine_bench_result), and with --per-channel one
 * per prep mode and channel computed here from the per-run samples.
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report.h"
#include "stats.h"
#include "units.h"

enum phase {
	PH_RUN, PH_PREP, PH_SUBMIT, PH_ISSUE, PH_WAIT, PH_MAP, PH_UNMAP,
	PH_GBPS,
	PH_NR
};

/* Names in CSV and JSON; all but gbps are milliseconds. */
static const char *const phase_names[PH_NR] = {
	"run_ms", "prep_ms", "submit_ms", "issue_ms", "wait_ms", "map_ms",
	"unmap_ms", "gbps",
};

const char dmaengine_csv_header[] =
	"mode,chan,folio_order,folio_bytes,sge,runs,bytes,prep_calls,submits,"
	"batches,segments,run_ms_mean,run_ms_sd,prep_ms_mean,prep_ms_sd,"
	"submit_ms_mean,submit_ms_sd,issue_ms_mean,issue_ms_sd,wait_ms_mean,"
	"wait_ms_sd,map_ms_mean,map_ms_sd,unmap_ms_mean,unmap_ms_sd,gbps_mean,"
	"gbps_sd";

#define NS_PER_MS	1e6
#define BYTES_PER_GB	1e9
#define NAME_MAX_LEN	DMAENGINE_BENCH_NAME_LEN

struct row {
	unsigned int prep_mode;
	char chan[NAME_MAX_LEN + 16];	/* channel count, or a channel's name */
	unsigned int channel;		/* per-channel rows: the index */
	unsigned int runs;
	bool totals;			/* batches and segments are known */
	uint64_t bytes, prep_calls, submits, batches, segments;
	double mean[PH_NR], sd[PH_NR];
};

unsigned int dmaengine_channels_used(const struct dmaengine_benchmark *b)
{
	return b->channels_used ? b->channels_used : b->channels;
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

static bool prep_mode_ran(const struct dmaengine_report *r, unsigned int mode)
{
	return r->b->prep_modes & (1U << mode);
}

static uint64_t report_folio_bytes(const struct dmaengine_report *r)
{
	return (uint64_t)r->opts->page_size << r->b->folio_order;
}

static void row_from_result(const struct dmaengine_report *r,
			    unsigned int mode, struct row *row)
{
	const struct dmaengine_bench_result *res = &r->b->result[mode];
	const struct dmaengine_bench_stat *st[PH_NR] = {
		[PH_RUN] = &res->run_ns, [PH_PREP] = &res->prep_ns,
		[PH_SUBMIT] = &res->submit_ns, [PH_ISSUE] = &res->issue_ns,
		[PH_WAIT] = &res->wait_ns, [PH_MAP] = &res->map_ns,
		[PH_UNMAP] = &res->unmap_ns, [PH_GBPS] = &res->bytes_per_sec,
	};
	int p;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	snprintf(row->chan, sizeof(row->chan), "%u",
		 dmaengine_channels_used(r->b));
	row->runs = res->runs;
	row->totals = true;
	row->bytes = res->bytes;
	row->prep_calls = res->prep_calls;
	row->submits = res->submits;
	row->batches = res->batches;
	row->segments = res->segments;
	for (p = 0; p < PH_NR; p++) {
		double scale = p == PH_GBPS ? BYTES_PER_GB : NS_PER_MS;

		row->mean[p] = st[p]->mean / scale;
		row->sd[p] = st[p]->stddev / scale;
	}
}

/* row_from_samples() - prep mode @mode on channel @ch; false: no samples */
static bool row_from_samples(const struct dmaengine_report *r,
			     unsigned int mode, unsigned int ch,
			     struct row *row)
{
	struct stat_acc acc[PH_NR];
	unsigned int i;
	int p;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	row->channel = ch;
	channel_name(r, ch, row->chan, sizeof(row->chan));
	for (p = 0; p < PH_NR; p++)
		stat_init(&acc[p]);
	for (i = 0; r->samples && i < r->b->samples_written; i++) {
		const struct dmaengine_bench_sample *s = &r->samples[i];
		uint64_t run_ns;

		if (s->prep_mode != mode || s->channel != ch)
			continue;
		run_ns = s->end_ns > s->start_ns ? s->end_ns - s->start_ns : 0;
		stat_add(&acc[PH_RUN], run_ns / NS_PER_MS);
		stat_add(&acc[PH_PREP], s->prep_ns / NS_PER_MS);
		stat_add(&acc[PH_SUBMIT], s->submit_ns / NS_PER_MS);
		stat_add(&acc[PH_ISSUE], s->issue_ns / NS_PER_MS);
		stat_add(&acc[PH_WAIT], s->wait_ns / NS_PER_MS);
		stat_add(&acc[PH_MAP], s->map_ns / NS_PER_MS);
		stat_add(&acc[PH_UNMAP], s->unmap_ns / NS_PER_MS);
		if (run_ns)	/* bytes per ns is GB/s */
			stat_add(&acc[PH_GBPS], (double)s->bytes / run_ns);
		row->bytes = s->bytes;
		row->prep_calls = s->prep_calls;
		row->submits = s->submits;
	}
	row->runs = acc[PH_RUN].n;
	for (p = 0; p < PH_NR; p++) {
		row->mean[p] = stat_mean(&acc[p]);
		row->sd[p] = stat_sd(&acc[p]);
	}
	return row->runs > 0;
}

/* per_channel_rows() - rows from the samples; returns how many (freed by caller) */
static unsigned int per_channel_rows(const struct dmaengine_report *r,
				     struct row **rows)
{
	unsigned int nch = dmaengine_channels_used(r->b), mode, ch, n = 0;

	*rows = calloc((size_t)nch * DMAENGINE_BENCH_NR_PREP_MODES + 1,
		       sizeof(**rows));
	if (!*rows)
		return 0;
	for (mode = 0; mode < DMAENGINE_BENCH_NR_PREP_MODES; mode++) {
		if (!prep_mode_ran(r, mode))
			continue;
		for (ch = 0; ch < nch; ch++)
			if (row_from_samples(r, mode, ch, &(*rows)[n]))
				n++;
	}
	return n;
}

/* ---------------------------------------------------------------- */
/* Text                                                             */
/* ---------------------------------------------------------------- */

enum column {
	C_MODE, C_CHAN, C_FOLIO, C_SGE, C_RUN, C_PREP, C_SUBMIT, C_ISSUE,
	C_WAIT, C_CALLS, C_GBPS,
	/* --verbose */
	C_MAP, C_UNMAP, C_SUBMITS, C_BATCHES, C_SEGMENTS, C_BYTES,
	C_NR
};

/* Headings and the reference table's widths; wider values widen them. */
static const struct {
	const char *head;
	int width;
} columns[C_NR] = {
	[C_MODE] = { "mode", 14 },	[C_CHAN] = { "chan", 4 },
	[C_FOLIO] = { "folio", 5 },	[C_SGE] = { "sge", 3 },
	[C_RUN] = { "run_ms", 15 },	[C_PREP] = { "prep_ms", 14 },
	[C_SUBMIT] = { "submit_ms", 13 }, [C_ISSUE] = { "issue_ms", 11 },
	[C_WAIT] = { "wait_ms", 17 },	[C_CALLS] = { "prep_calls", 10 },
	[C_GBPS] = { "GB/s", 11 },	[C_MAP] = { "map_ms", 13 },
	[C_UNMAP] = { "unmap_ms", 13 },	[C_SUBMITS] = { "submits", 7 },
	[C_BATCHES] = { "batches", 7 },	[C_SEGMENTS] = { "segments", 8 },
	[C_BYTES] = { "bytes", 5 },
};

#define CELL_LEN	64

/* display_width() - characters, not bytes: "±" is two bytes, one column */
static int display_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void mean_sd_cell(char *cell, double mean, double sd)
{
	snprintf(cell, CELL_LEN, "%.2f \u00b1 %.2f", mean, sd);
}

static void row_cells(const struct dmaengine_report *r, const struct row *row,
		      char (*cells)[CELL_LEN])
{
	static const enum phase phase_of[C_NR] = {
		[C_RUN] = PH_RUN, [C_PREP] = PH_PREP, [C_SUBMIT] = PH_SUBMIT,
		[C_ISSUE] = PH_ISSUE, [C_WAIT] = PH_WAIT, [C_GBPS] = PH_GBPS,
		[C_MAP] = PH_MAP, [C_UNMAP] = PH_UNMAP,
	};
	int c;

	snprintf(cells[C_MODE], CELL_LEN, "%s", prep_mode_name(row->prep_mode));
	snprintf(cells[C_CHAN], CELL_LEN, "%s", row->chan);
	format_size(report_folio_bytes(r), cells[C_FOLIO], CELL_LEN);
	snprintf(cells[C_SGE], CELL_LEN, "%u", r->b->sge);
	for (c = C_RUN; c <= C_UNMAP; c++)
		if (c != C_CALLS)
			mean_sd_cell(cells[c], row->mean[phase_of[c]],
				     row->sd[phase_of[c]]);
	snprintf(cells[C_CALLS], CELL_LEN, "%llu",
		 (unsigned long long)row->prep_calls);
	snprintf(cells[C_SUBMITS], CELL_LEN, "%llu",
		 (unsigned long long)row->submits);
	if (row->totals) {
		snprintf(cells[C_BATCHES], CELL_LEN, "%llu",
			 (unsigned long long)row->batches);
		snprintf(cells[C_SEGMENTS], CELL_LEN, "%llu",
			 (unsigned long long)row->segments);
	} else {
		strcpy(cells[C_BATCHES], "-");
		strcpy(cells[C_SEGMENTS], "-");
	}
	snprintf(cells[C_BYTES], CELL_LEN, "%llu",
		 (unsigned long long)row->bytes);
}

/* print_table() - a heading and @n rows, columns left-aligned */
static void print_table(FILE *f, const struct dmaengine_report *r,
			const struct row *rows, unsigned int n,
			const char *chan_head)
{
	int ncols = r->opts->verbose ? C_NR : C_GBPS + 1;
	char (*cells)[C_NR][CELL_LEN];
	int width[C_NR], c;
	unsigned int i;

	cells = calloc(n + 1, sizeof(*cells));
	if (!cells)
		return;
	for (c = 0; c < C_NR; c++) {
		snprintf(cells[0][c], CELL_LEN, "%s",
			 c == C_CHAN ? chan_head : columns[c].head);
		width[c] = columns[c].width;
	}
	for (i = 0; i < n; i++)
		row_cells(r, &rows[i], cells[i + 1]);
	for (i = 0; i <= n; i++)
		for (c = 0; c < ncols; c++)
			if (display_width(cells[i][c]) > width[c])
				width[c] = display_width(cells[i][c]);
	for (i = 0; i <= n; i++) {
		for (c = 0; c < ncols; c++) {
			fputs(cells[i][c], f);
			if (c < ncols - 1)
				fprintf(f, "%*s",
					width[c] - display_width(cells[i][c]) + 1,
					"");
		}
		fputc('\n', f);
	}
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

		fprintf(f, "%s %.*s (%.*s, %.*s)", i ? "," : "",
			NAME_MAX_LEN, ch->name, NAME_MAX_LEN, ch->device,
			NAME_MAX_LEN, ch->driver);
	}
	fputc('\n', f);
}

static void print_params_line(FILE *f, const struct dmaengine_report *r)
{
	const struct dmaengine_benchmark *b = r->b;
	char bytes[32], folio[32];

	format_size(b->bytes_per_channel, bytes, sizeof(bytes));
	format_size(report_folio_bytes(r), folio, sizeof(folio));
	fprintf(f, "# %s per channel in batches of %u x %s; %u runs after %u warm-up; src node %d, dst node %d; prep %s%s%s%s\n",
		bytes, b->sge, folio, b->runs, b->warmup_runs, b->src_node,
		b->dst_node, prep_modes_name(b->prep_modes),
		b->flags & DMAENGINE_BENCH_F_VERIFY ? ", verify" : "",
		b->flags & DMAENGINE_BENCH_F_POLL ? ", poll" : "",
		b->flags & DMAENGINE_BENCH_F_ALLOW_FEWER ? ", allow fewer" : "");
}

static void print_phases_line(FILE *f, const struct dmaengine_report *r)
{
	unsigned int mode;
	struct row row;

	fprintf(f, "# acquire_ms %.2f", r->b->acquire_ns / NS_PER_MS);
	for (mode = 0; mode < DMAENGINE_BENCH_NR_PREP_MODES; mode++) {
		if (!prep_mode_ran(r, mode))
			continue;
		row_from_result(r, mode, &row);
		fprintf(f, "; %s: map_ms %.2f \u00b1 %.2f, unmap_ms %.2f \u00b1 %.2f",
			prep_mode_name(mode), row.mean[PH_MAP], row.sd[PH_MAP],
			row.mean[PH_UNMAP], row.sd[PH_UNMAP]);
	}
	fputc('\n', f);
}

void report_dmaengine_text(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r)
{
	struct row rows[DMAENGINE_BENCH_NR_PREP_MODES], *pc;
	unsigned int mode, n = 0;

	fprintf(f, "# " PROG_NAME " %s, kernel %s\n", ctx->version,
		ctx->kernel);
	print_channels_line(f, r);
	print_params_line(f, r);
	print_phases_line(f, r);
	for (mode = 0; mode < DMAENGINE_BENCH_NR_PREP_MODES; mode++)
		if (prep_mode_ran(r, mode))
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

void report_dmaengine_csv(FILE *f, const struct dmaengine_report *r)
{
	unsigned int mode;
	struct row row;
	int p;

	fprintf(f, "%s\n", dmaengine_csv_header);
	for (mode = 0; mode < DMAENGINE_BENCH_NR_PREP_MODES; mode++) {
		if (!prep_mode_ran(r, mode))
			continue;
		row_from_result(r, mode, &row);
		fprintf(f, "%s,%s,%u,%llu,%u,%u,%llu,%llu,%llu,%llu,%llu",
			prep_mode_name(mode), row.chan, r->b->folio_order,
			(unsigned long long)report_folio_bytes(r), r->b->sge,
			row.runs, (unsigned long long)row.bytes,
			(unsigned long long)row.prep_calls,
			(unsigned long long)row.submits,
			(unsigned long long)row.batches,
			(unsigned long long)row.segments);
		for (p = 0; p < PH_NR; p++)
			fprintf(f, ",%.6f,%.6f", row.mean[p], row.sd[p]);
		fputc('\n', f);
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

static void json_phases(struct json *j, const struct row *row)
{
	int p;

	for (p = 0; p < PH_NR; p++)
		json_key_mean_sd(j, phase_names[p], row->mean[p], row->sd[p], 6);
}

static void json_params(struct json *j, const struct dmaengine_report *r)
{
	const struct dmaengine_benchmark *b = r->b;

	json_key(j, "params");
	json_object_begin(j);
	json_key_uint(j, "channels", b->channels);
	json_key_name(j, "channel", b->channel);
	json_key_name(j, "device", b->device);
	json_key_uint(j, "folio_order", b->folio_order);
	json_key_uint(j, "folio_bytes", report_folio_bytes(r));
	json_key_uint(j, "page_size", r->opts->page_size);
	json_key_uint(j, "sge", b->sge);
	json_key_uint(j, "bytes_per_channel", b->bytes_per_channel);
	json_key_uint(j, "runs", b->runs);
	json_key_uint(j, "warmup", b->warmup_runs);
	json_key_int(j, "src_node", b->src_node);
	json_key_int(j, "dst_node", b->dst_node);
	json_key(j, "prep");
	json_string(j, prep_modes_name(b->prep_modes));
	json_key_bool(j, "verify", b->flags & DMAENGINE_BENCH_F_VERIFY);
	json_key_bool(j, "poll", b->flags & DMAENGINE_BENCH_F_POLL);
	json_key_bool(j, "allow_fewer", b->flags & DMAENGINE_BENCH_F_ALLOW_FEWER);
	json_key_uint(j, "timeout_ms", b->timeout_ms);
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
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_results(struct json *j, const struct dmaengine_report *r)
{
	unsigned int mode;
	struct row row;

	json_key(j, "results");
	json_array_begin(j);
	for (mode = 0; mode < DMAENGINE_BENCH_NR_PREP_MODES; mode++) {
		if (!prep_mode_ran(r, mode))
			continue;
		row_from_result(r, mode, &row);
		json_object_begin(j);
		json_key(j, "prep_mode");
		json_string(j, prep_mode_name(mode));
		json_key_uint(j, "chan", dmaengine_channels_used(r->b));
		json_key_uint(j, "folio_order", r->b->folio_order);
		json_key_uint(j, "folio_bytes", report_folio_bytes(r));
		json_key_uint(j, "sge", r->b->sge);
		json_key_uint(j, "runs", row.runs);
		json_key_uint(j, "bytes", row.bytes);
		json_key_uint(j, "prep_calls", row.prep_calls);
		json_key_uint(j, "submits", row.submits);
		json_key_uint(j, "batches", row.batches);
		json_key_uint(j, "segments", row.segments);
		json_phases(j, &row);
		json_key(j, "acquire_ms");
		json_double(j, r->b->acquire_ns / NS_PER_MS, 6);
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
		json_key(j, "prep_mode");
		json_string(j, prep_mode_name(rows[i].prep_mode));
		json_key(j, "channel");
		json_string(j, rows[i].chan);
		json_key_uint(j, "index", rows[i].channel);
		json_key_uint(j, "runs", rows[i].runs);
		json_key_uint(j, "bytes", rows[i].bytes);
		json_key_uint(j, "prep_calls", rows[i].prep_calls);
		json_key_uint(j, "submits", rows[i].submits);
		json_phases(j, &rows[i]);
		json_object_end(j);
	}
	json_array_end(j);
	free(rows);
}

static void json_samples(struct json *j, const struct dmaengine_report *r)
{
	unsigned int i;

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
		json_key_uint(j, "start_ns", s->start_ns);
		json_key_uint(j, "end_ns", s->end_ns);
		json_key_uint(j, "prep_ns", s->prep_ns);
		json_key_uint(j, "submit_ns", s->submit_ns);
		json_key_uint(j, "issue_ns", s->issue_ns);
		json_key_uint(j, "wait_ns", s->wait_ns);
		json_key_uint(j, "map_ns", s->map_ns);
		json_key_uint(j, "unmap_ns", s->unmap_ns);
		json_key_uint(j, "bytes", s->bytes);
		json_key_uint(j, "prep_calls", s->prep_calls);
		json_key_uint(j, "submits", s->submits);
		json_object_end(j);
	}
	json_array_end(j);
}

void report_dmaengine_json(FILE *f, const struct report_ctx *ctx,
			   const struct dmaengine_report *r)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j);
	json_key(&j, "tool");
	json_string(&j, PROG_NAME);
	json_key(&j, "version");
	json_string(&j, ctx->version);
	json_key(&j, "kernel");
	json_string(&j, ctx->kernel);
	json_key(&j, "mode");
	json_string(&j, mode_name(MODE_DMAENGINE));
	json_params(&j, r);
	json_key_uint(&j, "channels_used", dmaengine_channels_used(r->b));
	json_channels(&j, r);
	json_results(&j, r);
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
		report_dmaengine_csv(f, r);
		break;
	case OUT_TEXT:
		report_dmaengine_text(f, ctx, r);
		break;
	}
}
