// SPDX-License-Identifier: GPL-2.0-only
/*
 * The migrate mode's offload phases, migrate_run_in() end to end against
 * a made-up kernel (migrate_fixture.h) whose STATS give a fixed answer:
 * in the text, JSON and CSV, at each scale (a move, a batch, a folio) the
 * phases and "other" add up to the batch time within the rounding, other
 * is what the answer leaves outside the phases, and the figures a batch
 * and a folio are a move's over STATS' batches and folios. The rest of
 * the run: test_migrate_run.c.
 */
#include <math.h>

#include "migrate_fixture.h"

/* csv_folios() - the folios column (the 9th) of a CSV line */
static double csv_folios(const char *line)
{
	int col;

	for (col = 1; line && col < 9; col++) {
		line = strchr(line, ',');
		line = line ? line + 1 : NULL;
	}
	return line ? strtod(line, NULL) : NAN;
}

/* the phases STATS times (all but the batch's own time), and the rest */
static const char *const phases[] = {
	"build", "map", "prep", "submit", "issue", "wait", "unmap", "mark",
	"other",
};
#define NR_PHASES	(sizeof(phases) / sizeof(phases[0]))

/* the scales: a move's (ms), a batch's and a folio's (us) */
static const char *const scales[] = { "_ms", "_us_per_batch", "_us_per_folio" };

/* within the rounding of the tool's six decimals, a term each */
#define ROUNDING	(NR_PHASES * 0.5e-6 + 1e-9)

/* json_mean() - the mean of figure @key in the JSON row @row; NAN if none */
static double json_mean(const char *row, const char *key)
{
	char pat[96];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":{\"mean\":", key);
	p = strstr(row, pat);
	return p ? strtod(p + strlen(pat), NULL) : NAN;
}

/* csv_mean() - the KEY_mean column of the CSV line @line under @header */
static double csv_mean(const char *header, const char *line, const char *key)
{
	char want[96];
	const char *h = header, *l = line;
	size_t len;

	snprintf(want, sizeof(want), "%s_mean", key);
	len = strlen(want);
	while (h && l) {
		if (!strncmp(h, want, len) && (h[len] == ',' || h[len] == '\n'))
			return strtod(l, NULL);
		h = strchr(h, ',');
		l = strchr(l, ',');
		h = h ? h + 1 : NULL;
		l = l ? l + 1 : NULL;
	}
	return NAN;
}

/* the figure @phase at @scale of a row: from JSON or from CSV */
struct row_src {
	const char *json_row, *csv_header, *csv_line;
};

static double figure(const struct row_src *src, const char *phase,
		     const char *scale)
{
	char key[64];

	snprintf(key, sizeof(key), "%s%s", phase, scale);
	return src->json_row ? json_mean(src->json_row, key) :
			       csv_mean(src->csv_header, src->csv_line, key);
}

/*
 * phases_add_up() - in the prep_memcpy row of @src: at each scale, the
 * phases and other add up to the batch time, within the rounding; other
 * is what the fixed STATS answer leaves (independent of the sum); the
 * figures a batch and a folio are those of a move over STATS' batches
 * and folios. @what: the format.
 */
static void phases_add_up(const struct row_src *src, const char *what)
{
	double batches = figure(src, "batches", ""), folios, sum;
	double div[3], batch[3];
	char key[64];
	size_t sc, p;
	bool all;

	folios = src->json_row ? strtod(strstr(src->json_row, "\"folios\":") +
					strlen("\"folios\":"), NULL) :
				 csv_folios(src->csv_line);
	is_int((long long)batches, FAKE_BATCHES, "%s: batches from STATS", what);
	is_int((long long)folios, 4, "%s: 4 folios a move", what);
	div[0] = 1;
	div[1] = batches;
	div[2] = folios;
	for (sc = 0; sc < 3; sc++) {
		batch[sc] = figure(src, "batch", scales[sc]);
		for (sum = 0, all = true, p = 0; p < NR_PHASES; p++) {
			double v = figure(src, phases[p], scales[sc]);

			if (isnan(v)) {
				printf("# %s: no %s%s\n", what, phases[p],
				       scales[sc]);
				all = false;
			}
			sum += v;
		}
		ok(all && fabs(sum - batch[sc]) <= ROUNDING,
		   "%s: the phases and other%s add up to batch%s (%.6f = %.6f)",
		   what, scales[sc], scales[sc], sum, batch[sc]);
		snprintf(key, sizeof(key), "other%s", scales[sc]);
		ok(fabs(figure(src, "other", scales[sc]) -
			FAKE_OTHER_NS / (sc ? 1e3 : 1e6) / div[sc]) <= 0.5e-6,
		   "%s: %s is the batch time outside the phases STATS has",
		   what, key);
	}
	ok(fabs(batch[0] - FAKE_BATCH_NS / 1e6) <= 0.5e-6,
	   "%s: batch_ms from STATS' ph.batch_ns", what);
	for (p = 0; p < NR_PHASES; p++) {
		double move = figure(src, phases[p], "_ms");

		ok(fabs(figure(src, phases[p], "_us_per_batch") -
			move * 1e3 / batches) <= 1e-6 * batches &&
		   fabs(figure(src, phases[p], "_us_per_folio") -
			move * 1e3 / folios) <= 1e-6 * folios,
		   "%s: %s a batch and a folio: %s_ms over the batches, over the folios",
		   what, phases[p], phases[p]);
	}
}

/*
 * The offload's time in the hook split phase by phase, a move, a batch
 * and a folio, in the three formats, from a fixed STATS answer
 */
static void test_phases(void)
{
	static char json[sizeof(out_text)];
	struct row_src src = { 0 };
	const char *row, *end, *head;
	char *csv_row;

	make_tree(2);
	is_int(run(K_HOOK, SMALL " -p memcpy -v"), 0, "phases, -v: exit status 0");
	has_str(out_text, " mark_ms     other_ms    copy_share ",
		"-v: other_ms after the phases STATS has, then copy_share");
	head = strstr(out_text, " copy_share ");
	ok(head && (head = strstr(head, " client ")) &&
	   (head = strstr(head, " dma_api ")) &&
	   (head = strstr(head, " dmaengine ")) &&
	   (end = strchr(head, '\n')) && !strncmp(end - 7, " engine", 7),
	   "-v: copy_share split after it: client, dma_api, dmaengine, engine, last");
	has_str(strstr(out_text, "\nprep_memcpy "), " 0.02 \u00b1 0.00 0.11 \u00b1 0.00 ",
		"-v: mark_ms 0.02, other_ms 0.11 of the batch's 2 ms");
	has_str(out_text, "\n# the offload's phases a batch (us): STATS' phase times over its batches\n"
		"mode           chan folio folios batch_us      build_us     map_us ",
		"-v: the table a batch, its title and columns");
	has_str(out_text, "\n# the offload's phases a folio (us): STATS' phase times over its folios\n"
		"mode           chan folio folios batch_us      build_us     map_us ",
		"-v: the table a folio");
	has_str(strstr(out_text, "a batch (us)"), "\nprep_memcpy    4    64KB  4      666.67 \u00b1 0.00 16.67 \u00b1 0.00 ",
		"-v: a batch: 2 ms over 3 batches, build 50 us over 3");
	has_str(strstr(out_text, "a folio (us)"), "\nprep_memcpy    4    64KB  4      500.00 \u00b1 0.00 12.50 \u00b1 0.00 ",
		"-v: a folio: 2 ms over 4 folios");
	ok(!strstr(strstr(out_text, "a batch (us)"), "\ncpu "),
	   "-v: the cpu row has no table a batch or a folio");
	is_int(run(K_HOOK, SMALL " -p memcpy"), 0, "phases, no -v: exit status 0");
	ok(!strstr(out_text, "other_ms") && !strstr(out_text, "a batch (us)"),
	   "no -v: neither other_ms nor the tables a batch and a folio");

	is_int(run(K_HOOK, SMALL " -p memcpy --json -v"), 0,
	       "phases, --json: exit status 0");
	snprintf(json, sizeof(json), "%s", out_text);
	row = strstr(json, "{\"prep_mode\":\"prep_memcpy\",");
	end = row ? strstr(row, "}]") : NULL;
	ok(row && end, "--json: the prep_memcpy row");
	if (row && end) {
		json[end - json] = '\0';
		src.json_row = row;
		phases_add_up(&src, "JSON");
	}
	has_str(out_text, "{\"key\":\"other_us_per_folio\",\"heading\":\"other_us\",\"width\":11,\"verbose\":true,\"group\":\"folio\"}",
		"--json: the table says which text table a figure is in");

	is_int(run(K_HOOK, SMALL " -p memcpy --csv"), 0,
	       "phases, --csv: exit status 0");
	csv_row = strstr(out_text, "\nprep_memcpy,");
	ok(csv_row != NULL, "--csv: the prep_memcpy row");
	if (csv_row) {
		*csv_row++ = '\0';
		src.json_row = NULL;
		src.csv_header = out_text;
		src.csv_line = csv_row;
		phases_add_up(&src, "CSV");
	}
	tree_free();
}

int main(int argc, char **argv)
{
	if (!fake_init(argc, argv))
		return 1;
	test_phases();
	return tap_done();
}
