/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The dmaengine report's rows, shared by its three outputs:
 * report_dmaengine.c (the figures, the columns, the rows),
 * report_dmaengine_text.c (the table and its '#' lines) and
 * report_dmaengine_json.c (CSV and JSON). Private to them: the rest of
 * the tool uses report.h.
 */
#ifndef DMABENCH_REPORT_DMAENGINE_H
#define DMABENCH_REPORT_DMAENGINE_H

#include <stddef.h>

#include "report.h"

/*
 * The figures of a row, each described once, here: its name in CSV and
 * JSON, its unit and the prep modes that have it (the others print '-' in
 * the table, nothing in CSV, null in JSON). The JSON's "figures" member
 * says the same to scripts, which take their lists of figures from it.
 * The phases come from the uapi's list, DMAENGINE_BENCH_PHASES, with
 * their units: a time (ns) is reported in ms ("prep" is "prep_ms"), a
 * count as it is; a phase the list gives no prep mode (the migration
 * offload's) is no figure here (prep_modes 0), and one the kernel did not
 * fill (->results[].phases) is missing, like a mode's lacking figure.
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

#define NS_PER_MS	1e6
#define BYTES_PER_GB	1e9

/*
 * One run's totals (the counts, CT_*), then the means and standard
 * deviations over the runs: the run's time, the uapi's phases in their
 * order, the throughput. The order of CSV and JSON.
 */
enum figure_id {
	CT_BYTES, CT_PREP_CALLS, CT_SUBMITS, CT_BATCHES, CT_SEGMENTS,
	CT_NR,
	PH_RUN = CT_NR,
	PH_FIRST,
	PH_PREP = PH_FIRST + DMAENGINE_BENCH_PH_PREP,
	PH_SUBMIT = PH_FIRST + DMAENGINE_BENCH_PH_SUBMIT,
	PH_ISSUE = PH_FIRST + DMAENGINE_BENCH_PH_ISSUE,
	PH_WAIT = PH_FIRST + DMAENGINE_BENCH_PH_WAIT,
	PH_MAP = PH_FIRST + DMAENGINE_BENCH_PH_MAP,
	PH_UNMAP = PH_FIRST + DMAENGINE_BENCH_PH_UNMAP,
	PH_COPY = PH_FIRST + DMAENGINE_BENCH_PH_COPY,
	PH_CONVERT = PH_FIRST + DMAENGINE_BENCH_PH_CONVERT,
	PH_STALLS = PH_FIRST + DMAENGINE_BENCH_PH_STALLS,
	PH_GBPS = PH_FIRST + DMAENGINE_BENCH_NR_PHASES,
	FIG_NR
};

/* the phases' entries are filled in from the uapi's before main() */
extern struct figure figures[FIG_NR];

/*
 * A sample's fields as the JSON's "samples" name them, in its order, and
 * the figure of a per-channel row each one feeds: its start and end, the
 * phases that are times, its counts, the phases that are counts.
 */
struct sample_field {
	const char *key;
	size_t off;
	enum figure_id fig;	/* FIG_NR: none */
};

#define NR_SAMPLE_FIELDS	(5 + DMAENGINE_BENCH_NR_PHASES)
extern struct sample_field sample_fields[NR_SAMPLE_FIELDS];
/* the entries of sample_fields[]: the dmaengine mode's phases only */
extern unsigned int nr_sample_fields;

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
	bool known[FIG_NR];	/* filled by the kernel: not '-' or null */
};

/* the phases up to this one have a place in the table's columns */
#define PH_PLACED	PH_STALLS

enum column {
	C_MODE, C_CHAN, C_FOLIO, C_SGE, C_RUN, C_PREP, C_SUBMIT, C_ISSUE,
	C_WAIT, C_MAP, C_UNMAP, C_COPY, C_CALLS, C_GBPS,
	/* --verbose */
	C_CONVERT, C_STALLS, C_SUBMITS, C_BATCHES, C_SEGMENTS, C_BYTES,
	/* then one for each later phase, headed by its key */
	C_MORE,
	C_NR = C_MORE + PH_GBPS - PH_PLACED - 1
};

/* A text table's column: its heading, its reference width, what it shows. */
struct table_column {
	const char *head;
	int width;
	const char *key;	/* NULL: the figure's */
	enum figure_id fig;	/* FIG_NR: not a figure */
};

extern struct table_column columns[C_NR];

/* column_figure() - the figure column @c shows, or NULL */
const struct figure *column_figure(int c);
/* column_verbose() - whether column @c is shown with --verbose only */
bool column_verbose(int c);

/* dmaengine_modes_run() - DMAENGINE_BENCH_PREP_* bits of the modes that ran */
unsigned int dmaengine_modes_run(const struct dmaengine_benchmark *b);
/* channel_entries() - entries of r->channels that describe a channel */
unsigned int channel_entries(const struct dmaengine_report *r);
/* cpus_text() - the --cpus list of the run, "" when not pinned */
void cpus_text(const struct dmaengine_benchmark *b, char *buf, size_t len);
uint64_t report_folio_bytes(const struct dmaengine_report *r);
/* the destination folios: of ->dst_folio_order with F_DST_ORDER */
unsigned int report_dst_order(const struct dmaengine_report *r);
uint64_t report_dst_folio_bytes(const struct dmaengine_report *r);
/* whether the destination folios differ from the source's */
bool dst_differs(const struct dmaengine_report *r);
/* batches in flight per channel; the ABI reads 0 as 1 */
unsigned int report_depth(const struct dmaengine_benchmark *b);

/*
 * phases_filled() - DMAENGINE_BENCH_PHASE_BIT()s of the phases the kernel
 * measured for @mode: its result's ->phases, or from a kernel before it,
 * those of DMAENGINE_BENCH_PHASES_VER1 the list gives @mode
 */
uint64_t phases_filled(const struct dmaengine_benchmark *b, unsigned int mode);
/* figure_of_mode() - whether figure @p is one of the dmaengine mode's */
bool figure_of_mode(int p);

/* row_from_result() - prep mode @mode's row of the kernel's statistics */
void row_from_result(const struct dmaengine_report *r, unsigned int mode,
		     struct row *row);
/* per_channel_rows() - rows from the samples; returns how many (freed by caller) */
unsigned int per_channel_rows(const struct dmaengine_report *r,
			      struct row **rows);
/* count_known() - per-channel rows (no totals) have no batches, segments */
bool count_known(const struct row *row, enum figure_id k);

#endif
