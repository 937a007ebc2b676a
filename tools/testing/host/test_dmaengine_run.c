// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine_run() end to end against a made-up kernel: this program
 * defines open() and ioctl(), which take the place of the C library's for
 * the tool's objects linked into it, and answers DMAENGINE_BENCHMARK as the
 * module of the tool's tree would, as one of the earlier layout (which
 * does not know the ioctl's number: ENOTTY), or as one older than the
 * tool within this layout (E2BIG). Checked: the request the tool sends
 * (size, sample_size, flags, modes), one call and no retry, the exit
 * status, and what reaches stdout and stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "dmaengine.h"
#include "options.h"
#include "tap.h"
#include "tool_words.h"

enum fake_kind { FAKE_CURRENT, FAKE_EARLIER, FAKE_SMALLER };

static struct {
	enum fake_kind kind;
	unsigned int calls;
	uint32_t sizes[4];		/* ->size of each call */
	uint32_t sample_size[4];
	uint32_t flags[4];
	uint32_t prep_modes[4];
	uint32_t dst_folio_order[4];
	uint32_t run;			/* FAKE_CURRENT: ->prep_modes_run */
} fake;

int open(const char *path, int flags, ...)
{
	va_list ap;
	int fd;

	if (!strcmp(path, DMAENGINE_BENCH_PATH))
		return openat(AT_FDCWD, "/dev/null", O_RDWR);
	va_start(ap, flags);
	fd = tap_open_through(path, flags, ap);
	va_end(ap);
	return fd;
}

static void fill_result(struct dmaengine_bench_result *r, unsigned int mode)
{
	*r = (struct dmaengine_bench_result){
		.runs = 2, .run_ns.mean = 10000000 * (mode + 1),
		.bytes_per_sec.mean = 1000000000, .bytes = 1 << 20,
		.prep_calls = mode ? 16 : 256, .submits = mode ? 16 : 256,
		.batches = 16, .segments = 256,
	};
}

int ioctl(int fd, unsigned long req, ...)
{
	struct dmaengine_benchmark *b;
	unsigned int m;
	va_list ap;

	(void)fd;
	va_start(ap, req);
	b = va_arg(ap, struct dmaengine_benchmark *);
	va_end(ap);
	if (_IOC_TYPE(req) != 'd' || _IOC_NR(req) != _IOC_NR(DMAENGINE_BENCHMARK)) {
		errno = ENOTTY;
		return -1;
	}
	if (fake.calls < 4) {
		fake.sizes[fake.calls] = b->size;
		fake.sample_size[fake.calls] = b->sample_size;
		fake.flags[fake.calls] = b->flags;
		fake.prep_modes[fake.calls] = b->prep_modes;
		fake.dst_folio_order[fake.calls] = b->dst_folio_order;
	}
	fake.calls++;
	switch (fake.kind) {
	case FAKE_EARLIER:
		errno = ENOTTY;
		return -1;
	case FAKE_SMALLER:
		errno = E2BIG;
		return -1;
	case FAKE_CURRENT:
		b->channels_used = b->channels;
		b->prep_modes_run = fake.run & b->prep_modes;
		for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++) {
			if (b->prep_modes_run & (1U << m))
				fill_result(&b->results[m], m);
			else if (b->prep_modes & (1U << m))
				b->results[m].missing = DMAENGINE_BENCH_ERR_NO_API;
		}
		b->results[0].prep_stalls.mean = 3;
		if (b->prep_modes_run & DMAENGINE_BENCH_PREP_MEMCPY_VEC)
			b->results[DMAENGINE_BENCH_MODE_MEMCPY_VEC].convert_ns.mean =
				2500000;
		return 0;
	}
	return -1;
}

static char out_text[65536], err_text[8192];
/* the modes the next run()'s FAKE_CURRENT has; 0: memcpy and cpu */
static uint32_t run_next;

/* run() - dmaengine_run() of -m dmaengine and @words; stdout and stderr captured */
static int run(enum fake_kind kind, const char *words)
{
	struct report_ctx ctx = { .version = "v", .kernel = "k" };
	struct std_capture cap;
	struct bench_opts o;
	int ret;

	memset(&fake, 0, sizeof(fake));
	fake.kind = kind;
	fake.run = run_next ? run_next :
		   DMAENGINE_BENCH_PREP_MEMCPY | DMAENGINE_BENCH_PREP_CPU;
	run_next = 0;
	parse_mode_words(&o, "dmaengine", words, 4096);
	std_capture_begin(&cap);
	ret = dmaengine_run(&o, &ctx);
	std_capture_end(&cap, out_text, sizeof(out_text), err_text,
			sizeof(err_text));
	return ret;
}

static void test_current(void)
{
	ok(run(FAKE_CURRENT, "--sge 16 --bytes-per-channel 1M") == 0 && fake.calls == 1,
	   "the module of the tool's tree: one call, exit status 0");
	ok(fake.sizes[0] == DMAENGINE_BENCH_SIZE_VER1 &&
	   fake.sample_size[0] == sizeof(struct dmaengine_bench_sample) &&
	   fake.flags[0] == (DMAENGINE_BENCH_F_DISTINCT |
			     DMAENGINE_BENCH_F_SKIP_MISSING),
	   "the request: the tool's size and sample_size, distinct buffers, skip missing modes");
	has_str(out_text, "# not run: prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project\n",
		"the missing mode and why, in the '#' lines");
	ok(strstr(out_text, "\nprep_memcpy ") && strstr(out_text, "\ncpu ") &&
	   !strstr(out_text, "\nprep_memcpy_sg "), "the rows of the modes that ran");
	has_str(out_text, "# cpufreq:", "the cpufreq line (read from this host)");
	ok(!err_text[0], "nothing on stderr");

	ok(run(FAKE_CURRENT, "--json --samples -p memcpy,cpu") == 0 &&
	   fake.flags[0] == DMAENGINE_BENCH_F_DISTINCT, "--prep-modes memcpy,cpu: no SKIP_MISSING");
	ok(!strstr(out_text, "interface_version"),
	   "JSON: no interface_version (one layout)");
	has_str(out_text, "\"prep_stalls\":{\"mean\":3.000000,",
		"JSON: prep_stalls from ->results[]");

	ok(run(FAKE_CURRENT, "--sge 16 --bytes-per-channel 1M") == 0 &&
	   fake.prep_modes[0] == DMAENGINE_BENCH_PREP_ALL &&
	   (fake.prep_modes[0] & DMAENGINE_BENCH_PREP_MEMCPY_VEC),
	   "no --prep-modes: the request asks for memcpy_vec too");
	has_str(out_text, "# not run: prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)\n",
		"a kernel without memcpy_vec: a '#' line says so and where the series is");

	ok(run(FAKE_CURRENT, "-v --sge 16 --bytes-per-channel 1M --dst-folio 64K") == 0 &&
	   fake.dst_folio_order[0] == 4 && (fake.flags[0] & DMAENGINE_BENCH_F_DST_ORDER),
	   "--dst-folio 64K: dst_folio_order 4 and F_DST_ORDER in the request");
	has_str(out_text, "in batches of 16 x 4KB into 64KB destination folios;",
		"--dst-folio: the '#' line names both folio sizes");

	has_str(out_text, "\nmode           chan folio_src/dst sge ",
		"--dst-folio: the table's folio column says src/dst");
	has_str(out_text, "\nprep_memcpy    1    4KB/64KB      16  ",
		"--dst-folio: a row's folio cell names both sizes");
	ok(!strstr(out_text, "convert_ms"),
	   "-v without a memcpy_vec row: no convert_ms column");

	run_next = DMAENGINE_BENCH_PREP_ALL;
	ok(run(FAKE_CURRENT, "-v --sge 16 --bytes-per-channel 1M") == 0 &&
	   strstr(out_text, "\nprep_memcpy_vec "), "a kernel with memcpy_vec: its row");
	has_str(out_text, " GB/s        convert_ms    prep_stalls ",
		"-v with a memcpy_vec row: convert_ms, first of the verbose columns");
	has_str(out_text, "\nprep_memcpy_sg  1    4KB   16  ",
		"the mode column widens to prep_memcpy_vec");
	has_str(out_text, " 1.00 \u00b1 0.00 -             3.00 \u00b1 0.00 256 ",
		"-v: convert_ms '-' in a row of another mode");
	ok(strstr(out_text, "\nprep_memcpy_sg ") < strstr(out_text, "\nprep_memcpy_vec ") &&
	   strstr(out_text, "\nprep_memcpy_vec ") < strstr(out_text, "\ncpu "),
	   "row order: memcpy, memcpy_sg, memcpy_vec, cpu");
	has_str(strstr(out_text, "\nprep_memcpy_vec "), "2.50 \u00b1 0.00 ",
		"the memcpy_vec row's convert_ms: 2.5 ms from ->results[3].convert_ns");

	ok(run(FAKE_CURRENT, "-p memcpy_sg,memcpy_vec --json") == 0 &&
	   fake.prep_modes[0] == (DMAENGINE_BENCH_PREP_MEMCPY_SG |
				  DMAENGINE_BENCH_PREP_MEMCPY_VEC) &&
	   !(fake.flags[0] & DMAENGINE_BENCH_F_SKIP_MISSING),
	   "--prep-modes memcpy_sg,memcpy_vec: the two batch forms, no SKIP_MISSING");
}

static void test_older(void)
{
	ok(run(FAKE_EARLIER, "") == 1 && fake.calls == 1,
	   "a module of the earlier layout: ENOTTY, one call, exit status 1");
	has_str(err_text, "does not know DMAENGINE_BENCHMARK (ioctl 5): it predates the tool's layout of struct dmaengine_benchmark; load the module built with this tool",
		"stderr: which ioctl, why, what to load");
	ok(!out_text[0], "nothing on stdout");
	ok(run(FAKE_SMALLER, "--buffers reuse -p both") == 1 && fake.calls == 1,
	   "a module older than the tool within the layout: E2BIG, no retry with less");
	has_str(err_text, "is older than this tool: it does not know the fields past its own struct dmaengine_benchmark (see dmesg); load the module built with this tool",
		"stderr: the module is older, what to load");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_current();
	test_older();
	return tap_done();
}
