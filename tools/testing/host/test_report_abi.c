// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report against kernels of other ABI versions: a kernel that says
 * which phases it filled (->results[].phases) and the stride of its
 * results (->result_size), one before both (0: the first layout's 240-byte
 * entries and the phases of DMAENGINE_BENCH_PHASES_VER1, printed as
 * before), one whose entries are smaller than the tool's (read at its
 * stride), and one that leaves a phase of a mode unfilled: '-' in the
 * table, null in JSON, empty in CSV, not 0. The migrate mode: STATS'
 * ->phases, 0 from a kernel before it (DMA_MIGRATE_PHASES_VER3), and a
 * phase STATS did not fill, with "other" that depends on it; and the
 * tool's MIGRATE_STATS_PHASES against the uapi's list.
 */
#include <stdint.h>
#include <stdlib.h>

#include "migrate.h"
#include "report_dmaengine.h"
#include "report_fixture.h"

static struct capture cap;

#define BIT(ph)	DMAENGINE_BENCH_PHASE_BIT(DMAENGINE_BENCH_PH_##ph)
#define DMA_PHASES	(BIT(PREP) | BIT(SUBMIT) | BIT(ISSUE) | BIT(WAIT) | \
			 BIT(MAP) | BIT(UNMAP) | BIT(STALLS))

/* the reference run as a kernel of this layout answers it */
static void this_kernel(struct dmaengine_benchmark *b)
{
	b->result_size = sizeof(struct dmaengine_bench_result);
	b->results[0].phases = DMA_PHASES;
	b->results[1].phases = DMA_PHASES;
}

static void test_masks(void)
{
	REFERENCE(1);

	this_kernel(&b);
	has_str(CAPTURE(&cap, report_dmaengine_text, &fctx, &r),
		REF_HEADER REF_ROW0 REF_ROW1,
		"a kernel of this layout: the reference rows");

	/* the first layout: result_size and phases 0 */
	b.result_size = 0;
	b.results[0].phases = b.results[1].phases = 0;
	has_str(CAPTURE(&cap, report_dmaengine_text, &fctx, &r),
		REF_HEADER REF_ROW0 REF_ROW1,
		"a kernel of the first layout (no result_size, no masks): the same rows");

	/* a kernel that did not fill memcpy's wait */
	this_kernel(&b);
	b.results[0].phases &= ~BIT(WAIT);
	CAPTURE(&cap, report_dmaengine_text, &fctx, &r);
	has_str(cap.buf, "0.09 \u00b1 0.04 -                 1.20 \u00b1 0.03",
		"a phase the kernel did not fill: '-' in the table, not 0");
	has_str(cap.buf, REF_ROW1, "... the other row as it was");
	o.format = OUT_JSON;
	CAPTURE(&cap, report_dmaengine, &fctx, &r);
	has_str(cap.buf, "\"issue_ms\":{\"mean\":0.090000,\"stddev\":0.040000},\"wait_ms\":null,\"map_ms\":",
		"... null in JSON");
	has_str(cap.buf, "\"wait_ms\":{\"mean\":610.480000",
		"... the other row's wait_ms");
	o.format = OUT_CSV;
	CAPTURE(&cap, report_dmaengine, &fctx, &r);
	has_str(cap.buf, ",0.090000,0.040000,,,1.200000,",
		"... empty fields in CSV");
	o.format = OUT_TEXT;
}

static void test_stride(void)
{
	const size_t stride = offsetof(struct dmaengine_bench_result, phases);
	const size_t off = offsetof(struct dmaengine_benchmark, results);
	struct dmaengine_benchmark *k;
	unsigned int m;
	char *raw;

	REFERENCE(1);
	raw = calloc(1, sizeof(b));
	if (!raw)
		return;
	/* a kernel whose entries end before ->phases: its own stride */
	memcpy(raw, &b, off);
	for (m = 0; m < DMAENGINE_BENCH_MAX_PREP_MODES; m++)
		memcpy(raw + off + m * stride, &b.results[m], stride);
	k = (struct dmaengine_benchmark *)raw;
	k->result_size = stride;
	r.b = k;
	has_str(CAPTURE(&cap, report_dmaengine_text, &fctx, &r),
		REF_HEADER REF_ROW0 REF_ROW1,
		"results 224 bytes apart (a kernel's smaller entries): the rows read at its stride");
	free(raw);
}

#define UAPI_MODES(id, name, unit, modes, migrate)	modes,

/* every phase of the dmaengine mode in the list is a figure of the tool */
static void test_dmaengine_list(void)
{
	static const unsigned int modes[] = { DMAENGINE_BENCH_PHASES(UAPI_MODES) };
	unsigned int ph;
	bool all = true;

	for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++)
		all = all && !modes[ph] == !figure_of_mode(PH_FIRST + ph);
	ok(all, "every phase of the list the dmaengine mode has is a figure (report_dmaengine.c's phase_at[])");
}

#define TOOL_NAME(e, name, field, owner)	#name,
#define TOOL_ID(e, name, field, owner)	DMAENGINE_BENCH_PH_##e,
#define UAPI_PHASE(id, name, unit, modes, migrate) \
	{ name, DMAENGINE_BENCH_UNIT_##unit, migrate },

static void test_migrate_list(void)
{
	static const char *const tool_names[] = { MIGRATE_STATS_PHASES(TOOL_NAME) };
	static const unsigned int tool_ids[] = { MIGRATE_STATS_PHASES(TOOL_ID) };
	static const struct {
		const char *name;
		enum dmaengine_bench_unit unit;
		int migrate;
	} uapi[] = { DMAENGINE_BENCH_PHASES(UAPI_PHASE) };
	unsigned int i, n = 0;
	bool same = true;

	for (i = 0; i < DMAENGINE_BENCH_NR_PHASES; i++)
		n += uapi[i].migrate;
	for (i = 0; i < sizeof(tool_ids) / sizeof(tool_ids[0]); i++)
		same = same && uapi[tool_ids[i]].migrate &&
		       uapi[tool_ids[i]].unit == DMAENGINE_BENCH_UNIT_NS &&
		       !strcmp(uapi[tool_ids[i]].name, tool_names[i]);
	ok(same && n == sizeof(tool_ids) / sizeof(tool_ids[0]),
	   "MIGRATE_STATS_PHASES: the uapi's phases with migrate 1, of its names, in ns");
}

static void test_migrate_known(void)
{
	struct dma_migrate_offload st = { .size = sizeof(st) };
	bool known[MPH_NR];
	int p;
	bool all = true;

	migrate_phases_known(&st, known);
	for (p = 0; p < MPH_NR; p++)
		all = all && known[p];
	ok(all, "STATS of a kernel before ->phases: every phase of VER3 known");
	st.phases = DMA_MIGRATE_PHASES_VER3 & ~BIT(BUILD);
	migrate_phases_known(&st, known);
	ok(!known[MPH_BUILD] && known[MPH_BATCH] && known[MPH_MARK] &&
	   !known[MPH_OTHER],
	   "STATS without build: build unknown, and other (the batch less the phases)");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_masks();
	test_stride();
	test_dmaengine_list();
	test_migrate_list();
	test_migrate_known();
	capture_free(&cap);
	return tap_done();
}
