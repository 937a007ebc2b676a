// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dmaengine mode's runs: warm-up and timed runs, each of every prep
 * mode on every channel at once, the modes in rotating order; each
 * channel's figures of a timed run collected (and, if asked, copied out
 * as samples), then reduced over the runs to mean, deviation and range.
 */

#define pr_fmt(fmt)	KBUILD_MODNAME ": " fmt

#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "dmaengine_bench.h"

/*
 * The figures a run reduces to mean and deviation over the runs: its wall
 * time and the throughput that gives, derived from all channels, then
 * every phase of the uapi's list (DMAENGINE_BENCH_PHASES) the dmaengine
 * mode has, summed over the channels.
 */
enum {
	DMAENGINE_BENCH_FIELD_RUN_NS,
	DMAENGINE_BENCH_FIELD_BYTES_PER_SEC,
	DMAENGINE_BENCH_FIELD_PHASES,	/* the first phase */
	DMAENGINE_BENCH_NR_ALL_FIELDS =
		DMAENGINE_BENCH_FIELD_PHASES + DMAENGINE_BENCH_NR_PHASES
};

/*
 * Where a phase of the dmaengine mode is: its member in the channel's
 * figures (the library's; the CPU copy's is the bench's own), in
 * struct dmaengine_bench_result
 * and in struct dmaengine_bench_sample, all of one name.
 */
struct dmaengine_bench_phase_at {
	size_t fig;
	size_t result;
	size_t sample;
};

#define FIG(f)	offsetof(struct dmacopy_figures, f)
#define RES(f)	offsetof(struct dmaengine_bench_result, f)
#define SMP(f)	offsetof(struct dmaengine_bench_sample, f)

static const struct dmaengine_bench_phase_at dmaengine_bench_at[] = {
	[DMAENGINE_BENCH_PH_PREP] = { FIG(prep_ns), RES(prep_ns), SMP(prep_ns) },
	[DMAENGINE_BENCH_PH_SUBMIT] = { FIG(submit_ns), RES(submit_ns), SMP(submit_ns) },
	[DMAENGINE_BENCH_PH_ISSUE] = { FIG(issue_ns), RES(issue_ns), SMP(issue_ns) },
	[DMAENGINE_BENCH_PH_WAIT] = { FIG(wait_ns), RES(wait_ns), SMP(wait_ns) },
	[DMAENGINE_BENCH_PH_MAP] = { FIG(map_ns), RES(map_ns), SMP(map_ns) },
	[DMAENGINE_BENCH_PH_UNMAP] = { FIG(unmap_ns), RES(unmap_ns), SMP(unmap_ns) },
	[DMAENGINE_BENCH_PH_COPY] = { 0, RES(copy_ns), SMP(copy_ns) },
	[DMAENGINE_BENCH_PH_CONVERT] = { FIG(convert_ns), RES(convert_ns), SMP(convert_ns) },
	[DMAENGINE_BENCH_PH_STALLS] = { FIG(prep_stalls), RES(prep_stalls), SMP(prep_stalls) },
};

#undef SMP
#undef RES
#undef FIG

/* the prep modes that measure each phase: 0, not a dmaengine mode's */
#define DMAENGINE_BENCH_PH_MODES(id, name, unit, modes, migrate) \
	[DMAENGINE_BENCH_PH_##id] = (modes),
static const u32 dmaengine_bench_ph_modes[] = {
	DMAENGINE_BENCH_PHASES(DMAENGINE_BENCH_PH_MODES)
};

static_assert(ARRAY_SIZE(dmaengine_bench_ph_modes) == DMAENGINE_BENCH_NR_PHASES);
static_assert(ARRAY_SIZE(dmaengine_bench_at) <= DMAENGINE_BENCH_NR_PHASES);

/* whether phase @ph is one of the dmaengine mode's, which has its place */
static bool dmaengine_bench_has(unsigned int ph)
{
	if (!dmaengine_bench_ph_modes[ph])
		return false;
	/* a dmaengine phase the table above misses: said once, left out */
	return !WARN_ON_ONCE(ph >= ARRAY_SIZE(dmaengine_bench_at) ||
			     !dmaengine_bench_at[ph].result);
}

/* the phases prep mode @m measures, as the results' ->phases says */
static u64 dmaengine_bench_phases_of(unsigned int m)
{
	u64 mask = 0;
	unsigned int ph;

	for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++)
		if (dmaengine_bench_ph_modes[ph] & BIT(m) &&
		    dmaengine_bench_has(ph))
			mask |= DMAENGINE_BENCH_PHASE_BIT(ph);
	return mask;
}

/* Where figure @k has its statistic in struct dmaengine_bench_result. */
static size_t dmaengine_bench_stat_off(unsigned int k)
{
	if (k == DMAENGINE_BENCH_FIELD_RUN_NS)
		return offsetof(struct dmaengine_bench_result, run_ns);
	if (k == DMAENGINE_BENCH_FIELD_BYTES_PER_SEC)
		return offsetof(struct dmaengine_bench_result, bytes_per_sec);
	return dmaengine_bench_at[k - DMAENGINE_BENCH_FIELD_PHASES].result;
}

/* A channel's value of phase @ph: the library's, or the CPU copy's. */
static u64 dmaengine_bench_phase(const struct dmaengine_bench_chan *c,
				 unsigned int ph)
{
	size_t off = dmaengine_bench_at[ph].fig;

	if (ph == DMAENGINE_BENCH_PH_COPY)
		return c->cpu.copy_ns;
	return *(const u64 *)((const void *)dmacopy_chan_figures(c->cl) + off);
}

/*
 * One run of one prep mode on every channel at once. Returns 0, or the
 * first channel's error, which is recorded in @p.
 */
static int dmaengine_bench_run_once(struct dmaengine_bench_job *job,
				    struct dmaengine_benchmark *p,
				    unsigned int prep, unsigned int run_nr)
{
	unsigned int i;

	job->prep = prep;
	job->verify = p->flags & DMAENGINE_BENCH_F_VERIFY;
	atomic_set(&job->pending, job->nr);
	reinit_completion(&job->run_done);
	WRITE_ONCE(job->gen, job->gen + 1);
	wake_up_all(&job->wq);

	if (wait_for_completion_interruptible(&job->run_done)) {
		/* the threads see abort within a wait slice and end the run */
		WRITE_ONCE(job->abort, true);
		wait_for_completion(&job->run_done);
		if (!dmacopy_set_unbound(&job->set, NULL)) {
			p->error = DMAENGINE_BENCH_ERR_INTR;
			p->error_run = run_nr;
			p->error_prep_mode = prep;
			pr_info("run interrupted by a signal\n");
			return -EINTR;
		}
	}

	if (dmacopy_set_unbound(&job->set, &p->error_channel)) {
		p->error = DMAENGINE_BENCH_ERR_UNBOUND;
		p->error_run = run_nr;
		p->error_prep_mode = prep;
		return -ENODEV;
	}
	for (i = 0; i < job->nr; i++) {
		const struct dmaengine_bench_chan *c = &job->chans[i];
		int err;
		u32 error = dmaengine_bench_fail_error(c, &err);

		if (error) {
			p->error = error;
			p->error_channel = i;
			p->error_run = run_nr;
			p->error_prep_mode = prep;
			return err;
		}
	}
	return 0;
}

/* The run's figures: phases summed over channels, wall time overall. */
static void dmaengine_bench_collect(const struct dmaengine_bench_job *job,
				    u64 **v,
				    struct dmaengine_bench_result *res,
				    unsigned int r)
{
	ktime_t start = job->chans[0].start, end = job->chans[0].end;
	u64 run_ns;
	unsigned int i, k, ph;

	res->bytes = 0;
	res->prep_calls = 0;
	res->submits = 0;
	res->batches = 0;
	res->segments = 0;
	for (k = 0; k < DMAENGINE_BENCH_NR_ALL_FIELDS; k++)
		v[k][r] = 0;

	for (i = 0; i < job->nr; i++) {
		const struct dmaengine_bench_chan *c = &job->chans[i];
		const struct dmacopy_figures *f = dmacopy_chan_figures(c->cl);

		start = ktime_before(c->start, start) ? c->start : start;
		end = ktime_after(c->end, end) ? c->end : end;
		for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++)
			if (dmaengine_bench_has(ph))
				v[DMAENGINE_BENCH_FIELD_PHASES + ph][r] +=
					dmaengine_bench_phase(c, ph);
		res->bytes += f->bytes + c->cpu.bytes;
		res->prep_calls += f->prep_calls;
		res->submits += f->submits;
		res->batches += f->batches + c->cpu.batches;
		res->segments += f->segments + c->cpu.segments;
	}
	run_ns = max_t(u64, ktime_to_ns(ktime_sub(end, start)), 1);
	v[DMAENGINE_BENCH_FIELD_RUN_NS][r] = run_ns;
	v[DMAENGINE_BENCH_FIELD_BYTES_PER_SEC][r] =
		mul_u64_u64_div_u64(res->bytes, NSEC_PER_SEC, run_ns);
}

/* Entries of the caller's sample array are sample_size bytes apart. */
static int dmaengine_bench_copy_samples(const struct dmaengine_bench_job *job,
					struct dmaengine_benchmark *p,
					unsigned int prep, unsigned int r)
{
	size_t stride = p->sample_size ?: DMAENGINE_BENCH_SAMPLE_SIZE_VER1;
	size_t len = min(stride, sizeof(struct dmaengine_bench_sample));
	void __user *usamples = u64_to_user_ptr(p->samples_ptr);
	ktime_t start = job->chans[0].start;
	struct dmaengine_bench_sample s;
	unsigned int i, ph;

	for (i = 0; i < job->nr; i++)
		if (ktime_before(job->chans[i].start, start))
			start = job->chans[i].start;

	for (i = 0; i < job->nr && p->samples_written < p->samples_len; i++) {
		const struct dmaengine_bench_chan *c = &job->chans[i];
		const struct dmacopy_figures *f = dmacopy_chan_figures(c->cl);

		memset(&s, 0, sizeof(s));
		s.prep_mode = prep;
		s.run = r;
		s.channel = i;
		s.start_ns = ktime_to_ns(ktime_sub(c->start, start));
		s.end_ns = ktime_to_ns(ktime_sub(c->end, start));
		for (ph = 0; ph < DMAENGINE_BENCH_NR_PHASES; ph++)
			if (dmaengine_bench_has(ph))
				*(u64 *)((void *)&s + dmaengine_bench_at[ph].sample) =
					dmaengine_bench_phase(c, ph);
		s.bytes = f->bytes + c->cpu.bytes;
		s.prep_calls = f->prep_calls;
		s.submits = f->submits;
		if (copy_to_user(usamples + p->samples_written * stride, &s,
				 len))
			return -EFAULT;
		p->samples_written++;
	}
	return 0;
}

static void dmaengine_bench_reduce(struct dmaengine_bench_result *res,
				   u64 **v, unsigned int runs, unsigned int m)
{
	struct dmaengine_bench_stat *stat;
	unsigned int f;

	for (f = 0; f < DMAENGINE_BENCH_NR_ALL_FIELDS; f++) {
		if (f >= DMAENGINE_BENCH_FIELD_PHASES &&
		    !dmaengine_bench_has(f - DMAENGINE_BENCH_FIELD_PHASES))
			continue;
		stat = (void *)res + dmaengine_bench_stat_off(f);
		mb_mean_stddev(v[f], runs, &stat->mean, &stat->stddev);
	}
	res->runs = runs;
	res->phases = dmaengine_bench_phases_of(m);
}

/*
 * Warm-up runs, then timed runs. Each run goes through every mode, first
 * the one after the previous run's first, so no mode always goes first.
 */
int dmaengine_bench_runs(struct dmaengine_bench_job *job,
			 struct dmaengine_benchmark *p)
{
	u64 *vals[DMAENGINE_BENCH_NR_MODES][DMAENGINE_BENCH_NR_ALL_FIELDS];
	unsigned int total = p->warmup_runs + p->runs, r, k, m, f;
	unsigned int order[DMAENGINE_BENCH_NR_MODES];
	unsigned int nmodes = 0;
	u64 *store;
	int ret = 0;

	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
		if (job->modes & BIT(m))
			order[nmodes++] = m;

	store = kvcalloc(array_size(DMAENGINE_BENCH_NR_MODES *
				    DMAENGINE_BENCH_NR_ALL_FIELDS, p->runs),
			 sizeof(*store), GFP_KERNEL);
	if (!store)
		return -ENOMEM;
	for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
		for (f = 0; f < DMAENGINE_BENCH_NR_ALL_FIELDS; f++)
			vals[m][f] = store + (size_t)p->runs *
				(m * DMAENGINE_BENCH_NR_ALL_FIELDS + f);

	for (r = 0; r < total && !ret; r++) {
		for (k = 0; k < nmodes && !ret; k++) {
			unsigned int timed = r - p->warmup_runs;

			m = order[(r + k) % nmodes];
			ret = dmaengine_bench_run_once(job, p, m, r);
			if (ret || r < p->warmup_runs)
				continue;
			dmaengine_bench_collect(job, vals[m], &p->results[m],
						timed);
			if (p->samples_ptr)
				ret = dmaengine_bench_copy_samples(job, p, m,
								   timed);
		}
	}

	if (!ret) {
		for (m = 0; m < DMAENGINE_BENCH_NR_MODES; m++)
			if (job->modes & BIT(m))
				dmaengine_bench_reduce(&p->results[m], vals[m],
						       p->runs, m);
		p->prep_modes_run = job->modes;
	}
	kvfree(store);
	return ret;
}
