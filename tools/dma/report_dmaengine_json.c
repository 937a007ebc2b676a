// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine mode's output for scripts: CSV (a header row, a row per prep
 * mode) and JSON (the parameters, the channels, the results, what each
 * figure and column is, and with --per-channel and --samples those too).
 * The copy modes share its CSV fields and JSON header.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "json.h"
#include "report_dmaengine.h"

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
		if (figure_of_mode(p))
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
			if (row.known[k])
				fprintf(f, ",%llu",
					(unsigned long long)row.count[k]);
			else
				fputc(',', f);
		/* a figure the kernel did not fill: empty fields */
		for (p = PH_RUN; p < FIG_NR; p++)
			if (row.known[p])
				fprintf(f, ",%.6f,%.6f", row.mean[p],
					row.stddev[p]);
			else if (figure_of_mode(p))
				fputs(",,", f);
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

/*
 * the row's counts (batches and segments only with totals), its phases;
 * null: a figure its mode lacks, or the kernel did not fill
 */
static void json_figures_of(struct json *j, const struct row *row)
{
	int p, k;

	json_key_uint(j, "runs", row->runs);
	for (k = 0; k < CT_NR; k++) {
		if (!count_known(row, k))
			continue;
		if (row->known[k]) {
			json_key_uint(j, figures[k].key, row->count[k]);
		} else {
			json_key(j, figures[k].key);
			json_null(j);
		}
	}
	for (p = PH_RUN; p < FIG_NR; p++) {
		if (row->known[p]) {
			json_key_mean_stddev(j, figures[p].key, row->mean[p],
					     row->stddev[p], 6);
		} else if (figure_of_mode(p)) {
			json_key(j, figures[p].key);
			json_null(j);
		}
	}
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
		unsigned int err = result_of(r->b, mode)->missing;

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
		if (figure_of_mode(k))
			json_figure(j, &figures[k],
				    k < CT_NR ? "total" : "mean_stddev");
	json_array_end(j);
	json_key(j, "table");
	json_array_begin(j);
	for (c = 0; c < C_NR; c++) {
		const struct figure *fig = column_figure(c);

		if (fig && !fig->prep_modes)
			continue;
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
		uint64_t phases = s->prep_mode < DMAENGINE_BENCH_NR_MODES ?
				  phases_filled(r->b, s->prep_mode) : 0;

		json_object_begin(j);
		json_key(j, "prep_mode");
		if (mode)
			json_string(j, mode);
		else
			json_uint(j, s->prep_mode);
		json_key_uint(j, "run", s->run);
		json_key_uint(j, "channel", s->channel);
		for (k = 0; k < nr_sample_fields; k++) {
			int p = sample_fields[k].fig;

			/* a phase of the mode the kernel did not measure: null */
			if (p >= PH_FIRST && p < PH_GBPS &&
			    s->prep_mode < DMAENGINE_BENCH_NR_MODES &&
			    figures[p].prep_modes & (1U << s->prep_mode) &&
			    !(phases & DMAENGINE_BENCH_PHASE_BIT(p - PH_FIRST))) {
				json_key(j, sample_fields[k].key);
				json_null(j);
				continue;
			}
			json_key_uint(j, sample_fields[k].key,
				      sample_field(s, k));
		}
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
