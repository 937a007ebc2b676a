// SPDX-License-Identifier: GPL-2.0-only
/*
 * The tool sends version 2 of struct dmaengine_benchmark. A module older
 * than the tool refuses it with E2BIG (its tail is not zero); when the
 * options need nothing of version 2, the tool asks again with version 1.
 *
 * A version 2 module from before prep mode memcpy_vec refuses the default
 * request (every mode, DMAENGINE_BENCH_PREP_ALL with the memcpy_vec bit)
 * with EINVAL and DMAENGINE_BENCH_ERR_INVAL ("invalid prep_modes" in the
 * kernel log). The tool does not ask again without the bit: the module and
 * the tool come from the same tree, and a silent retry would hide a stale
 * module. print_dmaengine_error() says so, and how to run anyway.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diag.h"
#include "dmaengine.h"
#include "sysinfo.h"

_Static_assert(sizeof(struct dmaengine_benchmark) == DMAENGINE_BENCH_SIZE_VER2,
	       "struct dmaengine_benchmark changed size: bump the ABI version");
_Static_assert(offsetof(struct dmaengine_benchmark, depth) ==
	       DMAENGINE_BENCH_SIZE_VER1, "version 2 starts after version 1");
_Static_assert(offsetof(struct dmaengine_bench_sample, copy_ns) ==
	       DMAENGINE_BENCH_SAMPLE_SIZE_VER1,
	       "version 2 samples extend version 1's");

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

unsigned int dmaengine_v1_blockers(const struct bench_opts *o)
{
	unsigned int why = 0;

	if (o->prep_modes & ~(DMAENGINE_BENCH_PREP_MEMCPY |
			      DMAENGINE_BENCH_PREP_MEMCPY_SG))
		why |= V1_NEEDS_CPU;
	if (o->depth > 1)
		why |= V1_NEEDS_DEPTH;
	if (o->nr_cpus)
		why |= V1_NEEDS_CPUS;
	if (o->flags & DMAENGINE_BENCH_F_DISTINCT)
		why |= V1_NEEDS_DISTINCT;
	if (o->flags & DMAENGINE_BENCH_F_DST_ORDER)
		why |= V1_NEEDS_DST_ORDER;
	return why;
}

void dmaengine_v1_request(struct dmaengine_benchmark *b)
{
	b->size = DMAENGINE_BENCH_SIZE_VER1;
	/* flags version 1 lacks; SKIP_MISSING only comes with mode cpu */
	b->flags &= ~(DMAENGINE_BENCH_F_DISTINCT | DMAENGINE_BENCH_F_SKIP_MISSING);
	memset((char *)b + DMAENGINE_BENCH_SIZE_VER1, 0,
	       sizeof(*b) - DMAENGINE_BENCH_SIZE_VER1);
}

void dmaengine_from_v1(struct dmaengine_benchmark *b,
		       struct dmaengine_bench_sample *samples)
{
	unsigned int m, i;

	memset((char *)b + DMAENGINE_BENCH_SIZE_VER1, 0,
	       sizeof(*b) - DMAENGINE_BENCH_SIZE_VER1);
	for (m = 0; m < DMAENGINE_BENCH_NR_PREP_MODES; m++)
		b->results[m].r = b->result[m];
	b->prep_modes_run = b->prep_modes;
	b->depth = 1;
	if (!samples)
		return;
	/* from the last: entry i moves up, over entries not yet moved */
	for (i = b->samples_written; i-- > 0;) {
		memmove(&samples[i],
			(char *)samples + (size_t)i * DMAENGINE_BENCH_SAMPLE_SIZE_VER1,
			DMAENGINE_BENCH_SAMPLE_SIZE_VER1);
		memset((char *)&samples[i] + DMAENGINE_BENCH_SAMPLE_SIZE_VER1, 0,
		       sizeof(*samples) - DMAENGINE_BENCH_SAMPLE_SIZE_VER1);
	}
}

int dmaengine_run(const struct bench_opts *o, const struct report_ctx *ctx)
{
	struct dmaengine_bench_channel *channels = NULL;
	struct dmaengine_bench_sample *samples = NULL;
	struct dmaengine_benchmark b;
	struct report_ctx rctx = *ctx;
	struct cpufreq_info freq;
	uint32_t samples_len = 0;
	int fd, err, ret = 1;

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
		err = errno;
		if (err != E2BIG || b.error) {
			print_dmaengine_error(stderr, err, &b, channels, o);
			goto out;
		}
		/* a module older than the tool */
		if (dmaengine_v1_blockers(o)) {
			print_dmaengine_old_module(stderr, dmaengine_v1_blockers(o));
			goto out;
		}
		fprintf(stderr, PROG_NAME ": note: the module is older than the tool; using version 1 of DMAENGINE_BENCHMARK (no prep_stalls, no cpu mode)\n");
		dmaengine_fill_request(o, &b, channels, samples, samples_len);
		dmaengine_v1_request(&b);
		if (ioctl(fd, DMAENGINE_BENCHMARK, &b)) {
			print_dmaengine_error(stderr, errno, &b, channels, o);
			goto out;
		}
		if (b.samples_written > samples_len)
			b.samples_written = samples_len;
		dmaengine_from_v1(&b, samples);
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
