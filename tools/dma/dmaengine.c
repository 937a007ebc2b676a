// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tool and the module share this tree's uapi header: one layout of
 * struct dmaengine_benchmark, grown at its end. A module of an earlier
 * layout does not know the ioctl's number (ENOTTY); one older than the
 * tool within this layout refuses the tool's larger structure with E2BIG
 * when the fields it does not know are set. print_dmaengine_error() says
 * which, and to load the module built with the tool: no retry with an
 * older request, which would hide a stale module.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "dmaengine.h"
#include "json.h"
#include "sysinfo.h"

_Static_assert(sizeof(struct dmaengine_benchmark) == DMAENGINE_BENCH_SIZE_VER1,
	       "struct dmaengine_benchmark changed size: name the new version");
_Static_assert(sizeof(struct dmaengine_bench_sample) ==
	       DMAENGINE_BENCH_SAMPLE_SIZE_VER1,
	       "struct dmaengine_bench_sample changed size: name the new version");

uint32_t dmaengine_samples_len(const struct bench_opts *o)
{
	unsigned int modes = __builtin_popcount(o->prep_modes);

	/* at most 10000 x 4 x 256, far below 2^32 */
	return o->runs * modes * o->channels;
}

void dmaengine_fill_request(const struct bench_opts *o,
			    struct dmaengine_benchmark *b,
			    struct dmaengine_bench_channel *channels,
			    struct dmaengine_bench_sample *samples,
			    uint32_t samples_len)
{
	memset(b, 0, sizeof(*b));
	b->size = sizeof(*b);
	b->flags = o->flags;
	b->prep_modes = o->prep_modes;
	b->channels = o->channels;
	b->folio_order = o->folio_order;
	if (o->flags & DMAENGINE_BENCH_F_DST_ORDER)
		b->dst_folio_order = o->dst_folio_order;
	b->sge = o->sge;
	b->bytes_per_channel = o->bytes_per_channel;
	b->runs = o->runs;
	b->warmup_runs = o->warmup_runs;
	b->src_node = o->src_node;
	b->dst_node = o->dst_node;
	b->timeout_ms = o->timeout_ms;
	memcpy(b->channel, o->channel, sizeof(b->channel));
	memcpy(b->device, o->device, sizeof(b->device));
	b->channels_ptr = (uintptr_t)channels;
	if (samples) {
		b->samples_ptr = (uintptr_t)samples;
		b->samples_len = samples_len;
	}
	b->depth = o->depth;
	b->sample_size = sizeof(*samples);
	if (o->nr_cpus) {
		b->cpus_ptr = (uintptr_t)o->cpus;
		b->nr_cpus = o->nr_cpus;
	}
}

uint64_t dmaengine_batches(const struct dmaengine_benchmark *b,
			   long page_size)
{
	uint64_t batch = (uint64_t)b->sge * ((uint64_t)page_size << b->folio_order);
	uint64_t n = batch ? b->bytes_per_channel / batch +
			     !!(b->bytes_per_channel % batch) : 1;

	return n ? n : 1;
}

void dmaengine_dry_run(FILE *f, const struct bench_opts *o)
{
	uint64_t batch = (uint64_t)o->sge * folio_bytes(o), batches;
	struct dmaengine_benchmark b;
	unsigned int i, mode;
	struct json j;

	dmaengine_fill_request(o, &b, NULL, NULL, 0);
	batches = dmaengine_batches(&b, o->page_size);
	json_init(&j, f);
	json_object_begin(&j);
	json_key_string(&j, "tool", PROG_NAME);
	json_key_string(&j, "mode", mode_name(o->mode));
	json_key_uint(&j, "channels", b.channels);
	json_key_uint(&j, "sge", b.sge);
	json_key_uint(&j, "folio_bytes", folio_bytes(o));
	json_key_uint(&j, "batch_bytes", batch);
	json_key_uint(&j, "bytes_per_channel", b.bytes_per_channel);
	json_key_uint(&j, "batches_per_channel", batches);
	json_key_uint(&j, "copied_per_channel", batches * batch);
	json_key_uint(&j, "runs", b.runs);
	json_key_uint(&j, "warmup_runs", b.warmup_runs);
	json_key(&j, "prep_modes");
	json_array_begin(&j);
	for (i = 0; i < DMAENGINE_BENCH_NR_MODES; i++) {
		mode = prep_mode_order[i];
		if (b.prep_modes & (1U << mode))
			json_string(&j, prep_mode_name(mode));
	}
	json_array_end(&j);
	json_object_end(&j);
	fputc('\n', f);
}

int dmaengine_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	struct dmaengine_bench_channel *channels = NULL;
	struct dmaengine_bench_sample *samples = NULL;
	struct dmaengine_benchmark b;
	struct report_ctx rctx = *ctx;
	struct cpufreq_info freq;
	uint32_t samples_len = 0;
	int fd, ret = 1;

	if (check_cpus_online("", o, stderr))
		return 2;
	fd = open_bench_file(DMAENGINE_BENCH_PATH, o->mode);
	if (fd < 0)
		return 1;
	channels = calloc(o->channels, sizeof(*channels));
	if (o->samples || o->per_channel) {
		samples_len = dmaengine_samples_len(o);
		samples = calloc(samples_len, sizeof(*samples));
	}
	if (!channels || (samples_len && !samples)) {
		fprintf(stderr, PROG_NAME ": cannot allocate %u samples of %zu bytes: lower --runs or --channels\n",
			samples_len, sizeof(*samples));
		goto out;
	}
	/* before the run: what the CPUs were set to when it started */
	read_cpufreq("", o->cpus, o->nr_cpus, &freq);
	rctx.cpufreq = &freq;
	dmaengine_fill_request(o, &b, channels, samples, samples_len);
	if (ioctl(fd, DMAENGINE_BENCHMARK, &b)) {
		print_dmaengine_error(stderr, errno, &b, channels, o);
		goto out;
	}
	if (b.samples_written > samples_len)
		b.samples_written = samples_len;
	report_dmaengine(stdout, &rctx, &(struct dmaengine_report){
		.opts = o, .b = &b, .channels = channels, .samples = samples,
	});
	ret = 0;
out:
	free(samples);
	free(channels);
	close(fd);
	return ret;
}
