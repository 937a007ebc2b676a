// SPDX-License-Identifier: GPL-2.0-only
/*
 * Runtime errors: the message for every enum dmaengine_bench_error value,
 * naming channel, run and prep mode (and for failures before the kernel
 * fills ->error), the map ioctl's errno messages, DMA_MAP_BENCHMARK_EXT's
 * (ENOTTY from an older module, EINVAL, ETIMEDOUT, ENOMEM...), and why
 * opening debugfs failed, diagnosed on made-up /proc/mounts and /sys trees:
 * debugfs not mounted, module not loaded, no device bound, no dmaengine
 * file, permission, and what each prints (mount, insmod, the binding
 * commands); --cpus CPUs checked against a made-up online list. The dmaengine
 * mode's new errors (STALL, POLL, UNBOUND), a module of an earlier layout
 * (ENOTTY) or older than the tool (E2BIG), why a prep
 * mode was left out (NO_API, NO_CAP), NOMEM with distinct buffers, and the
 * CPU frequency state read from a made-up sysfs tree.
 */
#include <errno.h>

#include "diag.h"
#include "dmaengine.h"
#include "sysinfo.h"
#include "tap.h"

static struct capture cap;

static struct dmaengine_bench_channel channels[4];
static struct bench_opts opts;

static void fill(struct dmaengine_benchmark *b, unsigned int error)
{
	int i;

	*b = (struct dmaengine_benchmark){
		.size = sizeof(*b), .prep_modes = DMAENGINE_BENCH_PREP_ALL,
		.channels = 4, .sge = 512, .runs = 20, .warmup_runs = 2,
		.error = error, .error_channel = 1,
		.error_run = 4,		/* third timed run */
		.error_prep_mode = 1,
		/* as the kernel weighs sge 512 x 4KB, reused, 4 channels */
		.batches_per_channel = 1, .buffer_bytes = 2 * 512 * 4096 * 4,
	};
	for (i = 0; i < 4; i++) {
		channels[i] = (struct dmaengine_bench_channel){
			.device = "soft_dma.0", .driver = "soft_dma",
			.max_seg_size = 65536, .copy_align = 3,
		};
		snprintf(channels[i].name, sizeof(channels[i].name),
			 "dma0chan%d", i);
	}
}

static const char *dmaengine_message(struct dmaengine_benchmark *b, int err,
				     bool with_channels)
{
	return CAPTURE(&cap, print_dmaengine_error, err, b,
		       with_channels ? channels : NULL, &opts);
}

#define AT	"channel dma0chan1 (device soft_dma.0, driver soft_dma), timed run 3 of 20, prep_memcpy_sg"

static const struct {
	unsigned int error;
	int err;
	const char *want;	/* the second line */
} errors[] = {
	{ DMAENGINE_BENCH_ERR_INVAL, EINVAL,
	  "a field is out of range; see dmesg for the field the kernel refused" },
	{ DMAENGINE_BENCH_ERR_NO_CHANNEL, ENODEV,
	  "found fewer DMA_MEMCPY channels than --channels 4; --allow-fewer runs on those found; list them with ls /sys/class/dma" },
	{ DMAENGINE_BENCH_ERR_NO_API, EOPNOTSUPP,
	  "this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project (DMA_MEMCPY_SG was removed from mainline in 6.0); run without --prep-modes to leave out the modes this kernel lacks, or with --prep-modes memcpy,cpu" },
	{ DMAENGINE_BENCH_ERR_NO_CAP, EOPNOTSUPP,
	  "channel dma0chan1 (driver soft_dma) does not advertise DMA_MEMCPY_SG; run without --prep-modes to leave out the modes it lacks, or with --prep-modes memcpy,cpu" },
	{ DMAENGINE_BENCH_ERR_NOMEM, ENOMEM,
	  "buffers larger than memory allows: sge 512 x folio 4KB x 2 (source and destination) x 4 channels = 16MB; lower --sge, --folio or --channels" },
	{ DMAENGINE_BENCH_ERR_MAP, ENOMEM,
	  "dma_map_sgtable() failed on " AT ": lower --sge or --folio, or check the DMA device's mask and IOMMU" },
	{ DMAENGINE_BENCH_ERR_PREP, EIO,
	  "a prep call returned NULL on " AT ": the driver refused the descriptor (max_seg_size 65536, folio 4KB, sge 512); its descriptor pool may be exhausted: try a smaller --sge or a larger --folio" },
	{ DMAENGINE_BENCH_ERR_SUBMIT, EIO, "dmaengine_submit() failed on " AT },
	{ DMAENGINE_BENCH_ERR_RESULT, EIO,
	  "a transfer completed with an error on " AT "; see dmesg" },
	{ DMAENGINE_BENCH_ERR_TIMEOUT, ETIMEDOUT,
	  "a batch did not complete within 10000 ms on " AT "; raise --timeout-ms or try --poll" },
	{ DMAENGINE_BENCH_ERR_VERIFY, EIO,
	  "the destination differs from the source on " AT ": the copy is wrong" },
	{ DMAENGINE_BENCH_ERR_INTR, EINTR,
	  "interrupted by a signal: the run was stopped" },
	{ DMAENGINE_BENCH_ERR_LIMIT, EINVAL,
	  "a channel limit was exceeded on " AT ": max_seg_size 65536, copy_align 3 (log2 bytes), folio 4KB; use a smaller --folio or another channel" },
	{ DMAENGINE_BENCH_ERR_STALL, EBUSY,
	  "prep kept returning NULL on " AT ": the provider's descriptor pool made no progress within 10000 ms; raise --timeout-ms, or lower --sge or --depth" },
	{ DMAENGINE_BENCH_ERR_POLL, EINVAL,
	  "channel dma0chan1 (driver soft_dma) completes out of order (DMA_COMPLETION_NO_ORDER): its transfer status cannot be polled; run without --poll" },
	{ DMAENGINE_BENCH_ERR_UNBOUND, ENODEV,
	  "the DMA provider of " AT " was unbound during the run; the run was stopped" },
	{ DMAENGINE_BENCH_ERR_MAX, EINVAL,
	  "unknown error 17 from the kernel (newer module?); see dmesg" },
	{ 1000, EINVAL, "unknown error 1000 from the kernel (newer module?); see dmesg" },
	{ DMAENGINE_BENCH_OK, ENOTTY,
	  "the loaded dma_map_benchmark module does not know DMAENGINE_BENCHMARK (ioctl 5): it predates the tool's layout of struct dmaengine_benchmark; load the module built with this tool" },
	{ DMAENGINE_BENCH_OK, EINVAL,
	  "the kernel refused the request; see dmesg for the field the kernel refused" },
	{ DMAENGINE_BENCH_OK, EFAULT,
	  "the kernel could not access the request or its sample and channel arrays" },
	{ DMAENGINE_BENCH_OK, EINTR, "interrupted" },
	{ DMAENGINE_BENCH_OK, E2BIG,
	  "the loaded dma_map_benchmark module is older than this tool: it does not know the fields past its own struct dmaengine_benchmark (see dmesg); load the module built with this tool" },
};

static void test_dmaengine_errors(void)
{
	const char *seen[DMAENGINE_BENCH_ERR_MAX] = { 0 };
	struct dmaengine_benchmark b;
	char want[1024];
	size_t i;
	bool covered = true, distinct = true;
	unsigned int e, k;

	for (i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		fill(&b, errors[i].error);
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: DMAENGINE_BENCHMARK failed: %s\ndma_map_benchmark: %s\n",
			 strerror(errors[i].err), errors[i].want);
		is_str(dmaengine_message(&b, errors[i].err, true), want,
		       "error %u with %s: strerror, then the specific message",
		       errors[i].error, strerror(errors[i].err));
	}

	/* every value has its own message */
	for (e = 1; e < DMAENGINE_BENCH_ERR_MAX; e++) {
		const char *msg;

		fill(&b, e);
		msg = strchr(dmaengine_message(&b, EIO, true), '\n');
		seen[e] = strdup(msg ? msg : "");
		if (strstr(seen[e], "unknown error")) {
			printf("# error %u has no message of its own\n", e);
			covered = false;
		}
		for (k = 1; k < e; k++)
			if (!strcmp(seen[k], seen[e])) {
				printf("# errors %u and %u say the same\n", k, e);
				distinct = false;
			}
	}
	ok(covered, "every enum dmaengine_bench_error value has a message of its own");
	ok(distinct, "no two error values share a message");
	for (e = 1; e < DMAENGINE_BENCH_ERR_MAX; e++)
		free((void *)seen[e]);
}

static void test_dmaengine_details(void)
{
	struct dmaengine_benchmark b;

	fill(&b, DMAENGINE_BENCH_ERR_NO_CAP);
	has_str(dmaengine_message(&b, EOPNOTSUPP, false),
		"channel #1 does not advertise DMA_MEMCPY_SG; run without --prep-modes",
		"NO_CAP without the channel array: the index");
	memset(channels, 0, sizeof(channels));
	has_str(dmaengine_message(&b, EOPNOTSUPP, true), "channel #1 does not",
		"NO_CAP with an unfilled channel array: the index");

	fill(&b, DMAENGINE_BENCH_ERR_NO_API);
	b.error_prep_mode = DMAENGINE_BENCH_MODE_MEMCPY_VEC;
	has_str(dmaengine_message(&b, EOPNOTSUPP, true),
		"dma_map_benchmark: this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12); run without --prep-modes to leave out the modes this kernel lacks, or with --prep-modes memcpy,cpu\n",
		"NO_API refusing memcpy_vec: names memcpy_vec's API and the series");
	ok(!strstr(cap.buf, "memcpy_sg"), "NO_API refusing memcpy_vec: memcpy_sg not named");
	fill(&b, DMAENGINE_BENCH_ERR_NO_CAP);
	b.error_prep_mode = DMAENGINE_BENCH_MODE_MEMCPY_VEC;
	has_str(dmaengine_message(&b, EOPNOTSUPP, true),
		"channel dma0chan1 (driver soft_dma) does not advertise DMA_MEMCPY_VEC; run without --prep-modes",
		"NO_CAP refusing memcpy_vec: the channel and DMA_MEMCPY_VEC");

	fill(&b, DMAENGINE_BENCH_ERR_PREP);
	b.error_run = 1;
	has_str(dmaengine_message(&b, EIO, true),
		"channel dma0chan1 (device soft_dma.0, driver soft_dma), warm-up run 2 of 2, prep_memcpy_sg",
		"an error in a warm-up run says so, counted from 1");
	b.error_run = 2;
	b.error_prep_mode = 0;
	has_str(dmaengine_message(&b, EIO, true), "timed run 1 of 20, prep_memcpy:",
		"the first timed run comes after the warm-up runs");
	fill(&b, DMAENGINE_BENCH_ERR_SUBMIT);
	b.error_prep_mode = 7;
	has_str(dmaengine_message(&b, EIO, true), ", prep mode 7",
		"an unknown prep mode index is shown as a number");
	fill(&b, DMAENGINE_BENCH_ERR_VERIFY);
	b.error_channel = 9;	/* beyond the array */
	has_str(dmaengine_message(&b, EIO, true),
		"on channel #9, timed run 3 of 20",
		"error_channel beyond the array: the index, nothing read");
	fill(&b, DMAENGINE_BENCH_ERR_PREP);
	has_str(dmaengine_message(&b, EIO, false), "on channel #1, timed run",
		"no channel array: the index");

	fill(&b, DMAENGINE_BENCH_ERR_TIMEOUT);
	b.timeout_ms = 500;
	has_str(dmaengine_message(&b, ETIMEDOUT, true), "within 500 ms",
		"TIMEOUT names --timeout-ms");

	fill(&b, DMAENGINE_BENCH_ERR_NO_CHANNEL);
	strcpy(b.channel, "dma3chan9");
	strcpy(b.device, "ioat.1");
	has_str(dmaengine_message(&b, ENODEV, true),
		"found fewer DMA_MEMCPY channels named dma3chan9 of device ioat.1 than --channels 4;",
		"NO_CHANNEL names the --channel and --device filters");

	/* the kernel's figures, as the answer carries them */
	fill(&b, DMAENGINE_BENCH_ERR_NOMEM);
	b.sge = 65536;
	b.folio_order = 18;
	b.channels = 256;
	b.batches_per_channel = 1;
	b.buffer_bytes = 2ULL * 65536 * (1ULL << 30) * 256;
	has_str(dmaengine_message(&b, ENOMEM, true),
		"sge 65536 x folio 1GB x 2 (source and destination) x 256 channels = 32768TB;",
		"NOMEM: the sizes, and the kernel's buffer_bytes as the total");

	/* distinct buffers: --bytes-per-channel (whole batches) of each side, per channel */
	fill(&b, DMAENGINE_BENCH_ERR_NOMEM);
	b.flags = DMAENGINE_BENCH_F_DISTINCT;
	b.bytes_per_channel = 512ULL << 20;
	b.channels = 16;
	b.batches_per_channel = 256;
	b.buffer_bytes = (512ULL << 20) * 2 * 16;
	has_str(dmaengine_message(&b, ENOMEM, true),
		"buffers larger than memory allows: --buffers distinct needs 512MB (256 whole batches) x 2 (source and destination) x 16 channels = 16GB; lower --bytes-per-channel or --channels, or use --buffers reuse (one batch of folios a channel)\n",
		"NOMEM with distinct buffers: the kernel's batches and bytes, --buffers reuse suggested");
	b.bytes_per_channel = 3ULL << 20;	/* 1.5 batches of 2MB */
	b.channels = 1;
	b.batches_per_channel = 2;
	b.buffer_bytes = (4ULL << 20) * 2;
	has_str(dmaengine_message(&b, ENOMEM, true), "needs 4MB (2 whole batches) x 2",
		"NOMEM with distinct buffers: the bytes held, not --bytes-per-channel");

	/*
	 * a module of the first published layout leaves the two words zero:
	 * derived as it weighed them, whole batches, at least one
	 */
	b.batches_per_channel = 0;
	b.buffer_bytes = 0;
	has_str(dmaengine_message(&b, ENOMEM, true),
		"needs 4MB (2 whole batches) x 2 (source and destination) x 1 channels = 8MB;",
		"NOMEM from an older module: --bytes-per-channel rounded up to whole batches");
	b.bytes_per_channel = 1;
	has_str(dmaengine_message(&b, ENOMEM, true),
		"needs 2MB (1 whole batches) x 2 (source and destination) x 1 channels = 4MB;",
		"NOMEM from an older module: at least one batch");
	fill(&b, DMAENGINE_BENCH_ERR_NOMEM);
	b.batches_per_channel = 0;
	b.buffer_bytes = 0;
	has_str(dmaengine_message(&b, ENOMEM, true),
		"sge 512 x folio 4KB x 2 (source and destination) x 4 channels = 16MB;",
		"NOMEM from an older module, reused buffers: one batch a channel");

	fill(&b, DMAENGINE_BENCH_ERR_STALL);
	b.timeout_ms = 250;
	has_str(dmaengine_message(&b, EBUSY, true), "no progress within 250 ms;",
		"STALL names the timeout given");
	fill(&b, DMAENGINE_BENCH_ERR_POLL);
	has_str(dmaengine_message(&b, EINVAL, false),
		"channel #1 completes out of order (DMA_COMPLETION_NO_ORDER)",
		"POLL without the channel array: the index");
	fill(&b, DMAENGINE_BENCH_ERR_UNBOUND);
	b.error_prep_mode = DMAENGINE_BENCH_MODE_CPU;
	has_str(dmaengine_message(&b, ENODEV, true), "timed run 3 of 20, cpu was unbound",
		"an error in the cpu mode names it");
}

static void test_missing_reason(void)
{
	struct dmaengine_benchmark b;
	char why[256];

	fill(&b, 0);
	b.results[DMAENGINE_BENCH_MODE_MEMCPY_SG].missing = DMAENGINE_BENCH_ERR_NO_API;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_SG);
	is_str(why, "this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project",
	       "missing NO_API: the kernel, and where the patches are");
	b.results[DMAENGINE_BENCH_MODE_MEMCPY_SG].missing = DMAENGINE_BENCH_ERR_NO_CAP;
	channels[0].has_memcpy_sg = 1;
	channels[2].has_memcpy_sg = 0;
	channels[1].has_memcpy_sg = 1;
	channels[3].has_memcpy_sg = 1;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_SG);
	is_str(why, "channel dma0chan2 (driver soft_dma) lacks DMA_MEMCPY_SG",
	       "missing NO_CAP: the first channel without the capability");
	dmaengine_missing_reason(why, sizeof(why), &b, NULL,
				 DMAENGINE_BENCH_MODE_MEMCPY_SG);
	is_str(why, "a channel lacks DMA_MEMCPY_SG",
	       "missing NO_CAP without the channel array");
	b.channels_used = 2;	/* dma0chan2 was not used */
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_SG);
	is_str(why, "a channel lacks DMA_MEMCPY_SG",
	       "missing NO_CAP: only the channels used are looked at");

	fill(&b, 0);
	b.results[DMAENGINE_BENCH_MODE_MEMCPY_VEC].missing = DMAENGINE_BENCH_ERR_NO_API;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_VEC);
	is_str(why, "this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)",
	       "missing memcpy_vec, NO_API: the kernel lacks the API, the series adds it");
	b.results[DMAENGINE_BENCH_MODE_MEMCPY_VEC].missing = DMAENGINE_BENCH_ERR_NO_CAP;
	channels[0].has_memcpy_sg = 1;	/* has memcpy_sg, not memcpy_vec */
	channels[0].has_memcpy_vec = 0;
	channels[1].has_memcpy_vec = 1;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_VEC);
	is_str(why, "channel dma0chan0 (driver soft_dma) lacks DMA_MEMCPY_VEC",
	       "missing memcpy_vec, NO_CAP: the first channel without DMA_MEMCPY_VEC, not DMA_MEMCPY_SG");
	channels[0].has_memcpy_vec = 1;
	channels[2].has_memcpy_vec = 1;
	channels[3].has_memcpy_vec = 1;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_MEMCPY_VEC);
	is_str(why, "a channel lacks DMA_MEMCPY_VEC",
	       "missing memcpy_vec, NO_CAP, every channel has it: no channel named");
	b.results[DMAENGINE_BENCH_MODE_CPU].missing = 99;
	dmaengine_missing_reason(why, sizeof(why), &b, channels,
				 DMAENGINE_BENCH_MODE_CPU);
	is_str(why, "left out by the kernel (reason 99)", "missing, another reason: its number");
}

static void test_map_ioctl_errors(void)
{
	static const struct {
		int err;
		const char *hint;	/* after strerror(), or "" */
		const char *name;
	} cases[] = {
		{ EINVAL, "; see dmesg for the field the kernel refused",
		  "map ioctl EINVAL: see dmesg" },
		{ EINTR, "; interrupted", "map ioctl EINTR: interrupted" },
		{ ENOMEM, "; the buffers (threads x granule pages) need more memory than a run may take: lower --threads or --granule (dmesg gives the sizes)",
		  "map ioctl ENOMEM: what to lower" },
		{ EIO, "", "map ioctl EIO: strerror only" },
	};
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_map_ioctl_error(capture_begin(&cap), cases[i].err);
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: DMA_MAP_BENCHMARK failed: %s%s\n",
			 strerror(cases[i].err), cases[i].hint);
		is_str(capture_end(&cap), want, cases[i].name);
	}
}

static void test_map_ext_ioctl_errors(void)
{
	static const struct {
		int err;
		const char *want;
	} cases[] = {
		{ ENOTTY, "the loaded dma_map_benchmark module has no extended map interface (entries > 1024, --entry-size, --iterations, --cpus, --sync, --percentiles): load the module built from this tree" },
		{ EINVAL, "the kernel refused the request; see dmesg for the field the kernel refused (nothing there: the module predates the extended map interface; load the module built from this tree)" },
		{ ETIMEDOUT, "200 iterations did not finish within 300 seconds: raise --seconds (at most 300) or lower --iterations" },
		{ ENOMEM, "buffers larger than memory allows: entries 2560 x entry size 4KB x 8 threads = 80MB; lower --entries, --entry-size or --threads" },
		{ EFAULT, "the kernel could not access the request or its CPU list" },
		{ EINTR, "interrupted" },
		{ EIO, "see dmesg" },
	};
	struct map_benchmark_ext m = {
		.size = sizeof(m), .threads = 8, .seconds = 300,
		.iterations = 200, .entries = 2560, .entry_size = 4096,
	};
	char want[1024];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want),
			 "dma_map_benchmark: DMA_MAP_BENCHMARK_EXT failed: %s\ndma_map_benchmark: %s\n",
			 strerror(cases[i].err), cases[i].want);
		is_str(CAPTURE(&cap, print_map_ext_ioctl_error, cases[i].err, &m), want,
		       "map ext ioctl %s: strerror, then what to do",
		       strerror(cases[i].err));
	}
	m.entries = 65536;
	m.entry_size = 1U << 30;
	m.threads = 1024;
	has_str(CAPTURE(&cap, print_map_ext_ioctl_error, ENOMEM, &m),
		"entries 65536 x entry size 1GB x 1024 threads = 65536TB;",
		"ENOMEM at the maxima: the product, no overflow");
}

/* ------------------------------------------------------------------ */
/* Opening debugfs, on made-up trees                                  */
/* ------------------------------------------------------------------ */

#define MOUNTS_NO_DEBUGFS \
	"sysfs /sys sysfs rw 0 0\nproc /proc proc rw 0 0\n" \
	"tracefs /sys/kernel/tracing tracefs rw 0 0\n"
#define MOUNTS_DEBUGFS \
	MOUNTS_NO_DEBUGFS "none /sys/kernel/debug debugfs rw,relatime 0 0\n"

static void test_diagnose(void)
{
	tree_new();
	tree_mkdir("/sys/kernel/debug");
	is_int(diagnose_open(tree_root, MODE_SINGLE, ENOENT), OPEN_NO_DEBUGFS,
	       "no /proc/mounts, empty /sys/kernel/debug: debugfs not mounted");
	tree_mkdir("/sys/bus/pci/drivers/dma_map_benchmark");
	is_int(diagnose_open(tree_root, MODE_SINGLE, ENOENT), OPEN_NO_DEBUGFS,
	       "debugfs not mounted comes before the module check");
	tree_mkdir("/sys/kernel/debug/tracing");
	is_int(diagnose_open(tree_root, MODE_SINGLE, ENOENT), OPEN_NO_DEVICE,
	       "no /proc/mounts, /sys/kernel/debug has entries: mounted");

	tree_new();
	tree_mkdir("/sys/kernel/debug/tracing");
	tree_write("/proc/mounts", MOUNTS_NO_DEBUGFS);
	is_int(diagnose_open(tree_root, MODE_SG, ENOENT), OPEN_NO_DEBUGFS,
	       "/proc/mounts without debugfs: not mounted, whatever the directory holds");
	tree_write("/proc/mounts", MOUNTS_NO_DEBUGFS
		   "none /mnt/debug debugfs rw 0 0\n");
	is_int(diagnose_open(tree_root, MODE_SG, ENOENT), OPEN_NO_DEBUGFS,
	       "debugfs mounted elsewhere: not at /sys/kernel/debug");
	tree_write("/proc/mounts", MOUNTS_DEBUGFS);
	is_int(diagnose_open(tree_root, MODE_SG, ENOENT), OPEN_NO_MODULE,
	       "debugfs mounted, no driver directory: module not loaded");
	is_int(diagnose_open(tree_root, MODE_DMAENGINE, ENOENT), OPEN_NO_MODULE,
	       "dmaengine mode: module not loaded");
	tree_mkdir("/sys/bus/platform/drivers/dma_map_benchmark");
	is_int(diagnose_open(tree_root, MODE_SG, ENOENT), OPEN_NO_DEVICE,
	       "platform driver registered: loaded, no device bound");
	is_int(diagnose_open(tree_root, MODE_DMAENGINE, ENOENT), OPEN_NO_DMAENGINE,
	       "dmaengine mode, module loaded, no file: no dmaengine mode");
	tree_new();
	tree_write("/proc/mounts", MOUNTS_DEBUGFS);
	tree_mkdir("/sys/bus/pci/drivers/dma_map_benchmark");
	is_int(diagnose_open(tree_root, MODE_SINGLE, ENOENT), OPEN_NO_DEVICE,
	       "pci driver registered: loaded, no device bound");

	is_int(diagnose_open(tree_root, MODE_SINGLE, EACCES), OPEN_PERMISSION,
	       "EACCES: permission");
	is_int(diagnose_open(tree_root, MODE_DMAENGINE, EPERM), OPEN_PERMISSION,
	       "EPERM: permission");
	is_int(diagnose_open(tree_root, MODE_SINGLE, EIO), OPEN_OTHER,
	       "EIO: nothing to diagnose");
	tree_free();
}

static void test_cpus_online(void)
{
	struct bench_opts o;

	tree_new();
	opts_init(&o, 4096);
	o.cpus[0] = 0;
	o.cpus[1] = 5;
	o.nr_cpus = 2;
	ok(!check_cpus_online(tree_root, &o, NULL),
	   "no online list: left to the kernel");
	tree_write("/sys/devices/system/cpu/online", "0-3\n");
	ok(check_cpus_online(tree_root, &o, capture_begin(&cap)) == -1,
	   "online 0-3, --cpus 0,5: refused");
	is_str(capture_end(&cap),
	       "dma_map_benchmark: --cpus: CPU 5 is not online (online: 0-3)\n",
	       "the message names the CPU and the online list");
	o.cpus[1] = 3;
	ok(!check_cpus_online(tree_root, &o, capture_begin(&cap)) &&
	   !capture_end(&cap)[0], "online 0-3, --cpus 0,3: fine, nothing printed");
	tree_write("/sys/devices/system/cpu/online", "0,2-3,8-4095\n");
	o.cpus[0] = 1023;
	o.cpus[1] = 2;
	ok(!check_cpus_online(tree_root, &o, NULL), "holes in the online list: 1023 and 2 online");
	o.cpus[1] = 1;
	ok(check_cpus_online(tree_root, &o, capture_begin(&cap)) == -1 &&
	   strstr(capture_end(&cap), "CPU 1 is not online (online: 0,2-3,8-4095)\n"),
	   "CPU 1 in a hole: refused");
	tree_write("/sys/devices/system/cpu/online", "garbage\n");
	ok(!check_cpus_online(tree_root, &o, NULL),
	   "an unparsable online list: left to the kernel");
	o.nr_cpus = 0;
	tree_write("/sys/devices/system/cpu/online", "0\n");
	ok(!check_cpus_online(tree_root, &o, NULL), "no --cpus: nothing checked");
	tree_free();
}

static void cpu_files(unsigned int cpu, const char *gov, const char *driver,
		      const char *cur, const char *max)
{
	static const char *const names[] = {
		"scaling_governor", "scaling_driver", "scaling_cur_freq",
		"cpuinfo_max_freq",
	};
	const char *const texts[] = { gov, driver, cur, max };
	char dir[128], path[192];
	size_t i;

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%u/cpufreq", cpu);
	tree_mkdir(dir);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (texts[i])
			tree_write(path, texts[i]);
	}
}

static void test_cpufreq(void)
{
	static const uint32_t cpus13[] = { 1, 3, 3 }, cpus0[] = { 0 };
	struct cpufreq_info fi;

	tree_new();
	read_cpufreq(tree_root, NULL, 0, &fi);
	ok(fi.cpus == 0 && !fi.governor[0] && !fi.driver[0] &&
	   !fi.cur_khz_max && !fi.max_khz && fi.boost == -1 &&
	   !fi.boost_source, "no sysfs: nothing known, no error");

	tree_mkdir("/sys/devices/system/cpu/cpu0");	/* a VM: no cpufreq */
	tree_mkdir("/sys/devices/system/cpu/cpufreq");
	read_cpufreq(tree_root, NULL, 0, &fi);
	ok(fi.cpus == 0 && fi.boost == -1, "CPUs without cpufreq: none counted");

	cpu_files(0, "performance\n", "intel_pstate\n", "3200000\n", "3900000\n");
	cpu_files(1, "performance\n", "intel_pstate\n", "2100000\n", "3900000\n");
	cpu_files(2, "powersave\n", "intel_pstate\n", "800000\n", "4100000\n");
	cpu_files(3, "performance\n", "intel_pstate\n", "3000000\n", "3900000\n");
	tree_write("/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
	read_cpufreq(tree_root, NULL, 0, &fi);
	ok(fi.cpus == 4 && !strcmp(fi.driver, "intel_pstate") &&
	   fi.cur_khz_min == 800000 && fi.cur_khz_max == 3200000 &&
	   fi.max_khz == 4100000, "all CPUs: driver, current range, highest max");
	ok((!strcmp(fi.governor, "performance,powersave") ||
	    !strcmp(fi.governor, "powersave,performance")),
	   "governors that differ: both, once each (%s)", fi.governor);
	ok(fi.boost == 0 && !strcmp(fi.boost_source, "intel_pstate/no_turbo"),
	   "intel_pstate/no_turbo 1: boost off");

	read_cpufreq(tree_root, cpus13, 3, &fi);
	ok(fi.cpus == 2 && !strcmp(fi.governor, "performance") &&
	   fi.cur_khz_min == 2100000 && fi.cur_khz_max == 3000000 &&
	   fi.max_khz == 3900000,
	   "--cpus 1,3,3: those CPUs, each once");

	tree_write("/sys/devices/system/cpu/cpufreq/boost", "1\n");
	read_cpufreq(tree_root, cpus0, 1, &fi);
	ok(fi.cpus == 1 && fi.boost == 1 && !strcmp(fi.boost_source, "cpufreq/boost") &&
	   fi.cur_khz_min == 3200000 && fi.cur_khz_max == 3200000,
	   "cpufreq/boost wins over intel_pstate: boost on; one CPU");

	tree_write("/sys/devices/system/cpu/cpufreq/boost", "x\n");
	tree_write("/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	tree_write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "fast\n");
	read_cpufreq(tree_root, cpus0, 1, &fi);
	ok(fi.boost == 1 && !strcmp(fi.boost_source, "intel_pstate/no_turbo") &&
	   !fi.cur_khz_max && fi.max_khz == 3900000,
	   "an unreadable boost file: the next source; an unparsable frequency: unknown");
	tree_free();
}

static void test_open_messages(void)
{
	char head[256], want[1024];
	const char *text;

	snprintf(head, sizeof(head),
		 "dma_map_benchmark: cannot open /sys/kernel/debug/dma_map_benchmark: %s\n",
		 strerror(ENOENT));

	snprintf(want, sizeof(want), "%s%s", head,
		 "dma_map_benchmark: debugfs is not mounted: mount -t debugfs none /sys/kernel/debug\n");
	is_str(CAPTURE(&cap, print_open_error, MAP_BENCH_PATH, ENOENT, OPEN_NO_DEBUGFS),
	       want, "not mounted: the mount command");
	snprintf(want, sizeof(want), "%s%s", head,
		 "dma_map_benchmark: the dma_map_benchmark module is not loaded: insmod dmacopy.ko, then dma_map_benchmark.ko (modprobe dma_map_benchmark loads both)\n");
	is_str(CAPTURE(&cap, print_open_error, MAP_BENCH_PATH, ENOENT, OPEN_NO_MODULE),
	       want, "not loaded: the insmod command");

	text = CAPTURE(&cap, print_open_error, MAP_BENCH_PATH, ENOENT, OPEN_NO_DEVICE);
	ok(!strncmp(text, head, strlen(head)), "no device: what failed first");
	has_str(text, "\necho dma_map_benchmark > /sys/bus/pci/devices/0000:00:04.0/driver_override\n"
		"echo 0000:00:04.0 > /sys/bus/pci/drivers_probe\n",
		"no device: upstream's two binding commands, each a whole line");
	has_str(text, "no device is bound", "no device: says what is wrong");
	has_str(text, "lspci", "no device: how to find a PCI device (lspci)");
	has_str(text, "ls /sys/bus/pci/devices", "no device: or ls /sys/bus/pci/devices");
	has_str(text, "placeholder", "no device: the address is a placeholder");
	has_str(text, "echo dma_map_benchmark > /sys/bus/platform/devices/NAME/driver_override\n"
		"echo NAME > /sys/bus/platform/drivers_probe\n",
		"no device: the platform-device variant");

	text = CAPTURE(&cap, print_open_error, DMAENGINE_BENCH_PATH, ENOENT,
		       OPEN_NO_DMAENGINE);
	ok(strstr(text, "cannot open /sys/kernel/debug/dmaengine_benchmark") &&
	   strstr(text, "has no dmaengine mode") && !strstr(text, "driver_override"),
	   "dmaengine file missing: no binding commands");

	has_str(CAPTURE(&cap, print_open_error, MAP_BENCH_PATH, EACCES,
			OPEN_PERMISSION), "run as root", "permission: run as root");

	snprintf(want, sizeof(want),
		 "dma_map_benchmark: cannot open /sys/kernel/debug/dma_map_benchmark: %s\n",
		 strerror(EIO));
	is_str(CAPTURE(&cap, print_open_error, MAP_BENCH_PATH, EIO, OPEN_OTHER), want,
	       "other errors: strerror only");
}

int main(int argc, char **argv)
{
	tap_init(argc, argv);
	opts_init(&opts, 4096);
	test_dmaengine_errors();
	test_dmaengine_details();
	test_missing_reason();
	test_map_ioctl_errors();
	test_map_ext_ioctl_errors();
	test_diagnose();
	test_cpus_online();
	test_cpufreq();
	test_open_messages();
	capture_free(&cap);
	return tap_done();
}
