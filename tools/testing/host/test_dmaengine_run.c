// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmaengine_run() end to end against a made-up kernel: this program
 * defines open() and ioctl(), which take the place of the C library's for
 * the tool's objects linked into it, and answers DMAENGINE_BENCHMARK as a
 * module of version 2 would, or as one older than the tool (version 1:
 * E2BIG for the larger structure, then the version 1 answer with samples
 * of DMAENGINE_BENCH_SAMPLE_SIZE_VER1 bytes). Checked: the requests the
 * tool sends (size, sample_size, flags), the fallback to version 1 when
 * the options allow it and the refusal naming the options when they do
 * not, a module without the dmaengine mode (ENOTTY), the exit status, and
 * what reaches stdout and stderr.
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

/*
 * FAKE_V2_OLD: a module of version 2 from before prep mode memcpy_vec; it
 * refuses prep_modes bits it does not know with EINVAL, ERR_INVAL
 */
enum fake_kind { FAKE_V2, FAKE_V1, FAKE_ENOTTY, FAKE_V2_OLD };

static struct {
	enum fake_kind kind;
	unsigned int calls;
	uint32_t sizes[4];		/* ->size of each call */
	uint32_t sample_size[4];
	uint32_t flags[4];
	uint32_t prep_modes[4];
	uint32_t dst_folio_order[4];
	uint32_t run;			/* FAKE_V2: ->prep_modes_run */
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

/* what a module of version 1 writes into a sample array */
static void v1_samples(struct dmaengine_benchmark *b)
{
	char *s = (char *)(uintptr_t)b->samples_ptr;
	struct dmaengine_bench_sample one;
	unsigned int i;

	for (i = 0; s && i < b->samples_len; i++) {
		one = (struct dmaengine_bench_sample){
			.prep_mode = i % 2, .run = i / 2, .end_ns = 5000000,
			.bytes = 1 << 20, .prep_calls = 7, .submits = 7,
		};
		memcpy(s + i * DMAENGINE_BENCH_SAMPLE_SIZE_VER1, &one,
		       DMAENGINE_BENCH_SAMPLE_SIZE_VER1);
	}
	b->samples_written = b->samples_len;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct dmaengine_benchmark *b;
	unsigned int m, i;
	va_list ap;

	(void)fd;
	va_start(ap, req);
	b = va_arg(ap, struct dmaengine_benchmark *);
	va_end(ap);
	if (_IOC_TYPE(req) != 'd' || _IOC_NR(req) != 3) {
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
	case FAKE_ENOTTY:
		errno = ENOTTY;
		return -1;
	case FAKE_V1:
		/* copy_struct_from_user(): a tail it does not know must be 0 */
		for (i = DMAENGINE_BENCH_SIZE_VER1; i < b->size; i++)
			if (((unsigned char *)b)[i]) {
				errno = E2BIG;
				return -1;
			}
		b->channels_used = b->channels;
		for (m = 0; m < DMAENGINE_BENCH_NR_PREP_MODES; m++)
			if (b->prep_modes & (1U << m))
				fill_result(&b->result[m], m);
		v1_samples(b);
		return 0;
	case FAKE_V2_OLD:
	case FAKE_V2:
		if (fake.kind == FAKE_V2_OLD &&
		    b->prep_modes & ~(DMAENGINE_BENCH_PREP_MEMCPY |
				      DMAENGINE_BENCH_PREP_MEMCPY_SG |
				      DMAENGINE_BENCH_PREP_CPU)) {
			b->error = DMAENGINE_BENCH_ERR_INVAL;
			errno = EINVAL;
			return -1;
		}
		b->channels_used = b->channels;
		b->prep_modes_run = fake.run & b->prep_modes;
		for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++) {
			if (b->prep_modes_run & (1U << m))
				fill_result(&b->results[m].r, m);
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
/* the modes the next run()'s FAKE_V2 has; 0: memcpy and cpu */
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

static void test_v2(void)
{
	ok(run(FAKE_V2, "--sge 16 --bytes-per-channel 1M") == 0 && fake.calls == 1,
	   "a module of version 2: one call, exit status 0");
	ok(fake.sizes[0] == DMAENGINE_BENCH_SIZE_VER2 &&
	   fake.sample_size[0] == sizeof(struct dmaengine_bench_sample) &&
	   fake.flags[0] == (DMAENGINE_BENCH_F_DISTINCT |
			     DMAENGINE_BENCH_F_SKIP_MISSING),
	   "the request: version 2, sample_size, distinct buffers, skip missing modes");
	has_str(out_text, "# not run: prep_memcpy_sg: this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project\n",
		"the missing mode and why, in the '#' lines");
	ok(strstr(out_text, "\nprep_memcpy ") && strstr(out_text, "\ncpu ") &&
	   !strstr(out_text, "\nprep_memcpy_sg "), "the rows of the modes that ran");
	has_str(out_text, "# cpufreq:", "the cpufreq line (read from this host)");
	ok(!err_text[0], "nothing on stderr");

	ok(run(FAKE_V2, "--json --samples -p memcpy,cpu") == 0 &&
	   fake.flags[0] == DMAENGINE_BENCH_F_DISTINCT, "--prep-modes memcpy,cpu: no SKIP_MISSING");
	has_str(out_text, "\"interface_version\":2,", "JSON: interface_version 2");
	has_str(out_text, "\"prep_stalls\":{\"mean\":3.000000,",
		"JSON: prep_stalls from ->results[]");

	ok(run(FAKE_V2, "--sge 16 --bytes-per-channel 1M") == 0 &&
	   fake.prep_modes[0] == DMAENGINE_BENCH_PREP_ALL &&
	   (fake.prep_modes[0] & DMAENGINE_BENCH_PREP_MEMCPY_VEC),
	   "no --prep-modes: the request asks for memcpy_vec too");
	has_str(out_text, "# not run: prep_memcpy_vec: this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)\n",
		"a kernel without memcpy_vec: a '#' line says so and where the series is");

	ok(run(FAKE_V2, "-v --sge 16 --bytes-per-channel 1M --dst-folio 64K") == 0 &&
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
	ok(run(FAKE_V2, "-v --sge 16 --bytes-per-channel 1M") == 0 &&
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

	ok(run(FAKE_V2, "-p memcpy_sg,memcpy_vec --json") == 0 &&
	   fake.prep_modes[0] == (DMAENGINE_BENCH_PREP_MEMCPY_SG |
				  DMAENGINE_BENCH_PREP_MEMCPY_VEC) &&
	   !(fake.flags[0] & DMAENGINE_BENCH_F_SKIP_MISSING),
	   "--prep-modes memcpy_sg,memcpy_vec: the two batch forms, no SKIP_MISSING");
	ok(run(FAKE_V2_OLD, "-p memcpy,cpu") == 0 && fake.calls == 1,
	   "a module from before memcpy_vec runs --prep-modes memcpy,cpu");
}

/* A module of version 2 from before memcpy_vec, asked for every mode. */
static void test_old_v2(void)
{
	ok(run(FAKE_V2_OLD, "") == 1 && fake.calls == 1,
	   "a module from before memcpy_vec, the defaults: EINVAL, no second call");
	ok(fake.prep_modes[0] == DMAENGINE_BENCH_PREP_ALL,
	   "the one call asked for every mode, memcpy_vec included");
	has_str(err_text, "a field is out of range; see dmesg for the field the kernel refused. If it says 'invalid prep_modes', the module is older than this tool and does not know prep mode memcpy_vec, which runs without --prep-modes: load the module built from the tool's tree, or name the modes it has with --prep-modes (e.g. memcpy,cpu)\n",
		"stderr: why, and what to do (no silent retry)");
	ok(!out_text[0], "nothing on stdout");
	ok(run(FAKE_V2_OLD, "-p all") == 1 && fake.calls == 1 &&
	   strstr(err_text, "see dmesg for the field the kernel refused\n") &&
	   !strstr(err_text, "invalid prep_modes"),
	   "--prep-modes all (asked for): refused, no hint about the default");
}

static void test_v1(void)
{
	ok(run(FAKE_V1, "--buffers reuse --prep-modes both -r 2 --json --samples") == 0 &&
	   fake.calls == 2, "an older module, options version 1 can say: two calls, exit status 0");
	ok(fake.sizes[0] == DMAENGINE_BENCH_SIZE_VER2 &&
	   fake.sizes[1] == DMAENGINE_BENCH_SIZE_VER1 && fake.flags[1] == 0,
	   "the second call is version 1 (608 bytes, no new flags)");
	has_str(err_text, "note: the module is older than the tool; using version 1 of DMAENGINE_BENCHMARK",
		"stderr says so");
	has_str(out_text, "\"interface_version\":1,", "JSON: interface_version 1");
	has_str(out_text, "\"prep_modes_run\":[\"prep_memcpy\",\"prep_memcpy_sg\"]",
		"JSON: the two modes, from ->result[]");
	has_str(out_text, "\"prep_calls\":256,", "JSON: memcpy's figures");
	has_str(out_text, "\"samples\":[{\"prep_mode\":\"prep_memcpy\",\"run\":0,\"channel\":0,\"start_ns\":0,\"end_ns\":5000000,",
		"JSON: samples of 104 bytes read in the version 2 layout");
	has_str(out_text, "{\"prep_mode\":\"prep_memcpy_sg\",\"run\":1,\"channel\":0,\"start_ns\":0,\"end_ns\":5000000,\"prep_ns\":0,\"submit_ns\":0,\"issue_ns\":0,\"wait_ns\":0,\"map_ns\":0,\"unmap_ns\":0,\"copy_ns\":0,\"convert_ns\":0,\"bytes\":1048576,\"prep_calls\":7,\"submits\":7,\"prep_stalls\":0}",
		"JSON: the last of the four samples, new fields 0");

	ok(run(FAKE_V1, "") == 1 && fake.calls == 1,
	   "an older module, the defaults: one call, exit status 1");
	has_str(err_text, "is older than this tool", "stderr: the module is older");
	has_str(err_text, "which needs --buffers reuse (distinct buffers are the default), --prep-modes memcpy, memcpy_sg or both",
		"stderr: the options a version 1 request needs");
	ok(!out_text[0], "nothing on stdout");

	ok(run(FAKE_V1, "--buffers reuse -p both --depth 2") == 1 && fake.calls == 1 &&
	   strstr(err_text, "which needs --depth 1\n"),
	   "an older module with --depth 2: refused, --depth named");
	ok(run(FAKE_V1, "--buffers reuse -p both --dst-folio-order 1") == 1 && fake.calls == 1 &&
	   strstr(err_text, "which needs no --dst-folio-order or --dst-folio\n"),
	   "an older module with --dst-folio-order: refused, --dst-folio-order named");
	ok(run(FAKE_V1, "--buffers reuse -p memcpy_vec") == 1 && fake.calls == 1 &&
	   strstr(err_text, "(the cpu and memcpy_vec modes, which run without --prep-modes, are new)"),
	   "an older module with --prep-modes memcpy_vec: refused, the new modes named");
}

static void test_other(void)
{
	ok(run(FAKE_ENOTTY, "") == 1 && strstr(err_text, "does not know DMAENGINE_BENCHMARK"),
	   "a module without the dmaengine mode: ENOTTY, said so");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	test_v2();
	test_v1();
	test_old_v2();
	test_other();
	return tap_done();
}
