// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "dmaengine.h"
#include "report.h"
#include "units.h"

#define DEBUGFS_DIR	"/sys/kernel/debug"
#define PCI_DRIVER	"/sys/bus/pci/drivers/dma_map_benchmark"
#define PLATFORM_DRIVER	"/sys/bus/platform/drivers/dma_map_benchmark"
#define CPU_ONLINE	"/sys/devices/system/cpu/online"

static bool exists(const char *root, const char *path)
{
	char buf[4096];
	struct stat st;

	snprintf(buf, sizeof(buf), "%s%s", root, path);
	return !stat(buf, &st);
}

/* debugfs_mounted() - per /proc/mounts, else /sys/kernel/debug has entries */
static bool debugfs_mounted(const char *root)
{
	char path[4096], line[1024], mnt[512], type[64];
	struct dirent *de;
	bool found = false;
	FILE *f;
	DIR *d;

	snprintf(path, sizeof(path), "%s/proc/mounts", root);
	f = fopen(path, "r");
	if (f) {
		while (!found && fgets(line, sizeof(line), f))
			found = sscanf(line, "%*s %511s %63s", mnt, type) == 2 &&
				!strcmp(mnt, DEBUGFS_DIR) &&
				!strcmp(type, "debugfs");
		fclose(f);
		return found;
	}
	snprintf(path, sizeof(path), "%s" DEBUGFS_DIR, root);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return found;
}

enum open_problem diagnose_open(const char *root, enum bench_mode mode,
				int err)
{
	if (err == EACCES || err == EPERM)
		return OPEN_PERMISSION;
	if (err != ENOENT)
		return OPEN_OTHER;
	if (!debugfs_mounted(root))
		return OPEN_NO_DEBUGFS;
	if (!exists(root, PCI_DRIVER) && !exists(root, PLATFORM_DRIVER))
		return OPEN_NO_MODULE;
	if (mode == MODE_DMAENGINE)
		return OPEN_NO_DMAENGINE;
	return OPEN_NO_DEVICE;
}

void print_open_error(FILE *f, const char *path, int err,
		      enum open_problem problem)
{
	fprintf(f, PROG_NAME ": cannot open %s: %s\n", path, strerror(err));
	switch (problem) {
	case OPEN_PERMISSION:
		fprintf(f, PROG_NAME ": debugfs is for root only: run as root\n");
		break;
	case OPEN_NO_DEBUGFS:
		fprintf(f, PROG_NAME ": debugfs is not mounted: mount -t debugfs none /sys/kernel/debug\n");
		break;
	case OPEN_NO_MODULE:
		fprintf(f, PROG_NAME ": the dma_map_benchmark module is not loaded: insmod dmacopy.ko, then dma_map_benchmark.ko (modprobe dma_map_benchmark loads both)\n");
		break;
	case OPEN_NO_DEVICE:
		fprintf(f,
PROG_NAME ": the dma_map_benchmark module is loaded but no device is bound to it.\n"
"Bind a PCI device; 0000:00:04.0 is a placeholder: find yours with\n"
"lspci -D or ls /sys/bus/pci/devices (unbind it from its driver first, if it\n"
"has one: echo 0000:00:04.0 > /sys/bus/pci/devices/0000:00:04.0/driver/unbind):\n"
"echo dma_map_benchmark > /sys/bus/pci/devices/0000:00:04.0/driver_override\n"
"echo 0000:00:04.0 > /sys/bus/pci/drivers_probe\n"
"or a platform device (ls /sys/bus/platform/devices), NAME being its name:\n"
"echo dma_map_benchmark > /sys/bus/platform/devices/NAME/driver_override\n"
"echo NAME > /sys/bus/platform/drivers_probe\n");
		break;
	case OPEN_NO_DMAENGINE:
		fprintf(f, PROG_NAME ": the dma_map_benchmark module is loaded but has no dmaengine mode: load the module built from this tree (with CONFIG_DMA_ENGINE)\n");
		break;
	case OPEN_OTHER:
		break;
	}
}

int open_bench_file(const char *path, enum bench_mode mode)
{
	int fd = open(path, O_RDWR);
	int err;

	if (fd < 0) {
		err = errno;
		print_open_error(stderr, path, err, diagnose_open("", mode, err));
	}
	return fd;
}

void print_map_ioctl_error(FILE *f, int err)
{
	fprintf(f, PROG_NAME ": DMA_MAP_BENCHMARK failed: %s", strerror(err));
	if (err == EINVAL)
		fprintf(f, "; see dmesg for the field the kernel refused");
	else if (err == EINTR)
		fprintf(f, "; interrupted");
	else if (err == ENOMEM)
		fprintf(f, "; the buffers (threads x granule pages) need more memory than a run may take: lower --threads or --granule (dmesg gives the sizes)");
	fputc('\n', f);
}

int check_cpus_online(const char *root, const struct bench_opts *o, FILE *err)
{
	char path[4096], online[4096];
	unsigned int i;
	size_t len;
	FILE *f;

	if (!o->nr_cpus)
		return 0;
	snprintf(path, sizeof(path), "%s" CPU_ONLINE, root);
	f = fopen(path, "r");
	if (!f)
		return 0;
	len = fread(online, 1, sizeof(online) - 1, f);
	fclose(f);
	online[len] = '\0';
	for (i = 0; i < o->nr_cpus; i++) {
		if (cpu_list_has(online, o->cpus[i]))	/* 1, or -1: unknown */
			continue;
		online[strcspn(online, "\n")] = '\0';
		fprintf(err, PROG_NAME ": --cpus: CPU %u is not online (online: %s)\n",
			(unsigned int)o->cpus[i], online);
		return -1;
	}
	return 0;
}

/* mul_sat() - a * b, UINT64_MAX if that overflows */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

void print_map_ext_ioctl_error(FILE *f, int err,
			       const struct map_benchmark_ext *m)
{
	char entry[32], total[32];

	fprintf(f, PROG_NAME ": DMA_MAP_BENCHMARK_EXT failed: %s\n",
		strerror(err));
	fprintf(f, PROG_NAME ": ");
	switch (err) {
	case ENOTTY:
		fprintf(f, "the loaded dma_map_benchmark module has no extended map interface (entries > 1024, --entry-size, --iterations, --cpus, --sync, --percentiles): load the module built from this tree");
		break;
	case EINVAL:
		fprintf(f, "the kernel refused the request; see dmesg for the field the kernel refused (nothing there: the module predates the extended map interface; load the module built from this tree)");
		break;
	case ETIMEDOUT:
		fprintf(f, "%u iterations did not finish within %u seconds: raise --seconds (at most %u) or lower --iterations",
			m->iterations, m->seconds, DMA_MAP_MAX_SECONDS);
		break;
	case ENOMEM:
		format_size(m->entry_size, entry, sizeof(entry));
		format_size(mul_sat(mul_sat(m->entries, m->entry_size),
				    m->threads), total, sizeof(total));
		fprintf(f, "buffers larger than memory allows: entries %u x entry size %s x %u threads = %s; lower --entries, --entry-size or --threads",
			m->entries, entry, m->threads, total);
		break;
	case EFAULT:
		fprintf(f, "the kernel could not access the request or its CPU list");
		break;
	case EINTR:
		fprintf(f, "interrupted");
		break;
	default:
		fprintf(f, "see dmesg");
		break;
	}
	fputc('\n', f);
}

/*
 * where() - "channel dma0chan1 (device soft_dma.0, driver soft_dma), timed
 * run 3 of 20, prep_memcpy_sg"
 */
static void where(char *buf, size_t len, const struct dmaengine_benchmark *b,
		  const struct dmaengine_bench_channel *ch)
{
	const char *mode = prep_mode_name(b->error_prep_mode);
	char at[128], run[48], num[32];

	if (ch && ch->name[0])
		snprintf(at, sizeof(at), "channel %.*s (device %.*s, driver %.*s)",
			 DMAENGINE_BENCH_NAME_LEN, ch->name,
			 DMAENGINE_BENCH_NAME_LEN, ch->device,
			 DMAENGINE_BENCH_NAME_LEN, ch->driver);
	else
		snprintf(at, sizeof(at), "channel #%u", b->error_channel);
	/* the kernel numbers the warm-up runs first, from 0 */
	if (b->error_run < b->warmup_runs)
		snprintf(run, sizeof(run), "warm-up run %u of %u",
			 b->error_run + 1, b->warmup_runs);
	else
		snprintf(run, sizeof(run), "timed run %u of %u",
			 b->error_run - b->warmup_runs + 1, b->runs);
	snprintf(num, sizeof(num), "prep mode %u", b->error_prep_mode);
	snprintf(buf, len, "%s, %s, %s", at, run, mode ? mode : num);
}

/* "channel dma0chan1 (driver soft_dma)", or "channel #1" without a name */
static const char *channel_driver(char *buf, size_t len,
				  const struct dmaengine_bench_channel *ch,
				  unsigned int index)
{
	if (ch && ch->name[0])
		snprintf(buf, len, "channel %.*s (driver %.*s)",
			 DMAENGINE_BENCH_NAME_LEN, ch->name,
			 DMAENGINE_BENCH_NAME_LEN, ch->driver);
	else
		snprintf(buf, len, "channel #%u", index);
	return buf;
}

/* what prep mode @mode needs beyond DMA_MEMCPY, for a message */
static const char *cap_of(unsigned int mode)
{
	const char *cap = prep_mode_cap(mode);

	return cap ? cap : "DMA_MEMCPY";
}

/* the channel advertises what prep mode @mode needs (prep_mode_cap()) */
static bool channel_has_cap(const struct dmaengine_bench_channel *ch,
			    unsigned int mode)
{
	switch (mode) {
	case DMAENGINE_BENCH_MODE_MEMCPY_SG:
		return ch->has_memcpy_sg;
	case DMAENGINE_BENCH_MODE_MEMCPY_VEC:
		return ch->has_memcpy_vec;
	default:
		return true;
	}
}

/*
 * no_cap_channel() - the first channel without the capability prep mode
 * @mode needs (DMA_MEMCPY_SG, DMA_MEMCPY_VEC), or NULL
 */
static const struct dmaengine_bench_channel *
no_cap_channel(const struct dmaengine_benchmark *b,
	       const struct dmaengine_bench_channel *channels, unsigned int mode)
{
	unsigned int i, n = dmaengine_channels_used(b);

	for (i = 0; channels && i < n && i < b->channels; i++) {
		const struct dmaengine_bench_channel *ch = &channels[i];

		if (ch->name[0] && !channel_has_cap(ch, mode))
			return ch;
	}
	return NULL;
}

#define NO_API_MEMCPY_SG \
	"this kernel has no dmaengine_prep_dma_memcpy_sg(): see kernel/patches/ in the project"
#define NO_API_MEMCPY_VEC \
	"this kernel has no dmaengine_prep_dma_memcpy_vec() (DMA_MEMCPY_VEC): the project's series in kernel/patches/v7.3/ adds it (v6.12/ for 6.12)"

void dmaengine_missing_reason(char *buf, size_t len,
			      const struct dmaengine_benchmark *b,
			      const struct dmaengine_bench_channel *channels,
			      unsigned int mode)
{
	const struct dmaengine_bench_channel *ch;
	char name[128];
	unsigned int why = mode < DMAENGINE_BENCH_MAX_PREP_MODES ?
			   result_of(b, mode)->missing : 0;

	switch (why) {
	case DMAENGINE_BENCH_ERR_NO_API:
		if (mode == DMAENGINE_BENCH_MODE_MEMCPY_SG)
			snprintf(buf, len, NO_API_MEMCPY_SG);
		else if (mode == DMAENGINE_BENCH_MODE_MEMCPY_VEC)
			snprintf(buf, len, NO_API_MEMCPY_VEC);
		else
			snprintf(buf, len, "this kernel lacks what prep mode %s needs",
				 prep_mode_name(mode) ? prep_mode_name(mode) : "?");
		break;
	case DMAENGINE_BENCH_ERR_NO_CAP:
		ch = no_cap_channel(b, channels, mode);
		snprintf(buf, len, "%s lacks %s",
			 ch ? channel_driver(name, sizeof(name), ch, 0) :
			 "a channel", cap_of(mode));
		break;
	default:
		snprintf(buf, len, "left out by the kernel (reason %u)", why);
		break;
	}
}

/* the kernel's bound on one batch: --timeout-ms, 0 meaning its default */
static unsigned int batch_timeout_ms(const struct dmaengine_benchmark *b)
{
	return b->timeout_ms ? b->timeout_ms :
			       DMAENGINE_BENCH_DEFAULT_TIMEOUT_MS;
}

/*
 * nomem_figures() - what a refusal for memory weighed: the batches a
 * channel copies and the bytes of folios the call holds, as the kernel
 * reports them (->batches_per_channel, ->buffer_bytes). A module of the
 * first published layout (DMAENGINE_BENCH_SIZE_VER1, whose reserved_out
 * these words were carved from) leaves them zero, and a valid request has
 * at least one batch: then they are derived as that kernel weighed them,
 * --bytes-per-channel rounded up to whole batches, at least one.
 */
static void nomem_figures(const struct dmaengine_benchmark *b,
			  long page_size, uint64_t batch, uint64_t *batches,
			  uint64_t *held)
{
	if (b->batches_per_channel) {
		*batches = b->batches_per_channel;
		*held = b->buffer_bytes;
		return;
	}
	*batches = dmaengine_batches(b, page_size);
	*held = mul_sat(mul_sat(mul_sat(b->flags & DMAENGINE_BENCH_F_DISTINCT ?
					*batches : 1, batch), 2), b->channels);
}

void print_dmaengine_error(FILE *f, int err,
			   const struct dmaengine_benchmark *b,
			   const struct dmaengine_bench_channel *channels,
			   const struct bench_opts *o)
{
	const struct dmaengine_bench_channel *ch =
		channels && b->error_channel < b->channels ?
		&channels[b->error_channel] : NULL;
	char at[256], chan[128], folio[32], total[32], per[32];
	uint64_t batch = mul_sat(b->sge, (uint64_t)o->page_size << b->folio_order);
	uint64_t batches, held;

	fprintf(f, PROG_NAME ": DMAENGINE_BENCHMARK failed: %s\n",
		strerror(err));
	where(at, sizeof(at), b, ch);
	format_size((uint64_t)o->page_size << b->folio_order, folio,
		    sizeof(folio));
	fprintf(f, PROG_NAME ": ");

	switch (b->error) {
	case DMAENGINE_BENCH_OK:
		if (err == ENOTTY)
			fprintf(f, "the loaded dma_map_benchmark module does not know DMAENGINE_BENCHMARK (ioctl %u): it predates the tool's layout of struct dmaengine_benchmark; load the module built with this tool",
				(unsigned int)_IOC_NR(DMAENGINE_BENCHMARK));
		else if (err == E2BIG)
			fprintf(f, "the loaded dma_map_benchmark module is older than this tool: it does not know the fields past its own struct dmaengine_benchmark (see dmesg); load the module built with this tool");
		else if (err == EINVAL)
			fprintf(f, "the kernel refused the request; see dmesg for the field the kernel refused");
		else if (err == EFAULT)
			fprintf(f, "the kernel could not access the request or its sample and channel arrays");
		else if (err == EINTR)
			fprintf(f, "interrupted");
		else
			fprintf(f, "see dmesg");
		break;
	case DMAENGINE_BENCH_ERR_INVAL:
		fprintf(f, "a field is out of range; see dmesg for the field the kernel refused");
		break;
	case DMAENGINE_BENCH_ERR_NO_CHANNEL:
		fprintf(f, "found fewer DMA_MEMCPY channels");
		if (b->channel[0])	/* --channel and --device */
			fprintf(f, " named %.*s", DMAENGINE_BENCH_NAME_LEN,
				b->channel);
		if (b->device[0])
			fprintf(f, " of device %.*s", DMAENGINE_BENCH_NAME_LEN,
				b->device);
		fprintf(f, " than --channels %u; --allow-fewer runs on those found; list them with ls /sys/class/dma",
			b->channels);
		break;
	case DMAENGINE_BENCH_ERR_NO_API:
		if (b->error_prep_mode == DMAENGINE_BENCH_MODE_MEMCPY_VEC)
			fprintf(f, NO_API_MEMCPY_VEC);
		else
			fprintf(f, NO_API_MEMCPY_SG " (DMA_MEMCPY_SG was removed from mainline in 6.0)");
		fprintf(f, "; run without --prep-modes to leave out the modes this kernel lacks, or with --prep-modes memcpy,cpu");
		break;
	case DMAENGINE_BENCH_ERR_NO_CAP:
		fputs(channel_driver(chan, sizeof(chan), ch, b->error_channel),
		      f);
		fprintf(f, " does not advertise %s; run without --prep-modes to leave out the modes it lacks, or with --prep-modes memcpy,cpu",
			cap_of(b->error_prep_mode));
		break;
	case DMAENGINE_BENCH_ERR_NOMEM:
		/* the kernel's figures: the batches a channel, the bytes held */
		nomem_figures(b, o->page_size, batch, &batches, &held);
		format_size(held, total, sizeof(total));
		if (b->flags & DMAENGINE_BENCH_F_DISTINCT) {
			format_size(mul_sat(batches, batch), per, sizeof(per));
			fprintf(f, "buffers larger than memory allows: --buffers distinct needs %s (%llu whole batches) x 2 (source and destination) x %u channels = %s; lower --bytes-per-channel or --channels, or use --buffers reuse (one batch of folios a channel)",
				per, (unsigned long long)batches, b->channels,
				total);
			break;
		}
		fprintf(f, "buffers larger than memory allows: sge %u x folio %s x 2 (source and destination) x %u channels = %s; lower --sge, --folio or --channels",
			b->sge, folio, b->channels, total);
		break;
	case DMAENGINE_BENCH_ERR_MAP:
		fprintf(f, "dma_map_sgtable() failed on %s: lower --sge or --folio, or check the DMA device's mask and IOMMU",
			at);
		break;
	case DMAENGINE_BENCH_ERR_PREP:
		fprintf(f, "a prep call returned NULL on %s: the driver refused the descriptor", at);
		if (ch && ch->name[0])
			fprintf(f, " (max_seg_size %u, folio %s, sge %u)",
				ch->max_seg_size, folio, b->sge);
		fprintf(f, "; its descriptor pool may be exhausted: try a smaller --sge or a larger --folio");
		break;
	case DMAENGINE_BENCH_ERR_SUBMIT:
		fprintf(f, "dmaengine_submit() failed on %s", at);
		break;
	case DMAENGINE_BENCH_ERR_RESULT:
		fprintf(f, "a transfer completed with an error on %s; see dmesg", at);
		break;
	case DMAENGINE_BENCH_ERR_TIMEOUT:
		fprintf(f, "a batch did not complete within %u ms on %s; raise --timeout-ms or try --poll",
			batch_timeout_ms(b), at);
		break;
	case DMAENGINE_BENCH_ERR_VERIFY:
		fprintf(f, "the destination differs from the source on %s: the copy is wrong", at);
		break;
	case DMAENGINE_BENCH_ERR_INTR:
		fprintf(f, "interrupted by a signal: the run was stopped");
		break;
	case DMAENGINE_BENCH_ERR_LIMIT:
		fprintf(f, "a channel limit was exceeded on %s", at);
		if (ch && ch->name[0])
			fprintf(f, ": max_seg_size %u, copy_align %u (log2 bytes), folio %s",
				ch->max_seg_size, ch->copy_align, folio);
		fprintf(f, "; use a smaller --folio or another channel");
		break;
	case DMAENGINE_BENCH_ERR_STALL:
		fprintf(f, "prep kept returning NULL on %s: the provider's descriptor pool made no progress within %u ms; raise --timeout-ms, or lower --sge or --depth",
			at, batch_timeout_ms(b));
		break;
	case DMAENGINE_BENCH_ERR_POLL:
		fputs(channel_driver(chan, sizeof(chan), ch, b->error_channel),
		      f);
		fprintf(f, " completes out of order (DMA_COMPLETION_NO_ORDER): its transfer status cannot be polled; run without --poll");
		break;
	case DMAENGINE_BENCH_ERR_UNBOUND:
		fprintf(f, "the DMA provider of %s was unbound during the run; the run was stopped", at);
		break;
	default:
		fprintf(f, "unknown error %u from the kernel (newer module?); see dmesg",
			b->error);
		break;
	}
	fputc('\n', f);
}
