// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine mode's output: a table for people, CSV and JSON for scripts.
 *
 * Each output is made of rows: one per prep mode from the kernel's
 * statistics (struct dmaengine_bench_result), and with --per-channel one
 * per prep mode and channel computed here from the per-run samples.
 *
 * Here the figures, the table's columns and the rows; the table in
 * report_dmaengine_text.c, CSV and JSON in report_dmaengine_json.c.
 */
#include <stdlib.h>
#include <string.h>

#include "report_dmaengine.h"
#include "stats.h"
#include "units.h"

struct figure figures[FIG_NR] = {
	[CT_BYTES] = { "bytes", "bytes", 1, DMAENGINE_BENCH_PREP_ALL,
		       R(bytes) },
	[CT_PREP_CALLS] = { "prep_calls", "count", 1, DMAENGINE_BENCH_PREP_DMA,
			    R(prep_calls) },
	[CT_SUBMITS] = { "submits", "count", 1, DMAENGINE_BENCH_PREP_DMA,
			 R(submits) },
	[CT_BATCHES] = { "batches", "count", 1, DMAENGINE_BENCH_PREP_ALL,
			 R(batches) },
	[CT_SEGMENTS] = { "segments", "count", 1, DMAENGINE_BENCH_PREP_ALL,
			  R(segments) },
	[PH_RUN] = { "run_ms", "ms", NS_PER_MS, DMAENGINE_BENCH_PREP_ALL,
		     R(run_ns) },
	/* the phases: dmaengine_tables() */
	[PH_GBPS] = { "gbps", "GB/s", BYTES_PER_GB, DMAENGINE_BENCH_PREP_ALL,
		      R(bytes_per_sec) },
};

#define SAMPLE(f, fig)	{ #f, offsetof(struct dmaengine_bench_sample, f), fig }
static const struct sample_field sample_times[] = {
	SAMPLE(start_ns, FIG_NR), SAMPLE(end_ns, FIG_NR),
};

static const struct sample_field sample_counts[] = {
	SAMPLE(bytes, CT_BYTES), SAMPLE(prep_calls, CT_PREP_CALLS),
	SAMPLE(submits, CT_SUBMITS),
};

#define NR_OF(a)	(sizeof(a) / sizeof((a)[0]))
_Static_assert(NR_OF(sample_times) + NR_OF(sample_counts) +
	       DMAENGINE_BENCH_NR_PHASES == NR_SAMPLE_FIELDS,
	       "a sample's fields: its times, its counts and the phases");
struct sample_field sample_fields[NR_SAMPLE_FIELDS];
unsigned int nr_sample_fields;

/*
 * The uapi's list of phases: name, unit and the prep modes that measure
 * each (0: not the dmaengine mode's)
 */
#define PH_INFO(id, name, unit, modes, migrate) \
	{ name, DMAENGINE_BENCH_UNIT_##unit, modes },
static const struct {
	const char *name;
	enum dmaengine_bench_unit unit;
	unsigned int prep_modes;
} phase_list[DMAENGINE_BENCH_NR_PHASES] = {
	DMAENGINE_BENCH_PHASES(PH_INFO)
};
#undef PH_INFO

/*
 * Where the dmaengine mode's phases are: their statistic in struct
 * dmaengine_bench_result and their field in struct dmaengine_bench_sample,
 * of one name
 */
#define PH_AT(id, f) [DMAENGINE_BENCH_PH_##id] = \
	{ R(f), offsetof(struct dmaengine_bench_sample, f) }
static const struct {
	size_t result, sample;
} phase_at[DMAENGINE_BENCH_NR_PHASES] = {
	PH_AT(PREP, prep_ns), PH_AT(SUBMIT, submit_ns),
	PH_AT(ISSUE, issue_ns), PH_AT(WAIT, wait_ns), PH_AT(MAP, map_ns),
	PH_AT(UNMAP, unmap_ns), PH_AT(COPY, copy_ns),
	PH_AT(CONVERT, convert_ns), PH_AT(STALLS, prep_stalls),
};
#undef PH_AT

/*
 * Headings and the reference table's widths (wider values widen them),
 * and the JSON key of what a column shows: a figure (mean +- stddev of a
 * phase, or a count) or the row's key. The JSON's "table" member says the
 * same to scripts, which lay their tables out by it.
 */
#define COL(h, w, k)	{ .head = h, .width = w, .key = k, .fig = FIG_NR }
#define FIG_COL(h, w, f)	{ .head = h, .width = w, .key = NULL, .fig = f }
struct table_column columns[C_NR] = {
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
	/* later phases: dmaengine_tables() */
};

/*
 * A unit's suffix to a phase's name: in the samples, as the kernel counts
 * ("prep_ns"), and as a figure ("prep_ms"), its scale from the one to the
 * other
 */
static const struct {
	const char *sample, *figure, *unit;
	double scale;
} unit_of[DMAENGINE_BENCH_NR_UNITS] = {
	[DMAENGINE_BENCH_UNIT_NS] = { "_ns", "_ms", "ms", NS_PER_MS },
	[DMAENGINE_BENCH_UNIT_COUNT] = { "", "", "count", 1 },
	[DMAENGINE_BENCH_UNIT_BYTES] = { "", "", "bytes", 1 },
};

bool figure_of_mode(int p)
{
	return figures[p].prep_modes != 0;
}

/* the samples' fields of the phases that are times (@time) or counts */
static unsigned int sample_phases(struct sample_field *f, bool time)
{
	static char keys[DMAENGINE_BENCH_NR_PHASES][32];
	unsigned int ph, n = 0;

	for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++) {
		if (!phase_list[ph].prep_modes ||
		    (phase_list[ph].unit == DMAENGINE_BENCH_UNIT_NS) != time)
			continue;
		snprintf(keys[ph], sizeof(keys[ph]), "%s%s",
			 phase_list[ph].name,
			 unit_of[phase_list[ph].unit].sample);
		f[n].key = keys[ph];
		f[n].off = phase_at[ph].sample;
		f[n++].fig = PH_FIRST + ph;
	}
	return n;
}

/*
 * The phases' figures, the samples' fields and the later phases' columns,
 * from the uapi's list of phases: before main(), so that the tables are
 * whole wherever they are read.
 */
__attribute__((constructor)) static void dmaengine_tables(void)
{
	static char keys[DMAENGINE_BENCH_NR_PHASES][32];
	unsigned int ph, n = 0;
	int c;

	for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++) {
		struct figure *f = &figures[PH_FIRST + ph];

		snprintf(keys[ph], sizeof(keys[ph]), "%s%s", phase_list[ph].name,
			 unit_of[phase_list[ph].unit].figure);
		f->key = keys[ph];
		f->unit = unit_of[phase_list[ph].unit].unit;
		f->scale = unit_of[phase_list[ph].unit].scale;
		/* a phase of the list this table misses: no figure */
		f->prep_modes = phase_at[ph].result ? phase_list[ph].prep_modes
						    : 0;
		f->off = phase_at[ph].result;
	}
	memcpy(sample_fields, sample_times, sizeof(sample_times));
	n = NR_OF(sample_times);
	n += sample_phases(&sample_fields[n], true);
	memcpy(&sample_fields[n], sample_counts, sizeof(sample_counts));
	n += NR_OF(sample_counts);
	n += sample_phases(&sample_fields[n], false);
	nr_sample_fields = n;
	for (c = C_MORE; c < C_NR; c++) {
		enum figure_id p = PH_PLACED + 1 + (c - C_MORE);

		columns[c] = (struct table_column)FIG_COL(figures[p].key,
							  (int)strlen(figures[p].key),
							  p);
	}
}

const struct figure *column_figure(int c)
{
	return columns[c].fig == FIG_NR ? NULL : &figures[columns[c].fig];
}

bool column_verbose(int c)
{
	return c > C_GBPS;
}

unsigned int dmaengine_channels_used(const struct dmaengine_benchmark *b)
{
	return b->channels_used ? b->channels_used : b->channels;
}

/* dmaengine_modes_run() - DMAENGINE_BENCH_PREP_* bits of the modes that ran */
unsigned int dmaengine_modes_run(const struct dmaengine_benchmark *b)
{
	return b->prep_modes_run ? b->prep_modes_run : b->prep_modes;
}

/* channel_entries() - entries of r->channels that describe a channel */
unsigned int channel_entries(const struct dmaengine_report *r)
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
void cpus_text(const struct dmaengine_benchmark *b, char *buf,
		      size_t len)
{
	format_cpu_list((const uint32_t *)(uintptr_t)b->cpus_ptr,
			b->cpus_ptr ? b->nr_cpus : 0, buf, len);
}

uint64_t report_folio_bytes(const struct dmaengine_report *r)
{
	return (uint64_t)r->opts->page_size << r->b->folio_order;
}

/* the destination folios: of ->dst_folio_order with F_DST_ORDER */
unsigned int report_dst_order(const struct dmaengine_report *r)
{
	return r->b->flags & DMAENGINE_BENCH_F_DST_ORDER ?
	       r->b->dst_folio_order : r->b->folio_order;
}

uint64_t report_dst_folio_bytes(const struct dmaengine_report *r)
{
	return (uint64_t)r->opts->page_size << report_dst_order(r);
}

/* whether the destination folios differ from the source's */
bool dst_differs(const struct dmaengine_report *r)
{
	return report_dst_order(r) != r->b->folio_order;
}

/* batches in flight per channel; the ABI reads 0 as 1 */
unsigned int report_depth(const struct dmaengine_benchmark *b)
{
	return b->depth ? b->depth : 1;
}

static size_t result_size(const struct dmaengine_benchmark *b)
{
	return b->result_size ? b->result_size :
				DMAENGINE_BENCH_RESULT_SIZE_VER1;
}

const struct dmaengine_bench_result *result_of(const struct dmaengine_benchmark *b,
					       unsigned int mode)
{
	return at_off(b->results, mode * result_size(b));
}

uint64_t phases_filled(const struct dmaengine_benchmark *b, unsigned int mode)
{
	const struct dmaengine_bench_result *res = result_of(b, mode);
	uint64_t mask = 0;
	unsigned int ph;

	if (R(phases) + sizeof(res->phases) <= result_size(b) && res->phases)
		return res->phases;
	for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++)
		if (phase_list[ph].prep_modes & (1U << mode))
			mask |= DMAENGINE_BENCH_PHASE_BIT(ph);
	return mask & DMAENGINE_BENCH_PHASES_VER1;
}

/*
 * whether the kernel filled figure @p of @mode's row: within the entry it
 * wrote, and a phase of its mask; one the mode lacks is the kernel's 0
 */
static bool figure_known(const struct dmaengine_benchmark *b,
			 unsigned int mode, uint64_t phases, int p)
{
	if (!figure_of_mode(p) ||
	    figures[p].off + sizeof(uint64_t) > result_size(b))
		return false;
	if (!(figures[p].prep_modes & (1U << mode)))
		return true;
	return p < PH_FIRST || p >= PH_FIRST + DMAENGINE_BENCH_NR_PHASES ||
	       phases & DMAENGINE_BENCH_PHASE_BIT(p - PH_FIRST);
}

void row_from_result(const struct dmaengine_report *r,
			    unsigned int mode, struct row *row)
{
	const struct dmaengine_bench_result *res = result_of(r->b, mode);
	uint64_t phases = phases_filled(r->b, mode);
	int p, k;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	snprintf(row->chan, sizeof(row->chan), "%u",
		 dmaengine_channels_used(r->b));
	row->runs = res->runs;
	row->totals = true;
	for (k = 0; k < CT_NR; k++) {
		row->known[k] = figure_known(r->b, mode, phases, k);
		if (row->known[k])
			row->count[k] = *(const uint64_t *)at_off(res,
								  figures[k].off);
	}
	for (p = PH_RUN; p < FIG_NR; p++) {
		const struct dmaengine_bench_stat *st =
			at_off(res, figures[p].off);

		row->known[p] = figure_known(r->b, mode, phases, p);
		if (!row->known[p])
			continue;
		row->mean[p] = st->mean / figures[p].scale;
		row->stddev[p] = st->stddev / figures[p].scale;
	}
}

/* row_from_samples() - prep mode @mode on channel @ch; false: no samples */
static bool row_from_samples(const struct dmaengine_report *r,
			     unsigned int mode, unsigned int ch,
			     struct row *row)
{
	uint64_t phases = phases_filled(r->b, mode);
	struct stat_acc acc[FIG_NR];
	unsigned int i;
	size_t k;
	int p;

	memset(row, 0, sizeof(*row));
	row->prep_mode = mode;
	row->channel = ch;
	for (p = 0; p < FIG_NR; p++)
		row->known[p] = figure_known(r->b, mode, phases, p);
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
		for (k = 0; k < nr_sample_fields; k++) {
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
unsigned int per_channel_rows(const struct dmaengine_report *r,
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

bool count_known(const struct row *row, enum figure_id k)
{
	return row->totals || (k != CT_BATCHES && k != CT_SEGMENTS);
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
